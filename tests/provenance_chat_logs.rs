//! Transcripts in other chat-log shapes than Claude Code's: a bare message per line
//! (`{"role":…,"content":…}`, the content a string, a list of blocks, or one block), tool
//! calls and results named `tool_id`/`tool_name`/`output`. Their lines say what they say,
//! speak by their role, and a correction in the next user line overrules a proposal.

use crate::common::{check_json, claim_status, dream_fixture, flag_rows, write};

const LOG: &str = r#"{"timestamp":"2026-02-25T04:48:20.464Z","role":"user","content":{"type":"text","text":"how many rows does the orders fixture have?"}}
{"timestamp":"2026-02-25T04:48:23.541Z","role":"assistant","content":{"type":"tool_use","tool_name":"Bash","tool_id":"toolu_1","input":{"command":"wc -l fixtures/orders.csv"}}}
{"timestamp":"2026-02-25T04:48:26.796Z","role":"tool","content":{"type":"tool_result","tool_id":"toolu_1","output":"The orders fixture has 64 rows."}}
{"role":"assistant","content":"I'll add a cron job to refresh the fixture nightly."}
{"role":"user","content":"no, don't add a cron job, use the queue"}
{"role":"assistant","content":[{"type":"text","text":"OK: the refresh goes through the queue."}]}
{"role":"user","content":"Always run the 214 integration tests before every push."}
"#;

fn check(note: &str, changes: &str) -> serde_json::Value {
    let (g, dream, memory) = dream_fixture(
        &[("MEMORY.md", "- [Fixtures](fixtures.md)\n")],
        &[("MEMORY.md", "- [Fixtures](fixtures.md)\n"), ("fixtures.md", note)],
        changes,
    );
    write(&memory.parent().unwrap().join("c0ffee00-1111-4222-8333-444455556666.jsonl"), LOG);
    let (_, v) = check_json(&dream, &["--memory", memory.to_str().unwrap(), "--tz", "UTC"]);
    drop(g);
    v
}

#[test]
fn a_value_in_a_bare_tool_result_is_sourced_there() {
    let v = check(
        "The orders fixture has 64 rows.\n",
        "- fixtures.md: the fixture's size (c0ffee00-1111-4222-8333-444455556666.jsonl:3)\n",
    );
    assert_eq!(
        claim_status(&v, "fixtures.md#1", "64 rows"),
        ("sourced".into(), "c0ffee00-1111-4222-8333-444455556666.jsonl:3".into())
    );
    assert!(flag_rows(&v).is_empty(), "{:#?}", flag_rows(&v));
}

#[test]
fn a_changed_value_in_a_bare_log_is_flagged() {
    let v = check(
        "The orders fixture has 40 rows.\n",
        "- fixtures.md: the fixture's size (c0ffee00-1111-4222-8333-444455556666.jsonl:3)\n",
    );
    let rows = flag_rows(&v);
    assert!(rows.iter().any(|r| r.0 == "fixtures.md#1" && r.1 == "contradicted"), "{rows:#?}");
}

#[test]
fn a_proposal_the_next_bare_user_line_turns_down_is_overruled() {
    let v = check(
        "A nightly cron job refreshes the fixture.\n",
        "- fixtures.md: how the fixture is refreshed (c0ffee00-1111-4222-8333-444455556666.jsonl:4)\n",
    );
    let rows = flag_rows(&v);
    assert!(rows.iter().any(|r| r.0 == "fixtures.md#1" && r.1 == "citation-overruled"), "{rows:#?}");
}

#[test]
fn a_value_the_note_denies_and_the_source_asserts_is_contradicted() {
    // Few words in common with the cited sentence: the value anchors the two.
    let v = check(
        "The seed loader does not insert 64 rows.\n",
        "- fixtures.md: the fixture's size (c0ffee00-1111-4222-8333-444455556666.jsonl:3)\n",
    );
    let rows = flag_rows(&v);
    assert!(rows.iter().any(|r| r.0 == "fixtures.md#1" && r.1 == "contradicted"), "{rows:#?}");
    // The note that says it the source's way is not.
    let v = check(
        "The orders fixture has 64 rows, not 40.\n",
        "- fixtures.md: the fixture's size (c0ffee00-1111-4222-8333-444455556666.jsonl:3)\n",
    );
    assert!(flag_rows(&v).is_empty(), "{:#?}", flag_rows(&v));
}

#[test]
fn a_value_said_with_the_other_side_of_an_antonym_pair_is_contradicted() {
    let changes = "- fixtures.md: when the suite runs (c0ffee00-1111-4222-8333-444455556666.jsonl:7)\n";
    let v = check("Run the 214 integration tests after every push.\n", changes);
    let rows = flag_rows(&v);
    assert!(rows.iter().any(|r| r.0 == "fixtures.md#1" && r.1 == "contradicted"), "{rows:#?}");
    let v = check("Run the 214 integration tests before every push.\n", changes);
    assert!(flag_rows(&v).is_empty(), "{:#?}", flag_rows(&v));
}
