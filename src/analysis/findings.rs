//! What the analyses found, attached where the reviewer sees it: flags per file and per
//! hunk, and which CHANGES.md entries explain each hunk. Provenance and hygiene checks fill
//! it once per dream; the audit of the result is recomputed as decisions change.

use crate::analysis::flag::Flag;
use crate::model::ids::{EntryId, HunkId, PerFile, PerHunk};
use crate::model::review::Review;
use serde::Serialize;

/// Flags and entry links for one review, shaped like `Review::files` and their hunks.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Findings {
    /// File-level flags (`outside-memory`, a deleted PERMANENT note…).
    file_flags: PerFile<Vec<Flag>>,
    /// What was found on each hunk: reach it with [`Findings::of`].
    hunks: PerHunk<HunkFindings>,
}

/// What was found on one hunk.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct HunkFindings {
    /// Its flags.
    pub flags: Vec<Flag>,
    /// The CHANGES.md entries that explain it.
    pub changes: Vec<EntryId>,
    /// The claims of its added lines and where each is sourced.
    pub claims: Vec<ClaimReport>,
    /// How often the user said each standing rule its added lines state.
    pub rules: Vec<RuleSupport>,
}

/// How often the user said a standing rule a note line states (`always`, `never`, `must`,
/// `prefer`, 必ず, 항상, 总是…): the turns they typed in the window's sessions that say it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct RuleSupport {
    /// The note line (secrets masked, cut to one line).
    pub line: String,
    /// Turns the user typed that say it.
    pub remarks: usize,
    /// Sessions those turns are in.
    pub sessions: usize,
    /// Local days those turns were said on (turns without a timestamp count none).
    pub days: usize,
    /// True when some turn that says it says it as lasting (`from now on`, `always`,
    /// `remember`, 今後, 앞으로, 以后…) or as a rule of its own (`must`, 必ず…).
    pub lasting: bool,
    /// Where, as `file:line` (the first few).
    pub said: Vec<String>,
}

impl RuleSupport {
    /// `said once, in one session` / `said in 3 sessions over 2 days` / `said 2 times, in
    /// one session` / `never said by the user in the window`.
    pub fn phrase(&self) -> String {
        let days = match self.days {
            0 | 1 => String::new(),
            n => format!(" over {n} days"),
        };
        match (self.remarks, self.sessions) {
            (0, _) => "never said by the user in the window".into(),
            (1, _) => "said once, in one session".into(),
            (n, 1) => format!("said {n} times, in one session"),
            (_, s) => format!("said in {s} sessions{days}"),
        }
    }
}

/// The verdict on a claim of an added line: one per claim, of the most specific kind.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ClaimStatus {
    /// Stated at the lines the hunk's CHANGES.md entries cite (the message they belong to,
    /// the tool call and its result, the local day of that line for a date).
    Sourced,
    /// Not stated at the cited lines but in some other source line (`source` says where):
    /// the citation points at the wrong place. Written `weak` before, still read so.
    #[serde(rename = "elsewhere", alias = "weak")]
    Elsewhere,
    /// Already in the live note: the dream kept it.
    Carried,
    /// A cited line binds the claim's subject to another value or asserts the opposite
    /// (`source` is that line, `quote` its sentence).
    Contradicted,
    /// Stated only at a cited line the user turned down or corrected later (`source` is
    /// that line, `by` the line that overruled it, `quote` what it says).
    Overruled,
    /// Said only by content the user did not write (a fetched page, a file read, a tool's
    /// output) though it tells the agent what to do (`source` is that line, `speaker` who
    /// said it, `quote` what it says): flagged `injected-instruction`.
    Untrusted,
    /// Said at the cited lines only as the assistant's guess (`probably`, `I think`, a
    /// question) while the note states it as fact (`source`, `quote`).
    Speculative,
    /// Found nowhere: flagged.
    #[default]
    Unsourced,
}

