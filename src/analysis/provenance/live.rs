//! Live memory for the "carried over" rule: whether a claim is already in the note it is
//! added to, or in any live note, for every pending claim of a review at once.
//!
//! The notes are prepared once as a [`claims::Corpus`] for all the pending claims: one
//! automaton over every claim's needles run once over each note, and each claim's exact
//! test only on the lines its strings occur in. Asking for every claim is linear in the
//! notes' bytes and the claims, where testing each claim against each whole note was their
//! product (a 400,000-line note with 50,000 changed lines: about a day). The answers are
//! those of [`claims::occurs_in`] on each whole note (see [`claims::Corpus`] for the one
//! exception, a date written across a line break).

use crate::analysis::claims::{self, Claim};
use crate::model::diff::{Hunk, Op};
use crate::model::ids::HunkId;
use crate::model::review::Review;

/// The live notes of a review, ready for [`LiveMemory::carried`].
pub(super) struct LiveMemory<'a> {
    corpus: claims::Corpus<'a>,
    /// How many of the corpus's texts are live notes (the rest: changed files' own live
    /// sides that differ from them).
    notes: usize,
    /// Per changed file, its live side's text in the corpus.
    of_file: Vec<Option<usize>>,
}

impl<'a> LiveMemory<'a> {
    /// The live notes of `review` (and each changed file's live side), prepared for
    /// `claims`, each the claim of an added line of a changed file's hunk:
    /// whether each is carried over is found for all of them at once, on both cores. The
    /// lines its hunk removes are tried first (a rewritten line mostly keeps its values).
    pub(super) fn new(review: &'a Review, claims: &[(&Claim, HunkId)]) -> LiveMemory<'a> {
        let mut texts: Vec<&'a str> = Vec::new();
        let mut by_path = std::collections::HashMap::new();
        // A daily note (OpenClaw's `memory/2026-06-02.md`) is a source, not memory: what it
        // says is judged like a transcript line, never carried over.
        for (path, e) in review.live.iter().filter(|(path, _)| !daily_note(path)) {
            if let Some(t) = note_text(e) {
                by_path.insert(path.as_str(), texts.len());
                texts.push(t);
            }
        }
        let notes = texts.len();
        let of_file = review
            .files
            .iter()
            .map(|f| {
                if daily_note(&f.path) {
                    return None;
                }
                let t = f.live.as_ref().and_then(note_text)?;
                match by_path.get(f.path.as_str()) {
                    Some(&i) if texts[i] == t => Some(i),
                    _ => {
                        texts.push(t);
                        Some(texts.len() - 1)
                    }
                }
            })
            .collect();
        let corpus = claims::Corpus::new(texts, claims.iter().map(|&(c, _)| c));
        let live = LiveMemory { corpus, notes, of_file };
        let asks: Vec<claims::Ask> = claims
            .iter()
            .map(|&(claim, at)| {
                let texts = live.texts_of(at.file);
                let own = live.of_file.get(at.file).copied().flatten();
                let first_lines = match (own, review.hunk(at)) {
                    (Some(_), Some(h)) => removed_lines(h),
                    _ => Vec::new(),
                };
                claims::Ask { claim, texts, first_lines }
            })
            .collect();
        live.corpus.prepare(&asks);
        live
    }

    /// The texts [`LiveMemory::carried`] tries for a claim of changed file `file`, in order.
    fn texts_of(&self, file: usize) -> Vec<usize> {
        self.of_file.get(file).copied().flatten().into_iter().chain(0..self.notes).collect()
    }

    /// True when live memory already says the claim: changed file `file`'s live side, or
    /// any live note.
    pub(super) fn carried(&self, c: &Claim, file: usize) -> bool {
        self.of_file.get(file).copied().flatten().is_some_and(|t| self.corpus.states(t, c))
            || (0..self.notes).any(|t| self.corpus.states(t, c))
    }
}

/// The live lines (0-based) hunk `h` removes.
fn removed_lines(h: &Hunk) -> Vec<usize> {
    let mut at = h.old_range.start;
    let mut out = Vec::new();
    for l in &h.lines {
        match l.op {
            Op::Add => {}
            Op::Remove => {
                out.push(at);
                at += 1;
            }
            Op::Context => at += 1,
        }
    }
    out
}

/// True when `path` (relative to the memory folder) is a daily note, dated by its name.
pub(super) fn daily_note(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    crate::inputs::transcript::date_from_file_name(name).is_some()
}

/// A note's text, when it is text.
fn note_text(e: &crate::inputs::snapshot::Entry) -> Option<&str> {
    e.bytes().and_then(crate::base::text::as_text)
}
