//! A rewrite that turns the live line around: an added line that restates a line its own
//! hunk removes (60% of the words one way, two shared) but takes the other side — one of
//! the two negates a word the other asserts, or they use the two sides of an antonym pair
//! (`before`/`after`, `required`/`optional`, 必須/任意…) — is `contradicted` unless a cited
//! clause takes the new side too. The dream may rewrite what live memory said; it may not
//! turn it around on no one's word (`Run the suite before every push` → `after every
//! push`, with a citation about the test count).
//!
//! The added line is read whole and in its parts (between commas, colons and semicolons:
//! `Run pytest after every push: the suite has 1,284 tests` is judged by its first part).

use super::cited_text::CitedText;
use super::sentence_verdict::{Verdict, statement_verdict};
use crate::analysis::claims::{self, Opposite, Statement};
use crate::analysis::findings::{ClaimReport, ClaimStatus};
use crate::analysis::flag::{Flag, FlagKind};
use crate::base::secrets::mask;
use std::sync::Arc;

/// The least share of one statement's content words the other must hold (either way).
const CLOSE: f32 = 0.6;

/// A removed live line: where it was (`note.md:7`) and its text.
pub(super) struct LiveLine<'a> {
    pub at: String,
    pub text: &'a str,
    /// Its statements, then its parts: read once, when first asked for (every clause of
    /// every added line of the hunk is held against them).
    clauses: std::cell::OnceCell<Vec<Statement>>,
    /// [`claims::calm`] of its text, found when first asked for.
    calm: std::cell::OnceCell<bool>,
}

impl LiveLine<'_> {
    fn calm(&self) -> bool {
        *self.calm.get_or_init(|| claims::calm(self.text))
    }

    fn clauses(&self) -> &[Statement] {
        self.clauses.get_or_init(|| claims::statements(self.text).into_iter().chain(claims::parts(self.text)).collect())
    }
}

/// The live lines hunk `hi` of `f` removes, each with where it was (`note.md:7`).
pub(super) fn removed_lines(f: &crate::model::diff::FileDiff, hi: usize) -> Vec<LiveLine<'_>> {
    let h = &f.hunks[hi];
    let mut at = h.old_range.start;
    let mut out = Vec::new();
    for l in &h.lines {
        if l.op != crate::model::diff::Op::Add {
            at += 1;
        }
        if l.op == crate::model::diff::Op::Remove {
            let text = crate::base::text::strip_terminator(&l.text);
            out.push(LiveLine {
                at: format!("{}:{at}", f.path),
                text,
                clauses: Default::default(),
                calm: Default::default(),
            });
        }
    }
    out
}

/// The flag and `statement` claim of added line `line` when it turns a removed line of its
/// hunk around and no clause of `cited` takes its side.
pub(super) fn judge(
    line: &str,
    removed: &[LiveLine<'_>],
    cited: &[(Arc<CitedText>, Arc<Vec<Statement>>)],
) -> Option<(Flag, ClaimReport)> {
    // Two calm lines never turn each other around: only the others are read.
    let calm = claims::calm(line);
    let removed: Vec<&LiveLine<'_>> = removed.iter().filter(|old| !(calm && old.calm())).collect();
    if removed.is_empty() {
        return None;
    }
    let notes = claims::statements(line).into_iter().chain(claims::parts(line));
    for note in notes {
        for &old in &removed {
            for live in old.clauses() {
                if note.shared(live) < 2 || note.covered_by(live).max(live.covered_by(&note)) < CLOSE {
                    continue;
                }
                let Some(how) = note.opposite(live).or_else(|| live.opposite(&note)) else { continue };
                let sides = Sides { note: &note, live, how };
                let sourced = cited
                    .iter()
                    .flat_map(|(_, clauses)| clauses.iter())
                    .any(|c| c.shared(&note) >= 1 && sides.taken_by(c));
                if !sourced {
                    return Some(verdict(line, &note, old, live));
                }
            }
        }
    }
    None
}

/// The two sides of a turn-around.
struct Sides<'a> {
    note: &'a Statement,
    live: &'a Statement,
    how: Opposite,
}

impl Sides<'_> {
    /// True when clause `c` takes the note's side where it departs from the live line: the
    /// note's side of an antonym pair the two assert differently, or a word they negate
    /// differently with the note's polarity, or (read part by part) it turns the live line
    /// around as the note does and does not turn the note around (`switched CI from GitHub
    /// Actions to Buildkite` for `GitHub Actions was retired` replacing `CI runs on GitHub
    /// Actions`).
    fn taken_by(&self, c: &Statement) -> bool {
        match self.how {
            Opposite::Antonym => self.note.pairs().any(|p| {
                let side = self.note.asserted_side(p);
                side.is_some() && side != self.live.asserted_side(p) && c.asserted_side(p) == side
            }),
            Opposite::Negation => {
                self.note.content.iter().any(|w| {
                    self.live.word(&w.stem).is_some_and(|o| o.negated != w.negated)
                        && c.word(&w.stem).is_some_and(|x| x.negated == w.negated)
                }) || self.live.opposite(c).is_some() && self.note.opposite(c).is_none()
            }
        }
    }
}

fn verdict(line: &str, note: &Statement, old: &LiveLine<'_>, live: &Statement) -> (Flag, ClaimReport) {
    let said = mask(line.get(note.range.clone()).unwrap_or(line).trim()).into_owned();
    let was = crate::base::text::one_line_cut(&mask(old.text.get(live.range.clone()).unwrap_or(old.text).trim()), 200);
    let message = format!(
        "the note says «{said}» but the line it replaces ({}) says «{was}», and no cited line says otherwise",
        old.at
    );
    let v = Verdict { status: ClaimStatus::Contradicted, source: old.at.clone(), quote: was, by: None };
    statement_verdict(FlagKind::Contradicted, message, line, said, v)
}
