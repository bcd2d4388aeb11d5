//! The TUI's one state struct and the pure helpers that derive things from it (rows of the
//! diff, where the cursor is, which hunk is current, pane geometry).

mod layout;
pub mod left_out;
mod rows;
pub mod triage;
mod why_view;

pub use layout::{Panes, layout};
pub use rows::{GUTTER, LineInfo, Row, RowKind, Shown, rows_of};
pub use triage::{FileOrder, Risk, Triage};
pub use why_view::WhyView;

use super::theme::Theme;
use crate::analysis::result::Analysis;
use crate::model::diff::{FileDiff, Op};
use crate::model::ids::HunkId;
use crate::model::review::Review;
use ratatui::crossterm::event::KeyEvent;
use ratatui::layout::Rect;
use std::collections::{HashMap, HashSet, VecDeque};
use std::sync::Arc;

/// Which pane has the keyboard.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Focus {
    /// The diff: line/hunk navigation and decisions.
    Diff,
    /// The evidence pane: j/k scroll it.
    Evidence,
}

/// What the screen is doing besides the review itself.
pub enum Mode {
    /// Reviewing.
    Normal,
    /// The `?` overlay, scrolled by `scroll` rows when the terminal is too short for it.
    Help {
        /// Rows scrolled (clamped when drawn).
        scroll: usize,
    },
    /// Typing a search after `/`.
    Search(String),
    /// `q` with uncommitted decisions: asks first.
    ConfirmQuit,
    /// `y`/`a`/`Space` about to accept content carrying an error-level flag: asks first,
    /// and `y` carries out `action` as pressed.
    ConfirmAccept {
        /// The question, one line per entry (see [`super::guard::question`]).
        question: Vec<String>,
        /// The accepting action waiting for the answer.
        action: super::keymap::Action,
    },
    /// `c`: the commit message, shown before committing.
    CommitPreview {
        /// The message that will be used.
        message: String,
        /// Lines scrolled.
        scroll: usize,
    },
    /// `c` on a memory folder that is not a git repository: offers `git init`.
    ConfirmInit,
    /// `h`: the memory repository's history.
    History(Box<HistoryState>),
    /// `b`: why a line of a note says what it says.
    Why(WhyView),
    /// `L`: what the dream left out, scrolled by `scroll` rows.
    LeftOut {
        /// Rows scrolled (clamped when drawn).
        scroll: usize,
    },
}

/// The history view: the commits, and optionally one commit's diff shown read-only in the
/// same diff view as the review.
pub struct HistoryState {
    /// Commits touching the memory folder, newest first.
    pub entries: Vec<crate::store::repo::history::LogEntry>,
    /// The selected commit (`None` once the view asked to close).
    pub selected: Option<usize>,
    /// The selected commit's diff, opened with Enter: a read-only review state.
    pub view: Option<Box<App>>,
    /// A revert waiting for `y`: (question, commit id, scope).
    pub confirm: Option<(String, String, crate::store::repo::message::RevertScope)>,
}

/// A short message in the status bar.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Status {
    /// The text.
    pub text: String,
    /// Shown in the error style.
    pub error: bool,
}

/// How far the background provenance analysis has got.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Progress {
    /// Running: bytes of transcripts scanned so far, and in total.
    Running {
        /// Bytes scanned.
        done: u64,
        /// Bytes to scan.
        total: u64,
        /// Transcripts are being indexed on the way (the first run over them).
        indexing: bool,
    },
    /// Finished; `analysis` is complete.
    Done,
    /// Failed with this message (the review still works, without provenance).
    Failed(String),
}

/// An active search: from `/` until `Esc` or a new `/`. While it is, `n`/`N` step through
/// its matches instead of deciding.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Search {
    /// What was searched for (lower-cased for matching).
    pub query: String,
    /// What was typed, as typed (shown in the status bar).
    pub typed: String,
    /// Matches as (hunk, line index).
    pub matches: Vec<(HunkId, usize)>,
    /// Index into `matches` of the match last moved to.
    pub at: Option<usize>,
}

/// Syntax colours of one hunk: per hunk line, (style, text) spans covering its display
/// text (removed lines coloured as the old side, others as the new side).
pub type Highlight = Vec<Vec<(ratatui::style::Style, String)>>;

