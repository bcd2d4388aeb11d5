//! The headless view of a review: the `check --json` object and its readable text
//! form. Field names are stable; new fields may be added: each is documented in
//! `docs/check-json.md`, whose example `tests/docs_examples.rs` checks.

use crate::decision::HunkState;
use crate::diff::{FileKind, Line};
use crate::findings::Findings;
use crate::flag::{Flag, FlagKind, Severity};
use crate::repo::journal::{self, Interrupted};
use crate::repo::lock;
use crate::review::Review;
use crate::secrets;
use crate::text::{strip_terminator, visible_name};
use serde::Serialize;
use std::sync::Arc;

/// A CHANGES.md entry as reported: its text, what it names and cites, and its flags.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct ChangeReport {
    /// 1-based entry number.
    pub index: usize,
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
    /// The cited line rendered `time · role · text` (secrets masked), when resolved.
    /// Shared by every citation of the same line.
    #[serde(serialize_with = "shared_str")]
    pub excerpt: Option<Arc<str>>,
    /// The cited line with ±2 lines around it, one message per entry (evidence pane).
    /// Shared by every citation of the same lines.
    #[serde(skip_serializing_if = "<[ContextLine]>::is_empty", serialize_with = "shared_slice")]
    pub context: Arc<[ContextLine]>,
    /// Days before Claude Code deletes the cited transcript (0 or less: due now), when that
    /// is [`crate::retention::WARN_DAYS`] or fewer; see [`crate::retention`].
    #[serde(skip_serializing_if = "Option::is_none")]
    pub deleted_in_days: Option<i64>,
    /// Where the resolved transcript is on disk (not in `check --json`: kept with the
    /// review commit's evidence, see [`crate::evidence`]).
    #[serde(skip)]
    pub path: Option<std::path::PathBuf>,
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

/// MEMORY.md's load budget on one side of the review.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct IndexReport {
    /// Lines counted (frontmatter and block comments stripped).
    pub lines: usize,
    /// Bytes counted.
    pub bytes: usize,
    /// `ok`, `near` or `over`.
    pub status: String,
}

/// Hygiene of the memory folder before the review and after the current decisions.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct AuditReport {
    /// Live memory's index budget (None: no MEMORY.md).
    pub before: Option<IndexReport>,
    /// The result's index budget.
    pub after: Option<IndexReport>,
    /// Flags the result has that live memory did not.
    pub flags: Vec<Flag>,
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
    /// Audit flags attached to the hunk that causes them, as (file, hunk, flag).
    pub audit_attached: Vec<(usize, usize, Flag)>,
    /// Things the analyses want the reviewer to know (unreadable sources…).
    pub notes: Vec<String>,
    /// Flags and claims computed on reviewers' edited texts ([`crate::analysis::check_edit`]),
    /// one per (hunk, text) checked; [`Analysis::sync_edits`] puts them in place.
    pub edits: Vec<EditCheck>,
    /// The dream's own findings of the hunks whose `findings` an edit check replaces now,
    /// kept to be put back when the edit is undone or dropped.
    pub(crate) replaced: Vec<Replaced>,
}

/// What the analyses find on a reviewer's edited text for one hunk: the hunk as live
/// against that text ([`crate::diff::Hunk::edited`]) checked like any dream hunk.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EditCheck {
    /// File index.
    pub file: usize,
    /// Hunk index.
    pub hunk: usize,
    /// The edited text checked.
    pub text: String,
    /// Its hunk flags (provenance and hygiene).
    pub flags: Vec<Flag>,
    /// Its claims and where each was found.
    pub claims: Vec<crate::findings::ClaimReport>,
    /// The CHANGES.md entries (1-based) that explain it.
    pub changes: Vec<usize>,
}

/// A hunk's dream findings, set aside while an edit check stands in for them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Replaced {
    file: usize,
    hunk: usize,
    /// The edited text whose check is in place.
    text: String,
    flags: Vec<Flag>,
    claims: Vec<crate::findings::ClaimReport>,
    changes: Vec<usize>,
}

impl Analysis {
    /// Empty analysis shaped like `review`.
    pub fn empty(review: &Review) -> Analysis {
        Analysis { findings: Findings::empty(review), ..Analysis::default() }
    }

    /// Every flag on a hunk: its own, and the audit flags it causes.
    pub fn hunk_flags(&self, file: usize, hunk: usize) -> impl Iterator<Item = &Flag> {
        self.findings
            .hunk(file, hunk)
            .iter()
            .chain(self.audit_attached.iter().filter(move |(f, h, _)| *f == file && *h == hunk).map(|(_, _, x)| x))
    }

