//! The terminal is restored on every exit path: a panic inside the TUI, and SIGTERM, SIGINT or
//! SIGHUP during a review (which also keep the saved decisions). Runs the real binary in a tmux pane and
//! checks the pane afterwards: not in the alternate screen, not in raw mode.

use crate::common::*;
use dreamreview::model::ids::HunkId;
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

pub(crate) fn tmux(args: &[&str]) -> String {
    let out = Command::new("tmux").args(args).output().expect("run tmux");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn have_tmux() -> bool {
    Command::new("tmux").arg("-V").output().is_ok_and(|o| o.status.success())
}

/// Whether the tmux tests can run. Without tmux they fail (a missing tmux must not turn
/// the only terminal-restore tests green), unless `DREAMREVIEW_SKIP_TMUX` says to skip.
pub(crate) fn tmux_available() -> bool {
    if have_tmux() {
        return true;
    }
    assert!(
        std::env::var_os("DREAMREVIEW_SKIP_TMUX").is_some(),
        "tmux is not installed: install it, or set DREAMREVIEW_SKIP_TMUX=1 to skip the terminal-safety tests"
    );
    skip("terminal_safety", "DREAMREVIEW_SKIP_TMUX is set and tmux is not installed: terminal safety not checked");
    false
}

pub(crate) fn wait_for(what: &str, mut ok: impl FnMut() -> bool) {
    let start = Instant::now();
    while !ok() {
        assert!(start.elapsed() < Duration::from_secs(20), "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// Starts `command` in a detached 80x24 tmux session on its own server socket, followed by
/// `stty -a` into `stty` so the terminal state after the program can be read.
pub(crate) fn start(socket: &str, command: &str, stty: &Path) {
    // The transcript index goes to the tests' cache folder, never the user's.
    let cache = crate::common::cache_home().display();
    let script = format!("export XDG_CACHE_HOME={cache}; {command}; stty -a > {}; sleep 60", stty.display());
    tmux(&["-L", socket, "new-session", "-d", "-s", "t", "-x", "80", "-y", "24", &script]);
}

pub(crate) fn assert_restored(socket: &str, stty: &Path) {
    wait_for("the program to exit", || stty.exists() && std::fs::read_to_string(stty).is_ok_and(|s| !s.is_empty()));
    let modes = std::fs::read_to_string(stty).unwrap();
    let words: Vec<&str> = modes.split_whitespace().collect();
    assert!(words.contains(&"icanon") && words.contains(&"echo"), "terminal left in raw mode:\n{modes}");
    let alt = tmux(&["-L", socket, "display-message", "-p", "-t", "t", "#{alternate_on}"]);
    assert_eq!(alt.trim(), "0", "terminal left in the alternate screen");
}

#[test]
fn a_panic_in_the_tui_restores_the_terminal() {
    if !tmux_available() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let stty = dir.path().join("stty.txt");
    let socket = format!("drpanic{}", std::process::id());
    let bin = env!("CARGO_BIN_EXE_dreamreview");
    start(
        &socket,
        &format!("cd {} && RUST_BACKTRACE=0 DREAMREVIEW_TEST_PANIC=1 {bin} demo", dir.path().display()),
        &stty,
    );
    assert_restored(&socket, &stty);
    let pane = tmux(&["-L", &socket, "capture-pane", "-p", "-t", "t"]);
    tmux(&["-L", &socket, "kill-server"]);
    assert!(pane.contains("DREAMREVIEW_TEST_PANIC is set"), "panic message not shown:\n{pane}");
}

/// A panic on a worker (here the history read) is caught and said in the status bar: the
/// TUI goes on running in its screen (the terminal is not restored under it), and quitting
/// restores the terminal as usual.
#[test]
fn a_panic_on_a_worker_leaves_the_tui_running() {
    if !tmux_available() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let stty = dir.path().join("stty.txt");
    let socket = format!("drworker{}", std::process::id());
    let bin = env!("CARGO_BIN_EXE_dreamreview");
    let pane = || tmux(&["-L", &socket, "capture-pane", "-p", "-t", "t"]);
    start(
        &socket,
        &format!("cd {} && RUST_BACKTRACE=0 DREAMREVIEW_TEST_WORKER_PANIC=1 {bin} demo", dir.path().display()),
        &stty,
    );
    wait_for("the review screen", || pane().contains("Files"));
    tmux(&["-L", &socket, "send-keys", "-t", "t", "h"]);
    wait_for("the crash in the status bar", || pane().contains("reading the history crashed"));
    let screen = pane();
    assert!(!screen.contains("DREAMREVIEW_TEST_WORKER_PANIC"), "the panic message was printed over the TUI:\n{screen}");
    let alt = tmux(&["-L", &socket, "display-message", "-p", "-t", "t", "#{alternate_on}"]);
    assert_eq!(alt.trim(), "1", "the terminal was restored under the running TUI");
    tmux(&["-L", &socket, "send-keys", "-t", "t", "q"]);
    assert_restored(&socket, &stty);
    tmux(&["-L", &socket, "kill-server"]);
}

/// SIGTERM, SIGINT (`kill -INT`: Ctrl-C is a key in raw mode) and SIGHUP (the terminal
/// closed) each end the review with the terminal restored and the decision kept.
#[test]
fn a_signal_during_a_review_keeps_decisions_and_restores_the_terminal() {
    if !tmux_available() {
        return;
    }
    for signal in ["TERM", "INT", "HUP"] {
        killed_by(signal);
    }
}

fn killed_by(signal: &str) {
    let (_g, dream, memory) = pnpm();
    git(&memory, &["init", "-q"]);
    git(&memory, &["add", "-A"]);
    git(&memory, &["commit", "-qm", "init"]);
    let stty = dream.parent().unwrap().join("stty.txt");
    let socket = format!("drsig{signal}{}", std::process::id());
    let bin = env!("CARGO_BIN_EXE_dreamreview");
    start(&socket, &format!("{bin} {} --memory {}", dream.display(), memory.display()), &stty);
    wait_for("the review screen", || tmux(&["-L", &socket, "capture-pane", "-p", "-t", "t"]).contains("testing.md#1"));
    tmux(&["-L", &socket, "send-keys", "-t", "t", "y"]);
    wait_for("the decision", || tmux(&["-L", &socket, "capture-pane", "-p", "-t", "t"]).contains("Files 1/1"));
    let pid = tmux(&["-L", &socket, "display-message", "-p", "-t", "t", "#{pane_pid}"]);
    // The TUI is the shell's child.
    let child = Command::new("pgrep").args(["-P", pid.trim()]).output().unwrap();
    let child = String::from_utf8_lossy(&child.stdout).lines().next().unwrap_or("").trim().to_string();
    assert!(!child.is_empty(), "no dreamreview process under the pane");
    Command::new("kill").args([&format!("-{signal}"), &child]).status().unwrap();
    assert_restored(&socket, &stty);
    tmux(&["-L", &socket, "kill-server"]);
    // Reopening the same dream restores the decision.
    let inputs = dreamreview::inputs::dream::discover(Some(&dream), Some(&memory), &[]).unwrap();
    let mut review = dreamreview::store::repo::load_review(inputs).unwrap();
    let restored = dreamreview::store::repo::decisions::restore(&mut review).unwrap();
    assert_eq!(restored.applied, 1, "SIG{signal}: the decision survives");
    assert_eq!(review.decisions[HunkId::new(0, 0)].state(), dreamreview::model::decision::HunkState::Accepted);
}
