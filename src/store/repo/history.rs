//! The memory folder's history: commits that touch it (review commits marked with their
//! counts, read from the trailers), the diff of any commit as [`FileDiff`]s for the same
//! diff view the review uses, and whether a dream was already reviewed.

use super::MemoryRepo;
use super::message::{self, ReviewCounts};
use crate::inputs::snapshot::{Snapshot, is_hidden};
use crate::model::diff::{self, FileDiff};
use anyhow::{Context, Result, anyhow};
use git2::{Commit, Oid, Sort};
use serde::Serialize;
use std::collections::BTreeSet;

/// What a commit is, for the history view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum CommitKind {
    /// A dream review (has a `Dream-Id` or `Review` trailer).
    Review,
    /// A revert made by dreamreview (has a `Reverts` trailer).
    Revert,
    /// A snapshot of uncommitted memory changes before a review or revert.
    Snapshot,
    /// Anything else (hand edits, the first commit, other tools).
    Other,
}

/// One commit of the memory folder's history.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LogEntry {
    /// Full commit id.
    pub id: String,
    /// Abbreviated id (7 hex digits).
    pub short: String,
    /// The summary line.
    pub summary: String,
    /// Author name.
    pub author: String,
    /// Author email.
    pub email: String,
    /// Commit time, seconds since the Unix epoch.
    pub time: i64,
    /// Commit time in the committer's zone, `YYYY-MM-DD HH:MM +ZZZZ`.
    pub date: String,
    /// Review, revert, snapshot or other.
    pub kind: CommitKind,
    /// The review counts, for review commits.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub review: Option<ReviewCounts>,
    /// `Dream-Id` trailer.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dream_id: Option<String>,
    /// `Dream-Source` trailer.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dream_source: Option<String>,
    /// `Reverts` trailer.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reverts: Option<String>,
    /// Memory-relative paths the commit changes.
    pub files: Vec<String>,
}

/// Resolves a revision (`abc1234`, `HEAD~2`, a branch) to a commit, with an error naming
/// the repository.
pub fn find_commit<'r>(repo: &'r MemoryRepo, spec: &str) -> Result<Commit<'r>> {
    let obj = repo.repo.revparse_single(spec).map_err(|e| {
        anyhow!(
            "no commit {spec:?} in the repository of {} ({}); see `dreamreview log`",
            repo.memory.display(),
            e.message()
        )
    })?;
    obj.peel_to_commit().map_err(|_| anyhow!("{spec:?} is not a commit; see `dreamreview log`"))
}

/// Commits touching the memory folder, newest first (at most `limit`).
pub fn log(repo: &MemoryRepo, limit: Option<usize>) -> Result<Vec<LogEntry>> {
    let mut out = Vec::new();
    if repo.head_commit()?.is_none() {
        return Ok(out);
    }
    let mut walk = repo.repo.revwalk().context("cannot walk the history")?;
    walk.set_sorting(Sort::TOPOLOGICAL | Sort::TIME)?;
    walk.push_head()?;
    for oid in walk {
        if limit.is_some_and(|l| out.len() >= l) {
            break;
        }
        let commit = repo.repo.find_commit(oid?)?;
        let files = changed_paths(repo, &commit)?;
        // A review that took nothing (a first review rejecting everything) changes no
        // note, but it is what keeps its dream reviewed: it is listed.
        let review = || message::parse_trailers(&String::from_utf8_lossy(commit.message_bytes())).dream_id.is_some();
        if files.is_empty() && !review() {
            continue;
        }
        out.push(entry(&commit, files));
    }
    Ok(out)
}

/// Describes one commit (its changed memory paths given).
fn entry(commit: &Commit<'_>, files: Vec<String>) -> LogEntry {
    let msg = String::from_utf8_lossy(commit.message_bytes()).into_owned();
    let summary = msg.lines().next().unwrap_or_default().to_string();
    let t = message::parse_trailers(&msg);
    let kind = kind_of(&summary, &t);
    let id = commit.id().to_string();
    let author = commit.author();
    let time = commit.time();
    LogEntry {
        short: super::short_id(&id),
        id,
        summary: message::one_line(&summary),
        author: String::from_utf8_lossy(author.name_bytes()).into_owned(),
        email: String::from_utf8_lossy(author.email_bytes()).into_owned(),
        time: time.seconds(),
        date: format_time(time.seconds(), time.offset_minutes()),
        kind,
        review: t.review,
        dream_id: t.dream_id,
        dream_source: t.dream_source,
        reverts: t.reverts,
        files,
    }
}

