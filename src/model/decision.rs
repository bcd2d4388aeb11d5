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

    /// True when the reviewer has decided every line (or edited the hunk).
    pub fn is_decided(&self) -> bool {
        self.edited.is_some() || self.lines.iter().all(|d| *d != Decision::Pending)
    }

    /// Sets every line to `d` and drops any edit.
    pub fn set_all(&mut self, d: Decision) {
        self.lines.iter_mut().for_each(|l| *l = d);
        self.edited = None;
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
        h.set_all(Decision::Rejected);
        assert_eq!(h.state(), HunkState::Rejected);
        assert!(h.is_decided());
        h.edited = Some("x\n".into());
        assert_eq!(h.state(), HunkState::Edited);
    }
}
