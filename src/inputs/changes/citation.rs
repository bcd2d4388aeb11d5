//! A citation of evidence in CHANGES.md or a note: the file it names and the lines, or why
//! the lines as written cite nothing.

use serde::Serialize;

use super::line_numbers::BadLines;

/// A reference to evidence: a transcript or dated Markdown source, optionally a line range.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Citation {
    /// The reference as written (`abc.jsonl line 3`, `L3`, `memory/2026-06-02.md#L3-L5`).
    pub raw: String,
    /// The file as written: `abc.jsonl`, a session id without `.jsonl`, a subagent path
    /// (`<uuid>/subagents/agent-x.jsonl`), `memory/2026-06-02.md`. `None` when the text
    /// names a line but no file.
    pub file: Option<String>,
    /// First cited line, 1-based; `None` cites the whole file.
    pub start: Option<usize>,
    /// Last cited line, inclusive (equals `start` for a single line).
    pub end: Option<usize>,
    /// Why the lines as written cite nothing (`:-1`, `:2-0`, a number too large); `start`
    /// and `end` are then `None` and the citation is reported as bad, never read as the
    /// whole file.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bad: Option<BadLines>,
}
