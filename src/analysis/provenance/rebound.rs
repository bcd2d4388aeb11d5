//! A value moved to another subject: the note writes a value the cited lines do state, but
//! beside words the cited lines bind to another value of the same sort.
//!
//! "Phones download the 172 MB vision model" is stated, word for word, by no cited line, yet
//! every value claim of it is sourced: `172 MB` is what the cited fp16 weights weigh, while
//! the cited sentence about the vision model says `87 MB`. A value claim is **rebound** when
//! the cited clause that shares most of the words around it — the part of the note sentence
//! between commas, colons, `;` or brackets, its unit or product aside; another sourced claim of that
//! part the clause states too counts as two words — (two or more, 40% of the part, and more
//! than any cited clause that states the value shares) binds the claim's subject to
//! another value of its sort — another number of the same unit, another version of the same
//! product, another port (`claims::contradiction` read on that one clause). The line is then
//! `contradicted`, quoting that clause.
//!
//! A **name** is rebound the same way (`the customer frontend is React` where the cited
//! clause says `the customer frontend is Svelte` and React is the admin panel's): the
//! clause must put another capitalised word in the name's slot — right after the word the
//! note has before the name, or right before the word it has after it — so that a name
//! beside words another name shares in another role (`tests run against Postgres` where
//! tests run *on* GitHub Actions) is not read as replaced. The note part is cut at
//! `and`/`but` before a new subject (`… and Dana owns search`, `… and the docs site on port
//! 4000`), not before a verb sharing one (`has 1,284 tests and takes 3 minutes`). In a part
//! of one or two words (`prod runs Postgres 15`) one shared word is enough when the cited
//! sentence says both side by side (`prod is on Postgres 16, staging on Postgres 15`) and
//! its clause stating the claim shares none.
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
use crate::base::date::Date;
use std::sync::Arc;

/// True when the value at byte `at` of `part` is the old side of a change written with an
/// arrow (`2000 → 5000`): a cited line giving the new value does not contradict it. The
/// new side is judged as any value (`raised 14 → 21 days` against `stays at 14 days`).
fn changed_from(part: &str, at: usize) -> bool {
    let rest = part.get(at..).unwrap_or("");
    // The arrow follows the value and its unit, with no other figure between.
    ["→", "->", "=>", "⇒", "⟶"].iter().filter_map(|a| rest.find(a).map(|i| (i, a.len()))).any(|(i, len)| {
        let between = &rest[..i];
        between.len() <= 24 && claims::amounts(between).len() <= 1 && !claims::amounts(&rest[i + len..]).is_empty()
    })
}

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

/// The first value or name claim of `sourced` (claims of `line` the cited messages state)
/// that the cited clauses rebind to another value or name; `note` is the statement of the
/// line holding it.
pub(super) fn rebound<'a>(
    line: &str,
    sourced: &[&'a Claim],
    cited: &'a [(Arc<CitedText>, Arc<Vec<Statement>>)],
) -> Option<Rebound<'a>> {
    let notes = claims::statements(line);
    for c in sourced.iter().copied().filter(|c| is_value(c) || is_name(c)) {
        let Some(sentence) = notes.iter().find(|n| n.range.contains(&c.start)) else { continue };
        // Scored by the part of the sentence around the value (`9,120 downloads this month,
        // 4,310 between March and May` speaks of the month in its first part only).
        let part = part_around(line, sentence.range.clone(), c.start);
        let part_text = line.get(part.clone()).unwrap_or("");
        let sort = if is_value(c) {
            // A note part that holds another value of the sort itself (`dropped from 420 ms
            // to 180 ms`) speaks of both: which one a cited clause binds says nothing.
            if claims::contradiction(c, part_text).is_some() || changed_from(part_text, c.start - part.start) {
                continue;
            }
            Sort::Value
        } else {
            let Some(slot) = Slot::of(line, part.clone(), c) else { continue };
            Sort::Name(slot, part_text)
        };
        let Some(note) = claims::statements(part_text).into_iter().next() else { continue };
        let close = Closeness::of(c, sourced, part);
        if let Some((text, clause)) = rebinding(c, &sort, &note, &close, cited) {
            return Some(Rebound { claim: c, text, clause, note: sentence.clone() });
        }
    }
    None
}

/// What a claim is of, for what another one of its sort is.
enum Sort<'l> {
    /// A value: another number of its unit, version of its product, port.
    Value,
    /// A name, at its slot in the note part (the text of the part beside).
    Name(Slot, &'l str),
}

impl Sort<'_> {
    /// True when the cited clause `text` states the claim.
    fn states(&self, c: &Claim, text: &str, date: Option<Date>) -> bool {
        match self {
            Sort::Value => claims::Haystack::dated(text, date).states(c),
            Sort::Name(..) => has_word(text, &c.text),
        }
    }

    /// True when the cited clause `text` gives the claim's subject another value or name.
    fn other(&self, c: &Claim, text: &str) -> bool {
        match self {
            Sort::Value => claims::contradiction(c, text).is_some(),
            Sort::Name(slot, part) => slot.filled_otherwise(text, &c.text, part),
        }
    }
}

