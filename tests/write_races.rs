//! Real second processes racing `apply` (issue 33, 1 and 2), at delays swept across the
//! whole apply, over a 40-note repository laid out as in `concurrent_writes`:
//! - a session holding a note open for append writes while the review replaces it: every
//!   line it wrote is in the note, in a commit, or in a file `apply` names with exit 2;
//! - another program commits meanwhile: the review is committed after its commits when they
//!   touched other notes, else nothing is committed and the notes are as they were;
//! - a git lock appears mid-apply: the run ends committed and recorded, or as it was, and
//!   `dreamreview recover` finishes whatever a lock stopped;
//! - a write killed part way, then `HEAD` moved by another commit: the next run rolls it
//!   back, saying why.

use crate::concurrent_writes::{apply_command, live_note, name, project_of, proposed_note};
use crate::hardening_support::*;
use std::io::BufRead;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Notes in each repository: enough for the apply to take a while, few enough for 8 runs of
/// each sweep to stay within seconds.
const NOTES: usize = 40;

fn project() -> Project {
    project_of(NOTES)
}

/// How long an unraced apply of [`project`] takes here (the sweeps are fractions of it).
fn apply_time() -> Duration {
    let warm = project();
    let start = Instant::now();
    let out = apply_command(&warm).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    start.elapsed()
}

/// Runs `script` with `sh` in `dir`; returns once it printed its first line (`ready`).
fn start_sh(dir: &Path, script: &str) -> std::process::Child {
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(script)
        .current_dir(dir)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = String::new();
    std::io::BufReader::new(child.stdout.as_mut().unwrap()).read_line(&mut first).unwrap();
    assert_eq!(first.trim(), "ready", "the second process did not start");
    child
}

/// Run `run` of `RUNS`'s point in an apply that takes `took`: from a tenth into it to past
/// its end.
fn swept(took: Duration, run: usize, runs: usize) -> Duration {
    took.mul_f64(0.1 + 1.1 * run as f64 / runs as f64)
}

/// Starts `script` (see [`start_sh`]) in `dir`, then `apply --accept-all` on `p`; returns
/// the apply's exit code and stderr once both ended.
fn raced(p: &Project, dir: &Path, script: &str, settle: Duration) -> (i32, String) {
    let mut other = start_sh(dir, script);
    std::thread::sleep(settle);
    let out = apply_command(p).output().unwrap();
    assert!(other.wait().unwrap().success(), "the second process failed");
    (out.status.code().unwrap_or(-1), String::from_utf8_lossy(&out.stderr).into_owned())
}

/// Kept files (`….kept`) that `stderr` names.
fn named_kept_files(stderr: &str) -> Vec<PathBuf> {
    stderr
        .split_whitespace()
        .map(|w| w.trim_matches(|c: char| "(),;:`'".contains(c)))
        .filter(|w| w.ends_with(".kept"))
        .map(PathBuf::from)
        .collect()
}

fn dreamreview_files(memory: &Path) -> Vec<String> {
    std::fs::read_dir(memory)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains(".dreamreview-"))
        .collect()
}

/// A session opens a note for append (before the apply, or at a swept point of it) and
/// writes three lines, the first a quarter of an apply after it opened, then a quarter
/// apart. Whatever the timing, each line is in the
/// note, in `HEAD`'s note, or — with exit 2 — in a kept file the message names; an exit 0
/// leaves no kept file behind.
#[test]
fn a_session_holding_a_note_open_loses_no_byte() {
    let took = apply_time();
    const RUNS: usize = 6;
    let mut outcomes = std::collections::BTreeMap::new();
    for run in 0..RUNS {
        let p = project();
        let note = name(20 + run);
        let path = p.memory.join(&note);
        // Run 0 opens before apply starts; the others from a tenth into it to past its end.
        let open = if run == 0 { Duration::ZERO } else { swept(took, run - 1, RUNS - 1) };
        let gap = took / 4;
        let lines: Vec<String> = (0..3).map(|k| format!("session run {run} line {k}")).collect();
        let mut script = format!("echo ready\nsleep {:.4}\nexec 3>>'{}'\n", open.as_secs_f64(), s(&path));
        for l in &lines {
            script.push_str(&format!("sleep {:.4}\nprintf '%s\\n' '{l}' >&3\n", gap.as_secs_f64()));
        }
        let before = head(&p.memory);
        let wait = if run == 0 { Duration::from_millis(50) } else { Duration::ZERO };
        let (code, stderr) = raced(&p, &p.root, &script, wait);
        eprintln!("run {run} open {open:?}: exit {code} {}", stderr.lines().next().unwrap_or(""));
        let on_disk = std::fs::read_to_string(&path).unwrap();
        let in_head = git(&p.memory, &["show", &format!("HEAD:{note}")]);
        let kept: Vec<String> =
            named_kept_files(&stderr).iter().filter_map(|k| std::fs::read_to_string(k).ok()).collect();
        for l in &lines {
            let found = on_disk.contains(l) || in_head.contains(l) || (code == 2 && kept.iter().any(|k| k.contains(l)));
            assert!(found, "run {run} (open {open:?}, exit {code}): {l:?} is lost\n{stderr}\nnote: {on_disk}");
        }
        match code {
            0 => assert!(dreamreview_files(&p.memory).is_empty(), "run {run}: {:?}", dreamreview_files(&p.memory)),
            2 if head(&p.memory) == before => {
                assert!(stderr.contains("is open for writing") || stderr.contains("changed"), "run {run}: {stderr}");
                assert!(on_disk.starts_with(&live_note(20 + run)), "run {run}: refused, yet written");
            }
            2 => assert!(
                stderr.contains(&note) && !kept.is_empty(),
                "run {run}: committed, exit 2, nothing named: {stderr}"
            ),
            _ => panic!("run {run}: exit {code}: {stderr}"),
        }
        *outcomes.entry(code).or_insert(0) += 1;
        assert!(!p.memory.join(".git/dreamreview/journal.json").exists(), "run {run}: journal left");
    }
    eprintln!("apply took {took:?} unraced; exits over {RUNS} runs: {outcomes:?}");
}

