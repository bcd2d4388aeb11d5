//! Running the dreamer: a child process in its own process group, its standard output and
//! error collected (for `run.log`, and the last line for the progress display), stopped
//! when it runs past the timeout or when dreamreview is asked to stop (SIGINT, SIGTERM,
//! SIGHUP): then the whole group gets SIGTERM, and SIGKILL two seconds later.

use anyhow::{Result, anyhow};
use std::io::BufRead;
use std::path::PathBuf;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The signals that ask a run to stop, turned into a flag the run looks at: the run then
/// stops the dreamer, removes its scratch folder and exits `128 + signal`.
#[derive(Debug)]
pub struct Stop {
    flag: Arc<AtomicUsize>,
    ids: Vec<signal_hook::SigId>,
}

impl Stop {
    /// Catches SIGINT, SIGTERM and SIGHUP until dropped.
    pub fn install() -> Result<Stop> {
        let flag = Arc::new(AtomicUsize::new(0));
        let mut ids = Vec::new();
        for sig in [signal_hook::consts::SIGINT, signal_hook::consts::SIGTERM, signal_hook::consts::SIGHUP] {
            ids.push(
                signal_hook::flag::register_usize(sig, Arc::clone(&flag), sig as usize)
                    .map_err(|e| anyhow!("cannot catch signal {sig}: {e}"))?,
            );
        }
        Ok(Stop { flag, ids })
    }

    /// The signal received, if any.
    pub fn signal(&self) -> Option<i32> {
        match self.flag.load(Ordering::SeqCst) {
            0 => None,
            s => i32::try_from(s).ok(),
        }
    }
}

impl Drop for Stop {
    fn drop(&mut self) {
        for id in self.ids.drain(..) {
            signal_hook::low_level::unregister(id);
        }
    }
}

/// The dreamer's command line and surroundings.
#[derive(Clone, Debug)]
pub struct Invocation {
    /// The program and its arguments (the prompt already in place).
    pub argv: Vec<String>,
    /// Extra environment variables.
    pub env: Vec<(String, String)>,
    /// The working directory (the scratch folder).
    pub cwd: PathBuf,
}

/// How the dreamer's run ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ended {
    /// It exited (successfully or not) by itself.
    Exited(ExitStatus),
    /// It ran past the timeout and was stopped.
    TimedOut,
    /// dreamreview received this signal and stopped it.
    Stopped(i32),
}

/// A finished run: how it ended and everything it printed.
#[derive(Clone, Debug)]
pub struct Finished {
    /// How it ended.
    pub ended: Ended,
    /// Its standard output and error, interleaved by line as they came (capped).
    pub output: Vec<u8>,
    /// How long it ran.
    pub elapsed: Duration,
}

/// The most of the dreamer's output kept for `run.log`.
const MAX_OUTPUT: usize = 8 << 20;

#[derive(Default)]
struct Collected {
    output: Vec<u8>,
    last: String,
    truncated: bool,
}

/// Why the dreamer could not be started.
#[derive(Debug)]
pub enum SpawnError {
    /// The program is not on `PATH` (or not there at all).
    NotFound(String),
    /// Any other failure to start it.
    Other(String, std::io::Error),
}

