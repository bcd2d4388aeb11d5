//! A live agent session writes its memory while `apply` writes the review: real second
//! processes racing real applies, at swept delays, over a 500-note repository. Whatever
//! the timing, no session edit is lost (it is on disk, and git sees it), and the run either
//! commits or stops with exit 2 naming the note, leaving no journal and no temp file.
//! Also: a TUI whose repository moved on (a CLI apply committed meanwhile) reloads instead
//! of committing over it.

use crate::hardening_support::*;
use std::collections::BTreeMap;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const NOTES: usize = 500;
/// Lines per note; the dream changes line 2, a session appends after the last, so the two
/// never touch and the three-way review keeps the session's edit.
const LINES: usize = 12;

pub(crate) fn name(i: usize) -> String {
    format!("note-{i:03}.md")
}

pub(crate) fn live_note(i: usize) -> String {
    (1..=LINES).map(|l| format!("note {i} line {l}\n")).collect()
}

pub(crate) fn proposed_note(i: usize) -> String {
    live_note(i).replacen(&format!("note {i} line 2\n"), &format!("note {i} line 2, consolidated\n"), 1)
}

fn as_refs(v: &[(String, Vec<u8>)]) -> Vec<(&str, &[u8])> {
    v.iter().map(|(n, b)| (n.as_str(), b.as_slice())).collect()
}

/// 500 live notes committed, a dream changing each with a `memory.diff` (so edits made
/// after the dream are drift the review keeps) and a CHANGES.md entry per note.
fn project() -> Project {
    project_of(NOTES)
}

/// [`project`] with `notes` notes.
pub(crate) fn project_of(notes: usize) -> Project {
    let live: Vec<(String, Vec<u8>)> = (0..notes).map(|i| (name(i), live_note(i).into_bytes())).collect();
    let proposed: Vec<(String, Vec<u8>)> = (0..notes).map(|i| (name(i), proposed_note(i).into_bytes())).collect();
    let changes: String =
        (0..notes).map(|i| format!("- {}: consolidated the second entry (s1.jsonl:1)\n", name(i))).collect();
    let p = Project::new(&as_refs(&live), &as_refs(&proposed), Some(changes.as_bytes()));
    let mut diff = String::new();
    for i in 0..notes {
        diff.push_str(&format!(
            "--- {m}/{n}\n+++ {d}/memory/{n}\n@@ -1,5 +1,5 @@\n note {i} line 1\n-note {i} line 2\n+note {i} line 2, consolidated\n note {i} line 3\n note {i} line 4\n note {i} line 5\n",
            m = s(&p.memory),
            d = s(&p.dream),
            n = name(i)
        ));
    }
    put(&p.dream.join("memory.diff"), diff.as_bytes());
    p
}

pub(crate) fn apply_command(p: &Project) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_dreamreview"));
    c.args(["apply", s(&p.dream), "--memory", s(&p.memory), "--accept-all"])
        .current_dir(&p.root)
        .env("NO_COLOR", "1")
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("HOME", &p.root)
        .env("XDG_CACHE_HOME", crate::common::cache_home())
        .env_remove("DREAMREVIEW_FAIL_AFTER_WRITES")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    c
}

/// The session: a separate `sh` process that waits `delay`, then appends one line to each
/// of `notes`, `gap` apart.
fn session(p: &Project, delay: Duration, gap: Duration, notes: &[(String, String)]) -> std::process::Child {
    let mut script = format!("sleep {:.4}\n", delay.as_secs_f64());
    for (note, line) in notes {
        script.push_str(&format!(
            "printf '%s\\n' '{line}' >> '{}'\nsleep {:.4}\n",
            s(&p.memory.join(note)),
            gap.as_secs_f64()
        ));
    }
    Command::new("sh").arg("-c").arg(script).spawn().expect("spawn sh")
}

/// What git says is modified in the work tree, against the truth: each note's blob as
/// hashed from disk now, against `HEAD`'s blob.
fn git_agrees_with_disk(memory: &Path) {
    let head: BTreeMap<String, String> = git(memory, &["ls-tree", "-r", "HEAD"])
        .lines()
        .filter_map(|l| {
            let (meta, path) = l.split_once('\t')?;
            Some((path.to_string(), meta.split(' ').nth(2)?.to_string()))
        })
        .collect();
    let names: Vec<String> = (0..NOTES).map(name).collect();
    let mut hash = Command::new("git")
        .args(["hash-object", "--stdin-paths"])
        .current_dir(memory)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    {
        use std::io::Write;
        let mut stdin = hash.stdin.take().unwrap();
        stdin.write_all(names.join("\n").as_bytes()).unwrap();
        stdin.write_all(b"\n").unwrap();
    }
    let out = hash.wait_with_output().unwrap();
    let disk: Vec<String> = String::from_utf8(out.stdout).unwrap().lines().map(str::to_string).collect();
    let truly_modified: Vec<&String> =
        names.iter().zip(&disk).filter(|(n, b)| head.get(*n) != Some(b)).map(|(n, _)| n).collect();
    let status = git(memory, &["status", "--porcelain", "--untracked-files=no"]);
    let said: Vec<&str> = status.lines().map(|l| l[3..].trim()).collect();
    assert_eq!(said, truly_modified, "git status disagrees with the work tree\n{status}");
}

