//! Committing memory paths, and only them: the commit's tree is `HEAD`'s tree with the
//! changed memory paths replaced (never the index, so other staged changes in a parent
//! repository stay staged and out of the commit); then the index entries of exactly those
//! paths are updated so `git status` is clean for them. Notes are written through the
//! journal ([`super::journal`]) so a crash never leaves a half-done commit behind.

use super::journal::{self, Journal, JournalFile};
use super::replaced::{self, Stray};
use super::tree::{TreeValue, build_tree};
use super::{MemoryRepo, filtered, land, preflight, write};
use crate::inputs::snapshot::{Entry, Snapshot};
use anyhow::{Context, Result, anyhow, bail};
use git2::{ObjectType, Oid, Tree};
use std::path::{Path, PathBuf};

/// One memory path a commit changes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Change {
    /// Memory-relative path ('/'-separated).
    pub path: String,
    /// What the disk holds now (checked again right before writing).
    pub disk: Option<Entry>,
    /// What the path holds after the commit, on disk and in the tree (`None`: removed).
    pub new: Option<Entry>,
}

impl Change {
    /// True when the disk must be written (the content changes).
    pub fn writes(&self) -> bool {
        self.disk != self.new
    }
}

const MODE_FILE: i32 = 0o100644;
const MODE_EXEC: i32 = 0o100755;
const MODE_LINK: i32 = 0o120000;

/// What [`commit_changes`] did.
#[derive(Clone, Debug)]
pub struct Committed {
    /// The new commit.
    pub id: Oid,
    /// Why its evidence note could not be written, and where it waits, if it could not.
    pub note_failed: Option<String>,
    /// Commits another program made meanwhile that this one was placed after.
    pub rebased_on: Vec<String>,
    /// Bytes another process wrote into a note's old file after it was replaced.
    pub strays: Vec<Stray>,
}

/// Writes the changed notes (atomically, journaled) and commits them on `HEAD` with
/// `message`. Before anything is written it checks that the disk still holds each
/// change's `disk` side (else: "changed since loaded", nothing written), that every
/// path may be written ([`super::paths::target`]), that no process holds a note to replace open
/// for writing and that the repository may take a commit ([`preflight::check`]). `action`
/// names the operation in recovery messages. The commit lands on `HEAD` as it is by then
/// ([`land`]: rebased on foreign commits that touched other paths, else nothing committed
/// and the notes put back). `note`, when given, is attached to the new commit as its
/// evidence note ([`super::git_notes`]); one that cannot be written is kept pending
/// ([`super::git_notes::keep_pending`]). An index that cannot be updated (a git lock in the
/// way) leaves the journal for the next run to finish, and fails naming the lock.
pub fn commit_changes(
    repo: &MemoryRepo,
    action: &str,
    message: &str,
    changes: &[Change],
    forbidden: &[PathBuf],
    note: Option<&str>,
) -> Result<Committed> {
    let mut moved = Vec::new();
    for c in changes {
        if write::read_entry(&repo.memory, &c.path)? != c.disk {
            moved.push(c.path.clone());
        }
        if c.writes() {
            if matches!(c.new, Some(Entry::Symlink(_))) {
                bail!("{}: dreamreview never writes symlinks", c.path);
            }
            super::paths::target(&repo.memory, &c.path, forbidden)
                .map_err(|e| anyhow!("refusing to write {}: {e}", c.path))?;
            super::paths::writable(&repo.memory, &c.path).map_err(|e| read_only(&e))?;
        }
    }
    if !moved.is_empty() {
        bail!(
            "live memory changed on disk since the review was loaded: {}; nothing was written. \
             Reload the review (saved decisions are restored) and commit again",
            moved.join(", ")
        );
    }
    before_writing(repo, changes)?;
    let head = repo.head_commit()?;
    let base_tree = match &head {
        Some(c) => Some(c.tree().context("cannot read HEAD's tree")?),
        None => None,
    };
    let mut tree_changes = Vec::new();
    let mut files = Vec::new();
    for c in changes {
        let rp = repo.repo_path(&c.path);
        let new = match &c.new {
            Some(e) => {
                let b = journal::store(repo, e)?;
                let oid = filtered::blob(repo, &rp, e)?;
                let mode = if b.link { MODE_LINK } else { existing_mode(base_tree.as_ref(), &rp).unwrap_or(MODE_FILE) };
                Some((b, oid, mode))
            }
            None => None,
        };
        let old = match &c.disk {
            Some(e) => Some(journal::store(repo, e)?),
            None => None,
        };
        tree_changes.push((rp, new.as_ref().map(|(_, o, m)| (*o, *m))));
        files.push(JournalFile { path: c.path.clone(), old, new: new.map(|(b, _, _)| b) });
    }
    let tree_id = build_tree(&repo.repo, base_tree.as_ref(), &tree_changes)?;
    let head_id = head.as_ref().map(|c| c.id());
    journal::begin(
        repo,
        &Journal {
            version: 1,
            action: action.to_string(),
            pid: std::process::id(),
            started: std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map(|d| d.as_secs())
                .unwrap_or(0),
            head: head_id.map(|h| h.to_string()),
            tree: tree_id.to_string(),
            files,
            note: note.map(str::to_string),
        },
    )?;
    let mut written = Vec::new();
    let landed = write_notes(repo, changes, forbidden, &mut written)
        .and_then(|()| verify_notes(repo, &written))
        .and_then(|()| land::land(repo, head_id, tree_id, &tree_changes, message));
    let landed = match landed {
        Ok(l) => l,
        Err(e) => return Err(roll_back(repo, &written, e)),
    };
    let note_failed = note.and_then(|text| keep_note(repo, landed.id, text));
    if let Err(e) = update_index_patiently(repo, &tree_changes) {
        return Err(e.context(format!(
            "the commit {} was made, but the git index could not be updated; the journal {} keeps \
             what is left, and the next dreamreview command that writes (or `dreamreview recover`) \
             finishes it",
            super::short_id(landed.id),
            journal::journal_path(repo).display()
        )));
    }
    journal::finish(repo)?;
    let kept: Vec<(&str, &replaced::Kept, Option<&[u8]>)> = written
        .iter()
        .filter_map(|w| {
            Some((w.change.path.as_str(), w.written.1.as_ref()?, w.change.disk.as_ref().and_then(Entry::bytes)))
        })
        .collect();
    let strays = replaced::settle_all(&kept);
    Ok(Committed { id: landed.id, note_failed, rebased_on: landed.rebased_on, strays })
}

