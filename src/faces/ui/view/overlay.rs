//! Overlays drawn over the panes: help, the quit question, the commit message preview, why
//! a line says what it says.

use crate::faces::ui::keymap::{self, BINDINGS};
use crate::faces::ui::state::App;
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
pub fn help(app: &App, frame: &mut Frame, scroll: usize) {
    let t = &app.theme;
    let size = (frame.area().width, frame.area().height);
    let columns = keymap::help_columns(size.0);
    let two = columns == 2;
    let rows = keymap::help_rows(size.0) - 2;
    let mut lines = Vec::new();
    for r in 0..rows {
        let mut spans = Vec::new();
        for col in 0..columns {
            if let Some(b) = BINDINGS.get(r + col * rows) {
                spans.push(Span::styled(format!(" {:>9} ", b.label), t.key));
                spans.push(Span::styled(format!("{:<38}", b.help), t.text));
            }
        }
        lines.push(Line::from(spans));
    }
    lines.push(Line::raw(""));
    let close = if keymap::help_overflows(size) {
        " j/k scroll · any other key closes · mouse works"
    } else {
        " Mouse: click selects, wheel scrolls.  Any key closes this help."
    };
    lines.push(Line::styled(close, t.dim));
    let w = if two { 100 } else { 52 };
    let area = centered(frame, w, lines.len() as u16 + 2);
    // Taller than the terminal: j/k scroll it, and the title says what is hidden.
    let inner = usize::from(area.height.saturating_sub(2)).max(1);
    let scroll = scroll.min(keymap::help_max_scroll(size));
    let title = if lines.len() > inner {
        let (first, last) = (scroll + 1, (scroll + inner).min(lines.len()));
        let more = if last < lines.len() { " · j ↓ more" } else { "" };
        let less = if scroll > 0 { " · k ↑" } else { "" };
        format!(" Keys {first}–{last} of {}{more}{less} ", lines.len())
    } else {
        " Keys ".to_string()
    };
    frame.render_widget(Clear, area);
    let scroll_rows = u16::try_from(scroll).unwrap_or(u16::MAX);
    frame.render_widget(Paragraph::new(lines).block(boxed(app, &title)).scroll((scroll_rows, 0)), area);
}

/// `c`: the commit message that will be used.
pub fn commit(app: &App, frame: &mut Frame, message: &str, scroll: usize) {
    let t = &app.theme;
    let a = frame.area();
    let area = centered(frame, a.width.saturating_sub(8).max(40), a.height.saturating_sub(4).max(8));
    // Where the commit goes first: for the demo, a temporary copy (so it can be found).
    let memory = crate::base::text::visible_name(&app.review.inputs.memory.display().to_string()).into_owned();
    let mut lines: Vec<Line> =
        vec![Line::from(vec![Span::styled("Memory repository: ", t.dim), Span::styled(memory, t.key)])];
    if app.throwaway.is_some() {
        lines.push(Line::styled(
            "(the demo's temporary copy: deleted when you quit; `dreamreview demo --keep DIR` keeps one)",
            t.dim,
        ));
    }
    lines.push(Line::raw(""));
    lines.extend(
        crate::base::text::split_lines(message)
            .into_iter()
            .map(|l| Line::raw(crate::base::text::strip_terminator(l).to_string())),
    );
    // The keys sit on the frame, so a message longer than the box never hides them.
    let keys =
        key_hints(t, &[("Enter", "commit  "), ("e", "edit  "), ("Esc", "back to the review  "), ("j/k", "scroll ")]);
    frame.render_widget(Clear, area);
    let p = Paragraph::new(lines)
        .block(boxed(app, " Commit to the memory repository ").title_bottom(keys))
        .wrap(Wrap { trim: false })
        .scroll((scroll.min(u16::MAX as usize) as u16, 0));
    frame.render_widget(p, area);
}

