//! Numbers with a unit word: recognising them in a note line, finding them in a source text,
//! and comparing units (`tests`/`test`, `s`/`seconds`, `GB`/`gigabytes`).
//!
//! A number is a claim only with a unit: a word right after it (`214 tests`, `9.81s`,
//! `3 GB`, `5-minute`), a CJK counter (`214件`, `3개`), `%`, or a label before it
//! (`port 6379`, `PR #123`, `$5`). Bare numbers, ordinals, times (`09:14`), fractions,
//! IDs glued to words (`gemma4`, `31b-cloud`) are not claims.

use std::ops::Range;

use super::text::{char_at, char_before, is_cjk, two_before};
use super::words::{CJK_COUNTERS, CJK_PORT_WORDS, GENERIC_COUNTERS, NOT_UNITS, PREFIX_LABELS};

/// A number claim found in a line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct FoundNumber {
    /// Byte range of the whole claim (label and unit included).
    pub range: Range<usize>,
    /// Digits without thousands separators.
    pub value: String,
    /// The unit, lowercased as written.
    pub unit: String,
}

/// Reads a number token starting at byte `i` (an ASCII digit): digits, optional
/// thousands groups (`1,200`), optional decimals. Returns its end and normalised digits.
pub(crate) fn read_number(s: &str, i: usize) -> Option<(usize, String)> {
    let b = s.as_bytes();
    let digits_end = |mut j: usize| {
        while b.get(j).is_some_and(|c| c.is_ascii_digit()) {
            j += 1;
        }
        j
    };
    let mut end = digits_end(i);
    if end == i {
        return None;
    }
    let mut value = s.get(i..end)?.to_string();
    if end - i <= 3 {
        // Thousands groups: exactly three digits after each comma.
        loop {
            let g = end + 1;
            let ge = digits_end(g);
            if b.get(end) == Some(&b',') && ge - g == 3 {
                value.push_str(s.get(g..ge)?);
                end = ge;
            } else {
                break;
            }
        }
    }
    if b.get(end) == Some(&b'.') && b.get(end + 1).is_some_and(|c| c.is_ascii_digit()) {
        let de = digits_end(end + 1);
        value.push_str(s.get(end..de)?);
        end = de;
    }
    Some((end, value))
}

fn is_opener(c: char) -> bool {
    c.is_whitespace()
        || is_cjk(c)
        || matches!(
            c,
            '(' | '['
                | '{'
                | '"'
                | '\''
                | '“'
                | '‘'
                | '「'
                | '『'
                | '（'
                | '~'
                | '≈'
                | '<'
                | '>'
                | '='
                | '*'
                | '～'
                | '約'
        )
}

/// Every number claim in `line` whose range is accepted by `free`.
pub(crate) fn find_numbers(line: &str, free: &dyn Fn(&Range<usize>) -> bool) -> Vec<FoundNumber> {
    let b = line.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let starts = b.get(i).is_some_and(|c| c.is_ascii_digit())
            && !(i > 0 && b.get(i - 1).is_some_and(|c| c.is_ascii_digit()));
        if !starts {
            i += 1;
            continue;
        }
        let Some((end, value)) = read_number(line, i) else {
            i += 1;
            continue;
        };
        if let Some(found) = number_claim(line, i, end, value)
            && free(&found.range)
        {
            out.push(found);
        }
        i = end.max(i + 1);
    }
    out
}

fn number_claim(line: &str, start: usize, end: usize, value: String) -> Option<FoundNumber> {
    // Right side: not a version, time, fraction or date continuation.
    let next = char_at(line, end);
    let after = char_at(line, end + 1);
    if matches!(next, Some('.' | ':' | '/' | ',' | '-' | '_')) && after.is_some_and(|c| c.is_ascii_digit()) {
        return None;
    }
    // Left side: a label (`port `, `#`, `$`) or a clean break.
    if let Some((label_start, label)) = prefix_label(line, start) {
        return Some(FoundNumber { range: label_start..end, value, unit: label });
    }
    match two_before(line, start) {
        (None, _) => {}
        (Some('-' | '+' | '±'), before) if before.is_none_or(char::is_whitespace) => {}
        (Some(c), _) if is_opener(c) => {}
        _ => return None,
    }
    let (unit_end, unit) = suffix_unit(line, end)?;
    // `the 2026 roadmap`: a year used as an adjective, not a quantity.
    let year_like = value.len() == 4
        && value.parse::<u32>().is_ok_and(|y| (1900..=2100).contains(&y))
        && line.get(end..).is_some_and(|r| r.starts_with(' '));
    if year_like {
        return None;
    }
    Some(FoundNumber { range: start..unit_end, value, unit })
}

