//! A moment moved to another zone without its day: the note names a day, a time and a zone
//! (`2026-12-01 17:00 UTC`) that no cited line names, and a cited line names a moment that
//! falls at that very time of day in the note's zone on another day (`2026年12月1日 2:00
//! （日本時間）` is 11/30 17:00 UTC). The hour was converted and the date was not: the
//! line is `contradicted`, quoting the cited moment and what it is in the note's zone.
//!
//! A note moment equal to a cited one (in any zone) is sourced, and so are its day and time
//! ([`converted`]). A cited moment at another time of day says nothing here: the time claim
//! itself is judged as any value is.

use super::cited_text::CitedText;
use super::sentence_verdict::{Verdict, statement_verdict};
use crate::analysis::claims::instants::{Instant, instants, local};
use crate::analysis::claims::{Claim, ClaimKind, Statement};
use crate::analysis::findings::{ClaimReport, ClaimStatus};
use crate::analysis::flag::{Flag, FlagKind};
use crate::base::secrets::mask;
use std::sync::Arc;

/// The `contradicted` flag of a note line naming a moment whose day a conversion left
/// behind (see the module doc). `year`: the year the cited lines were said in.
pub(super) fn judge(
    line: &str,
    year: Option<i32>,
    cited: &[(Arc<CitedText>, Arc<Vec<Statement>>)],
) -> Option<(Flag, ClaimReport)> {
    let notes = instants(line, year);
    if notes.is_empty() {
        return None;
    }
    let theirs: Vec<(&CitedText, Instant)> = cited
        .iter()
        .flat_map(|(t, _)| instants(&t.text, t.date.map(|d| d.year).or(year)).into_iter().map(move |i| (t.as_ref(), i)))
        .collect();
    for n in &notes {
        if theirs.iter().any(|(_, c)| c.at == n.at) {
            continue;
        }
        let mine = local(n.at, &n.zone);
        let moved = theirs.iter().find(|(_, c)| {
            let there = local(c.at, &n.zone);
            (there.3, there.4) == (mine.3, mine.4) && (there.0, there.1, there.2) != (mine.0, mine.1, mine.2)
        });
        let Some((t, c)) = moved else { continue };
        let said = line.get(n.range.clone()).unwrap_or(line).trim();
        let quote = t.text.get(c.range.clone()).unwrap_or("").trim();
        let source = t.line_at(c.range.start);
        let (y, m, d, h, mi) = local(c.at, &n.zone);
        let shown = mask(said).into_owned();
        let message = format!(
            "the note says «{shown}», but {source} says «{}», which is {y:04}-{m:02}-{d:02} {h:02}:{mi:02} in the note's \
             zone: the time was converted and the day was not",
            mask(quote)
        );
        let v = Verdict { status: ClaimStatus::Contradicted, source, quote: mask(quote).into_owned(), by: None };
        return Some(statement_verdict(FlagKind::Contradicted, message, line, shown, v));
    }
    None
}

/// Where a date or time of day claim `c` of `line` is sourced as part of a moment the note
/// converts from a cited one (`2026-11-30 17:00 UTC` for `2026年12月1日 2:00（日本時間）`):
/// the cited line naming the same moment. A conversion says what its source says.
pub(super) fn converted(c: &Claim, line: &str, texts: &[&Arc<CitedText>]) -> Option<String> {
    if !matches!(c.kind, ClaimKind::Date | ClaimKind::Number) || !line.contains(':') {
        return None;
    }
    let year = texts.iter().find_map(|t| t.date).map(|d| d.year);
    let mine = instants(line, year).into_iter().find(|i| i.range.start <= c.start && c.end <= i.range.end)?;
    texts.iter().find_map(|t| {
        let theirs = instants(&t.text, t.date.map(|d| d.year).or(year));
        theirs.iter().find(|i| i.at == mine.at).map(|i| t.line_at(i.range.start))
    })
}