/// What a commit is, from its summary line and trailers.
pub fn kind_of(summary: &str, t: &message::Trailers) -> CommitKind {
    if t.reverts.is_some() {
        CommitKind::Revert
    } else if t.dream_id.is_some() || t.review.is_some() {
        CommitKind::Review
    } else if summary == message::SNAPSHOT_SUMMARY
        || summary == message::SNAPSHOT_BEFORE_REVERT
        || summary == message::SNAPSHOT_SESSIONS
    {
        CommitKind::Snapshot
    } else {
        CommitKind::Other
    }
}

/// The log entry of one commit (whether or not it touches the memory folder).
pub fn describe(repo: &MemoryRepo, commit: &Commit<'_>) -> Result<LogEntry> {
    Ok(entry(commit, changed_paths(repo, commit)?))
}

/// `YYYY-MM-DD HH:MM +ZZZZ`: a git time in its own offset, formatted by jiff. A time past
/// jiff's range (years -9999..=9999) is shown at its first or last second, and an offset
/// past ±25:59 (no time zone has one; git stores what it is given) at that bound.
pub fn format_time(secs: i64, offset_min: i32) -> String {
    // ±25:59, in whole minutes as git keeps them.
    const MAX_MIN: i32 = 25 * 60 + 59;
    let offset =
        jiff::tz::Offset::from_seconds(offset_min.clamp(-MAX_MIN, MAX_MIN) * 60).unwrap_or(jiff::tz::Offset::UTC);
    let at = jiff::Timestamp::from_second(secs).unwrap_or(if secs < 0 {
        jiff::Timestamp::MIN
    } else {
        jiff::Timestamp::MAX
    });
    at.to_zoned_datetime(offset.to_time_zone()).strftime("%Y-%m-%d %H:%M %z").to_string()
}

/// Memory-relative paths (notes only, hidden names skipped) a commit changes against its
/// first parent.
fn changed_paths(repo: &MemoryRepo, commit: &Commit<'_>) -> Result<Vec<String>> {
    let tree = commit.tree()?;
    let new = repo.memory_tree(&tree)?;
    let parent_tree = match commit.parent(0) {
        Ok(p) => Some(p.tree()?),
        Err(_) => None,
    };
    let old = match &parent_tree {
        Some(t) => repo.memory_tree(t)?,
        None => None,
    };
    if old.as_ref().map(|t| t.id()) == new.as_ref().map(|t| t.id()) {
        return Ok(Vec::new());
    }
    let diff = repo.repo.diff_tree_to_tree(old.as_ref(), new.as_ref(), None).context("cannot diff a commit")?;
    let mut paths = BTreeSet::new();
    for d in diff.deltas() {
        for f in [d.old_file(), d.new_file()] {
            if let Some(p) = f.path().and_then(|p| p.to_str())
                && !p.split('/').any(is_hidden)
            {
                paths.insert(p.replace('\\', "/"));
            }
        }
    }
    Ok(paths.into_iter().collect())
}

/// The memory folder in a commit's first parent and in the commit.
pub fn snapshots(repo: &MemoryRepo, commit: &Commit<'_>) -> Result<(Snapshot, Snapshot)> {
    let after = repo.tree_snapshot(&commit.tree()?)?;
    let before = match commit.parent(0) {
        Ok(p) => repo.tree_snapshot(&p.tree()?)?,
        Err(_) => Snapshot::new(),
    };
    Ok((before, after))
}

/// A commit's changes to the memory folder as file diffs (parent → commit), with hunk
/// ids as `revert --hunk` takes them.
pub fn commit_diff(repo: &MemoryRepo, commit: &Commit<'_>) -> Result<Vec<FileDiff>> {
    let (before, after) = snapshots(repo, commit)?;
    Ok(diff_snapshots(&before, &after))
}

/// File diffs from `before` to `after` (both sides treated as live, so no hunk is
/// `live_changed`).
pub fn diff_snapshots(before: &Snapshot, after: &Snapshot) -> Vec<FileDiff> {
    let paths: BTreeSet<&String> = before.keys().chain(after.keys()).collect();
    paths.into_iter().filter_map(|p| diff::diff_file(p, before.get(p), before.get(p), after.get(p))).collect()
}

