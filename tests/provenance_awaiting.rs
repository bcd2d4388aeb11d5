//! A proposal nobody answered: the assistant proposes and asks the user at the end of the
//! session, and the user types nothing after it. A note that records the proposal as
//! decided is `speculative-source`; one that records it as a proposal is not, nor one
//! whose source the user did answer.

use crate::common::{check_json, dream_fixture, flag_rows, write};

const SESSION: &str = "a11a0a11-3333-4444-8555-666677778888";

fn flags(note: &str, answered: bool) -> Vec<crate::common::FlagRow> {
    let mut log = vec![
        r#"{"timestamp":"2026-05-04T07:00:00Z","role":"user","content":"should we split the ingest job into parallel workers or keep one?"}"#,
        r#"{"timestamp":"2026-05-04T07:00:20Z","role":"assistant","content":"I suggest five parallel workers for the ingest job, one per region. Before I start: should the EU region be included?"}"#,
    ];
    if answered {
        log.push(r#"{"timestamp":"2026-05-04T07:02:00Z","role":"user","content":"yes, go ahead with five"}"#);
    }
    let changes = format!("- ingest.md: how the ingest job runs ({SESSION}.jsonl:2)\n");
    let (g, dream, memory) = dream_fixture(
        &[("MEMORY.md", "- [Ingest](ingest.md)\n")],
        &[("MEMORY.md", "- [Ingest](ingest.md)\n"), ("ingest.md", note)],
        &changes,
    );
    write(&memory.parent().unwrap().join(format!("{SESSION}.jsonl")), &(log.join("\n") + "\n"));
    let (_, v) = check_json(&dream, &["--memory", memory.to_str().unwrap(), "--tz", "UTC"]);
    drop(g);
    flag_rows(&v)
}

#[test]
fn a_proposal_nobody_answered_recorded_as_decided_is_speculative() {
    let rows = flags("Decision: five parallel workers for the ingest job, one per region.\n", false);
    assert!(rows.iter().any(|r| r.0 == "ingest.md#1" && r.1 == "speculative-source"), "{rows:#?}");
}

#[test]
fn a_proposal_recorded_as_one_or_answered_is_not() {
    let rows = flags("Proposed, not decided yet: five parallel workers for the ingest job, one per region.\n", false);
    assert!(rows.is_empty(), "{rows:#?}");
    let rows = flags("Decision: five parallel workers for the ingest job, one per region.\n", true);
    assert!(rows.iter().all(|r| r.1 != "speculative-source"), "{rows:#?}");
}

fn plan_flags(note: &str, answered: bool) -> Vec<crate::common::FlagRow> {
    let mut log = vec![
        r#"{"timestamp":"2026-05-05T07:00:00Z","role":"user","content":"五个任务都要做，你准备怎么做？开几个 subagent 吗？"}"#,
        r#"{"timestamp":"2026-05-05T07:00:30Z","role":"assistant","content":"我的建议：\n- 建 3 个目录：`ingest-eu/`、`ingest-us/`、`ingest-apac/`\n- 每个 subagent 负责一个区域\n\n开始之前先问你：EU 区域要包含吗？"}"#,
    ];
    if answered {
        log.push(r#"{"timestamp":"2026-05-05T07:02:00Z","role":"user","content":"要包含，开始吧"}"#);
    }
    let changes = format!("- ingest.md: the plan ({SESSION}.jsonl:1-2)\n");
    let (g, dream, memory) = dream_fixture(
        &[("MEMORY.md", "- [Ingest](ingest.md)\n")],
        &[("MEMORY.md", "- [Ingest](ingest.md)\n"), ("ingest.md", note)],
        &changes,
    );
    write(&memory.parent().unwrap().join(format!("{SESSION}.jsonl")), &(log.join("\n") + "\n"));
    let (_, v) = check_json(&dream, &["--memory", memory.to_str().unwrap(), "--tz", "UTC"]);
    drop(g);
    flag_rows(&v)
}

#[test]
fn a_plan_summarised_as_decided_is_judged_by_its_values() {
    // The note's words are far from any one sentence of the list; its paths bind it to the
    // proposal nobody answered.
    let decided = "当前进度：已决定新建 3 个目录（`ingest-eu/` … `ingest-apac/`），每个区域一个 subagent 并行完成。\n";
    let rows = plan_flags(decided, false);
    assert!(rows.iter().any(|r| r.0 == "ingest.md#1" && r.1 == "speculative-source"), "{rows:#?}");
    let rows = plan_flags(decided, true);
    assert!(rows.iter().all(|r| r.1 != "speculative-source"), "{rows:#?}");
    let proposed = "当前进度：助手建议新建 3 个目录（`ingest-eu/` … `ingest-apac/`），尚未决定。\n";
    let rows = plan_flags(proposed, false);
    assert!(rows.iter().all(|r| r.1 != "speculative-source"), "{rows:#?}");
}
