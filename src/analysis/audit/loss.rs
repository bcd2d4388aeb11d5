//! A cap on loss: a review whose result removes more than a share of the memory's notes or
//! lines (`mass-removal`, an error) — 23 notes gone in one consolidation is how a dream
//! loses a memory while each deletion looks reasonable on its own.
//!
//! The share is [`DEFAULT_PERCENT`] (25%), or `--mass-removal-percent` /
//! `DREAMREVIEW_MASS_REMOVAL_PERCENT` when given (an integer 1–100). Small losses never count: at least [`MIN_NOTES`] notes or
//! [`MIN_LINES`] lines must go. One flag per file that loses something (a deleted note, or
//! a note that loses lines), each with the totals, so every removal carries it and
//! `apply --accept-all` refuses the lot without `--allow mass-removal`.

use super::flagged::AuditFlag;
use crate::analysis::flag::{Flag, FlagKind};
use std::collections::{BTreeMap, HashMap};

/// The share of notes or lines a review may remove before it is a mass removal.
pub const DEFAULT_PERCENT: usize = 25;

/// The fewest notes removed that count as a mass removal.
pub const MIN_NOTES: usize = 3;

/// The fewest lines removed that count as a mass removal.
pub const MIN_LINES: usize = 20;

/// The share in effect: `given` (`--mass-removal-percent`) when it is 1–100, else
/// [`percent`].
pub fn percent_or(given: Option<usize>) -> usize {
    given.filter(|p| (1..=100).contains(p)).unwrap_or_else(percent)
}

/// The share in effect: `DREAMREVIEW_MASS_REMOVAL_PERCENT` when it is an integer 1–100,
/// else [`DEFAULT_PERCENT`].
pub fn percent() -> usize {
    std::env::var("DREAMREVIEW_MASS_REMOVAL_PERCENT")
        .ok()
        .and_then(|v| v.trim().parse::<usize>().ok())
        .filter(|p| (1..=100).contains(p))
        .unwrap_or(DEFAULT_PERCENT)
}

/// What `before` → `after` removes, per file: (path, lines lost, whether the note is gone).
/// A line is lost when no file of `after` still holds it (trimmed; blank lines never
/// count): a line moved into another note is no loss.
fn losses(before: &BTreeMap<String, Vec<u8>>, after: &BTreeMap<String, Vec<u8>>) -> Vec<(String, usize, bool)> {
    let texts: Vec<std::borrow::Cow<'_, str>> = after.values().map(|b| String::from_utf8_lossy(b)).collect();
    let mut kept: HashMap<&str, usize> = HashMap::new();
    for l in texts.iter().flat_map(|t| t.lines()) {
        *kept.entry(l.trim()).or_default() += 1;
    }
    let mut out = Vec::new();
    // Notes that stay take their own lines first; a deleted note's lines are lost unless
    // some line of the result is left over for them.
    let (staying, deleted): (Vec<_>, Vec<_>) = before.iter().partition(|(p, _)| after.contains_key(*p));
    for (path, old) in staying.into_iter().chain(deleted) {
        let old = String::from_utf8_lossy(old);
        let mut lost = 0;
        for l in old.lines().filter(|l| !l.trim().is_empty()) {
            match kept.get_mut(l.trim()) {
                Some(n) if *n > 0 => *n -= 1,
                _ => lost += 1,
            }
        }
        let deleted = !after.contains_key(path);
        if lost > 0 || deleted {
            out.push((path.clone(), lost, deleted));
        }
    }
    out
}

/// What a `mass-removal` flag's message says the whole review removes ("this review
/// removes 4 of 9 notes (44%) and 12 of 40 lines (30%), over the 25% cap on loss"), the
/// same on every flag of one review.
pub fn totals(message: &str) -> Option<&str> {
    message.strip_prefix("this review removes ")?;
    message.split_once("; this hunk ").map(|(t, _)| t)
}