    /// Flags of the CHANGES.md entries that explain a hunk.
    pub fn entry_flags(&self, file: usize, hunk: usize) -> impl Iterator<Item = &Flag> {
        let entries =
            self.findings.hunk_changes.get(file).and_then(|v| v.get(hunk)).map(Vec::as_slice).unwrap_or_default();
        self.changes.iter().filter(move |c| entries.contains(&c.index)).flat_map(|c| c.flags.iter())
    }

    /// Everything a reviewer should see for a hunk: file, hunk, audit and entry flags.
    pub fn all_flags(&self, file: usize, hunk: usize) -> impl Iterator<Item = &Flag> {
        self.findings.file(file).iter().chain(self.hunk_flags(file, hunk)).chain(self.entry_flags(file, hunk))
    }

    /// Makes every edited hunk's flags, claims and entries those of its edited text: an
    /// edit check for exactly that text takes the place of the dream's findings, and the
    /// dream's come back where the edit was undone or dropped. Returns the edited hunks
    /// that have no check yet, as (file, hunk, text): until one arrives they keep the
    /// dream's findings, and whoever runs the analyses must check them.
    pub fn sync_edits(&mut self, review: &Review) -> Vec<(usize, usize, String)> {
        let edited = |fi: usize, hi: usize| review.decisions.get(fi)?.get(hi)?.edited.as_deref();
        // Put the dream's findings back where the text checked is no longer the edit.
        let (keep, back): (Vec<Replaced>, Vec<Replaced>) =
            std::mem::take(&mut self.replaced).into_iter().partition(|r| edited(r.file, r.hunk) == Some(&r.text));
        self.replaced = keep;
        for r in back {
            self.put(r.file, r.hunk, r.flags, r.claims, r.changes);
        }
        let mut missing = Vec::new();
        for (fi, hunks) in review.decisions.iter().enumerate() {
            for (hi, d) in hunks.iter().enumerate() {
                let Some(text) = d.edited.as_deref() else { continue };
                if self.replaced.iter().any(|r| r.file == fi && r.hunk == hi) {
                    continue;
                }
                let Some(check) = self.edits.iter().find(|c| c.file == fi && c.hunk == hi && c.text == text) else {
                    missing.push((fi, hi, text.to_string()));
                    continue;
                };
                let (flags, claims, changes) = (check.flags.clone(), check.claims.clone(), check.changes.clone());
                let (flags, claims, changes) = self.put(fi, hi, flags, claims, changes);
                self.replaced.push(Replaced { file: fi, hunk: hi, text: text.to_string(), flags, claims, changes });
            }
        }
        missing
    }

    /// Sets a hunk's flags, claims and entries, returning the ones it had.
    fn put(
        &mut self,
        fi: usize,
        hi: usize,
        flags: Vec<Flag>,
        claims: Vec<crate::findings::ClaimReport>,
        changes: Vec<usize>,
    ) -> (Vec<Flag>, Vec<crate::findings::ClaimReport>, Vec<usize>) {
        let f = &mut self.findings;
        let old_flags = swap(&mut f.hunk_flags, fi, hi, flags);
        let old_claims = swap(&mut f.hunk_claims, fi, hi, claims);
        let old_changes = swap(&mut f.hunk_changes, fi, hi, changes);
        (old_flags, old_claims, old_changes)
    }

    /// True when the hunk shows the findings of an edit check (its edited text's).
    pub fn shows_edit(&self, fi: usize, hi: usize) -> bool {
        self.replaced.iter().any(|r| r.file == fi && r.hunk == hi)
    }

    /// Takes over the edit checks of `older` (an analysis of the same review, replaced by
    /// this one) that this one does not have.
    pub fn keep_edit_checks(&mut self, older: Analysis) {
        for c in older.edits {
            if !self.edits.iter().any(|x| x.file == c.file && x.hunk == c.hunk && x.text == c.text) {
                self.edits.push(c);
            }
        }
    }

    /// Recomputes the audit for the current decisions.
    pub fn refresh_audit(&mut self, review: &Review) {
        let outcome = crate::hygiene::audit_review(review);
        self.audit = outcome.report;
        self.audit_attached = outcome.attached;
    }
}

/// Replaces `v[fi][hi]` with `new`, returning what was there (empty when out of range).
fn swap<T>(v: &mut [Vec<Vec<T>>], fi: usize, hi: usize, new: Vec<T>) -> Vec<T> {
    v.get_mut(fi).and_then(|x| x.get_mut(hi)).map(|x| std::mem::replace(x, new)).unwrap_or_default()
}

