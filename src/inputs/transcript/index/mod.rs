//! A persistent, incremental index of what transcripts say, so that a scan reads only the
//! blocks of lines that can hold its needles.
//!
//! One index file per JSONL transcript, under the user's cache directory
//! (`$XDG_CACHE_HOME/dreamreview/index-v2/`, else `~/.cache/dreamreview/index-v2/`; one
//! folder per transcript folder, one file per transcript, both named by a hash). A file's
//! lines are grouped into blocks of about [`BLOCK_BYTES`]; the index maps the hashed grams
//! of what each block says ([`grams`]) to the blocks. A scan asks, for each needle, for
//! the blocks holding all its keys and runs the ordinary scanner over just those byte
//! ranges (with their line numbers), so it finds exactly the hits a full scan finds; a
//! needle without keys (shorter than three letters) makes the file be scanned whole.
//!
//! Identity: dev, inode, size, mtime and hashes of the first KiB and of the KiB ending at
//! the indexed size. A file that grew with the same inode, head and old tail is indexed
//! from where the index stopped; any other change rebuilds it; the index of a deleted
//! transcript is removed when its folder is next scanned. A scan builds or extends
//! indexes itself only up to a small budget; the rest it reads as it would without an
//! index and leaves to a background build ([`background`]), so no run waits for indexing. Indexes are written to a
//! temporary file, synced, and renamed over the old one, so a reader sees a whole old or
//! whole new file; each ends with a checksum, and one that fails it (or has another
//! version) is rebuilt with a note ([`take_notes`]).
//!
//! No text is stored: only keys, each standing for ~64 three-byte grams, and line
//! numbers and offsets. Lines holding a detected credential are not indexed at all (their
//! block is marked to be always read).

pub mod background;
pub mod format;
pub mod grams;
mod store;

use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

pub use background::{Budget, build_all, read_paths, spawn, take_deferred, wait_for_builds};
pub use format::FileIndex;
pub(crate) use store::prune;
pub use store::{default_dir, index_file_of, refresh};

/// Transcripts larger than this are never indexed (always read whole): building an index
/// holds about 1.8 bytes per byte of the transcript (its keys per block, then sorted), so
/// this bounds what a build takes, and such files are rare.
pub const MAX_FILE_BYTES: u64 = 64 << 20;

/// [`MAX_FILE_BYTES`], unless `DREAMREVIEW_INDEX_MAX_FILE_BYTES` says otherwise (tests).
pub fn max_file_bytes() -> u64 {
    static SIZE: std::sync::OnceLock<u64> = std::sync::OnceLock::new();
    *SIZE.get_or_init(|| {
        std::env::var("DREAMREVIEW_INDEX_MAX_FILE_BYTES").ok().and_then(|v| v.parse().ok()).unwrap_or(MAX_FILE_BYTES)
    })
}

/// Target bytes of a block of lines (a block ends at the first line end past it).
pub const BLOCK_BYTES: u64 = 16 << 10;

/// [`BLOCK_BYTES`], unless `DREAMREVIEW_INDEX_BLOCK_BYTES` says otherwise (tests use 1:
/// a block per line, so that the index decides for each line whether it is read).
pub fn block_bytes() -> u64 {
    static SIZE: std::sync::OnceLock<u64> = std::sync::OnceLock::new();
    *SIZE.get_or_init(|| {
        std::env::var("DREAMREVIEW_INDEX_BLOCK_BYTES").ok().and_then(|v| v.parse().ok()).unwrap_or(BLOCK_BYTES)
    })
}

/// Set when an index could not be written in this process: later scans do not build
/// indexes they cannot keep.
static UNWRITABLE: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);
static NOTES: Mutex<Vec<String>> = Mutex::new(Vec::new());

/// Counters of the last scans (for benchmarks and tests).
pub static FALLBACK_FILES: AtomicU64 = AtomicU64::new(0);
/// Bytes read by scans through the index (candidate blocks and unindexed tails).
pub static READ_BYTES: AtomicU64 = AtomicU64::new(0);

/// Notes about indexes found corrupt or unwritable since the last call (for stderr).
pub fn take_notes() -> Vec<String> {
    std::mem::take(&mut *NOTES.lock().unwrap_or_else(|p| p.into_inner()))
}

pub(crate) fn note(message: String) {
    NOTES.lock().unwrap_or_else(|p| p.into_inner()).push(message);
}

pub(crate) fn count_read(n: u64) {
    READ_BYTES.fetch_add(n, Ordering::Relaxed);
}

/// The counters of this process's scans, one line (`DREAMREVIEW_INDEX_STATS=1` prints
/// it after `check`, for benchmarks).
pub fn stats() -> String {
    format!(
        "index: {} files scanned whole (a needle without keys), {} bytes indexed, {} bytes of candidate blocks read",
        FALLBACK_FILES.load(Ordering::Relaxed),
        INDEXED_BYTES.load(Ordering::Relaxed),
        READ_BYTES.load(Ordering::Relaxed)
    )
}

/// Bytes read to build or extend indexes.
pub static INDEXED_BYTES: AtomicU64 = AtomicU64::new(0);
