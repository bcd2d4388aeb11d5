//! The numbers a source writes, each with what follows it (its unit), as the judges of
//! values read them.

use std::ops::Range;

use super::numbers::{Suffix, suffix_unit, whole_numbers};

/// A number written in a source: where it stands and what it is.
pub(crate) struct Written {
    pub(crate) range: Range<usize>,
    pub(crate) value: String,
    /// The unit glued or next to it, and where that ends.
    pub(crate) suffix: Suffix,
}

/// Every whole number of `text`, with what follows it.
pub(crate) fn numbers(text: &str) -> Vec<Written> {
    whole_numbers(text).map(|(range, value)| written(text, range, value)).collect()
}

/// A text and its whole numbers, found the first time they are asked for and kept: a
/// transcript line is asked about many claims of a unit it writes.
pub(crate) struct Numbers<'t> {
    pub(crate) text: &'t str,
    all: std::cell::OnceCell<Vec<Written>>,
}

impl<'t> Numbers<'t> {
    pub(crate) fn new(text: &'t str) -> Numbers<'t> {
        Numbers { text, all: std::cell::OnceCell::new() }
    }

    pub(crate) fn all(&self) -> &[Written] {
        self.all.get_or_init(|| numbers(self.text))
    }
}

/// The number `value` written at `range` of `text`, with what follows it.
pub(crate) fn written(text: &str, range: Range<usize>, value: String) -> Written {
    Written { suffix: suffix_unit(text, range.end), range, value }
}
