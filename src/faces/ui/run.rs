//! The runtime: owns the terminal, turns terminal events into messages on an input thread,
//! carries out commands, and runs the analysis and highlighting on their own threads. The
//! screen is redrawn after each batch of messages — never on a timer.

use super::msg::{Cmd, Msg};
use super::state::App;
use super::theme::Theme;
use super::{effects, highlight, update, view};
use crate::model::review::Review;
use crate::store::repo::decisions;
use anyhow::{Context, Result};
use ratatui::DefaultTerminal;
use ratatui::crossterm::event::{self, DisableMouseCapture, EnableMouseCapture, Event};
use ratatui::crossterm::execute;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Sender, channel};
use std::time::Duration;

/// Restores the terminal when dropped: on return, on error and during a panic unwind
/// (ratatui's panic hook restores it before the message is printed, too).
struct TerminalGuard;

impl Drop for TerminalGuard {
    fn drop(&mut self) {
        let _ = execute!(std::io::stdout(), DisableMouseCapture);
        ratatui::restore();
    }
}

/// What the command line learned while opening the review, shown on the first screen.
#[derive(Clone, Debug, Default)]
pub struct Startup {
    /// A status-bar message (decisions restored, a crashed write recovered…).
    pub status: Option<String>,
    /// A demo's temporary copy, deleted when the review closes.
    pub throwaway: Option<std::path::PathBuf>,
    /// The colours (`None`: [`Theme::from_env`]).
    pub theme: Option<Theme>,
}

/// Opens the review TUI on `review` and returns the exit code (0).
pub fn run(review: Review, startup: Startup) -> Result<i32> {
    let theme = startup.theme.clone().unwrap_or_else(Theme::from_env);
    let mut terminal = ratatui::try_init().context("cannot open the terminal (is this an interactive terminal?)")?;
    quiet_caught_panics();
    let _guard = TerminalGuard;
    let _ = execute!(std::io::stdout(), EnableMouseCapture);
    let size = terminal.size().map(|s| (s.width, s.height)).unwrap_or((80, 24));
    let (tx, rx) = channel::<Msg>();
    let paused = Arc::new(AtomicBool::new(false));
    let closed = Arc::new(AtomicBool::new(false));
    let input = spawn_input(tx.clone(), paused.clone(), closed.clone());
    spawn_signals(tx.clone());
    let highlighter = highlight::spawn(tx.clone(), theme.name);
    let store = Some(decisions::Store::open(&review).ok().flatten());
    let mut rt = Runtime { tx: tx.clone(), highlighter, paused: paused.clone(), store };
    let mut app = App::new(review, theme, size);
    app.status = startup.status.map(|text| super::state::Status { text, error: false });
    app.throwaway = startup.throwaway;
    let mut cmds = vec![Cmd::Analyze];
    cmds.extend(update::request_highlight(&mut app));
    draw(&mut terminal, &app)?;
    // Test-only: proves the terminal is restored when the TUI panics (tests/terminal_safety.rs).
    if std::env::var_os("DREAMREVIEW_TEST_PANIC").is_some() {
        panic!("DREAMREVIEW_TEST_PANIC is set: panicking after the first frame, as asked");
    }
    loop {
        // Keys that arrived together save the decisions once (each save is an fsync).
        let batch = std::mem::take(&mut cmds);
        let last_save = batch.iter().rposition(|c| matches!(c, Cmd::Save));
        for (i, c) in batch.into_iter().enumerate() {
            if matches!(c, Cmd::Save) && Some(i) != last_save {
                continue;
            }
            execute(&mut app, c, &mut rt, &mut terminal);
        }
        if app.quit {
            break;
        }
        draw(&mut terminal, &app)?;
        let Ok(msg) = rx.recv() else { break };
        cmds.extend(update::update(&mut app, msg));
        // Apply everything already waiting before drawing again.
        while let Ok(msg) = rx.try_recv() {
            cmds.extend(update::update(&mut app, msg));
        }
    }
    // The key reader stops before the terminal goes to whoever is next (the inbox), so
    // that no key meant for it is read here.
    closed.store(true, Ordering::SeqCst);
    if let Some(h) = input {
        super::hangup::join_within(h, Duration::from_millis(500));
    }
    Ok(0)
}

fn draw(terminal: &mut DefaultTerminal, app: &App) -> Result<()> {
    terminal.draw(|f| view::view(app, f)).context("cannot draw to the terminal")?;
    Ok(())
}

/// Turns SIGTERM, SIGHUP and SIGINT into a message, so the loop saves the decisions and
/// returns through the terminal guard instead of dying with the terminal in raw mode.
fn spawn_signals(tx: Sender<Msg>) {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGTERM, SIGHUP, SIGINT]) else { return };
    std::thread::Builder::new()
        .name("signals".into())
        .spawn(move || {
            for s in signals.forever() {
                if tx.send(Msg::Signal(s)).is_err() {
                    return;
                }
            }
        })
        .ok();
}

