//! Undoing a commit — the whole of it, one file, or one hunk — as a new commit with a
//! `Reverts: <sha>` trailer; history is never rewritten.
//!
//! Each file is merged three ways: base = the file as the commit left it, live = the file
//! on disk now, proposed = the file with the commit's change (or just the one hunk) taken
//! out. Later edits that do not overlap the reverted change are kept; overlapping ones are
//! conflicts, reported per hunk with the lines of the current file. Everything is computed
//! before anything is written: if any hunk conflicts, nothing is written at all.

use super::commit::{self, Change};
use super::history;
use super::lock::RepoLock;
use super::message::{self, RevertScope};
use super::recover;
use super::{MemoryRepo, write};
use crate::model::decision::{Decision, HunkDecision};
use crate::model::diff::{self, FileDiff, FileKind};
use anyhow::{Result, bail};
use git2::Oid;

/// A part of the revert that cannot be merged with what happened since.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Conflict {
    /// Memory-relative path.
    pub path: String,
    /// 1-based first and last line of the current file involved (`None`: the whole file).
    pub lines: Option<(usize, usize)>,
    /// Why, in one sentence.
    pub reason: String,
}

impl std::fmt::Display for Conflict {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.lines {
            Some((a, b)) if a == b => write!(f, "{} line {a}: {}", self.path, self.reason),
            Some((a, b)) => write!(f, "{} lines {a}-{b}: {}", self.path, self.reason),
            None => write!(f, "{}: {}", self.path, self.reason),
        }
    }
}

/// What reverting would do, computed without writing.
#[derive(Clone, Debug)]
pub struct RevertPlan {
    /// The commit being reverted.
    pub commit: Oid,
    /// Its summary line.
    pub original: String,
    /// The revert commit's message.
    pub message: String,
    /// Paths to change (disk now → after the revert).
    pub changes: Vec<Change>,
    /// Conflicts; when not empty, nothing may be written.
    pub conflicts: Vec<Conflict>,
    /// Files of the scope already as the revert would leave them.
    pub unchanged: Vec<String>,
}

/// What a revert did.
#[derive(Clone, Debug)]
pub enum Reverted {
    /// A revert commit was made.
    Committed {
        /// The new commit.
        commit: Oid,
        /// Its summary line.
        summary: String,
        /// Its full message.
        message: String,
        /// The snapshot commit of uncommitted memory changes made first, if any.
        snapshot: Option<Oid>,
        /// Memory paths written.
        files: Vec<String>,
        /// Bytes another process wrote into a note's old file after it was replaced.
        strays: Vec<super::replaced::Stray>,
        /// Commits another program made meanwhile that this one was placed after.
        rebased_on: Vec<String>,
    },
    /// Conflicts with later edits: nothing was written.
    Conflicts(Vec<Conflict>),
    /// The notes already are as the revert would leave them: nothing to do.
    Nothing,
}

/// Normalises a `--file` argument to a memory-relative path: `./a.md`, the
/// repository-relative `proj/memory/a.md` and `a.md` all name the same note.
fn normalise_path(repo: &MemoryRepo, p: &str) -> String {
    let p = p.trim_start_matches("./");
    if !repo.prefix.is_empty()
        && let Some(rest) = p.strip_prefix(&format!("{}/", repo.prefix))
    {
        return rest.to_string();
    }
    p.to_string()
}

