//! Helpers shared by the integration tests: fixture copies in temp dirs, running the real
//! binary, and small git helpers.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;

/// The output of one run of the binary.
pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

/// Runs `dreamreview` with `args` in `cwd`.
pub fn run(cwd: &Path, args: &[&str]) -> Run {
    let out = Command::new(env!("CARGO_BIN_EXE_dreamreview"))
        .args(args)
        .current_dir(cwd)
        .env("NO_COLOR", "1")
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("HOME", cwd)
        .output()
        .expect("run dreamreview");
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
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
pub fn review(dream: &Path, memory: &Path) -> (dreamreview::review::Review, dreamreview::report::Analysis) {
    let inputs = dreamreview::dream::discover(Some(dream), Some(memory), &[]).unwrap();
    let review = dreamreview::review::Review::load(inputs).unwrap();
    let analysis = dreamreview::cli::analyze(&review);
    (review, analysis)
}
