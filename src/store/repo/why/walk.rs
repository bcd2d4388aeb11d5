//! The history walk of one note: which commit wrote each line (through reverts back to
//! the commit that first wrote it), and for a review commit what its evidence note kept.

use super::cites::{accepted_in_message, cited_source};
use super::note::split_lines;
use super::types::{
    CitationWhy, CommitInfo, EntryWhy, HunkWhy, Kept, MessageCite, MessageHunk, Now, Origin, ReviewOrigin,
};
use crate::inputs::transcript::{SourceFile, SourceSet, Transcript};
use crate::store::evidence::{CitationEvidence, HunkEvidence};
use crate::store::repo::MemoryRepo;
use crate::store::repo::git_notes::{self, Stored};
use crate::store::repo::history::{self, CommitKind};
use crate::store::repo::message::{self, one_line};
use anyhow::{Context, Result};
use git2::Oid;
use std::collections::HashMap;
use std::path::Path;

/// How many reverts deep a restored line is followed.
pub(super) const MAX_RESTORES: usize = 8;

/// The note's text at one commit, line by line, with the commit that wrote each line.
pub(super) struct Blamed {
    pub(super) lines: Vec<String>,
    pub(super) commits: Vec<Oid>,
}

/// The history walk of one note, with what it has read cached.
pub(super) struct Walk<'r> {
    pub(super) repo: &'r MemoryRepo,
    pub(super) note: String,
    /// The note as it was before a reverted commit, blamed (per reverted commit).
    pub(super) before: HashMap<Oid, Option<Blamed>>,
    /// The evidence notes, listed when the first is read.
    pub(super) notes: Option<git_notes::Index>,
    /// Evidence notes read (per commit).
    pub(super) stored: HashMap<Oid, Stored>,
    /// The commit each commit reverts, if it is a revert (per commit).
    pub(super) reverts: HashMap<Oid, Option<Oid>>,
    /// The transcripts findable now, for citations named without a path.
    pub(super) sources: Option<SourceSet>,
}

