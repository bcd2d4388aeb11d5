//! The bad-input catalogue, writing side: odd notes and names that must survive an apply
//! byte for byte, and every way a write can fail (a read-only note, an immutable file, a
//! full disk, a crash between two writes). A failed apply exits 2 with a message naming
//! the file and the fix, leaves every note and `HEAD` as they were, and the next run
//! completes the review.

use crate::hardening_support::*;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Live notes and a proposal changing both of them (`MEMORY.md` sorts, and is written,
/// before `testing.md`).
const PROPOSED_BOTH: &[(&str, &[u8])] = &[
    ("MEMORY.md", b"# Memory\n- [Testing](testing.md): how to run the tests with pnpm\n"),
    (
        "testing.md",
        b"---\nname: testing\ndescription: how to run the tests\ntype: project\n---\n\nRun tests with `pnpm test`.\n",
    ),
];

pub(crate) fn both() -> Project {
    Project::new(LIVE, PROPOSED_BOTH, Some(b"- testing.md, MEMORY.md: `pnpm test` (s1.jsonl:1)\n"))
}

fn journal(p: &Project) -> PathBuf {
    p.memory.join(".git/dreamreview/journal.json")
}

// ---------------------------------------------------------------------------------------
// Odd notes survive byte for byte

/// Notes with a BOM, CRLF, mixed endings, no final newline, 0 bytes (both ways) and NUL
/// bytes (binary: one whole-file hunk): accept-all writes the proposal byte for byte,
/// reject-all leaves live byte for byte, and git agrees the work tree is clean.
#[test]
fn odd_notes_round_trip_byte_for_byte() {
    let live: &[(&str, &[u8])] = &[
        ("bom.md", b"\xef\xbb\xbf# Title\nold line\n"),
        ("crlf.md", b"one\r\ntwo\r\nthree\r\n"),
        ("mixed.md", b"a\r\nb\nc\r\nd\n"),
        ("nonl.md", b"first\nlast without newline"),
        ("empty.md", b""),
        ("filled.md", b"will be emptied\n"),
        ("nul.md", b"text \0 with NUL\n"),
        ("to-nul.md", b"plain text\n"),
    ];
    let proposed: &[(&str, &[u8])] = &[
        ("bom.md", b"\xef\xbb\xbf# Title\nnew line\n"),
        ("crlf.md", b"one\r\n2\r\nthree\r\n"),
        ("mixed.md", b"a\r\nB\nc\r\nd"),
        ("nonl.md", b"first\nlast changed, still without newline"),
        ("empty.md", b"now has text\n"),
        ("filled.md", b""),
        ("nul.md", b"other \0 bytes\0\n"),
        ("to-nul.md", b"plain\0binary\n"),
    ];
    for (accept, expect) in [("--accept-all", proposed), ("--reject-all", live)] {
        let p = Project::new(live, proposed, Some(b"- the notes (s1.jsonl:1)\n"));
        let c = p.check(&[]);
        assert_eq!(c.code, 0, "{}", c.both());
        assert!(c.stdout.contains("modified nul.md (binary)\n"), "{}", c.stdout);
        assert!(c.stdout.contains("  nul.md#1  whole file"), "{}", c.stdout);
        assert!(c.stdout.contains("+last changed, still without newline  ⏎ no newline at end of file"), "{}", c.stdout);
        let a = p.apply(&[accept]);
        assert_eq!(a.code, 0, "{accept}: {}", a.both());
        let want: std::collections::BTreeMap<String, Vec<u8>> =
            expect.iter().map(|(k, v)| (k.to_string(), v.to_vec())).collect();
        assert_eq!(notes(&p.memory), want, "{accept}");
        assert_eq!(git(&p.memory, &["status", "--porcelain"]), "", "{accept}: work tree clean");
        assert_eq!(git(&p.memory, &["show", "HEAD:crlf.md"]).as_bytes(), want["crlf.md"].as_slice(), "{accept}");
    }
}

/// File names with spaces, unicode and leading dashes are plain paths everywhere: in
/// ids, in `--accept` (no `=` needed), in the commit (checked with the real git), and in
/// `revert --file`. Nothing treats `-rf.md` as an option; no shell ever sees a name.
#[test]
fn odd_file_names_are_plain_paths() {
    let names = ["with space.md", "日本語 メモ.md", "-rf.md", "--help.md", "sub dir/-x.md"];
    let live: Vec<(&str, &[u8])> = names.iter().map(|n| (*n, b"old\n".as_slice())).collect();
    let proposed: Vec<(&str, &[u8])> = names.iter().map(|n| (*n, b"new\n".as_slice())).collect();
    let p = Project::new(&live, &proposed, Some(b"- all of them\n"));
    let c = p.check(&[]);
    assert_eq!(c.code, 0, "{}", c.both());
    for n in names {
        assert!(c.stdout.contains(&format!("\nmodified {n}\n  {n}#1  @@ -1,1 +1,1 @@")), "{n}: {}", c.stdout);
    }
    let a = p.apply(&["--accept", "-rf.md#1,--help.md#1, with space.md#1,sub dir/-x.md#1"]);
    assert_eq!(a.code, 0, "{}", a.both());
    assert!(a.stdout.contains("accept 4 of 5 changes"), "{}", a.both());
    for n in ["with space.md", "-rf.md", "--help.md", "sub dir/-x.md"] {
        assert_eq!(std::fs::read(p.memory.join(n)).unwrap(), b"new\n", "{n}");
    }
    assert_eq!(std::fs::read(p.memory.join("日本語 メモ.md")).unwrap(), b"old\n");
    let changed = git(&p.memory, &["-c", "core.quotepath=off", "show", "--name-only", "--format=", "HEAD"]);
    assert_eq!(changed, "--help.md\n-rf.md\nsub dir/-x.md\nwith space.md\n");
    assert_eq!(git(&p.memory, &["status", "--porcelain"]), "");
    // Revert one of them by name.
    let r = p.run(&["revert", "HEAD", "--file", "-rf.md", "--memory", s(&p.memory)]);
    assert_eq!(r.code, 0, "{}", r.both());
    assert_eq!(std::fs::read(p.memory.join("-rf.md")).unwrap(), b"old\n");
    assert_eq!(std::fs::read(p.memory.join("--help.md")).unwrap(), b"new\n");
}

/// A note whose name takes all 255 bytes a file name may have is written like any other:
/// the temp file beside it must not be named after it (no room for a prefix and suffix).
#[test]
fn a_note_named_with_the_longest_file_name_is_written() {
    let long = format!("{}.md", "n".repeat(252));
    assert_eq!(long.len(), 255);
    let live: &[(&str, &[u8])] = &[(&long, b"old\n")];
    let proposed: &[(&str, &[u8])] = &[(&long, b"new\n")];
    let p = Project::new(live, proposed, Some(b"- the long note (s1.jsonl:1)\n"));
    let a = p.apply(&["--accept-all"]);
    assert_eq!(a.code, 0, "{}", a.both());
    assert_eq!(std::fs::read(p.memory.join(&long)).unwrap(), b"new\n");
    assert_eq!(git(&p.memory, &["status", "--porcelain"]), "");
    let left: Vec<_> = std::fs::read_dir(&p.memory).unwrap().flatten().map(|e| e.file_name()).collect();
    assert_eq!(left.len(), 2, "only .git and the note: {left:?}");
}

/// A dream folder whose name starts with a dash is a folder after `--`.
#[test]
fn dream_folder_named_like_an_option() {
    let p = Project::standard();
    let odd = p.root.join("-dream");
    std::fs::rename(&p.dream, &odd).unwrap();
    let r = p.run(&["check", "--memory", s(&p.memory), "--", "-dream"]);
    assert_eq!(r.code, 0, "{}", r.both());
    assert!(r.stdout.starts_with(&format!("dream   {} [dream folder]\n", odd.display())), "{}", r.stdout);
}

// ---------------------------------------------------------------------------------------
// Where it must not write

/// A memory folder that is a symlink (to a folder kept elsewhere, a common setup) is
/// followed at its root only: the notes are written in the real folder and committed to
/// its repository; the link itself stays a link.
#[cfg(unix)]
#[test]
fn memory_folder_that_is_a_symlink_is_followed_at_its_root() {
    let p = Project::standard();
    let link = p.root.join("project/linked-memory");
    std::os::unix::fs::symlink(&p.memory, &link).unwrap();
    let c = p.run(&["check", s(&p.dream), "--memory", s(&link)]);
    assert_eq!(c.code, 0, "{}", c.both());
    let before = head(&p.memory);
    let a = p.run(&["apply", s(&p.dream), "--memory", s(&link), "--accept-all"]);
    assert_eq!(a.code, 0, "{}", a.both());
    assert!(std::fs::symlink_metadata(&link).unwrap().file_type().is_symlink(), "the link is still a link");
    assert_eq!(std::fs::read(p.memory.join("testing.md")).unwrap(), PROPOSED[1].1);
    assert_eq!(git(&p.memory, &["rev-parse", "HEAD~1"]).trim(), before);
    assert_eq!(git(&p.memory, &["status", "--porcelain"]), "");
}

/// A note that is a symlink pointing out of the memory folder is never written through,
/// whatever the decisions: the hunk is skipped (exit 1) and the target is untouched.
#[cfg(unix)]
#[test]
fn a_note_symlinked_out_of_memory_is_never_written_through() {
    let p = both();
    let target = p.root.join("outside.md");
    put(&target, b"outside stays\n");
    std::fs::remove_file(p.memory.join("testing.md")).unwrap();
    std::os::unix::fs::symlink(&target, p.memory.join("testing.md")).unwrap();
    git(&p.memory, &["add", "-A"]);
    git(&p.memory, &["commit", "-q", "-m", "link"]);
    let a = p.apply(&["--accept-all"]);
    assert_eq!(a.code, 1, "{}", a.both());
    assert!(a.stdout.contains("skipped   testing.md#1: "), "{}", a.both());
    assert_eq!(std::fs::read(&target).unwrap(), b"outside stays\n");
    assert!(std::fs::symlink_metadata(p.memory.join("testing.md")).unwrap().file_type().is_symlink());
    assert_eq!(std::fs::read(p.memory.join("MEMORY.md")).unwrap(), PROPOSED_BOTH[0].1, "the rest is applied");
}

// ---------------------------------------------------------------------------------------
// Failed writes leave nothing behind

/// A read-only note (or folder) is the user's "do not touch": apply refuses before
/// writing anything — no note, no snapshot commit of the dirty work tree, no review
/// commit — naming the note and the fix; once it is writable again the same apply works.
/// (Decided by the permission bits, so it holds for root too.)
#[cfg(unix)]
#[test]
fn read_only_note_refuses_the_whole_apply() {
    use std::os::unix::fs::PermissionsExt;
    let p = both();
    put(&p.memory.join("scratch.md"), b"uncommitted work\n");
    let ro = p.memory.join("testing.md");
    std::fs::set_permissions(&ro, std::fs::Permissions::from_mode(0o444)).unwrap();
    let before = p.fingerprint();
    // The dream has no scratch.md: accepting all would delete it, which no transcript
    // explains (`removal-unsourced`, an error); allowed here to reach the read-only check.
    let a = p.apply(&["--accept-all", "--allow", "removal-unsourced"]);
    assert_eq!(a.code, 2, "{}", a.both());
    assert_eq!(
        a.stderr,
        "dreamreview: refusing to write: testing.md is read-only; nothing was written. Make it writable \
         (chmod u+w) or reject its changes, then commit again\n"
    );
    before.assert_same(&p.fingerprint());
    assert!(!journal(&p).exists());
    // Rejecting its hunk is fine: nothing is written to it.
    let a = p.apply(&["--accept", "MEMORY.md#1"]);
    assert_eq!(a.code, 0, "{}", a.both());
    assert_eq!(std::fs::read(&ro).unwrap(), LIVE[1].1);
    std::fs::set_permissions(&ro, std::fs::Permissions::from_mode(0o644)).unwrap();
    let a = p.apply(&["--again", "--accept-all", "--allow", "removal-unsourced"]);
    assert_eq!(a.code, 0, "{}", a.both());
    assert_eq!(std::fs::read(&ro).unwrap(), PROPOSED_BOTH[1].1);
}

/// A read-only memory folder refuses the apply the same way.
#[cfg(unix)]
#[test]
fn read_only_memory_folder_refuses_the_whole_apply() {
    use std::os::unix::fs::PermissionsExt;
    let p = both();
    std::fs::set_permissions(&p.memory, std::fs::Permissions::from_mode(0o555)).unwrap();
    let before = p.fingerprint();
    let a = p.apply(&["--accept-all"]);
    std::fs::set_permissions(&p.memory, std::fs::Permissions::from_mode(0o755)).unwrap();
    assert_eq!(a.code, 2, "{}", a.both());
    let want = format!("refusing to write: the folder {} holding MEMORY.md is read-only", p.memory.display());
    assert!(a.stderr.contains(&want), "{}", a.both());
    before.assert_same(&p.fingerprint());
}

/// Runs a command, true when it succeeded.
fn sh(cmd: &str, args: &[&str]) -> bool {
    Command::new(cmd).args(args).output().map(|o| o.status.success()).unwrap_or(false)
}

/// Clears the immutable attribute when the test ends, pass or fail.
struct Immutable(PathBuf);

impl Drop for Immutable {
    fn drop(&mut self) {
        sh("chattr", &["-i", s(&self.0)]);
    }
}

/// A write the permission bits did not predict fails part way (an immutable note: EPERM
/// even for root, after `MEMORY.md` was already replaced): the notes already written are
/// put back at once, nothing is committed, exit 2 with the cause; once the cause is gone
/// the same apply completes. Skipped where `chattr +i` is not allowed (not root, or a
/// file system without attributes).
#[test]
fn a_write_failing_part_way_is_rolled_back_at_once() {
    let p = both();
    let stuck = p.memory.join("testing.md");
    if !sh("chattr", &["+i", s(&stuck)]) {
        skip("a_write_failing_part_way_is_rolled_back_at_once", "chattr +i is not permitted here (not root?)");
        return;
    }
    let guard = Immutable(stuck.clone());
    let before = p.fingerprint();
    let a = p.apply(&["--accept-all"]);
    assert_eq!(a.code, 2, "{}", a.both());
    assert!(
        a.stderr.starts_with(
            "dreamreview: nothing was committed, and 1 note written before the failure was put back as it \
             was; fix the cause below (free disk space, permissions) and commit again: cannot move "
        ),
        "{}",
        a.both()
    );
    assert!(a.stderr.contains("Operation not permitted"), "{}", a.both());
    before.assert_same(&p.fingerprint());
    assert!(!journal(&p).exists(), "nothing left to recover");
    drop(guard);
    let a = p.apply(&["--accept-all"]);
    assert_eq!(a.code, 0, "{}", a.both());
    assert_eq!(notes(&p.memory), notes(&p.dream.join("memory")));
}

/// Unmounts a tmpfs when the test ends.
struct Mount(PathBuf);

impl Drop for Mount {
    fn drop(&mut self) {
        sh("umount", &["-l", s(&self.0)]);
    }
}

/// A full disk (a real 256 KiB tmpfs holding the memory folder; the git directory lives
/// elsewhere): `MEMORY.md` is written, `testing.md` hits ENOSPC; the review is not
/// committed, `MEMORY.md` is put back, exit 2 naming the cause; after space is freed the
/// rerun completes. Skipped where mounting is not permitted (not root).
#[test]
fn a_full_disk_commits_nothing_and_the_rerun_completes() {
    let p = both();
    let mnt = p.root.join("small");
    std::fs::create_dir(&mnt).unwrap();
    if !sh("mount", &["-t", "tmpfs", "-o", "size=256k", "tmpfs", s(&mnt)]) {
        skip(
            "a_full_disk_commits_nothing_and_the_rerun_completes",
            "mounting a tmpfs is not permitted here (not root?)",
        );
        return;
    }
    let _m = Mount(mnt.clone());
    // The memory folder moves onto the tmpfs; its git directory stays on the big disk.
    let memory = mnt.join("memory");
    let gitdir = p.root.join("memory.git");
    std::fs::create_dir(&memory).unwrap();
    for (n, b) in LIVE {
        put(&memory.join(n), b);
    }
    git(&memory, &["init", "-q", "--separate-git-dir", s(&gitdir)]);
    git(&memory, &["add", "-A"]);
    git(&memory, &["commit", "-q", "-m", "notes"]);
    // The proposal grows testing.md by 64 KiB; fill the disk to leave about 16 KiB.
    let mut big = PROPOSED_BOTH[1].1.to_vec();
    big.extend(std::iter::repeat_n(b"- one more fact about the tests\n".as_slice(), 2048).flatten());
    put(&p.dream.join("memory/testing.md"), &big);
    let filler = mnt.join("filler");
    let free = |d: &Path| -> u64 {
        let out = Command::new("df").args(["-B1", "--output=avail", s(d)]).output().unwrap();
        String::from_utf8_lossy(&out.stdout).lines().nth(1).unwrap().trim().parse().unwrap()
    };
    let room = free(&mnt);
    assert!(room > 16 << 10, "tmpfs has {room} bytes free");
    put(&filler, &vec![b'x'; (room - (16 << 10)) as usize]);
    let fingerprint = |m: &Path| (notes(m), git(m, &["rev-parse", "HEAD"]));
    let before = fingerprint(&memory);
    let a = run(&p.root, &["apply", s(&p.dream), "--memory", s(&memory), "--accept-all"]);
    assert_eq!(a.code, 2, "{}", a.both());
    assert!(
        a.stderr.contains("nothing was committed, and 1 note written before the failure was put back"),
        "{}",
        a.both()
    );
    assert!(a.stderr.contains("No space left on device"), "{}", a.both());
    assert_eq!(fingerprint(&memory), before, "no note changed, HEAD did not move");
    assert!(!gitdir.join("dreamreview/journal.json").exists());
    let leftovers: Vec<String> = std::fs::read_dir(&memory)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".tmp"))
        .collect();
    assert!(leftovers.is_empty(), "temp files left: {leftovers:?}");
    std::fs::remove_file(&filler).unwrap();
    let sources = p.root.join("project");
    let a = run(&p.root, &["apply", s(&p.dream), "--memory", s(&memory), "--sources", s(&sources), "--accept-all"]);
    assert_eq!(a.code, 0, "{}", a.both());
    assert_eq!(std::fs::read(memory.join("testing.md")).unwrap(), big);
    assert_eq!(std::fs::read(memory.join("MEMORY.md")).unwrap(), PROPOSED_BOTH[0].1);
}

