//! Saved decisions: the reviewer's work survives a crash or a quit, and the same file
//! format drives `dreamreview apply --decisions FILE`. This module is the format and how it
//! applies to a review; where it is kept is the repository layer's
//! ([`crate::store::repo::decisions`]).
//!
//! The TUI saves after every decision to `<gitdir>/dreamreview/<dream-id>.json` (inside
//! the git directory, never the work tree), keyed by each hunk's content hash
//! ([`crate::model::diff::Hunk::key`]: path + removed + added lines), so a decision finds its hunk
//! again after live memory moved and shifted hunk positions. Reopening the same dream
//! restores them ([`crate::store::repo::decisions::restore`]).
//!
//! # The decisions file (version 1)
//!
//! ```json
//! {
//!   "version": 1,
//!   "dream_id": "optional: the review's Dream-Id",
//!   "hunks": {
//!     "testing.md#1": "accepted",
//!     "3f9a0c1d2e4b5a67": {"id": "ci.md#1", "decision": "rejected"},
//!     "deploy.md#1": {"edited": "the hunk's new text, context lines included\n"},
//!     "MEMORY.md#1": {"lines": ["accepted", "rejected", "accepted"]}
//!   }
//! }
//! ```
//!
//! Each name under `hunks` is a hunk id as `check` prints it (it contains `#`) or a hunk
//! key (16 hex digits, what the TUI saves). Its value is `"accepted"`, `"rejected"` or
//! `"pending"`, or an object with any of: `decision` (the same words; `partial` and
//! `edited` are informational), `lines` (one word per changed line of the hunk, in order,
//! for per-line decisions), `edited` (the reviewer's replacement text for the hunk's range,
//! context included). `id` in an object is informational. With `apply`, every hunk the file
//! does not name is rejected and a name that matches no hunk is an error; restoring saved
//! state skips names that no longer match (the hunk changed) and reports them.

use super::{Refusal, Review};
use crate::model::decision::{Decision, HunkDecision, HunkState};
use crate::model::ids::HunkId;
use anyhow::{Context, Result, anyhow, bail};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::Path;

/// The decisions file (see the module docs).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SavedDecisions {
    /// Format version; 1.
    #[serde(default = "one")]
    pub version: u32,
    /// The review's `Dream-Id`, when saved by dreamreview.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dream_id: Option<String>,
    /// Hunk id or hunk key → decision.
    #[serde(default)]
    pub hunks: BTreeMap<String, SavedHunk>,
}

fn one() -> u32 {
    1
}

/// One hunk's saved decision: a bare word or the full form.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum SavedHunk {
    /// `"accepted"`, `"rejected"` or `"pending"`.
    Word(HunkState),
    /// Per-line decisions and/or an edit.
    Full(FullHunk),
}

/// The full form of a saved hunk decision.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct FullHunk {
    /// The hunk id when saved (informational).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// The overall decision.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub decision: Option<HunkState>,
    /// One word per changed line.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lines: Option<Vec<HunkState>>,
    /// The reviewer's replacement text for the hunk's range.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub edited: Option<String>,
}

/// What restoring or applying saved decisions did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Restored {
    /// Hunks whose decision was set.
    pub applied: usize,
    /// Names that match no hunk of this review (the hunk changed or went away).
    pub unmatched: Vec<String>,
    /// Hunk ids whose saved acceptance is refused now (e.g. live memory changed there),
    /// with the reason; they are left rejected.
    pub refused: Vec<(String, Refusal)>,
}

/// Reads a decisions file; errors name the path and what is wrong.
pub fn read_file(path: &Path) -> Result<SavedDecisions> {
    let what = || format!("cannot read decisions file {}", path.display());
    crate::inputs::limits::DECISIONS.check(path, std::fs::metadata(path).with_context(what)?.len())?;
    let bytes = std::fs::read(path).with_context(|| format!("cannot read decisions file {}", path.display()))?;
    parse(&bytes).map_err(|e| anyhow!("{}: {e}", path.display()))
}

