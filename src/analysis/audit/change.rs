//! What a change made worse: the audit flags of the "after" folder that the "before" folder
//! did not have, each located so the hunk that caused it can be found.

use std::collections::BTreeMap;

use super::flagged::AuditFlag;
use super::folder_audit::analyse;
use super::memory_index::IndexBudget;
use crate::analysis::flag::{Flag, FlagKind};

/// What identifies "the same finding" across before and after: line numbers shift when
/// lines are added above, so they are not part of it.
fn identity(f: &AuditFlag) -> (FlagKind, String, String) {
    let extra = match f.flag.kind {
        FlagKind::IndexLongLine => f.flag.line.clone().unwrap_or_default(),
        FlagKind::DanglingLink => f.flag.claim.clone().unwrap_or_default(),
        FlagKind::FrontmatterInvalid => f.flag.message.clone(),
        _ => String::new(),
    };
    (f.flag.kind, f.path.clone(), extra)
}

fn budget_of<'a>(audit: &'a super::folder_audit::FolderAudit, path: &str) -> Option<&'a IndexBudget> {
    audit.index.iter().chain(audit.other_indexes.iter()).find(|b| b.path == path)
}

/// The flags of `after` that are new compared with `before`.
///
/// A finding counts as new when `before` has no finding of the same kind about the same
/// file (and the same long line, dangling target or frontmatter problem); an index that was
/// already over or near its limit counts as new again when the change made it larger. An
/// orphan carries `named_by`: the index line that named the note in `before`, which is the
/// line a hunk removed or changed (`None` when the note is new, or was an orphan before).
pub fn audit_change(before: &BTreeMap<String, Vec<u8>>, after: &BTreeMap<String, Vec<u8>>) -> Vec<AuditFlag> {
    let b = analyse(before);
    let a = analyse(after);
    let old: BTreeMap<_, &AuditFlag> = b.audit.flags.iter().map(|f| (identity(f), f)).collect();
    let mut out = Vec::new();
    for f in &a.audit.flags {
        let new = match old.get(&identity(f)) {
            None => true,
            Some(_) if matches!(f.flag.kind, FlagKind::IndexOverLimit | FlagKind::IndexNearLimit) => {
                match (budget_of(&b.audit, &f.path), budget_of(&a.audit, &f.path)) {
                    (Some(x), Some(y)) => y.lines > x.lines || y.bytes > x.bytes,
                    _ => true,
                }
            }
            Some(_) => false,
        };
        if !new {
            continue;
        }
        let mut f = f.clone();
        if f.flag.kind == FlagKind::OrphanNote
            && let Some(was) = b.named.get(&f.path).and_then(|refs| refs.first())
        {
            f.flag.message = format!(
                "{} is no longer named in {}, whose line {} named it before — keep that index line, or delete the note if it is stale.",
                f.path, was.path, was.line
            );
            f.named_by = Some(was.clone());
        }
        out.push(f);
    }
    // An index the change deletes leaves the notes it named with no index at all, so the
    // "after" folder checks them against nothing: they are orphans all the same, located
    // at the deleted index's line that named each.
    for (note, refs) in &b.named {
        let orphaned = after.contains_key(note)
            && !a.named.contains_key(note)
            && !out.iter().any(|f| f.flag.kind == FlagKind::OrphanNote && &f.path == note);
        let Some(was) = refs.iter().find(|r| !after.contains_key(&r.path)).filter(|_| orphaned) else {
            continue;
        };
        let message = format!(
            "{note} is no longer named in any index: {}, whose line {} named it, is deleted — keep {}, or delete the note if it is stale.",
            was.path, was.line, was.path
        );
        let mut f = AuditFlag::new(note, None, Flag::new(FlagKind::OrphanNote, message).with_claim(note.as_str()));
        f.named_by = Some(was.clone());
        out.push(f);
    }
    out
}
