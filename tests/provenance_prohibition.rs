//! A rule that asks for what the cited rule forbids: the note says `should be retried once`
//! where the cited sentence says `do not retry it`. Too few words for the sentence match,
//! but the denied verb, in a rule the entry cites, binds the two: `contradicted`.

use crate::common::{check_json, dream_fixture, flag_rows, write};

const SESSION: &str = "9c0b1b17-1111-4222-8333-444455556666";

fn log() -> String {
    let lines = [
        r#"{"timestamp":"2026-06-01T08:00:00Z","role":"user","content":"Step 3 runs the failing command. The failure is intentional; do not retry it."}"#,
        r#"{"timestamp":"2026-06-01T08:00:05Z","role":"assistant","content":"Understood."}"#,
        r#"{"timestamp":"2026-06-01T08:01:00Z","role":"user","content":"Never squash the release branch. Squash feature branches before merging."}"#,
        r#"{"timestamp":"2026-06-01T08:01:05Z","role":"assistant","content":"Noted."}"#,
    ];
    lines.join("\n") + "\n"
}

fn check(note: &str, line: u32) -> Vec<crate::common::FlagRow> {
    let changes = format!("- steps.md: the capture steps ({SESSION}.jsonl:{line})\n");
    let (g, dream, memory) = dream_fixture(
        &[("MEMORY.md", "- [Steps](steps.md)\n")],
        &[("MEMORY.md", "- [Steps](steps.md)\n"), ("steps.md", note)],
        &changes,
    );
    write(&memory.parent().unwrap().join(format!("{SESSION}.jsonl")), &log());
    let (_, v) = check_json(&dream, &["--memory", memory.to_str().unwrap(), "--tz", "UTC"]);
    drop(g);
    flag_rows(&v)
}

fn contradicted(rows: &[crate::common::FlagRow]) -> bool {
    rows.iter().any(|r| r.0 == "steps.md#1" && r.1 == "contradicted")
}

#[test]
fn a_rule_asking_for_what_the_cited_rule_forbids_is_contradicted() {
    let rows = check("- Step 3: the failure is expected to be flaky and should be retried once before giving up.\n", 1);
    assert!(contradicted(&rows), "{rows:#?}");
    let rows = check("- Step 3: the failure is intentional and must not be retried.\n", 1);
    assert!(rows.is_empty(), "{rows:#?}");
}

#[test]
fn a_verb_the_cited_lines_also_ask_for_is_no_contradiction() {
    // The cited lines forbid squashing one branch and ask for it on others.
    let rows = check("- Always squash feature branches before a merge.\n", 3);
    assert!(!contradicted(&rows), "{rows:#?}");
}
