//! Deciding hunks and lines: accept, reject, toggle, the rest of a file, edit, undo and redo.

use super::decided::decided;
use super::navigate::{all_hunks, step_hunk};
use super::say::say;
use crate::faces::ui::msg::Cmd;
use crate::faces::ui::state::App;
use crate::model::decision::Decision;
use crate::model::ids::HunkId;

pub(super) fn decide(app: &mut App, d: Decision) -> Vec<Cmd> {
    let Some(h) = app.current_hunk() else { return Vec::new() };
    if app.anchor.is_some() {
        let slots = app.selected_slots();
        app.anchor = None;
        return set_slots(app, &slots, |_| d);
    }
    if let Err(r) = app.review.set_hunk(app.at(h), d) {
        say(app, &r.in_tui(), true);
        return Vec::new();
    }
    decided(app);
    let mut cmds = vec![Cmd::Save];
    let undecided = |app: &App, at: HunkId| !app.review.decision(at).is_some_and(|d| d.is_decided());
    if all_hunks(app).iter().any(|&at| undecided(app, at)) {
        cmds.extend(step_hunk(app, true, undecided));
    } else {
        let (_, total) = app.review.progress();
        say(app, &format!("all {total} hunks decided — press c to commit"), false);
    }
    cmds
}

pub(super) fn set_slots(app: &mut App, slots: &[(HunkId, usize)], d: impl Fn(Decision) -> Decision) -> Vec<Cmd> {
    if slots.is_empty() {
        say(app, "no changed line here: Space toggles - and + lines", false);
        return Vec::new();
    }
    // One keypress, one undo step, however many lines it sets.
    let targets: Vec<(HunkId, usize, Decision)> = slots
        .iter()
        .map(|&(at, s)| (at, s, d(app.review.decision(at).and_then(|x| x.lines.get(s).copied()).unwrap_or_default())))
        .collect();
    if let Err(r) = app.review.set_lines(&targets) {
        say(app, &r.in_tui(), true);
        return Vec::new();
    }
    decided(app);
    vec![Cmd::Save]
}

pub(super) fn toggle(app: &mut App) -> Vec<Cmd> {
    if app.anchor.is_none() && app.current_hunk().is_some_and(|h| app.is_edited(h)) {
        say(
            app,
            "this hunk is your text now: e edits it again, u undoes the edit, y/n take or reject the dream's",
            false,
        );
        return Vec::new();
    }
    let slots = app.selected_slots();
    app.anchor = None;
    let target = app.toggle_target(&slots);
    set_slots(app, &slots, |_| target)
}

pub(super) fn rest(app: &mut App, d: Decision) -> Vec<Cmd> {
    let Some(h) = app.current_hunk() else { return Vec::new() };
    let n = app.review.set_rest_of_file(app.at(h), d);
    if n == 0 {
        say(app, "no undecided hunks left in this file", false);
        return Vec::new();
    }
    decided(app);
    let verb = if d == Decision::Accepted { "accepted" } else { "rejected" };
    say(app, &format!("{verb} {n} hunk{} of this file", if n == 1 { "" } else { "s" }), false);
    vec![Cmd::Save]
}

pub(super) fn edit(app: &mut App) -> Vec<Cmd> {
    let Some(h) = app.current_hunk() else { return Vec::new() };
    let Some(hunk) = app.current_file().and_then(|f| f.hunks.get(h)) else { return Vec::new() };
    if hunk.whole_file {
        say(app, "binary, empty and symlinked files are accepted or rejected whole", true);
        return Vec::new();
    }
    // A merge refused for its markers reopens as it was left; else the edit so far, or
    // for a hunk live changed after the dream both sides between conflict markers.
    let at = app.at(h);
    let text = match &app.unfinished {
        Some((x, text)) if *x == at => text.clone(),
        _ => match app.review.decision(at).and_then(|d| d.edited.as_ref()) {
            Some(text) => text.clone(),
            None if hunk.live_changed => hunk.merge_text(),
            None => hunk.new_side(),
        },
    };
    vec![Cmd::Edit { at, text }]
}

/// `u`/`C-r`: undoes (redoes) the last decision step, says what it undid (`undid: accept
/// ci.md#1`) and moves the cursor to that hunk, in whatever file it is.
pub(super) fn undo_redo(app: &mut App, undo: bool) -> Vec<Cmd> {
    let before = app.review.decisions.clone();
    let done = if undo { app.review.undo() } else { app.review.redo() };
    if !done {
        say(app, if undo { "nothing to undo" } else { "nothing to redo" }, false);
        return Vec::new();
    }
    // The hunks the step changed, in review order; the step is what they were (undo) or
    // are now (redo).
    let changed: Vec<HunkId> =
        app.review.all_decisions().filter(|&(at, d)| before.get(at) != Some(d)).map(|(at, _)| at).collect();
    // Undo may reach any file: always re-audit.
    app.dirty = true;
    app.rebuild_rows();
    app.analysis.refresh_audit(&app.review);
    let mut cmds = vec![Cmd::Save];
    let Some(&at) = changed.first() else { return cmds };
    let step = if undo { before.get(at).cloned() } else { app.review.decision(at).cloned() };
    let what = step.map(|d| step_name(&d)).unwrap_or("change");
    let id = app.review.hunk(at).map(|h| crate::faces::ui::text::shown_name(&h.id)).unwrap_or_default();
    let more = match changed.len() {
        1 => String::new(),
        n => format!(" and {} more hunk{}", n - 1, if n == 2 { "" } else { "s" }),
    };
    let verb = if undo { "undid" } else { "redid" };
    let elsewhere = if at.file != app.file { " (moved there)" } else { "" };
    cmds.extend(super::navigate::goto(app, at));
    say(app, &format!("{verb}: {what} {id}{more}{elsewhere}"), false);
    cmds
}

/// What a decision step did to a hunk, named by the state it left: `accept`, `reject`,
/// `line decisions on`, `edit of`, `reopening of`.
fn step_name(d: &crate::model::decision::HunkDecision) -> &'static str {
    use crate::model::decision::HunkState;
    match d.state() {
        HunkState::Accepted => "accept",
        HunkState::Rejected => "reject",
        HunkState::Partial => "line decisions on",
        HunkState::Edited => "edit of",
        HunkState::Pending => "reopening of",
    }
}