impl ClaimStatus {
    /// The mark outputs put before the claim: ✓ sourced, ~ elsewhere, = carried,
    /// ≠ contradicted, ⊘ overruled, ! untrusted, ? speculative, ✗ unsourced.
    pub fn mark(self) -> &'static str {
        match self {
            ClaimStatus::Sourced => "✓",
            ClaimStatus::Elsewhere => "~",
            ClaimStatus::Carried => "=",
            ClaimStatus::Contradicted => "≠",
            ClaimStatus::Overruled => "⊘",
            ClaimStatus::Untrusted => "!",
            ClaimStatus::Speculative => "?",
            ClaimStatus::Unsourced => "✗",
        }
    }

    /// The lowercase name used in output (`sourced`, `elsewhere`…).
    pub fn name(self) -> &'static str {
        match self {
            ClaimStatus::Sourced => "sourced",
            ClaimStatus::Elsewhere => "elsewhere",
            ClaimStatus::Carried => "carried",
            ClaimStatus::Contradicted => "contradicted",
            ClaimStatus::Overruled => "overruled",
            ClaimStatus::Untrusted => "untrusted",
            ClaimStatus::Speculative => "speculative",
            ClaimStatus::Unsourced => "unsourced",
        }
    }
}

/// One claim of a hunk and its provenance.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct ClaimReport {
    /// The claim as written in the note (secrets masked).
    pub text: String,
    /// What kind of claim (`date`, `number`, `code`, `name`, `statement`…).
    pub kind: String,
    /// The verdict.
    pub status: ClaimStatus,
    /// The evidence, as `file:line`, when found.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    /// For a contradicted claim, the source's sentence; for an overruled one, what the
    /// overruling line says (both masked).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub quote: Option<String>,
    /// For an overruled claim, the line that turned its source down (`file:line`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub by: Option<String>,
    /// Who said the source line, when known: `user`, `assistant`, `tool WebFetch`,
    /// `sub-agent`, `system`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub speaker: Option<String>,
}

impl Findings {
    /// Empty findings shaped like `review` (every list present, nothing in it).
    pub fn empty(review: &Review) -> Findings {
        Findings { file_flags: PerFile::shaped(&review.files), hunks: PerHunk::shaped(&review.files) }
    }

    /// What was found on a hunk (`None` when out of range).
    pub fn of(&self, id: HunkId) -> Option<&HunkFindings> {
        self.hunks.get(id)
    }

    /// What was found on a hunk, to change it (`None` when out of range).
    pub fn of_mut(&mut self, id: HunkId) -> Option<&mut HunkFindings> {
        self.hunks.get_mut(id)
    }

    /// Every hunk's findings with its id, in review order.
    pub fn all(&self) -> impl Iterator<Item = (HunkId, &HunkFindings)> {
        self.hunks.iter()
    }

    /// Flags on a hunk (empty when out of range).
    pub fn hunk(&self, id: HunkId) -> &[Flag] {
        self.of(id).map(|h| h.flags.as_slice()).unwrap_or_default()
    }

    /// Claims of a hunk (empty when out of range).
    pub fn claims(&self, id: HunkId) -> &[ClaimReport] {
        self.of(id).map(|h| h.claims.as_slice()).unwrap_or_default()
    }

    /// The CHANGES.md entries that explain a hunk (empty when out of range).
    pub fn changes(&self, id: HunkId) -> &[EntryId] {
        self.of(id).map(|h| h.changes.as_slice()).unwrap_or_default()
    }

    /// Flags on a file itself (empty when out of range).
    pub fn file(&self, file: usize) -> &[Flag] {
        self.file_flags.get(file).map(Vec::as_slice).unwrap_or_default()
    }

    /// Every file's own flags with its index, in review order.
    pub fn files(&self) -> impl Iterator<Item = (usize, &Vec<Flag>)> {
        self.file_flags.iter()
    }

    /// Adds a flag to a hunk, ignoring exact duplicates.
    pub fn add_hunk_flag(&mut self, id: HunkId, flag: Flag) {
        if let Some(h) = self.of_mut(id)
            && !h.flags.contains(&flag)
        {
            h.flags.push(flag);
        }
    }

    /// Adds a flag to a file, ignoring exact duplicates.
    pub fn add_file_flag(&mut self, file: usize, flag: Flag) {
        if let Some(v) = self.file_flags.get_mut(file)
            && !v.contains(&flag)
        {
            v.push(flag);
        }
    }
}
