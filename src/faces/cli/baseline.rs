//! `dreamreview snapshot` (commit what sessions wrote to a memory folder: the clean
//! baseline an in-place dream is reviewed against) and `dreamreview hooks install|uninstall`
//! (a Claude Code `SessionEnd` hook that runs it).

use crate::inputs::sessions_window;
use crate::store::hooks::{self, Installed, Removed};
use crate::store::repo::baseline::{self, Baseline};
use anyhow::{Context, Result, bail};
use clap::{Args, ValueEnum};
use std::io::Read;
use std::path::{Path, PathBuf};

/// `dreamreview snapshot`'s arguments.
#[derive(Args, Debug, Clone, Default)]
pub struct SnapshotArgs {
    /// The memory folder (default: the current directory when it is a memory folder or holds
    /// one, else the Claude Code memory folder of the current directory's project).
    #[arg(long, value_name = "DIR")]
    pub memory: Option<PathBuf>,
    /// Make the folder a git repository first when it is none (its notes are committed as
    /// they are). Without it, a folder outside git is left alone.
    #[arg(long)]
    pub init: bool,
    /// Run as Claude Code's SessionEnd hook: the memory folder is the one beside the
    /// session's transcript (`transcript_path` of the JSON on standard input); a folder
    /// that is missing or not under git is skipped with a note, exit 0.
    #[arg(long)]
    pub hook: bool,
}

/// Runs `snapshot`: 0 committed or nothing to commit, 2 bad input.
pub fn snapshot(args: &SnapshotArgs) -> Result<i32> {
    let memory = match (&args.memory, args.hook) {
        (Some(m), _) => m.clone(),
        (None, true) => match hook_memory() {
            Some(m) => m,
            None => return Ok(0),
        },
        (None, false) => here()?,
    };
    if !memory.is_dir() {
        if args.hook {
            return Ok(0);
        }
        bail!("memory folder {} does not exist; check the --memory path", memory.display());
    }
    if args.hook && !args.init && crate::store::repo::MemoryRepo::discover(&memory)?.is_none() {
        tell!(
            "dreamreview: {} is not under git: nothing snapshotted (run `dreamreview snapshot --init --memory {}` once)",
            memory.display(),
            memory.display()
        );
        return Ok(0);
    }
    match baseline::snapshot(&memory, args.init)? {
        Baseline::Committed { commit, files, recovered } => {
            if let Some(r) = recovered {
                tell!("dreamreview: {}", super::output::shown(&r));
            }
            say!(
                "snapshot  {} {} ({} file{}: {})",
                crate::store::repo::short_id(commit),
                crate::store::repo::message::SNAPSHOT_SESSIONS,
                files.len(),
                if files.len() == 1 { "" } else { "s" },
                files.join(", ")
            );
        }
        Baseline::Initialized { commit } => {
            say!("initialized a git repository in {} ({})", memory.display(), crate::store::repo::short_id(commit))
        }
        Baseline::Clean => {
            if !args.hook {
                say!("nothing to snapshot: {} has no uncommitted notes", memory.display());
            }
        }
    }
    Ok(0)
}

/// The memory folder a SessionEnd hook's input names: beside `transcript_path`, else the
/// project of `cwd`.
fn hook_memory() -> Option<PathBuf> {
    let mut input = Vec::new();
    let _ = std::io::stdin().lock().take(1 << 20).read_to_end(&mut input);
    let v: serde_json::Value = serde_json::from_slice(&input).ok()?;
    if let Some(t) = v.get("transcript_path").and_then(|t| t.as_str())
        && let Some(dir) = Path::new(t).parent()
    {
        return Some(dir.join("memory"));
    }
    let cwd = v.get("cwd").and_then(|c| c.as_str())?;
    Some(sessions_window::projects_dir()?.join(sessions_window::project_name_of(Path::new(cwd))).join("memory"))
}

/// The memory folder of the current directory.
fn here() -> Result<PathBuf> {
    let cwd = std::env::current_dir().context("cannot read the current directory")?;
    if cwd.file_name().is_some_and(|n| n == "memory") {
        return Ok(cwd);
    }
    if cwd.join("memory").is_dir() {
        return Ok(cwd.join("memory"));
    }
    if let Some(p) = sessions_window::projects_dir() {
        let m = p.join(sessions_window::project_name_of(&cwd)).join("memory");
        if m.is_dir() {
            return Ok(m);
        }
    }
    bail!("{} is no memory folder and its Claude Code project has none; pass --memory DIR", cwd.display())
}

/// What `hooks` does.
#[derive(ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum HooksAction {
    /// Add the SessionEnd hook.
    Install,
    /// Remove it (only dreamreview's own entry).
    Uninstall,
}

/// `dreamreview hooks`'s arguments.
#[derive(Args, Debug, Clone)]
pub struct HooksArgs {
    /// install or uninstall.
    pub action: HooksAction,
    /// The Claude Code settings file (default: $CLAUDE_CONFIG_DIR/settings.json, else
    /// ~/.claude/settings.json).
    #[arg(long, value_name = "FILE")]
    pub settings: Option<PathBuf>,
}

/// Runs `hooks install|uninstall`.
pub fn hooks(args: &HooksArgs) -> Result<i32> {
    let Some(path) = args.settings.clone().or_else(hooks::settings_path) else {
        bail!("no Claude Code settings file is known (set HOME or CLAUDE_CONFIG_DIR), pass --settings FILE");
    };
    match args.action {
        HooksAction::Install => {
            let command = hook_command();
            match hooks::install(&path, &command)? {
                Installed::Added { backup } => {
                    say!("added a {} hook running `{command}` to {}", hooks::EVENT, path.display());
                    if let Some(b) = backup {
                        say!("the previous file is kept as {}", b.display());
                    }
                }
                Installed::Already => say!("{} already runs dreamreview snapshot at {}", path.display(), hooks::EVENT),
            }
        }
        HooksAction::Uninstall => match hooks::uninstall(&path)? {
            Removed::Removed { count, backup } => {
                say!(
                    "removed {count} {} hook{} of dreamreview from {} (the previous file is kept as {})",
                    hooks::EVENT,
                    if count == 1 { "" } else { "s" },
                    path.display(),
                    backup.display()
                );
            }
            Removed::NotThere => say!("{} has no dreamreview hook; nothing changed", path.display()),
        },
    }
    Ok(0)
}

/// `dreamreview snapshot --hook`, naming this executable by its full path unless
/// `dreamreview` on PATH is this same file.
fn hook_command() -> String {
    let exe = std::env::current_exe().ok().and_then(|e| e.canonicalize().ok());
    let on_path = std::env::var_os("PATH").and_then(|p| {
        std::env::split_paths(&p)
            .map(|d| d.join("dreamreview"))
            .find(|c| c.is_file())
            .and_then(|c| c.canonicalize().ok())
    });
    match exe {
        Some(e) if on_path.as_ref() != Some(&e) => {
            let s = e.display().to_string();
            format!("{} snapshot --hook", shlex::try_quote(&s).map(|q| q.into_owned()).unwrap_or(s))
        }
        _ => "dreamreview snapshot --hook".to_string(),
    }
}
