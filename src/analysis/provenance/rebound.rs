//! A value moved to another subject: the note writes a value the cited lines do state, but
//! beside words the cited lines bind to another value of the same sort.
//!
//! "Phones download the 172 MB vision model" is stated, word for word, by no cited line, yet
//! every value claim of it is sourced: `172 MB` is what the cited fp16 weights weigh, while
//! the cited sentence about the vision model says `87 MB`. A value claim is **rebound** when
//! the cited clause that shares most of the words around it — the part of the note sentence
//! between commas, colons or `;`, its unit or product aside; another sourced claim of that
//! part the clause states too counts as two words — (two or more, 40% of the part, and more
//! than any cited clause that states the value shares) binds the claim's subject to
//! another value of its sort — another number of the same unit, another version of the same
//! product, another port (`claims::contradiction` read on that one clause). The line is then
//! `contradicted`, quoting that clause.
//!
//! A note clause holding two values of the sort (`dropped from 420 ms to 180 ms`) is not
//! judged. Judged only between cited clauses, the finest ones: a sentence cut into parts
//! (at `, `, `; `, `and`…) is read by its parts (`the API runs on port 4000, the docs site
//! on port 4001` binds 4001 to the docs site); a clause that cannot be cut and both states
//! the value and holds another one (`from 420 ms to 180 ms`) states it; a tie is no verdict. What a table or
//! output spreads over several lines (a value on one line, what it is on the next) is read
//! line by line and is not caught.

use super::cited_text::CitedText;
use crate::analysis::claims::{self, Claim, Statement};
use std::sync::Arc;

/// The least number of content words a cited clause must share with the note clause to
/// speak of the same thing.
const SHARED: usize = 2;

/// The least share of the note clause's content words that clause must hold.
const CLOSE: f32 = 0.4;

/// A cited clause that binds a claim's words to another value.
pub(super) struct Rebound<'a> {
    /// The claim.
    pub(super) claim: &'a Claim,
    /// The message and the clause.
    pub(super) text: &'a Arc<CitedText>,
    pub(super) clause: &'a Statement,
    /// The note line's sentence holding the claim.
    pub(super) note: Statement,
}

/// The first value claim of `sourced` (claims of `line` the cited messages state) that the
/// cited clauses rebind to another value; `note` is the statement of the line holding it.
pub(super) fn rebound<'a>(
    line: &str,
    sourced: &[&'a Claim],
    cited: &'a [(Arc<CitedText>, Arc<Vec<Statement>>)],
) -> Option<Rebound<'a>> {
    let notes = claims::statements(line);
    for c in sourced.iter().copied().filter(|c| is_value(c)) {
        let Some(sentence) = notes.iter().find(|n| n.range.contains(&c.start)) else { continue };
        // Scored by the part of the sentence around the value (`9,120 downloads this month,
        // 4,310 between March and May` speaks of the month in its first part only).
        let part = part_around(line, sentence.range.clone(), c.start);
        // A note part that holds another value of the sort itself (`dropped from 420 ms to
        // 180 ms`) speaks of both: which one a cited clause binds says nothing against it.
        if claims::contradiction(c, line.get(part.clone()).unwrap_or("")).is_some() {
            continue;
        }
        let Some(note) = claims::statements(line.get(part.clone()).unwrap_or("")).into_iter().next() else { continue };
        let note = &note;
        let close = Closeness::of(c, sourced, part);
        // A cited sentence cut into parts is judged by its parts: `the API runs on port 4000,
        // the docs site on port 4001` binds 4001 to the docs site, not to the API.
        let split = |cl: &Statement, all: &[Statement]| {
            all.iter().any(|o| o.range != cl.range && cl.range.start <= o.range.start && o.range.end <= cl.range.end)
        };
        let clauses = cited
            .iter()
            .flat_map(|(t, clauses)| clauses.iter().filter(|cl| !split(cl, clauses)).map(move |cl| (t, cl)));
        let mut stating = 0;
        let mut best: Option<(usize, Rebound<'a>)> = None;
        for (t, cl) in clauses {
            let text = t.text.get(cl.range.clone()).unwrap_or("");
            let shared = close.shared(note, cl, text);
            if shared < SHARED {
                continue;
            }
            if claims::Haystack::dated(text, t.date).states(c) {
                stating = stating.max(shared);
            } else if shared as f32 >= CLOSE * close.total(note) as f32
                && best.as_ref().is_none_or(|(n, _)| shared > *n)
                && claims::contradiction(c, text).is_some()
            {
                best = Some((shared, Rebound { claim: c, text: t, clause: cl, note: sentence.clone() }));
            }
        }
        if let Some((shared, r)) = best
            && shared > stating
        {
            return Some(r);
        }
    }
    None
}

