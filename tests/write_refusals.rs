//! What the memory repository says before anything is written (issue 33, 1, 2 and 4): a
//! merge in progress, conflicts, git lock files left behind or held, a version staged with
//! `git add` that the commit would drop, and the repository's own rules (filter drivers,
//! `text`/`eol` attributes, hooks). Each refusal exits 2 naming the cause and what to run,
//! and leaves every file and `HEAD` as they were; each accepted case stores what `git add`
//! would.

use crate::hardening_support::*;
use std::path::Path;
use std::process::{Command, Stdio};

fn branch_ref(memory: &Path) -> String {
    git(memory, &["symbolic-ref", "HEAD"]).trim().to_string()
}

/// Sets a file's modification time `secs` seconds back.
fn age(path: &Path, secs: u64) {
    let t = std::time::SystemTime::now() - std::time::Duration::from_secs(secs);
    std::fs::File::options().write(true).open(path).unwrap().set_modified(t).unwrap();
}

/// A merge stopped on a conflict in `testing.md`: the work tree holds conflict markers.
/// Neither the snapshot nor the review may commit them.
#[test]
fn nothing_is_written_in_the_middle_of_a_merge() {
    let p = Project::standard();
    let m = &p.memory;
    let main = git(m, &["rev-parse", "--abbrev-ref", "HEAD"]).trim().to_string();
    git(m, &["checkout", "-q", "-b", "other"]);
    put(&m.join("testing.md"), b"---\nname: testing\n---\n\nRun tests with `yarn test`.\n");
    git(m, &["commit", "-q", "-am", "other"]);
    git(m, &["checkout", "-q", &main]);
    put(&m.join("testing.md"), b"---\nname: testing\n---\n\nRun tests with `make test`.\n");
    git(m, &["commit", "-q", "-am", "main"]);
    let merge = Command::new("git").args(["merge", "-q", "other"]).current_dir(m).output().unwrap();
    assert!(!merge.status.success(), "the merge must stop on a conflict");
    assert!(std::fs::read_to_string(m.join("testing.md")).unwrap().contains("<<<<<<<"));
    let before = p.fingerprint();
    let a = p.apply(&["--accept-all"]);
    assert_eq!(a.code, 2, "{}", a.both());
    assert!(a.stderr.contains("in the middle of a merge") && a.stderr.contains("git merge --abort"), "{}", a.both());
    before.assert_same(&p.fingerprint());
    // Conflicts left in the index without MERGE_HEAD (a merge state removed by hand) too.
    std::fs::remove_file(m.join(".git/MERGE_HEAD")).unwrap();
    let a = p.apply(&["--accept-all"]);
    assert_eq!(a.code, 2, "{}", a.both());
    assert!(a.stderr.contains("unresolved conflicts (testing.md)"), "{}", a.both());
    before.assert_same(&p.fingerprint());
}

/// Git lock files left by a killed git (the index's, the branch's, the evidence notes'),
/// and one a live process holds: refused before anything is written, each named with its
/// age, whether a process holds it, and the command that is safe to run; with the lock gone
/// the same apply commits.
#[test]
fn a_git_lock_in_the_way_is_named_with_its_age_holder_and_the_safe_command() {
    for lock in ["index.lock", "BRANCH.lock", "refs/notes/dreamreview.lock", "HEAD.lock"] {
        let p = Project::standard();
        let rel = lock.replace("BRANCH", &branch_ref(&p.memory));
        let path = p.memory.join(".git").join(&rel);
        put(&path, b"");
        age(&path, 600);
        let before = p.fingerprint();
        let a = p.apply(&["--accept-all"]);
        assert_eq!(a.code, 2, "{lock}: {}", a.both());
        for want in [
            format!("the git lock file {} exists (made 10 min ago", path.display()),
            "no process of yours has it open".into(),
            format!("it is safe to run: rm '{}'", path.display()),
            "nothing was written".into(),
        ] {
            assert!(a.stderr.contains(&want), "{lock}: lacks {want:?}: {}", a.both());
        }
        before.assert_same(&p.fingerprint());
        assert!(!p.memory.join(".git/dreamreview/journal.json").exists());
        std::fs::remove_file(&path).unwrap();
        let a = p.apply(&["--accept-all"]);
        assert_eq!(a.code, 0, "{lock}: {}", a.both());
        assert_eq!(git(&p.memory, &["status", "--porcelain"]), "", "{lock}");
        assert!(git(&p.memory, &["notes", "--ref", "dreamreview", "list", "HEAD"]).len() >= 40, "{lock}: no evidence");
    }
    // A lock a live process holds open: named as held, never to be removed.
    let p = Project::standard();
    let path = p.memory.join(".git/index.lock");
    let mut holder = Command::new("sh")
        .arg("-c")
        .arg(format!("exec 3>'{}'; echo ready; read _", s(&path)))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    std::io::BufRead::read_line(&mut std::io::BufReader::new(holder.stdout.take().unwrap()), &mut line).unwrap();
    let a = p.apply(&["--accept-all"]);
    let _ = holder.kill();
    let _ = holder.wait();
    assert_eq!(a.code, 2, "{}", a.both());
    let want = format!("held open by pid {} (sh), still running", holder.id());
    assert!(a.stderr.contains(&want) && a.stderr.contains("do not remove the file"), "{}", a.both());
}

