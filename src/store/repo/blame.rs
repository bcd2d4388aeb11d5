//! Which commit introduced each line of a file: a first-parent blame.
//!
//! libgit2's blame diffs the trees of every commit of the history against their parents
//! (~1 ms a commit), even for a line whose last change is old. This walk only reads each
//! first-parent commit's blob id for the file, and diffs two versions of the file (with
//! [`similar`], Myers, whole lines with their terminators) only where that id changed,
//! following the lines still unexplained back until each one's introducing commit is found.
//!
//! First-parent: a line a merge brought in is the merge's (memory repositories are linear;
//! a merged side branch is one change of the line of history the reviewer lives on).

use anyhow::{Context, Result};
use git2::{Commit, Oid, Repository};
use similar::{Algorithm, DiffOp};
use std::path::Path;
use std::time::{Duration, Instant};

/// How long one diff of two versions may take before it settles for a coarser answer.
const DIFF_DEADLINE: Duration = Duration::from_secs(2);

/// The commit that introduced each line of `text`, the file `path` (repository-relative)
/// as it is at `start` or in the work tree after it: `Oid::ZERO_SHA1` for a line `start`
/// does not have (not committed). Only the lines (0-based) in `wanted` are looked for;
/// the others are `Oid::ZERO_SHA1` too. Errors name the path.
pub fn blame(repo: &Repository, path: &str, start: Oid, text: &[u8], wanted: &[usize]) -> Result<Vec<Oid>> {
    let context = || format!("cannot read the history of {path}");
    let lines = split(text);
    let mut found = vec![Oid::ZERO_SHA1; lines.len()];
    let commit = repo.find_commit(start).with_context(context)?;
    let Some(blob) = blob_at(&commit, path) else { return Ok(found) };
    // Each unexplained line: its index in `text`, and in the version being walked.
    let mut pending: Vec<(usize, usize)> = wanted.iter().filter(|&&i| i < lines.len()).map(|&i| (i, i)).collect();
    let content = repo.find_blob(blob).with_context(context)?.content().to_vec();
    if content != text {
        pending = follow(&split(&content), &lines, pending, |_| {});
    }
    let mut version = Version { commit, blob, content };
    while !pending.is_empty() {
        let Some(older) = version.next_change(repo, path).with_context(context)? else {
            // The first version: every line still unexplained is its commit's.
            for (i, _) in pending.drain(..) {
                found[i] = version.commit.id();
            }
            break;
        };
        let introduced = version.commit.id();
        let old_content = older.content.as_slice();
        pending = follow(&split(old_content), &split(&version.content), pending, |i| found[i] = introduced);
        version = older;
    }
    Ok(found)
}

/// One version of the file: the newest commit of the run of first-parent commits that
/// have it, its blob id and its bytes.
struct Version<'r> {
    commit: Commit<'r>,
    blob: Oid,
    content: Vec<u8>,
}

