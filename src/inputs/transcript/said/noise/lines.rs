//! A text's lines, and what to do with one: drop it, cut a prefix or a span from inside
//! it, remove its progress bars.

use memchr::memchr_iter;

/// What to do with one line: drop it whole, or remove a prefix, a span inside it (a grep
/// line's number) and bars. A span cut from inside becomes a line break when text stays
/// on both sides of it.
#[derive(Default)]
pub(super) struct Edit {
    pub(super) drop: bool,
    /// Bytes removed at the line's start.
    pub(super) prefix: usize,
    /// A span removed from inside the line.
    pub(super) split: Option<(usize, usize)>,
    /// Progress bars with their figures (sorted, after the prefix and split).
    pub(super) bars: Vec<(usize, usize)>,
}

impl Edit {
    pub(super) fn prefix(n: usize) -> Edit {
        Edit { prefix: n, ..Edit::default() }
    }

    /// Where the text a prefix rule left starts.
    pub(super) fn start(&self) -> usize {
        self.split.map_or(self.prefix, |(_, end)| end.max(self.prefix))
    }

    pub(super) fn is_noop(&self) -> bool {
        !self.drop && self.prefix == 0 && self.split.is_none() && self.bars.is_empty()
    }
}

/// The lines of `text` (split at `\n`, the last one possibly empty).
pub(super) fn lines_of(text: &[u8]) -> Vec<&[u8]> {
    let mut out = Vec::with_capacity(memchr::memchr_iter(b'\n', text).count() + 1);
    let mut at = 0;
    for nl in memchr_iter(b'\n', text) {
        out.push(text.get(at..nl).unwrap_or(&[]));
        at = nl + 1;
    }
    out.push(text.get(at..).unwrap_or(&[]));
    out
}
