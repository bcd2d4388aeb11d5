//! The pure update function: a message in, the state changed, commands out. No I/O here,
//! so every key sequence can be replayed in tests.

//!
//! [`update`] routes a message (`apply` here); keys and the mouse are read in `keys`,
//! normal mode's actions carried out in [`act`], moves in `navigate`, decisions in
//! `decide`.

mod act;
mod decide;
mod decided;
mod keys;
mod navigate;
mod say;

pub use act::act;
pub use navigate::{on_changed_line, request_highlight};

use super::msg::{Cmd, Msg};
use super::state::{App, HistoryState, Mode, Progress};
use crate::model::ids::HunkId;
use act::why_answered;
use decided::decided;
use keys::{key, mouse};
use ratatui::crossterm::event::KeyEventKind;
use say::say;

/// Applies one message to the state and returns what the runtime must do. Whatever the
/// message changed, every edited hunk then shows its own text's flags and claims (or the
/// check of that text is asked for, once).
pub fn update(app: &mut App, msg: Msg) -> Vec<Cmd> {
    let mut cmds = apply(app, msg);
    wait_for(app, &cmds);
    cmds.extend(ask_checks(app));
    cmds
}

/// Marks the screen busy while a command runs ([`Cmd::waits_for`]): keys pressed meanwhile
/// wait in the queue and are replayed on its answer. The one place `busy` is set.
fn wait_for(app: &mut App, cmds: &[Cmd]) {
    if let Some(what) = cmds.iter().find_map(Cmd::waits_for) {
        app.busy = Some(what.into());
    }
}

/// Puts each edited hunk's check in place ([`crate::analysis::result::Analysis::sync_edits`]) and
/// asks the runtime to check the edited texts that have none yet, each once.
fn ask_checks(app: &mut App) -> Vec<Cmd> {
    let missing = app.analysis.sync_edits(&app.review);
    let mut cmds = Vec::new();
    for (at, text) in missing {
        if app.checks_asked.insert((at, text.clone())) {
            cmds.push(Cmd::CheckEdit { at, text });
        }
    }
    cmds
}

/// Why a commit must wait, if it must: the flags its preview and message list are not all
/// in yet (the background analysis, or the check of an edited text, is still running).
pub fn not_checked_yet(app: &App) -> Option<String> {
    if let Progress::Running { done, total, .. } = app.progress {
        let at = (done * 100).checked_div(total).map(|p| format!(" ({p}%)")).unwrap_or_default();
        return Some(format!("not yet: the flags are still being checked{at}; c again when they are in"));
    }
    let checking = checking(app);
    (!checking.is_empty())
        .then(|| format!("not yet: your edit of {} is still being checked; c again in a moment", checking.join(", ")))
}

/// The edited hunks whose text is still being checked, by id.
pub fn checking(app: &App) -> Vec<String> {
    let mut out = Vec::new();
    for (at, d) in app.review.all_decisions() {
        if d.edited.is_some() && !app.analysis.shows_edit(at) {
            out.extend(at.name(&app.review.files).map(str::to_string));
        }
    }
    out
}