/// Parses a decisions file's bytes.
pub fn parse(bytes: &[u8]) -> Result<SavedDecisions> {
    let first = bytes.iter().find(|b| !b.is_ascii_whitespace());
    if first != Some(&b'{') {
        bail!("not a dreamreview decisions file: expected a JSON object {{\"hunks\": {{...}}}}");
    }
    let d: SavedDecisions = serde_json::from_slice(bytes).map_err(|e| {
        anyhow!(
            "not a dreamreview decisions file ({e}); expected {{\"hunks\": {{\"note.md#1\": \
             \"accepted\", ...}}}}"
        )
    })?;
    if d.version != 1 {
        bail!("decisions file version {} is not supported (this dreamreview reads version 1)", d.version);
    }
    Ok(d)
}

/// A line decision in the file's words (the hunk states' words).
fn word(d: Decision) -> HunkState {
    match d {
        Decision::Pending => HunkState::Pending,
        Decision::Accepted => HunkState::Accepted,
        Decision::Rejected => HunkState::Rejected,
    }
}

/// The line decision a word stands for; `partial` and `edited` stand for none.
fn decision(w: HunkState) -> Option<Decision> {
    match w {
        HunkState::Pending => Some(Decision::Pending),
        HunkState::Accepted => Some(Decision::Accepted),
        HunkState::Rejected => Some(Decision::Rejected),
        HunkState::Partial | HunkState::Edited => None,
    }
}

/// The review's current decisions in the file format, keyed by hunk key; pending hunks
/// are left out.
pub fn to_saved(review: &Review) -> SavedDecisions {
    let mut hunks = BTreeMap::new();
    for (at, d) in review.all_decisions() {
        if let Some(h) = review.hunk(at) {
            let state = d.state();
            if state == HunkState::Pending {
                continue;
            }
            let full = FullHunk {
                id: Some(h.id.clone()),
                decision: Some(state),
                lines: (state == HunkState::Partial || d.edited.is_some())
                    .then(|| d.lines.iter().copied().map(word).collect()),
                edited: d.edited.clone(),
            };
            hunks.insert(h.key.clone(), SavedHunk::Full(full));
        }
    }
    SavedDecisions { version: 1, dream_id: Some(review.dream_id.clone()), hunks }
}

/// Resolves a name (id with `#`, else key) to its hunk.
fn find(review: &Review, name: &str) -> Option<HunkId> {
    if name.contains('#') {
        return review.find_hunk(name);
    }
    review.hunk_ids().find(|&at| review.hunk(at).is_some_and(|h| h.key == name))
}

/// Turns a saved hunk into decisions for a hunk with `slots` changed lines.
fn to_decision(saved: &SavedHunk, slots: usize) -> Result<HunkDecision, String> {
    match saved {
        SavedHunk::Word(w) => match decision(*w) {
            Some(d) => Ok(HunkDecision { lines: vec![d; slots], edited: None }),
            None => Err("`partial` and `edited` need `lines` or `edited`".into()),
        },
        SavedHunk::Full(f) => {
            let lines = match (&f.lines, f.decision.and_then(decision)) {
                (Some(ls), _) => {
                    if ls.len() != slots {
                        return Err(format!("`lines` has {} entries but the hunk has {slots} changed lines", ls.len()));
                    }
                    ls.iter()
                        .map(|w| decision(*w).ok_or("`lines` takes accepted/rejected/pending"))
                        .collect::<Result<Vec<_>, _>>()?
                }
                (None, Some(d)) => vec![d; slots],
                (None, None) if f.edited.is_some() => vec![Decision::Pending; slots],
                (None, None) => {
                    return Err("needs `decision`, `lines` or `edited`".into());
                }
            };
            Ok(HunkDecision { lines, edited: f.edited.clone() })
        }
    }
}

