//! Writing notes safely: every target path is checked before anything is written (inside
//! the memory folder, no `..`, no hidden component, no symlink anywhere on the way, not in
//! the dream folder or a transcript folder), and every file is replaced atomically (temp
//! file in the same folder, fsync, rename, fsync of the folder).
//!
//! `DREAMREVIEW_FAIL_AFTER_WRITES=N` (test-only) aborts the process right after the N-th
//! file write or removal of the run, so tests can show that a crash between writes leaves
//! every note either old or new and that the next run recovers (see [`super::journal`]).

use super::on_disk::{ChangedOnDisk, FileStamp, Identity, holds, identity_now};
use super::paths::target;
use super::replaced::{self, keep_old};
use super::temp_name::temp_name;
use crate::inputs::snapshot::Entry;
use anyhow::{Context, Result, anyhow, bail};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

/// The test-only crash switch: abort after this many file writes/removals.
pub const FAIL_AFTER_WRITES_ENV: &str = "DREAMREVIEW_FAIL_AFTER_WRITES";

static WRITES: AtomicUsize = AtomicUsize::new(0);

/// Reads what is on disk at a note path right now (`None`: nothing there). Symlinks are
/// reported as [`Entry::Symlink`], never followed; a folder is an error.
pub fn read_entry(memory: &Path, rel: &str) -> Result<Option<Entry>> {
    // Reading is allowed for any name a snapshot can hold; only leaving the folder is not.
    let parts: Vec<&str> = rel.split('/').collect();
    if parts.iter().any(|p| p.is_empty() || *p == "." || *p == ".." || p.contains('\0')) {
        bail!("{rel} is not a note path inside {}", memory.display());
    }
    let mut path = memory.to_path_buf();
    for (i, part) in parts.iter().enumerate() {
        path.push(part);
        match std::fs::symlink_metadata(&path) {
            Ok(m) if m.file_type().is_symlink() => {
                let t = std::fs::read_link(&path).with_context(|| format!("cannot read symlink {}", path.display()))?;
                return Ok(Some(Entry::Symlink(t)));
            }
            Ok(m) if i + 1 < parts.len() && !m.is_dir() => return Ok(None),
            Ok(m) if i + 1 == parts.len() && m.is_dir() => {
                bail!("{} is a folder where a note was expected", path.display())
            }
            Ok(_) => {}
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(anyhow!(e).context(format!("cannot inspect {}", path.display()))),
        }
    }
    let bytes = std::fs::read(&path).with_context(|| format!("cannot read {}", path.display()))?;
    Ok(Some(Entry::File(bytes)))
}

/// What a guarded write left at its path: the identity of the file dreamreview wrote
/// (taken from the written file descriptor after the rename), or `Absent` after a removal;
/// and the file it replaced, kept under a second name ([`replaced::Kept`]) until
/// [`replaced::settle`] says
/// nobody wrote to it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Written(pub Identity, pub Option<replaced::Kept>);

/// Makes the file at `rel` hold exactly `new` (`None`: removes it), atomically, but only if
/// it still holds `expected` (`None`: nothing) at that moment: the content is compared
/// after the new file is ready, and the path's identity once more right before the rename,
/// so another program's edit is never replaced (it fails with [`ChangedOnDisk`] and nothing
/// is written). A note that did not exist is created with a hard link, which fails instead
/// of replacing a file created meanwhile. The path is checked with [`target`] first;
/// missing parent folders are created, folders left empty by a removal are removed.
pub fn put(
    memory: &Path,
    rel: &str,
    expected: Option<&[u8]>,
    new: Option<&[u8]>,
    forbidden: &[PathBuf],
) -> Result<Written> {
    let path =
        target(memory, rel, forbidden).map_err(|e| anyhow!("refusing to write {rel} in {}: {e}", memory.display()))?;
    let written = match new {
        Some(bytes) => write_file(memory, &path, rel, expected, bytes)?,
        None => remove_file(memory, &path, rel, expected)?,
    };
    crash_point();
    Ok(written)
}

/// [`put`], then at once [`replaced::settle`] of the file it replaced: for writes no commit
/// follows (putting notes back). Returns what another process wrote into the replaced
/// file, if anything.
pub fn put_settled(
    memory: &Path,
    rel: &str,
    expected: Option<&[u8]>,
    new: Option<&[u8]>,
    forbidden: &[PathBuf],
) -> Result<Option<replaced::Stray>> {
    let w = put(memory, rel, expected, new, forbidden)?;
    Ok(w.1.as_ref().and_then(|k| replaced::settle(rel, k, expected)))
}

