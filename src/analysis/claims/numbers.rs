//! Numbers with a unit word: recognising them in a note line, finding them in a source text,
//! and comparing units (`tests`/`test`, `s`/`seconds`, `GB`/`gigabytes`).
//!
//! A number is a claim only with a unit: a word right after it (`214 tests`, `9.81s`,
//! `3 GB`, `5-minute`), a CJK counter (`214件`, `3개`), `%`, or a label before it
//! (`port 6379`, `PR #123`, `$5`). Bare numbers, ordinals, times (`09:14`), fractions,
//! IDs glued to words (`gemma4`, `31b-cloud`) are not claims.

use std::ops::Range;

use super::closed;
use super::text::{char_at, char_before, is_cjk, is_hangul, two_before};
use unicode_segmentation::UnicodeSegmentation;

mod figure;
mod magnitude;

pub(crate) use figure::{read_number, same_figure};
pub(crate) use magnitude::mantissa;
use magnitude::{Reading, magnitude};

use super::words::{CJK_COUNTERS, CJK_CURRENCY_WORDS, CJK_PORT_WORDS, GENERIC_COUNTERS, NOT_UNITS, PREFIX_LABELS};

/// A number claim found in a line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct FoundNumber {
    /// Byte range of the whole claim (label and unit included).
    pub range: Range<usize>,
    /// Digits without thousands separators.
    pub value: String,
    /// The unit, lowercased as written; `None` for a bare number (one followed by a
    /// closed-class word: `4,310 between`).
    pub unit: Option<String>,
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
                | '：'
                | '、'
                | '，'
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
        let (end, value) = magnitude(line, i, end, &value, Reading::Note).unwrap_or((end, value));
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
    // A zero-padded figure is a name (`migration 0043`, `INC 0007`), not an amount.
    if line.as_bytes().get(start) == Some(&b'0') && line.as_bytes().get(start + 1).is_some_and(u8::is_ascii_digit) {
        return None;
    }
    // Right side: not a version, time, fraction or date continuation.
    let next = char_at(line, end);
    let after = char_at(line, end + 1);
    if matches!(next, Some('.' | ':' | '/' | ',' | '-' | '_')) && after.is_some_and(|c| c.is_ascii_digit()) {
        return None;
    }
    // Left side: a label (`port `, `#`, `$`) or a clean break.
    if let Some((label_start, label)) = prefix_label(line, start) {
        return Some(FoundNumber { range: label_start..end, value, unit: Some(label) });
    }
    match two_before(line, start) {
        (None, _) => {}
        (Some('-' | '+' | '±'), before) if before.is_none_or(char::is_whitespace) => {}
        (Some(c), _) if is_opener(c) => {}
        _ => return None,
    }
    let (range, unit) = match suffix_unit(line, end) {
        Suffix::Unit(unit_end, unit) => (start..unit_end, Some(unit)),
        // `4 of 23 tasks`: a count of the total's unit.
        Suffix::Bare if let Some((unit_end, unit)) = of_total(line, end) => (start..unit_end, Some(unit)),
        // A number followed by a closed-class word is a bare number: the number alone is
        // the claim. One or two digits are no checkable fact (every line has some).
        Suffix::Bare if significant_digits(&value) >= 3 => (start..end, None),
        _ => return None,
    };
    // `the 2026 roadmap`: a year used as an adjective, not a quantity (`2048 MB` is one).
    let year_like = value.len() == 4
        && !unit.as_deref().is_some_and(is_measure)
        && value.parse::<u32>().is_ok_and(|y| (1900..=2100).contains(&y))
        && line.get(end..).is_some_and(|r| r.starts_with(' '));
    if year_like {
        return None;
    }
    Some(FoundNumber { range, value, unit })
}

