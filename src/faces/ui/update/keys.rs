//! Keys and the mouse: what each mode does with a key (overlays, search input,
//! confirmations, the history view), and what a click or the wheel does.

use super::act::{accept, act, ask_why};
use super::navigate::{move_cursor, run_search, select_file};
use super::say::say;
use crate::faces::ui::keymap::{self, Action};
use crate::faces::ui::msg::Cmd;
use crate::faces::ui::state::{App, Focus, HistoryState, Mode, Progress};
use ratatui::crossterm::event::{KeyCode, KeyEvent, MouseButton, MouseEvent, MouseEventKind};

pub(super) fn key(app: &mut App, k: KeyEvent) -> Vec<Cmd> {
    // C-z suspends from any screen, leaving it as it is (an overlay, a question) for `fg`.
    if keymap::action(k) == Some(Action::Suspend) {
        return vec![Cmd::Suspend];
    }
    app.status = None;
    match std::mem::replace(&mut app.mode, Mode::Normal) {
        Mode::Help { scroll } => {
            // Moving keys scroll a help taller than the terminal; any other key closes it.
            let most = keymap::help_max_scroll(app.size);
            if !keymap::help_overflows(app.size) {
                return Vec::new();
            }
            match keymap::action(k) {
                Some(Action::Down) => app.mode = Mode::Help { scroll: (scroll + 1).min(most) },
                Some(Action::Up) => app.mode = Mode::Help { scroll: scroll.saturating_sub(1) },
                Some(Action::PageDown) => app.mode = Mode::Help { scroll: (scroll + 10).min(most) },
                Some(Action::PageUp) => app.mode = Mode::Help { scroll: scroll.saturating_sub(10) },
                Some(Action::Top) => app.mode = Mode::Help { scroll: 0 },
                Some(Action::Bottom) => app.mode = Mode::Help { scroll: most },
                _ => {}
            }
            Vec::new()
        }
        Mode::LeftOut { scroll } => {
            // Moving keys scroll the list; any other key closes it.
            let read = matches!(app.progress, Progress::Done);
            let most = crate::faces::ui::state::left_out::max_scroll(&app.analysis.left_out, read, app.size);
            match keymap::action(k) {
                Some(Action::Down) => app.mode = Mode::LeftOut { scroll: (scroll + 1).min(most) },
                Some(Action::Up) => app.mode = Mode::LeftOut { scroll: scroll.saturating_sub(1) },
                Some(Action::PageDown) => app.mode = Mode::LeftOut { scroll: (scroll + 10).min(most) },
                Some(Action::PageUp) => app.mode = Mode::LeftOut { scroll: scroll.saturating_sub(10) },
                Some(Action::Top) => app.mode = Mode::LeftOut { scroll: 0 },
                Some(Action::Bottom) => app.mode = Mode::LeftOut { scroll: most },
                _ => {}
            }
            Vec::new()
        }
        Mode::Search(mut input) => {
            match k.code {
                KeyCode::Esc => {}
                KeyCode::Enter => return run_search(app, &input),
                KeyCode::Backspace => {
                    input.pop();
                    app.mode = Mode::Search(input);
                }
                KeyCode::Char(c) => {
                    input.push(c);
                    app.mode = Mode::Search(input);
                }
                _ => app.mode = Mode::Search(input),
            }
            Vec::new()
        }
        Mode::ConfirmQuit => match k.code {
            KeyCode::Char('y') | KeyCode::Char('q') => {
                app.quit = true;
                vec![Cmd::Quit]
            }
            _ => Vec::new(),
        },
        Mode::ConfirmAccept { action, .. } => match k.code {
            KeyCode::Char('y') => {
                let cmds = accept(app, action);
                app.ensure_cursor_visible();
                cmds
            }
            _ => {
                say(app, "not accepted: nothing decided", false);
                Vec::new()
            }
        },
        Mode::ConfirmInit => match k.code {
            KeyCode::Char('y') => vec![Cmd::InitRepo],
            _ => {
                say(app, "not committed: the memory folder has no git repository", false);
                Vec::new()
            }
        },
        Mode::CommitPreview { message, scroll } => {
            match keymap::action(k) {
                // Enter only: `y` is the review's accept key, pressed by habit.
                Some(Action::Confirm) => return vec![Cmd::Commit],
                // `e` (or `C`): write the message yourself, then see it here again.
                Some(Action::Edit | Action::EditMessage) => return vec![Cmd::EditMessage],
                Some(a @ (Action::Down | Action::Up | Action::PageDown | Action::PageUp)) => {
                    let most = crate::base::text::split_lines(&message).len();
                    let scroll = match a {
                        Action::Down => scroll + 1,
                        Action::PageDown => scroll + 10,
                        Action::Up => scroll.saturating_sub(1),
                        _ => scroll.saturating_sub(10),
                    };
                    app.mode = Mode::CommitPreview { message, scroll: scroll.min(most) }
                }
                _ => {}
            }
            Vec::new()
        }
        Mode::Why(mut w) => {
            let most = w.max_scroll(app.size);
            match keymap::action(k) {
                Some(Action::Down) => w.scroll = (w.scroll + 1).min(most),
                Some(Action::Up) => w.scroll = w.scroll.saturating_sub(1),
                Some(Action::PageDown) => w.scroll = (w.scroll + 10).min(most),
                Some(Action::PageUp) => w.scroll = w.scroll.saturating_sub(10),
                Some(Action::Top) => w.scroll = 0,
                Some(Action::Bottom) => w.scroll = most,
                // Closed: back to the diff, the cursor where it was.
                Some(Action::Cancel | Action::Why | Action::Quit | Action::Confirm) => return Vec::new(),
                _ => {}
            }
            app.mode = Mode::Why(w);
            Vec::new()
        }
        Mode::History(mut h) => {
            let cmds = history_key(app, &mut h, k);
            if matches!(app.mode, Mode::Normal) && !app.quit && !h.closed() {
                app.mode = Mode::History(h);
            }
            cmds
        }
        Mode::Normal => match keymap::action_in(k, app.search.is_some()) {
            Some(a) => act(app, a),
            None => Vec::new(),
        },
    }
}