/// Checks, after every note was written and before the commit is made, that `rel` still
/// holds what [`put`] wrote there: the same file (identity) with the same content. A note
/// edited in between fails with [`ChangedOnDisk`].
pub fn still_written(memory: &Path, rel: &str, written: &Written, new: Option<&[u8]>) -> Result<()> {
    let path = memory.join(rel);
    if holds(&path, rel, new)? != written.0 {
        return Err(anyhow::Error::new(ChangedOnDisk { path: rel.to_string() }));
    }
    Ok(())
}

fn write_file(memory: &Path, path: &Path, rel: &str, expected: Option<&[u8]>, bytes: &[u8]) -> Result<Written> {
    let parent = path.parent().ok_or_else(|| anyhow!("{} has no parent folder", path.display()))?;
    create_parents(memory, parent)?;
    let temp = TempFile::ready(path, bytes)?;
    let found = holds(path, rel, expected)?;
    let (kept, found) = keep_old(memory, path, rel, found)?;
    match temp.swap_in(path, rel, found) {
        Ok(id) => {
            sync_dir(parent);
            Ok(Written(id, kept))
        }
        Err(e) => {
            if let Some(k) = kept {
                let _ = std::fs::remove_file(&k.path);
            }
            Err(e)
        }
    }
}

/// A fully written and flushed temp file beside its target, removed unless swapped in.
struct TempFile {
    path: PathBuf,
    file: std::fs::File,
}

impl TempFile {
    /// Creates the temp file (new, never through an existing name) in `target`'s folder with
    /// the target's permissions, writes `bytes` and flushes them.
    fn ready(target: &Path, bytes: &[u8]) -> Result<TempFile> {
        let parent = target.parent().ok_or_else(|| anyhow!("{} has no parent folder", target.display()))?;
        // Not named after the note: a note's name may already take all 255 bytes a file
        // name may have.
        let path = parent.join(temp_name("tmp"));
        let old_perms = std::fs::metadata(target).ok().map(|m| m.permissions());
        let file = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&path)
            .with_context(|| format!("cannot create {}", path.display()))?;
        let mut temp = TempFile { path, file };
        temp.file.write_all(bytes).with_context(|| format!("cannot write {}", temp.path.display()))?;
        if let Some(p) = old_perms {
            temp.file
                .set_permissions(p)
                .with_context(|| format!("cannot set permissions of {}", temp.path.display()))?;
        }
        temp.file.sync_all().with_context(|| format!("cannot flush {}", temp.path.display()))?;
        Ok(temp)
    }

    /// Puts the temp file at `target` if `target` is still `found`: a rename over the file
    /// whose identity is checked right before it, or a hard link (which refuses an existing
    /// name) where there was none. Returns the identity of the placed file.
    fn swap_in(self, target: &Path, rel: &str, found: Identity) -> Result<Identity> {
        let changed = || anyhow::Error::new(ChangedOnDisk { path: rel.to_string() });
        match found {
            Identity::Absent => match std::fs::hard_link(&self.path, target) {
                // The temp name goes now, before the stamp is taken (an unlink moves ctime).
                Ok(()) => std::fs::remove_file(&self.path)
                    .with_context(|| format!("cannot remove {}", self.path.display()))?,
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => return Err(changed()),
                // No hard links here (some FUSE or FAT folders): a checked rename instead.
                Err(_) => self.rename_if(target, rel, found)?,
            },
            Identity::File(_) => self.rename_if(target, rel, found)?,
        }
        let stamp =
            FileStamp::of(&self.file.metadata().with_context(|| format!("cannot inspect {}", target.display()))?);
        Ok(Identity::File(stamp))
    }

    fn rename_if(&self, target: &Path, rel: &str, found: Identity) -> Result<()> {
        if identity_now(target)? != found {
            return Err(anyhow::Error::new(ChangedOnDisk { path: rel.to_string() }));
        }
        std::fs::rename(&self.path, target)
            .with_context(|| format!("cannot move {} into place at {}", self.path.display(), target.display()))
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        // Gone already after a rename or a link; on failure it must not stay.
        let _ = std::fs::remove_file(&self.path);
    }
}

