//! What a review needs to know of the memory folder's history, read by the caller and
//! passed in ([`super::Review::load`]): the model knows no git. The repository layer
//! implements [`MemoryHistory`] (`crate::store::repo::load_review` loads a review with it); a
//! folder outside any repository has [`NoHistory`].

use crate::base::zone::CommitOffset;
use crate::inputs::snapshot::Snapshot;
use anyhow::Result;

/// The review commit that already reviewed this dream.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Reviewed {
    /// Its full id.
    pub id: String,
    /// Its abbreviated id (`41fd1fa`).
    pub short: String,
    /// Its summary line (masked, one line).
    pub summary: String,
    /// Its `Review:` counts (accepted, rejected, edited), when it has the trailer.
    pub counts: Option<(usize, usize, usize)>,
    /// Reverts of part of it (`dreamreview revert --hunk/--file`) made since, newest first:
    /// what they took back. A hunk the review took and a revert undid is a leftover again,
    /// and is shown as reverted, not as rejected ([`crate::model::review::Review::reverted`]).
    pub reverts: Vec<PartRevert>,
}

/// A revert of part of a review commit: its id and, per note, the lines it took out and
/// put back (terminators stripped).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PartRevert {
    /// The revert commit's abbreviated id.
    pub short: String,
    /// (note, lines the revert removed, lines it put back).
    pub notes: Vec<(String, Vec<String>, Vec<String>)>,
}

/// A note a commit changed: its path, and its content before and after (`None`: absent).
pub type Changed = (String, Option<crate::inputs::snapshot::Entry>, Option<crate::inputs::snapshot::Entry>);

/// The memory folder's history as a review sees it.
pub trait MemoryHistory {
    /// `HEAD`'s commit id when the review is loaded (`None`: no repository, or no commit).
    fn head(&self) -> Option<String>;
    /// The notes as `HEAD` has them; `Ok(None)` without a repository. An in-place dream is
    /// the work tree reviewed against them.
    fn head_notes(&self) -> Result<Option<Snapshot>>;
    /// True when the repository already holds dreamreview review commits (a folder the
    /// user reviewed into before).
    fn holds_reviews(&self) -> bool;
    /// The newest review commit of dream `dream_id` reachable from `HEAD`.
    fn reviewed(&self, dream_id: &str) -> Option<Reviewed>;
    /// The UTC offset of recent commits (a hint for the user's time zone).
    fn commit_offset(&self) -> Option<CommitOffset>;
    /// The notes commit `id` changed, before and after it (empty when it cannot be read):
    /// read only when a review needs it (a dream with a `memory.diff` that was reviewed).
    fn changed_by(&self, id: &str) -> Vec<Changed>;
}

/// A memory folder that is in no repository: no `HEAD`, nothing reviewed.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoHistory;

impl MemoryHistory for NoHistory {
    fn head(&self) -> Option<String> {
        None
    }
    fn head_notes(&self) -> Result<Option<Snapshot>> {
        Ok(None)
    }
    fn holds_reviews(&self) -> bool {
        false
    }
    fn reviewed(&self, _dream_id: &str) -> Option<Reviewed> {
        None
    }
    fn commit_offset(&self) -> Option<CommitOffset> {
        None
    }
    fn changed_by(&self, _id: &str) -> Vec<Changed> {
        Vec::new()
    }
}
