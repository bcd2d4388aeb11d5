//! Helpers shared by the integration tests: fixture copies in temp dirs, running the real
//! binary, and small git helpers.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

/// The output of one run of the binary.
#[derive(Debug)]
pub struct Run {
    /// Exit code (-1 when killed by a signal).
    pub code: i32,
    /// Standard output.
    pub stdout: String,
    /// Standard error.
    pub stderr: String,
    /// Wall time of the run.
    pub took: Duration,
}

impl Run {
    /// Both streams, for assertion messages.
    pub fn both(&self) -> String {
        format!("exit {}\n--- stdout\n{}\n--- stderr\n{}", self.code, self.stdout, self.stderr)
    }
}

/// The cache folder every `dreamreview` a test runs uses (`XDG_CACHE_HOME`): under
/// cargo's temporary folder for tests in `target/`, never the user's home, never a memory
/// or transcript folder (shared by concurrent test runs, as the index allows).
pub fn cache_home() -> &'static Path {
    Path::new(env!("CARGO_TARGET_TMPDIR"))
}

/// Runs `dreamreview` in `cwd` with extra environment variables.
pub fn run_env(cwd: &Path, args: &[&str], env: &[(&str, &str)]) -> Run {
    let mut c = Command::new(env!("CARGO_BIN_EXE_dreamreview"));
    c.args(args)
        .current_dir(cwd)
        .env("NO_COLOR", "1")
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("HOME", cwd)
        .env("XDG_CACHE_HOME", cache_home())
        // The day a transcript line was said on depends on the user's zone: pinned, so the
        // results do not depend on the machine (a test may set its own).
        .env("TZ", "UTC")
        // Transcripts are indexed in the run, never by a background process that would
        // outlive the test (a test about that sets its own budget).
        .env("DREAMREVIEW_INDEX_INLINE_BYTES", u64::MAX.to_string())
        .env_remove("DREAMREVIEW_FAIL_AFTER_WRITES")
        // The settings and Claude Code's folder are the test's, never the machine's.
        .env_remove("XDG_CONFIG_HOME")
        .env_remove("XDG_DATA_HOME")
        .env_remove("CLAUDE_CONFIG_DIR")
        .env_remove("DREAMREVIEW_TZ")
        .env_remove("DREAMREVIEW_THEME");
    for (k, v) in env {
        c.env(k, v);
    }
    let start = Instant::now();
    let out = c.output().expect("run dreamreview");
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        took: start.elapsed(),
    }
}

/// Says on the test run's own standard error (not the captured output, so `cargo test`
/// shows it whether the test passes or not) that `test` did not check what it is for,
/// and why. The caller returns right after.
pub fn skip(test: &str, reason: &str) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr(), "SKIPPED {test}: {reason}");
}

/// Runs `dreamreview` in `cwd`.
pub fn run(cwd: &Path, args: &[&str]) -> Run {
    run_env(cwd, args, &[])
}

/// Copies `tests/fixtures/<name>` into a fresh temp dir and returns (guard, root).
pub fn fixture(name: &str) -> (tempfile::TempDir, PathBuf) {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures").join(name);
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join(name);
    copy_dir(&src, &root);
    (dir, root)
}

/// Recursive copy (files and folders only).
pub fn copy_dir(src: &Path, dst: &Path) {
    std::fs::create_dir_all(dst).unwrap();
    for e in std::fs::read_dir(src).unwrap() {
        let e = e.unwrap();
        let to = dst.join(e.file_name());
        if e.file_type().unwrap().is_dir() {
            copy_dir(&e.path(), &to);
        } else {
            std::fs::copy(e.path(), &to).unwrap();
        }
    }
}

/// Rewrites every occurrence of `from` in `file`.
pub fn replace_in(file: &Path, from: &str, to: &str) {
    let s = std::fs::read_to_string(file).unwrap();
    std::fs::write(file, s.replace(from, to)).unwrap();
}

/// Lays the pnpm scenario out as on the dreaming machine: memory.diff's headers point at
/// the copy's live folder. Returns (guard, dream folder, live memory folder).
pub fn pnpm() -> (tempfile::TempDir, PathBuf, PathBuf) {
    let (g, root) = fixture("pnpm-migration");
    let dream = root.join("dream-2026-11-02");
    let memory = root.join("project/memory");
    replace_in(
        &dream.join("memory.diff"),
        "/home/dev/.claude/projects/-home-dev-shop/memory",
        &memory.to_string_lossy(),
    );
    (g, dream, memory)
}

