//! The write-ahead journal that makes a commit of notes crash safe.
//!
//! Before the first note is written, `<gitdir>/dreamreview/journal.json` records `HEAD`,
//! the tree about to be committed and, for every path, the blob ids of its content before
//! and after (the blobs are stored in the repository first, so nothing depends on the
//! work tree). The journal is removed once the commit and the index are written. When a
//! process dies in between, the next writer finds the journal and:
//! - if `HEAD` has not moved, the commit was never made: every note is put back to its
//!   old content (each one is old or new, since every write is an atomic rename), so the
//!   interrupted run left no trace and rerunning it completes the review;
//! - if `HEAD` is the journaled commit (its parent is the old `HEAD` and its tree the
//!   journaled tree), only the index was left behind: it is updated;
//! - otherwise it refuses and explains (someone moved `HEAD` since; check by hand).

use super::MemoryRepo;
use super::write;
use crate::snapshot::Entry;
use anyhow::{Context, Result, anyhow, bail};
use git2::Oid;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// A blob the journal refers to.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct JournalBlob {
    /// The blob id (hex).
    pub id: String,
    /// True for a symlink (the blob is its target); symlinks are committed, never written.
    #[serde(default)]
    pub link: bool,
}

/// One path of a journaled commit.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct JournalFile {
    /// Memory-relative path.
    pub path: String,
    /// Content on disk before the write (`None`: absent).
    pub old: Option<JournalBlob>,
    /// Content after (`None`: removed).
    pub new: Option<JournalBlob>,
}

/// An interrupted (or running) commit of notes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Journal {
    /// Format version (1).
    pub version: u32,
    /// What was being done, for messages (`dream review`, `revert`, `snapshot`).
    pub action: String,
    /// The writing process.
    pub pid: u32,
    /// When it started, seconds since the Unix epoch.
    pub started: u64,
    /// `HEAD` before the commit (`None`: unborn).
    pub head: Option<String>,
    /// The tree the commit records.
    pub tree: String,
    /// Every path the commit changes.
    pub files: Vec<JournalFile>,
}

/// Where the journal of a memory repository lives.
pub fn journal_path(repo: &MemoryRepo) -> PathBuf {
    repo.state_dir().join("journal.json")
}

/// Stores `e` as a blob and describes it.
pub fn store(repo: &MemoryRepo, e: &Entry) -> Result<JournalBlob> {
    let (bytes, link) = match e {
        Entry::File(b) => (b.as_slice(), false),
        Entry::Symlink(t) => (t.as_os_str().as_encoded_bytes(), true),
    };
    let id = repo.repo.blob(bytes).context("cannot store a note in the git object database")?;
    Ok(JournalBlob { id: id.to_string(), link })
}

/// Writes the journal (atomically) before any note is touched.
pub fn begin(repo: &MemoryRepo, journal: &Journal) -> Result<()> {
    let path = journal_path(repo);
    if path.exists() {
        bail!("{} exists: an earlier write was interrupted and has not been recovered", path.display());
    }
    let text = serde_json::to_vec_pretty(journal).context("cannot encode the journal")?;
    write::write_state_file(&path, &text)
}

/// Removes the journal once the commit and the index are written.
pub fn finish(repo: &MemoryRepo) -> Result<()> {
    let path = journal_path(repo);
    match std::fs::remove_file(&path) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(anyhow!(e).context(format!("cannot remove {}", path.display()))),
    }
}

fn load_blob(repo: &MemoryRepo, b: &Option<JournalBlob>) -> Result<Option<Entry>> {
    let Some(b) = b else { return Ok(None) };
    let oid = Oid::from_str(&b.id).with_context(|| format!("bad blob id {}", b.id))?;
    let blob = repo.repo.find_blob(oid).with_context(|| format!("the journal names blob {} which is missing", b.id))?;
    let bytes = blob.content().to_vec();
    Ok(Some(if b.link {
        Entry::Symlink(PathBuf::from(String::from_utf8_lossy(&bytes).into_owned()))
    } else {
        Entry::File(bytes)
    }))
}

