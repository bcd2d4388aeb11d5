//! What a sentence asserts or denies: its content words, its negations and the poles of
//! antonym pairs it uses, so that a note sentence can be matched to the source sentence it
//! restates and checked for having turned it around ("the deploy needs no migration"
//! against "the deploy needs a migration"; `optional` against `required`).
//!
//! Languages: English (negation words and `n't`), Japanese (ない, ません, 不要, しない…),
//! Korean (않, 없, 안, 못, 불필요…) and Chinese (不, 没, 无需, 别…); antonym pairs that matter
//! in memory notes (required/optional, enabled/disabled, allowed/forbidden, before/after,
//! deprecated/recommended, always/never, sync/async, pass/fail…) in each of them.
//! Latin content words are compared by stem; CJK text by pairs of characters, since it
//! writes no spaces between words.

use std::collections::BTreeSet;
use std::ops::Range;
use std::rc::Rc;

use super::negations::{CJK_NEGATIONS, EN_NEGATIONS, FREQUENCY, PERMISSION};
use super::text::is_cjk;
use denials::{contrasts, denials, joined_denials, pole_denied};
use latin_parts::{LatinPart, latin_parts};
use latin_word::{LatinWord, latin_words};
use poles::in_context;

/// One clause of a text, read for what it asserts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Statement {
    /// Its bytes in the text.
    pub range: Range<usize>,
    /// Its comparable content words, sorted by stem, each with whether a negation bears on
    /// it: stems of Latin words that are no closed-class, negation or antonym word; pairs
    /// of CJK characters outside negation markers and antonyms.
    pub content: Vec<Word>,
    /// The antonym poles it uses, each with whether a negation bears on it.
    pub poles: Vec<Pole>,
    /// Its Latin parts (the stretches a negation bears on, see [`latin_parts`]), each with
    /// its content stems and whether it denies them: what [`Statement::opposite`] aligns,
    /// so that a word the two sentences put in different parts (`never run migrations on
    /// boot, run them from the release task` against `migrations run from the release task,
    /// not on boot`) is not read as denied by one and asserted by the other.
    pub parts: Vec<Part>,
    /// How it restricts or excepts, one bit each for `only`, `unless` and `except` (`other
    /// than`, `apart from`, `but not`…): such a word turns around what its part says of the
    /// rest (`fail unless REDIS_URL is set` is `only pass when it is set`), so it is set
    /// against none that restricts otherwise.
    pub restricted: u8,
}

/// A Latin part of a statement.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Part {
    /// Its content stems, sorted, each once.
    pub stems: Vec<String>,
    /// An odd number of negations bears on its words (not on a pole of it: `not required`
    /// says `optional` of the words beside it), or it forbids them (`forbidden`, `not
    /// allowed`: the permission pair says what a denial says).
    pub denies: bool,
    /// The antonym pairs it uses besides permission, sorted: a part that says its side with
    /// a pole (`not optional`) is not set against one that says it with words (`run it`).
    pub pairs: Vec<usize>,
}

/// A content word of a statement.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Word {
    /// Its comparable form.
    pub stem: String,
    /// A negation bears on it (`not` before it, `gone` after it, `ない` in its clause).
    pub negated: bool,
}

/// One side of an antonym pair used by a statement.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Pole {
    /// The pair (an index into the antonym table).
    pub pair: usize,
    /// Which side of it the word is.
    pub side: bool,
    /// A negation bears on it (`not required` says `optional`).
    pub negated: bool,
}

impl Pole {
    /// The side it asserts, negation taken into account.
    fn asserted(self) -> bool {
        self.side != self.negated
    }
}

/// How a source statement says the opposite of a note's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Opposite {
    /// A word both speak of is denied in one and asserted in the other.
    Negation,
    /// They assert the two sides of an antonym pair (`required` and `optional`).
    Antonym,
}

/// The statements of `text` that say something (two content words or more): its
/// sentences (ended by `.`, `!`, `?` before a space, `。`, or a line break). A negation
/// bears on the words next to it, so the two halves of one sentence keep their own
/// polarity ("no Redis needed: tests use a fake").
pub fn statements(text: &str) -> Vec<Statement> {
    sentences(text).into_iter().filter_map(|r| statement(text, r)).collect()
}

