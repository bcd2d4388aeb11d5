//! Totals a note derives from its source: the sum of the amounts a cited message lists
//! (`~615 GB` for `212gb`, `198gb`, `205gb`; `4,040.50` for `3,400.00`, `615.25`, `25.25`).

use super::numbers::{Suffix, unit_key};
use super::written::numbers;
use super::{Claim, ClaimValue};

/// True when the claim is an amount that a cited message lists the parts of, added up (see
/// [`summed_stated`]). Read only on cited messages: no needle of the claim finds a total
/// its source never writes.
pub fn total_stated(claim: &Claim, text: &str) -> bool {
    match &claim.value {
        ClaimValue::Number { value, unit: Some(unit) } => summed_stated(value, unit, text),
        ClaimValue::Number { value, unit: None } if value.contains('.') => decimals_summed(value, text),
        _ => false,
    }
}

/// True when `value` of `unit` is the total of every amount of that unit `text` gives, two
/// or more (`~615 GB` for a listing of `212gb`, `198gb`, `205gb`): the note adds up what the
/// source lists. A measure's amounts only (a size, a duration, money), never a count.
pub(crate) fn summed_stated(value: &str, unit: &str, text: &str) -> bool {
    let money = matches!(unit, "$" | "€" | "£" | "¥");
    if !(super::conversion::convertible(unit) || money) {
        return false;
    }
    let Ok(target) = value.parse::<f64>() else { return false };
    let amounts: Vec<f64> = numbers(text)
        .iter()
        .filter(|w| match &w.suffix {
            Suffix::Unit(_, own) => unit_key(own) == unit_key(unit),
            _ => money && text.get(..w.range.start).is_some_and(|b| b.ends_with(unit)),
        })
        .filter_map(|w| w.value.parse::<f64>().ok())
        .collect();
    let total: f64 = amounts.iter().sum();
    amounts.len() >= 2 && (total - target).abs() < 1e-6 * target.abs().max(1.0)
}

/// True when the decimal `value` is the total of every figure `text` writes to as many
/// decimals, two or more (`4,040.50` for `3,400.00`, `615.25` and `25.25`).
fn decimals_summed(value: &str, text: &str) -> bool {
    let places = |v: &str| v.split_once('.').map_or(0, |(_, d)| d.len());
    let Ok(target) = value.parse::<f64>() else { return false };
    let amounts: Vec<f64> = numbers(text)
        .iter()
        .filter(|w| places(&w.value) == places(value))
        .filter_map(|w| w.value.parse::<f64>().ok())
        .collect();
    let total: f64 = amounts.iter().sum();
    amounts.len() >= 2 && (total - target).abs() < 1e-6 * target.abs().max(1.0)
}
