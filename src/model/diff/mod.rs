//! The diff model: files, hunks and lines, and the exact bytes a file gets from the
//! reviewer's decisions.
//!
//! Every hunk is a change from the *live* file (what is on disk now) to the dream's
//! proposal rebased onto live. When live has not moved since the dream's base this is a
//! plain two-way diff; when it has (`docs/review-model.md`, "Base and drift"), dream changes that do not touch live's
//! own edits become ordinary hunks and the overlapping ones become `live_changed` hunks that
//! replace live's version and so can only be taken after editing. Results are computed from
//! the live lines and the decisions — never by re-applying patch text — so reject-all gives
//! live back byte for byte and accept-all gives the proposal.

mod compute;
pub mod masked;
mod result;

use compute::regions;
pub use compute::{diff_file, outside_file};
pub use result::{result, to_patch};

use crate::base::text::{as_text, split_lines};
use crate::inputs::snapshot::Entry;
use crate::model::decision::{Decision, HunkDecision};
use serde::Serialize;
use sha2::{Digest, Sha256};
use similar::{Algorithm, DiffOp};
use std::ops::Range;
use std::time::{Duration, Instant};

/// Lines of unchanged context around each change, as in `diff -u` and `git diff`.
pub const CONTEXT: usize = 3;

/// How a file changes, named by [`FileStatus::name`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, strum::IntoStaticStr)]
#[serde(into = "&'static str")]
#[strum(serialize_all = "lowercase")]
pub enum FileStatus {
    /// Exists on both sides.
    Modified,
    /// Only in the proposal (a new note).
    Added,
    /// Only in live (the dream deletes it).
    Deleted,
}

impl FileStatus {
    /// `modified`, `added` or `deleted`.
    pub fn name(self) -> &'static str {
        self.into()
    }
}

/// What kind of content a file holds; only text gets line hunks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum FileKind {
    /// UTF-8 without NUL bytes on every side: line hunks, line decisions.
    Text,
    /// Non-UTF-8 or NUL-containing content: one whole-file hunk.
    Binary,
    /// A symlink on some side: shown, never written.
    Symlink,
    /// A path `memory.diff` names outside the live folder (`..`, another root): shown
    /// from the diff's text, never written.
    Outside,
}

impl FileKind {
    /// True when dreamreview may ever write this file (text and binary notes).
    pub fn writable(self) -> bool {
        matches!(self, FileKind::Text | FileKind::Binary)
    }
}

/// The kind of a diff line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Op {
    /// Unchanged context.
    Context,
    /// Removed from live.
    Remove,
    /// Added by the dream.
    Add,
}

impl Op {
    /// The unified-diff marker: `" "`, `"-"` or `"+"`.
    pub fn marker(self) -> &'static str {
        match self {
            Op::Context => " ",
            Op::Remove => "-",
            Op::Add => "+",
        }
    }
}

impl Serialize for Op {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.marker())
    }
}

/// One line of a hunk; `text` keeps its own terminator (or has none at end of file).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Line {
    /// Context, removed or added.
    pub op: Op,
    /// The line's exact text including `\n` / `\r\n` when it has one.
    pub text: String,
}

/// A run of changes with its context: the unit the reviewer accepts or rejects.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hunk {
    /// `<path>#<n>`, stable for a given dream and live folder.
    pub id: String,
    /// 1-based position in its file.
    pub index: usize,
    /// 0-based range of live lines this hunk covers (context included).
    pub old_range: Range<usize>,
    /// 0-based range of the accept-all result's lines it covers.
    pub new_range: Range<usize>,
    /// The lines in display order; empty for a whole-file hunk.
    pub lines: Vec<Line>,
    /// Binary, symlink, or existence-only change (an empty note added or deleted).
    pub whole_file: bool,
    /// Overlaps an edit made to live after the dream's base: can be taken only edited.
    pub live_changed: bool,
    /// Hash of path + removed + added lines: how saved decisions find this hunk again.
    pub key: String,
}

impl Hunk {
    /// Number of decision slots: changed lines, or 1 for a whole-file hunk.
    pub fn slots(&self) -> usize {
        if self.whole_file { 1 } else { self.lines.iter().filter(|l| l.op != Op::Context).count() }
    }

    /// Unified-diff `-a,b` start: 1-based, or the line before when the range is empty.
    pub fn old_start(&self) -> usize {
        unified_start(&self.old_range)
    }

    /// Unified-diff `+c,d` start.
    pub fn new_start(&self) -> usize {
        unified_start(&self.new_range)
    }

