//! Pane geometry: where the file list, the diff and the evidence pane go.

use ratatui::layout::Rect;

/// Where each pane is on screen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Panes {
    /// The file list.
    pub files: Rect,
    /// The diff.
    pub diff: Rect,
    /// The evidence pane.
    pub evidence: Rect,
    /// The one-line status bar.
    pub status: Rect,
}

/// The file list's width: enough for the longest name (`names` columns) plus marks and
/// counts, within 16 columns and a quarter of the screen (a fifth on wide screens).
pub(super) fn files_width(width: u16, names: usize) -> u16 {
    let want = u16::try_from(names + 10).unwrap_or(u16::MAX);
    let cap = if width >= 150 { width / 5 } else { (width / 4).max(16) };
    want.clamp(16.min(width), cap.max(16).min(width))
}

/// Pane geometry: on wide terminals (≥ 150 columns) files | diff | evidence side by side;
/// otherwise the evidence sits under the diff, which takes the `diff_rows` it needs (when
/// known) within a third to three fifths of the height.
pub fn layout(area: Rect, names: usize, diff_rows: Option<usize>) -> Panes {
    let status = Rect::new(area.x, area.y + area.height.saturating_sub(1), area.width, area.height.min(1));
    let body_h = area.height.saturating_sub(1);
    let files_w = files_width(area.width, names);
    let files = Rect::new(area.x, area.y, files_w, body_h);
    let rest_x = area.x + files_w;
    let rest_w = area.width.saturating_sub(files_w);
    if area.width >= 150 {
        let ev_w = rest_w * 2 / 5;
        let diff = Rect::new(rest_x, area.y, rest_w - ev_w, body_h);
        let evidence = Rect::new(rest_x + rest_w - ev_w, area.y, ev_w, body_h);
        Panes { files, diff, evidence, status }
    } else {
        // The diff gets what it needs (borders included), between a third and three fifths
        // of the height; the evidence pane the rest.
        let max_diff = body_h * 3 / 5;
        let min_diff = (body_h / 3).min(max_diff);
        let diff_h = match diff_rows {
            Some(n) => u16::try_from(n + 2).unwrap_or(u16::MAX).clamp(min_diff, max_diff),
            None => max_diff,
        };
        let ev_h = body_h - diff_h;
        let diff = Rect::new(rest_x, area.y, rest_w, body_h - ev_h);
        let evidence = Rect::new(rest_x, area.y + body_h - ev_h, rest_w, ev_h);
        Panes { files, diff, evidence, status }
    }
}
