//! The command line: argument parsing and one function per command, each a thin layer over
//! the library. Exit codes: 0 fine, 1 error flags (or skipped hunks, or for `check` an
//! interrupted write to recover), 2 bad input.

use crate::analysis::result::Analysis;
use crate::faces::report::{self};
use crate::inputs::dream;
use crate::inputs::target::Target;
use crate::model::review::Review;
use anyhow::{Context, Result};
use clap::{Args, Parser, Subcommand};
use std::io::Write;
use std::path::PathBuf;

/// `println!` through the one boundary ([`crate::base::shown::text`]): masked, controls visible.
macro_rules! say {
    ($($t:tt)*) => { println!("{}", $crate::base::shown::text(&format!($($t)*))) };
}

/// `eprintln!` through the one boundary ([`crate::base::shown::text`]).
macro_rules! tell {
    ($($t:tt)*) => { eprintln!("{}", $crate::base::shown::text(&format!($($t)*))) };
}

pub mod apply;
pub mod baseline;
pub mod dreamcmd;
pub mod history;
pub mod inbox;
pub mod index;
pub mod settings;
pub mod why;

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

/// Where the dream, the live memory and the transcripts are.
#[derive(Args, Debug, Clone, Default)]
pub struct InputArgs {
    /// The dream folder (dream.sh output or a folder of proposed notes). Omit it to review
    /// an in-place dream: the memory work tree against HEAD.
    pub dream: Option<PathBuf>,
    /// The live memory folder (default: for an in-place dream, the current directory; else
    /// the folder memory.diff names, which apply and the TUI's commit write only when it is
    /// ~/.claude/projects/<project>/memory or already holds review commits).
    #[arg(long, value_name = "DIR")]
    pub memory: Option<PathBuf>,
    /// Extra transcript folders (Claude Code JSONL, Markdown daily notes); repeatable.
    #[arg(long, value_name = "DIR")]
    pub sources: Vec<PathBuf>,
    /// Decide again what the last review of this dream did not take. Without it, a dream a
    /// review commit already carries opens with those leftovers decided as that commit
    /// decided them (rejected): nothing pending, and `apply` refuses.
    #[arg(long)]
    pub again: bool,
    /// The time zone the user speaks in, for the day a transcript line was said on ("yesterday"
    /// at 23:30 UTC is another day in Tokyo): an IANA name (Asia/Tokyo, Europe/Paris) or a UTC
    /// offset (+09:00). Default: the machine's zone (TZ, /etc/localtime), else the UTC offset
    /// of the memory repository's recent commits, else UTC with a day of slack. `check` prints
    /// which it used.
    #[arg(long, value_name = "ZONE", value_parser = parse_tz)]
    pub tz: Option<crate::base::zone::Zone>,
    /// Scan every transcript whole instead of through the index of what they say (kept in
    /// $XDG_CACHE_HOME/dreamreview, else ~/.cache/dreamreview; see the README). The output
    /// is the same either way.
    #[arg(long)]
    pub no_index: bool,
    /// Do not check the file paths, commits, branches and script names the dream adds
    /// against the git repository of the folder the sessions ran in (their `cwd`).
    #[arg(long)]
    pub no_repo_check: bool,
    /// The share of the memory's notes or lines (1–100, default 25, or
    /// DREAMREVIEW_MASS_REMOVAL_PERCENT) a review may remove before it is a mass removal:
    /// an error on every removal, a banner in the review.
    #[arg(long, value_name = "PERCENT", value_parser = clap::value_parser!(u8).range(1..=100))]
    pub mass_removal_percent: Option<u8>,
    /// Where the transcript index is kept: set by the command line's `main` (unless
    /// `--no-index`), never by clap, so in-process callers scan without it.
    #[arg(skip)]
    pub index: Option<PathBuf>,
    /// The zone the `time_zone` setting names (`DREAMREVIEW_TZ`, the config file), used
    /// when `--tz` is not given: set by the command line's `main`, never by clap.
    #[arg(skip)]
    pub zone_setting: Option<crate::base::zone::Zone>,
}