/// `b`: why the line under the cursor says what it says, wrapped to the box and scrolled;
/// the title says what is hidden above and below.
pub fn why(app: &App, frame: &mut Frame, w: &crate::faces::ui::state::WhyView) {
    let t = &app.theme;
    let size = (frame.area().width, frame.area().height);
    let area = w.area(size).intersection(frame.area());
    let cols = usize::from(area.width.saturating_sub(2)).max(1);
    let inner = usize::from(area.height.saturating_sub(2));
    let scroll = w.scroll.min(w.max_scroll(size));
    let all = w.rows(cols);
    let total = all.len();
    let rows: Vec<Line> = all.into_iter().skip(scroll).take(inner).map(|r| Line::styled(r, t.text)).collect();
    let mut keys = vec![Span::styled(" Esc ", t.key), Span::raw("close ")];
    if total > inner {
        let (first, last) = (scroll + 1, (scroll + inner).min(total));
        keys.extend([Span::styled(" j/k ", t.key), Span::raw(format!("scroll · {first}–{last} of {total} "))]);
    }
    frame.render_widget(Clear, area);
    let title = crate::faces::ui::text::truncate(&w.title, cols).into_owned();
    frame.render_widget(Paragraph::new(rows).block(boxed(app, &title).title_bottom(Line::from(keys))), area);
}

/// A yes/no box: the text lines, then `y <yes>` / `any other key <no>`.
fn ask(
    app: &App,
    frame: &mut Frame,
    title: &str,
    mut lines: Vec<Line<'static>>,
    yes: &str,
    no: &str,
    size: (u16, u16),
) {
    let t = &app.theme;
    lines.push(Line::raw(""));
    lines.push(Line::from(vec![
        Span::styled(" y ", t.key),
        Span::raw(format!("{yes}   ")),
        Span::styled(" any other key ", t.key),
        Span::raw(no.to_string()),
    ]));
    let area = centered(frame, size.0, size.1);
    frame.render_widget(Clear, area);
    frame.render_widget(Paragraph::new(lines).block(boxed(app, title)).wrap(Wrap { trim: false }), area);
}

/// `q` with uncommitted decisions.
pub fn confirm_quit(app: &App, frame: &mut Frame) {
    let t = &app.theme;
    let after = match &app.throwaway {
        Some(dir) => format!(
            "This demo's copy ({}) is deleted when you quit; `dreamreview demo --keep DIR` keeps one.",
            dir.display()
        ),
        None if app.saves => "They are saved, and reopening this dream restores them.".to_string(),
        None => match app.review.target.refusal() {
            Some(_) => "They are not saved: this review may not write to its memory folder, so quitting loses them."
                .to_string(),
            None => format!(
                "They are not saved: {} is in no git repository, so quitting loses them (c commits them, offering git init).",
                app.review.inputs.memory.display()
            ),
        },
    };
    let lines = vec![Line::styled("Your decisions are not committed yet.", t.text), Line::styled(after, t.dim)];
    let size = if app.throwaway.is_some() || !app.saves { (72, 9) } else { (60, 6) };
    ask(app, frame, " Quit? ", lines, "quit", "stay", size);
}

/// `y`/`a`/`Space` on content carrying an error-level flag: the question, sized to it.
pub fn confirm_accept(app: &App, frame: &mut Frame, question: &[String]) {
    let t = &app.theme;
    let w = frame.area().width.saturating_sub(4).clamp(20, 76);
    let inner = usize::from(w.saturating_sub(2)).max(1);
    let rows: usize = question.iter().map(|q| crate::faces::ui::text::width(q).div_ceil(inner).max(1)).sum();
    let lines = question.iter().map(|q| Line::styled(q.clone(), t.text)).collect();
    let h = u16::try_from(rows + 4).unwrap_or(u16::MAX);
    ask(app, frame, " Error flag ", lines, "accept anyway", "cancel: nothing decided", (w, h));
}

/// `c` without a repository: offers to create one.
pub fn confirm_init(app: &App, frame: &mut Frame) {
    let t = &app.theme;
    let lines = vec![
        Line::styled(format!("{} is not in a git repository.", app.review.inputs.memory.display()), t.text),
        Line::styled(
            "Create one now? git init, then a first commit of the notes exactly as they are: nothing changes, nothing is lost.",
            t.dim,
        ),
    ];
    ask(app, frame, " Memory repository ", lines, "create and continue", "cancel", (70, 8));
}

/// A one-question box (`y` confirms).
pub fn question(app: &App, frame: &mut Frame, title: &str, text: &str) {
    ask(app, frame, title, vec![Line::styled(text.to_string(), app.theme.text)], "yes", "no", (70, 6));
}