/// The whole TUI state.
pub struct App {
    /// The review model (decisions live here).
    pub review: Review,
    /// Flags, CHANGES.md entries and audit; filled in by the background analysis.
    pub analysis: Analysis,
    /// Background analysis progress.
    pub progress: Progress,
    /// Bumped whenever the model is rebuilt; background results of another generation are
    /// dropped.
    pub generation: u64,
    /// The file shown in the diff pane.
    pub file: usize,
    /// Rows of the current file (derived from the review; rebuilt by [`App::rebuild_rows`]).
    pub rows: Vec<Row>,
    /// Per hunk of the current file: what the diff pane shows of it (derived; rebuilt with
    /// `rows`).
    pub shown: Vec<Shown>,
    /// The edited texts `shown` was derived for.
    derived_edits: Vec<Option<String>>,
    /// The (file, model generation) `shown` was derived for: it depends on the file's hunks
    /// (and edits) only, so neither a decision nor a frame recomputes it.
    derived_for: Option<(usize, u64)>,
    /// Index into `rows` of the cursor (always a selectable row when there is one).
    pub cursor: usize,
    /// First row shown in the diff pane.
    pub scroll: usize,
    /// First line shown in the evidence pane.
    pub evidence_scroll: usize,
    /// Which pane has the keyboard.
    pub focus: Focus,
    /// Overlay / input mode.
    pub mode: Mode,
    /// Soft-wrap long lines (on by default: notes are prose).
    pub wrap: bool,
    /// Side-by-side instead of unified.
    pub side_by_side: bool,
    /// Start row of a `v` line selection.
    pub anchor: Option<usize>,
    /// The last search.
    pub search: Option<Search>,
    /// Status bar message.
    pub status: Option<Status>,
    /// Colours.
    pub theme: Theme,
    /// Terminal size (columns, rows).
    pub size: (u16, u16),
    /// Decisions changed since the last commit (q asks before quitting).
    pub dirty: bool,
    /// Set while the model is rebuilt; keys are queued meanwhile.
    pub busy: Option<String>,
    /// Keys that arrived while busy, replayed in order afterwards.
    pub queued: VecDeque<KeyEvent>,
    /// Syntax highlighting by hunk, from the highlighter thread.
    pub highlights: HashMap<HunkId, Arc<Highlight>>,
    /// Files whose highlighting was requested (so it is asked for once).
    pub highlight_requested: HashSet<usize>,
    /// True once the user asked to quit.
    pub quit: bool,
    /// Read-only (a commit's diff in the history view): decisions are refused, and the
    /// evidence pane shows this text (the commit message) instead.
    pub banner: Option<String>,
    /// A commit of the history: the evidence its review kept, shown in the evidence pane
    /// beside each hunk (above the commit message), or why there is none.
    pub kept: Option<crate::store::repo::kept::CommitEvidence>,
    /// A demo's temporary copy, deleted when the TUI closes (`None`: a real review, or a
    /// demo kept with `--keep`): the quit prompt must not promise a restore.
    pub throwaway: Option<std::path::PathBuf>,
    /// A merge saved with conflict markers left, refused: (hunk, the text), which `e` on
    /// that hunk opens again instead of a fresh merge text.
    pub unfinished: Option<(HunkId, String)>,
    /// Edit checks asked of the runtime, as (hunk, text): each is asked for once.
    pub checks_asked: HashSet<(HunkId, String)>,
    /// The last citation `o` opened: (hunk, its index among the hunk's citations), so `o`
    /// again opens the next.
    pub opened_source: Option<(HunkId, usize)>,
    /// The commit message the reviewer edited (`C`): (the generated message it was made
    /// from, the message to commit). Used while the decisions still give the former.
    pub message: Option<(String, String)>,
    /// True when decisions are saved as they are made (the memory folder is in a git
    /// repository the review may write): what the quit prompt may promise.
    pub saves: bool,
    /// How the file list is ordered (`O` switches).
    pub order: FileOrder,
    /// The reviewer chose the order (`O`): a mass removal no longer puts the list by risk.
    pub order_chosen: bool,
}

