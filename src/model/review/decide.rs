//! The reviewer's decisions on a [`Review`]: hunks, lines, edits, the rest of a file, all
//! at once, and undo/redo (every change one step).

use super::{Refusal, Review};
use crate::model::decision::{Decision, HunkDecision, Outcome};
use crate::model::ids::HunkId;

impl Review {
    /// Why accepting this hunk is refused, if it is.
    pub fn blocked(&self, id: HunkId) -> Option<Refusal> {
        let f = self.files.get(id.file)?;
        if !f.kind.writable() {
            return Some(Refusal::OutsideMemory);
        }
        f.hunks.get(id.hunk).filter(|h| h.live_changed).map(|_| Refusal::LiveChanged)
    }

    /// What a commit takes of hunk `id` if it is decided `d`: its outcome when the commit
    /// takes something of it (accepted wholly, line by line, or edited), `None` when it
    /// takes nothing — nothing accepted, or a blocked hunk ([`Review::blocked`]) accepted
    /// without an edit. The one rule every commit selection is made by: the commit plan's
    /// fates (and so its message, evidence and standing flags), and the flags a key is about
    /// to take (`d` the decision it would leave).
    pub fn takes(&self, id: HunkId, d: &HunkDecision) -> Option<Outcome> {
        let outcome = d.outcome();
        let blocked = self.blocked(id).is_some() && d.edited.is_none();
        (outcome.takes() && !blocked).then_some(outcome)
    }

    fn checkpoint(&mut self) {
        self.undo.push(self.decisions.clone());
        self.redo.clear();
    }

    /// Sets every line of a hunk (drops an edit). Accepting a blocked hunk is refused.
    pub fn set_hunk(&mut self, id: HunkId, d: Decision) -> Result<(), Refusal> {
        self.hunk(id).ok_or(Refusal::NoSuchTarget)?;
        if d == Decision::Accepted
            && let Some(r) = self.blocked(id)
        {
            return Err(r);
        }
        self.checkpoint();
        self.decisions[id].set_all(d);
        Ok(())
    }

    /// Sets one decision slot (the n-th changed line) of a hunk.
    pub fn set_line(&mut self, id: HunkId, slot: usize, d: Decision) -> Result<(), Refusal> {
        self.set_lines(&[(id, slot, d)]).map(|_| ())
    }

    /// Sets several decision slots as one undo step (a selection): each `(hunk, slot,
    /// decision)`. Nothing changes when one of them is refused. Returns how many slots
    /// there were.
    pub fn set_lines(&mut self, slots: &[(HunkId, usize, Decision)]) -> Result<usize, Refusal> {
        for &(id, slot, d) in slots {
            if slot >= self.hunk(id).ok_or(Refusal::NoSuchTarget)?.slots() {
                return Err(Refusal::NoSuchTarget);
            }
            if d == Decision::Accepted
                && let Some(r) = self.blocked(id)
            {
                return Err(r);
            }
        }
        if slots.is_empty() {
            return Ok(0);
        }
        self.checkpoint();
        for &(id, slot, d) in slots {
            let hd = &mut self.decisions[id];
            hd.edited = None;
            hd.lines[slot] = d;
        }
        Ok(slots.len())
    }

    /// Replaces a hunk's range with the reviewer's own text (`None` drops the edit).
    /// Allowed on live-changed hunks: editing is how they are merged. Symlinks never, and
    /// never a text with a conflict marker left in it ([`Hunk::conflict_marker`]).
    pub fn set_edit(&mut self, id: HunkId, text: Option<String>) -> Result<(), Refusal> {
        let f = self.files.get(id.file).ok_or(Refusal::NoSuchTarget)?;
        let h = f.hunks.get(id.hunk).ok_or(Refusal::NoSuchTarget)?;
        if !f.kind.writable() {
            return Err(Refusal::OutsideMemory);
        }
        if h.whole_file {
            return Err(Refusal::NoSuchTarget);
        }
        if let Some((line, marker)) = text.as_deref().and_then(|t| h.conflict_marker(t)) {
            return Err(Refusal::ConflictMarkers { line, marker });
        }
        self.checkpoint();
        self.decisions[id].edited = text;
        Ok(())
    }

