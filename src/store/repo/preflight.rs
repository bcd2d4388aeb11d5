//! What must hold before dreamreview writes a note or makes a commit, checked before the
//! first write so that a refusal leaves memory exactly as it was:
//! - the repository is not in the middle of a merge, rebase, cherry-pick, revert or bisect,
//!   and its index has no conflicts (a snapshot then would commit conflict markers);
//! - no git lock file is in the way (`index.lock`, `HEAD.lock`, the branch's ref lock,
//!   `packed-refs.lock`, the evidence notes' ref lock): each is named with its age, whether
//!   a process still holds it, and the command that is safe to run;
//! - no note about to be committed has a version staged with `git add` that differs from
//!   both `HEAD` and the note on disk (the commit would drop it from the index, in no
//!   commit).

use super::MemoryRepo;
use super::holders::{self, Seen};
use anyhow::{Context, Result, bail};
use git2::{RepositoryState, Status};
use std::path::{Path, PathBuf};

/// Fails, naming what is in the way and what to do, unless notes may be written and
/// committed now. `paths` are the memory-relative notes the write would commit.
pub fn check(repo: &MemoryRepo, paths: &[String]) -> Result<()> {
    in_progress(repo)?;
    for lock in lock_files(repo) {
        if !gone_within(&lock, LOCK_PATIENCE) {
            bail!("refusing to write: {}; nothing was written", describe_lock(&lock));
        }
    }
    staged_versions(repo, paths)
}

/// How long a git lock found in the way is waited for before it is reported: a git command
/// running meanwhile holds one for milliseconds.
const LOCK_PATIENCE: std::time::Duration = std::time::Duration::from_secs(2);

