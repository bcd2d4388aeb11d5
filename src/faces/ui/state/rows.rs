//! The rows of the diff pane: what each row shows, and each hunk line's place in the old
//! and new file.

use crate::model::diff::{FileDiff, Op};

/// One display row of the diff pane.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RowKind {
    /// The hunk's header line.
    Header,
    /// A line of the hunk as shown (index into [`super::App::hunk`]'s lines: for an edited hunk,
    /// live against the reviewer's text).
    Line(usize),
    /// A whole-file hunk's single row.
    Whole,
}

/// A row: which hunk and what part of it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Row {
    /// Hunk index in the current file.
    pub hunk: usize,
    /// What the row shows.
    pub kind: RowKind,
}

impl Row {
    /// Rows the cursor can stand on: hunk lines and whole-file rows.
    pub fn selectable(&self) -> bool {
        matches!(self.kind, RowKind::Line(_) | RowKind::Whole)
    }
}

/// Columns of the diff gutter: decision mark, space, line number (4), space, op, space.
pub const GUTTER: usize = 9;

/// The display rows of a file: per hunk a header, then its lines (or one whole-file row);
/// an edited hunk's lines are those of `edited[hunk]`, live against the reviewer's text.
pub fn rows_of(file: &FileDiff, shown: &[Shown]) -> Vec<Row> {
    let mut rows = Vec::new();
    for (hi, h) in file.hunks.iter().enumerate() {
        rows.push(Row { hunk: hi, kind: RowKind::Header });
        let shown = shown.get(hi).and_then(|s| s.edited.as_ref()).unwrap_or(h);
        if h.whole_file {
            rows.push(Row { hunk: hi, kind: RowKind::Whole });
        } else {
            rows.extend((0..shown.lines.len()).map(|i| Row { hunk: hi, kind: RowKind::Line(i) }));
        }
    }
    rows
}

/// What the diff pane derives of one hunk of the current file: the one home of its
/// per-line display data (derived from the review; rebuilt with the rows).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Shown {
    /// Per line: numbers, decision slot and partner.
    pub info: Vec<LineInfo>,
    /// Per line: its text with every credential masked, each side of the hunk as one text.
    pub masked: Vec<String>,
    /// The changes no one can see on its lines
    /// ([`crate::model::diff::Hunk::invisible_changes`]), named in its header.
    pub invisible: Vec<String>,
    /// For an edited hunk, the hunk as the reviewer's text makes it
    /// ([`crate::model::diff::Hunk::edited`], live → yours), shown in place of the dream's
    /// lines; `None` for the others.
    pub edited: Option<crate::model::diff::Hunk>,
}

impl Shown {
    /// What the pane shows of hunk `h`, edited to `edit` when there is one.
    pub fn of(h: &crate::model::diff::Hunk, edit: Option<&str>) -> Shown {
        let edited = edit.map(|text| h.edited(text));
        let shown = edited.as_ref().unwrap_or(h);
        Shown {
            info: line_info(shown),
            masked: crate::model::diff::masked::masked_lines(shown),
            invisible: shown.invisible_changes(),
            edited,
        }
    }
}

/// What the view needs per hunk line, computed once per file.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LineInfo {
    /// 1-based line number in live (context and removed lines).
    pub old_no: Option<usize>,
    /// 1-based line number in the accept-all result (context and added lines).
    pub new_no: Option<usize>,
    /// Decision slot (changed lines only).
    pub slot: Option<usize>,
    /// Removed line k of a change block ↔ added line k.
    pub pair: Option<usize>,
}

/// Line numbers, decision slots and change-block partners of a hunk's lines.
pub fn line_info(h: &crate::model::diff::Hunk) -> Vec<LineInfo> {
    let n = h.lines.len();
    let mut out = vec![LineInfo::default(); n];
    let (mut old, mut new, mut slot) = (h.old_range.start, h.new_range.start, 0);
    for (i, l) in h.lines.iter().enumerate() {
        if l.op != Op::Add {
            old += 1;
            out[i].old_no = Some(old);
        }
        if l.op != Op::Remove {
            new += 1;
            out[i].new_no = Some(new);
        }
        if l.op != Op::Context {
            out[i].slot = Some(slot);
            slot += 1;
        }
    }
    let mut i = 0;
    while i < n {
        if h.lines[i].op != Op::Remove {
            i += 1;
            continue;
        }
        let rs = i;
        while i < n && h.lines[i].op == Op::Remove {
            i += 1;
        }
        let adds = i;
        while i < n && h.lines[i].op == Op::Add {
            i += 1;
        }
        for k in 0..(adds - rs).min(i - adds) {
            out[rs + k].pair = Some(adds + k);
            out[adds + k].pair = Some(rs + k);
        }
    }
    out
}