/// How closely a cited clause speaks of what the note part around a value does: the
/// content words they share (the value's own unit or product aside: both have it by
/// construction), and two for each other sourced claim of the part the clause states too
/// (`1,284 tests` beside the `3 minutes` they took).
struct Closeness<'a> {
    /// Stems of the value's unit or product.
    own: Vec<String>,
    /// The other sourced claims of the part.
    anchors: Vec<&'a Claim>,
}

impl<'a> Closeness<'a> {
    fn of(c: &Claim, sourced: &[&'a Claim], part: std::ops::Range<usize>) -> Closeness<'a> {
        let mut own = match &c.value {
            claims::ClaimValue::Number { unit: Some(u), .. } => claims::content_stems(u),
            _ => Vec::new(),
        };
        if let Some(s) = &c.subject {
            own.extend(claims::content_stems(&s.label.text));
        }
        let anchors = sourced.iter().copied().filter(|o| !std::ptr::eq(*o, c) && part.contains(&o.start)).collect();
        Closeness { own, anchors }
    }

    /// How much of the note part a cited clause can share at most.
    fn total(&self, note: &Statement) -> usize {
        let words = note.content.iter().filter(|w| !self.own.contains(&w.stem)).count();
        words + 2 * self.anchors.len()
    }

    /// How much of the note part the cited clause `cl` (its text `text`) shares.
    fn shared(&self, note: &Statement, cl: &Statement, text: &str) -> usize {
        let words = note.content.iter().filter(|w| !self.own.contains(&w.stem) && cl.word(&w.stem).is_some()).count();
        words + 2 * self.anchors.iter().filter(|a| claims::occurs_in(a, text)).count()
    }
}

/// True when the claim is a value of a sort another value can replace: a number with its
/// unit, a version of a product, a port.
pub(super) fn is_value(c: &Claim) -> bool {
    match &c.value {
        claims::ClaimValue::Number { unit, .. } => unit.is_some() || c.subject.as_ref().is_some_and(|s| s.required),
        claims::ClaimValue::Port { .. } => true,
        claims::ClaimValue::Text(_) => c.kind == claims::ClaimKind::Version && c.subject.is_some(),
        _ => false,
    }
}

/// The part of sentence `range` of `line` holding byte `at`: cut at `;`, and at a comma
/// followed by a space (`9,120` stays whole) or an ideographic comma.
fn part_around(line: &str, range: std::ops::Range<usize>, at: usize) -> std::ops::Range<usize> {
    let text = line.get(range.clone()).unwrap_or("");
    let cuts: Vec<(usize, usize)> = text
        .char_indices()
        .filter(|&(i, c)| {
            matches!(c, ';' | '；' | '，' | '、') || (matches!(c, ',' | ':') && text[i + 1..].starts_with(' '))
        })
        .map(|(i, c)| (range.start + i, range.start + i + c.len_utf8()))
        .collect();
    let start = cuts.iter().filter(|(_, end)| *end <= at).map(|&(_, end)| end).max().unwrap_or(range.start);
    let end = cuts.iter().filter(|(i, _)| *i >= at).map(|&(i, _)| i).min().unwrap_or(range.end);
    start..end
}

#[cfg(test)]
mod tests {
    use super::part_around;

    #[test]
    fn a_part_is_cut_at_commas_and_semicolons_but_not_inside_numbers() {
        let line = "9,120 downloads this month, 4,310 between March and May; done";
        let part = |needle: &str| &line[part_around(line, 0..line.len(), line.find(needle).unwrap())];
        assert_eq!(part("9,120"), "9,120 downloads this month");
        assert_eq!(part("4,310"), " 4,310 between March and May");
        let zh = "流程：5 个任务共 90 分钟，做完后另有 15 min 复盘";
        assert_eq!(&zh[part_around(zh, 0..zh.len(), zh.find("90").unwrap())], "流程：5 个任务共 90 分钟");
    }
}
