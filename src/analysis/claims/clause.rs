//! The clause a value stands in (a sentence, a `;`-separated part, one line of output or
//! one table row, as far as [`CLAUSE_REACH`] either way) and the words and numbers of a
//! text as tokens.

use std::ops::Range;

use super::text::{is_cjk, is_word_char};

/// Characters that end a clause wherever they stand.
pub(crate) fn hard_boundary(c: char) -> bool {
    matches!(c, '\n' | '\r' | ';' | '；' | '。' | '！' | '？')
}

/// The clause of `text` holding byte `at`: from the last boundary before it to the first
/// after it. Boundaries are line breaks, `;`, CJK sentence ends, and `.`, `!`, `?` followed by
/// a space or the end (so `3.11`, `node.js` and `e.g.x` stay whole).
///
/// A clause reaches at most [`CLAUSE_REACH`] bytes either side of `at` (cut at a space where
/// there is one): a run of text with no boundary for that long is data, not a sentence, and
/// reading it whole for each value in it made one huge cited line cost minutes.
pub(crate) fn clause_at(text: &str, at: usize) -> Range<usize> {
    let at = floor_boundary(text, at.min(text.len()));
    let lo = floor_boundary(text, at.saturating_sub(CLAUSE_REACH));
    let hi = floor_boundary(text, (at + CLAUSE_REACH).min(text.len()));
    // Cut at a space when the reach ends inside the text.
    let mut start = if lo == 0 {
        0
    } else {
        text[lo..at].char_indices().find(|(_, c)| c.is_whitespace()).map_or(lo, |(i, c)| lo + i + c.len_utf8())
    };
    let mut end = if hi == text.len() { hi } else { text[at..hi].rfind(char::is_whitespace).map_or(hi, |i| at + i) };
    for (i, c) in text.get(start..at).unwrap_or("").char_indices().rev() {
        let i = start + i;
        if hard_boundary(c) || (matches!(c, '.' | '!' | '?') && soft_end(text, i + c.len_utf8())) {
            start = i + c.len_utf8();
            break;
        }
    }
    for (i, c) in text.get(at..end).unwrap_or("").char_indices() {
        let i = at + i;
        if hard_boundary(c) || (matches!(c, '.' | '!' | '?') && soft_end(text, i + c.len_utf8())) {
            end = i;
            break;
        }
    }
    start..end.max(start)
}

/// How far a clause reaches either side of the byte it is asked for.
pub(crate) const CLAUSE_REACH: usize = 2048;

/// The greatest char boundary of `text` at or before `i`.
pub(crate) fn floor_boundary(text: &str, mut i: usize) -> usize {
    while !text.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// True when a `.`, `!` or `?` ending at `after` ends a sentence: a space or the end follows,
/// perhaps after closing emphasis, quotes or brackets (`maintained.** There's`).
pub(crate) fn soft_end(text: &str, after: usize) -> bool {
    let rest = text.get(after..).unwrap_or("").trim_start_matches(['*', '_', '`', '"', '\'', ')', ']', '»', '”']);
    rest.chars().next().is_none_or(char::is_whitespace)
}

/// What a token of a clause is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum TokKind {
    /// A Latin word or identifier (`timeout`, `max_connections`, `node.js`, `p99`).
    Word,
    /// A number, with a unit glued to it (`30`, `1,200`, `9.81s`, `v2.3.1`).
    Number,
    /// A run of CJK characters.
    Cjk,
    /// One other character (`:`, `=`, `(`, `→`…).
    Punct(char),
}

/// A token of a clause.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Tok {
    pub(crate) range: Range<usize>,
    pub(crate) kind: TokKind,
}

/// The tokens of `text[within]`, whitespace left out.
pub(crate) fn tokens(text: &str, within: Range<usize>) -> Vec<Tok> {
    let mut out = Vec::new();
    let Some(part) = text.get(within.clone()) else { return out };
    let base = within.start;
    let chars: Vec<(usize, char)> = part.char_indices().collect();
    let mut k = 0;
    let joins = |c: char| matches!(c, '.' | '-' | ',' | '\'');
    while let Some(&(i, c)) = chars.get(k) {
        if c.is_whitespace() {
            k += 1;
            continue;
        }
        let word_like = |c: char| is_word_char(c) || c == '_';
        if word_like(c) || (matches!(c, 'v' | 'V') && chars.get(k + 1).is_some_and(|(_, n)| n.is_ascii_digit())) {
            let number = c.is_ascii_digit()
                || matches!(c, 'v' | 'V') && chars.get(k + 1).is_some_and(|(_, n)| n.is_ascii_digit());
            let mut j = k + 1;
            while let Some(&(_, d)) = chars.get(j) {
                let next_word = chars.get(j + 1).is_some_and(|&(_, n)| word_like(n));
                // A comma joins only a number's digit groups (`1,200`, not `6379,last`), a
                // point a number only to its next digit (`9.81s`, not `1.last`).
                let next_digit = chars.get(j + 1).is_some_and(|&(_, n)| n.is_ascii_digit());
                let glue = match d {
                    ',' => number && next_digit,
                    '.' => !number || next_digit,
                    _ => true,
                };
                if word_like(d) || (joins(d) && next_word && glue) {
                    j += 1;
                } else {
                    break;
                }
            }
            let end = chars.get(j).map_or(part.len(), |&(e, _)| e);
            out.push(Tok { range: base + i..base + end, kind: if number { TokKind::Number } else { TokKind::Word } });
            k = j;
        } else if is_cjk(c) {
            let mut j = k + 1;
            while chars.get(j).is_some_and(|&(_, d)| is_cjk(d)) {
                j += 1;
            }
            let end = chars.get(j).map_or(part.len(), |&(e, _)| e);
            out.push(Tok { range: base + i..base + end, kind: TokKind::Cjk });
            k = j;
        } else {
            out.push(Tok { range: base + i..base + i + c.len_utf8(), kind: TokKind::Punct(c) });
            k += 1;
        }
    }
    out
}
