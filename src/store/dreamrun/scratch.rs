//! The private scratch folder a dream runs in (mode 0700, in the temp folder): `memory/`
//! (a copy of the live notes), `transcripts/` (read-only copies of the sessions in the
//! window, sub-agents under `<session>/subagents/`), and the `CHANGES.md` the dreamer
//! writes. It is removed when the [`Scratch`] is dropped — the run's end, however it ends
//! (an error, a refusal, a signal the run turns into an orderly stop) — so transcripts
//! never outlive the run. Only SIGKILL of dreamreview itself could leave it behind; the
//! next `dream` removes such leftovers of processes that are gone ([`sweep_leftovers`]).
//!
//! [`fingerprint`] and [`outside_changes`] tell what the dreamer changed outside `memory/`
//! and `CHANGES.md`: the run refuses to keep a dream that did.

use anyhow::{Context, Result};
use std::collections::BTreeMap;
use std::io::Read;
use std::path::{Path, PathBuf};

/// The prefix of every scratch folder's name (then the owner's pid and a dash).
pub const PREFIX: &str = "dreamreview-dream-";

/// A scratch folder, removed on drop.
#[derive(Debug)]
pub struct Scratch {
    dir: Option<tempfile::TempDir>,
}

impl Scratch {
    /// Makes a fresh private folder in the temp folder.
    pub fn new() -> Result<Scratch> {
        let dir = tempfile::Builder::new()
            .prefix(&format!("{PREFIX}{}-", std::process::id()))
            .tempdir()
            .context("cannot make a scratch folder in the temp folder")?;
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o700))
                .with_context(|| format!("cannot make {} private", dir.path().display()))?;
        }
        Ok(Scratch { dir: Some(dir) })
    }

    /// The folder.
    pub fn path(&self) -> &Path {
        self.dir.as_ref().map_or(Path::new(""), |d| d.path())
    }

    /// `memory/`: the copy the dreamer edits.
    pub fn memory(&self) -> PathBuf {
        self.path().join("memory")
    }

    /// `transcripts/`: the sessions' copies.
    pub fn transcripts(&self) -> PathBuf {
        self.path().join("transcripts")
    }

    /// `CHANGES.md`: the dreamer's change log.
    pub fn changes(&self) -> PathBuf {
        self.path().join("CHANGES.md")
    }

    /// Removes the folder now; an error names what could not be removed.
    pub fn remove(mut self) -> Result<()> {
        let Some(dir) = self.dir.take() else { return Ok(()) };
        let path = dir.path().to_path_buf();
        make_writable(&path);
        dir.close().with_context(|| format!("cannot remove the scratch folder {}", path.display()))
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        if let Some(dir) = self.dir.take() {
            // Read-only copies (and folders a dreamer made read-only) would stop the removal.
            make_writable(dir.path());
            let path = dir.path().to_path_buf();
            if dir.close().is_err() {
                let _ = std::fs::remove_dir_all(&path);
            }
        }
    }
}

/// Gives the owner write access to every folder under `root` (best effort).
fn make_writable(root: &Path) {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let Ok(meta) = std::fs::symlink_metadata(root) else { return };
        if !meta.is_dir() {
            return;
        }
        let _ = std::fs::set_permissions(root, std::fs::Permissions::from_mode(0o700));
        if let Ok(entries) = std::fs::read_dir(root) {
            for e in entries.flatten() {
                make_writable(&e.path());
            }
        }
    }
    #[cfg(not(unix))]
    let _ = root;
}

/// Removes scratch folders left in the temp folder by dreamreview processes that no longer
/// run (killed with SIGKILL mid-run). Returns the folders removed.
pub fn sweep_leftovers() -> Vec<PathBuf> {
    let mut removed = Vec::new();
    let Ok(entries) = std::fs::read_dir(std::env::temp_dir()) else { return removed };
    for e in entries.flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        let Some(rest) = name.strip_prefix(PREFIX) else { continue };
        let Some(pid) = rest.split('-').next().and_then(|p| p.parse::<u32>().ok()) else { continue };
        if pid == std::process::id() || alive(pid) || !owned_by_me(&e.path()) {
            continue;
        }
        make_writable(&e.path());
        if std::fs::remove_dir_all(e.path()).is_ok() {
            removed.push(e.path());
        }
    }
    removed
}

/// True when a process with this id runs (or may: unknown counts as alive).
fn alive(pid: u32) -> bool {
    #[cfg(unix)]
    {
        let Ok(pid) = libc::pid_t::try_from(pid) else { return true };
        // SAFETY: kill with signal 0 only checks whether the process exists.
        let r = unsafe { libc::kill(pid, 0) };
        r == 0 || std::io::Error::last_os_error().raw_os_error() != Some(libc::ESRCH)
    }
    #[cfg(not(unix))]
    {
        let _ = pid;
        true
    }
}

fn owned_by_me(path: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        // SAFETY: getuid has no preconditions.
        let me = unsafe { libc::getuid() };
        std::fs::symlink_metadata(path).is_ok_and(|m| m.is_dir() && m.uid() == me)
    }
    #[cfg(not(unix))]
    {
        let _ = path;
        false
    }
}

