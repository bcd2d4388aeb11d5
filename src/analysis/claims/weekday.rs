//! A weekday written beside a date it is not the weekday of: `Tuesday, 2026-11-18` (a
//! Wednesday), `Wed Nov 24 2026`, `11月18日（火）`, `2026년 11월 18일 화요일`, `2026年11月18日
//! 星期二`. The calendar contradicts such a line whatever its sources say: one of the two
//! was changed or guessed (see `provenance::statements`). Only a date with its year is read;
//! a weekday counts when it stands right before the date (a comma or a space between) or
//! right after it (`(Tue)`, `（火）`, ` 화요일`).

use super::dates::{DateSpec, find_dates};

/// Weekday names, 0 = Monday, each with its forms (lowercase; Latin ones whole words).
const NAMES: &[&[&str]] = &[
    &["monday", "mon", "月曜日", "月曜", "(月)", "（月）", "(월)", "（월）", "월요일", "星期一", "周一", "週一"],
    &[
        "tuesday",
        "tue",
        "tues",
        "火曜日",
        "火曜",
        "(火)",
        "（火）",
        "(화)",
        "（화）",
        "화요일",
        "星期二",
        "周二",
        "週二",
    ],
    &["wednesday", "wed", "水曜日", "水曜", "(水)", "（水）", "(수)", "（수）", "수요일", "星期三", "周三", "週三"],
    &[
        "thursday",
        "thu",
        "thur",
        "thurs",
        "木曜日",
        "木曜",
        "(木)",
        "（木）",
        "(목)",
        "（목）",
        "목요일",
        "星期四",
        "周四",
        "週四",
    ],
    &["friday", "fri", "金曜日", "金曜", "(金)", "（金）", "(금)", "（금）", "금요일", "星期五", "周五", "週五"],
    &["saturday", "sat", "土曜日", "土曜", "(土)", "（土）", "(토)", "（토）", "토요일", "星期六", "周六", "週六"],
    &[
        "sunday",
        "sun",
        "日曜日",
        "日曜",
        "(日)",
        "（日）",
        "(일)",
        "（일）",
        "일요일",
        "星期日",
        "星期天",
        "周日",
        "週日",
    ],
];

/// English weekday names.
const ENGLISH: &[&str] = &["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"];

/// A weekday the line writes beside a date it is not the weekday of.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WrongWeekday {
    /// The date and the weekday as written (`Tuesday, 2026-11-18`).
    pub written: String,
    /// The date's weekday (`Wednesday`).
    pub actual: &'static str,
}

/// The first weekday of `line` written beside a dated day it does not fall on. A date
/// written without its year (`Tue Nov 24`, `11월 23일(화)`) is read in the year nearest
/// `anchor` (the day its cited lines were said on), when there is one.
pub fn wrong_weekday(line: &str, anchor: Option<crate::base::date::Date>) -> Option<WrongWeekday> {
    if !line.chars().any(|c| c.is_ascii_digit()) {
        return None;
    }
    let lower = line.to_lowercase();
    // Dates are read only where a weekday may stand beside one (every added line of a long
    // note holds digits; few name a weekday).
    if lower.len() != line.len() || !NAMES.iter().flat_map(|n| n.iter()).any(|n| lower.contains(n)) {
        return None;
    }
    for f in find_dates(line) {
        let spec = anchor.map_or(f.spec, |a| f.spec.anchored(a));
        let DateSpec::Day(date) = spec else { continue };
        let before = lower[..f.range.start].trim_end_matches([' ', ',', '(', '（']);
        let after = lower[f.range.end..].trim_start();
        let named = (0..7u32).find(|&d| {
            NAMES[d as usize].iter().any(|n| {
                let ends = before.ends_with(n)
                    && (!n.is_ascii() || !before[..before.len() - n.len()].ends_with(|c: char| c.is_alphanumeric()));
                let starts = after.starts_with(n)
                    && (!n.is_ascii() || !after[n.len()..].starts_with(|c: char| c.is_alphanumeric()))
                    || after.trim_start_matches(['(', '（']).starts_with(n) && !n.is_ascii();
                // (`Thu Nov 18 2026` is read with its weekday, inside the date's range.)
                let inside = lower[f.range.clone()].starts_with(n)
                    && !lower[f.range.start + n.len()..].starts_with(|c: char| c.is_alphanumeric());
                ends || starts || inside
            })
        });
        let Some(named) = named else { continue };
        let actual = date.weekday();
        if named != actual {
            let start = line[..f.range.start].trim_end().len().saturating_sub(12);
            let start = (0..=start).rev().find(|&i| line.is_char_boundary(i)).unwrap_or(0);
            let end = (f.range.end + 14).min(line.len());
            let end = (end..=line.len()).find(|&i| line.is_char_boundary(i)).unwrap_or(line.len());
            return Some(WrongWeekday {
                written: line[start..end].trim().to_string(),
                actual: ENGLISH[actual as usize],
            });
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn wrong_weekday_at(line: &str) -> Option<WrongWeekday> {
        wrong_weekday(line, None)
    }

    #[test]
    fn a_yearless_date_is_read_in_the_year_it_was_said() {
        let said = crate::base::date::Date::new(2026, 11, 20);
        assert!(wrong_weekday("- Freeze: Tuesday, Nov 18.", said).is_some());
        assert!(wrong_weekday("- Freeze: Wednesday, Nov 18.", said).is_none());
        assert!(wrong_weekday("- 당직 교대: 11월 23일(화)", said).is_some());
        assert!(wrong_weekday("- 当番交代：11月23日（月）", said).is_none());
    }

    #[test]
    fn a_weekday_that_is_not_the_dates() {
        assert_eq!(
            wrong_weekday_at("- Release freeze starts Tuesday, 2026-11-18.").map(|w| w.actual),
            Some("Wednesday")
        );
        assert!(wrong_weekday_at("- Release freeze starts Wednesday, 2026-11-18.").is_none());
        assert!(wrong_weekday_at("- Freeze: Wed Nov 18 2026.").is_none());
        assert!(wrong_weekday_at("- Freeze: Thu Nov 18 2026.").is_some());
        assert!(wrong_weekday_at("- 2026年11月18日（水）にリリース。").is_none());
        assert!(wrong_weekday_at("- 2026年11月18日（火）にリリース。").is_some());
        assert!(wrong_weekday_at("- 2026년 11월 18일 수요일 배포.").is_none());
        assert!(wrong_weekday_at("- 2026년 11월 18일 화요일 배포.").is_some());
        // No weekday beside it, or no year: nothing to check.
        assert!(wrong_weekday_at("- The freeze starts 2026-11-18; on Tuesday we tag.").is_none());
        assert!(wrong_weekday_at("- Freeze: Tuesday, Nov 18.").is_none());
    }
}