/// A crash between two note writes (simulated: the test hook aborts the process after
/// the first) leaves each note old or new and a journal; the next run rolls the half-done
/// write back, says so, and completes the review; `HEAD` gets exactly one review commit.
#[test]
fn a_crash_between_writes_is_rolled_back_and_the_rerun_completes() {
    let p = both();
    let before = head(&p.memory);
    let a = p.apply_killed_after(1);
    assert!(a.stderr.contains("DREAMREVIEW_FAIL_AFTER_WRITES=1 reached"), "{}", a.both());
    assert_eq!(head(&p.memory), before, "no commit");
    assert!(journal(&p).exists());
    assert_eq!(std::fs::read(p.memory.join("MEMORY.md")).unwrap(), PROPOSED_BOTH[0].1, "first write done");
    assert_eq!(std::fs::read(p.memory.join("testing.md")).unwrap(), LIVE[1].1, "second not");
    let a = p.apply(&["--accept-all"]);
    assert_eq!(a.code, 0, "{}", a.both());
    assert!(a.stderr.contains("rolled back an interrupted dream review"), "{}", a.both());
    assert_eq!(notes(&p.memory), notes(&p.dream.join("memory")));
    assert_eq!(git(&p.memory, &["rev-parse", "HEAD~1"]).trim(), before);
    assert!(!journal(&p).exists());
}