/// The unit of the total a count is a part of, after the count (`4 of 23 tasks`, `4 of
/// the 23 tasks`, `2 out of 3 replicas`): the unit's end and the unit.
pub(crate) fn of_total(line: &str, end: usize) -> Option<(usize, String)> {
    let (at, digits) = total_after(line, end)?;
    let Suffix::Unit(unit_end, unit) = suffix_unit(line, at + digits.len()) else { return None };
    // The unit must end the noun phrase (`23 tasks failed`, `3 replicas.`): in `12 vendor
    // CSVs` the word after the total is a modifier, and the count's noun is not sure.
    let next = line.get(unit_end..).unwrap_or("").split_whitespace().next().unwrap_or("");
    let next = next.trim_matches(|c: char| !c.is_alphanumeric()).to_lowercase();
    let ends = next.is_empty() || closed::english(&next) || next.ends_with("ed") || next.ends_with("ing");
    ends.then_some((unit_end, unit))
}

/// The words that set a count against its total (`4 of 23`, `1 out of the 3`).
const OF_TOTAL: &[&str] = &["of the ", "out of the ", "of ", "out of "];

/// The total written right after the number ending at `end` (`of 23`, `out of the 3`): where
/// its digits start and the digits as written (`1,200` kept with its comma).
pub(crate) fn total_after(text: &str, end: usize) -> Option<(usize, &str)> {
    let rest = text.get(end..)?;
    let gap = rest.len() - rest.trim_start().len();
    let lower = rest[gap..].get(..rest.len().min(gap + 12) - gap)?.to_ascii_lowercase();
    let skip = OF_TOTAL.iter().find(|p| lower.starts_with(**p))?;
    let at = end + gap + skip.len();
    let total = text.get(at..)?;
    let len = total.bytes().take_while(|b| b.is_ascii_digit() || *b == b',').count();
    let digits = total.get(..len)?.trim_end_matches(',');
    (!digits.is_empty() && digits.as_bytes()[0].is_ascii_digit()).then_some((at, digits))
}

/// True when the number starting at `start` of `text` is the total of a count `value`
/// written before it (`1 of 3 replicas`: the 3).
pub(crate) fn is_total_of(text: &str, start: usize, value: &str) -> bool {
    let head = text.get(..start).unwrap_or("").trim_end();
    let Some(count_end) = head.rfind(value).map(|i| i + value.len()) else { return false };
    let clean = !head[..count_end - value.len()].ends_with(|c: char| c.is_ascii_digit() || c == '.');
    clean && total_after(text, count_end).is_some_and(|(at, _)| at == start)
}

/// Digits of a number value, leading zeros and the decimal point left out.
fn significant_digits(value: &str) -> usize {
    value.trim_start_matches(['0', '.']).chars().filter(char::is_ascii_digit).count()
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

/// What follows a number.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Suffix {
    /// Its unit, ending at the byte offset.
    Unit(usize, String),
    /// A closed-class word (or another word that is never a unit): a bare number.
    Bare,
    /// Nothing that makes it a claim (end of text, punctuation, an ordinal, a clock time,
    /// a capitalised word…).
    Nothing,
}