/// Runs the dreamer until it exits, times out or a stop signal comes; `tick` is called
/// about every 100 ms with the time elapsed and its last non-empty output line.
pub fn run(
    inv: &Invocation,
    timeout: Duration,
    stop: &Stop,
    tick: &mut dyn FnMut(Duration, &str),
) -> std::result::Result<Finished, SpawnError> {
    let Some((program, args)) = inv.argv.split_first() else {
        return Err(SpawnError::NotFound(String::new()));
    };
    let mut cmd = Command::new(program);
    cmd.args(args).current_dir(&inv.cwd).stdin(Stdio::null()).stdout(Stdio::piped()).stderr(Stdio::piped());
    for (k, v) in &inv.env {
        cmd.env(k, v);
    }
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt;
        cmd.process_group(0);
    }
    let mut child = match cmd.spawn() {
        Ok(c) => c,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Err(SpawnError::NotFound(program.clone())),
        Err(e) => return Err(SpawnError::Other(program.clone(), e)),
    };
    let start = Instant::now();
    let collected = Arc::new(Mutex::new(Collected::default()));
    let (done_tx, done_rx) = std::sync::mpsc::channel::<()>();
    let mut readers = 0;
    if let Some(out) = child.stdout.take() {
        spawn_reader(out, Arc::clone(&collected), done_tx.clone());
        readers += 1;
    }
    if let Some(err) = child.stderr.take() {
        spawn_reader(err, Arc::clone(&collected), done_tx.clone());
        readers += 1;
    }
    drop(done_tx);
    let ended = loop {
        match child.try_wait() {
            Ok(Some(status)) => break Ended::Exited(status),
            Ok(None) => {}
            Err(_) => {
                stop_group(&mut child);
                break Ended::Stopped(0);
            }
        }
        if let Some(sig) = stop.signal() {
            stop_group(&mut child);
            break Ended::Stopped(sig);
        }
        if start.elapsed() >= timeout {
            stop_group(&mut child);
            break Ended::TimedOut;
        }
        let last = collected.lock().map(|c| c.last.clone()).unwrap_or_default();
        tick(start.elapsed(), &last);
        std::thread::sleep(Duration::from_millis(100));
    };
    let elapsed = start.elapsed();
    // Whatever the dreamer started and left running goes with it.
    signal_group(&child, Sig::Kill);
    // The readers end when the pipes close; a process that left the group could hold
    // them open, so they are waited for a moment only.
    for _ in 0..readers {
        if done_rx.recv_timeout(Duration::from_secs(2)).is_err() {
            break;
        }
    }
    let mut c = collected.lock().map(|mut c| std::mem::take(&mut *c)).unwrap_or_default();
    if c.truncated {
        c.output.extend_from_slice(b"\n[dreamreview: the output past 8 MiB is not kept]\n");
    }
    Ok(Finished { ended, output: c.output, elapsed })
}

fn spawn_reader(
    stream: impl std::io::Read + Send + 'static,
    collected: Arc<Mutex<Collected>>,
    done: std::sync::mpsc::Sender<()>,
) {
    std::thread::spawn(move || {
        let mut reader = std::io::BufReader::new(stream);
        let mut line = Vec::new();
        loop {
            line.clear();
            match reader.read_until(b'\n', &mut line) {
                Ok(0) | Err(_) => break,
                Ok(_) => {}
            }
            let Ok(mut c) = collected.lock() else { break };
            let text = String::from_utf8_lossy(&line);
            let trimmed = text.trim();
            if !trimmed.is_empty() {
                c.last = trimmed.chars().take(200).collect();
            }
            if c.output.len() + line.len() <= MAX_OUTPUT {
                c.output.extend_from_slice(&line);
            } else {
                c.truncated = true;
            }
        }
        let _ = done.send(());
    });
}

#[derive(Clone, Copy)]
enum Sig {
    Term,
    Kill,
}

/// Sends a signal to the child's whole process group (the child leads it).
fn signal_group(child: &Child, sig: Sig) {
    #[cfg(unix)]
    {
        let Ok(pid) = libc::pid_t::try_from(child.id()) else { return };
        let s = match sig {
            Sig::Term => libc::SIGTERM,
            Sig::Kill => libc::SIGKILL,
        };
        // SAFETY: kill(2) on the group this run created for the dreamer.
        unsafe {
            libc::kill(-pid, s);
        }
    }
    #[cfg(not(unix))]
    {
        let _ = (child, sig);
    }
}

/// Stops the dreamer's group: SIGTERM, then SIGKILL when it has not exited in 2 s.
fn stop_group(child: &mut Child) {
    signal_group(child, Sig::Term);
    let deadline = Instant::now() + Duration::from_secs(2);
    while Instant::now() < deadline {
        if let Ok(Some(_)) = child.try_wait() {
            signal_group(child, Sig::Kill);
            return;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    signal_group(child, Sig::Kill);
    let _ = child.kill();
    let _ = child.wait();
}