/// Reads terminal events on a thread of its own; pausable while `$EDITOR` owns the terminal,
/// and ended by `closed`.
fn spawn_input(
    tx: Sender<Msg>,
    paused: Arc<AtomicBool>,
    closed: Arc<AtomicBool>,
) -> Option<std::thread::JoinHandle<()>> {
    std::thread::Builder::new()
        .name("input".into())
        .spawn(move || {
            let mut hangup = super::hangup::Hangup::default();
            // A dead terminal: leave as on SIGHUP (the decisions are saved).
            let gone = |tx: &Sender<Msg>| {
                let _ = tx.send(Msg::Signal(signal_hook::consts::SIGHUP));
            };
            while !closed.load(Ordering::SeqCst) {
                if paused.load(Ordering::SeqCst) {
                    std::thread::sleep(Duration::from_millis(20));
                    continue;
                }
                let turn = std::time::Instant::now();
                let ready = match event::poll(Duration::from_millis(100)) {
                    Ok(ready) => ready && !paused.load(Ordering::SeqCst) && !closed.load(Ordering::SeqCst),
                    Err(_) => return gone(&tx),
                };
                let msg = match ready.then(event::read) {
                    Some(Ok(Event::Key(k))) => Msg::Key(k),
                    Some(Ok(Event::Mouse(m))) => Msg::Mouse(m),
                    Some(Ok(Event::Resize(w, h))) => Msg::Resize(w, h),
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

/// What the runtime keeps besides the state: the channels, the input pause switch and the
/// decision store.
struct Runtime {
    tx: Sender<Msg>,
    highlighter: Sender<highlight::Job>,
    paused: Arc<AtomicBool>,
    /// The decision store: `None` until looked up, `Some(None)` when the memory folder has
    /// no repository (not looked up again on every save; `git init` resets it).
    store: Option<Option<decisions::Store>>,
}

fn execute(app: &mut App, cmd: Cmd, rt: &mut Runtime, terminal: &mut DefaultTerminal) {
    let tx = rt.tx.clone();
    let send = |m: Msg| {
        let _ = tx.send(m);
    };
    match cmd {
        Cmd::Quit => app.quit = true,
        Cmd::EditMessage => {
            let result = super::effects::message_to_edit(app).and_then(|(from, text)| {
                let editor = super::effects::message_editor(app);
                let edited = edit_in(&editor, "COMMIT_EDITMSG", &text, &rt.paused, terminal)?;
                Ok(crate::store::repo::message::edited_message(&from, &edited.unwrap_or(text)).map(|m| (from, m)))
            });
            for c in update::update(app, Msg::MessageEdited(result)) {
                execute(app, c, rt, terminal);
            }
        }
        Cmd::Pager { path, line, last } => {
            if let Err(e) = page(&path, line, last, &app.review.zone, &rt.paused, terminal) {
                app.status = Some(super::state::Status { text: e, error: true });
            }
        }
        Cmd::Suspend => {
            if let Err(e) = suspend(&rt.paused, terminal) {
                app.status = Some(super::state::Status { text: e, error: true });
            }
        }
        Cmd::Analyze => {
            let review = app.review.clone();
            let generation = app.generation;
            let crash = move |error: String| Msg::AnalysisFailed { generation, error };
            worker(&rt.tx, "analysis", "the analysis", crash, move |tx| {
                // Bytes indexed since this analysis began: a cold run says it is indexing.
                let indexed =
                    || crate::inputs::transcript::index::INDEXED_BYTES.load(std::sync::atomic::Ordering::Relaxed);
                let before = indexed();
                let progress = |done: u64, total: u64| {
                    let indexing = indexed() > before;
                    let _ = tx.send(Msg::Progress { generation, done, total, indexing });
                };
                let analysis = crate::analysis::analyze_with(&review, &progress);
                Some(Msg::Analyzed { generation, analysis: Box::new(analysis) })
            });
        }
        Cmd::CheckEdit { at, text } => {
            let review = app.review.clone();
            let generation = app.generation;
            let crash = |e: String| Msg::Failed(format!("{e}: its flags are the dream's"));
            worker(&rt.tx, "edit-check", "checking your edit", crash, move |_| {
                crate::analysis::check_edit(&review, at, &text).map(|check| Msg::EditChecked { generation, check })
            });
        }
        Cmd::Highlight(file) => {
            if let Some(diff) = app.review.files.get(file) {
                let _ = rt.highlighter.send(highlight::Job { generation: app.generation, file, diff: diff.clone() });
            }
        }
        Cmd::Edit { at, text } => {
            let result = edit_in_editor(&text, &rt.paused, terminal);
            let msg = Msg::Edited { generation: app.generation, at, result };
            for c in update::update(app, msg) {
                execute(app, c, rt, terminal);
            }
        }
        Cmd::Save => {
            if rt.store.is_none() {
                rt.store = Some(decisions::Store::open(&app.review).ok().flatten());
            }
            if let Some(Some(store)) = &rt.store
                && let Err(e) = store.save(&app.review)
            {
                send(Msg::Failed(format!("cannot save decisions: {e:#}")));
            }
        }
        Cmd::PreviewCommit => send(effects::preview_commit(app)),
        Cmd::Commit => send(effects::commit(app)),
        Cmd::InitRepo => {
            rt.store = None;
            send(effects::init_repo(app));
        }
        Cmd::Reload(_) => {
            let inputs = app.review.inputs.clone();
            let zone = app.review.zone.clone();
            let generation = app.generation + 1;
            worker(&rt.tx, "reload", "reloading the review", Msg::ReadFailed, move |_| {
                Some(effects::reload(inputs, zone, generation))
            });
        }
        // Reads of the repository run on a worker: the screen stays live (keys wait in the
        // queue while `busy` says what is being read).
        Cmd::History => {
            let memory = app.review.inputs.memory.clone();
            worker(&rt.tx, "history", "reading the history", Msg::ReadFailed, move |_| {
                // Test-only: proves a worker's panic leaves the TUI running (tests/terminal_safety.rs).
                if std::env::var_os("DREAMREVIEW_TEST_WORKER_PANIC").is_some() {
                    panic!("DREAMREVIEW_TEST_WORKER_PANIC is set: the history read panics, as asked");
                }
                Some(effects::history(&memory))
            });
        }
        Cmd::HistoryDiff(id) => {
            let memory = app.review.inputs.memory.clone();
            worker(&rt.tx, "history-diff", "opening the commit", Msg::ReadFailed, move |_| {
                Some(effects::history_diff(&memory, &id))
            });
        }
        Cmd::Why(shown) => {
            let memory = app.review.inputs.memory.clone();
            worker(&rt.tx, "why", "tracing the line", Msg::ReadFailed, move |_| Some(effects::why(&memory, &shown)));
        }
        Cmd::Revert { commit, scope } => send(effects::revert(app, &commit, &scope)),
    }
}

/// The threads whose panics are caught and reported in the status bar (see [`worker`]):
/// a panic there leaves the terminal as it is. Any other panic restores the terminal
/// first (ratatui's hook), so its message can be read.
const CATCHING: &[&str] = &["analysis", "edit-check", "reload", "history", "history-diff", "why"];

/// Runs `job` on a thread named `name` (one of [`CATCHING`]) and sends the message it
/// returns. When it panics, or no thread can be started, `crash("<doing> crashed")` or
/// `crash("cannot start …")` is sent instead, so the screen never waits for it forever.
fn worker<C, J>(tx: &Sender<Msg>, name: &'static str, doing: &'static str, crash: C, job: J)
where
    C: Fn(String) -> Msg + Clone + Send + 'static,
    J: FnOnce(&Sender<Msg>) -> Option<Msg> + Send + 'static,
{
    debug_assert!(CATCHING.contains(&name));
    let sender = tx.clone();
    let on_crash = crash.clone();
    let started = std::thread::Builder::new().name(name.into()).spawn(move || {
        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| job(&sender)));
        let msg = match result {
            Ok(msg) => msg,
            Err(_) => Some(on_crash(format!("{doing} crashed"))),
        };
        if let Some(msg) = msg {
            let _ = sender.send(msg);
        }
    });
    if let Err(e) = started {
        let _ = tx.send(crash(format!("{doing}: cannot start a thread ({e})")));
    }
}

/// Keeps ratatui's panic hook (restore the terminal, then report) for every thread but the
/// [`CATCHING`] workers: their panics are caught and said in the status bar, and restoring
/// the terminal under a TUI that goes on running would break the screen.
fn quiet_caught_panics() {
    let restore_and_report = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let name = std::thread::current().name().map(str::to_string);
        if !name.is_some_and(|n| CATCHING.contains(&n.as_str())) {
            restore_and_report(info);
        }
    }));
}

