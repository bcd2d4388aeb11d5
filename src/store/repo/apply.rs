//! Committing a review: what the decisions write, the message (previewable before
//! committing), a snapshot commit of uncommitted memory changes first, then the review
//! commit of exactly the memory paths. The TUI's commit key and `dreamreview apply` both
//! end here, so the same decisions give the same tree.
//!
//! Drift: when a session edited live memory after the dream ran, those edits are part of
//! the uncommitted work tree; the snapshot commit records them on their own, so the review
//! commit holds only what the reviewer took from the dream (and the three-way diff has
//! already kept them: see `diff`).
//!
//! In-place dreams are special: the dream *is* the uncommitted work tree (reviewed against
//! `HEAD`), so no snapshot commit is made — it would commit the unreviewed dream. Every
//! path the review covers is written back from the decisions (a rejected hunk restores
//! the `HEAD` side) and committed.

use super::commit::{self, Change};
use super::lock::RepoLock;
use super::message::{self, Fate, HunkFate, ReviewCounts};
use super::recover;
use super::{MemoryRepo, write};
use crate::analysis::result::Analysis;
use crate::inputs::dream::DreamKind;
use crate::model::decision::Outcome;
use crate::model::diff::FileKind;
use crate::model::ids::HunkId;
use crate::model::review::{Refusal, Review};
use anyhow::{Result, bail};
use git2::Oid;
use std::path::PathBuf;

/// A hunk (or a path the dream names outside memory) that was accepted but cannot be
/// written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Skipped {
    /// Hunk id (`deploy.md#1`) or the raw outside path.
    pub id: String,
    /// Why, in one sentence.
    pub reason: String,
}

/// Everything a review commit will do, computed without writing: the TUI shows
/// `message` before committing.
#[derive(Clone, Debug)]
pub struct Plan {
    /// The summary line.
    pub summary: String,
    /// The full commit message (summary, hunks, trailers), secrets masked.
    pub message: String,
    /// The `Review:` counts.
    pub counts: ReviewCounts,
    /// Every hunk and what becomes of it.
    pub fates: Vec<HunkFate>,
    /// The memory paths the commit changes (disk side → committed side).
    pub changes: Vec<Change>,
    /// Accepted hunks that cannot be written, and outside paths.
    pub skipped: Vec<Skipped>,
    /// The flags standing on what the commit takes
    /// ([`crate::analysis::standing::commit_flags`]): the message lists them, the evidence
    /// keeps them, the preview opens with them, `apply --allow` is checked against them.
    pub standing: Vec<crate::analysis::standing::StandingFlag>,
    /// True when uncommitted memory changes will first be committed as
    /// [`message::SNAPSHOT_SUMMARY`].
    pub snapshot_first: bool,
    /// For an in-place dream: what rejecting the work tree's edits puts back from `HEAD`
    /// (`restored memory/x.md lines 4–9 from HEAD`), one per rejected hunk of a note the
    /// commit writes back. Said when committing: the reviewer's file changes on disk.
    pub restored: Vec<String>,
    /// Set when the commit would record nothing new ([`NothingNew`]): it takes no change
    /// and the history already holds a review of this dream. `commit_review` refuses it.
    pub nothing_new: Option<NothingNew>,
}

/// A review commit that would record nothing new: the decisions take no change, and a
/// review commit of this dream already records every hunk left out (a reviewed dream
/// reopened, or `apply --again` deciding the same). Refused, never an error: `apply`
/// exits 0 and the TUI says so. A dream's first review that rejects everything is still
/// recorded: that commit is what keeps the dream reviewed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NothingNew {
    /// The review commit that already records it (short id).
    pub reviewed: String,
}

impl std::fmt::Display for NothingNew {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "nothing new to commit: these decisions change no note, and review {} already records \
             every change they leave out",
            self.reviewed
        )
    }
}

impl std::error::Error for NothingNew {}