/// A decisions file that is binary, of the wrong shape, or missing is bad input: exit 2
/// naming the file and the expected shape; nothing is written.
#[test]
fn bad_decisions_files_are_bad_input() {
    let p = both();
    let dec = p.root.join("decisions.json");
    for (content, expect) in [
        (&b"\x00\xff\x13binary"[..], "not a dreamreview decisions file: expected a JSON object {\"hunks\": {...}}"),
        (br#"{"hunks": {"testing.md#1": "maybe"}}"#, "not a dreamreview decisions file (data did not match"),
        (br#"{"hunks": {"testing.md#1": {"edited": 5}}}"#, "expected {\"hunks\": {\"note.md#1\": \"accepted\", ...}}"),
    ] {
        put(&dec, content);
        let before = p.fingerprint();
        let a = p.apply(&["--decisions", s(&dec)]);
        assert_eq!(a.code, 2, "{}", a.both());
        assert!(a.stderr.starts_with(&format!("dreamreview: {}: ", dec.display())), "{}", a.both());
        assert!(a.stderr.contains(expect), "{}", a.both());
        before.assert_same(&p.fingerprint());
    }
    std::fs::remove_file(&dec).unwrap();
    let a = p.apply(&["--decisions", s(&dec)]);
    assert_eq!(a.code, 2, "{}", a.both());
    assert!(a.stderr.contains(&format!("cannot read decisions file {}", dec.display())), "{}", a.both());
}