#[derive(Serialize)]
struct Json<'a> {
    dream: DreamJson,
    memory: MemoryJson<'a>,
    time_zone: ZoneJson,
    files: Vec<FileJson<'a>>,
    changes: &'a [ChangeReport],
    audit: &'a AuditReport,
    summary: Summary,
    notes: Vec<String>,
    interrupted: Option<&'a Interruption>,
}

/// The time zone transcript timestamps were read in (see [`crate::zone`]).
#[derive(Serialize)]
struct ZoneJson {
    /// `Asia/Tokyo`, `+09:00`, `UTC`.
    name: String,
    /// `flag` (--tz), `machine` (TZ, /etc/localtime), `commits` (the memory repository's
    /// recent commit offset) or `unknown` (UTC, each transcript day ±1).
    source: crate::zone::ZoneSource,
    /// Days of doubt about a transcript line's day: 1 when the zone is unknown, else 0.
    slack_days: i64,
    /// The line `check` prints.
    description: String,
}

#[derive(Serialize)]
struct DreamJson {
    path: Option<String>,
    kind: crate::dream::DreamKind,
    id: String,
}

#[derive(Serialize)]
struct MemoryJson<'a> {
    path: String,
    repo: Option<String>,
    /// `--memory`, `memory.diff` or `current dir`.
    found_by: &'static str,
    /// Why `apply` may write there (`named`, `claude-memory`, `reviewed`), or `suggested`:
    /// only memory.diff names it, and `apply` refuses it.
    trust: crate::target::Trust,
    /// Whether `apply` and the TUI's commit write there.
    writable: bool,
    /// Why not, with the fix (`None` when writable).
    refusal: Option<String>,
    /// Signs that the folder is not a memory folder, each `{"kind", "detail"?}`.
    warnings: &'a [crate::target::Warning],
}

#[derive(Serialize)]
struct FileJson<'a> {
    path: &'a str,
    status: crate::diff::FileStatus,
    kind: FileKind,
    flags: &'a [Flag],
    hunks: Vec<HunkJson<'a>>,
}

#[derive(Serialize)]
struct HunkJson<'a> {
    id: &'a str,
    old_start: usize,
    old_lines: usize,
    new_start: usize,
    new_lines: usize,
    whole_file: bool,
    live_changed: bool,
    decision: HunkState,
    lines: Vec<Line>,
    changes: &'a [usize],
    flags: Vec<&'a Flag>,
    claims: &'a [crate::findings::ClaimReport],
}

/// Counts for the summary line and exit code.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Summary {
    /// Changed files.
    pub files: usize,
    /// Hunks.
    pub hunks: usize,
    /// Flags by severity (hunk, file, entry and audit flags).
    pub flags: FlagCounts,
}

/// Flags by severity.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct FlagCounts {
    /// Error-level flags.
    pub error: usize,
    /// Warnings.
    pub warning: usize,
}

impl FlagCounts {
    fn add<'f>(&mut self, flags: impl IntoIterator<Item = &'f Flag>) {
        for f in flags {
            match f.severity {
                Severity::Error => self.error += 1,
                Severity::Warning => self.warning += 1,
            }
        }
    }
}

/// Counts of files, hunks and flags.
pub fn summary(review: &Review, analysis: &Analysis) -> Summary {
    let mut flags = FlagCounts::default();
    for (fi, f) in review.files.iter().enumerate() {
        flags.add(analysis.findings.file(fi));
        for hi in 0..f.hunks.len() {
            flags.add(analysis.findings.hunk(fi, hi));
        }
    }
    for c in &analysis.changes {
        flags.add(&c.flags);
    }
    // Audit flags count once, whether or not a hunk carries them.
    flags.add(&analysis.audit.flags);
    Summary { files: review.files.len(), hunks: review.files.iter().map(|f| f.hunks.len()).sum(), flags }
}

/// True when an error-level flag sits on a hunk that is pending or accepted (or on its
/// file, or on the result's audit): `check` then exits 1.
pub fn has_blocking_errors(review: &Review, analysis: &Analysis) -> bool {
    flags_left(review, analysis).error > 0
}