/// What must hold before the first note of `changes` is written: the repository may take a
/// commit ([`preflight::check`]) and no note to replace is held open for writing
/// ([`replaced::open_writers`]). Nothing is written when it fails.
pub fn before_writing(repo: &MemoryRepo, changes: &[Change]) -> Result<()> {
    let paths: Vec<String> = changes.iter().map(|c| c.path.clone()).collect();
    preflight::check(repo, &paths)?;
    filtered::supported(repo, &paths)?;
    let writes: Vec<&str> = changes.iter().filter(|c| c.writes()).map(|c| c.path.as_str()).collect();
    replaced::open_writers(&repo.memory, &writes).map_err(|e| anyhow!("refusing to write: {e}; nothing was written"))
}

/// Attaches `text` to `commit` as its evidence note; when that fails, keeps it pending and
/// says why and where.
fn keep_note(repo: &MemoryRepo, commit: Oid, text: &str) -> Option<String> {
    let e = super::git_notes::write(repo, commit, text).err()?;
    let why = preflight::blocked_by(repo, &e);
    Some(match super::git_notes::keep_pending(repo, commit, text) {
        Ok(path) => format!(
            "{why}. It is kept in {} and written by the next dreamreview command that writes, or \
             `dreamreview recover`",
            path.display()
        ),
        Err(k) => format!("{why}; keeping it for later failed too ({k:#})"),
    })
}

/// How long an index update waits for a git lock on the index to go away.
const INDEX_PATIENCE: std::time::Duration = std::time::Duration::from_secs(2);

/// [`update_index`], retried for [`INDEX_PATIENCE`] while `index.lock` is there (a git
/// command running meanwhile), then failing with the lock named.
fn update_index_patiently(repo: &MemoryRepo, paths: &[(String, TreeValue)]) -> Result<()> {
    let start = std::time::Instant::now();
    loop {
        match update_index(repo, paths) {
            Ok(()) => return Ok(()),
            Err(e) => {
                let lock = repo.repo.path().join("index.lock");
                if !lock.exists() {
                    return Err(e);
                }
                if start.elapsed() > INDEX_PATIENCE {
                    return Err(anyhow!("{}", preflight::describe_lock(&lock)));
                }
                std::thread::sleep(std::time::Duration::from_millis(50));
            }
        }
    }
}

/// The error for a note or folder the user made read-only: nothing is written.
pub fn read_only(why: &str) -> anyhow::Error {
    anyhow!(
        "refusing to write: {why}; nothing was written. Make it writable (chmod u+w) or reject \
         its changes, then commit again"
    )
}

