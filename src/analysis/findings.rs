//! What the analyses found, attached where the reviewer sees it: flags per file and per
//! hunk, and which CHANGES.md entries explain each hunk. Provenance and hygiene checks fill
//! it once per dream; the audit of the result is recomputed as decisions change.

use crate::analysis::flag::Flag;
use crate::review::Review;
use serde::Serialize;

/// Flags and entry links for one review, indexed like `Review::files` and their hunks.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Findings {
    /// File-level flags (`outside-memory`, a deleted PERMANENT note…), `[file]`.
    pub file_flags: Vec<Vec<Flag>>,
    /// Hunk flags, `[file][hunk]`.
    pub hunk_flags: Vec<Vec<Vec<Flag>>>,
    /// 1-based CHANGES.md entry indexes explaining each hunk, `[file][hunk]`.
    pub hunk_changes: Vec<Vec<Vec<usize>>>,
    /// The claims found in each hunk's added lines and where each is sourced, `[file][hunk]`.
    pub hunk_claims: Vec<Vec<Vec<ClaimReport>>>,
}

/// Where a claim of an added line was found.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ClaimStatus {
    /// In a line the hunk's CHANGES.md entries cite (or the date of its timestamp).
    Sourced,
    /// Not in a cited line, but in some other source line (`source` says where).
    Weak,
    /// Already in the live note: the dream kept it.
    Carried,
    /// Found nowhere: flagged.
    Unsourced,
}

/// One claim of a hunk and its provenance.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct ClaimReport {
    /// The claim as written in the note (secrets masked).
    pub text: String,
    /// What kind of claim (`date`, `number`, `code`, `name`…).
    pub kind: String,
    /// Sourced, weakly sourced, carried over or unsourced.
    pub status: ClaimStatus,
    /// The evidence, as `file:line`, when found.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
}

impl Findings {
    /// Empty findings shaped like `review` (every list present, nothing in it).
    pub fn empty(review: &Review) -> Findings {
        Findings {
            file_flags: vec![Vec::new(); review.files.len()],
            hunk_flags: per_hunk(review),
            hunk_changes: per_hunk(review),
            hunk_claims: per_hunk(review),
        }
    }

    /// Flags on a hunk (empty when out of range).
    pub fn hunk(&self, file: usize, hunk: usize) -> &[Flag] {
        self.hunk_flags.get(file).and_then(|f| f.get(hunk)).map(Vec::as_slice).unwrap_or_default()
    }

    /// Claims of a hunk (empty when out of range).
    pub fn claims(&self, file: usize, hunk: usize) -> &[ClaimReport] {
        self.hunk_claims.get(file).and_then(|f| f.get(hunk)).map(Vec::as_slice).unwrap_or_default()
    }

    /// Flags on a file itself (empty when out of range).
    pub fn file(&self, file: usize) -> &[Flag] {
        self.file_flags.get(file).map(Vec::as_slice).unwrap_or_default()
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
}

/// One empty list per hunk of every file.
fn per_hunk<T: Clone>(review: &Review) -> Vec<Vec<Vec<T>>> {
    review.files.iter().map(|f| vec![Vec::new(); f.hunks.len()]).collect()
}
