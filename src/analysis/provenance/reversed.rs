//! A relation turned around: the note puts the two sides of a cause and its effect, or of
//! two steps in order, the other way round from the cited sentence that states it (`the
//! queue backlog causes the worker OOM kills` where the user said the OOM kills cause the
//! backlog; `run db:seed before db:migrate`). The line is `contradicted`, quoting it.
//!
//! A note sentence stating a relation (see `claims::relation`) is matched to each cited
//! sentence stating one: when the note's first side shares words with the cited second
//! side and its second side with the cited first one, more than straight across, and no
//! cited sentence puts them the note's way, the note has reversed it.

use super::cited_text::CitedText;
use super::sentence_verdict::{Verdict, statement_verdict};
use crate::analysis::claims::{self, Statement};
use crate::analysis::findings::{ClaimReport, ClaimStatus};
use crate::analysis::flag::{Flag, FlagKind};
use crate::base::secrets::mask;
use std::sync::Arc;

/// The `contradicted` flag of a note line that turns a cited relation around.
pub(super) fn judge(line: &str, cited: &[(Arc<CitedText>, Arc<Vec<Statement>>)]) -> Option<(Flag, ClaimReport)> {
    for note in claims::statements(line) {
        let said = line.get(note.range.clone()).unwrap_or("").trim();
        let Some((first, then)) = claims::relation(&said.to_lowercase()) else { continue };
        // An identifier (`db:seed`, `v2.4.0`) says which side is which more than a word does.
        let weight = |w: &String| if w.contains(|c: char| !c.is_alphabetic()) && w.is_ascii() { 2 } else { 1 };
        let shared = |a: &[String], b: &[String]| a.iter().filter(|w| b.contains(w)).map(weight).sum::<usize>();
        let mut reversed = None;
        for (t, clauses) in cited {
            for cl in clauses.iter() {
                let text = t.text.get(cl.range.clone()).unwrap_or("");
                let Some((f, th)) = claims::relation(&text.to_lowercase()) else { continue };
                let (cross_a, cross_b) = (shared(&first, &th), shared(&then, &f));
                let straight = shared(&first, &f) + shared(&then, &th);
                if straight >= cross_a + cross_b {
                    if straight > 0 {
                        return None;
                    }
                } else if cross_a >= 1 && cross_b >= 1 && reversed.is_none() {
                    reversed = Some((t, cl, text));
                }
            }
        }
        if let Some((t, cl, text)) = reversed {
            let source = t.line_at(cl.range.start);
            let quote = crate::base::text::one_line_cut(&mask(text.trim()), 200);
            let shown = mask(said).into_owned();
            let message = format!("the note says «{shown}», the other way round from {source}: «{quote}»");
            let v = Verdict { status: ClaimStatus::Contradicted, source, quote, by: None };
            return Some(statement_verdict(FlagKind::Contradicted, message, line, shown, v));
        }
    }
    None
}
