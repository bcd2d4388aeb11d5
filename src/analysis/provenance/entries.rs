//! Stages 1 and 2: the entries that explain changes — CHANGES.md's, then the inline sources
//! of OpenClaw promotions — each turned into a [`ChangeReport`] with its citations resolved
//! in the transcripts, and linked to the hunks it speaks of.

use super::citations::{self, Cited};
use super::lines::CitedLines;
use super::mapping;
use crate::analysis::findings::Findings;
use crate::analysis::result::ChangeReport;
use crate::base::secrets::mask;
use crate::inputs::changes::{self, ChangeEntry, Citation};
use crate::inputs::transcript::SourceSet;
use crate::model::diff::{FileDiff, Op};
use crate::model::ids::EntryId;
use crate::model::review::Review;
use std::borrow::Cow;
use std::collections::HashSet;
use std::ops::Range;
use std::path::Path;

/// The entries found: their reports (CHANGES.md's first, in file order, then inline
/// sources) and, in the same order, the transcript lines each one cites.
#[derive(Default)]
pub(super) struct Entries {
    pub(super) reports: Vec<ChangeReport>,
    pub(super) cited: Vec<Vec<Cited>>,
    /// Byte ranges of each report's `text` that are references to evidence
    /// ([`changes::reference_spans`]), found once per entry: an entry may hold 160,000.
    pub(super) references: Vec<Vec<Range<usize>>>,
}

impl Entries {
    fn push(&mut self, (report, cited, references): EntryReport) {
        self.reports.push(report);
        self.cited.push(cited);
        self.references.push(references);
    }
}

/// An entry's report, the transcript lines it cites, and the references in its text.
type EntryReport = (ChangeReport, Vec<Cited>, Vec<Range<usize>>);

/// Every entry of the review, resolved against `sources` and linked to its hunks in
/// `findings`. What the reviewer should know on the way (an unreadable CHANGES.md) goes
/// to `notes`.
pub(super) fn collect(
    review: &Review,
    sources: &SourceSet,
    lines: &mut CitedLines,
    findings: &mut Findings,
    notes: &mut Vec<String>,
) -> Entries {
    let mut entries = Entries::default();
    let logged = match &review.inputs.changes_md {
        Some(path) => read_changes_md(path, notes),
        None => Vec::new(),
    };
    let cited: std::collections::BTreeSet<usize> = logged
        .iter()
        .flat_map(|e| &e.citations)
        .filter_map(|c| c.file.as_deref().and_then(|f| sources.find(f).first().copied()))
        .collect();
    lines.prefetch(sources, &cited.into_iter().collect::<Vec<_>>());
    add_logged(review, logged, sources, lines, findings, &mut entries);
    add_inline(review, sources, lines, findings, &mut entries);
    entries
}

/// CHANGES.md's entries; none (and a note) when it cannot be read or is no text.
fn read_changes_md(path: &Path, notes: &mut Vec<String>) -> Vec<ChangeEntry> {
    match std::fs::read(path) {
        Ok(bytes) if memchr::memchr(0, &bytes).is_some() => {
            notes.push(format!(
                "{}: binary (it holds NUL bytes), not a change log; ignored, so no change has a \
                 CHANGES.md entry. Check that the dream run finished writing it",
                path.display()
            ));
            Vec::new()
        }
        Ok(bytes) => {
            if std::str::from_utf8(&bytes).is_err() {
                notes.push(format!("{}: not valid UTF-8; read with replacement characters", path.display()));
            }
            changes::parse(&String::from_utf8_lossy(&bytes))
        }
        Err(e) => {
            notes.push(format!("cannot read {}: {e}", path.display()));
            Vec::new()
        }
    }
}

/// Stage 1: CHANGES.md's entries, resolved, then linked to the hunks they speak of.
fn add_logged(
    review: &Review,
    mut logged: Vec<ChangeEntry>,
    sources: &SourceSet,
    lines: &mut CitedLines,
    findings: &mut Findings,
    entries: &mut Entries,
) {
    // Before the reports: finding an entry's references holds more than they do.
    let references: Vec<Vec<Range<usize>>> = logged.iter().map(|e| changes::reference_spans(&e.text)).collect();
    for (e, spans) in logged.iter_mut().zip(&references) {
        let id = EntryId::at(entries.reports.len());
        let label = format!("CHANGES.md #{id} (line {})", e.line);
        // Each citation let go once resolved: its report is what is kept.
        let citations = std::mem::take(&mut e.citations);
        entries.push(entry_report((id, e), citations, spans, &label, sources, lines, None));
    }
    let index = mapping::Index::with_references(&review.files, &logged, &references);
    drop(references);
    for (ei, e) in logged.iter().enumerate() {
        let id = EntryId::at(ei);
        for at in index.hunks_of_nth(ei, e) {
            findings.of_mut(at).into_iter().for_each(|h| h.changes.push(id));
            entries.reports[ei].hunks.extend(at.name(&review.files).map(str::to_string));
        }
    }
}

