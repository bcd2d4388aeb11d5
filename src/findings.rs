//! What the analyses found, attached where the reviewer sees it: flags per file and per
//! hunk, and which CHANGES.md entries explain each hunk. Provenance and hygiene checks fill
//! it once per dream; the audit of the result is recomputed as decisions change.

use crate::flag::{Flag, Severity};
use crate::review::Review;

/// Flags and entry links for one review, indexed like `Review::files` and their hunks.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Findings {
    /// File-level flags (`outside-memory`, a deleted PERMANENT note…), `[file]`.
    pub file_flags: Vec<Vec<Flag>>,
    /// Hunk flags, `[file][hunk]`.
    pub hunk_flags: Vec<Vec<Vec<Flag>>>,
    /// 1-based CHANGES.md entry indexes explaining each hunk, `[file][hunk]`.
    pub hunk_changes: Vec<Vec<Vec<usize>>>,
}

impl Findings {
    /// Empty findings shaped like `review` (every list present, nothing in it).
    pub fn empty(review: &Review) -> Findings {
        Findings {
            file_flags: vec![Vec::new(); review.files.len()],
            hunk_flags: review
                .files
                .iter()
                .map(|f| vec![Vec::new(); f.hunks.len()])
                .collect(),
            hunk_changes: review
                .files
                .iter()
                .map(|f| vec![Vec::new(); f.hunks.len()])
                .collect(),
        }
    }

    /// Flags on a hunk (empty when out of range).
    pub fn hunk(&self, file: usize, hunk: usize) -> &[Flag] {
        self.hunk_flags
            .get(file)
            .and_then(|f| f.get(hunk))
            .map(Vec::as_slice)
            .unwrap_or_default()
    }

    /// Flags on a file itself (empty when out of range).
    pub fn file(&self, file: usize) -> &[Flag] {
        self.file_flags
            .get(file)
            .map(Vec::as_slice)
            .unwrap_or_default()
    }

    /// Adds a flag to a hunk, ignoring exact duplicates.
    pub fn add_hunk_flag(&mut self, file: usize, hunk: usize, flag: Flag) {
        if let Some(v) = self.hunk_flags.get_mut(file).and_then(|f| f.get_mut(hunk))
            && !v.contains(&flag)
        {
            v.push(flag);
        }
    }

    /// Adds a flag to a file, ignoring exact duplicates.
    pub fn add_file_flag(&mut self, file: usize, flag: Flag) {
        if let Some(v) = self.file_flags.get_mut(file)
            && !v.contains(&flag)
        {
            v.push(flag);
        }
    }

    /// True when the hunk or its file carries a flag of this severity.
    pub fn has(&self, file: usize, hunk: usize, severity: Severity) -> bool {
        self.hunk(file, hunk)
            .iter()
            .chain(self.file(file))
            .any(|f| f.severity == severity)
    }
}
