//! Hygiene of a dream (the flags are in `docs/flags.md`): credentials in added lines, PERMANENT facts removed,
//! writes outside the memory folder, overlaps with live edits — flags fixed for a given
//! dream — and the audit of the memory folder before and after the review, whose flags
//! follow the reviewer's decisions.

use crate::analysis::audit::{self, AuditFlag};
use crate::analysis::findings::Findings;
use crate::analysis::flag::{Flag, FlagKind};
use crate::analysis::result::AuditReport;
use crate::analysis::result::IndexReport;
use crate::base::secrets;
use crate::base::text::strip_terminator;
use crate::inputs::snapshot::{Entry, Snapshot};
use crate::model::decision::{Decision, HunkDecision};
use crate::model::diff::{self, FileDiff, FileKind, FileStatus};
use crate::model::ids::{HunkId, PerHunk};
use crate::model::review::Review;
use std::collections::BTreeMap;

/// Adds the fixed hygiene flags of every hunk and file to `findings`.
pub fn check(review: &Review, findings: &mut Findings) {
    for (fi, f) in review.files.iter().enumerate() {
        match f.kind {
            FileKind::Symlink => {
                let target = [&f.proposed, &f.live]
                    .into_iter()
                    .find_map(|e| match e {
                        Some(Entry::Symlink(t)) => Some(t.display().to_string()),
                        _ => None,
                    })
                    .unwrap_or_default();
                findings.add_file_flag(
                    fi,
                    Flag::new(
                        FlagKind::OutsideMemory,
                        format!("{} is a symlink (→ {target}): dreamreview never follows or writes symlinks, so this change cannot be accepted", f.path),
                    )
                    .with_claim(target),
                );
            }
            FileKind::Outside => findings.add_file_flag(
                fi,
                Flag::new(
                    FlagKind::OutsideMemory,
                    format!(
                        "memory.diff writes {}, outside the memory folder: it is shown here and can never be accepted",
                        f.path
                    ),
                )
                .with_claim(f.path.clone()),
            ),
            FileKind::Text | FileKind::Binary => {}
        }
        let live = LiveNote::of(f);
        for (id, h) in review.hunks_of(fi).zip(&f.hunks) {
            if h.live_changed {
                findings.add_hunk_flag(id, live_changed_flag(h));
            }
            for flag in secret_flags(h) {
                findings.add_hunk_flag(id, flag);
            }
            for flag in permanent_flags(f, &live, h) {
                findings.add_hunk_flag(id, flag);
            }
        }
    }
}

/// The fixed hygiene flags of some hunks of one file (`live-changed`, `secret`,
/// `permanent-deleted`), as [`check`] adds them, computed on the spot: what an accept must
/// ask about before the background analysis is in. Pure and cheap (the live note is read
/// once for all of them).
pub fn hunk_flags(f: &FileDiff, hunks: &[usize]) -> Vec<(usize, Vec<Flag>)> {
    let live = LiveNote::of(f);
    hunks
        .iter()
        .filter_map(|&hi| {
            let h = f.hunks.get(hi)?;
            let mut flags = Vec::new();
            if h.live_changed {
                flags.push(live_changed_flag(h));
            }
            flags.extend(secret_flags(h));
            flags.extend(permanent_flags(f, &live, h));
            Some((hi, flags))
        })
        .collect()
}

fn live_changed_flag(h: &diff::Hunk) -> Flag {
    Flag::new(
        FlagKind::LiveChanged,
        format!(
            "{}: a session edited these lines after the dream ran; accepting would drop that edit — edit the hunk to merge",
            h.id
        ),
    )
}

/// `secret` flags for the hunk's added lines (checked as one text, so PEM blocks that span
/// lines are found); the credential itself is masked in the flag.
fn secret_flags(h: &diff::Hunk) -> Vec<Flag> {
    let added: Vec<&str> = h.added().map(|l| l.text.as_str()).collect();
    let text: String = added.concat();
    // Masked as one text: a line of a key body is no secret alone.
    let masked_lines = secrets::mask_lines(&added);
    let mut out = Vec::new();
    for s in secrets::find(&text) {
        // The line holding the secret's first byte.
        let mut at = 0;
        let line = added.iter().position(|l| {
            let hit = s.start >= at && s.start < at + l.len();
            at += l.len();
            hit
        });
        let masked_line =
            line.and_then(|i| masked_lines.get(i)).map(|l| strip_terminator(l).to_string()).unwrap_or_default();
        let masked = s.masked(&text);
        out.push(
            Flag::new(
                FlagKind::Secret,
                format!("{}: an added line holds a credential ({masked}) — reject it or edit it out; rotate the credential if it is real", h.id),
            )
            .with_claim(masked)
            .with_line(masked_line),
        );
    }
    out
}

/// What the permanence checks need of a file's live note, read once per file (not once
/// per hunk: a note rewritten line by line has tens of thousands of hunks).
struct LiveNote<'a> {
    /// The live note's text ("" when it is absent or not text).
    text: &'a str,
    /// Its frontmatter marks the whole note `permanent: true`.
    permanent: bool,
}

impl<'a> LiveNote<'a> {
    fn of(f: &'a FileDiff) -> LiveNote<'a> {
        let text = f.live.as_ref().and_then(Entry::bytes).and_then(crate::base::text::as_text).unwrap_or("");
        let permanent =
            matches!(audit::frontmatter::parse(text), audit::frontmatter::Block::Parsed(fm) if fm.is_permanent());
        LiveNote { text, permanent }
    }
}

/// `permanent-deleted` flags: PERMANENT lines removed or changed, or a permanent note
/// deleted or changed.
fn permanent_flags(f: &FileDiff, live: &LiveNote<'_>, h: &diff::Hunk) -> Vec<Flag> {
    let (live_text, permanent_note) = (live.text, live.permanent);
    if f.status == FileStatus::Deleted && audit::is_permanent_note(live_text) {
        let first = live_text.lines().find(|l| audit::is_permanent_line(l)).unwrap_or("permanent: true");
        return vec![
            Flag::new(
                FlagKind::PermanentDeleted,
                format!("{} deletes {}, a note marked PERMANENT («{}»)", h.id, f.path, secrets::mask(first.trim())),
            )
            .with_line(secrets::mask(first).into_owned()),
        ];
    }
    // A set: a dream rewriting a big note makes hunks of many thousand lines.
    let added: std::collections::HashSet<&str> = h.added().map(|l| strip_terminator(&l.text)).collect();
    let mut out = Vec::new();
    for l in h.removed() {
        let text = strip_terminator(&l.text);
        if added.contains(text) {
            continue; // moved, not removed
        }
        if audit::is_permanent_line(text) || permanent_note {
            let why = if audit::is_permanent_line(text) {
                "a PERMANENT line"
            } else {
                "a line of a note marked `permanent: true`"
            };
            out.push(
                Flag::new(
                    FlagKind::PermanentDeleted,
                    format!("{} removes or changes {why}: «{}»", h.id, secrets::mask(text.trim())),
                )
                .with_line(secrets::mask(text).into_owned()),
            );
        }
    }
    out
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
            let budget = audit::index::budget("MEMORY.md", &String::from_utf8_lossy(b));
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