/// The sweep: applies raced by a session appending to notes across the whole apply, from
/// before it writes to after it commits. Every appended line must survive on disk, once;
/// git's view must match the disk; the run commits (exit 0) or stops naming a note (exit
/// 2) with nothing half done.
#[test]
fn a_session_editing_notes_during_apply_loses_nothing() {
    let warm = project();
    let start = Instant::now();
    let out = apply_command(&warm).output().unwrap();
    let took = start.elapsed();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    const RUNS: usize = 8;
    const EDITS: usize = 12;
    let mut outcomes = BTreeMap::new();
    for run in 0..RUNS {
        let p = project();
        // From a fifth into the apply (loading) to long past its end (after the commit),
        // one edit every twelfth of the apply's time.
        let delay = took.mul_f64(0.2 + 1.8 * run as f64 / RUNS as f64);
        let gap = took / EDITS as u32;
        let notes: Vec<(String, String)> = (0..EDITS)
            .map(|j| {
                let i = (run * 61 + j * 41) % NOTES;
                (name(i), format!("session edit run {run} edit {j}"))
            })
            .collect();
        let apply = apply_command(&p).spawn().unwrap();
        let mut sh = session(&p, delay, gap, &notes);
        let out = apply.wait_with_output().unwrap();
        assert!(sh.wait().unwrap().success());
        let code = out.status.code().unwrap_or(-1);
        let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
        *outcomes.entry(code).or_insert(0) += 1;
        eprintln!("run {run} delay {delay:?}: exit {code} {}", stderr.lines().next().unwrap_or(""));
        for (note, line) in &notes {
            let text = std::fs::read_to_string(p.memory.join(note)).unwrap();
            assert_eq!(
                text.matches(&format!("{line}\n")).count(),
                1,
                "run {run} (delay {delay:?}, exit {code}): the session's edit of {note} was lost\n{stderr}\n{text}"
            );
        }
        match code {
            0 => {
                for i in 0..NOTES {
                    let text = std::fs::read_to_string(p.memory.join(name(i))).unwrap();
                    assert!(
                        text.starts_with(&proposed_note(i)),
                        "run {run}: {} is not the accepted text\n{text}",
                        name(i)
                    );
                }
            }
            2 => assert!(
                stderr.contains("changed") || stderr.contains("is open for writing"),
                "run {run}: exit 2 without naming the change: {stderr}"
            ),
            _ => panic!("run {run}: exit {code}: {stderr}"),
        }
        assert!(!p.memory.join(".git/dreamreview/journal.json").exists(), "run {run}: journal left: {stderr}");
        let temps: Vec<String> = std::fs::read_dir(&p.memory)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.contains(".dreamreview-"))
            .collect();
        assert!(temps.is_empty(), "run {run}: temp files left: {temps:?}");
        git_agrees_with_disk(&p.memory);
    }
    eprintln!("apply took {took:?} unraced; outcomes by exit code over {RUNS} raced runs: {outcomes:?}");
}

/// The TUI (here driven by script) has decisions; meanwhile a CLI apply of the same dream
/// commits. The TUI's commit must not write an "accept 0 of 1" commit over it: it says the
/// repository moved on, writes nothing, and reloads (decisions restored).
#[test]
fn a_tui_commit_after_another_commit_reloads_instead() {
    use dreamreview::faces::ui::script;
    use dreamreview::faces::ui::state::Mode;
    use dreamreview::faces::ui::theme::{Theme, ThemeName};
    let dir = tempfile::tempdir().unwrap();
    let mut app = script::open_demo(dir.path(), (100, 30), Theme::new(ThemeName::Dark)).unwrap();
    let memory = app.review.inputs.memory.clone();
    let dream = app.review.inputs.dream.clone().expect("the demo has a dream folder");
    script::drive(&mut app, "y").unwrap();
    let r = run(dir.path(), &["apply", s(&dream), "--memory", s(&memory), "--reject-all"]);
    assert!(r.code == 0 || r.code == 1, "{}", r.both());
    let cli_head = head(&memory);
    let notes_before = notes(&memory);
    script::drive(&mut app, "c <Enter>").unwrap();
    assert!(matches!(app.mode, Mode::Normal), "the commit preview is still open");
    let status = app.status.as_ref().map(|s| s.text.clone()).unwrap_or_default();
    assert!(status.starts_with("not committed: the memory repository moved on"), "{status}");
    assert_eq!(head(&memory), cli_head, "the TUI committed over the CLI's review");
    assert_eq!(notes(&memory), notes_before, "the TUI wrote notes");
    assert_eq!(app.review.loaded_head.as_deref(), Some(cli_head.as_str()), "the review was not reloaded");
}
