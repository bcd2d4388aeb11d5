//! Triage order: the file list sorted by risk (the removals of a review over the cap on
//! loss, then errors, deletions, contradictions and
//! overruled sources first, then warnings, then clean files), each file with a short tag
//! saying why it stands where it does. `O` switches between it and the review's own order.

use crate::analysis::flag::{Flag, FlagKind, Severity};
use crate::analysis::result::Analysis;
use crate::model::diff::{FileDiff, FileStatus};
use crate::model::ids::HunkId;

/// How the file list is ordered.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum FileOrder {
    /// The review's order (the notes' paths).
    #[default]
    Review,
    /// By risk ([`Risk`]), the review's order within one risk.
    Risk,
}

/// Why a file stands where it does in the triage order, most serious first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Risk {
    /// It removes notes or lines of a review over the cap on loss (`mass-removal`): the
    /// removals are listed first.
    MassRemoval,
    /// An error flag stands on it (or a hunk overlaps a later live edit).
    Error,
    /// The dream deletes the note, or removes lines and adds none.
    Deletion,
    /// A source says otherwise.
    Contradiction,
    /// The only source is a proposal the user turned down.
    Overruled,
    /// Warnings only.
    Warning,
    /// No flag.
    Clean,
}

/// A file's place in the triage order: its risk and the tag the list shows for it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Triage {
    /// Its risk.
    pub risk: Risk,
    /// Why, in a word or a flag kind (`secret`, `deleted`, `contradicted`).
    pub reason: String,
}

impl Risk {
    /// Three letters for a narrow file list (`err`, `del`, `con`, `ovr`, `wrn`, `ok`).
    pub fn short(self) -> &'static str {
        match self {
            Risk::MassRemoval => "rm!",
            Risk::Error => "err",
            Risk::Deletion => "del",
            Risk::Contradiction => "con",
            Risk::Overruled => "ovr",
            Risk::Warning => "wrn",
            Risk::Clean => "ok",
        }
    }
}

/// The triage of file `fi` of `files` under `analysis`.
pub fn triage(files: &[FileDiff], analysis: &Analysis, fi: usize) -> Triage {
    let Some(f) = files.get(fi) else {
        return Triage { risk: Risk::Clean, reason: "clean".into() };
    };
    let flags: Vec<&Flag> = analysis
        .findings
        .file(fi)
        .iter()
        .chain(
            (0..f.hunks.len())
                .map(|hi| HunkId::new(fi, hi))
                .flat_map(|at| analysis.hunk_flags(at).chain(analysis.entry_flags(at))),
        )
        .collect();
    let first = |pred: &dyn Fn(&Flag) -> bool| flags.iter().find(|x| pred(x)).map(|x| x.kind.name().to_string());
    if let Some(kind) = first(&|x| x.kind == FlagKind::MassRemoval) {
        return Triage { risk: Risk::MassRemoval, reason: kind };
    }
    if let Some(kind) = first(&|x| x.severity == Severity::Error) {
        return Triage { risk: Risk::Error, reason: kind };
    }
    if f.hunks.iter().any(|h| h.live_changed) {
        return Triage { risk: Risk::Error, reason: FlagKind::LiveChanged.name().into() };
    }
    let removes_only =
        !f.hunks.is_empty() && f.hunks.iter().all(|h| h.added().next().is_none() && h.removed().next().is_some());
    if f.status == FileStatus::Deleted || removes_only {
        let reason = if f.status == FileStatus::Deleted { "deleted" } else { "removes" };
        return Triage { risk: Risk::Deletion, reason: reason.into() };
    }
    if let Some(kind) = first(&|x| x.kind == FlagKind::Contradicted) {
        return Triage { risk: Risk::Contradiction, reason: kind };
    }
    if let Some(kind) = first(&|x| x.kind == FlagKind::CitationOverruled) {
        return Triage { risk: Risk::Overruled, reason: kind };
    }
    if let Some(kind) = first(&|x| x.severity == Severity::Warning) {
        return Triage { risk: Risk::Warning, reason: kind };
    }
    // An info flag (`one-off`) asks for nothing: the file ranks with the clean ones.
    Triage { risk: Risk::Clean, reason: first(&|_| true).unwrap_or_else(|| "clean".into()) }
}

/// The files in `order`: their indexes as the list shows them.
pub fn ordered(files: &[FileDiff], analysis: &Analysis, order: FileOrder) -> Vec<usize> {
    let mut out: Vec<usize> = (0..files.len()).collect();
    if order == FileOrder::Risk {
        out.sort_by_key(|&fi| (triage(files, analysis, fi).risk, fi));
    }
    out
}