impl App {
    /// A fresh state on `review`, cursor on the first hunk.
    pub fn new(review: Review, theme: Theme, size: (u16, u16)) -> App {
        let analysis = Analysis::empty(&review);
        // A reviewed dream opens with its leftovers decided as its commit decided them:
        // that is no decision of this session.
        let settled = review.reviewed.is_some()
            && review.decisions.values().all(|d| d.state() == crate::model::decision::HunkState::Rejected);
        let restored = review.progress().0 > 0 && !settled;
        let mut app = App {
            review,
            analysis,
            progress: Progress::Running { done: 0, total: 0, indexing: false },
            generation: 0,
            file: 0,
            rows: Vec::new(),
            shown: Vec::new(),
            derived_edits: Vec::new(),
            derived_for: None,
            cursor: 0,
            scroll: 0,
            evidence_scroll: 0,
            focus: Focus::Diff,
            mode: Mode::Normal,
            wrap: true,
            side_by_side: false,
            anchor: None,
            search: None,
            status: None,
            theme,
            size,
            // A fresh review has no decision: any there is was restored, and is not
            // committed, so `q` asks.
            dirty: restored,
            busy: None,
            queued: VecDeque::new(),
            highlights: HashMap::new(),
            highlight_requested: HashSet::new(),
            quit: false,
            banner: None,
            kept: None,
            throwaway: None,
            unfinished: None,
            checks_asked: HashSet::new(),
            saves: false,
            message: None,
            opened_source: None,
            order: FileOrder::Review,
            order_chosen: false,
        };
        app.saves = app.review.loaded_head.is_some() && app.review.target.refusal().is_none();
        app.rebuild_rows();
        app
    }

    /// The current file's diff, if there is any file.
    pub fn current_file(&self) -> Option<&FileDiff> {
        self.review.files.get(self.file)
    }

    /// The id of hunk `hi` of the current file.
    pub fn at(&self, hi: usize) -> HunkId {
        HunkId::new(self.file, hi)
    }

    /// Hunk `hi` of the current file as the diff pane shows it: for an edited hunk, live
    /// against the reviewer's text; else the dream's hunk.
    pub fn hunk(&self, hi: usize) -> Option<&crate::model::diff::Hunk> {
        match self.shown.get(hi).and_then(|s| s.edited.as_ref()) {
            Some(h) => Some(h),
            None => self.current_file()?.hunks.get(hi),
        }
    }

    /// True when hunk `hi` of the current file is edited (its rows are the reviewer's text).
    pub fn is_edited(&self, hi: usize) -> bool {
        self.review.decision(self.at(hi)).is_some_and(|d| d.edited.is_some())
    }

    /// The row under the cursor.
    pub fn current_row(&self) -> Option<Row> {
        self.rows.get(self.cursor).copied()
    }

    /// The hunk index under the cursor.
    pub fn current_hunk(&self) -> Option<usize> {
        self.current_row().map(|r| r.hunk)
    }

    /// Rebuilds `rows` for the current file and puts the cursor back on a selectable row
    /// (the same hunk/line when it still exists).
    pub fn rebuild_rows(&mut self) {
        let keep = self.current_row();
        self.derive();
        self.rows = match self.review.files.get(self.file) {
            Some(f) => rows_of(f, &self.shown),
            None => Vec::new(),
        };
        self.cursor = keep.and_then(|k| self.rows.iter().position(|r| *r == k)).unwrap_or(self.cursor);
        if self.cursor >= self.rows.len() {
            self.cursor = self.rows.len().saturating_sub(1);
        }
        if keep.is_none() && !self.rows.is_empty() {
            // A fresh file: start on the first change, not on context.
            self.cursor = self.first_row_of(0).unwrap_or(0);
        }
        if !self.rows.get(self.cursor).is_some_and(Row::selectable) {
            self.cursor = self
                .next_selectable(self.cursor, true)
                .or_else(|| self.next_selectable(self.cursor, false))
                .unwrap_or(0);
        }
    }

    /// Derives `shown` for the current file: every hunk's for a new file or model, else only
    /// for hunks whose edit changed.
    fn derive(&mut self) {
        let hunks = self.review.files.get(self.file).map_or(&[][..], |f| f.hunks.as_slice());
        let edits: Vec<Option<String>> =
            self.review.file_decisions(self.file).iter().map(|d| d.edited.clone()).collect();
        let fresh = self.derived_for != Some((self.file, self.generation)) || self.derived_edits.len() != edits.len();
        if !fresh && self.derived_edits == edits {
            return;
        }
        if fresh {
            self.shown = vec![Shown::default(); hunks.len()];
        }
        for (hi, h) in hunks.iter().enumerate() {
            if !fresh && self.derived_edits.get(hi) == edits.get(hi) {
                continue;
            }
            self.shown[hi] = Shown::of(h, edits.get(hi).and_then(Option::as_deref));
        }
        self.derived_edits = edits;
        self.derived_for = Some((self.file, self.generation));
    }

    /// The nearest selectable row strictly after (or before) `from`.
    pub fn next_selectable(&self, from: usize, forward: bool) -> Option<usize> {
        if forward {
            (from + 1..self.rows.len()).find(|&i| self.rows[i].selectable())
        } else {
            (0..from.min(self.rows.len())).rev().find(|&i| self.rows[i].selectable())
        }
    }

