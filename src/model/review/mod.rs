//! The review model: the dream's file diffs next to live memory, the reviewer's decisions
//! (with undo/redo), and the resulting notes. The TUI and the CLI both drive this type.

mod base;
mod decide;
pub mod history;
pub mod persist;
mod refusal;

use base::{base_from_diff, dream_id, rebase_on_review};
pub use refusal::Refusal;

use crate::inputs::dream::{self, DreamKind, Inputs};
use crate::inputs::snapshot::{self, Entry, Snapshot};
use crate::inputs::target::Target;
use crate::model::decision::HunkDecision;
use crate::model::diff::{self, FileDiff, Hunk};
use crate::model::ids::{HunkId, PerHunk};
use anyhow::{Result, anyhow};
use history::{MemoryHistory, Reviewed};
use std::collections::BTreeSet;

/// A loaded review: inputs, snapshots, diffs and decisions.
#[derive(Clone, Debug)]
pub struct Review {
    /// Where the inputs came from.
    pub inputs: Inputs,
    /// The live memory folder as a write target: how it was found and whether the
    /// review may be committed there (see [`crate::inputs::target`]).
    pub target: Target,
    /// Live memory as loaded (for an in-place dream: `HEAD`).
    pub live: Snapshot,
    /// Changed files, sorted by path.
    pub files: Vec<FileDiff>,
    /// The decision on every hunk.
    pub decisions: PerHunk<HunkDecision>,
    /// Things the reviewer should know about the inputs (e.g. a stale memory.diff).
    pub notices: Vec<String>,
    /// Hash of the dream's content: proposal, CHANGES.md and memory.diff.
    pub dream_id: String,
    /// The newest review commit of this dream reachable from `HEAD` (read once at load;
    /// `None` without a repository or such a commit).
    pub reviewed: Option<Reviewed>,
    /// `HEAD` of the memory repository when the review was loaded (read before anything
    /// else); `None` without a repository or before its first commit. A commit refuses
    /// when `HEAD` moved since (another dreamreview committed meanwhile).
    pub loaded_head: Option<String>,
    /// The time zone transcript timestamps are read in (see [`crate::base::zone`]): the
    /// machine's, else the memory repository's recent commit offset, else unknown;
    /// `--tz` replaces it ([`Review::set_zone`]).
    pub zone: crate::base::zone::Zone,
    /// The UTC offset of the memory repository's recent commits, read at load.
    pub commit_offset: Option<crate::base::zone::CommitOffset>,
    undo: Vec<PerHunk<HunkDecision>>,
    redo: Vec<PerHunk<HunkDecision>>,
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
                        "{0} is not in a git repository, so there is no HEAD (the notes as they \
                         were before the dream) to review an in-place dream against; pass the dream \
                         folder to review its proposal, and make the folder a repository before the \
                         next dream runs: git -C {0} init && git -C {0} add -A && git -C {0} commit -m notes",
                        inputs.memory.display()
                    )
                })?;
                crate::inputs::limits::check_folder(&inputs.memory)?;
                (head, snapshot::read_folder(&inputs.memory)?)
            }
            _ => {
                let dir = inputs.proposed.as_ref().ok_or_else(|| anyhow!("no proposal folder"))?;
                // Sizes first: nothing is read when one note is past its limit.
                crate::inputs::limits::check_folder(&inputs.memory)?;
                crate::inputs::limits::check_folder(dir)?;
                let live = snapshot::read_folder(&inputs.memory)?;
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
        let decisions = pending(&files);
        Ok(Review {
            inputs,
            target,
            live,
            files,
            decisions,
            notices: notes,
            dream_id,
            reviewed,
            loaded_head,
            zone: crate::base::zone::Zone::choose(None, crate::base::zone::Zone::machine(), commit_offset),
            commit_offset,
            undo: Vec::new(),
            redo: Vec::new(),
        })
    }

    /// Reads transcript timestamps in `zone` (`--tz`) instead of the zone chosen at load.
    pub fn set_zone(&mut self, zone: crate::base::zone::Zone) {
        self.zone = zone;
    }

    /// A review of other diffs sharing these inputs, every hunk pending: a commit's diff in
    /// the history view, shown with the same diff view and never written.
    pub fn read_only(&self, files: Vec<FileDiff>) -> Review {
        let decisions = pending(&files);
        Review {
            inputs: self.inputs.clone(),
            target: self.target.clone(),
            live: Snapshot::new(),
            files,
            decisions,
            notices: Vec::new(),
            dream_id: self.dream_id.clone(),
            reviewed: None,
            loaded_head: None,
            zone: self.zone.clone(),
            commit_offset: self.commit_offset,
            undo: Vec::new(),
            redo: Vec::new(),
        }
    }

    /// Finds a hunk by its textual id (`testing.md#1`); also by the masked id that outputs
    /// show for a file named after a credential (`[stripe-key …abcd].md#1`).
    pub fn find_hunk(&self, id: &str) -> Option<HunkId> {
        if let Some(found) = self.hunk_ids().find(|&at| at.name(&self.files) == Some(id)) {
            return Some(found);
        }
        // A file named after a credential shows its hunk ids masked; take them back when
        // they name one hunk only.
        let mut masked = self
            .hunk_ids()
            .filter(|&at| at.name(&self.files).is_some_and(|name| crate::base::secrets::mask(name) == id));
        let first = masked.next()?;
        masked.next().is_none().then_some(first)
    }

    /// Every hunk's id, in review order.
    pub fn hunk_ids(&self) -> impl Iterator<Item = HunkId> + '_ {
        self.decisions.iter().map(|(id, _)| id)
    }

    /// The ids of file `file`'s hunks, in order (none for an unknown file).
    pub fn hunks_of(&self, file: usize) -> impl Iterator<Item = HunkId> + use<> {
        let n = self.files.get(file).map_or(0, |f| f.hunks.len());
        (0..n).map(move |hi| HunkId::new(file, hi))
    }

    /// The decision on hunk `id`.
    pub fn decision(&self, id: HunkId) -> Option<&HunkDecision> {
        self.decisions.get(id)
    }

    /// The decisions on file `file`'s hunks, in order (empty for an unknown file).
    pub fn file_decisions(&self, file: usize) -> &[HunkDecision] {
        self.decisions.file(file)
    }

    /// Every decision with its hunk's id, in review order.
    pub fn all_decisions(&self) -> impl Iterator<Item = (HunkId, &HunkDecision)> {
        self.decisions.iter()
    }

    /// The hunk `id`.
    pub fn hunk(&self, id: HunkId) -> Option<&Hunk> {
        self.files.get(id.file)?.hunks.get(id.hunk)
    }

    /// The entry a changed file gets from the current decisions (`None`: it is deleted).
    pub fn result(&self, file: usize) -> Option<Entry> {
        let f = self.files.get(file)?;
        diff::result(f, self.decisions.file(file))
    }

    /// The whole memory folder after the current decisions: live with every changed file
    /// replaced by its result.
    pub fn result_snapshot(&self) -> Snapshot {
        self.snapshot_with(&self.decisions)
    }

    /// The whole memory folder `decisions` (shaped like this review's) would make: live
    /// with every writable changed file replaced by its result ([`diff::result`], the one
    /// place a note's new bytes are computed).
    pub fn snapshot_with(&self, decisions: &PerHunk<HunkDecision>) -> Snapshot {
        let mut out = self.live.clone();
        for (fi, f) in self.files.iter().enumerate().filter(|(_, f)| f.kind.writable()) {
            match diff::result(f, decisions.file(fi)) {
                Some(e) => out.insert(f.path.clone(), e),
                None => out.remove(&f.path),
            };
        }
        out
    }

    /// True when some hunk is accepted (wholly, line by line or edited): the review asks
    /// for something to be written.
    pub fn accepts_anything(&self) -> bool {
        self.decisions.values().any(|d| d.outcome().takes())
    }

    /// (decided hunks, all hunks), by [`Review::tally`].
    pub fn progress(&self) -> (usize, usize) {
        let t = self.tally();
        (t.decided(), t.total())
    }

    /// How every hunk is decided ([`crate::model::decision::Tally`]: the one count every face shows).
    pub fn tally(&self) -> crate::model::decision::Tally {
        crate::model::decision::Tally::of(self.decisions.values())
    }

    /// How file `file`'s hunks are decided.
    pub fn file_tally(&self, file: usize) -> crate::model::decision::Tally {
        crate::model::decision::Tally::of(self.file_decisions(file))
    }
}

/// Every hunk of `files` pending.
fn pending(files: &[FileDiff]) -> PerHunk<HunkDecision> {
    PerHunk::build(files, |_, h| HunkDecision::pending(h.slots()))
}
