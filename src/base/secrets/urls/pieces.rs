//! Splitting a URL's bytes: the non-empty pieces between separators, the pieces kept by a
//! byte class, and the bytes of a base64url token.

use std::ops::Range;

/// The non-empty pieces of `r` between `sep` bytes.
pub(super) fn split(b: &[u8], r: Range<usize>, sep: u8) -> impl Iterator<Item = Range<usize>> + '_ {
    let mut at = r.start;
    std::iter::from_fn(move || {
        while at < r.end {
            let start = at;
            let end = b.get(start..r.end)?.iter().position(|&c| c == sep).map_or(r.end, |i| start + i);
            at = end + 1;
            if end > start {
                return Some(start..end);
            }
        }
        None
    })
}

/// The maximal runs of bytes satisfying `keep` in `r`.
pub(super) fn pieces<F: Fn(u8) -> bool>(
    b: &[u8],
    r: Range<usize>,
    keep: F,
) -> impl Iterator<Item = Range<usize>> + use<'_, F> {
    let mut at = r.start;
    std::iter::from_fn(move || {
        while at < r.end && !b.get(at).is_some_and(|&c| keep(c)) {
            at += 1;
        }
        if at >= r.end {
            return None;
        }
        let start = at;
        while at < r.end && b.get(at).is_some_and(|&c| keep(c)) {
            at += 1;
        }
        Some(start..at)
    })
}

/// A byte of a base64url token.
pub(super) fn is_token_byte(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'-' || c == b'_'
}
