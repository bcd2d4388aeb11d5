//! An absolute date as text names it ([`DateSpec`]): a day, a month or part of one, a
//! quarter or a year, with or without its year.

use crate::base::date::{Date, days_in_month};
use std::fmt;

/// Which part of a month a partial date names: early = days 1–10, mid = 11–20, late = 21–end.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MonthPart {
    /// Days 1–10 ("early", "beginning of", 上旬, 초).
    Early,
    /// Days 11–20 ("mid", "middle of", 中旬, 중순).
    Mid,
    /// Days 21 to the end ("late", "end of", 下旬, 末, 말).
    Late,
}

/// A date of some precision, as a note or source states it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DateSpec {
    /// One day (`2026-11-01`).
    Day(Date),
    /// A day of a month, year unknown (`11/1`, `11月1日`, `Nov 1`).
    MonthDay {
        /// Month 1..=12.
        month: u32,
        /// Day 1..=31 (valid for the month in a leap year).
        day: u32,
    },
    /// A whole month (`November 2026`; `in October` has no year).
    Month {
        /// The year, when stated.
        year: Option<i32>,
        /// Month 1..=12.
        month: u32,
    },
    /// Part of a month (`late Oct 2026`, `10月下旬`).
    PartOfMonth {
        /// The year, when stated.
        year: Option<i32>,
        /// Month 1..=12.
        month: u32,
        /// Which part.
        part: MonthPart,
    },
    /// A quarter (`Q4 2026`).
    Quarter {
        /// The year.
        year: i32,
        /// Quarter 1..=4.
        quarter: u32,
    },
    /// A whole year (`in 2026`).
    Year(i32),
}

/// Leap year used to instantiate dates whose year is unknown (so Feb 29 stays valid).
pub(crate) const ANY_LEAP_YEAR: i32 = 2024;

impl DateSpec {
    /// The stated year, if any.
    pub fn year(&self) -> Option<i32> {
        match *self {
            DateSpec::Day(d) => Some(d.year),
            DateSpec::MonthDay { .. } => None,
            DateSpec::Month { year, .. } | DateSpec::PartOfMonth { year, .. } => year,
            DateSpec::Quarter { year, .. } | DateSpec::Year(year) => Some(year),
        }
    }

    /// The stated month, if the spec is at least month-precise.
    pub fn month(&self) -> Option<u32> {
        match *self {
            DateSpec::Day(d) => Some(d.month),
            DateSpec::MonthDay { month, .. } | DateSpec::Month { month, .. } | DateSpec::PartOfMonth { month, .. } => {
                Some(month)
            }
            DateSpec::Quarter { .. } | DateSpec::Year(_) => None,
        }
    }

    /// The inclusive range of days the spec covers; `None` when its year is unknown.
    pub fn range(&self) -> Option<(Date, Date)> {
        self.range_in(self.year()?)
    }

    /// The inclusive range of days the spec covers, taking `year` when it states none
    /// (a stated year always wins). `None` for an impossible day (Feb 29 of a common year).
    pub fn range_in(&self, year: i32) -> Option<(Date, Date)> {
        let year = self.year().unwrap_or(year);
        let month_range = |m: u32, first: u32, last: Option<u32>| -> Option<(Date, Date)> {
            let end = last.unwrap_or_else(|| days_in_month(year, m));
            Some((Date::new(year, m, first)?, Date::new(year, m, end)?))
        };
        match *self {
            DateSpec::Day(d) => Some((d, d)),
            DateSpec::MonthDay { month, day } => {
                let d = Date::new(year, month, day)?;
                Some((d, d))
            }
            DateSpec::Month { month, .. } => month_range(month, 1, None),
            DateSpec::PartOfMonth { month, part, .. } => match part {
                MonthPart::Early => month_range(month, 1, Some(10)),
                MonthPart::Mid => month_range(month, 11, Some(20)),
                MonthPart::Late => month_range(month, 21, None),
            },
            DateSpec::Quarter { quarter, .. } => {
                let first = quarter.checked_mul(3)?.checked_sub(2)?;
                let last = first + 2;
                Some((Date::new(year, first, 1)?, Date::new(year, last, days_in_month(year, last))?))
            }
            DateSpec::Year(_) => Some((Date::new(year, 1, 1)?, Date::new(year, 12, 31)?)),
        }
    }

    /// True when every day `other` can mean lies inside `self` (so `self` is a faithful,
    /// possibly coarser, restatement of `other`). A missing year on either side takes the
    /// other's year; a year or quarter is only contained by a text that states its year.
    pub fn contains(&self, other: &DateSpec) -> bool {
        let year_level = matches!(self, DateSpec::Year(_) | DateSpec::Quarter { .. });
        if year_level && other.year().is_none() {
            return false;
        }
        let year = self.year().or(other.year()).unwrap_or(ANY_LEAP_YEAR);
        match (self.range_in(year), other.range_in(year)) {
            (Some(a), Some(b)) => a.0 <= b.0 && b.1 <= a.1,
            _ => false,
        }
    }

    /// A spec said without a year, given the year that puts it nearest `anchor` (the day
    /// it was said): "March 2" said on 2026-03-04 is 2026-03-02, "Dec 30" said on
    /// 2026-01-03 is 2025-12-30. Specs with a year are returned as they are.
    pub fn anchored(&self, anchor: Date) -> DateSpec {
        if self.year().is_some() {
            return *self;
        }
        let distance = |y: i32| {
            self.range_in(y).map(|(a, b)| {
                let (a, b, d) = (a.to_days(), b.to_days(), anchor.to_days());
                if d < a { a - d } else { (d - b).max(0) }
            })
        };
        let Some(year) =
            (anchor.year - 1..=anchor.year + 1).filter_map(|y| distance(y).map(|d| (d, y))).min().map(|(_, y)| y)
        else {
            return *self;
        };
        match *self {
            DateSpec::MonthDay { month, day } => Date::new(year, month, day).map_or(*self, DateSpec::Day),
            DateSpec::Month { month, .. } => DateSpec::Month { year: Some(year), month },
            DateSpec::PartOfMonth { month, part, .. } => DateSpec::PartOfMonth { year: Some(year), month, part },
            other => other,
        }
    }

    /// True when the spec can mean `day`.
    pub fn includes_day(&self, day: Date) -> bool {
        self.range_in(day.year).is_some_and(|(a, b)| a <= day && day <= b)
    }
}

impl fmt::Display for DateSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let year = |y: Option<i32>| y.map(|y| format!("{y:04}-")).unwrap_or_default();
        match *self {
            DateSpec::Day(d) => write!(f, "{d}"),
            DateSpec::MonthDay { month, day } => write!(f, "--{month:02}-{day:02}"),
            DateSpec::Month { year: y, month } => write!(f, "{}{month:02}", year(y)),
            DateSpec::PartOfMonth { year: y, month, part } => {
                let p = match part {
                    MonthPart::Early => "early",
                    MonthPart::Mid => "mid",
                    MonthPart::Late => "late",
                };
                write!(f, "{p} {}{month:02}", year(y))
            }
            DateSpec::Quarter { year, quarter } => write!(f, "{year:04}-Q{quarter}"),
            DateSpec::Year(y) => write!(f, "{y:04}"),
        }
    }
}