/// Computes the revert of `spec`'s memory changes within `scope` against the notes on
/// disk now.
pub fn plan(repo: &MemoryRepo, spec: &str, scope: &RevertScope) -> Result<RevertPlan> {
    let commit = history::find_commit(repo, spec)?;
    let short = super::short_id(commit.id());
    let (before, after) = history::snapshots(repo, &commit)?;
    let diffs = history::diff_snapshots(&before, &after);
    if diffs.is_empty() {
        bail!("commit {short} does not change the memory folder {}; see `dreamreview log`", repo.memory.display());
    }
    let selected: Vec<(&FileDiff, Option<usize>)> = match scope {
        RevertScope::Commit => diffs.iter().map(|d| (d, None)).collect(),
        RevertScope::File(p) => {
            let p = normalise_path(repo, p);
            match diffs.iter().find(|d| d.path == p) {
                Some(d) => vec![(d, None)],
                None => bail!(
                    "commit {short} does not change {p}; it changes {}",
                    diffs.iter().map(|d| d.path.as_str()).collect::<Vec<_>>().join(", ")
                ),
            }
        }
        RevertScope::Hunk(id) => {
            let found = diffs.iter().find_map(|d| d.hunks.iter().position(|h| h.id == *id).map(|hi| (d, Some(hi))));
            match found {
                Some(x) => vec![x],
                None => bail!(
                    "commit {short} has no hunk {id}; its hunks are {} (see `dreamreview log` \
                     and the commit's diff)",
                    diffs.iter().flat_map(|d| d.hunks.iter().map(|h| h.id.as_str())).collect::<Vec<_>>().join(", ")
                ),
            }
        }
    };
    let mut changes = Vec::new();
    let mut conflicts = Vec::new();
    let mut unchanged = Vec::new();
    for (d, only) in selected {
        let path = d.path.as_str();
        let committed = after.get(path);
        let target = match only {
            None => before.get(path).cloned(),
            Some(hi) => {
                let decisions: Vec<HunkDecision> = d
                    .hunks
                    .iter()
                    .enumerate()
                    .map(|(i, h)| HunkDecision {
                        lines: vec![if i == hi { Decision::Rejected } else { Decision::Accepted }; h.slots()],
                        edited: None,
                    })
                    .collect();
                diff::result(d, &decisions)
            }
        };
        let current = write::read_entry(&repo.memory, path)?;
        if current == target {
            unchanged.push(path.to_string());
            continue;
        }
        let Some(merge) = diff::diff_file(path, committed, current.as_ref(), target.as_ref()) else {
            unchanged.push(path.to_string());
            continue;
        };
        if merge.kind == FileKind::Symlink {
            conflicts.push(Conflict {
                path: path.to_string(),
                lines: None,
                reason: "a symlink is involved; dreamreview never writes symlinks, revert it by \
                         hand"
                    .into(),
            });
            continue;
        }
        if let Err(why) = super::paths::target(&repo.memory, path, &[]) {
            conflicts.push(Conflict { path: path.to_string(), lines: None, reason: why });
            continue;
        }
        let mut clash = false;
        for h in merge.hunks.iter().filter(|h| h.live_changed) {
            clash = true;
            let lines = (!h.whole_file && !h.old_range.is_empty()).then(|| (h.old_range.start + 1, h.old_range.end));
            conflicts.push(Conflict {
                path: path.to_string(),
                lines,
                reason: format!(
                    "changed after {short}; the revert would overwrite that edit (edit the note \
                     by hand, or revert a narrower part)"
                ),
            });
        }
        if clash {
            continue;
        }
        let all: Vec<HunkDecision> = merge
            .hunks
            .iter()
            .map(|h| HunkDecision { lines: vec![Decision::Accepted; h.slots()], edited: None })
            .collect();
        changes.push(Change { path: path.to_string(), disk: current, new: diff::result(&merge, &all) });
    }
    let original = String::from_utf8_lossy(commit.message_bytes()).lines().next().unwrap_or_default().to_string();
    let files: Vec<String> = changes.iter().map(|c| c.path.clone()).collect();
    let message = message::revert_message(&original, &commit.id().to_string(), scope, &files);
    Ok(RevertPlan { commit: commit.id(), original, message, changes, conflicts, unchanged })
}

/// Reverts `spec` within `scope` as a new commit: recovers an interrupted earlier write,
/// plans, and writes nothing when any hunk conflicts. Uncommitted memory changes are
/// committed first as [`message::SNAPSHOT_BEFORE_REVERT`] so the revert commit holds only
/// the revert. `lock` must be this repository's.
pub fn revert(repo: &MemoryRepo, spec: &str, scope: &RevertScope, lock: &RepoLock) -> Result<Reverted> {
    lock.check(repo)?;
    recover::recover(repo)?;
    let plan = plan(repo, spec, scope)?;
    if !plan.conflicts.is_empty() {
        return Ok(Reverted::Conflicts(plan.conflicts));
    }
    if plan.changes.is_empty() {
        return Ok(Reverted::Nothing);
    }
    let mut everything = plan.changes.clone();
    everything.extend(commit::uncommitted(repo, &[])?);
    commit::before_writing(repo, &everything)?;
    let snapshot = commit::snapshot_commit(repo, message::SNAPSHOT_BEFORE_REVERT, &[])?;
    let done = commit::commit_changes(repo, "revert", &plan.message, &plan.changes, &[], None)?;
    Ok(Reverted::Committed {
        commit: done.id,
        summary: plan.message.lines().next().unwrap_or_default().to_string(),
        message: plan.message,
        snapshot,
        files: plan.changes.iter().map(|c| c.path.clone()).collect(),
        strays: done.strays,
        rebased_on: done.rebased_on,
    })
}