/// The flags the current decisions still leave standing: those of hunks that are pending
/// or accepted (a `live-changed` hunk the reviewer edited is merged: that is what the flag
/// asks for), of their files and CHANGES.md entries (each counted once), and of the
/// result's audit that no hunk carries. What the TUI's status bar counts down.
pub fn flags_left(review: &Review, analysis: &Analysis) -> FlagCounts {
    let live_hunk = |fi: usize, hi: usize| !matches!(review.decisions[fi][hi].state(), HunkState::Rejected);
    let merged = |fi: usize, hi: usize, x: &Flag| {
        x.kind == FlagKind::LiveChanged && review.decisions[fi][hi].state() == HunkState::Edited
    };
    let mut n = FlagCounts::default();
    for (fi, f) in review.files.iter().enumerate() {
        let live: Vec<usize> = (0..f.hunks.len()).filter(|&hi| live_hunk(fi, hi)).collect();
        if !live.is_empty() {
            n.add(analysis.findings.file(fi));
        }
        for &hi in &live {
            let d = &review.decisions[fi][hi];
            n.add(analysis.hunk_flags(fi, hi).filter(|x| !merged(fi, hi, x) && !rejected_away(&f.hunks[hi], d, x)));
        }
    }
    for c in &analysis.changes {
        if c.hunks.iter().any(|id| review.find_hunk(id).is_some_and(|(fi, hi)| live_hunk(fi, hi))) {
            n.add(&c.flags);
        }
    }
    n.add(analysis.audit.flags.iter().filter(|f| !analysis.audit_attached.iter().any(|(_, _, a)| a == *f)));
    n
}

/// True when a flag is about one line of the hunk (a credential, a date or a claim on an
/// added line; a removed PERMANENT line) and the reviewer rejected every line it is about:
/// it no longer stands, even while the rest of the hunk is pending or taken.
fn rejected_away(h: &crate::diff::Hunk, d: &crate::decision::HunkDecision, flag: &Flag) -> bool {
    use crate::decision::Decision;
    use crate::diff::Op;
    if d.edited.is_some() || h.whole_file {
        return false;
    }
    let Some(line) = &flag.line else { return false };
    let op = match flag.kind {
        FlagKind::Secret | FlagKind::InferredDate | FlagKind::UnsourcedClaim => Op::Add,
        FlagKind::PermanentDeleted => Op::Remove,
        _ => return false,
    };
    let line = crate::secrets::mask(line);
    let changed = h.lines.iter().filter(|l| l.op != Op::Context).zip(&d.lines);
    let mut about =
        changed.filter(|(l, _)| l.op == op && crate::secrets::mask(strip_terminator(&l.text)) == line).peekable();
    about.peek().is_some() && about.all(|(_, d)| *d == Decision::Rejected)
}

/// A flag still standing on content a commit takes: on a hunk accepted wholly, line by
/// line or edited.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StandingFlag {
    /// The hunk's id (`database.md#1`).
    pub hunk: String,
    /// The flag.
    pub flag: Flag,
}

impl StandingFlag {
    /// `secret «[anthropic-key …Z9AA]»`: the kind and the claim it is about (masked), or
    /// its message when it names no claim.
    pub fn label(&self) -> String {
        let what = self.flag.claim.as_deref().unwrap_or(&self.flag.message);
        format!("{} «{}»", self.flag.kind.name(), crate::secrets::mask(what))
    }
}

/// The flags standing on what the current decisions take into the notes, errors first,
/// then warnings, each in review order. A flag on a line the reviewer did not take is not
/// standing (a secret on a rejected line); an edited hunk keeps a `secret` flag only when
/// the reviewer's text still holds a credential, and a `live-changed` one not at all (the
/// edit is the merge). Hunks that cannot be written (`outside-memory`, an unedited
/// `live-changed`) take nothing and are left out.
pub fn accepted_flags(review: &Review, analysis: &Analysis) -> Vec<StandingFlag> {
    let mut out = Vec::new();
    for (fi, f) in review.files.iter().enumerate() {
        for (hi, h) in f.hunks.iter().enumerate() {
            let standing = taken_flags(review, analysis, fi, hi, &review.decisions[fi][hi]);
            out.extend(standing.into_iter().map(|flag| StandingFlag { hunk: h.id.clone(), flag: flag.clone() }));
        }
    }
    out.sort_by_key(|s| s.flag.severity != crate::flag::Severity::Error);
    out
}

/// The flags of hunk `hi` of file `fi` that would stand if its decisions were `d`, by the
/// rules of [`accepted_flags`]: what a key is about to take, before it is pressed.
pub fn taken_flags<'a>(
    review: &Review,
    analysis: &'a Analysis,
    fi: usize,
    hi: usize,
    d: &crate::decision::HunkDecision,
) -> Vec<&'a Flag> {
    flags_taken(review, analysis.hunk_flags(fi, hi), fi, hi, d)
}

