//! Evidence kept with the review commit (issue 15 §1): a `dreamreview-evidence/1` git note
//! under `refs/notes/dreamreview` on every review commit, for hunks accepted wholly, line by
//! line and edited; the cited lines' text survives the transcript; no secret is stored
//! unmasked; a crash between the commit and its note leaves a commit without a note (never
//! the reverse) and the next run adds it; the message's `cites` lines carry an excerpt.

use crate::common::*;
use crate::hardening_support::s;
use serde_json::Value;
use std::path::{Path, PathBuf};

const SESSION: &str = "5b0e7c2a-41d3-4c1e-9f0a-2d6b8e3c7a15.jsonl";
const KEY: &str = "sk-ant-api03-Zq8VbN2xLk4TfR7mWc1YhJ5sPd9GuE3aKo6Ni0Bx-7tQ2wZ9AA";
const NOTES: &str = "refs/notes/dreamreview";

/// The pnpm scenario with its memory folder committed, and a credential both in the
/// dream's note and in the transcript line entry 3 cites (a token in tool output copied
/// into memory).
fn project() -> (tempfile::TempDir, PathBuf, PathBuf) {
    committed_pnpm_with(
        ("All 214 tests pass", &format!("All 214 tests pass; LEDGER_TOKEN={KEY}")),
        ("214 tests passed.", &format!("214 tests passed. Token: {KEY}")),
    )
}

fn apply(dream: &Path, memory: &Path, how: &[&str]) -> Run {
    apply_allowing_secret(dream, memory, how)
}

/// The evidence note of `HEAD`, parsed.
fn note(memory: &Path) -> Value {
    let text = git(memory, &["notes", "--ref", NOTES, "show", "HEAD"]);
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("the note is not JSON ({e}): {text}"))
}

fn has_note(memory: &Path, rev: &str) -> bool {
    std::process::Command::new("git")
        .args(["notes", "--ref", NOTES, "show", rev])
        .current_dir(memory)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .output()
        .unwrap()
        .status
        .success()
}

