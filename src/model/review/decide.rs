//! The reviewer's decisions on a [`Review`]: hunks, lines, edits, the rest of a file, all
//! at once, and undo/redo (every change one step).

use super::{Refusal, Review};
use crate::model::decision::{Decision, HunkDecision};

impl Review {
    /// Why accepting this hunk is refused, if it is.
    pub fn blocked(&self, file: usize, hunk: usize) -> Option<Refusal> {
        let f = self.files.get(file)?;
        if !f.kind.writable() {
            return Some(Refusal::OutsideMemory);
        }
        f.hunks.get(hunk).filter(|h| h.live_changed).map(|_| Refusal::LiveChanged)
    }

    fn checkpoint(&mut self) {
        self.undo.push(self.decisions.clone());
        self.redo.clear();
    }

    /// Sets every line of a hunk (drops an edit). Accepting a blocked hunk is refused.
    pub fn set_hunk(&mut self, file: usize, hunk: usize, d: Decision) -> Result<(), Refusal> {
        self.hunk(file, hunk).ok_or(Refusal::NoSuchTarget)?;
        if d == Decision::Accepted
            && let Some(r) = self.blocked(file, hunk)
        {
            return Err(r);
        }
        self.checkpoint();
        self.decisions[file][hunk].set_all(d);
        Ok(())
    }

    /// Sets one decision slot (the n-th changed line) of a hunk.
    pub fn set_line(&mut self, file: usize, hunk: usize, slot: usize, d: Decision) -> Result<(), Refusal> {
        self.set_lines(file, &[(hunk, slot, d)]).map(|_| ())
    }

    /// Sets several decision slots of one file as one undo step (a selection): each
    /// `(hunk, slot, decision)`. Nothing changes when one of them is refused. Returns how
    /// many slots there were.
    pub fn set_lines(&mut self, file: usize, slots: &[(usize, usize, Decision)]) -> Result<usize, Refusal> {
        for &(hunk, slot, d) in slots {
            if slot >= self.hunk(file, hunk).ok_or(Refusal::NoSuchTarget)?.slots() {
                return Err(Refusal::NoSuchTarget);
            }
            if d == Decision::Accepted
                && let Some(r) = self.blocked(file, hunk)
            {
                return Err(r);
            }
        }
        if slots.is_empty() {
            return Ok(0);
        }
        self.checkpoint();
        for &(hunk, slot, d) in slots {
            let hd = &mut self.decisions[file][hunk];
            hd.edited = None;
            hd.lines[slot] = d;
        }
        Ok(slots.len())
    }

    /// Replaces a hunk's range with the reviewer's own text (`None` drops the edit).
    /// Allowed on live-changed hunks: editing is how they are merged. Symlinks never, and
    /// never a text with a conflict marker left in it ([`Hunk::conflict_marker`]).
    pub fn set_edit(&mut self, file: usize, hunk: usize, text: Option<String>) -> Result<(), Refusal> {
        let f = self.files.get(file).ok_or(Refusal::NoSuchTarget)?;
        let h = f.hunks.get(hunk).ok_or(Refusal::NoSuchTarget)?;
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
        self.decisions[file][hunk].edited = text;
        Ok(())
    }

    /// The hunks [`Review::set_rest_of_file`] would set to `d`: the not-yet-decided ones of
    /// `file` from `from` on, blocked ones left out when accepting.
    pub fn rest_of_file(&self, file: usize, from: usize, d: Decision) -> Vec<usize> {
        let Some(f) = self.files.get(file) else {
            return Vec::new();
        };
        (from..f.hunks.len())
            .filter(|&h| !self.decisions[file][h].is_complete())
            .filter(|&h| d != Decision::Accepted || self.blocked(file, h).is_none())
            .collect()
    }

    /// Sets every not-yet-decided hunk of a file from `from` on (the `a`/`d` keys). Blocked
    /// hunks are skipped when accepting; returns how many hunks changed.
    pub fn set_rest_of_file(&mut self, file: usize, from: usize, d: Decision) -> usize {
        let targets = self.rest_of_file(file, from, d);
        if targets.is_empty() {
            return 0;
        }
        self.checkpoint();
        for &h in &targets {
            self.decisions[file][h].set_all(d);
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
        for d in self.decisions.iter_mut().flatten() {
            *d = HunkDecision::pending(d.lines.len());
            d.set_all(Decision::Rejected);
        }
        true
    }

    /// Going through a reviewed dream's leftovers again (`--again`, or the TUI's key): every
    /// hunk the review commit did not take is pending again. One undo step.
    pub fn reopen_leftovers(&mut self) {
        self.checkpoint();
        for d in self.decisions.iter_mut().flatten() {
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
        let reverted: Vec<&str> = self.all_decisions().filter_map(|(fi, hi, _)| self.reverted(fi, hi)).collect();
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
    pub fn reverted(&self, file: usize, hunk: usize) -> Option<&str> {
        let r = self.reviewed.as_ref()?;
        let f = self.files.get(file)?;
        let h = f.hunks.get(hunk)?;
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
        for fi in 0..self.files.len() {
            for hi in 0..self.files[fi].hunks.len() {
                if d == Decision::Accepted && self.blocked(fi, hi).is_some() {
                    skipped.push(self.files[fi].hunks[hi].id.clone());
                    self.decisions[fi][hi].set_all(Decision::Rejected);
                } else {
                    self.decisions[fi][hi].set_all(d);
                }
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
