//! Terminal safety, checked on a real terminal (tmux): a review killed by a signal keeps
//! the decisions saved so far and gives the terminal back (alternate screen left, the
//! shell usable). Skipped where tmux is missing.
//!
//! `killed_review_keeps_decisions_and_restores_the_terminal` is ignored for now: SIGTERM,
//! SIGINT (`kill -INT`, not Ctrl-C, which raw mode turns into a key) and SIGHUP end the
//! process without leaving the alternate screen (found by this test; the TUI needs a
//! signal handler). The decisions part holds already. Run it with `--ignored`.

mod hardening_support;
use hardening_support::*;
use std::process::Command;
use std::time::{Duration, Instant};

fn tmux(args: &[&str]) -> Option<String> {
    let out = Command::new("tmux").args(args).output().ok()?;
    out.status.success().then(|| String::from_utf8_lossy(&out.stdout).into_owned())
}

/// Kills the tmux session when the test ends.
struct Session(String);

impl Drop for Session {
    fn drop(&mut self) {
        let _ = tmux(&["kill-session", "-t", &self.0]);
    }
}

/// Polls `f` every 100 ms for up to 20 s.
fn wait_for(what: &str, mut f: impl FnMut() -> bool) {
    let start = Instant::now();
    while !f() {
        assert!(start.elapsed() < Duration::from_secs(20), "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(100));
    }
}

#[test]
#[ignore = "the TUI does not restore the terminal on SIGTERM/SIGINT/SIGHUP yet"]
fn killed_review_keeps_decisions_and_restores_the_terminal() {
    if tmux(&["-V"]).is_none() {
        eprintln!("skipped: no tmux");
        return;
    }
    for signal in ["TERM", "INT", "HUP"] {
        let p = Project::standard();
        let name = format!("dreamreview-hardening-{}-{signal}", std::process::id());
        let cmd = format!(
            "NO_COLOR=1 HOME={root} '{bin}' '{dream}' --memory '{memory}'; echo EXITED-$?; sleep 60",
            root = s(&p.root),
            bin = env!("CARGO_BIN_EXE_dreamreview"),
            dream = s(&p.dream),
            memory = s(&p.memory)
        );
        tmux(&["new-session", "-d", "-s", &name, "-x", "120", "-y", "30", &cmd]).expect("tmux session");
        let _session = Session(name.clone());
        let pane = || tmux(&["capture-pane", "-p", "-t", &name]).unwrap_or_default();
        wait_for("the review to open", || pane().contains("testing.md"));
        tmux(&["send-keys", "-t", &name, "y"]).unwrap();
        let state_dir = p.memory.join(".git/dreamreview");
        let saved = || {
            std::fs::read_dir(&state_dir)
                .into_iter()
                .flatten()
                .flatten()
                .filter(|e| e.file_name().to_string_lossy().ends_with(".json"))
                .any(|e| std::fs::read_to_string(e.path()).unwrap_or_default().contains("\"accepted\""))
        };
        wait_for("the decision to be saved", saved);
        let shell = tmux(&["display", "-p", "-t", &name, "#{pane_pid}"]).unwrap();
        let child = Command::new("pgrep").args(["-P", shell.trim()]).output().unwrap();
        let pid = String::from_utf8_lossy(&child.stdout).lines().next().unwrap_or_default().to_string();
        assert!(!pid.is_empty(), "no dreamreview process under the pane");
        assert!(Command::new("kill").args([&format!("-{signal}"), &pid]).status().unwrap().success());
        wait_for("the process to end", || pane().contains("EXITED-"));
        assert!(saved(), "{signal}: the saved decision survives");
        let alt = tmux(&["display", "-p", "-t", &name, "#{alternate_on}"]).unwrap();
        assert_eq!(alt.trim(), "0", "{signal}: the terminal is still in the alternate screen:\n{}", pane());
    }
}
