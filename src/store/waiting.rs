//! The inbox's rows: each place a dream may wait ([`crate::inputs::inbox`]) loaded and checked as
//! `check` would — its files, hunks, errors and warnings — or said to need something first
//! (a memory folder not under git has nothing to diff against). A memory folder whose work
//! tree is its `HEAD`, and a dream a review commit already carries, wait for nothing: they
//! are no row.

use crate::analysis::standing;
use crate::inputs::dream;
use crate::inputs::inbox::{Candidate, Expiring, PlaceKind};
use crate::inputs::retention::Retention;
use serde::Serialize;
use std::path::PathBuf;
use std::time::SystemTime;

/// What a row says about its dream.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case", tag = "state")]
pub enum State {
    /// Not looked at yet (the inbox fills it in off its screen's thread).
    Checking,
    /// Loaded and checked: counts as `check` prints them.
    Ready {
        /// Changed files.
        files: usize,
        /// Hunks.
        hunks: usize,
        /// Error-level flags.
        errors: usize,
        /// Warnings.
        warnings: usize,
    },
    /// A memory folder that is not under git: no HEAD to diff against.
    NotUnderGit {
        /// What to do.
        hint: String,
    },
    /// It could not be loaded; the message names the file and the fix.
    Failed {
        /// The error.
        error: String,
    },
}

/// One waiting dream.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Row {
    /// Where it waits.
    #[serde(flatten)]
    pub place: Candidate,
    /// What it holds.
    #[serde(flatten)]
    pub state: State,
    /// Its project's transcripts Claude Code deletes soon.
    pub expiring: Option<Expiring>,
}

impl Row {
    /// The inputs a review of this row opens with: the dream folder and the memory folder
    /// found for it (else what its memory.diff names), or the memory folder in place.
    pub fn review_args(&self) -> (Option<PathBuf>, Option<PathBuf>) {
        (self.place.dream.clone(), self.place.memory.clone())
    }
}

/// What `dreamreview snapshot --init` does, said where a memory folder has no git.
pub fn snapshot_hint(memory: &std::path::Path) -> String {
    format!(
        "not under git, so it has nothing to diff against: run `dreamreview snapshot --init --memory {}` \
         to commit what it holds now, then the next dream's changes show here",
        memory.display()
    )
}

/// The row of `place`, loaded and checked (slow: reads the transcripts its dream cites).
/// `None` when nothing waits there: no change in place, or a dream already reviewed.
/// `index`: the transcript index folder, as `check` uses it.
pub fn check(place: &Candidate, index: Option<PathBuf>, retention: &Retention) -> Option<Row> {
    let expiring =
        place.transcripts.as_deref().and_then(|t| crate::inputs::inbox::expiring(t, retention, SystemTime::now()));
    let row = |state| Some(Row { place: place.clone(), state, expiring });
    if place.kind != PlaceKind::DreamFolder {
        let memory = place.memory.as_deref()?;
        match crate::store::repo::MemoryRepo::discover(memory) {
            Ok(None) => return row(State::NotUnderGit { hint: snapshot_hint(memory) }),
            Ok(Some(_)) => {}
            Err(e) => return row(State::Failed { error: format!("{e:#}") }),
        }
    }
    let (dream, memory) = (place.dream.as_deref(), place.memory.as_deref());
    let loaded = dream::discover(dream, memory, &[]).and_then(|mut inputs| {
        inputs.index = index;
        crate::store::repo::load_review(inputs)
    });
    let mut review = match loaded {
        Ok(r) => r,
        Err(e) => return row(State::Failed { error: format!("{e:#}") }),
    };
    if review.reviewed.is_some() {
        return None;
    }
    if review.files.is_empty() && place.kind != PlaceKind::DreamFolder {
        return None;
    }
    review.settle_reviewed();
    let analysis = crate::analysis::analyze(&review);
    let s = standing::summary(&review, &analysis);
    row(State::Ready { files: s.files, hunks: s.hunks, errors: s.flags.error, warnings: s.flags.warning })
}

/// Every row at once, in `places`' order (`inbox --json`).
pub fn check_all(places: &[Candidate], index: Option<PathBuf>, retention: &Retention) -> Vec<Row> {
    places.iter().filter_map(|p| check(p, index.clone(), retention)).collect()
}
