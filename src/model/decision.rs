//! The reviewer's decisions: per changed line of a hunk (and per whole-file hunk), plus an
//! optional edited replacement. Plain data; the review model owns the rules and undo.

use serde::{Deserialize, Serialize};

/// The state of one changed line (or of a whole-file hunk).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Decision {
    /// Not looked at yet; results treat it like `Rejected` (nothing applied unless accepted).
    #[default]
    Pending,
    /// Apply the dream's change.
    Accepted,
    /// Keep the live side.
    Rejected,
}

/// What a hunk as a whole looks like, derived from its line decisions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum HunkState {
    /// Every changed line pending.
    Pending,
    /// Every changed line accepted.
    Accepted,
    /// Every changed line rejected.
    Rejected,
    /// A mix (some lines accepted, rejected or pending).
    Partial,
    /// The reviewer rewrote the hunk's new side.
    Edited,
}

/// Decisions for one hunk: one entry per changed (`-`/`+`) line in display order, or a
/// single entry for a whole-file hunk; `edited` replaces the hunk's whole old range.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct HunkDecision {
    /// One decision per changed line (or one for a whole-file hunk).
    pub lines: Vec<Decision>,
    /// The reviewer's own text for the hunk's range (context included), when edited.
    pub edited: Option<String>,
}

impl HunkDecision {
    /// All-pending decisions for a hunk with `slots` decidable lines.
    pub fn pending(slots: usize) -> HunkDecision {
        HunkDecision { lines: vec![Decision::Pending; slots], edited: None }
    }

    /// The hunk's overall state.
    pub fn state(&self) -> HunkState {
        if self.edited.is_some() {
            return HunkState::Edited;
        }
        let first = self.lines.first().copied().unwrap_or_default();
        if self.lines.iter().all(|d| *d == first) {
            match first {
                Decision::Pending => HunkState::Pending,
                Decision::Accepted => HunkState::Accepted,
                Decision::Rejected => HunkState::Rejected,
            }
        } else {
            HunkState::Partial
        }
    }

    /// True when the reviewer has decided something on the hunk: a line (a `partial` hunk
    /// is decided: a commit takes its accepted lines and leaves the rest), the whole hunk,
    /// or an edit. The hunks [`Tally`] does not count as pending.
    pub fn is_decided(&self) -> bool {
        self.edited.is_some() || self.lines.iter().any(|d| *d != Decision::Pending)
    }

    /// True when no line is left pending (or the hunk is edited): what "the rest of the
    /// file" (`a`/`d`) leaves alone. A `partial` hunk with pending lines is decided, not
    /// complete.
    pub fn is_complete(&self) -> bool {
        self.edited.is_some() || self.lines.iter().all(|d| *d != Decision::Pending)
    }

    /// What a commit of this decision does with the hunk (before any write check).
    pub fn outcome(&self) -> Outcome {
        let any = |x: Decision| self.lines.contains(&x);
        if self.edited.is_some() {
            Outcome::Edited
        } else if any(Decision::Accepted) && self.lines.iter().all(|d| *d == Decision::Accepted) {
            Outcome::Accepted
        } else if any(Decision::Accepted) {
            Outcome::PartlyAccepted
        } else if any(Decision::Rejected) {
            Outcome::Rejected
        } else {
            Outcome::Pending
        }
    }

    /// Sets every line to `d` and drops any edit.
    pub fn set_all(&mut self, d: Decision) {
        self.lines.iter_mut().for_each(|l| *l = d);
        self.edited = None;
    }
}

/// What a commit does with a hunk, by its decision: one of these for every hunk.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// Every changed line taken.
    Accepted,
    /// Some lines taken (the others rejected or left pending, which a commit does not take).
    PartlyAccepted,
    /// The reviewer's text taken.
    Edited,
    /// Nothing taken, something rejected.
    Rejected,
    /// Nothing decided.
    Pending,
}

impl Outcome {
    /// True when a commit takes something of the hunk: wholly, line by line or edited.
    pub fn takes(self) -> bool {
        matches!(self, Outcome::Accepted | Outcome::PartlyAccepted | Outcome::Edited)
    }
}

