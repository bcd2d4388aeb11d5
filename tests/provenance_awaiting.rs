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
