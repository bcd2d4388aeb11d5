//! The side effects behind commands that touch the memory repository — each returns the
//! message that reports its outcome. The runtime calls them; tests call them too, to drive
//! a whole review (commit, history, revert) without a terminal.

use super::msg::{Msg, OpenedCommit};
use super::state::App;
use crate::inputs::dream::Inputs;
use crate::store::repo::MemoryRepo;
use crate::store::repo::decisions;
use crate::store::repo::lock::RepoLock;
use crate::store::repo::message::RevertScope;
use std::path::Path;

fn repo(app: &App) -> Result<MemoryRepo, String> {
    repo_of(&app.review.inputs.memory)
}

/// The repository of the memory folder `memory`.
fn repo_of(memory: &Path) -> Result<MemoryRepo, String> {
    MemoryRepo::discover(memory)
        .map_err(|e| format!("{e:#}"))?
        .ok_or_else(|| format!("{} is not in a git repository", memory.display()))
}

/// The repository of a memory folder the review may write to: a folder only memory.diff
/// suggests is refused with the fix (`--memory`), whatever the command.
fn writable_repo(app: &App) -> Result<MemoryRepo, String> {
    if let Some(r) = app.review.target.refusal() {
        return Err(r);
    }
    repo(app)
}

/// Why `git init` is not offered for this folder: only a folder named with `--memory`
/// is made a repository.
fn init_refusal(app: &App) -> Option<String> {
    let t = &app.review.target;
    (t.origin != crate::inputs::target::Origin::Flag).then(|| {
        let p = t.path.display();
        format!("{p} is not in a git repository; run dreamreview again with --memory {p} to make it one")
    })
}

/// The commit message `c` shows before committing (or `NeedRepo` without a repository).
/// A folder the review may not write gets its refusal instead.
pub fn preview_commit(app: &App) -> Msg {
    if let Some(r) = app.review.target.refusal() {
        return Msg::CommitMessage(Err(r));
    }
    match MemoryRepo::discover(&app.review.inputs.memory) {
        Ok(None) => match init_refusal(app) {
            Some(r) => Msg::CommitMessage(Err(r)),
            None => Msg::NeedRepo,
        },
        Err(e) => Msg::CommitMessage(Err(format!("{e:#}"))),
        // What the commit takes is listed with its flags: none may be missing.
        Ok(Some(r)) => match super::update::not_checked_yet(app) {
            Some(wait) => Msg::CommitMessage(Err(wait)),
            None => match crate::store::repo::apply::plan(&r, &app.review, &app.analysis) {
                Ok(p) if p.nothing_new.is_some() => {
                    Msg::NothingNew(p.nothing_new.map(|n| n.to_string()).unwrap_or_default())
                }
                plan => Msg::CommitMessage(
                    plan.map(|p| {
                        let mut m = standing(&p.standing);
                        match edited(app, &p.message) {
                            Some(mine) => {
                                m.push_str(mine);
                                m.push_str("\n(your message: C or e edits it again; the trailers are dreamreview's)");
                            }
                            None => m.push_str(&p.message),
                        }
                        for s in &p.skipped {
                            m.push_str(&format!("\n(not written: {} — {})", super::text::shown_name(&s.id), s.reason));
                        }
                        if p.snapshot_first {
                            m.push_str("\n(uncommitted memory changes are committed first, as a snapshot)");
                        }
                        m
                    })
                    .map_err(|e| format!("{e:#}")),
                ),
            },
        },
    }
}

/// The reviewer's message, while the decisions still give the generated `message` it was
/// made from.
fn edited<'a>(app: &'a App, message: &str) -> Option<&'a str> {
    app.message.as_ref().filter(|(from, _)| from == message).map(|(_, mine)| mine.as_str())
}

