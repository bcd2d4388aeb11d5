//! `dreamreview dream`: the night's dream pass, run safely. For one Claude Code project:
//!
//! 1. take the project's dream lock (one dream per project at a time);
//! 2. pick the sessions active in the window, by their last event ([`crate::inputs::sessions_window`]);
//! 3. copy the memory folder and those transcripts (sub-agents included) into a private
//!    [`scratch::Scratch`] folder, removed however the run ends;
//! 4. run the dreamer there ([`dreamer`]), with a timeout, stopping it on SIGINT/SIGTERM;
//! 5. refuse the result when anything outside the copy's `memory/` and `CHANGES.md`
//!    changed; otherwise write `dream-YYYY-MM-DD/` (`memory/`, `CHANGES.md`, `memory.diff`
//!    as `diff -ruN LIVE PROPOSED` ([`unified`]), `run.log`) into the dreams folder.
//!
//! The live memory folder is only read. The run's own choices (command, prompt, timeout,
//! the `--all` gate) are a [`DreamSettings`].

pub mod dreamer;
pub mod project;
pub mod scratch;
pub mod settings;
pub mod unified;

pub use project::{GateVerdict, Project, days_before, dreams_dir, gate, last_dream, state_dir};
pub use settings::{DEFAULT_COMMAND, DEFAULT_PROMPT, DEFAULT_WINDOW_DAYS, DREAMER_ENV, DreamSettings};

use crate::inputs::sessions_window::{self, Session};
use crate::inputs::snapshot::{Entry, Snapshot};
use anyhow::{Context, Result, anyhow, bail};
use jiff::Timestamp;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// What one run needs besides the project and the settings.
#[derive(Clone, Debug)]
pub struct RunOptions {
    /// The folder `dream-YYYY-MM-DD/` goes in (`<dreams>/<project>` or `--out`).
    pub out: PathBuf,
    /// The project's state folder (lock, `.last-dream`).
    pub state: PathBuf,
    /// Sessions with an event at or after this are read.
    pub since: Timestamp,
    /// The longest the dreamer may run.
    pub timeout: Duration,
}

/// How a run ended.
#[derive(Debug)]
pub enum Outcome {
    /// The dream folder was written.
    Written {
        /// `…/dream-YYYY-MM-DD`.
        folder: PathBuf,
        /// Sessions copied.
        sessions: usize,
        /// Notes the dream changes (added, removed or modified).
        changed: usize,
        /// Notes a session changed in live memory while the dream ran (the dream was
        /// taken against the copy made at the start; `memory.diff` says so).
        live_moved: Vec<String>,
    },
    /// The dreamer changed no note (nothing is written but the time of the run).
    Unchanged {
        /// Sessions copied.
        sessions: usize,
    },
    /// No session was active in the window: nothing to dream.
    NoSessions,
    /// The dreamer failed: exited with a code, or ran past the timeout.
    Failed {
        /// The dreamer's exit code (or 1 when it had none: a timeout, a signal).
        code: i32,
        /// What happened, one sentence.
        why: String,
        /// The kept run.log.
        log: Option<PathBuf>,
    },
    /// dreamreview was asked to stop (the dreamer was stopped with it).
    Stopped {
        /// The signal.
        signal: i32,
        /// The kept run.log.
        log: Option<PathBuf>,
    },
    /// The dreamer changed something outside `memory/` and `CHANGES.md`: nothing kept.
    Refused {
        /// The paths (relative to the scratch folder) and what happened to each.
        paths: Vec<String>,
        /// The kept run.log.
        log: Option<PathBuf>,
    },
}

/// The error when the dreamer cannot be started.
pub fn missing_dreamer(program: &str) -> anyhow::Error {
    if program == "claude" {
        anyhow!(
            "cannot run the dreamer: `claude` (Claude Code) is not on PATH. Install it \
             (`npm install -g @anthropic-ai/claude-code`, see https://docs.anthropic.com/en/docs/claude-code), \
             or name another dreamer with --dreamer CMD or DREAMREVIEW_DREAMER"
        )
    } else {
        anyhow!(
            "cannot run the dreamer: `{program}` is not found (not on PATH, or no such file). \
             Install it, or name another dreamer with --dreamer CMD or DREAMREVIEW_DREAMER"
        )
    }
}