/// The kept text of the cited line(s) of the entry whose label is `label`.
fn kept_cited(hunk: &Value, label: &str) -> Vec<String> {
    let entry = hunk["entries"].as_array().unwrap().iter().find(|e| e["label"] == label);
    let entry = entry.unwrap_or_else(|| panic!("no entry {label} in {hunk:#}"));
    entry["citations"][0]["lines"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|l| l["cited"] == true)
        .map(|l| l["text"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn an_accepted_hunk_keeps_what_the_evidence_pane_showed_after_the_transcript_is_gone() {
    let (_g, dream, memory) = project();
    // What the review showed for entry 2's citation (line 1), before anything is deleted.
    let v = json(&run(dream.parent().unwrap(), &["check", s(&dream), "--json"]));
    let shown = v["changes"][1]["citations"][0]["context"].as_array().unwrap().clone();
    let a = apply(&dream, &memory, &["--accept-all"]);
    assert_eq!(a.code, 0, "{}", a.both());
    std::fs::remove_file(memory.parent().unwrap().join(SESSION)).unwrap();

    let n = note(&memory);
    assert_eq!(n["format"], "dreamreview-evidence/1");
    assert_eq!(n["dream"], "dream-2026-11-02");
    let hunk = &n["hunks"][0];
    assert_eq!(
        (hunk["id"].as_str(), hunk["path"].as_str(), hunk["taken"].as_str()),
        (Some("testing.md#1"), Some("testing.md"), Some("accepted"))
    );
    assert_eq!(hunk["lines"].as_array().unwrap().len(), 2, "{hunk:#}");
    let cit = &hunk["entries"][1]["citations"][0];
    assert_eq!(cit["location"], format!("{SESSION}:1"));
    assert!(cit["path"].as_str().unwrap().ends_with(SESSION), "{cit:#}");
    let kept = cit["lines"].as_array().unwrap();
    assert_eq!(kept.len(), shown.len(), "the same lines as the pane: {kept:#?}");
    for (k, s) in kept.iter().zip(&shown) {
        assert_eq!((k["line"].clone(), k["cited"].clone()), (s["line"].clone(), s["cited"].clone()));
        let pane = s["text"].as_str().unwrap();
        assert!(pane.ends_with(k["text"].as_str().unwrap()), "kept {k:#} vs shown {pane}");
    }
    let first = &kept[0];
    assert_eq!((first["role"].as_str(), first["local_time"].as_str()), (Some("user"), Some("2026-11-01 09:14")));
    assert!(first["text"].as_str().unwrap().contains("from npm to pnpm last week"), "{first:#}");
    // The verdicts of the claims, and the flags the reviewer let through.
    let claims = hunk["claims"].as_array().unwrap();
    let late = claims.iter().find(|c| c["text"] == "late Oct 2026").expect("the inferred date is a claim");
    assert_eq!(late["status"], "unsourced");
    assert!(claims.iter().any(|c| c["text"] == "pnpm test" && c["status"] == "sourced"), "{claims:#?}");
    let flags: Vec<&str> =
        hunk["accepted_flags"].as_array().unwrap().iter().map(|f| f["kind"].as_str().unwrap()).collect();
    assert!(flags.contains(&"secret") && flags.contains(&"inferred-date"), "{flags:?}");
}

#[test]
fn an_edited_hunk_keeps_the_reviewers_text_and_its_own_verdicts() {
    let (_g, dream, memory) = project();
    let v = json(&run(dream.parent().unwrap(), &["check", s(&dream), "--json"]));
    let new_side = first_hunk_new_side(&v);
    let edited = new_side.replace("in late Oct 2026", "last week").replace(" Token: [anthropic-key …Z9AA]", "");
    let file = dream.parent().unwrap().join("decisions.json");
    std::fs::write(&file, serde_json::json!({"hunks": {"testing.md#1": {"edited": edited}}}).to_string()).unwrap();
    let a = apply(&dream, &memory, &["--decisions", s(&file)]);
    assert_eq!(a.code, 0, "{}", a.both());
    let hunk = &note(&memory)["hunks"][0];
    assert_eq!(hunk["taken"], "edited");
    let lines: Vec<&str> = hunk["lines"].as_array().unwrap().iter().map(|l| l.as_str().unwrap()).collect();
    assert!(lines.iter().any(|l| l.contains("moved from npm to pnpm last week")), "{lines:?}");
    assert!(!lines.iter().any(|l| l.contains("late Oct")), "{lines:?}");
    let claims = hunk["claims"].as_array().unwrap();
    assert!(!claims.iter().any(|c| c["text"] == "late Oct 2026"), "the edit's claims, not the dream's: {claims:#?}");
    // The edit's own flags are gone (no invented date, no credential); what stands is the
    // warning of the entry that explains it, whose cited line says none of its claims.
    let kinds: Vec<&str> =
        hunk["accepted_flags"].as_array().unwrap().iter().map(|f| f["kind"].as_str().unwrap()).collect();
    assert_eq!(kinds, ["citation-unsupported"], "{hunk:#}");
    assert!(hunk["accepted_flags"][0]["message"].as_str().unwrap().starts_with("CHANGES.md #1 cites"), "{hunk:#}");
    assert!(!kept_cited(hunk, "CHANGES.md #2").is_empty(), "{hunk:#}");
}

#[test]
fn a_hunk_taken_line_by_line_keeps_only_the_taken_lines_and_their_claims() {
    let (_g, dream, memory) = project();
    // Changed lines: the old line (removed), then the two new ones; take the removal and
    // the first new line only.
    let file = dream.parent().unwrap().join("decisions.json");
    let lines = serde_json::json!(["accepted", "accepted", "rejected"]);
    std::fs::write(&file, serde_json::json!({"hunks": {"testing.md#1": {"lines": lines}}}).to_string()).unwrap();
    let a = apply(&dream, &memory, &["--decisions", s(&file)]);
    assert_eq!(a.code, 0, "{}", a.both());
    let hunk = &note(&memory)["hunks"][0];
    assert_eq!(hunk["taken"], "partly-accepted");
    let lines: Vec<&str> = hunk["lines"].as_array().unwrap().iter().map(|l| l.as_str().unwrap()).collect();
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert!(lines[0].starts_with("Run tests with `pnpm test`"), "{lines:?}");
    let claims: Vec<&str> = hunk["claims"].as_array().unwrap().iter().map(|c| c["text"].as_str().unwrap()).collect();
    assert!(claims.contains(&"late Oct 2026"), "{claims:?}");
    assert!(!claims.iter().any(|c| c.contains("214")), "a claim of the line not taken: {claims:?}");
}

#[test]
fn no_note_blob_and_no_message_holds_a_secret_unmasked() {
    let (_g, dream, memory) = project();
    let a = apply(&dream, &memory, &["--accept-all"]);
    assert_eq!(a.code, 0, "{}", a.both());
    assert!(std::fs::read_to_string(memory.join("testing.md")).unwrap().contains(KEY), "the note took the secret");
    // Every object the notes ref reaches: its commits, trees and blobs.
    let objects = git(&memory, &["rev-list", "--objects", NOTES]);
    let mut blobs = 0;
    for id in objects.lines().filter_map(|l| l.split_whitespace().next()) {
        if git(&memory, &["cat-file", "-t", id]).trim() != "blob" {
            continue;
        }
        blobs += 1;
        let body = git(&memory, &["cat-file", "-p", id]);
        assert!(!body.contains(KEY) && !body.contains("Zq8VbN2xLk4TfR7m"), "a note blob holds the key: {body}");
        assert!(body.contains("[anthropic-key …Z9AA]"), "the secret is there, masked: {body}");
    }
    assert_eq!(blobs, 1, "one note");
    let message = git(&memory, &["log", "-1", "--format=%B"]);
    assert!(!message.contains(KEY), "{message}");
}

#[test]
fn the_messages_cites_lines_carry_when_who_and_what_was_said() {
    let (_g, dream, memory) = project();
    let a = apply(&dream, &memory, &["--accept-all"]);
    assert_eq!(a.code, 0, "{}", a.both());
    let message = git(&memory, &["log", "-1", "--format=%B"]);
    let cites: Vec<&str> = message.lines().filter(|l| l.trim_start().starts_with("cites ")).collect();
    assert_eq!(cites.len(), 3, "{message}");
    assert!(
        cites.contains(
            &format!(
                "    cites {SESSION}:1 (2026-11-01 09:14 user) \"Heads up: we moved this repo from npm to pnpm \
                 last week, and Redis is go…\""
            )
            .as_str()
        ),
        "{cites:#?}"
    );
    assert!(cites.iter().all(|c| !c.contains(KEY)), "{cites:#?}");
    // The trailers still parse after the excerpts.
    assert!(message.trim_end().ends_with("Review: accepted=1 rejected=0 edited=0"), "{message}");
}

#[test]
fn a_crash_between_commit_and_note_leaves_a_commit_the_next_run_completes() {
    let mut completed = false;
    for n in 1..=12 {
        let (_g, dream, memory) = project();
        let before = git(&memory, &["rev-parse", "HEAD"]);
        let a = run_env(
            dream.parent().unwrap(),
            &["apply", s(&dream), "--memory", s(&memory), "--allow", "secret", "--accept-all"],
            &[("DREAMREVIEW_FAIL_AFTER_WRITES", &n.to_string())],
        );
        // Never a note without a commit: every noted commit exists and is on the branch.
        for line in git(&memory, &["notes", "--ref", NOTES, "list"]).lines() {
            let annotated = line.split_whitespace().nth(1).unwrap();
            let merged = git(&memory, &["branch", "--contains", annotated]);
            assert!(!merged.trim().is_empty(), "run {n}: a note on {annotated}, not on the branch");
        }
        if a.code == 0 {
            assert!(has_note(&memory, "HEAD"), "run {n} finished without its note: {}", a.both());
            break;
        }
        let head = git(&memory, &["rev-parse", "HEAD"]);
        let committed = head != before && git(&memory, &["log", "-1", "--format=%s"]).starts_with("dream review");
        if !committed || has_note(&memory, "HEAD") {
            continue;
        }
        // The commit was made and the note was not: `check` says so, the next apply adds it.
        let c = run(dream.parent().unwrap(), &["check", s(&dream), "--memory", s(&memory)]);
        assert!(c.stdout.contains("adds a missing evidence note"), "run {n}: {}", c.both());
        assert!(!has_note(&memory, "HEAD"), "check writes nothing");
        let r = apply(&dream, &memory, &["--accept-all"]);
        assert_eq!(r.code, 0, "{}", r.both());
        assert!(r.stderr.contains("its evidence note added"), "run {n}: {}", r.both());
        assert_eq!(git(&memory, &["rev-parse", "HEAD"]), head, "recovery makes no new commit");
        assert_eq!(note(&memory)["hunks"][0]["id"], "testing.md#1");
        completed = true;
    }
    assert!(completed, "no crash point fell between the commit and its note");
}

/// A dream whose CHANGES.md repeats one entry thousands of times (each citing the same long
/// transcript line) gets a bounded note: the first citations keep their lines, the rest say
/// how many they dropped.
#[test]
fn a_note_stays_bounded_when_entries_repeat_one_long_line() {
    let t = tempfile::tempdir().unwrap();
    let root = t.path();
    let memory = root.join("project/memory");
    write(&memory.join("testing.md"), "# Testing\n\n- Run the suite with pnpm test.\n");
    git(&memory, &["init", "-q"]);
    git(&memory, &["add", "-A"]);
    git(&memory, &["commit", "-qm", "notes"]);
    let said = "We moved the cache to Redis on port 6379 and run pnpm test. ".repeat(2000);
    let line = serde_json::json!({"type": "user", "timestamp": "2026-11-30T09:00:00.000Z",
        "message": {"role": "user", "content": said}});
    write(&root.join("project/huge.jsonl"), &format!("{line}\n"));
    let dream = root.join("dream");
    write(
        &dream.join("memory/testing.md"),
        "# Testing\n\n- Run the suite with pnpm test.\n- The cache listens on port 6379.\n",
    );
    let entry = "- testing.md: Redis on port 6379 and pnpm test (huge.jsonl:1)\n";
    write(&dream.join("CHANGES.md"), &format!("# Changes\n\n{}", entry.repeat(6000)));
    let r =
        run(root, &["apply", s(&dream), "--memory", s(&memory), "--sources", s(&root.join("project")), "--accept-all"]);
    assert_eq!(r.code, 0, "{}", r.both());
    let text = git(&memory, &["notes", "--ref", NOTES, "show", "HEAD"]);
    assert!(text.len() < 6 << 20, "the note is {} bytes", text.len());
    let n: Value = serde_json::from_str(&text).unwrap();
    let entries = n["hunks"][0]["entries"].as_array().unwrap();
    assert_eq!(entries.len(), 6000);
    let kept = |e: &Value| !e["citations"][0]["lines"].as_array().unwrap().is_empty();
    assert!(kept(&entries[0]), "{:#}", entries[0]);
    let last = &entries[5999]["citations"][0];
    assert!(!kept(&entries[5999]) && last["not_kept"] == 1, "{last:#}");
}
