//! What a number is given per: `$120 per hour`, `5 GB/month`, `500 requests a minute`,
//! `$95k annually`, `時給1200円`, `월급 300만 원`, `月薪 2万`, `1200円/時間`.
//!
//! A rate is part of the value: `$120 per day` does not say what `$120 per hour` says,
//! though every word and the number are the same. A note's number given per one unit where
//! every cited sentence stating the number gives it per another is a value turned into
//! another one (see `provenance::statements`).
//!
//! Read: right after the number (past one word of unit: `USD`, `requests`, `GB`), `per X`,
//! `/X`, `a`/`an X` for a unit of time, or a word of frequency (`hourly`, `daily`,
//! `monthly`, `annually`…); before a CJK number, a word that names the period of a pay
//! (時給, 日給, 月給, 年収, 시급, 월급, 연봉, 时薪, 月薪, 年薪…) or a rate (每小时, 每天, 毎日,
//! 時間あたり, 시간당, 분당…) in the 6 characters before it. A chain (`$20/user/month`) is
//! given per its first unit. Not read: a rate far from its number (`the price, per seat,
//! is $20`), `every 6 hours` (a period, not a rate of the number before it).
//! Units of time are compared by meaning (`hr`, `h`, `hour`, `hourly`, 時間, 시간, 小时
//! are one), other units by their word without a plural `s`.

use super::{Claim, ClaimValue};

/// Units of time and the words that name each (lowercase).
const TIME: &[(&str, &[&str])] = &[
    ("second", &["s", "sec", "secs", "second", "seconds", "秒", "초"]),
    ("minute", &["m", "min", "mins", "minute", "minutes", "分", "분", "分钟"]),
    ("hour", &["h", "hr", "hrs", "hour", "hours", "hourly", "時間", "時", "시간", "小时", "小時"]),
    ("day", &["d", "day", "days", "daily", "日", "일", "天"]),
    ("week", &["w", "wk", "wks", "week", "weeks", "weekly", "週", "주", "周"]),
    ("month", &["mo", "mon", "month", "months", "monthly", "月", "월", "个月"]),
    ("year", &["y", "yr", "yrs", "year", "years", "yearly", "annual", "annually", "annum", "年", "년"]),
];

/// Words after `per` that make it mean "according to" (`per the docs`).
const DETERMINERS: &[&str] = &["the", "a", "an", "our", "your", "my", "his", "her", "their", "its", "this", "that"];

/// Words of frequency that give the number before them per a unit of time by themselves.
const FREQUENCY: &[&str] = &["hourly", "daily", "weekly", "monthly", "yearly", "annually", "annual"];

/// Words before a CJK number that name the period of a pay or a price, with that period.
const PERIOD_WORDS: &[(&str, &str)] = &[
    ("時給", "hour"),
    ("日給", "day"),
    ("日当", "day"),
    ("週給", "week"),
    ("月給", "month"),
    ("月収", "month"),
    ("月額", "month"),
    ("年収", "year"),
    ("年俸", "year"),
    ("年額", "year"),
    ("시급", "hour"),
    ("일급", "day"),
    ("일당", "day"),
    ("주급", "week"),
    ("월급", "month"),
    ("월세", "month"),
    ("연봉", "year"),
    ("时薪", "hour"),
    ("日薪", "day"),
    ("周薪", "week"),
    ("月薪", "month"),
    ("月租", "month"),
    ("年薪", "year"),
    ("每小时", "hour"),
    ("每小時", "hour"),
    ("每分钟", "minute"),
    ("每秒", "second"),
    ("每天", "day"),
    ("每日", "day"),
    ("每周", "week"),
    ("每月", "month"),
    ("每年", "year"),
    ("毎時", "hour"),
    ("毎分", "minute"),
    ("毎秒", "second"),
    ("毎日", "day"),
    ("毎月", "month"),
    ("毎年", "year"),
    ("時間あたり", "hour"),
    ("日あたり", "day"),
    ("시간당", "hour"),
    ("분당", "minute"),
    ("초당", "second"),
];