/// What a review commit did.
#[derive(Clone, Debug)]
pub struct Applied {
    /// The review commit.
    pub commit: Oid,
    /// Its summary line.
    pub summary: String,
    /// Its full message.
    pub message: String,
    /// The snapshot commit made first, if any.
    pub snapshot: Option<Oid>,
    /// Accepted hunks that were not written.
    pub skipped: Vec<Skipped>,
    /// Memory paths written on disk.
    pub written: Vec<String>,
    /// What an in-place review's rejections put back from `HEAD` ([`Plan::restored`]).
    pub restored: Vec<String>,
    /// What journal recovery did first, if an earlier run had crashed.
    pub recovered: Option<String>,
    /// Why the evidence note could not be attached, if it could not (the commit stands,
    /// its message still names every citation, and the note waits to be written).
    pub note_failed: Option<String>,
    /// Commits another program made while the notes were written, which the review commit
    /// was placed after (they touched other paths).
    pub rebased_on: Vec<String>,
    /// Bytes another process wrote into a note's old file after it was replaced, kept and
    /// reported ([`super::replaced`]).
    pub strays: Vec<super::replaced::Stray>,
}

/// Folders a review must never write: the dream folder, its proposal, and transcript
/// folders (`--sources`) that do not hold the memory folder itself.
pub fn forbidden(review: &Review) -> Vec<PathBuf> {
    let memory = review.inputs.memory.canonicalize().unwrap_or_else(|_| review.inputs.memory.clone());
    let mut out: Vec<PathBuf> =
        [&review.inputs.dream, &review.inputs.proposed].into_iter().flatten().cloned().collect();
    for s in &review.inputs.sources {
        let c = s.canonicalize().unwrap_or_else(|_| s.clone());
        if !memory.starts_with(&c) {
            out.push(c);
        }
    }
    out
}

/// Paths `memory.diff` names outside the memory folder (shown, never written).
pub fn outside_paths(review: &Review) -> Vec<String> {
    review.files.iter().filter(|f| f.kind == FileKind::Outside).map(|f| f.path.clone()).collect()
}

/// Computes what committing `review` would do (no writes; reads the disk to check paths).
pub fn plan(repo: &MemoryRepo, review: &Review, analysis: &Analysis) -> Result<Plan> {
    let in_place = review.inputs.kind == DreamKind::InPlace;
    let forbidden = forbidden(review);
    let mut fates = Vec::new();
    let mut changes = Vec::new();
    // Whether the commit's tree would differ from HEAD's notes (an in-place reject writes
    // the HEAD side back to disk: no change to the history).
    let mut changes_notes = false;
    for (fi, f) in review.files.iter().enumerate() {
        let result = review.result(fi);
        let expected = if in_place { f.proposed.clone() } else { f.live.clone() };
        let unsafe_reason = if f.kind == FileKind::Outside {
            Some(format!("{} is outside the memory folder; never written", f.path))
        } else if f.kind == FileKind::Symlink {
            Some(format!("{} is a symlink on one side; dreamreview never writes symlinks", f.path))
        } else if result != expected {
            super::paths::target(&repo.memory, &f.path, &forbidden).err()
        } else {
            None
        };
        for (at, h) in review.hunks_of(fi).zip(&f.hunks) {
            let Some(d) = review.decision(at) else {
                continue;
            };
            // What the decisions take ([`Review::takes`]), unless the note cannot be written.
            let fate = match (d.outcome(), &unsafe_reason, review.takes(at, d)) {
                (Outcome::Pending, ..) => Fate::Pending,
                (Outcome::Rejected, ..) => Fate::Rejected,
                (_, Some(why), _) => Fate::Skipped(why.clone()),
                (_, None, None) => Fate::Skipped(review.blocked(at).unwrap_or(Refusal::LiveChanged).to_string()),
                (_, None, Some(taken)) => Fate::of(taken),
            };
            fates.push(HunkFate { at, id: h.id.clone(), fate });
        }
        if unsafe_reason.is_some() {
            continue;
        }
        if result != expected || result != f.live {
            changes_notes |= result != f.live;
            changes.push(Change { path: f.path.clone(), disk: expected, new: result });
        }
    }
    let mut skipped: Vec<Skipped> = fates
        .iter()
        .filter_map(|f| match &f.fate {
            Fate::Skipped(why) => Some(Skipped { id: f.id.clone(), reason: why.clone() }),
            _ => None,
        })
        .collect();
    let outside = outside_paths(review);
    skipped.extend(
        outside
            .iter()
            .map(|p| Skipped { id: p.clone(), reason: "names a path outside the memory folder; never written".into() }),
    );
    let counts = message::counts(&fates);
    let snapshot_first = !in_place && !commit::uncommitted(repo, &forbidden)?.is_empty();
    let taken: Vec<HunkId> = taken(&fates).iter().map(|&(at, _)| at).collect();
    let standing = crate::analysis::standing::commit_flags(review, analysis, &taken);
    let restored = if in_place { restored_from_head(review, &fates, &changes) } else { Vec::new() };
    let nothing_new = match &review.reviewed {
        Some(r) if !changes_notes => Some(NothingNew { reviewed: r.short.clone() }),
        _ => None,
    };
    Ok(Plan {
        summary: message::review_summary(review, &counts),
        message: message::review_message(review, analysis, &fates, &standing, &outside),
        counts,
        fates,
        changes,
        skipped,
        standing,
        snapshot_first,
        restored,
        nothing_new,
    })
}