    /// Lines added by this hunk (text with terminators).
    pub fn added(&self) -> impl Iterator<Item = &Line> {
        self.lines.iter().filter(|l| l.op == Op::Add)
    }

    /// The changed lines decisions `d` on this hunk take: the accepted ones (every one of
    /// a whole-file hunk). What a commit writes of a hunk not edited, line by line.
    pub fn taken_lines<'a>(&'a self, d: &'a HunkDecision) -> impl Iterator<Item = &'a Line> {
        let changed = self.lines.iter().filter(|l| l.op != Op::Context);
        changed.zip(&d.lines).filter(|(_, x)| **x == Decision::Accepted || self.whole_file).map(|(l, _)| l)
    }

    /// Lines removed by this hunk.
    pub fn removed(&self) -> impl Iterator<Item = &Line> {
        self.lines.iter().filter(|l| l.op == Op::Remove)
    }

    /// The hunk's new side (context and added lines) as one text: what `$EDITOR` gets.
    pub fn new_side(&self) -> String {
        self.lines.iter().filter(|l| l.op != Op::Remove).map(|l| l.text.as_str()).collect()
    }

    /// The hunk's live side (context and removed lines): what live holds in `old_range`.
    pub fn old_side(&self) -> String {
        self.lines.iter().filter(|l| l.op != Op::Add).map(|l| l.text.as_str()).collect()
    }

    /// The text `$EDITOR` gets to merge a `live_changed` hunk: its context as it is, and
    /// each change block as both sides between conflict markers — live's lines after
    /// `<<<<<<< live`, the dream's after `=======`, closed by `>>>>>>> dream`. Every marker
    /// starts a line of its own (a last line without a newline gets one inside the block).
    pub fn merge_text(&self) -> String {
        let mut out = String::new();
        let push = |out: &mut String, text: &str| {
            out.push_str(text);
            if !text.ends_with('\n') {
                out.push('\n');
            }
        };
        let mut i = 0;
        while i < self.lines.len() {
            if self.lines[i].op == Op::Context {
                out.push_str(&self.lines[i].text);
                i += 1;
                continue;
            }
            let end = (i..self.lines.len()).find(|&j| self.lines[j].op == Op::Context).unwrap_or(self.lines.len());
            let block = &self.lines[i..end];
            out.push_str(&format!("{}\n", MERGE_MARKERS[0]));
            block.iter().filter(|l| l.op == Op::Remove).for_each(|l| push(&mut out, &l.text));
            out.push_str(&format!("{}\n", MERGE_MARKERS[1]));
            block.iter().filter(|l| l.op == Op::Add).for_each(|l| push(&mut out, &l.text));
            out.push_str(&format!("{}\n", MERGE_MARKERS[2]));
            i = end;
        }
        out
    }

    /// The first line (1-based) of `text` that is a conflict marker left from
    /// [`Hunk::merge_text`], and the line itself: a `<<<<<<<` or `>>>>>>>` line, or more
    /// `=======` lines than either side of the hunk holds (a Markdown heading underline
    /// the note had is no marker). `None` when the merge is finished.
    pub fn conflict_marker(&self, text: &str) -> Option<(usize, String)> {
        let is_sep = |l: &str| crate::base::text::strip_terminator(l) == MERGE_MARKERS[1];
        let seps = |op: Op| self.lines.iter().filter(|l| l.op != op && is_sep(&l.text)).count();
        let allowed = seps(Op::Add).max(seps(Op::Remove));
        let lines = split_lines(text);
        let too_many = lines.iter().filter(|l| is_sep(l)).count() > allowed;
        lines.iter().enumerate().find_map(|(n, l)| {
            let body = crate::base::text::strip_terminator(l);
            let marker = body.starts_with("<<<<<<<") || body.starts_with(">>>>>>>") || (too_many && is_sep(l));
            marker.then(|| (n + 1, body.to_string()))
        })
    }

    /// This hunk as the reviewer's `text` makes it: live's lines of `old_range` against
    /// the text, every line of the range shown (context where they agree). Same id, key
    /// and old range; never `live_changed` (an edit is the merge).
    pub fn edited(&self, text: &str) -> Hunk {
        let old_text = self.old_side();
        let old = split_lines(&old_text);
        let new = split_lines(text);
        let mut lines = Vec::with_capacity(old.len().max(new.len()));
        let (mut o, mut n) = (0, 0);
        for (or, nr) in regions(&old, &new) {
            lines.extend(old[o..or.start].iter().map(|t| Line { op: Op::Context, text: t.to_string() }));
            lines.extend(old[or.clone()].iter().map(|t| Line { op: Op::Remove, text: t.to_string() }));
            lines.extend(new[nr.clone()].iter().map(|t| Line { op: Op::Add, text: t.to_string() }));
            (o, n) = (or.end, nr.end);
        }
        debug_assert_eq!(old.len() - o, new.len() - n);
        lines.extend(old[o..].iter().map(|t| Line { op: Op::Context, text: t.to_string() }));
        Hunk {
            id: self.id.clone(),
            index: self.index,
            old_range: self.old_range.clone(),
            new_range: self.new_range.start..self.new_range.start + new.len(),
            lines,
            whole_file: false,
            live_changed: false,
            key: self.key.clone(),
        }
    }
}

