//! Every analysis of a loaded review in one call: provenance (CHANGES.md citations and the
//! claims of every added line checked against the transcripts), hygiene flags, and the
//! audit of the outcome. The CLI runs it inline; the TUI on a background thread with
//! progress.

use crate::report::Analysis;
use crate::review::Review;

/// Runs every analysis. `progress(done, total)` is called as transcripts are scanned
/// (bytes), from the calling thread.
pub fn analyze_with(review: &Review, progress: &dyn Fn(u64, u64)) -> Analysis {
    let mut analysis = Analysis::empty(review);
    let provenance = crate::provenance::run(review, &mut analysis.findings, progress);
    analysis.changes = provenance.changes;
    analysis.notes = provenance.notes;
    crate::hygiene::check(review, &mut analysis.findings);
    analysis.refresh_audit(review);
    analysis
}

/// Runs every analysis without progress reports.
pub fn analyze(review: &Review) -> Analysis {
    analyze_with(review, &|_, _| {})
}
