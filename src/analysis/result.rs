//! What the analyses found, as plain data: CHANGES.md entries and their citations, the
//! audit before and after, and the [`Analysis`] that gathers them with the per-hunk
//! [`Findings`] and the checks of reviewers' edited texts. `report` renders it; the TUI
//! reads it; the repository layer writes it into commit messages and evidence notes.

use super::findings::Findings;
use super::flag::Flag;
use super::review_audit::AuditReport;
use crate::model::ids::{EntryId, HunkId};
use crate::model::review::Review;
use serde::Serialize;
use std::sync::Arc;

/// A CHANGES.md entry as reported: its text, what it names and cites, and its flags.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct ChangeReport {
    /// Which entry (written as its 1-based number).
    pub index: EntryId,
    /// 1-based line in CHANGES.md.
    pub line: usize,
    /// The entry's text (secrets masked).
    pub text: String,
    /// Notes it names, relative to the memory folder.
    pub notes: Vec<String>,
    /// Its citations, resolved against the sources.
    pub citations: Vec<CitationReport>,
    /// Ids of the hunks it explains.
    pub hunks: Vec<String>,
    /// Flags about the entry itself (`citation-unresolved`, `citation-unsupported`).
    pub flags: Vec<Flag>,
    /// For an inline source (an OpenClaw promotion's `source=` or `Source:`), the note whose
    /// line `line` holds it; `None` for CHANGES.md entries.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// One citation of an entry and what it points to.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct CitationReport {
    /// The cited file as the entry writes it, or the resolved source name when found.
    pub source: String,
    /// First cited line (1-based), when a line is cited.
    pub line: Option<usize>,
    /// Last cited line of a range.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub end: Option<usize>,
    /// True when the file and every cited line exist.
    pub resolved: bool,
    /// Who said the (first) cited line, when it is a transcript turn: `user`, `assistant`,
    /// `tool WebFetch` (a tool's result, by the tool of its call), `sub-agent`, `system`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub speaker: Option<String>,
    /// The cited line rendered `time · role · text` (secrets masked), when resolved.
    /// Shared by every citation of the same line.
    #[serde(serialize_with = "shared_str")]
    pub excerpt: Option<Arc<str>>,
    /// The cited line with ±2 lines around it, one message per entry (evidence pane).
    /// Shared by every citation of the same lines.
    #[serde(skip_serializing_if = "<[ContextLine]>::is_empty", serialize_with = "shared_slice")]
    pub context: Arc<[ContextLine]>,
    /// Days before Claude Code deletes the cited transcript (0 or less: due now), when that
    /// is [`crate::inputs::retention::WARN_DAYS`] or fewer; see [`crate::inputs::retention`].
    #[serde(skip_serializing_if = "Option::is_none")]
    pub deleted_in_days: Option<i64>,
    /// Where the resolved transcript is on disk (not in `check --json`: kept with the
    /// review commit's evidence, see [`crate::store::evidence`]).
    #[serde(skip)]
    pub path: Option<std::path::PathBuf>,
}

/// The speaker of a citation's first line: a range's speaker names everyone who said its
/// lines in order (`tool Bash, assistant`); a face that shows each line beside its own
/// speaker takes the first.
pub fn first_speaker(speaker: Option<&str>) -> Option<&str> {
    speaker.and_then(|s| s.split(", ").next())
}

/// `said by tool WebFetch` for a speaker the rendered line's role does not already name (a
/// tool's result by its tool, a sub-agent, a record nobody typed); `None` for the user and
/// the assistant, whose lines say so themselves.
pub fn said_by(speaker: Option<&str>) -> Option<String> {
    speaker.filter(|s| !matches!(*s, "user" | "assistant")).map(|s| format!("said by {s}"))
}

/// Serializes a shared string as the string it holds.
fn shared_str<S: serde::Serializer>(v: &Option<Arc<str>>, s: S) -> Result<S::Ok, S::Error> {
    v.as_deref().serialize(s)
}

/// Serializes a shared slice as the sequence it holds.
fn shared_slice<S: serde::Serializer, T: Serialize>(v: &Arc<[T]>, s: S) -> Result<S::Ok, S::Error> {
    s.collect_seq(v.iter())
}

