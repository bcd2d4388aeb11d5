//! The diff pane: hunk headers, lines with their decision marks and numbers, syntax colours,
//! word-level emphasis inside changed lines, flagged claims and search matches highlighted;
//! unified or side by side, soft-wrapped or cut.

use super::frame::{inner, paint, pane};
use crate::analysis::flag::Severity;
use crate::faces::ui::state::{App, Focus, GUTTER, RowKind};
use crate::faces::ui::text::{fit, wrap};
use crate::model::decision::{Decision, HunkState};
use crate::model::diff::{FileKind, Hunk, Op};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;
use similar::{Algorithm, ChangeTag};
use std::ops::Range;

/// Draws the current file's diff into `area`.
pub fn draw(app: &App, frame: &mut Frame, area: Rect) {
    let t = &app.theme;
    let title = match app.current_file() {
        Some(f) => {
            let mut modes = Vec::new();
            if app.side_by_side {
                modes.push("side-by-side");
            }
            if !app.wrap {
                modes.push("no wrap");
            }
            let modes = if modes.is_empty() { String::new() } else { format!(" · {}", modes.join(" · ")) };
            format!(" {} · {}{modes} ", crate::faces::ui::text::shown_name(&f.path), status_word(f))
        }
        None => " Diff ".to_string(),
    };
    frame.render_widget(pane(app, title, app.focus == Focus::Diff), area);
    let body = inner(area);
    let Some(file) = app.current_file() else {
        let msg = "The dream changes nothing: live memory already matches the proposal.";
        frame.render_widget(Paragraph::new(Line::styled(msg, t.dim)), body);
        return;
    };
    let mut y = body.y;
    let mut row = app.scroll;
    let sel = app.anchor.map(|a| (a.min(app.cursor), a.max(app.cursor)));
    while y < body.y + body.height && row < app.rows.len() {
        let h = app.row_height(row);
        if h == 0 {
            row += 1;
            continue;
        }
        let avail = (body.y + body.height - y) as usize;
        let rect = Rect::new(body.x, y, body.width, h.min(avail) as u16);
        let r = app.rows[row];
        let Some(hunk) = app.hunk(r.hunk) else { break };
        match r.kind {
            RowKind::Header => header(app, frame, rect, r.hunk, hunk),
            RowKind::Whole => whole(app, frame, rect, r.hunk, file),
            RowKind::Line(i) => {
                if app.side_by_side {
                    side_by_side(app, frame, rect, r.hunk, i, row);
                } else {
                    // The cursor is drawn under the text, so a claim, a match or a secret
                    // on the cursor line keeps its own style over it.
                    let on_cursor = row == app.cursor;
                    if on_cursor {
                        paint(frame, rect, t.cursor);
                    }
                    let cols = (body.width as usize).saturating_sub(GUTTER);
                    frame.render_widget(Paragraph::new(line_cells(app, r.hunk, i, cols, true, on_cursor)), rect);
                }
            }
        }
        if let Some((a, b)) = sel
            && row >= a
            && row <= b
            && row != app.cursor
        {
            paint(frame, rect, t.selection);
        }
        y += rect.height;
        row += 1;
    }
}

fn status_word(f: &crate::model::diff::FileDiff) -> String {
    let s = match f.status {
        crate::model::diff::FileStatus::Modified => "modified",
        crate::model::diff::FileStatus::Added => "new note",
        crate::model::diff::FileStatus::Deleted => "deleted by the dream",
    };
    match f.kind {
        FileKind::Text => s.to_string(),
        FileKind::Binary => format!("{s} · binary"),
        FileKind::Symlink => format!("{s} · symlink"),
        FileKind::Outside => format!("{s} · OUTSIDE the memory folder"),
    }
}