/// The cited clause that binds the claim's words to another of its sort: it shares more of
/// the note part's words than any clause stating the claim (see the module doc); `None`
/// when none does.
fn rebinding<'a>(
    c: &Claim,
    sort: &Sort<'_>,
    note: &Statement,
    close: &Closeness<'_>,
    cited: &'a [(Arc<CitedText>, Arc<Vec<Statement>>)],
) -> Option<(&'a Arc<CitedText>, &'a Statement)> {
    // A cited sentence cut into parts is judged by its parts: `the API runs on port 4000,
    // the docs site on port 4001` binds 4001 to the docs site, not to the API.
    let split = |cl: &Statement, all: &[Statement]| {
        all.iter().any(|o| o.range != cl.range && cl.range.start <= o.range.start && o.range.end <= cl.range.end)
    };
    let clauses =
        || cited.iter().flat_map(|(t, clauses)| clauses.iter().filter(|cl| !split(cl, clauses)).map(move |cl| (t, cl)));
    let total = close.total(note);
    let mut stating: Vec<(&Arc<CitedText>, &Statement, usize)> = Vec::new();
    let mut best: Option<(usize, &'a Arc<CitedText>, &'a Statement)> = None;
    for (t, cl) in clauses() {
        let text = t.text.get(cl.range.clone()).unwrap_or("");
        let shared = close.shared(note, cl, text);
        if sort.states(c, text, t.date) {
            stating.push((t, cl, shared));
        } else if shared >= 1
            && shared as f32 >= CLOSE * total as f32
            && best.as_ref().is_none_or(|(n, ..)| shared > *n)
            && sort.other(c, text)
        {
            best = Some((shared, t, cl));
        }
    }
    let (shared, t, cl) = best?;
    let most_stating = stating.iter().map(|s| s.2).max().unwrap_or(0);
    // One shared word is enough in a short part (`prod runs Postgres 15`) only against a
    // sentence that says the two side by side (`prod is on Postgres 16, staging is still on
    // Postgres 15`), the clause stating the claim sharing none of the part's words.
    let parallel = || {
        total <= 2
            && stating.iter().any(|(st, scl, _)| Arc::ptr_eq(st, t) && same_sentence(&t.text, &cl.range, &scl.range))
    };
    (shared > most_stating && (shared >= SHARED || parallel())).then_some((t, cl))
}

/// True when no sentence ends between two ranges of `text`.
fn same_sentence(text: &str, a: &std::ops::Range<usize>, b: &std::ops::Range<usize>) -> bool {
    let (from, to) = (a.start.min(b.start), a.end.max(b.end));
    let between = text.get(from..to).unwrap_or("");
    !between.contains(['\n', '。', '!', '?']) && !between.contains(". ")
}

/// Where a name stands in its note part: the word before it and the word after it
/// (lowercase; `the`, `a`, `an` skipped; empty at the part's edge).
struct Slot {
    before: String,
    after: String,
}

impl Slot {
    fn of(line: &str, part: std::ops::Range<usize>, c: &Claim) -> Option<Slot> {
        let before = line.get(part.start..c.start)?;
        let after = line.get(c.end..part.end)?;
        Some(Slot { before: last_word(before), after: first_word(after) })
    }

    /// True when the cited clause `text` puts another name where the note puts `name`: a
    /// capitalised word (not `name`, not one the note part holds) right after the word the
    /// note has before it, or right before the word the note has after it (`the customer
    /// frontend is Svelte` for `the customer frontend is React`; `Dana owns` for `Omar
    /// owns`).
    fn filled_otherwise(&self, text: &str, name: &str, part: &str) -> bool {
        let words = words_of(text);
        let named = |w: &str| {
            w.chars().next().is_some_and(char::is_uppercase)
                && !w.eq_ignore_ascii_case(name)
                && !has_word(part, w)
                && !claims::closed_class(&w.to_lowercase())
        };
        let plain = |w: &str| !matches!(w.to_lowercase().as_str(), "the" | "a" | "an");
        let words: Vec<&str> = words.into_iter().filter(|w| plain(w)).collect();
        words.windows(2).any(|pair| {
            let (a, b) = (pair[0], pair[1]);
            (!self.before.is_empty() && a.eq_ignore_ascii_case(&self.before) && named(b))
                || (!self.after.is_empty() && b.eq_ignore_ascii_case(&self.after) && named(a))
        })
    }
}

