//! Which flags still stand under the reviewer's decisions: the counts `check` exits by and
//! the status bar counts down ([`flags_left`]), and the flags standing on what a commit
//! takes ([`commit_flags`]) that the commit message lists and the reviewer must allow.

use super::flag::{Flag, FlagKind, Severity};
use super::result::Analysis;
use crate::base::text::strip_terminator;
use crate::model::decision::HunkState;
use crate::model::diff::{Line, Op};
use crate::model::ids::HunkId;
use crate::model::review::Review;
use serde::Serialize;

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
    /// Information (`one-off`); left out of the JSON while there is none.
    #[serde(skip_serializing_if = "is_zero")]
    pub info: usize,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

impl FlagCounts {
    fn add<'f>(&mut self, flags: impl IntoIterator<Item = &'f Flag>) {
        for f in flags {
            match f.severity {
                Severity::Error => self.error += 1,
                Severity::Warning => self.warning += 1,
                Severity::Info => self.info += 1,
            }
        }
    }
}

/// Counts of files, hunks and flags.
pub fn summary(review: &Review, analysis: &Analysis) -> Summary {
    let mut flags = FlagCounts::default();
    for fi in 0..review.files.len() {
        flags.add(analysis.findings.file(fi));
        for id in review.hunks_of(fi) {
            flags.add(analysis.findings.hunk(id));
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
    let live_hunk = |id: HunkId| !matches!(review.decisions[id].state(), HunkState::Rejected);
    let merged =
        |id: HunkId, x: &Flag| x.kind == FlagKind::LiveChanged && review.decisions[id].state() == HunkState::Edited;
    let mut n = FlagCounts::default();
    for (fi, f) in review.files.iter().enumerate() {
        let live: Vec<HunkId> = review.hunks_of(fi).filter(|&id| live_hunk(id)).collect();
        if !live.is_empty() {
            n.add(analysis.findings.file(fi));
        }
        for &id in &live {
            let d = &review.decisions[id];
            n.add(analysis.hunk_flags(id).filter(|x| !merged(id, x) && !rejected_away(&f.hunks[id.hunk], d, x)));
        }
    }
    for c in &analysis.changes {
        if c.hunks.iter().any(|name| review.find_hunk(name).is_some_and(live_hunk)) {
            n.add(&c.flags);
        }
    }
    n.add(analysis.audit.flags.iter().filter(|f| !analysis.audit_attached.iter().any(|(_, a)| a == *f)));
    n
}

/// True when a flag is about one line of the hunk (a credential, a date or a claim on an
/// added line; a removed PERMANENT line) and the reviewer rejected every line it is about:
/// it no longer stands, even while the rest of the hunk is pending or taken.
fn rejected_away(h: &crate::model::diff::Hunk, d: &crate::model::decision::HunkDecision, flag: &Flag) -> bool {
    use crate::model::decision::Decision;
    if d.edited.is_some() || h.whole_file {
        return false;
    }
    let Some(line) = &flag.line else { return false };
    let Some(op) = flag.kind.line_side() else { return false };
    let line = crate::base::secrets::mask(line);
    let changed = h.lines.iter().filter(|l| l.op != Op::Context).zip(&d.lines);
    let mut about =
        changed.filter(|(l, _)| l.op == op && crate::base::secrets::mask(strip_terminator(&l.text)) == line).peekable();
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
    /// For a flag of a CHANGES.md entry that explains the hunk (`citation-unsupported`,
    /// `citation-unresolved`), the entry's label (`CHANGES.md #2`); `None` for the hunk's own
    /// flags and the audit flags it causes. An entry's flag is recorded, never a reason to
    /// refuse a commit.
    pub entry: Option<String>,
}

impl StandingFlag {
    /// `secret «[anthropic-key …Z9AA]»`: the kind and the claim it is about (masked), or
    /// its message when it names no claim.
    pub fn label(&self) -> String {
        let what = self.flag.claim.as_deref().unwrap_or(&self.flag.message);
        format!("{} «{}»", self.flag.kind.name(), crate::base::secrets::mask(what))
    }

    /// True for the hunk's own flags and the audit flags it causes: what `apply --allow`
    /// must name when one is an error.
    pub fn on_hunk(&self) -> bool {
        self.entry.is_none()
    }
}

/// The flags standing on what a commit takes — `taken` are the hunks it takes, wholly,
/// line by line or edited ([`Review::takes`]) — errors first, then warnings, each in review order.
/// The one list the commit message (`accepted with: …`), the evidence kept with the commit
/// (and so `why`), `apply`'s `--allow` check and the TUI's commit preview are all made of.
///
/// - a hunk's own flag stands by the rules of [`taken_flags`]: a flag about one line only
///   when that line is taken, an edited hunk's flags are those of its text;
/// - the audit flags are those of the result the commit writes (pending lines not taken,
///   [`crate::analysis::review_audit::audit_result`]), never those of accepting everything
///   still pending: an `orphan-note` stands only when the index line naming the note is
///   really removed. Each goes under the taken hunk that causes it (else the first taken
///   hunk of its note, else the first taken hunk);
/// - the flags of the CHANGES.md entries explaining a taken hunk stand with it (a
///   `citation-unsupported` entry: its cited lines do not say what the hunk writes).
pub fn commit_flags(review: &Review, analysis: &Analysis, taken: &[HunkId]) -> Vec<StandingFlag> {
    let name = |id: HunkId| id.named(&review.files).to_string();
    // Per taken hunk, in the order of `taken`: the flags standing on it.
    let mut per: Vec<(HunkId, Vec<StandingFlag>)> = taken.iter().map(|&id| (id, Vec::new())).collect();
    for (id, standing) in &mut per {
        let Some(d) = review.decision(*id) else { continue };
        let own = flags_taken(review, analysis.findings.hunk(*id).iter(), *id, d);
        standing.extend(own.into_iter().map(|f| StandingFlag { hunk: name(*id), flag: f.clone(), entry: None }));
    }
    if !taken.is_empty() {
        let audit = crate::analysis::review_audit::audit_result(review);
        for flag in &audit.report.flags {
            let cause = audit.attached.iter().find(|(_, a)| a == flag).map(|(at, _)| *at);
            let path = |fi: usize| review.files.get(fi).map(|f| f.path.as_str());
            let at = cause
                .and_then(|c| taken.iter().position(|t| *t == c))
                .or_else(|| {
                    let p = cause.and_then(|c| path(c.file));
                    taken.iter().position(|t| p.is_some() && path(t.file) == p)
                })
                .unwrap_or(0);
            let id = taken[at];
            per[at].1.push(StandingFlag { hunk: name(id), flag: flag.clone(), entry: None });
        }
    }
    for (id, standing) in &mut per {
        for c in analysis.entries_of(*id) {
            standing.extend(c.flags.iter().map(|f| StandingFlag {
                hunk: name(*id),
                flag: f.clone(),
                entry: Some(c.label()),
            }));
        }
    }
    let mut out: Vec<StandingFlag> = per.into_iter().flat_map(|(_, standing)| standing).collect();
    out.sort_by_key(|s| s.flag.severity != crate::analysis::flag::Severity::Error);
    out
}

/// The flags of hunk `id` that would stand if its decisions were `d`, by the
/// rules of [`commit_flags`] (the hunk's own flags and the audit flags the review's
/// analysis attaches to it): what a key is about to take, before it is pressed.
pub fn taken_flags<'a>(
    review: &Review,
    analysis: &'a Analysis,
    id: HunkId,
    d: &crate::model::decision::HunkDecision,
) -> Vec<&'a Flag> {
    flags_taken(review, analysis.hunk_flags(id), id, d)
}

