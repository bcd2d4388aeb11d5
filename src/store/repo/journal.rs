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
//!
//! [`pending`] reads the same state without changing anything, so that `check` can say
//! what was left and what the next writer will do about it.

use super::MemoryRepo;
use super::write;
use crate::snapshot::Entry;
use anyhow::{Context, Result, anyhow, bail};
use git2::Oid;
use serde::{Deserialize, Serialize};
use std::path::PathBuf;

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
    /// The evidence note to attach to the commit once it is made (review commits).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
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

/// What an interrupted write left on one journaled note.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum NoteState {
    /// Still the old content: never written.
    Untouched,
    /// The new content: written before the process stopped.
    Written,
    /// Neither: someone else changed it since.
    Foreign,
}

/// How far an interrupted write got, and so what the next writer does about it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "state", rename_all = "kebab-case")]
pub enum Stage {
    /// The commit was never made: `written` notes hold the new content, `untouched` the
    /// old, `foreign` neither (edited since). The next writer puts `written` back, unless
    /// `foreign` is not empty: then it refuses.
    Uncommitted {
        /// Notes already written.
        written: Vec<String>,
        /// Notes not written yet.
        untouched: Vec<String>,
        /// Notes holding content dreamreview did not write.
        foreign: Vec<String>,
    },
    /// The commit was made; only the index is left to update.
    Committed {
        /// The commit (short id).
        commit: String,
    },
    /// `HEAD` moved since, by something else: the next writer refuses.
    HeadMoved {
        /// `HEAD` when the write began (`None`: unborn).
        journaled: Option<String>,
        /// `HEAD` now.
        head: Option<String>,
    },
    /// The journal cannot be read: the next writer refuses.
    Unreadable {
        /// Why.
        reason: String,
    },
}

/// The process whose write was interrupted, as its journal records it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Writer {
    /// What it was doing (`dream review`, `revert`, `snapshot`).
    pub action: String,
    /// Its process id.
    pub pid: u32,
    /// When it started, seconds since the Unix epoch.
    pub started: u64,
}

impl Writer {
    /// `a dream review (pid N, started T)`.
    pub fn describe(&self) -> String {
        let article = if self.action.starts_with(['a', 'e', 'i', 'o', 'u']) { "an" } else { "a" };
        format!("{article} {} (pid {}, started {})", self.action, self.pid, super::lock::format_time(self.started))
    }
}

/// A write a process began and did not finish, found without changing anything.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Interrupted {
    /// The journal file.
    pub journal: PathBuf,
    /// Who wrote it (`None` when the journal cannot be read).
    pub writer: Option<Writer>,
    /// How far it got.
    #[serde(flatten)]
    pub stage: Stage,
}

