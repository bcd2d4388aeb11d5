//! A claim said on the one line between two cited lines of the same transcript (`:4` and
//! `:6` cite the exchange around line 5) is sourced: a reader following the citations reads
//! it. Any other line off the citations is still `citation-unsupported`.

use crate::common::{check_json, dream_fixture, flag_rows, write};

const SESSION: &str = "be7ee000-1111-4222-8333-444455556666";

fn log() -> String {
    let lines = [
        r#"{"timestamp":"2026-05-04T09:00:00Z","role":"user","content":"clone the repo please"}"#,
        r#"{"timestamp":"2026-05-04T09:00:05Z","role":"tool","content":"Permission denied (publickey)."}"#,
        r#"{"timestamp":"2026-05-04T09:00:09Z","role":"assistant","content":"SSH failed. Try HTTPS instead: git clone https://git.example.org/team/ledger.git"}"#,
        r#"{"timestamp":"2026-05-04T09:00:30Z","role":"user","content":"yes, clone with https from now on"}"#,
        r#"{"timestamp":"2026-05-04T09:00:40Z","role":"assistant","content":"Cloned."}"#,
    ];
    lines.join("\n") + "\n"
}

fn check(cites: &str) -> Vec<crate::common::FlagRow> {
    let note = "Clone with HTTPS, e.g. `git clone https://git.example.org/team/ledger.git`.\n";
    let changes = format!("- clone.md: clone with https ({cites})\n");
    let (g, dream, memory) = dream_fixture(
        &[("MEMORY.md", "- [Clone](clone.md)\n")],
        &[("MEMORY.md", "- [Clone](clone.md)\n"), ("clone.md", note)],
        &changes,
    );
    write(&memory.parent().unwrap().join(format!("{SESSION}.jsonl")), &log());
    let (_, v) = check_json(&dream, &["--memory", memory.to_str().unwrap(), "--tz", "UTC"]);
    drop(g);
    flag_rows(&v)
}

#[test]
fn a_claim_on_the_line_between_two_cited_lines_is_sourced() {
    let rows = check(&format!("{SESSION}.jsonl:2, {SESSION}.jsonl:4"));
    assert!(rows.iter().all(|r| r.1 != "citation-unsupported"), "{rows:#?}");
}

#[test]
fn a_claim_two_lines_off_the_citations_is_not() {
    let rows = check(&format!("{SESSION}.jsonl:1, {SESSION}.jsonl:5"));
    assert!(rows.iter().any(|r| r.1 == "citation-unsupported"), "{rows:#?}");
    let rows = check(&format!("{SESSION}.jsonl:4"));
    assert!(rows.iter().any(|r| r.1 == "citation-unsupported"), "{rows:#?}");
}