/// The clauses of `text` that say something: its [`statements`], each cut further at `;`
/// (`the API runs on Node 20; the worker on Node 18` is two clauses).
pub fn clauses(text: &str) -> Vec<Statement> {
    let parts = |r: Range<usize>| {
        let mut out = Vec::new();
        let mut start = r.start;
        for (i, c) in text[r.clone()].char_indices().filter(|(_, c)| matches!(c, ';' | '；')) {
            out.push(start..r.start + i);
            start = r.start + i + c.len_utf8();
        }
        out.push(start..r.end);
        out
    };
    sentences(text).into_iter().flat_map(parts).filter_map(|r| statement(text, r)).collect()
}

/// The parts of the sentences of `text` between commas, colons, semicolons and the
/// conjunctions `and`/`but` (`, ` `、` `: ` ` and `), each with two content words or more,
/// for every sentence that has more than one: where
/// one sentence says two things (`承認が必須で、ステージングは任意`, `required for prod,
/// optional for staging`), each part keeps its own side.
pub fn parts(text: &str) -> Vec<Statement> {
    let mut out = Vec::new();
    for r in sentences(text) {
        let mut cuts = Vec::new();
        let mut start = r.start;
        let body = &text[r.clone()];
        // ASCII marks before a space only: not the comma of `1,284` or the colon of a URL.
        // The length of the mark at `i` that cuts there, if one does.
        let cut = |i: usize, c: char| match c {
            ',' | ':' | ';' => body[i + 1..].starts_with(char::is_whitespace).then_some(1),
            ' ' => [" and ", " but "].iter().find(|w| body[i..].starts_with(*w)).map(|w| w.len() - 1).or_else(|| {
                // Before a word that opens a clause of its own (`we moved sessions to ETS |
                // because Redis wasn't worth it`): kept with the clause it opens.
                BECAUSE
                    .iter()
                    .any(|w| body[i + 1..].starts_with(w) && body[i + 1 + w.len()..].starts_with(' '))
                    .then_some(1)
            }),
            '；' | '、' | '，' | '：' => Some(c.len_utf8()),
            _ => None,
        };
        for (i, len) in body.char_indices().filter_map(|(i, c)| cut(i, c).map(|len| (i, len))) {
            if r.start + i >= start {
                cuts.push(start..r.start + i);
                start = r.start + i + len;
            }
        }
        if cuts.is_empty() {
            continue;
        }
        cuts.push(start..r.end);
        out.extend(cuts.into_iter().filter_map(|p| statement(text, p)));
    }
    out
}

/// Words that open a clause giving a reason, a consequence or a contrast: a sentence is
/// cut into [`parts`] before them.
const BECAUSE: &[&str] = &["because", "since", "so", "although", "though", "whereas", "unless"];

/// The sentences of `text`, as byte ranges.
fn sentences(text: &str) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    let mut start = 0;
    for (i, c) in text.char_indices() {
        let end = i + c.len_utf8();
        // A sentence ends at `.`, `!` or `?` before a space, also through closing emphasis,
        // quotes or brackets (`maintained.** There's`).
        let rest = text[end..].trim_start_matches(['*', '_', '`', '"', '\'', ')', ']', '»', '”']);
        let soft = matches!(c, '.' | '!' | '?') && rest.chars().next().is_none_or(char::is_whitespace);
        if soft || matches!(c, '\n' | '\r' | '。' | '！' | '？') {
            if i > start {
                out.push(start..i);
            }
            start = end;
        }
    }
    if start < text.len() {
        out.push(start..text.len());
    }
    out
}

/// True when two texts share a content word (a Latin stem of three letters or more, or a
/// pair of CJK characters), dates and numbers aside: the same event or thing is spoken of.
pub fn shares_content(a: &str, b: &str) -> bool {
    let words = |t: &str| -> Vec<String> {
        read(t, 0..t.len())
            .content
            .into_iter()
            .map(|w| w.stem)
            .filter(|x| x.chars().count() >= 3 || x.chars().any(is_cjk))
            .collect()
    };
    let wb = words(b);
    words(a).iter().any(|w| wb.binary_search(w).is_ok())
}

/// The whole of `text` read as one statement, however little it says.
pub fn statement_of(text: &str) -> Statement {
    read(text, 0..text.len())
}

