//! The status bar: progress, flags left, background work, and the next key to press.

use crate::faces::ui::state::{App, Mode, Progress};
use crate::faces::ui::text::width;
use crate::faces::ui::update::on_changed_line;
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
        // What the last key said (`b` on a line it cannot explain), or what is being read,
        // in place of the name.
        let left = match (&app.status, &app.busy) {
            (Some(msg), _) => Span::styled(format!(" {} ", msg.text), if msg.error { t.error } else { t.status }),
            (None, Some(b)) => Span::raw(format!(" {b}… ")),
            (None, None) => Span::raw(text),
        };
        let line = with_hints(app, vec![left], hints, area.width);
        frame.render_widget(Paragraph::new(line).style(t.status), area);
        return;
    }
    let (decided, total) = app.review.progress();
    if let Some(search) = &app.search
        && app.status.is_none()
        && app.anchor.is_none()
    {
        // The search says where it is without hiding how far the review is.
        let left = vec![Span::raw(format!(" {decided}/{total} decided ·{}", search_line(search)))];
        let line = with_hints(app, left, &[], area.width);
        frame.render_widget(Paragraph::new(line).style(t.status), area);
        return;
    }
    // Flags still standing: a rejected hunk's no longer count.
    let s = crate::analysis::standing::flags_left(&app.review, &app.analysis);
    let mut left = vec![Span::raw(format!(" {decided}/{total} decided "))];
    if s.error > 0 {
        left.push(Span::raw(format!("· ⚑{} error{} ", s.error, if s.error == 1 { "" } else { "s" })));
    }
    if s.warning > 0 {
        left.push(Span::raw(format!("· {} warning{} ", s.warning, if s.warning == 1 { "" } else { "s" })));
    }
    match &app.progress {
        Progress::Running { done, total, indexing } if *total > 0 => {
            let what = if *indexing { "indexing transcripts" } else { "provenance" };
            left.push(Span::raw(format!("· {what} {}% ", done * 100 / total)))
        }
        Progress::Running { .. } => left.push(Span::raw("· checking sources… ")),
        Progress::Failed(e) => left.push(Span::raw(format!("· provenance failed: {e} "))),
        Progress::Done => {}
    }
    if let Some(b) = &app.busy {
        left.push(Span::raw(format!("· {b}… ")));
    }
    let checking = crate::faces::ui::update::checking(app);
    if !checking.is_empty() {
        left.push(Span::raw(format!("· checking your edit of {}… ", checking.join(", "))));
    }
    if let Some(msg) = &app.status {
        left = vec![Span::styled(format!(" {} ", msg.text), if msg.error { t.error } else { t.status })];
    }
    let hints: &[(&str, &str)] = if app.anchor.is_some() && app.search.is_some() {
        // n is the next match while searching: it does not decide the selection.
        &[("Space", "toggle"), ("y", "accept"), ("Esc", "cancel")]
    } else if app.anchor.is_some() {
        &[("Space", "toggle"), ("y/n", "decide"), ("Esc", "cancel")]
    } else if total == 0 {
        // Nothing to decide (an in-place review whose work tree is back to HEAD).
        &[("h", "history"), ("?", "help")]
    } else if app.review.reviewed.is_some() && !app.dirty {
        // Reviewed, and nothing decided since: a commit would record nothing new.
        &[("A", "decide the rest again"), ("h", "history"), ("?", "help")]
    } else if decided == total {
        &[("c", "commit"), ("u", "undo"), ("?", "help")]
    } else if app.current_hunk().is_some_and(|h| app.is_edited(h)) {
        // The reviewer's own text: what can be done with it.
        &[("e", "edit again"), ("u", "undo"), ("]", "next"), ("?", "help")]
    } else if let Some(r) = app.current_hunk().and_then(|h| app.review.blocked(app.at(h))) {
        // A hunk `y` would refuse: say what can be done with it instead.
        match r {
            crate::model::review::Refusal::LiveChanged => {
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
fn search_line(search: &crate::faces::ui::state::Search) -> String {
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
            " in the history ",
            &[("r", "revert hunk"), ("R", "revert file"), ("]", "next hunk"), ("b", "why"), ("Esc", "back")],
        ));
    }
    matches!(app.mode, Mode::History(_))
        .then_some((" history ", &[("Enter", "open"), ("r", "revert commit"), ("Esc", "back")]))
}

/// The hints every status bar ends with (at [`KEEP_FROM`] columns and more): the way to
/// the keys and the way out are never crowded off.
const ALWAYS: [(&str, &str); 2] = [("?", "help"), ("q", "quit")];

/// From this width on the status bar always ends with [`ALWAYS`].
const KEEP_FROM: u16 = 60;

/// `left`, then as many key hints as fit in `width` columns, right-aligned, most
/// important first, and always `? help` and `q quit` last: other hints give way first,
/// then (for a status message, which is never cut for a hint) those two, then `left` is
/// cut (ending in `…`).
fn with_hints<'a>(app: &App, left: Vec<Span<'a>>, hints: &[(&str, &str)], width_cols: u16) -> Line<'a> {
    let t = &app.theme;
    let cols = width_cols as usize;
    let hint_w = |(k, what): &(&str, &str)| width(&format!(" {k}")) + width(&format!(" {what} "));
    // A read-only screen (history) has its own way back: `q` there closes it.
    let review = app.banner.is_none() && !matches!(app.mode, Mode::History(_));
    let mut always: &[(&str, &str)] = if width_cols >= KEEP_FROM && review { &ALWAYS } else { &[] };
    // A message (what the last key did) is not cut for a hint: every hint gives way first,
    // `? help` and `q quit` too, when that is what lets the message show whole.
    let left_w: usize = left.iter().map(|s| width(&s.content)).sum();
    if app.status.is_some() && left_w <= cols && left_w + always.iter().map(hint_w).sum::<usize>() > cols {
        always = &[];
    }
    let kept: usize = always.iter().map(hint_w).sum();
    // The left text, cut to what the kept hints leave.
    let room = cols.saturating_sub(kept);
    let mut cut = Vec::new();
    let mut lw = 0;
    for span in left {
        let w = width(&span.content);
        if lw + w <= room {
            lw += w;
            cut.push(span);
            continue;
        }
        let rest = room.saturating_sub(lw);
        if rest > 0 {
            let text = crate::faces::ui::text::truncate(&span.content, rest).into_owned();
            lw += width(&text);
            cut.push(Span::styled(text, span.style));
        }
        break;
    }
    let mut chosen: Vec<(&str, &str)> = Vec::new();
    let mut rw = kept;
    for h in hints.iter().filter(|h| !always.iter().any(|a| a.0 == h.0)) {
        let w = hint_w(h);
        if lw + rw + w > cols {
            break;
        }
        chosen.push(*h);
        rw += w;
    }
    chosen.extend(always.iter().copied());
    let mut spans = cut;
    spans.push(Span::raw(" ".repeat(cols.saturating_sub(lw + rw))));
    for (k, what) in chosen {
        spans.push(Span::styled(format!(" {k}"), t.status.patch(t.key)));
        spans.push(Span::raw(format!(" {what} ")));
    }
    Line::from(spans)
}
