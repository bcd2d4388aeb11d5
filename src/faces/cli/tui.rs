//! Opening the TUI from the command line: on a review (recovering an interrupted write and
//! restoring saved decisions first), or on the bundled demo.

use super::inputs::InputArgs;
use crate::inputs::target::Target;
use crate::model::review::Review;
use anyhow::{Context, Result};
use std::path::PathBuf;

/// Opens the TUI: recovers an interrupted earlier write, restores saved decisions, and
/// says on the first screen where the review goes and that a dream was already reviewed.
pub(super) fn tui(inputs: &InputArgs, throwaway: Option<PathBuf>, demo: bool) -> Result<i32> {
    let found = inputs.discover()?;
    let target = Target::assess_here(&found.memory, found.origin, crate::store::repo::history::holds_reviews);
    // A folder the review may not write is not recovered either: only read.
    let mut notes = match crate::store::repo::MemoryRepo::discover(&found.memory)? {
        Some(r) if target.trust.writable() => recover_at_start(&r)?,
        _ => Vec::new(),
    };
    let mut review = crate::store::repo::load_review(found)?;
    inputs.apply_zone(&mut review);
    if !inputs.again {
        review.settle_reviewed();
    }
    let restored = crate::store::repo::decisions::restore(&mut review)?;
    if restored.applied > 0 {
        notes.push(format!(
            "restored {} decision{} from your last session (u undoes nothing before this)",
            restored.applied,
            if restored.applied == 1 { "" } else { "s" }
        ));
    }
    let mut startup = if demo { demo_startup(&review, notes) } else { startup(&review, notes) };
    startup.throwaway = throwaway;
    // `main` has read the settings already: an unreadable file stopped the run there.
    startup.theme = crate::inputs::config::load(&crate::inputs::config::Overrides::default())
        .ok()
        .map(|c| crate::faces::ui::theme::Theme::for_choice(c.theme.value));
    crate::faces::ui::run::run(review, startup)
}

/// What the TUI's first screen says besides the review: `notes` (a recovered write,
/// restored decisions), then the memory folder, where it came from and any doubt about
/// it. (That the dream was already reviewed, the evidence pane says from the model.)
pub fn startup(review: &Review, mut notes: Vec<String>) -> crate::faces::ui::run::Startup {
    notes.push(format!("memory {}", review.target.describe()));
    crate::faces::ui::run::Startup { status: Some(notes.join(" · ")), ..Default::default() }
}

/// The demo's first screen: its memory folder is the copy dreamreview just made, so none
/// of the doubts [`startup`] raises about a folder (no `~/.claude/projects`) applies.
pub fn demo_startup(review: &Review, mut notes: Vec<String>) -> crate::faces::ui::run::Startup {
    notes.push(format!("memory {} (the demo's own)", review.inputs.memory.display()));
    crate::faces::ui::run::Startup { status: Some(notes.join(" · ")), ..Default::default() }
}

/// Recovers a write an earlier process left unfinished, under the repository's lock (a
/// write still going on is left alone and named). Returns what the first screen says.
fn recover_at_start(repo: &crate::store::repo::MemoryRepo) -> Result<Vec<String>> {
    use crate::store::repo::{journal, lock::RepoLock, recover};
    if !journal::journal_path(repo).exists() {
        return Ok(Vec::new());
    }
    let lock = match RepoLock::acquire(repo) {
        Ok(l) => l,
        Err(e) => return Ok(vec![format!("{e:#}; its unfinished write is left to it")]),
    };
    Ok(lock.took_over.iter().cloned().chain(recover::recover(repo)?).collect())
}

/// Opens the bundled demo in a temp copy; the copy is deleted when the review closes.
pub(super) fn demo(keep: Option<&std::path::Path>) -> Result<i32> {
    let temp;
    let root = match keep {
        Some(dir) => {
            let empty = std::fs::read_dir(dir).map(|mut d| d.next().is_none()).unwrap_or(true);
            if !empty {
                anyhow::bail!("{} is not empty; give --keep a new or empty folder", dir.display());
            }
            std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
            dir.canonicalize().with_context(|| format!("cannot resolve {}", dir.display()))?
        }
        None => {
            temp = tempfile::Builder::new().prefix("dreamreview-demo-").tempdir()?;
            temp.path().to_path_buf()
        }
    };
    let demo = crate::faces::demo::materialize(&root)?;
    let memory = demo.memory.clone();
    // The demo's memory folder is one dreamreview made: it is named, not taken from memory.diff.
    let inputs = InputArgs { dream: Some(demo.dream), memory: Some(demo.memory), ..InputArgs::default() };
    let code = tui(&inputs, keep.is_none().then(|| root.clone()), true)?;
    match keep {
        Some(_) => say!("the demo's memory repository is kept at {}", memory.display()),
        None => say!(
            "the demo's memory repository was {} (deleted); `dreamreview demo --keep DIR` keeps one",
            memory.display()
        ),
    }
    Ok(code)
}
