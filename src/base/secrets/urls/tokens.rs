//! Whether a URL's segment or piece is a random token (a capability) or stands for one in
//! documentation (a placeholder, a UUID, a sequence).

use super::super::shapes::{is_placeholder_body, names_a_placeholder};
use super::pieces::{is_token_byte, pieces};
use super::words::URL_TOKEN_MIN_LEN;

/// A segment that stands for a value in documentation (`...`, `XXX`, `YOUR_ID`, `{id}`,
/// `<token>`, `:id`).
pub(super) fn placeholder_segment(seg: &[u8]) -> bool {
    seg.iter().any(|c| b"{}<>$:*".contains(c))
        || seg.windows(3).any(|w| w == b"...")
        || names_a_placeholder(seg)
        || seg.windows(3).any(|w| w.eq_ignore_ascii_case(b"xxx"))
}

/// After a context word: a UUID, or a piece with random letters and digits.
pub(super) fn opaque(seg: &[u8]) -> bool {
    if placeholder_segment(seg) {
        return false;
    }
    if is_uuid(seg) {
        let hex: Vec<u8> = seg.iter().copied().filter(|&c| c != b'-').collect();
        return !is_placeholder_body(&hex) && !sequence(&hex);
    }
    let alnum = |c: u8| c.is_ascii_alphanumeric();
    let r = 0..seg.len();
    pieces(seg, r.clone(), alnum).any(|p| random_piece(seg.get(p).unwrap_or_default()))
        || pieces(seg, r, is_token_byte).any(|p| random_token(seg.get(p).unwrap_or_default()))
}

/// On a webhook host: a run of 6 digits (an account id), or 6 letters and digits mixing
/// classes (`ul50ccv`), that is no placeholder.
pub(super) fn webhook_material(seg: &[u8]) -> bool {
    let alnum = |c: u8| c.is_ascii_alphanumeric();
    pieces(seg, 0..seg.len(), alnum).any(|p| {
        let p = seg.get(p).unwrap_or_default();
        let digits = p.iter().filter(|c| c.is_ascii_digit()).count();
        let mixed = (digits > 0 && digits < p.len())
            || (p.iter().any(u8::is_ascii_uppercase) && p.iter().any(u8::is_ascii_lowercase));
        p.len() >= 6 && (digits == p.len() || mixed) && !short_placeholder(p)
    })
}

/// One character for half the piece, or a run of 4 or more, or a sequence (`000000`,
/// `123456`, `aaaa42`).
pub(super) fn short_placeholder(p: &[u8]) -> bool {
    let mut counts = [0usize; 256];
    for &c in p {
        counts[usize::from(c.to_ascii_lowercase())] += 1;
    }
    let max = counts.iter().copied().max().unwrap_or(0);
    let run = p.windows(4).any(|w| w.iter().all(|c| c.eq_ignore_ascii_case(&w[0])));
    max * 2 > p.len() || run || sequence(p)
}

/// `8-4-4-4-12` hex digits.
pub(super) fn is_uuid(seg: &[u8]) -> bool {
    seg.len() == 36
        && seg
            .iter()
            .enumerate()
            .all(|(i, c)| if matches!(i, 8 | 13 | 18 | 23) { *c == b'-' } else { c.is_ascii_hexdigit() })
}

/// A piece of letters and digits of 8 or more that looks random: hex with a digit and a
/// letter, or both mixed with a class change every ~3 characters, or 12 or more mixing
/// both (`qxdvoxxcexsvn43`: a random lower-case id may hold few digits).
pub(super) fn random_piece(p: &[u8]) -> bool {
    let hex = p.iter().all(u8::is_ascii_hexdigit);
    let runs = class_runs(p);
    p.len() >= 8
        && p.iter().any(u8::is_ascii_digit)
        && p.iter().any(u8::is_ascii_alphabetic)
        && (hex || runs * 10 >= p.len() * 3 || p.len() >= 12)
        && !is_placeholder_body(p)
        && !sequence(p)
}

/// A random token with no other sign: see the module documentation.
pub(super) fn random_token(p: &[u8]) -> bool {
    if p.len() < URL_TOKEN_MIN_LEN {
        return false;
    }
    let separators = p.iter().filter(|c| matches!(c, b'-' | b'_')).count();
    let alnum = p.len() - separators;
    let prefixed = p
        .iter()
        .position(|&c| c == b'_')
        .is_some_and(|i| (2..=8).contains(&i) && p.get(..i).is_some_and(|w| w.iter().all(u8::is_ascii_lowercase)));
    separators * 8 <= p.len()
        && !prefixed
        && longest_part_mixes_cases(p)
        && p.iter().any(u8::is_ascii_uppercase)
        && p.iter().any(u8::is_ascii_lowercase)
        && p.iter().any(u8::is_ascii_digit)
        && class_runs(p) * 10 >= alnum * 4
        && !is_placeholder_body(p)
        && !names_a_placeholder(p)
        && !sequence(p)
}

/// The longest part of `p` between `-` and `_` holds both cases: a random token's does,
/// while a slug's random-looking tail is a lower-case id (`Plan-3f1c9a52…`, Notion's
/// `Mantle-Specification-21c261aa…`) whose upper case comes from the words before it.
pub(super) fn longest_part_mixes_cases(p: &[u8]) -> bool {
    p.split(|&c| matches!(c, b'-' | b'_'))
        .max_by_key(|part| part.len())
        .is_some_and(|part| part.iter().any(u8::is_ascii_uppercase) && part.iter().any(u8::is_ascii_lowercase))
}

/// Runs of one character class (upper case, lower case, digit) among the letters and
/// digits of `p`; `-` and `_` end a run without starting one.
pub(super) fn class_runs(p: &[u8]) -> usize {
    let class = |c: u8| {
        if c.is_ascii_uppercase() {
            1
        } else if c.is_ascii_lowercase() {
            2
        } else {
            3
        }
    };
    let mut runs = 0;
    let mut prev = 0;
    for &c in p {
        if !c.is_ascii_alphanumeric() {
            prev = 0;
            continue;
        }
        let k = class(c);
        if k != prev {
            runs += 1;
        }
        prev = k;
    }
    runs
}

/// An alphabet or counting sequence, possibly interleaved (`abcdef123456`, `a1b2c3d4`,
/// `AbCdEfGh`): half its characters are followed, one or two places on, by the next one.
pub(super) fn sequence(p: &[u8]) -> bool {
    let lower: Vec<u8> = p.iter().map(u8::to_ascii_lowercase).filter(u8::is_ascii_alphanumeric).collect();
    if lower.len() < 6 {
        return false;
    }
    let next =
        |i: usize, d: usize| lower.get(i + d).is_some_and(|&c| lower.get(i).is_some_and(|&a| c == a.wrapping_add(1)));
    let stepping = (0..lower.len()).filter(|&i| next(i, 1) || next(i, 2)).count();
    stepping * 2 >= lower.len()
}
