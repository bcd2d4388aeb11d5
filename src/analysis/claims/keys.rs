//! Index keys for the needles of claims: what a transcript line must hold (in the keys of
//! [`crate::inputs::transcript::index::grams`]) for the scan to present it for a needle, derived
//! from what [`super::Haystack::states`] and [`super::relative_phrases`] require.
//!
//! Every line the verifier can learn from contains the needle itself (the scanner's own
//! test), so its grams are always required. On top of that:
//! - a number (`18`, `9.81`) owned only by number, port and version claims is a whole
//!   number where it states the claim: not after a digit or `digit.`, not followed by a
//!   digit (`number_occurs`, `version_occurs`; `3.11` may run on as `3.11.4`), so the line
//!   holds the number key of that prefix of a number chain;
//! - a relative needle such as `this` is worth presenting only with a word its phrases
//!   need (`this week`, `this morning`, `this Friday`…; `3 days ago`; `ここ3日`): the
//!   grams of one of them, without those holding `s` or `k` (a case-insensitive regex
//!   equates them with `ſ` and the Kelvin sign; lines holding those are always read). A
//!   line is learnt from for a relative needle only when it holds a phrase, and every
//!   phrase holds one of the relative needles, with its word.
//!
//! A needle several claims share gets one key set per owner: a line holding any of them.

use super::{Claim, ClaimKind, ClaimValue};
use crate::inputs::transcript::NeedleKeys;
use crate::inputs::transcript::index::grams::{needle_keys, number_key};

/// Units a CJK "in the last N units" phrase ends with: one of these characters.
const CJK_UNITS: &[&str] = &["日", "週", "月", "天", "期", "拜", "周", "일", "주", "월"];

/// Relative needles every phrase holding which also holds one of the words given (keep in
/// step with the regexes of `relative.rs`): `this` comes with morning, afternoon,
/// evening, week or a weekday (`…day`); `ago` with a unit; `ここ` with a unit character.
const NEEDS_ONE_OF: &[(&str, &[&str])] = &[
    ("this", &["morning", "afternoon", "evening", "week", "day"]),
    ("last", &["night", "week", "month", "year", "day"]),
    ("next", &["week", "month", "day"]),
    ("past", &["day", "week", "month", "fortnight"]),
    ("other", &["day"]),
    ("ago", &["day", "week", "month", "year"]),
    ("ここ", CJK_UNITS),
    ("直近", CJK_UNITS),
    ("過去", CJK_UNITS),
    ("过去", CJK_UNITS),
    ("最近", CJK_UNITS),
    ("최근", CJK_UNITS),
];

/// The key sets of `needle` for its owners (`None`: the relative phrases). Empty when the
/// index cannot narrow it (some owner leaves a line with no key to require).
pub fn keys_of<'a>(needle: &str, owners: impl Iterator<Item = Option<&'a Claim>>) -> NeedleKeys {
    let base = needle_keys(needle);
    let mut out: NeedleKeys = Vec::new();
    let push = |mut set: Vec<u32>, out: &mut NeedleKeys| {
        set.sort_unstable();
        set.dedup();
        if !out.contains(&set) {
            out.push(set);
        }
    };
    for owner in owners {
        match owner {
            None if NEEDS_ONE_OF.iter().any(|(n, _)| *n == needle) => {
                let words = NEEDS_ONE_OF.iter().find(|(n, _)| *n == needle).map_or(&[][..], |(_, w)| w);
                for word in words {
                    let mut set = base.clone();
                    set.extend(needle_keys_without(word, b"sk"));
                    push(set, &mut out);
                }
            }
            Some(c) if whole_number(c) && number_key(needle).is_some() => {
                let mut set = base.clone();
                set.extend(number_key(needle));
                push(set, &mut out);
            }
            _ => push(base.clone(), &mut out),
        }
    }
    if out.iter().any(Vec::is_empty) { Vec::new() } else { out }
}

/// Whether `claim` is stated only where its needle stands as a whole number.
fn whole_number(claim: &Claim) -> bool {
    match &claim.value {
        ClaimValue::Number { value, .. } => !super::endpoints::is_literal(value),
        ClaimValue::Port { host: None, .. } => true,
        ClaimValue::Text(_) => claim.kind == ClaimKind::Version,
        _ => false,
    }
}

/// The grams of `word` that hold none of the bytes `avoid`.
fn needle_keys_without(word: &str, avoid: &[u8]) -> Vec<u32> {
    let bytes = word.as_bytes();
    bytes
        .windows(3)
        .filter(|w| !w.iter().any(|b| avoid.contains(b)))
        .map(|w| crate::inputs::transcript::index::grams::key(w[0], w[1], w[2]))
        .collect()
}