pub(crate) fn suffix_unit(line: &str, end: usize) -> Suffix {
    let Some(rest) = line.get(end..) else {
        return Suffix::Nothing;
    };
    // Ordinals and clock times are not quantities.
    let lower: String = rest.chars().take(3).collect::<String>().to_ascii_lowercase();
    for ord in ["st", "nd", "rd", "th", "am", "pm"] {
        if lower.starts_with(ord) && !lower[ord.len()..].starts_with(|c: char| c.is_ascii_alphabetic()) {
            return Suffix::Nothing;
        }
    }
    if rest.starts_with('%') {
        return Suffix::Unit(end + 1, "%".into());
    }
    if rest.starts_with(" %") {
        return Suffix::Unit(end + 2, "%".into());
    }
    // Attached unit: 9.81s, 3GB, 5x.
    let attached = ascii_word(rest);
    if !attached.is_empty() {
        let after = char_at(rest, attached.len());
        let ok = attached.len() <= 4 && !after.is_some_and(|c| c.is_alphanumeric() || c == '-' || c == '_');
        return match ok {
            true => Suffix::Unit(end + attached.len(), attached.to_ascii_lowercase()),
            false => Suffix::Nothing,
        };
    }
    // Separated unit: `214 tests`, `5-minute`, `3 GB`.
    if let Some(sep @ (' ' | '-')) = char_at(rest, 0) {
        let Some(word_part) = rest.get(1..) else {
            return Suffix::Nothing;
        };
        let word = ascii_word(word_part);
        if !word.is_empty() {
            let after = char_at(word_part, word.len());
            if after.is_some_and(|c| c.is_alphanumeric() && !is_cjk(c) || c == '_') {
                return Suffix::Nothing;
            }
            let lw = word.to_ascii_lowercase();
            if matches!(lw.as_str(), "am" | "pm") {
                return Suffix::Nothing;
            }
            if sep == ' ' && (closed::english(&lw) || NOT_UNITS.contains(&lw.as_str())) {
                return Suffix::Bare;
            }
            let all_caps = word.chars().all(|c| c.is_ascii_uppercase());
            let plural_caps = word.len() >= 3
                && word.ends_with('s')
                && word[..word.len() - 1].chars().all(|c| c.is_ascii_uppercase());
            let lowercase = word.chars().all(|c| c.is_ascii_lowercase());
            let shape_ok = lowercase || (all_caps || plural_caps) && word.len() <= 5;
            if shape_ok && !closed::english(&lw) && !NOT_UNITS.contains(&lw.as_str()) {
                return Suffix::Unit(end + 1 + word.len(), lw);
            }
            return Suffix::Nothing;
        }
        if sep == ' ' {
            return cjk_suffix(word_part, end + 1);
        }
        return Suffix::Nothing;
    }
    cjk_suffix(rest, end)
}

