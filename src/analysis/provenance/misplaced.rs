//! Sentences cited at the wrong place: an added line's sentence that the lines near a
//! citation state (within [`NEAR`] lines of it, in the same transcript) while the cited
//! lines themselves say little of it is `citation-unsupported`, naming the line that does
//! say it. A citation off by a few lines is the commonest way a model miscounts; a line
//! with no value claim (`コミットメッセージは英語で、PR の説明は日本語で書く`, `Reload
//! fixtures through the job queue`) has nothing else that would tell.
//!
//! A hunk is judged by the citations of the entries about its note alone (`## notes.md`)
//! when it has some, else by all of its entries'.
//!
//! A paraphrase is no fault: a sentence is judged only when a nearby line states it (60%
//! of its content words or CJK character pairs, three shared at least) and no cited
//! clause holds even [`SAYS_LITTLE`] of it. Whole-file citations and lines that already
//! carry a flag of their sentence or claims are left alone.

use super::citations::Cited;
use super::cited_text::CitedText;
use super::entries::added_lines;
use super::lines::CitedLines;
use crate::analysis::claims::{self, Statement};
use crate::analysis::findings::Findings;
use crate::analysis::flag::{Flag, FlagKind};
use crate::analysis::result::ChangeReport;
use crate::base::secrets::mask;
use crate::inputs::transcript::SourceSet;
use crate::model::ids::EntryId;
use crate::model::review::Review;
use std::collections::{BTreeSet, HashMap};
use std::sync::Arc;

/// How many lines before and after a cited range are read for the sentence it should state.
const NEAR: usize = 6;

/// The least share of a note sentence a nearby line must hold to state it.
const CLOSE: f32 = 0.6;

/// Below this share at every cited clause, the cited lines say little of a sentence.
const SAYS_LITTLE: f32 = 0.34;

/// How much of a message is read for sentences.
const READ_BYTES: usize = 16 << 10;

/// Flags the added lines whose sentence a line near their hunk's citations states and the
/// cited lines do not.
pub(super) fn check(
    review: &Review,
    sources: &SourceSet,
    (reports, cited): (&[ChangeReport], &[Vec<Cited>]),
    lines: &mut CitedLines,
    findings: &mut Findings,
) {
    let mut clauses = Clauses::default();
    for (fi, f) in review.files.iter().enumerate() {
        if !f.kind.writable() {
            continue;
        }
        for id in review.hunks_of(fi) {
            // The entries about this note alone, when it has some (`## notes.md`), else all
            // of its entries: an index entry naming three notes cites what it indexes.
            let entries = findings.changes(id);
            let own: Vec<EntryId> = entries
                .iter()
                .copied()
                .filter(|n| reports.get(n.index()).is_some_and(|r| r.notes.len() == 1 && r.notes[0] == f.path))
                .collect();
            let entries = if own.is_empty() { entries.to_vec() } else { own };
            let evidence: Vec<&Cited> = entries
                .iter()
                .filter_map(|n| cited.get(n.index()))
                .flatten()
                .filter(|c| !c.whole_file && !c.texts.is_empty())
                .collect();
            if evidence.is_empty() {
                continue;
            }
            let flagged: BTreeSet<String> = findings.hunk(id).iter().filter_map(|f| f.line.clone()).collect();
            let body = body_lines(f, id.hunk);
            let mut near: Option<Vec<Arc<CitedText>>> = None;
            let mut misplaced = false;
            for &text in body.iter().filter(|t| !flagged.contains(mask(t).as_ref())) {
                let Some(said) = judge(text, &evidence, &mut clauses, || {
                    near.get_or_insert_with(|| near_messages(sources, &evidence, lines)).clone()
                }) else {
                    continue;
                };
                findings.add_hunk_flag(id, flag(text, &said, &evidence));
                misplaced = true;
            }
            if !misplaced
                && flagged.is_empty()
                && let Some(flag) = unrelated(&body, &evidence, &mut clauses)
            {
                findings.add_hunk_flag(id, flag);
            }
        }
    }
}