/// [`taken_flags`] for a given list of the hunk's flags (say, its analysis flags and the
/// hygiene flags computed on the spot while the analysis is still running).
pub fn flags_taken<'a>(
    review: &Review,
    flags: impl Iterator<Item = &'a Flag>,
    fi: usize,
    hi: usize,
    d: &crate::decision::HunkDecision,
) -> Vec<&'a Flag> {
    let Some(h) = review.hunk(fi, hi) else { return Vec::new() };
    let takes = d.edited.is_some() || d.lines.contains(&crate::decision::Decision::Accepted);
    if !takes || review.blocked(fi, hi).is_some() && d.edited.is_none() {
        return Vec::new();
    }
    let taken = taken_lines(h, d);
    flags.filter(|flag| stands(flag, d, taken.as_ref())).collect()
}

/// The changed lines a hunk's decisions take (terminators stripped), by side.
struct Taken {
    /// Added lines written into the note.
    added: Vec<String>,
    /// Removed lines taken out of it.
    removed: Vec<String>,
}

/// The lines a hunk's decisions take; `None` when edited (the reviewer's text replaces them).
fn taken_lines(h: &crate::diff::Hunk, d: &crate::decision::HunkDecision) -> Option<Taken> {
    use crate::decision::Decision;
    use crate::diff::Op;
    if d.edited.is_some() {
        return None;
    }
    let changed = h.lines.iter().filter(|l| l.op != Op::Context);
    let taken: Vec<&Line> =
        changed.zip(&d.lines).filter(|(_, d)| **d == Decision::Accepted || h.whole_file).map(|(l, _)| l).collect();
    let side = |op: Op| taken.iter().filter(|l| l.op == op).map(|l| strip_terminator(&l.text).to_string()).collect();
    Some(Taken { added: side(Op::Add), removed: side(Op::Remove) })
}

fn stands(flag: &Flag, d: &crate::decision::HunkDecision, taken: Option<&Taken>) -> bool {
    // The one line a flag is about, masked as every flag carries it.
    let holds = |lines: &[String], line: &str| {
        let line = crate::secrets::mask(line);
        lines.iter().any(|l| crate::secrets::mask(l) == line)
    };
    match (&d.edited, taken) {
        (Some(text), _) => match flag.kind {
            FlagKind::LiveChanged => false,
            FlagKind::Secret => !crate::secrets::find(text).is_empty(),
            _ => true,
        },
        (None, Some(taken)) => match (&flag.line, flag.kind) {
            // A flag about one added line stands only when that line is taken.
            (Some(line), FlagKind::Secret | FlagKind::InferredDate | FlagKind::UnsourcedClaim) => {
                holds(&taken.added, line)
            }
            // A removed PERMANENT line is lost only when its removal is taken.
            (Some(line), FlagKind::PermanentDeleted) => holds(&taken.removed, line),
            _ => true,
        },
        (None, None) => true,
    }
}

/// A write of the memory repository that a process began and did not finish (or is
/// finishing right now), as `check` reports it: text and the `interrupted` JSON object.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Interruption {
    /// What the journal says and how far the write got.
    #[serde(flatten)]
    pub found: Interrupted,
    /// True when a dreamreview holds the repository's lock now: the write is still going
    /// on, not interrupted.
    pub writing_now: bool,
    /// What happened and what the next `apply` does about it, in sentences.
    pub message: String,
}

impl Interruption {
    /// Looks for an unfinished write in the repository of the memory folder `memory`,
    /// changing nothing (no lock taken, no file created).
    pub fn find(memory: &std::path::Path) -> anyhow::Result<Option<Interruption>> {
        let Some(repo) = crate::repo::MemoryRepo::discover(memory)? else { return Ok(None) };
        let Some(found) = journal::pending(&repo)? else { return Ok(None) };
        let holder = lock::holder(&repo)?;
        let message = match &holder {
            Some(h) => format!(
                "{} is writing the notes now ({}, holding {}); run check again when it has finished",
                found.writer.as_ref().map(|w| w.describe()).unwrap_or_else(|| "a dreamreview".into()),
                h.describe(),
                lock::lock_path(&repo).display()
            ),
            None => found.describe(),
        };
        Ok(Some(Interruption { found, writing_now: holder.is_some(), message }))
    }
}