    /// The row a jump to hunk `h` lands on: its first changed line (or first selectable row).
    pub fn first_row_of(&self, h: usize) -> Option<usize> {
        let rows = || self.rows.iter().enumerate().filter(|(_, r)| r.hunk == h && r.selectable());
        rows().find(|(i, _)| self.is_changed(*i)).or_else(|| rows().next()).map(|(i, _)| i)
    }

    /// True when a row is a changed line (`-`/`+`, the reviewer's own lines of an edited
    /// hunk included) or a whole-file row.
    pub fn is_changed(&self, row: usize) -> bool {
        let Some(r) = self.rows.get(row) else { return false };
        match r.kind {
            RowKind::Whole => true,
            RowKind::Line(i) => self.info(r.hunk, i).is_some_and(|x| x.slot.is_some()),
            RowKind::Header => false,
        }
    }

    /// The decision slot of a row: the n-th changed line of its hunk (or 0 for whole-file).
    /// An edited hunk's lines are the reviewer's text: they have no slot.
    pub fn slot_of(&self, row: usize) -> Option<usize> {
        let r = self.rows.get(row)?;
        if self.is_edited(r.hunk) {
            return None;
        }
        match r.kind {
            RowKind::Whole => Some(0),
            RowKind::Line(i) => self.info(r.hunk, i)?.slot,
            _ => None,
        }
    }

    /// Screen rectangles of the panes for the current terminal size.
    pub fn panes(&self) -> Panes {
        // A short diff leaves the evidence pane the rest of the height (narrow layout).
        let need =
            if self.rows.len() <= 200 { Some((0..self.rows.len()).map(|r| self.row_height(r)).sum()) } else { None };
        layout(Rect::new(0, 0, self.size.0, self.size.1), self.name_width(), need)
    }

    fn name_width(&self) -> usize {
        let names =
            self.review.files.iter().map(|f| super::text::width(&super::text::shown_name(&f.path))).max().unwrap_or(8);
        // By risk, a wide list shows each file's reason before its name.
        let tags = match self.order {
            FileOrder::Risk => (0..self.review.files.len())
                .map(|fi| self.triage(fi).reason.chars().count().min(20) + 1)
                .max()
                .unwrap_or(0),
            FileOrder::Review => 0,
        };
        names + tags
    }

    /// Rows that fit in the diff pane.
    pub fn diff_height(&self) -> usize {
        self.panes().diff.height.saturating_sub(2) as usize
    }

    /// Columns available for line text in the diff pane (after the gutter).
    pub fn text_columns(&self) -> usize {
        // Widths never depend on the diff's height.
        let panes = layout(Rect::new(0, 0, self.size.0, self.size.1), self.name_width(), None);
        let inner = panes.diff.width.saturating_sub(2) as usize;
        let inner = if self.side_by_side { inner / 2 } else { inner };
        inner.saturating_sub(GUTTER)
    }

    /// The decision slots covered by the selection (or the cursor row), as (hunk, slot).
    pub fn selected_slots(&self) -> Vec<(HunkId, usize)> {
        let (a, b) = match self.anchor {
            Some(a) => (a.min(self.cursor), a.max(self.cursor)),
            None => (self.cursor, self.cursor),
        };
        (a..=b).filter_map(|r| Some((self.at(self.rows.get(r)?.hunk), self.slot_of(r)?))).collect()
    }

    /// What `Space` sets `slots` to: a selection toggles together, following its first line.
    pub fn toggle_target(&self, slots: &[(HunkId, usize)]) -> crate::model::decision::Decision {
        use crate::model::decision::Decision;
        let decision = |&(at, s): &(HunkId, usize)| self.review.decision(at).and_then(|d| d.lines.get(s)).copied();
        match slots.first().and_then(decision) {
            Some(Decision::Accepted) => Decision::Rejected,
            _ => Decision::Accepted,
        }
    }

    /// What the view needs of line `i` of hunk `h` of the current file.
    pub fn info(&self, h: usize, i: usize) -> Option<&LineInfo> {
        self.shown.get(h)?.info.get(i)
    }

    /// The partner of line `i` of hunk `h` across its change block, if any.
    pub fn pair(&self, h: usize, i: usize) -> Option<usize> {
        self.info(h, i).and_then(|x| x.pair)
    }

