//! A located audit finding: the flag, the file and line it is about, and for an orphan the
//! index line that named the note before.

use serde::Serialize;

use crate::analysis::flag::Flag;

/// A line of an index that names a note.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct IndexRef {
    /// Path of the index (`MEMORY.md`).
    pub path: String,
    /// 1-based line number in that index.
    pub line: usize,
    /// The line's text, terminator stripped, secrets masked.
    pub text: String,
}

/// One audit finding, located so the reviewer (or the lead's hunk mapper) can find the
/// change that caused it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct AuditFlag {
    /// The file the flag is about: the index for budget and dangling flags, the note for
    /// orphan and frontmatter flags.
    pub path: String,
    /// 1-based line in `path`, when the flag is about one line.
    pub line: Option<usize>,
    /// For an orphan reported by [`audit_change`]: the index line that named the note in
    /// the "before" folder (the line a hunk removed or changed).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub named_by: Option<IndexRef>,
    /// The flag itself (kind, severity, message…).
    pub flag: Flag,
}

impl AuditFlag {
    /// A flag about `path` (and `line`), not tied to a before-side index line.
    pub fn new(path: &str, line: Option<usize>, flag: Flag) -> AuditFlag {
        AuditFlag { path: path.to_string(), line, named_by: None, flag }
    }
}