/// The lines hunk `hi` of `f` adds, its frontmatter aside.
fn body_lines(f: &crate::model::diff::FileDiff, hi: usize) -> Vec<&str> {
    let mut frontmatter = false;
    let mut out = Vec::new();
    for (n, _, line) in added_lines(f, hi) {
        let text = crate::base::text::strip_terminator(&line.text);
        let fence = text.trim_end() == "---";
        frontmatter = if n == 1 { fence } else { frontmatter && !fence };
        if !(fence || frontmatter) {
            out.push(text);
        }
    }
    out
}

/// `citation-unsupported` for a hunk whose lines hold no value claim (only sentences, which
/// nothing else would judge) and whose cited lines share not one content word (or CJK
/// character pair) with them: the citation points at something else altogether (another
/// session's line, a tool call about other files). One word in common and it is left
/// alone: a paraphrase of what an edit did shares little with the edit.
fn unrelated(body: &[&str], evidence: &[&Cited], clauses: &mut Clauses) -> Option<Flag> {
    let read: Vec<(&str, Vec<Statement>)> = body.iter().map(|l| (*l, claims::statements(l))).collect();
    let first = read.iter().find(|(_, s)| s.iter().any(|s| s.content.len() >= 3))?;
    let sentences: Vec<&Statement> = read.iter().flat_map(|(_, s)| s).collect();
    let valued = body.iter().any(|l| claims::extract(l).iter().any(|c| c.kind != claims::ClaimKind::Link));
    if valued {
        return None;
    }
    let cited: Vec<Arc<Vec<Statement>>> = evidence.iter().flat_map(|c| c.texts.iter()).map(|t| clauses.of(t)).collect();
    let shares = sentences.iter().any(|s| cited.iter().flat_map(|c| c.iter()).any(|c| s.shared(c) > 0));
    if shares {
        return None;
    }
    let (line, statements) = first;
    let sentence = statements.iter().find(|s| s.content.len() >= 3)?;
    let shown = crate::base::text::one_line_cut(&mask(line.get(sentence.range.clone()).unwrap_or(line).trim()), 200);
    let cites = spans(evidence).join(", ");
    Some(
        Flag::new(
            FlagKind::CitationUnsupported,
            format!("the cited lines ({cites}) share not one word with what the hunk adds: «{shown}»"),
        )
        .with_source(cites)
        .with_claim(shown)
        .with_line(mask(line).into_owned()),
    )
}

/// `name:first-last` of each citation.
fn spans(evidence: &[&Cited]) -> Vec<String> {
    let mut cites: Vec<String> = evidence
        .iter()
        .map(|c| {
            let lo = c.texts.iter().map(|t| first_line(t)).min().unwrap_or(0);
            let hi = c.texts.iter().map(|t| t.last).max().unwrap_or(lo);
            if lo == hi { format!("{}:{lo}", c.name) } else { format!("{}:{lo}-{hi}", c.name) }
        })
        .collect();
    cites.dedup();
    cites
}

/// A sentence of the note and the nearby line that states it.
struct Said {
    sentence: String,
    at: String,
}

/// The first sentence of `line` a nearby message states while no cited clause says much
/// of it.
fn judge(
    line: &str,
    evidence: &[&Cited],
    clauses: &mut Clauses,
    near: impl FnOnce() -> Vec<Arc<CitedText>>,
) -> Option<Said> {
    let sentences: Vec<Statement> = claims::statements(line)
        .into_iter()
        .filter(|s| s.content.len() >= 3 && !s.content.iter().any(|w| w.negated))
        .collect();
    if sentences.is_empty() {
        return None;
    }
    let cited: Vec<Arc<Vec<Statement>>> = evidence.iter().flat_map(|c| c.texts.iter()).map(|t| clauses.of(t)).collect();
    let little = |s: &Statement| cited.iter().flat_map(|c| c.iter()).all(|c| s.covered_by(c) < SAYS_LITTLE);
    let unsaid: Vec<&Statement> = sentences.iter().filter(|s| little(s)).collect();
    if unsaid.is_empty() {
        return None;
    }
    let near = near();
    for s in unsaid {
        for m in &near {
            let stated = clauses.of(m).iter().find(|c| s.covered_by(c) >= CLOSE && s.shared(c) >= 3).cloned();
            if let Some(c) = stated {
                let sentence = line.get(s.range.clone()).unwrap_or(line).trim().to_string();
                return Some(Said { sentence, at: m.line_at(c.range.start) });
            }
        }
    }
    None
}