/// How the hunks of a review (or of one file) are decided: disjoint counts that add up to
/// the hunks. The one count every face shows — the status bar and the file list
/// (decided/total), the reviewed banner, `check`, `log`, the commit's summary and its
/// `Review:` trailer — so they always agree and always add up. A `partial` hunk is decided
/// (the commit takes its accepted lines).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Taken whole.
    pub accepted: usize,
    /// Taken line by line.
    pub partly: usize,
    /// Taken as the reviewer rewrote them.
    pub edited: usize,
    /// Rejected (or, in a commit's count, not written).
    pub rejected: usize,
    /// Undecided.
    pub pending: usize,
}

impl Tally {
    /// The tally of some decisions.
    pub fn of<'a>(decisions: impl IntoIterator<Item = &'a HunkDecision>) -> Tally {
        let mut t = Tally::default();
        for d in decisions {
            t.add(d.outcome());
        }
        t
    }

    /// Counts one more hunk.
    pub fn add(&mut self, o: Outcome) {
        match o {
            Outcome::Accepted => self.accepted += 1,
            Outcome::PartlyAccepted => self.partly += 1,
            Outcome::Edited => self.edited += 1,
            Outcome::Rejected => self.rejected += 1,
            Outcome::Pending => self.pending += 1,
        }
    }

    /// The tally a review commit's `Review: accepted=A rejected=R edited=E` trailer records
    /// (its `accepted` counts edited hunks too; what it left pending is rejected).
    pub fn from_trailer(accepted: usize, rejected: usize, edited: usize) -> Tally {
        Tally { accepted: accepted.saturating_sub(edited), partly: 0, edited, rejected, pending: 0 }
    }

    /// Every hunk counted.
    pub fn total(&self) -> usize {
        self.accepted + self.partly + self.edited + self.rejected + self.pending
    }

    /// Hunks decided (every one not pending).
    pub fn decided(&self) -> usize {
        self.total() - self.pending
    }

    /// Hunks a commit takes: wholly, line by line or edited.
    pub fn taken(&self) -> usize {
        self.accepted + self.partly + self.edited
    }

    /// `3 accepted, 1 edited, 3 rejected`: accepted and rejected always, the other kinds
    /// when there are some; the numbers add up to [`Tally::total`].
    pub fn describe(&self) -> String {
        let mut parts = vec![format!("{} accepted", self.accepted)];
        if self.partly > 0 {
            parts.push(format!("{} accepted in part", self.partly));
        }
        if self.edited > 0 {
            parts.push(format!("{} edited", self.edited));
        }
        parts.push(format!("{} rejected", self.rejected));
        if self.pending > 0 {
            parts.push(format!("{} pending", self.pending));
        }
        parts.join(", ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn state_is_derived_from_lines() {
        let mut h = HunkDecision::pending(3);
        assert_eq!(h.state(), HunkState::Pending);
        assert!(!h.is_decided());
        h.lines[1] = Decision::Accepted;
        assert_eq!(h.state(), HunkState::Partial);
        assert!(h.is_decided(), "a partial hunk is decided: a commit takes its accepted line");
        assert_eq!(h.outcome(), Outcome::PartlyAccepted);
        h.set_all(Decision::Rejected);
        assert_eq!(h.state(), HunkState::Rejected);
        assert!(h.is_decided());
        h.edited = Some("x\n".into());
        assert_eq!(h.state(), HunkState::Edited);
    }

    #[test]
    fn a_tally_adds_up_to_the_hunks() {
        let d = |lines: &[Decision]| HunkDecision { lines: lines.to_vec(), edited: None };
        use Decision::*;
        let all = [
            d(&[Accepted, Accepted]),
            d(&[Accepted, Pending]),
            d(&[Rejected, Pending]),
            d(&[Pending, Pending]),
            HunkDecision { lines: vec![Rejected], edited: Some("x\n".into()) },
        ];
        let t = Tally::of(&all);
        assert_eq!(t, Tally { accepted: 1, partly: 1, edited: 1, rejected: 1, pending: 1 });
        assert_eq!((t.decided(), t.total(), t.taken()), (4, 5, 3));
        assert_eq!(t.describe(), "1 accepted, 1 accepted in part, 1 edited, 1 rejected, 1 pending");
        let r = Tally::from_trailer(5, 2, 1);
        assert_eq!((r.describe(), r.total()), ("4 accepted, 1 edited, 2 rejected".to_string(), 7));
    }
}
