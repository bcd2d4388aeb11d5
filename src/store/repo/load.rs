//! Loading a review with what the memory folder's repository says: the git side of
//! [`crate::model::review::history::MemoryHistory`].

use super::MemoryRepo;
use super::history;
use crate::base::zone::CommitOffset;
use crate::inputs::dream::Inputs;
use crate::inputs::snapshot::Snapshot;
use crate::model::review::Review;
use crate::model::review::history::{Changed, MemoryHistory, NoHistory, Reviewed};
use anyhow::Result;
use std::collections::BTreeSet;

/// Loads the review `inputs` name, with the history of the memory folder's repository (if
/// it is in one).
pub fn load_review(inputs: Inputs) -> Result<Review> {
    match MemoryRepo::discover(&inputs.memory).ok().flatten() {
        Some(repo) => Review::load(inputs, &GitHistory(&repo)),
        None => Review::load(inputs, &NoHistory),
    }
}

/// A memory repository's history, read through libgit2.
pub struct GitHistory<'r>(pub &'r MemoryRepo);

impl MemoryHistory for GitHistory<'_> {
    fn head(&self) -> Option<String> {
        self.0.head_commit().ok().flatten().map(|c| c.id().to_string())
    }

    fn head_notes(&self) -> Result<Option<Snapshot>> {
        self.0.head_snapshot().map(Some)
    }

    fn holds_reviews(&self) -> bool {
        history::holds_reviews(&self.0.memory)
    }

    fn reviewed(&self, dream_id: &str) -> Option<Reviewed> {
        let (entry, reverts) = history::reviewed_with_reverts(self.0, dream_id).ok().flatten()?;
        Some(Reviewed {
            id: entry.id.clone(),
            short: entry.short.clone(),
            summary: entry.summary.clone(),
            counts: entry.review.map(|c| (c.accepted, c.rejected, c.edited)),
            reverts,
        })
    }

    fn commit_offset(&self) -> Option<CommitOffset> {
        history::recent_offset(self.0)
    }

    fn changed_by(&self, id: &str) -> Vec<Changed> {
        changed_notes(self.0, id)
    }
}

/// The notes commit `id` changed, before and after it (best effort: a commit that cannot
/// be read gives none).
fn changed_notes(repo: &MemoryRepo, id: &str) -> Vec<Changed> {
    let Ok(commit) = history::find_commit(repo, id) else { return Vec::new() };
    let Ok((before, after)) = history::snapshots(repo, &commit) else { return Vec::new() };
    let paths: BTreeSet<&String> = before.keys().chain(after.keys()).collect();
    paths
        .into_iter()
        .filter(|p| before.get(*p) != after.get(*p))
        .map(|p| (p.clone(), before.get(p).cloned(), after.get(p).cloned()))
        .collect()
}
