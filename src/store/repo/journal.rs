//! The write-ahead journal that makes a commit of notes crash safe: what it records, and
//! what a journal left behind says happened ([`pending`]); [`super::recover`] acts on it.
//!
//! Before the first note is written, `<gitdir>/dreamreview/journal.json` records `HEAD`,
//! the tree about to be committed and, for every path, the blob ids of its content before
//! and after (the blobs are stored in the repository first, so nothing depends on the
//! work tree). The journal is removed once the commit and the index are written. When a
//! process dies in between, the next writer finds the journal and ([`super::recover`]):
//! - if `HEAD` has not moved, the commit was never made: every note is put back to its
//!   old content (each one is old or new, since every write is an atomic rename), so the
//!   interrupted run left no trace and rerunning it completes the review;
//! - if `HEAD` is the journaled commit (its parent is the old `HEAD` and its tree the
//!   journaled tree), only the index was left behind: it is updated;
//! - if `HEAD` moved by something else and the journaled commit is not in its history,
//!   the commit was never made: the notes are put back as above;
//! - a note someone edited after it was written is never overwritten: an append is carried
//!   onto the old text, any other edit is left as it is and named.
//!
//! A commit rebased on a foreign commit ([`super::land`]) rewrites the journal's `HEAD` and
//! tree first ([`rebased`]), so the same recognition holds. Evidence notes that could not
//! be written are kept beside the journal until they are ([`super::git_notes::flush_pending`]).
//!
//! [`pending`] reads the same state without changing anything, so that `check` can say
//! what was left and what the next writer will do about it.

use super::MemoryRepo;
use super::write;
use crate::inputs::snapshot::Entry;
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

/// Records that the prepared commit is now built on `head` with `tree` (a foreign commit
/// moved `HEAD` and the commit is rebased on it, see [`super::land`]).
pub fn rebased(repo: &MemoryRepo, head: Oid, tree: Oid) -> Result<()> {
    let path = journal_path(repo);
    let Some(Found::Readable(mut j)) = read(repo)? else {
        bail!("{} is gone or unreadable in the middle of a commit", path.display());
    };
    j.head = Some(head.to_string());
    j.tree = tree.to_string();
    let text = serde_json::to_vec_pretty(&j).context("cannot encode the journal")?;
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

pub(super) fn load_blob(repo: &MemoryRepo, b: &Option<JournalBlob>) -> Result<Option<Entry>> {
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
pub(super) enum NoteState {
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
    /// old, `foreign` neither (edited since). The next writer puts `written` back, carries
    /// an append made to a `foreign` one onto its old text, and leaves any other edit as it
    /// is, naming it.
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
    /// `HEAD` moved since, by something else, and the commit is not in its history: the
    /// commit was never made. The next writer puts `written` back, as for `Uncommitted`.
    HeadMoved {
        /// `HEAD` when the write began (`None`: unborn).
        journaled: Option<String>,
        /// `HEAD` now.
        head: Option<String>,
        /// Notes already written.
        written: Vec<String>,
        /// Notes not written yet.
        untouched: Vec<String>,
        /// Notes holding content dreamreview did not write.
        foreign: Vec<String>,
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
                 did not write (edited since?); the commit was never made. {next} puts the notes \
                 it wrote back, keeps an append made since on top of the old text and leaves any \
                 other edit as it is (check {} with `git diff` then).",
                written.len(),
                written.len() + untouched.len() + foreign.len(),
                list(foreign),
                if foreign.len() == 1 { "s" } else { "" },
                if foreign.len() == 1 { "it" } else { "them" }
            ),
            Stage::Committed { commit } => format!(
                "{who} stopped after making its commit {commit} but before updating the index (and, \
                 for a review, attaching its evidence note), so `git status` may show its notes as \
                 changed. {next} updates the index and adds a missing evidence note."
            ),
            Stage::HeadMoved { journaled, head, written, .. } => format!(
                "{who} stopped before its commit, and HEAD has moved since ({} → {}) by something \
                 else; the commit was never made. {next} puts the {} note{} it wrote back as {} \
                 before it (the other commit stays).",
                journaled.as_deref().map(super::short_id).unwrap_or_else(|| "no commit".into()),
                head.as_deref().map(super::short_id).unwrap_or_else(|| "no commit".into()),
                written.len(),
                plural(written.len()),
                if written.len() == 1 { "it was" } else { "they were" }
            ),
            Stage::Unreadable { reason } => format!(
                "{journal} is not a journal dreamreview can read ({reason}). {next} refuses: check \
                 the memory folder with `git status`, then delete it."
            ),
        }
    }
}

pub(super) fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// Up to ten paths, comma-separated, then how many more.
pub(super) fn list(paths: &[String]) -> String {
    const SHOWN: usize = 10;
    let mut s = paths.iter().take(SHOWN).cloned().collect::<Vec<_>>().join(", ");
    if paths.len() > SHOWN {
        s.push_str(&format!(" and {} more", paths.len() - SHOWN));
    }
    s
}

/// A journal on disk: readable, or why not.
pub(super) enum Found {
    Readable(Journal),
    Unreadable(String),
}

pub(super) fn read(repo: &MemoryRepo) -> Result<Option<Found>> {
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
pub(super) fn stage(repo: &MemoryRepo, j: &Journal) -> Result<Stage> {
    let head = repo.head_commit()?;
    let head_id = head.as_ref().map(|c| c.id().to_string());
    if head_id != j.head
        && let Some(c) = journaled_commit(repo, j)?
    {
        return Ok(Stage::Committed { commit: super::short_id(c) });
    }
    let (mut written, mut untouched, mut foreign) = (Vec::new(), Vec::new(), Vec::new());
    for f in &j.files {
        let to = match note_state(repo, f)? {
            NoteState::Untouched => &mut untouched,
            NoteState::Written => &mut written,
            NoteState::Foreign => &mut foreign,
        };
        to.push(f.path.clone());
    }
    Ok(if head_id == j.head {
        Stage::Uncommitted { written, untouched, foreign }
    } else {
        Stage::HeadMoved { journaled: j.head.clone(), head: head_id, written, untouched, foreign }
    })
}

/// How far back from `HEAD` the journaled commit is looked for (others may have committed
/// on top of it before the next run).
pub(super) const LOOK_BACK: usize = 1000;

/// The journaled commit (parent the journaled `HEAD`, tree the journaled tree) when it is in
/// `HEAD`'s first-parent history.
pub(super) fn journaled_commit(repo: &MemoryRepo, j: &Journal) -> Result<Option<Oid>> {
    let mut cur = repo.head_commit()?;
    for _ in 0..LOOK_BACK {
        let Some(c) = cur else { return Ok(None) };
        let parent = c.parent_id(0).ok().map(|p| p.to_string());
        if c.tree_id().to_string() == j.tree && parent == j.head {
            return Ok(Some(c.id()));
        }
        cur = c.parent(0).ok();
    }
    Ok(None)
}

/// Whether the note on disk is the journaled old content, the new, or neither. A symlink
/// is never written, so a note that was one and now holds the new content is foreign.
pub(super) fn note_state(repo: &MemoryRepo, f: &JournalFile) -> Result<NoteState> {
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