fn header(app: &App, frame: &mut Frame, rect: Rect, hi: usize, h: &Hunk) {
    let t = &app.theme;
    let state = app.review.decision(app.at(hi)).map_or(HunkState::Pending, |d| d.state());
    let (state, style) = match state {
        HunkState::Pending => ("pending", t.pending),
        HunkState::Accepted => ("accepted", t.accepted),
        HunkState::Rejected => ("rejected", t.rejected),
        HunkState::Partial => ("partial", t.edited),
        HunkState::Edited => ("edited", t.edited),
    };
    let mut spans = vec![Span::styled(format!("@@ {} ", crate::faces::ui::text::shown_name(&h.id)), t.header)];
    if !h.whole_file {
        spans.push(Span::styled(
            format!("-{},{} +{},{} ", h.old_start(), h.old_range.len(), h.new_start(), h.new_range.len()),
            t.dim,
        ));
    }
    if app.banner.is_none() {
        // A leftover a later revert took back says so, with the revert.
        let reverted = app.review.reverted(app.at(hi)).filter(|_| state == "rejected");
        match reverted {
            Some(by) => spans.push(Span::styled(format!("[reverted in {by}]"), style)),
            None => spans.push(Span::styled(format!("[{state}]"), style)),
        }
    }
    let flags: Vec<&crate::analysis::flag::Flag> =
        app.analysis.hunk_flags(app.at(hi)).chain(app.analysis.entry_flags(app.at(hi))).collect();
    let errors = flags.iter().filter(|f| f.severity == Severity::Error).count();
    let warnings = flags.iter().filter(|f| f.severity == Severity::Warning).count();
    // Told apart by their mark, not only by colour (`NO_COLOR`): ✖ errors, ⚠ warnings.
    if errors > 0 {
        spans.push(Span::styled(format!(" ✖{errors}"), t.error));
    }
    if warnings > 0 {
        spans.push(Span::styled(format!(" ⚠{warnings}"), t.warning));
    }
    if h.live_changed {
        spans.push(Span::styled(" live changed", t.error));
    }
    if app.is_edited(hi) && !app.analysis.shows_edit(app.at(hi)) {
        spans.push(Span::styled(" checking your text…", t.dim));
    }
    for change in app.shown.get(hi).into_iter().flat_map(|s| &s.invisible) {
        spans.push(Span::styled(format!(" {change}"), t.warning));
    }
    let e = app.analysis.findings.changes(app.at(hi));
    if !e.is_empty() {
        let list: Vec<String> = e.iter().map(|n| format!("#{n}")).collect();
        spans.push(Span::styled(format!(" CHANGES {}", list.join(" ")), t.dim));
    }
    frame.render_widget(Paragraph::new(Line::from(spans)), rect);
}

fn whole(app: &App, frame: &mut Frame, rect: Rect, hi: usize, f: &crate::model::diff::FileDiff) {
    let t = &app.theme;
    let d = app.review.decision(app.at(hi)).and_then(|d| d.lines.first().copied()).unwrap_or_default();
    let size = |e: &Option<crate::inputs::snapshot::Entry>| match e {
        Some(crate::inputs::snapshot::Entry::File(b)) => format!("{} bytes", b.len()),
        Some(crate::inputs::snapshot::Entry::Symlink(p)) => format!("symlink → {}", p.display()),
        None => "absent".to_string(),
    };
    let what = match f.kind {
        FileKind::Symlink => "symlink: shown, never followed or written",
        FileKind::Outside => "outside the memory folder: never written",
        FileKind::Binary => "binary file: accept or reject it whole",
        FileKind::Text => "empty note: accept or reject it whole",
    };
    let text = format!("{what} · live {} → proposed {}", size(&f.live), size(&f.proposed));
    let line = Line::from(vec![Span::styled(format!("{} ", mark(d)), mark_style(app, d)), Span::styled(text, t.text)]);
    frame.render_widget(Paragraph::new(line), rect);
    if app.rows.get(app.cursor).is_some_and(|r| r.hunk == hi && r.kind == RowKind::Whole) {
        paint(frame, rect, t.cursor);
    }
}

fn mark(d: Decision) -> &'static str {
    match d {
        Decision::Pending => "·",
        Decision::Accepted => "✓",
        Decision::Rejected => "✗",
    }
}

fn mark_style(app: &App, d: Decision) -> Style {
    match d {
        Decision::Pending => app.theme.pending,
        Decision::Accepted => app.theme.accepted,
        Decision::Rejected => app.theme.rejected,
    }
}

/// Splits display text into row chunks: wrapped, or one chunk cut to `cols` — one column
/// less when text is left over, for the [`CUT`] mark.
fn chunks(text: &str, cols: usize, wrap_on: bool) -> Vec<Range<usize>> {
    if wrap_on {
        return wrap(text, cols);
    }
    let fits = 0..fit(text, cols);
    let shown = if is_cut(text, &fits) { 0..fit(text, cols.saturating_sub(1)) } else { fits };
    vec![shown]
}

/// Drawn where wrap is off and a line goes on past the pane (`w` wraps it).
const CUT: &str = "›";

/// True when text beyond `chunk` would be hidden (not only trailing spaces).
fn is_cut(text: &str, chunk: &Range<usize>) -> bool {
    text.get(chunk.end..).is_some_and(|rest| !rest.trim().is_empty())
}

