//! Where two lists of lines differ: the diff's operations (Myers, with a deadline) and its
//! changed regions, adjacent ones merged.

use similar::{Algorithm, DiffOp};
use std::ops::Range;
use std::time::{Duration, Instant};

pub(super) fn line_ops(old: &[&str], new: &[&str]) -> Vec<DiffOp> {
    let deadline = Instant::now() + Duration::from_secs(5);
    similar::capture_diff_slices_deadline(Algorithm::Myers, old, new, Some(deadline))
}

/// Non-equal regions of a diff as (old range, new range), adjacent ops merged.
pub(super) fn regions(old: &[&str], new: &[&str]) -> Vec<(Range<usize>, Range<usize>)> {
    let mut out: Vec<(Range<usize>, Range<usize>)> = Vec::new();
    for op in line_ops(old, new) {
        if matches!(op, DiffOp::Equal { .. }) {
            continue;
        }
        let (o, n) = (op.old_range(), op.new_range());
        match out.last_mut() {
            Some(last) if last.0.end == o.start && last.1.end == n.start => {
                last.0.end = o.end;
                last.1.end = n.end;
            }
            _ => out.push((o, n)),
        }
    }
    out
}
