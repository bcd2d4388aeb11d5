//! The evidence an opened commit of the history shows beside its hunks: the note its review
//! kept ([`super::git_notes`]) with each kept hunk matched to the commit's diff
//! ([`crate::store::evidence::matching`]), or why there is none.

use super::MemoryRepo;
use super::git_notes::{self, Stored};
use super::message;
use crate::model::diff::FileDiff;
use crate::store::evidence::Evidence;
use crate::store::evidence::matching::{HunkMatch, match_hunks};
use git2::Commit;

/// What a commit of the history has to show beside its hunks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CommitEvidence {
    /// The evidence its review kept, matched to its diff.
    Kept {
        /// The stored document.
        evidence: Box<Evidence>,
        /// Which kept hunks explain each hunk of the diff.
        matched: HunkMatch,
    },
    /// No note, and why there is none.
    NotKept(NotKept),
    /// A note this dreamreview cannot read (or git could not), and why.
    Unreadable(String),
}

/// Why a commit has no evidence.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NotKept {
    /// A review commit without a note: made before dreamreview kept evidence.
    BeforeEvidence,
    /// Not a review commit: a hand edit, a revert, a snapshot, another tool.
    OutsideReview,
}

impl NotKept {
    /// The sentence the history shows.
    pub fn describe(self) -> &'static str {
        match self {
            NotKept::BeforeEvidence => "No evidence kept: commit made before dreamreview kept evidence.",
            NotKept::OutsideReview => "No evidence kept: made outside a review.",
        }
    }
}

/// The evidence of `commit`, whose diff (parent → commit) is `files`.
pub fn of_commit(repo: &MemoryRepo, commit: &Commit<'_>, files: &[FileDiff]) -> CommitEvidence {
    match git_notes::read(repo, commit.id()) {
        Ok(Stored::Evidence(evidence)) => {
            let matched = match_hunks(files, &evidence);
            CommitEvidence::Kept { evidence, matched }
        }
        Ok(Stored::Missing) if is_review(commit) => CommitEvidence::NotKept(NotKept::BeforeEvidence),
        Ok(Stored::Missing) => CommitEvidence::NotKept(NotKept::OutsideReview),
        Ok(Stored::Unreadable(why)) => CommitEvidence::Unreadable(why),
        Err(e) => CommitEvidence::Unreadable(format!("{e:#}")),
    }
}

/// A review commit: a `Dream-Id` or `Review` trailer, and not a revert.
fn is_review(commit: &Commit<'_>) -> bool {
    let t = message::parse_trailers(&String::from_utf8_lossy(commit.message_bytes()));
    t.reverts.is_none() && (t.dream_id.is_some() || t.review.is_some())
}