    /// Screen lines a row takes: more than one when wrapped; none for an added line drawn
    /// beside its removed partner in side-by-side mode.
    pub fn row_height(&self, row: usize) -> usize {
        let Some(r) = self.rows.get(row) else { return 1 };
        let Some(h) = self.hunk(r.hunk) else { return 1 };
        let line = |i: usize| h.lines.get(i);
        if let RowKind::Line(i) = r.kind
            && self.side_by_side
            && line(i).is_some_and(|l| l.op == Op::Add)
            && self.pair(r.hunk, i).is_some()
        {
            return 0;
        }
        if !self.wrap {
            return 1;
        }
        let cols = self.text_columns();
        let hl = |i: usize| super::text::wrap(&self.shown_line(r.hunk, i), cols).len();
        match r.kind {
            RowKind::Line(i) => {
                let own = if line(i).is_some() { hl(i) } else { 1 };
                let partner = if self.side_by_side {
                    self.pair(r.hunk, i).filter(|&p| line(p).is_some()).map(hl).unwrap_or(1)
                } else {
                    1
                };
                own.max(partner)
            }
            _ => 1,
        }
    }

    /// Line `i` of hunk `hi` of the current file as the diff pane shows it: credentials
    /// masked (see [`Shown::masked`]), control characters made visible.
    pub fn shown_line(&self, hi: usize, i: usize) -> std::borrow::Cow<'_, str> {
        match self.shown.get(hi).and_then(|h| h.masked.get(i)) {
            Some(text) => super::text::display(text),
            None => std::borrow::Cow::Borrowed(""),
        }
    }

    /// The first file the file list shows when `visible` rows fit: it scrolls only to keep
    /// the current file on screen. Shared by the view and mouse clicks.
    pub fn files_offset(&self, visible: usize) -> usize {
        self.file_position().saturating_sub(visible.saturating_sub(1))
    }

    /// The files as the list shows them (in [`App::order`]): their indexes.
    pub fn file_order(&self) -> Vec<usize> {
        triage::ordered(&self.review.files, &self.analysis, self.order)
    }

    /// Where the current file stands in the list.
    pub fn file_position(&self) -> usize {
        match self.order {
            FileOrder::Review => self.file,
            FileOrder::Risk => self.file_order().iter().position(|&f| f == self.file).unwrap_or(0),
        }
    }

    /// What the review removes when it is over the cap on loss (a `mass-removal` flag of
    /// the audit, pending hunks counted as accepted): "this review removes 4 of 9 notes
    /// (44%) and …".
    pub fn mass_removal(&self) -> Option<String> {
        let flag = self.analysis.audit.flags.iter().find(|f| f.kind == crate::analysis::flag::FlagKind::MassRemoval)?;
        crate::analysis::audit::loss::totals(&flag.message).map(str::to_string)
    }

    /// Why file `fi` stands where it does in the triage order.
    pub fn triage(&self, fi: usize) -> Triage {
        triage::triage(&self.review.files, &self.analysis, fi)
    }

    /// After a resize: the cursor row on screen, and the scroll pulled up as far as it
    /// stays there, so a taller pane shows what is above the cursor instead of blank
    /// space below the last row.
    pub fn settle_scroll(&mut self) {
        self.ensure_cursor_visible();
        let height = self.diff_height().max(1);
        let last = self.cursor.min(self.rows.len().saturating_sub(1));
        let mut used: usize = (self.scroll..=last).map(|r| self.row_height(r)).sum();
        while self.scroll > 0 {
            let h = self.row_height(self.scroll - 1);
            if used + h > height {
                break;
            }
            used += h;
            self.scroll -= 1;
        }
    }

    /// Moves `scroll` so the cursor row (and its wrapped lines) is visible.
    pub fn ensure_cursor_visible(&mut self) {
        let height = self.diff_height().max(1);
        if self.cursor < self.scroll {
            self.scroll = self.cursor;
            // Show the hunk header above the first line of a hunk.
            if self.scroll > 0 && self.rows.get(self.scroll - 1).is_some_and(|r| r.kind == RowKind::Header) {
                self.scroll -= 1;
            }
            return;
        }
        // The lowest scroll at or after the current one that shows the cursor row: walk up
        // from the cursor while the rows fit (heights of one screen of rows at most, however
        // far the cursor jumped).
        let last = self.cursor.min(self.rows.len().saturating_sub(1));
        let mut top = last;
        let mut used = 0;
        loop {
            used += self.row_height(top);
            if used > height {
                top += 1;
                break;
            }
            if top <= self.scroll {
                break;
            }
            top -= 1;
        }
        self.scroll = self.scroll.max(top.min(self.cursor));
    }
}