/// The unit a number ending at byte `end` of `text` is given per, comparable (`hour`,
/// `request`), or `None` when it is given per nothing.
pub fn rate_after(text: &str, end: usize) -> Option<String> {
    let rest = text.get(end..)?;
    // `/hr`, `/時間` glued to the number or its unit.
    let words = words_after(rest);
    for (i, w) in words.iter().enumerate().take(3) {
        let lower = w.to_lowercase();
        // Per the first unit of a chain (`/user/month` is per user).
        let first = |u: &str| unit_of(u.split('/').find(|p| !p.is_empty()).unwrap_or(u));
        if let Some(unit) = lower.strip_prefix('/').filter(|u| !u.is_empty()) {
            return Some(first(unit));
        }
        if let Some((_, unit)) = lower.split_once('/').filter(|(v, u)| !v.is_empty() && !u.is_empty() && i == 0) {
            return Some(first(unit));
        }
        if FREQUENCY.contains(&lower.as_str()) {
            return Some(unit_of(&lower));
        }
        let next = words.get(i + 1).map(|n| n.to_lowercase());
        match (lower.as_str(), next) {
            // `per the docs`, `per our call`: according to, no rate.
            ("per", Some(n)) if DETERMINERS.contains(&n.as_str()) => return None,
            ("per", Some(n)) => return Some(unit_of(&n)),
            ("a" | "an", Some(n)) if time_unit(&n).is_some() => return Some(unit_of(&n)),
            _ => {}
        }
        // Past the number's own unit word only.
        if i >= 1 {
            break;
        }
    }
    None
}

/// The period a pay word before byte `start` of `text` names (`時給1200円`, `월급 300만`).
pub fn period_before(text: &str, start: usize) -> Option<String> {
    let before = text.get(..start)?;
    let near: String = before.chars().rev().take(6).collect::<Vec<_>>().into_iter().rev().collect();
    PERIOD_WORDS.iter().find(|(w, _)| near.contains(w)).map(|(_, p)| p.to_string())
}

/// The rate a value claim of a note line is given per (see [`rate_after`] and
/// [`period_before`]); `None` for claims that are not numbers.
pub fn rate_of(line: &str, claim: &Claim) -> Option<String> {
    if !matches!(claim.value, ClaimValue::Number { .. }) {
        return None;
    }
    rate_after(line, claim.end).or_else(|| period_before(line, claim.start))
}

/// The rates each number of `text` equal to the claim's value is given per (`None` for
/// one given per nothing); empty when the claim is no number or `text` does not hold it.
pub fn rates_in(text: &str, claim: &Claim) -> Vec<Option<String>> {
    let ClaimValue::Number { value, .. } = &claim.value else { return Vec::new() };
    super::numbers::numbers_equal(text, value)
        .map(|r| {
            let end = number_end(text, r.end);
            rate_after(text, end).or_else(|| period_before(text, r.start))
        })
        .collect()
}

/// Past a number's magnitude suffix glued to it (`95k`, `2万`, `300만`, `1.2M`), where a
/// rate's words start.
fn number_end(text: &str, end: usize) -> usize {
    // A CJK magnitude may stand one blank after its figure (`10 万元`).
    let spaced = text
        .get(end..)
        .and_then(|r| r.strip_prefix(' '))
        .is_some_and(|r| r.starts_with(['万', '萬', '만', '億', '亿', '억']));
    let end = end + usize::from(spaced);
    let rest = text.get(end..).unwrap_or("");
    let glued: usize = rest
        .chars()
        .take_while(|c| {
            matches!(
                c,
                'k' | 'K' | 'm' | 'M' | 'b' | 'B' | '万' | '만' | '億' | '억' | '千' | '천' | '円' | '원' | '元'
            )
        })
        .take(2)
        .map(char::len_utf8)
        .sum();
    end + glued
}

/// The words of `rest` up to the end of its clause (`,;.()`, their full-width forms and
/// line breaks end it),
/// split at spaces; a CJK unit glued after a slash stays with it.
fn words_after(rest: &str) -> Vec<&str> {
    let clause_end = rest
        .char_indices()
        .find(|&(i, c)| {
            matches!(c, ',' | ';' | '(' | ')' | '\n' | '。' | '、' | '，' | '；' | '（' | '）' | '：')
                || c == '.' && ends_sentence(rest, i)
        })
        .map_or(rest.len(), |(i, _)| i);
    rest[..clause_end].split_whitespace().take(4).collect()
}

