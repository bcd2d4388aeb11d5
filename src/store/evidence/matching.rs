//! Which kept hunks explain each hunk of a commit's diff. The history shows a review commit
//! as the diff from its parent, whose hunks need not be the review's: a hunk taken line by
//! line, or next to another, is cut differently. So a kept hunk is found by what it wrote:
//! its note's path and its committed lines (masked the way [`super::HunkEvidence::lines`]
//! keeps them) among a diff hunk's added lines. A kept hunk that added nothing (it only
//! deleted) goes, in order, to the diff's hunks of its note that add nothing either.

use super::Evidence;
use crate::base::secrets::mask;
use crate::base::text::strip_terminator;
use crate::model::diff::{FileDiff, Hunk};
use crate::model::ids::{HunkId, PerHunk};
use std::collections::HashMap;

/// The kept hunks of a note, matched to the hunks of a commit's diff.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct HunkMatch {
    /// Per hunk of the diff: the kept hunks (indices into [`Evidence::hunks`]) whose lines
    /// it adds, in review order.
    pub by_hunk: PerHunk<Vec<usize>>,
    /// Kept hunks no hunk of the diff matched, in review order.
    pub unmatched: Vec<usize>,
}

impl HunkMatch {
    /// The kept hunks explaining hunk `id` of the diff.
    pub fn of(&self, id: HunkId) -> &[usize] {
        self.by_hunk.get(id).map_or(&[], Vec::as_slice)
    }
}

/// Matches the kept hunks of `evidence` to the hunks of `files` (a commit's diff).
pub fn match_hunks(files: &[FileDiff], evidence: &Evidence) -> HunkMatch {
    let mut by_hunk: PerHunk<Vec<usize>> = PerHunk::shaped(files);
    let mut unmatched = Vec::new();
    let added: PerHunk<Vec<String>> = PerHunk::build(files, |_, h| added_keys(h).collect());
    // Per file, the hunks adding nothing, handed out in order to kept hunks that wrote nothing.
    let mut empty_left: Vec<std::collections::VecDeque<usize>> = (0..files.len())
        .map(|fi| {
            let hunks = added.file(fi).iter().enumerate();
            hunks.filter(|(_, keys)| !keys.iter().any(|k| is_content(k))).map(|(i, _)| i).collect()
        })
        .collect();
    for (ki, kept) in evidence.hunks.iter().enumerate() {
        let Some(fi) = files.iter().position(|f| f.path == kept.path) else {
            unmatched.push(ki);
            continue;
        };
        let wanted: Vec<&str> = kept.lines.iter().map(String::as_str).filter(|l| is_content(l)).collect();
        let hunks = if wanted.is_empty() {
            empty_left[fi].pop_front().into_iter().collect()
        } else {
            covering(added.file(fi), &wanted)
        };
        if hunks.is_empty() {
            unmatched.push(ki);
        }
        for hi in hunks {
            by_hunk[HunkId::new(fi, hi)].push(ki);
        }
    }
    HunkMatch { by_hunk, unmatched }
}

/// A hunk's added lines as the evidence keeps committed lines: masked, terminators stripped.
fn added_keys(h: &Hunk) -> impl Iterator<Item = String> + '_ {
    h.added().map(|l| mask(strip_terminator(&l.text)).into_owned())
}

/// A line that says something: blank lines match anywhere, so they match nothing.
fn is_content(line: &str) -> bool {
    !line.trim().is_empty()
}

/// The fewest hunks (as far as a greedy cover finds them) whose added lines hold `wanted`:
/// first the hunk holding most of them, then the one holding most of the rest… until all
/// are found or no hunk holds any that are left. In file order.
fn covering(hunks: &[Vec<String>], wanted: &[&str]) -> Vec<usize> {
    let mut left: HashMap<&str, usize> = HashMap::new();
    for w in wanted {
        *left.entry(w).or_default() += 1;
    }
    let mut chosen: Vec<usize> = Vec::new();
    loop {
        let best = hunks
            .iter()
            .enumerate()
            .filter(|(i, _)| !chosen.contains(i))
            .map(|(i, keys)| (i, held(keys, &left)))
            .filter(|&(_, n)| n > 0)
            .max_by_key(|&(i, n)| (n, std::cmp::Reverse(i)));
        let Some((i, _)) = best else { break };
        for k in &hunks[i] {
            if let Some(n) = left.get_mut(k.as_str())
                && *n > 0
            {
                *n -= 1;
            }
        }
        chosen.push(i);
        if left.values().all(|&n| n == 0) {
            break;
        }
    }
    chosen.sort_unstable();
    chosen
}