/// Runs the dream of one project. `tick` gets the elapsed time and the dreamer's last
/// output line while it runs.
pub fn run(
    project: &Project,
    settings: &DreamSettings,
    opts: &RunOptions,
    stop: &dreamer::Stop,
    tick: &mut dyn FnMut(Duration, &str),
) -> Result<Outcome> {
    let lock_path = opts.state.join(".lock");
    if let Some(h) = crate::store::repo::lock::holder_at(&lock_path)? {
        bail!(
            "a dream of {} is already running ({}); wait for it to finish (its lock {} is released \
             the moment it exits)",
            project.name,
            h.describe(),
            lock_path.display()
        );
    }
    let _lock = crate::store::repo::lock::RepoLock::acquire_at(&lock_path)
        .map_err(|e| anyhow!("a dream of {} may be running already: {e:#}", project.name))?;
    let started = Timestamp::now();
    let all = sessions_window::sessions(&project.dir)?;
    let active: Vec<&Session> = sessions_window::active_since(&all, opts.since);
    if active.is_empty() {
        return Ok(Outcome::NoSessions);
    }
    let prompt = prompt_text(settings, &active, opts.since)?;
    let scratch = scratch::Scratch::new()?;
    // The base: live memory as the dream sees it, with its files' times for memory.diff.
    crate::inputs::limits::check_folder(&project.memory)?;
    let base = crate::inputs::snapshot::read_folder(&project.memory)?;
    let base_times = mtimes(&project.memory, &base);
    write_notes(&scratch.memory(), &base)?;
    copy_transcripts(&scratch.transcripts(), &project.dir, &active, stop)?;
    if let Some(sig) = stop.signal() {
        return Ok(Outcome::Stopped { signal: sig, log: None });
    }
    let before = scratch::fingerprint(scratch.path())?;
    let inv = invocation(settings, &prompt, &scratch);
    let mut log = LogText::new(project, &inv, &active, opts.since, started);
    let finished = match dreamer::run(&inv, opts.timeout, stop, tick) {
        Ok(f) => f,
        Err(dreamer::SpawnError::NotFound(p)) => return Err(missing_dreamer(&p)),
        Err(dreamer::SpawnError::Other(p, e)) => return Err(anyhow!("cannot run the dreamer `{p}`: {e}")),
    };
    log.output(&finished);
    let failed_log = |log: &LogText| keep_failed_log(&opts.out, log, started);
    match finished.ended {
        dreamer::Ended::Exited(s) if s.success() => {}
        dreamer::Ended::Exited(s) => {
            let code = s.code().unwrap_or(1);
            let why = match s.code() {
                Some(c) => format!("the dreamer exited with code {c}"),
                None => "the dreamer was killed by a signal".to_string(),
            };
            return Ok(Outcome::Failed { code: if code == 0 { 1 } else { code }, why, log: failed_log(&log) });
        }
        dreamer::Ended::TimedOut => {
            let why = format!("the dreamer ran past the timeout ({}) and was stopped", human(opts.timeout));
            return Ok(Outcome::Failed { code: 1, why, log: failed_log(&log) });
        }
        dreamer::Ended::Stopped(sig) => return Ok(Outcome::Stopped { signal: sig, log: failed_log(&log) }),
    }
    let after = scratch::fingerprint(scratch.path())?;
    let mut outside = scratch::outside_changes(&before, &after);
    outside.extend(odd_entries(&after, &before));
    if !outside.is_empty() {
        log.line(&format!("refused: changed outside memory/ and CHANGES.md: {}", outside.join(", ")));
        return Ok(Outcome::Refused { paths: outside, log: failed_log(&log) });
    }
    let proposed = crate::inputs::snapshot::read_folder(&scratch.memory())?;
    let changes = std::fs::read(scratch.changes()).ok();
    let changed = changed_notes(&base, &proposed);
    record_last_dream(&opts.state, started);
    if changed == 0 {
        return Ok(Outcome::Unchanged { sessions: active.len() });
    }
    let live_now = crate::inputs::snapshot::read_folder(&project.memory).unwrap_or_default();
    let live_moved = changed_paths(&base, &live_now);
    if !live_moved.is_empty() {
        log.line(&format!(
            "note: live memory changed while the dream ran ({}); memory.diff is against the copy taken at the start",
            live_moved.join(", ")
        ));
    }
    let folder =
        write_dream(&opts.out, &project.memory, &base, &base_times, &proposed, changes.as_deref(), &log, started)?;
    drop(scratch);
    Ok(Outcome::Written { folder, sessions: active.len(), changed, live_moved })
}

