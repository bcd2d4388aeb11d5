//! Normal mode's actions: one [`Action`] carried out on the state, and the `why`
//! overlay it can open.

use super::decide::{decide, edit, rest, toggle, undo_redo};
use super::decided::again;
use super::navigate::{flagged, move_cursor, next_match, step_file, step_hunk};
use super::say::say;
use crate::faces::ui::guard;
use crate::faces::ui::keymap::Action;
use crate::faces::ui::msg::Cmd;
use crate::faces::ui::state::{App, Focus, Mode, RowKind, WhyView};
use crate::model::decision::Decision;

/// Carries out one action in normal mode.
pub fn act(app: &mut App, a: Action) -> Vec<Cmd> {
    if app.focus == Focus::Evidence {
        match a {
            Action::Down => {
                app.evidence_scroll += 1;
                return Vec::new();
            }
            Action::Up => {
                app.evidence_scroll = app.evidence_scroll.saturating_sub(1);
                return Vec::new();
            }
            Action::PageDown => {
                app.evidence_scroll += 10;
                return Vec::new();
            }
            Action::PageUp => {
                app.evidence_scroll = app.evidence_scroll.saturating_sub(10);
                return Vec::new();
            }
            Action::FocusEvidence | Action::Cancel => {
                app.focus = Focus::Diff;
                return Vec::new();
            }
            _ => app.focus = Focus::Diff,
        }
    }
    let cmds = match a {
        Action::Down => move_cursor(app, 1),
        Action::Up => move_cursor(app, -1),
        Action::PageDown => move_cursor(app, (app.diff_height() / 2).max(1) as isize),
        Action::PageUp => move_cursor(app, -((app.diff_height() / 2).max(1) as isize)),
        Action::Top => {
            app.cursor = 0;
            app.rebuild_rows();
            Vec::new()
        }
        Action::Bottom => {
            app.cursor = app.rows.len().saturating_sub(1);
            app.rebuild_rows();
            Vec::new()
        }
        Action::NextHunk => step_hunk(app, true, |_, _| true),
        Action::PrevHunk => step_hunk(app, false, |_, _| true),
        Action::NextFile => step_file(app, 1),
        Action::PrevFile => step_file(app, -1),
        Action::NextFlag => flagged(app, true),
        Action::PrevFlag => flagged(app, false),
        Action::Accept | Action::AcceptRest | Action::ToggleLine => match guard::question(app, a) {
            Some(question) => {
                app.mode = Mode::ConfirmAccept { question, action: a };
                Vec::new()
            }
            None => accept(app, a),
        },
        Action::Reject => decide(app, Decision::Rejected),
        Action::RejectRest => rest(app, Decision::Rejected),
        Action::Select => {
            app.anchor = match app.anchor {
                Some(_) => None,
                None => Some(app.cursor),
            };
            if app.anchor.is_some() {
                say(app, "selecting lines: move, then Space toggles, y/n decide them; Esc cancels", false);
            }
            Vec::new()
        }
        Action::Edit => edit(app),
        Action::Undo => undo_redo(app, true),
        Action::Redo => undo_redo(app, false),
        Action::Suspend => vec![Cmd::Suspend],
        Action::OpenSource => open_source(app),
        Action::Again => again(app),
        Action::Search => {
            // A new search ends the one before.
            app.search = None;
            app.mode = Mode::Search(String::new());
            Vec::new()
        }
        Action::NextMatch => next_match(app, true),
        Action::PrevMatch => next_match(app, false),
        Action::SideBySide => {
            app.side_by_side = !app.side_by_side;
            Vec::new()
        }
        Action::Wrap => {
            app.wrap = !app.wrap;
            Vec::new()
        }
        Action::Order => {
            use crate::faces::ui::state::FileOrder;
            app.order_chosen = true;
            app.order = match app.order {
                FileOrder::Review => FileOrder::Risk,
                FileOrder::Risk => FileOrder::Review,
            };
            let what = match app.order {
                FileOrder::Risk => "files by risk, the riskiest first (O: review order)",
                FileOrder::Review => "files in review order (O: by risk)",
            };
            say(app, what, false);
            Vec::new()
        }
        Action::FocusEvidence => {
            app.focus = Focus::Evidence;
            Vec::new()
        }
        Action::Commit | Action::EditMessage => {
            let (done, total) = app.review.progress();
            if total == 0 {
                say(app, "nothing to commit: the dream changes nothing", false);
                Vec::new()
            } else if done == 0 {
                say(app, "nothing decided yet: y/n decide hunks, then c commits", false);
                Vec::new()
            } else if a == Action::EditMessage {
                vec![Cmd::EditMessage]
            } else {
                vec![Cmd::PreviewCommit]
            }
        }
        Action::History => vec![Cmd::History],
        Action::Why => {
            // An in-place review's live side is `HEAD` as loaded.
            let live = if app.review.inputs.dream.is_none() { app.review.loaded_head.clone() } else { None };
            ask_why(app, live.as_deref())
        }
        Action::Help => {
            app.mode = Mode::Help { scroll: 0 };
            Vec::new()
        }
        Action::LeftOut => {
            app.mode = Mode::LeftOut { scroll: 0 };
            Vec::new()
        }
        Action::Quit => {
            if app.dirty {
                app.mode = Mode::ConfirmQuit;
                Vec::new()
            } else {
                app.quit = true;
                vec![Cmd::Quit]
            }
        }
        Action::Cancel => {
            app.anchor = None;
            app.search = None;
            Vec::new()
        }
        Action::Confirm => Vec::new(),
    };
    app.ensure_cursor_visible();
    cmds
}