/// True when the `.` at byte `i` of `text` ends a sentence (not `1.5`, not `e.g`).
fn ends_sentence(text: &str, i: usize) -> bool {
    text[i + 1..].chars().next().is_none_or(char::is_whitespace)
}

/// The comparable form of a unit word: a unit of time by meaning, another word without its
/// plural `s` and trailing punctuation.
fn unit_of(word: &str) -> String {
    let word = word.trim_matches(|c: char| !c.is_alphanumeric());
    if let Some(t) = time_unit(word) {
        return t.to_string();
    }
    // A CJK unit runs on into the words after it (`時間で契約`): its longest name that
    // starts the word.
    if !word.is_ascii() {
        let named = TIME
            .iter()
            .flat_map(|(unit, names)| names.iter().filter(|n| !n.is_ascii()).map(move |n| (*unit, *n)))
            .filter(|(_, n)| word.starts_with(n))
            .max_by_key(|(_, n)| n.len());
        if let Some((unit, _)) = named {
            return unit.to_string();
        }
    }
    let lower = word.to_lowercase();
    match lower.strip_suffix('s') {
        Some(stem) if stem.len() >= 3 => stem.to_string(),
        _ => lower,
    }
}

/// The unit of time `word` names, if it names one.
fn time_unit(word: &str) -> Option<&'static str> {
    let word = word.trim_matches(|c: char| !c.is_alphanumeric());
    let lower = word.to_lowercase();
    TIME.iter().find(|(_, names)| names.contains(&lower.as_str())).map(|(unit, _)| *unit)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn after(text: &str, number: &str) -> Option<String> {
        let at = text.find(number).unwrap() + number.len();
        rate_after(text, number_end(text, at))
    }

    #[test]
    fn a_rate_after_a_number_in_english() {
        assert_eq!(after("The rate is $120 per hour, invoiced monthly.", "120").as_deref(), Some("hour"));
        assert_eq!(after("rate: $120/hr", "120").as_deref(), Some("hour"));
        assert_eq!(after("5 GB/month of egress", "5").as_deref(), Some("month"));
        assert_eq!(after("500 requests per minute", "500").as_deref(), Some("minute"));
        assert_eq!(after("500 requests a minute", "500").as_deref(), Some("minute"));
        assert_eq!(after("$95k annually", "95").as_deref(), Some("year"));
        assert_eq!(after("3 seats per team", "3").as_deref(), Some("team"));
        assert_eq!(after("3 seats per teams.", "3").as_deref(), Some("team"));
        assert_eq!(after("$20/user/month", "20").as_deref(), Some("user"));
        assert_eq!(after("$20 per user per month", "20").as_deref(), Some("user"));
        // Given per nothing.
        assert_eq!(after("The fixture has 64 rows.", "64"), None);
        assert_eq!(after("$120, invoiced per hour", "120"), None);
        assert_eq!(after("a 3 a.m. start", "3"), None);
        assert_eq!(after("v1.2 per the docs", "1"), None);
    }

    #[test]
    fn a_rate_in_japanese_korean_and_chinese() {
        assert_eq!(after("1200円/時間で契約", "1200").as_deref(), Some("hour"));
        assert_eq!(period_before("時給1200円", "時給".len()).as_deref(), Some("hour"));
        assert_eq!(period_before("월급 300만 원", "월급 ".len()).as_deref(), Some("month"));
        assert_eq!(period_before("年薪 30万", "年薪 ".len()).as_deref(), Some("year"));
        assert_eq!(period_before("报酬每小时 300 元", "报酬每小时 ".len()).as_deref(), Some("hour"));
        assert_eq!(period_before("API 한도는 분당 500건", "API 한도는 분당 ".len()).as_deref(), Some("minute"));
        assert_eq!(period_before("報酬は1200円", "報酬は".len()), None);
        // A magnitude one blank after the figure is no rate.
        assert_eq!(after("单张开票限额是 10 万元（config/invoice.yaml）", "10"), None);
        assert_eq!(after("월 300 만원/월", "300").as_deref(), Some("month"));
    }

    #[test]
    fn units_of_time_compare_by_meaning() {
        assert_eq!(unit_of("hrs"), unit_of("hour"));
        assert_eq!(unit_of("時間"), unit_of("hourly"));
        assert_ne!(unit_of("day"), unit_of("hour"));
        assert_eq!(unit_of("requests"), "request");
    }
}