fn prefix_label(line: &str, start: usize) -> Option<(usize, String)> {
    if let Some(label_start) = cjk_port_label(line, start) {
        return Some((label_start, "port".to_string()));
    }
    let prev = char_before(line, start)?;
    if matches!(prev, '$' | '€' | '£' | '¥') {
        return Some((start - prev.len_utf8(), prev.to_string()));
    }
    let mut p = start;
    let mut label = None;
    if prev == '#' {
        p -= 1;
        label = Some("#".to_string());
    }
    // A label word before, separated by one space: `port 6379`, `PR #12`.
    if char_before(line, p) == Some(' ') {
        let head = line.get(..p - 1)?;
        let word_start = head.char_indices().rev().take_while(|(_, c)| c.is_ascii_alphabetic()).last().map(|(j, _)| j);
        if let Some(ws) = word_start {
            let word = head.get(ws..)?.to_ascii_lowercase();
            let clean = char_before(head, ws).is_none_or(|c| !c.is_alphanumeric());
            if clean && PREFIX_LABELS.contains(&word.as_str()) {
                return Some((ws, word));
            }
        }
    }
    if label.is_some() {
        let clean = char_before(line, p).is_none_or(|c| !c.is_alphanumeric());
        return clean.then_some((p, "#".to_string()));
    }
    None
}

/// Start of a CJK word for "port" before the number at `start`, with at most a topic
/// particle (`は`, `는`, `은`, `是`, `为`), a colon and spaces between: `ポートは 6380`,
/// `포트는 6380`, `端口：6380`.
fn cjk_port_label(line: &str, start: usize) -> Option<usize> {
    let spaces: &[char] = &[' ', '\u{3000}'];
    let head = line.get(..start)?.trim_end_matches(spaces).trim_end_matches([':', '：']).trim_end_matches(spaces);
    let head = ["は", "는", "은", "是", "为"].iter().find_map(|p| head.strip_suffix(p)).unwrap_or(head);
    let head = head.trim_end_matches(spaces);
    CJK_PORT_WORDS.iter().find_map(|w| head.strip_suffix(w)).map(str::len)
}

fn suffix_unit(line: &str, end: usize) -> Option<(usize, String)> {
    let rest = line.get(end..)?;
    // Ordinals and clock times are not quantities.
    let lower: String = rest.chars().take(3).collect::<String>().to_ascii_lowercase();
    for ord in ["st", "nd", "rd", "th", "am", "pm"] {
        if lower.starts_with(ord) && !lower[ord.len()..].starts_with(|c: char| c.is_ascii_alphabetic()) {
            return None;
        }
    }
    if rest.starts_with('%') {
        return Some((end + 1, "%".into()));
    }
    if rest.starts_with(" %") {
        return Some((end + 2, "%".into()));
    }
    // Attached unit: 9.81s, 3GB, 5x.
    let attached = ascii_word(rest);
    if !attached.is_empty() {
        let after = char_at(rest, attached.len());
        let ok = attached.len() <= 4 && !after.is_some_and(|c| c.is_alphanumeric() || c == '-' || c == '_');
        return ok.then(|| (end + attached.len(), attached.to_ascii_lowercase()));
    }
    // Separated unit: `214 tests`, `5-minute`, `3 GB`.
    if let Some(sep @ (' ' | '-')) = char_at(rest, 0) {
        let word_part = rest.get(1..)?;
        let word = ascii_word(word_part);
        if !word.is_empty() {
            let after = char_at(word_part, word.len());
            if after.is_some_and(|c| c.is_alphanumeric() && !is_cjk(c) || c == '_') {
                return None;
            }
            let all_caps = word.chars().all(|c| c.is_ascii_uppercase());
            let plural_caps = word.len() >= 3
                && word.ends_with('s')
                && word[..word.len() - 1].chars().all(|c| c.is_ascii_uppercase());
            let lowercase = word.chars().all(|c| c.is_ascii_lowercase());
            let shape_ok = lowercase || (all_caps || plural_caps) && word.len() <= 5;
            let lw = word.to_ascii_lowercase();
            if shape_ok && !NOT_UNITS.contains(&lw.as_str()) {
                return Some((end + 1 + word.len(), lw));
            }
            return None;
        }
        if sep == ' ' {
            return cjk_counter(word_part).map(|c| (end + 1 + c.len(), c.to_string()));
        }
        return None;
    }
    cjk_counter(rest).map(|c| (end + c.len(), c.to_string()))
}

