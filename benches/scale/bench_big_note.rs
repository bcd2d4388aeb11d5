//! One big note, many changed lines (BENCHMARKS.md, "One big note"): a live memory folder
//! whose `services.md` has 8·N lines of note text full of claims (ports, counts with
//! units, versions, backticked commands, paths, URLs, names, dates), and a dream that
//! changes every eighth line — a value changed (most) or the line reworded with the same
//! values (the rest) — so N one-line hunks whose claims provenance checks against the
//! transcripts and against live memory. CHANGES.md has one broad entry citing a whole
//! session (every hunk maps to it), entries citing the lines of a session that state some
//! of the new values (sourced), and entries citing lines that state none of theirs
//! (`citation-unsupported`): provenance runs for real, over two small transcripts.
//!
//! `check --json --memory MEM` is timed at each N, so the growth with N is visible; with
//! `--baseline BIN` a second binary is timed beside it (before/after), and the two outputs
//! are compared byte for byte.
//!
//! ```text
//! cargo bench --bench scale -- big-note /tmp/dr-big --changed 5000,10000,20000,40000,50000
//! ```

use crate::bench_hostile::{git_commit, write_diff, write_folder};
use crate::generator::rng::Rng;
use crate::measure::{self, Cmd, Run};
use anyhow::{Result, bail};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// The sessions of the generated project.
const SESSION_A: &str = "4f1c2b7e-8a90-4d3b-b6e1-2c5d7f9a0b13";
const SESSION_B: &str = "9b2e6d41-3c75-4e8f-a1d0-7e6f5a4b3c21";

