//! Hygiene of a dream (the flags are in `docs/flags.md`): credentials in added lines,
//! PERMANENT facts removed, writes outside the memory folder, overlaps with live edits —
//! flags fixed for a given dream. The audit of the memory folder before and after the
//! review, whose flags follow the reviewer's decisions, is [`super::review_audit`].

use crate::analysis::audit;
use crate::analysis::findings::Findings;
use crate::analysis::flag::{Flag, FlagKind};
use crate::base::secrets;
use crate::base::text::strip_terminator;
use crate::inputs::snapshot::Entry;
use crate::model::diff::{self, FileDiff, FileKind, FileStatus};
use crate::model::review::Review;

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
    let found = secrets::find(&text);
    if found.is_empty() {
        return Vec::new();
    }
    // Masked as one text: a line of a key body is no secret alone.
    let masked_lines = secrets::mask_lines(&added);
    let mut out = Vec::new();
    for s in found {
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
