//! The command line: argument parsing and one function per command, each a thin layer over
//! the library. Exit codes: 0 fine, 1 error flags (or skipped hunks), 2 bad input.

use crate::dream;
use crate::report::{self, Analysis};
use crate::review::Review;
use anyhow::Result;
use clap::{Args, Parser, Subcommand};
use std::io::Write;
use std::path::PathBuf;

pub mod apply;
pub mod history;

/// dreamreview: the morning review of an AI agent's overnight memory dream.
#[derive(Parser, Debug)]
#[command(name = "dreamreview", version, about, args_conflicts_with_subcommands = true)]
pub struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    inputs: InputArgs,
}

/// Where the dream, the live memory and the transcripts are.
#[derive(Args, Debug, Clone, Default)]
pub struct InputArgs {
    /// The dream folder (dream.sh output or a folder of proposed notes). Omit it to review
    /// an in-place dream: the memory work tree against HEAD.
    pub dream: Option<PathBuf>,
    /// The live memory folder (default: the folder memory.diff names; for an in-place
    /// dream, the current directory).
    #[arg(long, value_name = "DIR")]
    pub memory: Option<PathBuf>,
    /// Extra transcript folders (Claude Code JSONL, Markdown daily notes); repeatable.
    #[arg(long, value_name = "DIR")]
    pub sources: Vec<PathBuf>,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Open the bundled demo dream (a temp copy, a real git repository).
    Demo,
    /// Print the review model and its flags without a terminal UI; exit 1 on error flags.
    Check {
        #[command(flatten)]
        inputs: InputArgs,
        /// Print one JSON object (design.md §7) instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Audit memory folders: MEMORY.md load budget, dangling links, orphans, frontmatter.
    Audit {
        /// Memory folders (default: every ~/.claude/projects/*/memory/).
        dirs: Vec<PathBuf>,
        /// Print JSON instead of the table.
        #[arg(long)]
        json: bool,
    },
    /// Write the accepted hunks to the memory folder and commit them; exit 1 when some
    /// could not be written.
    Apply(apply::ApplyArgs),
    /// List the commits touching the memory folder (review commits marked with counts).
    Log(history::LogArgs),
    /// Undo a commit, one file or one hunk of it, as a new commit (never rewrites history).
    Revert(history::RevertArgs),
}

/// Runs the command line and returns the process exit code.
pub fn main() -> i32 {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) if e.use_stderr() => {
            // clap repeats the offending argument: it may be a pasted credential.
            eprint!("{}", shown(&e.render().to_string()));
            return 2;
        }
        Err(e) => {
            let _ = e.print();
            return 0;
        }
    };
    match run(cli) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("dreamreview: {}", shown(&format!("{e:#}")));
            2
        }
    }
}

fn run(cli: Cli) -> Result<i32> {
    match cli.command {
        Some(Command::Check { inputs, json }) => check(&inputs, json),
        Some(Command::Demo) => demo(),
        Some(Command::Audit { dirs, json }) => {
            let dirs = if dirs.is_empty() { crate::audit::default_dirs() } else { dirs };
            let mut out = std::io::stdout().lock();
            crate::audit::run(&dirs, json, &mut out)
        }
        Some(Command::Apply(a)) => apply::run(&a),
        Some(Command::Log(a)) => history::log(&a),
        Some(Command::Revert(a)) => history::revert(&a),
        None => tui(&cli.inputs),
    }
}

/// A message as the command line prints it: credentials masked (an error may repeat an
/// argument or a path, and either may be a pasted secret), control characters visible.
pub fn shown(message: &str) -> String {
    crate::text::visible_controls(&crate::secrets::mask(message)).into_owned()
}

/// Loads a review from command-line inputs.
pub fn load(inputs: &InputArgs) -> Result<Review> {
    let found = dream::discover(inputs.dream.as_deref(), inputs.memory.as_deref(), &inputs.sources)?;
    Review::load(found)
}

/// Runs every analysis of a loaded review (see [`crate::analysis`]).
pub fn analyze(review: &Review) -> Analysis {
    crate::analysis::analyze(review)
}

fn check(inputs: &InputArgs, json: bool) -> Result<i32> {
    let review = load(inputs)?;
    let analysis = crate::analysis::analyze_with(&review, &stderr_progress());
    let out = if json { report::to_json(&review, &analysis) } else { report::to_text(&review, &analysis) };
    let mut stdout = std::io::stdout().lock();
    let _ = writeln!(stdout, "{}", out.trim_end());
    // On stderr, so that `--json` stays one document.
    if let Some(prev) = &review.reviewed {
        eprintln!("dreamreview: note: this dream was already reviewed in {} ({})", prev.short, shown(&prev.summary));
    }
    Ok(if report::has_blocking_errors(&review, &analysis) { 1 } else { 0 })
}

/// A progress callback that shows `checking transcripts… 42%` on stderr when stderr is a
/// terminal (and nothing when it is a pipe or a file), cleared when done.
pub fn stderr_progress() -> impl Fn(u64, u64) {
    use std::io::IsTerminal;
    let tty = std::io::stderr().is_terminal();
    let last = std::sync::atomic::AtomicU64::new(u64::MAX);
    move |done: u64, total: u64| {
        if !tty || total == 0 {
            return;
        }
        let pct = done.saturating_mul(100) / total;
        if last.swap(pct, std::sync::atomic::Ordering::Relaxed) == pct {
            return;
        }
        let mut err = std::io::stderr().lock();
        if done >= total {
            let _ = write!(err, "\r\x1b[K");
        } else {
            let _ = write!(err, "\rchecking transcripts… {pct}% of {} MB", total / 1_000_000);
        }
        let _ = err.flush();
    }
}

/// Opens the TUI: recovers an interrupted earlier write, restores saved decisions, and
/// notes a dream that was already reviewed.
fn tui(inputs: &InputArgs) -> Result<i32> {
    let found = dream::discover(inputs.dream.as_deref(), inputs.memory.as_deref(), &inputs.sources)?;
    let repo = crate::repo::MemoryRepo::discover(&found.memory)?;
    let mut notes = Vec::new();
    if let Some(r) = &repo
        && let Some(m) = crate::repo::journal::recover(r)?
    {
        notes.push(m);
    }
    let mut review = Review::load(found)?;
    let restored = crate::review::persist::restore(&mut review)?;
    if restored.applied > 0 {
        notes.push(format!(
            "restored {} decision{} from your last session (u undoes nothing before this)",
            restored.applied,
            if restored.applied == 1 { "" } else { "s" }
        ));
    }
    let already_reviewed = review.reviewed.as_ref().map(|e| {
        format!(
            "This dream was already reviewed in {} ({}). Committing again records a new review.",
            e.short, e.summary
        )
    });
    let startup = crate::ui::run::Startup { status: (!notes.is_empty()).then(|| notes.join(" · ")), already_reviewed };
    crate::ui::run::run(review, startup)
}

/// Opens the bundled demo in a temp copy; the copy is deleted when the review closes.
fn demo() -> Result<i32> {
    let dir = tempfile::Builder::new().prefix("dreamreview-demo-").tempdir()?;
    let demo = crate::demo::materialize(dir.path())?;
    let inputs = InputArgs { dream: Some(demo.dream), memory: None, sources: Vec::new() };
    tui(&inputs)
}
