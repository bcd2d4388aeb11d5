//! The status bar: progress, flags left, background work, and the next key to press.

use crate::ui::state::{App, Mode, Progress};
use crate::ui::text::width;
use crate::ui::update::on_changed_line;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

/// Draws the status bar into `area` (one row).
pub fn draw(app: &App, frame: &mut Frame, area: Rect) {
    let t = &app.theme;
    if let Mode::Search(input) = &app.mode {
        let line = Line::from(vec![
            Span::styled("/", t.key),
            Span::raw(input.clone()),
            Span::styled("▏", t.key),
            Span::styled("   Enter search · Esc cancel", t.dim),
        ]);
        frame.render_widget(Paragraph::new(line).style(t.status), area);
        return;
    }
    if let Some((text, hints)) = read_only_status(app) {
        let line = with_hints(app, vec![Span::raw(text)], hints, area.width);
        frame.render_widget(Paragraph::new(line).style(t.status), area);
        return;
    }
    let (decided, total) = app.review.progress();
    if let Some(search) = &app.search
        && app.status.is_none()
        && app.anchor.is_none()
    {
        let line = with_hints(app, vec![Span::raw(search_line(search))], &[("?", "help"), ("q", "quit")], area.width);
        frame.render_widget(Paragraph::new(line).style(t.status), area);
        return;
    }
    // Flags still standing: a rejected hunk's no longer count.
    let s = crate::report::flags_left(&app.review, &app.analysis);
    let mut left = vec![Span::raw(format!(" {decided}/{total} decided "))];
    if s.error > 0 {
        left.push(Span::raw(format!("· ⚑{} error{} ", s.error, if s.error == 1 { "" } else { "s" })));
    }
    if s.warning > 0 {
        left.push(Span::raw(format!("· {} warning{} ", s.warning, if s.warning == 1 { "" } else { "s" })));
    }
    match &app.progress {
        Progress::Running { done, total } if *total > 0 => {
            left.push(Span::raw(format!("· provenance {}% ", done * 100 / total)))
        }
        Progress::Running { .. } => left.push(Span::raw("· checking sources… ")),
        Progress::Failed(e) => left.push(Span::raw(format!("· provenance failed: {e} "))),
        Progress::Done => {}
    }
    if let Some(b) = &app.busy {
        left.push(Span::raw(format!("· {b}… ")));
    }
    if let Some(msg) = &app.status {
        left = vec![Span::styled(format!(" {} ", msg.text), if msg.error { t.error } else { t.status })];
    }
    let hints: &[(&str, &str)] = if app.anchor.is_some() && app.search.is_some() {
        // n is the next match while searching: it does not decide the selection.
        &[("Space", "toggle"), ("y", "accept"), ("Esc", "cancel")]
    } else if app.anchor.is_some() {
        &[("Space", "toggle"), ("y/n", "decide"), ("Esc", "cancel")]
    } else if decided == total && total > 0 {
        &[("c", "commit"), ("u", "undo"), ("?", "help")]
    } else if let Some(r) = app.current_hunk().and_then(|h| app.review.blocked(app.file, h)) {
        // A hunk `y` would refuse: say what can be done with it instead.
        match r {
            crate::review::Refusal::LiveChanged => {
                &[("e", "edit to merge"), ("n", "reject"), ("]", "next"), ("?", "help")]
            }
            _ => &[("n", "reject"), ("]", "next hunk"), ("?", "help")],
        }
    } else if on_changed_line(app) {
        &[("y", "accept"), ("n", "reject"), ("Space", "line"), ("]", "next"), ("?", "help")]
    } else {
        &[("y", "accept"), ("n", "reject"), ("]", "next hunk"), ("f", "flag"), ("?", "help")]
    };
    frame.render_widget(Paragraph::new(with_hints(app, left, hints, area.width)).style(t.status), area);
}

/// An active search: ` /Build 3/7 · n/N next · Esc ends search `.
fn search_line(search: &crate::ui::state::Search) -> String {
    let n = search.matches.len();
    if n == 0 {
        return format!(" /{} no match · Esc ends search ", search.typed);
    }
    let at = search.at.map_or("-".to_string(), |i| (i + 1).to_string());
    format!(" /{} {at}/{n} · n/N next · Esc ends search ", search.typed)
}

/// The status of a screen with nothing to decide: the history list under its overlay, or
/// an opened commit (its hunks are history, not decisions).
fn read_only_status(app: &App) -> Option<(&'static str, &'static [(&'static str, &'static str)])> {
    if app.banner.is_some() {
        return Some((
            " a commit of the history ",
            &[("r", "revert hunk"), ("R", "revert file"), ("]", "next hunk"), ("Esc", "back")],
        ));
    }
    matches!(app.mode, Mode::History(_))
        .then_some((" history ", &[("Enter", "open"), ("r", "revert commit"), ("Esc", "back")]))
}

/// `left`, then as many key hints as fit in `width` columns, right-aligned, most
/// important first.
fn with_hints<'a>(app: &App, left: Vec<Span<'a>>, hints: &[(&str, &str)], width_cols: u16) -> Line<'a> {
    let t = &app.theme;
    let lw: usize = left.iter().map(|s| width(&s.content)).sum();
    let mut right = Vec::new();
    let mut rw = 0;
    for (k, what) in hints {
        let key = format!(" {k}");
        let text = format!(" {what} ");
        let w = width(&key) + width(&text);
        if lw + rw + w > width_cols as usize {
            break;
        }
        right.push(Span::styled(key, t.status.patch(t.key)));
        right.push(Span::raw(text));
        rw += w;
    }
    let mut spans = left;
    spans.push(Span::raw(" ".repeat((width_cols as usize).saturating_sub(lw + rw))));
    spans.extend(right);
    Line::from(spans)
}
