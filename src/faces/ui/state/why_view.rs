//! The `why` overlay: an answer traced for a line, wrapped and scrolled.

use crate::faces::ui::text;
use ratatui::layout::Rect;

/// The `b` overlay: `dreamreview why` for the line under the cursor, scrollable.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WhyView {
    /// The box's title (`Why ci.md:8`).
    pub title: String,
    /// The text, line by line (no terminators), as [`crate::faces::why::traced`] words it.
    pub lines: Vec<String>,
    /// Rows scrolled (clamped when drawn).
    pub scroll: usize,
}

impl WhyView {
    /// The overlay for what `why` found.
    pub fn new(t: &crate::store::repo::why::Traced) -> WhyView {
        use crate::store::repo::why::Traced;
        let title = match t {
            Traced::Today(e) => match e.groups.first().and_then(|g| g.lines.first()) {
                Some(l) => format!(" Why {}:{} ", text::shown_name(&e.note), l.line),
                None => format!(" Why {} ", text::shown_name(&e.note)),
            },
            Traced::Gone(g) => format!(" Why · no longer in {} ", text::shown_name(&g.note)),
        };
        WhyView { title, lines: crate::faces::why::traced(t), scroll: 0 }
    }

    /// The overlay's box on a terminal of `size`: its whole width (the text is long), as
    /// tall as the text (at most the terminal), centred; its keys sit on its frame.
    pub fn area(&self, size: (u16, u16)) -> Rect {
        let rows = self.rows(usize::from(size.0.saturating_sub(2))).len();
        let h = u16::try_from(rows + 2).unwrap_or(u16::MAX).min(size.1);
        Rect::new(0, (size.1 - h) / 2, size.0, h)
    }

    /// The rows the text takes at `cols` columns: session ids shortened as the evidence
    /// pane shortens them, a long line wrapped under its own indentation (two more).
    pub fn rows(&self, cols: usize) -> Vec<String> {
        let cols = cols.max(1);
        let mut out = Vec::new();
        for line in &self.lines {
            let line = text::short_ids(line);
            let Some(first) = text::wrap(&line, cols).into_iter().next() else { continue };
            out.push(line[first.clone()].to_string());
            let rest = line[first.end..].trim_start_matches(' ');
            if rest.is_empty() {
                continue;
            }
            let indent = line.len() - line.trim_start_matches(' ').len();
            let hang = (indent + 2).min(cols / 2);
            for r in text::wrap(rest, cols - hang) {
                out.push(format!("{}{}", " ".repeat(hang), &rest[r]));
            }
        }
        out
    }

    /// How far the text scrolls on a terminal of `size`: the rows its box cannot show.
    pub fn max_scroll(&self, size: (u16, u16)) -> usize {
        let area = self.area(size);
        let inner = (usize::from(area.width.saturating_sub(2)), usize::from(area.height.saturating_sub(2)));
        self.rows(inner.0).len().saturating_sub(inner.1)
    }
}