/// The words of a text: runs of letters, digits and `.`, `-`, `_` inside them.
fn words_of(text: &str) -> Vec<&str> {
    text.split(|c: char| !(c.is_alphanumeric() || matches!(c, '.' | '-' | '_' | '\'')))
        .map(|w| w.trim_matches(['.', '-', '_', '\'']))
        .filter(|w| !w.is_empty())
        .collect()
}

fn last_word(text: &str) -> String {
    let words = words_of(text);
    let w = words.iter().rev().find(|w| !matches!(w.to_lowercase().as_str(), "the" | "a" | "an"));
    w.map(|w| w.to_lowercase()).unwrap_or_default()
}

fn first_word(text: &str) -> String {
    // Only a word in the same stretch: not past a bracket or a dash.
    let stretch = text.split(['(', ')', '—', '[']).next().unwrap_or("");
    let words = words_of(stretch);
    let w = words.iter().find(|w| !matches!(w.to_lowercase().as_str(), "the" | "a" | "an"));
    w.map(|w| w.to_lowercase()).unwrap_or_default()
}

/// True when `text` holds `word` as a whole word, case aside.
fn has_word(text: &str, word: &str) -> bool {
    let lower = text.to_lowercase();
    let word = word.to_lowercase();
    lower.match_indices(word.as_str()).any(|(i, _)| {
        let before = lower[..i].chars().next_back();
        let after = lower[i + word.len()..].chars().next();
        !before.is_some_and(char::is_alphanumeric) && !after.is_some_and(char::is_alphanumeric)
    })
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
        // A name is its own word (`Dana owns the billing service`).
        own.extend(claims::content_stems(&c.text));
        // The same value written again (`above 87% (87% after the upgrade)`) is no other claim.
        let anchors = sourced
            .iter()
            .copied()
            .filter(|o| !std::ptr::eq(*o, c) && o.value != c.value && part.contains(&o.start))
            .collect();
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

/// True when the claim is a name another name can stand in for (`React` for `Svelte`,
/// `Omar` for `Dana`): a Latin proper name.
pub(super) fn is_name(c: &Claim) -> bool {
    c.kind == claims::ClaimKind::Name && c.text.is_ascii()
}

/// Words after `and`/`but` that start a clause of its own subject.
const NEW_SUBJECT: &[&str] = &[
    "the", "a", "an", "this", "that", "these", "those", "its", "our", "their", "his", "her", "my", "your", "it",
    "they", "we", "he", "she", "i", "you", "there",
];

/// The part of sentence `range` of `line` holding byte `at`: cut at `;`, and at a comma
/// followed by a space (`9,120` stays whole) or an ideographic comma.
fn part_around(line: &str, range: std::ops::Range<usize>, at: usize) -> std::ops::Range<usize> {
    let text = line.get(range.clone()).unwrap_or("");
    // `and`/`but` before a new subject (`… and the docs site on port 4000`, `… and Dana
    // owns search`), not before a verb that shares the subject (`has 1,284 tests and takes
    // about 3 minutes`).
    let joiner = |i: usize| {
        let j = [" and ", " but "].iter().find(|j| text[i..].starts_with(*j))?;
        let next = text[i + j.len()..].split(|c: char| !c.is_alphanumeric()).next().unwrap_or("");
        // A name after `and` starts a clause unless a name stands before it too (`March and
        // May`, `Chrome and Firefox` is a list).
        let prev = text[..i].rsplit(|c: char| !c.is_alphanumeric()).next().unwrap_or("");
        let upper = |w: &str| w.chars().next().is_some_and(char::is_uppercase);
        let subject = (upper(next) && !upper(prev)) || NEW_SUBJECT.contains(&next);
        subject.then_some(j.len() - 1)
    };
    let cuts: Vec<(usize, usize)> = text
        .char_indices()
        .filter_map(|(i, c)| {
            // A bracketed remark is a part of its own (`above 87% (87% after the upgrade)`).
            let mark = matches!(c, ';' | '；' | '，' | '、' | '(' | ')' | '（' | '）')
                || (matches!(c, ',' | ':') && text[i + 1..].starts_with(' '));
            let len = if mark { Some(c.len_utf8()) } else { (c == ' ').then(|| joiner(i)).flatten() };
            len.map(|len| (range.start + i, range.start + i + len))
        })
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
        let line = "The API runs on port 4001 and the docs site on port 4000.";
        let part = |needle: &str| &line[part_around(line, 0..line.len(), line.find(needle).unwrap())];
        assert_eq!(part("4001"), "The API runs on port 4001");
        assert_eq!(part("4000"), " the docs site on port 4000.");
        let line = "The suite has 1,284 tests and takes about 3 minutes.";
        assert_eq!(&line[part_around(line, 0..line.len(), line.find('3').unwrap())], line);
        let zh = "流程：5 个任务共 90 分钟，做完后另有 15 min 复盘";
        assert_eq!(&zh[part_around(zh, 0..zh.len(), zh.find("90").unwrap())], "流程：5 个任务共 90 分钟");
    }
}