const SERVICES: &[&str] = &[
    "billing",
    "ingest",
    "search",
    "checkout",
    "ledger",
    "notify",
    "auth",
    "reports",
    "catalog",
    "pricing",
    "inventory",
    "gateway",
    "scheduler",
    "exporter",
    "mailer",
    "uploads",
];
const PEOPLE: &[&str] = &[
    "Priya Raman",
    "Marcus Webb",
    "Alice Nguyen",
    "Tomás Herrera",
    "Yuki Tanaka",
    "Sara Lindqvist",
    "Omar Haddad",
    "Lena Fischer",
    "Diego Santos",
    "Hannah Cole",
    "Ravi Menon",
    "Ines Duarte",
];
const MONTHS: &[&str] = &["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/// The values one note line states.
#[derive(Clone, Debug)]
struct Values {
    template: usize,
    svc: String,
    person: &'static str,
    port: usize,
    n: usize,
    m: usize,
    version: (usize, usize, usize),
    month: usize,
    day: usize,
}

impl Values {
    fn new(r: &mut Rng, k: usize) -> Values {
        Values {
            template: r.below(9),
            svc: format!("{}-{}", r.pick(SERVICES), k % 1009),
            person: PEOPLE[r.below(PEOPLE.len())],
            port: r.range(1025, 65000),
            n: r.range(3, 4800),
            m: r.range(2, 900),
            version: (r.range(1, 30), r.range(0, 40), r.range(0, 60)),
            month: r.range(1, 12),
            day: r.range(1, 28),
        }
    }

    /// The same line with one value changed.
    fn changed(&self, r: &mut Rng) -> Values {
        let mut v = self.clone();
        match r.below(4) {
            0 => v.port = if v.port < 64999 { v.port + 1 } else { v.port - 1 },
            1 => v.n += r.range(1, 40),
            2 => v.version.2 += 1,
            _ => v.day = v.day % 28 + 1,
        }
        v
    }

    /// The line, in one of two wordings.
    fn line(&self, reworded: bool) -> String {
        let Values { svc, person, port, n, m, .. } = self;
        let (a, b, c) = self.version;
        let (mon, d) = (MONTHS[self.month - 1], self.day);
        let date = format!("2026-{:02}-{:02}", self.month, self.day);
        match (self.template, reworded) {
            (0, false) => format!("- The {svc} worker listens on port {port} and retries {n} times before paging."),
            (0, true) => format!("- {svc}: port {port}; it pages after {n} retries."),
            (1, false) => format!("- `pnpm test --filter @acme/{svc}` runs {n} tests in {m} seconds on CI."),
            (1, true) => format!("- CI runs {n} tests for {svc} (`pnpm test --filter @acme/{svc}`, {m} seconds)."),
            (2, false) => format!("- {person} moved {svc} to PostgreSQL {a}.{b} on {date}."),
            (2, true) => format!("- Since {date} {svc} runs on PostgreSQL {a}.{b} ({person} did the move)."),
            (3, false) => {
                format!("- The nightly export of {svc} takes {n} minutes and writes {m} MB to `exports/{svc}.csv`.")
            }
            (3, true) => format!("- Nightly: {svc} exports {m} MB to `exports/{svc}.csv` in about {n} minutes."),
            (4, false) => format!("- {svc} is pinned to v{a}.{b}.{c}; its build needs {m} GB of memory."),
            (4, true) => format!("- Keep {svc} on v{a}.{b}.{c} (the build uses {m} GB of memory)."),
            (5, false) => {
                format!("- Dashboards for {svc} are at https://grafana.acme.dev/d/{svc} since {mon} {d}, 2026.")
            }
            (5, true) => format!("- See https://grafana.acme.dev/d/{svc} for {svc} (live since {mon} {d}, 2026)."),
            (6, false) => format!("- {person} owns {svc}; the on-call rotation changes every {n} days."),
            (6, true) => format!("- Owner of {svc}: {person}, rotating on-call every {n} days."),
            (7, false) => format!("- Cache entries of {svc} expire after {n} ms (Redis {a}.{b})."),
            (7, true) => format!("- {svc} keeps cache entries for {n} ms in Redis {a}.{b}."),
            (_, false) => format!("- Keep the {svc} runbook short; link the incident notes instead of copying them."),
            (_, true) => format!("- The {svc} runbook stays short and links the incident notes."),
        }
    }
}

/// One generated case: its dream and live memory folders.
pub struct Case {
    /// Lines of the note.
    pub lines: usize,
    /// The dream folder.
    pub dream: PathBuf,
    /// The live memory folder.
    pub memory: PathBuf,
}

/// Writes (or reuses) `dir/big-note-N`: a note of `8 * changed` lines and a dream changing
/// every eighth line.
pub fn generate(dir: &Path, changed: usize, seed: u64) -> Result<Case> {
    let root = dir.join(format!("big-note-{changed}"));
    let dream = root.join("dream");
    let memory = root.join("project/memory");
    let case = Case { lines: 8 * changed + 2, dream: dream.clone(), memory: memory.clone() };
    if dream.join("memory.diff").exists() {
        return Ok(case);
    }
    if root.exists() {
        bail!("{} holds an unfinished case; remove it", root.display());
    }
    let mut r = Rng::new(seed);
    let (mut live, mut proposal) = (String::from("# Services\n\n"), String::from("# Services\n\n"));
    // (block, new values) of the changed lines the transcripts state.
    let mut stated: Vec<(usize, Values)> = Vec::new();
    for k in 0..changed {
        for _ in 0..7 {
            let line = Values::new(&mut r, k).line(false);
            let _ = writeln!(live, "{line}");
            let _ = writeln!(proposal, "{line}");
        }
        let old = Values::new(&mut r, k);
        let _ = writeln!(live, "{}", old.line(false));
        if r.chance(0.25) {
            let _ = writeln!(proposal, "{}", old.line(true));
        } else {
            let new = old.changed(&mut r);
            let _ = writeln!(proposal, "{}", new.line(r.chance(0.2)));
            if stated.len() < 40 && k % 97 == 5 {
                stated.push((k, new));
            }
        }
    }
    let index = "# Memory\n\n- [Services](services.md) — ports, owners, versions and jobs of every service\n\
                 - [Testing](testing.md) — how the suites run\n";
    let testing = "# Testing\n\n- Run the whole suite with `pnpm test`; it needs Redis on port 6379.\n\
                   - Integration tests take about 4 minutes on CI.\n";
    write_folder(&memory, &[("MEMORY.md", index), ("services.md", &live), ("testing.md", testing)])?;
    git_commit(&memory)?;
    write_folder(&dream.join("memory"), &[("MEMORY.md", index), ("services.md", &proposal), ("testing.md", testing)])?;

    // Session A states the new values of `stated` (its line 2·i+2), session B is the
    // week's general talk.
    let project = root.join("project");
    let mut a = Vec::new();
    let mut changes = String::from("# Dream 2026-11-02\n\n");
    let _ = writeln!(
        changes,
        "- memory/services.md: refreshed the facts about each service from this week's sessions ({SESSION_B}.jsonl)"
    );
    for (i, (k, v)) in stated.iter().enumerate() {
        let said = format!("Done: {} Updated the note for block {k}.", v.line(false).trim_start_matches("- "));
        a.push(user(SESSION_A, &format!("Please record the current settings of {}.", v.svc), i));
        a.push(assistant(SESSION_A, &said, i));
        let _ = writeln!(
            changes,
            "- memory/services.md: {} ({SESSION_A}.jsonl:{})",
            v.line(false).trim_start_matches("- "),
            2 * i + 2
        );
    }
    // Entries whose cited line says none of their claims.
    for (i, (_, v)) in stated.iter().take(5).enumerate() {
        let _ = writeln!(
            changes,
            "- memory/services.md: {} now retries {} times ({SESSION_A}.jsonl:{})",
            v.svc,
            v.n + 1000,
            2 * i + 1
        );
    }
    let b: Vec<String> = (0..30)
        .map(|i| {
            let v = Values::new(&mut r, i * 331);
            if i % 2 == 0 {
                user(
                    SESSION_B,
                    &format!("What do we know about {}? {}", v.svc, v.line(false).trim_start_matches("- ")),
                    i,
                )
            } else {
                assistant(SESSION_B, &format!("I checked {} and updated the notes.", v.svc), i)
            }
        })
        .collect();
    std::fs::write(project.join(format!("{SESSION_A}.jsonl")), a.join(""))?;
    std::fs::write(project.join(format!("{SESSION_B}.jsonl")), b.join(""))?;
    std::fs::write(dream.join("CHANGES.md"), changes)?;
    write_diff(&root)?;
    Ok(case)
}

fn envelope(session: &str, i: usize, kind: &str) -> serde_json::Value {
    serde_json::json!({
        "parentUuid": null,
        "isSidechain": false,
        "userType": "external",
        "cwd": "/srv/acme",
        "sessionId": session,
        "version": "2.1.97",
        "gitBranch": "main",
        "type": kind,
        "uuid": format!("{}-{i:04}", &session[..8]),
        "timestamp": format!("2026-11-01T{:02}:{:02}:00.000Z", 9 + i / 60 % 12, i % 60),
    })
}

fn user(session: &str, text: &str, i: usize) -> String {
    let mut v = envelope(session, 2 * i, "user");
    v["message"] = serde_json::json!({"role": "user", "content": text});
    format!("{v}\n")
}

fn assistant(session: &str, text: &str, i: usize) -> String {
    let mut v = envelope(session, 2 * i + 1, "assistant");
    v["message"] = serde_json::json!({
        "model": "claude-opus-4-6",
        "id": format!("msg_{i:06}"),
        "type": "message",
        "role": "assistant",
        "content": [{"type": "text", "text": text}],
    });
    format!("{v}\n")
}

/// Generates each case under `dir` (only that, printing the paths, with `runs` 0) and times `check --json --memory MEM` on it (and on
/// `baseline`, when given, whose output must be byte-identical).
pub fn run(dir: &Path, changed: &[usize], runs: usize, bin: Option<PathBuf>, baseline: Option<PathBuf>) -> Result<()> {
    let bin = bin.unwrap_or_else(|| PathBuf::from(option_env!("CARGO_BIN_EXE_dreamreview").unwrap_or("dreamreview")));
    let cache = tempfile::Builder::new().prefix("dreamreview-bench-cache").tempdir()?;
    let cache_env = format!("XDG_CACHE_HOME={}", cache.path().display());
    let mut rows = Vec::new();
    eprintln!("load average before: {:.2}", measure::load());
    for &n in changed {
        let case = generate(dir, n, 1)?;
        if runs == 0 {
            println!("{} --memory {}", case.dream.display(), case.memory.display());
            continue;
        }
        let argv = |b: &Path| -> Vec<String> {
            let (d, m) = (case.dream.display().to_string(), case.memory.display().to_string());
            ["env", &cache_env, "TZ=UTC", &b.display().to_string(), "check", &d, "--json", "--memory", &m]
                .iter()
                .map(|s| s.to_string())
                .collect()
        };
        let mut cmds = vec![Cmd { label: format!("check --json ({n} changed)"), argv: argv(&bin) }];
        if let Some(base) = &baseline {
            cmds.push(Cmd { label: format!("baseline ({n} changed)"), argv: argv(base) });
        }
        eprintln!("$ {}", cmds[0].line());
        let m = measure::compare(&cmds, runs)?;
        let out = output(&cmds[0])?;
        let same = match cmds.get(1) {
            Some(c) => Some(output(c)? == out),
            None => None,
        };
        rows.push((n, case.lines, out.len(), m, same));
    }
    eprintln!("load average after: {:.2}", measure::load());
    println!(
        "| changed lines | note lines | `check --json` wall | CPU | µs per changed line | peak RSS | JSON | baseline wall | identical |"
    );
    println!("|---|---|---|---|---|---|---|---|---|");
    for (n, lines, bytes, m, same) in rows {
        let Run { wall, rss_kb, .. } = m[0];
        let base = m.get(1).map_or("".to_string(), |b| format!("{:.2} s", b.wall));
        let same = same.map_or("", |s| if s { "yes" } else { "**no**" });
        println!(
            "| {n} | {lines} | {wall:.2} s | {:.2} s | {:.1} | {:.0} MiB | {:.1} MB | {base} | {same} |",
            m[0].cpu(),
            wall * 1e6 / n as f64,
            rss_kb as f64 / 1024.0,
            bytes as f64 / 1e6,
        );
    }
    Ok(())
}

/// The standard output of one run of `cmd`.
fn output(cmd: &Cmd) -> Result<Vec<u8>> {
    let out = std::process::Command::new(&cmd.argv[0]).args(&cmd.argv[1..]).output()?;
    match out.status.code() {
        Some(0 | 1) => Ok(out.stdout),
        _ => bail!("{} failed: {}", cmd.line(), String::from_utf8_lossy(&out.stderr)),
    }
}
