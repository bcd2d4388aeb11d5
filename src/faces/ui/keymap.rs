//! Keys → actions, from one table that is also the `?` help overlay (the `git add -p`
//! vocabulary).

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

/// What a key asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    /// Next line.
    Down,
    /// Previous line.
    Up,
    /// Half a page down.
    PageDown,
    /// Half a page up.
    PageUp,
    /// First line of the file.
    Top,
    /// Last line of the file.
    Bottom,
    /// Next hunk (crosses into the next file).
    NextHunk,
    /// Previous hunk.
    PrevHunk,
    /// Next file.
    NextFile,
    /// Previous file.
    PrevFile,
    /// Next hunk carrying a flag.
    NextFlag,
    /// Previous hunk carrying a flag.
    PrevFlag,
    /// Accept the hunk and advance to the next undecided one (or accept the selected lines).
    Accept,
    /// Reject the hunk and advance to the next undecided one (or reject the selected lines).
    Reject,
    /// Accept the rest of the file.
    AcceptRest,
    /// Reject the rest of the file.
    RejectRest,
    /// Toggle the line under the cursor (or the selection).
    ToggleLine,
    /// Start/stop a line selection.
    Select,
    /// Edit the hunk's new side in `$EDITOR`.
    Edit,
    /// Undo the last decision.
    Undo,
    /// Redo.
    Redo,
    /// Reopen what the last review commit of this dream did not take (pending again).
    Again,
    /// Search.
    Search,
    /// Next search match.
    NextMatch,
    /// Previous search match.
    PrevMatch,
    /// Toggle side-by-side.
    SideBySide,
    /// Toggle soft-wrap.
    Wrap,
    /// Order the file list by risk, or back in the review's order.
    Order,
    /// Move the keyboard to the evidence pane and back.
    FocusEvidence,
    /// Commit (shows the message first).
    Commit,
    /// Edit the commit message in the editor git would use, then preview it.
    EditMessage,
    /// The history of the memory repository.
    History,
    /// Why the line under the cursor says what it says (the review and evidence behind it).
    Why,
    /// What the dream left out: deleted notes, the user's corrections and lasting
    /// instructions the resulting memory does not hold.
    LeftOut,
    /// Open a cited transcript of the hunk, as readable turns, in `$PAGER` at the cited
    /// line (again: the next citation).
    OpenSource,
    /// This help.
    Help,
    /// Quit (asks when decisions are not committed).
    Quit,
    /// Suspend to the shell (`C-z`; `fg` brings the review back as it was).
    Suspend,
    /// Close an overlay, cancel a selection or a search.
    Cancel,
    /// Confirm an overlay.
    Confirm,
}

/// One binding: the keys, how help shows them, what they do.
pub struct Binding {
    /// Keys (code, required modifiers).
    pub keys: &'static [(KeyCode, KeyModifiers)],
    /// How the help overlay names the keys.
    pub label: &'static str,
    /// The action.
    pub action: Action,
    /// One line for the help overlay.
    pub help: &'static str,
}

const NONE: KeyModifiers = KeyModifiers::NONE;
const CTRL: KeyModifiers = KeyModifiers::CONTROL;
const SHIFT: KeyModifiers = KeyModifiers::SHIFT;

/// Rows of the `?` overlay's text at a terminal `width` (two columns from 100 wide), its
/// closing note included.
pub fn help_rows(width: u16) -> usize {
    BINDINGS.len().div_ceil(help_columns(width)) + 2
}

/// Columns of bindings the `?` overlay lays out at a terminal `width`.
pub fn help_columns(width: u16) -> usize {
    if width >= 100 { 2 } else { 1 }
}

/// How far the `?` overlay can scroll on a terminal of `size`: the rows its box (at most
/// the terminal's height, with its border) cannot show.
pub fn help_max_scroll(size: (u16, u16)) -> usize {
    let rows = help_rows(size.0);
    rows.saturating_sub((rows + 2).min(usize::from(size.1)).saturating_sub(2))
}

/// Whether the `?` overlay (with its border) is taller than a terminal of `size`: then the
/// moving keys scroll it instead of closing it.
pub fn help_overflows(size: (u16, u16)) -> bool {
    help_rows(size.0) + 2 > usize::from(size.1)
}