/// [`taken_flags`] for a given list of the hunk's flags (say, its analysis flags and the
/// hygiene flags computed on the spot while the analysis is still running).
pub fn flags_taken<'a>(
    review: &Review,
    flags: impl Iterator<Item = &'a Flag>,
    id: HunkId,
    d: &crate::model::decision::HunkDecision,
) -> Vec<&'a Flag> {
    let Some(h) = review.hunk(id) else { return Vec::new() };
    if review.takes(id, d).is_none() {
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

/// The lines a hunk's decisions take; for an edited hunk, those its text changes against
/// live (a merge that keeps a PERMANENT line removes nothing).
fn taken_lines(h: &crate::model::diff::Hunk, d: &crate::model::decision::HunkDecision) -> Option<Taken> {
    if let Some(text) = &d.edited {
        let e = h.edited(text);
        let side =
            |op: Op| e.lines.iter().filter(|l| l.op == op).map(|l| strip_terminator(&l.text).to_string()).collect();
        return Some(Taken { added: side(Op::Add), removed: side(Op::Remove) });
    }
    let taken: Vec<&Line> = h.taken_lines(d).collect();
    let side = |op: Op| taken.iter().filter(|l| l.op == op).map(|l| strip_terminator(&l.text).to_string()).collect();
    Some(Taken { added: side(Op::Add), removed: side(Op::Remove) })
}

fn stands(flag: &Flag, d: &crate::model::decision::HunkDecision, taken: Option<&Taken>) -> bool {
    // The one line a flag is about, masked as every flag carries it.
    let holds = |lines: &[String], line: &str| {
        let line = crate::base::secrets::mask(line);
        lines.iter().any(|l| crate::base::secrets::mask(l) == line)
    };
    // An edited hunk: its `live-changed` flag is what the edit (the merge) answers, a
    // `secret` stands only while the text holds a credential.
    match (&d.edited, flag.kind) {
        (Some(_), FlagKind::LiveChanged) => return false,
        (Some(text), FlagKind::Secret) if crate::base::secrets::find(text).is_empty() => return false,
        _ => {}
    }
    match (&d.edited, taken) {
        (Some(_), None) => true,
        (_, Some(taken)) => match (&flag.line, flag.kind.line_side()) {
            // A flag about one added line stands only when that line is taken; one about a
            // removed line (a PERMANENT line, an unsourced removal) only when its removal is.
            (Some(line), Some(Op::Add)) => holds(&taken.added, line),
            (Some(line), Some(Op::Remove)) => holds(&taken.removed, line),
            _ => true,
        },
        (None, None) => true,
    }
}
