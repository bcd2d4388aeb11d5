//! Who said each cited line, in the evidence pane at 80×24: where the pane is too short for
//! the entries in context, each cited line is one line led by its speaker as the analysis
//! found it — the tool whose result it is (`tool Bash`), a sub-agent — not the role the JSONL
//! line carries (a tool result is a `user` line, a sub-agent's reply an `assistant` one).

use dreamreview::faces::ui::script;
use dreamreview::faces::ui::snapshot::to_text;
use dreamreview::faces::ui::state::Progress;
use dreamreview::faces::ui::theme::{Theme, ThemeName};

#[test]
fn the_evidence_pane_names_the_tool_and_the_sub_agent_at_80x24() {
    let dir = tempfile::Builder::new().prefix("drtui").tempdir().unwrap();
    let mut app = script::open_demo(dir.path(), (80, 24), Theme::new(ThemeName::Dark)).unwrap();
    assert_eq!(app.progress, Progress::Done);
    // database.md#1: the migration's Bash output, and the sub-agent's schema report.
    script::drive(&mut app, "<Tab> <Tab>").unwrap();
    let text = to_text(&script::render(&app));
    let pane: Vec<&str> = text.lines().filter_map(|l| l.split('│').nth(3)).collect();
    let cited = |from: &str| pane.iter().find(|l| l.starts_with(from)).map(|l| l.trim_end().to_string());
    let bash = cited("▶ 8b2d4e6f….jsonl:3 ").unwrap_or_else(|| panic!("{text}"));
    assert!(bash.starts_with("▶ 8b2d4e6f….jsonl:3 tool Bash: \"INFO"), "{bash}\n{text}");
    let agent = cited("▶ 8b2d4e6f…/subagents/agent-a1b2c3d.jsonl:2 ").unwrap_or_else(|| panic!("{text}"));
    assert!(agent.starts_with("▶ 8b2d4e6f…/subagents/agent-a1b2c3d.jsonl:2 sub-agent: \""), "{agent}\n{text}");
    // The assistant's own line keeps its role.
    let own = cited("▶ 8b2d4e6f….jsonl:4 ").unwrap_or_else(|| panic!("{text}"));
    assert!(own.starts_with("▶ 8b2d4e6f….jsonl:4 assistant: \"Migrations"), "{own}\n{text}");
}

#[test]
fn the_kept_evidence_names_the_tool_and_the_sub_agent_at_80x24() {
    let dir = tempfile::Builder::new().prefix("drtui").tempdir().unwrap();
    let mut app = script::open_demo(dir.path(), (80, 24), Theme::new(ThemeName::Dark)).unwrap();
    // database.md#1 accepted past its secret question, committed, its commit opened.
    script::drive(&mut app, "<Tab> <Tab> y y c <Enter> h <Enter>").unwrap();
    let text = to_text(&script::render(&app));
    let pane: Vec<&str> = text.lines().filter_map(|l| l.split('│').nth(3)).collect();
    let cited = |from: &str| pane.iter().find(|l| l.starts_with(from)).map(|l| l.trim_end().to_string());
    let bash = cited("▶ 8b2d4e6f….jsonl:3 ").unwrap_or_else(|| panic!("{text}"));
    assert!(bash.starts_with("▶ 8b2d4e6f….jsonl:3 tool Bash: \"INFO"), "{bash}\n{text}");
    let agent = cited("▶ 8b2d4e6f…/subagents/agent-a1b2c3d.jsonl:2 ").unwrap_or_else(|| panic!("{text}"));
    assert!(agent.starts_with("▶ 8b2d4e6f…/subagents/agent-a1b2c3d.jsonl:2 sub-agent: \""), "{agent}\n{text}");
}
