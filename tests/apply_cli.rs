//! `dreamreview apply` end to end on real temp repositories, checked with the real git:
//! accept-all / reject-all / a subset, `--init`, the snapshot commit of a dirty work tree,
//! a memory folder nested in a bigger repo with unrelated staged changes, trailers,
//! in-place dreams, decisions files, symlinks, the lock, and crash safety.

use crate::common::*;
use dreamreview::inputs::snapshot::{Entry, read_folder};
use std::fs;
use std::path::{Path, PathBuf};

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

fn read(p: &Path) -> String {
    fs::read_to_string(p).unwrap()
}

/// `git interpret-trailers --parse` of HEAD's message, run by the real git.
fn trailers(dir: &Path) -> String {
    let msg = git(dir, &["log", "-1", "--format=%B"]);
    let f = tempfile::NamedTempFile::new().unwrap();
    fs::write(f.path(), msg).unwrap();
    git(dir, &["interpret-trailers", "--parse", s(f.path())])
}

fn subjects(dir: &Path) -> Vec<String> {
    git(dir, &["log", "--format=%s"]).lines().map(str::to_string).collect()
}

fn dream_id(cwd: &Path, dream: &Path, extra: &[&str]) -> String {
    let mut args = vec!["check", s(dream), "--json"];
    args.extend_from_slice(extra);
    let r = run(cwd, &args);
    json(&r)["dream"]["id"].as_str().unwrap().to_string()
}

fn demo() -> (tempfile::TempDir, PathBuf, PathBuf) {
    let t = tempfile::tempdir().unwrap();
    let d = dreamreview::faces::demo::materialize(t.path()).unwrap();
    (t, d.dream, d.memory)
}

