//! The inbox screen (`dreamreview` with no argument), in The Elm Architecture like the
//! review: one state ([`Inbox`]), one message enum ([`Msg`]), a pure [`update`] that returns
//! commands ([`Cmd`]), and a [`view`] that only draws. The places are found at once; each
//! row is loaded and checked off the screen's thread ([`run`]), its result carrying the
//! scan's generation so that a result of an older scan (before `r`, or before a review
//! changed the folders) is dropped.

pub mod run;
pub mod view;

use crate::faces::ui::theme::Theme;
use crate::inputs::inbox::Candidate;
use crate::store::waiting::{Row, State};
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyEventKind, KeyModifiers};

/// One place on the screen: what was found, and what checking it said.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Slot {
    /// Still being checked.
    Checking(Candidate),
    /// Checked: a dream waits.
    Waiting(Row),
    /// Checked: nothing waits there (no change in place, or already reviewed): not shown.
    Nothing,
}

/// The inbox's state.
#[derive(Clone, Debug)]
pub struct Inbox {
    /// The places of the current scan, in order.
    pub slots: Vec<Slot>,
    /// The selected row among the shown ones.
    pub cursor: usize,
    /// The current scan; results of another are dropped.
    pub generation: u64,
    /// Whether the places are being looked for (before any slot is known).
    pub scanning: bool,
    /// A message for the status bar (an error when `error`).
    pub status: Option<(String, bool)>,
    /// Colours.
    pub theme: Theme,
    /// The row to review, once Enter chose it.
    pub chosen: Option<Row>,
    /// Whether the screen should close.
    pub quit: bool,
}

/// Something that happened.
#[derive(Clone, Debug)]
pub enum Msg {
    /// A key press.
    Key(KeyEvent),
    /// The terminal was resized.
    Resize,
    /// Scan `generation` found these places.
    Found { generation: u64, places: Vec<Candidate> },
    /// Scan `generation` checked the place at `index`: a dream waits there (`Some`) or not.
    Checked { generation: u64, index: usize, row: Option<Box<Row>> },
    /// SIGTERM, SIGHUP or SIGINT.
    Signal,
}

/// What the runtime does for the update.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Cmd {
    /// Look for the places again and check each (under the state's new generation).
    Scan(u64),
}

impl Inbox {
    /// An inbox about to scan, with a first status message (a review's error, say).
    pub fn new(theme: Theme, status: Option<(String, bool)>) -> (Inbox, Vec<Cmd>) {
        let inbox = Inbox {
            slots: Vec::new(),
            cursor: 0,
            generation: 1,
            scanning: true,
            status,
            theme,
            chosen: None,
            quit: false,
        };
        (inbox, vec![Cmd::Scan(1)])
    }

    /// The slots shown (every one but [`Slot::Nothing`]), in order.
    pub fn shown(&self) -> Vec<&Slot> {
        self.slots.iter().filter(|s| !matches!(s, Slot::Nothing)).collect()
    }

    /// (checked, total) of the current scan.
    pub fn progress(&self) -> (usize, usize) {
        (self.slots.iter().filter(|s| !matches!(s, Slot::Checking(_))).count(), self.slots.len())
    }

    fn clamp(&mut self) {
        self.cursor = self.cursor.min(self.shown().len().saturating_sub(1));
    }
}

/// The one place state changes.
pub fn update(app: &mut Inbox, msg: Msg) -> Vec<Cmd> {
    match msg {
        Msg::Resize => Vec::new(),
        Msg::Signal => {
            app.quit = true;
            Vec::new()
        }
        Msg::Found { generation, places } if generation == app.generation => {
            app.scanning = false;
            app.slots = places.into_iter().map(Slot::Checking).collect();
            app.clamp();
            Vec::new()
        }
        Msg::Checked { generation, index, row } if generation == app.generation => {
            if let Some(slot) = app.slots.get_mut(index) {
                *slot = match row {
                    Some(r) => Slot::Waiting(*r),
                    None => Slot::Nothing,
                };
            }
            app.clamp();
            Vec::new()
        }
        // A result of an older scan.
        Msg::Found { .. } | Msg::Checked { .. } => Vec::new(),
        Msg::Key(k) => key(app, k),
    }
}

