//! `dreamreview log`, `dreamreview revert` and `dreamreview recover`: the memory folder's
//! history, undoing a commit (or one file or hunk of it) as a new commit, and finishing or
//! rolling back a write that was interrupted.

use crate::store::repo::lock::RepoLock;
use crate::store::repo::message::{RevertScope, one_line};
use crate::store::repo::revert::{self, Reverted};
use crate::store::repo::{MemoryRepo, history, recover};
use anyhow::{Context, Result, anyhow};
use clap::{ArgGroup, Args};
use std::io::Write;
use std::path::{Path, PathBuf};

/// Arguments of `dreamreview log`.
#[derive(Args, Debug, Clone)]
pub struct LogArgs {
    /// The memory folder (default: the current directory).
    #[arg(long, value_name = "DIR")]
    pub memory: Option<PathBuf>,
    /// Print a JSON array of commits instead of text.
    #[arg(long)]
    pub json: bool,
    /// Show at most this many commits.
    #[arg(long, short = 'n', value_name = "N")]
    pub limit: Option<usize>,
}

/// Arguments of `dreamreview revert`.
#[derive(Args, Debug, Clone)]
#[command(group(ArgGroup::new("part").args(["file", "hunk"])))]
pub struct RevertArgs {
    /// The commit to revert (as `dreamreview log` shows it; any git revision works).
    pub commit: String,
    /// Revert only this note (path relative to the memory folder).
    #[arg(long, value_name = "PATH", allow_hyphen_values = true)]
    pub file: Option<String>,
    /// Revert only this hunk of the commit's diff (`note.md#2`).
    #[arg(long, value_name = "ID", allow_hyphen_values = true)]
    pub hunk: Option<String>,
    /// The memory folder (default: the current directory).
    #[arg(long, value_name = "DIR")]
    pub memory: Option<PathBuf>,
}

/// Arguments of `dreamreview recover`.
#[derive(Args, Debug, Clone)]
pub struct RecoverArgs {
    /// The memory folder (default: the current directory).
    #[arg(long, value_name = "DIR")]
    pub memory: Option<PathBuf>,
}

/// Runs `recover`: under the repository lock, finishes (the commit was made) or rolls back
/// (it was not) a write an earlier run left half done, and writes evidence notes left
/// pending, saying which and why. 0 done or nothing to do, 2 when it cannot.
pub fn recover(args: &RecoverArgs) -> Result<i32> {
    let repo = open(args.memory.as_deref())?;
    let lock = RepoLock::acquire(&repo)?;
    if let Some(t) = &lock.took_over {
        tell!("dreamreview: {}", super::output::shown(t));
    }
    match recover::recover(&repo)? {
        Some(m) => {
            say!("{}", super::output::shown(&m));
            let pending = crate::store::repo::git_notes::pending_dir(&repo);
            let left = std::fs::read_dir(&pending).map(|d| d.count()).unwrap_or(0);
            Ok(if left == 0 { 0 } else { 2 })
        }
        None => {
            say!(
                "nothing to recover in {}: no interrupted write and no pending evidence note",
                super::output::shown(&repo.memory.display().to_string())
            );
            Ok(0)
        }
    }
}

fn open(memory: Option<&Path>) -> Result<MemoryRepo> {
    let dir = match memory {
        Some(m) => crate::inputs::dream::existing_dir(m, "memory folder", "check the --memory path")?,
        None => std::env::current_dir().context("cannot read the current directory")?,
    };
    MemoryRepo::discover(&dir)?.ok_or_else(|| {
        anyhow!(
            "{0} is not in a git repository, so it has no history (or pass --memory DIR); \
             `dreamreview apply DREAM --memory {0} --init` makes it one when it commits a review, \
             or run git -C {0} init",
            dir.display()
        )
    })
}

/// Runs `log`: commits touching the memory folder, newest first.
pub fn log(args: &LogArgs) -> Result<i32> {
    let repo = open(args.memory.as_deref())?;
    let entries = history::log(&repo, args.limit)?;
    if args.json {
        let text = crate::base::shown::json_string(&entries).context("cannot encode the log")?;
        let _ = writeln!(std::io::stdout().lock(), "{text}");
        return Ok(0);
    }
    let mut out = crate::base::shown::Guarded::new(std::io::stdout().lock());
    if entries.is_empty() {
        let _ = writeln!(out, "no commits touch {} yet", repo.memory.display());
    }
    for e in &entries {
        let mark = match e.kind {
            history::CommitKind::Review => match &e.review {
                Some(c) => format!(" [review: {}]", c.tally().describe()),
                None => " [review]".to_string(),
            },
            history::CommitKind::Revert => {
                format!(" [revert of {}]", e.reverts.as_deref().map_or("?".to_string(), crate::store::repo::short_id))
            }
            history::CommitKind::Snapshot => " [snapshot]".to_string(),
            history::CommitKind::Other => String::new(),
        };
        let _ = writeln!(out, "{} {}{mark} {}", e.short, e.date, super::output::shown(&e.summary));
    }
    Ok(0)
}

/// Runs `revert`: 0 committed (or nothing to do), 1 conflicts (nothing written).
pub fn revert(args: &RevertArgs) -> Result<i32> {
    let repo = open(args.memory.as_deref())?;
    let scope = match (&args.file, &args.hunk) {
        (Some(f), _) => RevertScope::File(f.clone()),
        (_, Some(h)) => RevertScope::Hunk(h.clone()),
        _ => RevertScope::Commit,
    };
    let lock = RepoLock::acquire(&repo)?;
    if let Some(t) = &lock.took_over {
        tell!("dreamreview: {}", super::output::shown(t));
    }
    if let Some(m) = recover::recover(&repo)? {
        tell!("dreamreview: {}", super::output::shown(&m));
    }
    match revert::revert(&repo, &args.commit, &scope, &lock)? {
        Reverted::Committed { commit, summary, snapshot, strays, rebased_on, .. } => {
            if let Some(s) = snapshot {
                say!(
                    "snapshot  {} {}",
                    crate::store::repo::short_id(s),
                    crate::store::repo::message::SNAPSHOT_BEFORE_REVERT
                );
            }
            say!("committed {} {}", crate::store::repo::short_id(commit), one_line(&summary));
            if let Some(h) = crate::store::repo::preflight::hooks_not_run(&repo) {
                tell!("dreamreview: note: {}", super::output::shown(&h));
            }
            if !rebased_on.is_empty() {
                tell!(
                    "dreamreview: note: placed after {}, committed meanwhile by another program",
                    super::output::shown(&rebased_on.join(", "))
                );
            }
            for s in &strays {
                tell!("dreamreview: {}", super::output::shown(&s.to_string()));
            }
            Ok(if strays.is_empty() { 0 } else { 2 })
        }
        Reverted::Conflicts(conflicts) => {
            for c in &conflicts {
                say!("conflict  {}", one_line(&c.to_string()));
            }
            tell!(
                "dreamreview: cannot revert {}: {} part{} conflict with later edits; nothing was \
                 written",
                super::output::shown(&args.commit),
                conflicts.len(),
                if conflicts.len() == 1 { "" } else { "s" }
            );
            Ok(1)
        }
        Reverted::Nothing => {
            say!(
                "nothing to revert: the notes already are as the revert of {} would leave them",
                super::output::shown(&args.commit)
            );
            Ok(0)
        }
    }
}