impl HistoryState {
    /// True once the history view asked to close (no commit selected).
    fn closed(&self) -> bool {
        self.selected.is_none()
    }
}

/// Keys in the history view: the commit list, an opened commit's diff (read-only, same
/// navigation as the review), and revert with a confirmation.
pub(super) fn history_key(app: &mut App, h: &mut HistoryState, k: KeyEvent) -> Vec<Cmd> {
    let action = keymap::action(k);
    if let Some((_, commit, scope)) = h.confirm.take() {
        if k.code == KeyCode::Char('y') {
            // The history stays open: its list is read again once the revert is in.
            h.view = None;
            return vec![Cmd::Revert { commit, scope }];
        }
        return Vec::new();
    }
    let Some((at, entry)) = h.selected.and_then(|s| Some((s, h.entries.get(s)?.clone()))) else {
        h.selected = None;
        return Vec::new();
    };
    if let Some(view) = h.view.as_mut() {
        // The why overlay over the commit owns the keyboard until it closes.
        if matches!(view.mode, Mode::Why(_)) {
            return key(view, k);
        }
        view.status = None;
        match (k.code, action) {
            (_, Some(Action::Cancel | Action::History | Action::Quit)) => h.view = None,
            (_, Some(Action::Why)) => return ask_why(view, Some(&entry.id)),
            (KeyCode::Char('r'), _) => {
                if let Some(hunk) = view.current_hunk().and_then(|x| view.current_file().map(|f| f.hunks[x].id.clone()))
                {
                    let q = format!("Revert hunk {hunk} of {} ({})? y/n", entry.short, entry.summary);
                    h.confirm = Some((q, entry.id.clone(), crate::store::repo::message::RevertScope::Hunk(hunk)));
                }
            }
            (KeyCode::Char('R'), _) => {
                if let Some(path) = view.current_file().map(|f| f.path.clone()) {
                    let q = format!("Revert {path} as changed by {} ({})? y/n", entry.short, entry.summary);
                    h.confirm = Some((q, entry.id.clone(), crate::store::repo::message::RevertScope::File(path)));
                }
            }
            (_, Some(a)) if is_navigation(a) => {
                view.size = app.size;
                return act(view, a);
            }
            _ => {}
        }
        return Vec::new();
    }
    match (k.code, action) {
        (_, Some(Action::Cancel | Action::History | Action::Quit)) => h.selected = None,
        (_, Some(Action::Down)) => h.selected = Some((at + 1).min(h.entries.len().saturating_sub(1))),
        (_, Some(Action::Up)) => h.selected = Some(at.saturating_sub(1)),
        (_, Some(Action::Top)) => h.selected = Some(0),
        (_, Some(Action::Bottom)) => h.selected = Some(h.entries.len().saturating_sub(1)),
        (_, Some(Action::Confirm)) => return vec![Cmd::HistoryDiff(entry.id.clone())],
        (KeyCode::Char('r'), _) => {
            let q = format!("Revert all of {} ({})? y/n", entry.short, entry.summary);
            h.confirm = Some((q, entry.id.clone(), crate::store::repo::message::RevertScope::Commit));
        }
        _ => {}
    }
    Vec::new()
}