fn key(app: &mut Inbox, k: KeyEvent) -> Vec<Cmd> {
    if k.kind == KeyEventKind::Release {
        return Vec::new();
    }
    let n = app.shown().len();
    match (k.code, k.modifiers) {
        (KeyCode::Char('c'), KeyModifiers::CONTROL) | (KeyCode::Char('q') | KeyCode::Esc, _) => app.quit = true,
        (KeyCode::Char('j') | KeyCode::Down, _) => app.cursor = (app.cursor + 1).min(n.saturating_sub(1)),
        (KeyCode::Char('k') | KeyCode::Up, _) => app.cursor = app.cursor.saturating_sub(1),
        (KeyCode::Char('g') | KeyCode::Home, _) => app.cursor = 0,
        (KeyCode::Char('G') | KeyCode::End, _) => app.cursor = n.saturating_sub(1),
        (KeyCode::Char('r'), _) => {
            app.generation += 1;
            app.scanning = true;
            app.slots.clear();
            app.status = None;
            return vec![Cmd::Scan(app.generation)];
        }
        (KeyCode::Enter, _) => match app.shown().get(app.cursor) {
            Some(Slot::Waiting(row)) => match &row.state {
                State::Ready { .. } => {
                    app.chosen = Some(row.clone());
                    app.quit = true;
                }
                State::NotUnderGit { hint } => app.status = Some((hint.clone(), true)),
                State::Failed { error } => app.status = Some((error.clone(), true)),
                State::Checking => {}
            },
            Some(Slot::Checking(_)) => app.status = Some(("still checking this one: a moment".into(), false)),
            _ => {}
        },
        _ => {}
    }
    Vec::new()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::faces::ui::theme::ThemeName;
    use crate::inputs::inbox::PlaceKind;

    fn place(project: &str) -> Candidate {
        Candidate {
            kind: PlaceKind::ClaudeMemory,
            project: project.into(),
            date: None,
            dream: None,
            memory: Some(project.into()),
            transcripts: None,
        }
    }

    fn ready(project: &str) -> Option<Box<Row>> {
        let state = State::Ready { files: 1, hunks: 2, errors: 0, warnings: 1 };
        Some(Box::new(Row { place: place(project), state, expiring: None }))
    }

    #[test]
    fn results_of_an_older_scan_are_dropped_and_enter_takes_a_checked_row() {
        let (mut app, cmds) = Inbox::new(Theme::new(ThemeName::Mono), None);
        assert_eq!(cmds, vec![Cmd::Scan(1)]);
        update(&mut app, Msg::Found { generation: 1, places: vec![place("a"), place("b"), place("c")] });
        update(&mut app, Msg::Checked { generation: 1, index: 0, row: None });
        update(&mut app, Msg::Key(KeyEvent::from(KeyCode::Enter)));
        assert!(app.chosen.is_none() && app.status.is_some(), "b is still being checked");
        update(&mut app, Msg::Checked { generation: 1, index: 1, row: ready("b") });
        // `r` starts scan 2: what scan 1 still sends is dropped.
        assert_eq!(update(&mut app, Msg::Key(KeyEvent::from(KeyCode::Char('r')))), vec![Cmd::Scan(2)]);
        update(&mut app, Msg::Checked { generation: 1, index: 2, row: ready("c") });
        assert!(app.slots.is_empty());
        update(&mut app, Msg::Found { generation: 2, places: vec![place("b")] });
        update(&mut app, Msg::Checked { generation: 2, index: 0, row: ready("b") });
        update(&mut app, Msg::Key(KeyEvent::from(KeyCode::Enter)));
        assert_eq!(app.chosen.as_ref().map(|r| r.place.project.as_str()), Some("b"));
        assert!(app.quit);
    }
}
