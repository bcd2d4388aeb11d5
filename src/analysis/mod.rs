//! Every analysis of a loaded review in one call: provenance (CHANGES.md citations and the
//! claims of every added line checked against the transcripts), hygiene flags, and the
//! audit of the outcome. The CLI runs it inline; the TUI on a background thread with
//! progress. A reviewer's edited text is checked the same way ([`check_edit`]).

pub mod audit;
pub mod claims;
pub mod findings;
pub mod flag;
pub mod hygiene;
pub mod provenance;
pub mod repofacts;
pub mod result;
pub mod review_audit;
pub mod standing;

pub use result::Analysis;

use crate::model::decision::HunkDecision;
use crate::model::ids::{EntryId, HunkId, PerHunk};
use crate::model::review::Review;
use result::EditCheck;

/// Runs every analysis. `progress(done, total)` is called as transcripts are scanned
/// (bytes), from the calling thread. Hunks the review already holds edited get their
/// edited text checked too, and those findings in place of the dream's.
pub fn analyze_with(review: &Review, progress: &dyn Fn(u64, u64)) -> Analysis {
    let mut analysis = dream_only(review, progress);
    for (id, d) in review.all_decisions() {
        if let Some(check) = d.edited.as_deref().and_then(|text| check_edit(review, id, text)) {
            analysis.edits.push(check);
        }
    }
    analysis.sync_edits(review);
    analysis
}

/// The analyses of the dream itself, edits left aside.
/// Each line's claims are read once ([`crate::analysis::claims::memoized`]).
fn dream_only(review: &Review, progress: &dyn Fn(u64, u64)) -> Analysis {
    crate::analysis::claims::memoized(|| dream_only_once(review, progress))
}

fn dream_only_once(review: &Review, progress: &dyn Fn(u64, u64)) -> Analysis {
    let mut analysis = Analysis::empty(review);
    // The audit of the outcome needs nothing the other analyses find, and runs on one core:
    // a task of the thread pool, beside them (provenance leaves a core idle in its serial
    // stages), not a thread of its own (each thread's allocator arena costs address
    // space). Provenance stays on the calling thread, which `progress` is called from.
    let mut audit = None;
    rayon::in_place_scope(|s| {
        s.spawn(|_| audit = Some(crate::analysis::review_audit::audit_review(review)));
        let provenance = crate::analysis::provenance::run(review, &mut analysis.findings, progress);
        analysis.changes = provenance.changes;
        analysis.notices = provenance.notices;
        analysis.left_out = provenance.left_out;
        crate::analysis::hygiene::check(review, &mut analysis.findings);
        crate::analysis::repofacts::check(review, &mut analysis.findings, &mut analysis.notices);
    });
    let audit = audit.unwrap_or_else(|| crate::analysis::review_audit::audit_review(review));
    analysis.audit = audit.report;
    analysis.audit_attached = audit.attached;
    analysis
}

/// Runs every analysis without progress reports.
pub fn analyze(review: &Review) -> Analysis {
    analyze_with(review, &|_, _| {})
}

/// Checks the reviewer's `text` for hunk `id` as any dream hunk is
/// checked: the hunk as live against that text ([`crate::model::diff::Hunk::edited`]) is analysed
/// alone (its claims against the transcripts, its credentials and PERMANENT lines), so
/// removing an invented date removes its flag and typing a secret raises one. As heavy as
/// one pass over the transcripts: the TUI runs it on a thread. `None` for a hunk that is
/// not there or cannot be edited.
pub fn check_edit(review: &Review, id: HunkId, text: &str) -> Option<EditCheck> {
    let f = review.files.get(id.file)?;
    let h = f.hunks.get(id.hunk)?;
    if h.whole_file || !f.kind.writable() {
        return None;
    }
    let edited = h.edited(text);
    let mut alone = review.clone();
    let slots = edited.slots();
    alone.files = vec![crate::model::diff::FileDiff { hunks: vec![edited], ..f.clone() }];
    alone.decisions = PerHunk::build(&alone.files, |_, _| HunkDecision::pending(slots));
    let a = dream_only(&alone, &|_, _| {});
    // CHANGES.md entries are numbered alike in both analyses; inline sources are numbered
    // per review, so only an entry of CHANGES.md is named by its number.
    let found = a.findings.of(HunkId::new(0, 0)).cloned().unwrap_or_default();
    let changes: Vec<EntryId> =
        found.changes.iter().copied().filter(|&e| a.entry(e).is_some_and(|c| c.note.is_none())).collect();
    let mut flags: Vec<crate::analysis::flag::Flag> = found.flags;
    // An inline source of the edited text is not listed among the review's entries: its
    // flags are the hunk's own.
    for &e in &found.changes {
        if let Some(c) = a.entry(e).filter(|c| c.note.is_some()) {
            flags.extend(c.flags.iter().cloned());
        }
    }
    Some(EditCheck { id, text: text.to_string(), flags, claims: found.claims, changes })
}
