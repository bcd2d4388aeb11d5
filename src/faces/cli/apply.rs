//! `dreamreview apply`: decide every hunk from the command line (`--accept IDS`,
//! `--accept-all`, `--reject-all` or `--decisions FILE`), write the result to the memory
//! folder and commit it. Hunks that cannot be written are skipped and reported (exit 1).

use super::inputs::InputArgs;
use crate::analysis::flag::{FlagKind, Severity};
use crate::analysis::standing::StandingFlag;
use crate::inputs::dream;
use crate::inputs::target::{Origin, Target};
use crate::model::decision::Decision;
use crate::model::review::{Review, persist};
use crate::store::repo::apply::{self, Skipped};
use crate::store::repo::lock::RepoLock;
use crate::store::repo::{self, MemoryRepo, history, message, recover};
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
    /// Commit accepted hunks that carry error-level flags of these kinds (comma-separated,
    /// e.g. `--allow secret` or `--allow secret,permanent-deleted`). Without it, `apply`
    /// refuses a review whose accepted hunks carry an error flag and writes nothing.
    #[arg(long, value_name = "FLAG[,FLAG]", value_delimiter = ',')]
    pub allow: Vec<String>,
    /// When the memory folder is not a git repository, make it one first (git init plus a
    /// commit of the notes exactly as they are). Only with --memory.
    #[arg(long)]
    pub init: bool,
}

/// Runs `apply`; returns the exit code (0 done, 1 hunks skipped or error flags accepted).
pub fn run(args: &ApplyArgs) -> Result<i32> {
    let inputs = args.inputs.discover()?;
    // Nothing is written, locked or recovered before the target is known to be writable.
    if args.init {
        init_needs_a_named_folder(&inputs)?;
    }
    Target::assess_here(&inputs.memory, inputs.origin, history::holds_reviews).check_writable()?;
    let repo = match MemoryRepo::discover(&inputs.memory)? {
        Some(r) => r,
        None if args.init => {
            let r = repo::init_with_snapshot(&inputs.memory)?;
            say!("initialised a git repository in {} with a first commit of the notes as they are", r.memory.display());
            r
        }
        None => bail!(
            "{} is not in a git repository, so there is nothing to commit the review to; pass \
             --init{} to make it one (git init plus a first commit of the notes exactly as they \
             are), or run `git init` there yourself",
            inputs.memory.display(),
            if inputs.origin == Origin::Flag {
                String::new()
            } else {
                format!(" --memory {}", inputs.memory.display())
            }
        ),
    };
    let lock = RepoLock::acquire(&repo)?;
    if let Some(t) = &lock.took_over {
        tell!("dreamreview: {}", super::output::shown(t));
    }
    if let Some(m) = recover::recover(&repo)? {
        tell!("dreamreview: {}", super::output::shown(&m));
    }
    let mut review = crate::store::repo::load_review(inputs)?;
    args.inputs.apply_zone(&mut review);
    let (_, total) = review.progress();
    if total == 0 {
        say!(
            "nothing to apply: the dream changes nothing in {}",
            super::output::shown(&review.inputs.memory.display().to_string())
        );
        return Ok(0);
    }
    if let Some(banner) = review.reviewed_banner().map(|b| super::output::shown(&b)) {
        if !args.inputs.again {
            bail!(
                "this dream was {banner}; what it did not take stays as it decided. Pass --again \
                 to decide those {total} hunk{} again",
                if total == 1 { "" } else { "s" }
            );
        }
        tell!("dreamreview: note: this dream was {banner}; deciding what it did not take again (--again)");
    }
    let mut skipped = decide(&mut review, args)?;
    if !skipped.is_empty() && !review.accepts_anything() {
        return Err(apply::nothing_writable(&skipped));
    }
    let allow = allowed_kinds(&args.allow)?;
    let analysis = crate::analysis::analyze(&review);
    let plan = apply::plan(&repo, &review, &analysis)?;
    if let Some(n) = &plan.nothing_new
        && skipped.is_empty()
    {
        say!("{}", super::output::shown(&n.to_string()));
        return Ok(0);
    }
    let waved = error_flags_allowed(&plan.standing, &allow)?;
    let applied = apply::commit_review(&repo, &review, &analysis, &lock)?;
    for s in applied.skipped {
        if !skipped.iter().any(|k| k.id == s.id) {
            skipped.push(s);
        }
    }
    if let Some(m) = &applied.recovered {
        tell!("dreamreview: {}", super::output::shown(m));
    }
    if let Some(s) = applied.snapshot {
        say!("snapshot  {} {}", crate::store::repo::short_id(s), message::SNAPSHOT_SUMMARY);
    }
    say!("committed {} {}", crate::store::repo::short_id(applied.commit), message::one_line(&applied.summary));
    for r in &applied.restored {
        say!("{}", super::output::shown(r));
    }
    if let Some(h) = crate::store::repo::preflight::hooks_not_run(&repo) {
        tell!("dreamreview: note: {}", super::output::shown(&h));
    }
    if !applied.rebased_on.is_empty() {
        tell!(
            "dreamreview: note: another program committed while the notes were written ({}); it \
             touched other paths, so the review commit was placed after it",
            super::output::shown(&applied.rebased_on.join(", "))
        );
    }
    // Committed, but not all of it is recorded or in the notes: said, and exit 2.
    let mut unfinished = false;
    if let Some(why) = &applied.note_failed {
        tell!("dreamreview: the commit was made but its evidence note was not: {}", super::output::shown(why));
        unfinished = true;
    }
    for s in &applied.strays {
        tell!("dreamreview: {}", super::output::shown(&s.to_string()));
        unfinished = true;
    }
    for s in &skipped {
        say!("skipped   {}: {}", message::one_line(&s.id), message::one_line(&s.reason));
    }
    if !waved.is_empty() {
        tell!(
            "dreamreview: committed with error-level flags you allowed: {}",
            waved.iter().map(|s| format!("{} {}", s.hunk, s.label())).collect::<Vec<_>>().join("; ")
        );
    }
    let flagged = crate::analysis::standing::flags_left(&review, &analysis).error > waved.len();
    if flagged {
        tell!(
            "dreamreview: accepted hunks carry error-level flags; see `dreamreview check` (and \
             `dreamreview revert` to undo)"
        );
    }
    if !skipped.is_empty() {
        tell!(
            "dreamreview: {} accepted change{} could not be written (listed above)",
            skipped.len(),
            if skipped.len() == 1 { "" } else { "s" }
        );
    }
    Ok(if unfinished {
        2
    } else if skipped.is_empty() && !flagged {
        0
    } else {
        1
    })
}