/// `C`: the generated message for the current decisions (what an edit is made from) and
/// the text the editor opens — the reviewer's earlier edit of it, if any.
pub fn message_to_edit(app: &App) -> Result<(String, String), String> {
    if let Some(r) = app.review.target.refusal() {
        return Err(r);
    }
    if let Some(wait) = super::update::not_checked_yet(app) {
        return Err(wait);
    }
    let r = repo(app)?;
    let p = crate::store::repo::apply::plan(&r, &app.review, &app.analysis).map_err(|e| format!("{e:#}"))?;
    if let Some(n) = p.nothing_new {
        return Err(n.to_string());
    }
    let shown = edited(app, &p.message).unwrap_or(&p.message).to_string();
    Ok((p.message, crate::store::repo::message::text_to_edit(&shown)))
}

/// The editor git would open for a commit message in the memory repository: `GIT_EDITOR`,
/// then `core.editor`, then `VISUAL`, then `EDITOR`, else `vi`.
pub fn message_editor(app: &App) -> String {
    let env = |k: &str| std::env::var(k).ok().filter(|v| !v.trim().is_empty());
    let core = || {
        let r = repo(app).ok()?;
        let cfg = r.repo.config().ok()?;
        cfg.get_string("core.editor").ok().filter(|v| !v.trim().is_empty())
    };
    env("GIT_EDITOR").or_else(core).or_else(|| env("VISUAL")).or_else(|| env("EDITOR")).unwrap_or_else(|| "vi".into())
}

/// What the commit preview opens with: the flags still standing on what the commit takes
/// (the plan's list, the one its message and evidence record), errors first, each with its
/// hunk id and its message (empty when none stands).
fn standing(flags: &[crate::analysis::standing::StandingFlag]) -> String {
    if flags.is_empty() {
        return String::new();
    }
    let mut out = format!("Still standing on what this commit takes ({}):\n", flags.len());
    for f in flags {
        let sev = format!("{:<7}", f.flag.severity.name());
        let one = crate::store::repo::message::one_line;
        out.push_str(&format!("  {sev} {} {} accepted\n", f.hunk, one(&f.label())));
        if f.flag.claim.is_some() {
            out.push_str(&format!("          {}\n", one(&f.flag.message)));
        }
    }
    out.push('\n');
    out
}

/// Commits the current decisions (under the repository lock).
/// When `HEAD` moved since the review was loaded, nothing is written and the answer is
/// [`Msg::CommitStale`], which reloads.
pub fn commit(app: &App) -> Msg {
    let r = match writable_repo(app) {
        Ok(r) => r,
        Err(e) => return Msg::Committed(Err(e)),
    };
    let lock = match RepoLock::acquire(&r) {
        Ok(l) => l,
        Err(e) => return Msg::Committed(Err(format!("{e:#}"))),
    };
    let mine = app
        .message
        .as_ref()
        .map(|(from, message)| crate::store::repo::apply::EditedMessage { made_from: from, message });
    match crate::store::repo::apply::commit_review_as(&r, &app.review, &app.analysis, &lock, mine) {
        Ok(a) => {
            let mut note = match &a.note_failed {
                Some(why) => format!(" (its evidence note was not written: {why})"),
                None => String::new(),
            };
            for stray in &a.strays {
                note.push_str(&format!("; {stray}"));
            }
            // What an in-place review's rejections did to the files on disk.
            for r in &a.restored {
                note.push_str(&format!("; {r}"));
            }
            Msg::Committed(Ok(format!("committed {} {}{note}", crate::store::repo::short_id(a.commit), a.summary)))
        }
        Err(e) if e.is::<crate::store::repo::apply::HeadMoved>() => Msg::CommitStale(format!("{e}")),
        Err(e) if e.is::<crate::store::repo::apply::NothingNew>() => Msg::NothingNew(format!("{e}")),
        Err(e) => Msg::Committed(Err(format!("{e:#}"))),
    }
}

