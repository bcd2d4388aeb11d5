//! A choice turned around: the note says one thing was chosen over another, and the cited
//! lines chose the other.
//!
//! "WebGPU everywhere instead of quantized WASM" holds two claims the cited line states
//! (`WebGPU`, `WASM`) and every other word of it, yet the cited line ends "so I'll use
//! quantized WASM everywhere". A note clause that sets two named things against each other
//! — `A instead of B`, `A rather than B`, `A, not B`, `A in place of B`; `BではなくA`,
//! `Bの代わりにA`; `B 대신 A`, `B가 아니라 A`, `B 말고 A`; `A而不是B`, `A而非B`, `不是B而是A`,
//! `用A代替B` — names the thing **chosen** and the thing **passed over**, each the nearest
//! sourced name, code, path or version claim on its side of the marker. A cited sentence
//! then
//! - sets them against each other the other way round (`B instead of A`), or
//! - chooses the passed-over thing (`use B`, `switched to B`, `Bを採用`, `B를 사용`, `改用B`; not
//!   negated) and not the chosen one,
//!
//! and no cited sentence sets them the note's way or chooses the chosen thing: the line is
//! `contradicted`, quoting that sentence. Both things must be named by the cited lines.
//! Not read: a choice spread over two sentences of the note, or made by a word the lists
//! below do not hold (`replaced B with A`, `dropped B`).

use super::cited_text::CitedText;
use crate::analysis::claims::{self, Claim, ClaimKind, Statement};
use std::sync::Arc;

/// How far (in chars) a thing may stand from the marker or verb that speaks of it.
const REACH: usize = 24;

/// Which side of a contrast marker the chosen thing stands on.
#[derive(Clone, Copy)]
enum Chosen {
    Before,
    After,
}

/// Words that set two things against each other (lowercase; Latin ones as whole words).
const CONTRASTS: &[(&str, Chosen)] = &[
    ("instead of", Chosen::Before),
    ("rather than", Chosen::Before),
    ("in place of", Chosen::Before),
    (", not", Chosen::Before),
    ("ではなく", Chosen::After),
    ("じゃなくて", Chosen::After),
    ("の代わりに", Chosen::After),
    ("대신", Chosen::After),
    ("아니라", Chosen::After),
    ("말고", Chosen::After),
    ("而不是", Chosen::Before),
    ("而非", Chosen::Before),
    ("而是", Chosen::After),
    ("代替", Chosen::Before),
    ("取代", Chosen::Before),
];

/// Verbs that choose what follows them (Latin: up to two words between, see [`verb_ends`]).
const CHOOSE_BEFORE: &[&str] = &[
    "use",
    "uses",
    "using",
    "used",
    "chose",
    "choose",
    "chosen",
    "choosing",
    "pick",
    "picked",
    "prefer",
    "prefers",
    "preferred",
    "adopt",
    "adopted",
    "go with",
    "going with",
    "went with",
    "stick with",
    "sticking with",
    "stuck with",
    "switch to",
    "switched to",
    "switching to",
    "move to",
    "moved to",
    "migrate to",
    "migrated to",
    "settle on",
    "settled on",
    "opt for",
    "opted for",
    "decided on",
    "用",
    "使用",
    "采用",
    "选择",
    "选用",
    "改用",
    "换成",
    "改为",
    "切换到",
    "迁移到",
];

/// Verbs that choose what precedes them, after its particle (`WASMを使う`, `WASM을 사용`).
const CHOOSE_AFTER: &[&str] = &[
    "使う",
    "使い",
    "使って",
    "使用",
    "採用",
    "選択",
    "選ん",
    "にする",
    "にした",
    "にします",
    "に決め",
    "に切り替",
    "へ切り替",
    "に移行",
    "へ移行",
    "사용",
    "선택",
    "채택",
    "전환",
    "쓰",
    "쓴다",
    "써",
];

/// Closed-class words a Latin verb may have between it and the thing it chooses.
const BETWEEN: &[&str] = &["a", "an", "the", "our", "its", "their", "plain", "only", "just", "and", "or", "plus"];

/// The two things a note clause sets against each other.
struct Choice<'a> {
    chosen: &'a str,
    over: &'a str,
}

/// What one cited sentence says of a choice.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Reading {
    Agrees,
    Swapped,
}

/// The cited sentence that chose the other way, when a clause of `line` sets two of its
/// `sourced` claims against each other and no cited sentence agrees with it.
pub(super) fn swapped<'a>(
    line: &str,
    sourced: &[&Claim],
    cited: &'a [(Arc<CitedText>, Arc<Vec<Statement>>)],
) -> Option<(Statement, &'a Arc<CitedText>, &'a Statement)> {
    for note in claims::statements(line) {
        let Some(choice) = choice_in(line, &note, sourced) else { continue };
        let named = |t: &str| cited.iter().any(|(c, _)| find_term(&c.text, t).next().is_some());
        if !named(choice.chosen) || !named(choice.over) {
            continue;
        }
        let mut swapped = None;
        for (t, sentences) in cited {
            for s in sentences.iter() {
                match read(t.text.get(s.range.clone()).unwrap_or(""), &choice) {
                    Some(Reading::Agrees) => return None,
                    Some(Reading::Swapped) if swapped.is_none() => swapped = Some((t, s)),
                    _ => {}
                }
            }
        }
        if let Some((t, s)) = swapped {
            return Some((note, t, s));
        }
    }
    None
}

