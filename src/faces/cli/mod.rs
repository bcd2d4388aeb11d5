//! The command line: argument parsing and one function per command, each a thin layer over
//! the library. Exit codes: 0 fine, 1 error flags (or skipped hunks, or for `check` an
//! interrupted write to recover), 2 bad input.

use crate::analysis::result::Analysis;
use crate::faces::report::{self};
use crate::model::review::Review;
use anyhow::{Context, Result};
use clap::{CommandFactory, Parser, Subcommand};
use std::io::Write;
use std::path::PathBuf;
use tui::{demo, tui};

/// `println!` through the one boundary ([`crate::base::shown::text`]): masked, controls visible.
macro_rules! say {
    ($($t:tt)*) => { println!("{}", $crate::base::shown::text(&format!($($t)*))) };
}

/// `eprintln!` through the one boundary ([`crate::base::shown::text`]).
macro_rules! tell {
    ($($t:tt)*) => { eprintln!("{}", $crate::base::shown::text(&format!($($t)*))) };
}

pub mod apply;
pub mod audit;
pub mod baseline;
pub mod dreamcmd;
pub mod history;
pub mod inbox;
pub mod index;
pub mod inputs;
pub mod output;
pub mod settings;
pub mod tui;
pub mod why;

pub use inputs::{InputArgs, load, zone_setting};
pub use output::{shown, stderr_progress};
pub use tui::{demo_startup, startup};

