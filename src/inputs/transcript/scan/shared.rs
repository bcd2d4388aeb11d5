//! What the per-file scans of one run share and keep: the needles, the sizes, the
//! verifier and the index, and each rayon job's buffer and automaton.

use super::hits::VerifyLine;
use super::matcher::{Automaton, Needles};
use super::progress::ScanProgress;

/// What one rayon job keeps from file to file: the read buffer (one chunk plus the
/// partial line carried over; filled by reads only, never zeroed) and the automaton,
/// rebuilt smaller as needles are exhausted.
#[derive(Default)]
pub(super) struct Worker {
    pub(super) buf: Vec<u8>,
    pub(super) automaton: Option<Automaton>,
    /// Matches of exhausted needles in the last file (see `reader`).
    pub(super) wasted: u64,
}

/// Sizes used by the per-file scan (smaller in tests, to cross chunk boundaries).
#[derive(Clone, Copy)]
pub(super) struct ScanOpts {
    pub(super) chunk: usize,
    pub(super) max_line: usize,
    /// Hits per needle in one file; 0 = all.
    pub(super) limit: usize,
}

/// What every file of one scan shares.
pub(super) struct Shared<'a> {
    pub(super) needles: &'a Needles,
    pub(super) opts: ScanOpts,
    pub(super) progress: &'a ScanProgress,
    pub(super) verify: &'a VerifyLine<'a>,
    /// The index folder, when scans use one.
    pub(super) index: Option<&'a std::path::Path>,
    /// Every key of every needle, sorted: the keys an index is decoded with.
    pub(super) wanted: &'a [u32],
    /// What may be indexed inline (the rest is left for the background build).
    pub(super) budget: &'a super::super::index::Budget,
}