/// `o`: the transcript at `path` rendered as turns ([`crate::faces::pager`]) in `$PAGER`
/// (default `less -R`), at the cited line; the terminal is the pager's meanwhile.
fn page(
    path: &std::path::Path,
    line: usize,
    last: usize,
    zone: &crate::base::zone::Zone,
    paused: &Arc<AtomicBool>,
    terminal: &mut DefaultTerminal,
) -> Result<(), String> {
    let (text, at) = crate::faces::pager::render(path, line, last, zone).map_err(|e| format!("{e:#}"))?;
    let dir = tempfile::tempdir().map_err(|e| format!("cannot create a temp file for the pager: {e}"))?;
    let file = dir.path().join("transcript.txt");
    std::fs::write(&file, text).map_err(|e| format!("cannot write {}: {e}", file.display()))?;
    let pager = std::env::var("PAGER").ok().filter(|p| !p.trim().is_empty()).unwrap_or_else(|| "less -R".into());
    paused.store(true, Ordering::SeqCst);
    let _ = execute!(std::io::stdout(), DisableMouseCapture);
    ratatui::restore();
    let status =
        std::process::Command::new("sh").arg("-c").arg(crate::faces::pager::command(&pager, &file, at)).status();
    let reopened = ratatui::crossterm::terminal::enable_raw_mode()
        .and_then(|_| {
            execute!(std::io::stdout(), ratatui::crossterm::terminal::EnterAlternateScreen, EnableMouseCapture)
        })
        .and_then(|_| terminal.clear());
    paused.store(false, Ordering::SeqCst);
    reopened.map_err(|e| format!("cannot restore the terminal after the pager: {e}"))?;
    match status {
        Ok(s) if s.success() => Ok(()),
        Ok(s) => Err(format!("{pager} exited with {s}")),
        Err(e) => Err(format!("cannot run {pager}: {e}; set $PAGER")),
    }
}