/// A CJK counter or closed-class word right after a number (`s` starts at byte `at` of the
/// line). A Korean word (spaces delimit it) that is closed-class is no counter even when it
/// starts like one (`대해서` is "about", not the counter `대`); in Japanese and Chinese, with
/// no spaces to delimit words, a counter wins (`3个人` is three people) and a closed-class
/// word only makes the number bare where no counter matches (`4,310 まで`, `4310以上`).
fn cjk_suffix(s: &str, at: usize) -> Suffix {
    let Some(first) = s.chars().next() else {
        return Suffix::Nothing;
    };
    if is_hangul(first) {
        let n: usize = s.chars().take_while(|c| is_hangul(*c)).map(char::len_utf8).sum();
        if closed::korean(s.get(..n).unwrap_or("")) {
            return Suffix::Bare;
        }
    }
    if let Some(c) = cjk_counter(s) {
        return Suffix::Unit(at + c.len(), c.to_string());
    }
    if is_cjk(first) && !is_hangul(first) && closed::japanese_chinese_prefix(s).is_some() {
        return Suffix::Bare;
    }
    Suffix::Nothing
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
pub(crate) const MEASURES: &[&str] = &[
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

/// CJK counters that measure (time, money) rather than count.
const CJK_MEASURES: &[&str] = &[
    "時間", "日間", "週間", "ヶ月", "か月", "カ月", "个月", "個月", "개월", "分钟", "分間", "시간", "秒", "分", "日",
    "年", "円", "元", "초", "분", "일", "주", "년", "원",
];

/// True when `unit` is a unit of measure (a duration, a size, a share, a factor), not a
/// count of things: `30s`, `512MB`, `85%`, `3x`, `30秒`.
/// True when `unit` is a Latin word for things counted (no unit of measure): a count of it
/// may be written in CJK text with a generic counter glued to the number (`12 layers` is
/// `12개 레이어`, `12個のレイヤー`), which states it as far as a number can.
pub(crate) fn counted_in_any_script(unit: &str) -> bool {
    unit.is_ascii() && !MEASURES.contains(&unit_key(unit).as_str())
}

/// `value` glued to each generic CJK counter (`12개`, `12個`…).
pub(crate) fn with_generic_counters(value: &str) -> impl Iterator<Item = String> + '_ {
    super::words::GENERIC_COUNTERS.iter().map(move |c| format!("{value}{c}"))
}

pub(crate) fn is_measure(unit: &str) -> bool {
    MEASURES.contains(&unit_key(unit).as_str()) || CJK_MEASURES.contains(&unit)
}

/// A unit a source need not spell for the number to state the claim: a prefix label
/// (`port`, `#`, `$`: the number identifies the thing) or a counter that only counts (`件`).
fn unit_optional(unit: &str) -> bool {
    PREFIX_LABELS.contains(&unit) || GENERIC_COUNTERS.contains(&unit) || CJK_CURRENCY_WORDS.contains(&unit)
}

/// True when `text` holds the number `value` as a whole number token, with or without
/// thousands separators (214 ≠ 2140, ≠ 1.214, = 214.0 is not accepted either).
pub(crate) fn number_occurs(value: &str, text: &str) -> bool {
    !number_ends(value, text).is_empty()
}

/// Byte offsets just past each whole-number occurrence of `value` in `text`.
fn number_ends(value: &str, text: &str) -> Vec<usize> {
    whole_numbers(text).filter(|(_, v)| v == value).map(|(r, _)| r.end).collect()
}

/// Every whole number of `text` with its digits (thousands separators left out): not a
/// piece of a longer number, version or decimal (`214` is in `214 tests`, not in `2140`,
/// `1.214` or `214.5`).
pub(crate) fn whole_numbers(text: &str) -> impl Iterator<Item = (Range<usize>, String)> + '_ {
    let b = text.as_bytes();
    let mut i = 0;
    std::iter::from_fn(move || {
        while i < b.len() {
            let prev = i.checked_sub(1).and_then(|j| b.get(j)).copied();
            let prev2 = i.checked_sub(2).and_then(|j| b.get(j)).copied();
            let after_digit = prev.is_some_and(|c| c.is_ascii_digit());
            let after_separator = matches!(prev, Some(b'.' | b',')) && prev2.is_some_and(|c| c.is_ascii_digit());
            let start = i;
            if b[i].is_ascii_digit()
                && !after_digit
                && !after_separator
                && let Some((end, v)) = read_number(text, i)
            {
                i = end.max(i + 1);
                let next = b.get(end).copied();
                let after = b.get(end + 1).copied();
                let continues = matches!(next, Some(b'.' | b',')) && after.is_some_and(|c| c.is_ascii_digit());
                if !continues {
                    // `10k` is 10000.
                    let (end, v) = magnitude(text, start, end, &v, Reading::Source).unwrap_or((end, v));
                    i = end.max(i);
                    return Some((start..end, v));
                }
                continue;
            }
            i += 1;
        }
        None
    })
}

/// Every figure of `text` as digits (thousands separators dropped, a magnitude applied:
/// `€4.5k` → `4500`, `1,200` → `1200`), whatever follows it: what a text says a value is.
pub fn amounts(text: &str) -> Vec<String> {
    whole_numbers(text).map(|(_, value)| value).collect()
}

