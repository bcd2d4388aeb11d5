//! Instants: a day bound to a time of day and the zone it is told in (`2026-12-01 17:00
//! UTC`, `2026年12月1日(火) 2:00〜6:00（日本時間）`, `日本時間 12/1 2:00`, `Dec 1 at 09:30
//! PST`). A date and a time are claims of their own (see `dates`, `clock`); written
//! together with a zone they name one moment, and a note that converts it to another zone
//! must move the day with the hour: JST 12/1 02:00 is 11/30 17:00 in UTC, not 12/1.
//!
//! The time must follow its date closely (blanks, a weekday in brackets, `at`, `T`, `の`);
//! the zone stands right after the time or the range it opens (`17:00〜21:00 UTC`), or
//! right before the date (`日本時間 12/1`, `UTC だと 11/30`). Zones are read from
//! abbreviations, `UTC±H[:MM]` and CJK names; a bare `CST` or `IST` (two regions each) is
//! not. A time without am/pm is read on a 24-hour clock. A date without its year takes
//! the year given.

use super::clock::clock_times;
use super::dates::{DateSpec, find_dates};
use jiff::Timestamp;
use jiff::civil::DateTime;
use jiff::tz::{Offset, TimeZone};
use std::ops::Range;

/// One moment a text names.
#[derive(Clone, Debug)]
pub struct Instant {
    /// From the date to the end of the time (or of the range it opens).
    pub range: Range<usize>,
    /// The moment.
    pub at: Timestamp,
    /// The zone it is told in.
    pub zone: TimeZone,
    /// The time of day as written, on a 24-hour clock (`17:00`).
    pub clock: (i8, i8),
}

/// Zone names and the zone each keeps the clock of (an IANA name, or `+H` for a fixed
/// offset). Abbreviations match as written (upper case); names in any case.
const ZONES: &[(&str, &str)] = &[
    ("UTC", "UTC"),
    ("GMT", "UTC"),
    ("JST", "Asia/Tokyo"),
    ("KST", "Asia/Seoul"),
    ("HKT", "Asia/Hong_Kong"),
    ("SGT", "Asia/Singapore"),
    ("CET", "Europe/Berlin"),
    ("CEST", "Europe/Berlin"),
    ("EET", "Europe/Helsinki"),
    ("EEST", "Europe/Helsinki"),
    ("BST", "Europe/London"),
    ("EST", "America/New_York"),
    ("EDT", "America/New_York"),
    ("CDT", "America/Chicago"),
    ("MST", "America/Denver"),
    ("MDT", "America/Denver"),
    ("PST", "America/Los_Angeles"),
    ("PDT", "America/Los_Angeles"),
    ("AEST", "Australia/Sydney"),
    ("AEDT", "Australia/Sydney"),
    ("日本時間", "Asia/Tokyo"),
    ("東京時間", "Asia/Tokyo"),
    ("한국 시간", "Asia/Seoul"),
    ("한국시간", "Asia/Seoul"),
    ("北京时间", "Asia/Shanghai"),
    ("北京時間", "Asia/Shanghai"),
];

/// Words that may join a zone named before a date to it (`UTC だと`, `UTC で`, `UTC:`).
const BEFORE_JOINERS: &[&str] = &["だと", "では", "で", "로는", "으로", "로", "是", ":", "：", " in"];

/// Every instant `text` names (see the module doc); `year` for dates written without one.
pub fn instants(text: &str, year: Option<i32>) -> Vec<Instant> {
    let times = clock_times(text);
    let mut out = Vec::new();
    if times.is_empty() {
        return out;
    }
    for d in find_dates(text) {
        let (y, m, day) = match d.spec {
            DateSpec::Day(date) => (date.year, date.month, date.day),
            DateSpec::MonthDay { month, day } => match year {
                Some(y) => (y, month, day),
                None => continue,
            },
            _ => continue,
        };
        let Some((time, value)) =
            times.iter().find(|(r, _)| r.start >= d.range.end && joined(&text[d.range.end..r.start]))
        else {
            continue;
        };
        let Some(clock) = hour_minute(value) else { continue };
        let end = range_end(text, time.end, &times);
        let Some(zone) = zone_after(text, end).or_else(|| zone_before(text, d.range.start)) else { continue };
        let Ok(dt) = DateTime::new(y as i16, m as i8, day as i8, clock.0, clock.1, 0, 0) else { continue };
        let Ok(at) = zone.to_timestamp(dt) else { continue };
        out.push(Instant { range: d.range.start..end, at, zone, clock });
    }
    out
}

/// The day and time of day `at` falls on in `zone`.
pub fn local(at: Timestamp, zone: &TimeZone) -> (i16, i8, i8, i8, i8) {
    let dt = zone.to_datetime(at);
    (dt.year(), dt.month(), dt.day(), dt.hour(), dt.minute())
}

/// True when the text between a date and a time joins them: blanks, a weekday in
/// brackets, `at`, `T`, `,`, `の`, `日` or emphasis.
fn joined(gap: &str) -> bool {
    if gap.len() > 24 {
        return false;
    }
    let mut rest = gap.to_string();
    for (open, close) in [('(', ')'), ('（', '）')] {
        if let (Some(a), Some(b)) = (rest.find(open), rest.find(close))
            && a < b
        {
            rest.replace_range(a..b + close.len_utf8(), " ");
        }
    }
    let rest = rest.replace("at ", " ").replace(['の', '日'], " ");
    rest.chars().all(|c| matches!(c, ' ' | ',' | '*' | 'T' | '\u{3000}'))
}

