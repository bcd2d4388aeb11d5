//! The names of the temporary files dreamreview writes beside a note (`.dreamreview-<pid>-<n>.<ext>`).

use std::sync::atomic::{AtomicUsize, Ordering};

static TEMP_SEQ: AtomicUsize = AtomicUsize::new(0);

/// A fresh hidden name in a note's folder, `.dreamreview-<pid>-<n>.<ext>`: short whatever
/// the note is called, unique in this process, recognisable by [`clean_temp_files`].
pub(super) fn temp_name(ext: &str) -> String {
    format!(".dreamreview-{}-{}.{ext}", std::process::id(), TEMP_SEQ.fetch_add(1, Ordering::Relaxed))
}