/// A note `git add`ed and edited again (index ≠ HEAD ≠ work tree), and one staged and then
/// put back on disk (index ≠ HEAD = work tree): the commit would drop the staged version
/// from the index with no commit holding it. Refused, naming the note; the staged version
/// is still staged.
#[test]
fn a_staged_version_the_commit_would_drop_is_refused() {
    for (edit_again, name) in [(true, "edited after git add"), (false, "put back after git add")] {
        let p = Project::standard();
        let m = &p.memory;
        let original = std::fs::read(m.join("testing.md")).unwrap();
        let staged = [original.as_slice(), b"staged line\n"].concat();
        put(&m.join("testing.md"), &staged);
        git(m, &["add", "testing.md"]);
        let on_disk = if edit_again { [staged.as_slice(), b"edited again\n"].concat() } else { original.clone() };
        put(&m.join("testing.md"), &on_disk);
        let staged_blob = git(m, &["rev-parse", ":testing.md"]);
        let before = p.fingerprint();
        let a = p.apply(&["--accept-all"]);
        assert_eq!(a.code, 2, "{name}: {}", a.both());
        assert!(
            a.stderr.contains(
                "testing.md has a version staged with `git add` that differs from both HEAD and the note on disk"
            ),
            "{name}: {}",
            a.both()
        );
        before.assert_same(&p.fingerprint());
        assert_eq!(git(m, &["rev-parse", ":testing.md"]), staged_blob, "{name}: the staged version is gone");
        // Committed, the staged version is history and the review goes ahead.
        git(m, &["commit", "-q", "-m", "staged"]);
        let a = p.apply(&["--accept-all"]);
        assert_eq!(a.code, 0, "{name}: {}", a.both());
        assert!(git(m, &["log", "--format=%s"]).contains("staged\n"));
    }
}

/// A repository that encrypts notes with a clean filter (git-crypt's `* filter=crypt`): a
/// commit by dreamreview would store plain text where `git add` stores the filter's output,
/// so it is refused naming the attribute, snapshot included. Without the driver configured,
/// git passes notes through unfiltered and so does dreamreview.
#[test]
fn a_filter_driver_is_refused_by_name() {
    let p = Project::standard();
    let m = &p.memory;
    put(&m.join(".gitattributes"), b"* filter=crypt\n.gitattributes !filter\n");
    git(m, &["add", ".gitattributes"]);
    git(m, &["commit", "-q", "-m", "attributes"]);
    // Without a driver: as git add, plain.
    let unconfigured = git(m, &["hash-object", "testing.md"]);
    assert_eq!(unconfigured, git(m, &["hash-object", "--no-filters", "testing.md"]));
    git(m, &["config", "filter.crypt.clean", "tr a-z A-Z"]);
    git(m, &["config", "filter.crypt.smudge", "cat"]);
    // A dirty note (the snapshot would commit it) and the dream's change.
    put(&m.join("MEMORY.md"), b"# Memory\n- [Testing](testing.md): how to run the tests, secret plan\n");
    let before = p.fingerprint();
    let a = p.apply(&["--accept-all"]);
    assert_eq!(a.code, 2, "{}", a.both());
    assert!(
        a.stderr.contains("has the git attribute `filter=crypt`") && a.stderr.contains("filter.crypt.clean"),
        "{}",
        a.both()
    );
    before.assert_same(&p.fingerprint());
    let objects = git(m, &["cat-file", "--batch-all-objects", "--batch-check"]);
    for line in objects.lines().filter(|l| l.contains(" blob ")) {
        let id = line.split(' ').next().unwrap();
        let text = git(m, &["cat-file", "-p", id]);
        assert!(!text.contains("secret plan"), "plain text stored in the object database: {text}");
    }
    // The driver gone, the review goes ahead.
    git(m, &["config", "--unset", "filter.crypt.clean"]);
    git(m, &["config", "--unset", "filter.crypt.smudge"]);
    let a = p.apply(&["--accept-all"]);
    assert_eq!(a.code, 0, "{}", a.both());
}