/// Replaces `path` with `bytes` atomically and durably (temp file, fsync, rename, fsync of
/// the folder), whatever it held: for dreamreview's own state files, never for notes.
fn atomic_replace(path: &Path, bytes: &[u8]) -> Result<()> {
    let parent = path.parent().ok_or_else(|| anyhow!("{} has no parent folder", path.display()))?;
    let temp = TempFile::ready(path, bytes)?;
    std::fs::rename(&temp.path, path)
        .with_context(|| format!("cannot move {} into place at {}", temp.path.display(), path.display()))?;
    sync_dir(parent);
    Ok(())
}

/// Creates the folders from `memory` down to `dir`, refusing to pass through a symlink
/// (even one created concurrently).
fn create_parents(memory: &Path, dir: &Path) -> Result<()> {
    let rel = dir
        .strip_prefix(memory)
        .map_err(|_| anyhow!("{} is not inside the memory folder {}", dir.display(), memory.display()))?;
    let mut cur = memory.to_path_buf();
    for c in rel.components() {
        cur.push(c);
        match std::fs::create_dir(&cur) {
            Ok(()) => sync_dir(cur.parent().unwrap_or(memory)),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {}
            Err(e) => return Err(anyhow!(e).context(format!("cannot create {}", cur.display()))),
        }
        let m = std::fs::symlink_metadata(&cur).with_context(|| format!("cannot inspect {}", cur.display()))?;
        if m.file_type().is_symlink() || !m.is_dir() {
            bail!("{} is not a plain folder; refusing to write through it", cur.display());
        }
    }
    Ok(())
}

fn remove_file(memory: &Path, path: &Path, rel: &str, expected: Option<&[u8]>) -> Result<Written> {
    let found = holds(path, rel, expected)?;
    if found == Identity::Absent {
        return Ok(Written(Identity::Absent, None));
    }
    let (kept, found) = keep_old(memory, path, rel, found)?;
    let drop_kept = |e: anyhow::Error| {
        if let Some(k) = &kept {
            let _ = std::fs::remove_file(&k.path);
        }
        e
    };
    if identity_now(path)? != found {
        return Err(drop_kept(anyhow::Error::new(ChangedOnDisk { path: rel.to_string() })));
    }
    match std::fs::remove_file(path) {
        Ok(()) => {}
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Written(Identity::Absent, kept)),
        Err(e) => return Err(drop_kept(anyhow!(e).context(format!("cannot remove {}", path.display())))),
    }
    let mut dir = path.parent();
    if let Some(d) = dir {
        sync_dir(d);
    }
    // Folders the removal emptied go too (git does not keep empty folders either).
    while let Some(d) = dir {
        if d == memory || !d.starts_with(memory) || std::fs::remove_dir(d).is_err() {
            break;
        }
        dir = d.parent();
    }
    Ok(Written(Identity::Absent, kept))
}

/// Flushes a folder's entries (the rename) to disk; best effort where unsupported.
fn sync_dir(dir: &Path) {
    if let Ok(f) = std::fs::File::open(dir) {
        let _ = f.sync_all();
    }
}

/// Removes temp files a crashed write left in the folders of `rels` (names
/// `.dreamreview-<pid>-<n>.tmp`; older versions put the note's name first). Returns how many were removed.
pub fn clean_temp_files(memory: &Path, rels: &[String]) -> usize {
    let mut dirs: Vec<PathBuf> = rels.iter().filter_map(|r| memory.join(r).parent().map(Path::to_path_buf)).collect();
    dirs.sort();
    dirs.dedup();
    let mut n = 0;
    for d in dirs {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in entries.flatten() {
            let name = e.file_name();
            let name = name.to_string_lossy();
            if name.starts_with('.') && name.contains(".dreamreview-") && name.ends_with(".tmp") {
                let is_file = e.file_type().map(|t| t.is_file()).unwrap_or(false);
                if is_file && std::fs::remove_file(e.path()).is_ok() {
                    n += 1;
                }
            }
        }
    }
    n
}

/// Writes a small state file (journal, saved decisions, lock info) with [`atomic_replace`]
/// (so the journal is on disk before the first note is written). The folder is created
/// when missing.
pub fn write_state_file(path: &Path, bytes: &[u8]) -> Result<()> {
    let dir = path.parent().ok_or_else(|| anyhow!("{} has no parent folder", path.display()))?;
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    atomic_replace(path, bytes)
}

/// The test-only crash injection: counts file operations and aborts the process after the
/// number `DREAMREVIEW_FAIL_AFTER_WRITES` names.
pub(crate) fn crash_point() {
    let n = WRITES.fetch_add(1, Ordering::SeqCst) + 1;
    let limit = std::env::var(FAIL_AFTER_WRITES_ENV).ok().and_then(|v| v.trim().parse::<usize>().ok());
    if limit == Some(n) {
        eprintln!("dreamreview: {FAIL_AFTER_WRITES_ENV}={n} reached: aborting (test-only)");
        std::process::abort();
    }
}

