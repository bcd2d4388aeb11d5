//! Stage 3: the claims of every added line, each with the evidence its hunk's entries cite,
//! in the order it should be read, and whether that evidence already sources it.

use super::citations::Cited;
use super::entries::added_lines;
use super::mapping;
use super::stated::{Stated, Verdict, judge_cited};
use crate::analysis::claims::{self, Claim, ClaimKind};
use crate::analysis::findings::Findings;
use crate::analysis::result::ChangeReport;
use crate::base::secrets::mask;
use crate::inputs::changes;
use crate::model::diff::FileDiff;
use crate::model::ids::{EntryId, HunkId};
use crate::model::review::Review;
use rayon::prelude::*;
use std::collections::HashSet;

/// A claim of an added line, with where it stands.
pub(super) struct HunkClaim {
    /// The hunk whose added line states it.
    pub(super) at: HunkId,
    pub(super) claim: Claim,
    /// The claim as outputs show it: masked, and for a claim inside a credential (a piece of
    /// a private key's body) what masking shows there.
    pub(super) shown: String,
    /// The line as outputs show it (credentials masked, a private key block as a whole).
    pub(super) line: String,
    /// The line as written (never shown): what the claim's offsets index.
    pub(super) written: String,
    /// The claim lies inside a credential: its `secret` flag already says all there is to
    /// say, so it gets no `unsourced-claim` flag of its own and is not listed.
    pub(super) in_secret: bool,
    pub(super) status: Option<Verdict>,
}

/// `claim` as outputs show it, given the credentials of its line (`inside`, with what
/// masking shows for each): a credential within the claim is replaced by its mask, the rest
/// of the claim kept (a capability URL: `https://hooks.zapier.com/[webhook-url]/`); a claim
/// that lies within a credential, or straddles one, is its mask alone (a piece of a private
/// key's body). Masks come from the line read whole: the claim alone may not show a
/// credential found by its context (an AWS secret key beside its key id).
fn shown_claim(claim: &Claim, inside: &[(std::ops::Range<usize>, String)]) -> String {
    let (start, end) = (claim.start, claim.end);
    let overlapping: Vec<&(std::ops::Range<usize>, String)> =
        inside.iter().filter(|(r, _)| r.start < end && start < r.end).collect();
    if overlapping.is_empty() {
        return mask(&claim.text).into_owned();
    }
    if let Some((_, label)) = overlapping.iter().find(|(r, _)| r.start < start || end < r.end) {
        return label.clone();
    }
    let mut shown = String::new();
    let mut at = start;
    for (r, label) in overlapping {
        shown.push_str(claim.text.get(at - start..r.start - start).unwrap_or(""));
        shown.push_str(label);
        at = r.end;
    }
    shown.push_str(claim.text.get(at - start..).unwrap_or(""));
    mask(&shown).into_owned()
}

/// The names of the memory's notes, live and proposed: a claim naming one is a
/// reference, not a claim.
pub(super) fn note_names(review: &Review) -> HashSet<String> {
    review.live.keys().chain(review.files.iter().map(|f| &f.path)).cloned().collect()
}

/// The claims of every added line of every note the review may write (and of notes
/// outside the memory folder), one per distinct claim of a hunk, none sourced yet. A
/// note's hunks are read on both cores, their claims kept in hunk order.
pub(super) fn collect(review: &Review, notes: &HashSet<String>) -> Vec<HunkClaim> {
    let mut out = Vec::new();
    for (fi, f) in review.files.iter().enumerate() {
        if !f.kind.writable() && f.kind != crate::model::diff::FileKind::Outside {
            continue;
        }
        let fm_end = frontmatter_end(f);
        let ids: Vec<HunkId> = review.hunks_of(fi).collect();
        let hunks: Vec<Vec<HunkClaim>> = ids.into_par_iter().map(|at| collect_hunk(f, at, fm_end, notes)).collect();
        out.extend(hunks.into_iter().flatten());
    }
    out
}

/// The claims of hunk `at`'s added lines (`f` is its file; those of the frontmatter, which
/// ends on line `fm_end`, other than `description` left out).
fn collect_hunk(f: &FileDiff, at: HunkId, fm_end: usize, notes: &HashSet<String>) -> Vec<HunkClaim> {
    let mut out = Vec::new();
    let h = &f.hunks[at.hunk];
    let mut seen = HashSet::new();
    // Lines and claims are shown masked with the hunk's side read as one text: a private
    // key's body lines are no secret on their own.
    let masks = crate::model::diff::masked::proposal_side(h);
    for (line_no, i, l) in added_lines(f, at.hunk) {
        let text = crate::base::text::strip_terminator(&l.text);
        let (shown_line, inside) = match masks.get(i) {
            Some(Some((masked, spans))) => (crate::base::text::strip_terminator(masked), spans.as_slice()),
            _ => ("", &[][..]),
        };
        if line_no <= fm_end && !text.trim_start().starts_with("description:") {
            continue;
        }
        for claim in note_claims(text, notes) {
            let in_secret = inside.iter().any(|(r, _)| r.start <= claim.start && claim.end <= r.end);
            let shown = shown_claim(&claim, inside);
            let subject = claim.subject.as_ref().map(|s| s.label.stem.clone());
            if seen.insert((claim.kind, claim.text.to_lowercase(), subject)) {
                let (line, written) = (shown_line.to_string(), text.to_string());
                out.push(HunkClaim { at, claim, shown, line, written, in_secret, status: None });
            }
        }
    }
    out
}