/// The newest review commit of the dream `dream_id` reachable from `HEAD` that no later
/// whole-commit revert undid, if any.
pub fn already_reviewed(repo: &MemoryRepo, dream_id: &str) -> Result<Option<LogEntry>> {
    Ok(reviewed_with_reverts(repo, dream_id)?.map(|(e, _)| e))
}

/// [`already_reviewed`], with the reverts of part of that commit made since (newest first).
pub fn reviewed_with_reverts(
    repo: &MemoryRepo,
    dream_id: &str,
) -> Result<Option<(LogEntry, Vec<crate::model::review::history::PartRevert>)>> {
    if repo.head_commit()?.is_none() || dream_id.is_empty() {
        return Ok(None);
    }
    let mut walk = repo.repo.revwalk()?;
    walk.set_sorting(Sort::TOPOLOGICAL | Sort::TIME)?;
    walk.push_head()?;
    // Review commits undone whole by a later revert (newer commits come first).
    let mut reverted: Vec<String> = Vec::new();
    // Reverts of part of a commit: (the commit they revert, the revert commit's id).
    let mut parts: Vec<(String, Oid)> = Vec::new();
    for oid in walk {
        let oid: Oid = oid?;
        let commit = repo.repo.find_commit(oid)?;
        let msg = String::from_utf8_lossy(commit.message_bytes());
        if let Some(undone) = whole_revert_of(&msg) {
            reverted.push(undone);
        } else if let Some(undone) = message::parse_trailers(&msg).reverts {
            parts.push((undone, oid));
        }
        if !msg.contains(dream_id) {
            continue;
        }
        let id = oid.to_string();
        if reverted.iter().any(|r| !r.is_empty() && id.starts_with(r.as_str())) {
            continue;
        }
        if message::parse_trailers(&msg).dream_id.as_deref() == Some(dream_id) {
            let mine = parts.iter().filter(|(r, _)| !r.is_empty() && id.starts_with(r.as_str())).map(|(_, o)| *o);
            let reverts = mine.filter_map(|o| part_revert(repo, o)).collect();
            return Ok(Some((describe(repo, &commit)?, reverts)));
        }
    }
    Ok(None)
}

/// What revert commit `oid` took out of and put back into each note it changed.
fn part_revert(repo: &MemoryRepo, oid: Oid) -> Option<crate::model::review::history::PartRevert> {
    let commit = repo.repo.find_commit(oid).ok()?;
    let (before, after) = snapshots(repo, &commit).ok()?;
    let lines = |e: Option<&crate::inputs::snapshot::Entry>| -> Vec<String> {
        let text = e.and_then(|e| e.bytes()).map(String::from_utf8_lossy).unwrap_or_default();
        text.lines().map(str::to_string).collect()
    };
    // What one side has more of than the other, line by line (a multiset difference).
    let minus = |a: &[String], b: &[String]| -> Vec<String> {
        let mut left: Vec<&String> = b.iter().collect();
        a.iter()
            .filter(|l| match left.iter().position(|x| x == l) {
                Some(i) => {
                    left.swap_remove(i);
                    false
                }
                None => true,
            })
            .cloned()
            .collect()
    };
    let paths: BTreeSet<&String> = before.keys().chain(after.keys()).collect();
    let notes = paths
        .into_iter()
        .filter(|p| before.get(*p) != after.get(*p))
        .map(|p| {
            let (old, new) = (lines(before.get(p)), lines(after.get(p)));
            (p.clone(), minus(&old, &new), minus(&new, &old))
        })
        .collect();
    Some(crate::model::review::history::PartRevert { short: super::short_id(oid), notes })
}

/// The commit a whole-commit revert of dreamreview undoes (`Revert "…"` with a `Reverts:`
/// trailer); `None` for other commits and for reverts of one file or hunk.
fn whole_revert_of(msg: &str) -> Option<String> {
    if !msg.starts_with("Revert \"") {
        return None;
    }
    message::parse_trailers(msg).reverts
}

/// How many of the newest commits [`recent_offset`] reads.
pub const OFFSET_SEARCH_DEPTH: usize = 20;

