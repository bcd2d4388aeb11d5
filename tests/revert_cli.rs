//! `dreamreview revert` and `dreamreview log` on real temp repositories, checked with the
//! real git: reverting a whole review, one file, one hunk, a revert that conflicts with a
//! later edit (nothing written), and the history listing.

use crate::common::*;
use dreamreview::store::repo::{MemoryRepo, history};
use std::fs;
use std::path::{Path, PathBuf};

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

fn read(p: &Path) -> String {
    fs::read_to_string(p).unwrap()
}

fn subjects(dir: &Path) -> Vec<String> {
    git(dir, &["log", "--format=%s"]).lines().map(str::to_string).collect()
}

fn numbered(n: usize, edit: &[(usize, &str)]) -> String {
    (1..=n)
        .map(|i| match edit.iter().find(|(l, _)| *l == i) {
            Some((_, t)) => format!("{t}\n"),
            None => format!("line {i}\n"),
        })
        .collect()
}

const SUMMARY: &str = "dream review: accept 3 of 3 changes from dream";

/// A memory repo whose HEAD is a review commit changing notes.md at lines 3 and 25 (two
/// hunks) and other.md. Returns (guard, memory, review commit sha).
fn reviewed() -> (tempfile::TempDir, PathBuf, String) {
    let t = tempfile::tempdir().unwrap();
    let memory = t.path().join("memory");
    fs::create_dir(&memory).unwrap();
    fs::write(memory.join("notes.md"), numbered(30, &[])).unwrap();
    fs::write(memory.join("other.md"), "other\n").unwrap();
    git(&memory, &["init", "-q"]);
    git(&memory, &["add", "-A"]);
    git(&memory, &["commit", "-qm", "notes"]);
    let dream = t.path().join("dream");
    fs::create_dir(&dream).unwrap();
    fs::write(dream.join("notes.md"), numbered(30, &[(3, "line 3 dreamed"), (25, "line 25 dreamed")])).unwrap();
    fs::write(dream.join("other.md"), "other dreamed\n").unwrap();
    let r = run(t.path(), &["apply", s(&dream), "--memory", s(&memory), "--accept-all"]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert_eq!(subjects(&memory)[0], SUMMARY);
    let sha = git(&memory, &["rev-parse", "HEAD"]).trim().to_string();
    (t, memory, sha)
}

fn revert(memory: &Path, args: &[&str]) -> Run {
    let mut a = vec!["revert"];
    a.extend_from_slice(args);
    a.extend_from_slice(&["--memory", s(memory)]);
    run(memory.parent().unwrap(), &a)
}

#[test]
fn the_commit_diff_has_the_hunk_ids_revert_takes() {
    let (_t, memory, sha) = reviewed();
    let repo = MemoryRepo::discover(&memory).unwrap().unwrap();
    let commit = history::find_commit(&repo, &sha).unwrap();
    let ids: Vec<String> = history::commit_diff(&repo, &commit)
        .unwrap()
        .iter()
        .flat_map(|f| f.hunks.iter().map(|h| h.id.clone()))
        .collect();
    assert_eq!(ids, ["notes.md#1", "notes.md#2", "other.md#1"]);
    let e = history::already_reviewed(&repo, "no-such-dream").unwrap();
    assert!(e.is_none());
}

#[test]
fn reverting_a_whole_review_is_a_new_commit() {
    let (_t, memory, sha) = reviewed();
    let r = revert(&memory, &[&sha[..7]]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    let want = format!("Revert \"{SUMMARY}\"");
    assert!(r.stdout.contains(&want), "{}", r.stdout);
    assert_eq!(read(&memory.join("notes.md")), numbered(30, &[]));
    assert_eq!(read(&memory.join("other.md")), "other\n");
    assert_eq!(subjects(&memory), [want.as_str(), SUMMARY, "notes"]);
    assert_eq!(git(&memory, &["rev-parse", "HEAD~1"]).trim(), sha);
    assert_eq!(git(&memory, &["status", "--porcelain"]), "");
    let msg = git(&memory, &["log", "-1", "--format=%B"]);
    let f = tempfile::NamedTempFile::new().unwrap();
    fs::write(f.path(), &msg).unwrap();
    assert_eq!(git(&memory, &["interpret-trailers", "--parse", s(f.path())]), format!("Reverts: {sha}\n"));
    // Reverting again finds nothing to do.
    let r = revert(&memory, &[&sha]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert!(r.stdout.contains("nothing to revert"), "{}", r.stdout);
    assert_eq!(subjects(&memory).len(), 3);
}

#[test]
fn reverting_one_file_snapshots_uncommitted_notes_first() {
    let (_t, memory, sha) = reviewed();
    fs::write(memory.join("extra.md"), "uncommitted\n").unwrap();
    let r = revert(&memory, &[&sha, "--file", "other.md"]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert!(r.stdout.contains(" memory: snapshot before revert\n"), "{}", r.stdout);
    assert_eq!(read(&memory.join("other.md")), "other\n");
    assert_eq!(read(&memory.join("notes.md")), numbered(30, &[(3, "line 3 dreamed"), (25, "line 25 dreamed")]));
    assert_eq!(
        subjects(&memory)[..2],
        [format!("Revert other.md from \"{SUMMARY}\""), "memory: snapshot before revert".to_string()]
    );
    assert_eq!(git(&memory, &["show", "--name-only", "--format=", "HEAD"]), "other.md\n");
    assert_eq!(git(&memory, &["status", "--porcelain"]), "");
}

#[test]
fn reverting_one_hunk_keeps_the_rest_of_the_file() {
    let (_t, memory, sha) = reviewed();
    let r = revert(&memory, &[&sha, "--hunk", "notes.md#2"]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert_eq!(read(&memory.join("notes.md")), numbered(30, &[(3, "line 3 dreamed")]));
    assert_eq!(read(&memory.join("other.md")), "other dreamed\n");
    assert_eq!(subjects(&memory)[0], format!("Revert notes.md#2 from \"{SUMMARY}\""));
    assert_eq!(git(&memory, &["status", "--porcelain"]), "");
}

#[test]
fn a_revert_that_conflicts_with_a_later_edit_writes_nothing() {
    let (_t, memory, sha) = reviewed();
    let session = numbered(30, &[(3, "line 3 dreamed"), (25, "line 25 by a session")]);
    fs::write(memory.join("notes.md"), &session).unwrap();
    let count = subjects(&memory).len();
    let r = revert(&memory, &[&sha]);
    assert_eq!(r.code, 1, "{}{}", r.stdout, r.stderr);
    assert_eq!(
        r.stdout,
        format!(
            "conflict  notes.md lines 22-28: changed after {}; the revert would overwrite that \
             edit (edit the note by hand, or revert a narrower part)\n",
            &sha[..7]
        )
    );
    assert!(r.stderr.contains("nothing was written"), "{}", r.stderr);
    assert_eq!(read(&memory.join("notes.md")), session);
    assert_eq!(read(&memory.join("other.md")), "other dreamed\n");
    assert_eq!(subjects(&memory).len(), count);
    // The hunk the session did not touch still reverts, and the session's edit stays.
    let r = revert(&memory, &[&sha, "--hunk", "notes.md#1"]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert_eq!(read(&memory.join("notes.md")), numbered(30, &[(25, "line 25 by a session")]));
    assert_eq!(
        subjects(&memory)[..2],
        [format!("Revert notes.md#1 from \"{SUMMARY}\""), "memory: snapshot before revert".to_string()]
    );
    assert_eq!(git(&memory, &["status", "--porcelain"]), "");
}

#[test]
fn bad_revert_arguments_exit_2_and_say_why() {
    let (_t, memory, sha) = reviewed();
    let r = revert(&memory, &["deadbeef"]);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("no commit \"deadbeef\""), "{}", r.stderr);
    let r = revert(&memory, &[&sha, "--hunk", "notes.md#7"]);
    assert_eq!(r.code, 2);
    assert!(
        r.stderr.contains("has no hunk notes.md#7; its hunks are notes.md#1, notes.md#2, other.md#1"),
        "{}",
        r.stderr
    );
    let r = revert(&memory, &[&sha, "--file", "nope.md"]);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("does not change nope.md"), "{}", r.stderr);
    // --file and --hunk together are refused as such (a file the commit does change, so the
    // refusal cannot come from the path).
    let changed = git(&memory, &["show", "--name-only", "--format=", &sha]);
    let path = changed.lines().next().expect("the review commit changes a file").to_string();
    let r = revert(&memory, &[&sha, "--file", &path, "--hunk", &format!("{path}#1")]);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("cannot be used with"), "{}", r.stderr);
    // A note given as the memory folder: said as such, by revert and by log.
    let note = memory.join("notes.md");
    for args in [vec!["revert", &sha, "--memory", s(&note)], vec!["log", "--memory", s(&note)]] {
        let r = run(memory.parent().unwrap(), &args);
        assert_eq!(r.code, 2, "{args:?}: {}{}", r.stdout, r.stderr);
        assert!(r.stderr.contains(&format!("memory folder {} is not a folder", note.display())), "{}", r.stderr);
    }
    assert_eq!(subjects(&memory).len(), 2);
}

#[test]
fn log_marks_reviews_and_reverts_and_skips_commits_outside_memory() {
    let t = tempfile::tempdir().unwrap();
    let outer = t.path().join("outer");
    let memory = outer.join("mem");
    fs::create_dir_all(&memory).unwrap();
    fs::write(memory.join("a.md"), numbered(10, &[])).unwrap();
    fs::write(outer.join("code.txt"), "x\n").unwrap();
    git(&outer, &["init", "-q"]);
    git(&outer, &["add", "-A"]);
    git(&outer, &["commit", "-qm", "start"]);
    fs::write(outer.join("code.txt"), "y\n").unwrap();
    git(&outer, &["commit", "-qam", "code only"]);
    let dream = t.path().join("dream");
    fs::create_dir(&dream).unwrap();
    fs::write(dream.join("a.md"), numbered(10, &[(5, "five")])).unwrap();
    let r = run(t.path(), &["apply", s(&dream), "--memory", s(&memory), "--accept-all"]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    let review = git(&outer, &["rev-parse", "HEAD"]).trim().to_string();
    let r = revert(&memory, &[&review]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    let revert_sha = git(&outer, &["rev-parse", "HEAD"]).trim().to_string();

    let r = run(t.path(), &["log", "--memory", s(&memory), "--json"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v = json(&r);
    let list = v.as_array().unwrap();
    assert_eq!(list.len(), 3, "{}", r.stdout);
    assert_eq!(list[0]["id"], revert_sha.as_str());
    assert_eq!(list[0]["kind"], "revert");
    assert_eq!(list[0]["reverts"], review.as_str());
    assert_eq!(list[1]["kind"], "review");
    assert_eq!(list[1]["review"], serde_json::json!({"accepted": 1, "rejected": 0, "edited": 0}));
    assert_eq!(list[1]["files"], serde_json::json!(["a.md"]));
    assert_eq!(list[1]["dream_source"], s(&dream));
    assert_eq!(list[2]["summary"], "start");
    assert_eq!(list[2]["kind"], "other");

    let r = run(&memory, &["log"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let lines: Vec<&str> = r.stdout.lines().collect();
    assert_eq!(lines.len(), 3, "{}", r.stdout);
    assert!(
        lines[0].starts_with(&revert_sha[..7]) && lines[0].contains(&format!("[revert of {}] Revert \"", &review[..7])),
        "{}",
        lines[0]
    );
    assert!(
        lines[1].ends_with("[review: 1 accepted, 0 rejected] dream review: accept 1 of 1 changes from dream"),
        "{}",
        lines[1]
    );
    assert!(lines[2].ends_with(" start"), "{}", lines[2]);
    let r = run(t.path(), &["log", "--memory", s(t.path())]);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("not in a git repository"), "{}", r.stderr);
}