/// `h`: the commits of the memory repository, review commits with their counts.
pub fn history(app: &App, frame: &mut Frame, h: &crate::faces::ui::state::HistoryState) {
    use crate::store::repo::history::CommitKind;
    let t = &app.theme;
    let a = frame.area();
    let area = Rect::new(a.x, a.y, a.width, a.height.saturating_sub(1));
    let inner_h = area.height.saturating_sub(3) as usize;
    let offset = h.selected.unwrap_or(0).saturating_sub(inner_h.saturating_sub(1));
    let mut lines = Vec::new();
    for (i, e) in h.entries.iter().enumerate().skip(offset).take(inner_h) {
        let (kind, style) = match e.kind {
            CommitKind::Review => ("review  ", t.accepted),
            CommitKind::Revert => ("revert  ", t.rejected),
            CommitKind::Snapshot => ("snapshot", t.dim),
            CommitKind::Other => ("        ", t.dim),
        };
        let counts = e.review.as_ref().map(|r| format!("  [{}]", r.trailer())).unwrap_or_default();
        let mut line = Line::from(vec![
            Span::styled(format!(" {} ", e.short), t.key),
            Span::styled(format!("{} ", e.date), t.dim),
            Span::styled(kind, style),
            Span::raw(format!(" {}", e.summary)),
            Span::styled(counts, t.dim),
        ]);
        if h.selected == Some(i) {
            line = line.style(t.cursor);
        }
        lines.push(line);
    }
    lines.push(Line::raw(""));
    lines.push(key_hints(
        t,
        &[("Enter", "show the diff   "), ("r", "revert the whole commit   "), ("Esc", "back to the review")],
    ));
    frame.render_widget(Clear, area);
    frame.render_widget(Paragraph::new(lines).block(boxed(app, " History of the memory repository ")), area);
}

/// A line of key hints: each key in the key style, padded, then what it does.
fn key_hints(t: &crate::faces::ui::theme::Theme, hints: &[(&str, &'static str)]) -> Line<'static> {
    Line::from(
        hints
            .iter()
            .flat_map(|(k, what)| [Span::styled(format!(" {k} "), t.key), Span::raw(*what)])
            .collect::<Vec<_>>(),
    )
}

/// `L`: what the dream left out — deleted notes first (with the sessions that read them),
/// then the user's corrections and lasting instructions the resulting memory does not hold
/// (✗ on one an added line contradicts: `correction-lost`); each item's rows as
/// [`left_out::rows`] wraps them, under its text.
pub fn left_out(app: &App, frame: &mut Frame, scroll: usize) {
    use crate::analysis::provenance::leftout::LeftOutState;
    use crate::faces::ui::state::left_out::{self, MARK};
    let t = &app.theme;
    let size = (frame.area().width, frame.area().height);
    let read = matches!(app.progress, crate::faces::ui::state::Progress::Done);
    let area = left_out::area(size).intersection(frame.area());
    let rows = left_out::rows(&app.analysis.left_out, read, usize::from(area.width.saturating_sub(2)));
    let lines: Vec<Line> = rows
        .into_iter()
        .map(|r| {
            let Some(l) = r.item.and_then(|i| app.analysis.left_out.get(i)) else {
                return Line::styled(r.text, t.dim);
            };
            let (mark, style) = match l.state {
                LeftOutState::Contradicted if l.flagged => ("✗", t.error),
                LeftOutState::Contradicted => ("≠", t.warning),
                LeftOutState::Deleted => ("−", t.remove_mark),
                LeftOutState::Missing => ("·", t.dim),
            };
            let mark = if r.first { format!("{mark:<MARK$}") } else { " ".repeat(MARK) };
            Line::from(vec![Span::styled(mark, style), Span::styled(r.text, t.text)])
        })
        .collect();
    let scroll = scroll.min(left_out::max_scroll(&app.analysis.left_out, read, size));
    let title = format!(" Left out ({}) · j/k scroll · any other key closes ", app.analysis.left_out.len());
    frame.render_widget(Clear, area);
    let scroll_rows = u16::try_from(scroll).unwrap_or(u16::MAX);
    frame.render_widget(Paragraph::new(lines).block(boxed(app, &title)).scroll((scroll_rows, 0)), area);
}