impl ChangeReport {
    /// How the entry is named to the reviewer: `CHANGES.md #3`, or for an inline source
    /// `inline source MEMORY.md:9` (it is not in any CHANGES.md).
    pub fn label(&self) -> String {
        match &self.note {
            Some(n) => format!("inline source {n}:{}", self.line),
            None => format!("CHANGES.md #{}", self.index),
        }
    }
}

impl CitationReport {
    /// Where the citation points, as shown to the reviewer: `source:3`, `source:3-5`,
    /// `source (whole file)`, or `(no transcript named):4` for a bare line number.
    pub fn location(&self) -> String {
        let source = if self.source.is_empty() { "(no transcript named)" } else { self.source.as_str() };
        match (self.line, self.end) {
            (Some(a), Some(b)) if b != a => format!("{source}:{a}-{b}"),
            (Some(a), _) => format!("{source}:{a}"),
            _ => format!("{source} (whole file)"),
        }
    }
}

/// One message of a citation's context: physical lines, rendered text, cited or not.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct ContextLine {
    /// First physical line (1-based).
    pub line: usize,
    /// Last physical line (the same as `line` unless a message spans several lines).
    pub last: usize,
    /// `time · role · text`, secrets masked.
    pub text: String,
    /// True for the cited line(s).
    pub cited: bool,
}

/// Everything the analyses add to the bare diff.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Analysis {
    /// Flags and entry links on files and hunks, fixed for a given dream.
    pub findings: Findings,
    /// CHANGES.md entries.
    pub changes: Vec<ChangeReport>,
    /// Hygiene before/after; follows the decisions (see [`Analysis::refresh_audit`]).
    pub audit: AuditReport,
    /// Audit flags attached to the hunk that causes them.
    pub audit_attached: Vec<(HunkId, Flag)>,
    /// Things the analyses want the reviewer to know (unreadable sources…).
    pub notices: Vec<String>,
    /// What the dream left out: deleted notes first, then the user's corrections and
    /// lasting instructions the resulting memory does not hold.
    pub left_out: Vec<crate::analysis::provenance::leftout::LeftOut>,
    /// Flags and claims computed on reviewers' edited texts ([`crate::analysis::check_edit`]),
    /// one per (hunk, text) checked; [`Analysis::sync_edits`] puts them in place.
    pub edits: Vec<EditCheck>,
    /// The dream's own findings of the hunks whose `findings` an edit check replaces now,
    /// kept to be put back when the edit is undone or dropped.
    pub(crate) replaced: Vec<Replaced>,
}

/// What the analyses find on a reviewer's edited text for one hunk: the hunk as live
/// against that text ([`crate::model::diff::Hunk::edited`]) checked like any dream hunk.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EditCheck {
    /// The hunk edited.
    pub id: HunkId,
    /// The edited text checked.
    pub text: String,
    /// Its hunk flags (provenance and hygiene).
    pub flags: Vec<Flag>,
    /// Its claims and where each was found.
    pub claims: Vec<crate::analysis::findings::ClaimReport>,
    /// The CHANGES.md entries that explain it.
    pub changes: Vec<EntryId>,
}

/// A hunk's dream findings, set aside while an edit check stands in for them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Replaced {
    id: HunkId,
    /// The edited text whose check is in place.
    text: String,
    flags: Vec<Flag>,
    claims: Vec<crate::analysis::findings::ClaimReport>,
    changes: Vec<EntryId>,
}

impl Analysis {
    /// Empty analysis shaped like `review`.
    pub fn empty(review: &Review) -> Analysis {
        Analysis { findings: Findings::empty(review), ..Analysis::default() }
    }

    /// The entry `id` (`None` when there is no such entry).
    pub fn entry(&self, id: EntryId) -> Option<&ChangeReport> {
        self.changes.get(id.index())
    }

    /// The entries that explain hunk `id`, in entry order.
    pub fn entries_of(&self, id: HunkId) -> impl Iterator<Item = &ChangeReport> {
        let entries = self.findings.changes(id);
        self.changes.iter().filter(move |c| entries.contains(&c.index))
    }

    /// Every flag on a hunk: its own, and the audit flags it causes.
    pub fn hunk_flags(&self, id: HunkId) -> impl Iterator<Item = &Flag> {
        self.findings.hunk(id).iter().chain(self.audit_attached.iter().filter(move |(at, _)| *at == id).map(|(_, x)| x))
    }