fn cjk_counter(s: &str) -> Option<&'static str> {
    CJK_COUNTERS.iter().copied().find(|c| s.starts_with(c))
}

fn ascii_word(s: &str) -> &str {
    let n = s.bytes().take_while(|c| c.is_ascii_alphabetic()).count();
    s.get(..n).unwrap_or("")
}

/// The comparable form of a unit: lowercase, singular, synonyms merged (`s`, `secs`,
/// `seconds` → `second`; `GB`, `gigabytes` → `gb`; `percent` → `%`).
pub(crate) fn unit_key(unit: &str) -> String {
    let u = unit.to_lowercase();
    let merged = match u.as_str() {
        "s" | "sec" | "secs" | "second" | "seconds" => "second",
        "ms" | "msec" | "msecs" | "millisecond" | "milliseconds" => "millisecond",
        "min" | "mins" | "minute" | "minutes" => "minute",
        "h" | "hr" | "hrs" | "hour" | "hours" => "hour",
        "d" | "day" | "days" => "day",
        "wk" | "wks" | "week" | "weeks" => "week",
        "mo" | "mos" | "month" | "months" => "month",
        "y" | "yr" | "yrs" | "year" | "years" => "year",
        "b" | "byte" | "bytes" => "byte",
        "kb" | "kib" | "kilobyte" | "kilobytes" => "kb",
        "mb" | "mib" | "megabyte" | "megabytes" => "mb",
        "gb" | "gib" | "gigabyte" | "gigabytes" => "gb",
        "tb" | "tib" | "terabyte" | "terabytes" => "tb",
        "%" | "percent" | "pct" => "%",
        "x" | "times" => "x",
        _ => return singular(&u),
    };
    merged.to_string()
}

fn singular(w: &str) -> String {
    let n = w.chars().count();
    if n > 4 && w.ends_with("ies") {
        return format!("{}y", &w[..w.len() - 3]);
    }
    for es in ["sses", "xes", "ches", "shes"] {
        if n > es.len() && w.ends_with(es) {
            return w[..w.len() - 2].to_string();
        }
    }
    if n > 3 && w.ends_with('s') && !w.ends_with("ss") {
        return w[..w.len() - 1].to_string();
    }
    w.to_string()
}

/// The units of measure [`unit_key`] merges: time, size, percent, factor. A number
/// written right before one of them measures that, and nothing else.
const MEASURES: &[&str] = &[
    "second",
    "millisecond",
    "minute",
    "hour",
    "day",
    "week",
    "month",
    "year",
    "byte",
    "kb",
    "mb",
    "gb",
    "tb",
    "%",
    "x",
];