/// `C-z`: gives the terminal back to the shell as it was (raw mode off, the alternate
/// screen left, the mouse released), stops the process with `SIGTSTP` as a shell job, and
/// when `fg` continues it takes the terminal again and redraws (as less, vim and lazygit do).
fn suspend(paused: &Arc<AtomicBool>, terminal: &mut DefaultTerminal) -> Result<(), String> {
    paused.store(true, Ordering::SeqCst);
    let _ = execute!(std::io::stdout(), DisableMouseCapture);
    ratatui::restore();
    // Stops here until SIGCONT (`fg`); SIGTSTP is not caught, so its default action runs.
    let stopped = signal_hook::low_level::raise(signal_hook::consts::SIGTSTP);
    let reopened = ratatui::crossterm::terminal::enable_raw_mode()
        .and_then(|_| {
            execute!(std::io::stdout(), ratatui::crossterm::terminal::EnterAlternateScreen, EnableMouseCapture)
        })
        .and_then(|_| terminal.clear());
    paused.store(false, Ordering::SeqCst);
    reopened.map_err(|e| format!("cannot take the terminal back after C-z: {e}"))?;
    stopped.map_err(|e| format!("C-z: cannot suspend ({e})"))
}

/// Suspends the TUI, runs `$VISUAL`/`$EDITOR` (default `vi`) on the text, restores the TUI.
/// `Ok(None)` when the text came back unchanged.
fn edit_in_editor(
    text: &str,
    paused: &Arc<AtomicBool>,
    terminal: &mut DefaultTerminal,
) -> Result<Option<String>, String> {
    let editor = std::env::var("VISUAL").or_else(|_| std::env::var("EDITOR")).unwrap_or_else(|_| "vi".to_string());
    edit_in(&editor, "hunk.md", text, paused, terminal)
}

/// Suspends the TUI, runs `editor` on `text` in a temp file called `name`, restores the TUI.
/// `Ok(None)` when the text came back unchanged.
fn edit_in(
    editor: &str,
    name: &str,
    text: &str,
    paused: &Arc<AtomicBool>,
    terminal: &mut DefaultTerminal,
) -> Result<Option<String>, String> {
    let dir = tempfile::tempdir().map_err(|e| format!("cannot create a temp file for the editor: {e}"))?;
    let path = dir.path().join(name);
    std::fs::write(&path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    paused.store(true, Ordering::SeqCst);
    let _ = execute!(std::io::stdout(), DisableMouseCapture);
    ratatui::restore();
    let status =
        std::process::Command::new("sh").arg("-c").arg(format!("{editor} \"$1\"")).arg("sh").arg(&path).status();
    let reopened = ratatui::crossterm::terminal::enable_raw_mode()
        .and_then(|_| {
            execute!(std::io::stdout(), ratatui::crossterm::terminal::EnterAlternateScreen, EnableMouseCapture)
        })
        .and_then(|_| terminal.clear());
    paused.store(false, Ordering::SeqCst);
    reopened.map_err(|e| format!("cannot restore the terminal after the editor: {e}"))?;
    match status {
        Ok(s) if s.success() => {}
        Ok(s) => return Err(format!("{editor} exited with {s}; the hunk is unchanged")),
        Err(e) => return Err(format!("cannot run {editor}: {e}; set $EDITOR")),
    }
    let edited = std::fs::read_to_string(&path).map_err(|e| format!("cannot read back {}: {e}", path.display()))?;
    Ok(if edited == text { None } else { Some(edited) })
}