/// The entries' reports, cited lines and reference spans (see `entries::Entries`).
type EntryParts<'e, 'a> = (&'e [ChangeReport], &'a [Vec<Cited>], &'e [Vec<std::ops::Range<usize>>]);

/// Each claim's evidence: the citations of its hunk's entries, those of an entry that
/// states the claim itself first — its source is the one to show ("214 tests passed on
/// 2026-11-01 (… line 4)" → line 4), and its relative phrase the one a date came from.
/// Then those of the entries that speak of the claim's line most.
pub(super) fn evidence<'a>(
    claims: &[HunkClaim],
    findings: &Findings,
    (reports, cited, references): EntryParts<'_, 'a>,
) -> Vec<Vec<&'a Cited>> {
    let text = |n: EntryId| reports.get(n.index()).map_or("", |c| c.text.as_str());
    let cited_by = |n: EntryId| cited.get(n.index());
    // Each entry's words found once: an entry may be linked to every hunk of a note.
    let words: Vec<std::cell::OnceCell<mapping::EntryWords>> = reports.iter().map(|_| Default::default()).collect();
    let overlap = |n: EntryId, line: &str| match words.get(n.index()) {
        Some(w) => w
            .get_or_init(|| {
                let spans = references.get(n.index());
                mapping::EntryWords::new(text(n), spans.map_or(&[], Vec::as_slice))
            })
            .overlap(line),
        None => mapping::line_overlap(text(n), line),
    };
    claims
        .iter()
        .map(|hc| {
            let linked = findings.changes(hc.at);
            let (mut stating, mut others): (Vec<EntryId>, Vec<EntryId>) =
                linked.iter().partition(|&&n| claims::occurs_in(&hc.claim, text(n)));
            // Several entries may state a date (inline sources are their lines): the one
            // speaking of the claim's line first there too.
            stating.sort_by_key(|&n| std::cmp::Reverse(overlap(n, &hc.line)));
            others.sort_by_key(|&n| std::cmp::Reverse(overlap(n, &hc.line)));
            stating.iter().chain(&others).filter_map(|&n| cited_by(n)).flatten().collect()
        })
        .collect()
}

/// Sources each claim its evidence states.
pub(super) fn source_in_cited(claims: &mut [HunkClaim], evidence: &[Vec<&Cited>], stated: &Stated) {
    for (hc, ev) in claims.iter_mut().zip(evidence) {
        hc.status = judge_cited(&hc.claim, &hc.written, ev, stated);
    }
}

/// Last line of the proposal's frontmatter block (0: none).
fn frontmatter_end(f: &FileDiff) -> usize {
    let text = f.proposed.as_ref().and_then(|e| e.bytes()).and_then(crate::base::text::as_text).unwrap_or("");
    match crate::analysis::audit::frontmatter::parse(text) {
        crate::analysis::audit::frontmatter::Block::Parsed(fm) => fm.end_line,
        _ => 0,
    }
}

/// True when a path-like claim names one of the memory's own notes.
fn is_note_reference(c: &Claim, notes: &HashSet<String>) -> bool {
    if !matches!(c.kind, ClaimKind::Path | ClaimKind::Code) {
        return false;
    }
    let t = c.text.trim_start_matches("./").trim_start_matches("memory/");
    notes.contains(t) || notes.iter().any(|n| n.rsplit('/').next() == Some(t))
}

/// The claims of a note line: links, promotion metadata and references to notes left out.
fn note_claims(line: &str, notes: &HashSet<String>) -> Vec<Claim> {
    claims_outside(line, &changes::structure_spans(line), notes)
}

/// The claims of an entry's own text: its citations (its `references`, see
/// [`changes::reference_spans`]), the notes it names and links left out.
pub(super) fn entry_own_claims(
    text: &str,
    references: &[std::ops::Range<usize>],
    notes: &HashSet<String>,
) -> Vec<Claim> {
    claims_outside(text, references, notes)
}

/// The claims of `text` that are not links, overlap none of `skip` and name none of the
/// memory's `notes`.
fn claims_outside(text: &str, skip: &[std::ops::Range<usize>], notes: &HashSet<String>) -> Vec<Claim> {
    let skip = crate::base::ranges::Ranges::new(skip.to_vec());
    // Read with `skip` blanked: what lies there is never a claim, and reading it costs.
    let text = &crate::base::ranges::blanked(text, &skip);
    claims::extract(text)
        .into_iter()
        .filter(|c| c.kind != ClaimKind::Link)
        .filter(|c| !skip.overlaps(&(c.start..c.end)))
        .filter(|c| !is_note_reference(c, notes))
        .collect()
}