/// The error when hunks were accepted but none of them can be written (all outside memory,
/// symlinks, or `live-changed` and unedited): a review commit would record a review that
/// changed nothing the reviewer asked for, so none is made.
pub fn nothing_writable(skipped: &[Skipped]) -> anyhow::Error {
    let list: Vec<String> =
        skipped.iter().map(|s| format!("{} ({})", message::one_line(&s.id), message::one_line(&s.reason))).collect();
    anyhow::anyhow!(
        "nothing was committed: no accepted change can be written: {}. Reject them, or edit a \
         live-changed hunk to merge it, then commit again",
        list.join("; ")
    )
}

/// `HEAD` moved since the review was loaded: another dreamreview (the CLI while the TUI is
/// open, a second TUI) committed meanwhile, so these decisions were made on a review that no
/// longer describes the notes. Nothing is written; the caller reloads.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HeadMoved {
    /// `HEAD` when the review was loaded (short id).
    pub loaded: String,
    /// `HEAD` now (short id) and its summary line.
    pub now: String,
}

impl std::fmt::Display for HeadMoved {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "the memory repository moved on since this review was loaded ({} → {}); nothing was \
             written. Reload the review (saved decisions are restored) and commit again",
            self.loaded, self.now
        )
    }
}

impl std::error::Error for HeadMoved {}

/// True when a commit of dreamreview (a review, a revert, a snapshot) is among those from
/// `base` (excluded) to `now`, first parents only: another dreamreview wrote meanwhile, so
/// this review may record a decision already recorded. Unknown history counts as true.
fn reviewed_since(base: Oid, now: &git2::Commit<'_>) -> bool {
    let mut cur = Some(now.clone());
    for _ in 0..1000 {
        let Some(c) = cur else { return true };
        if c.id() == base {
            return false;
        }
        let text = String::from_utf8_lossy(c.message_bytes()).into_owned();
        if text.contains("\nDream-Id: ") || text.contains("\nReverts: ") || text.starts_with(message::SNAPSHOT_SUMMARY)
        {
            return true;
        }
        cur = c.parent(0).ok();
    }
    true
}

/// Fails with [`HeadMoved`] when `HEAD` is not the commit the review was loaded on, unless
/// the commits that moved it build on it and touched none of the review's notes (a sync
/// tool committing other files meanwhile): the review still describes the notes then.
fn head_unmoved(repo: &MemoryRepo, review: &Review) -> Result<()> {
    let Some(loaded) = &review.loaded_head else { return Ok(()) };
    let head = repo.head_commit()?;
    if head.as_ref().is_some_and(|c| c.id().to_string() == *loaded) {
        return Ok(());
    }
    if let (Some(now), Ok(base)) = (&head, Oid::from_str(loaded)) {
        let paths: Vec<String> = review.files.iter().map(|f| repo.repo_path(&f.path)).collect();
        if !reviewed_since(base, now) && super::land::disjoint(repo, Some(base), now.id(), &paths).is_ok() {
            return Ok(());
        }
    }
    let now = match &head {
        Some(c) => format!(
            "{} {}",
            super::short_id(c.id()),
            message::one_line(c.message().unwrap_or_default().lines().next().unwrap_or_default())
        ),
        None => "no commit".to_string(),
    };
    let loaded = Oid::from_str(loaded).map(super::short_id).unwrap_or_else(|_| loaded.clone());
    Err(anyhow::Error::new(HeadMoved { loaded, now }))
}

