//! Pre-filter strings for dates: what a text stating a date a claim covers must contain.

use super::spec::DateSpec;
use crate::analysis::claims::text::to_fullwidth_digits;

const MONTH_NAMES: [(&str, &str); 12] = [
    ("jan", "january"),
    ("feb", "february"),
    ("mar", "march"),
    ("apr", "april"),
    ("may", "may"),
    ("jun", "june"),
    ("jul", "july"),
    ("aug", "august"),
    ("sep", "september"),
    ("oct", "october"),
    ("nov", "november"),
    ("dec", "december"),
];

/// Lowercase strings one of which every text stating a date that `spec` contains must
/// include (see [`DateSpec::contains`]); used as a pre-filter.
pub(crate) fn date_needles(spec: &DateSpec) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let year = spec.year();
    let Some(month) = spec.month() else {
        // A year or quarter: every form that states the year spells it in digits.
        if let Some(y) = year {
            out.push(format!("{y:04}"));
        }
        return out;
    };
    let day = match *spec {
        DateSpec::Day(d) => Some(d.day),
        DateSpec::MonthDay { day, .. } => Some(day),
        _ => None,
    };
    let (abbr, full) = MONTH_NAMES.get(month.saturating_sub(1) as usize).copied().unwrap_or(("", ""));
    let ms = [format!("{month}"), format!("{month:02}")];
    let y = year.map(|y| format!("{y:04}")).unwrap_or_default();
    match day {
        Some(d) => {
            let ds = [format!("{d}"), format!("{d:02}")];
            let ord = match d {
                1 | 21 | 31 => "st",
                2 | 22 => "nd",
                3 | 23 => "rd",
                _ => "th",
            };
            for m in &ms {
                for dd in &ds {
                    out.push(format!("{y}-{m}-{dd}"));
                    out.push(format!("{y}/{m}/{dd}"));
                }
            }
            out.push(format!("{y}.{month:02}.{d:02}"));
            let mut names = vec![abbr.to_string(), format!("{abbr}."), full.to_string()];
            if month == 9 {
                names.push("sept".into());
                names.push("sept.".into());
            }
            for n in &names {
                for dd in &ds {
                    out.push(format!("{n} {dd}"));
                }
            }
            out.push(format!("{d} {abbr}"));
            out.push(format!("{d}{ord} {abbr}"));
            out.push(format!("{d} of {abbr}"));
            out.push(format!("{d}{ord} of {abbr}"));
            out.push(format!("{month}/{d}"));
            out.push(format!("{month}/{d:02}"));
            // CJK forms may space every part (`8 월 1 일`): the month and its unit are what
            // all of them hold.
            push_cjk_months(&mut out, month);
        }
        None => {
            if year.is_some() {
                out.push(format!("{y}-{month:02}"));
                out.push(format!("{y}/{month}"));
                out.push(format!("{y}.{month:02}"));
            } else {
                out.push(format!("-{month:02}"));
                out.push(format!("/{month}"));
                out.push(format!(".{month:02}"));
            }
            out.push(abbr.to_string());
            out.push(format!("{month}/"));
            push_cjk_months(&mut out, month);
        }
    }
    let mut seen = std::collections::HashSet::new();
    out.retain(|s| !s.is_empty() && seen.insert(s.clone()));
    out
}

/// `8月`, `8 월`, `８　月`…: the month and its CJK unit, with each separator the date
/// forms allow between them (none, a space, an ideographic space), in ASCII and
/// full-width digits.
fn push_cjk_months(out: &mut Vec<String>, month: u32) {
    for unit in ["月", "월"] {
        for sep in ["", " ", "\u{3000}"] {
            let s = format!("{month}{sep}{unit}");
            out.push(to_fullwidth_digits(&s));
            out.push(s);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::date::Date;

    #[test]
    fn needles_cover_forms() {
        let day = DateSpec::Day(Date::new(2026, 11, 1).unwrap());
        let n = date_needles(&day);
        for s in ["2026-11-01", "2026/11/01", "nov 1", "november 1", "11/1", "11月", "11 월", "１１月"] {
            assert!(n.iter().any(|x| x == s), "{s} missing from {n:?}");
        }
        assert_eq!(date_needles(&DateSpec::Year(2026)), vec!["2026".to_string()]);
    }
}
