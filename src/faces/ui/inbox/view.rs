//! Draws the inbox: a title, one line per waiting dream (project, day, kind, files and
//! hunks, errors and warnings, and a note: transcripts Claude Code deletes soon, no git,
//! an error), the selected row's folders, and the status bar with the keys.

use super::{Inbox, Slot};
use crate::inputs::inbox::{Candidate, PlaceKind};
use crate::store::waiting::{Row, State};
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph, Wrap};

/// Draws the whole screen.
pub fn view(app: &Inbox, frame: &mut Frame) {
    let t = &app.theme;
    let [title, list, detail, status] =
        Layout::vertical([Constraint::Length(1), Constraint::Min(3), Constraint::Length(4), Constraint::Length(1)])
            .areas(frame.area());
    let shown = app.shown();
    let waiting = shown.iter().filter(|s| matches!(s, Slot::Waiting(_))).count();
    let (done, total) = app.progress();
    let head = if app.scanning {
        " dreamreview inbox · looking for dreams…".to_string()
    } else if done < total {
        format!(" dreamreview inbox · {waiting} waiting so far · checking {} of {total}…", done + 1)
    } else {
        format!(" dreamreview inbox · {waiting} dream{} waiting", if waiting == 1 { "" } else { "s" })
    };
    frame.render_widget(Paragraph::new(Line::styled(head, t.header)), title);

    let widths = columns(list.width);
    let mut lines = vec![Line::styled(
        format!(
            "  {:<pw$} {:<10} {:<9} {:>5} {:>5} {:>6} {:>5}  {}",
            "PROJECT",
            "DAY",
            "KIND",
            "FILES",
            "HUNKS",
            "ERRORS",
            "WARN",
            "NOTE",
            pw = widths
        ),
        t.dim,
    )];
    if !app.scanning && shown.is_empty() && done == total {
        lines.push(Line::styled(
            "  Nothing waits: no dream folder, no memory folder with changes. `dreamreview dream` makes one.",
            t.dim,
        ));
    }
    let room = usize::from(list.height.saturating_sub(3));
    let first = app.cursor.saturating_sub(room.saturating_sub(1));
    for (i, slot) in shown.iter().enumerate().skip(first).take(room) {
        let selected = i == app.cursor;
        lines.push(row_line(slot, widths, selected, t));
    }
    let block = Block::default().borders(Borders::TOP | Borders::BOTTOM).border_style(t.border);
    frame.render_widget(Paragraph::new(lines).block(block), list);

    let about = shown.get(app.cursor).map(|s| detail_lines(s, t)).unwrap_or_default();
    frame.render_widget(Paragraph::new(about).wrap(Wrap { trim: false }), detail);

    let mut bar = Vec::new();
    match &app.status {
        Some((text, error)) => bar.push(Span::styled(format!(" {text} "), if *error { t.error } else { t.status })),
        None => bar.push(Span::raw(" ")),
    }
    for (k, what) in [("Enter", "review"), ("j/k", "move"), ("r", "rescan"), ("q", "quit")] {
        bar.push(Span::styled(format!(" {k}"), t.key));
        bar.push(Span::raw(format!(" {what} ")));
    }
    frame.render_widget(Paragraph::new(Line::from(bar)).style(t.status), status);
}

/// The project column's width for a screen `width` wide.
fn columns(width: u16) -> usize {
    (usize::from(width) / 4).clamp(12, 36)
}

fn place(slot: &Slot) -> Option<&Candidate> {
    match slot {
        Slot::Checking(c) => Some(c),
        Slot::Waiting(r) => Some(&r.place),
        Slot::Nothing => None,
    }
}

fn kind(k: PlaceKind) -> &'static str {
    match k {
        PlaceKind::DreamFolder => "dream",
        PlaceKind::ClaudeMemory => "in place",
        PlaceKind::OpenClaw => "openclaw",
    }
}

