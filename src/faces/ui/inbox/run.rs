//! The inbox's runtime: owns the terminal while the inbox shows, reads keys on a thread it
//! stops (and waits for) before handing the terminal to a review, and checks the rows on a
//! worker thread, one message per row, so the screen stays live and shows how far it is.

use super::{Cmd, Inbox, Msg, update, view};
use crate::faces::ui::theme::Theme;
use crate::inputs::inbox::Places;
use crate::inputs::retention::Retention;
use crate::store::waiting::Row;
use anyhow::{Context, Result};
use ratatui::crossterm::event::{self, Event};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{Sender, channel};
use std::time::Duration;

/// Where the rows are looked for and how they are checked.
#[derive(Clone, Debug, Default)]
pub struct Scan {
    /// Where to look.
    pub places: Places,
    /// The transcript index folder (`None`: scan transcripts whole).
    pub index: Option<PathBuf>,
}

/// Restores the terminal when dropped.
struct TerminalGuard;

impl Drop for TerminalGuard {
    fn drop(&mut self) {
        ratatui::restore();
    }
}

/// Shows the inbox until the reviewer quits (`Ok(None)`) or picks a row to review.
/// `status`: a first message (what the last review said, an error).
pub fn run(scan: &Scan, theme: Theme, status: Option<(String, bool)>) -> Result<Option<Row>> {
    let mut terminal = ratatui::try_init().context("cannot open the terminal (is this an interactive terminal?)")?;
    let _guard = TerminalGuard;
    let (tx, rx) = channel::<Msg>();
    let stop = Arc::new(AtomicBool::new(false));
    let input = spawn_input(tx.clone(), stop.clone());
    let signals = spawn_signals(tx.clone());
    let current = Arc::new(AtomicU64::new(0));
    let (mut app, mut cmds) = Inbox::new(theme, status);
    loop {
        for c in std::mem::take(&mut cmds) {
            match c {
                Cmd::Scan(generation) => {
                    current.store(generation, Ordering::SeqCst);
                    spawn_scan(scan.clone(), generation, current.clone(), tx.clone());
                }
            }
        }
        if app.quit {
            break;
        }
        terminal.draw(|f| view::view(&app, f)).context("cannot draw to the terminal")?;
        let Ok(msg) = rx.recv() else { break };
        cmds.extend(update(&mut app, msg));
        while let Ok(msg) = rx.try_recv() {
            cmds.extend(update(&mut app, msg));
        }
    }
    // A scan still running stops at its next row; the key reader stops before a review
    // takes the terminal, so no key meant for the review is read here.
    current.store(u64::MAX, Ordering::SeqCst);
    stop.store(true, Ordering::SeqCst);
    if let Some(h) = input {
        crate::faces::ui::hangup::join_within(h, Duration::from_millis(500));
    }
    if let Some(h) = signals {
        h.close();
    }
    Ok(app.chosen)
}

/// Finds the places, then checks each, sending one message per row; stops when a newer
/// scan has begun.
fn spawn_scan(scan: Scan, generation: u64, current: Arc<AtomicU64>, tx: Sender<Msg>) {
    let job = move || {
        let places = crate::inputs::inbox::discover(&scan.places);
        let _ = tx.send(Msg::Found { generation, places: places.clone() });
        let retention = Retention::of_user();
        for (index, place) in places.iter().enumerate() {
            if current.load(Ordering::SeqCst) != generation {
                return;
            }
            // A panic on one row (a bug) leaves that row failed, not the screen.
            let row = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                crate::store::waiting::check(place, scan.index.clone(), &retention)
            }))
            .unwrap_or_else(|_| {
                Some(Row {
                    place: place.clone(),
                    state: crate::store::waiting::State::Failed { error: "checking this dream crashed".into() },
                    expiring: None,
                })
            });
            if tx.send(Msg::Checked { generation, index, row: row.map(Box::new) }).is_err() {
                return;
            }
        }
    };
    if std::thread::Builder::new().name("inbox-scan".into()).spawn(job).is_err() {
        // No thread: the screen says so rather than waiting forever.
        let _ = std::io::Write::flush(&mut std::io::stderr());
    }
}

fn spawn_input(tx: Sender<Msg>, stop: Arc<AtomicBool>) -> Option<std::thread::JoinHandle<()>> {
    std::thread::Builder::new()
        .name("inbox-input".into())
        .spawn(move || {
            let mut hangup = crate::faces::ui::hangup::Hangup::default();
            // A dead terminal: close as on SIGHUP.
            let gone = |tx: &Sender<Msg>| {
                let _ = tx.send(Msg::Signal);
            };
            while !stop.load(Ordering::SeqCst) {
                let turn = std::time::Instant::now();
                let ready = match event::poll(Duration::from_millis(50)) {
                    Ok(ready) => ready,
                    Err(_) => return gone(&tx),
                };
                if stop.load(Ordering::SeqCst) {
                    return;
                }
                let msg = match ready.then(event::read) {
                    Some(Ok(Event::Key(k))) => Msg::Key(k),
                    Some(Ok(Event::Resize(..))) => Msg::Resize,
                    Some(Err(_)) => return gone(&tx),
                    _ => {
                        if hangup.empty_turn(turn.elapsed()) {
                            return gone(&tx);
                        }
                        continue;
                    }
                };
                hangup.answered();
                if tx.send(msg).is_err() {
                    return;
                }
            }
        })
        .ok()
}

/// SIGTERM, SIGHUP and SIGINT close the inbox through its terminal guard.
fn spawn_signals(tx: Sender<Msg>) -> Option<signal_hook::iterator::Handle> {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    let mut signals = signal_hook::iterator::Signals::new([SIGTERM, SIGHUP, SIGINT]).ok()?;
    let handle = signals.handle();
    std::thread::Builder::new()
        .name("inbox-signals".into())
        .spawn(move || {
            if signals.forever().next().is_some() {
                let _ = tx.send(Msg::Signal);
            }
        })
        .ok()?;
    Some(handle)
}