/// The `mass-removal` flags of a review that takes `before` to `after`, over `percent`.
pub fn mass_removal(
    before: &BTreeMap<String, Vec<u8>>,
    after: &BTreeMap<String, Vec<u8>>,
    percent: usize,
) -> Vec<AuditFlag> {
    let losses = losses(before, after);
    let notes = before.len();
    let lines: usize =
        before.values().map(|b| String::from_utf8_lossy(b).lines().filter(|l| !l.trim().is_empty()).count()).sum();
    let gone = losses.iter().filter(|(_, _, deleted)| *deleted).count();
    let lost: usize = losses.iter().map(|(_, n, _)| n).sum();
    let over = |part: usize, whole: usize, min: usize| part >= min && part * 100 > percent * whole.max(1);
    if !over(gone, notes, MIN_NOTES) && !over(lost, lines, MIN_LINES) {
        return Vec::new();
    }
    let share = |part: usize, whole: usize| part * 100 / whole.max(1);
    let totals = format!(
        "this review removes {gone} of {notes} notes ({}%) and {lost} of {lines} lines ({}%), over the {percent}% \
         cap on loss",
        share(gone, notes),
        share(lost, lines)
    );
    losses
        .into_iter()
        .map(|(path, n, deleted)| {
            let what = if deleted { format!("deletes {path}") } else { format!("removes {n} lines of {path}") };
            let message = format!(
                "{totals}; this hunk {what}. Review each removal; `apply --allow mass-removal` commits it anyway \
                 (the cap: --mass-removal-percent, DREAMREVIEW_MASS_REMOVAL_PERCENT)"
            );
            AuditFlag { path, line: None, named_by: None, flag: Flag::new(FlagKind::MassRemoval, message) }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn folder(notes: &[(&str, &str)]) -> BTreeMap<String, Vec<u8>> {
        notes.iter().map(|(p, t)| (p.to_string(), t.as_bytes().to_vec())).collect()
    }

    #[test]
    fn a_quarter_of_the_notes_or_lines_gone_is_a_mass_removal() {
        let body = "a fact\nanother fact\n";
        let names: Vec<String> = (0..8).map(|i| format!("n{i}.md")).collect();
        let before = folder(&names.iter().map(|n| (n.as_str(), body)).collect::<Vec<_>>());
        // 3 of 8 notes deleted: 37%.
        let after = folder(&names[3..].iter().map(|n| (n.as_str(), body)).collect::<Vec<_>>());
        let flags = mass_removal(&before, &after, 25);
        assert!(flags.iter().all(|f| totals(&f.flag.message).is_some_and(|t| t.ends_with("cap on loss"))));
        assert_eq!(flags.len(), 3, "{flags:#?}");
        assert!(flags[0].flag.message.contains("removes 3 of 8 notes (37%)"), "{}", flags[0].flag.message);
        // 2 of 8: too few notes to count, and under the share.
        let after = folder(&names[2..].iter().map(|n| (n.as_str(), body)).collect::<Vec<_>>());
        assert!(mass_removal(&before, &after, 25).is_empty());
        // Lines: 30 of 40 lines of one note gone.
        let long: String = (0..40).map(|i| format!("line {i}\n")).collect();
        let short: String = (0..10).map(|i| format!("line {i}\n")).collect();
        let flags = mass_removal(&folder(&[("a.md", &long)]), &folder(&[("a.md", &short)]), 25);
        assert_eq!(flags.len(), 1);
        assert!(flags[0].flag.message.contains("removes 30 lines of a.md"), "{}", flags[0].flag.message);
        // Moved lines are no loss.
        let moved = folder(&[("a.md", &short), ("b.md", &long)]);
        assert!(mass_removal(&folder(&[("a.md", &long)]), &moved, 25).is_empty());
        assert!(mass_removal(&folder(&[("a.md", &long)]), &folder(&[("a.md", &long)]), 25).is_empty());
    }
}