impl InputArgs {
    /// The dream's inputs (see [`dream::discover`]), with the index folder these
    /// arguments carry.
    /// A dream folder in the dreams folder (`<dreams>/<project>/dream-*`) whose memory.diff
    /// names no folder of this machine is its project's: `<projects>/<project>/memory`.
    pub fn discover(&self) -> Result<dream::Inputs> {
        let found = dream::discover(self.dream.as_deref(), self.memory.as_deref(), &self.sources);
        let fallback = match (&found, &self.dream, &self.memory) {
            (Err(_), Some(d), None) => inbox::project_memory(d),
            _ => None,
        };
        let mut found = match fallback {
            Some(m) => dream::discover(self.dream.as_deref(), Some(&m), &self.sources).or(found)?,
            None => found?,
        };
        found.index = self.index.clone();
        found.repo_check = !self.no_repo_check;
        found.mass_removal_percent = self.mass_removal_percent.map(usize::from);
        Ok(found)
    }
}

/// `--tz`'s value as a zone; the error names the value.
fn parse_tz(value: &str) -> std::result::Result<crate::base::zone::Zone, String> {
    crate::base::zone::Zone::parse(value)
}

impl InputArgs {
    /// Applies `--tz` to a loaded review.
    pub fn apply_zone(&self, review: &mut Review) {
        if let Some(z) = self.tz.as_ref().or(self.zone_setting.as_ref()) {
            review.set_zone(z.clone());
        }
    }
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
            let options = crate::analysis::audit::Options {
                json,
                verbose,
                history: Some(&crate::store::repo::unverifiable::find),
            };
            crate::analysis::audit::run(&dirs, &options, &mut out)
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
        Command::Completions { shell } => settings::completions(shell),
        Command::Man => settings::man(),
    }
}

/// The zone the `time_zone` setting names, when it is set by `DREAMREVIEW_TZ` or the
/// config file (a `--tz` flag is applied by clap).
pub fn zone_setting(config: &crate::inputs::config::Config) -> Result<Option<crate::base::zone::Zone>> {
    let (Some(name), source) = (&config.time_zone.value, &config.time_zone.source) else { return Ok(None) };
    let detail = match (source, &config.file) {
        (crate::inputs::config::Source::File, Some(f)) => format!("time_zone in {}", f.display()),
        (s, _) => s.label(),
    };
    crate::base::zone::Zone::from_setting(name, detail).map(Some).map_err(|e| anyhow::anyhow!(e))
}

/// A message as the command line prints it: credentials masked (an error may repeat an
/// argument or a path, and either may be a pasted secret), control characters visible.
pub fn shown(message: &str) -> String {
    crate::base::shown::text(message).into_owned()
}

/// Loads a review from command-line inputs.
/// A dream already reviewed opens settled ([`Review::settle_reviewed`]) unless `--again`.
pub fn load(inputs: &InputArgs) -> Result<Review> {
    let found = inputs.discover()?;
    let mut review = crate::store::repo::load_review(found)?;
    inputs.apply_zone(&mut review);
    if !inputs.again {
        review.settle_reviewed();
    }
    Ok(review)
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
/// says on the first screen where the review goes and that a dream was already reviewed.
fn tui(inputs: &InputArgs, throwaway: Option<PathBuf>, demo: bool) -> Result<i32> {
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
    use crate::store::repo::{journal, lock::RepoLock};
    if !journal::journal_path(repo).exists() {
        return Ok(Vec::new());
    }
    let lock = match RepoLock::acquire(repo) {
        Ok(l) => l,
        Err(e) => return Ok(vec![format!("{e:#}; its unfinished write is left to it")]),
    };
    Ok(lock.took_over.iter().cloned().chain(journal::recover(repo)?).collect())
}

/// Opens the bundled demo in a temp copy; the copy is deleted when the review closes.
fn demo(keep: Option<&std::path::Path>) -> Result<i32> {
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
