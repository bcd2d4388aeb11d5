//! The antonym poles of Latin words: the pair and side a word's form has (see
//! `negations::ANTONYMS`), and where its neighbours say otherwise.

use super::super::negations::{ANTONYMS, BOUNDED, MINMAX};
use std::collections::HashMap;
use std::sync::LazyLock;

/// The pole word `i` of `raw` (the words of a part) says where it stands, given the pole
/// its form has: `at least` and `at most` say minimum and maximum; `most` after `the` is a
/// superlative, not a quantity; `end` of `front end`, `end-to-end`, `end user` is no end;
/// `may` is no modal as a month (`in May`, `May 3`) nor when it forbids (`may not`).
pub(super) fn in_context(raw: &[&str], i: usize, pole: Option<(usize, bool)>) -> Option<(usize, bool)> {
    let word = raw[i];
    let prev = i.checked_sub(1).and_then(|p| raw.get(p)).copied().unwrap_or("");
    let next = raw.get(i + 1).copied().unwrap_or("");
    match word {
        "least" | "most" if prev == "at" => Some((MINMAX, word == "least")),
        // `5 minutes or longer`: a lower bound; `or less`, an upper one.
        _ if prev == "or" => BOUNDED.iter().find(|(w, _)| *w == word).map(|(_, side)| (MINMAX, !*side)).or(pole),
        // `no longer than 5 minutes`: a bound (see `denials::BOUNDED`).
        _ if matches!(prev, "no" | "not") && next == "than" => {
            BOUNDED.iter().find(|(w, _)| *w == word).map(|(_, side)| (MINMAX, *side)).or(pole)
        }
        "most" if prev == "the" => None,
        "all" if prev == "at" => None,
        "end" | "ends"
            if matches!(prev, "front" | "back" | "to" | "dead" | "high" | "low" | "tail")
                || matches!(next, "to" | "user" | "users" | "point" | "points") =>
        {
            None
        }
        "may"
            if matches!(prev, "in" | "on" | "since" | "until" | "by" | "from" | "early" | "late" | "mid" | "of")
                || matches!(next, "not" | "never")
                || next.starts_with(|c: char| c.is_ascii_digit()) =>
        {
            None
        }
        _ => pole,
    }
}

/// The antonym pair and side of a word (or its stem), if it is one.
pub(super) fn pole_of(w: &str) -> Option<(usize, bool)> {
    POLES.get(w).copied()
}

/// Every word of [`ANTONYMS`] with its pair and side: the first pair and side that lists
/// it, as reading the table in order finds it.
static POLES: LazyLock<HashMap<&'static str, (usize, bool)>> = LazyLock::new(|| {
    let mut poles = HashMap::new();
    for (i, (a, b)) in ANTONYMS.iter().enumerate() {
        for (side, words) in [(true, a), (false, b)] {
            for w in words.iter() {
                poles.entry(*w).or_insert((i, side));
            }
        }
    }
    poles
});