    /// The hunks [`Review::set_rest_of_file`] would set to `d`: the not-yet-decided ones of
    /// file from hunk `from` on, blocked ones left out when accepting.
    pub fn rest_of_file(&self, from: HunkId, d: Decision) -> Vec<HunkId> {
        let Some(f) = self.files.get(from.file) else {
            return Vec::new();
        };
        (from.hunk..f.hunks.len())
            .map(|h| from.with_hunk(h))
            .filter(|&id| !self.decisions[id].is_complete())
            .filter(|&id| d != Decision::Accepted || self.blocked(id).is_none())
            .collect()
    }

    /// Sets every not-yet-decided hunk of a file from hunk `from` on (the `a`/`d` keys).
    /// Blocked hunks are skipped when accepting; returns how many hunks changed.
    pub fn set_rest_of_file(&mut self, from: HunkId, d: Decision) -> usize {
        let targets = self.rest_of_file(from, d);
        if targets.is_empty() {
            return 0;
        }
        self.checkpoint();
        for &id in &targets {
            self.decisions[id].set_all(d);
        }
        targets.len()
    }

    /// A dream a review commit already reviewed: what that commit did not take (every hunk
    /// still between live memory and the proposal) stays decided the way it decided it,
    /// rejected, so nothing is pending and no key can silently undo the review. Not an undo
    /// step. Returns false (nothing changed) when the dream was not reviewed.
    pub fn settle_reviewed(&mut self) -> bool {
        if self.reviewed.is_none() {
            return false;
        }
        for d in self.decisions.values_mut() {
            *d = HunkDecision::pending(d.lines.len());
            d.set_all(Decision::Rejected);
        }
        true
    }

    /// Going through a reviewed dream's leftovers again (`--again`, or the TUI's key): every
    /// hunk the review commit did not take is pending again. One undo step.
    pub fn reopen_leftovers(&mut self) {
        self.checkpoint();
        for d in self.decisions.values_mut() {
            *d = HunkDecision::pending(d.lines.len());
        }
    }

    /// `reviewed in 41fd1fa: 1 accepted, 1 edited, 5 rejected` (its counts add up to the
    /// hunks it decided: [`crate::model::decision::Tally`]), for a reviewed dream; hunks a later
    /// revert took back are named with it (`; 1 of them reverted since (5d1c2e9)`).
    pub fn reviewed_banner(&self) -> Option<String> {
        let e = self.reviewed.as_ref()?;
        let mut out = match e.counts {
            Some((accepted, rejected, edited)) => {
                let t = crate::model::decision::Tally::from_trailer(accepted, rejected, edited);
                format!("reviewed in {}: {}", e.short, t.describe())
            }
            None => format!("reviewed in {} ({})", e.short, e.summary),
        };
        let reverted: Vec<&str> = self.hunk_ids().filter_map(|id| self.reverted(id)).collect();
        if !reverted.is_empty() {
            let mut by: Vec<&str> = reverted.clone();
            by.sort_unstable();
            by.dedup();
            out.push_str(&format!("; {} of them reverted since ({})", reverted.len(), by.join(", ")));
        }
        Some(out)
    }

