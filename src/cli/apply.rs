//! `dreamreview apply`: decide every hunk from the command line (`--accept IDS`,
//! `--accept-all`, `--reject-all` or `--decisions FILE`), write the result to the memory
//! folder and commit it. Hunks that cannot be written are skipped and reported (exit 1).

use super::InputArgs;
use crate::decision::Decision;
use crate::dream;
use crate::repo::apply::{self, Skipped};
use crate::repo::lock::RepoLock;
use crate::repo::{self, MemoryRepo, journal, message};
use crate::report;
use crate::review::{Review, persist};
use anyhow::{Result, bail};
use clap::{ArgGroup, Args};
use std::path::PathBuf;

/// Arguments of `dreamreview apply`.
#[derive(Args, Debug, Clone)]
#[command(group(
    ArgGroup::new("decide")
        .required(true)
        .args(["accept", "accept_all", "reject_all", "decisions"])
))]
pub struct ApplyArgs {
    /// The dream, the live memory and the transcripts.
    #[command(flatten)]
    pub inputs: InputArgs,
    /// Accept these hunks (ids as `check` prints them, comma-separated); every hunk not
    /// named is rejected. Ids may start with `-` (a note named `-rf.md`).
    #[arg(long, value_name = "IDS", allow_hyphen_values = true)]
    pub accept: Option<String>,
    /// Accept every hunk that can be written.
    #[arg(long)]
    pub accept_all: bool,
    /// Reject every hunk (records the review; the notes stay as they are).
    #[arg(long)]
    pub reject_all: bool,
    /// Take decisions from a JSON file: `{"hunks": {"<id or key>": "accepted" | "rejected"
    /// | {"lines": [...], "edited": "..."}}}`; the TUI's saved state
    /// (`<gitdir>/dreamreview/<dream-id>.json`) works too. Unnamed hunks are rejected.
    #[arg(long, value_name = "FILE")]
    pub decisions: Option<PathBuf>,
    /// When the memory folder is not a git repository, make it one first (git init plus a
    /// commit of the notes exactly as they are).
    #[arg(long)]
    pub init: bool,
}

/// Runs `apply`; returns the exit code (0 done, 1 hunks skipped or error flags accepted).
pub fn run(args: &ApplyArgs) -> Result<i32> {
    let inputs = dream::discover(args.inputs.dream.as_deref(), args.inputs.memory.as_deref(), &args.inputs.sources)?;
    let repo = match MemoryRepo::discover(&inputs.memory)? {
        Some(r) => r,
        None if args.init => {
            let r = repo::init_with_snapshot(&inputs.memory)?;
            println!(
                "initialised a git repository in {} with a first commit of the notes as they are",
                r.memory.display()
            );
            r
        }
        None => bail!(
            "{} is not in a git repository, so there is nothing to commit the review to; pass \
             --init to make it one (git init plus a first commit of the notes exactly as they \
             are), or run `git init` there yourself",
            inputs.memory.display()
        ),
    };
    let lock = RepoLock::acquire(&repo)?;
    if let Some(t) = &lock.took_over {
        eprintln!("dreamreview: {}", super::shown(t));
    }
    if let Some(m) = journal::recover(&repo)? {
        eprintln!("dreamreview: {}", super::shown(&m));
    }
    let mut review = Review::load(inputs)?;
    let (_, total) = review.progress();
    if total == 0 {
        println!(
            "nothing to apply: the dream changes nothing in {}",
            super::shown(&review.inputs.memory.display().to_string())
        );
        return Ok(0);
    }
    let mut skipped = decide(&mut review, args)?;
    if let Some(prev) = &review.reviewed {
        eprintln!(
            "dreamreview: note: this dream was already reviewed in {} ({}); applying again",
            prev.short,
            super::shown(&prev.summary)
        );
    }
    let analysis = super::analyze(&review);
    let applied = apply::commit_review(&repo, &review, &analysis, &lock)?;
    for s in applied.skipped {
        if !skipped.iter().any(|k| k.id == s.id) {
            skipped.push(s);
        }
    }
    if let Some(m) = &applied.recovered {
        eprintln!("dreamreview: {}", super::shown(m));
    }
    if let Some(s) = applied.snapshot {
        println!("snapshot  {} {}", crate::repo::short_id(s), message::SNAPSHOT_SUMMARY);
    }
    println!("committed {} {}", crate::repo::short_id(applied.commit), message::one_line(&applied.summary));
    for s in &skipped {
        println!("skipped   {}: {}", message::one_line(&s.id), message::one_line(&s.reason));
    }
    let flagged = report::has_blocking_errors(&review, &analysis);
    if flagged {
        eprintln!(
            "dreamreview: accepted hunks carry error-level flags; see `dreamreview check` (and \
             `dreamreview revert` to undo)"
        );
    }
    if !skipped.is_empty() {
        eprintln!(
            "dreamreview: {} accepted change{} could not be written (listed above)",
            skipped.len(),
            if skipped.len() == 1 { "" } else { "s" }
        );
    }
    Ok(if skipped.is_empty() && !flagged { 0 } else { 1 })
}

/// Sets every hunk's decision from the arguments; returns accepted hunks that were refused.
fn decide(review: &mut Review, args: &ApplyArgs) -> Result<Vec<Skipped>> {
    let refused = |review: &Review, id: &str| -> Option<String> {
        let (fi, hi) = review.find_hunk(id)?;
        review.blocked(fi, hi).map(|r| r.to_string())
    };
    let mut skipped = Vec::new();
    if let Some(ids) = &args.accept {
        let ids: Vec<&str> = ids.split(',').map(str::trim).filter(|s| !s.is_empty()).collect();
        if ids.is_empty() {
            bail!(
                "--accept names no hunk: give hunk ids separated by commas (see `dreamreview check`), or use --reject-all"
            );
        }
        let unknown: Vec<&str> = ids.iter().copied().filter(|id| review.find_hunk(id).is_none()).collect();
        if !unknown.is_empty() {
            let valid: Vec<String> = review.files.iter().flat_map(|f| f.hunks.iter().map(|h| h.id.clone())).collect();
            bail!(
                "no hunk {} in this review; its hunks are: {} (see `dreamreview check`)",
                unknown.join(", "),
                valid.join(", ")
            );
        }
        review.set_all(Decision::Rejected);
        for id in ids {
            if let Some((fi, hi)) = review.find_hunk(id)
                && let Err(r) = review.set_hunk(fi, hi, Decision::Accepted)
            {
                skipped.push(Skipped { id: id.to_string(), reason: r.to_string() });
            }
        }
    } else if args.accept_all {
        for id in review.set_all(Decision::Accepted) {
            let reason = refused(review, &id).unwrap_or_else(|| "cannot be accepted".into());
            skipped.push(Skipped { id, reason });
        }
    } else if args.reject_all {
        review.set_all(Decision::Rejected);
    } else if let Some(path) = &args.decisions {
        let saved = persist::read_file(path)?;
        review.set_all(Decision::Rejected);
        let restored =
            persist::apply_saved(review, &saved, true).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
        for (id, r) in restored.refused {
            skipped.push(Skipped { id, reason: r.to_string() });
        }
    }
    Ok(skipped)
}
