//! Where a review's decisions are kept: `<gitdir>/dreamreview/<dream-id>.json`, inside the
//! memory repository's git directory, never the work tree. The format and how saved
//! decisions apply to a review are the model's ([`crate::model::review::persist`]).

use super::MemoryRepo;
use super::write::write_state_file;
use crate::model::review::Review;
use crate::model::review::persist::{Restored, SavedDecisions, apply_saved, parse, rejections_only, to_saved};
use anyhow::{Context, Result, anyhow};
use std::path::PathBuf;

/// Where a review's decisions are saved: `<gitdir>/dreamreview/<dream-id>.json`.
pub fn state_path(repo: &MemoryRepo, dream_id: &str) -> PathBuf {
    let safe: String = dream_id.chars().filter(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_').collect();
    repo.state_dir().join(format!("{safe}.json"))
}

/// Saves one review's decisions (open it once, then save on every decision: each save is
/// one small atomic file write).
#[derive(Clone, Debug)]
pub struct Store {
    /// The file decisions are saved to.
    pub path: PathBuf,
}

impl Store {
    /// The store of `review` (its memory repository's git directory); `None` when the
    /// memory folder is not in a git repository yet, or is one the review may not write
    /// (only memory.diff names it): nothing is saved then.
    pub fn open(review: &Review) -> Result<Option<Store>> {
        if !review.target.trust.writable() {
            return Ok(None);
        }
        Ok(MemoryRepo::discover(&review.inputs.memory)?.map(|repo| Store { path: state_path(&repo, &review.dream_id) }))
    }

    /// Writes the review's current decisions, atomically.
    pub fn save(&self, review: &Review) -> Result<()> {
        let text = serde_json::to_vec_pretty(&to_saved(review)).context("cannot encode the decisions")?;
        write_state_file(&self.path, &text)
    }

    /// Reads the saved decisions, `None` when nothing was saved yet.
    pub fn load(&self) -> Result<Option<SavedDecisions>> {
        match std::fs::read(&self.path) {
            Ok(b) => parse(&b).map(Some).map_err(|e| anyhow!("{}: {e}", self.path.display())),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(anyhow!(e).context(format!("cannot read {}", self.path.display()))),
        }
    }
}

/// Saves `review`'s decisions under its repository's git directory; `Ok(None)` when the
/// memory folder has no repository. Prefer a [`Store`] when saving repeatedly.
pub fn save(review: &Review) -> Result<Option<PathBuf>> {
    match Store::open(review)? {
        Some(s) => {
            s.save(review)?;
            Ok(Some(s.path))
        }
        None => Ok(None),
    }
}

/// After `review` was committed: the saved decisions keep only its whole-hunk
/// rejections (the accepted, partial and edited ones are in the commit); the file is
/// removed when none is left.
pub fn keep_rejections(repo: &MemoryRepo, review: &Review) -> Result<()> {
    let path = state_path(repo, &review.dream_id);
    let saved = rejections_only(review);
    if saved.hunks.is_empty() {
        return match std::fs::remove_file(&path) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                Err(anyhow!(e).context(format!("cannot remove {}", path.display())))
            }
            _ => Ok(()),
        };
    }
    let text = serde_json::to_vec_pretty(&saved).context("cannot encode the decisions")?;
    write_state_file(&path, &text)
}

/// Restores the decisions saved for this dream, if any (non-strict: entries whose hunk
/// changed are reported, not errors). Undo history starts from the restored state.
pub fn restore(review: &mut Review) -> Result<Restored> {
    let Some(store) = Store::open(review)? else {
        return Ok(Restored::default());
    };
    match store.load()? {
        Some(saved) => apply_saved(review, &saved, false),
        None => Ok(Restored::default()),
    }
}
