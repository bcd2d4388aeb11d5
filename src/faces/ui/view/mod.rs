//! The view: draws the whole screen from the state, and nothing else. Only visible rows are
//! built, so a keypress redraws in constant time whatever the size of the diff.

mod diff;
mod evidence;
mod evidence_lines;
mod files;
mod frame;
mod kept;
mod overlay;
mod status;

use super::state::{App, Mode};
use ratatui::Frame;

/// Draws every pane and the active overlay.
pub fn view(app: &App, frame: &mut Frame) {
    // An opened commit replaces the review on screen (same panes, read-only).
    match &app.mode {
        Mode::History(h) if h.view.is_some() => {}
        _ => {
            let p = app.panes();
            files::draw(app, frame, p.files);
            diff::draw(app, frame, p.diff);
            evidence::draw(app, frame, p.evidence);
            status::draw(app, frame, p.status);
        }
    }
    match &app.mode {
        Mode::Help { scroll } => overlay::help(app, frame, *scroll),
        Mode::ConfirmQuit => overlay::confirm_quit(app, frame),
        Mode::ConfirmAccept { question, .. } => overlay::confirm_accept(app, frame, question),
        Mode::ConfirmInit => overlay::confirm_init(app, frame),
        Mode::CommitPreview { message, scroll } => overlay::commit(app, frame, message, *scroll),
        Mode::Why(w) => overlay::why(app, frame, w),
        Mode::LeftOut { scroll } => overlay::left_out(app, frame, *scroll),
        Mode::History(h) => {
            match &h.view {
                Some(inner) => {
                    view(inner, frame);
                    // What is being read for it (`b`) shows in its status bar.
                    if app.busy.is_some() {
                        status::draw(app, frame, inner.panes().status);
                    }
                }
                None => overlay::history(app, frame, h),
            }
            if let Some((question, _, _)) = &h.confirm {
                overlay::question(app, frame, " Revert ", question);
            }
        }
        Mode::Normal | Mode::Search(_) => {}
    }
}
