//! A credential beyond the span where a rule recognises it: cut over two lines (a token
//! wrapped by an editor or pasted in two pieces), or written again elsewhere in the same
//! text (`Bearer X` on one line, `X` alone on the next). Both are found from what the
//! rules find, so any shape the table knows is covered.

use std::ops::Range;

use super::kind::{Secret, SecretKind};

/// How far a line break's two sides are read to join a cut token: a token longer than
/// this on either side of the break is recognised on that side alone.
const SIDE: usize = 256;

/// The shortest piece after a break that can continue a token (`…abcd\nef` is a line
/// ending a sentence, not a cut key).
const MIN_CONTINUATION: usize = 4;

/// The shortest value looked for again anywhere in the text; a shorter one only as a
/// whole word (a 5-letter password must not mask every word holding it).
const MIN_ANYWHERE: usize = 8;

/// Credentials cut by a line break: each break between two non-blank characters is read
/// as if the lines were one (the line before, up to [`SIDE`] bytes, and the run of
/// non-blank characters after); a credential that `recognise` finds there across the
/// break is returned as one span of `text`, its break included.
pub(super) fn across_breaks(text: &str, recognise: impl Fn(&str) -> Vec<Secret>) -> Vec<Secret> {
    let b = text.as_bytes();
    let mut found = Vec::new();
    let mut joined = String::new();
    for nl in memchr::memchr_iter(b'\n', b) {
        let before = if nl > 0 && b[nl - 1] == b'\r' { nl - 1 } else { nl };
        let after = nl + 1;
        let next_end = after + b[after..].iter().take(SIDE).take_while(|c| !c.is_ascii_whitespace()).count();
        let run = &b[after..next_end];
        if before == 0 || b[before - 1].is_ascii_whitespace() || !is_token_piece(run) {
            continue;
        }
        let line_start = b[..before].iter().rposition(|&c| c == b'\n').map_or(0, |i| i + 1);
        let mut from = line_start.max(before.saturating_sub(SIDE));
        while !text.is_char_boundary(from) {
            from += 1;
        }
        let (Some(left), Some(right)) = (text.get(from..before), text.get(after..next_end)) else { continue };
        joined.clear();
        joined.push_str(left);
        joined.push_str(right);
        for s in recognise(&joined) {
            // A shaped token's row validated the whole; a value found by its key (a
            // password) may be followed by any word, so its continuation must look random.
            let shaped = s.kind != SecretKind::Credential;
            if s.start < left.len() && s.end > left.len() && (shaped || looks_random(run)) {
                found.push(Secret { kind: s.kind, start: from + s.start, end: after + (s.end - left.len()) });
            }
        }
    }
    found
}

/// Whether a line's first run of non-blank characters can be the rest of a cut token: at
/// least [`MIN_CONTINUATION`] token characters and nothing else.
fn is_token_piece(run: &[u8]) -> bool {
    let token = |c: &u8| c.is_ascii_alphanumeric() || matches!(c, b'+' | b'/' | b'=' | b'_' | b'-' | b'.');
    run.len() >= MIN_CONTINUATION && run.iter().all(token)
}

/// Whether a token piece is not a word: a digit, a capital past its first letter, or the
/// length of a key's tail. `next` after a password on the line before is prose.
fn looks_random(run: &[u8]) -> bool {
    let digit = run.iter().any(u8::is_ascii_digit);
    let inner_capital = run.iter().skip(1).any(u8::is_ascii_uppercase);
    digit || inner_capital || run.len() >= 16
}

/// Whether a credential's value is one that is looked for again: on one line, and either
/// long or mixing letters and digits. A weak password that is a word (`postgres` in
/// `postgres://postgres:postgres@db`) is masked where it is one, not as every word like it.
fn looks_made_up(v: &str) -> bool {
    let mixed = v.bytes().any(|c| c.is_ascii_digit()) && v.bytes().any(|c| c.is_ascii_alphabetic());
    v.len() >= 4 && !v.contains('\n') && (mixed || v.len() >= super::thresholds::SHOWN_TAIL_MIN_LEN)
}

/// Every other place in `text` where the value of one of `secrets` is written again.
pub(super) fn repeats(text: &str, secrets: &[Secret]) -> Vec<Secret> {
    let mut values: Vec<(&str, Secret)> = secrets
        .iter()
        .filter_map(|s| text.get(s.start..s.end).map(|v| (v, *s)))
        .filter(|(v, _)| looks_made_up(v))
        .collect();
    values.sort_by(|a, b| a.0.cmp(b.0));
    values.dedup_by(|a, b| a.0 == b.0);
    if values.is_empty() {
        return Vec::new();
    }
    let Ok(ac) = aho_corasick::AhoCorasick::new(values.iter().map(|(v, _)| v)) else { return Vec::new() };
    let b = text.as_bytes();
    let word = |i: usize| b.get(i).is_some_and(u8::is_ascii_alphanumeric);
    let whole_word = |r: &Range<usize>| (r.start == 0 || !word(r.start - 1)) && !word(r.end);
    let mut found = Vec::new();
    for m in ac.find_overlapping_iter(text) {
        let (value, s) = values[m.pattern().as_usize()];
        let r = m.start()..m.end();
        if r.start != s.start && (value.len() >= MIN_ANYWHERE || whole_word(&r)) {
            found.push(Secret { kind: s.kind, start: r.start, end: r.end });
        }
    }
    found
}
