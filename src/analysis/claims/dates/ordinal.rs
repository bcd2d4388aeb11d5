//! A day of the month said without its month: `the 26th`, `Thursday (26th)`, `26号`,
//! `26日`, `26일`. Said on a day, it names that day of the month nearest it (this month,
//! the one before or the one after).

use std::sync::LazyLock;

use crate::base::date::{Date, days_in_month};

/// The days of the month `text` names without a month: English ordinals (`26th`, `1st`),
/// and a CJK day counter (`26日`, `26号`, `26일`) with no month before it and no word after it
/// that makes it a count of days (`3日間`, `3日前`, `3일 동안`).
pub(crate) fn ordinal_days(text: &str) -> Vec<u32> {
    static ORDINAL: LazyLock<regex::Regex> = LazyLock::new(|| {
        regex::Regex::new(r"(?i)(?:^|[^\w./:-])([12]?\d|3[01])(?:st|nd|rd|th)\b(?:\s+of\s+\w+)?")
            .expect("the ordinal pattern is valid")
    });
    static CJK_DAY: LazyLock<regex::Regex> = LazyLock::new(|| {
        regex::Regex::new(r"(?:^|[^\d月월./\s-])\s*([12]?\d|3[01])\s?(日|号|號|일)").expect("the day pattern is valid")
    });
    let mut out = Vec::new();
    for caps in ORDINAL.captures_iter(text) {
        // `26th of November` names its month: a date, read elsewhere.
        let (Some(whole), Some(day)) = (caps.get(0), caps.get(1)) else { continue };
        if whole.as_str().to_lowercase().contains(" of ") {
            continue;
        }
        out.extend(day.as_str().parse::<u32>().ok());
    }
    for caps in CJK_DAY.captures_iter(text) {
        let (Some(day), Some(counter)) = (caps.get(1), caps.get(2)) else { continue };
        let after = text[counter.end()..].trim_start();
        let counts = ["間", "前", "後", "以", "ぶり", "连", "連", "전", "후", "간", "동안", "째", "内", "以内"];
        if counts.iter().any(|w| after.starts_with(w)) {
            continue;
        }
        out.extend(day.as_str().parse::<u32>().ok());
    }
    out.sort_unstable();
    out.dedup();
    out
}

/// The dates `day` of the month may name said on `said_on`: that day in the month of
/// `said_on`, the month before and the month after, when it is within a month of it.
pub(crate) fn ordinal_dates(day: u32, said_on: Date) -> Vec<Date> {
    let (y, m) = (said_on.year, said_on.month);
    let before = if m == 1 { (y - 1, 12) } else { (y, m - 1) };
    let after = if m == 12 { (y + 1, 1) } else { (y, m + 1) };
    [before, (y, m), after]
        .into_iter()
        .filter(|&(y, m)| day <= days_in_month(y, m))
        .filter_map(|(y, m)| Date::new(y, m, day))
        .filter(|d| (d.to_days() - said_on.to_days()).abs() <= 31)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_day_of_the_month_without_its_month() {
        assert_eq!(ordinal_days("We'll apply it on Thursday night (26th) in the window"), [26]);
        assert_eq!(ordinal_days("due the 1st, review on the 3rd"), [1, 3]);
        assert_eq!(ordinal_days("木曜（26日）の夜に適用"), [26]);
        assert_eq!(ordinal_days("周四（26号）晚上"), [26]);
        assert_eq!(ordinal_days("목요일(26일) 밤"), [26]);
        // Not a day of the month alone: a full date, a count of days, a version, a rank.
        assert!(ordinal_days("11月26日, 11월 26일, 3日間, 3일 동안, 3日前, v1.26th, the 26th of November").is_empty());
    }

    #[test]
    fn the_day_nearest_the_day_it_was_said() {
        let d = |y, m, day| Date::new(y, m, day).unwrap();
        assert_eq!(ordinal_dates(26, d(2026, 11, 20)), [d(2026, 10, 26), d(2026, 11, 26)]);
        assert_eq!(ordinal_dates(2, d(2026, 12, 30)), [d(2026, 12, 2), d(2027, 1, 2)]);
        assert_eq!(ordinal_dates(31, d(2026, 11, 20)), [d(2026, 10, 31)]);
    }
}