/// The prompt: the shipped one or `prompt_file`, with `{since}`, `{today}`, `{sessions}`
/// and `{session_count}` filled in.
fn prompt_text(settings: &DreamSettings, active: &[&Session], since: Timestamp) -> Result<String> {
    let template = match &settings.prompt_file {
        Some(p) => {
            std::fs::read_to_string(p).with_context(|| format!("cannot read the prompt file {}", p.display()))?
        }
        None => DEFAULT_PROMPT.to_string(),
    };
    let list: Vec<String> = active
        .iter()
        .map(|s| {
            let last = s.last_event.map(|t| t.to_string()).unwrap_or_default();
            let subs = if s.subagents.is_empty() {
                String::new()
            } else {
                format!(", {} sub-agent transcript{}", s.subagents.len(), if s.subagents.len() == 1 { "" } else { "s" })
            };
            format!("- transcripts/{}.jsonl (last event {last}{subs})", s.id)
        })
        .collect();
    let today = jiff::ZonedDateTime::now().date().to_string();
    Ok(template
        .replace("{since}", &since.to_string())
        .replace("{today}", &today)
        .replace("{session_count}", &active.len().to_string())
        .replace("{sessions}", &list.join("\n")))
}

/// The dreamer's command line, environment and working directory.
fn invocation(settings: &DreamSettings, prompt: &str, scratch: &scratch::Scratch) -> dreamer::Invocation {
    let mut argv: Vec<String> = settings.command.clone();
    if argv.iter().any(|a| a.contains("{prompt}")) {
        for a in &mut argv {
            *a = a.replace("{prompt}", prompt);
        }
    } else {
        argv.push(prompt.to_string());
    }
    let mut env: Vec<(String, String)> = DREAMER_ENV.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
    env.push(("DREAMREVIEW_SCRATCH".into(), scratch.path().display().to_string()));
    env.push(("DREAMREVIEW_MEMORY".into(), scratch.memory().display().to_string()));
    env.push(("DREAMREVIEW_TRANSCRIPTS".into(), scratch.transcripts().display().to_string()));
    dreamer::Invocation { argv, env, cwd: scratch.path().to_path_buf() }
}

/// The files' modification times (seconds, nanoseconds), for memory.diff's headers.
fn mtimes(root: &Path, notes: &Snapshot) -> std::collections::BTreeMap<String, (i64, u32)> {
    notes.keys().map(|k| (k.clone(), mtime_of(&root.join(k)))).collect()
}

fn mtime_of(path: &Path) -> (i64, u32) {
    let Ok(t) = std::fs::metadata(path).and_then(|m| m.modified()) else { return (0, 0) };
    match t.duration_since(std::time::UNIX_EPOCH) {
        Ok(d) => (d.as_secs() as i64, d.subsec_nanos()),
        Err(e) => {
            let d = e.duration();
            if d.subsec_nanos() == 0 {
                (-(d.as_secs() as i64), 0)
            } else {
                (-(d.as_secs() as i64) - 1, 1_000_000_000 - d.subsec_nanos())
            }
        }
    }
}

/// Writes notes (files and symlinks) under `root`.
fn write_notes(root: &Path, notes: &Snapshot) -> Result<()> {
    std::fs::create_dir_all(root).with_context(|| format!("cannot create {}", root.display()))?;
    for (rel, entry) in notes {
        let path = root.join(rel);
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
        }
        match entry {
            Entry::File(bytes) => {
                std::fs::write(&path, bytes).with_context(|| format!("cannot write {}", path.display()))?
            }
            Entry::Symlink(target) => {
                #[cfg(unix)]
                std::os::unix::fs::symlink(target, &path)
                    .with_context(|| format!("cannot make the symlink {}", path.display()))?;
                #[cfg(not(unix))]
                let _ = target;
            }
        }
    }
    Ok(())
}

/// Copies the sessions' transcripts (sub-agents under `<id>/subagents/`), read-only.
fn copy_transcripts(to: &Path, project: &Path, active: &[&Session], stop: &dreamer::Stop) -> Result<()> {
    std::fs::create_dir_all(to).with_context(|| format!("cannot create {}", to.display()))?;
    for s in active {
        if stop.signal().is_some() {
            return Ok(());
        }
        for file in std::iter::once(&s.main).chain(&s.subagents) {
            let rel = file.strip_prefix(project).unwrap_or(file);
            let dest = to.join(rel);
            if let Some(dir) = dest.parent() {
                std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
            }
            std::fs::copy(file, &dest)
                .with_context(|| format!("cannot copy the transcript {} to {}", file.display(), dest.display()))?;
            read_only(&dest);
        }
    }
    Ok(())
}

fn read_only(path: &Path) {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let _ = std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o400));
    }
    #[cfg(not(unix))]
    let _ = path;
}