#[cfg(test)]
mod tests {
    use super::super::paths::writable;
    use super::*;
    use proptest::prelude::*;

    fn mem() -> (tempfile::TempDir, PathBuf) {
        let t = tempfile::tempdir().unwrap();
        let m = t.path().join("memory");
        std::fs::create_dir(&m).unwrap();
        let m = m.canonicalize().unwrap();
        (t, m)
    }

    #[test]
    fn refuses_paths_that_leave_the_folder() {
        let (_t, m) = mem();
        for bad in [
            "",
            "/etc/passwd",
            "../x.md",
            "a/../../x.md",
            "./a.md",
            "a//b.md",
            ".git/config",
            "a/.hidden.md",
            "a\\b.md",
            "a/",
            "x\0.md",
        ] {
            assert!(target(&m, bad, &[]).is_err(), "{bad:?} must be refused");
        }
        assert_eq!(target(&m, "a/b.md", &[]).unwrap(), m.join("a/b.md"));
        assert_eq!(target(&m, "日本語.md", &[]).unwrap(), m.join("日本語.md"));
    }

    #[cfg(unix)]
    #[test]
    fn refuses_symlinks_anywhere_on_the_path() {
        let (t, m) = mem();
        let outside = t.path().join("outside");
        std::fs::create_dir(&outside).unwrap();
        std::os::unix::fs::symlink(&outside, m.join("link")).unwrap();
        std::os::unix::fs::symlink(outside.join("f.md"), m.join("f.md")).unwrap();
        let e = target(&m, "link/x.md", &[]).unwrap_err();
        assert!(e.contains("link is a symlink"), "{e}");
        assert!(target(&m, "f.md", &[]).unwrap_err().contains("symlink"));
        assert!(put(&m, "link/x.md", None, Some(b"x"), &[]).is_err());
        assert!(put(&m, "f.md", None, Some(b"x"), &[]).is_err());
        assert!(!outside.join("x.md").exists() && !outside.join("f.md").exists());
    }

    #[test]
    fn refuses_forbidden_folders() {
        let (_t, m) = mem();
        std::fs::create_dir(m.join("dream")).unwrap();
        let e = target(&m, "dream/a.md", &[m.join("dream")]).unwrap_err();
        assert!(e.contains("never modifies"), "{e}");
        assert!(target(&m, "dreamy.md", &[m.join("dream")]).is_ok());
    }

    #[test]
    fn put_writes_creates_and_removes() {
        let (_t, m) = mem();
        put(&m, "people/alice.md", None, Some("Alice\r\n日本".as_bytes()), &[]).unwrap();
        assert_eq!(std::fs::read(m.join("people/alice.md")).unwrap(), "Alice\r\n日本".as_bytes());
        // The replaced file is kept under a second name until settled.
        let w = put(&m, "people/alice.md", Some("Alice\r\n日本".as_bytes()), Some(b"v2"), &[]).unwrap();
        let kept = w.1.clone().unwrap();
        assert_eq!(std::fs::read(&kept.path).unwrap(), "Alice\r\n日本".as_bytes());
        assert_eq!(replaced::settle("people/alice.md", &kept, Some("Alice\r\n日本".as_bytes())), None);
        assert!(!kept.path.exists(), "settled: the second name is gone");
        assert_eq!(std::fs::read(m.join("people/alice.md")).unwrap(), b"v2");
        assert_eq!(read_entry(&m, "people/alice.md").unwrap(), Some(Entry::File(b"v2".to_vec())));
        assert_eq!(put_settled(&m, "people/alice.md", Some(b"v2"), None, &[]).unwrap(), None);
        assert!(!m.join("people").exists(), "emptied folder removed");
        assert!(m.exists());
        assert_eq!(read_entry(&m, "people/alice.md").unwrap(), None);
        // Removing a missing file is fine.
        put(&m, "gone.md", None, None, &[]).unwrap();
        let names: Vec<_> = std::fs::read_dir(&m).unwrap().collect();
        assert!(names.is_empty(), "no temp files left: {names:?}");
    }

