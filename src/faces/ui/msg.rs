//! Messages into the update function and commands out of it. `update` is pure: anything
//! with side effects (saving, the editor, git, background threads) is a [`Cmd`] the runtime
//! carries out, whose outcome comes back as a [`Msg`].

use super::state::Highlight;
use crate::analysis::result::Analysis;
use crate::model::ids::HunkId;
use crate::model::review::Review;
use ratatui::crossterm::event::{KeyEvent, MouseEvent};
use std::sync::Arc;

/// Something that happened.
#[derive(Debug)]
pub enum Msg {
    /// A key press.
    Key(KeyEvent),
    /// A mouse click or wheel.
    Mouse(MouseEvent),
    /// The terminal was resized to (columns, rows).
    Resize(u16, u16),
    /// Background analysis progress (bytes scanned, bytes total).
    Progress {
        /// Model generation the work was started for.
        generation: u64,
        /// Bytes done.
        done: u64,
        /// Bytes in all.
        total: u64,
        /// Transcripts are being indexed on the way (a cold run: see
        /// `transcript::index`), so the bar says so.
        indexing: bool,
    },
    /// Background analysis finished.
    Analyzed {
        /// Model generation the work was started for.
        generation: u64,
        /// The result.
        analysis: Box<Analysis>,
    },
    /// Background analysis failed.
    AnalysisFailed {
        /// Model generation the work was started for.
        generation: u64,
        /// What went wrong.
        error: String,
    },
    /// Syntax colours for the hunks of a file.
    Highlighted {
        /// Model generation the work was started for.
        generation: u64,
        /// File index.
        file: usize,
        /// (hunk index, colours) for each hunk of the file.
        hunks: Vec<(usize, Arc<Highlight>)>,
    },
    /// The editor closed: the new text for the hunk (`None`: unchanged or failed).
    Edited {
        /// Model generation the edit was started for.
        generation: u64,
        /// The hunk edited.
        at: HunkId,
        /// The reviewer's text, or an error to show.
        result: Result<Option<String>, String>,
    },
    /// A reviewer's edited text was checked ([`crate::analysis::check_edit`]).
    EditChecked {
        /// Model generation the check was started for.
        generation: u64,
        /// Its flags, claims and entries.
        check: crate::analysis::result::EditCheck,
    },
    /// The commit message to preview before committing.
    CommitMessage(Result<String, String>),
    /// `c` on decisions that would record nothing new (see
    /// [`crate::store::repo::apply::NothingNew`]): said, no preview, no commit.
    NothingNew(String),
    /// The editor closed on the commit message: (the generated message it was made from,
    /// the message to commit), `None` when it was emptied (the commit is cancelled).
    MessageEdited(Result<Option<(String, String)>, String>),
    /// A commit finished (summary line or error).
    Committed(Result<String, String>),
    /// The commit was refused because `HEAD` moved since the review was loaded (another
    /// dreamreview committed): the review is reloaded, the decisions restored.
    CommitStale(String),
    /// `c` found no git repository: ask to create one.
    NeedRepo,
    /// `git init` of the memory folder finished.
    Initialized(Result<String, String>),
    /// The memory repository's history.
    History(Result<Vec<crate::store::repo::history::LogEntry>, String>),
    /// One commit's message, diff and kept evidence, for the history view.
    HistoryDiff(Result<Box<OpenedCommit>, String>),
    /// Why the line `b` asked about says what it says.
    Why(Result<Box<crate::store::repo::why::Traced>, String>),
    /// A revert finished (summary, or what conflicted).
    Reverted(Result<String, String>),
    /// The process got SIGTERM, SIGHUP or SIGINT: save and leave, restoring the terminal.
    Signal(i32),
    /// A side effect failed (saving decisions…): shown in the status bar.
    Failed(String),
    /// A read of the repository on a worker failed without an answer (it crashed): the
    /// screen stops waiting and says so.
    ReadFailed(String),
    /// The model was rebuilt (after a commit, or on reload).
    Reloaded {
        /// The new generation.
        generation: u64,
        /// The rebuilt review.
        review: Box<Review>,
    },
}

/// A commit of the history opened with Enter.
#[derive(Debug)]
pub struct OpenedCommit {
    /// `commit <id>`, a blank line and its message (secrets masked).
    pub message: String,
    /// Its changes to the memory folder.
    pub files: Vec<crate::model::diff::FileDiff>,
    /// The evidence its review kept, or why there is none.
    pub evidence: crate::store::repo::kept::CommitEvidence,
}

/// Something for the runtime to do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Cmd {
    /// Persist the decisions (resume after a crash).
    Save,
    /// Open `$EDITOR` on this text for this hunk.
    Edit {
        /// The hunk to edit.
        at: HunkId,
        /// The hunk's new side, to edit.
        text: String,
    },
    /// Check the reviewer's edited text of a hunk in the background (flags and claims).
    CheckEdit {
        /// The hunk edited.
        at: HunkId,
        /// The edited text.
        text: String,
    },
    /// Build the commit message for the current decisions.
    PreviewCommit,
    /// Commit the current decisions.
    Commit,
    /// Open the commit message in the editor git would use (`C`, or `e` in the preview).
    EditMessage,
    /// Highlight the hunks of this file in the background.
    Highlight(usize),
    /// Run the provenance and hygiene analysis in the background.
    Analyze,
    /// Open the history of the memory repository.
    History,
    /// Load one commit's diff for the history view.
    HistoryDiff(String),
    /// Explain a line a diff shows (`dreamreview why`, on the note as it is today).
    Why(crate::store::repo::why::ShownLine),
    /// Revert a commit (or a file or hunk of it) as a new commit.
    Revert {
        /// Commit id.
        commit: String,
        /// What to revert.
        scope: crate::store::repo::message::RevertScope,
    },
    /// `git init` the memory folder with a first commit of its notes.
    InitRepo,
    /// Reload the review from disk (after a commit or revert changed live memory); what the
    /// status bar says meanwhile.
    Reload(&'static str),
    /// Leave the TUI.
    Quit,
    /// Show a cited transcript in `$PAGER` (`o`), rendered as turns, at its cited line.
    Pager {
        /// The transcript on disk.
        path: std::path::PathBuf,
        /// The first cited line (1-based).
        line: usize,
        /// The last cited line of a range.
        last: usize,
    },
    /// Suspend the process (`C-z`): leave raw mode and the alternate screen, stop with
    /// `SIGTSTP`, and restore both when the shell's `fg` continues it.
    Suspend,
}

impl Cmd {
    /// What the screen waits for while this command runs (keys wait in the queue
    /// meanwhile, and the status bar says it), or `None` for a command that answers at once
    /// or in the background without holding the keys.
    pub fn waits_for(&self) -> Option<&'static str> {
        match self {
            Cmd::Commit => Some("committing"),
            Cmd::InitRepo => Some("creating the memory repository"),
            Cmd::Revert { .. } => Some("reverting"),
            Cmd::Reload(why) => Some(why),
            Cmd::History => Some("reading the history"),
            Cmd::HistoryDiff(_) => Some("opening the commit"),
            Cmd::Why(_) => Some("tracing the line through the history"),
            _ => None,
        }
    }
}
