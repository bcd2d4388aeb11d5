//! Absolute dates in text, in every common form, normalised to a [`DateSpec`].
//!
//! Forms: `2026-11-01`, `2026/11/01`, `2026.11.01`, `2026-11`, `Nov 1 2026`, `Nov 1, 2026`,
//! `Sunday, November 1st, 2026`, `1 November 2026`, `1st of Nov`, `November 2026`, `11/1`,
//! `11/01/2026` (US month/day), `2026年11月1日`, `11月1日`, `10月下旬`, `2026년 11월 1일`,
//! `10월 말`, `late Oct 2026`, `early/mid/end of November 2026`, `mid-November`, `Q4 2026`,
//! `2026年第4四半期`, a year after a context word (`in 2026`, `since 2024`, `early 2026`) and a
//! capitalised month after one (`in October`). Relative phrases are not dates here.

mod find;
mod needles;
mod ordinal;
pub mod spec;

pub(crate) use find::{FoundDate, find_dates};
pub(crate) use needles::date_needles;
pub(crate) use ordinal::{ordinal_dates, ordinal_days};
pub use spec::{DateSpec, MonthPart};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::date::Date;

    fn d(y: i32, m: u32, day: u32) -> Date {
        Date::new(y, m, day).unwrap()
    }

    #[test]
    fn containment_and_ranges() {
        let late = DateSpec::PartOfMonth { year: Some(2026), month: 10, part: MonthPart::Late };
        assert_eq!(late.range(), Some((d(2026, 10, 21), d(2026, 10, 31))));
        assert!(late.contains(&DateSpec::Day(d(2026, 10, 25))));
        assert!(late.contains(&late));
        assert!(!late.contains(&DateSpec::Month { year: Some(2026), month: 10 }));
        let day = DateSpec::Day(d(2026, 11, 1));
        assert!(day.contains(&DateSpec::MonthDay { month: 11, day: 1 }));
        assert!(DateSpec::MonthDay { month: 11, day: 1 }.contains(&day));
        assert!(!DateSpec::Year(2026).contains(&DateSpec::MonthDay { month: 11, day: 1 }));
        assert!(DateSpec::Year(2026).contains(&day));
        assert_eq!(DateSpec::Quarter { year: 2026, quarter: 4 }.range(), Some((d(2026, 10, 1), d(2026, 12, 31))));
        assert_eq!(DateSpec::MonthDay { month: 2, day: 29 }.range_in(2026), None);
    }
}