/// Entries under `memory/` that are no note a review can take: a symlink the copy did not
/// have, a fifo or device; and a `CHANGES.md` that is not a regular file.
fn odd_entries(after: &scratch::Fingerprint, before: &scratch::Fingerprint) -> Vec<String> {
    use scratch::Mark;
    let mut out = Vec::new();
    for (p, m) in after {
        let inside = p.starts_with("memory/") || p == "CHANGES.md";
        if !inside {
            continue;
        }
        match m {
            Mark::Symlink(_) if before.get(p) != Some(m) => out.push(format!("{p} (a new symlink)")),
            Mark::Other => out.push(format!("{p} (not a regular file)")),
            Mark::Dir if p == "CHANGES.md" => out.push(format!("{p} (a folder)")),
            _ => {}
        }
    }
    out
}

/// How many notes differ between two snapshots.
fn changed_notes(a: &Snapshot, b: &Snapshot) -> usize {
    changed_paths(a, b).len()
}

fn changed_paths(a: &Snapshot, b: &Snapshot) -> Vec<String> {
    let keys: std::collections::BTreeSet<&String> = a.keys().chain(b.keys()).collect();
    keys.into_iter().filter(|k| a.get(*k) != b.get(*k)).cloned().collect()
}

fn record_last_dream(state: &Path, started: Timestamp) {
    let _ = std::fs::create_dir_all(state);
    let _ = std::fs::write(state.join(".last-dream"), format!("{started}\n"));
}

/// `1 min`, `90 s`.
pub fn human(d: Duration) -> String {
    let s = d.as_secs();
    if s >= 60 && s.is_multiple_of(60) { format!("{} min", s / 60) } else { format!("{s} s") }
}

/// The text of `run.log`, built as the run goes; credentials are masked when written.
struct LogText(String);

impl LogText {
    fn new(
        project: &Project,
        inv: &dreamer::Invocation,
        active: &[&Session],
        since: Timestamp,
        started: Timestamp,
    ) -> LogText {
        let subs: usize = active.iter().map(|s| s.subagents.len()).sum();
        let argv: Vec<String> = inv
            .argv
            .iter()
            .map(|a| if a.contains('\n') { format!("<prompt: {} bytes>", a.len()) } else { a.clone() })
            .collect();
        LogText(format!(
            "dreamreview dream {}\nstarted {started}\nmemory {}\nwindow: sessions with an event since {since}: {} ({} sub-agent transcripts)\ndreamer: {}\n--- dreamer output\n",
            project.name,
            project.memory.display(),
            active.len(),
            subs,
            argv.join(" ")
        ))
    }

    fn output(&mut self, f: &dreamer::Finished) {
        self.0.push_str(&String::from_utf8_lossy(&f.output));
        if !self.0.ends_with('\n') {
            self.0.push('\n');
        }
        let end = match &f.ended {
            dreamer::Ended::Exited(s) => match s.code() {
                Some(c) => format!("exited with code {c}"),
                None => "killed by a signal".to_string(),
            },
            dreamer::Ended::TimedOut => "stopped: past the timeout".to_string(),
            dreamer::Ended::Stopped(sig) => format!("stopped: dreamreview received signal {sig}"),
        };
        self.0.push_str(&format!("--- {end} after {:.1} s\n", f.elapsed.as_secs_f64()));
    }

    fn line(&mut self, text: &str) {
        self.0.push_str(text);
        self.0.push('\n');
    }

    fn masked(&self) -> String {
        crate::base::secrets::mask(&self.0).into_owned()
    }
}

/// Keeps a failed run's log as `<out>/failed-YYYY-MM-DD-HHMMSS.run.log` (not a
/// `dream-*` folder: there is no dream to review). `None` when it cannot be written
/// (said on stderr by the caller through the missing path).
fn keep_failed_log(out: &Path, log: &LogText, started: Timestamp) -> Option<PathBuf> {
    std::fs::create_dir_all(out).ok()?;
    let stamp = started.to_zoned_datetime(jiff::tz::TimeZone::system()).strftime("%Y-%m-%d-%H%M%S").to_string();
    let path = out.join(format!("failed-{stamp}.run.log"));
    std::fs::write(&path, log.masked()).ok()?;
    Some(path)
}

