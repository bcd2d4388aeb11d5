//! The audit of a review: the memory folder's hygiene before the review (live) and after
//! the reviewer's decisions, the flags the review adds, and the hunk each is attached to.

use crate::analysis::audit::{self, AuditFlag};
use crate::analysis::flag::{Flag, FlagKind};
use crate::inputs::snapshot::Snapshot;
use crate::model::decision::{Decision, HunkDecision};
use crate::model::diff::FileStatus;
use crate::model::ids::{HunkId, PerHunk};
use crate::model::review::Review;
use serde::Serialize;
use std::collections::BTreeMap;

/// MEMORY.md's load budget on one side of the review.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct IndexReport {
    /// Lines counted (frontmatter and block comments stripped).
    pub lines: usize,
    /// Bytes counted.
    pub bytes: usize,
    /// `ok`, `near` or `over`.
    pub status: String,
}

/// Hygiene of the memory folder before the review and after the current decisions.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct AuditReport {
    /// Live memory's index budget (None: no MEMORY.md).
    pub before: Option<IndexReport>,
    /// The result's index budget.
    pub after: Option<IndexReport>,
    /// Flags the result has that live memory did not.
    pub flags: Vec<Flag>,
}

/// The audit of the review: the index budget before (live) and after, and the flags the
/// review adds, each attached to the hunk that causes it when one can be found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct AuditOutcome {
    /// Before/after budgets and all new flags.
    pub report: AuditReport,
    /// (hunk, flag) for the new flags that a hunk causes.
    pub attached: Vec<(HunkId, Flag)>,
}

/// Audits live memory against the outcome of the review, counting pending hunks as
/// accepted: the flags show what accepting everything not yet rejected would do, and they
/// go away when the hunk that causes them is rejected.
pub fn audit_review(review: &Review) -> AuditOutcome {
    let decisions: PerHunk<HunkDecision> = review.decisions.map(|_, d| HunkDecision {
        lines: d.lines.iter().map(|x| if *x == Decision::Pending { Decision::Accepted } else { *x }).collect(),
        edited: d.edited.clone(),
    });
    audit_with(review, &decisions)
}

/// The audit of what a commit of the current decisions writes: pending lines are not
/// taken (as [`diff::result`] reads them), so only what the commit really changes can
/// raise a flag. What a commit records as standing ([`crate::analysis::standing::commit_flags`]).
pub fn audit_result(review: &Review) -> AuditOutcome {
    audit_with(review, &review.decisions)
}

fn audit_with(review: &Review, decisions: &PerHunk<HunkDecision>) -> AuditOutcome {
    let before = files_only(&review.live);
    let after = files_only(&review.snapshot_with(decisions));
    let side = |m: &BTreeMap<String, Vec<u8>>| {
        m.get("MEMORY.md").map(|b| {
            let budget = audit::memory_index::budget("MEMORY.md", &String::from_utf8_lossy(b));
            IndexReport { lines: budget.lines, bytes: budget.bytes, status: budget.status.name().to_string() }
        })
    };
    let mut flags = audit::audit_change(&before, &after);
    flags.extend(audit::loss::mass_removal(
        &before,
        &after,
        audit::loss::percent_or(review.inputs.mass_removal_percent),
    ));
    let attached = flags.iter().filter_map(|a| attach(review, a).map(|at| (at, a.flag.clone()))).collect();
    AuditOutcome {
        report: AuditReport {
            before: side(&before),
            after: side(&after),
            flags: flags.into_iter().map(|a| a.flag).collect(),
        },
        attached,
    }
}

fn files_only(s: &Snapshot) -> BTreeMap<String, Vec<u8>> {
    s.iter().filter_map(|(k, e)| e.bytes().map(|b| (k.clone(), b.to_vec()))).collect()
}

/// The hunk that causes an audit finding: the index hunk that removed the line naming an
/// orphan, the deletion of a note a link now dangles to, the index hunk that adds a long
/// or over-budget line, the note's own hunk for its frontmatter.
fn attach(review: &Review, a: &AuditFlag) -> Option<HunkId> {
    let file_of = |path: &str| review.files.iter().position(|f| f.path == path);
    let first_hunk = |path: &str| review.hunks_of(file_of(path)?).next();
    let hunk_with_added = |path: &str, needle: &str| {
        let fi = file_of(path)?;
        let hi = review.files[fi]
            .hunks
            .iter()
            .position(|h| h.added().any(|l| !needle.is_empty() && l.text.contains(needle)))?;
        Some(HunkId::new(fi, hi))
    };
    match a.flag.kind {
        FlagKind::OrphanNote => {
            if let Some(by) = &a.named_by
                && let Some(fi) = file_of(&by.path)
            {
                let line = by.line.saturating_sub(1);
                if let Some(hi) = review.files[fi].hunks.iter().position(|h| h.old_range.contains(&line)) {
                    return Some(HunkId::new(fi, hi));
                }
            }
            first_hunk(&a.path)
        }
        FlagKind::DanglingLink => {
            let target = a.flag.claim.as_deref().unwrap_or("");
            let deleted = file_of(target).filter(|&fi| review.files[fi].status == FileStatus::Deleted);
            deleted
                .map(|fi| HunkId::new(fi, 0))
                .or_else(|| hunk_with_added(&a.path, target))
                .or_else(|| first_hunk(&a.path))
        }
        // The deletion of the note, or its first hunk that removes lines.
        FlagKind::MassRemoval => {
            let fi = file_of(&a.path)?;
            let hi = review.files[fi].hunks.iter().position(|h| h.removed().count() > 0).unwrap_or(0);
            Some(HunkId::new(fi, hi)).filter(|_| !review.files[fi].hunks.is_empty())
        }
        FlagKind::IndexLongLine => {
            hunk_with_added(&a.path, a.flag.line.as_deref().unwrap_or("")).or_else(|| first_hunk(&a.path))
        }
        FlagKind::IndexOverLimit | FlagKind::IndexNearLimit => {
            let fi = file_of(&a.path)?;
            let grows = review.files[fi].hunks.iter().rposition(|h| h.added().count() > h.removed().count());
            Some(HunkId::new(fi, grows.unwrap_or(0))).filter(|_| !review.files[fi].hunks.is_empty())
        }
        _ => first_hunk(&a.path),
    }
}