/// dreamreview: the morning review of an AI agent's overnight memory dream.
///
/// With no command: `dreamreview DREAM` (or any option) is `review`; plain `dreamreview`
/// opens the inbox of every waiting dream, or inside a dream folder or a memory folder under
/// git, its review.
#[derive(Parser, Debug)]
#[command(name = "dreamreview", version, about)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Review a dream in the terminal UI (the default command: `dreamreview DREAM` is
    /// `dreamreview review DREAM`).
    Review {
        #[command(flatten)]
        inputs: InputArgs,
    },
    /// Open the bundled demo dream (a temp copy, a real git repository, deleted on exit).
    Demo {
        /// Write the demo to DIR (new or empty) and keep it, instead of a temp copy.
        #[arg(long, value_name = "DIR")]
        keep: Option<PathBuf>,
    },
    /// Print the review model and its flags without a terminal UI; exit 1 on error flags
    /// or an interrupted write that the next apply recovers. The first lines say which
    /// memory folder, where it came from, and any doubt about it.
    Check {
        #[command(flatten)]
        inputs: InputArgs,
        /// Print one JSON object (its fields: docs/check-json.md) instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Audit memory folders: MEMORY.md load budget, dangling links, orphans, frontmatter,
    /// stored credentials, and notes whose sources are gone with no kept text (unverifiable).
    Audit {
        /// Memory folders (default: every $CLAUDE_CONFIG_DIR/projects/*/memory/, else
        /// ~/.claude/projects/*/memory/).
        dirs: Vec<PathBuf>,
        /// Print JSON instead of the table.
        #[arg(long)]
        json: bool,
        /// List the unverifiable notes: lines a review wrote citing transcripts that are gone,
        /// whose text that review did not keep.
        #[arg(long, short)]
        verbose: bool,
    },
    /// Write the accepted hunks to the memory folder and commit them; exit 1 when some
    /// could not be written. A folder only memory.diff names is written only when it is
    /// ~/.claude/projects/<project>/memory or already holds review commits (else exit 2:
    /// pass --memory).
    Apply(apply::ApplyArgs),
    /// List the commits touching the memory folder (review commits marked with counts).
    Log(history::LogArgs),
    /// Undo a commit, one file or one hunk of it, as a new commit (never rewrites history).
    Revert(history::RevertArgs),
    /// Finish or roll back a write that was interrupted (the commit was made: finish it;
    /// it was not: put the notes back as they were) and write evidence notes left pending,
    /// saying which and why. `apply`, `revert` and the TUI do the same first.
    Recover(history::RecoverArgs),
    /// Where a line of a note came from: the review that wrote it, the cited transcript
    /// lines as the reviewer saw them (kept even after the transcript is deleted), the
    /// claims and verdicts, the flags accepted.
    Why(why::WhyArgs),
    /// List every dream waiting on this machine (what plain `dreamreview` opens): dream
    /// folders in the dreams folder and the configured ones, in-place changes in each Claude
    /// Code memory repository, configured OpenClaw workspaces. Enter reviews one.
    Inbox(inbox::InboxArgs),
    /// Print the settings in force (config file, environment, defaults) and where each came
    /// from; the keys are in docs/config.md.
    Config {
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Print a shell completion script: `dreamreview completions bash > ~/.local/share/bash-completion/completions/dreamreview`.
    Completions {
        /// The shell.
        shell: clap_complete::Shell,
    },
    /// Print the manual page (roff): `dreamreview man > ~/.local/share/man/man1/dreamreview.1`.
    Man,
    /// Build or bring up to date the transcript index (kept in $XDG_CACHE_HOME/dreamreview,
    /// else ~/.cache/dreamreview) for these transcript files or folders. `check`, `review`
    /// and `apply` index up to 1 MiB of what is new themselves and start this in the
    /// background for the rest, so that no run waits for indexing.
    Index(index::IndexArgs),
    /// Run the night's dream of Claude Code projects safely: copy the memory folder and the
    /// transcripts of the sessions active in the window (sub-agents too) into a private
    /// scratch folder (removed however the run ends), run the dreamer there, and write
    /// `dream-YYYY-MM-DD/` (memory/, CHANGES.md, memory.diff, run.log) into the dreams
    /// folder. Live memory is never touched.
    Dream(dreamcmd::DreamArgs),
    /// Commit what sessions wrote to a memory folder as a snapshot commit (never a review
    /// commit), so that an in-place dream is reviewed against a HEAD holding everything but
    /// the dream. `--init` makes a folder outside git a repository first.
    Snapshot(baseline::SnapshotArgs),
    /// Add (install) or remove (uninstall) a Claude Code SessionEnd hook running
    /// `dreamreview snapshot --hook` in settings.json; nothing else in the file changes, and
    /// a backup is written first.
    Hooks(baseline::HooksArgs),
}

/// Runs the command line and returns the process exit code.
pub fn main() -> i32 {
    let cli = match Cli::try_parse_from(dreamcmd::hyphen_projects(with_default_command(std::env::args_os().collect())))
    {
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
    // The transcript index is the command line's choice (never a library default: a
    // program using the library in-process keeps its scans off the user's cache).
    let mut cli = cli;
    let mut cache = None;
    if let Command::Review { inputs } | Command::Check { inputs, .. } | Command::Apply(apply::ApplyArgs { inputs, .. }) =
        &mut cli.command
        && !inputs.no_index
    {
        inputs.index = crate::inputs::transcript::index::default_dir();
        cache.clone_from(&inputs.index);
    }
    if let Command::Inbox(args) = &mut cli.command
        && !args.no_index
    {
        args.index = crate::inputs::transcript::index::default_dir();
        cache.clone_from(&args.index);
    }
    // The `time_zone` setting, beneath `--tz`; a config file that cannot be read is an error
    // of every command that uses the settings.
    if let Command::Review { inputs } | Command::Check { inputs, .. } | Command::Apply(apply::ApplyArgs { inputs, .. }) =
        &mut cli.command
        && inputs.tz.is_none()
    {
        match crate::inputs::config::load(&crate::inputs::config::Overrides::default()).and_then(|c| zone_setting(&c)) {
            Ok(z) => inputs.zone_setting = z,
            Err(e) => {
                tell!("dreamreview: {}", shown(&format!("{e:#}")));
                return 2;
            }
        }
    }
    let code = match run(cli) {
        Ok(code) => code,
        Err(e) => {
            tell!("dreamreview: {}", shown(&format!("{e:#}")));
            2
        }
    };
    index::hand_over_deferred(cache.as_deref());
    code
}

/// Puts `review` in front of arguments that name no command: nothing at all, an option
/// (`--memory DIR`), or a path that exists (`dreamreview ./dream`). A word that is neither
/// is left for clap, so a typo (`chek`) gets "a similar subcommand exists: 'check'" instead
/// of being taken for a dream folder.
///
/// Nothing at all is [`inbox::default_here`]: the inbox, or inside a dream folder or a
/// memory folder under git, its review.
pub fn with_default_command(mut args: Vec<std::ffi::OsString>) -> Vec<std::ffi::OsString> {
    let first = args.get(1).map(|a| a.to_string_lossy().into_owned());
    if first.is_none() {
        let cwd = std::env::current_dir().ok();
        args.extend(inbox::default_here(cwd.as_deref()).into_iter().map(std::ffi::OsString::from));
        return args;
    }
    let insert = match first.as_deref() {
        None => true,
        Some("-h" | "--help" | "-V" | "--version") => false,
        Some(a) if a.starts_with('-') => true,
        Some(a) => COMMANDS.iter().all(|n| *n != a) && std::path::Path::new(a).exists(),
    };
    if insert {
        args.insert(1.min(args.len()), "review".into());
    }
    args
}

/// The command names, as typed (clap's `help` included).
pub const COMMANDS: [&str; 18] = [
    "review",
    "demo",
    "check",
    "audit",
    "apply",
    "log",
    "revert",
    "recover",
    "why",
    "inbox",
    "config",
    "completions",
    "man",
    "index",
    "help",
    "dream",
    "snapshot",
    "hooks",
];

fn run(cli: Cli) -> Result<i32> {
    match cli.command {
        Command::Review { inputs } => tui(&inputs, None, false),
        Command::Check { inputs, json } => check(&inputs, json),
        Command::Demo { keep } => demo(keep.as_deref()),
        Command::Audit { dirs, json, verbose } => {
            let dirs = if dirs.is_empty() { crate::analysis::audit::default_dirs() } else { dirs };
            // JSON is made safe as it is serialized; text on its way out.
            let mut out: Box<dyn Write> = if json {
                Box::new(std::io::stdout().lock())
            } else {
                Box::new(crate::base::shown::Guarded::new(std::io::stdout().lock()))
            };
            let options = audit::Options { json, verbose, history: Some(&crate::store::repo::unverifiable::find) };
            audit::run(&dirs, &options, &mut out)
        }
        Command::Apply(a) => apply::run(&a),
        Command::Log(a) => history::log(&a),
        Command::Revert(a) => history::revert(&a),
        Command::Recover(a) => history::recover(&a),
        Command::Why(a) => why::run(&a),
        Command::Index(a) => index::run(&a),
        Command::Dream(a) => dreamcmd::run(&a),
        Command::Snapshot(a) => baseline::snapshot(&a),
        Command::Hooks(a) => baseline::hooks(&a),
        Command::Inbox(a) => inbox::run(&a),
        Command::Config { json } => settings::show(json),
        Command::Completions { shell } => settings::completions(Cli::command(), shell),
        Command::Man => settings::man(Cli::command()),
    }
}

/// Runs every analysis of a loaded review (see [`crate::analysis`]).
pub fn analyze(review: &Review) -> Analysis {
    crate::analysis::analyze(review)
}

fn check(inputs: &InputArgs, json: bool) -> Result<i32> {
    let review = load(inputs)?;
    let interrupted = report::Interruption::find(&review.inputs.memory)?;
    let analysis = crate::analysis::analyze_with(&review, &stderr_progress());
    for note in crate::inputs::transcript::index::take_notes() {
        tell!("dreamreview: {}", shown(&note));
    }
    if std::env::var_os("DREAMREVIEW_INDEX_STATS").is_some() {
        tell!("{}", crate::inputs::transcript::index::stats());
    }
    let mut stdout = std::io::BufWriter::new(std::io::stdout().lock());
    if json {
        // Streamed: a report of 50,000 hunks is tens of MB of JSON, never held whole.
        let written = report::write_json(&mut stdout, &review, &analysis, interrupted.as_ref())
            .and_then(|()| writeln!(stdout).map_err(serde_json::Error::io));
        // A reader that stopped early (`| head`) is no failure, as in text mode.
        if let Err(e) = written.as_ref().map_err(|e| e.io_error_kind())
            && e != Some(std::io::ErrorKind::BrokenPipe)
        {
            written.context("cannot write the report to standard output")?;
        }
    } else {
        let out = report::to_text(&review, &analysis, interrupted.as_ref());
        let _ = writeln!(stdout, "{}", crate::base::shown::text(out.trim_end()));
    }
    let _ = stdout.flush();
    // On stderr, so that `--json` stays one document.
    if let Some(banner) = review.reviewed_banner() {
        let what = if inputs.again {
            "what it did not take is pending again (--again)"
        } else {
            "what it did not take is shown as it decided (rejected); pass --again to decide it again"
        };
        tell!("dreamreview: note: this dream was {}; {what}", shown(&banner));
    }
    let needs_action = interrupted.is_some() || crate::analysis::standing::has_blocking_errors(&review, &analysis);
    Ok(if needs_action { 1 } else { 0 })
}