/// The `check --json` object, pretty-printed, as a string (see [`write_json`]).
pub fn to_json(review: &Review, analysis: &Analysis, interrupted: Option<&Interruption>) -> String {
    let mut out = Vec::new();
    match write_json(&mut out, review, analysis, interrupted) {
        Ok(()) => String::from_utf8(out).unwrap_or_default(),
        Err(e) => format!("{{\"error\": \"{e}\"}}"),
    }
}

/// Writes the `check --json` object, pretty-printed, to `out` as it is serialized, every
/// string in it masked ([`secrets::Masked`]): paths and hunk ids too, since a file may be
/// named after a secret (`apply --accept` takes a hunk id as shown, see
/// [`Review::find_hunk`]). Streamed, so memory does not grow with the size of the report.
pub fn write_json(
    out: impl std::io::Write,
    review: &Review,
    analysis: &Analysis,
    interrupted: Option<&Interruption>,
) -> serde_json::Result<()> {
    let repo = crate::repo::MemoryRepo::discover(&review.inputs.memory)
        .ok()
        .flatten()
        .map(|r| r.workdir().display().to_string());
    let files = review
        .files
        .iter()
        .enumerate()
        .map(|(fi, f)| FileJson {
            path: &f.path,
            status: f.status,
            kind: f.kind,
            flags: analysis.findings.file(fi),
            hunks: f
                .hunks
                .iter()
                .enumerate()
                .map(|(hi, h)| HunkJson {
                    id: &h.id,
                    old_start: h.old_start(),
                    old_lines: h.old_range.len(),
                    new_start: h.new_start(),
                    new_lines: h.new_range.len(),
                    whole_file: h.whole_file,
                    live_changed: h.live_changed,
                    decision: review.decisions[fi][hi].state(),
                    lines: h.lines.iter().zip(masked_lines(h)).map(|(l, text)| Line { op: l.op, text }).collect(),
                    changes: analysis
                        .findings
                        .hunk_changes
                        .get(fi)
                        .and_then(|v| v.get(hi))
                        .map(Vec::as_slice)
                        .unwrap_or_default(),
                    flags: analysis.hunk_flags(fi, hi).collect(),
                    claims: analysis.findings.claims(fi, hi),
                })
                .collect(),
        })
        .collect();
    let json = Json {
        dream: DreamJson {
            path: review.inputs.dream.as_ref().map(|p| p.display().to_string()),
            kind: review.inputs.kind,
            id: review.dream_id.clone(),
        },
        memory: MemoryJson {
            path: review.inputs.memory.display().to_string(),
            repo,
            found_by: review.target.origin.label(),
            trust: review.target.trust,
            writable: review.target.trust.writable(),
            refusal: review.target.refusal(),
            warnings: &review.target.warnings,
        },
        time_zone: ZoneJson {
            name: review.zone.name().to_string(),
            source: review.zone.source(),
            slack_days: review.zone.slack(),
            description: review.zone.describe(),
        },
        files,
        changes: &analysis.changes,
        audit: &analysis.audit,
        summary: summary(review, analysis),
        notes: review.notes.iter().chain(&analysis.notes).cloned().collect(),
        interrupted,
    };
    serde_json::to_writer_pretty(out, &secrets::Masked(&json))
}