/// The screen lines of hunk line `i` (gutter + styled text), `cols` wide for the text; on
/// the cursor line (`cursor`) the change tint gives way to the cursor's, highlights not.
fn line_cells(app: &App, hi: usize, i: usize, cols: usize, with_mark: bool, cursor: bool) -> Vec<Line<'static>> {
    let t = &app.theme;
    let Some(h) = app.hunk(hi) else { return Vec::new() };
    let Some(l) = h.lines.get(i) else { return Vec::new() };
    let info = app.info(hi, i).copied().unwrap_or_default();
    let shown = app.shown_line(hi, i).into_owned();
    let segments = styled_segments(app, hi, i, &shown, cursor);
    let (op, op_style) = match l.op {
        Op::Context => (" ", t.dim),
        Op::Remove => ("-", t.remove_mark),
        Op::Add => ("+", t.add_mark),
    };
    let number = match l.op {
        Op::Add => info.new_no,
        _ => info.old_no,
    };
    let edited = app.is_edited(hi);
    let decision =
        if edited { None } else { info.slot.and_then(|s| app.review.decision(app.at(hi))?.lines.get(s).copied()) };
    let mut out = Vec::new();
    for (k, chunk) in chunks(&shown, cols, app.wrap).into_iter().enumerate() {
        let mut spans = Vec::new();
        if k == 0 {
            if with_mark && app.banner.is_some() {
                spans.push(Span::raw("  "));
            } else if with_mark {
                match decision {
                    // The reviewer's own lines.
                    None if edited && l.op != Op::Context => spans.push(Span::styled("✎", t.edited)),
                    Some(d) => spans.push(Span::styled(mark(d), mark_style(app, d))),
                    None => spans.push(Span::raw(" ")),
                }
                spans.push(Span::raw(" "));
            }
            spans.push(Span::styled(number.map(|n| format!("{n:>4}")).unwrap_or_else(|| "    ".into()), t.dim));
            spans.push(Span::raw(" "));
            spans.push(Span::styled(op, op_style));
            spans.push(Span::raw(" "));
        } else {
            spans.push(Span::raw(" ".repeat(if with_mark { GUTTER } else { GUTTER - 2 })));
        }
        for (style, r) in &segments {
            let a = r.start.max(chunk.start);
            let b = r.end.min(chunk.end);
            if a < b {
                spans.push(Span::styled(shown[a..b].to_string(), *style));
            }
        }
        if !app.wrap && is_cut(&shown, &chunk) {
            spans.push(Span::styled(CUT, t.key));
        }
        // Changed lines are tinted to the edge of the pane.
        let used: usize = spans.iter().map(|s| crate::faces::ui::text::width(&s.content)).sum();
        let full = cols + if with_mark { GUTTER } else { GUTTER - 2 };
        if l.op != Op::Context && used < full {
            let tint = if l.op == Op::Add { t.add } else { t.remove };
            let tint = if cursor { tint.patch(t.cursor) } else { tint };
            spans.push(Span::styled(" ".repeat(full - used), tint));
        }
        out.push(Line::from(spans));
    }
    out
}

/// The display text of a line cut into styled byte ranges: syntax colours, the change
/// tint (the cursor's on the cursor line), word-level emphasis against its partner,
/// flagged claims (a credential in its own style) and search matches.
fn styled_segments(app: &App, hi: usize, i: usize, shown: &str, cursor: bool) -> Vec<(Style, Range<usize>)> {
    let t = &app.theme;
    let Some(h) = app.hunk(hi) else { return Vec::new() };
    let Some(l) = h.lines.get(i) else { return Vec::new() };
    // 1. Base: syntax colours when the highlighter has answered, else plain text (an
    //    edited hunk's lines are not the ones the highlighter coloured).
    let mut base: Vec<(Style, Range<usize>)> = Vec::new();
    let coloured = if app.is_edited(hi) { None } else { app.highlights.get(&app.at(hi)) };
    if let Some(hl) = coloured.and_then(|hl| hl.get(i))
        && hl.iter().map(|(_, s)| s.len()).sum::<usize>() == shown.len()
    {
        let mut at = 0;
        for (style, s) in hl {
            base.push((*style, at..at + s.len()));
            at += s.len();
        }
    } else {
        base.push((if l.op == Op::Context { t.dim } else { t.text }, 0..shown.len()));
    }
    let mut patches: Vec<(Range<usize>, Style)> = Vec::new();
    // 2. The change tint.
    match l.op {
        Op::Add => patches.push((0..shown.len(), t.add)),
        Op::Remove => patches.push((0..shown.len(), t.remove)),
        Op::Context => {}
    }
    if cursor {
        patches.push((0..shown.len(), t.cursor));
    }
    // 3. Word-level emphasis against the partner line.
    if let Some(p) = app.pair(hi, i).filter(|&p| p < h.lines.len()) {
        let other = app.shown_line(hi, p);
        let (old, new) = if l.op == Op::Remove { (shown, other.as_ref()) } else { (other.as_ref(), shown) };
        let mine = if l.op == Op::Remove { ChangeTag::Delete } else { ChangeTag::Insert };
        let emph = if l.op == Op::Remove { t.remove_emph } else { t.add_emph };
        let mut at = 0;
        let diff = similar::utils::diff_unicode_words(Algorithm::Myers, old, new);
        // Whole-line rewrites get no emphasis: it would only add noise.
        let shared: usize = diff.iter().filter(|(tag, _)| *tag == ChangeTag::Equal).map(|(_, s)| s.len()).sum();
        if shared * 3 >= shown.len() {
            for (tag, s) in diff {
                if tag == ChangeTag::Equal || tag == mine {
                    if tag == mine && !s.trim().is_empty() {
                        patches.push((at..at + s.len(), emph));
                    }
                    at += s.len();
                }
            }
        }
    }
    // 4. Flagged claims on this line.
    if l.op == Op::Add {
        // Flags carry the line masked, as every output does.
        let masked = app.shown.get(hi).and_then(|h| h.masked.get(i)).map_or("", String::as_str);
        let stripped = crate::base::text::strip_terminator(masked);
        for f in app.analysis.hunk_flags(app.at(hi)) {
            let (Some(claim), Some(line)) = (&f.claim, &f.line) else { continue };
            if line == stripped {
                let style = if f.kind == crate::analysis::flag::FlagKind::Secret { t.secret } else { t.claim };
                for (pos, _) in shown.match_indices(claim.as_str()) {
                    patches.push((pos..pos + claim.len(), style));
                }
            }
        }
    }
    // 5. Search matches.
    if let Some(s) = &app.search {
        let lower = shown.to_lowercase();
        if lower.len() == shown.len() {
            for (pos, _) in lower.match_indices(s.query.as_str()) {
                patches.push((pos..pos + s.query.len(), t.matched));
            }
        }
    }
    split(&base, &patches, shown)
}

