//! A number the note works out in the open: `All 260 tests pass (212 unit + 48 integration)`,
//! `takes about 45 minutes (14:02-14:47)`, `테스트 전체 260개 (단위 212, 통합 48)`. The line
//! states the operands beside the result, so the result is as sourced as they are (see
//! `provenance::classify`): the sum or difference of two other numbers of the line, or the
//! minutes or hours between two of its times of day. A result the line does not show how it
//! got (`All 270 tests pass`) is judged as any claim.

use super::{Claim, ClaimValue};

/// The operands (as written in the line) the claim's number is worked out from, when the
/// line shows them: two other numbers it is the sum or difference of, or two times of day
/// it is the span of.
pub fn operands(line: &str, claim: &Claim) -> Option<(String, String)> {
    let ClaimValue::Number { value, unit } = &claim.value else { return None };
    let target: f64 = value.parse().ok()?;
    let others: Vec<(String, f64)> = super::numbers::whole_numbers(line)
        .filter(|(r, _)| r.end <= claim.start || r.start >= claim.end)
        .filter_map(|(_, v)| v.parse::<f64>().ok().map(|n| (v, n)))
        .take(16)
        .collect();
    for (i, (a, x)) in others.iter().enumerate() {
        for (b, y) in others.iter().skip(i + 1) {
            let close = |n: f64| (n - target).abs() < 1e-9;
            if close(x + y) || close((x - y).abs()) {
                return Some((a.clone(), b.clone()));
            }
        }
    }
    // The span of two times of day, in minutes or hours.
    let per_minute = match unit.as_deref().and_then(super::conversion::millis) {
        Some(ms) if (60e3..=3600e3).contains(&ms) => ms / 60e3,
        _ => return None,
    };
    let times = super::clock::clock_times(line);
    let minutes = |v: &str| -> Option<f64> {
        let (h, m) = v.trim_end_matches('?').split_once(':')?;
        Some(h.parse::<f64>().ok()? * 60.0 + m.parse::<f64>().ok()?)
    };
    // The operands as written (`09:12`, not the value `9:12?`): what a source holds.
    let written = |r: &std::ops::Range<usize>| line.get(r.clone()).unwrap_or_default().to_string();
    for (i, (ra, a)) in times.iter().enumerate() {
        for (rb, b) in times.iter().skip(i + 1) {
            let span = (minutes(b)? - minutes(a)?).abs();
            if (span / per_minute - target).abs() < 1e-9 {
                return Some((written(ra), written(rb)));
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn worked(line: &str, number: &str) -> Option<(String, String)> {
        let c = super::super::extract(line).into_iter().find(|c| c.text.starts_with(number))?;
        operands(line, &c)
    }

    #[test]
    fn a_number_worked_out_beside_its_operands() {
        assert_eq!(
            worked("- All 260 tests pass (212 unit + 48 integration).", "260"),
            Some(("212".into(), "48".into()))
        );
        assert_eq!(worked("- All 270 tests pass (212 unit + 48 integration).", "270"), None);
        assert!(worked("- The backfill takes about 45 minutes (14:02-14:47).", "45").is_some());
        assert!(worked("- The backfill takes about 25 minutes (14:02-14:47).", "25").is_none());
        // Minutes and hours in any script the units are read in.
        assert!(worked("INC-2198：北京时间 09:12 告警，10:05 恢复，持续 53 分钟。", "53").is_some());
        assert!(worked("- The window lasts 2 hours (09:00-11:00).", "2").is_some());
        assert!(worked("- 障害は 09:12 から 10:05 まで、53分間続いた。", "53").is_some());
        assert!(worked("- 테스트 전체 260개 통과 (단위 212, 통합 48).", "260").is_some());
        assert_eq!(worked("- The suite has 1,284 tests.", "1,284"), None);
    }
}