/// Runs the real git binary in `dir`, panicking with its output on failure.
pub fn git(dir: &Path, args: &[&str]) -> String {
    let out = Command::new("git")
        .args(args)
        .current_dir(dir)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("HOME", dir)
        .env("GIT_AUTHOR_NAME", "t")
        .env("GIT_AUTHOR_EMAIL", "t@example.com")
        .env("GIT_COMMITTER_NAME", "t")
        .env("GIT_COMMITTER_EMAIL", "t@example.com")
        .output()
        .expect("run git");
    assert!(out.status.success(), "git {args:?} failed: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Parses stdout as JSON.
pub fn json(r: &Run) -> serde_json::Value {
    serde_json::from_str(&r.stdout).unwrap_or_else(|e| panic!("not JSON ({e}): {}\nstderr: {}", r.stdout, r.stderr))
}

/// Writes a live memory folder and a dream.sh folder (proposal + CHANGES.md) under a temp
/// dir. Returns (guard, dream folder, memory folder).
pub fn dream_fixture(
    live: &[(&str, &str)],
    proposed: &[(&str, &str)],
    changes: &str,
) -> (tempfile::TempDir, PathBuf, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let memory = dir.path().join("project/memory");
    let dream = dir.path().join("dream");
    for (p, t) in live {
        write(&memory.join(p), t);
    }
    std::fs::create_dir_all(&memory).unwrap();
    for (p, t) in proposed {
        write(&dream.join("memory").join(p), t);
    }
    std::fs::create_dir_all(dream.join("memory")).unwrap();
    write(&dream.join("CHANGES.md"), changes);
    (dir, dream, memory)
}

/// Writes a file, creating its parent folders.
pub fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// Loads a review and its analysis through the library.
pub fn review(
    dream: &Path,
    memory: &Path,
) -> (dreamreview::model::review::Review, dreamreview::analysis::result::Analysis) {
    let inputs = dreamreview::inputs::dream::discover(Some(dream), Some(memory), &[]).unwrap();
    let review = dreamreview::store::repo::load_review(inputs).unwrap();
    let analysis = dreamreview::faces::cli::analyze(&review);
    (review, analysis)
}

/// Copies `tests/fixtures/scenarios/<name>` into a temp dir laid out as on the dreaming
/// machine: memory.diff's headers point at the copy's live folder (`project/memory`).
/// Returns (guard, dream folder `dream-*`, live memory folder).
pub fn scenario(name: &str) -> (tempfile::TempDir, PathBuf, PathBuf) {
    let (g, root) = fixture(&format!("scenarios/{name}"));
    let memory = root.join("project/memory");
    let dream = std::fs::read_dir(&root)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.file_name().unwrap().to_string_lossy().starts_with("dream-"))
        .unwrap_or_else(|| panic!("scenario {name} has no dream-* folder"));
    let diff = dream.join("memory.diff");
    if diff.exists() {
        let text = std::fs::read_to_string(&diff).unwrap();
        let header = text.lines().find(|l| l.starts_with("--- ")).expect("memory.diff has a --- header");
        let path = header.trim_start_matches("--- ").split('\t').next().unwrap();
        let live = &path[..path.find("/memory/").expect("live path ends in /memory/…") + "/memory".len()];
        replace_in(&diff, live, &memory.to_string_lossy());
    }
    (g, dream, memory)
}

/// Runs `check <dream> --json` (with `extra` arguments) from the dream's parent folder;
/// returns the exit code and the parsed output.
pub fn check_json(dream: &Path, extra: &[&str]) -> (i32, serde_json::Value) {
    let mut args = vec!["check", dream.to_str().unwrap(), "--json"];
    args.extend_from_slice(extra);
    let r = run(dream.parent().unwrap(), &args);
    assert!(r.code == 0 || r.code == 1, "check failed ({}): {}", r.code, r.stderr);
    (r.code, json(&r))
}

/// One flag of a `check --json` object: (where, kind, severity, detail). `where` is the
/// hunk id, the file path (file-level flags), `CHANGES.md #N` (entry flags) or `audit`;
/// `detail` is the flag's claim, else its source, else empty.
pub type FlagRow = (String, String, String, String);

/// Every flag of a `check --json` object, sorted.
pub fn flag_rows(v: &serde_json::Value) -> Vec<FlagRow> {
    let row = |at: &str, f: &serde_json::Value| -> FlagRow {
        let s = |k: &str| f[k].as_str().unwrap_or("").to_string();
        let detail = f["claim"].as_str().or(f["source"].as_str()).unwrap_or("").to_string();
        (at.to_string(), s("kind"), s("severity"), detail)
    };
    // Every list is always serialized: a missing one is a changed layout, not "no flags".
    let list = |v: &serde_json::Value| v.as_array().cloned().unwrap_or_else(|| panic!("not a list: {v}"));
    let mut out = Vec::new();
    for file in list(&v["files"]) {
        let path = file["path"].as_str().unwrap_or("");
        out.extend(list(&file["flags"]).iter().map(|f| row(path, f)));
        for h in list(&file["hunks"]) {
            let id = h["id"].as_str().unwrap_or("");
            out.extend(list(&h["flags"]).iter().map(|f| row(id, f)));
        }
    }
    for c in list(&v["changes"]) {
        let at = format!("CHANGES.md #{}", c["index"]);
        out.extend(list(&c["flags"]).iter().map(|f| row(&at, f)));
    }
    out.extend(list(&v["audit"]["flags"]).iter().map(|f| row("audit", f)));
    out.sort();
    out
}

/// Builds a [`FlagRow`] from string slices (for expected lists).
pub fn flag_row(at: &str, kind: &str, severity: &str, detail: &str) -> FlagRow {
    (at.to_string(), kind.to_string(), severity.to_string(), detail.to_string())
}

/// The flag of `kind` on hunk or entry `at` whose claim (or source) is `detail`.
pub fn flag_at<'a>(v: &'a serde_json::Value, at: &str, kind: &str, detail: &str) -> &'a serde_json::Value {
    let matches = |f: &serde_json::Value| {
        f["kind"] == kind && (f["claim"].as_str().or(f["source"].as_str()).unwrap_or("") == detail)
    };
    let files = v["files"].as_array().unwrap();
    for file in files {
        for h in file["hunks"].as_array().unwrap() {
            if h["id"] == at
                && let Some(f) = h["flags"].as_array().unwrap().iter().find(|f| matches(f))
            {
                return f;
            }
        }
    }
    for c in v["changes"].as_array().unwrap() {
        if format!("CHANGES.md #{}", c["index"]) == at
            && let Some(f) = c["flags"].as_array().unwrap().iter().find(|f| matches(f))
        {
            return f;
        }
    }
    panic!("no {kind} flag on {at} for «{detail}»: {v:#}")
}