/// The readable text form of `check`: a header, then per file and hunk its lines and flags,
/// then the CHANGES.md entries and the audit. Every credential is masked, file names
/// included, and control characters are shown, never sent (see
/// [`crate::text::visible_controls`]; a newline in a file name shows as `␊`).
pub fn to_text(review: &Review, analysis: &Analysis, interrupted: Option<&Interruption>) -> String {
    use std::fmt::Write;
    let mut out = String::new();
    let i = &review.inputs;
    let dream =
        i.dream.as_ref().map(|p| p.display().to_string()).unwrap_or_else(|| "(in-place: work tree vs HEAD)".into());
    let _ = writeln!(out, "dream   {dream} [{}]", kind_name(i.kind));
    let _ = writeln!(out, "memory  {} (from {})", i.memory.display(), review.target.origin.label());
    let _ = writeln!(out, "zone    {}", review.zone.describe());
    for w in &review.target.warnings {
        let _ = writeln!(out, "warning the memory folder may not be one: {w}");
    }
    if let Some(r) = review.target.refusal() {
        let _ = writeln!(out, "warning apply will not write there: {r}");
    }
    if let Some(x) = interrupted {
        let _ = writeln!(out, "interrupted: {}", x.message);
    }
    for n in review.notes.iter().chain(&analysis.notes) {
        let _ = writeln!(out, "note    {n}");
    }
    let s = summary(review, analysis);
    let _ = writeln!(
        out,
        "{} changed file{}, {} hunk{}, {} error{}, {} warning{}",
        s.files,
        plural(s.files),
        s.hunks,
        plural(s.hunks),
        s.flags.error,
        plural(s.flags.error),
        s.flags.warning,
        plural(s.flags.warning)
    );
    for (fi, f) in review.files.iter().enumerate() {
        let status = f.status.name();
        let kind = match f.kind {
            FileKind::Text => String::new(),
            FileKind::Binary => " (binary)".into(),
            FileKind::Symlink => " (symlink)".into(),
            FileKind::Outside => " (outside the memory folder)".into(),
        };
        let _ = writeln!(out, "\n{status} {}{kind}", visible_name(&f.path));
        write_flags(&mut out, "  ", analysis.findings.file(fi));
        for (hi, h) in f.hunks.iter().enumerate() {
            let entries = analysis.findings.hunk_changes.get(fi).and_then(|v| v.get(hi)).cloned().unwrap_or_default();
            let cites = if entries.is_empty() {
                String::new()
            } else {
                let inline = entries.iter().all(|e| analysis.changes.get(e - 1).is_some_and(|c| c.note.is_some()));
                let what = if inline { "sources" } else { "CHANGES.md" };
                format!("  ({what} {})", entries.iter().map(|e| format!("#{e}")).collect::<Vec<_>>().join(", "))
            };
            if h.whole_file {
                let _ = writeln!(out, "  {}  whole file{cites}", visible_name(&h.id));
            } else {
                let _ = writeln!(
                    out,
                    "  {}  @@ -{},{} +{},{} @@{cites}",
                    visible_name(&h.id),
                    h.old_start(),
                    h.old_range.len(),
                    h.new_start(),
                    h.new_range.len()
                );
            }
            if h.live_changed {
                let _ = writeln!(out, "    ! live memory changed here after the dream: edit to merge");
            }
            for change in h.invisible_changes() {
                let _ = writeln!(out, "    ~ {change}: lines that look the same differ in it");
            }
            for (l, masked) in h.lines.iter().zip(masked_lines(h)) {
                let text = strip_terminator(&masked);
                let eol = if l.text.ends_with('\n') { "" } else { "  ⏎ no newline at end of file" };
                let _ = writeln!(out, "    {}{text}{eol}", l.op.marker());
            }
            let claims = analysis.findings.claims(fi, hi);
            if !claims.is_empty() {
                let list: Vec<String> = claims
                    .iter()
                    .map(|c| {
                        use crate::findings::ClaimStatus::*;
                        let mark = match c.status {
                            Sourced => "✓",
                            Weak => "~",
                            Carried => "=",
                            Unsourced => "✗",
                        };
                        match &c.source {
                            Some(s) => format!("{mark} {} ({s})", c.text),
                            None => format!("{mark} {}", c.text),
                        }
                    })
                    .collect();
                let _ = writeln!(out, "    claims: {}", list.join(" · "));
            }
            let flags: Vec<Flag> = analysis.hunk_flags(fi, hi).cloned().collect();
            write_flags(&mut out, "    ", &flags);
        }
    }
    if !analysis.changes.is_empty() {
        let inline = analysis.changes.iter().all(|c| c.note.is_some());
        let _ = writeln!(out, "\n{}", if inline { "inline sources" } else { "CHANGES.md" });
        for c in &analysis.changes {
            match &c.note {
                Some(n) => writeln!(out, "  #{} ({n} line {}) {}", c.index, c.line, c.text),
                None => writeln!(out, "  #{} (line {}) {}", c.index, c.line, c.text),
            }
            .ok();
            for cit in &c.citations {
                let state = if cit.resolved { "" } else { "  [unresolved]" };
                let _ = writeln!(out, "    ↳ {}{state}", cit.location());
                if let Some(left) = cit.deleted_in_days {
                    let _ = writeln!(out, "      ⌛ {}", crate::retention::beside_citation(left));
                }
                // A cited range shows every cited line (message), each marked like the
                // evidence pane's; a single line shows its excerpt.
                let cited: Vec<&ContextLine> = cit.context.iter().filter(|cx| cx.cited).collect();
                if cit.end.is_some() && !cited.is_empty() {
                    for cx in cited {
                        let num =
                            if cx.last > cx.line { format!("{}-{}", cx.line, cx.last) } else { cx.line.to_string() };
                        let _ = writeln!(out, "      ▶ {num} {}", cx.text);
                    }
                } else if let Some(x) = &cit.excerpt {
                    let _ = writeln!(out, "      {x}");
                }
            }
            write_flags(&mut out, "    ", &c.flags);
        }
    }
    let a = &analysis.audit;
    if a.before.is_some() || a.after.is_some() || !a.flags.is_empty() {
        let _ = writeln!(out, "\naudit");
        let side = |r: &Option<IndexReport>| match r {
            Some(r) => {
                let s = |n: usize| if n == 1 { "" } else { "s" };
                format!("{} line{}, {} byte{} ({})", r.lines, s(r.lines), r.bytes, s(r.bytes), r.status)
            }
            None => "no MEMORY.md".into(),
        };
        let _ = writeln!(out, "  MEMORY.md before: {}", side(&a.before));
        let _ = writeln!(out, "  MEMORY.md after:  {}", side(&a.after));
        // A flag already printed under its hunk is counted here, not printed again (a
        // dream that writes 90 long index lines would otherwise list 180 warnings).
        let shown: std::collections::HashSet<(FlagKind, &str)> = (0..review.files.len())
            .flat_map(|fi| {
                let hunks = review.files[fi].hunks.len();
                analysis.findings.file(fi).iter().chain((0..hunks).flat_map(move |hi| analysis.hunk_flags(fi, hi)))
            })
            .map(|f| (f.kind, f.message.as_str()))
            .collect();
        let rest: Vec<Flag> =
            a.flags.iter().filter(|f| !shown.contains(&(f.kind, f.message.as_str()))).cloned().collect();
        write_flags(&mut out, "  ", &rest);
        if rest.len() < a.flags.len() {
            let _ = writeln!(out, "  ({} more shown with their hunks above)", a.flags.len() - rest.len());
        }
    }
    // Notes, CHANGES.md, transcripts and file names are untrusted text: no credential and
    // no control sequence of theirs reaches the terminal. Hunk lines are already masked
    // side by side (a PEM block spans lines); this catches names, paths and messages.
    crate::text::visible_controls(&secrets::mask(&out)).into_owned()
}