/// Commits the review to a folder it may write (see [`crate::inputs::target`]): recovers an
/// interrupted earlier write, checks live memory did not
/// move since the review was loaded and that no note to write is read-only (else nothing
/// is written), commits uncommitted memory
/// changes as a snapshot first (not for in-place dreams), writes every changed note
/// atomically and commits exactly the memory paths. `lock` must be this repository's.
/// A review with no hunk at all is an error (nothing to record); one that records nothing
/// new is refused with [`NothingNew`] (see there).
pub fn commit_review(repo: &MemoryRepo, review: &Review, analysis: &Analysis, lock: &RepoLock) -> Result<Applied> {
    commit_review_as(repo, review, analysis, lock, None)
}

/// A message the reviewer edited (`C` in the TUI): `made_from` is the generated message
/// they edited, `message` what the commit takes instead ([`message::edited_message`]: the
/// same trailers). Taken only while the decisions still give `made_from`.
#[derive(Clone, Copy, Debug)]
pub struct EditedMessage<'a> {
    /// The generated message the reviewer started from.
    pub made_from: &'a str,
    /// The message to commit.
    pub message: &'a str,
}

/// [`commit_review`], with the reviewer's own message when `edited` is given. Refused,
/// with nothing written, when the decisions changed since it was edited (its record of
/// the hunks would no longer be true).
pub fn commit_review_as(
    repo: &MemoryRepo,
    review: &Review,
    analysis: &Analysis,
    lock: &RepoLock,
    edited: Option<EditedMessage<'_>>,
) -> Result<Applied> {
    review.target.check_writable()?;
    lock.check(repo)?;
    let recovered = recover::recover(repo)?;
    head_unmoved(repo, review)?;
    let mut plan = plan(repo, review, analysis)?;
    if let Some(e) = edited {
        if e.made_from != plan.message {
            bail!(
                "the decisions changed since you edited the commit message, so it no longer says \
                 what the commit takes; nothing was written. c shows the message for them, C edits it"
            );
        }
        plan.message = e.message.to_string();
        plan.summary = e.message.lines().next().unwrap_or_default().to_string();
    }
    if plan.fates.is_empty() {
        bail!("the dream changes nothing in {}: there is no review to commit", repo.memory.display());
    }
    if plan.changes.is_empty() && plan.fates.iter().any(|f| matches!(f.fate, Fate::Skipped(_))) {
        return Err(nothing_writable(&plan.skipped));
    }
    if let Some(n) = &plan.nothing_new {
        return Err(anyhow::Error::new(n.clone()));
    }
    let mut moved = Vec::new();
    for c in &plan.changes {
        if write::read_entry(&repo.memory, &c.path)? != c.disk {
            moved.push(c.path.clone());
        }
    }
    if review.inputs.kind == DreamKind::InPlace {
        let head = repo.head_snapshot()?;
        for c in &plan.changes {
            let live = review.files.iter().find(|f| f.path == c.path).and_then(|f| f.live.as_ref());
            if head.get(&c.path) != live {
                moved.push(format!("{} (HEAD)", c.path));
            }
        }
    }
    if !moved.is_empty() {
        bail!(
            "live memory changed since the review was loaded: {}; nothing was written. Reload \
             the review (saved decisions are restored) and commit again",
            moved.join(", ")
        );
    }
    // Read-only notes, a repository that cannot take a commit now and notes held open for
    // writing refuse the whole commit before anything, the snapshot included.
    for c in plan.changes.iter().filter(|c| c.writes()) {
        super::paths::writable(&repo.memory, &c.path).map_err(|e| commit::read_only(&e))?;
    }
    let forbidden = forbidden(review);
    let mut everything = plan.changes.clone();
    if review.inputs.kind != DreamKind::InPlace {
        everything.extend(commit::uncommitted(repo, &forbidden)?);
    }
    commit::before_writing(repo, &everything)?;
    let snapshot = if review.inputs.kind == DreamKind::InPlace {
        None
    } else {
        commit::snapshot_commit(repo, message::SNAPSHOT_SUMMARY, &forbidden)?
    };
    let evidence = crate::store::evidence::build(review, analysis, &taken(&plan.fates), &plan.standing);
    let committed = commit::commit_changes(
        repo,
        "dream review",
        &plan.message,
        &plan.changes,
        &forbidden,
        Some(&evidence.to_json()),
    )?;
    // The commit consumed the accepted decisions: only whole-hunk rejections still mean
    // something (those hunks remain, decided, when the review is opened again). A saved
    // acceptance would come back on the next open and re-accept what a later revert
    // restored (a deleted note deleted again).
    if let Err(e) = crate::store::repo::decisions::keep_rejections(repo, review) {
        eprintln!(
            "{}",
            crate::base::shown::text(&format!("dreamreview: warning: cannot update the saved decisions: {e:#}"))
        );
    }
    Ok(Applied {
        commit: committed.id,
        summary: plan.summary,
        message: plan.message,
        snapshot,
        skipped: plan.skipped,
        written: plan.changes.iter().filter(|c| c.writes()).map(|c| c.path.clone()).collect(),
        restored: plan.restored,
        recovered,
        note_failed: committed.note_failed,
        rebased_on: committed.rebased_on,
        strays: committed.strays,
    })
}