impl Interrupted {
    /// What was left and what the next writer (`apply`, `revert`, the TUI) will do about
    /// it, in sentences, e.g. `a dream review (pid 123, started …) stopped after writing 3
    /// of 5 notes (a.md, b.md, c.md); the commit was never made. …`.
    pub fn describe(&self) -> String {
        let who = self.writer.as_ref().map(Writer::describe).unwrap_or_else(|| "a write".into());
        let journal = self.journal.display();
        let next = "The next apply or revert (or opening the TUI)";
        match &self.stage {
            Stage::Uncommitted { written, untouched, foreign } if foreign.is_empty() => {
                let total = written.len() + untouched.len();
                match written.len() {
                    0 => format!(
                        "{who} stopped before writing any of its {total} note{}; the commit was \
                         never made. {next} just clears its journal: nothing needs putting back.",
                        plural(total)
                    ),
                    n => format!(
                        "{who} stopped after writing {n} of {total} note{} ({}); the commit was \
                         never made. {next} puts {} back as {} before it, then you can apply again.",
                        plural(total),
                        list(written),
                        if n == 1 { "that note" } else { "those notes" },
                        if n == 1 { "it was" } else { "they were" }
                    ),
                }
            }
            Stage::Uncommitted { written, untouched, foreign } => format!(
                "{who} stopped after writing {} of {} notes, and {} now hold{} content dreamreview \
                 did not write (edited since?); the commit was never made. {next} refuses to \
                 touch them: check them with `git status` and `git diff`, then delete {journal}.",
                written.len(),
                written.len() + untouched.len() + foreign.len(),
                list(foreign),
                if foreign.len() == 1 { "s" } else { "" }
            ),
            Stage::Committed { commit } => format!(
                "{who} stopped after making its commit {commit} but before updating the index (and, \
                 for a review, attaching its evidence note), so `git status` may show its notes as \
                 changed. {next} updates the index and adds a missing evidence note."
            ),
            Stage::HeadMoved { journaled, head } => format!(
                "{who} stopped before its commit, and HEAD has moved since ({} → {}) by something \
                 else. {next} refuses: check the memory folder with `git status`, then delete \
                 {journal}.",
                journaled.as_deref().map(super::short_id).unwrap_or_else(|| "no commit".into()),
                head.as_deref().map(super::short_id).unwrap_or_else(|| "no commit".into())
            ),
            Stage::Unreadable { reason } => format!(
                "{journal} is not a journal dreamreview can read ({reason}). {next} refuses: check \
                 the memory folder with `git status`, then delete it."
            ),
        }
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// Up to ten paths, comma-separated, then how many more.
fn list(paths: &[String]) -> String {
    const SHOWN: usize = 10;
    let mut s = paths.iter().take(SHOWN).cloned().collect::<Vec<_>>().join(", ");
    if paths.len() > SHOWN {
        s.push_str(&format!(" and {} more", paths.len() - SHOWN));
    }
    s
}

/// A journal on disk: readable, or why not.
enum Found {
    Readable(Journal),
    Unreadable(String),
}

fn read(repo: &MemoryRepo) -> Result<Option<Found>> {
    let path = journal_path(repo);
    let text = match std::fs::read(&path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(anyhow!(e).context(format!("cannot read {}", path.display()))),
    };
    Ok(Some(match serde_json::from_slice(&text) {
        Ok(j) => Found::Readable(j),
        Err(e) => Found::Unreadable(e.to_string()),
    }))
}

/// What a crashed write left, without changing anything (for `check`); `None` when no
/// write was interrupted. [`recover`] acts on the same reading.
pub fn pending(repo: &MemoryRepo) -> Result<Option<Interrupted>> {
    let journal = journal_path(repo);
    Ok(match read(repo)? {
        None => None,
        Some(Found::Unreadable(reason)) => {
            Some(Interrupted { journal, writer: None, stage: Stage::Unreadable { reason } })
        }
        Some(Found::Readable(j)) => {
            let writer = Writer { action: j.action.clone(), pid: j.pid, started: j.started };
            Some(Interrupted { journal, writer: Some(writer), stage: stage(repo, &j)? })
        }
    })
}

/// How far the journaled write got.
fn stage(repo: &MemoryRepo, j: &Journal) -> Result<Stage> {
    let head = repo.head_commit()?;
    let head_id = head.as_ref().map(|c| c.id().to_string());
    if head_id == j.head {
        let (mut written, mut untouched, mut foreign) = (Vec::new(), Vec::new(), Vec::new());
        for f in &j.files {
            let to = match note_state(repo, f)? {
                NoteState::Untouched => &mut untouched,
                NoteState::Written => &mut written,
                NoteState::Foreign => &mut foreign,
            };
            to.push(f.path.clone());
        }
        return Ok(Stage::Uncommitted { written, untouched, foreign });
    }
    let committed = head
        .as_ref()
        .is_some_and(|c| c.tree_id().to_string() == j.tree && c.parent_id(0).ok().map(|p| p.to_string()) == j.head);
    Ok(if committed {
        Stage::Committed { commit: head_id.as_deref().map(super::short_id).unwrap_or_default() }
    } else {
        Stage::HeadMoved { journaled: j.head.clone(), head: head_id }
    })
}

/// Whether the note on disk is the journaled old content, the new, or neither. A symlink
/// is never written, so a note that was one and now holds the new content is foreign.
fn note_state(repo: &MemoryRepo, f: &JournalFile) -> Result<NoteState> {
    let old = load_blob(repo, &f.old)?;
    let new = load_blob(repo, &f.new)?;
    let disk = write::read_entry(&repo.memory, &f.path)?;
    Ok(if disk == old {
        NoteState::Untouched
    } else if disk == new && !matches!(old, Some(Entry::Symlink(_))) {
        NoteState::Written
    } else {
        NoteState::Foreign
    })
}

/// Finishes or undoes a write a crashed process left behind (see the module docs).
/// Returns one sentence saying what was done, or `None` when there was nothing to do.
/// Call it under the repository lock, before loading a review.
pub fn recover(repo: &MemoryRepo) -> Result<Option<String>> {
    let path = journal_path(repo);
    let j = match read(repo)? {
        None => return Ok(None),
        Some(Found::Readable(j)) => j,
        Some(Found::Unreadable(e)) => bail!(
            "{} is not a journal dreamreview can read ({e}); check the memory folder with \
             `git status`, then delete it",
            path.display()
        ),
    };
    let who = format!("an interrupted {} (pid {}, started {})", j.action, j.pid, super::lock::format_time(j.started));
    match stage(repo, &j)? {
        Stage::Uncommitted { foreign, .. } if !foreign.is_empty() => bail!(
            "{who} left {} holding content dreamreview did not write (edited since?); \
             nothing was changed. Check them with `git status` and `git diff`, then delete {}",
            foreign.join(", "),
            path.display()
        ),
        Stage::Uncommitted { written, .. } => roll_back(repo, &j, &written, &who).map(Some),
        Stage::Committed { commit } => complete_index(repo, &j, &commit, &who).map(Some),
        Stage::HeadMoved { journaled, head } => bail!(
            "{} records {who}, but HEAD moved since ({} → {}) by something else; check the \
             memory folder with `git status`, then delete the journal",
            path.display(),
            journaled.as_deref().unwrap_or("no commit"),
            head.as_deref().unwrap_or("no commit")
        ),
        Stage::Unreadable { reason } => bail!("{}: {reason}", path.display()),
    }
}

/// The commit was never made: puts every written note back to its old content.
fn roll_back(repo: &MemoryRepo, j: &Journal, written: &[String], who: &str) -> Result<String> {
    for f in j.files.iter().filter(|f| written.contains(&f.path)) {
        let (old, new) = (load_blob(repo, &f.old)?, load_blob(repo, &f.new)?);
        let (old, new) = (old.as_ref().and_then(Entry::bytes), new.as_ref().and_then(Entry::bytes));
        write::put(&repo.memory, &f.path, new, old, &[]).with_context(|| format!("while rolling back {who}"))?;
    }
    finish_up(repo, j)?;
    let n = written.len();
    Ok(format!(
        "rolled back {who}: the commit was never made, so {n} note{} put back as {} before it",
        if n == 1 { " was" } else { "s were" },
        if n == 1 { "it was" } else { "they were" }
    ))
}

/// The commit was made: only the index is left to update.
fn complete_index(repo: &MemoryRepo, j: &Journal, commit: &str, who: &str) -> Result<String> {
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
    let noted = add_missing_note(repo, j)?;
    finish_up(repo, j)?;
    let noted = if noted { " and its evidence note added" } else { "" };
    Ok(format!("completed {who}: its commit {commit} was made; the index is now updated{noted}"))
}

/// Attaches the journaled evidence note to the interrupted commit when it has none yet;
/// true when it did.
/// The journaled commit is `HEAD` (that is how the interruption was recognised).
fn add_missing_note(repo: &MemoryRepo, j: &Journal) -> Result<bool> {
    let Some(text) = &j.note else { return Ok(false) };
    let Some(head) = repo.head_commit()? else { return Ok(false) };
    let id = head.id();
    if super::notes::read_text(repo, id)?.is_some() {
        return Ok(false);
    }
    super::notes::write(repo, id, text)?;
    Ok(true)
}

/// Removes the temp files the interrupted write may have left, then the journal.
fn finish_up(repo: &MemoryRepo, j: &Journal) -> Result<()> {
    let paths: Vec<String> = j.files.iter().map(|f| f.path.clone()).collect();
    write::clean_temp_files(&repo.memory, &paths);
    finish(repo)
}

#[cfg(test)]
mod tests {
    use super::super::commit::{Change, commit_changes};
    use super::*;
    use git2::Repository;
    use std::path::Path;

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
            note: None,
        }
    }

