//! Values the note words itself. A count written as a word, changed: `Prod runs seven replicas` where the cited lines say
//! `we keep 5 replicas in prod`. A count of 2 to 12 in words is no claim of its own (`two
//! options` is how prose speaks, and a source seldom says it so), but where a cited clause
//! binds the same thing to another number, the word has changed the value: the line is
//! `contradicted`, quoting the clause.
//!
//! A weekday beside a date it is not the weekday of (`Tuesday, 2026-11-18`, a Wednesday;
//! `11月18日（火）`): the calendar contradicts the line whatever its sources say.

use super::cited_text::CitedText;
use super::sentence_verdict::{Verdict, statement_verdict};
use crate::analysis::claims::{self, ClaimValue, Statement};
use crate::analysis::findings::{ClaimReport, ClaimStatus};
use crate::analysis::flag::{Flag, FlagKind};
use crate::base::secrets::mask;
use std::sync::Arc;

/// The `contradicted` flag of a note line whose count in words a cited clause gives
/// another number.
pub(super) fn judge(line: &str, cited: &[(Arc<CitedText>, Arc<Vec<Statement>>)]) -> Option<(Flag, ClaimReport)> {
    let digits = claims::counts_in_digits(line)?;
    let already: Vec<String> = claims::extract(line).into_iter().map(|c| c.text).collect();
    let counts = claims::extract(&digits)
        .into_iter()
        .filter(|c| matches!(&c.value, ClaimValue::Number { unit: Some(_), .. }) && !already.contains(&c.text));
    for c in counts {
        let stated = cited.iter().any(|(t, _)| claims::Haystack::dated(&t.text, t.date).states(&c));
        if stated {
            continue;
        }
        for (t, clauses) in cited {
            for cl in clauses.iter() {
                let said = t.text.get(cl.range.clone()).unwrap_or("");
                if claims::contradiction(&c, said).is_some() {
                    let source = t.line_at(cl.range.start);
                    let quote = crate::base::text::one_line_cut(&mask(said.trim()), 200);
                    let shown = mask(line.trim()).into_owned();
                    let message = format!("the note says «{shown}», but {source} gives another number: «{quote}»");
                    let v = Verdict { status: ClaimStatus::Contradicted, source, quote, by: None };
                    return Some(statement_verdict(FlagKind::Contradicted, message, line, shown, v));
                }
            }
        }
    }
    None
}

/// The `contradicted` flag of a note line that names a weekday beside a date that does not
/// fall on it.
pub(super) fn judge_weekday(line: &str, said_on: Option<crate::base::date::Date>) -> Option<(Flag, ClaimReport)> {
    let w = claims::wrong_weekday(line, said_on)?;
    let shown = mask(&w.written).into_owned();
    let message = format!("the note says «{shown}», but that date is a {}: one of the two is wrong", w.actual);
    let v =
        Verdict { status: ClaimStatus::Contradicted, source: "the calendar".into(), quote: w.actual.into(), by: None };
    Some(statement_verdict(FlagKind::Contradicted, message, line, shown, v))
}
