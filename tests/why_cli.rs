//! `dreamreview why NOTE[:LINE]` (issue 15 §2, §5) on real temp repositories: the review
//! that wrote a line and the cited lines it kept, after the transcript is deleted, for a
//! hunk accepted, edited and taken line by line; a line a revert restored names the revert
//! and what it restored; a line from outside a review (a hand commit, a snapshot, not yet
//! committed) says so; an old review commit without an evidence note falls back to its
//! message; a transcript changed since is told; secrets never printed; `--json`'s shape.

use crate::common::*;
use crate::hardening_support::s;
use serde_json::Value;
use std::path::{Path, PathBuf};

const TRANSCRIPT: &str = "5b0e7c2a-41d3-4c1e-9f0a-2d6b8e3c7a15.jsonl";
const TOKEN: &str = "sk-ant-api03-Hq3XbM8yLk2TfR7mWc9YhJ5sPd1GuE4aKo6Ni0Bx-2tQ7wZ9AA";
/// The line of testing.md the dream rewrites (`Run tests with …`).
const RUN_LINE: &str = "testing.md:7";

/// The pnpm scenario, committed, with a token in the transcript line entry 3 cites and in
/// the dream's testing.md (a tool's output copied into memory).
pub fn committed_pnpm() -> (tempfile::TempDir, PathBuf, PathBuf) {
    committed_pnpm_with(
        ("All 214 tests pass", &format!("All 214 tests pass with LEDGER_KEY={TOKEN}")),
        ("214 tests passed.", &format!("214 tests passed ({TOKEN}).")),
    )
}

/// `apply` with `how` (the token allowed); panics unless it commits.
pub fn review_commit(dream: &Path, memory: &Path, how: &[&str]) -> String {
    let a = apply_allowing_secret(dream, memory, how);
    assert_eq!(a.code, 0, "{}", a.both());
    short_head(memory)
}

pub fn short_head(memory: &Path) -> String {
    git(memory, &["rev-parse", "--short=7", "HEAD"]).trim().to_string()
}

/// `why` run from the memory folder.
fn why(memory: &Path, args: &[&str]) -> Run {
    let mut all = vec!["why"];
    all.extend_from_slice(args);
    run(memory, &all)
}

fn why_ok(memory: &Path, args: &[&str]) -> String {
    let r = why(memory, args);
    assert_eq!(r.code, 0, "{}", r.both());
    r.stdout
}

pub fn delete_transcript(memory: &Path) {
    std::fs::remove_file(memory.parent().unwrap().join(TRANSCRIPT)).unwrap();
}

/// A decisions file for testing.md#1 in the dream's parent folder.
fn decisions(dream: &Path, hunk: Value) -> PathBuf {
    let file = dream.parent().unwrap().join("decisions.json");
    std::fs::write(&file, serde_json::json!({"hunks": {"testing.md#1": hunk}}).to_string()).unwrap();
    file
}

/// What `why` must show for the pnpm line whatever way its hunk was taken: the review,
/// how, the entry that cites transcript line 1, that line's kept text although the
/// transcript is gone.
fn assert_kept_after_deletion(out: &str, review: &str, taken: &str) {
    assert!(out.contains(&format!("from review {review} of dream-2026-11-02")), "{out}");
    assert!(out.contains(&format!("testing.md#1, {taken}\n")), "{out}");
    assert!(out.contains("CHANGES.md #2: memory/testing.md: removed the local Redis requirement"), "{out}");
    assert!(out.contains(&format!("cites {TRANSCRIPT}:1 — deleted since — kept text shown")), "{out}");
    assert!(
        out.contains("▶ 1  2026-11-01 09:14 user  Heads up: we moved this repo from npm to pnpm last week"),
        "the kept text of the cited line: {out}"
    );
    assert!(!out.contains("still there"), "{out}");
}

#[test]
fn an_accepted_line_shows_its_kept_evidence_after_the_transcript_is_deleted() {
    let (_g, dream, memory) = committed_pnpm();
    let review = review_commit(&dream, &memory, &["--accept-all"]);
    delete_transcript(&memory);
    let out = why_ok(&memory, &[RUN_LINE]);
    assert!(out.starts_with("testing.md:7  Run tests with `pnpm test` (project moved"), "{out}");
    assert_kept_after_deletion(&out, &review, "accepted");
    // The verdicts of its claims and the flags the reviewer let through.
    assert!(out.contains("unsourced «late Oct 2026»"), "{out}");
    assert!(out.contains("warning inferred-date:"), "{out}");
}