/// Every binding, in the order help lists them.
pub const BINDINGS: &[Binding] = &[
    Binding {
        keys: &[(KeyCode::Char('j'), NONE), (KeyCode::Down, NONE)],
        label: "j ↓",
        action: Action::Down,
        help: "next line",
    },
    Binding {
        keys: &[(KeyCode::Char('k'), NONE), (KeyCode::Up, NONE)],
        label: "k ↑",
        action: Action::Up,
        help: "previous line",
    },
    Binding {
        keys: &[(KeyCode::PageDown, NONE), (KeyCode::Char('d'), CTRL)],
        label: "PgDn C-d",
        action: Action::PageDown,
        help: "half a page down",
    },
    Binding {
        keys: &[(KeyCode::PageUp, NONE), (KeyCode::Char('u'), CTRL)],
        label: "PgUp C-u",
        action: Action::PageUp,
        help: "half a page up",
    },
    Binding {
        keys: &[(KeyCode::Home, NONE), (KeyCode::Char('g'), NONE)],
        label: "g Home",
        action: Action::Top,
        help: "first line of the file",
    },
    Binding {
        keys: &[(KeyCode::End, NONE), (KeyCode::Char('G'), SHIFT), (KeyCode::Char('G'), NONE)],
        label: "G End",
        action: Action::Bottom,
        help: "last line of the file",
    },
    Binding { keys: &[(KeyCode::Char(']'), NONE)], label: "]", action: Action::NextHunk, help: "next hunk" },
    Binding { keys: &[(KeyCode::Char('['), NONE)], label: "[", action: Action::PrevHunk, help: "previous hunk" },
    Binding { keys: &[(KeyCode::Tab, NONE)], label: "Tab", action: Action::NextFile, help: "next file" },
    Binding {
        keys: &[(KeyCode::BackTab, SHIFT), (KeyCode::BackTab, NONE)],
        label: "S-Tab",
        action: Action::PrevFile,
        help: "previous file",
    },
    Binding {
        keys: &[(KeyCode::Char('O'), SHIFT), (KeyCode::Char('O'), NONE)],
        label: "O",
        action: Action::Order,
        help: "files by risk / in review order",
    },
    Binding { keys: &[(KeyCode::Char('f'), NONE)], label: "f", action: Action::NextFlag, help: "next flagged hunk" },
    Binding {
        keys: &[(KeyCode::Char('F'), SHIFT), (KeyCode::Char('F'), NONE)],
        label: "F",
        action: Action::PrevFlag,
        help: "previous flagged hunk",
    },
    Binding {
        keys: &[(KeyCode::Char('y'), NONE)],
        label: "y",
        action: Action::Accept,
        help: "accept hunk and advance, or selection",
    },
    Binding {
        keys: &[(KeyCode::Char('n'), NONE)],
        label: "n",
        action: Action::Reject,
        help: "reject (next match while searching)",
    },
    Binding {
        keys: &[(KeyCode::Char('a'), NONE)],
        label: "a",
        action: Action::AcceptRest,
        help: "accept the rest of the file",
    },
    Binding {
        keys: &[(KeyCode::Char('d'), NONE)],
        label: "d",
        action: Action::RejectRest,
        help: "reject the rest of the file",
    },
    Binding {
        keys: &[(KeyCode::Char(' '), NONE)],
        label: "Space",
        action: Action::ToggleLine,
        help: "toggle the line (or selection)",
    },
    Binding { keys: &[(KeyCode::Char('v'), NONE)], label: "v", action: Action::Select, help: "select a line range" },
    Binding {
        keys: &[(KeyCode::Char('e'), NONE)],
        label: "e",
        action: Action::Edit,
        help: "edit in $EDITOR; merges live-changed",
    },
    Binding { keys: &[(KeyCode::Char('u'), NONE)], label: "u", action: Action::Undo, help: "undo" },
    Binding { keys: &[(KeyCode::Char('r'), CTRL)], label: "C-r", action: Action::Redo, help: "redo" },
    Binding {
        keys: &[(KeyCode::Char('A'), SHIFT), (KeyCode::Char('A'), NONE)],
        label: "A",
        action: Action::Again,
        help: "reopen a reviewed dream's leftovers",
    },
    Binding {
        keys: &[(KeyCode::Char('/'), NONE)],
        label: "/",
        action: Action::Search,
        help: "search (Esc ends it; never decides)",
    },
    Binding {
        keys: &[(KeyCode::Char('n'), CTRL)],
        label: "C-n n",
        action: Action::NextMatch,
        help: "next match (n while searching)",
    },
    Binding {
        keys: &[(KeyCode::Char('p'), CTRL)],
        label: "C-p N",
        action: Action::PrevMatch,
        help: "previous match (N while searching)",
    },
    Binding {
        keys: &[(KeyCode::Char('s'), NONE)],
        label: "s",
        action: Action::SideBySide,
        help: "side-by-side / unified",
    },
    Binding { keys: &[(KeyCode::Char('w'), NONE)], label: "w", action: Action::Wrap, help: "soft-wrap on/off" },
    Binding {
        keys: &[(KeyCode::Char('t'), NONE)],
        label: "t",
        action: Action::FocusEvidence,
        help: "focus the evidence pane",
    },
    Binding {
        keys: &[(KeyCode::Char('c'), NONE)],
        label: "c",
        action: Action::Commit,
        help: "commit (shows the message first)",
    },
    Binding {
        keys: &[(KeyCode::Char('C'), SHIFT), (KeyCode::Char('C'), NONE)],
        label: "C",
        action: Action::EditMessage,
        help: "edit the commit message ($EDITOR)",
    },
    Binding {
        keys: &[(KeyCode::Char('h'), NONE)],
        label: "h",
        action: Action::History,
        help: "history (Enter: commit, kept evidence)",
    },
    Binding {
        keys: &[(KeyCode::Char('b'), NONE)],
        label: "b",
        action: Action::Why,
        help: "why this line (review, kept evidence)",
    },
    Binding {
        keys: &[(KeyCode::Char('L'), NONE), (KeyCode::Char('L'), SHIFT)],
        label: "L",
        action: Action::LeftOut,
        help: "what the dream left out",
    },
    Binding {
        keys: &[(KeyCode::Char('o'), NONE)],
        label: "o",
        action: Action::OpenSource,
        help: "read the cited transcript in $PAGER",
    },
    Binding {
        keys: &[(KeyCode::Char('?'), NONE), (KeyCode::Char('?'), SHIFT)],
        label: "?",
        action: Action::Help,
        help: "this help",
    },
    Binding {
        keys: &[(KeyCode::Char('q'), NONE), (KeyCode::Char('c'), CTRL)],
        label: "q C-c",
        action: Action::Quit,
        help: "quit (asks when not committed)",
    },
    Binding {
        keys: &[(KeyCode::Char('z'), CTRL)],
        label: "C-z",
        action: Action::Suspend,
        help: "suspend to the shell (fg resumes)",
    },
    Binding {
        keys: &[(KeyCode::Esc, NONE)],
        label: "Esc",
        action: Action::Cancel,
        help: "close, cancel selection or search",
    },
    Binding { keys: &[(KeyCode::Enter, NONE)], label: "Enter", action: Action::Confirm, help: "confirm" },
];