/// True when nothing is at `path`, or it goes within `patience`.
fn gone_within(path: &Path, patience: std::time::Duration) -> bool {
    let start = std::time::Instant::now();
    while path.symlink_metadata().is_ok() {
        if start.elapsed() >= patience {
            return false;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    true
}

/// Fails when the repository is mid-merge (or rebase, …) or its index has conflicts.
pub fn in_progress(repo: &MemoryRepo) -> Result<()> {
    let (what, finish) = match repo.repo.state() {
        RepositoryState::Clean => ("", ""),
        RepositoryState::Merge => ("a merge", "finish it (`git commit`) or abort it (`git merge --abort`)"),
        RepositoryState::Rebase | RepositoryState::RebaseInteractive | RepositoryState::RebaseMerge => {
            ("a rebase", "finish it (`git rebase --continue`) or abort it (`git rebase --abort`)")
        }
        RepositoryState::ApplyMailbox | RepositoryState::ApplyMailboxOrRebase => {
            ("a `git am`", "finish it (`git am --continue`) or abort it (`git am --abort`)")
        }
        RepositoryState::CherryPick | RepositoryState::CherryPickSequence => {
            ("a cherry-pick", "finish it (`git cherry-pick --continue`) or abort it (`git cherry-pick --abort`)")
        }
        RepositoryState::Revert | RepositoryState::RevertSequence => {
            ("a revert", "finish it (`git revert --continue`) or abort it (`git revert --abort`)")
        }
        RepositoryState::Bisect => ("a bisect", "end it (`git bisect reset`)"),
    };
    let root = repo.workdir();
    if !what.is_empty() {
        bail!(
            "refusing to write: the repository at {} is in the middle of {what}; a commit now \
             would record half-merged notes. Nothing was written; {finish}, then run this again",
            root.display()
        );
    }
    let index = repo.repo.index().context("cannot open the git index")?;
    if index.has_conflicts() {
        let mut names: Vec<String> = index
            .conflicts()
            .map(|c| {
                c.flatten()
                    .filter_map(|c| c.our.or(c.their).or(c.ancestor))
                    .map(|e| String::from_utf8_lossy(&e.path).into_owned())
                    .collect()
            })
            .unwrap_or_default();
        names.dedup();
        bail!(
            "refusing to write: the repository at {} has unresolved conflicts ({}); nothing was \
             written. Resolve them and commit (`git add`, `git commit`), then run this again",
            root.display(),
            super::message::one_line(&names.join(", "))
        );
    }
    Ok(())
}

/// The git lock files that stop a commit, its index update or its evidence note.
pub fn lock_files(repo: &MemoryRepo) -> Vec<PathBuf> {
    let git = repo.repo.path();
    let common = repo.repo.commondir();
    let mut out = vec![git.join("index.lock"), git.join("HEAD.lock")];
    if let Ok(head) = repo.repo.find_reference("HEAD")
        && let Ok(Some(branch)) = head.symbolic_target()
    {
        out.push(common.join(format!("{branch}.lock")));
    }
    out.push(common.join("packed-refs.lock"));
    out.push(common.join(format!("{}.lock", super::git_notes_ref::NOTES_REF)));
    out
}

/// Why a note could not be written, naming the git lock file in the way when there is one.
pub fn blocked_by(repo: &MemoryRepo, e: &anyhow::Error) -> String {
    match lock_in_the_way(repo) {
        Some(lock) => lock,
        None => format!("{e:#}"),
    }
}

/// The first lock file of [`lock_files`] that exists now, described; for a git call that
/// failed mid-write.
pub fn lock_in_the_way(repo: &MemoryRepo) -> Option<String> {
    lock_files(repo).into_iter().find(|p| p.exists()).map(|p| describe_lock(&p))
}

/// `<path> exists (left 3 min ago; …): …, then the command that is safe to run`.
pub fn describe_lock(path: &Path) -> String {
    let age = std::fs::symlink_metadata(path)
        .and_then(|m| m.modified())
        .ok()
        .and_then(|t| t.elapsed().ok())
        .map(|d| format!("made {} ago", age(d.as_secs())))
        .unwrap_or_else(|| "of unknown age".into());
    let rm = format!("rm {}", shell_quote(path));
    let (holder, advice) = match holders::of_path(path) {
        Seen::Holders(h) if !h.is_empty() => (
            format!("held open by {}, still running", h.iter().map(|h| h.describe()).collect::<Vec<_>>().join(", ")),
            "wait for it to finish, then run this again; do not remove the file".to_string(),
        ),
        Seen::Holders(_) => (
            "no process of yours has it open, so the git that made it has most likely ended \
             (killed or crashed)"
                .to_string(),
            format!("if no git command is running in this repository, it is safe to run: {rm}"),
        ),
        Seen::Unknown => (
            "whether its holder still runs cannot be seen on this system".to_string(),
            format!("if no git command is running in this repository, it is safe to run: {rm}"),
        ),
    };
    format!(
        "the git lock file {} exists ({age}; {holder}); git creates it while it writes and \
         nothing may write that part of the repository while it is there; {advice}",
        path.display()
    )
}

fn age(secs: u64) -> String {
    match secs {
        0..120 => format!("{secs} s"),
        120..7200 => format!("{} min", secs / 60),
        7200..172_800 => format!("{} h", secs / 3600),
        _ => format!("{} days", secs / 86_400),
    }
}

/// `'path'`, quoted for a POSIX shell.
fn shell_quote(path: &Path) -> String {
    format!("'{}'", path.display().to_string().replace('\'', "'\\''"))
}

/// Fails when a note of `paths` has a staged version (`git add`) that differs from both
/// `HEAD` and the note on disk: committing the note would replace that index entry, and the
/// staged version would be in no commit and no longer staged.
fn staged_versions(repo: &MemoryRepo, paths: &[String]) -> Result<()> {
    if paths.is_empty() {
        return Ok(());
    }
    let staged = Status::INDEX_NEW | Status::INDEX_MODIFIED | Status::INDEX_TYPECHANGE | Status::INDEX_RENAMED;
    let edited = Status::WT_MODIFIED | Status::WT_DELETED | Status::WT_TYPECHANGE | Status::WT_RENAMED;
    let mut opts = git2::StatusOptions::new();
    opts.include_untracked(false).include_ignored(false).exclude_submodules(true);
    if !repo.prefix.is_empty() {
        opts.pathspec(&repo.prefix);
    }
    let statuses = repo.repo.statuses(Some(&mut opts)).context("cannot read the repository's status")?;
    let wanted: std::collections::HashSet<String> = paths.iter().map(|p| repo.repo_path(p)).collect();
    let mut both: Vec<String> = statuses
        .iter()
        .filter(|e| e.status().intersects(staged) && e.status().intersects(edited))
        .filter_map(|e| e.path().ok().map(str::to_string))
        .filter(|p| wanted.contains(p))
        .collect();
    both.sort();
    if both.is_empty() {
        return Ok(());
    }
    let shown = super::message::one_line(&both.join(", "));
    bail!(
        "refusing to write: {shown} {} a version staged with `git add` that differs from both \
         HEAD and the note on disk; committing the review would drop it from the index, in no \
         commit. Nothing was written. Commit the staged version first (`git commit`), or stage \
         the note as it is now if the staged version is not wanted (`git add`), then run this again",
        if both.len() == 1 { "has" } else { "have" }
    )
}

/// The git hooks the repository would run on a commit (`core.hooksPath`, else
/// `<gitdir>/hooks`; `*.sample` files are not hooks), which dreamreview's commits do not
/// run: one sentence to say so, or `None` when there are none.
pub fn hooks_not_run(repo: &MemoryRepo) -> Option<String> {
    let configured = repo.repo.config().ok().and_then(|c| c.get_path("core.hooksPath").ok());
    let dir = match &configured {
        Some(p) if p.is_absolute() => p.clone(),
        Some(p) => repo.workdir().join(p),
        None => repo.repo.path().join("hooks"),
    };
    const ON_COMMIT: [&str; 5] =
        ["pre-commit", "prepare-commit-msg", "commit-msg", "post-commit", "reference-transaction"];
    let found: Vec<&str> = ON_COMMIT.iter().copied().filter(|h| dir.join(h).is_file()).collect();
    if found.is_empty() {
        return None;
    }
    Some(format!(
        "the repository's git hooks ({}, in {}{}) were not run for these commits: dreamreview runs \
         no programs and libgit2 runs no hooks. Run them yourself if they matter",
        found.join(", "),
        dir.display(),
        if configured.is_some() { ", from core.hooksPath" } else { "" }
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ages_read_as_people_say_them() {
        assert_eq!(age(5), "5 s");
        assert_eq!(age(600), "10 min");
        assert_eq!(age(3 * 3600), "3 h");
        assert_eq!(age(3 * 86_400), "3 days");
        assert_eq!(shell_quote(Path::new("/a b/it's")), "'/a b/it'\\''s'");
    }
}
