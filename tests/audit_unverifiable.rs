//! `dreamreview audit` counts unverifiable notes (issue 15 §4) on real temp repositories: a
//! review whose evidence note kept the cited text stays verifiable after its transcript is
//! deleted; an old review commit without a note whose transcript is gone makes its note
//! unverifiable (listed with `--verbose` and in `--json`); with the transcript there,
//! nothing is.

use crate::common::*;
use crate::hardening_support::s;
use crate::why_cli::{committed_pnpm, delete_transcript, make_head_an_old_review, review_commit};
use serde_json::Value;
use std::path::Path;

const TRANSCRIPT: &str = "5b0e7c2a-41d3-4c1e-9f0a-2d6b8e3c7a15.jsonl";

/// `audit --json` of the memory folder: its one folder report.
fn audit_json(memory: &Path) -> Value {
    // Exit 1: the dream's testing.md holds a token (allowed at review), a `secret` error.
    let r = run(memory, &["audit", "--json", s(memory)]);
    assert_eq!(r.code, 1, "{}", r.both());
    let v = json(&r);
    assert_eq!(v.as_array().map(Vec::len), Some(1), "{v:#}");
    v[0].clone()
}

/// `audit --json` counts and lists no unverifiable note.
fn assert_none_unverifiable(memory: &Path) {
    let report = audit_json(memory);
    assert_eq!(report["unverifiable"], 0, "{report:#}");
    assert_eq!(report["unverifiable_notes"], serde_json::json!([]), "{report:#}");
}

#[test]
fn a_review_that_kept_the_cited_text_is_not_unverifiable_after_the_transcript_goes() {
    let (_g, dream, memory) = committed_pnpm();
    review_commit(&dream, &memory, &["--accept-all"]);
    delete_transcript(&memory);
    assert_none_unverifiable(&memory);
    let out = run(&memory, &["audit", "--verbose", s(&memory)]);
    assert!(
        out.stdout.starts_with("status  lines  bytes  dangling  orphans  invalid  secrets  unverifiable  folder\n")
    );
    assert!(!out.stdout.contains("unverifiable notes"), "{}", out.stdout);
}

#[test]
fn an_old_review_without_a_note_whose_transcript_is_gone_is_unverifiable() {
    let (_g, dream, memory) = committed_pnpm();
    review_commit(&dream, &memory, &["--accept-all"]);
    let review = make_head_an_old_review(&memory);
    delete_transcript(&memory);

    let report = audit_json(&memory);
    assert_eq!(report["unverifiable"], 1, "{report:#}");
    let listed = &report["unverifiable_notes"];
    assert_eq!(listed.as_array().map(Vec::len), Some(1), "{report:#}");
    assert_eq!(listed[0]["note"], "testing.md", "{report:#}");
    assert_eq!(listed[0]["reviews"], serde_json::json!([review]), "{report:#}");
    assert_eq!(listed[0]["gone"], serde_json::json!([TRANSCRIPT]), "{report:#}");
    // The two lines the review wrote (`why` names the same review for them).
    assert_eq!(listed[0]["lines"], serde_json::json!([7, 8]), "{report:#}");
    let why = run(&memory, &["why", "testing.md:7"]);
    assert!(why.stdout.contains(&format!("from review {review} of ")), "{}", why.both());

    // The count is in the table; the notes are listed only with --verbose.
    let plain = run(&memory, &["audit", s(&memory)]);
    assert_eq!(plain.code, 1, "{}", plain.both());
    let row = plain.stdout.lines().nth(1).unwrap_or_default();
    assert!(row.ends_with(&format!("  1  {}", memory.display())), "{}", plain.stdout);
    assert!(plain.stdout.contains("1 note is unverifiable"), "{}", plain.stdout);
    assert!(!plain.stdout.contains("written by review"), "{}", plain.stdout);
    let verbose = run(&memory, &["audit", "--verbose", s(&memory)]);
    assert!(
        verbose.stdout.contains(&format!(
            "unverifiable notes (cited transcripts gone, text not kept)\n  testing.md:7-8  written by review {review} — cited transcript gone, text not kept: {TRANSCRIPT}\n"
        )),
        "{}",
        verbose.stdout
    );
}

#[test]
fn an_old_review_whose_transcript_is_still_there_is_not_unverifiable() {
    let (_g, dream, memory) = committed_pnpm();
    review_commit(&dream, &memory, &["--accept-all"]);
    make_head_an_old_review(&memory);
    assert_none_unverifiable(&memory);
}