/// The messages within [`NEAR`] lines of each cited range, the cited ones aside, nearest
/// first.
fn near_messages(sources: &SourceSet, evidence: &[&Cited], lines: &mut CitedLines) -> Vec<Arc<CitedText>> {
    let cited: BTreeSet<(usize, usize)> = evidence
        .iter()
        .flat_map(|c| c.texts.iter().flat_map(move |t| (first_line(t)..=t.last).map(move |n| (c.source, n))))
        .collect();
    let mut out: Vec<(usize, Arc<CitedText>)> = Vec::new();
    let mut seen = BTreeSet::new();
    for c in evidence {
        let Some(t) = lines.transcript(sources, c.source) else { continue };
        let count = t.line_count();
        let (lo, hi) = c.texts.iter().fold((usize::MAX, 0), |(lo, hi), m| (lo.min(first_line(m)), hi.max(m.last)));
        for n in lo.saturating_sub(NEAR).max(1)..=(hi + NEAR).min(count) {
            // The one line between two cited lines counts as cited (`:2, :4` cite the
            // exchange around line 3).
            let between = n > 1 && cited.contains(&(c.source, n - 1)) && cited.contains(&(c.source, n + 1));
            if cited.contains(&(c.source, n)) || between || !seen.insert((c.source, n)) {
                continue;
            }
            let m = lines.message(c.source, &t, n);
            if cited.contains(&(c.source, first_line(&m))) {
                continue;
            }
            let distance = if n < lo { lo - n } else { n.saturating_sub(hi) };
            out.push((distance, m));
        }
    }
    out.sort_by_key(|(d, _)| *d);
    out.dedup_by(|a, b| Arc::ptr_eq(&a.1, &b.1));
    out.into_iter().map(|(_, m)| m).collect()
}

/// The first line of a message (`name:12` → 12).
fn first_line(t: &CitedText) -> usize {
    t.loc.rsplit_once(':').and_then(|(_, l)| l.parse().ok()).unwrap_or(t.last)
}

fn flag(line: &str, said: &Said, evidence: &[&Cited]) -> Flag {
    let cites = spans(evidence);
    let shown = crate::base::text::one_line_cut(&mask(&said.sentence), 200);
    Flag::new(
        FlagKind::CitationUnsupported,
        format!("«{shown}» is not stated at the cited lines ({}); it is said at {}", cites.join(", "), said.at),
    )
    .with_source(said.at.clone())
    .with_claim(shown)
    .with_line(mask(line).into_owned())
}

/// The clauses of each message (its statements and their parts), split once; the
/// message is held with them, so its address names it while the map lives.
#[derive(Default)]
struct Clauses {
    split: HashMap<usize, (Arc<CitedText>, Arc<Vec<Statement>>)>,
}

impl Clauses {
    fn of(&mut self, t: &Arc<CitedText>) -> Arc<Vec<Statement>> {
        let key = Arc::as_ptr(t) as usize;
        let (_, clauses) = self.split.entry(key).or_insert_with(|| {
            let text = super::cited_text::cut(&t.text, READ_BYTES);
            let mut all = claims::statements(text);
            all.extend(claims::parts(text));
            (Arc::clone(t), Arc::new(all))
        });
        Arc::clone(clauses)
    }
}