/// Finishes or undoes a write a crashed process left behind (see the module docs).
/// Returns one sentence saying what was done, or `None` when there was nothing to do.
/// Call it under the repository lock, before loading a review.
pub fn recover(repo: &MemoryRepo) -> Result<Option<String>> {
    let path = journal_path(repo);
    let text = match std::fs::read(&path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(anyhow!(e).context(format!("cannot read {}", path.display()))),
    };
    let j: Journal = serde_json::from_slice(&text).map_err(|e| {
        anyhow!(
            "{} is not a journal dreamreview can read ({e}); check the memory folder with \
             `git status`, then delete it",
            path.display()
        )
    })?;
    let who = format!("an interrupted {} (pid {}, started {})", j.action, j.pid, super::lock::format_time(j.started));
    let head = repo.head_commit()?;
    let head_id = head.as_ref().map(|c| c.id().to_string());
    let paths: Vec<String> = j.files.iter().map(|f| f.path.clone()).collect();
    if head_id == j.head {
        // The commit was never made: put every note back.
        let mut restore = Vec::new();
        let mut foreign = Vec::new();
        for f in &j.files {
            let old = load_blob(repo, &f.old)?;
            let new = load_blob(repo, &f.new)?;
            let disk = write::read_entry(&repo.memory, &f.path)?;
            if disk == old {
                continue;
            }
            if disk == new && !matches!(old, Some(Entry::Symlink(_))) {
                restore.push((f.path.clone(), old, new));
            } else {
                foreign.push(f.path.clone());
            }
        }
        if !foreign.is_empty() {
            bail!(
                "{who} left {} holding content dreamreview did not write (edited since?); \
                 nothing was changed. Check them with `git status` and `git diff`, then delete {}",
                foreign.join(", "),
                path.display()
            );
        }
        for (rel, old, new) in &restore {
            let (old, new) = (old.as_ref().and_then(Entry::bytes), new.as_ref().and_then(Entry::bytes));
            write::put(&repo.memory, rel, new, old, &[]).with_context(|| format!("while rolling back {who}"))?;
        }
        write::clean_temp_files(&repo.memory, &paths);
        finish(repo)?;
        let n = restore.len();
        return Ok(Some(format!(
            "rolled back {who}: the commit was never made, so {n} note{} put back as {} \
             before it",
            if n == 1 { " was" } else { "s were" },
            if n == 1 { "it was" } else { "they were" }
        )));
    }
    let done = head
        .as_ref()
        .is_some_and(|c| c.tree_id().to_string() == j.tree && c.parent_id(0).ok().map(|p| p.to_string()) == j.head);
    if !done {
        bail!(
            "{} records {who}, but HEAD moved since ({} → {}) by something else; check the \
             memory folder with `git status`, then delete the journal",
            path.display(),
            j.head.as_deref().unwrap_or("no commit"),
            head_id.as_deref().unwrap_or("no commit")
        );
    }
    let mut updates = Vec::new();
    for f in &j.files {
        let new = match &f.new {
            Some(b) => Some((
                Oid::from_str(&b.id).with_context(|| format!("bad blob id {}", b.id))?,
                if b.link { 0o120000 } else { 0o100644 },
            )),
            None => None,
        };
        updates.push((repo.repo_path(&f.path), new));
    }
    super::commit::update_index(repo, &updates)?;
    write::clean_temp_files(&repo.memory, &paths);
    finish(repo)?;
    Ok(Some(format!(
        "completed {who}: its commit {} was made; the index is now updated",
        head_id.as_deref().map(super::short_id).unwrap_or_default()
    )))
}

/// True when a journal is waiting to be recovered.
pub fn pending(repo: &MemoryRepo) -> bool {
    Path::new(&journal_path(repo)).exists()
}

#[cfg(test)]
mod tests {
    use super::super::commit::{Change, commit_changes};
    use super::*;
    use git2::Repository;

    fn setup() -> (tempfile::TempDir, MemoryRepo) {
        let t = tempfile::tempdir().unwrap();
        let r = Repository::init(t.path()).unwrap();
        std::fs::write(t.path().join("a.md"), "v1\n").unwrap();
        let mut index = r.index().unwrap();
        index.add_path(Path::new("a.md")).unwrap();
        index.write().unwrap();
        let tree = r.find_tree(index.write_tree().unwrap()).unwrap();
        let sig = git2::Signature::now("t", "t@example.com").unwrap();
        r.commit(Some("HEAD"), &sig, &sig, "init", &tree, &[]).unwrap();
        let m = MemoryRepo::discover(t.path()).unwrap().unwrap();
        (t, m)
    }