impl<'r> Version<'r> {
    /// The next older version on the first-parent line, with `self.commit` moved to the
    /// oldest commit that still has this version (the one that introduced it). `None`
    /// when that commit has no parent or its parent has no such file.
    fn next_change(&mut self, repo: &'r Repository, path: &str) -> Result<Option<Version<'r>>> {
        loop {
            let Ok(parent) = self.commit.parent(0) else { return Ok(None) };
            match blob_at(&parent, path) {
                Some(id) if id == self.blob => self.commit = parent,
                Some(id) => {
                    let content = repo.find_blob(id)?.content().to_vec();
                    return Ok(Some(Version { commit: parent, blob: id, content }));
                }
                None => return Ok(None),
            }
        }
    }
}

/// The blob id of `path` in `commit`'s tree, when it is a file there.
fn blob_at(commit: &Commit<'_>, path: &str) -> Option<Oid> {
    let entry = commit.tree().ok()?.get_path(Path::new(path)).ok()?;
    (entry.kind() == Some(git2::ObjectType::Blob)).then(|| entry.id())
}

/// Maps the pending lines of `new` to their lines in `old`; a pending line `old` does not
/// have is given to `introduced` (by its index in the text asked about) and dropped.
fn follow(
    old: &[&[u8]],
    new: &[&[u8]],
    pending: Vec<(usize, usize)>,
    mut introduced: impl FnMut(usize),
) -> Vec<(usize, usize)> {
    let mut to_old: Vec<Option<usize>> = vec![None; new.len()];
    let deadline = Instant::now() + DIFF_DEADLINE;
    for op in similar::capture_diff_slices_deadline(Algorithm::Myers, old, new, Some(deadline)) {
        if let DiffOp::Equal { old_index, new_index, len } = op {
            for k in 0..len {
                to_old[new_index + k] = Some(old_index + k);
            }
        }
    }
    let mut still = Vec::with_capacity(pending.len());
    for (asked, at) in pending {
        match to_old.get(at).copied().flatten() {
            Some(o) => still.push((asked, o)),
            None => introduced(asked),
        }
    }
    still
}

/// Lines with their terminators, as git compares them.
fn split(text: &[u8]) -> Vec<&[u8]> {
    let mut lines = Vec::new();
    let mut start = 0;
    for end in memchr::memchr_iter(b'\n', text) {
        lines.push(&text[start..=end]);
        start = end + 1;
    }
    if start < text.len() {
        lines.push(&text[start..]);
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;
    use git2::Signature;

    /// A repository with one commit per version of `a.md`; returns it and the commit ids.
    fn history(versions: &[&str]) -> (tempfile::TempDir, Repository, Vec<Oid>) {
        let dir = tempfile::tempdir().unwrap();
        let repo = Repository::init(dir.path()).unwrap();
        let mut ids = Vec::new();
        for (n, v) in versions.iter().enumerate() {
            let mut tree = repo.treebuilder(None).unwrap();
            tree.insert("a.md", repo.blob(v.as_bytes()).unwrap(), 0o100644).unwrap();
            tree.insert("other.md", repo.blob(format!("{n}\n").as_bytes()).unwrap(), 0o100644).unwrap();
            let tree = repo.find_tree(tree.write().unwrap()).unwrap();
            let sig = Signature::new("t", "t@example.com", &git2::Time::new(1_700_000_000 + n as i64, 0)).unwrap();
            let parents: Vec<Commit<'_>> = ids.last().map(|&p| repo.find_commit(p).unwrap()).into_iter().collect();
            let refs: Vec<&Commit<'_>> = parents.iter().collect();
            ids.push(repo.commit(Some("HEAD"), &sig, &sig, &format!("c{n}"), &tree, &refs).unwrap());
        }
        (dir, repo, ids)
    }

    #[test]
    fn each_line_goes_to_the_commit_that_introduced_it() {
        let (_d, repo, ids) = history(&["a\nb\n", "a\nb\n", "a\nB\nc\n", "a\nB\nc\n", "x\na\nB\nc\n"]);
        let head = *ids.last().unwrap();
        let text = b"x\na\nB\nc\n";
        let got = blame(&repo, "a.md", head, text, &[0, 1, 2, 3]).unwrap();
        assert_eq!(got, vec![ids[4], ids[0], ids[2], ids[2]]);
        // Only the lines asked about are looked for.
        assert_eq!(
            blame(&repo, "a.md", head, text, &[1]).unwrap(),
            vec![Oid::ZERO_SHA1, ids[0], Oid::ZERO_SHA1, Oid::ZERO_SHA1]
        );
    }

    #[test]
    fn lines_not_in_the_start_commit_are_uncommitted_and_a_removed_line_put_back_is_new() {
        let (_d, repo, ids) = history(&["a\nb\n", "a\n", "a\nb\n"]);
        let text = b"a\nnew\nb\n";
        let got = blame(&repo, "a.md", ids[2], text, &[0, 1, 2]).unwrap();
        assert_eq!(got, vec![ids[0], Oid::ZERO_SHA1, ids[2]]);
        // Blamed from an older commit, the later versions do not count.
        assert_eq!(blame(&repo, "a.md", ids[1], b"a\n", &[0]).unwrap(), vec![ids[0]]);
    }

    #[test]
    fn a_file_deleted_and_added_again_is_the_re_adding_commits() {
        let dir = tempfile::tempdir().unwrap();
        let repo = Repository::init(dir.path()).unwrap();
        let sig = Signature::now("t", "t@example.com").unwrap();
        let mut parent: Option<Oid> = None;
        let mut ids = Vec::new();
        for content in [Some("a\n"), None, Some("a\n")] {
            let mut tree = repo.treebuilder(None).unwrap();
            tree.insert("keep.md", repo.blob(b"k\n").unwrap(), 0o100644).unwrap();
            if let Some(c) = content {
                tree.insert("a.md", repo.blob(c.as_bytes()).unwrap(), 0o100644).unwrap();
            }
            let tree = repo.find_tree(tree.write().unwrap()).unwrap();
            let parents: Vec<Commit<'_>> = parent.map(|p| repo.find_commit(p).unwrap()).into_iter().collect();
            let refs: Vec<&Commit<'_>> = parents.iter().collect();
            let id = repo.commit(Some("HEAD"), &sig, &sig, "c", &tree, &refs).unwrap();
            ids.push(id);
            parent = Some(id);
        }
        assert_eq!(blame(&repo, "a.md", ids[2], b"a\n", &[0]).unwrap(), vec![ids[2]]);
        // A path the commit does not have: nothing is committed.
        assert_eq!(blame(&repo, "b.md", ids[2], b"z\n", &[0]).unwrap(), vec![Oid::ZERO_SHA1]);
    }

    #[test]
    fn a_last_line_without_terminator_differs_from_the_same_line_with_one() {
        let (_d, repo, ids) = history(&["a\nb", "a\nb\nc\n"]);
        assert_eq!(blame(&repo, "a.md", ids[1], b"a\nb\nc\n", &[0, 1, 2]).unwrap(), vec![ids[0], ids[1], ids[1]]);
    }
}
