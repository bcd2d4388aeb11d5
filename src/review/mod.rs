//! The review model: the dream's file diffs next to live memory, the reviewer's decisions
//! (with undo/redo), and the resulting notes. The TUI and the CLI both drive this type.

pub mod history;
pub mod persist;

use crate::decision::{Decision, HunkDecision};
use crate::diff::{self, FileDiff, Hunk};
use crate::dream::{self, DreamKind, Inputs};
use crate::memdiff;
use crate::snapshot::{self, Entry, Snapshot};
use crate::target::Target;
use crate::text::as_text;
use anyhow::{Context, Result, anyhow};
use history::{MemoryHistory, Reviewed};
use sha2::{Digest, Sha256};
use std::collections::BTreeSet;

/// Why a decision was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// The hunk overlaps an edit made to live after the dream's base: edit it instead.
    LiveChanged,
    /// The file would be written outside the memory folder or through a symlink.
    OutsideMemory,
    /// No such file, hunk or line.
    NoSuchTarget,
    /// The reviewer's merge of a `live_changed` hunk still holds a conflict marker: its
    /// line (1-based in the text) and the marker.
    ConflictMarkers {
        /// 1-based line of the text.
        line: usize,
        /// The marker line.
        marker: String,
    },
}

impl Refusal {
    /// The refusal with what to do about it in the TUI (its keys).
    pub fn in_tui(&self) -> String {
        match self {
            Refusal::LiveChanged => format!("{self} (e: merge)"),
            // The key first: a narrow status bar cuts the end.
            Refusal::ConflictMarkers { .. } => format!("e reopens it — {self}"),
            _ => self.to_string(),
        }
    }

    /// The refusal with what to do about it on the command line (its options, no keys).
    pub fn in_cli(&self) -> String {
        match self {
            Refusal::LiveChanged => {
                format!("{self}: give its merged text in --decisions FILE (\"edited\"), or merge it in the review TUI")
            }
            _ => self.to_string(),
        }
    }
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if let Refusal::ConflictMarkers { line, marker } = self {
            return write!(
                f,
                "merge not saved: line {line} is still a conflict marker ({}); keep the lines you want and \
                 delete every <<<<<<<, ======= and >>>>>>> line",
                crate::secrets::mask(marker)
            );
        }
        f.write_str(match self {
            Refusal::ConflictMarkers { .. } => "",
            Refusal::LiveChanged => "live memory changed here after the dream: only a merge can take it",
            Refusal::OutsideMemory => "this change would write outside the memory folder: it can never be accepted",
            Refusal::NoSuchTarget => "no such hunk or line",
        })
    }
}

/// A loaded review: inputs, snapshots, diffs and decisions.
#[derive(Clone, Debug)]
pub struct Review {
    /// Where the inputs came from.
    pub inputs: Inputs,
    /// The live memory folder as a write target: how it was found and whether the
    /// review may be committed there (see [`crate::target`]).
    pub target: Target,
    /// Live memory as loaded (for an in-place dream: `HEAD`).
    pub live: Snapshot,
    /// Changed files, sorted by path.
    pub files: Vec<FileDiff>,
    /// Decisions, `decisions[file][hunk]`.
    pub decisions: Vec<Vec<HunkDecision>>,
    /// Things the reviewer should know about the inputs (e.g. a stale memory.diff).
    pub notes: Vec<String>,
    /// Hash of the dream's content: proposal, CHANGES.md and memory.diff.
    pub dream_id: String,
    /// The newest review commit of this dream reachable from `HEAD` (read once at load;
    /// `None` without a repository or such a commit).
    pub reviewed: Option<Reviewed>,
    /// `HEAD` of the memory repository when the review was loaded (read before anything
    /// else); `None` without a repository or before its first commit. A commit refuses
    /// when `HEAD` moved since (another dreamreview committed meanwhile).
    pub loaded_head: Option<String>,
    /// The time zone transcript timestamps are read in (see [`crate::zone`]): the
    /// machine's, else the memory repository's recent commit offset, else unknown;
    /// `--tz` replaces it ([`Review::set_zone`]).
    pub zone: crate::zone::Zone,
    /// The UTC offset of the memory repository's recent commits, read at load.
    pub commit_offset: Option<crate::zone::CommitOffset>,
    undo: Vec<Vec<Vec<HunkDecision>>>,
    redo: Vec<Vec<Vec<HunkDecision>>>,
}

