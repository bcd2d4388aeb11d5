//! A civil calendar date (proleptic Gregorian, no time zone), enough for provenance:
//! parsing transcript timestamps, comparing claimed dates, and resolving "last week". The
//! calendar arithmetic is [`jiff`]'s; see [`crate::base::zone`] for the day a timestamp falls on.

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

    /// The same day as a [`jiff`] civil date (`None` outside jiff's years -9999..=9999).
    pub fn to_civil(self) -> Option<jiff::civil::Date> {
        let (y, m, d) = (i16::try_from(self.year).ok()?, i8::try_from(self.month).ok()?, i8::try_from(self.day).ok()?);
        jiff::civil::Date::new(y, m, d).ok()
    }

    /// A [`jiff`] civil date as a [`Date`].
    pub fn from_civil(d: jiff::civil::Date) -> Date {
        Date { year: i32::from(d.year()), month: d.month().unsigned_abs().into(), day: d.day().unsigned_abs().into() }
    }

    /// Days since 1970-01-01 (negative before); 0 for a date jiff cannot represent.
    pub fn to_days(self) -> i64 {
        self.to_civil().and_then(|d| EPOCH.until(d).ok()).map_or(0, |span| i64::from(span.get_days()))
    }

    /// The date `days` after 1970-01-01, saturating at jiff's first and last days. Inverse
    /// of [`Date::to_days`].
    pub fn from_days(days: i64) -> Date {
        Date::from_civil(shift(EPOCH, days))
    }

    /// This date shifted by `days` (may be negative), saturating at jiff's first and last
    /// days; a date jiff cannot represent is returned as it is.
    pub fn add_days(self, days: i64) -> Date {
        match self.to_civil() {
            Some(d) => Date::from_civil(shift(d, days)),
            None => self,
        }
    }

    /// Day of week, 0 = Monday … 6 = Sunday (0 for a date jiff cannot represent).
    pub fn weekday(self) -> u32 {
        self.to_civil().map_or(0, |d| d.weekday().to_monday_zero_offset().unsigned_abs().into())
    }
}

/// 1970-01-01.
const EPOCH: jiff::civil::Date = jiff::civil::date(1970, 1, 1);

/// `d` shifted by `days`, saturating at jiff's first and last days.
fn shift(d: jiff::civil::Date, days: i64) -> jiff::civil::Date {
    // A span holds at most some 7.3 million days, more than jiff's whole range of dates.
    let clamped = days.clamp(-7_000_000, 7_000_000);
    match jiff::Span::new().try_days(clamped) {
        Ok(span) => d.saturating_add(span),
        Err(_) => d,
    }
}

/// Number of days in `month` of `year` (0 for an impossible month or a year jiff cannot
/// represent).
pub fn days_in_month(year: i32, month: u32) -> u32 {
    let (Ok(y), Ok(m)) = (i16::try_from(year), i8::try_from(month)) else { return 0 };
    jiff::civil::Date::new(y, m, 1).map_or(0, |d| d.days_in_month().unsigned_abs().into())
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
        assert_eq!(d, Date { year: 2026, month: 11, day: 1 });
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
        assert_eq!(Date::new(2024, 2, 28).unwrap().add_days(1).to_string(), "2024-02-29");
        // 2026-11-01 is a Sunday.
        assert_eq!(d.weekday(), 6);
        // Out of range: saturated or left alone, never a panic.
        assert_eq!(Date::from_days(i64::MAX).year, 9999);
        assert_eq!(Date::from_days(i64::MIN).year, -9999);
        let far = Date { year: 20_000, month: 1, day: 1 };
        assert_eq!(far.add_days(5), far);
        assert_eq!(days_in_month(20_000, 2), 0);
        assert_eq!(days_in_month(2026, 13), 0);
        assert_eq!(days_in_month(2000, 2), 29);
    }
}