/// True when `text` states the number `value` of `unit`: an occurrence of the number (see
/// [`number_occurs`]) that is not written with another unit of measure (`1500 ms` does not
/// state `1,500 rows`, `12480 rows` does not state `12,480 ms`), and the unit anywhere in
/// the text (see [`unit_occurs`]; `12` … `tests` states `12 tests`). Without a unit, any
/// occurrence.
pub(crate) fn quantity_occurs(value: &str, unit: Option<&str>, text: &str) -> bool {
    let Some(unit) = unit else {
        return number_occurs(value, text);
    };
    if !unit_occurs(unit, text) {
        return false;
    }
    if PREFIX_LABELS.contains(&unit) {
        // `port 6379`, `#42`: the label stands before the number, whatever follows it.
        return number_occurs(value, text);
    }
    let claimed = unit_key(unit);
    let measure = |k: &str| MEASURES.contains(&k);
    number_ends(value, text).into_iter().any(|end| match suffix_unit(text, end) {
        Some((_, own)) => {
            let own = unit_key(&own);
            let conflict = own != claimed && (measure(&own) || measure(&claimed));
            !conflict
        }
        None => true,
    })
}

/// A unit a source need not spell for the number to state the claim: a prefix label
/// (`port`, `#`, `$`: the number identifies the thing) or a counter that only counts (`件`).
fn unit_optional(unit: &str) -> bool {
    PREFIX_LABELS.contains(&unit) || GENERIC_COUNTERS.contains(&unit)
}

/// True when `text` holds the number `value` as a whole number token, with or without
/// thousands separators (214 ≠ 2140, ≠ 1.214, = 214.0 is not accepted either).
pub(crate) fn number_occurs(value: &str, text: &str) -> bool {
    !number_ends(value, text).is_empty()
}

/// Byte offsets just past each whole-number occurrence of `value` in `text`.
fn number_ends(value: &str, text: &str) -> Vec<usize> {
    let mut out = Vec::new();
    let b = text.as_bytes();
    let mut i = 0;
    while i < b.len() {
        let digit = b.get(i).is_some_and(|c| c.is_ascii_digit());
        let prev = if i > 0 { b.get(i - 1).copied() } else { None };
        let prev2 = if i > 1 { b.get(i - 2).copied() } else { None };
        let after_digit = prev.is_some_and(|c| c.is_ascii_digit());
        let after_separator = matches!(prev, Some(b'.' | b',')) && prev2.is_some_and(|c| c.is_ascii_digit());
        let clean_left = !after_digit && !after_separator;
        if digit
            && clean_left
            && let Some((end, v)) = read_number(text, i)
        {
            let next = b.get(end).copied();
            let after = b.get(end + 1).copied();
            let continues = matches!(next, Some(b'.' | b',')) && after.is_some_and(|c| c.is_ascii_digit());
            if v == value && !continues {
                out.push(end);
            }
            i = end.max(i + 1);
            continue;
        }
        i += 1;
    }
    out
}

/// The first four letters of a unit key of five or more (`passing`/`passed` → `pass`,
/// `testing`/`test` → `test`): units are compared leniently, a paraphrase is no flag.
fn unit_stem(key: &str) -> String {
    if key.chars().count() >= 5 { key.chars().take(4).collect() } else { key.to_string() }
}

/// A lowercase string every text that mentions `unit` (by [`unit_occurs`]) contains, when
/// one is certain to exist: the four-letter stem of a plain unit word (`columns` → `colu`,
/// since every word with that stem starts with it), or a CJK counter itself. `None` for
/// units that need no word (`port`, `#`, `%`), synonyms (`s` = `seconds`), short units and
/// stems the `-ies` rule could produce (ending in `y`). A claim's needle: short numbers
/// (`12`) are everywhere in a transcript, the unit word much less so.
pub(crate) fn unit_needle(unit: &str) -> Option<String> {
    if unit_optional(unit) {
        return None;
    }
    if unit.chars().any(is_cjk) {
        return Some(unit.to_lowercase());
    }
    let key = unit_key(unit);
    if key.chars().count() < 5 || !key.chars().all(|c| c.is_ascii_lowercase()) {
        return None;
    }
    let stem = unit_stem(&key);
    // Stems a synonym can reach without spelling them (`ms` → `millisecond` → `mill`).
    const MERGED: &[&str] = &["second", "millisecond", "minute", "hour", "day", "week", "month", "year", "byte"];
    let synonym = MERGED.iter().any(|k| unit_stem(k) == stem);
    (!synonym && !stem.ends_with('y')).then_some(stem)
}