/// The stems of the content words of [`statement_of`]`(text)`, in the same order (sorted,
/// each once), without reading what a statement needs besides (which part of a sentence a
/// negation denies, the poles it says): a text whose words are all Latin has as content
/// every word that is no negation, no antonym pole, no closed-class word and no number,
/// wherever it stands.
pub fn content_stems(text: &str) -> Vec<String> {
    let mut stems = Vec::new();
    each_content_stem(text, |s| stems.push(s.to_string()));
    stems.sort();
    stems.dedup();
    stems
}

/// [`content_stems`] without collecting them: `f` gets each stem, as often as the text
/// writes a word of it.
pub fn each_content_stem(text: &str, mut f: impl FnMut(&str)) {
    let lower = text.to_lowercase();
    if !lower.is_ascii() && lower.chars().any(is_cjk) {
        statement_of(text).content.iter().for_each(|w| f(&w.stem));
        return;
    }
    // A number (ASCII digits) is no content word: not read.
    let number = |w: &&str| w.bytes().all(|b| b.is_ascii_digit());
    for w in latin_words(&lower).filter(|w| !number(w)).map(LatinWord::read) {
        if w.content && !w.negation && w.pole.is_none() {
            f(&w.stem);
        }
    }
}

/// The statement of `text[range]`, if it says something.
fn statement(text: &str, range: Range<usize>) -> Option<Statement> {
    let s = read(text, range);
    (s.content.len() >= 2).then_some(s)
}

/// `text[range]` read as a statement, however little it says.
fn read(text: &str, range: Range<usize>) -> Statement {
    let Some(part) = text.get(range.clone()) else {
        return Statement { range, content: Vec::new(), poles: Vec::new(), parts: Vec::new(), restricted: 0 };
    };
    let lower = part.to_lowercase();
    let mut content: Vec<Word> = Vec::new();
    let mut poles: Vec<Pole> = Vec::new();
    // Latin words, in order: a negation bears on the next content word or pole, or (for a
    // word like `gone`) on the last one.
    // Latin words, part by part: a negation denies its part (`no migration is needed`,
    // `the migration is not needed` deny the same words), and an odd number of them does.
    let mut parts: Vec<Part> = Vec::new();
    for LatinPart { text: part, left } in latin_parts(&lower) {
        let raw: Vec<&str> = latin_words(part).collect();
        let words: Vec<Rc<LatinWord>> = raw
            .iter()
            .enumerate()
            .map(|(i, w)| {
                let read = LatinWord::read(w);
                match in_context(&raw, i, read.pole) {
                    pole if pole == read.pole => read,
                    pole => Rc::new(LatinWord { pole, ..read.as_ref().clone() }),
                }
            })
            .collect();
        let denials = denials(part, &words);
        let negated = denials.len() % 2 == 1;
        let joined = joined_denials(part, &raw);
        // What a part sets against another (`instead of Redis`, `from npm` of a move) is
        // denied beside it, not outright: its words keep their own flags.
        let set_against = left || contrasts(part);
        // In a part that says a pole (`not required`), the negation bears on the pole: the
        // words beside it are what it is said of (`optional` says the same of them).
        // (`never` is read as the negation it is, not as the pole of always/never.)
        let has_pole = words.iter().any(|w| w.pole.is_some() && !w.negation);
        let mut stems = Vec::new();
        let mut compound = Vec::new();
        let mut pairs = Vec::new();
        let mut forbids = None;
        for (i, w) in words.iter().enumerate() {
            if w.negation {
                continue;
            }
            if let Some((pair, side)) = w.pole {
                let negated = denials.iter().filter(|&&d| pole_denied(&words, d) == Some(i)).count() % 2 == 1;
                poles.push(Pole { pair, side, negated });
                if pair == PERMISSION {
                    forbids = Some(side == negated);
                } else {
                    pairs.push(pair);
                }
                continue;
            }
            if w.content {
                content.push(Word { stem: w.stem.clone(), negated: (negated && !has_pole) != joined[i] });
                if joined[i] { compound.push(w.stem.clone()) } else { stems.push(w.stem.clone()) }
            }
        }
        pairs.sort();
        pairs.dedup();
        let denies = forbids.unwrap_or(negated && !has_pole) != set_against;
        // What a hyphened negation denies (`--no-build-cache`) is a part of its own.
        for (mut stems, denies) in [(stems, denies), (compound, !denies)] {
            stems.sort();
            stems.dedup();
            if !stems.is_empty() {
                parts.push(Part { stems, denies, pairs: pairs.clone() });
            }
        }
    }
    let cjk = cjk::read_cjk(&lower);
    content.extend(cjk.words.into_iter().map(|(stem, negated)| Word { stem, negated }));
    poles.extend(cjk.poles.into_iter().map(|(pair, side, negated)| Pole { pair, side, negated }));
    content.sort();
    content.dedup_by(|a, b| a.stem == b.stem);
    poles.sort();
    poles.dedup();
    let restricted = restricts(&lower);
    Statement { range, content, poles, parts, restricted }
}

