//! Indexing too big for the run that meets it: how much a scan may index itself, the
//! transcripts it leaves for later, and the background run that indexes them.
//!
//! Building an index costs about twice what scanning the same bytes does, so a run that
//! waits for it is slower than one without the index. A scan therefore indexes inline
//! only a little ([`Budget`], [`INLINE_BYTES`](super::budget::INLINE_BYTES): not worth a
//! process); beyond that it reads what is not indexed as it would without an index (a new
//! or rewritten transcript whole, the appended end of a grown one, through the index of
//! the rest), and leaves those transcripts for the command line to hand to one
//! `dreamreview index` process at low priority ([`spawn`]). A first run over a large folder costs what a run without the
//! index does, a run after a night costs the index plus the night's bytes, and the next
//! one finds them indexed.
//! One background build runs at a time per cache ([`build_all`] holds a lock; a second
//! one exits at once); it writes each index the same way a scan does (write-then-rename),
//! so a scan running meanwhile reads a whole old or whole new index, never half of one.

use std::fs::File;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use rayon::prelude::*;

use super::budget::Budget;
use super::store::{refresh, root};
use crate::inputs::transcript::source::SourceKind;

/// A transcript larger than this is indexed alone by the background build.
const LARGE_BYTES: u64 = 8 << 20;

/// What a build did.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Built {
    /// Transcripts whose index is now current.
    pub files: usize,
    /// Bytes read to get there.
    pub bytes: u64,
    /// Another build held the cache: this one did nothing.
    pub busy: bool,
}

/// The lock file of background builds under `cache`.
fn lock_path(cache: &Path) -> PathBuf {
    root(cache).join(".build.lock")
}

/// Brings the indexes of the JSONL transcripts `paths` up to date, holding the cache's
/// build lock (when another build holds it, returns at once with `busy`). Transcripts
/// that cannot be read are skipped: the scan that needs them reports them.
pub fn build_all(cache: &Path, paths: &[PathBuf]) -> io::Result<Built> {
    let lock = lock_path(cache);
    if let Some(dir) = lock.parent() {
        std::fs::create_dir_all(dir)?;
    }
    let file = File::options().create(true).truncate(false).write(true).open(&lock)?;
    match file.try_lock() {
        Ok(()) => {}
        Err(std::fs::TryLockError::WouldBlock) => return Ok(Built { busy: true, ..Built::default() }),
        Err(std::fs::TryLockError::Error(e)) => return Err(e),
    }
    let bytes = AtomicU64::new(0);
    let budget = Budget::unlimited();
    let one = |path: &PathBuf| {
        let Ok(f) = File::open(path) else { return false };
        let Ok(meta) = f.metadata() else { return false };
        let add = |n: usize| {
            bytes.fetch_add(n as u64, Ordering::Relaxed);
        };
        refresh(cache, path, SourceKind::Jsonl, (&f, &meta), &add, &[], &budget).is_some()
    };
    // Large transcripts one at a time (a build holds about twice the file in memory), the
    // rest in parallel.
    let (large, small): (Vec<&PathBuf>, Vec<&PathBuf>) =
        paths.iter().partition(|p| std::fs::metadata(p).is_ok_and(|m| m.len() > LARGE_BYTES));
    let files = large.into_iter().filter(|p| one(p)).count() + small.par_iter().filter(|p| one(p)).count();
    drop(file);
    Ok(Built { files, bytes: bytes.into_inner(), busy: false })
}

/// Waits until no background build holds `cache` (for tests and benchmarks).
pub fn wait_for_builds(cache: &Path) -> io::Result<()> {
    let lock = lock_path(cache);
    match File::options().write(true).open(&lock) {
        Ok(f) => f.lock(),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(e),
    }
}

/// Starts `exe index --stdin --cache CACHE` on its own, not waited for, with `paths` on
/// its standard input (NUL-separated) and its output discarded.
pub fn spawn(exe: &Path, cache: &Path, paths: &[PathBuf]) -> io::Result<()> {
    let mut cmd = std::process::Command::new(exe);
    cmd.arg("index").arg("--stdin").arg("--cache").arg(cache);
    cmd.stdin(std::process::Stdio::piped()).stdout(std::process::Stdio::null()).stderr(std::process::Stdio::null());
    #[cfg(unix)]
    {
        // Its own process group: the terminal's Ctrl-C meant for the next command does
        // not reach it.
        use std::os::unix::process::CommandExt;
        cmd.process_group(0);
    }
    let mut child = cmd.spawn()?;
    if let Some(mut stdin) = child.stdin.take() {
        stdin.write_all(&paths_bytes(paths))?;
    }
    Ok(())
}

/// `paths`, NUL-separated (what [`spawn`] writes and [`read_paths`] reads).
fn paths_bytes(paths: &[PathBuf]) -> Vec<u8> {
    let mut out = Vec::new();
    for p in paths {
        out.extend_from_slice(p.as_os_str().as_encoded_bytes());
        out.push(0);
    }
    out
}

/// Reads NUL-separated paths (what [`spawn`] writes).
pub fn read_paths(input: &[u8]) -> Vec<PathBuf> {
    input
        .split(|&b| b == 0)
        .filter(|p| !p.is_empty())
        .map(|p| {
            #[cfg(unix)]
            {
                use std::os::unix::ffi::OsStrExt;
                PathBuf::from(std::ffi::OsStr::from_bytes(p))
            }
            #[cfg(not(unix))]
            {
                PathBuf::from(String::from_utf8_lossy(p).into_owned())
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_survive_the_pipe() {
        let paths = vec![PathBuf::from("/a b/c.jsonl"), PathBuf::from("d\ne.jsonl")];
        assert_eq!(read_paths(&paths_bytes(&paths)), paths);
    }
}
