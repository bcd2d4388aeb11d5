//! The `L` overlay's box and rows: what the dream left out, an item per entry, each wrapped
//! under its own text (its mark alone in the first two columns), scrolled by the row.

use crate::analysis::provenance::leftout::LeftOut;
use crate::faces::ui::text;
use ratatui::layout::Rect;

/// Columns before an item's text: its mark (`✗ `, `− `…) on its first row, blank after.
pub const MARK: usize = 2;

/// One row of the `L` overlay.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LeftOutRow {
    /// The item of [`crate::analysis::result::Analysis::left_out`] the row shows; `None` for
    /// the sentence saying there is nothing (yet).
    pub item: Option<usize>,
    /// True on the item's first row (the one its mark leads).
    pub first: bool,
    /// The row's text, without the mark's columns.
    pub text: String,
}

/// The `L` overlay's box on a terminal of `size`: 6 columns and 4 rows short of it (at
/// least 40×6, at most the terminal), centred.
pub fn area(size: (u16, u16)) -> Rect {
    let w = size.0.saturating_sub(6).max(40).min(size.0);
    let h = size.1.saturating_sub(4).max(6).min(size.1);
    Rect::new((size.0 - w) / 2, (size.1 - h) / 2, w, h)
}

/// The overlay's rows at `cols` columns inside its frame: each item's line
/// ([`LeftOut::describe`], session ids shortened) wrapped to the columns after its mark, so
/// a long one reads as one block; or why there is none (`read`: the sessions are read).
pub fn rows(items: &[LeftOut], read: bool, cols: usize) -> Vec<LeftOutRow> {
    let cols = cols.max(MARK + 1);
    if items.is_empty() {
        let none = if read {
            "Nothing left out: no note deleted, and every correction and lasting instruction the user typed in the window is in the memory."
        } else {
            "Still reading the sessions: what the dream left out shows when they are read."
        };
        let rows = text::wrap(none, cols).into_iter();
        return rows.map(|r| LeftOutRow { item: None, first: false, text: none[r].to_string() }).collect();
    }
    let mut out = Vec::new();
    for (i, l) in items.iter().enumerate() {
        let line = crate::base::text::visible_name(&text::short_ids(&l.describe())).into_owned();
        for (n, r) in text::wrap(&line, cols - MARK).into_iter().enumerate() {
            out.push(LeftOutRow { item: Some(i), first: n == 0, text: line[r].trim_end().to_string() });
        }
    }
    out
}

/// How far the `L` overlay scrolls on a terminal of `size`: the rows its box cannot show.
pub fn max_scroll(items: &[LeftOut], read: bool, size: (u16, u16)) -> usize {
    let area = area(size);
    let (cols, inner) = (usize::from(area.width.saturating_sub(2)), usize::from(area.height.saturating_sub(2)));
    rows(items, read, cols).len().saturating_sub(inner.max(1))
}