#[test]
fn an_edited_line_shows_the_reviewers_text_was_taken_and_its_kept_evidence() {
    let (_g, dream, memory) = committed_pnpm();
    let v = json(&run(dream.parent().unwrap(), &["check", s(&dream), "--json"]));
    let new_side = first_hunk_new_side(&v);
    let edited = new_side.replace("in late Oct 2026", "last week").replace(" ([anthropic-key …Z9AA])", "");
    let file = decisions(&dream, serde_json::json!({"edited": edited}));
    let review = review_commit(&dream, &memory, &["--decisions", s(&file)]);
    delete_transcript(&memory);
    let out = why_ok(&memory, &[RUN_LINE]);
    assert!(
        out.starts_with("testing.md:7  Run tests with `pnpm test` (project moved from npm to pnpm last week"),
        "{out}"
    );
    assert_kept_after_deletion(&out, &review, "edited by the reviewer");
    assert!(
        !out.contains("unsourced «late Oct 2026»") && !out.contains("inferred-date"),
        "the edit's claims, not the dream's: {out}"
    );
}

#[test]
fn a_line_taken_line_by_line_shows_its_kept_evidence() {
    let (_g, dream, memory) = committed_pnpm();
    let file = decisions(&dream, serde_json::json!({"lines": ["accepted", "accepted", "rejected"]}));
    let review = review_commit(&dream, &memory, &["--decisions", s(&file)]);
    delete_transcript(&memory);
    let out = why_ok(&memory, &[RUN_LINE]);
    assert_kept_after_deletion(&out, &review, "accepted line by line");
    assert!(out.contains("unsourced «late Oct 2026»"), "{out}");
    assert!(!out.contains("«214 tests»"), "a claim of the line not taken: {out}");
}

#[test]
fn a_whole_note_is_grouped_by_the_commit_that_wrote_each_line() {
    let (_g, dream, memory) = committed_pnpm();
    let first = short_head(&memory);
    let review = review_commit(&dream, &memory, &["--accept-all"]);
    let out = why_ok(&memory, &["testing.md"]);
    assert!(out.starts_with("testing.md: 8 lines, from 2 places\n"), "{out}");
    assert!(
        out.contains(&format!("lines 1-6 — written outside a review, commit {first} by t (")),
        "a line no review wrote names its commit and author: {out}"
    );
    assert!(out.contains(&format!("lines 7-8 — from review {review} of dream-2026-11-02")), "{out}");
    assert!(out.contains(&format!("cites {TRANSCRIPT}:1 — still there")), "{out}");
}

#[test]
fn a_line_a_revert_restored_names_the_revert_and_what_it_restored() {
    let (_g, dream, memory) = committed_pnpm();
    let review = review_commit(&dream, &memory, &["--accept-all"]);
    // A hand edit of the reviewed line, then a revert of that edit: the line the review
    // wrote is back, written by the revert.
    replace_in(&memory.join("testing.md"), "Run tests with `pnpm test`", "Run tests with `pnpm t`");
    git(&memory, &["commit", "-qam", "shorter"]);
    let edit = short_head(&memory);
    let r = run(&memory, &["revert", "HEAD"]);
    assert_eq!(r.code, 0, "{}", r.both());
    let revert = short_head(&memory);
    delete_transcript(&memory);
    let out = why_ok(&memory, &[RUN_LINE]);
    assert!(out.contains(&format!("restored by revert {revert} of {edit},")), "{out}");
    assert!(out.contains(&format!("it restored lines from review {review} of dream-2026-11-02")), "{out}");
    assert!(out.contains(&format!("cites {TRANSCRIPT}:1 — deleted since — kept text shown")), "{out}");

    // The review itself reverted: the line the first commit had is back.
    let r = run(&memory, &["revert", &review]);
    assert_eq!(r.code, 0, "{}", r.both());
    let second = short_head(&memory);
    let out = why_ok(&memory, &[RUN_LINE]);
    assert!(out.starts_with("testing.md:7  Run tests with `npm test`"), "{out}");
    assert!(out.contains(&format!("restored by revert {second} of {review},")), "{out}");
    assert!(out.contains("it restored lines written outside a review, commit "), "{out}");
}

