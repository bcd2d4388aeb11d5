//! How much a scan may index inline, and the transcripts it leaves for the background
//! build.

use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

/// What a scan may index inline.
pub const INLINE_BYTES: u64 = 1 << 20;

/// Bytes a scan may still index inline.
#[derive(Debug)]
pub struct Budget(AtomicU64);

impl Budget {
    /// The budget of a scan: [`INLINE_BYTES`] (`DREAMREVIEW_INDEX_INLINE_BYTES` overrides
    /// it, for tests and benchmarks).
    pub fn for_scan() -> Budget {
        let set = std::env::var("DREAMREVIEW_INDEX_INLINE_BYTES").ok().and_then(|v| v.parse().ok());
        Budget(AtomicU64::new(set.unwrap_or(INLINE_BYTES)))
    }

    /// No limit: the background build.
    pub fn unlimited() -> Budget {
        Budget(AtomicU64::new(u64::MAX))
    }

    /// Takes `n` bytes from the budget when it has them.
    pub(crate) fn take(&self, n: u64) -> bool {
        self.0.fetch_update(Ordering::Relaxed, Ordering::Relaxed, |left| left.checked_sub(n)).is_ok()
    }
}

/// A set: a long TUI session scans again after each commit, and each scan may leave the
/// same transcripts.
static DEFERRED: Mutex<std::collections::BTreeSet<PathBuf>> = Mutex::new(std::collections::BTreeSet::new());

/// Leaves `path` for the background build.
pub(crate) fn defer(path: &Path) {
    DEFERRED.lock().unwrap_or_else(|p| p.into_inner()).insert(path.to_path_buf());
}

/// The transcripts scans of this process left unindexed since the last call, sorted.
pub fn take_deferred() -> Vec<PathBuf> {
    std::mem::take(&mut *DEFERRED.lock().unwrap_or_else(|p| p.into_inner())).into_iter().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_budget_is_taken_whole_or_not_at_all() {
        let b = Budget(AtomicU64::new(10));
        assert!(b.take(4) && b.take(6));
        assert!(!b.take(1));
        assert!(Budget::unlimited().take(u64::MAX / 2));
    }
}