    /// For a reviewed dream's leftover hunk that its review took and a later revert of part
    /// of that review took back: the revert's short id. The hunk is a leftover again (shown
    /// rejected: the history's latest word on it is the revert), named as reverted.
    pub fn reverted(&self, id: HunkId) -> Option<&str> {
        let r = self.reviewed.as_ref()?;
        let f = self.files.get(id.file)?;
        let h = f.hunks.get(id.hunk)?;
        let strip = |l: &crate::model::diff::Line| crate::base::text::strip_terminator(&l.text).to_string();
        let added: Vec<String> = h.added().map(strip).collect();
        let removed: Vec<String> = h.removed().map(strip).collect();
        if added.is_empty() && removed.is_empty() {
            return None;
        }
        // The revert took out what the hunk adds and put back what it removes.
        let within = |lines: &[String], pool: &[String]| lines.iter().all(|l| pool.contains(l));
        r.reverts
            .iter()
            .find(|rv| {
                rv.notes.iter().any(|(p, out, back)| *p == f.path && within(&added, out) && within(&removed, back))
            })
            .map(|rv| rv.short.as_str())
    }

    /// Sets every hunk of the review; blocked hunks are left as they are when accepting.
    /// Returns the ids of hunks that were skipped.
    pub fn set_all(&mut self, d: Decision) -> Vec<String> {
        self.checkpoint();
        let mut skipped = Vec::new();
        let ids: Vec<HunkId> = self.hunk_ids().collect();
        for id in ids {
            if d == Decision::Accepted && self.blocked(id).is_some() {
                skipped.extend(id.name(&self.files).map(str::to_string));
                self.decisions[id].set_all(Decision::Rejected);
            } else {
                self.decisions[id].set_all(d);
            }
        }
        skipped
    }

    /// Undoes the last decision change; false when there is nothing to undo.
    pub fn undo(&mut self) -> bool {
        match self.undo.pop() {
            Some(prev) => {
                self.redo.push(std::mem::replace(&mut self.decisions, prev));
                true
            }
            None => false,
        }
    }

    /// Redoes the last undone change; false when there is nothing to redo.
    pub fn redo(&mut self) -> bool {
        match self.redo.pop() {
            Some(next) => {
                self.undo.push(std::mem::replace(&mut self.decisions, next));
                true
            }
            None => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::model::decision::{Decision, HunkDecision, Outcome};
    use crate::model::ids::HunkId;
    use crate::model::review::Review;
    use crate::model::review::history::NoHistory;

    #[cfg(unix)]
    #[test]
    fn a_commit_takes_what_is_accepted_and_may_be_written() {
        let t = tempfile::tempdir().unwrap();
        let (live, dream) = (t.path().join("live"), t.path().join("dream"));
        std::fs::create_dir_all(&live).unwrap();
        std::fs::create_dir_all(&dream).unwrap();
        std::fs::write(live.join("a.md"), "one\ntwo\n").unwrap();
        std::fs::write(dream.join("a.md"), "one\nTWO\nthree\n").unwrap();
        std::os::unix::fs::symlink("/etc/hostname", dream.join("l.md")).unwrap();
        let inputs = crate::inputs::dream::discover(Some(&dream), Some(&live), &[]).unwrap();
        let review = Review::load(inputs, &NoHistory).unwrap();
        let (a, l) = (HunkId::new(0, 0), HunkId::new(1, 0));
        assert_eq!((a.name(&review.files), l.name(&review.files)), (Some("a.md#1"), Some("l.md#1")));
        let d = |lines: &[Decision], edited: Option<&str>| HunkDecision {
            lines: lines.to_vec(),
            edited: edited.map(str::to_string),
        };
        use Decision::*;
        assert_eq!(review.takes(a, &d(&[Accepted; 3], None)), Some(Outcome::Accepted));
        assert_eq!(review.takes(a, &d(&[Accepted, Rejected, Pending], None)), Some(Outcome::PartlyAccepted));
        assert_eq!(review.takes(a, &d(&[Pending; 3], Some("one\n"))), Some(Outcome::Edited));
        assert_eq!(review.takes(a, &d(&[Rejected, Pending, Pending], None)), None);
        assert_eq!(review.takes(a, &d(&[Pending; 3], None)), None);
        // A symlink is never written: accepting it takes nothing.
        assert_eq!(review.takes(l, &d(&[Accepted], None)), None);
    }
}