#[test]
fn lines_from_a_snapshot_or_not_committed_say_they_are_outside_a_review() {
    let (_g, dream, memory) = committed_pnpm();
    // A session's edit not committed when the review commits: the snapshot commit takes it.
    write(&memory.join("session.md"), "Written by a session.\n");
    review_commit(&dream, &memory, &["--accept-all"]);
    let out = why_ok(&memory, &["session.md:1"]);
    assert!(out.contains("written outside a review: snapshot "), "{out}");
    std::fs::write(memory.join("session.md"), "Written by a session.\nAnd by hand.\n").unwrap();
    let out = why_ok(&memory, &["session.md:2"]);
    assert!(out.contains("written outside a review, not committed yet"), "{out}");
}

/// Makes the review commit at `HEAD` look like one made before evidence was kept: no
/// note, `cites` lines without an excerpt. Returns its new short id.
pub fn make_head_an_old_review(memory: &Path) -> String {
    git(memory, &["update-ref", "-d", "refs/notes/dreamreview"]);
    let message = git(memory, &["log", "-1", "--format=%B"]);
    let old: String = message
        .lines()
        .map(|l| match l.trim_start().starts_with("cites ") {
            true => l.split(" (").next().unwrap().to_string() + "\n",
            false => format!("{l}\n"),
        })
        .collect();
    let file = memory.parent().unwrap().join("old-message.txt");
    std::fs::write(&file, &old).unwrap();
    git(memory, &["commit", "-q", "--amend", "-F", s(&file)]);
    short_head(memory)
}

#[test]
fn an_old_review_without_a_note_falls_back_to_its_message_and_says_the_text_was_not_kept() {
    let (_g, dream, memory) = committed_pnpm();
    review_commit(&dream, &memory, &["--accept-all"]);
    let review = make_head_an_old_review(&memory);

    let out = why_ok(&memory, &[RUN_LINE]);
    assert!(out.contains(&format!("from review {review} of ")), "{out}");
    assert!(
        out.contains("the cited text was not kept: this review was made before dreamreview kept evidence"),
        "{out}"
    );
    assert!(out.contains("- testing.md#1 (+2 -1)"), "{out}");
    assert!(out.contains(&format!("cites {TRANSCRIPT}:1 — still there")), "{out}");
    delete_transcript(&memory);
    let out = why_ok(&memory, &[RUN_LINE]);
    assert!(out.contains(&format!("cites {TRANSCRIPT}:1 — deleted since\n")), "{out}");
    assert!(!out.contains("kept text shown"), "{out}");
    let v = json(&why(&memory, &[RUN_LINE, "--json"]));
    let origin = &v["groups"][0]["origin"];
    assert_eq!((origin["kind"].as_str(), origin["evidence"].as_str()), (Some("review"), Some("not-kept")));
    assert_eq!(origin["message_hunks"][0]["entries"][0]["cites"][0]["now"], "deleted-since", "{origin:#}");
}

#[test]
fn a_transcript_line_changed_since_the_review_is_told_from_one_still_there() {
    let (_g, dream, memory) = committed_pnpm();
    review_commit(&dream, &memory, &["--accept-all"]);
    replace_in(&memory.parent().unwrap().join(TRANSCRIPT), "npm to pnpm last week", "npm to yarn last week");
    let out = why_ok(&memory, &[RUN_LINE]);
    assert!(out.contains(&format!("cites {TRANSCRIPT}:1 — changed since — kept text shown")), "{out}");
    assert!(out.contains(&format!("cites {TRANSCRIPT}:3 (said by tool Bash) — still there")), "{out}");
    assert!(out.contains("from npm to pnpm last week"), "the kept text, not today's: {out}");
}

#[test]
fn a_secret_is_never_printed_unmasked() {
    let (_g, dream, memory) = committed_pnpm();
    review_commit(&dream, &memory, &["--accept-all"]);
    assert!(std::fs::read_to_string(memory.join("testing.md")).unwrap().contains(TOKEN));
    for args in [&["testing.md"][..], &["testing.md:8"], &["testing.md", "--json"], &["testing.md:8", "--json"]] {
        let r = why(&memory, args);
        assert_eq!(r.code, 0, "{}", r.both());
        let all = format!("{}{}", r.stdout, r.stderr);
        assert!(!all.contains(TOKEN) && !all.contains("Hq3XbM8yLk2TfR7m"), "{args:?}: {all}");
        assert!(all.contains("[anthropic-key …Z9AA]"), "{args:?}: the line is there, masked: {all}");
    }
    // The kept transcript line with the token, too.
    let out = why_ok(&memory, &["testing.md:8"]);
    assert!(out.contains("All 214 tests pass with LEDGER_KEY=[anthropic-key …Z9AA]"), "{out}");
}

