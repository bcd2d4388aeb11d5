//! Work handed to a sub-agent is not work done: a note that records as done (`created`,
//! `installed`, `作成済み`) what the cited line only asks a sub-agent to do, when nothing in
//! the session answers that call, is `speculative-source`. With the sub-agent's result in
//! the session, or a note that says it was only asked, nothing is flagged.

use crate::common::{check_json, dream_fixture, flag_rows, write};

const SESSION: &str = "de1e9a7e-1111-4222-8333-444455556666";

fn task(answered: bool) -> String {
    let mut lines = vec![
        r#"{"type":"user","timestamp":"2026-07-01T10:00:00Z","message":{"role":"user","content":"build me a todo app"}}"#.to_string(),
        r#"{"type":"assistant","timestamp":"2026-07-01T10:00:05Z","message":{"role":"assistant","content":[{"type":"text","text":"I'll hand the setup to a sub-agent."}]}}"#.to_string(),
        r#"{"type":"assistant","timestamp":"2026-07-01T10:00:08Z","message":{"role":"assistant","content":[{"type":"tool_use","id":"toolu_setup1","name":"Task","input":{"subagent_type":"general-purpose","description":"Setup","prompt":"Create the project:\n1. Run `npx create-next-app@latest todo-app --typescript`\n2. Install lucide-react for icons\nReturn a summary."}}]}}"#.to_string(),
    ];
    if answered {
        lines.push(r#"{"type":"user","timestamp":"2026-07-01T10:03:00Z","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_setup1","content":"Created todo-app with npx create-next-app@latest todo-app --typescript and installed lucide-react."}]}}"#.to_string());
    }
    lines.push(r#"{"type":"assistant","timestamp":"2026-07-01T10:03:30Z","message":{"role":"assistant","content":[{"type":"text","text":"Next I will write the components."}]}}"#.to_string());
    lines.join("\n") + "\n"
}

fn check(note: &str, answered: bool) -> Vec<crate::common::FlagRow> {
    let changes = format!("- todo.md: project setup ({SESSION}.jsonl:3)\n");
    let (g, dream, memory) = dream_fixture(
        &[("MEMORY.md", "- [Todo](todo.md)\n")],
        &[("MEMORY.md", "- [Todo](todo.md)\n"), ("todo.md", note)],
        &changes,
    );
    write(&memory.parent().unwrap().join(format!("{SESSION}.jsonl")), &task(answered));
    let (_, v) = check_json(&dream, &["--memory", memory.to_str().unwrap(), "--tz", "UTC"]);
    drop(g);
    flag_rows(&v)
}

fn speculative(rows: &[crate::common::FlagRow]) -> bool {
    rows.iter().any(|r| r.0 == "todo.md#1" && r.1 == "speculative-source")
}

#[test]
fn work_only_handed_to_a_sub_agent_is_not_done() {
    let rows = check(
        "- Project created with `npx create-next-app@latest todo-app --typescript`; lucide-react installed.\n",
        false,
    );
    assert!(speculative(&rows), "{rows:#?}");
    let rows =
        check("- `npx create-next-app@latest todo-app --typescript` で作成済み。lucide-react も導入済み。\n", false);
    assert!(speculative(&rows), "{rows:#?}");
}

#[test]
fn a_sub_agent_that_answered_or_a_note_that_says_asked_is_fine() {
    let rows = check(
        "- Project created with `npx create-next-app@latest todo-app --typescript`; lucide-react installed.\n",
        true,
    );
    assert!(!speculative(&rows), "{rows:#?}");
    let rows = check(
        "- The setup sub-agent was asked to run `npx create-next-app@latest todo-app --typescript` and add lucide-react; no result yet.\n",
        false,
    );
    assert!(!speculative(&rows), "{rows:#?}");
}
