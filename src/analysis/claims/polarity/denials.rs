//! The words of a Latin part that deny it without being a negation of their own shape
//! (`rather than`, `stop …ing`, passive `dropped`, `off`), and the pole a denial bears on.

use super::super::negations::BOUNDED;
use super::latin_word::{LatinWord, latin_words};
use std::rc::Rc;

/// True when a part opens with `rather than` or `instead of` ([`latin_parts`] cuts before
/// them): it denies what it names beside what the rest of the sentence asserts.
pub(super) fn contrasts(part: &str) -> bool {
    let mut words = latin_words(part);
    matches!((words.next(), words.next()), (Some("rather"), Some("than")) | (Some("instead"), Some("of")))
}

/// The indices of the words of a part that deny: negation words, `stop`/`quit` before a
/// verb in `-ing` (`stop using the mock server`), `dropped` in the passive (`Redis was
/// dropped`, not `latency dropped to 180 ms`), and `off` (`keep it off the CI runners`,
/// `off in production`, `is turned off`; not `kick off the build`, `off-by-one`).
pub(super) fn denials(part: &str, words: &[Rc<LatinWord>]) -> Vec<usize> {
    let raw: Vec<&str> = latin_words(part).collect();
    let mut out: Vec<usize> = words
        .iter()
        .enumerate()
        .filter(|(i, w)| w.negation && !bounds_or_pairs(&raw, *i) && !joined(part, raw[*i]))
        .map(|(i, _)| i)
        .collect();
    // `can't do anything but restart pods`, `nothing but restarts`: only what follows is
    // said, and it is asserted.
    if let Some(k) = raw.windows(2).position(|w| matches!(w[0], "anything" | "nothing") && w[1] == "but") {
        out.retain(|&i| i > k + 1);
    }
    for (i, w) in raw.iter().enumerate() {
        let next = raw.get(i + 1).copied().unwrap_or("");
        let stops =
            matches!(*w, "stop" | "stops" | "quit" | "quits" | "cease") && next.len() > 4 && next.ends_with("ing");
        let passive = |by: &str| matches!(by, "was" | "were" | "been" | "is" | "are" | "got" | "get" | "be");
        let dropped = *w == "dropped" && i > 0 && passive(raw[i - 1]);
        // `keep it off the CI runners`, `off in production`, `the flag is turned off`: what
        // is off is denied; not what is kicked, signed, cut, logged… off, nor `off-by-one`.
        let phrasal = |p: &str| {
            matches!(
                p,
                "kick"
                    | "kicks"
                    | "kicked"
                    | "sign"
                    | "signs"
                    | "signed"
                    | "cut"
                    | "cuts"
                    | "back"
                    | "backs"
                    | "backed"
                    | "take"
                    | "takes"
                    | "took"
                    | "taken"
                    | "drop"
                    | "drops"
                    | "pay"
                    | "pays"
                    | "paid"
                    | "show"
                    | "tip"
                    | "log"
                    | "logs"
                    | "logged"
                    | "set"
                    | "sets"
                    | "call"
                    | "calls"
                    | "called"
                    | "write"
                    | "writes"
                    | "wrote"
                    | "written"
                    | "round"
                    | "rounded"
                    | "trade"
                    | "top"
                    | "spin"
                    | "head"
                    | "fend"
                    | "ward"
                    | "hand"
                    | "hands"
                    | "handed"
                    | "day"
                    | "days"
                    | "time"
                    | "print"
                    | "printed"
                    | "tear"
                    | "peel"
            )
        };
        let off = *w == "off" && !(i > 0 && phrasal(raw[i - 1])) && !matches!(next, "by" | "of" | "shelf");
        if stops || dropped || off {
            out.push(i);
        }
    }
    out
}

/// For each word of `raw` (the Latin words of `part`), whether a negation joined to it by
/// hyphens denies it: `no-console`, `--no-build-cache`, `not-null` deny their own words
/// (`console`; `build`, `cache`), not the rest of the part (`ESLint no-console 是 warn`
/// says nothing against ESLint). Such a negation is no denial of the part ([`denials`]).
pub(super) fn joined_denials(part: &str, raw: &[&str]) -> Vec<bool> {
    let mut out = vec![false; raw.len()];
    let mut denying = false;
    for (i, w) in raw.iter().enumerate() {
        out[i] = denying;
        let negation = super::latin_word::LatinWord::read(w).negation;
        denying = (negation || denying) && joined(part, w);
    }
    out
}

/// True when `word` (a slice of `part`) is joined by a hyphen to the word after it.
fn joined(part: &str, word: &str) -> bool {
    let at = (word.as_ptr() as usize).wrapping_sub(part.as_ptr() as usize);
    let after = part.get(at + word.len()..).unwrap_or("");
    after.strip_prefix('-').is_some_and(|rest| rest.starts_with(|c: char| c.is_alphanumeric()))
}

/// The pole a denial at word `at` of a part bears on: the first pole after it, else the last
/// before it (`is not optional before commit` denies `optional`, not `before`).
pub(super) fn pole_denied(words: &[Rc<LatinWord>], at: usize) -> Option<usize> {
    let pole = |i: &usize| words[*i].pole.is_some() && !words[*i].negation;
    (at + 1..words.len()).find(pole).or_else(|| (0..at).rev().find(pole))
}

/// True when the negation at word `i` of `raw` denies nothing of its own: it makes a bound
/// (`no longer than`, `not more than`) or it is the `nor` of `neither … nor` (one denial).
fn bounds_or_pairs(raw: &[&str], i: usize) -> bool {
    let next = raw.get(i + 1).copied().unwrap_or("");
    let bound =
        matches!(raw[i], "no" | "not") && BOUNDED.iter().any(|(w, _)| *w == next) && raw.get(i + 2) == Some(&"than");
    bound || raw[i] == "nor" && raw[..i].contains(&"neither")
}