    #[test]
    fn put_never_replaces_content_it_was_not_computed_from() {
        let (_t, m) = mem();
        std::fs::write(m.join("a.md"), "edited by a session\n").unwrap();
        let changed = |r: Result<Written>| r.unwrap_err().downcast::<ChangedOnDisk>().unwrap().path;
        assert_eq!(changed(put(&m, "a.md", Some(b"loaded\n"), Some(b"dream\n"), &[])), "a.md");
        assert_eq!(changed(put(&m, "a.md", None, Some(b"dream\n"), &[])), "a.md", "created meanwhile");
        assert_eq!(changed(put(&m, "a.md", Some(b"loaded\n"), None, &[])), "a.md", "removal");
        assert_eq!(changed(put(&m, "gone.md", Some(b"loaded\n"), Some(b"x"), &[])), "gone.md", "deleted meanwhile");
        assert_eq!(std::fs::read(m.join("a.md")).unwrap(), b"edited by a session\n");
        assert!(!m.join("gone.md").exists());
        let names: Vec<_> = std::fs::read_dir(&m).unwrap().map(|e| e.unwrap().file_name()).collect();
        assert_eq!(names.len(), 1, "no temp files left: {names:?}");
    }

    #[test]
    fn still_written_sees_an_edit_after_the_write() {
        let (_t, m) = mem();
        let w = put(&m, "a.md", None, Some(b"dream\n"), &[]).unwrap();
        still_written(&m, "a.md", &w, Some(b"dream\n")).unwrap();
        std::fs::OpenOptions::new().append(true).open(m.join("a.md")).unwrap().write_all(b"more\n").unwrap();
        assert!(still_written(&m, "a.md", &w, Some(b"dream\n")).unwrap_err().is::<ChangedOnDisk>());
        // Replaced by another file with the same bytes: another program wrote it.
        std::fs::remove_file(m.join("a.md")).unwrap();
        std::fs::write(m.join("b.md"), "dream\n").unwrap();
        std::fs::rename(m.join("b.md"), m.join("a.md")).unwrap();
        assert!(still_written(&m, "a.md", &w, Some(b"dream\n")).is_err());
    }

    #[cfg(unix)]
    #[test]
    fn put_keeps_permissions() {
        use std::os::unix::fs::PermissionsExt;
        let (_t, m) = mem();
        std::fs::write(m.join("a.md"), "x").unwrap();
        std::fs::set_permissions(m.join("a.md"), std::fs::Permissions::from_mode(0o600)).unwrap();
        put(&m, "a.md", Some(b"x"), Some(b"y"), &[]).unwrap();
        let mode = std::fs::metadata(m.join("a.md")).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600);
    }

    #[cfg(unix)]
    #[test]
    fn read_only_notes_and_folders_are_not_writable() {
        use std::os::unix::fs::PermissionsExt;
        let (_t, m) = mem();
        std::fs::create_dir(m.join("sub")).unwrap();
        std::fs::write(m.join("ro.md"), "x").unwrap();
        std::fs::write(m.join("rw.md"), "x").unwrap();
        std::fs::set_permissions(m.join("ro.md"), std::fs::Permissions::from_mode(0o444)).unwrap();
        assert_eq!(writable(&m, "ro.md"), Err("ro.md is read-only".to_string()));
        assert_eq!(writable(&m, "rw.md"), Ok(()));
        assert_eq!(writable(&m, "new/deeper/x.md"), Ok(()));
        std::fs::set_permissions(m.join("sub"), std::fs::Permissions::from_mode(0o555)).unwrap();
        let e = writable(&m, "sub/new/x.md").unwrap_err();
        assert!(e.starts_with("the folder ") && e.ends_with("/sub holding sub/new/x.md is read-only"), "{e}");
        std::fs::set_permissions(m.join("sub"), std::fs::Permissions::from_mode(0o755)).unwrap();
    }

    #[test]
    fn cleans_leftover_temp_files() {
        let (_t, m) = mem();
        std::fs::write(m.join(".a.md.dreamreview-1-0.tmp"), "x").unwrap();
        std::fs::write(m.join(".keep.md"), "x").unwrap();
        assert_eq!(clean_temp_files(&m, &["a.md".to_string()]), 1);
        assert!(m.join(".keep.md").exists());
    }

    proptest! {
        #[test]
        fn target_never_panics_and_stays_inside(rel in "\\PC{0,40}") {
            let (_t, m) = mem();
            if let Ok(p) = target(&m, &rel, &[]) {
                prop_assert!(p.starts_with(&m));
                prop_assert!(p != m);
                prop_assert!(!rel.split('/').any(|c| c == ".." || c.is_empty()));
            }
        }
    }
}