impl Review {
    /// Loads the snapshots named by `inputs` and diffs them; `history` is what the memory
    /// folder's repository says (its `HEAD`, whether this dream was reviewed already).
    pub fn load(inputs: Inputs, history: &dyn MemoryHistory) -> Result<Review> {
        let loaded_head = history.head();
        let target = Target::assess_here(&inputs.memory, inputs.origin, |_| history.holds_reviews());
        let mut notes = Vec::new();
        let (live, proposed) = match inputs.kind {
            DreamKind::InPlace => {
                let head = history.head_notes()?.ok_or_else(|| {
                    anyhow!(
                        "{} is not in a git repository, so there is no HEAD to review an in-place \
                         dream against; pass the dream folder, or run `dreamreview apply --init` \
                         first",
                        inputs.memory.display()
                    )
                })?;
                (head, snapshot::read_folder(&inputs.memory)?)
            }
            _ => {
                let live = snapshot::read_folder(&inputs.memory)?;
                let dir = inputs.proposed.as_ref().ok_or_else(|| anyhow!("no proposal folder"))?;
                let mut proposed = snapshot::read_folder(dir)?;
                if inputs.kind == DreamKind::PlainFolder {
                    for name in dream::METADATA_FILES {
                        proposed.remove(*name);
                    }
                }
                if proposed.is_empty() {
                    anyhow::bail!(
                        "{} holds no notes; a dream that deletes every note is not reviewable — \
                         check that the dream run finished",
                        dir.display()
                    );
                }
                (live, proposed)
            }
        };
        let mut outside = Vec::new();
        let dream_id = dream_id(&inputs, &proposed, &live)?;
        let reviewed = history.reviewed(&dream_id);
        let commit_offset = history.commit_offset();
        let base = match &inputs.memory_diff {
            Some(path) => {
                let mut base = base_from_diff(path, &live, &proposed, &mut outside, &mut notes)?;
                if let Some(r) = &reviewed {
                    rebase_on_review(&history.changed_by(&r.id), &live, &mut base);
                }
                base
            }
            None => live.clone(),
        };
        let paths: BTreeSet<&String> = base.keys().chain(live.keys()).chain(proposed.keys()).collect();
        let mut files: Vec<FileDiff> =
            paths.into_iter().filter_map(|p| diff::diff_file(p, base.get(p), live.get(p), proposed.get(p))).collect();
        files.extend(outside);
        let decisions =
            files.iter().map(|f| f.hunks.iter().map(|h| HunkDecision::pending(h.slots())).collect()).collect();
        Ok(Review {
            inputs,
            target,
            live,
            files,
            decisions,
            notes,
            dream_id,
            reviewed,
            loaded_head,
            zone: crate::zone::Zone::choose(None, crate::zone::Zone::machine(), commit_offset),
            commit_offset,
            undo: Vec::new(),
            redo: Vec::new(),
        })
    }

    /// Reads transcript timestamps in `zone` (`--tz`) instead of the zone chosen at load.
    pub fn set_zone(&mut self, zone: crate::zone::Zone) {
        self.zone = zone;
    }

    /// A review of other diffs sharing these inputs, every hunk pending: a commit's diff in
    /// the history view, shown with the same diff view and never written.
    pub fn read_only(&self, files: Vec<FileDiff>) -> Review {
        let decisions =
            files.iter().map(|f| f.hunks.iter().map(|h| HunkDecision::pending(h.slots())).collect()).collect();
        Review {
            inputs: self.inputs.clone(),
            target: self.target.clone(),
            live: Snapshot::new(),
            files,
            decisions,
            notes: Vec::new(),
            dream_id: self.dream_id.clone(),
            reviewed: None,
            loaded_head: None,
            zone: self.zone.clone(),
            commit_offset: self.commit_offset,
            undo: Vec::new(),
            redo: Vec::new(),
        }
    }