/// Stage 2: inline sources (OpenClaw promotions), each an entry citing its own hunk.
fn add_inline(
    review: &Review,
    sources: &SourceSet,
    lines: &mut CitedLines,
    findings: &mut Findings,
    entries: &mut Entries,
) {
    for (fi, f) in review.files.iter().enumerate() {
        for (at, h) in review.hunks_of(fi).zip(&f.hunks) {
            let added = added_lines(f, at.hunk);
            for (k, &(line_no, _, l)) in added.iter().enumerate() {
                let next = added.get(k + 1).map(|&(_, _, n)| n.text.as_str());
                let Some(cits) = inline_citations_of(&l.text, next) else { continue };
                let id = EntryId::at(entries.reports.len());
                let mut entry = ChangeEntry {
                    index: id.number(),
                    line: line_no,
                    text: crate::base::text::strip_terminator(&l.text).to_string(),
                    notes: vec![f.path.clone()],
                    citations: cits,
                    snippets: Vec::new(),
                };
                let label = format!("{}:{line_no} (inline source)", f.path);
                let spans = changes::reference_spans(&entry.text);
                let citations = std::mem::take(&mut entry.citations);
                let note = Some(f.path.clone());
                let mut report = entry_report((id, &entry), citations, &spans, &label, sources, lines, note);
                report.0.hunks.push(h.id.clone());
                findings.of_mut(at).into_iter().for_each(|h| h.changes.push(id));
                entries.push(report);
            }
        }
    }
}

/// The distinct inline citations of an added line, or `None` when it has none or is a
/// promotion comment alone on its line repeating the sources of the line after it (that
/// line's entry speaks for both).
fn inline_citations_of(text: &str, next: Option<&str>) -> Option<Vec<Citation>> {
    let mut cits = changes::inline_citations(text);
    let mut seen = HashSet::new();
    cits.retain(|c| seen.insert((c.file.clone(), c.start, c.end)));
    let comment_only = text.trim().starts_with("<!--") && text.trim().ends_with("-->");
    let next: Vec<Citation> = next.map(changes::inline_citations).unwrap_or_default();
    let repeats_next =
        cits.iter().all(|c| next.iter().any(|n| n.file == c.file && n.start == c.start && n.end == c.end));
    if (comment_only && repeats_next) || cits.is_empty() {
        return None;
    }
    Some(cits)
}

/// Builds an entry's report and resolves its `citations` (taken from it: each is dropped
/// once resolved); `spans` are the references of its text ([`changes::reference_spans`]).
fn entry_report(
    (id, e): (EntryId, &ChangeEntry),
    citations: Vec<Citation>,
    spans: &[Range<usize>],
    label: &str,
    sources: &SourceSet,
    lines: &mut CitedLines,
    note: Option<String>,
) -> EntryReport {
    let (text, references) = match mask(&e.text) {
        Cow::Borrowed(_) => (e.text.clone(), spans.to_vec()),
        Cow::Owned(masked) => {
            let spans = changes::reference_spans(&masked);
            (masked, spans)
        }
    };
    let mut report = ChangeReport { index: id, line: e.line, text, notes: e.notes.clone(), note, ..Default::default() };
    // Sized once: an entry may have 160,000 citations.
    report.citations.reserve_exact(citations.len());
    let mut evidence = Vec::with_capacity(citations.len());
    for c in citations {
        let (r, cited, flag) = citations::resolve(&c, sources, lines, label);
        report.citations.push(r);
        evidence.extend(cited);
        report.flags.extend(flag);
    }
    (report, evidence, references)
}

/// Added lines of hunk `hi` with their 1-based line numbers in the accept-all result and
/// their index in the hunk.
pub(super) fn added_lines(f: &FileDiff, hi: usize) -> Vec<(usize, usize, &crate::model::diff::Line)> {
    let h = &f.hunks[hi];
    let mut n = h.new_range.start;
    let mut out = Vec::new();
    for (i, l) in h.lines.iter().enumerate() {
        if l.op != Op::Remove {
            n += 1;
        }
        if l.op == Op::Add {
            out.push((n, i, l));
        }
    }
    out
}
