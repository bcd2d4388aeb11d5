//! `dreamreview snapshot`: commit what sessions wrote to a memory folder, so that an
//! in-place dream (Claude Code's AutoDream, OpenClaw's deep phase) is reviewed against a
//! `HEAD` that holds everything but the dream. The commit is a plain one whose summary is
//! [`message::SNAPSHOT_SESSIONS`] — history lists it as a snapshot, never as a review — made
//! the way the snapshot before a review is made ([`commit::snapshot_commit`]): memory paths
//! only, under the repository's lock, after the same preflight (no merge or rebase going on,
//! no git lock, filters libgit2 can apply, no note held open for writing) and after
//! recovering a write another dreamreview left unfinished.

use super::{MemoryRepo, commit, lock::RepoLock, message, recover};
use anyhow::{Result, bail};
use git2::Oid;
use std::path::Path;

/// What a snapshot did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Baseline {
    /// The uncommitted notes were committed.
    Committed {
        /// The commit.
        commit: Oid,
        /// The memory-relative paths it records.
        files: Vec<String>,
        /// What recovering an interrupted write did first, if anything.
        recovered: Option<String>,
    },
    /// The folder was made a git repository with its notes as they were (`--init`).
    Initialized {
        /// The first commit.
        commit: Oid,
    },
    /// Nothing was uncommitted.
    Clean,
}

/// Commits the uncommitted notes of `memory`. A folder that is no git repository is made
/// one only when `init` is true (else an error says how).
pub fn snapshot(memory: &Path, init: bool) -> Result<Baseline> {
    let Some(repo) = MemoryRepo::discover(memory)? else {
        if !init {
            bail!(
                "{} is not in a git repository, so there is no baseline to commit to; run \
                 `dreamreview snapshot --init --memory {}` once to make it one (its notes are \
                 committed as they are, nothing changes on disk)",
                memory.display(),
                memory.display()
            );
        }
        let repo = super::init_with_snapshot(memory)?;
        let head = repo.head_commit()?.map(|c| c.id());
        return Ok(match head {
            Some(commit) => Baseline::Initialized { commit },
            None => Baseline::Clean,
        });
    };
    let lock = RepoLock::acquire(&repo)?;
    lock.check(&repo)?;
    let recovered = recover::recover(&repo)?;
    let changes = commit::uncommitted(&repo, &[])?;
    if changes.is_empty() {
        return Ok(Baseline::Clean);
    }
    commit::before_writing(&repo, &changes)?;
    match commit::snapshot_commit(&repo, message::SNAPSHOT_SESSIONS, &[])? {
        Some(commit) => {
            Ok(Baseline::Committed { commit, files: changes.into_iter().map(|c| c.path).collect(), recovered })
        }
        None => Ok(Baseline::Clean),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commits_only_when_asked_to_init_and_then_what_changed() {
        let t = tempfile::tempdir().unwrap();
        let mem = t.path().join("memory");
        std::fs::create_dir(&mem).unwrap();
        std::fs::write(mem.join("a.md"), "one\n").unwrap();
        assert!(snapshot(&mem, false).unwrap_err().to_string().contains("--init"));
        assert!(!mem.join(".git").exists());
        assert!(matches!(snapshot(&mem, true).unwrap(), Baseline::Initialized { .. }));
        assert_eq!(snapshot(&mem, false).unwrap(), Baseline::Clean);
        std::fs::write(mem.join("a.md"), "one\ntwo\n").unwrap();
        std::fs::write(mem.join("b.md"), "new\n").unwrap();
        let Baseline::Committed { commit, files, .. } = snapshot(&mem, false).unwrap() else { panic!("no commit") };
        assert_eq!(files, ["a.md", "b.md"]);
        let repo = MemoryRepo::discover(&mem).unwrap().unwrap();
        let c = repo.repo.find_commit(commit).unwrap();
        let summary = String::from_utf8_lossy(c.message_bytes()).lines().next().unwrap().to_string();
        assert_eq!(summary, message::SNAPSHOT_SESSIONS);
        let kind = super::super::history::kind_of(&summary, &message::Trailers::default());
        assert_eq!(kind, super::super::history::CommitKind::Snapshot);
        assert_eq!(snapshot(&mem, false).unwrap(), Baseline::Clean);
    }
}
