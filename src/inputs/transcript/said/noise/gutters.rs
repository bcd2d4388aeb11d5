//! Line-number gutters of a tool's file view (`    12→text`): removed from the lines that
//! carry them.

use super::lines::Edit;
use memchr::memchr_iter;

/// A line-number gutter at a line's start: `^ *\d{1,9}(→|\t)`.
#[derive(Clone, Copy)]
pub(super) struct Gutter {
    number: u64,
    /// Bytes of the gutter (spaces, digits, marker).
    len: usize,
    /// Right-aligned in six columns with spaces, as `cat -n` and the older `Read` print.
    padded: bool,
    arrow: bool,
}

pub(super) const ARROW: &[u8] = "→".as_bytes();

pub(super) fn gutter(line: &[u8]) -> Option<Gutter> {
    let spaces = line.iter().take_while(|&&b| b == b' ').count();
    let digits = line.get(spaces..)?.iter().take_while(|b| b.is_ascii_digit()).count();
    if digits == 0 || digits > 9 {
        return None;
    }
    let number = line.get(spaces..spaces + digits)?.iter().fold(0u64, |n, d| n * 10 + u64::from(d - b'0'));
    let rest = line.get(spaces + digits..)?;
    let (arrow, marker) = if rest.starts_with(ARROW) {
        (true, ARROW.len())
    } else if rest.first() == Some(&b'\t') {
        (false, 1)
    } else {
        return None;
    };
    Some(Gutter { number, len: spaces + digits + marker, padded: spaces > 0 && spaces + digits == 6, arrow })
}

/// Gutters: a padded one alone; an unpadded one (the current `Read` prints `58\t`, an
/// older one `58→`) in a run of lines numbered one after another that opens the part, as
/// a tool result does (`→`: or any such run of two lines or more). Tab-separated data
/// (`1\talice\tadmin`, every line of the run holding as many more tabs) is not a gutter,
/// nor are numbered rows under a header line (the run would not open the part); two bare
/// columns opening a part (`1\talice`, `2\tbob`) are the shape of a `Read` of a file
/// holding `alice` and `bob`, and read as one.
pub(super) fn gutters(lines: &[&[u8]], edits: &mut [Edit], owned: &mut [bool]) {
    let found: Vec<Option<Gutter>> =
        lines.iter().zip(owned.iter()).map(|(l, &o)| if o { None } else { gutter(l) }).collect();
    let mut i = 0;
    while i < lines.len() {
        let Some(first) = found.get(i).copied().flatten() else {
            i += 1;
            continue;
        };
        // The run of lines numbered one after another from here, with the same marker.
        let mut end = i + 1;
        while let Some(g) = found.get(end).copied().flatten()
            && g.arrow == first.arrow
            && found.get(end - 1).copied().flatten().is_some_and(|p| p.number.checked_add(1) == Some(g.number))
        {
            end += 1;
        }
        let run = found.get(i..end).unwrap_or(&[]);
        let unpadded_ok = if first.arrow {
            i == 0 || run.len() >= 2
        } else {
            // Tabs after the gutter, on the run's `k`th line.
            let tabs = |k: usize| match (lines.get(i + k), run.get(k).copied().flatten()) {
                (Some(l), Some(g)) => memchr_iter(b'\t', l.get(g.len..).unwrap_or(&[])).count(),
                _ => 0,
            };
            let tabular = run.len() >= 2 && tabs(0) > 0 && (1..run.len()).all(|k| tabs(k) == tabs(0));
            i == 0 && !tabular
        };
        for (k, g) in run.iter().enumerate() {
            let Some(g) = g else { continue };
            if (g.padded || unpadded_ok)
                && let (Some(e), Some(o)) = (edits.get_mut(i + k), owned.get_mut(i + k))
            {
                *e = Edit::prefix(g.len);
                *o = true;
            }
        }
        i = end;
    }
}

// grep ------------------------------------------------------------------------------------
