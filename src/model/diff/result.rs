//! What a file becomes under the reviewer's decisions, and a patch of the chosen hunks.

use super::file::{FileDiff, FileStatus};
use super::hunk::{Hunk, Op, unified_start};
use crate::inputs::snapshot::Entry;
use crate::model::decision::{Decision, HunkDecision};

/// The entry a file gets from the decisions (one [`HunkDecision`] per hunk, same order):
/// `None` means the file does not exist afterwards. Pending counts as rejected; a
/// `live_changed` hunk contributes only when edited; symlinks and paths outside memory are
/// never written, so their result is always the live entry.
pub fn result(file: &FileDiff, decisions: &[HunkDecision]) -> Option<Entry> {
    let accepted = |h: &Hunk, d: Decision| d == Decision::Accepted && !h.live_changed;
    let decision = |i: usize| decisions.get(i).cloned().unwrap_or_default();
    if !file.kind.writable() {
        return file.live.clone();
    }
    if file.hunks.iter().all(|h| h.whole_file) {
        let d = decision(0);
        let take = file.hunks.first().is_some_and(|h| accepted(h, d.lines.first().copied().unwrap_or_default()));
        return if take { file.proposed.clone() } else { file.live.clone() };
    }
    let live = file.live_lines();
    let mut out = String::new();
    let mut pos = 0;
    let (mut any_add, mut all_removed) = (false, true);
    for (hi, h) in file.hunks.iter().enumerate() {
        let d = decision(hi);
        out.extend(live.get(pos..h.old_range.start).unwrap_or_default().iter().copied());
        if let Some(edit) = &d.edited {
            out.push_str(edit);
            any_add = true;
            all_removed = false;
        } else {
            let mut slot = 0;
            for line in &h.lines {
                let take = match line.op {
                    Op::Context => true,
                    Op::Remove => {
                        let keep = !accepted(h, d.lines.get(slot).copied().unwrap_or_default());
                        slot += 1;
                        all_removed &= !keep;
                        keep
                    }
                    Op::Add => {
                        let add = accepted(h, d.lines.get(slot).copied().unwrap_or_default());
                        slot += 1;
                        any_add |= add;
                        add
                    }
                };
                if take {
                    out.push_str(&line.text);
                }
            }
        }
        pos = h.old_range.end;
    }
    out.extend(live.get(pos..).unwrap_or_default().iter().copied());
    match file.status {
        FileStatus::Added if !any_add => None,
        FileStatus::Deleted if all_removed => None,
        _ => Some(Entry::File(out.into_bytes())),
    }
}

/// Renders the hunks `include` selects as a unified diff (what `git apply` takes): new-side
/// line numbers are those of applying exactly those hunks. Whole-file hunks are skipped.
pub fn to_patch(file: &FileDiff, include: impl Fn(usize) -> bool) -> String {
    let mut out = String::new();
    let old = if file.status == FileStatus::Added { "/dev/null".to_string() } else { format!("a/{}", file.path) };
    let new = if file.status == FileStatus::Deleted { "/dev/null".to_string() } else { format!("b/{}", file.path) };
    out.push_str(&format!("--- {old}\n+++ {new}\n"));
    let mut shift = 0isize;
    for (_, h) in file.hunks.iter().enumerate().filter(|(i, h)| !h.whole_file && include(*i)) {
        let new_begin = (h.old_range.start as isize + shift) as usize;
        let new_range = new_begin..new_begin + h.new_range.len();
        shift += h.new_range.len() as isize - h.old_range.len() as isize;
        out.push_str(&format!(
            "@@ -{},{} +{},{} @@\n",
            h.old_start(),
            h.old_range.len(),
            unified_start(&new_range),
            new_range.len()
        ));
        for l in &h.lines {
            out.push_str(l.op.marker());
            out.push_str(&l.text);
            if !l.text.ends_with('\n') {
                out.push_str("\n\\ No newline at end of file\n");
            }
        }
    }
    out
}