/// A note dreamreview wrote, and what it wrote there.
struct WrittenNote<'a> {
    change: &'a Change,
    written: write::Written,
}

/// Writes every change that writes, each only if the note still holds what the review was
/// computed from ([`write::put`]); stops at the first failure. `written` collects what was
/// written, for [`roll_back`].
fn write_notes<'a>(
    repo: &MemoryRepo,
    changes: &'a [Change],
    forbidden: &[PathBuf],
    written: &mut Vec<WrittenNote<'a>>,
) -> Result<()> {
    for change in changes.iter().filter(|c| c.writes()) {
        let expected = change.disk.as_ref().and_then(Entry::bytes);
        let new = change.new.as_ref().and_then(Entry::bytes);
        let w = write::put(&repo.memory, &change.path, expected, new, forbidden)?;
        written.push(WrittenNote { change, written: w });
    }
    Ok(())
}

/// Checks, right before the commit, that no note was edited since dreamreview wrote it.
fn verify_notes(repo: &MemoryRepo, written: &[WrittenNote<'_>]) -> Result<()> {
    for w in written {
        write::still_written(&repo.memory, &w.change.path, &w.written, w.change.new.as_ref().and_then(Entry::bytes))?;
    }
    Ok(())
}

/// A write failed part way (another program edited a note, a full disk, a folder that
/// refuses writes): puts back the notes already written, newest first, each only if it still
/// holds what dreamreview wrote (a note edited since is left as it is and named), so the
/// failed commit leaves no trace and loses no edit. If putting back fails, the journal stays
/// for the next run to finish the job.
fn roll_back(repo: &MemoryRepo, written: &[WrittenNote<'_>], e: anyhow::Error) -> anyhow::Error {
    let mut left = Vec::new();
    let mut strays = Vec::new();
    let mut undone = Vec::new();
    for w in written.iter().rev() {
        let (ours, old) = (w.change.new.as_ref().and_then(Entry::bytes), w.change.disk.as_ref().and_then(Entry::bytes));
        let rel = &w.change.path;
        match write::put(&repo.memory, rel, ours, old, &[]) {
            Ok(put) => undone.extend(put.1.map(|k| (rel.as_str(), k, ours))),
            Err(undo) if undo.is::<super::on_disk::ChangedOnDisk>() => {
                match put_back_under_edit(repo, rel, ours, old) {
                    Some(stray) => strays.extend(stray),
                    None => left.push(w.change.path.clone()),
                }
            }
            Err(undo) => {
                return e.context(format!(
                    "the write stopped part way and putting the notes back failed too ({undo:#}); \
                     the next dreamreview run rolls it back ({})",
                    journal::journal_path(repo).display()
                ));
            }
        }
    }
    // The files the writes replaced hold the old text, those the rollback replaced ours.
    let mut kept: Vec<(&str, &replaced::Kept, Option<&[u8]>)> = written
        .iter()
        .filter_map(|w| {
            Some((w.change.path.as_str(), w.written.1.as_ref()?, w.change.disk.as_ref().and_then(Entry::bytes)))
        })
        .collect();
    kept.extend(undone.iter().map(|(rel, k, ours)| (*rel, k, *ours)));
    strays.extend(replaced::settle_all(&kept));
    write::clean_temp_files(&repo.memory, &written.iter().map(|w| w.change.path.clone()).collect::<Vec<_>>());
    if let Err(j) = journal::finish(repo) {
        return e.context(format!("{j:#}"));
    }
    let put_back = written.len() - left.len();
    // A note put back under an edit made after the write counts as put back: its old text
    // is there again, with the edit after it.
    let restored = format!(
        "nothing was committed, and {put_back} note{} written before the failure {} put back as {}",
        if put_back == 1 { "" } else { "s" },
        if put_back == 1 { "was" } else { "were" },
        if put_back == 1 { "it was" } else { "they were" },
    );
    let kept = if left.is_empty() {
        String::new()
    } else {
        format!(
            "; {} changed after dreamreview wrote {} and {} left as {} now (the review's text \
             plus that change, uncommitted): check with `git diff`",
            left.join(", "),
            if left.len() == 1 { "it" } else { "them" },
            if left.len() == 1 { "is" } else { "are" },
            if left.len() == 1 { "it is" } else { "they are" },
        )
    };
    let kept = if strays.is_empty() {
        kept
    } else {
        format!("{kept}; {}", strays.iter().map(Stray::to_string).collect::<Vec<_>>().join("; "))
    };
    if e.is::<super::on_disk::ChangedOnDisk>() {
        e.context(format!(
            "{restored}{kept}; no edit was overwritten. Reload the review (saved decisions are \
             restored) and commit again"
        ))
    } else if e.is::<land::Refused>() {
        e.context(format!("{restored}{kept}; no edit was overwritten. Run this again once the cause below is gone"))
    } else {
        e.context(format!("{restored}{kept}; fix the cause below (free disk space, permissions) and commit again"))
    }
}

/// A note another program appended to after dreamreview wrote it (it holds what was
/// written, then more): puts the old text back with the appended bytes after it, so the
/// rollback keeps that edit, and returns what was written meanwhile into the file it
/// replaced, if anything. Any other edit is left alone (`None`).
pub(super) fn put_back_under_edit(
    repo: &MemoryRepo,
    rel: &str,
    ours: Option<&[u8]>,
    old: Option<&[u8]>,
) -> Option<Option<Stray>> {
    let Ok(Some(Entry::File(now))) = write::read_entry(&repo.memory, rel) else { return None };
    let merged = carry_append(old, ours, &now)?;
    write::put_settled(&repo.memory, rel, Some(&now), Some(&merged), &[]).ok()
}

/// `old` followed by what `now` has after `ours`, when `now` starts with `ours`.
fn carry_append(old: Option<&[u8]>, ours: Option<&[u8]>, now: &[u8]) -> Option<Vec<u8>> {
    let appended = now.strip_prefix(ours.unwrap_or_default())?;
    Some([old.unwrap_or_default(), appended].concat())
}

fn existing_mode(tree: Option<&Tree<'_>>, path: &str) -> Option<i32> {
    let e = tree?.get_path(Path::new(path)).ok()?;
    (e.filemode() == MODE_EXEC).then_some(MODE_EXEC)
}

/// Sets the index entries of exactly `paths` (repo-relative) to the committed blobs. The
/// entries carry no stat data (zero times and size): stat data read from the work tree
/// after the write could belong to an edit made since, and an entry pairing that stat with
/// the committed blob would make `git status` call an edited note clean. Without it git
/// rehashes the file once and refreshes the entry itself. Other entries are left as they
/// are.
pub fn update_index(repo: &MemoryRepo, paths: &[(String, TreeValue)]) -> Result<()> {
    let mut index = repo.repo.index().context("cannot open the git index")?;
    for (p, v) in paths {
        let path = Path::new(p);
        match v {
            Some((oid, mode)) => {
                let e = git2::IndexEntry {
                    ctime: git2::IndexTime::new(0, 0),
                    mtime: git2::IndexTime::new(0, 0),
                    dev: 0,
                    ino: 0,
                    mode: *mode as u32,
                    uid: 0,
                    gid: 0,
                    file_size: 0,
                    id: *oid,
                    flags: p.len().min(0xfff) as u16,
                    flags_extended: 0,
                    path: p.as_bytes().to_vec(),
                };
                index.add(&e).with_context(|| format!("cannot update the index for {p}"))?;
            }
            None => {
                if index.get_path(path, 0).is_some() {
                    index.remove_path(path).with_context(|| format!("cannot remove {p} from the index"))?;
                }
            }
        }
    }
    index.write().context("cannot write the git index")?;
    Ok(())
}

/// The memory paths whose work tree content differs from `HEAD` (what a snapshot commit
/// records), as changes that write nothing. Untracked paths git ignores, and paths inside
/// `exclude` (a dream folder kept inside the memory folder), are left out.
pub fn uncommitted(repo: &MemoryRepo, exclude: &[PathBuf]) -> Result<Vec<Change>> {
    let exclude: Vec<PathBuf> = exclude.iter().map(|p| p.canonicalize().unwrap_or_else(|_| p.clone())).collect();
    let head = match repo.head_commit()? {
        Some(c) => repo.tree_snapshot(&c.tree()?)?,
        None => Snapshot::new(),
    };
    let disk = crate::inputs::snapshot::read_folder(&repo.memory)?;
    let mut out = Vec::new();
    let keys: std::collections::BTreeSet<&String> = head.keys().chain(disk.keys()).collect();
    for k in keys {
        let (h, d) = (head.get(k), disk.get(k));
        if h == d || exclude.iter().any(|x| repo.memory.join(k).starts_with(x)) {
            continue;
        }
        if h.is_none() && repo.repo.is_path_ignored(Path::new(&repo.repo_path(k))).unwrap_or(false) {
            continue;
        }
        if same_once_filtered(repo, k, h, d) {
            continue;
        }
        out.push(Change { path: k.clone(), disk: d.cloned(), new: d.cloned() });
    }
    Ok(out)
}

/// True when the note on disk, through the repository's filters (`text`, `eol`,
/// `core.autocrlf`), is the blob `HEAD` has: `git status` calls it unchanged too.
fn same_once_filtered(repo: &MemoryRepo, rel: &str, head: Option<&Entry>, disk: Option<&Entry>) -> bool {
    let (Some(Entry::File(h)), Some(d @ Entry::File(_))) = (head, disk) else { return false };
    // Never through a filter driver libgit2 would skip: that blob would be the plain text.
    if filtered::supported(repo, &[rel.to_string()]).is_err() {
        return false;
    }
    let Ok(head_id) = Oid::hash_object(ObjectType::Blob, h) else { return false };
    filtered::blob(repo, &repo.repo_path(rel), d).is_ok_and(|id| id == head_id)
}

/// Commits the work tree's uncommitted memory paths (nothing is written; `exclude` as in
/// [`uncommitted`]) with `message`; `None` when there were none.
pub fn snapshot_commit(repo: &MemoryRepo, message: &str, exclude: &[PathBuf]) -> Result<Option<Oid>> {
    let changes = uncommitted(repo, exclude)?;
    if changes.is_empty() {
        return Ok(None);
    }
    commit_changes(repo, "snapshot commit", message, &changes, &[], None).map(|c| Some(c.id))
}

#[cfg(test)]
mod tests {
    use super::*;
    use git2::Repository;

    fn git_repo() -> (tempfile::TempDir, Repository) {
        let t = tempfile::tempdir().unwrap();
        let r = Repository::init(t.path()).unwrap();
        (t, r)
    }

    /// An edit that lands between a note's write and the index update must not be hidden:
    /// the index gets the committed blob without the edited file's stat data, so git
    /// rehashes the file and sees the edit.
    #[test]
    fn the_index_never_pairs_the_committed_blob_with_an_edited_files_stat() {
        let (t, r) = git_repo();
        std::fs::write(t.path().join("a.md"), "committed\n").unwrap();
        let mut index = r.index().unwrap();
        index.add_path(Path::new("a.md")).unwrap();
        index.write().unwrap();
        let committed = r.blob(b"committed\n").unwrap();
        // The session's edit is on disk when the index is updated.
        std::fs::write(t.path().join("a.md"), "committed\nsession edit\n").unwrap();
        let repo = MemoryRepo::discover(t.path()).unwrap().unwrap();
        update_index(&repo, &[("a.md".into(), Some((committed, MODE_FILE)))]).unwrap();
        let status = r.status_file(Path::new("a.md")).unwrap();
        assert!(status.contains(git2::Status::WT_MODIFIED), "the edit is hidden from git: {status:?}");
        assert_eq!(r.index().unwrap().get_path(Path::new("a.md"), 0).unwrap().id, committed);
    }

    #[test]
    fn an_append_after_the_write_is_carried_onto_the_old_text() {
        assert_eq!(carry_append(Some(b"old\n"), Some(b"new\n"), b"new\nsession\n").unwrap(), b"old\nsession\n");
        assert_eq!(carry_append(None, Some(b"new\n"), b"new\nsession\n").unwrap(), b"session\n");
        assert_eq!(carry_append(Some(b"old\n"), None, b"session\n").unwrap(), b"old\nsession\n");
        assert_eq!(carry_append(Some(b"old\n"), Some(b"new\n"), b"rewritten\n"), None);
    }

    #[test]
    fn build_tree_sets_and_removes_nested_paths() {
        let (_t, r) = git_repo();
        let a = r.blob(b"a").unwrap();
        let b = r.blob(b"b").unwrap();
        let t1 =
            build_tree(&r, None, &[("x/y/a.md".into(), Some((a, MODE_FILE))), ("top.md".into(), Some((b, MODE_FILE)))])
                .unwrap();
        let t1 = r.find_tree(t1).unwrap();
        assert_eq!(t1.get_path(Path::new("x/y/a.md")).unwrap().id(), a, "nested blob");
        let t2 = build_tree(&r, Some(&t1), &[("x/y/a.md".into(), None)]).unwrap();
        let t2 = r.find_tree(t2).unwrap();
        assert!(t2.get_path(Path::new("x")).is_err(), "empty folders vanish");
        assert_eq!(t2.get_path(Path::new("top.md")).unwrap().id(), b);
        let empty = build_tree(&r, Some(&t2), &[("top.md".into(), None)]).unwrap();
        assert_eq!(r.find_tree(empty).unwrap().len(), 0);
    }
}
