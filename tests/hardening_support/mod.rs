//! Helpers of the hardening tests: a project laid out as on a user's machine (a git
//! memory folder, a dream folder, transcripts beside the memory folder), running the real
//! binary, and a fingerprint of everything on disk so a test can assert that a run wrote
//! nothing.
#![allow(dead_code)]

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

#[allow(unused_imports)]
pub use crate::common::{Run, git, run, run_env, skip};

/// `HEAD`'s commit id of the repository at `dir`.
pub fn head(dir: &Path) -> String {
    git(dir, &["rev-parse", "HEAD"]).trim().to_string()
}

/// The path as a `&str` (test paths are UTF-8).
pub fn s(p: &Path) -> &str {
    p.to_str().expect("UTF-8 test path")
}

/// Writes `bytes` to `path`, creating its folders.
pub fn put(path: &Path, bytes: &[u8]) {
    std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
    std::fs::write(path, bytes).expect("write");
}

/// A project as on a user's machine: `<root>/project/memory` (a git repository with one
/// commit of the live notes), `<root>/project/*.jsonl` transcripts beside it, and a
/// dream.sh folder `<root>/dream` (`memory/` + optional `CHANGES.md`).
pub struct Project {
    /// Keeps the temp dir alive.
    pub guard: tempfile::TempDir,
    /// The temp root (canonical).
    pub root: PathBuf,
    /// The live memory folder.
    pub memory: PathBuf,
    /// The dream folder.
    pub dream: PathBuf,
}

/// The standard live notes: an index and one topic note.
pub const LIVE: &[(&str, &[u8])] = &[
    ("MEMORY.md", b"# Memory\n- [Testing](testing.md): how to run the tests\n"),
    (
        "testing.md",
        b"---\nname: testing\ndescription: how to run the tests\ntype: project\n---\n\nRun tests with `npm test`.\n",
    ),
];

/// The standard proposal: the topic note rewritten.
pub const PROPOSED: &[(&str, &[u8])] = &[
    ("MEMORY.md", b"# Memory\n- [Testing](testing.md): how to run the tests\n"),
    (
        "testing.md",
        b"---\nname: testing\ndescription: how to run the tests\ntype: project\n---\n\nRun tests with `pnpm test`.\n",
    ),
];

/// A transcript line stating the standard change.
pub const SESSION_LINE: &str = r#"{"type":"user","timestamp":"2026-11-01T09:00:00Z","message":{"role":"user","content":"we run tests with `pnpm test` now"}}"#;

impl Project {
    /// Lays out a project; `changes` is CHANGES.md's content (`None`: no CHANGES.md).
    pub fn new(live: &[(&str, &[u8])], proposed: &[(&str, &[u8])], changes: Option<&[u8]>) -> Project {
        let guard = tempfile::tempdir().expect("tempdir");
        let root = guard.path().canonicalize().expect("canonical temp");
        let memory = root.join("project/memory");
        let dream = root.join("dream");
        std::fs::create_dir_all(&memory).expect("mkdir memory");
        std::fs::create_dir_all(dream.join("memory")).expect("mkdir proposal");
        for (p, b) in live {
            put(&memory.join(p), b);
        }
        for (p, b) in proposed {
            put(&dream.join("memory").join(p), b);
        }
        if let Some(c) = changes {
            put(&dream.join("CHANGES.md"), c);
        }
        put(&root.join("project/s1.jsonl"), format!("{SESSION_LINE}\n").as_bytes());
        git(&memory, &["init", "-q"]);
        git(&memory, &["add", "-A"]);
        git(&memory, &["commit", "-q", "--allow-empty", "-m", "notes"]);
        Project { guard, root, memory, dream }
    }

    /// The standard project: one changed note, a CHANGES.md entry citing the session.
    pub fn standard() -> Project {
        Project::new(LIVE, PROPOSED, Some(b"- testing.md: tests run with `pnpm test` (s1.jsonl:1)\n"))
    }

    /// Everything on disk that a run must not change when it writes nothing: every file
    /// under the temp root (the memory folder, the dream, the transcripts; `.git`
    /// internals excluded) plus `HEAD`.
    pub fn fingerprint(&self) -> Fingerprint {
        let mut files = BTreeMap::new();
        walk(&self.root, &self.root, &mut files);
        Fingerprint { files, head: head(&self.memory) }
    }