/// The keys of a JSON object, sorted.
fn keys(v: &Value) -> Vec<&str> {
    let mut k: Vec<&str> =
        v.as_object().unwrap_or_else(|| panic!("not an object: {v}")).keys().map(|k| k.as_str()).collect();
    k.sort_unstable();
    k
}

#[test]
fn the_json_shape_is_the_documented_one() {
    let (_g, dream, memory) = committed_pnpm();
    let review = review_commit(&dream, &memory, &["--accept-all"]);
    delete_transcript(&memory);
    let v = json(&why(&memory, &[RUN_LINE, "--json"]));
    assert_eq!(keys(&v), ["format", "groups", "line_count", "note"]);
    assert_eq!(
        (v["format"].as_str(), v["note"].as_str(), v["line_count"].as_u64()),
        (Some("dreamreview-why/1"), Some("testing.md"), Some(8))
    );
    let group = &v["groups"][0];
    assert_eq!(keys(group), ["lines", "origin"]);
    assert_eq!(group["lines"][0]["line"], 7);
    let origin = &group["origin"];
    assert_eq!(keys(origin), ["commit", "dream", "dream_id", "evidence", "hunks", "kind", "message_hunks"]);
    assert_eq!((origin["kind"].as_str(), origin["evidence"].as_str()), (Some("review"), Some("kept")));
    assert_eq!(keys(&origin["commit"]), ["author", "date", "id", "short", "summary"]);
    assert_eq!(origin["commit"]["short"], review.as_str());
    let hunk = &origin["hunks"][0];
    assert_eq!(keys(hunk), ["accepted_flags", "claims", "entries", "id", "lines", "taken"]);
    assert_eq!((hunk["id"].as_str(), hunk["taken"].as_str()), (Some("testing.md#1"), Some("accepted")));
    let entry = hunk["entries"].as_array().unwrap().iter().find(|e| e["label"] == "CHANGES.md #2").unwrap();
    assert_eq!(keys(entry), ["citations", "label", "text"]);
    let cit = &entry["citations"][0];
    assert_eq!(keys(cit), ["line", "lines", "location", "now", "path", "resolved", "source", "speaker"]);
    assert_eq!(cit["speaker"], "user");
    assert_eq!(cit["now"], "deleted-since");
    let cited = cit["lines"].as_array().unwrap().iter().find(|l| l["cited"] == true).unwrap();
    assert_eq!((cited["role"].as_str(), cited["local_time"].as_str()), (Some("user"), Some("2026-11-01 09:14")));
    // A line from outside a review.
    let v = json(&why(&memory, &["testing.md:1", "--json"]));
    let origin = &v["groups"][0]["origin"];
    assert_eq!(keys(origin), ["commit", "kind", "snapshot"]);
    assert_eq!((origin["kind"].as_str(), origin["snapshot"].as_bool()), (Some("outside"), Some(false)));
}

#[test]
fn bad_input_is_named_and_exits_2() {
    let (_g, dream, memory) = committed_pnpm();
    review_commit(&dream, &memory, &["--accept-all"]);
    let r = why(&memory, &["nope.md:1"]);
    assert_eq!(r.code, 2, "{}", r.both());
    assert!(r.stderr.contains("no note nope.md in the memory folder") && r.stderr.contains(s(&memory)), "{}", r.stderr);
    let r = why(&memory, &["testing.md:99"]);
    assert_eq!(r.code, 2, "{}", r.both());
    assert!(r.stderr.contains("testing.md has 8 lines; line 99 is out of range"), "{}", r.stderr);
    let r = why(&memory, &["../secret.md"]);
    assert_eq!(r.code, 2, "a path out of the folder is no note: {}", r.both());
    let elsewhere = tempfile::tempdir().unwrap();
    let r = run(elsewhere.path(), &["why", "a.md"]);
    assert_eq!(r.code, 2, "{}", r.both());
    assert!(r.stderr.contains("is not in a git repository"), "{}", r.stderr);
}
