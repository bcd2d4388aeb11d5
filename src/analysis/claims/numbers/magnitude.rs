//! Figures written with a magnitude after them (`€4.5k`, `35k rows`, `$3M`, `1.5万行`): what
//! a note abbreviates is the scaled figure, and a source abbreviating one states it.

use super::figure::read_number;
use crate::analysis::claims::text::{char_at, char_before};

/// The figure of `written` (a number claim as the note writes it) before its magnitude
/// (`48.2` of `$48.2k`), when it has one: how a source abbreviating it the same way
/// writes it.
pub(crate) fn mantissa(written: &str) -> Option<&str> {
    let i = written.find(|c: char| c.is_ascii_digit())?;
    let (end, value) = read_number(written, i)?;
    magnitude(written, i, end, &value, Reading::Source)?;
    written.get(i..end)
}

/// How a text is read for magnitudes: a note line's claims (strict), or a source that may
/// state one (any `k`/`M` glued to a figure: `batches of 10k`).
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Reading {
    Note,
    Source,
}

/// A number written with a magnitude after it, as a note abbreviates it: `€4.5k` is 4500,
/// `35k rows` 35000, `$3M` and `1.2M users` 1.2 million, `1.5万行` 15000, `3억` 300 million.
/// Its end past the magnitude and its value in digits. In a note, `k`/`M` only where they
/// cannot be a unit or a name: after a currency sign, or a decimal or two-digit figure
/// followed by a word (`4k display`, `4.0M` of `du` and `8K` alone stay as written); a
/// source states the scaled figure wherever one is glued to it.
pub(super) fn magnitude(
    line: &str,
    start: usize,
    end: usize,
    value: &str,
    reading: Reading,
) -> Option<(usize, String)> {
    // A CJK magnitude may stand one blank after its figure (`100 万元`, `5 억 원`).
    let cjk = |c: Option<char>| matches!(c, Some('万' | '萬' | '만' | '億' | '亿' | '억'));
    let end = if char_at(line, end) == Some(' ') && cjk(char_at(line, end + 1)) { end + 1 } else { end };
    let c = char_at(line, end)?;
    let after = end + c.len_utf8();
    let next = char_at(line, after);
    let zeros = match c {
        '万' | '萬' | '만' => 4,
        '億' | '亿' | '억' => 8,
        'k' | 'K' | 'M' => {
            if next.is_some_and(char::is_alphanumeric) {
                return None;
            }
            let currency = matches!(char_before(line, start), Some('$' | '€' | '£' | '¥'));
            let word_after = next == Some(' ') && char_at(line, after + 1).is_some_and(|w| w.is_ascii_lowercase());
            let sized = value.contains('.') || value.parse::<f64>().is_ok_and(|v| v >= 10.0);
            if !(currency || (sized && word_after) || reading == Reading::Source) {
                return None;
            }
            if c == 'M' { 6 } else { 3 }
        }
        _ => return None,
    };
    // `1万2千` is a compound figure: left as written.
    if zeros >= 4 && next.is_some_and(|n| n.is_ascii_digit()) {
        return None;
    }
    Some((after, shift_point(value, zeros)?))
}

/// `value` times ten to `zeros`, in digits (`4.5`, 3 → `4500`; `1.2345`, 3 → `1234.5`).
fn shift_point(value: &str, zeros: usize) -> Option<String> {
    let (whole, frac) = value.split_once('.').unwrap_or((value, ""));
    let mut digits = format!("{whole}{frac}");
    let point = whole.len() + zeros;
    while digits.len() < point {
        digits.push('0');
    }
    let (int, rest) = digits.split_at(point);
    let int = int.trim_start_matches('0');
    let int = if int.is_empty() { "0" } else { int };
    let rest = rest.trim_end_matches('0');
    Some(if rest.is_empty() { int.to_string() } else { format!("{int}.{rest}") })
}