/// True when `text` mentions the unit: any word with the same [`unit_key`] stem, a `%` sign
/// for percentages, the counter itself for CJK counters. Prefix labels (`port`, `#`,
/// `$`) are not required: the number identifies the thing on its own.
pub(crate) fn unit_occurs(unit: &str, text: &str) -> bool {
    if unit_optional(unit) {
        return true;
    }
    if unit.chars().any(is_cjk) {
        return text.contains(unit);
    }
    let key = unit_key(unit);
    if key == "%" && text.contains('%') {
        return true;
    }
    let stem = unit_stem(&key);
    let mut word = String::new();
    let check = |w: &mut String| -> bool {
        let hit = !w.is_empty() && unit_stem(&unit_key(w)) == stem;
        w.clear();
        hit
    };
    for c in text.chars() {
        if c.is_alphabetic() && !is_cjk(c) {
            word.push(c);
        } else if check(&mut word) {
            return true;
        }
    }
    check(&mut word)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn nums(line: &str) -> Vec<(String, String, String)> {
        find_numbers(line, &|_| true).into_iter().map(|f| (line[f.range].to_string(), f.value, f.unit)).collect()
    }

    fn t(a: &str, b: &str, c: &str) -> (String, String, String) {
        (a.into(), b.into(), c.into())
    }

    #[test]
    fn recognises_units() {
        assert_eq!(nums("Verified: 214 tests passed."), vec![t("214 tests", "214", "tests")]);
        assert_eq!(nums("1,200 tests"), vec![t("1,200 tests", "1200", "tests")]);
        assert_eq!(nums("Duration 9.81s"), vec![t("9.81s", "9.81", "s")]);
        assert_eq!(nums("needs 3 GB of RAM"), vec![t("3 GB", "3", "gb")]);
        assert_eq!(nums("Redis on port 6379."), vec![t("port 6379", "6379", "port")]);
        assert_eq!(nums("see PR #123"), vec![t("PR #123", "123", "pr")]);
        assert_eq!(nums("costs $5"), vec![t("$5", "5", "$")]);
        assert_eq!(nums("a 5-minute timeout"), vec![t("5-minute", "5", "minute")]);
        assert_eq!(nums("30% faster"), vec![t("30%", "30", "%")]);
        assert_eq!(nums("テストは214件"), vec![t("214件", "214", "件")]);
        assert_eq!(nums("테스트 214개 통과"), vec![t("214개", "214", "개")]);
    }

    #[test]
    fn rejects_bare_and_glued_numbers() {
        for s in [
            "returns 404",
            "09:14 started",
            "gemma4:31b-cloud",
            "1.4.0 release",
            "the 2nd try",
            "at 3pm",
            "20/20 benchmark",
            "id 1476561093454200923",
            "abc123 tests",
            "3 of them",
            "430 TeamMotorcycle",
        ] {
            assert_eq!(nums(s), vec![], "{s}");
        }
    }

    #[test]
    fn token_matching() {
        assert!(number_occurs("214", " Tests  214 passed (214)"));
        assert!(!number_occurs("214", "2140 tests"));
        assert!(!number_occurs("214", "1.214 tests"));
        assert!(!number_occurs("214", "214.5 tests"));
        assert!(number_occurs("1200", "1,200 tests"));
        assert!(number_occurs("1200", "1200 tests"));
        assert!(number_occurs("9.81", "Duration  9.81s"));
        assert!(number_occurs("214", "214."));
    }

    #[test]
    fn units() {
        assert_eq!(unit_key("Tests"), "test");
        assert_eq!(unit_key("seconds"), unit_key("s"));
        assert_eq!(unit_key("GB"), unit_key("gigabytes"));
        assert_eq!(unit_key("entries"), "entry");
        assert_eq!(unit_key("passes"), "pass");
        assert!(unit_occurs("tests", " Tests  214 passed (214)"));
        assert!(unit_occurs("s", "Duration 9.81 seconds"));
        assert!(!unit_occurs("tests", "214 files"));
        assert!(unit_occurs("port", "localhost:6379"));
        assert!(unit_occurs("件", "テスト214件"));
        assert!(unit_occurs("passing", "214 passed"));
        assert!(!unit_occurs("files", "214 passed"));
    }
}