impl<'r> Walk<'r> {
    pub(super) fn new(repo: &'r MemoryRepo, note: &str, sources: Option<SourceSet>) -> Walk<'r> {
        Walk {
            repo,
            note: note.to_string(),
            before: HashMap::new(),
            notes: None,
            stored: HashMap::new(),
            reverts: HashMap::new(),
            sources,
        }
    }

    /// The commit of each line of the note on disk (`Oid::ZERO_SHA1`: not committed).
    /// With `only` a line, only that line is looked for.
    pub(super) fn blame_now(&self, disk: &[u8], count: usize, only: Option<usize>) -> Result<Vec<Oid>> {
        let Some(head) = self.repo.head_commit()? else {
            return Ok(vec![Oid::ZERO_SHA1; count]);
        };
        let wanted: Vec<usize> = match only {
            Some(n) => vec![n - 1],
            None => (0..count).collect(),
        };
        crate::store::repo::blame::blame(&self.repo.repo, &self.repo.repo_path(&self.note), head.id(), disk, &wanted)
    }

    /// `commit`, then for a revert the commit that first wrote the line it restored, and so on.
    pub(super) fn chain(&mut self, commit: Oid, text: &str) -> Result<Vec<Oid>> {
        let mut chain = vec![commit];
        let mut at = commit;
        while !at.is_zero() && chain.len() <= MAX_RESTORES {
            let Some(reverted) = self.reverted_by(at)? else { break };
            let Some(before) = self.before_commit(reverted)? else { break };
            let Some(i) = before.lines.iter().position(|l| l == text) else { break };
            at = before.commits[i];
            chain.push(at);
        }
        Ok(chain)
    }

    /// The commit a revert commit reverts.
    pub(super) fn reverted_by(&mut self, commit: Oid) -> Result<Option<Oid>> {
        if let Some(&known) = self.reverts.get(&commit) {
            return Ok(known);
        }
        let reverted = self.read_reverted(commit)?;
        self.reverts.insert(commit, reverted);
        Ok(reverted)
    }

    pub(super) fn read_reverted(&self, commit: Oid) -> Result<Option<Oid>> {
        let c = self.repo.repo.find_commit(commit)?;
        let msg = String::from_utf8_lossy(c.message_bytes());
        let Some(spec) = message::parse_trailers(&msg).reverts else { return Ok(None) };
        Ok(self.repo.repo.revparse_single(&spec).ok().and_then(|o| o.peel_to_commit().ok()).map(|c| c.id()))
    }

    /// The note as the first parent of `reverted` had it, blamed there.
    pub(super) fn before_commit(&mut self, reverted: Oid) -> Result<Option<&Blamed>> {
        if !self.before.contains_key(&reverted) {
            let b = self.blame_at_parent(reverted)?;
            self.before.insert(reverted, b);
        }
        Ok(self.before.get(&reverted).and_then(Option::as_ref))
    }

    pub(super) fn blame_at_parent(&self, reverted: Oid) -> Result<Option<Blamed>> {
        let commit = self.repo.repo.find_commit(reverted)?;
        let Ok(parent) = commit.parent(0) else { return Ok(None) };
        let path = self.repo.repo_path(&self.note);
        let is_blob = |e: git2::TreeEntry<'_>| e.kind() == Some(git2::ObjectType::Blob);
        if !parent.tree()?.get_path(Path::new(&path)).is_ok_and(is_blob) {
            return Ok(None);
        }
        self.blame_at(&parent, None).map(Some)
    }

    /// The note as commit `at` has it, blamed there (with `only` a line of it, only that
    /// line: the others are `Oid::ZERO_SHA1`).
    pub(super) fn blame_at(&self, at: &git2::Commit<'_>, only: Option<usize>) -> Result<Blamed> {
        let path = self.repo.repo_path(&self.note);
        let short = crate::store::repo::short_id(at.id());
        let entry = at.tree()?.get_path(Path::new(&path)).with_context(|| format!("commit {short} has no {path}"))?;
        let blob = self.repo.repo.find_blob(entry.id()).with_context(|| format!("cannot read {path} at {short}"))?;
        let lines = split_lines(blob.content());
        let wanted: Vec<usize> = match only.filter(|n| (1..=lines.len()).contains(n)) {
            Some(n) => vec![n - 1],
            None => (0..lines.len()).collect(),
        };
        let commits = crate::store::repo::blame::blame(&self.repo.repo, &path, at.id(), blob.content(), &wanted)
            .with_context(|| format!("as of {short}"))?;
        Ok(Blamed { lines, commits })
    }

    /// The origin a chain of commits names, for lines showing `masked`.
    pub(super) fn origin(&mut self, chain: &[Oid], masked: &[&str]) -> Result<Origin> {
        let Some((&first, rest)) = chain.split_first() else { return Ok(Origin::Uncommitted) };
        if first.is_zero() {
            return Ok(Origin::Uncommitted);
        }
        let commit = self.repo.repo.find_commit(first)?;
        let msg = String::from_utf8_lossy(commit.message_bytes()).into_owned();
        let summary = msg.lines().next().unwrap_or_default().to_string();
        let trailers = message::parse_trailers(&msg);
        let info = commit_info(&commit, &summary);
        Ok(match history::kind_of(&summary, &trailers) {
            CommitKind::Revert => {
                let restored = match rest.is_empty() {
                    true => None,
                    false => Some(Box::new(self.origin(rest, masked)?)),
                };
                Origin::Revert { commit: info, reverts: one_line(&trailers.reverts.unwrap_or_default()), restored }
            }
            CommitKind::Review => Origin::Review(Box::new(self.review(first, info, &msg, &trailers, masked)?)),
            CommitKind::Snapshot => Origin::Outside { commit: info, snapshot: true },
            CommitKind::Other => Origin::Outside { commit: info, snapshot: false },
        })
    }

    /// The review commit `id` and what it keeps about the hunks that wrote `masked`.
    pub(super) fn review(
        &mut self,
        id: Oid,
        commit: CommitInfo,
        msg: &str,
        trailers: &message::Trailers,
        masked: &[&str],
    ) -> Result<ReviewOrigin> {
        if !self.stored.contains_key(&id) {
            if self.notes.is_none() {
                self.notes = Some(git_notes::Index::load(self.repo)?);
            }
            let s = self.notes.as_ref().map_or(Ok(Stored::Missing), |n| n.read(self.repo, id))?;
            self.stored.insert(id, s);
        }
        let mut out = ReviewOrigin {
            commit,
            dream: trailers.dream_source.as_deref().map(one_line),
            dream_id: trailers.dream_id.clone(),
            evidence: Kept::NotKept,
            unreadable: None,
            hunks: Vec::new(),
            message_hunks: Vec::new(),
        };
        match self.stored.get(&id).cloned() {
            Some(Stored::Evidence(e)) => {
                out.evidence = Kept::Kept;
                out.dream = Some(one_line(&e.dream));
                let mine: Vec<&HunkEvidence> = e.hunks_of(&self.note).collect();
                let matched: Vec<&HunkEvidence> =
                    mine.iter().copied().filter(|h| h.lines.iter().any(|l| masked.contains(&l.as_str()))).collect();
                let chosen = if matched.is_empty() { mine } else { matched };
                out.hunks = chosen.into_iter().map(hunk_why).collect();
            }
            Some(Stored::Unreadable(why)) => {
                out.evidence = Kept::Unreadable;
                out.unreadable = Some(one_line(&why));
                out.message_hunks = self.message_hunks(msg);
            }
            _ => out.message_hunks = self.message_hunks(msg),
        }
        Ok(out)
    }

    /// The accepted hunks of this note in an old review message, with their `cites` lines.
    pub(super) fn message_hunks(&mut self, msg: &str) -> Vec<MessageHunk> {
        let note = self.note.clone();
        accepted_in_message(msg, &note, |cite| self.message_cite(cite))
    }

    /// A `cites` line and whether its transcript is there now.
    pub(super) fn message_cite(&mut self, text: String) -> MessageCite {
        let source = cited_source(&text);
        let now =
            if transcript_exists(self.repo, &mut self.sources, &source) { Now::StillThere } else { Now::DeletedSince };
        MessageCite { text, source, now }
    }
}

/// A kept hunk, each citation with its transcript now.
pub(super) fn hunk_why(h: &HunkEvidence) -> HunkWhy {
    let entries = h
        .entries
        .iter()
        .map(|e| EntryWhy {
            label: e.label.clone(),
            text: e.text.clone(),
            citations: e.citations.iter().map(|c| CitationWhy { kept: c.clone(), now: now(c) }).collect(),
        })
        .collect();
    HunkWhy {
        id: h.id.clone(),
        taken: h.taken,
        lines: h.lines.clone(),
        entries,
        claims: h.claims.clone(),
        accepted_flags: h.accepted_flags.clone(),
    }
}

pub(super) fn commit_info(commit: &git2::Commit<'_>, summary: &str) -> CommitInfo {
    let author = commit.author();
    let when = author.when();
    let id = commit.id().to_string();
    CommitInfo {
        short: crate::store::repo::short_id(&id),
        id,
        author: one_line(&String::from_utf8_lossy(author.name_bytes())),
        date: history::format_time(when.seconds(), when.offset_minutes()),
        summary: one_line(summary),
    }
}

/// The transcript of a kept citation now: gone, there and saying what was kept, or changed.
pub(super) fn now(c: &CitationEvidence) -> Now {
    let Some(path) = c.path.as_deref() else {
        return if c.resolved { Now::DeletedSince } else { Now::NotFoundAtReview };
    };
    let path = Path::new(path);
    if !path.is_file() {
        return Now::DeletedSince;
    }
    let Ok(t) = Transcript::open(&SourceFile::new(path.to_path_buf(), c.source.clone())) else {
        return Now::DeletedSince;
    };
    let same = c.lines.iter().filter(|l| l.cited && l.role.is_some()).all(|l| {
        let Ok(entries) = t.context_range(l.line..=l.last, 0) else { return false };
        entries.iter().find(|e| *e.lines.start() == l.line).is_some_and(|e| {
            let (text, cut) = crate::store::evidence::kept_text(&e.rendered);
            text == l.text && cut == l.cut
        })
    });
    if same { Now::StillThere } else { Now::ChangedSince }
}

/// Whether a transcript named `source` is findable now among the memory folder's sources
/// (found once, kept in `sources`).
pub(super) fn transcript_exists(repo: &MemoryRepo, sources: &mut Option<SourceSet>, source: &str) -> bool {
    let sources = sources.get_or_insert_with(|| {
        let root = repo.memory.parent();
        SourceSet::discover(root, &[], Some(&repo.memory)).unwrap_or_default()
    });
    !sources.find(source).is_empty()
}
