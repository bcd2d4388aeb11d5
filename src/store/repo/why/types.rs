//! What `why` answers, as plain data (serialized as `why --json` prints it: see
//! `docs/why-json.md`).

use crate::analysis::findings::ClaimReport;
use crate::store::evidence::{CitationEvidence, FlagEvidence, Taken};
use serde::Serialize;

/// The `format` of `why --json`.
pub const FORMAT: &str = "dreamreview-why/1";

/// Why the lines of one note say what they say.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Explanation {
    /// Always [`FORMAT`].
    pub format: &'static str,
    /// The note, memory-relative.
    pub note: String,
    /// How many lines the note has on disk.
    pub line_count: usize,
    /// The lines asked about, grouped by where they came from, in the order of their first
    /// line.
    pub groups: Vec<Group>,
}

/// Lines that came from the same place.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Group {
    /// The lines (1-based numbers, masked text).
    pub lines: Vec<NoteLine>,
    /// Where they came from.
    pub origin: Origin,
}

/// One line of the note.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct NoteLine {
    /// 1-based line number in the note on disk.
    pub line: usize,
    /// Its text, terminator stripped, masked, control characters made visible.
    pub text: String,
}

/// The commit a line came from.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CommitInfo {
    /// Full id.
    pub id: String,
    /// 7 hex digits.
    pub short: String,
    /// Author name (masked).
    pub author: String,
    /// Author date in the author's zone, `YYYY-MM-DD HH:MM +ZZZZ`.
    pub date: String,
    /// Summary line (masked).
    pub summary: String,
}

/// Where lines came from.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Origin {
    /// A dreamreview review commit.
    Review(Box<ReviewOrigin>),
    /// A `dreamreview revert` commit put the lines back.
    Revert {
        /// The revert commit.
        commit: CommitInfo,
        /// The commit it reverts (full id, as its `Reverts:` trailer says).
        reverts: String,
        /// Where the restored lines first came from, when that can be known.
        restored: Option<Box<Origin>>,
    },
    /// A commit that is not a review: a hand edit, another tool, the first commit, or a
    /// snapshot of a session's edits dreamreview made before a review or revert.
    Outside {
        /// The commit.
        commit: CommitInfo,
        /// True for dreamreview's snapshot commits.
        snapshot: bool,
    },
    /// The lines are on disk but in no commit yet.
    Uncommitted,
}

impl Origin {
    /// The commit that wrote the lines (for a revert, the revert), if they are committed.
    pub fn commit(&self) -> Option<&CommitInfo> {
        match self {
            Origin::Review(r) => Some(&r.commit),
            Origin::Revert { commit, .. } | Origin::Outside { commit, .. } => Some(commit),
            Origin::Uncommitted => None,
        }
    }
}

/// How much of a review's evidence is there.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Kept {
    /// The commit's evidence note: the cited lines' text was kept.
    Kept,
    /// No evidence note (a review made before dreamreview kept evidence): only the
    /// message's `cites` lines.
    NotKept,
    /// A note this version cannot read: only the message's `cites` lines.
    Unreadable,
}

/// The review that wrote some lines.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ReviewOrigin {
    /// The review commit.
    pub commit: CommitInfo,
    /// The dream as the review named it (evidence), else its `Dream-Source` (masked).
    pub dream: Option<String>,
    /// The `Dream-Id` trailer.
    pub dream_id: Option<String>,
    /// Whether the evidence was kept.
    pub evidence: Kept,
    /// Why the evidence note could not be read ([`Kept::Unreadable`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unreadable: Option<String>,
    /// The kept evidence of the hunks that wrote these lines ([`Kept::Kept`]).
    pub hunks: Vec<HunkWhy>,
    /// Otherwise, the accepted hunks of this note as the commit message lists them.
    pub message_hunks: Vec<MessageHunk>,
}

/// The kept evidence of one hunk, each citation with what became of its transcript.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct HunkWhy {
    /// `testing.md#1`.
    pub id: String,
    /// How it was taken.
    pub taken: Taken,
    /// The lines the commit wrote for it (masked).
    pub lines: Vec<String>,
    /// The entries that explain it.
    pub entries: Vec<EntryWhy>,
    /// Its claims and their verdicts at review time.
    pub claims: Vec<ClaimReport>,
    /// Flags the reviewer accepted on it.
    pub accepted_flags: Vec<FlagEvidence>,
}

/// One explaining entry and its citations.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct EntryWhy {
    /// `CHANGES.md #3`, `inline source MEMORY.md:9`.
    pub label: String,
    /// Its text (masked).
    pub text: String,
    /// Its citations.
    pub citations: Vec<CitationWhy>,
}

/// A citation as kept, and its transcript now.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CitationWhy {
    /// What the review kept (location, path, lines…).
    #[serde(flatten)]
    pub kept: CitationEvidence,
    /// The transcript now.
    pub now: Now,
}

/// A cited transcript now, against what the review kept.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Now {
    /// It exists and its cited lines say what was kept (without kept text: it exists).
    StillThere,
    /// It is gone (Claude Code's cleanup, or by hand).
    DeletedSince,
    /// It exists but a cited line now says something else, or is gone.
    ChangedSince,
    /// The review could not find it either.
    NotFoundAtReview,
}

impl Now {
    /// `still there`, `deleted since — kept text shown`…
    pub fn describe(self, kept_text: bool) -> &'static str {
        match (self, kept_text) {
            (Now::StillThere, _) => "still there",
            (Now::DeletedSince, true) => "deleted since — kept text shown",
            (Now::DeletedSince, false) => "deleted since",
            (Now::ChangedSince, _) => "changed since — kept text shown",
            (Now::NotFoundAtReview, _) => "not found at review time either",
        }
    }
}

/// An accepted hunk of this note as an old review commit's message lists it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MessageHunk {
    /// The message's line for it (`testing.md#1 (+2 -1)`).
    pub line: String,
    /// Its entries (`CHANGES.md #2: …`) with their `cites` lines.
    pub entries: Vec<MessageEntry>,
}

/// An entry under a hunk in a review message.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MessageEntry {
    /// `CHANGES.md #2: memory/testing.md: …` as the message has it.
    pub text: String,
    /// Its `cites` lines.
    pub cites: Vec<MessageCite>,
}

/// A `cites` line of a review message.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MessageCite {
    /// The rest of the line after `cites ` (location, and for newer messages an excerpt).
    pub text: String,
    /// The transcript name it cites.
    pub source: String,
    /// Whether a transcript of that name is there now ([`Now::StillThere`] or
    /// [`Now::DeletedSince`]: without kept text, a change cannot be told).
    pub now: Now,
}
