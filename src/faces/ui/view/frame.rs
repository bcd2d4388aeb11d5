//! The frame of every pane: a bordered block with its title, the area inside a border,
//! and colours painted over a rectangle.

use super::super::state::App;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::widgets::{Block, BorderType, Borders};

/// A bordered pane with a title; the focused one is drawn in the focus colour.
pub(super) fn pane<'a>(app: &App, title: String, focused: bool) -> Block<'a> {
    let border = if focused { app.theme.border_focus } else { app.theme.border };
    Block::default()
        .borders(Borders::ALL)
        .border_type(BorderType::Rounded)
        .border_style(border)
        .title(ratatui::text::Span::styled(title, if focused { app.theme.border_focus } else { app.theme.dim }))
}

/// The inside of a bordered rectangle.
pub(super) fn inner(r: Rect) -> Rect {
    Rect::new(r.x + 1.min(r.width), r.y + 1.min(r.height), r.width.saturating_sub(2), r.height.saturating_sub(2))
}

/// Paints `style` over a rectangle (keeps the text, patches colours/modifiers).
pub(super) fn paint(frame: &mut Frame, r: Rect, style: Style) {
    let area = frame.area();
    frame.buffer_mut().set_style(r.intersection(area), style);
}