/// Cuts `base` at every patch boundary and applies the patches covering each piece.
fn split(base: &[(Style, Range<usize>)], patches: &[(Range<usize>, Style)], text: &str) -> Vec<(Style, Range<usize>)> {
    let mut cuts: Vec<usize> = base
        .iter()
        .flat_map(|(_, r)| [r.start, r.end])
        .chain(patches.iter().flat_map(|(r, _)| [r.start, r.end]))
        .collect();
    cuts.retain(|&c| c <= text.len() && text.is_char_boundary(c));
    cuts.sort_unstable();
    cuts.dedup();
    let mut out = Vec::new();
    for w in cuts.windows(2) {
        let (a, b) = (w[0], w[1]);
        let Some((style, _)) = base.iter().find(|(_, r)| r.start <= a && a < r.end) else { continue };
        let mut style = *style;
        for (r, p) in patches {
            if r.start <= a && b <= r.end {
                style = style.patch(*p);
            }
        }
        out.push((style, a..b));
    }
    out
}

fn side_by_side(app: &App, frame: &mut Frame, rect: Rect, hi: usize, i: usize, row: usize) {
    let t = &app.theme;
    let Some(h) = app.hunk(hi) else { return };
    let half = rect.width / 2;
    let left = Rect::new(rect.x, rect.y, half, rect.height);
    let right = Rect::new(rect.x + half, rect.y, rect.width - half, rect.height);
    let cols_l = (left.width as usize).saturating_sub(GUTTER);
    let cols_r = (right.width as usize).saturating_sub(GUTTER);
    let (l_line, r_line) = match h.lines[i].op {
        Op::Context => (Some(i), Some(i)),
        Op::Remove => (Some(i), app.pair(hi, i)),
        Op::Add => (None, Some(i)),
    };
    // Which half holds the cursor (both for a context line); painted under the text.
    let (mut cur_l, mut cur_r) = (false, false);
    let cursor_row = app.rows.get(app.cursor).copied();
    if let Some(RowKind::Line(c)) = cursor_row.filter(|c| c.hunk == hi).map(|c| c.kind) {
        let op = |k: usize| h.lines.get(k).map(|l| l.op);
        if app.cursor == row && op(i) == Some(Op::Context) {
            (cur_l, cur_r) = (true, true);
        } else if app.cursor == row {
            (cur_l, cur_r) = (op(c) != Some(Op::Add), op(c) == Some(Op::Add));
        } else if Some(c) == r_line && op(c) == Some(Op::Add) {
            cur_r = true;
        }
    }
    if let Some(li) = l_line {
        if cur_l {
            paint(frame, left, t.cursor);
        }
        frame.render_widget(Paragraph::new(line_cells(app, hi, li, cols_l, true, cur_l)), left);
    }
    if let Some(ri) = r_line {
        if cur_r {
            paint(frame, right, t.cursor);
        }
        frame.render_widget(Paragraph::new(line_cells(app, hi, ri, cols_r, true, cur_r)), right);
    }
}
