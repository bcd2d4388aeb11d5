//! Making the commit a journaled write prepared, on whatever `HEAD` is by then.
//!
//! Another program may commit in the memory repository while notes are written (a sync
//! tool, the user in another terminal). That is nobody's mistake, so:
//! - when the commits that moved `HEAD` descend from the journaled `HEAD` and touched none
//!   of the paths this commit changes, the commit is rebuilt on the new `HEAD` (its tree is
//!   the new `HEAD`'s with this commit's paths replaced), the journal is told, and it is
//!   made there;
//! - otherwise nothing is committed: the error ([`Refused`]) names the note both changed (or
//!   why `HEAD` is not a place to commit on), and the caller puts the notes back.
//!
//! The commit itself is a compare-and-swap of the branch (libgit2 refuses to commit when the
//! branch's tip is no longer the first parent), so a commit landing between the check and
//! the commit is caught and the loop looks again.

use super::tree::{TreeValue, build_tree};
use super::{MemoryRepo, journal, preflight, signature};
use anyhow::{Context, Result, anyhow};
use git2::{ErrorCode, Oid, Tree};
use std::path::Path;
use std::time::{Duration, Instant};

/// How many times `HEAD` may move (or a lock be found in the way) under a commit before it
/// gives up.
const ATTEMPTS: usize = 60;

/// How long a git lock on the branch may be waited for (a git command running meanwhile).
const LOCK_PATIENCE: Duration = Duration::from_secs(2);

/// Why the prepared commit was not made: one sentence, self-contained. The notes written
/// for it must be put back.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refused(pub String);

impl std::fmt::Display for Refused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Refused {}

fn refused(why: String) -> anyhow::Error {
    anyhow::Error::new(Refused(why))
}

/// A commit made, and the foreign commits it was rebased on (empty: none).
pub struct Landed {
    /// The new commit.
    pub id: Oid,
    /// The tree it records (`tree` given, or rebuilt on a moved `HEAD`).
    pub tree: Oid,
    /// Short ids and summaries of the commits it was placed after.
    pub rebased_on: Vec<String>,
}

/// Commits `tree` (built on `base`, with `changes` as its memory paths) on `HEAD` with
/// `message`, rebasing it on commits that moved `HEAD` meanwhile when they are disjoint.
pub fn land(
    repo: &MemoryRepo,
    base: Option<Oid>,
    tree: Oid,
    changes: &[(String, TreeValue)],
    message: &str,
) -> Result<Landed> {
    let sig = signature(&repo.repo);
    let (mut base, mut tree) = (base, tree);
    let mut rebased_on = Vec::new();
    let waited = Instant::now();
    for _ in 0..ATTEMPTS {
        let now = repo.head_commit()?.map(|c| c.id());
        if now != base {
            let Some(now) = now else {
                return Err(refused("HEAD no longer points to a commit (the branch was deleted?)".into()));
            };
            tree = rebuilt(repo, base, now, changes)?;
            rebased_on.push(describe(repo, now));
            base = Some(now);
            journal::rebased(repo, now, tree)?;
            continue;
        }
        let parents: Vec<git2::Commit<'_>> = match base {
            Some(b) => vec![repo.repo.find_commit(b).context("cannot read HEAD's commit")?],
            None => Vec::new(),
        };
        let parents: Vec<&git2::Commit<'_>> = parents.iter().collect();
        let t = repo.repo.find_tree(tree).context("cannot read the tree to commit")?;
        match repo.repo.commit(Some("HEAD"), &sig, &sig, message, &t, &parents) {
            Ok(id) => return Ok(Landed { id, tree, rebased_on }),
            // The branch moved between the look and the commit: look again.
            Err(e) if e.code() == ErrorCode::Modified => continue,
            Err(e) => match preflight::lock_in_the_way(repo) {
                // A git command running meanwhile holds the ref: wait for it a little.
                Some(_) if waited.elapsed() < LOCK_PATIENCE => std::thread::sleep(Duration::from_millis(50)),
                Some(lock) => return Err(refused(format!("the commit could not be made: {lock}"))),
                None => return Err(refused(format!("the commit could not be made: {}", e.message()))),
            },
        }
    }
    Err(refused(format!("HEAD moved {ATTEMPTS} times while the commit was being made; something keeps committing")))
}

/// The tree of the prepared commit rebuilt on `now`, which moved `HEAD` from `base`; a
/// [`Refused`] error when `now` does not build on `base` or changed one of `changes`.
fn rebuilt(repo: &MemoryRepo, base: Option<Oid>, now: Oid, changes: &[(String, TreeValue)]) -> Result<Oid> {
    let paths: Vec<String> = changes.iter().map(|(p, _)| p.clone()).collect();
    disjoint(repo, base, now, &paths)?;
    let now_tree = repo.repo.find_commit(now)?.tree()?;
    build_tree(&repo.repo, Some(&now_tree), changes).map_err(|e| anyhow!(e).context("cannot rebuild the commit's tree"))
}

/// Fails with [`Refused`] unless `now` builds on `base` and changed none of `paths`
/// (repository paths) since: then a commit of those paths prepared on `base` can be placed
/// on `now` instead.
pub fn disjoint(repo: &MemoryRepo, base: Option<Oid>, now: Oid, paths: &[String]) -> Result<()> {
    let r = &repo.repo;
    if let Some(b) = base
        && !r.graph_descendant_of(now, b).unwrap_or(false)
    {
        return Err(refused(format!(
            "HEAD was moved to {}, which does not build on {} (a reset or a switch of branch), so \
             the review was not committed on it",
            describe(repo, now),
            super::short_id(b)
        )));
    }
    let base_tree = match base {
        Some(b) => Some(r.find_commit(b)?.tree()?),
        None => None,
    };
    let now_tree = r.find_commit(now)?.tree()?;
    let both: Vec<&str> = paths
        .iter()
        .filter(|p| entry(base_tree.as_ref(), p) != entry(Some(&now_tree), p))
        .map(String::as_str)
        .collect();
    if !both.is_empty() {
        return Err(refused(format!(
            "another commit ({}) was made meanwhile and it changed {} too, so the review was not \
             committed on top of it",
            describe(repo, now),
            super::message::one_line(&both.join(", "))
        )));
    }
    Ok(())
}

fn entry(tree: Option<&Tree<'_>>, path: &str) -> Option<(Oid, i32)> {
    let e = tree?.get_path(Path::new(path)).ok()?;
    Some((e.id(), e.filemode()))
}

/// `abc1234 "summary"`.
fn describe(repo: &MemoryRepo, id: Oid) -> String {
    let summary =
        repo.repo.find_commit(id).ok().and_then(|c| c.summary().ok().flatten().map(str::to_string)).unwrap_or_default();
    format!("{} \"{}\"", super::short_id(id), super::message::one_line(&summary))
}