/// `--init` makes a repository of the memory folder, so that folder must be one the user
/// named: never one a dream's `memory.diff` suggests.
fn init_needs_a_named_folder(inputs: &dream::Inputs) -> Result<()> {
    if inputs.origin != Origin::Flag {
        let p = inputs.memory.display();
        bail!(
            "--init makes a git repository of the memory folder, so it needs the folder named with \
             --memory; {p} was found from {}: pass --memory {p} --init to make it one",
            inputs.origin.label()
        );
    }
    Ok(())
}

/// The flag kinds `--allow` names; an unknown name is an error listing the error kinds.
fn allowed_kinds(names: &[String]) -> Result<Vec<FlagKind>> {
    let errors: Vec<FlagKind> = FlagKind::ALL.iter().copied().filter(|k| k.max_severity() == Severity::Error).collect();
    let mut out = Vec::new();
    for n in names.iter().map(|n| n.trim()).filter(|n| !n.is_empty()) {
        match errors.iter().find(|k| k.name() == n) {
            Some(k) => out.push(*k),
            None => bail!(
                "--allow {}: not an error flag kind; the kinds are {}",
                crate::store::repo::message::one_line(n),
                errors.iter().map(|k| k.name()).collect::<Vec<_>>().join(", ")
            ),
        }
    }
    Ok(out)
}

/// The error-level flags standing on accepted content (the commit's own list, `standing`;
/// an entry's flag is recorded, not refused), when `allow` names each one's kind
/// (they are committed, and listed in the commit message); otherwise the refusal, listing
/// the hunks and the exact `--allow` to pass. Nothing is written before this passes.
fn error_flags_allowed(standing: &[StandingFlag], allow: &[FlagKind]) -> Result<Vec<StandingFlag>> {
    let errors: Vec<StandingFlag> =
        standing.iter().filter(|s| s.on_hunk() && s.flag.severity == Severity::Error).cloned().collect();
    let refused: Vec<&StandingFlag> = errors.iter().filter(|s| !allow.contains(&s.flag.kind)).collect();
    if refused.is_empty() {
        return Ok(errors);
    }
    let mut kinds: Vec<&str> = errors.iter().map(|s| s.flag.kind.name()).collect();
    kinds.sort_unstable();
    kinds.dedup();
    let list: Vec<String> = refused.iter().map(|s| format!("{} {}", s.hunk, s.label())).collect();
    bail!(
        "refusing to commit: accepted hunks carry error-level flags: {}; nothing was written. \
         Reject those hunks (leave them out of --accept), or pass --allow {} to commit them anyway",
        crate::store::repo::message::one_line(&list.join("; ")),
        kinds.join(",")
    )
}

/// Sets every hunk's decision from the arguments; returns accepted hunks that were refused.
fn decide(review: &mut Review, args: &ApplyArgs) -> Result<Vec<Skipped>> {
    let refused =
        |review: &Review, id: &str| -> Option<String> { review.blocked(review.find_hunk(id)?).map(|r| r.in_cli()) };
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
            if let Some(at) = review.find_hunk(id)
                && let Err(r) = review.set_hunk(at, Decision::Accepted)
            {
                skipped.push(Skipped { id: id.to_string(), reason: r.in_cli() });
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
            skipped.push(Skipped { id, reason: r.in_cli() });
        }
    }
    Ok(skipped)
}