/// Sets the review's decisions from `saved`. `strict` (for `apply --decisions`): a name
/// matching no hunk, or a malformed entry, is an error; otherwise such entries are
/// skipped and reported. Saved acceptances the review refuses now (a hunk that became
/// `live-changed`, a symlink) are left rejected and reported in `refused`. Does not touch
/// hunks the file does not name, and clears undo history only implicitly (no checkpoint).
pub fn apply_saved(review: &mut Review, saved: &SavedDecisions, strict: bool) -> Result<Restored> {
    let mut out = Restored::default();
    let mut errors = Vec::new();
    for (name, entry) in &saved.hunks {
        let Some(at) = find(review, name) else {
            out.unmatched.push(name.clone());
            continue;
        };
        let Some(h) = review.hunk(at) else {
            continue;
        };
        let (id, whole, slots) = (h.id.clone(), h.whole_file, h.slots());
        let mut d = match to_decision(entry, slots) {
            Ok(d) => d,
            Err(e) => {
                errors.push(format!("{name}: {e}"));
                continue;
            }
        };
        if d.edited.is_some() && (whole || review.blocked(at) == Some(Refusal::OutsideMemory)) {
            errors.push(format!("{name}: this hunk cannot be edited"));
            continue;
        }
        if let Some((line, marker)) = d.edited.as_deref().and_then(|t| h.conflict_marker(t)) {
            errors.push(format!("{name}: {}", Refusal::ConflictMarkers { line, marker }));
            continue;
        }
        if d.edited.is_none()
            && d.lines.contains(&Decision::Accepted)
            && let Some(r) = review.blocked(at)
        {
            out.refused.push((id, r));
            d.set_all(Decision::Rejected);
        }
        if let Some(slot) = review.decisions.get_mut(at) {
            *slot = d;
            out.applied += 1;
        }
    }
    if strict && (!errors.is_empty() || !out.unmatched.is_empty()) {
        let valid: Vec<String> = review.files.iter().flat_map(|f| f.hunks.iter().map(|h| h.id.clone())).collect();
        let mut msg = Vec::new();
        if !out.unmatched.is_empty() {
            msg.push(format!(
                "no hunk of this review is named {} (the hunks are: {})",
                out.unmatched.join(", "),
                if valid.is_empty() { "none".to_string() } else { valid.join(", ") }
            ));
        }
        msg.extend(errors);
        bail!("{}", msg.join("; "));
    }
    Ok(out)
}

/// The saved decisions that still mean something once `review` was committed: its
/// whole-hunk rejections (the accepted, partial and edited ones are in the commit).
pub fn rejections_only(review: &Review) -> SavedDecisions {
    let mut saved = to_saved(review);
    saved.hunks.retain(|_, h| match h {
        SavedHunk::Word(s) => *s == HunkState::Rejected,
        SavedHunk::Full(f) => f.decision == Some(HunkState::Rejected) && f.edited.is_none(),
    });
    saved
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn parses_every_documented_form() {
        let d = parse(
            br#"{"hunks": {"a.md#1": "accepted", "0123456789abcdef": {"id": "b.md#1", "decision": "rejected"},
                "c.md#1": {"edited": "x\n"}, "d.md#2": {"lines": ["accepted", "pending"]}}}"#,
        )
        .unwrap();
        assert_eq!(d.version, 1);
        assert_eq!(d.hunks["a.md#1"], SavedHunk::Word(HunkState::Accepted));
        assert_eq!(to_decision(&d.hunks["a.md#1"], 2).unwrap().lines, vec![Decision::Accepted; 2]);
        assert_eq!(to_decision(&d.hunks["0123456789abcdef"], 1).unwrap().lines, vec![Decision::Rejected]);
        let e = to_decision(&d.hunks["c.md#1"], 1).unwrap();
        assert_eq!(e.edited.as_deref(), Some("x\n"));
        assert_eq!(to_decision(&d.hunks["d.md#2"], 2).unwrap().lines, vec![Decision::Accepted, Decision::Pending]);
        assert!(to_decision(&d.hunks["d.md#2"], 3).is_err());
        assert!(parse(b"{\"version\": 2}").is_err());
        assert!(parse(b"[1]").is_err());
        let e = parse(br#"{"hunks": {"a.md#1": "maybe"}}"#).unwrap_err();
        assert!(format!("{e}").contains("not a dreamreview decisions file"), "{e}");
    }

    proptest! {
        #[test]
        fn parse_never_panics(bytes in proptest::collection::vec(any::<u8>(), 0..200)) {
            let _ = parse(&bytes);
        }

        #[test]
        fn parse_never_panics_on_json_like(s in "[{}\\[\\]\":,a-z#0-9 ]{0,80}") {
            let _ = parse(s.as_bytes());
        }
    }
}
