//! Progress of a running scan, shared with the UI: bytes read, bytes in all, cancelled.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// Progress of a running scan, shared with the UI (all methods take `&self`).
#[derive(Debug, Default)]
pub struct ScanProgress {
    pub(super) done: AtomicU64,
    pub(super) total: AtomicU64,
    pub(super) cancelled: AtomicBool,
}

impl ScanProgress {
    /// A fresh counter.
    pub fn new() -> ScanProgress {
        ScanProgress::default()
    }

    /// Bytes read so far.
    pub fn bytes_done(&self) -> u64 {
        self.done.load(Ordering::Relaxed)
    }

    /// Bytes to read in all (known once the scan has started).
    pub fn bytes_total(&self) -> u64 {
        self.total.load(Ordering::Relaxed)
    }

    /// Asks the scan to stop early; it returns what it found so far.
    pub fn cancel(&self) {
        self.cancelled.store(true, Ordering::Relaxed);
    }

    /// Whether [`ScanProgress::cancel`] was called.
    pub fn is_cancelled(&self) -> bool {
        self.cancelled.load(Ordering::Relaxed)
    }

    pub(super) fn add(&self, n: usize) {
        self.done.fetch_add(n as u64, Ordering::Relaxed);
    }
}
