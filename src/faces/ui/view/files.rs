//! The file list: status letter, flag mark, name and decided/total per file.

use super::{inner, pane};
use crate::analysis::flag::Severity;
use crate::diff::FileStatus;
use crate::ui::state::App;
use crate::ui::text::{truncate_middle, width};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

/// Draws the file list into `area`.
pub fn draw(app: &App, frame: &mut Frame, area: Rect) {
    let (decided, total) = app.review.progress();
    let title = if app.banner.is_some() {
        format!(" Files {} ", app.review.files.len())
    } else {
        format!(" Files {decided}/{total} ")
    };
    let block = pane(app, title, false);
    frame.render_widget(block, area);
    let body = inner(area);
    let h = body.height as usize;
    if h == 0 {
        return;
    }
    let offset = app.files_offset(h);
    let t = &app.theme;
    let mut lines = Vec::new();
    for (fi, f) in app.review.files.iter().enumerate().skip(offset).take(h) {
        let (status, st_style) = match f.status {
            FileStatus::Modified => ("M", t.text),
            FileStatus::Added => ("A", t.add_mark),
            FileStatus::Deleted => ("D", t.remove_mark),
        };
        let flags: Vec<_> = app
            .analysis
            .findings
            .file(fi)
            .iter()
            .chain(
                (0..f.hunks.len())
                    .flat_map(|hi| app.analysis.hunk_flags(fi, hi).chain(app.analysis.entry_flags(fi, hi))),
            )
            .collect();
        let live_changed = f.hunks.iter().any(|h| h.live_changed);
        let (flag, flag_style) = if live_changed || flags.iter().any(|x| x.severity == Severity::Error) {
            ("⚑", t.error)
        } else if !flags.is_empty() {
            ("⚑", t.warning)
        } else {
            (" ", t.text)
        };
        let d = app.review.file_decisions(fi).iter().filter(|d| d.is_decided()).count();
        let n = f.hunks.len();
        let count = if app.banner.is_some() { format!("{n}") } else { format!("{d}/{n}") };
        let count_style = if d == n { t.accepted } else { t.dim };
        let name_cols = (body.width as usize).saturating_sub(4 + width(&count) + 1);
        let path = crate::ui::text::shown_name(&f.path);
        let name = truncate_middle(&path, name_cols).into_owned();
        let pad = name_cols.saturating_sub(width(&name));
        let mut line = Line::from(vec![
            Span::styled(status, st_style),
            Span::styled(flag, flag_style),
            Span::raw(" "),
            Span::styled(name, t.text),
            Span::raw(" ".repeat(pad + 1)),
            Span::styled(count, count_style),
        ]);
        if fi == app.file {
            line = line.style(t.cursor);
        }
        lines.push(line);
    }
    if app.review.files.is_empty() {
        lines.push(Line::styled("no changes", t.dim));
    }
    frame.render_widget(Paragraph::new(lines), body);
}
