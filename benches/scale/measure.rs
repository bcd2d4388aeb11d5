//! Timing external commands the same way for dreamreview and its anchors: each run is a
//! process started through `/usr/bin/time` (CPU time and peak RSS) with the wall clock
//! taken around it; runs of the commands being compared are interleaved, after a warm-up
//! run of each, and the median is reported.

use anyhow::{Context, Result, bail};
use std::process::{Command, Stdio};
use std::time::Instant;

/// One run of a command.
#[derive(Clone, Copy, Debug, Default)]
pub struct Run {
    /// Wall-clock seconds.
    pub wall: f64,
    /// User CPU seconds.
    pub user: f64,
    /// System CPU seconds.
    pub sys: f64,
    /// Peak resident set size, KiB.
    pub rss_kb: u64,
}

impl Run {
    /// CPU seconds (user + system).
    pub fn cpu(&self) -> f64 {
        self.user + self.sys
    }
}

/// A command to time: a label and its argv.
#[derive(Clone, Debug)]
pub struct Cmd {
    /// Short name for tables.
    pub label: String,
    /// Program and arguments.
    pub argv: Vec<String>,
}

impl Cmd {
    /// A command from a label and words.
    pub fn new(label: &str, argv: &[&str]) -> Cmd {
        Cmd { label: label.to_string(), argv: argv.iter().map(|s| s.to_string()).collect() }
    }

    /// The command line, shell-quoted enough to paste.
    pub fn line(&self) -> String {
        self.argv
            .iter()
            .map(|a| if a.contains(' ') || a.contains('*') { format!("'{a}'") } else { a.clone() })
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// Runs `cmd` once (stdout discarded) and measures it. Exit codes 0 and 1 are fine
/// (`check` exits 1 on error flags, `git diff` on differences, `rg` on no match).
pub fn run(cmd: &Cmd) -> Result<Run> {
    let out = tempfile::NamedTempFile::new()?;
    let start = Instant::now();
    let status = Command::new("/usr/bin/time")
        .arg("-f")
        .arg("%U %S %M")
        .arg("-o")
        .arg(out.path())
        .arg("--")
        .args(&cmd.argv)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .with_context(|| format!("cannot run {}", cmd.line()))?;
    let wall = start.elapsed().as_secs_f64();
    let code = status.code().unwrap_or(-1);
    if code != 0 && code != 1 {
        bail!("{} exited with {status}", cmd.line());
    }
    let text = std::fs::read_to_string(out.path())?;
    let last = text.lines().last().unwrap_or("");
    let f: Vec<&str> = last.split_whitespace().collect();
    let num = |i: usize| f.get(i).and_then(|s| s.parse::<f64>().ok()).unwrap_or(0.0);
    Ok(Run { wall, user: num(0), sys: num(1), rss_kb: num(2) as u64 })
}

/// Median of each field over the runs (fields taken independently).
pub fn median(runs: &[Run]) -> Run {
    let med = |mut v: Vec<f64>| -> f64 {
        v.sort_by(|a, b| a.total_cmp(b));
        if v.is_empty() {
            0.0
        } else if v.len() % 2 == 1 {
            v[v.len() / 2]
        } else {
            (v[v.len() / 2 - 1] + v[v.len() / 2]) / 2.0
        }
    };
    Run {
        wall: med(runs.iter().map(|r| r.wall).collect()),
        user: med(runs.iter().map(|r| r.user).collect()),
        sys: med(runs.iter().map(|r| r.sys).collect()),
        rss_kb: med(runs.iter().map(|r| r.rss_kb as f64).collect()) as u64,
    }
}

/// Runs every command `runs` times, interleaved, after one warm-up run each; returns the
/// median run of each, in order, and prints every run to stderr.
pub fn compare(cmds: &[Cmd], runs: usize) -> Result<Vec<Run>> {
    for c in cmds {
        eprintln!("warm-up: {}", c.line());
        run(c)?;
    }
    let mut all: Vec<Vec<Run>> = vec![Vec::new(); cmds.len()];
    for i in 0..runs {
        for (c, acc) in cmds.iter().zip(all.iter_mut()) {
            let r = run(c)?;
            eprintln!(
                "run {}/{runs} {:<28} wall {:>8.3}s cpu {:>8.3}s rss {:>7} KiB",
                i + 1,
                c.label,
                r.wall,
                r.cpu(),
                r.rss_kb
            );
            acc.push(r);
        }
    }
    Ok(all.iter().map(|r| median(r)).collect())
}

/// Percentile `p` (0..=100) of `v` (sorted in place), nearest rank.
pub fn percentile(v: &mut [f64], p: f64) -> f64 {
    if v.is_empty() {
        return 0.0;
    }
    v.sort_by(|a, b| a.total_cmp(b));
    let rank = ((p / 100.0) * v.len() as f64).ceil() as usize;
    v[rank.clamp(1, v.len()) - 1]
}

/// The 1-minute load average.
pub fn load() -> f64 {
    std::fs::read_to_string("/proc/loadavg")
        .ok()
        .and_then(|s| s.split_whitespace().next().and_then(|x| x.parse().ok()))
        .unwrap_or(0.0)
}
