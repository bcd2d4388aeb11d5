//! What a review is told the dream left out: a deleted note, or a correction or lasting
//! instruction of the user, and whether the memory misses or contradicts it.

use serde::Serialize;

/// What kind of thing was left out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum LeftOutKind {
    /// A note the dream deletes.
    DeletedNote,
    /// A correction the user made.
    Correction,
    /// A lasting instruction the user gave.
    Instruction,
}

/// Whether the resulting memory holds a correction or instruction at all.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum LeftOutState {
    /// The memory neither states nor contradicts it.
    Missing,
    /// The memory says the opposite (`contradicted_by` names the line).
    Contradicted,
    /// The note is deleted.
    Deleted,
}

/// One thing the dream left out.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LeftOut {
    /// `deleted-note`, `correction` or `instruction`.
    pub kind: LeftOutKind,
    /// `missing`, `contradicted` or `deleted`.
    pub state: LeftOutState,
    /// The user's sentence (secrets masked, one line), or the deleted note's path.
    pub text: String,
    /// Where the user said it, as `file:line`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    /// For a deleted note, how many sessions of the window read it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub read_by: Option<usize>,
    /// For a contradicted correction, the memory line that says the opposite, as
    /// `note.md:12`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub contradicted_by: Option<String>,
    /// True when that line is one the dream adds (its hunk carries `correction-lost`).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub flagged: bool,
}

impl LeftOut {
    /// One line for the reviewer: `deleted note testing.md (read in 2 sessions)`,
    /// `correction at x.jsonl:8 contradicted by notes.md:4: «…»`, `instruction at …: «…»`.
    pub fn describe(&self) -> String {
        match self.kind {
            LeftOutKind::DeletedNote => {
                let reads = match self.read_by.unwrap_or(0) {
                    0 => "read in no session of the window".to_string(),
                    1 => "read in 1 session of the window".to_string(),
                    n => format!("read in {n} sessions of the window"),
                };
                format!("deleted note {} ({reads})", self.text)
            }
            kind => {
                let what = if kind == LeftOutKind::Correction { "correction" } else { "instruction" };
                let at = self.source.as_deref().unwrap_or("?");
                match &self.contradicted_by {
                    Some(by) => format!("{what} at {at}, contradicted by {by}: «{}»", self.text),
                    None => format!("{what} at {at}, not in the memory: «{}»", self.text),
                }
            }
        }
    }
}
