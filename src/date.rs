//! A civil calendar date (proleptic Gregorian, no time zone), enough for provenance:
//! parsing transcript timestamps, comparing claimed dates, and resolving "last week".

use std::fmt;

/// A calendar day. Ordered chronologically.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Date {
    /// Year, e.g. 2026.
    pub year: i32,
    /// Month 1..=12.
    pub month: u32,
    /// Day of month 1..=31.
    pub day: u32,
}

impl Date {
    /// Builds a date, returning `None` for impossible days (Feb 30, month 13…).
    pub fn new(year: i32, month: u32, day: u32) -> Option<Date> {
        if !(1..=12).contains(&month) || day == 0 || day > days_in_month(year, month) {
            return None;
        }
        Some(Date { year, month, day })
    }

    /// Parses the `YYYY-MM-DD` prefix of an ISO-8601 timestamp such as
    /// `2026-11-01T09:14:03.112Z`. Returns `None` when the prefix is not a valid date.
    pub fn parse_iso_prefix(s: &str) -> Option<Date> {
        let b = s.as_bytes();
        if b.len() < 10 || b[4] != b'-' || b[7] != b'-' {
            return None;
        }
        let num = |r: std::ops::Range<usize>| -> Option<u32> {
            let part = s.get(r)?;
            if !part.bytes().all(|c| c.is_ascii_digit()) {
                return None;
            }
            part.parse().ok()
        };
        let year = num(0..4)? as i32;
        Date::new(year, num(5..7)?, num(8..10)?)
    }

    /// Days since 1970-01-01 (negative before). Howard Hinnant's `days_from_civil`.
    pub fn to_days(self) -> i64 {
        let y = i64::from(self.year) - i64::from(self.month <= 2);
        let era = if y >= 0 { y } else { y - 399 } / 400;
        let yoe = y - era * 400;
        let m = i64::from(self.month);
        let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + i64::from(self.day) - 1;
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
        era * 146_097 + doe - 719_468
    }

    /// The date `days` after 1970-01-01. Inverse of [`Date::to_days`].
    pub fn from_days(days: i64) -> Date {
        let z = days + 719_468;
        let era = if z >= 0 { z } else { z - 146_096 } / 146_097;
        let doe = z - era * 146_097;
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
        let mp = (5 * doy + 2) / 153;
        let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
        let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
        let year = (yoe + era * 400 + i64::from(month <= 2)) as i32;
        Date { year, month, day }
    }

    /// This date shifted by `days` (may be negative).
    pub fn add_days(self, days: i64) -> Date {
        Date::from_days(self.to_days() + days)
    }

    /// Day of week, 0 = Monday … 6 = Sunday.
    pub fn weekday(self) -> u32 {
        // 1970-01-01 was a Thursday (3).
        (self.to_days() + 3).rem_euclid(7) as u32
    }
}

/// Number of days in `month` of `year`.
pub fn days_in_month(year: i32, month: u32) -> u32 {
    match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 => 29,
        2 => 28,
        _ => 0,
    }
}

impl fmt::Display for Date {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:04}-{:02}-{:02}", self.year, self.month, self.day)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_timestamps_and_rejects_junk() {
        let d = Date::parse_iso_prefix("2026-11-01T09:14:03.112Z").unwrap();
        assert_eq!(
            d,
            Date {
                year: 2026,
                month: 11,
                day: 1
            }
        );
        assert_eq!(Date::parse_iso_prefix("2026-02-30"), None);
        assert_eq!(Date::parse_iso_prefix("2026/11/01"), None);
        assert_eq!(Date::parse_iso_prefix("20"), None);
        assert_eq!(Date::parse_iso_prefix("２０２６-11-01"), None);
    }

    #[test]
    fn day_arithmetic_round_trips() {
        for days in [-800_000i64, -1, 0, 1, 20_000, 20_758, 2_000_000] {
            assert_eq!(Date::from_days(days).to_days(), days);
        }
        let d = Date::new(2026, 11, 1).unwrap();
        assert_eq!(d.add_days(-7).to_string(), "2026-10-25");
        assert_eq!(
            Date::new(2024, 2, 28).unwrap().add_days(1).to_string(),
            "2024-02-29"
        );
        // 2026-11-01 is a Sunday.
        assert_eq!(d.weekday(), 6);
    }
}