fn write_flags(out: &mut String, indent: &str, flags: &[Flag]) {
    use std::fmt::Write;
    for f in flags {
        let _ = writeln!(out, "{indent}{}[{}]: {}", f.severity.name(), f.kind.name(), visible_name(&f.message));
    }
}

fn kind_name(k: crate::dream::DreamKind) -> &'static str {
    match k {
        crate::dream::DreamKind::DreamFolder => "dream folder",
        crate::dream::DreamKind::PlainFolder => "folder of proposed notes",
        crate::dream::DreamKind::InPlace => "in-place",
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// A hunk's lines with every credential masked, each side (live: context and removed lines;
/// proposal: context and added lines) masked as one text, so a secret spanning lines (a
/// PEM block) never prints a piece of itself ([`secrets::mask_lines`]).
pub fn masked_lines(h: &crate::diff::Hunk) -> Vec<String> {
    per_side(h, |lines| secrets::mask_lines(lines), |l| l.text.clone())
}

/// Per line of a hunk, the byte ranges of it that belong to a credential and what masking
/// shows there, each side read as one text like [`masked_lines`].
pub fn secret_spans(h: &crate::diff::Hunk) -> Vec<Vec<(std::ops::Range<usize>, String)>> {
    per_side(h, |lines| secrets::line_spans(lines), |_| Vec::new())
}

/// `f` applied to each side of `h` (live: context and removed lines; proposal: context and
/// added lines) as consecutive lines, mapped back to the hunk's lines (context lines from
/// the proposal side); `blank` for a line no side covers.
fn per_side<T>(
    h: &crate::diff::Hunk,
    f: impl Fn(&[&str]) -> Vec<T>,
    blank: impl Fn(&crate::diff::Line) -> T,
) -> Vec<T> {
    use crate::diff::Op;
    let mut out: Vec<T> = h.lines.iter().map(blank).collect();
    for keep in [Op::Remove, Op::Add] {
        let side: Vec<(usize, &str)> = h
            .lines
            .iter()
            .enumerate()
            .filter(|(_, l)| l.op == Op::Context || l.op == keep)
            .map(|(i, l)| (i, l.text.as_str()))
            .collect();
        let texts: Vec<&str> = side.iter().map(|(_, t)| *t).collect();
        for ((i, _), value) in side.iter().zip(f(&texts)) {
            if let Some(slot) = out.get_mut(*i) {
                *slot = value;
            }
        }
    }
    out
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
