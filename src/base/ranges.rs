//! A set of byte ranges of one text (references in a CHANGES.md entry, metadata spans of a
//! line), asked which position or range they cover in logarithmic time: a text with n
//! ranges asked about each of its m positions costs m log n, never m × n.

use std::ops::Range;

/// Sorted, non-overlapping ranges (overlapping or touching ones merged).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Ranges(Vec<Range<usize>>);

impl Ranges {
    /// The union of `ranges` (empty ones dropped).
    pub fn new(mut ranges: Vec<Range<usize>>) -> Ranges {
        ranges.retain(|r| r.start < r.end);
        ranges.sort_by_key(|r| r.start);
        let mut out: Vec<Range<usize>> = Vec::with_capacity(ranges.len());
        for r in ranges {
            match out.last_mut() {
                Some(last) if r.start <= last.end => last.end = last.end.max(r.end),
                _ => out.push(r),
            }
        }
        Ranges(out)
    }

    /// Whether position `i` lies in one of the ranges.
    pub fn contains(&self, i: usize) -> bool {
        let k = self.0.partition_point(|r| r.end <= i);
        self.0.get(k).is_some_and(|r| r.start <= i)
    }

    /// Whether `r` shares a position with one of the ranges.
    pub fn overlaps(&self, r: &Range<usize>) -> bool {
        let k = self.0.partition_point(|s| s.end <= r.start);
        self.0.get(k).is_some_and(|s| s.start < r.end)
    }
}

/// `text` with the bytes of `ranges` (on char boundaries) replaced by spaces: the same
/// offsets, nothing to read inside them. Claims are extracted from an entry's text this way
/// so that its thousands of `line N` references cost nothing (each number was read with
/// its clause, then dropped).
pub fn blanked(text: &str, ranges: &Ranges) -> String {
    let mut b = text.as_bytes().to_vec();
    for r in &ranges.0 {
        if text.is_char_boundary(r.start) && text.is_char_boundary(r.end.min(text.len())) {
            for c in b.iter_mut().take(r.end).skip(r.start) {
                *c = b' ';
            }
        }
    }
    String::from_utf8(b).unwrap_or_else(|_| text.to_string())
}

/// Disjoint ranges added one at a time, each new one first asked whether it overlaps any
/// already taken (the first of two overlapping findings wins): log n per question.
#[derive(Clone, Debug, Default)]
pub struct Taken(std::collections::BTreeMap<usize, usize>);

impl Taken {
    /// Whether `r` shares a position with a range already taken.
    pub fn overlaps(&self, r: &Range<usize>) -> bool {
        r.start < r.end && self.0.range(..r.end).next_back().is_some_and(|(_, &end)| end > r.start)
    }

    /// Takes `r` (the caller has checked that it overlaps none taken).
    pub fn insert(&mut self, r: &Range<usize>) {
        if r.start < r.end {
            self.0.insert(r.start, r.end);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn taken_ranges_answer_overlap_like_a_linear_scan() {
        let mut taken = Taken::default();
        let mut kept: Vec<Range<usize>> = Vec::new();
        for r in [5..9, 7..12, 0..5, 9..10, 3..4, 20..25, 24..30, 10..20] {
            let linear = kept.iter().any(|k| k.start < r.end && r.start < k.end);
            assert_eq!(taken.overlaps(&r), linear, "{r:?}");
            if !linear {
                taken.insert(&r);
                kept.push(r);
            }
        }
    }

    #[test]
    fn membership_and_overlap_match_a_linear_scan() {
        let raw = vec![10..14, 2..5, 4..7, 20..20, 30..31];
        let set = Ranges::new(raw.clone());
        assert_eq!(set, Ranges(vec![2..7, 10..14, 30..31]));
        // An empty range covers nothing.
        let raw: Vec<Range<usize>> = raw.into_iter().filter(|r| r.start < r.end).collect();
        for i in 0..40 {
            assert_eq!(set.contains(i), raw.iter().any(|r| r.contains(&i)), "{i}");
            for len in 0..5 {
                let q = i..i + len;
                let linear = raw.iter().any(|r| r.start < q.end && q.start < r.end);
                assert_eq!(set.overlaps(&q), linear, "{q:?}");
            }
        }
    }
}