/// How the lowercase text restricts or excepts what it says (see
/// [`Statement::restricted`]).
fn restricts(lower: &str) -> u8 {
    let words: Vec<&str> = latin_words(lower).collect();
    let has = |f: &dyn Fn(&str) -> bool| words.iter().any(|w| f(w));
    let only = has(&|w| w == "only");
    let unless = has(&|w| w == "unless");
    let except = has(&|w| matches!(w, "except" | "excluding" | "besides"))
        || words.windows(2).any(|w| matches!((w[0], w[1]), ("other", "than") | ("apart", "from") | ("but", "not")));
    u8::from(only) | u8::from(unless) << 1 | u8::from(except) << 2
}

impl Statement {
    /// True when the two restrict or except alike (see [`Statement::restricted`]): only
    /// then can the polarity of one be read against the other's.
    pub fn restricts_alike(&self, other: &Statement) -> bool {
        self.restricted == other.restricted
    }

    /// The word of this statement with stem `stem`.
    pub fn word(&self, stem: &str) -> Option<&Word> {
        self.content.binary_search_by(|w| w.stem.as_str().cmp(stem)).ok().and_then(|i| self.content.get(i))
    }

    /// The side of antonym pair `pair` this statement asserts, when it uses the pair and
    /// all its uses assert the same side.
    pub fn asserted_side(&self, pair: usize) -> Option<bool> {
        let mut sides = self.poles.iter().filter(|p| p.pair == pair).map(|p| p.asserted());
        let first = sides.next()?;
        sides.all(|s| s == first).then_some(first)
    }

    /// True when this statement asserts both sides of antonym pair `pair` (`必須で、…任意`):
    /// it neither agrees nor disagrees with one side.
    pub fn both_sides(&self, pair: usize) -> bool {
        let mut sides = self.poles.iter().filter(|p| p.pair == pair).map(|p| p.asserted());
        sides.next().is_some_and(|first| sides.any(|s| s != first))
    }