/// The conflict markers of [`Hunk::merge_text`]: before live's lines, between the sides,
/// after the dream's.
pub const MERGE_MARKERS: [&str; 3] = ["<<<<<<< live", "=======", ">>>>>>> dream"];

impl Hunk {
    /// What the hunk changes that no one can see on lines it keeps, as labels: the line
    /// endings (`CRLF → LF`, the most frequent change when there are several) and
    /// `trailing spaces`. Such lines look the same removed and added, so a view must say
    /// why they are in the diff. Empty for a visible change.
    pub fn invisible_changes(&self) -> Vec<String> {
        fn ending(line: &str) -> &'static str {
            if line.ends_with("\r\n") {
                "CRLF"
            } else if line.ends_with('\n') {
                "LF"
            } else if line.ends_with('\r') {
                "CR"
            } else {
                "no final newline"
            }
        }
        let trim = |body: &str| body.trim_end_matches([' ', '\t']).to_string();
        // Removed lines by body (terminator stripped) and by body without trailing blanks.
        let removed: std::collections::HashMap<&str, &str> =
            self.removed().map(|l| (crate::base::text::strip_terminator(&l.text), l.text.as_str())).collect();
        let removed_trimmed: std::collections::HashSet<String> = removed.keys().map(|b| trim(b)).collect();
        let mut endings: std::collections::BTreeMap<(&str, &str), usize> = std::collections::BTreeMap::new();
        let mut spaces = false;
        for l in self.added() {
            let body = crate::base::text::strip_terminator(&l.text);
            match removed.get(body) {
                Some(old) if *old != l.text => *endings.entry((ending(old), ending(&l.text))).or_default() += 1,
                Some(_) => {}
                None => spaces |= removed_trimmed.contains(&trim(body)),
            }
        }
        let mut out: Vec<String> = endings
            .into_iter()
            .max_by_key(|(_, n)| *n)
            .map(|((from, to), _)| format!("{from} → {to}"))
            .into_iter()
            .collect();
        if spaces {
            out.push("trailing spaces".to_string());
        }
        out
    }
}

fn unified_start(r: &Range<usize>) -> usize {
    if r.is_empty() { r.start } else { r.start + 1 }
}

/// One changed file: both sides' entries and the hunks between them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileDiff {
    /// Path relative to the live folder, '/'-separated.
    pub path: String,
    /// Modified, added or deleted.
    pub status: FileStatus,
    /// Text, binary or symlink.
    pub kind: FileKind,
    /// The live entry (`None`: the note does not exist in live).
    pub live: Option<Entry>,
    /// The proposal's entry (`None`: the dream deletes the note).
    pub proposed: Option<Entry>,
    /// Hunks in file order, with disjoint ascending `old_range`s.
    pub hunks: Vec<Hunk>,
}

impl FileDiff {
    /// Live text split into lines (empty for absent, binary or symlink sides).
    pub fn live_lines(&self) -> Vec<&str> {
        entry_text(self.live.as_ref()).map(split_lines).unwrap_or_default()
    }
}

