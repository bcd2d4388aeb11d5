//! The notes of a memory folder that can no longer be checked against their sources
//! ([`crate::analysis::audit::unverifiable`] defines them): found with the `why` machinery,
//! one blame per note, and only for the notes a review commit that may have lost its
//! evidence wrote.
//!
//! Steps: walk `HEAD`'s first-parent history once for the review commits *at risk*: an
//! evidence note with a citation that kept none of its cited lines, or no readable note and
//! a message `cites` line whose transcript is gone (a review whose every citation kept its
//! text can never make a line unverifiable); take the notes those commits changed; explain each such note that is on
//! disk ([`why::explain_in`]); keep the lines whose review cites a transcript that was found
//! then, is gone now and was not kept.

use super::git_notes::{self, Stored};
use super::history::{self, CommitKind};
use super::why::{self, Explanation, Kept, Now, Origin, ReviewOrigin};
use super::{MemoryRepo, message};
use crate::analysis::audit::UnverifiableNote;
use anyhow::{Context, Result};
use git2::{Oid, Sort};
use std::collections::BTreeSet;
use std::path::Path;

/// The unverifiable notes among `notes` (relative to `memory`), in the order given. No git
/// repository, or one without commits: none. Errors name the folder.
pub fn find(memory: &Path, notes: &[&str]) -> Result<Vec<UnverifiableNote>> {
    let Some(repo) = MemoryRepo::discover(memory)? else { return Ok(Vec::new()) };
    let Some(head) = repo.head_commit()? else { return Ok(Vec::new()) };
    let mut shared = why::Shared::default();
    let at_risk = notes_at_risk(&repo, head.id(), &mut shared)
        .with_context(|| format!("cannot read the history of {}", memory.display()))?;
    let mut out = Vec::new();
    for &note in notes.iter().filter(|n| at_risk.contains(**n)) {
        let explained = why::explain_in(&repo, note, None, &mut shared)?;
        out.extend(unverifiable_in(&explained));
    }
    Ok(out)
}

/// The notes (memory-relative) the at-risk review commits of `head`'s first-parent
/// history changed.
fn notes_at_risk(repo: &MemoryRepo, head: Oid, shared: &mut why::Shared) -> Result<BTreeSet<String>> {
    let mut walk = repo.repo.revwalk()?;
    walk.push(head)?;
    walk.simplify_first_parent()?;
    walk.set_sorting(Sort::NONE)?;
    let evidence = git_notes::Index::load(repo)?;
    let mut out = BTreeSet::new();
    for id in walk {
        let commit = repo.repo.find_commit(id?)?;
        let msg = String::from_utf8_lossy(commit.message_bytes());
        let summary = msg.lines().next().unwrap_or_default();
        if history::kind_of(summary, &message::parse_trailers(&msg)) != CommitKind::Review {
            continue;
        }
        let lost = match evidence.read(repo, commit.id())? {
            Stored::Evidence(e) => e.hunks.iter().flat_map(|h| &h.entries).flat_map(|e| &e.citations).any(lost_kept),
            Stored::Missing | Stored::Unreadable(_) => cites_lines(&msg).any(|c| lost_cite(repo, shared, c)),
        };
        if !lost {
            continue;
        }
        out.extend(changed_notes(repo, &commit)?);
    }
    Ok(out)
}

/// Whether a kept citation may have lost its text: found at review time, no cited line kept
/// (whether its transcript is gone is for [`why`] to tell).
fn lost_kept(c: &crate::store::evidence::CitationEvidence) -> bool {
    c.resolved && !kept(c)
}

/// The `cites` lines of a review message (the text after `cites `).
fn cites_lines(msg: &str) -> impl Iterator<Item = &str> {
    msg.lines().filter_map(|l| l.strip_prefix("    cites "))
}

/// Whether a message's `cites` line names a transcript that was found then and is gone now.
fn lost_cite(repo: &MemoryRepo, shared: &mut why::Shared, cite: &str) -> bool {
    !cite.ends_with("(unresolved)") && !shared.transcript_exists(repo, &why::cited_source(cite))
}

/// Whether a citation keeps the text of a cited line.
fn kept(c: &crate::store::evidence::CitationEvidence) -> bool {
    c.lines.iter().any(|l| l.cited)
}

/// The memory-relative paths `commit` changed against its first parent.
fn changed_notes(repo: &MemoryRepo, commit: &git2::Commit<'_>) -> Result<Vec<String>> {
    let parent = commit.parent(0).ok().map(|p| p.tree()).transpose()?;
    let mut opts = git2::DiffOptions::new();
    if !repo.prefix.is_empty() {
        opts.pathspec(&repo.prefix);
    }
    let diff = repo.repo.diff_tree_to_tree(parent.as_ref(), Some(&commit.tree()?), Some(&mut opts))?;
    let prefix = if repo.prefix.is_empty() { String::new() } else { format!("{}/", repo.prefix) };
    Ok(diff
        .deltas()
        .filter_map(|d| d.new_file().path().map(|p| p.to_string_lossy().into_owned()))
        .filter_map(|p| p.strip_prefix(&prefix).map(str::to_string))
        .collect())
}

/// The unverifiable lines of an explained note, if any.
pub fn unverifiable_in(e: &Explanation) -> Option<UnverifiableNote> {
    let mut lines = Vec::new();
    let mut reviews: Vec<String> = Vec::new();
    let mut gone: Vec<String> = Vec::new();
    for group in &e.groups {
        let Some(review) = review_of(&group.origin) else { continue };
        let lost = lost_sources(review);
        if lost.is_empty() {
            continue;
        }
        lines.extend(group.lines.iter().map(|l| l.line));
        if !reviews.contains(&review.commit.short) {
            reviews.push(review.commit.short.clone());
        }
        for s in lost {
            if !gone.contains(&s) {
                gone.push(s);
            }
        }
    }
    lines.sort_unstable();
    (!lines.is_empty()).then(|| UnverifiableNote { note: e.note.clone(), lines, reviews, gone })
}

/// The review that first wrote lines of this origin (through the reverts that restored them).
fn review_of(origin: &Origin) -> Option<&ReviewOrigin> {
    match origin {
        Origin::Review(r) => Some(r),
        Origin::Revert { restored: Some(o), .. } => review_of(o),
        _ => None,
    }
}

/// The transcripts a review cites that were found then, are gone now, and were not kept.
fn lost_sources(r: &ReviewOrigin) -> Vec<String> {
    match r.evidence {
        Kept::Kept => r
            .hunks
            .iter()
            .flat_map(|h| &h.entries)
            .flat_map(|e| &e.citations)
            .filter(|c| lost_kept(&c.kept) && c.now == Now::DeletedSince)
            .map(|c| c.kept.source.clone())
            .collect(),
        Kept::NotKept | Kept::Unreadable => r
            .message_hunks
            .iter()
            .flat_map(|h| &h.entries)
            .flat_map(|e| &e.cites)
            .filter(|c| c.now == Now::DeletedSince && !c.text.ends_with("(unresolved)"))
            .map(|c| c.source.clone())
            .collect(),
    }
}