/// In-place: for each hunk the decisions leave out (rejected, pending) of a note whose
/// work-tree text the commit rewrites, what goes back to `HEAD`'s text:
/// `restored memory/x.md lines 4–9 from HEAD` (the work tree's line numbers).
fn restored_from_head(review: &Review, fates: &[HunkFate], changes: &[Change]) -> Vec<String> {
    let mut out = Vec::new();
    for f in fates.iter().filter(|f| matches!(f.fate, Fate::Rejected | Fate::Pending)) {
        let (Some(file), Some(h)) = (review.files.get(f.at.file), review.hunk(f.at)) else { continue };
        if !changes.iter().any(|c| c.path == file.path && c.writes()) {
            continue;
        }
        let shown = crate::base::text::visible_name(&message::one_line(&file.path)).into_owned();
        // Work-tree line numbers (1-based) of the lines this hunk added there.
        let mut at = h.new_range.start;
        let mut added = Vec::new();
        for l in &h.lines {
            match l.op {
                crate::model::diff::Op::Remove => {}
                crate::model::diff::Op::Add => {
                    at += 1;
                    added.push(at);
                }
                crate::model::diff::Op::Context => at += 1,
            }
        }
        let removed = h.removed().count();
        out.push(match (added.first(), added.last()) {
            (Some(a), Some(b)) if a == b => format!("restored {shown} line {a} from HEAD"),
            (Some(a), Some(b)) => format!("restored {shown} lines {a}–{b} from HEAD"),
            _ => format!(
                "restored {shown}: {removed} line{} put back from HEAD after line {}",
                if removed == 1 { "" } else { "s" },
                h.new_start()
            ),
        });
    }
    out
}

/// The hunks a commit takes and how, for its evidence.
fn taken(fates: &[HunkFate]) -> Vec<(HunkId, crate::store::evidence::Taken)> {
    use crate::store::evidence::Taken;
    fates
        .iter()
        .filter_map(|f| {
            let how = match f.fate {
                Fate::Accepted => Taken::Accepted,
                Fate::PartlyAccepted => Taken::PartlyAccepted,
                Fate::Edited => Taken::Edited,
                _ => return None,
            };
            Some((f.at, how))
        })
        .collect()
}