/// How many of the lines still `left` (a multiset) `keys` holds.
fn held(keys: &[String], left: &HashMap<&str, usize>) -> usize {
    let mut seen: HashMap<&str, usize> = HashMap::new();
    keys.iter()
        .filter(|k| {
            let used = seen.entry(k.as_str()).or_default();
            let ok = left.get(k.as_str()).is_some_and(|&n| *used < n);
            if ok {
                *used += 1;
            }
            ok
        })
        .count()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::inputs::snapshot::{Entry, Snapshot};
    use crate::store::evidence::{FORMAT, HunkEvidence, Taken};

    fn snap(files: &[(&str, &str)]) -> Snapshot {
        let mut s = Snapshot::new();
        for (p, text) in files {
            s.insert(p.to_string(), Entry::File(text.as_bytes().to_vec()));
        }
        s
    }

    fn kept(id: &str, path: &str, lines: &[&str]) -> HunkEvidence {
        HunkEvidence {
            id: id.into(),
            path: path.into(),
            taken: Taken::Accepted,
            lines: lines.iter().map(|l| l.to_string()).collect(),
            entries: Vec::new(),
            claims: Vec::new(),
            accepted_flags: Vec::new(),
        }
    }

    fn evidence(hunks: Vec<HunkEvidence>) -> Evidence {
        Evidence { format: FORMAT.into(), dream: "d".into(), dream_id: "x".into(), time_zone: "UTC".into(), hunks }
    }

    const BEFORE: &str = "# A\n\none\ntwo\nthree\nfour\nfive\nsix\nseven\neight\nnine\nten\n";

    #[test]
    fn kept_hunks_are_found_by_path_and_committed_lines_not_by_id() {
        // Two changes far apart: the commit's diff has two hunks of a.md and one of b.md.
        let before = snap(&[("a.md", BEFORE), ("b.md", "x\ny\n"), ("c.md", "gone\n")]);
        let after =
            snap(&[("a.md", &BEFORE.replace("one\n", "ONE\n").replace("ten\n", "TEN\nELEVEN\n")), ("b.md", "x\nY\n")]);
        let files = crate::store::repo::history::diff_snapshots(&before, &after);
        let paths: Vec<&str> = files.iter().map(|f| f.path.as_str()).collect();
        assert_eq!(paths, ["a.md", "b.md", "c.md"]);
        assert_eq!(files[0].hunks.len(), 2);
        // The review's ids and order differ from the diff's: b first, a's hunks swapped.
        let ev = evidence(vec![
            kept("b.md#7", "b.md", &["Y"]),
            kept("a.md#9", "a.md", &["TEN", "ELEVEN"]),
            kept("a.md#3", "a.md", &["ONE"]),
            kept("c.md#1", "c.md", &[]),
            kept("d.md#1", "d.md", &["not in this commit"]),
            kept("a.md#5", "a.md", &["a line the commit did not write"]),
        ]);
        let m = match_hunks(&files, &ev);
        assert_eq!(m.of(HunkId::new(0, 0)), [2]);
        assert_eq!(m.of(HunkId::new(0, 1)), [1]);
        assert_eq!(m.of(HunkId::new(1, 0)), [0]);
        // A deletion wrote nothing: it goes to the hunk of its note that adds nothing.
        assert_eq!(m.of(HunkId::new(2, 0)), [3]);
        assert_eq!(m.unmatched, [4, 5]);
    }

    #[test]
    fn a_kept_hunk_cut_in_two_by_the_commit_diff_explains_both_and_two_kept_hunks_can_share_one() {
        let before = snap(&[("a.md", BEFORE)]);
        let after = snap(&[("a.md", &BEFORE.replace("one\n", "ONE\n").replace("ten\n", "TEN\n"))]);
        let files = crate::store::repo::history::diff_snapshots(&before, &after);
        assert_eq!(files[0].hunks.len(), 2);
        let ev = evidence(vec![kept("a.md#1", "a.md", &["ONE", "", "TEN"])]);
        assert_eq!(match_hunks(&files, &ev).of(HunkId::new(0, 0)), [0]);
        assert_eq!(match_hunks(&files, &ev).of(HunkId::new(0, 1)), [0]);
        let close = snap(&[("a.md", &BEFORE.replace("one\n", "ONE\n").replace("two\n", "TWO\n"))]);
        let files = crate::store::repo::history::diff_snapshots(&before, &close);
        assert_eq!(files[0].hunks.len(), 1);
        let ev = evidence(vec![kept("a.md#1", "a.md", &["ONE"]), kept("a.md#2", "a.md", &["TWO"])]);
        assert_eq!(match_hunks(&files, &ev).of(HunkId::new(0, 0)), [0, 1]);
    }

    #[test]
    fn a_secret_matches_as_kept_masked() {
        let key = "sk-ant-api03-Zq8VbN2xR4tY7uI1oP3aS5dF6gH8jK0lZ9XcV2bN4mQ6wE8rT1yU3iO5pA7sD9fG2hJ4kL6zX8cV0bN1mQ3wE5rT7yU9iO1pA3sD-Z9AA";
        let before = snap(&[("a.md", "x\n")]);
        let after = snap(&[("a.md", &format!("x\nkey {key}\n"))]);
        let files = crate::store::repo::history::diff_snapshots(&before, &after);
        let masked = mask(&format!("key {key}")).into_owned();
        assert!(!masked.contains("Zq8VbN2x"), "{masked}");
        let ev = evidence(vec![kept("a.md#1", "a.md", &[&masked])]);
        assert_eq!(match_hunks(&files, &ev).of(HunkId::new(0, 0)), [0]);
    }
}