    /// Runs the binary in the project root.
    pub fn run(&self, args: &[&str]) -> Run {
        run(&self.root, args)
    }

    /// `check DREAM --memory MEMORY [extra]`.
    pub fn check(&self, extra: &[&str]) -> Run {
        let mut a = vec!["check", s(&self.dream), "--memory", s(&self.memory)];
        a.extend_from_slice(extra);
        self.run(&a)
    }

    /// `apply DREAM --memory MEMORY [extra]`.
    pub fn apply(&self, extra: &[&str]) -> Run {
        let mut a = vec!["apply", s(&self.dream), "--memory", s(&self.memory)];
        a.extend_from_slice(extra);
        self.run(&a)
    }

    /// `apply --accept-all` killed (`abort`) right after its `writes`-th note write; panics
    /// unless it died.
    pub fn apply_killed_after(&self, writes: usize) -> Run {
        let a = run_env(
            &self.root,
            &["apply", s(&self.dream), "--memory", s(&self.memory), "--accept-all"],
            &[("DREAMREVIEW_FAIL_AFTER_WRITES", &writes.to_string())],
        );
        assert!(![0, 1, 2].contains(&a.code), "the apply must die: {}", a.both());
        a
    }

    /// Asserts that `check`, then `apply --accept-all`, both fail with exit 2 and a message
    /// containing every one of `expect`, and that nothing on disk changed.
    pub fn assert_refused(&self, expect: &[&str]) -> Run {
        let before = self.fingerprint();
        let c = self.check(&[]);
        assert_eq!(c.code, 2, "check: {}", c.both());
        let a = self.apply(&["--accept-all"]);
        assert_eq!(a.code, 2, "apply: {}", a.both());
        for e in expect {
            assert!(c.stderr.contains(e), "check's message lacks {e:?}: {}", c.both());
            assert!(a.stderr.contains(e), "apply's message lacks {e:?}: {}", a.both());
        }
        assert!(a.stdout.is_empty(), "apply printed: {}", a.both());
        before.assert_same(&self.fingerprint());
        a
    }
}

/// Every file's bytes under a folder (`.git` internals other than `HEAD` skipped), and
/// `HEAD`.
#[derive(Debug, PartialEq, Eq)]
pub struct Fingerprint {
    /// Relative path → bytes (symlinks as `-> target`).
    pub files: BTreeMap<String, Vec<u8>>,
    /// `HEAD`'s commit.
    pub head: String,
}

impl Fingerprint {
    /// Panics naming the first difference.
    pub fn assert_same(&self, after: &Fingerprint) {
        assert_eq!(self.head, after.head, "HEAD moved");
        let a: Vec<&String> = self.files.keys().collect();
        let b: Vec<&String> = after.files.keys().collect();
        assert_eq!(a, b, "files were added or removed");
        for (k, v) in &self.files {
            assert!(after.files.get(k) == Some(v), "{k} changed");
        }
    }
}

fn walk(root: &Path, dir: &Path, out: &mut BTreeMap<String, Vec<u8>>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        let rel = p.strip_prefix(root).expect("under root").to_string_lossy().into_owned();
        let Ok(ft) = e.file_type() else { continue };
        if e.file_name() == ".git" {
            continue;
        }
        if ft.is_symlink() {
            let t = std::fs::read_link(&p).map(|t| t.to_string_lossy().into_owned()).unwrap_or_default();
            out.insert(rel, format!("-> {t}").into_bytes());
        } else if ft.is_dir() {
            out.insert(format!("{rel}/"), Vec::new());
            walk(root, &p, out);
        } else if ft.is_file() {
            // Big generated inputs are fingerprinted by length and edges only.
            let len = std::fs::metadata(&p).map(|m| m.len()).unwrap_or(0);
            if len > (1 << 20) {
                out.insert(rel, format!("{len} bytes").into_bytes());
            } else {
                out.insert(rel, std::fs::read(&p).unwrap_or_default());
            }
        }
    }
}

/// Every note of a folder as bytes (hidden names skipped), for byte-exact comparisons.
pub fn notes(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    dreamreview::inputs::snapshot::read_folder(dir)
        .expect("read folder")
        .into_iter()
        .map(|(k, e)| (k, e.bytes().map(<[u8]>::to_vec).unwrap_or_default()))
        .collect()
}
