//! What this process's indexes did: counters of the scans, whether an index could not be
//! written, and the notes about indexes found corrupt or unwritable.

use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

/// Set when an index could not be written in this process: later scans do not build
/// indexes they cannot keep.
pub(super) static UNWRITABLE: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);
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