/// (status, source) of the claim `text` on hunk `hunk` (source empty when none).
pub fn claim_status(v: &serde_json::Value, hunk: &str, text: &str) -> (String, String) {
    for file in v["files"].as_array().unwrap() {
        for h in file["hunks"].as_array().unwrap() {
            if h["id"] != hunk {
                continue;
            }
            for c in h["claims"].as_array().unwrap() {
                if c["text"] == text {
                    let s = c["source"].as_str().unwrap_or("").to_string();
                    return (c["status"].as_str().unwrap().to_string(), s);
                }
            }
            panic!("hunk {hunk} has no claim «{text}»: {:#}", h["claims"]);
        }
    }
    panic!("no hunk {hunk}")
}

/// The hunk ids CHANGES.md entry `index` maps to.
pub fn entry_hunks(v: &serde_json::Value, index: u64) -> Vec<String> {
    let c = v["changes"].as_array().unwrap().iter().find(|c| c["index"] == index).expect("entry");
    c["hunks"].as_array().unwrap().iter().map(|h| h.as_str().unwrap().to_string()).collect()
}

/// The environment variable naming the role of a re-run of this test binary as another
/// process taking the repository lock (`repo_lock::lock_child`).
pub const LOCK_CHILD_ROLE: &str = "DREAMREVIEW_TEST_LOCK_ROLE";
/// The environment variable naming the lock file that child takes.
pub const LOCK_CHILD_PATH: &str = "DREAMREVIEW_TEST_LOCK_PATH";

/// Another process holding the repository lock at a path: this test binary re-run as
/// `repo_lock::lock_child`, which takes the lock, says so and sleeps until killed. Killed
/// (SIGKILL) when dropped.
pub struct LockHolder {
    child: std::process::Child,
    /// The holder's process id.
    pub pid: u32,
}

impl LockHolder {
    /// Starts the holder and returns once it holds the lock at `path`.
    pub fn start(path: &Path) -> LockHolder {
        use std::io::BufRead;
        let mut child = Command::new(std::env::current_exe().expect("test binary"))
            .args(["repo_lock::lock_child", "--exact", "--nocapture", "--test-threads", "1"])
            .env(LOCK_CHILD_ROLE, "hold")
            .env(LOCK_CHILD_PATH, path)
            .stdout(std::process::Stdio::piped())
            .spawn()
            .expect("start the lock holder");
        let pid = child.id();
        let out = child.stdout.take().expect("piped stdout");
        let held =
            std::io::BufReader::new(out).lines().map_while(Result::ok).any(|l| l.ends_with(&format!("held {pid}")));
        assert!(held, "the lock holder ended without taking the lock");
        LockHolder { child, pid }
    }

