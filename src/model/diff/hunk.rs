//! A hunk of a diff: its lines (context, removed, added), where it sits in live and in the
//! proposal, its content key, and the texts a reviewer's edit or a merge gives it.

use super::regions::regions;
use crate::base::text::split_lines;
use crate::model::decision::{Decision, HunkDecision};
use serde::Serialize;
use std::ops::Range;

/// Lines of unchanged context around each change, as in `diff -u` and `git diff`.
pub const CONTEXT: usize = 3;

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

pub(super) fn unified_start(r: &Range<usize>) -> usize {
    if r.is_empty() { r.start } else { r.start + 1 }
}