fn apply(app: &mut App, msg: Msg) -> Vec<Cmd> {
    match msg {
        Msg::Key(k) if k.kind == KeyEventKind::Release => Vec::new(),
        Msg::Key(k) if app.busy.is_some() => {
            app.queued.push_back(k);
            Vec::new()
        }
        Msg::Key(k) => key(app, k),
        Msg::Mouse(m) if app.busy.is_none() => mouse(app, m),
        Msg::Mouse(_) => Vec::new(),
        Msg::Resize(w, h) => {
            app.size = (w, h);
            app.settle_scroll();
            Vec::new()
        }
        Msg::Progress { generation, done, total, indexing } if generation == app.generation => {
            app.progress = Progress::Running { done, total, indexing };
            Vec::new()
        }
        Msg::Analyzed { generation, analysis } if generation == app.generation => {
            // Edits checked meanwhile stay checked.
            let older = std::mem::replace(&mut app.analysis, *analysis);
            app.analysis.keep_edit_checks(older);
            // Decisions may have changed while the analysis ran.
            app.analysis.refresh_audit(&app.review);
            app.progress = Progress::Done;
            removals_first(app)
        }
        Msg::AnalysisFailed { generation, error } if generation == app.generation => {
            app.progress = Progress::Failed(error);
            Vec::new()
        }
        Msg::Highlighted { generation, file, hunks } if generation == app.generation => {
            for (hunk, highlight) in hunks {
                app.highlights.insert(HunkId::new(file, hunk), highlight);
            }
            Vec::new()
        }
        Msg::EditChecked { generation, check } if generation == app.generation => {
            let current = app.review.decision(check.id).and_then(|d| d.edited.as_ref()) == Some(&check.text);
            if current && app.status.is_none() {
                let id = check.id.named(&app.review.files).to_string();
                let errors =
                    check.flags.iter().filter(|f| f.severity == crate::analysis::flag::Severity::Error).count();
                let text = match (check.flags.len(), errors) {
                    (0, _) => format!("your edit of {id} checked: no flags"),
                    (n, 0) => format!("your edit of {id} checked: {n} warning{}", if n == 1 { "" } else { "s" }),
                    (n, e) => format!(
                        "your edit of {id} checked: {n} flag{}, {e} error{}",
                        if n == 1 { "" } else { "s" },
                        if e == 1 { "" } else { "s" }
                    ),
                };
                say(app, &text, errors > 0);
            }
            if !app.analysis.edits.contains(&check) {
                app.analysis.edits.push(check);
            }
            Vec::new()
        }
        Msg::Edited { generation, at, result } if generation == app.generation => match result {
            Ok(Some(text)) => match app.review.set_edit(at, Some(text.clone())) {
                Ok(()) => {
                    app.unfinished = None;
                    decided(app);
                    say(app, "edited: live → your text, its flags checked again (u undoes)", false);
                    vec![Cmd::Save]
                }
                Err(r) => {
                    if matches!(r, crate::model::review::Refusal::ConflictMarkers { .. }) {
                        // Kept, so `e` reopens the merge where the reviewer left it.
                        app.unfinished = Some((at, text));
                    }
                    say(app, &r.in_tui(), true);
                    Vec::new()
                }
            },
            Ok(None) => {
                let merging = app.review.hunk(at).is_some_and(|h| h.live_changed)
                    && app.review.decision(at).is_some_and(|d| d.edited.is_none());
                if merging {
                    say(app, "e reopens it — merge not saved: its conflict markers are all still there", true);
                } else {
                    say(app, "edit left the hunk unchanged", false);
                }
                Vec::new()
            }
            Err(e) => {
                say(app, &e, true);
                Vec::new()
            }
        },
        Msg::CommitMessage(Ok(message)) => {
            app.mode = Mode::CommitPreview { message, scroll: 0 };
            Vec::new()
        }
        Msg::CommitMessage(Err(e)) => {
            say(app, &e, true);
            Vec::new()
        }
        Msg::MessageEdited(Ok(Some(edited))) => {
            app.message = Some(edited);
            app.mode = Mode::Normal;
            vec![Cmd::PreviewCommit]
        }
        Msg::MessageEdited(Ok(None)) => {
            app.message = None;
            app.mode = Mode::Normal;
            say(app, "the message was emptied: nothing committed (c shows the generated message again)", false);
            Vec::new()
        }
        Msg::MessageEdited(Err(e)) => {
            say(app, &e, true);
            Vec::new()
        }
        Msg::NothingNew(why) => {
            app.busy = None;
            app.mode = super::state::Mode::Normal;
            say(app, &why, false);
            replay(app)
        }
        Msg::Committed(Ok(summary)) => {
            app.dirty = false;
            app.message = None;
            say(app, &summary, false);
            vec![Cmd::Reload("reloading after commit")]
        }
        Msg::CommitStale(why) => {
            say(app, &format!("not committed: {why}"), true);
            vec![Cmd::Save, Cmd::Reload("reloading: the repository moved on")]
        }
        Msg::NeedRepo => {
            app.mode = Mode::ConfirmInit;
            Vec::new()
        }
        Msg::Initialized(Ok(text)) => {
            app.busy = None;
            app.saves = true;
            say(app, &text, false);
            let mut cmds = vec![Cmd::Save, Cmd::PreviewCommit];
            cmds.extend(replay(app));
            cmds
        }
        Msg::Initialized(Err(e)) | Msg::Reverted(Err(e)) => {
            app.busy = None;
            say(app, &e, true);
            replay(app)
        }
        // A read that brought no screen: the keys pressed for that screen are dropped, not
        // replayed on the one below (a `y` meant for the history must not accept a hunk).
        Msg::History(Err(e)) | Msg::HistoryDiff(Err(e)) | Msg::ReadFailed(e) => {
            app.busy = None;
            app.queued.clear();
            say(app, &e, true);
            Vec::new()
        }
        Msg::Signal(_) => {
            app.quit = true;
            vec![Cmd::Save, Cmd::Quit]
        }
        Msg::Failed(e) => {
            say(app, &e, true);
            Vec::new()
        }
        Msg::History(Ok(entries)) => {
            app.busy = None;
            if entries.is_empty() {
                app.queued.clear();
                say(app, "the memory repository has no commits yet", false);
                return Vec::new();
            }
            app.mode = Mode::History(Box::new(HistoryState { entries, selected: Some(0), view: None, confirm: None }));
            replay(app)
        }
        Msg::HistoryDiff(Ok(opened)) => {
            if let Mode::History(h) = &mut app.mode {
                let super::msg::OpenedCommit { message, files, evidence } = *opened;
                let review = app.review.read_only(files);
                let mut view = App::new(review, app.theme.clone(), app.size);
                view.banner = Some(message);
                view.kept = Some(evidence);
                view.progress = Progress::Done;
                h.view = Some(Box::new(view));
            }
            app.busy = None;
            replay(app)
        }
        Msg::Why(result) => {
            app.busy = None;
            why_answered(app, result);
            replay(app)
        }
        Msg::Reverted(Ok(summary)) => {
            say(app, &summary, false);
            let mut cmds = vec![Cmd::Reload("reloading after revert")];
            // A revert made in the history: the history again, with the revert in it.
            if matches!(app.mode, Mode::History(_)) {
                cmds.insert(0, Cmd::History);
            }
            cmds
        }
        Msg::Committed(Err(e)) => {
            app.busy = None;
            say(app, &format!("commit failed: {e}"), true);
            replay(app)
        }
        Msg::Reloaded { generation, review } => {
            app.generation = generation;
            app.analysis = crate::analysis::result::Analysis::empty(&review);
            app.review = *review;
            app.progress = Progress::Running { done: 0, total: 0, indexing: false };
            app.highlights.clear();
            app.highlight_requested.clear();
            app.checks_asked.clear();
            app.unfinished = None;
            app.file = app.file.min(app.review.files.len().saturating_sub(1));
            app.rows.clear();
            app.cursor = 0;
            app.scroll = 0;
            app.rebuild_rows();
            app.busy = None;
            let mut cmds = vec![Cmd::Analyze];
            cmds.extend(request_highlight(app));
            cmds.extend(replay(app));
            cmds
        }
        // A result for a model that no longer exists: dropped.
        _ => Vec::new(),
    }
}

fn replay(app: &mut App) -> Vec<Cmd> {
    let mut cmds = Vec::new();
    while app.busy.is_none() {
        let Some(k) = app.queued.pop_front() else { break };
        let more = key(app, k);
        wait_for(app, &more);
        cmds.extend(more);
    }
    cmds
}

/// A review over the cap on loss opens with its removals first: the list by risk (a
/// `mass-removal` flag is an error on every removal) and, when the reviewer has not moved
/// or decided yet, the first removal under the cursor. The evidence pane's banner says how
/// much goes. `O` (the reviewer's own choice of order) is never overridden.
fn removals_first(app: &mut App) -> Vec<Cmd> {
    if app.order_chosen || app.banner.is_some() || app.mass_removal().is_none() {
        return Vec::new();
    }
    app.order = crate::faces::ui::state::FileOrder::Risk;
    let untouched = app.file == 0 && app.review.progress().0 == 0;
    let first = app.file_order().first().copied();
    match first {
        Some(fi) if untouched && fi != app.file => navigate::select_file(app, fi),
        _ => Vec::new(),
    }
}