/// `text`/`eol` attributes: the committed blob of every note is the one `git add` stores
/// (`git hash-object` with the path's filters), CRLF on disk, LF in the object, and `git
/// status` is clean, snapshot commit included; a note that differs from `HEAD` only by what
/// the filters undo is not snapshotted.
#[test]
fn text_attributes_are_applied_as_git_add_applies_them() {
    let live: &[(&str, &[u8])] = &[("a.md", b"one\r\ntwo\r\n"), ("b.md", b"keep\r\n")];
    let proposed: &[(&str, &[u8])] = &[("a.md", b"one\r\n2\r\n"), ("b.md", b"keep\r\n")];
    let p = Project::new(live, proposed, Some(b"- a.md: two is 2 (s1.jsonl:1)\n"));
    let m = &p.memory;
    put(&m.join(".gitattributes"), b"*.md text eol=crlf\n");
    git(m, &["add", "--renormalize", "."]);
    git(m, &["add", ".gitattributes"]);
    git(m, &["commit", "-q", "-m", "normalise"]);
    put(&m.join("b.md"), b"keep\r\nsession line\r\n");
    let a = p.apply(&["--accept-all"]);
    assert_eq!(a.code, 0, "{}", a.both());
    assert!(a.stdout.contains("snapshot "), "the session line is snapshotted first: {}", a.both());
    assert_eq!(std::fs::read(m.join("a.md")).unwrap(), b"one\r\n2\r\n");
    for n in ["a.md", "b.md"] {
        let committed = git(m, &["rev-parse", &format!("HEAD:{n}")]);
        assert_eq!(committed, git(m, &["hash-object", n]), "{n}: not the blob git add stores");
        assert!(!git(m, &["cat-file", "-p", &format!("HEAD:{n}")]).contains('\r'), "{n}: CRLF in the object");
    }
    assert_eq!(git(m, &["status", "--porcelain"]), "");
    // notes, normalise, the snapshot of b.md alone (a.md differs from HEAD only by its line
    // ends, which git calls unchanged), the review.
    assert_eq!(git(m, &["rev-list", "--count", "HEAD"]).trim(), "4");
    assert_eq!(git(m, &["show", "--name-only", "--format=", "HEAD~1"]), "b.md\n");
}

/// Hooks the repository would run on a commit are not run, and apply says so.
#[test]
fn hooks_that_are_not_run_are_named() {
    let p = Project::standard();
    let hooks = p.root.join("hooks");
    put(&hooks.join("pre-commit"), b"#!/bin/sh\nexit 1\n");
    git(&p.memory, &["config", "core.hooksPath", s(&hooks)]);
    let a = p.apply(&["--accept-all"]);
    assert_eq!(a.code, 0, "{}", a.both());
    let want = format!("git hooks (pre-commit, in {}, from core.hooksPath) were not run", hooks.display());
    assert!(a.stderr.contains(&want), "{}", a.both());
}

/// `apply --init` on a folder whose attributes name a filter driver the user's global git
/// configuration sets up: refused like any commit, and the repository it had just made is
/// gone again (no plain-text first commit).
#[test]
fn init_refuses_a_configured_filter_driver_too() {
    let p = Project::standard();
    std::fs::remove_dir_all(p.memory.join(".git")).unwrap();
    put(&p.memory.join(".gitattributes"), b"*.md filter=crypt\n");
    put(&p.root.join(".gitconfig"), b"[filter \"crypt\"]\n\tclean = tr a-z A-Z\n\tsmudge = cat\n");
    let a = p.apply(&["--accept-all", "--init"]);
    assert_eq!(a.code, 2, "{}", a.both());
    assert!(a.stderr.contains("`filter=crypt`"), "{}", a.both());
    assert!(!p.memory.join(".git").exists(), "the new repository stayed");
}
