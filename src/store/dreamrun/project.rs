//! A Claude Code project to dream for, where its dreams and state go, when it last
//! dreamt, and the gate that says whether it should dream now.

use super::settings::{DEFAULT_WINDOW_DAYS, DreamSettings};
use crate::inputs::sessions_window::Session;
use anyhow::{Context, Result, anyhow, bail};
use jiff::Timestamp;
use std::path::{Path, PathBuf};

/// One Claude Code project: `<projects>/<name>/` with its `memory/` folder and transcripts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Project {
    /// The project folder's name (`-home-dev-shop`).
    pub name: String,
    /// The project folder (transcripts live here).
    pub dir: PathBuf,
    /// Its memory folder.
    pub memory: PathBuf,
}

impl Project {
    /// The project of a folder: the project folder itself or its `memory/` folder.
    pub fn at(path: &Path) -> Result<Project> {
        let path = std::path::absolute(path).with_context(|| format!("cannot resolve {}", path.display()))?;
        let dir = if path.file_name().is_some_and(|n| n == "memory") && path.is_dir() {
            path.parent().map(Path::to_path_buf).unwrap_or(path.clone())
        } else {
            path.clone()
        };
        let memory = dir.join("memory");
        if !memory.is_dir() {
            bail!(
                "{} has no memory/ folder: name a Claude Code project folder (under ~/.claude/projects) \
                 or its memory folder",
                dir.display()
            );
        }
        let name = dir.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        Ok(Project { name, dir, memory })
    }

    /// A project named on the command line: a path to the project or memory folder, or a
    /// project folder's name under `projects`.
    pub fn named(arg: &str, projects: Option<&Path>) -> Result<Project> {
        let as_path = Path::new(arg);
        if as_path.exists() {
            return Project::at(as_path);
        }
        let Some(projects) = projects else {
            bail!("{arg} is no folder, and no Claude Code projects folder is known (set HOME or CLAUDE_CONFIG_DIR)");
        };
        let dir = projects.join(arg);
        if !dir.is_dir() || arg.contains('/') {
            bail!(
                "no project {arg}: it is no folder and not in {}; `ls {}` lists the projects",
                projects.display(),
                projects.display()
            );
        }
        Project::at(&dir)
    }

    /// Every project under `projects` that has a memory folder, sorted by name.
    pub fn all(projects: &Path) -> Result<Vec<Project>> {
        let mut out = Vec::new();
        let entries = match std::fs::read_dir(projects) {
            Ok(e) => e,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(out),
            Err(e) => return Err(anyhow!(e).context(format!("cannot list {}", projects.display()))),
        };
        for e in entries.flatten() {
            if e.path().join("memory").is_dir() {
                out.push(Project::at(&e.path())?);
            }
        }
        out.sort_by(|a, b| a.name.cmp(&b.name));
        Ok(out)
    }
}

/// The dreams folder: `$XDG_DATA_HOME/dreamreview/dreams`, else
/// `~/.local/share/dreamreview/dreams`.
pub fn dreams_dir() -> Option<PathBuf> {
    let data = std::env::var_os("XDG_DATA_HOME")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .filter(|p| p.is_absolute())
        .or_else(|| {
            std::env::var_os("HOME").filter(|v| !v.is_empty()).map(|h| PathBuf::from(h).join(".local/share"))
        })?;
    Some(data.join("dreamreview").join("dreams"))
}

/// Where a project's dream state (lock, last run) is kept: `<dreams>/<project>/`.
pub fn state_dir(dreams: &Path, project: &Project) -> PathBuf {
    dreams.join(&project.name)
}

/// When the project last dreamed: the time `.last-dream` records, else the newest
/// `dream-*` folder's modification time; `None` when it never did.
pub fn last_dream(state: &Path) -> Option<Timestamp> {
    if let Ok(text) = std::fs::read_to_string(state.join(".last-dream"))
        && let Ok(t) = text.trim().parse::<Timestamp>()
    {
        return Some(t);
    }
    let mut newest: Option<Timestamp> = None;
    for e in std::fs::read_dir(state).ok()?.flatten() {
        if !e.file_name().to_string_lossy().starts_with("dream-") {
            continue;
        }
        let Some(t) = e.metadata().ok().and_then(|m| m.modified().ok()).and_then(|m| Timestamp::try_from(m).ok())
        else {
            continue;
        };
        newest = newest.max(Some(t));
    }
    newest
}

/// Whether `--all` dreams a project now, and why (or why not), in one phrase.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GateVerdict {
    /// True: dream it.
    pub due: bool,
    /// `last dream 3 h ago`, `2 sessions since the last dream (5 needed)`.
    pub why: String,
}

/// AutoDream's gate: the last dream is at least `min_hours` old and at least
/// `min_sessions` sessions had an event after it. A project that never dreamed counts its
/// sessions of the default window.
pub fn gate(sessions: &[Session], last: Option<Timestamp>, settings: &DreamSettings, now: Timestamp) -> GateVerdict {
    let since = last.unwrap_or_else(|| days_before(now, settings.window_days.unwrap_or(DEFAULT_WINDOW_DAYS)));
    if let Some(l) = last {
        let hours = now.duration_since(l).as_secs() / 3600;
        if hours < settings.min_hours as i64 {
            return GateVerdict {
                due: false,
                why: format!("last dream {hours} h ago ({} h needed)", settings.min_hours),
            };
        }
    }
    let newer = sessions.iter().filter(|s| s.last_event.is_some_and(|t| t > since)).count();
    let what = if last.is_some() { "since the last dream" } else { "in the window, never dreamed" };
    GateVerdict {
        due: newer >= settings.min_sessions,
        why: format!("{newer} session{} {what} ({} needed)", if newer == 1 { "" } else { "s" }, settings.min_sessions),
    }
}

/// `now` minus whole days.
pub fn days_before(now: Timestamp, days: u32) -> Timestamp {
    now.checked_sub(jiff::SignedDuration::from_hours(24 * i64::from(days))).unwrap_or(Timestamp::UNIX_EPOCH)
}