/// `git init` of the memory folder with a first commit of its notes as they are.
pub fn init_repo(app: &App) -> Msg {
    if let Some(r) = init_refusal(app) {
        return Msg::Initialized(Err(r));
    }
    Msg::Initialized(
        crate::store::repo::init_with_snapshot(&app.review.inputs.memory)
            .map(|_| format!("created a git repository in {}", app.review.inputs.memory.display()))
            .map_err(|e| format!("{e:#}")),
    )
}

/// Reloads the review from disk (saved decisions restored) as model `generation`, in the
/// time zone `zone` when `--tz` or the `time_zone` setting chose it.
pub fn reload(inputs: Inputs, zone: crate::base::zone::Zone, generation: u64) -> Msg {
    match crate::store::repo::load_review(inputs) {
        Ok(mut review) => {
            if matches!(zone.source(), crate::base::zone::ZoneSource::Flag | crate::base::zone::ZoneSource::Setting) {
                review.set_zone(zone);
            }
            // After a commit the dream is reviewed: its leftovers stay decided.
            review.settle_reviewed();
            let _ = decisions::restore(&mut review);
            Msg::Reloaded { generation, review: Box::new(review) }
        }
        Err(e) => Msg::Failed(format!("cannot reload the review: {e:#}")),
    }
}

/// The memory repository's commits, newest first.
/// Reads only the repository of the memory folder `memory`: the runtime runs it off the
/// UI thread.
pub fn history(memory: &Path) -> Msg {
    Msg::History(
        repo_of(memory).and_then(|r| crate::store::repo::history::log(&r, Some(500)).map_err(|e| format!("{e:#}"))),
    )
}

/// One commit's message (secrets masked), diff, and the evidence its review kept (the
/// note read and matched to the diff here, not on the UI's update path).
pub fn history_diff(memory: &Path, id: &str) -> Msg {
    Msg::HistoryDiff(repo_of(memory).and_then(|r| {
        let commit = crate::store::repo::history::find_commit(&r, id).map_err(|e| format!("{e:#}"))?;
        let message = crate::base::secrets::mask(commit.message().unwrap_or("")).into_owned();
        let files = crate::store::repo::history::commit_diff(&r, &commit).map_err(|e| format!("{e:#}"))?;
        let evidence = crate::store::repo::kept::of_commit(&r, &commit, &files);
        Ok(Box::new(OpenedCommit { message: format!("commit {id}\n\n{message}"), files, evidence }))
    }))
}

/// Why a line a diff shows says what it says: found in the note today by its text and
/// explained there, or explained as of the commit that showed it.
pub fn why(memory: &Path, shown: &crate::store::repo::why::ShownLine) -> Msg {
    Msg::Why(
        repo_of(memory)
            .and_then(|r| crate::store::repo::why::trace(&r, shown).map(Box::new).map_err(|e| format!("{e:#}"))),
    )
}

/// Reverts a commit, a file or a hunk of it as a new commit; conflicts write nothing.
pub fn revert(app: &App, commit: &str, scope: &RevertScope) -> Msg {
    use crate::store::repo::revert::Reverted;
    Msg::Reverted(writable_repo(app).and_then(|r| {
        let lock = RepoLock::acquire(&r).map_err(|e| format!("{e:#}"))?;
        match crate::store::repo::revert::revert(&r, commit, scope, &lock).map_err(|e| format!("{e:#}"))? {
            Reverted::Committed { commit, summary, strays, .. } => {
                let said: String = strays.iter().map(|s| format!("; {s}")).collect();
                Ok(format!("committed {} {summary}{said}", crate::store::repo::short_id(commit)))
            }
            Reverted::Nothing => Ok("nothing to revert: the notes already read that way".to_string()),
            Reverted::Conflicts(c) => Err(format!(
                "not reverted, later edits conflict: {}",
                c.iter().map(|x| x.to_string()).collect::<Vec<_>>().join("; ")
            )),
        }
    }))
}
