//! The side effects behind commands that touch the memory repository — each returns the
//! message that reports its outcome. The runtime calls them; tests call them too, to drive
//! a whole review (commit, history, revert) without a terminal.

use super::msg::Msg;
use super::state::App;
use crate::dream::Inputs;
use crate::repo::MemoryRepo;
use crate::repo::lock::RepoLock;
use crate::repo::message::RevertScope;
use crate::review::{Review, persist};

fn repo(app: &App) -> Result<MemoryRepo, String> {
    MemoryRepo::discover(&app.review.inputs.memory)
        .map_err(|e| format!("{e:#}"))?
        .ok_or_else(|| format!("{} is not in a git repository", app.review.inputs.memory.display()))
}

/// The commit message `c` shows before committing (or `NeedRepo` without a repository).
pub fn preview_commit(app: &App) -> Msg {
    match MemoryRepo::discover(&app.review.inputs.memory) {
        Ok(None) => Msg::NeedRepo,
        Err(e) => Msg::CommitMessage(Err(format!("{e:#}"))),
        Ok(Some(r)) => Msg::CommitMessage(
            crate::repo::apply::plan(&r, &app.review, &app.analysis)
                .map(|p| {
                    let mut m = p.message;
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
    }
}

/// Commits the current decisions (under the repository lock).
pub fn commit(app: &App) -> Msg {
    Msg::Committed(repo(app).and_then(|r| {
        let lock = RepoLock::acquire(&r).map_err(|e| format!("{e:#}"))?;
        crate::repo::apply::commit_review(&r, &app.review, &app.analysis, &lock)
            .map(|a| format!("committed {} {}", crate::repo::short_id(a.commit), a.summary))
            .map_err(|e| format!("{e:#}"))
    }))
}

/// `git init` of the memory folder with a first commit of its notes as they are.
pub fn init_repo(app: &App) -> Msg {
    Msg::Initialized(
        crate::repo::init_with_snapshot(&app.review.inputs.memory)
            .map(|_| format!("created a git repository in {}", app.review.inputs.memory.display()))
            .map_err(|e| format!("{e:#}")),
    )
}

/// Reloads the review from disk (saved decisions restored) as model `generation`.
pub fn reload(inputs: Inputs, generation: u64) -> Msg {
    match Review::load(inputs) {
        Ok(mut review) => {
            let _ = persist::restore(&mut review);
            Msg::Reloaded { generation, review: Box::new(review) }
        }
        Err(e) => Msg::Failed(format!("cannot reload the review: {e:#}")),
    }
}

/// The memory repository's commits, newest first.
pub fn history(app: &App) -> Msg {
    Msg::History(repo(app).and_then(|r| crate::repo::history::log(&r, Some(500)).map_err(|e| format!("{e:#}"))))
}

/// One commit's message (secrets masked) and diff.
pub fn history_diff(app: &App, id: &str) -> Msg {
    Msg::HistoryDiff(repo(app).and_then(|r| {
        let commit = crate::repo::history::find_commit(&r, id).map_err(|e| format!("{e:#}"))?;
        let message = crate::secrets::mask(commit.message().unwrap_or("")).into_owned();
        let files = crate::repo::history::commit_diff(&r, &commit).map_err(|e| format!("{e:#}"))?;
        Ok((format!("commit {id}\n\n{message}"), files))
    }))
}

/// Reverts a commit, a file or a hunk of it as a new commit; conflicts write nothing.
pub fn revert(app: &App, commit: &str, scope: &RevertScope) -> Msg {
    use crate::repo::revert::Reverted;
    Msg::Reverted(repo(app).and_then(|r| {
        let lock = RepoLock::acquire(&r).map_err(|e| format!("{e:#}"))?;
        match crate::repo::revert::revert(&r, commit, scope, &lock).map_err(|e| format!("{e:#}"))? {
            Reverted::Committed { commit, summary, .. } => {
                Ok(format!("committed {} {summary}", crate::repo::short_id(commit)))
            }
            Reverted::Nothing => Ok("nothing to revert: the notes already read that way".to_string()),
            Reverted::Conflicts(c) => Err(format!(
                "not reverted, later edits conflict: {}",
                c.iter().map(|x| x.to_string()).collect::<Vec<_>>().join("; ")
            )),
        }
    }))
}
