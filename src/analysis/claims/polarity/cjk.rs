//! CJK text read for what it asserts: Japanese, Korean and Chinese write no spaces between
//! words, so their content is pairs of characters, and a denial bears on the few characters
//! next to it (before it for Japanese and Korean, after it for Chinese).

use super::super::negations::{ANTONYMS, CJK_NEGATIONS, DENY_BEFORE};
use super::super::text::is_cjk;

/// What [`read_cjk`] finds.
#[derive(Default)]
pub(super) struct Cjk {
    /// Pairs of characters, each with whether a denial bears on it.
    pub(super) words: Vec<(String, bool)>,
    /// Antonym poles: (pair, side, denied).
    pub(super) poles: Vec<(usize, bool, bool)>,
}

/// Particles that end a Japanese or Korean phrase: a denial does not reach past one.
const PARTICLE_CHARS: &[char] =
    &['は', 'が', 'を', 'に', 'で', 'と', 'も', 'の', '은', '는', '이', '가', '을', '를', '에', '도', '的', '了'];

/// How many CJK characters a negation bears on (the predicate next to it).
const CJK_SCOPE: usize = 4;

/// Reads the CJK text of `lower` into `content` (pairs of characters) and `poles`: antonyms
/// first (`不要` is the pole of `必要`, not a negation of `要`), then negation markers, each
/// bearing on the characters next to it — before it for Japanese and Korean, which deny
/// at the end of the predicate (`必要ない`, `사용하지 않는다`), after it for Chinese (`不需要`).
pub(super) fn read_cjk(lower: &str) -> Cjk {
    let mut out = Cjk::default();
    // Without a CJK character there is no pole, denial or pair of characters to read.
    if !lower.chars().any(is_cjk) {
        return out;
    }
    // The CJK characters, with a break between runs (runs of Korean are words).
    let chars: Vec<char> = lower.chars().map(|c| if is_cjk(c) { c } else { ' ' }).collect();
    let mut used = vec![false; chars.len()];
    let starts_at = |i: usize, w: &str| w.chars().enumerate().all(|(k, c)| chars.get(i + k) == Some(&c));
    let mut found_poles: Vec<(usize, usize, bool)> = Vec::new(); // (char index, pair, side)
    let mut denials: Vec<(usize, usize, bool)> = Vec::new(); // (start, len, bears before)
    let mut i = 0;
    while i < chars.len() {
        if chars[i] == ' ' || used[i] {
            i += 1;
            continue;
        }
        let pole = ANTONYMS.iter().enumerate().find_map(|(pair, (a, b))| {
            [(true, a), (false, b)].into_iter().find_map(|(side, words)| {
                words
                    .iter()
                    .filter(|w| w.chars().any(is_cjk) && starts_at(i, w))
                    .map(|w| (w.chars().count(), pair, side))
                    .next()
            })
        });
        if let Some((len, pair, side)) = pole {
            found_poles.push((i, pair, side));
            used[i..i + len].iter_mut().for_each(|u| *u = true);
            i += len;
            continue;
        }
        // Korean `안` / `못` standing alone deny the word after them (`안 쓴다`).
        let alone = (i == 0 || chars[i - 1] == ' ') && chars.get(i + 1) == Some(&' ');
        if alone && matches!(chars[i], '안' | '못') {
            denials.push((i, 1, false));
            used[i] = true;
            i += 1;
            continue;
        }
        let denial = CJK_NEGATIONS.iter().filter(|n| !n.ends_with(' ')).find(|n| starts_at(i, n));
        if let Some(n) = denial {
            let len = n.chars().count();
            denials.push((i, len, DENY_BEFORE.contains(n)));
            used[i..i + len].iter_mut().for_each(|u| *u = true);
            i += len;
            continue;
        }
        i += 1;
    }
    // Which character positions a denial bears on: up to CJK_SCOPE characters before it
    // (across a space for Korean) or after it.
    // A particle ends the predicate a denial bears on (`マイグレーションは|必要ない`).
    let particle = |c: char| PARTICLE_CHARS.contains(&c);
    let mut denied = vec![0usize; chars.len()];
    for &(start, len, before) in &denials {
        let span: Vec<usize> = if before {
            // Right after a pole, the denial bears on that pole alone (`必要ない`).
            match found_poles.iter().find(|(at, pair, side)| {
                let w = if *side { ANTONYMS[*pair].0 } else { ANTONYMS[*pair].1 };
                w.iter().any(|w| starts_at(*at, w) && at + w.chars().count() == start)
            }) {
                Some(&(at, _, _)) => vec![at],
                None => (0..start)
                    .rev()
                    .skip_while(|&k| chars[k] == ' ')
                    .take_while(|&k| chars[k] != ' ' && !particle(chars[k]))
                    .take(CJK_SCOPE)
                    .collect(),
            }
        } else {
            (start + len..chars.len())
                .skip_while(|&k| chars[k] == ' ')
                .take_while(|&k| chars[k] != ' ' && !particle(chars[k]))
                .take(CJK_SCOPE)
                .collect()
        };
        for k in span {
            denied[k] += 1;
        }
    }
    let odd = |k: usize| denied.get(k).is_some_and(|n| n % 2 == 1);
    for &(at, pair, side) in &found_poles {
        out.poles.push((pair, side, odd(at)));
    }
    for k in 0..chars.len().saturating_sub(1) {
        let (a, b) = (chars[k], chars[k + 1]);
        if a == ' ' || b == ' ' || used[k] || used[k + 1] {
            continue;
        }
        out.words.push(([a, b].iter().collect(), odd(k) || odd(k + 1)));
    }
    out
}
