//! The English scenario (`tests/fixtures/scenarios/en-ledger`): a Go payments service, two
//! sessions and a sub-agent. Exact flags, every citation form it uses, and each way a claim
//! can stand: sourced (also by a sub-agent), weak (an uncited sub-agent line, another
//! session), carried, and unsourced (only in the JSON envelope, only in thinking).

use crate::common::*;

const S1: &str = "9d3c41e7-2b8a-4f0e-a6d5-1c7e0b94f2a8.jsonl";
const AGENT: &str = "9d3c41e7-2b8a-4f0e-a6d5-1c7e0b94f2a8/subagents/agent-a4f2c19.jsonl";
const S2: &str = "e51b7a30-6c2d-4d8e-9f13-0a4b2c6d8e71.jsonl";
const MISSING: &str = "0f8e2d14-5a6b-4c7d-8e9f-a0b1c2d3e4f5.jsonl";
/// The `uuid` of session 2's line 5, which the dream copied into a note.
const ENVELOPE_UUID: &str = "b104cd0a-e08f-4168-a5f8-11009736215c";

fn checked() -> (tempfile::TempDir, std::path::PathBuf, i32, serde_json::Value) {
    let (g, dream, _memory) = scenario("en-ledger");
    let (code, v) = check_json(&dream, &[]);
    (g, dream, code, v)
}

#[test]
fn english_scenario_has_exactly_the_expected_flags() {
    let (_g, _dream, code, v) = checked();
    assert_eq!(
        flag_rows(&v),
        vec![
            flag_row("CHANGES.md #5", "citation-unresolved", "error", &format!("{S2}:99")),
            flag_row("CHANGES.md #6", "citation-unresolved", "error", &format!("{MISSING}:12")),
            // Said in a line no entry of the hunk cites: the citation points elsewhere.
            flag_row("deploy.md#1", "citation-unsupported", "warning", "./scripts/release.sh"),
            flag_row("deploy.md#1", "citation-unsupported", "warning", "Marcus"),
            flag_row("deploy.md#1", "inferred-date", "warning", "2026-09-15"),
            flag_row("deploy.md#1", "unsourced-claim", "warning", "/srv/ledger-api"),
            flag_row("deploy.md#1", "unsourced-claim", "warning", ENVELOPE_UUID),
            flag_row("deploy.md#1", "unsourced-claim", "warning", "release/2026.09"),
            flag_row("deploy.md#1", "unsourced-claim", "warning", "version 2.1.97"),
            // (`72 hours` is live memory's `up to 3 days`, in hours: carried over.)
            flag_row("testing.md#1", "citation-unsupported", "warning", "testcontainers.properties"),
            flag_row("testing.md#2", "unsourced-claim", "warning", "96 times"),
        ]
    );
    assert_eq!(code, 1, "citation-unresolved is an error");
    assert_eq!(v["summary"]["flags"]["error"], 2);
    assert_eq!(v["summary"]["flags"]["warning"], 9);
    assert_eq!(v["summary"]["hunks"], 4);
}

#[test]
fn relative_phrases_behind_the_inferred_dates() {
    let (_g, _dream, _, v) = checked();
    // "3 days ago" is in the line entry #3 cites, said on 2026-09-14: it states 2026-09-11,
    // which the note gives (issue 14: what a cited phrase denotes is what its line states).
    assert_eq!(claim_status(&v, "testing.md#2", "2026-09-11"), ("sourced".into(), format!("{S1}:3")));
    // "yesterday" is on a line no entry cites: the scan finds it, and the flag shows its
    // arithmetic and its line's timestamp.
    let f = flag_at(&v, "deploy.md#1", "inferred-date", "2026-09-15");
    assert_eq!(f["source"], format!("{S2}:1"));
    assert_eq!(
        f["message"],
        format!(
            "«2026-09-15» is stated by no source: probably inferred from «yesterday» — yesterday said on 2026-09-16 \
             means 2026-09-15 ({S2}:1, 2026-09-16 13:40:02 UTC)"
        )
    );
}

#[test]
fn every_citation_form_resolves_or_says_why_not() {
    let (_g, _dream, _, v) = checked();
    let cites: Vec<(String, Option<u64>, Option<u64>, bool)> = v["changes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            let x = &c["citations"][0];
            (x["source"].as_str().unwrap().to_string(), x["line"].as_u64(), x["end"].as_u64(), x["resolved"] == true)
        })
        .collect();
    assert_eq!(
        cites,
        vec![
            (S1.to_string(), Some(11), Some(13), true),   // `…jsonl#L11-L13`
            (AGENT.to_string(), Some(5), None, true),     // `<session>/subagents/agent-….jsonl:5`
            (S1.to_string(), Some(3), None, true),        // `session <uuid>, line 3` (no .jsonl)
            (S2.to_string(), Some(3), Some(4), true),     // `….jsonl:3-4`
            (S2.to_string(), Some(99), None, false),      // `….jsonl line 99`: past the end
            (MISSING.to_string(), Some(12), None, false), // a file that does not exist
        ]
    );
    let msg = |i: usize| v["changes"][i]["flags"][0]["message"].as_str().unwrap().to_string();
    assert_eq!(
        msg(4),
        format!("CHANGES.md #5 (line 7) cites {S2} line 99: {S2} has 7 lines, so line 99 does not exist")
    );
    assert_eq!(
        msg(5),
        format!("CHANGES.md #6 (line 8) cites {MISSING}:12: no source file is called {MISSING} (searched 3 files)")
    );
    // The cited range's excerpt is its first line, rendered.
    assert_eq!(
        v["changes"][0]["citations"][0]["excerpt"],
        "2026-09-14 08:18:09 · assistant · Bash: make test-int 2>&1 | tail -2"
    );
}