fn entry_text(e: Option<&Entry>) -> Option<&str> {
    e.and_then(Entry::bytes).and_then(as_text)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f(s: &str) -> Entry {
        Entry::File(s.as_bytes().to_vec())
    }

    fn all(file: &FileDiff, d: Decision) -> Vec<HunkDecision> {
        file.hunks.iter().map(|h| HunkDecision { lines: vec![d; h.slots()], edited: None }).collect()
    }

    #[test]
    fn an_edited_hunk_is_live_against_the_reviewers_text() {
        let live = "a\nb\nc\nd\n";
        let file = diff_file("n.md", Some(&f(live)), Some(&f(live)), Some(&f("a\nB\nc\nd\n"))).unwrap();
        let h = &file.hunks[0];
        let e = h.edited("a\nb\nc\nX\nd\n");
        let shown: Vec<String> = e.lines.iter().map(|l| format!("{}{}", l.op.marker(), l.text.trim_end())).collect();
        assert_eq!(shown, [" a", " b", " c", "+X", " d"], "the dream's B is gone, the reviewer's X shown");
        assert_eq!((e.old_range.clone(), e.new_range.len(), e.id.as_str()), (h.old_range.clone(), 5, "n.md#1"));
        assert!(!e.live_changed);
        assert_eq!(h.old_side(), live);
    }

    #[test]
    fn a_merge_text_holds_both_sides_between_markers_until_they_are_removed() {
        let base = f("x\nold\ny\n");
        let live = f("x\nlive edit\ny\n");
        let file = diff_file("n.md", Some(&base), Some(&live), Some(&f("x\ndream edit\ny\n"))).unwrap();
        let h = &file.hunks[0];
        assert!(h.live_changed);
        let merge = h.merge_text();
        assert_eq!(merge, "x\n<<<<<<< live\nlive edit\n=======\ndream edit\n>>>>>>> dream\ny\n");
        assert_eq!(h.conflict_marker(&merge), Some((2, "<<<<<<< live".to_string())));
        assert_eq!(h.conflict_marker("x\nlive edit\n=======\ny\n"), Some((3, "=======".to_string())));
        assert_eq!(h.conflict_marker("x\nmerged\ny\n"), None);
        // A heading underline the note already had is no marker.
        let file = diff_file(
            "n.md",
            Some(&f("T\n=======\nold\n")),
            Some(&f("T\n=======\nlive\n")),
            Some(&f("T\n=======\ndream\n")),
        )
        .unwrap();
        assert_eq!(file.hunks[0].conflict_marker("T\n=======\nmerged\n"), None);
    }

    #[test]
    fn two_way_hunk_matches_diff_u() {
        let live = "---\nname: testing\ndescription: d\ntype: project\n---\n\nRun tests with `npm test`.\n";
        let prop = "---\nname: testing\ndescription: d\ntype: project\n---\n\nRun tests with `pnpm test`.\nNo Redis.\n";
        let file = diff_file("testing.md", Some(&f(live)), Some(&f(live)), Some(&f(prop))).unwrap();
        assert_eq!(file.hunks.len(), 1);
        let h = &file.hunks[0];
        assert_eq!(h.id, "testing.md#1");
        assert_eq!((h.old_start(), h.old_range.len(), h.new_start(), h.new_range.len()), (4, 4, 4, 5));
        let ops: String = h.lines.iter().map(|l| l.op.marker()).collect();
        assert_eq!(ops, "   -++");
        assert_eq!(result(&file, &all(&file, Decision::Accepted)), Some(f(prop)));
        assert_eq!(result(&file, &all(&file, Decision::Rejected)), Some(f(live)));
        assert_eq!(result(&file, &all(&file, Decision::Pending)), Some(f(live)));
    }

    #[test]
    fn a_hunk_names_the_changes_no_one_can_see() {
        let hunk = |old: &str, new: &str| diff_file("a.md", Some(&f(old)), Some(&f(old)), Some(&f(new))).unwrap();
        assert_eq!(hunk("a\r\nb\r\nc\r\n", "a\nb\nc\n").hunks[0].invisible_changes(), ["CRLF → LF"]);
        assert_eq!(hunk("a\nb\n", "a\nb").hunks[0].invisible_changes(), ["LF → no final newline"]);
        assert_eq!(hunk("a\nb  \n", "a\nb\n").hunks[0].invisible_changes(), ["trailing spaces"]);
        assert_eq!(hunk("a\r\nb \r\n", "a\nb\n").hunks[0].invisible_changes(), ["CRLF → LF", "trailing spaces"]);
        // A real text change is neither.
        assert!(hunk("a\nb\n", "a\nc\n").hunks[0].invisible_changes().is_empty());
    }

    #[test]
    fn unchanged_files_have_no_diff() {
        assert!(diff_file("a.md", Some(&f("x")), Some(&f("x")), Some(&f("x"))).is_none());
        // Live edited after the dream, dream left the file alone: not a dream change.
        assert!(diff_file("a.md", Some(&f("x")), Some(&f("y")), Some(&f("x"))).is_none());
    }

    #[test]
    fn added_and_deleted_files_exist_only_when_decided() {
        let add = diff_file("n.md", None, None, Some(&f("a\nb"))).unwrap();
        assert_eq!(add.status, FileStatus::Added);
        assert_eq!(result(&add, &all(&add, Decision::Rejected)), None);
        assert_eq!(result(&add, &all(&add, Decision::Accepted)), Some(f("a\nb")));
        let del = diff_file("o.md", Some(&f("a\r\n")), Some(&f("a\r\n")), None).unwrap();
        assert_eq!(result(&del, &all(&del, Decision::Accepted)), None);
        assert_eq!(result(&del, &all(&del, Decision::Rejected)), Some(f("a\r\n")));
        let empty = diff_file("e.md", None, None, Some(&f(""))).unwrap();
        assert!(empty.hunks[0].whole_file);
        assert_eq!(result(&empty, &all(&empty, Decision::Accepted)), Some(f("")));
        assert_eq!(result(&empty, &all(&empty, Decision::Rejected)), None);
    }

    #[test]
    fn binary_and_symlinks_are_whole_file() {
        let bin = diff_file("b.md", Some(&f("a")), Some(&f("a")), Some(&Entry::File(vec![0, 1]))).unwrap();
        assert_eq!(bin.kind, FileKind::Binary);
        assert_eq!(bin.hunks.len(), 1);
        assert_eq!(result(&bin, &all(&bin, Decision::Accepted)), Some(Entry::File(vec![0, 1])));
        let link = Entry::Symlink("/etc/hostname".into());
        let sym = diff_file("l.md", None, None, Some(&link)).unwrap();
        assert_eq!(sym.kind, FileKind::Symlink);
        assert_eq!(result(&sym, &all(&sym, Decision::Accepted)), None, "symlinks are never written");
    }

    #[test]
    fn line_decisions_pick_individual_lines() {
        let file = diff_file("a.md", Some(&f("1\n2\n")), Some(&f("1\n2\n")), Some(&f("1\nx\ny\n"))).unwrap();
        // lines: ' 1', '-2', '+x', '+y'
        let d = vec![HunkDecision {
            lines: vec![Decision::Accepted, Decision::Rejected, Decision::Accepted],
            edited: None,
        }];
        assert_eq!(result(&file, &d), Some(f("1\ny\n")));
        let e = vec![HunkDecision { lines: vec![Decision::Pending; 3], edited: Some("1\nmine\n".into()) }];
        assert_eq!(result(&file, &e), Some(f("1\nmine\n")));
    }

    #[test]
    fn drift_far_from_dream_hunk_applies_and_keeps_live_edit() {
        let base: String = (1..=20).map(|i| format!("l{i}\n")).collect();
        let live = base.replace("l2\n", "l2 edited by a session\n");
        let prop = base.replace("l15\n", "l15 by the dream\n");
        let file = diff_file("a.md", Some(&f(&base)), Some(&f(&live)), Some(&f(&prop))).unwrap();
        assert_eq!(file.hunks.len(), 1);
        assert!(!file.hunks[0].live_changed);
        let want = live.replace("l15\n", "l15 by the dream\n");
        assert_eq!(result(&file, &all(&file, Decision::Accepted)), Some(f(&want)));
        assert_eq!(result(&file, &all(&file, Decision::Rejected)), Some(f(&live)));
    }

    #[test]
    fn drift_inside_dream_hunk_is_live_changed_and_never_lost() {
        let base: String = (1..=20).map(|i| format!("l{i}\n")).collect();
        let live = base.replace("l10\n", "l10 session\n");
        let prop = base.replace("l10\n", "l10 dream\n").replace("l18\n", "l18 dream\n");
        let file = diff_file("a.md", Some(&f(&base)), Some(&f(&live)), Some(&f(&prop))).unwrap();
        assert_eq!(file.hunks.len(), 2);
        assert!(file.hunks[0].live_changed);
        assert!(!file.hunks[1].live_changed);
        // Accepting everything cannot drop the session's edit.
        let got = result(&file, &all(&file, Decision::Accepted)).unwrap();
        assert_eq!(got, f(&live.replace("l18\n", "l18 dream\n")));
        // Editing the conflicting hunk is how it is taken.
        let mut d = all(&file, Decision::Accepted);
        let h = &file.hunks[0];
        d[0].edited = Some(h.new_side().replace("l10 dream", "l10 merged"));
        let got = result(&file, &d).unwrap();
        assert_eq!(got, f(&live.replace("l10 session\n", "l10 merged\n").replace("l18\n", "l18 dream\n")));
    }

    #[test]
    fn patch_text_round_trips_through_line_counts() {
        let file = diff_file("a.md", Some(&f("a\nb")), Some(&f("a\nb")), Some(&f("a\nc"))).unwrap();
        let p = to_patch(&file, |_| true);
        assert_eq!(
            p,
            "--- a/a.md\n+++ b/a.md\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+c\n\\ No newline at end of file\n"
        );
    }
}