    fn head(m: &MemoryRepo) -> git2::Commit<'_> {
        m.head_commit().unwrap().unwrap()
    }

    #[test]
    fn an_unreadable_journal_is_described_not_trusted() {
        let (_t, m) = setup();
        write::write_state_file(&journal_path(&m), b"{not json").unwrap();
        let found = pending(&m).unwrap().unwrap();
        assert!(matches!(found.stage, Stage::Unreadable { .. }) && found.writer.is_none());
        assert!(found.describe().contains("is not a journal dreamreview can read"), "{}", found.describe());
        assert!(recover(&m).is_err());
    }

    #[test]
    fn no_journal_is_nothing_to_do() {
        let (_t, m) = setup();
        assert_eq!(recover(&m).unwrap(), None);
        assert_eq!(pending(&m).unwrap(), None);
    }

    #[test]
    fn an_uncommitted_write_is_rolled_back() {
        let (t, m) = setup();
        let h = head(&m);
        let j = journal(&m, Some(h.id().to_string()), h.tree_id().to_string());
        begin(&m, &j).unwrap();
        assert!(pending(&m).unwrap().is_some());
        assert!(begin(&m, &j).is_err(), "one journal at a time");
        std::fs::write(t.path().join("a.md"), "v2\n").unwrap();
        std::fs::write(t.path().join(".a.md.dreamreview-1-0.tmp"), "v2").unwrap();
        let found = pending(&m).unwrap().unwrap();
        let want = Stage::Uncommitted { written: vec!["a.md".into()], untouched: vec![], foreign: vec![] };
        assert_eq!(found.stage, want);
        let said = found.describe();
        assert!(said.starts_with("a dream review (pid 1, started 1970-01-01 00:00:00 UTC) stopped after writing 1 of 1 note (a.md); the commit was never made."), "{said}");
        assert!(said.contains("puts that note back as it was before it"), "{said}");
        assert_eq!(std::fs::read_to_string(t.path().join("a.md")).unwrap(), "v2\n", "pending changes nothing");
        let msg = recover(&m).unwrap().unwrap();
        assert!(msg.starts_with("rolled back an interrupted dream review (pid 1, started 1970-01-01"), "{msg}");
        assert!(msg.ends_with("so 1 note was put back as it was before it"), "{msg}");
        assert_eq!(std::fs::read_to_string(t.path().join("a.md")).unwrap(), "v1\n");
        assert!(!t.path().join(".a.md.dreamreview-1-0.tmp").exists());
        assert_eq!(pending(&m).unwrap(), None);
    }

    #[test]
    fn foreign_content_is_never_overwritten() {
        let (t, m) = setup();
        let h = head(&m);
        begin(&m, &journal(&m, Some(h.id().to_string()), h.tree_id().to_string())).unwrap();
        std::fs::write(t.path().join("a.md"), "someone else\n").unwrap();
        let said = pending(&m).unwrap().unwrap().describe();
        assert!(
            said.contains("a.md now holds content dreamreview did not write") && said.contains("refuses"),
            "{said}"
        );
        let e = format!("{:#}", recover(&m).unwrap_err());
        assert!(e.contains("a.md") && e.contains("nothing was changed"), "{e}");
        assert_eq!(std::fs::read_to_string(t.path().join("a.md")).unwrap(), "someone else\n");
        assert!(pending(&m).unwrap().is_some());
    }

    #[test]
    fn a_made_commit_gets_its_index_updated() {
        let (t, m) = setup();
        let before = head(&m).id();
        let c = Change { path: "a.md".into(), disk: Some(file("v1\n")), new: Some(file("v2\n")) };
        commit_changes(&m, "dream review", "msg\n", &[c], &[], None).unwrap();
        assert_eq!(pending(&m).unwrap(), None);
        // Simulate a crash after the commit: journal still there, index still old.
        let after = head(&m);
        assert_eq!(after.parent_id(0).unwrap(), before);
        begin(&m, &journal(&m, Some(before.to_string()), after.tree_id().to_string())).unwrap();
        let mut index = m.repo.index().unwrap();
        let mut e = index.get_path(Path::new("a.md"), 0).unwrap();
        e.id = m.repo.blob(b"v1\n").unwrap();
        index.add(&e).unwrap();
        index.write().unwrap();
        let found = pending(&m).unwrap().unwrap();
        assert_eq!(found.stage, Stage::Committed { commit: crate::repo::short_id(after.id()) });
        assert!(found.describe().contains("updates the index"), "{}", found.describe());
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
        assert!(matches!(pending(&m).unwrap().unwrap().stage, Stage::HeadMoved { .. }));
        let e = format!("{:#}", recover(&m).unwrap_err());
        assert!(e.contains("HEAD moved since"), "{e}");
        assert!(pending(&m).unwrap().is_some());
    }
}
