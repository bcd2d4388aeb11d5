//! Overlays drawn over the panes: help, the quit question, the commit message preview.

use crate::ui::keymap::BINDINGS;
use crate::ui::state::App;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, BorderType, Borders, Clear, Paragraph, Wrap};

fn centered(frame: &Frame, w: u16, h: u16) -> Rect {
    let a = frame.area();
    let w = w.min(a.width);
    let h = h.min(a.height);
    Rect::new(a.x + (a.width - w) / 2, a.y + (a.height - h) / 2, w, h)
}

fn boxed<'a>(app: &App, title: &'a str) -> Block<'a> {
    Block::default()
        .borders(Borders::ALL)
        .border_type(BorderType::Rounded)
        .border_style(app.theme.border_focus)
        .title(title)
}

/// The `?` overlay: every key binding from the keymap table.
pub fn help(app: &App, frame: &mut Frame) {
    let t = &app.theme;
    let two = frame.area().width >= 100;
    let rows = if two { BINDINGS.len().div_ceil(2) } else { BINDINGS.len() };
    let mut lines = Vec::new();
    for r in 0..rows {
        let mut spans = Vec::new();
        for col in 0..if two { 2 } else { 1 } {
            if let Some(b) = BINDINGS.get(r + col * rows) {
                spans.push(Span::styled(format!(" {:>9} ", b.label), t.key));
                spans.push(Span::styled(format!("{:<38}", b.help), t.text));
            }
        }
        lines.push(Line::from(spans));
    }
    lines.push(Line::raw(""));
    lines.push(Line::styled(" Mouse: click selects, wheel scrolls.  Any key closes this help.", t.dim));
    let w = if two { 100 } else { 52 };
    let area = centered(frame, w, lines.len() as u16 + 2);
    frame.render_widget(Clear, area);
    frame.render_widget(Paragraph::new(lines).block(boxed(app, " Keys ")), area);
}

/// `q` with uncommitted decisions.
pub fn confirm_quit(app: &App, frame: &mut Frame) {
    let t = &app.theme;
    let lines = vec![
        Line::styled("Your decisions are not committed yet.", t.text),
        Line::styled("They are saved, and reopening this dream restores them.", t.dim),
        Line::raw(""),
        Line::from(vec![
            Span::styled(" y ", t.key),
            Span::raw("quit   "),
            Span::styled(" any other key ", t.key),
            Span::raw("stay"),
        ]),
    ];
    let area = centered(frame, 60, 6);
    frame.render_widget(Clear, area);
    frame.render_widget(Paragraph::new(lines).block(boxed(app, " Quit? ")).wrap(Wrap { trim: false }), area);
}

/// `c`: the commit message that will be used.
pub fn commit(app: &App, frame: &mut Frame, message: &str, scroll: usize) {
    let t = &app.theme;
    let a = frame.area();
    let area = centered(frame, a.width.saturating_sub(8).max(40), a.height.saturating_sub(4).max(8));
    let mut lines: Vec<Line> = crate::text::split_lines(message)
        .into_iter()
        .map(|l| Line::raw(crate::text::strip_terminator(l).to_string()))
        .collect();
    lines.push(Line::raw(""));
    lines.push(Line::from(vec![
        Span::styled(" Enter ", t.key),
        Span::raw("commit   "),
        Span::styled(" Esc ", t.key),
        Span::raw("back to the review"),
    ]));
    frame.render_widget(Clear, area);
    let p = Paragraph::new(lines)
        .block(boxed(app, " Commit to the memory repository "))
        .wrap(Wrap { trim: false })
        .scroll((scroll.min(u16::MAX as usize) as u16, 0));
    frame.render_widget(p, area);
}