/// Writes the dream folder: built under a hidden name in `out`, then renamed into place,
/// so a half-written dream is never taken for one.
#[allow(clippy::too_many_arguments)]
fn write_dream(
    out: &Path,
    live: &Path,
    base: &Snapshot,
    base_times: &std::collections::BTreeMap<String, (i64, u32)>,
    proposed: &Snapshot,
    changes: Option<&[u8]>,
    log: &LogText,
    started: Timestamp,
) -> Result<PathBuf> {
    std::fs::create_dir_all(out).with_context(|| format!("cannot create the dreams folder {}", out.display()))?;
    let out = out.canonicalize().with_context(|| format!("cannot resolve {}", out.display()))?;
    let date = started.to_zoned_datetime(jiff::tz::TimeZone::system()).date();
    let mut final_path = out.join(format!("dream-{date}"));
    let mut n = 2;
    while final_path.symlink_metadata().is_ok() {
        final_path = out.join(format!("dream-{date}-{n}"));
        n += 1;
    }
    let staging = tempfile::Builder::new()
        .prefix(".dream-partial-")
        .tempdir_in(&out)
        .with_context(|| format!("cannot write in {}", out.display()))?;
    let memory = staging.path().join("memory");
    write_notes(&memory, proposed)?;
    if let Some(c) = changes {
        std::fs::write(staging.path().join("CHANGES.md"), c).context("cannot write CHANGES.md")?;
    }
    let live = live.canonicalize().unwrap_or_else(|_| live.to_path_buf());
    let old: unified::Tree = base
        .iter()
        .filter_map(|(k, e)| Some((k.clone(), side(e, &live.join(k), base_times.get(k).copied())?)))
        .collect();
    let new: unified::Tree =
        proposed.iter().filter_map(|(k, e)| Some((k.clone(), side(e, &memory.join(k), None)?))).collect();
    let diff = unified::tree_diff(
        &live.display().to_string(),
        &final_path.join("memory").display().to_string(),
        &old,
        &new,
        &jiff::tz::TimeZone::system(),
    );
    std::fs::write(staging.path().join("memory.diff"), diff).context("cannot write memory.diff")?;
    std::fs::write(staging.path().join("run.log"), log.masked()).context("cannot write run.log")?;
    let staged = staging.keep();
    std::fs::rename(&staged, &final_path)
        .with_context(|| format!("cannot move the dream {} to {}", staged.display(), final_path.display()))?;
    Ok(final_path)
}

/// One side of memory.diff: a file's bytes (a symlink's, read through it as `diff` does)
/// and its time (`time`, else read from `path`).
fn side(entry: &Entry, path: &Path, time: Option<(i64, u32)>) -> Option<unified::Side> {
    let bytes = match entry {
        Entry::File(b) => b.clone(),
        Entry::Symlink(_) => std::fs::read(path).ok()?,
    };
    Some(unified::Side { bytes, mtime: time.unwrap_or_else(|| mtime_of(path)) })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn session(id: &str, last: Option<&str>) -> Session {
        Session {
            id: id.into(),
            main: PathBuf::from(format!("{id}.jsonl")),
            subagents: Vec::new(),
            last_event: last.map(|t| t.parse().unwrap()),
        }
    }

    #[test]
    fn the_gate_needs_age_and_sessions() {
        let now: Timestamp = "2026-12-03T03:00:00Z".parse().unwrap();
        let s = DreamSettings::default();
        let five: Vec<Session> =
            (0..5).map(|i| session(&format!("s{i}"), Some(&format!("2026-12-02T1{i}:00:00Z")))).collect();
        assert!(gate(&five, Some("2026-12-01T03:00:00Z".parse().unwrap()), &s, now).due);
        let v = gate(&five, Some("2026-12-02T20:00:00Z".parse().unwrap()), &s, now);
        assert!(!v.due && v.why.contains("7 h ago"), "{v:?}");
        let v = gate(&five[..4], Some("2026-12-01T03:00:00Z".parse().unwrap()), &s, now);
        assert!(!v.due && v.why.starts_with("4 sessions"), "{v:?}");
        let v = gate(&five, None, &s, now);
        assert!(v.due, "{v:?}");
        let v = gate(&five, Some("2026-12-02T12:30:00Z".parse().unwrap()), &DreamSettings { min_hours: 1, ..s }, now);
        assert!(!v.due && v.why.starts_with("2 sessions"), "{v:?}");
    }

    #[test]
    fn the_prompt_is_appended_or_put_in_place() {
        let scratch = scratch::Scratch::new().unwrap();
        let s = DreamSettings { command: vec!["dreamer".into(), "--p={prompt}".into()], ..DreamSettings::default() };
        let inv = invocation(&s, "P", &scratch);
        assert_eq!(inv.argv, ["dreamer", "--p=P"]);
        let inv = invocation(&DreamSettings::default(), "P", &scratch);
        assert_eq!(inv.argv.last().unwrap(), "P");
        assert_eq!(inv.argv[0], "claude");
        assert!(inv.env.contains(&("CLAUDE_CODE_DISABLE_AUTO_MEMORY".into(), "1".into())));
    }
}
