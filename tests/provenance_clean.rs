//! The false-positive guard (`tests/fixtures/scenarios/clean-harbor`): a realistic dream in
//! which every claim has a source must produce no flag at all.

use crate::common::*;
use std::collections::BTreeMap;

fn counts(v: &serde_json::Value, key: &str) -> BTreeMap<String, usize> {
    let mut out = BTreeMap::new();
    for f in v["files"].as_array().unwrap() {
        for h in f["hunks"].as_array().unwrap() {
            for c in h["claims"].as_array().unwrap() {
                *out.entry(c[key].as_str().unwrap().to_string()).or_default() += 1;
            }
        }
    }
    out
}

fn map(pairs: &[(&str, usize)]) -> BTreeMap<String, usize> {
    pairs.iter().map(|(k, n)| (k.to_string(), *n)).collect()
}

#[test]
fn a_well_sourced_dream_has_zero_flags() {
    let (_g, dream, _memory) = scenario("clean-harbor");
    let (code, v) = check_json(&dream, &[]);
    assert_eq!(flag_rows(&v), Vec::<FlagRow>::new(), "{v:#}");
    assert_eq!(code, 0);
    assert_eq!(v["summary"]["flags"], serde_json::json!({"error": 0, "warning": 0}));
    assert_eq!((v["summary"]["files"].as_u64(), v["summary"]["hunks"].as_u64()), (Some(8), Some(8)));
    assert_eq!(v["notes"], serde_json::json!([]));
}

#[test]
fn the_guard_is_rich_every_claim_has_a_source() {
    let (_g, dream, _memory) = scenario("clean-harbor");
    let (_, v) = check_json(&dream, &[]);
    // Enough claims of every kind that a false positive in any recogniser shows up here.
    assert_eq!(
        counts(&v, "kind"),
        map(&[("code", 12), ("date", 3), ("name", 4), ("number", 9), ("url", 2), ("version", 6)])
    );
    assert_eq!(counts(&v, "status"), map(&[("carried", 3), ("sourced", 33)]));
    // Every citation resolves and every hunk has an entry.
    for c in v["changes"].as_array().unwrap() {
        for x in c["citations"].as_array().unwrap() {
            assert_eq!(x["resolved"], true, "{x}");
        }
        assert!(!c["hunks"].as_array().unwrap().is_empty(), "{c}");
    }
    for f in v["files"].as_array().unwrap() {
        for h in f["hunks"].as_array().unwrap() {
            assert!(!h["changes"].as_array().unwrap().is_empty(), "{} has no entry", h["id"]);
        }
    }
    // Dates sourced by the timestamp of a cited line, in three precisions.
    let h1 = "2c5e8f14-7b3a-4d19-9e60-5f1a8c2d7b43.jsonl";
    let h2 = "8a1d3b6c-0e4f-4a27-b5d8-9c3e1f7a2b60.jsonl";
    assert_eq!(claim_status(&v, "project_stack.md#1", "2026-11-17"), ("sourced".into(), format!("{h1}:4")));
    assert_eq!(claim_status(&v, "project_celery.md#1", "2026-11-18"), ("sourced".into(), format!("{h2}:1")));
    assert_eq!(claim_status(&v, "user_team.md#1", "November 2026"), ("sourced".into(), format!("{h2}:8")));
    // A sub-agent cited by its bare basename.
    assert_eq!(
        claim_status(&v, "project_celery.md#1", "3 queues"),
        ("sourced".into(), "f07c92ae-6d15-4b8c-a3f9-1e2d4c6b8a07/subagents/agent-b7c1e04.jsonl:4".into())
    );
    assert_eq!(claim_status(&v, "feedback_testing.md#1", "1,284 tests"), ("sourced".into(), format!("{h1}:9")));
}

#[test]
fn text_check_of_the_clean_dream_reports_nothing() {
    let (_g, dream, _memory) = scenario("clean-harbor");
    let r = run(dream.parent().unwrap(), &["check", dream.to_str().unwrap()]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains("8 changed files, 8 hunks, 0 errors, 0 warnings"), "{}", r.stdout);
    assert!(!r.stdout.contains("warning[") && !r.stdout.contains("error["), "{}", r.stdout);
}

#[test]
fn an_entry_under_a_note_heading_that_names_other_notes() {
    // `## MEMORY.md` then "- Indexed project_celery.md and feedback_language.md": the entry
    // is about the index, and names the notes it indexes.
    let (_g, dream, _memory) = scenario("clean-harbor");
    replace_in(&dream.join("CHANGES.md"), "- MEMORY.md: indexed project_celery.md", "- Indexed project_celery.md");
    let (_, v) = check_json(&dream, &[]);
    // The entry keeps its heading's note: it explains MEMORY.md#1, and no flag is left.
    assert_eq!(flag_rows(&v), Vec::<(String, String, String, String)>::new());
    assert!(entry_hunks(&v, 11).contains(&"MEMORY.md#1".to_string()), "{:?}", entry_hunks(&v, 11));
}
