//! One changed file of a diff: how it changes (added, modified, deleted), what kind of
//! content it holds, both sides' entries and its hunks.

use super::hunk::Hunk;
use crate::base::text::{as_text, split_lines};
use crate::inputs::snapshot::Entry;
use serde::Serialize;

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

pub(super) fn entry_text(e: Option<&Entry>) -> Option<&str> {
    e.and_then(Entry::bytes).and_then(as_text)
}
