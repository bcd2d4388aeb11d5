//! The file list: status letter, flag mark, name and decided/total per file.

use super::frame::{inner, pane};
use crate::analysis::flag::Severity;
use crate::faces::ui::state::{App, FileOrder};
use crate::faces::ui::text::{truncate_middle, width};
use crate::model::diff::FileStatus;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

/// Draws the file list into `area`.
pub fn draw(app: &App, frame: &mut Frame, area: Rect) {
    let (decided, total) = app.review.progress();
    let by_risk = app.order == FileOrder::Risk;
    let word = if by_risk { "By risk" } else { "Files" };
    let title = if app.banner.is_some() {
        format!(" {word} {} ", app.review.files.len())
    } else {
        format!(" {word} {decided}/{total} ")
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
    // Every name in the columns the widest count leaves, told apart from the others.
    let digits = |f: &crate::model::diff::FileDiff| f.hunks.len().to_string().len();
    let each = |f: &crate::model::diff::FileDiff| if app.banner.is_some() { digits(f) } else { digits(f) * 2 + 1 };
    let widest = app.review.files.iter().map(each).max().unwrap_or(3);
    let name_cols = (body.width as usize).saturating_sub(4 + widest + 1);
    let paths: Vec<String> = app.review.files.iter().map(|f| crate::faces::ui::text::shown_name(&f.path)).collect();
    // By risk, each row says why it stands there: the flag kind (a word for a deletion)
    // before the name on a wide list; on a narrow one, three letters in place of the count
    // (the title keeps the total).
    let wide = body.width >= 30;
    let tags: Vec<String> = if by_risk {
        (0..app.review.files.len())
            .map(|fi| {
                let t = app.triage(fi);
                if wide { format!("{} ", truncate_middle(&t.reason, 20)) } else { t.risk.short().to_string() }
            })
            .collect()
    } else {
        vec![String::new(); app.review.files.len()]
    };
    let tag_cols = if wide { tags.iter().map(|t| width(t)).max().unwrap_or(0) } else { 0 };
    let name_cols = name_cols.saturating_sub(tag_cols);
    let names = distinct(&paths, name_cols);
    let order = app.file_order();
    for &fi in order.iter().skip(offset).take(h) {
        let f = &app.review.files[fi];
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
                app.review.hunks_of(fi).flat_map(|at| app.analysis.hunk_flags(at).chain(app.analysis.entry_flags(at))),
            )
            .collect();
        let live_changed = f.hunks.iter().any(|h| h.live_changed);
        // The mark says which, without colour (`NO_COLOR`): ✖ an error, ⚠ warnings only.
        let (flag, flag_style) = if live_changed || flags.iter().any(|x| x.severity == Severity::Error) {
            ("✖", t.error)
        } else if flags.iter().any(|x| x.severity == Severity::Warning) {
            ("⚠", t.warning)
        } else {
            (" ", t.text)
        };
        let tally = app.review.file_tally(fi);
        let (d, n) = (tally.decided(), tally.total());
        let count = if by_risk && !wide {
            format!("{:<3}", tags[fi])
        } else if app.banner.is_some() {
            format!("{n}")
        } else {
            format!("{d}/{n}")
        };
        let count_style = if by_risk && !wide {
            flag_style
        } else if d == n {
            t.accepted
        } else {
            t.dim
        };
        let name = names[fi].clone();
        let tag = if wide { format!("{:<tag_cols$}", tags[fi]) } else { String::new() };
        let pad =
            (body.width as usize).saturating_sub(4 + width(&count) + 1 + width(&tag)).saturating_sub(width(&name));
        let mut line = Line::from(vec![
            Span::styled(status, st_style),
            Span::styled(flag, flag_style),
            Span::raw(" "),
            Span::styled(tag, flag_style),
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

/// `paths` shortened from the middle to `cols` columns so that no two look the same: each
/// is cut as [`truncate_middle`] cuts it, and a name that would read like another keeps
/// more of its end (where notes of one family differ: `proj…one.md`), then more of its
/// start, until every one is distinct. Names that fit are shown whole.
pub fn distinct(paths: &[String], cols: usize) -> Vec<String> {
    let mut out: Vec<String> = paths.iter().map(|p| truncate_middle(p, cols).into_owned()).collect();
    let clash = |out: &[String], i: usize| out.iter().enumerate().any(|(j, o)| j != i && *o == out[i]);
    for i in 0..out.len() {
        if !clash(&out, i) {
            continue;
        }
        let room = cols.saturating_sub(1);
        // First the name without what it shares with the names it clashes with (`…alp…ne.md`
        // for `project-alpha-timeline.md` beside `project-beta-timeline.md`), then every
        // split of the room between its start and its end.
        let common = paths
            .iter()
            .enumerate()
            .filter(|&(j, _)| j != i && out[j] == out[i])
            .map(|(_, p)| common_prefix(p, &paths[i]))
            .min()
            .unwrap_or(0);
        let rest = &paths[i][common..];
        let stripped = (common > 0).then(|| format!("…{}", truncate_middle(rest, cols.saturating_sub(1))));
        let splits = (0..=room).rev().map(|head| cut(&paths[i], head, room - head));
        let forms: Vec<String> = stripped.into_iter().chain(splits).collect();
        // The first form no other name has and no other path would be shortened to.
        let unique = forms.into_iter().find(|f| {
            out.iter().enumerate().all(|(j, o)| j == i || o != f)
                && paths.iter().enumerate().all(|(j, p)| j == i || !same_cut(p, f, room))
        });
        if let Some(f) = unique {
            out[i] = f;
        }
    }
    out
}

/// The byte length of the start `a` and `b` share, ending on a character boundary.
fn common_prefix(a: &str, b: &str) -> usize {
    a.char_indices()
        .zip(b.chars())
        .take_while(|((_, x), y)| x == y)
        .map(|((i, x), _)| i + x.len_utf8())
        .last()
        .unwrap_or(0)
}

/// `head` columns of `s`, `…`, its last `tail` columns (`s` itself when it fits).
fn cut(s: &str, head: usize, tail: usize) -> String {
    if width(s) <= head + tail + 1 {
        return s.to_string();
    }
    let start = crate::faces::ui::text::fit(s, head);
    let mut end = s.len();
    let mut used = 0;
    for (i, c) in s.char_indices().rev() {
        let w = width(&c.to_string());
        if used + w > tail {
            break;
        }
        used += w;
        end = i;
    }
    format!("{}…{}", &s[..start], &s[end..])
}

/// True when `p` cut like `form` (the same head and tail widths) reads as `form`.
fn same_cut(p: &str, form: &str, room: usize) -> bool {
    match form.split_once('…') {
        Some((head, _)) => {
            let h = width(head);
            cut(p, h, room.saturating_sub(h)) == form
        }
        None => p == form,
    }
}