/// The two things the note clause `note` of `line` sets against each other.
fn choice_in<'a>(line: &'a str, note: &Statement, sourced: &[&Claim]) -> Option<Choice<'a>> {
    let clause = line.get(note.range.clone())?;
    let things: Vec<&Claim> = sourced
        .iter()
        .copied()
        .filter(|c| matches!(c.kind, ClaimKind::Name | ClaimKind::Code | ClaimKind::Path | ClaimKind::Version))
        .filter(|c| note.range.contains(&c.start))
        .collect();
    let lower = clause.to_lowercase();
    for (marker, side) in CONTRASTS {
        for (i, _) in marker_at(&lower, marker) {
            let at = note.range.start + i;
            let after = at + marker.len();
            let before_thing =
                things.iter().filter(|c| c.end <= at && chars(line, c.end, at) <= REACH).max_by_key(|c| c.end);
            let after_thing = things
                .iter()
                .filter(|c| c.start >= after && chars(line, after, c.start) <= REACH)
                .min_by_key(|c| c.start);
            if let (Some(b), Some(a)) = (before_thing, after_thing) {
                let (chosen, over) = match side {
                    Chosen::Before => (b, a),
                    Chosen::After => (a, b),
                };
                if !chosen.text.eq_ignore_ascii_case(&over.text) {
                    return Some(Choice { chosen: &line[chosen.start..chosen.end], over: &line[over.start..over.end] });
                }
            }
        }
    }
    None
}

/// How `sentence` reads the choice: sets the two against each other one way or the other,
/// or chooses one of them and not the other.
fn read(sentence: &str, choice: &Choice<'_>) -> Option<Reading> {
    let lower = sentence.to_lowercase();
    for (marker, side) in CONTRASTS {
        for (i, _) in marker_at(&lower, marker) {
            let before = tail(&lower[..i], REACH);
            let after = head(&lower[i + marker.len()..], REACH);
            let (chosen_side, over_side) = match side {
                Chosen::Before => (before, after),
                Chosen::After => (after, before),
            };
            let on = |side: &str, t: &str| find_term(side, t).next().is_some();
            if on(chosen_side, choice.chosen) && on(over_side, choice.over) {
                return Some(Reading::Agrees);
            }
            if on(chosen_side, choice.over) && on(over_side, choice.chosen) {
                return Some(Reading::Swapped);
            }
        }
    }
    match (chooses(&lower, choice.chosen), chooses(&lower, choice.over)) {
        (true, false) => Some(Reading::Agrees),
        (false, true) => Some(Reading::Swapped),
        _ => None,
    }
}

/// True when `sentence` (lowercase) chooses `thing`: a choosing verb before it (up to two
/// words between, none of them a word of another role) or, in Japanese and Korean, after
/// it; and no negation bears on the verb.
fn chooses(sentence: &str, thing: &str) -> bool {
    find_term(sentence, thing).any(|(start, end)| {
        let before = tail(&sentence[..start], REACH);
        let after = head(&sentence[end..], 8);
        let verb_before = CHOOSE_BEFORE.iter().find_map(|v| verb_ends(before, v));
        if let Some(v) = verb_before {
            let lead = tail(&before[..v], 12);
            return !negated_latin_before(lead) && !negated_cjk_before(lead);
        }
        CHOOSE_AFTER.iter().any(|v| after.contains(v)) && !claims::negated(head(&sentence[end..], 14))
    })
}

/// Where verb `v` starts in `before` when `before` ends with it and at most two words that
/// qualify what follows (the [`BETWEEN`] words, or words of no closed class: `use quantized
/// WASM`, not `use it for WASM`); a CJK verb only with nothing but spaces after it.
fn verb_ends(before: &str, v: &str) -> Option<usize> {
    let trimmed = before.trim_end();
    if !v.is_ascii() {
        return trimmed.ends_with(v).then(|| trimmed.len() - v.len());
    }
    let mut rest = trimmed;
    for _ in 0..=2 {
        if let Some(at) = rest.strip_suffix(v).map(str::len)
            && rest[..at].chars().next_back().is_none_or(|c| !c.is_alphanumeric())
        {
            return Some(at);
        }
        let (head, last) = rest.rsplit_once(char::is_whitespace)?;
        let modifier = !claims::closed_english(last) && last.chars().all(|c| c.is_alphanumeric() || c == '-');
        if !BETWEEN.contains(&last) && !modifier {
            return None;
        }
        rest = head.trim_end();
    }
    None
}

/// True when one of the last three words before a Latin verb denies it (`don't use`, `never
/// picked`, `stopped using`).
fn negated_latin_before(lead: &str) -> bool {
    lead.split_whitespace()
        .rev()
        .take(3)
        .any(|w| matches!(w, "not" | "never" | "no" | "stop" | "stopped" | "avoid" | "without") || w.ends_with("n't"))
}