pub(super) fn is_navigation(a: Action) -> bool {
    matches!(
        a,
        Action::Down
            | Action::Up
            | Action::PageDown
            | Action::PageUp
            | Action::Top
            | Action::Bottom
            | Action::NextHunk
            | Action::PrevHunk
            | Action::NextFile
            | Action::PrevFile
            | Action::Wrap
            | Action::SideBySide
            | Action::Order
            | Action::FocusEvidence
    )
}

pub(super) fn mouse(app: &mut App, m: MouseEvent) -> Vec<Cmd> {
    // An overlay owns the mouse: the wheel scrolls the help; nothing reaches the panes
    // behind it (a click must not change the file under a question).
    if let Mode::Help { scroll } = app.mode {
        let most = keymap::help_max_scroll(app.size);
        match m.kind {
            MouseEventKind::ScrollDown => app.mode = Mode::Help { scroll: (scroll + 3).min(most) },
            MouseEventKind::ScrollUp => app.mode = Mode::Help { scroll: scroll.saturating_sub(3) },
            _ => {}
        }
        return Vec::new();
    }
    if let Mode::Why(w) = &mut app.mode {
        let most = w.max_scroll(app.size);
        match m.kind {
            MouseEventKind::ScrollDown => w.scroll = (w.scroll + 3).min(most),
            MouseEventKind::ScrollUp => w.scroll = w.scroll.saturating_sub(3),
            _ => {}
        }
        return Vec::new();
    }
    if !matches!(app.mode, Mode::Normal) {
        return Vec::new();
    }
    let panes = app.panes();
    let inside = |r: ratatui::layout::Rect| {
        m.column >= r.x && m.column < r.x + r.width && m.row > r.y && m.row + 1 < r.y + r.height
    };
    let cmds = match m.kind {
        MouseEventKind::Down(MouseButton::Left) if inside(panes.files) => {
            let visible = usize::from(panes.files.height.saturating_sub(2));
            let at = app.files_offset(visible) + usize::from(m.row - panes.files.y - 1);
            match app.file_order().get(at).copied() {
                Some(idx) if idx != app.file => select_file(app, idx),
                _ => Vec::new(),
            }
        }
        MouseEventKind::Down(MouseButton::Left) if inside(panes.diff) => {
            app.focus = Focus::Diff;
            let mut y = panes.diff.y as usize + 1;
            let mut row = app.scroll;
            while row < app.rows.len() {
                let h = app.row_height(row);
                if (m.row as usize) < y + h {
                    break;
                }
                y += h;
                row += 1;
            }
            if app.rows.get(row).is_some_and(|r| r.selectable()) {
                if app.current_hunk() != app.rows.get(row).map(|r| r.hunk) {
                    app.evidence_scroll = 0;
                }
                app.cursor = row;
            }
            Vec::new()
        }
        MouseEventKind::Down(MouseButton::Left) if inside(panes.evidence) => {
            app.focus = Focus::Evidence;
            Vec::new()
        }
        MouseEventKind::ScrollDown if inside(panes.evidence) => {
            app.evidence_scroll += 3;
            Vec::new()
        }
        MouseEventKind::ScrollUp if inside(panes.evidence) => {
            app.evidence_scroll = app.evidence_scroll.saturating_sub(3);
            Vec::new()
        }
        MouseEventKind::ScrollDown => move_cursor(app, 3),
        MouseEventKind::ScrollUp => move_cursor(app, -3),
        _ => Vec::new(),
    };
    app.ensure_cursor_visible();
    cmds
}
