//! What follows a change of decisions in the current file (the review marked uncommitted,
//! the rows rebuilt, the outcome re-audited when it can move), and `A`, which reopens what
//! an earlier review commit did not take.

use super::super::msg::Cmd;
use super::super::state::App;
use super::say::say;

/// After any decision change in the current file: mark uncommitted, rebuild the rows, and
/// re-audit the outcome when the change can move it (see [`audit_relevant`]).
pub(super) fn decided(app: &mut App) {
    app.dirty = true;
    app.rebuild_rows();
    if app.review.files.get(app.file).is_none_or(audit_relevant) {
        app.analysis.refresh_audit(&app.review);
    }
}

/// True when decisions in this file can change the audit of the outcome: the index itself,
/// a note that appears or disappears, anything not plain text, or a hunk reaching into the
/// frontmatter. A decision inside a note's body leaves the audit as it was, so a keypress
/// there does not re-read every note.
fn audit_relevant(f: &crate::model::diff::FileDiff) -> bool {
    use crate::model::diff::{FileKind, FileStatus};
    if crate::analysis::audit::is_index(&f.path) || f.status != FileStatus::Modified || f.kind != FileKind::Text {
        return true;
    }
    let live = f.live.as_ref().and_then(|e| e.bytes()).and_then(crate::base::text::as_text).unwrap_or("");
    let fm_end = match crate::analysis::audit::frontmatter::parse(live) {
        crate::analysis::audit::frontmatter::Block::Parsed(fm) => fm.end_line,
        _ => 1,
    };
    f.hunks.iter().any(|h| h.old_range.start < fm_end)
}

/// `A`: a dream a review commit already reviewed opens with its leftovers decided; this
/// reopens them, pending (one undo step). Elsewhere it says there is nothing to reopen.
pub(super) fn again(app: &mut App) -> Vec<Cmd> {
    let Some(banner) = app.review.reviewed_banner() else {
        say(app, "this dream has no review commit yet: nothing to decide again", false);
        return Vec::new();
    };
    app.review.reopen_leftovers();
    decided(app);
    say(app, &format!("{banner}: what it did not take is pending again (u undoes)"), false);
    vec![Cmd::Save]
}