/// `H:MM` (or `H:MM?`, read on a 24-hour clock) as hours and minutes.
fn hour_minute(value: &str) -> Option<(i8, i8)> {
    let (h, m) = value.trim_end_matches('?').split_once(':')?;
    let (h, m): (i8, i8) = (h.parse().ok()?, m.parse().ok()?);
    ((0..24).contains(&h) && (0..60).contains(&m)).then_some((h, m))
}

/// The end of a time range a time ending at `end` opens (`2:00〜6:00`), else `end`.
fn range_end(text: &str, end: usize, times: &[(Range<usize>, String)]) -> usize {
    let rest = &text[end..];
    let dash = ["〜", "～", "~", "–", "—", "-", " to ", " - "].iter().find_map(|d| {
        let trimmed = rest.trim_start_matches(['*', ' ']);
        trimmed.starts_with(d).then(|| end + (rest.len() - trimmed.len()) + d.len())
    });
    match dash {
        Some(after) => times.iter().find(|(r, _)| r.start >= after && r.start <= after + 2).map_or(end, |(r, _)| r.end),
        None => end,
    }
}

/// A zone named right after byte `end` (past blanks, emphasis and an opening bracket).
fn zone_after(text: &str, end: usize) -> Option<TimeZone> {
    let rest = text[end..].trim_start_matches([' ', '*', '(', '（', '\u{3000}']);
    offset_zone(rest).or_else(|| {
        named(|name| rest.strip_prefix(name).is_some_and(|after| !after.starts_with(|c: char| c.is_ascii_alphabetic())))
    })
}

/// A zone named right before byte `start`, maybe through a joining word (`UTC だと`).
fn zone_before(text: &str, start: usize) -> Option<TimeZone> {
    let mut before = text[..start].trim_end_matches([' ', '*', '\u{3000}']);
    if let Some(j) = BEFORE_JOINERS.iter().find(|j| before.ends_with(**j)) {
        before = before[..before.len() - j.len()].trim_end();
    }
    named(|name| before.strip_suffix(name).is_some_and(|b| !b.ends_with(|c: char| c.is_ascii_alphabetic())))
}

/// The zone of the first name in [`ZONES`] that `stands` (a Latin abbreviation standing
/// alone: `UTC` in `UTC だと`, not in `UTCX`).
fn named(stands: impl Fn(&str) -> bool) -> Option<TimeZone> {
    let (_, zone) = ZONES.iter().find(|(name, _)| stands(name))?;
    TimeZone::get(zone).ok()
}

/// A fixed offset at the start of `text`: `UTC+9`, `UTC+09:00`, `GMT-5`, `+09:00`.
fn offset_zone(text: &str) -> Option<TimeZone> {
    let rest = text.strip_prefix("UTC").or_else(|| text.strip_prefix("GMT")).unwrap_or(text);
    let sign = match rest.chars().next()? {
        '+' => 1,
        '-' | '−' => -1,
        _ => return None,
    };
    let digits = &rest[rest.chars().next()?.len_utf8()..];
    let n = digits.bytes().take_while(|b| b.is_ascii_digit() || *b == b':').count();
    let (h, m) = digits[..n].split_once(':').unwrap_or((&digits[..n], "0"));
    let (h, m): (i32, i32) = (h.parse().ok()?, m.parse().ok()?);
    if h > 14 || m >= 60 {
        return None;
    }
    Offset::from_seconds(sign * (h * 3600 + m * 60)).ok().map(TimeZone::fixed)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn utc(text: &str, year: Option<i32>) -> Vec<String> {
        instants(text, year).iter().map(|i| i.at.to_string()).collect()
    }

    #[test]
    fn a_day_a_time_and_a_zone_name_one_moment() {
        assert_eq!(utc("window: 2026-12-01 17:00〜21:00 UTC", None), ["2026-12-01T17:00:00Z"]);
        assert_eq!(utc("日時: 2026年12月1日(火) 2:00〜6:00（日本時間）", None), ["2026-11-30T17:00:00Z"]);
        assert_eq!(utc("日本時間 12/1(火) 2:00〜6:00 なので", Some(2026)), ["2026-11-30T17:00:00Z"]);
        assert_eq!(utc("UTC だと **11/30(月) 17:00〜21:00** です", Some(2026)), ["2026-11-30T17:00:00Z"]);
        assert_eq!(utc("cutover on 2026-01-15 at 09:30 PST", None), ["2026-01-15T17:30:00Z"]);
        assert_eq!(utc("2026-06-01 09:00 UTC+9", None), ["2026-06-01T00:00:00Z"]);
        assert_eq!(utc("2026-06-01 14:00 CEST", None), ["2026-06-01T12:00:00Z"]);
    }

    #[test]
    fn no_moment_without_a_zone_a_close_time_or_a_year() {
        assert!(utc("deploy on 2026-12-01, then at 17:00 UTC the check", None).is_empty());
        assert!(utc("2026-12-01 17:00", None).is_empty());
        assert!(utc("12/1 17:00 UTC", None).is_empty());
        assert!(utc("2026-12-01 17:00 CST", None).is_empty());
    }
}