    fn file(s: &str) -> Entry {
        Entry::File(s.as_bytes().to_vec())
    }

    fn journal(m: &MemoryRepo, head: Option<String>, tree: String) -> Journal {
        Journal {
            version: 1,
            action: "dream review".into(),
            pid: 1,
            started: 0,
            head,
            tree,
            files: vec![JournalFile {
                path: "a.md".into(),
                old: Some(store(m, &file("v1\n")).unwrap()),
                new: Some(store(m, &file("v2\n")).unwrap()),
            }],
        }
    }

    fn head(m: &MemoryRepo) -> git2::Commit<'_> {
        m.head_commit().unwrap().unwrap()
    }

    #[test]
    fn no_journal_is_nothing_to_do() {
        let (_t, m) = setup();
        assert_eq!(recover(&m).unwrap(), None);
        assert!(!pending(&m));
    }

    #[test]
    fn an_uncommitted_write_is_rolled_back() {
        let (t, m) = setup();
        let h = head(&m);
        let j = journal(&m, Some(h.id().to_string()), h.tree_id().to_string());
        begin(&m, &j).unwrap();
        assert!(pending(&m));
        assert!(begin(&m, &j).is_err(), "one journal at a time");
        std::fs::write(t.path().join("a.md"), "v2\n").unwrap();
        std::fs::write(t.path().join(".a.md.dreamreview-1-0.tmp"), "v2").unwrap();
        let msg = recover(&m).unwrap().unwrap();
        assert!(msg.starts_with("rolled back an interrupted dream review (pid 1, started 1970-01-01"), "{msg}");
        assert!(msg.ends_with("so 1 note was put back as it was before it"), "{msg}");
        assert_eq!(std::fs::read_to_string(t.path().join("a.md")).unwrap(), "v1\n");
        assert!(!t.path().join(".a.md.dreamreview-1-0.tmp").exists());
        assert!(!pending(&m));
    }

    #[test]
    fn foreign_content_is_never_overwritten() {
        let (t, m) = setup();
        let h = head(&m);
        begin(&m, &journal(&m, Some(h.id().to_string()), h.tree_id().to_string())).unwrap();
        std::fs::write(t.path().join("a.md"), "someone else\n").unwrap();
        let e = format!("{:#}", recover(&m).unwrap_err());
        assert!(e.contains("a.md") && e.contains("nothing was changed"), "{e}");
        assert_eq!(std::fs::read_to_string(t.path().join("a.md")).unwrap(), "someone else\n");
        assert!(pending(&m));
    }

    #[test]
    fn a_made_commit_gets_its_index_updated() {
        let (t, m) = setup();
        let before = head(&m).id();
        let c = Change { path: "a.md".into(), disk: Some(file("v1\n")), new: Some(file("v2\n")) };
        commit_changes(&m, "dream review", "msg\n", &[c], &[]).unwrap();
        assert!(!pending(&m));
        // Simulate a crash after the commit: journal still there, index still old.
        let after = head(&m);
        assert_eq!(after.parent_id(0).unwrap(), before);
        begin(&m, &journal(&m, Some(before.to_string()), after.tree_id().to_string())).unwrap();
        let mut index = m.repo.index().unwrap();
        let mut e = index.get_path(Path::new("a.md"), 0).unwrap();
        e.id = m.repo.blob(b"v1\n").unwrap();
        index.add(&e).unwrap();
        index.write().unwrap();
        let msg = recover(&m).unwrap().unwrap();
        assert!(msg.contains("its commit") && msg.contains("index is now updated"), "{msg}");
        let index = m.repo.index().unwrap();
        assert_eq!(index.get_path(Path::new("a.md"), 0).unwrap().id, m.repo.blob(b"v2\n").unwrap());
        assert_eq!(std::fs::read_to_string(t.path().join("a.md")).unwrap(), "v2\n");
    }

    #[test]
    fn a_moved_head_is_explained_not_guessed() {
        let (_t, m) = setup();
        let tree = head(&m).tree_id().to_string();
        begin(&m, &journal(&m, Some("0".repeat(40)), tree)).unwrap();
        let e = format!("{:#}", recover(&m).unwrap_err());
        assert!(e.contains("HEAD moved since"), "{e}");
        assert!(pending(&m));
    }
}
