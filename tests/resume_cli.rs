//! Resuming a review: decisions saved under the git directory and restored after a
//! "restart", surviving a live edit that shifts hunk positions; a dream already reviewed
//! is recognised; the TUI's path (library commit with a previewed message) and
//! `apply --decisions <saved state>` give the same tree.

use crate::common::*;
use dreamreview::faces::cli::{self, InputArgs};
use dreamreview::model::decision::Decision;
use dreamreview::model::ids::HunkId;
use dreamreview::model::review::Review;
use dreamreview::store::repo::decisions;
use dreamreview::store::repo::lock::RepoLock;
use dreamreview::store::repo::{MemoryRepo, apply, history};
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// The review's inputs as the command line gives them; the memory folder is named, as
/// apply and the TUI's commit need it to be for a folder outside ~/.claude/projects.
fn inputs(dream: &Path, memory: &Path) -> InputArgs {
    InputArgs { dream: Some(dream.to_path_buf()), memory: Some(memory.to_path_buf()), ..InputArgs::default() }
}

fn hunk(r: &Review, id: &str) -> (usize, usize) {
    let at = r.find_hunk(id).unwrap_or_else(|| panic!("no hunk {id} in {:?}", ids(r)));
    (at.file, at.hunk)
}

fn ids(r: &Review) -> Vec<String> {
    r.files.iter().flat_map(|f| f.hunks.iter().map(|h| h.id.clone())).collect()
}

/// A mixed set of decisions on the demo: whole hunks, single lines and an edit.
fn decide(r: &mut Review) {
    let (f, h) = hunk(r, "testing.md#1");
    r.set_hunk(HunkId::new(f, h), Decision::Accepted).unwrap();
    let (f, h) = hunk(r, "ci.md#1");
    r.set_hunk(HunkId::new(f, h), Decision::Accepted).unwrap();
    let (f, h) = hunk(r, "review-ja.md#1");
    r.set_hunk(HunkId::new(f, h), Decision::Rejected).unwrap();
    let (f, h) = hunk(r, "MEMORY.md#1");
    for (slot, d) in
        [Decision::Accepted, Decision::Accepted, Decision::Rejected, Decision::Rejected].into_iter().enumerate()
    {
        r.set_line(HunkId::new(f, h), slot, d).unwrap();
    }
    let (f, h) = hunk(r, "database.md#1");
    let side = r.hunk(HunkId::new(f, h)).unwrap().new_side();
    let edited: String =
        dreamreview::base::text::split_lines(&side).into_iter().filter(|l| !l.contains("token")).collect();
    assert_ne!(edited, side);
    r.set_edit(HunkId::new(f, h), Some(edited)).unwrap();
}

fn demo() -> (tempfile::TempDir, PathBuf, PathBuf) {
    let t = tempfile::tempdir().unwrap();
    let d = dreamreview::faces::demo::materialize(t.path()).unwrap();
    (t, d.dream, d.memory)
}