    /// Kills the holder with SIGKILL (no cleanup runs) and waits for it to end.
    pub fn kill(mut self) {
        self.stop();
    }

    fn stop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for LockHolder {
    fn drop(&mut self) {
        self.stop();
    }
}

/// The pnpm scenario with `transcript`'s (from, to) replaced in its session and `note`'s
/// in the dream's testing.md (say, a credential in tool output copied into memory), and
/// its memory folder committed. Returns (guard, dream, memory).
pub fn committed_pnpm_with(transcript: (&str, &str), note: (&str, &str)) -> (tempfile::TempDir, PathBuf, PathBuf) {
    let (g, dream, memory) = pnpm();
    let session = memory.parent().unwrap().join("5b0e7c2a-41d3-4c1e-9f0a-2d6b8e3c7a15.jsonl");
    replace_in(&session, transcript.0, transcript.1);
    replace_in(&dream.join("memory/testing.md"), note.0, note.1);
    git(&memory, &["init", "-q"]);
    git(&memory, &["add", "-A"]);
    git(&memory, &["commit", "-qm", "notes by hand"]);
    (g, dream, memory)
}

/// `apply DREAM --memory MEMORY --allow secret` with `how` (`--accept-all`, `--decisions F`…),
/// run from the dream's parent folder.
pub fn apply_allowing_secret(dream: &Path, memory: &Path, how: &[&str]) -> Run {
    let mut args = vec!["apply", dream.to_str().unwrap(), "--memory", memory.to_str().unwrap(), "--allow", "secret"];
    args.extend_from_slice(how);
    run(dream.parent().unwrap(), &args)
}

/// The new side (context and added lines, joined) of the first hunk of the first file of a
/// `check --json` object: the text a reviewer's edit starts from.
pub fn first_hunk_new_side(v: &serde_json::Value) -> String {
    v["files"][0]["hunks"][0]["lines"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|l| l["op"] != "-")
        .map(|l| l["text"].as_str().unwrap().to_string())
        .collect()
}

/// The flag kinds `check --json` raises on the first hunk of `notes.md`, whose whole text
/// is `note`, when the dream's one CHANGES.md entry cites lines `cite` (`3`, `2-4`) of one
/// session whose turns are `turns` (role, text; roles `user` and `assistant`), a minute
/// apart from 2026-06-01 09:00 UTC. Live memory holds only the index.
pub fn one_session_kinds(turns: &[(&str, &str)], note: &str, cite: &str) -> Vec<String> {
    let log: String = turns
        .iter()
        .enumerate()
        .map(|(i, (role, text))| {
            let at = format!("2026-06-01T09:{i:02}:00Z");
            format!("{{\"timestamp\":\"{at}\",\"role\":\"{role}\",\"content\":{}}}\n", serde_json::Value::from(*text))
        })
        .collect();
    session_kinds(&log, note, cite)
}

/// One Claude Code record of the session `session_kinds` reads: `role` says `content` (a
/// string, or a list of blocks), at minute `n`.
pub fn record(n: usize, role: &str, content: serde_json::Value) -> String {
    let kind = if role == "assistant" { "assistant" } else { "user" };
    let line = serde_json::json!({
        "type": kind,
        "timestamp": format!("2026-06-01T09:{n:02}:00Z"),
        "sessionId": "5e55105e-1111-4222-8333-0123456789ab",
        "uuid": format!("u{n}"),
        "message": {"role": role, "content": content},
    });
    format!("{line}\n")
}

/// The flag kinds of a dream adding the one-line note `note` to `notes.md`, whose CHANGES.md
/// entry cites lines `cite` of one session whose JSONL is `log`.
pub fn session_kinds(log: &str, note: &str, cite: &str) -> Vec<String> {
    const SESSION: &str = "5e55105e-1111-4222-8333-0123456789ab";
    let changes = format!("- notes.md: what the session said ({SESSION}.jsonl:{cite})\n");
    let (g, dream, memory) = dream_fixture(
        &[("MEMORY.md", "- [Notes](notes.md)\n")],
        &[("MEMORY.md", "- [Notes](notes.md)\n"), ("notes.md", &format!("{note}\n"))],
        &changes,
    );
    write(&memory.parent().unwrap().join(format!("{SESSION}.jsonl")), log);
    let (_, v) = check_json(&dream, &["--memory", memory.to_str().unwrap(), "--tz", "UTC"]);
    drop(g);
    flag_rows(&v).into_iter().filter(|r| r.0 == "notes.md#1").map(|r| r.1).collect()
}