#[test]
fn entries_map_to_hunks() {
    let (_g, _dream, _, v) = checked();
    let hunks: Vec<Vec<String>> = (1..=6).map(|i| entry_hunks(&v, i)).collect();
    assert_eq!(
        hunks,
        vec![
            vec!["testing.md#1"],
            vec!["testing.md#1"],
            vec!["testing.md#2"],
            vec!["deploy.md#1"],
            vec!["deploy.md#1"],
            vec!["payments.md#1"],
        ]
    );
    // Two entries on one hunk, seen from the hunk.
    let deploy = &v["files"][0]["hunks"][0];
    assert_eq!(deploy["id"], "deploy.md#1");
    assert_eq!(deploy["changes"], serde_json::json!([4, 5]));
}

#[test]
fn sub_agent_claims_are_sourced_when_cited_and_said_elsewhere_with_their_line_when_not() {
    let (_g, _dream, _, v) = checked();
    assert_eq!(claim_status(&v, "testing.md#1", "testcontainers-go v0.37.0"), ("sourced".into(), format!("{AGENT}:5")));
    assert_eq!(
        claim_status(&v, "testing.md#1", "testcontainers.properties"),
        ("elsewhere".into(), format!("{AGENT}:4"))
    );
}

#[test]
fn a_claim_only_in_another_session_is_said_elsewhere_and_flagged_once() {
    let (_g, _dream, _, v) = checked();
    // deploy.md#1's entries cite session 2; the release script is only named in session 1,
    // and Marcus on a line of session 2 no entry cites.
    assert_eq!(claim_status(&v, "deploy.md#1", "./scripts/release.sh"), ("elsewhere".into(), format!("{S1}:3")));
    assert_eq!(claim_status(&v, "deploy.md#1", "Marcus"), ("elsewhere".into(), format!("{S2}:6")));
    let rows: Vec<FlagRow> =
        flag_rows(&v).into_iter().filter(|r| r.3.contains("release.sh") || r.3 == "Marcus").collect();
    assert_eq!(
        rows,
        vec![
            flag_row("deploy.md#1", "citation-unsupported", "warning", "./scripts/release.sh"),
            flag_row("deploy.md#1", "citation-unsupported", "warning", "Marcus"),
        ]
    );
}

#[test]
fn carried_and_sourced_claims_raise_nothing() {
    let (_g, _dream, _, v) = checked();
    assert_eq!(claim_status(&v, "testing.md#1", "Docker"), ("carried".into(), String::new()));
    assert_eq!(claim_status(&v, "testing.md#1", "make test-int"), ("sourced".into(), format!("{S1}:11")));
    assert_eq!(claim_status(&v, "testing.md#1", "4 minutes"), ("sourced".into(), format!("{S1}:13")));
    assert_eq!(claim_status(&v, "testing.md#2", "14 minutes"), ("sourced".into(), format!("{S1}:3")));
    assert_eq!(claim_status(&v, "deploy.md#1", "PostgreSQL 16.4"), ("sourced".into(), format!("{S2}:4")));
}

#[test]
fn the_envelope_and_thinking_never_source_a_claim() {
    let (_g, dream, _, v) = checked();
    let project = dream.parent().unwrap().join("project");
    let s1 = std::fs::read_to_string(project.join(S1)).unwrap();
    let s2 = std::fs::read_to_string(project.join(S2)).unwrap();
    // Each of these is in the raw JSONL, so matching raw lines would "source" it.
    assert!(s2.contains(r#""cwd":"/srv/ledger-api""#));
    assert!(s2.contains(r#""gitBranch":"release/2026.09""#));
    assert!(s2.contains(r#""version":"2.1.97""#));
    assert!(s2.contains(&format!(r#""uuid":"{ENVELOPE_UUID}""#)));
    assert!(s1.contains(r#""type":"thinking","thinking":"Maybe the runners"#) && s1.contains("96 times per run"));
    for (hunk, claim) in [
        ("deploy.md#1", "/srv/ledger-api"),
        ("deploy.md#1", "release/2026.09"),
        ("deploy.md#1", "version 2.1.97"),
        ("deploy.md#1", ENVELOPE_UUID),
        ("testing.md#2", "96 times"),
    ] {
        assert_eq!(claim_status(&v, hunk, claim), ("unsourced".into(), String::new()), "{claim}");
        let f = flag_at(&v, hunk, "unsourced-claim", claim);
        assert_eq!(f["message"], format!("«{claim}» is in no transcript and not in live memory"));
        assert!(f.get("source").is_none_or(|s| s.is_null()), "{f}");
    }
}
