//! Flags: what dreamreview warns the reviewer about, shared by provenance, hygiene checks
//! and the review model. This module is where kinds and severities are defined;
//! `docs/flags.md` says what raises each kind and what makes it go.

use serde::Serialize;
use strum::IntoStaticStr;

/// How serious a flag is. `Error` blocks nothing by itself, but `check` exits 1 while one
/// remains on a pending or accepted hunk. Named (in output and JSON) by [`Severity::name`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, IntoStaticStr)]
#[serde(into = "&'static str")]
#[strum(serialize_all = "lowercase")]
pub enum Severity {
    /// Worth knowing; never changes the exit code, and needs no allowance to commit.
    Info,
    /// Worth a look; never changes the exit code.
    Warning,
    /// Likely damage to the memory (a secret, a lost PERMANENT fact, a broken citation…).
    Error,
}

/// What a flag is about. Named (in output and JSON) in kebab-case by [`FlagKind::name`]
/// (`inferred-date`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, IntoStaticStr, strum::VariantArray)]
#[serde(into = "&'static str")]
#[strum(serialize_all = "kebab-case")]
pub enum FlagKind {
    /// An absolute date no source states, probably derived from a relative phrase.
    InferredDate,
    /// Any other claim found in no source and not in live memory.
    UnsourcedClaim,
    /// A changed hunk no CHANGES.md entry (or inline source) covers.
    CitationMissing,
    /// A cited file or line that does not exist.
    CitationUnresolved,
    /// The cited lines do not state a claim (it is said elsewhere), or none of the claims
    /// of the entry.
    CitationUnsupported,
    /// The source sentence about a claim's subject asserts the opposite or another value.
    Contradicted,
    /// The cited line is a proposal the user turned down or corrected later in the session.
    CitationOverruled,
    /// Lines or a note removed with no entry whose cited lines mention them.
    RemovalUnsourced,
    /// A standing rule the user said only once, as a passing remark (not phrased as
    /// lasting: no `from now on`, `always`, `remember`, 今後, 앞으로, 以后…).
    OneOff,
    /// An added line that still says what the user corrected in the window (`no, it's X
    /// not Y` → the line says Y).
    CorrectionLost,
    /// A line telling the agent what to do that only content the user did not write says
    /// (a fetched page, a file read, a tool's output, a sub-agent's report).
    InjectedInstruction,
    /// The review removes more than a share (25%) of the memory's notes or lines.
    MassRemoval,
    /// The only cited sentence that says a line is the assistant's guess.
    SpeculativeSource,
    /// A file path, commit, branch or script name that the project's git repository (the
    /// sessions' folder) does not hold.
    StaleReference,
    /// An added line that looks like a credential.
    Secret,
    /// A `PERMANENT` line or note removed or changed.
    PermanentDeleted,
    /// The dream output names a path outside the memory folder (or a symlink).
    OutsideMemory,
    /// The hunk overlaps an edit made to live memory after the dream's base.
    LiveChanged,
    /// MEMORY.md over 200 lines or 25,600 bytes.
    IndexOverLimit,
    /// MEMORY.md over 80% of a limit.
    IndexNearLimit,
    /// An index line over 150 characters.
    IndexLongLine,
    /// An index link to a missing note.
    DanglingLink,
    /// A note the index never names.
    OrphanNote,
    /// A note without `name`/`description`/`type` frontmatter.
    FrontmatterInvalid,
}

impl Severity {
    /// The lowercase name used in output (`error`, `warning`, `info`).
    pub fn name(self) -> &'static str {
        self.into()
    }
}

impl FlagKind {
    /// Every kind, in the order of the flags table (the order they are declared in).
    pub const ALL: &'static [FlagKind] = <FlagKind as strum::VariantArray>::VARIANTS;

    /// The severity of this kind (the table in `docs/flags.md`).
    pub fn severity(self) -> Severity {
        use FlagKind::*;
        match self {
            CitationUnresolved | Secret | PermanentDeleted | OutsideMemory | LiveChanged | IndexOverLimit
            | InjectedInstruction | MassRemoval | CorrectionLost => Severity::Error,
            OneOff => Severity::Info,
            InferredDate | UnsourcedClaim | CitationMissing | CitationUnsupported | Contradicted
            | SpeculativeSource | StaleReference | CitationOverruled | RemovalUnsourced | IndexNearLimit
            | IndexLongLine | DanglingLink | OrphanNote | FrontmatterInvalid => Severity::Warning,
        }
    }