fn cut(s: &str, w: usize) -> String {
    if crate::faces::ui::text::width(s) <= w {
        return format!("{s:<w$}");
    }
    let mut out = String::new();
    for c in s.chars() {
        if crate::faces::ui::text::width(&out) + crate::faces::ui::text::width(c.encode_utf8(&mut [0; 4])) + 1 > w {
            break;
        }
        out.push(c);
    }
    out.push('…');
    let pad = w.saturating_sub(crate::faces::ui::text::width(&out));
    out + &" ".repeat(pad)
}

fn row_line<'a>(slot: &Slot, pw: usize, selected: bool, t: &crate::faces::ui::theme::Theme) -> Line<'a> {
    let Some(p) = place(slot) else { return Line::default() };
    let day = p.date.map(|d| d.to_string()).unwrap_or_else(|| "—".into());
    let mark = if selected { "▶ " } else { "  " };
    let lead = format!("{mark}{} {day:<10} {:<9} ", cut(&p.project, pw), kind(p.kind));
    let mut spans = vec![Span::raw(lead)];
    match slot {
        Slot::Checking(_) => spans.push(Span::styled("checking…", t.dim)),
        Slot::Waiting(row) => spans.extend(state_spans(row, t)),
        Slot::Nothing => {}
    }
    let line = Line::from(spans);
    if selected { line.style(t.cursor) } else { line }
}

fn state_spans<'a>(row: &Row, t: &crate::faces::ui::theme::Theme) -> Vec<Span<'a>> {
    let mut spans = Vec::new();
    match &row.state {
        State::Ready { files, hunks, errors, warnings } => {
            spans.push(Span::raw(format!("{files:>5} {hunks:>5} ")));
            spans.push(Span::styled(format!("{errors:>6}"), if *errors > 0 { t.error } else { Style::default() }));
            spans.push(Span::styled(
                format!(" {warnings:>5}"),
                if *warnings > 0 { t.warning } else { Style::default() },
            ));
        }
        State::NotUnderGit { .. } => {
            spans.push(Span::styled("    —     —      —     —  no git: snapshot --init", t.warning))
        }
        State::Failed { .. } => spans.push(Span::styled("    —     —      —     —  cannot load (see below)", t.error)),
        State::Checking => spans.push(Span::styled("checking…", t.dim)),
    }
    if let Some(e) = row.expiring {
        let when = match e.days_left {
            ..=0 => "due for deletion".to_string(),
            1 => "deleted in 1 day".to_string(),
            n => format!("deleted in {n} days"),
        };
        spans.push(Span::styled(format!("  ⌛ transcripts {when}"), t.warning));
    }
    spans
}

fn expiring_text(n: usize, left: i64) -> String {
    let which = if n == 1 { "1 transcript".to_string() } else { format!("{n} transcripts") };
    format!("{which} {}", crate::inputs::retention::short(left))
}

fn detail_lines<'a>(slot: &Slot, t: &crate::faces::ui::theme::Theme) -> Vec<Line<'a>> {
    let Some(p) = place(slot) else { return Vec::new() };
    let mut out = Vec::new();
    if let Some(d) = &p.dream {
        out.push(Line::from(vec![Span::styled(" dream  ", t.dim), Span::raw(d.display().to_string())]));
    }
    let memory = match &p.memory {
        Some(m) => m.display().to_string(),
        None => "the folder its memory.diff names".into(),
    };
    out.push(Line::from(vec![Span::styled(" memory ", t.dim), Span::raw(memory)]));
    if let Slot::Waiting(row) = slot {
        match &row.state {
            State::NotUnderGit { hint } => out.push(Line::styled(format!(" {hint}"), t.warning)),
            State::Failed { error } => out.push(Line::styled(format!(" {error}"), t.error)),
            _ => {}
        }
        if let Some(e) = row.expiring {
            out.push(Line::styled(
                format!(
                    " {}: review it while its sources can still be read (the review commit keeps the cited lines)",
                    expiring_text(e.transcripts, e.days_left)
                ),
                t.warning,
            ));
        }
    }
    out
}