#[test]
fn pnpm_needs_init_then_accept_all_reproduces_the_proposal() {
    let (_g, dream, memory) = pnpm();
    let cwd = dream.parent().unwrap();
    let before = read_folder(&memory).unwrap();
    let r = run(cwd, &["apply", s(&dream), "--memory", s(&memory), "--accept-all"]);
    assert_eq!(r.code, 2, "{}{}", r.stdout, r.stderr);
    assert!(r.stderr.contains("--init"), "{}", r.stderr);
    assert!(r.stderr.contains(s(&memory)), "{}", r.stderr);
    assert!(!memory.join(".git").exists());
    assert_eq!(read_folder(&memory).unwrap(), before, "nothing written");

    let id = dream_id(cwd, &dream, &[]);
    let r = run(cwd, &["apply", s(&dream), "--memory", s(&memory), "--accept-all", "--init"]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert!(r.stdout.contains("initialised a git repository"), "{}", r.stdout);
    assert!(r.stdout.contains("dream review: accept 1 of 1 changes from dream-2026-11-02"), "{}", r.stdout);
    assert_eq!(fs::read(memory.join("testing.md")).unwrap(), fs::read(dream.join("memory/testing.md")).unwrap());
    for f in ["MEMORY.md", "deploy.md"] {
        assert_eq!(Some(&Entry::File(fs::read(memory.join(f)).unwrap())), before.get(f));
    }
    assert_eq!(
        subjects(&memory),
        ["dream review: accept 1 of 1 changes from dream-2026-11-02", "memory: notes as they were before dreamreview"]
    );
    assert_eq!(git(&memory, &["status", "--porcelain"]), "");
    assert_eq!(
        trailers(&memory),
        format!("Dream-Source: {}\nDream-Id: {id}\nReview: accepted=1 rejected=0 edited=0\n", dream.display())
    );
    assert_eq!(git(&memory, &["show", "--name-only", "--format=", "HEAD"]), "testing.md\n");
    let body = git(&memory, &["log", "-1", "--format=%B"]);
    assert!(body.contains("\nAccepted (1):\n- testing.md#1 (+2 -1)\n"), "{body}");
}

#[test]
fn reject_all_keeps_live_byte_for_byte_and_records_the_review() {
    let (_t, dream, memory) = demo();
    let before = read_folder(&memory).unwrap();
    let cwd = dream.parent().unwrap();
    let r = run(cwd, &["apply", s(&dream), "--memory", s(&memory), "--reject-all"]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert!(r.stdout.contains("dream review: accept 0 of 7 changes from dream-2026-11-28"), "{}", r.stdout);
    assert_eq!(read_folder(&memory).unwrap(), before);
    assert_eq!(subjects(&memory).len(), 2);
    assert_eq!(git(&memory, &["show", "--name-only", "--format=", "HEAD"]), "");
    assert_eq!(git(&memory, &["status", "--porcelain"]), "");
    assert!(trailers(&memory).ends_with("Review: accepted=0 rejected=7 edited=0\n"), "{}", trailers(&memory));
}

#[test]
fn a_subset_writes_exactly_the_named_hunks() {
    let (_t, dream, memory) = demo();
    let before = read_folder(&memory).unwrap();
    let cwd = dream.parent().unwrap();
    let r = run(cwd, &["apply", s(&dream), "--memory", s(&memory), "--accept", "ci.md#1, testing.md#1"]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert!(r.stdout.contains("accept 2 of 7 changes"), "{}", r.stdout);
    let after = read_folder(&memory).unwrap();
    for (path, entry) in &before {
        if path == "ci.md" || path == "testing.md" {
            assert_eq!(after[path], Entry::File(fs::read(dream.join("memory").join(path)).unwrap()));
        } else {
            assert_eq!(&after[path], entry, "{path} must stay live");
        }
    }
    assert_eq!(git(&memory, &["show", "--name-only", "--format=", "HEAD"]), "ci.md\ntesting.md\n");
    assert_eq!(git(&memory, &["status", "--porcelain"]), "");
    assert!(trailers(&memory).ends_with("Review: accepted=2 rejected=5 edited=0\n"));
    let body = git(&memory, &["log", "-1", "--format=%B"]);
    assert!(body.contains("Rejected (5):\n- MEMORY.md#1 (+1 -3)\n"), "{body}");
    // An unknown id is bad input: exit 2, nothing written, the valid ids listed.
    let r = run(cwd, &["apply", s(&dream), "--memory", s(&memory), "--again", "--accept", "nope.md#9"]);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("nope.md#9") && r.stderr.contains("MEMORY.md#1"), "{}", r.stderr);
    // So is an empty list: it is no way to say "reject everything".
    for empty in ["", " , "] {
        let r = run(cwd, &["apply", s(&dream), "--memory", s(&memory), "--again", "--accept", empty]);
        assert_eq!(r.code, 2, "{}{}", r.stdout, r.stderr);
        assert!(r.stderr.contains("--accept names no hunk"), "{}", r.stderr);
    }
    assert_eq!(subjects(&memory).len(), 2);
}

#[test]
fn accept_all_skips_the_live_changed_hunk_and_exits_1() {
    let (_t, dream, memory) = demo();
    let live_deploy = read(&memory.join("deploy.md"));
    let cwd = dream.parent().unwrap();
    let head = git(&memory, &["rev-parse", "HEAD"]);
    // The demo's accepted hunks carry a secret and delete a PERMANENT note: refused, nothing
    // written, until --allow names both kinds.
    let r = run(cwd, &["apply", s(&dream), "--memory", s(&memory), "--accept-all"]);
    assert_eq!(r.code, 2, "{}{}", r.stdout, r.stderr);
    assert!(
        r.stderr.contains("refusing to commit: accepted hunks carry error-level flags: database.md#1 secret «[anthropic-key …Z9AA]»; git-rules.md#1 permanent-deleted")
            && r.stderr.contains("nothing was written")
            && r.stderr.contains("pass --allow permanent-deleted,secret to commit them anyway"),
        "{}",
        r.stderr
    );
    assert_eq!(git(&memory, &["rev-parse", "HEAD"]), head, "nothing committed");
    assert_eq!(read(&memory.join("deploy.md")), live_deploy);
    assert!(memory.join("git-rules.md").exists());
    let r = run(cwd, &["apply", s(&dream), "--memory", s(&memory), "--accept-all", "--allow", "secret"]);
    assert_eq!(r.code, 2, "permanent-deleted is not allowed: {}{}", r.stdout, r.stderr);
    assert!(
        r.stderr.contains("git-rules.md#1 permanent-deleted") && !r.stderr.contains("database.md#1"),
        "{}",
        r.stderr
    );
    let r = run(cwd, &["apply", s(&dream), "--memory", s(&memory), "--accept-all", "--allow", "nonsense"]);
    assert_eq!(r.code, 2);
    assert!(
        r.stderr.contains(
            "--allow nonsense: not an error flag kind; the kinds are citation-unresolved, removal-unsourced, correction-lost, injected-instruction, mass-removal, secret"
        ),
        "{}",
        r.stderr
    );
    let r =
        run(cwd, &["apply", s(&dream), "--memory", s(&memory), "--accept-all", "--allow", "secret,permanent-deleted"]);
    assert_eq!(r.code, 1, "{}{}", r.stdout, r.stderr);
    assert!(r.stderr.contains("committed with error-level flags you allowed: database.md#1 secret"), "{}", r.stderr);
    assert!(
        r.stdout
            .contains("skipped   deploy.md#1: live memory changed here after the dream: only a merge can take it: give its merged text in --decisions FILE (\"edited\"), or merge it in the review TUI\n"),
        "{}",
        r.stdout
    );
    assert!(r.stdout.contains("accept 6 of 7 changes"), "{}", r.stdout);
    assert_eq!(read(&memory.join("deploy.md")), live_deploy);
    assert!(!memory.join("git-rules.md").exists());
    for f in ["MEMORY.md", "ci.md", "database.md", "review-ja.md", "testing.md"] {
        assert_eq!(fs::read(memory.join(f)).unwrap(), fs::read(dream.join("memory").join(f)).unwrap(), "{f}");
    }
    assert_eq!(git(&memory, &["status", "--porcelain"]), "");
    let body = git(&memory, &["log", "-1", "--format=%B"]);
    assert!(body.contains("- deploy.md#1 (+2 -2, live memory changed here after the dream)\n"), "{body}");
    assert!(body.contains("- git-rules.md#1 (+0 -8)"), "{body}");
    assert!(body.contains("- database.md#1 (+3 -0)\n  accepted with: secret «[anthropic-key …Z9AA]»\n"), "{body}");
    assert!(body.contains("accepted with: inferred-date «"), "the warnings waved through are listed too: {body}");
}

#[test]
fn a_dirty_work_tree_gets_its_snapshot_commit_first() {
    let (_t, dream, memory) = demo();
    fs::write(memory.join("extra.md"), "a session wrote this\n").unwrap();
    fs::write(memory.join(".DS_Store"), "not a note").unwrap();
    let cwd = dream.parent().unwrap();
    let r = run(cwd, &["apply", s(&dream), "--memory", s(&memory), "--accept", "testing.md#1"]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert!(r.stdout.contains(" memory: snapshot before dream review\n"), "{}", r.stdout);
    assert_eq!(
        subjects(&memory),
        [
            "dream review: accept 1 of 7 changes from dream-2026-11-28",
            "memory: snapshot before dream review",
            "memory: notes as they were before dreamreview"
        ]
    );
    assert_eq!(git(&memory, &["show", "--name-only", "--format=", "HEAD~1"]), "extra.md\n");
    assert_eq!(git(&memory, &["show", "--name-only", "--format=", "HEAD"]), "testing.md\n");
    assert_eq!(git(&memory, &["status", "--porcelain"]), "?? .DS_Store\n");
    assert_eq!(read(&memory.join("extra.md")), "a session wrote this\n");
}

#[test]
fn nested_memory_folder_leaves_other_staged_changes_alone() {
    let t = tempfile::tempdir().unwrap();
    let outer = t.path().join("outer");
    copy_dir(&Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/pnpm-migration"), &outer.join("proj"));
    let memory = outer.join("proj/project/memory");
    let dream = outer.join("proj/dream-2026-11-02");
    replace_in(&dream.join("memory.diff"), "/home/dev/.claude/projects/-home-dev-shop/memory", s(&memory));
    fs::create_dir_all(outer.join("src")).unwrap();
    fs::write(outer.join("src/app.txt"), "v1\n").unwrap();
    fs::write(outer.join("notes.txt"), "n1\n").unwrap();
    git(&outer, &["init", "-q"]);
    git(&outer, &["add", "-A"]);
    git(&outer, &["commit", "-qm", "init"]);
    fs::write(outer.join("src/app.txt"), "v2 staged\n").unwrap();
    git(&outer, &["add", "src/app.txt"]);
    fs::write(outer.join("notes.txt"), "n2 unstaged\n").unwrap();
    let r = run(&outer, &["apply", s(&dream), "--memory", s(&memory), "--accept-all"]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert_eq!(git(&outer, &["show", "--name-only", "--format=", "HEAD"]), "proj/project/memory/testing.md\n");
    assert_eq!(git(&outer, &["diff", "--cached", "--name-only"]), "src/app.txt\n");
    assert_eq!(git(&outer, &["status", "--porcelain"]), " M notes.txt\nM  src/app.txt\n");
    assert_eq!(git(&outer, &["show", "HEAD:src/app.txt"]), "v1\n");
    assert_eq!(git(&outer, &["show", ":src/app.txt"]), "v2 staged\n");
    assert_eq!(read(&outer.join("notes.txt")), "n2 unstaged\n");
    assert_eq!(fs::read(memory.join("testing.md")).unwrap(), fs::read(dream.join("memory/testing.md")).unwrap());
    assert_eq!(subjects(&outer).len(), 2);
}

/// Another process holding the lock refuses `apply` (exit 2, naming its pid and the
/// file); once it is killed, the next `apply` runs at once and says whose lock it took
/// over; the lock file stays, emptied.
#[test]
fn a_held_lock_refuses_and_a_killed_holders_is_taken_over() {
    let (_t, dream, memory) = demo();
    let cwd = dream.parent().unwrap();
    let lock = memory.join(".git/dreamreview/lock");
    let holder = LockHolder::start(&lock);
    let r = run(cwd, &["apply", s(&dream), "--memory", s(&memory), "--reject-all"]);
    assert_eq!(r.code, 2, "{}{}", r.stdout, r.stderr);
    assert!(
        r.stderr.contains("locked by another dreamreview")
            && r.stderr.contains(&format!("pid {}", holder.pid))
            && r.stderr.contains(s(&lock)),
        "{}",
        r.stderr
    );
    assert_eq!(subjects(&memory).len(), 1);

    let dead = holder.pid;
    holder.kill();
    let r = run(cwd, &["apply", s(&dream), "--memory", s(&memory), "--reject-all"]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert!(r.stderr.contains("took over a stale lock") && r.stderr.contains(&format!("pid {dead} ")), "{}", r.stderr);
    assert_eq!(read(&lock), "", "released after the run");
    assert_eq!(subjects(&memory).len(), 2);
}

#[test]
fn a_crash_between_writes_leaves_old_or_new_and_a_rerun_completes() {
    let (_t, dream, memory) = demo();
    let cwd = dream.parent().unwrap();
    // Hunks without error-level flags (no secret, no PERMANENT line), so the rerun exits 0.
    let ids = "MEMORY.md#1,ci.md#1,review-ja.md#1,testing.md#1";
    let files = ["MEMORY.md", "ci.md", "review-ja.md", "testing.md"];
    let old = read_folder(&memory).unwrap();
    let new = read_folder(&dream.join("memory")).unwrap();
    let args = ["apply", s(&dream), "--memory", s(&memory), "--accept", ids];
    let r = run_env(cwd, &args, &[("DREAMREVIEW_FAIL_AFTER_WRITES", "2")]);
    assert!(![0, 1, 2].contains(&r.code), "the process must die: {} {}{}", r.code, r.stdout, r.stderr);
    let now = read_folder(&memory).unwrap();
    let mut written = 0;
    for f in files {
        let (o, n, c) = (old.get(f), new.get(f), now.get(f));
        assert!(c == o || c == n, "{f} is neither old nor new");
        if c != o {
            written += 1;
        }
    }
    assert_eq!(written, 2, "exactly two writes happened");
    assert_eq!(subjects(&memory).len(), 1, "no commit was made");
    assert!(memory.join(".git/dreamreview/journal.json").exists());
    let temps: Vec<_> = fs::read_dir(&memory)
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().ends_with(".tmp"))
        .collect();
    assert!(temps.is_empty(), "{temps:?}");

    let r = run(cwd, &args);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert!(r.stderr.contains("took over a stale lock"), "{}", r.stderr);
    assert!(r.stderr.contains("rolled back an interrupted dream review"), "{}", r.stderr);
    let done = read_folder(&memory).unwrap();
    for f in files {
        assert_eq!(done.get(f), new.get(f), "{f}");
    }
    for f in ["deploy.md", "database.md", "git-rules.md"] {
        assert_eq!(done.get(f), old.get(f), "{f}");
    }
    assert_eq!(
        subjects(&memory),
        ["dream review: accept 4 of 7 changes from dream-2026-11-28", "memory: notes as they were before dreamreview"]
    );
    assert_eq!(git(&memory, &["status", "--porcelain"]), "");
    assert!(!memory.join(".git/dreamreview/journal.json").exists());
}

#[test]
fn a_decisions_file_takes_edits_and_names_bad_ids() {
    let (_g, dream, memory) = pnpm();
    let cwd = dream.parent().unwrap();
    git(&memory, &["init", "-q"]);
    git(&memory, &["add", "-A"]);
    git(&memory, &["commit", "-qm", "notes"]);
    let r = run(cwd, &["check", s(&dream), "--json"]);
    let v = json(&r);
    let new_side = first_hunk_new_side(&v);
    let edited = new_side.replace("in late Oct 2026", "last week");
    assert_ne!(edited, new_side);
    let file = cwd.join("decisions.json");
    fs::write(&file, serde_json::json!({"hunks": {"testing.md#1": {"edited": edited}}}).to_string()).unwrap();
    let r = run(cwd, &["apply", s(&dream), "--memory", s(&memory), "--decisions", s(&file)]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    let want = read(&dream.join("memory/testing.md")).replace("in late Oct 2026", "last week");
    assert_eq!(read(&memory.join("testing.md")), want);
    assert!(trailers(&memory).ends_with("Review: accepted=1 rejected=0 edited=1\n"));
    assert!(git(&memory, &["log", "-1", "--format=%B"]).contains("- testing.md#1 (+2 -1, edited by the reviewer)"));

    fs::write(&file, r#"{"hunks": {"gone.md#1": "accepted"}}"#).unwrap();
    let r = run(cwd, &["apply", s(&dream), "--memory", s(&memory), "--again", "--decisions", s(&file)]);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("gone.md#1") && r.stderr.contains(s(&file)), "{}", r.stderr);
    fs::write(&file, "[1, 2]").unwrap();
    let r = run(cwd, &["apply", s(&dream), "--memory", s(&memory), "--again", "--decisions", s(&file)]);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("decisions file"), "{}", r.stderr);
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
fn in_place_dream_is_not_snapshotted_and_rejections_restore_head() {
    let t = tempfile::tempdir().unwrap();
    let memory = t.path().join("memory");
    fs::create_dir(&memory).unwrap();
    let a = numbered(20, &[]);
    fs::write(memory.join("a.md"), &a).unwrap();
    fs::write(memory.join("b.md"), "b\n").unwrap();
    git(&memory, &["init", "-q"]);
    git(&memory, &["add", "-A"]);
    git(&memory, &["commit", "-qm", "notes"]);
    // The in-place dream rewrites the work tree.
    fs::write(memory.join("a.md"), numbered(20, &[(2, "line 2 dreamed"), (18, "line 18 dreamed")])).unwrap();
    fs::remove_file(memory.join("b.md")).unwrap();
    fs::write(memory.join("c.md"), "new note\n").unwrap();
    let r = run(t.path(), &["apply", "--memory", s(&memory), "--accept", "a.md#1,c.md#1"]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert!(!r.stdout.contains("snapshot"), "{}", r.stdout);
    assert!(r.stdout.contains("accept 2 of 4 changes from in-place"), "{}", r.stdout);
    assert_eq!(read(&memory.join("a.md")), numbered(20, &[(2, "line 2 dreamed")]));
    assert_eq!(read(&memory.join("b.md")), "b\n");
    assert_eq!(read(&memory.join("c.md")), "new note\n");
    assert_eq!(git(&memory, &["status", "--porcelain"]), "");
    assert_eq!(subjects(&memory).len(), 2);
    assert_eq!(git(&memory, &["show", "--name-only", "--format=", "HEAD"]), "a.md\nc.md\n");
    assert!(trailers(&memory).starts_with("Dream-Source: in-place\n"));
}

#[cfg(unix)]
#[test]
fn never_writes_through_a_symlink() {
    let t = tempfile::tempdir().unwrap();
    let memory = t.path().join("memory");
    let outside = t.path().join("outside");
    fs::create_dir_all(&memory).unwrap();
    fs::create_dir_all(&outside).unwrap();
    fs::write(memory.join("a.md"), "a\n").unwrap();
    std::os::unix::fs::symlink(&outside, memory.join("link")).unwrap();
    git(&memory, &["init", "-q"]);
    git(&memory, &["add", "-A"]);
    git(&memory, &["commit", "-qm", "notes"]);
    let dream = t.path().join("dream");
    fs::create_dir_all(dream.join("link")).unwrap();
    fs::write(dream.join("a.md"), "a dreamed\n").unwrap();
    fs::write(dream.join("link/x.md"), "through the link\n").unwrap();
    let r = run(t.path(), &["apply", s(&dream), "--memory", s(&memory), "--accept-all"]);
    assert_eq!(r.code, 1, "{}{}", r.stdout, r.stderr);
    assert!(r.stdout.contains("skipped   link#1:"), "{}", r.stdout);
    assert!(
        r.stdout.contains("skipped   link/x.md#1: link is a symlink; dreamreview never writes through symlinks"),
        "{}",
        r.stdout
    );
    assert_eq!(read(&memory.join("a.md")), "a dreamed\n");
    assert!(fs::read_dir(&outside).unwrap().next().is_none());
    assert!(fs::symlink_metadata(memory.join("link")).unwrap().file_type().is_symlink());
    assert_eq!(git(&memory, &["show", "--name-only", "--format=", "HEAD"]), "a.md\n");
    assert_eq!(read(&dream.join("a.md")), "a dreamed\n", "dream untouched");
}

#[test]
fn nothing_to_apply_when_the_dream_changes_nothing() {
    let t = tempfile::tempdir().unwrap();
    let memory = t.path().join("memory");
    fs::create_dir_all(&memory).unwrap();
    fs::write(memory.join("a.md"), "a\n").unwrap();
    git(&memory, &["init", "-q"]);
    git(&memory, &["add", "-A"]);
    git(&memory, &["commit", "-qm", "notes"]);
    let r = run(t.path(), &["apply", "--memory", s(&memory), "--accept-all"]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert!(r.stdout.contains("nothing to apply"), "{}", r.stdout);
    assert_eq!(subjects(&memory).len(), 1);
}

#[test]
fn a_dream_folder_inside_memory_is_never_written_nor_snapshotted() {
    let t = tempfile::tempdir().unwrap();
    let memory = t.path().join("memory");
    fs::create_dir_all(&memory).unwrap();
    fs::write(memory.join("a.md"), "a\n").unwrap();
    git(&memory, &["init", "-q"]);
    git(&memory, &["add", "-A"]);
    git(&memory, &["commit", "-qm", "notes"]);
    let dream = memory.join("dream-x");
    fs::create_dir_all(&dream).unwrap();
    fs::write(dream.join("a.md"), "a dreamed\n").unwrap();
    let r = run(t.path(), &["apply", s(&dream), "--memory", s(&memory), "--accept-all"]);
    assert_eq!(r.code, 1, "{}{}", r.stdout, r.stderr);
    assert!(!r.stdout.contains("snapshot"), "{}", r.stdout);
    assert!(r.stdout.contains("skipped   dream-x/a.md#1: dream-x/a.md is inside"), "{}", r.stdout);
    assert_eq!(read(&dream.join("a.md")), "a dreamed\n");
    assert_eq!(read(&memory.join("a.md")), "a dreamed\n");
    assert_eq!(git(&memory, &["show", "--name-only", "--format=", "HEAD"]), "a.md\n");
    assert_eq!(git(&memory, &["status", "--porcelain"]), "?? dream-x/\n");
}

/// A `live-changed` hunk the reviewer merged by editing it is written, and its flag no
/// longer blocks: the edit is what the flag asks for.
#[test]
fn an_edited_live_changed_hunk_is_merged_and_exits_0() {
    let (_t, dream, memory) = demo();
    let cwd = dream.parent().unwrap();
    let v = json(&run(cwd, &["check", s(&dream), "--json"]));
    let files = v["files"].as_array().unwrap();
    let deploy = files.iter().find(|f| f["path"] == "deploy.md").unwrap();
    assert_eq!(deploy["hunks"][0]["live_changed"], true);
    let lines = deploy["hunks"][0]["lines"].as_array().unwrap();
    let side = |skip: &str| -> String {
        lines.iter().filter(|l| l["op"] != skip).map(|l| l["text"].as_str().unwrap().to_string()).collect()
    };
    // The reviewer takes the dream's side and adds a line of their own: a merge by hand.
    let merged = format!("{}Merged by hand.\n", side("-"));
    let mut hunks = serde_json::Map::new();
    for f in files {
        for h in f["hunks"].as_array().unwrap() {
            hunks.insert(h["id"].as_str().unwrap().into(), "rejected".into());
        }
    }
    hunks.insert("deploy.md#1".into(), serde_json::json!({ "edited": merged }));
    let file = cwd.join("decisions.json");
    fs::write(&file, serde_json::json!({ "hunks": hunks }).to_string()).unwrap();
    let r = run(cwd, &["apply", s(&dream), "--memory", s(&memory), "--decisions", s(&file)]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert!(read(&memory.join("deploy.md")).contains(&merged), "{}", read(&memory.join("deploy.md")));
    assert!(trailers(&memory).ends_with("edited=1\n"), "{}", trailers(&memory));
    assert_eq!(git(&memory, &["status", "--porcelain"]), "");
}

/// Once a review commit carries the dream's `Dream-Id`, reopening it keeps the review:
/// `check` shows nothing pending (its leftovers rejected, as the commit decided) and exits
/// by what stands in the result; `apply` refuses without `--again`, writing nothing; with
/// `--again` the leftovers are decided anew.
#[test]
fn a_reviewed_dream_reopens_decided_and_again_reopens_its_leftovers() {
    let (_t, dream, memory) = demo();
    let cwd = dream.parent().unwrap();
    let r = run(cwd, &["apply", s(&dream), "--memory", s(&memory), "--accept", "testing.md#1,ci.md#1"]);
    assert_eq!(r.code, 0, "{}", r.both());
    let head = git(&memory, &["rev-parse", "HEAD"]);
    let short = &head[..7];

    let c = run(cwd, &["check", s(&dream), "--memory", s(&memory), "--json"]);
    // The demo's leftovers carry a secret and a PERMANENT deletion: rejected, so nothing
    // stands in the result.
    assert_eq!(c.code, 0, "{}", c.both());
    let v: serde_json::Value = serde_json::from_str(&c.stdout).unwrap();
    let states: Vec<&str> = v["files"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|f| f["hunks"].as_array().unwrap().iter().map(|h| h["decision"].as_str().unwrap_or("?")))
        .collect();
    assert!(!states.is_empty() && states.iter().all(|s| *s == "rejected"), "{states:?}");
    assert!(c.stderr.contains(&format!("this dream was reviewed in {short}: 2 accepted, 5 rejected")), "{}", c.stderr);
    let again = run(cwd, &["check", s(&dream), "--memory", s(&memory), "--again", "--json"]);
    assert_eq!(again.code, 1, "the reopened leftovers carry error flags: {}", again.both());
    let v: serde_json::Value = serde_json::from_str(&again.stdout).unwrap();
    let pending = v["files"].as_array().unwrap().iter().flat_map(|f| f["hunks"].as_array().unwrap().iter());
    assert!(
        pending.clone().count() == 5 && pending.into_iter().all(|h| h["decision"] == "pending"),
        "{}",
        again.stdout
    );

    let a = run(cwd, &["apply", s(&dream), "--memory", s(&memory), "--accept-all"]);
    assert_eq!(a.code, 2, "{}", a.both());
    assert!(a.stderr.contains("Pass --again to decide those 5 hunks again"), "{}", a.stderr);
    assert_eq!(git(&memory, &["rev-parse", "HEAD"]), head, "nothing committed");
    let a = run(cwd, &["apply", s(&dream), "--memory", s(&memory), "--again", "--accept", "review-ja.md#1"]);
    assert_eq!(a.code, 0, "{}", a.both());
    assert_ne!(git(&memory, &["rev-parse", "HEAD"]), head);
}