    /// The most serious severity a flag of this kind can have: its own, or `Error` for a
    /// kind raised as an error in some cases (`removal-unsourced` on a deleted note).
    pub fn max_severity(self) -> Severity {
        match self {
            FlagKind::RemovalUnsourced => Severity::Error,
            k => k.severity(),
        }
    }

    /// Which side of a hunk the note line of a flag of this kind is (a flag with a `line`
    /// is about that one line): an added line for a claim's or a credential's flag, a
    /// removed line for a lost PERMANENT line or an unsourced removal. `None` for kinds
    /// about the hunk or the file as a whole.
    pub fn line_side(self) -> Option<crate::model::diff::Op> {
        use FlagKind::*;
        match self {
            Secret | InferredDate | UnsourcedClaim | CitationUnsupported | Contradicted | CitationOverruled
            | InjectedInstruction | SpeculativeSource | StaleReference | OneOff | CorrectionLost => {
                Some(crate::model::diff::Op::Add)
            }
            PermanentDeleted | RemovalUnsourced => Some(crate::model::diff::Op::Remove),
            _ => None,
        }
    }

    /// The kebab-case name used in output (`inferred-date`).
    pub fn name(self) -> &'static str {
        self.into()
    }
}

/// One finding, attached to a file, a hunk, a CHANGES.md entry or the audit.
/// Text fields never hold an unmasked secret.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Flag {
    /// What the flag is about.
    pub kind: FlagKind,
    /// Derived from `kind`; stored so JSON consumers need no table.
    pub severity: Severity,
    /// One sentence for the reviewer, naming the claim and the evidence.
    pub message: String,
    /// The exact claim text in the note (e.g. `late Oct 2026`), when there is one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub claim: Option<String>,
    /// The note line the flag is about (its text, terminator stripped).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<String>,
    /// The evidence it points to, as `file:line` (e.g. `5b0e….jsonl:1`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
}

impl Flag {
    /// A flag of `kind` with its default severity and a message (credentials in it masked:
    /// a message may quote a file name or a hunk id); other fields empty.
    pub fn new(kind: FlagKind, message: impl Into<String>) -> Flag {
        let message: String = message.into();
        let message = match crate::base::secrets::mask(&message) {
            std::borrow::Cow::Owned(masked) => masked,
            std::borrow::Cow::Borrowed(_) => message,
        };
        Flag { kind, severity: kind.severity(), message, claim: None, line: None, source: None }
    }

    /// Sets the claim this flag is about.
    pub fn with_claim(mut self, claim: impl Into<String>) -> Flag {
        self.claim = Some(claim.into());
        self
    }

    /// Sets the note line this flag is about.
    pub fn with_line(mut self, line: impl Into<String>) -> Flag {
        self.line = Some(line.into());
        self
    }

    /// Raises the flag to `severity` (a kind that is an error in some cases only).
    pub fn with_severity(mut self, severity: Severity) -> Flag {
        self.severity = severity;
        self
    }

    /// Sets the evidence location (`file:line`).
    pub fn with_source(mut self, source: impl Into<String>) -> Flag {
        self.source = Some(source.into());
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_kebab_case_and_json_uses_them() {
        assert_eq!(FlagKind::InferredDate.name(), "inferred-date");
        assert_eq!(FlagKind::IndexOverLimit.name(), "index-over-limit");
        assert_eq!(FlagKind::FrontmatterInvalid.name(), "frontmatter-invalid");
        assert_eq!((Severity::Error.name(), Severity::Warning.name()), ("error", "warning"));
        for &k in FlagKind::ALL {
            assert_eq!(serde_json::to_value(k).unwrap(), k.name(), "{k:?}");
            let words: Vec<String> = k.name().split('-').map(|w| w[..1].to_uppercase() + &w[1..]).collect();
            assert_eq!(words.concat(), format!("{k:?}"));
        }
        assert_eq!(serde_json::to_value(Severity::Warning).unwrap(), "warning");
    }
}