/// True when a Chinese negation stands right before a verb (`不用`, `没有用`, `别用`).
fn negated_cjk_before(lead: &str) -> bool {
    let last: String = lead.trim_end().chars().rev().take(2).collect();
    last.contains(['不', '没', '别', '無', '无'])
}

/// The byte ranges where `term` occurs in `text`, case-insensitive; a Latin term only as a
/// whole word.
fn find_term<'t>(text: &'t str, term: &str) -> impl Iterator<Item = (usize, usize)> + 't {
    let lower = text.to_lowercase();
    let needle = term.to_lowercase();
    let spans: Vec<(usize, usize)> = if lower.len() == text.len() && !needle.is_empty() {
        lower
            .match_indices(needle.as_str())
            .map(|(i, m)| (i, i + m.len()))
            .filter(|&(s, e)| {
                let word = |c: char| c.is_ascii_alphanumeric() || c == '_';
                let open = text[..s].chars().next_back().is_none_or(|c| !word(c)) || !needle.starts_with(word);
                let close = text[e..].chars().next().is_none_or(|c| !word(c)) || !needle.ends_with(word);
                open && close
            })
            .collect()
    } else {
        Vec::new()
    };
    spans.into_iter()
}

/// The occurrences of `marker` in `lower`; a Latin marker only between word boundaries.
fn marker_at<'t>(lower: &'t str, marker: &'t str) -> impl Iterator<Item = (usize, &'t str)> + 't {
    lower.match_indices(marker).filter(move |(i, m)| {
        if !m.is_ascii() {
            return true;
        }
        let open = !m.starts_with(char::is_alphanumeric)
            || lower[..*i].chars().next_back().is_none_or(|c| !c.is_alphanumeric());
        let close = lower[i + m.len()..].chars().next().is_none_or(|c| !c.is_alphanumeric());
        open && close
    })
}

/// The number of chars of `line[from..to]`.
fn chars(line: &str, from: usize, to: usize) -> usize {
    line.get(from..to).map_or(usize::MAX, |s| s.chars().count())
}

/// The last `n` chars of `s`.
fn tail(s: &str, n: usize) -> &str {
    let start = s.char_indices().rev().nth(n.saturating_sub(1)).map_or(0, |(i, _)| i);
    &s[start..]
}

/// The first `n` chars of `s`.
fn head(s: &str, n: usize) -> &str {
    let end = s.char_indices().nth(n).map_or(s.len(), |(i, _)| i);
    &s[..end]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reading(sentence: &str, chosen: &str, over: &str) -> Option<Reading> {
        read(sentence, &Choice { chosen, over })
    }

    #[test]
    fn a_contrast_either_way_round() {
        let s = "Decision: q8 WASM everywhere instead of WebGPU.";
        assert!(reading(s, "WASM", "WebGPU") == Some(Reading::Agrees));
        assert!(reading(s, "WebGPU", "WASM") == Some(Reading::Swapped));
        assert!(reading("PostgresではなくSQLiteを使う", "SQLite", "Postgres") == Some(Reading::Agrees));
        assert!(reading("Redis 대신 Valkey를 쓴다", "Redis", "Valkey") == Some(Reading::Swapped));
        assert!(reading("我们用pnpm而不是npm", "npm", "pnpm") == Some(Reading::Swapped));
    }

    #[test]
    fn a_choosing_verb_and_its_negation() {
        let s = "WebGPU would need the 172 MB fp16 weights, so I'll use quantized WASM everywhere";
        assert!(reading(s, "WebGPU", "WASM") == Some(Reading::Swapped));
        assert!(reading(s, "WASM", "WebGPU") == Some(Reading::Agrees));
        assert!(reading("we switched to pnpm last week", "npm", "pnpm") == Some(Reading::Swapped));
        assert!(reading("don't use Jest here, Vitest runs the suite", "Vitest", "Jest").is_none());
        assert!(reading("WASMを採用します", "WebGPU", "WASM") == Some(Reading::Swapped));
        assert!(reading("WASMは使わない", "WebGPU", "WASM").is_none());
        assert!(reading("캐시는 Valkey를 사용한다", "Redis", "Valkey") == Some(Reading::Swapped));
        assert!(reading("不用npm，改用pnpm", "npm", "pnpm") == Some(Reading::Swapped));
        // A verb with other words between it and the thing does not choose it.
        assert!(reading("use it for the WASM build", "WebGPU", "WASM").is_none());
        // Both chosen, or neither: no reading.
        assert!(reading("we use WASM and WebGPU", "WebGPU", "WASM").is_none());
        assert!(reading("WebGPU would need the fp16 weights of WASM", "WebGPU", "WASM").is_none());
    }

    #[test]
    fn whole_words_only() {
        assert_eq!(find_term("use WASMs", "WASM").count(), 0);
        assert_eq!(find_term("use `wasm`", "WASM").count(), 1);
        assert!(marker_at("no instead ofx", "instead of").next().is_none());
    }
}