/// `b`: asks the runtime why the line under the cursor says what it says. `side` is the
/// commit whose version of the note the lines show: an opened commit of the history (its
/// new side: added and context lines), or for the review `None`, the note on disk (its
/// live side: context and removed lines), or `HEAD` for an in-place review. A row that is
/// no such line says why in the status bar.
pub(super) fn ask_why(app: &mut App, side: Option<&str>) -> Vec<Cmd> {
    let history = app.banner.is_some();
    let asked = app.current_row().and_then(|r| match r.kind {
        RowKind::Line(i) => Some((r.hunk, i)),
        _ => None,
    });
    let Some((hunk, i)) = asked else {
        say(app, "b explains a line of a note: move onto one", false);
        return Vec::new();
    };
    let number = app.info(hunk, i).and_then(|x| if history { x.new_no } else { x.old_no });
    let text = app.hunk(hunk).and_then(|h| h.lines.get(i)).map(|l| l.text.clone());
    let note = app.current_file().map(|f| f.path.clone());
    match (number, text, note) {
        (Some(line), Some(text), Some(note)) => {
            vec![Cmd::Why(crate::store::repo::why::ShownLine { note, text, line, commit: side.map(str::to_string) })]
        }
        _ if history => {
            say(app, "removed by this commit: b works on + and context lines", false);
            Vec::new()
        }
        _ => {
            say(app, "added line: not in the note yet; b works on - and context lines", false);
            Vec::new()
        }
    }
}

/// The answer to `b`: the overlay over the screen that asked (the review, or a commit opened
/// in the history); an error in that screen's status bar.
pub(super) fn why_answered(app: &mut App, result: Result<Box<crate::store::repo::why::Traced>, String>) {
    let show = |screen: &mut App, result: Result<Box<crate::store::repo::why::Traced>, String>| match result {
        Ok(t) => screen.mode = Mode::Why(WhyView::new(&t)),
        Err(e) => say(screen, &format!("why: {e}"), true),
    };
    if let Mode::History(h) = &mut app.mode {
        // Only over the opened commit that asked; the list has no line to explain.
        if let Some(view) = h.view.as_deref_mut() {
            show(view, result);
        }
    } else if matches!(app.mode, Mode::Normal) {
        show(app, result);
    }
    // Another overlay opened meanwhile keeps the screen.
}

/// Carries out an accepting action (`y`, `a`, `Space`), asked about or not.
pub(super) fn accept(app: &mut App, a: Action) -> Vec<Cmd> {
    match a {
        Action::Accept => decide(app, Decision::Accepted),
        Action::AcceptRest => rest(app, Decision::Accepted),
        Action::ToggleLine => toggle(app),
        _ => Vec::new(),
    }
}

/// `o`: the hunk's cited transcript lines that exist on disk, one after the other on each
/// press, each opened in `$PAGER` at its line; the status bar says which.
fn open_source(app: &mut App) -> Vec<Cmd> {
    let Some(hi) = app.current_hunk() else { return Vec::new() };
    let at = app.at(hi);
    let cited: Vec<(std::path::PathBuf, usize, usize, String)> = app
        .analysis
        .entries_of(at)
        .flat_map(|c| c.citations.iter())
        .filter_map(|c| {
            let path = c.path.clone()?;
            let line = c.line?;
            Some((path, line, c.end.unwrap_or(line), c.location()))
        })
        .collect();
    if cited.is_empty() {
        say(app, "o opens a cited transcript line: this hunk cites none that is on disk", false);
        return Vec::new();
    }
    let next = match app.opened_source {
        Some((h, i)) if h == at => (i + 1) % cited.len(),
        _ => 0,
    };
    app.opened_source = Some((at, next));
    let (path, line, last, location) = cited[next].clone();
    let more =
        if cited.len() > 1 { format!(" ({} of {}; o opens the next)", next + 1, cited.len()) } else { String::new() };
    say(app, &format!("opened {}{more}", crate::store::repo::message::one_line(&location)), false);
    vec![Cmd::Pager { path, line, last }]
}