    /// Flags of the CHANGES.md entries that explain a hunk.
    pub fn entry_flags(&self, id: HunkId) -> impl Iterator<Item = &Flag> {
        self.entries_of(id).flat_map(|c| c.flags.iter())
    }

    /// Everything a reviewer should see for a hunk: file, hunk, audit and entry flags.
    pub fn all_flags(&self, id: HunkId) -> impl Iterator<Item = &Flag> {
        self.findings.file(id.file).iter().chain(self.hunk_flags(id)).chain(self.entry_flags(id))
    }

    /// Makes every edited hunk's flags, claims and entries those of its edited text: an
    /// edit check for exactly that text takes the place of the dream's findings, and the
    /// dream's come back where the edit was undone or dropped. Returns the edited hunks
    /// that have no check yet, as (hunk, text): until one arrives they keep the dream's
    /// findings, and whoever runs the analyses must check them.
    pub fn sync_edits(&mut self, review: &Review) -> Vec<(HunkId, String)> {
        let edited = |id: HunkId| review.decision(id)?.edited.as_deref();
        // Put the dream's findings back where the text checked is no longer the edit.
        let (keep, back): (Vec<Replaced>, Vec<Replaced>) =
            std::mem::take(&mut self.replaced).into_iter().partition(|r| edited(r.id) == Some(&r.text));
        self.replaced = keep;
        for r in back {
            self.put(r.id, r.flags, r.claims, r.changes);
        }
        let mut missing = Vec::new();
        for (id, d) in review.all_decisions() {
            let Some(text) = d.edited.as_deref() else { continue };
            if self.replaced.iter().any(|r| r.id == id) {
                continue;
            }
            let Some(check) = self.edits.iter().find(|c| c.id == id && c.text == text) else {
                missing.push((id, text.to_string()));
                continue;
            };
            let (flags, claims, changes) = (check.flags.clone(), check.claims.clone(), check.changes.clone());
            let (flags, claims, changes) = self.put(id, flags, claims, changes);
            self.replaced.push(Replaced { id, text: text.to_string(), flags, claims, changes });
        }
        missing
    }

    /// Sets a hunk's flags, claims and entries, returning the ones it had.
    fn put(
        &mut self,
        id: HunkId,
        flags: Vec<Flag>,
        claims: Vec<crate::analysis::findings::ClaimReport>,
        changes: Vec<EntryId>,
    ) -> (Vec<Flag>, Vec<crate::analysis::findings::ClaimReport>, Vec<EntryId>) {
        let Some(h) = self.findings.of_mut(id) else { return Default::default() };
        let rules = std::mem::take(&mut h.rules);
        let old = std::mem::replace(h, crate::analysis::findings::HunkFindings { flags, changes, claims, rules });
        (old.flags, old.claims, old.changes)
    }

    /// True when the hunk shows the findings of an edit check (its edited text's).
    pub fn shows_edit(&self, id: HunkId) -> bool {
        self.replaced.iter().any(|r| r.id == id)
    }

    /// Takes over the edit checks of `older` (an analysis of the same review, replaced by
    /// this one) that this one does not have.
    pub fn keep_edit_checks(&mut self, older: Analysis) {
        for c in older.edits {
            if !self.edits.iter().any(|x| x.id == c.id && x.text == c.text) {
                self.edits.push(c);
            }
        }
    }

    /// Recomputes the audit for the current decisions.
    pub fn refresh_audit(&mut self, review: &Review) {
        let outcome = crate::analysis::review_audit::audit_review(review);
        self.audit = outcome.report;
        self.audit_attached = outcome.attached;
    }
}

#[cfg(test)]
mod tests {
    use super::CitationReport;

    #[test]
    fn a_citation_location_names_its_file_or_says_there_is_none() {
        let c = |source: &str, line, end| CitationReport { source: source.into(), line, end, ..Default::default() };
        assert_eq!(c("s.jsonl", Some(3), None).location(), "s.jsonl:3");
        assert_eq!(c("s.jsonl", Some(3), Some(5)).location(), "s.jsonl:3-5");
        assert_eq!(c("s.jsonl", Some(3), Some(3)).location(), "s.jsonl:3");
        assert_eq!(c("s.jsonl", None, None).location(), "s.jsonl (whole file)");
        assert_eq!(c("", Some(4), None).location(), "(no transcript named):4");
    }
}
