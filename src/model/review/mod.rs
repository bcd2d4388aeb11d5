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
use crate::model::decision::{Decision, HunkDecision};
use crate::model::diff::{self, FileDiff, Hunk};
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
    /// The time zone transcript timestamps are read in (see [`crate::base::zone`]): the
    /// machine's, else the memory repository's recent commit offset, else unknown;
    /// `--tz` replaces it ([`Review::set_zone`]).
    pub zone: crate::base::zone::Zone,
    /// The UTC offset of the memory repository's recent commits, read at load.
    pub commit_offset: Option<crate::base::zone::CommitOffset>,
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
        let exact =
            |fi: usize, f: &crate::model::diff::FileDiff| f.hunks.iter().position(|h| h.id == id).map(|hi| (fi, hi));
        if let Some(found) = self.files.iter().enumerate().find_map(|(fi, f)| exact(fi, f)) {
            return Some(found);
        }
        // A file named after a credential shows its hunk ids masked; take them back when
        // they name one hunk only.
        let mut masked = self.files.iter().enumerate().flat_map(|(fi, f)| {
            f.hunks
                .iter()
                .enumerate()
                .filter(|(_, h)| crate::base::secrets::mask(&h.id) == id)
                .map(move |(hi, _)| (fi, hi))
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

    /// (decided hunks, all hunks), by [`Review::tally`].
    pub fn progress(&self) -> (usize, usize) {
        let t = self.tally();
        (t.decided(), t.total())
    }

    /// How every hunk is decided ([`crate::model::decision::Tally`]: the one count every face shows).
    pub fn tally(&self) -> crate::model::decision::Tally {
        crate::model::decision::Tally::of(self.decisions.iter().flatten())
    }

    /// How file `file`'s hunks are decided.
    pub fn file_tally(&self, file: usize) -> crate::model::decision::Tally {
        crate::model::decision::Tally::of(self.file_decisions(file))
    }
}