/// Another program commits while apply writes (a sync tool: plumbing, its own index, a
/// compare-and-swap of the branch), either touching nothing or removing a note the review
/// changes. Whatever the timing, the run ends in one of two states: committed after every
/// foreign commit (none lost, the notes the review's, evidence kept), or nothing committed
/// with the notes as they were and the shared note named; never a journal left behind.
#[test]
fn a_commit_by_another_program_during_apply_is_built_on_or_rolled_back() {
    let took = apply_time();
    const RUNS: usize = 6;
    let mut outcomes = std::collections::BTreeMap::new();
    for run in 0..RUNS {
        let p = project();
        let overlap = run % 2 == 1;
        let delay = swept(took, run, RUNS);
        let gap = took / 6;
        let change = if overlap { format!("git rm -q --cached {}", name(7)) } else { String::new() };
        let script = format!(
            "echo ready\nsleep {:.4}\nfor i in 1 2 3 4; do\n\
             old=$(git rev-parse HEAD)\nexport GIT_INDEX_FILE=\"$PWD/.git/sync-index\"\n\
             git read-tree \"$old\"\n{change}\nt=$(git write-tree)\n\
             c=$(git commit-tree \"$t\" -p \"$old\" -m \"sync $i\")\n\
             git update-ref HEAD \"$c\" \"$old\" 2>/dev/null && echo \"$c\" >> .git/sync-made\n\
             unset GIT_INDEX_FILE\nsleep {:.4}\ndone\n",
            delay.as_secs_f64(),
            gap.as_secs_f64()
        );
        let before = head(&p.memory);
        let (code, stderr) = raced(&p, &p.memory, &script, Duration::ZERO);
        eprintln!("run {run} delay {delay:?} overlap {overlap}: exit {code} {}", stderr.lines().next().unwrap_or(""));
        let made = std::fs::read_to_string(p.memory.join(".git/sync-made")).unwrap_or_default();
        for c in made.lines() {
            let kept =
                Command::new("git").args(["merge-base", "--is-ancestor", c, "HEAD"]).current_dir(&p.memory).status();
            assert!(kept.unwrap().success(), "run {run}: the foreign commit {c} was lost");
        }
        let reviews = git(&p.memory, &["log", "--format=%H", "--grep=^Dream-Id: ", &format!("{before}..HEAD")]);
        match code {
            0 => {
                assert_eq!(reviews.lines().count(), 1, "run {run}: {stderr}");
                let review = reviews.trim();
                assert!(git(&p.memory, &["notes", "--ref", "dreamreview", "list", review]).len() >= 40, "run {run}");
                for i in [0, 7, 20, NOTES - 1] {
                    let text = std::fs::read_to_string(p.memory.join(name(i))).unwrap();
                    assert_eq!(text, proposed_note(i), "run {run}: {}", name(i));
                }
            }
            2 => {
                assert!(reviews.is_empty(), "run {run}: exit 2 after committing the review: {stderr}");
                assert!(stderr.contains("nothing was") || stderr.contains("nothing is"), "run {run}: {stderr}");
                for i in 0..NOTES {
                    let text = std::fs::read_to_string(p.memory.join(name(i))).unwrap();
                    assert_eq!(text, live_note(i), "run {run}: {} is not as it was\n{stderr}", name(i));
                }
                if overlap && stderr.contains("another commit") {
                    assert!(stderr.contains(&format!("changed {} too", name(7))), "run {run}: {stderr}");
                }
            }
            _ => panic!("run {run}: exit {code}: {stderr}"),
        }
        *outcomes.entry((overlap, code)).or_insert(0) += 1;
        assert!(!p.memory.join(".git/dreamreview/journal.json").exists(), "run {run}: journal left: {stderr}");
        assert!(dreamreview_files(&p.memory).is_empty(), "run {run}: {:?}", dreamreview_files(&p.memory));
    }
    eprintln!("apply took {took:?} unraced; (overlap, exit) over {RUNS} runs: {outcomes:?}");
}