/// What one entry of the scratch folder is, to tell whether it changed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Mark {
    /// A folder.
    Dir,
    /// A regular file: its length and XXH3 hash.
    File(u64, u64),
    /// A symbolic link and its target.
    Symlink(PathBuf),
    /// Anything else (fifo, socket, device).
    Other,
}

/// Every entry under a folder (hidden ones too), keyed by '/'-separated relative path.
pub type Fingerprint = BTreeMap<String, Mark>;

/// The fingerprint of everything under `root`.
pub fn fingerprint(root: &Path) -> Result<Fingerprint> {
    let mut out = Fingerprint::new();
    visit(root, "", &mut out)?;
    Ok(out)
}

fn visit(dir: &Path, rel: &str, out: &mut Fingerprint) -> Result<()> {
    let entries = std::fs::read_dir(dir).with_context(|| format!("cannot list {}", dir.display()))?;
    for e in entries {
        let e = e.with_context(|| format!("cannot list {}", dir.display()))?;
        let name = e.file_name().to_string_lossy().into_owned();
        let r = if rel.is_empty() { name } else { format!("{rel}/{name}") };
        let path = e.path();
        let meta = std::fs::symlink_metadata(&path).with_context(|| format!("cannot stat {}", path.display()))?;
        let mark = if meta.is_dir() {
            visit(&path, &r, out)?;
            Mark::Dir
        } else if meta.file_type().is_symlink() {
            Mark::Symlink(std::fs::read_link(&path).unwrap_or_default())
        } else if meta.is_file() {
            Mark::File(meta.len(), hash_file(&path)?)
        } else {
            Mark::Other
        };
        out.insert(r, mark);
    }
    Ok(())
}

fn hash_file(path: &Path) -> Result<u64> {
    // A transcript the run made read-only is still readable by its owner.
    let mut f = std::fs::File::open(path).with_context(|| format!("cannot read {}", path.display()))?;
    let mut h = xxhash_rust::xxh3::Xxh3::new();
    let mut buf = vec![0u8; 256 * 1024];
    loop {
        let n = f.read(&mut buf).with_context(|| format!("cannot read {}", path.display()))?;
        if n == 0 {
            break;
        }
        h.update(&buf[..n]);
    }
    Ok(h.digest())
}

/// True for what the dreamer may change: `memory/` and what is in it (folders and regular
/// files; checked separately), and `CHANGES.md`.
fn allowed(path: &str) -> bool {
    path == "memory" || path.starts_with("memory/") || path == "CHANGES.md"
}

/// The paths outside `memory/` and `CHANGES.md` that were added, removed or changed
/// between two fingerprints, sorted, each with what happened.
pub fn outside_changes(before: &Fingerprint, after: &Fingerprint) -> Vec<String> {
    let mut out = Vec::new();
    for (p, m) in before {
        if allowed(p) && !(p == "memory" && after.get(p) != Some(&Mark::Dir)) {
            continue;
        }
        match after.get(p) {
            None => out.push(format!("{p} (removed)")),
            Some(a) if a != m => out.push(format!("{p} (modified)")),
            Some(_) => {}
        }
    }
    for p in after.keys() {
        if !before.contains_key(p) && !allowed(p) {
            out.push(format!("{p} (added)"));
        }
    }
    out.sort();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_changes_outside_memory_and_changes_md_count() {
        let mut before = Fingerprint::new();
        before.insert("memory".into(), Mark::Dir);
        before.insert("memory/a.md".into(), Mark::File(1, 1));
        before.insert("transcripts".into(), Mark::Dir);
        before.insert("transcripts/s.jsonl".into(), Mark::File(5, 9));
        let mut after = before.clone();
        after.insert("memory/a.md".into(), Mark::File(2, 2));
        after.insert("memory/b.md".into(), Mark::File(2, 3));
        after.insert("CHANGES.md".into(), Mark::File(2, 3));
        assert!(outside_changes(&before, &after).is_empty());
        after.insert("transcripts/s.jsonl".into(), Mark::File(5, 10));
        after.insert("notes.txt".into(), Mark::File(1, 1));
        assert_eq!(outside_changes(&before, &after), ["notes.txt (added)", "transcripts/s.jsonl (modified)"]);
        after.insert("memory".into(), Mark::Symlink("/etc".into()));
        assert!(outside_changes(&before, &after).contains(&"memory (modified)".to_string()));
    }

    #[test]
    fn the_folder_goes_on_drop_even_read_only() {
        let s = Scratch::new().unwrap();
        let p = s.path().to_path_buf();
        let sub = p.join("transcripts");
        std::fs::create_dir(&sub).unwrap();
        std::fs::write(sub.join("a.jsonl"), "x").unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&sub, std::fs::Permissions::from_mode(0o500)).unwrap();
            assert_eq!(std::fs::metadata(&p).unwrap().permissions().mode() & 0o777, 0o700);
        }
        drop(s);
        assert!(!p.exists());
    }
}