    /// Finds a hunk by id (`testing.md#1`), as `(file, hunk)` indexes; also by the masked id
    /// that outputs show for a file named after a credential (`[stripe-key …abcd].md#1`).
    pub fn find_hunk(&self, id: &str) -> Option<(usize, usize)> {
        let exact = |fi: usize, f: &crate::diff::FileDiff| f.hunks.iter().position(|h| h.id == id).map(|hi| (fi, hi));
        if let Some(found) = self.files.iter().enumerate().find_map(|(fi, f)| exact(fi, f)) {
            return Some(found);
        }
        // A file named after a credential shows its hunk ids masked; take them back when
        // they name one hunk only.
        let mut masked = self.files.iter().enumerate().flat_map(|(fi, f)| {
            f.hunks.iter().enumerate().filter(|(_, h)| crate::secrets::mask(&h.id) == id).map(move |(hi, _)| (fi, hi))
        });
        let first = masked.next()?;
        masked.next().is_none().then_some(first)
    }

    /// The decision on hunk `hunk` of file `file`.
    pub fn decision(&self, file: usize, hunk: usize) -> Option<&HunkDecision> {
        self.decisions.get(file)?.get(hunk)
    }

    /// The decisions on file `file`'s hunks, in order (empty for an unknown file).
    pub fn file_decisions(&self, file: usize) -> &[HunkDecision] {
        self.decisions.get(file).map(Vec::as_slice).unwrap_or_default()
    }

    /// Every decision with its (file, hunk) indexes, in review order.
    pub fn all_decisions(&self) -> impl Iterator<Item = (usize, usize, &HunkDecision)> {
        self.decisions.iter().enumerate().flat_map(|(fi, v)| v.iter().enumerate().map(move |(hi, d)| (fi, hi, d)))
    }

    /// The hunk at `(file, hunk)`.
    pub fn hunk(&self, file: usize, hunk: usize) -> Option<&Hunk> {
        self.files.get(file)?.hunks.get(hunk)
    }

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
            .filter(|&h| !self.decisions[file][h].is_decided())
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