#[test]
fn decisions_are_saved_in_the_git_dir_and_restored_after_a_restart() {
    let (_t, dream, memory) = demo();
    let mut first = cli::load(&inputs(&dream, &memory)).unwrap();
    decide(&mut first);
    let store = decisions::Store::open(&first).unwrap().unwrap();
    store.save(&first).unwrap();
    let state_dir = memory.canonicalize().unwrap().join(".git/dreamreview");
    assert_eq!(store.path, state_dir.join(format!("{}.json", first.dream_id)));
    let names: Vec<String> =
        fs::read_dir(&state_dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    assert_eq!(names, [format!("{}.json", first.dream_id)], "no temp files");
    assert_eq!(git(&memory, &["status", "--porcelain"]), "", "not in the work tree");
    let saved = store.load().unwrap().unwrap();
    assert_eq!(saved.hunks.len(), 5, "pending hunks are not saved");
    assert_eq!(saved.dream_id.as_deref(), Some(first.dream_id.as_str()));

    // "Restart": a fresh process state loads the same dream and restores.
    let mut again = cli::load(&inputs(&dream, &memory)).unwrap();
    assert_ne!(again.decisions, first.decisions);
    let restored = decisions::restore(&mut again).unwrap();
    assert_eq!(restored.applied, 5);
    assert!(restored.unmatched.is_empty() && restored.refused.is_empty());
    assert_eq!(again.decisions, first.decisions);
    assert_eq!(again.result_snapshot(), first.result_snapshot());
}

fn numbered(n: usize, edit: &[(usize, &str)]) -> String {
    (1..=n)
        .map(|i| match edit.iter().find(|(l, _)| *l == i) {
            Some((_, t)) => format!("{t}\n"),
            None => format!("line {i}\n"),
        })
        .collect()
}

#[test]
fn saved_decisions_survive_a_live_edit_that_shifts_hunks() {
    let t = tempfile::tempdir().unwrap();
    let memory = t.path().join("project/memory");
    fs::create_dir_all(&memory).unwrap();
    fs::write(memory.join("notes.md"), numbered(40, &[])).unwrap();
    git(&memory, &["init", "-q"]);
    git(&memory, &["add", "-A"]);
    git(&memory, &["commit", "-qm", "notes"]);
    let dream = t.path().join("dream");
    fs::create_dir_all(dream.join("memory")).unwrap();
    fs::write(dream.join("memory/notes.md"), numbered(40, &[(5, "five dreamed"), (30, "thirty dreamed")])).unwrap();
    let out = Command::new("diff").args(["-ruN", "-x", ".git", s(&memory), s(&dream.join("memory"))]).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    fs::write(dream.join("memory.diff"), &out.stdout).unwrap();

    let mut first = cli::load(&inputs(&dream, &memory)).unwrap();
    assert_eq!(ids(&first), ["notes.md#1", "notes.md#2"]);
    let (f, h) = hunk(&first, "notes.md#2");
    first.set_hunk(HunkId::new(f, h), Decision::Accepted).unwrap();
    first.set_hunk(HunkId::new(f, 0), Decision::Rejected).unwrap();
    let key = first.files[f].hunks[h].key.clone();
    let start = first.files[f].hunks[h].old_range.start;
    assert!(decisions::save(&first).unwrap().is_some());

    // A session edits live memory: three lines on top (every hunk shifts) and line 5
    // (the first hunk now overlaps the session's edit).
    let live = format!("top 1\ntop 2\ntop 3\n{}", numbered(40, &[(5, "five by a session")]));
    fs::write(memory.join("notes.md"), &live).unwrap();
    let mut again = cli::load(&inputs(&dream, &memory)).unwrap();
    let restored = decisions::restore(&mut again).unwrap();
    assert_eq!(restored.applied, 1);
    assert_eq!(restored.unmatched.len(), 1, "the changed hunk is not guessed");
    let (f2, h2) = again
        .files
        .iter()
        .enumerate()
        .find_map(|(fi, file)| file.hunks.iter().position(|x| x.key == key).map(|hi| (fi, hi)))
        .unwrap();
    assert_eq!(again.files[f2].hunks[h2].old_range.start, start + 3);
    assert_eq!(again.decisions[HunkId::new(f2, h2)].lines, vec![Decision::Accepted; again.files[f2].hunks[h2].slots()]);
    let other = 1 - h2;
    assert!(again.files[f2].hunks[other].live_changed);
    assert!(!again.decisions[HunkId::new(f2, other)].is_decided());

    // Committing keeps the session's edits and applies the restored decision.
    let repo = MemoryRepo::discover(&memory).unwrap().unwrap();
    let lock = RepoLock::acquire(&repo).unwrap();
    let analysis = cli::analyze(&again);
    apply::commit_review(&repo, &again, &analysis, &lock).unwrap();
    assert_eq!(
        fs::read_to_string(memory.join("notes.md")).unwrap(),
        format!("top 1\ntop 2\ntop 3\n{}", numbered(40, &[(5, "five by a session"), (30, "thirty dreamed")]))
    );
    assert_eq!(
        git(&memory, &["log", "--format=%s"]),
        "dream review: accept 1 of 2 changes from dream\nmemory: snapshot before dream review\nnotes\n"
    );
}

#[test]
fn the_tui_path_and_apply_with_the_saved_state_give_the_same_tree() {
    // The TUI's way: decide, preview the message, commit through the library.
    let (_a, dream_a, memory_a) = demo();
    let mut review = cli::load(&inputs(&dream_a, &memory_a)).unwrap();
    decide(&mut review);
    let repo = MemoryRepo::discover(&memory_a).unwrap().unwrap();
    assert!(history::already_reviewed(&repo, &review.dream_id).unwrap().is_none());
    let r = run(dream_a.parent().unwrap(), &["check", s(&dream_a)]);
    assert!(!r.stderr.contains("already reviewed"), "{}", r.stderr);
    let analysis = cli::analyze(&review);
    let preview = apply::plan(&repo, &review, &analysis).unwrap();
    assert_eq!(preview.summary, "dream review: accept 4 of 7 changes from dream-2026-11-28");
    assert_eq!((preview.counts.accepted, preview.counts.rejected, preview.counts.edited), (4, 3, 1));
    assert!(!preview.snapshot_first);
    let lock = RepoLock::acquire(&repo).unwrap();
    let done = apply::commit_review(&repo, &review, &analysis, &lock).unwrap();
    drop(lock);
    assert_eq!(done.message, preview.message);
    assert_eq!(git(&memory_a, &["log", "-1", "--format=%B"]).trim_end(), preview.message.trim_end());
    assert!(done.skipped.is_empty());
    assert_eq!(done.written, ["MEMORY.md", "ci.md", "database.md", "testing.md"]);
    let found = history::already_reviewed(&repo, &review.dream_id).unwrap().unwrap();
    assert_eq!(found.id, done.commit.to_string());
    assert_eq!(found.kind, history::CommitKind::Review);
    // `check` says so too, on stderr (its --json stays one document).
    for args in [vec!["check", s(&dream_a)], vec!["check", "--json", s(&dream_a)]] {
        let r = run(dream_a.parent().unwrap(), &args);
        assert!(
            r.stderr.contains(&format!("this dream was reviewed in {}: 3 accepted, 1 edited, 3 rejected", found.short)),
            "{}",
            r.stderr
        );
        assert!(!r.stdout.contains("already reviewed"), "{}", r.stdout);
    }
    let tree_a = git(&memory_a, &["rev-parse", "HEAD^{tree}"]);

    // The command line's way, from the TUI's saved state of the same decisions.
    let (_b, dream_b, memory_b) = demo();
    let mut review_b = cli::load(&inputs(&dream_b, &memory_b)).unwrap();
    decide(&mut review_b);
    let saved = decisions::save(&review_b).unwrap().unwrap();
    let r = run(dream_b.parent().unwrap(), &["apply", s(&dream_b), "--memory", s(&memory_b), "--decisions", s(&saved)]);
    // Exit 1 is allowed only for error-level flags the provenance checks may add; never
    // for skipped hunks.
    assert!(r.code == 0 || (r.code == 1 && !r.stdout.contains("skipped")), "{}{}", r.stdout, r.stderr);
    assert!(r.stdout.contains("dream review: accept 4 of 7 changes from dream-2026-11-28"), "{}", r.stdout);
    assert_eq!(git(&memory_b, &["rev-parse", "HEAD^{tree}"]), tree_a);
    assert!(fs::read_to_string(memory_b.join("database.md")).unwrap().contains("currency defaults to USD"));
    assert!(!fs::read_to_string(memory_b.join("database.md")).unwrap().contains("token"));
}

/// After a commit, what is left of the dream is what the reviewer did not take: the
/// rejected hunks come back rejected, a partly taken hunk comes back pending and not as a
/// `live-changed` error (the review's own commit is no session's edit), and a saved
/// acceptance never outlives its commit — after a revert restores a deleted note, its
/// deletion is pending again, not accepted.
#[test]
fn after_a_commit_the_rest_of_the_dream_is_pending_or_rejected_never_reaccepted() {
    let (_t, dream, memory) = demo();
    let mut review = cli::load(&inputs(&dream, &memory)).unwrap();
    decide(&mut review);
    let (f, h) = hunk(&review, "git-rules.md#1");
    review.set_hunk(HunkId::new(f, h), Decision::Accepted).unwrap();
    // MEMORY.md#1: the CI line changed and the Git rules line dropped, the Database line kept.
    let (f, h) = hunk(&review, "MEMORY.md#1");
    for (slot, d) in
        [Decision::Accepted, Decision::Accepted, Decision::Rejected, Decision::Accepted].into_iter().enumerate()
    {
        review.set_line(HunkId::new(f, h), slot, d).unwrap();
    }
    decisions::save(&review).unwrap();
    let repo = MemoryRepo::discover(&memory).unwrap().unwrap();
    let analysis = cli::analyze(&review);
    let lock = RepoLock::acquire(&repo).unwrap();
    let done = apply::commit_review(&repo, &review, &analysis, &lock).unwrap();
    drop(lock);
    assert!(!memory.join("git-rules.md").exists());
    // The message counts the lines the commit takes, not the hunk's.
    assert!(done.message.contains("- MEMORY.md#1 (+1 -2 of +1 -3, some lines)"), "{}", done.message);
    let stat = git(&memory, &["show", "--numstat", "--format=", "HEAD", "--", "MEMORY.md"]);
    assert!(stat.starts_with("1\t2\t"), "{stat}");

    let mut again = cli::load(&inputs(&dream, &memory)).unwrap();
    decisions::restore(&mut again).unwrap();
    let state = |r: &Review, id: &str| {
        let (f, h) = hunk(r, id);
        r.decisions[HunkId::new(f, h)].state()
    };
    assert_eq!(state(&again, "review-ja.md#1"), dreamreview::model::decision::HunkState::Rejected);
    let (f, h) = hunk(&again, "MEMORY.md#1");
    assert!(!again.files[f].hunks[h].live_changed, "the review's own lines are no live edit");
    // What the commit did not take of it stays decided as the commit decided: rejected,
    // not pending (one key must not undo the review); --again reopens it.
    assert_eq!(state(&again, "MEMORY.md#1"), dreamreview::model::decision::HunkState::Rejected);
    assert!(again.find_hunk("git-rules.md#1").is_none(), "its deletion is committed");
    let reopened = cli::load(&InputArgs { again: true, ..inputs(&dream, &memory) }).unwrap();
    assert_eq!(state(&reopened, "MEMORY.md#1"), dreamreview::model::decision::HunkState::Pending);
    assert_eq!(state(&reopened, "review-ja.md#1"), dreamreview::model::decision::HunkState::Pending);

    // Revert the review: the note is back, and its deletion is pending, not accepted.
    let r = run(memory.parent().unwrap(), &["revert", &done.commit.to_string(), "--memory", s(&memory)]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert!(memory.join("git-rules.md").exists());
    let mut reverted = cli::load(&inputs(&dream, &memory)).unwrap();
    decisions::restore(&mut reverted).unwrap();
    assert_eq!(state(&reverted, "git-rules.md#1"), dreamreview::model::decision::HunkState::Pending);
    let (f, h) = hunk(&reverted, "MEMORY.md#1");
    assert!(!reverted.files[f].hunks[h].live_changed);
}
