//! Moving through the review: the cursor, files, hunks, flagged hunks and search matches.

use super::say::say;
use crate::faces::ui::msg::Cmd;
use crate::faces::ui::state::{App, RowKind, Search};
use crate::model::diff::Op;
use crate::model::ids::HunkId;

pub(super) fn move_cursor(app: &mut App, by: isize) -> Vec<Cmd> {
    let before = app.current_hunk();
    for _ in 0..by.unsigned_abs() {
        match app.next_selectable(app.cursor, by > 0) {
            Some(r) => app.cursor = r,
            None => break,
        }
    }
    if app.current_hunk() != before {
        app.evidence_scroll = 0;
    }
    Vec::new()
}

pub(super) fn select_file(app: &mut App, file: usize) -> Vec<Cmd> {
    if file >= app.review.files.len() {
        return Vec::new();
    }
    app.file = file;
    app.rows.clear();
    app.cursor = 0;
    app.scroll = 0;
    app.anchor = None;
    app.evidence_scroll = 0;
    app.rebuild_rows();
    request_highlight(app)
}

/// Asks for syntax colours of the current file once.
pub fn request_highlight(app: &mut App) -> Vec<Cmd> {
    if app.theme.syntax && !app.review.files.is_empty() && app.highlight_requested.insert(app.file) {
        vec![Cmd::Highlight(app.file)]
    } else {
        Vec::new()
    }
}

pub(super) fn goto(app: &mut App, at: HunkId) -> Vec<Cmd> {
    let cmds = if at.file != app.file { select_file(app, at.file) } else { Vec::new() };
    if let Some(r) = app.first_row_of(at.hunk) {
        app.cursor = r;
        app.evidence_scroll = 0;
    }
    cmds
}

pub(super) fn step_file(app: &mut App, by: isize) -> Vec<Cmd> {
    let n = app.review.files.len();
    if n == 0 {
        return Vec::new();
    }
    let order = app.file_order();
    let at = order.iter().position(|&f| f == app.file).unwrap_or(0);
    let next = order[(at as isize + by).rem_euclid(n as isize) as usize];
    select_file(app, next)
}

/// All hunks in review order.
pub(super) fn all_hunks(app: &App) -> Vec<HunkId> {
    app.review.hunk_ids().collect()
}

/// Moves to the next/previous hunk satisfying `pred`, wrapping around the review.
pub(super) fn step_hunk(app: &mut App, forward: bool, pred: impl Fn(&App, HunkId) -> bool) -> Vec<Cmd> {
    let hunks = all_hunks(app);
    if hunks.is_empty() {
        return Vec::new();
    }
    let here = app.current_hunk().and_then(|h| hunks.iter().position(|&x| x == app.at(h))).unwrap_or(0);
    let n = hunks.len();
    for step in 1..=n {
        let i = if forward { (here + step) % n } else { (here + n - step % n) % n };
        if pred(app, hunks[i]) {
            return goto(app, hunks[i]);
        }
    }
    Vec::new()
}

pub(super) fn has_flags(app: &App, at: HunkId) -> bool {
    app.analysis.all_flags(at).next().is_some() || app.review.hunk(at).is_some_and(|x| x.live_changed)
}

pub(super) fn flagged(app: &mut App, forward: bool) -> Vec<Cmd> {
    if !all_hunks(app).iter().any(|&at| has_flags(app, at)) {
        say(app, "no flagged hunks", false);
        return Vec::new();
    }
    step_hunk(app, forward, has_flags)
}

pub(super) fn run_search(app: &mut App, input: &str) -> Vec<Cmd> {
    let query = input.to_lowercase();
    if query.is_empty() {
        app.search = None;
        return Vec::new();
    }
    let mut matches = Vec::new();
    for (at, d) in app.review.all_decisions() {
        let Some(h) = app.review.hunk(at) else { continue };
        // An edited hunk is searched as it is shown: live against the reviewer's text.
        let edited = d.edited.as_deref().map(|t| h.edited(t));
        let h = edited.as_ref().unwrap_or(h);
        // The text as the diff pane shows it: a secret is found only by what is on
        // screen (its kind and last characters), never by its hidden value.
        for (li, text) in crate::model::diff::masked::masked_lines(h).iter().enumerate() {
            if crate::faces::ui::text::display(text).to_lowercase().contains(&query) {
                matches.push((at, li));
            }
        }
    }
    // Kept when empty, so C-n says there is no match rather than that there is no search.
    app.search = Some(Search { query, typed: input.to_string(), matches, at: None });
    next_match(app, true)
}

pub(super) fn next_match(app: &mut App, forward: bool) -> Vec<Cmd> {
    let here = (
        app.at(app.current_hunk().unwrap_or(0)),
        match app.current_row().map(|r| r.kind) {
            Some(RowKind::Line(i)) => i,
            _ => 0,
        },
    );
    let Some(search) = app.search.as_ref() else {
        say(app, "no search: press / first", false);
        return Vec::new();
    };
    let n = search.matches.len();
    if n == 0 {
        let text = format!("no match for “{}”", search.query);
        say(app, &text, true);
        return Vec::new();
    }
    let next = if forward {
        search.matches.iter().position(|m| *m > here).unwrap_or(0)
    } else {
        search.matches.iter().rposition(|m| *m < here).unwrap_or(n - 1)
    };
    let (at, l) = search.matches[next];
    if let Some(s) = app.search.as_mut() {
        s.at = Some(next);
    }
    let cmds = if at.file != app.file { select_file(app, at.file) } else { Vec::new() };
    if let Some(r) = app.rows.iter().position(|r| r.hunk == at.hunk && r.kind == RowKind::Line(l)) {
        app.cursor = r;
    }
    cmds
}

/// True when the line under the cursor is a changed line (for hints).
pub fn on_changed_line(app: &App) -> bool {
    matches!(app.current_row().map(|r| r.kind), Some(RowKind::Line(i)) if app.hunk(app.current_hunk().unwrap_or(0)).and_then(|h| h.lines.get(i)).is_some_and(|l| l.op != Op::Context))
}