    /// `reviewed in 41fd1fa: 1 accepted, 5 rejected, 1 edited`, for a reviewed dream.
    pub fn reviewed_banner(&self) -> Option<String> {
        let e = self.reviewed.as_ref()?;
        Some(match e.counts {
            Some((accepted, rejected, edited)) => {
                format!("reviewed in {}: {accepted} accepted, {rejected} rejected, {edited} edited", e.short)
            }
            None => format!("reviewed in {} ({})", e.short, e.summary),
        })
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

    /// The entry a changed file gets from the current decisions (`None`: it is deleted).
    pub fn result(&self, file: usize) -> Option<Entry> {
        let f = self.files.get(file)?;
        diff::result(f, &self.decisions[file])
    }

    /// The whole memory folder after the current decisions: live with every changed file
    /// replaced by its result.
    pub fn result_snapshot(&self) -> Snapshot {
        let mut out = self.live.clone();
        for (fi, f) in self.files.iter().enumerate().filter(|(_, f)| f.kind.writable()) {
            match self.result(fi) {
                Some(e) => out.insert(f.path.clone(), e),
                None => out.remove(&f.path),
            };
        }
        out
    }

    /// True when some hunk is accepted (wholly, line by line or edited): the review asks
    /// for something to be written.
    pub fn accepts_anything(&self) -> bool {
        self.decisions.iter().flatten().any(|d| d.edited.is_some() || d.lines.contains(&Decision::Accepted))
    }

    /// (decided hunks, all hunks).
    pub fn progress(&self) -> (usize, usize) {
        let all = self.decisions.iter().flatten();
        let total = all.clone().count();
        (all.filter(|d| d.is_decided()).count(), total)
    }
}

/// Recovers the base the dream saw from memory.diff (`docs/review-model.md`): each file the diff
/// names gets its old side back from the proposal; files it does not name were unchanged
/// by the dream, so their base is the proposal itself.
fn base_from_diff(
    path: &std::path::Path,
    live: &Snapshot,
    proposed: &Snapshot,
    outside: &mut Vec<FileDiff>,
    notes: &mut Vec<String>,
) -> Result<Snapshot> {
    let text = dream::read_diff(path)?;
    let files = memdiff::parse(&text).map_err(|e| anyhow!("{}: {e}; {}", path.display(), dream::REGENERATE))?;
    let Some(layout) = memdiff::layout(&files, proposed) else {
        return Ok(live.clone());
    };
    let mut base: Snapshot = proposed.clone();
    for (f, rel) in files.iter().zip(&layout.paths) {
        let rel = match rel {
            Ok(r) => r.clone(),
            Err(raw) => {
                outside.push(diff::outside_file(raw, f));
                continue;
            }
        };
        if f.binary {
            // Contents unknown: the best base is live.
            set(&mut base, &rel, live.get(&rel).cloned());
            continue;
        }
        let new_text = match proposed.get(&rel) {
            Some(e) => e.bytes().and_then(as_text).map(str::to_string),
            None if f.new_absent => Some(String::new()),
            None => None,
        };
        let recovered = new_text.as_deref().and_then(|t| memdiff::reverse_apply(t, &f.hunks));
        match recovered {
            Some(_) if f.old_absent => {
                base.remove(&rel);
            }
            Some(old) => {
                base.insert(rel, Entry::File(old.into_bytes()));
            }
            None => {
                notes.push(format!(
                    "{}: memory.diff does not match the proposal for {rel}; comparing it with live memory as it is now",
                    path.display()
                ));
                set(&mut base, &rel, live.get(&rel).cloned());
            }
        }
    }
    Ok(base)
}

fn set(s: &mut Snapshot, k: &str, v: Option<Entry>) {
    match v {
        Some(e) => s.insert(k.to_string(), e),
        None => s.remove(k),
    };
}

/// The notes the dream's last review commit (`entry`) wrote and nobody changed since take
/// their reviewed text as the base: what is left of the dream after a commit (the rejected
/// lines) is then shown as pending, not as `live-changed` — the review's own decisions are
/// no session's edit. A note changed after the review (a session's edit, a revert) keeps
/// the base the dream saw. Best effort: a commit that cannot be read changes nothing.
fn rebase_on_review(changed: &[history::Changed], live: &Snapshot, base: &mut Snapshot) {
    for (path, before, after) in changed {
        if before == after || live.get(path) != after.as_ref() {
            continue;
        }
        match after {
            Some(e) => base.insert(path.clone(), e.clone()),
            None => base.remove(path),
        };
    }
}

fn dream_id(inputs: &Inputs, proposed: &Snapshot, live: &Snapshot) -> Result<String> {
    let mut h = Sha256::new();
    let mut feed = |tag: &str, bytes: &[u8]| {
        h.update(tag.as_bytes());
        h.update((bytes.len() as u64).to_le_bytes());
        h.update(bytes);
    };
    let hash_snap = |feed: &mut dyn FnMut(&str, &[u8]), s: &Snapshot| {
        for (k, e) in s {
            feed("path", k.as_bytes());
            match e {
                Entry::File(b) => feed("file", b),
                Entry::Symlink(t) => feed("link", t.as_os_str().as_encoded_bytes()),
            }
        }
    };
    hash_snap(&mut feed, proposed);
    if inputs.kind == DreamKind::InPlace {
        hash_snap(&mut feed, live);
    }
    for p in [&inputs.changes_md, &inputs.memory_diff].into_iter().flatten() {
        let bytes = std::fs::read(p).with_context(|| format!("cannot read {}", p.display()))?;
        feed("meta", &bytes);
    }
    Ok(h.finalize().iter().take(12).map(|b| format!("{b:02x}")).collect())
}