/// Keys that step through the matches while a search is active (as in less and vim),
/// instead of what [`BINDINGS`] gives them: a search never leads into a decision.
const WHILE_SEARCHING: &[(KeyCode, Action)] =
    &[(KeyCode::Char('n'), Action::NextMatch), (KeyCode::Char('N'), Action::PrevMatch)];

/// The action a key asks for, `searching` when a search is active (`n`/`N` then move to
/// the next/previous match).
pub fn action_in(key: KeyEvent, searching: bool) -> Option<Action> {
    let plain = (key.modifiers & (KeyModifiers::CONTROL | KeyModifiers::ALT)).is_empty();
    let found = WHILE_SEARCHING.iter().find(|(c, _)| *c == key.code).map(|(_, a)| *a);
    match found {
        Some(a) if searching && plain => Some(a),
        _ => action(key),
    }
}

/// The action a key asks for. Shift is ignored for characters that carry their own case.
pub fn action(key: KeyEvent) -> Option<Action> {
    let mods = key.modifiers & (KeyModifiers::CONTROL | KeyModifiers::SHIFT | KeyModifiers::ALT);
    BINDINGS.iter().find(|b| b.keys.iter().any(|(c, m)| *c == key.code && *m == mods)).map(|b| b.action)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn k(c: KeyCode, m: KeyModifiers) -> KeyEvent {
        KeyEvent::new(c, m)
    }

    #[test]
    fn design_keys_map() {
        assert_eq!(action(k(KeyCode::Char('y'), NONE)), Some(Action::Accept));
        assert_eq!(action(k(KeyCode::Char('n'), NONE)), Some(Action::Reject));
        assert_eq!(action(k(KeyCode::Char('n'), CTRL)), Some(Action::NextMatch));
        assert_eq!(action(k(KeyCode::Char('r'), CTRL)), Some(Action::Redo));
        assert_eq!(action(k(KeyCode::Char('F'), SHIFT)), Some(Action::PrevFlag));
        assert_eq!(action(k(KeyCode::BackTab, SHIFT)), Some(Action::PrevFile));
        assert_eq!(action(k(KeyCode::Char('b'), NONE)), Some(Action::Why));
        assert_eq!(action(k(KeyCode::Char('x'), NONE)), None);
    }

    #[test]
    fn no_key_is_bound_twice() {
        let mut seen = std::collections::HashSet::new();
        for b in BINDINGS {
            for key in b.keys {
                assert!(seen.insert(*key), "{:?} bound twice", key);
            }
        }
    }
}