    /// The antonym pairs this statement uses.
    pub fn pairs(&self) -> impl Iterator<Item = usize> + '_ {
        self.poles.iter().map(|p| p.pair)
    }

    /// The share of this statement's content words the other one holds (0 to 1).
    pub fn covered_by(&self, other: &Statement) -> f32 {
        if self.content.is_empty() {
            return 0.0;
        }
        self.shared(other) as f32 / self.content.len() as f32
    }

    /// How many content words the two share.
    pub fn shared(&self, other: &Statement) -> usize {
        self.content.iter().filter(|w| other.word(&w.stem).is_some()).count()
    }

    /// True when a part of this statement holding `stem` denies it, beside the words'
    /// own flags: what a move leaves (`from GitHub Actions`), what `instead of` sets against.
    pub fn part_denies(&self, stem: &str) -> bool {
        self.parts.iter().any(|p| p.denies && p.stems.binary_search_by(|s| s.as_str().cmp(stem)).is_ok())
    }

    /// True when a Latin part of this statement denies what the parts of `source` closest
    /// to it assert, or asserts what they deny: the source's parts on the other side share
    /// more of its words than any on its side, and half of its words between them.
    fn part_flipped(&self, source: &Statement) -> bool {
        self.parts.iter().any(|mine| {
            let shared = |p: &Part| mine.stems.iter().filter(|w| p.stems.binary_search(w).is_ok()).collect::<Vec<_>>();
            let mut best_same = 0;
            let mut best_other = 0;
            let mut other_words = BTreeSet::new();
            for p in source.parts.iter().filter(|p| p.pairs == mine.pairs) {
                // A part that says much more than the words it shares speaks of something
                // else (`not SQLite` against `SQLite hides constraint bugs`), and one word
                // (`from npm`) turns around no sentence of three (`run tests with npm`).
                let words = shared(p);
                if words.len() * 3 < p.stems.len() || mine.stems.len() == 1 && p.stems.len() > 2 {
                    continue;
                }
                if p.denies == mine.denies {
                    best_same = best_same.max(words.len());
                } else {
                    best_other = best_other.max(words.len());
                    other_words.extend(words);
                }
            }
            best_other > best_same && other_words.len() * 2 >= mine.stems.len()
        })
    }

    /// True when a CJK word (a pair of characters) is denied in one and asserted in the
    /// other: CJK denials bear on the few characters next to them, so words are compared.
    fn cjk_word_flipped(&self, source: &Statement) -> bool {
        self.content
            .iter()
            .filter(|w| w.stem.chars().any(is_cjk))
            .any(|w| source.word(&w.stem).is_some_and(|o| o.negated != w.negated))
    }

    /// How `source` says the opposite of this statement, if it does: a word both speak of
    /// denied in one and asserted in the other, or the two asserted sides of an antonym pair
    /// (`not required` asserts what `optional` does). An antonym counts only in the very
    /// same sentence (80% of the words shared: `run the linter after the tests`, not
    /// `passed one after another`).
    ///
    /// A denied word is read part by part: a part of this statement is turned around when
    /// the source's parts on the other side share more of its words than any on its side
    /// (and half of its words between them). `forbidden`, `not allowed` deny the words
    /// of their part as `don't` does. A part that says its side with another pole the other
    /// does not use (`not optional` against `run it`) is not compared by its words: the pole
    /// says it, and the other says it in other words. CJK words are compared one by one
    /// (their denials bear on the few characters next to them) when the two use the same
    /// antonym pairs.
    pub fn opposite(&self, source: &Statement) -> Option<Opposite> {
        if !self.restricts_alike(source) {
            return None;
        }
        let pairs = |s: &Statement| s.poles.iter().map(|p| p.pair).collect::<BTreeSet<_>>();
        if self.part_flipped(source) || pairs(self) == pairs(source) && self.cjk_word_flipped(source) {
            return Some(Opposite::Negation);
        }
        let asserted = |s: &Statement, pair: usize| {
            let sides: Vec<bool> = s.poles.iter().filter(|p| p.pair == pair).map(|p| p.asserted()).collect();
            (sides.iter().all(|&x| x) || sides.iter().all(|&x| !x)).then(|| sides.first().copied()).flatten()
        };
        let flipped_pole = self.poles.iter().any(|p| match (asserted(self, p.pair), asserted(source, p.pair)) {
            (Some(a), Some(b)) => a != b,
            _ => false,
        });
        (flipped_pole && self.covered_by(source) >= 0.8).then_some(Opposite::Antonym)
    }
}

/// True when side `side` of antonym pair `pair` is the `always` a rule is phrased with: a
/// memory that states the rule need not repeat it.
pub fn rule_phrasing(pair: usize, side: bool) -> bool {
    pair == FREQUENCY && side
}

/// True when no clause of `text` can take the other side of another calm clause: an ASCII
/// text none of whose words is a negation, a word of an antonym pair or a word that makes
/// a part deny without one ([`denials`]: `stop …ing`, passive `dropped`; what `rather
/// than`, `instead of` or a move's `from` sets against the rest), so no statement or part
/// of it has a negated word, a pole or a denying part, and [`Statement::opposite`] finds
/// nothing between two of them. Cheaper than reading its clauses; `false` means it may.
pub fn calm(text: &str) -> bool {
    const DENYING: &[&str] =
        &["stop", "stops", "quit", "quits", "cease", "dropped", "rather", "instead", "from", "least", "off"];
    text.is_ascii()
        && latin_words(&text.to_ascii_lowercase()).all(|w| {
            let read = LatinWord::read(w);
            !DENYING.contains(&w) && !read.negation && read.pole.is_none()
        })
}

/// True when `text` denies something: some statement of it has a negated word or pole,
/// or (a line too short to be a statement) it holds a negation word.
pub fn negated(text: &str) -> bool {
    let lower = text.to_lowercase();
    let read_whole = read(&lower, 0..lower.len());
    read_whole.content.iter().any(|w| w.negated)
        || read_whole.poles.iter().any(|p| p.negated)
        || latin_words(&lower).any(|w| EN_NEGATIONS.contains(&w) || w.ends_with("n't"))
        || CJK_NEGATIONS.iter().any(|n| lower.contains(n))
}

mod cjk;
mod denials;
mod latin_parts;
mod latin_word;
mod poles;

#[cfg(test)]
mod tests;