/// A git lock file (the index's, or the evidence notes' ref) appears at a swept point of the
/// apply, left by a process that then dies. The run ends committed and recorded, or as it
/// was; a commit whose index or evidence a lock stopped is said with exit 2, and once the
/// lock is gone `dreamreview recover` finishes it: index clean, evidence written.
#[test]
fn a_git_lock_appearing_mid_apply_is_finished_by_recover() {
    let took = apply_time();
    const RUNS: usize = 6;
    let mut outcomes = std::collections::BTreeMap::new();
    for run in 0..RUNS {
        let p = project();
        let lock = if run % 2 == 0 { "index.lock".to_string() } else { "refs/notes/dreamreview.lock".to_string() };
        let lock = p.memory.join(".git").join(lock);
        let delay = swept(took, run, RUNS);
        let script = format!(
            "echo ready\nsleep {:.4}\nmkdir -p '{}'\n: > '{}'\n",
            delay.as_secs_f64(),
            s(lock.parent().unwrap()),
            s(&lock)
        );
        let before = head(&p.memory);
        let (code, stderr) = raced(&p, &p.root, &script, Duration::ZERO);
        eprintln!("run {run} {} at {delay:?}: exit {code} {}", lock.display(), stderr.lines().next().unwrap_or(""));
        assert!(code == 0 || code == 2, "run {run}: exit {code}: {stderr}");
        let committed = head(&p.memory) != before;
        if code == 2 {
            assert!(stderr.contains(&lock.display().to_string()), "run {run}: the lock is not named: {stderr}");
        }
        if code == 2 && !committed {
            for i in [0, 20, NOTES - 1] {
                assert_eq!(std::fs::read_to_string(p.memory.join(name(i))).unwrap(), live_note(i), "run {run}");
            }
        }
        // The lock may be gone: a script that writes it while git holds that very lock
        // (git2 writes the ref through it, then renames it into place) loses it to git.
        if lock.exists() {
            std::fs::remove_file(&lock).unwrap();
        }
        let r = p.run(&["recover", "--memory", s(&p.memory)]);
        assert_eq!(r.code, 0, "run {run}: {}", r.both());
        if committed {
            let review = git(&p.memory, &["log", "-1", "--format=%H", "--grep=^Dream-Id: "]);
            let note = git(&p.memory, &["notes", "--ref", "dreamreview", "list", review.trim()]);
            assert!(note.len() >= 40, "run {run}: the evidence is lost\n{stderr}\n{}", r.both());
            assert_eq!(git(&p.memory, &["status", "--porcelain"]), "", "run {run}: {stderr}\n{}", r.both());
        } else {
            assert_eq!(git(&p.memory, &["status", "--porcelain"]), "", "run {run}");
        }
        assert!(!p.memory.join(".git/dreamreview/journal.json").exists(), "run {run}");
        let pending = std::fs::read_dir(p.memory.join(".git/dreamreview/evidence-pending")).map(|d| d.count());
        assert!(pending.unwrap_or(0) == 0, "run {run}: evidence still pending");
        *outcomes.entry((lock.file_name().unwrap().to_string_lossy().into_owned(), code, committed)).or_insert(0) += 1;
    }
    eprintln!("(lock, exit, committed) over {RUNS} runs: {outcomes:?}");
}

/// An apply killed after its first note write, then another commit moves `HEAD`: the next
/// run (`apply` itself, or `dreamreview recover`) puts the written note back, says why, and
/// the review is then committed after the other commit.
#[test]
fn a_write_killed_before_its_commit_under_a_moved_head_is_rolled_back() {
    for via_recover in [false, true] {
        let p = crate::hardening_writes::both();
        let live = notes(&p.memory);
        p.apply_killed_after(1);
        assert_ne!(notes(&p.memory), live, "the kill came before any write");
        git(&p.memory, &["commit", "-q", "--allow-empty", "-m", "someone else"]);
        let other = head(&p.memory);
        let said = if via_recover {
            let r = p.run(&["recover", "--memory", s(&p.memory)]);
            assert_eq!(r.code, 0, "{}", r.both());
            assert_eq!(notes(&p.memory), live);
            r.stdout
        } else {
            String::new()
        };
        let a = p.apply(&["--accept-all"]);
        assert_eq!(a.code, 0, "{}", a.both());
        let said = said + &a.stderr;
        assert!(said.contains("rolled back an interrupted dream review"), "{said}");
        assert!(said.contains("HEAD moved since") && said.contains("1 note was put back"), "{said}");
        assert_eq!(git(&p.memory, &["rev-parse", "HEAD~1"]).trim(), other, "the review is not after the other commit");
        assert_eq!(git(&p.memory, &["status", "--porcelain"]), "");
    }
}