/// The UTC offset the authors of the newest [`OFFSET_SEARCH_DEPTH`] commits recorded most
/// often (git keeps each commit's offset), with how many agree: the user's time zone when
/// neither `--tz` nor the machine says. dreamreview's own commits (reviews, reverts) are
/// left out: they carry the zone of whatever machine ran the review. `None` without a
/// commit to read, or when the history cannot be read.
pub fn recent_offset(repo: &MemoryRepo) -> Option<crate::base::zone::CommitOffset> {
    repo.head_commit().ok()??;
    let mut walk = repo.repo.revwalk().ok()?;
    walk.push_head().ok()?;
    let mut counts: std::collections::BTreeMap<i32, usize> = std::collections::BTreeMap::new();
    let mut read = 0;
    for oid in walk.take(OFFSET_SEARCH_DEPTH * 5) {
        let Ok(commit) = oid.and_then(|o| repo.repo.find_commit(o)) else { continue };
        let msg = String::from_utf8_lossy(commit.message_bytes());
        let t = message::parse_trailers(&msg);
        if t.dream_id.is_some() || t.reverts.is_some() {
            continue;
        }
        let minutes = commit.author().when().offset_minutes();
        *counts.entry(minutes.saturating_mul(60)).or_default() += 1;
        read += 1;
        if read == OFFSET_SEARCH_DEPTH {
            break;
        }
    }
    let (&seconds, &agreeing) = counts.iter().max_by_key(|&(s, n)| (*n, std::cmp::Reverse(*s)))?;
    Some(crate::base::zone::CommitOffset { seconds, agreeing, read })
}

/// How many commits [`holds_reviews`] reads before it gives up: the newest review of a
/// memory folder is rarely far from `HEAD`, and an unrelated repository's long history
/// is not worth walking to the end.
pub const REVIEW_SEARCH_DEPTH: usize = 10_000;

/// Whether the repository holding `memory` has a review commit of dreamreview (a
/// `Dream-Id` trailer) made into that very folder, within the newest
/// [`REVIEW_SEARCH_DEPTH`] commits: the commit changes a note there and its message lists
/// that note by its path in the folder (`- a.md#1 (…)`), so a review of `proj/memory`
/// vouches neither for `proj` nor for `proj/memory/sub`. `false` without a repository,
/// or when it cannot be read: this is a reason to trust a folder, never to distrust one.
pub fn holds_reviews(memory: &std::path::Path) -> bool {
    let Ok(Some(repo)) = MemoryRepo::discover(memory) else { return false };
    reviews_in(&repo).unwrap_or(false)
}

fn reviews_in(repo: &MemoryRepo) -> Result<bool> {
    if repo.head_commit()?.is_none() {
        return Ok(false);
    }
    let mut walk = repo.repo.revwalk()?;
    walk.push_head()?;
    for oid in walk.take(REVIEW_SEARCH_DEPTH) {
        let commit = repo.repo.find_commit(oid?)?;
        let msg = String::from_utf8_lossy(commit.message_bytes());
        if msg.contains("Dream-Id:")
            && message::parse_trailers(&msg).dream_id.is_some()
            && lists_any(&msg, &changed_paths(repo, &commit)?)
        {
            return Ok(true);
        }
    }
    Ok(false)
}

/// Whether a review message lists one of `paths` (relative to the folder looked at) as a
/// hunk id, `- <path>#<n> (…)`.
fn lists_any(msg: &str, paths: &[String]) -> bool {
    paths.iter().any(|p| {
        let head = format!("- {}#", message::one_line(p));
        msg.lines().any(|l| l.starts_with(&head))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_review_lists_the_notes_of_its_own_folder() {
        let msg = "dream review: accept 1 of 1\n\nAccepted (1):\n- a.md#1 (+1 -1)\n\nDream-Id: x\n";
        assert!(lists_any(msg, &["a.md".to_string()]));
        // The same commit seen from the folder around it, or from another note.
        assert!(!lists_any(msg, &["memory/a.md".to_string()]));
        assert!(!lists_any(msg, &["b.md".to_string(), "sub/a.md".to_string()]));
        assert!(!lists_any(msg, &[]));
    }

    #[test]
    fn dates_are_in_the_committers_zone() {
        assert_eq!(format_time(0, 0), "1970-01-01 00:00 +0000");
        assert_eq!(format_time(0, -90), "1969-12-31 22:30 -0130");
        assert_eq!(format_time(1_794_000_000, 60), "2026-11-06 22:20 +0100");
        // What no clock gives (a commit can say anything) is shown at jiff's bounds.
        assert!(format_time(i64::MAX, 0).starts_with("9999-12-"), "{}", format_time(i64::MAX, 0));
        assert!(format_time(i64::MIN, 6000).starts_with("-9999-01-0"), "{}", format_time(i64::MIN, 6000));
        assert!(format_time(0, i32::MAX).ends_with("+2559"));
    }
}