/// The whole numbers of `text` whose digits are `value` (as [`whole_numbers`] gives them),
/// found without reading every number: only where the digits it must start with stand
/// (`1` for `1200`, which may be written `1,200`; `64` for `64`). A claim's number is looked
/// for in every line that holds its needle, and most numbers of a long tool output are not it.
pub(crate) fn numbers_equal<'a>(text: &'a str, value: &'a str) -> impl Iterator<Item = Range<usize>> + 'a {
    let whole = value.split('.').next().unwrap_or("");
    let plain = !whole.is_empty() && value.bytes().all(|c| c.is_ascii_digit() || c == b'.');
    // A number of more than three digits may be written in groups of three: its first
    // group is what every way of writing it starts with.
    let first = match whole.len() % 3 {
        0 => 3.min(whole.len()),
        n => n,
    };
    let b = text.as_bytes();
    // Nothing else is a whole number's digits: no text to search then.
    // A round figure may be written abbreviated (`3만` for 30000, `48.2k` for 48200): only
    // its first digit is sure to be there.
    let first = if whole.len() >= 4 && whole.ends_with("000") { 1 } else { first };
    let (hay, lead) = if plain { (b, &whole[..first]) } else { (&b[..0], "-") };
    let hits = memchr::memmem::find_iter(hay, lead.as_bytes());
    hits.filter_map(move |i| {
        let prev = i.checked_sub(1).and_then(|j| b.get(j)).copied();
        let prev2 = i.checked_sub(2).and_then(|j| b.get(j)).copied();
        let after_digit = prev.is_some_and(|c| c.is_ascii_digit());
        let after_separator = matches!(prev, Some(b'.' | b',')) && prev2.is_some_and(|c| c.is_ascii_digit());
        if after_digit || after_separator {
            return None;
        }
        let (end, v) = read_number(text, i)?;
        let next = b.get(end).copied();
        let after = b.get(end + 1).copied();
        let continues = matches!(next, Some(b'.' | b',')) && after.is_some_and(|c| c.is_ascii_digit());
        // `$48.2k` is 48200.
        let (end, v) =
            if v == value { (end, v) } else { magnitude(text, i, end, &v, Reading::Source).unwrap_or((end, v)) };
        (!continues && same_figure(&v, value)).then_some(i..end)
    })
}

/// English number words a source may write a small count with (`three times`, `two
/// approvals`): 2 to 12. `one` is left out: it is a pronoun as often (`the one that…`).
const NUMBER_WORDS: &[&str] =
    &["two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve"];

/// The English word of the count `value`, 2 to 12 (`three` for `3`).
pub(crate) fn number_word(value: &str) -> Option<&'static str> {
    value.parse::<usize>().ok().and_then(|n| n.checked_sub(2)).and_then(|i| NUMBER_WORDS.get(i)).copied()
}

/// `text` with each count written as an English word (2 to 12) written in digits (`seven
/// replicas` → `7 replicas`), when it has one: what the note says, read as numbers.
pub fn counts_in_digits(text: &str) -> Option<String> {
    let lower = text.to_ascii_lowercase();
    if !NUMBER_WORDS.iter().any(|w| lower.contains(w)) {
        return None;
    }
    let mut out = String::with_capacity(text.len());
    let mut changed = false;
    let mut last = 0;
    for (i, w) in text.split_word_bound_indices() {
        let n = NUMBER_WORDS.iter().position(|x| w.eq_ignore_ascii_case(x));
        if let Some(n) = n {
            out.push_str(&text[last..i]);
            out.push_str(&(n + 2).to_string());
            last = i + w.len();
            changed = true;
        }
    }
    out.push_str(&text[last..]);
    changed.then_some(out)
}

/// Where `text` writes the count `value` (2 to 12) as an English word, any case, whole.
pub(crate) fn number_words<'a>(text: &'a str, value: &str) -> impl Iterator<Item = Range<usize>> + 'a {
    let word = number_word(value);
    // ASCII lowercasing keeps every byte where it is.
    let lower = word.map(|_| text.to_ascii_lowercase()).unwrap_or_default();
    let found: Vec<Range<usize>> = match word {
        Some(w) => memchr::memmem::find_iter(lower.as_bytes(), w.as_bytes())
            .filter(|&i| {
                let before = lower[..i].chars().next_back();
                let after = lower[i + w.len()..].chars().next();
                !before.is_some_and(char::is_alphanumeric) && !after.is_some_and(char::is_alphanumeric)
            })
            .map(|i| i..i + w.len())
            .collect(),
        None => Vec::new(),
    };
    found.into_iter()
}

/// The first four letters of a unit key of five or more (`passing`/`passed` → `pass`,
/// `testing`/`test` → `test`): units are compared leniently, a paraphrase is no flag.
pub(crate) fn unit_stem(key: &str) -> String {
    if key.chars().count() >= 5 { key.chars().take(4).collect() } else { key.to_string() }
}

/// A lowercase string every text that binds `unit` to a number (see `bound.rs`) contains, when
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

#[cfg(test)]
mod tests;
