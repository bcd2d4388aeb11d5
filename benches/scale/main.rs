//! dreamreview at scale, measured side by side with the standard tools
//! (BENCHMARKS.md). A bench binary, not timed tests:
//!
//! ```text
//! cargo bench --bench scale -- generate /tmp/dr-1g --size 1G     # 913 sessions, 500 notes
//! cargo bench --bench scale -- check /tmp/dr-1g                  # check --json vs rg -c -F -f
//! cargo bench --bench scale -- scan /tmp/dr-1g                   # the scanner alone vs rg
//! cargo bench --bench scale -- diff /tmp/dr-1g                   # Review::load vs git diff --no-index
//! cargo bench --bench scale -- tui /tmp/dr-1g                    # first frame, keypress p50/p99
//! cargo bench --bench scale -- scaling /tmp/dr-100m /tmp/dr-1g /tmp/dr-4g
//! cargo bench --bench scale -- hostile /tmp/dr-hostile                # huge citations, 50k hunks
//! cargo bench --bench scale -- citations /tmp/dr-citations            # n citations in one entry
//! cargo bench --bench scale -- index /tmp/dr-1g                  # transcript index: cold/warm/append vs rg
//! cargo bench --bench scale -- big-note /tmp/dr-big              # one note, 5k–50k changed lines
//! ```

mod bench_big_note;
mod bench_check;
mod bench_citations;
mod bench_diff;
mod bench_hostile;
mod bench_index;
mod bench_scan;
mod bench_tui;
mod generator;
mod measure;

use anyhow::Result;
use clap::{Parser, Subcommand};
use std::path::PathBuf;

/// Benchmarks of dreamreview against rg and git.
#[derive(Parser, Debug)]
#[command(name = "scale")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Write a generated project (transcripts, memory repo, dream) to DIR.
    Generate {
        /// Output folder (must not exist or be empty).
        dir: PathBuf,
        /// Transcript bytes: 100M, 1G, 4G…
        #[arg(long, default_value = "1G")]
        size: String,
        /// Sessions (default: 913 per GiB).
        #[arg(long)]
        sessions: Option<usize>,
        /// Notes in the memory folder.
        #[arg(long, default_value_t = 500)]
        notes: usize,
        /// Seed.
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
    /// Write the needles provenance scans for to DIR/claims.txt (one per line).
    Needles {
        /// A generated folder.
        dir: PathBuf,
    },
    /// `dreamreview check --json` vs `rg -c -F -f claims.txt` on the same transcripts.
    Check {
        /// A generated folder.
        dir: PathBuf,
        /// Timed runs of each command (after a warm-up run).
        #[arg(long, default_value_t = 3)]
        runs: usize,
        /// The dreamreview binary (default: the one cargo built with this bench).
        #[arg(long)]
        bin: Option<PathBuf>,
    },
    /// The scanner alone (no claim matching) vs `rg -c -F -f claims.txt`.
    Scan {
        /// A generated folder.
        dir: PathBuf,
        /// Timed runs.
        #[arg(long, default_value_t = 3)]
        runs: usize,
    },
    /// Loading the review model (Review::load) vs `git diff --no-index` of the folders.
    Diff {
        /// A generated folder.
        dir: PathBuf,
        /// Timed runs of each command.
        #[arg(long, default_value_t = 10)]
        runs: usize,
    },
    /// Loads the review of DIR once and exits (timed by `diff`).
    Load {
        /// A generated folder.
        dir: PathBuf,
    },
    /// TUI: first frame on DIR while provenance streams, and keypress→frame on a
    /// 5,000-line diff.
    Tui {
        /// A generated folder (for the first frame).
        dir: PathBuf,
        /// Diff lines of the keypress benchmark.
        #[arg(long, default_value_t = 5000)]
        lines: usize,
        /// Keypresses timed.
        #[arg(long, default_value_t = 3000)]
        keys: usize,
        /// Repetitions of the first-frame measurement.
        #[arg(long, default_value_t = 10)]
        runs: usize,
    },
    /// `check` on several generated folders: how time and memory grow with input size.
    Scaling {
        /// Generated folders, smallest first.
        dirs: Vec<PathBuf>,
        /// Timed runs of each command.
        #[arg(long, default_value_t = 3)]
        runs: usize,
        /// The dreamreview binary.
        #[arg(long)]
        bin: Option<PathBuf>,
    },
    /// The transcript index: `check --json` cold, warm and after a night's appends, beside
    /// `--no-index`, `rg -c` and `rg -i --count-matches`; index size and peak RSS.
    Index {
        /// A generated folder (left as found).
        dir: PathBuf,
        /// Timed runs of each case.
        #[arg(long, default_value_t = 3)]
        runs: usize,
        /// The dreamreview binary.
        #[arg(long)]
        bin: Option<PathBuf>,
    },
    /// Hostile inputs the size limits admit: CHANGES.md full of citations of one huge
    /// line, and one note with tens of thousands of hunks; `check` time and peak RSS.
    Hostile {
        /// Folder for the generated cases (reused when already there).
        dir: PathBuf,
        /// MiB of the one transcript line every entry cites.
        #[arg(long, default_value_t = 100)]
        line_mib: usize,
        /// Hunk counts of the many-hunks cases.
        #[arg(long, value_delimiter = ',', default_value = "20000,50000,100000")]
        hunks: Vec<usize>,
        /// Timed runs of each command.
        #[arg(long, default_value_t = 3)]
        runs: usize,
        /// The dreamreview binary.
        #[arg(long)]
        bin: Option<PathBuf>,
    },
    /// One CHANGES.md entry with N citations (`s1.jsonl:N`, `s1.jsonl line N`), and entries
    /// each citing 40 distinct 4 MiB lines: `check` time and peak RSS as N grows.
    Citations {
        /// Folder for the generated cases (reused when already there).
        dir: PathBuf,
        /// Citation counts of the one-entry cases (those over 2 MiB are left out).
        #[arg(long, value_delimiter = ',', default_value = "20000,40000,80000,160000")]
        counts: Vec<usize>,
        /// Entry counts of the 40-huge-lines cases.
        #[arg(long, value_delimiter = ',', default_value = "1,10,50")]
        entries: Vec<usize>,
        /// Timed runs of each command.
        #[arg(long, default_value_t = 1)]
        runs: usize,
        /// The dreamreview binary.
        #[arg(long)]
        bin: Option<PathBuf>,
    },
    /// One note of 8·N lines with every eighth line changed (N one-line hunks full of
    /// claims): `check --json --memory MEM` at each N, so the growth with N shows.
    BigNote {
        /// Folder for the generated cases (reused when already there).
        dir: PathBuf,
        /// Changed lines (hunks) of each case.
        #[arg(long, value_delimiter = ',', default_value = "5000,10000,20000,40000,50000")]
        changed: Vec<usize>,
        /// Timed runs of each command.
        #[arg(long, default_value_t = 3)]
        runs: usize,
        /// The dreamreview binary.
        #[arg(long)]
        bin: Option<PathBuf>,
        /// Another dreamreview binary (an older build) to time beside it; the outputs of
        /// the two are compared byte for byte.
        #[arg(long)]
        baseline: Option<PathBuf>,
    },
}

fn main() {
    // `cargo bench` appends `--bench`; it means nothing here.
    let args = std::env::args_os().filter(|a| a != "--bench");
    let cli = Cli::parse_from(args);
    if let Err(e) = run(cli) {
        eprintln!("scale: {e:#}");
        std::process::exit(2);
    }
}

fn run(cli: Cli) -> Result<()> {
    match cli.command {
        Command::Generate { dir, size, sessions, notes, seed } => {
            let bytes = generator::parse_size(&size).ok_or_else(|| anyhow::anyhow!("bad --size {size}"))?;
            let sessions = sessions.unwrap_or(((bytes as f64 / (1u64 << 30) as f64) * 913.0).round().max(1.0) as usize);
            let start = std::time::Instant::now();
            let s = generator::generate(&generator::Options { dir: dir.clone(), bytes, sessions, notes, seed })?;
            println!(
                "generated {}: {:.1} MiB of transcripts in {} files ({sessions} sessions), {notes} notes, {} changed, {} facts, {} CHANGES.md entries, in {:.1}s",
                dir.display(),
                s.bytes as f64 / (1 << 20) as f64,
                s.files,
                s.changed,
                s.facts,
                s.entries,
                start.elapsed().as_secs_f64()
            );
            bench_check::write_needles(&dir)?;
            Ok(())
        }
        Command::Needles { dir } => bench_check::write_needles(&dir).map(|_| ()),
        Command::Check { dir, runs, bin } => bench_check::run(&[dir], runs, bin),
        Command::Scaling { dirs, runs, bin } => bench_check::run(&dirs, runs, bin),
        Command::Scan { dir, runs } => bench_scan::run(&dir, runs),
        Command::Diff { dir, runs } => bench_diff::run(&dir, runs),
        Command::Load { dir } => bench_diff::load(&dir).map(|_| ()),
        Command::Tui { dir, lines, keys, runs } => bench_tui::run(&dir, lines, keys, runs),
        Command::Index { dir, runs, bin } => bench_index::run(&dir, runs, bin),
        Command::Hostile { dir, line_mib, hunks, runs, bin } => bench_hostile::run(&dir, line_mib, &hunks, runs, bin),
        Command::Citations { dir, counts, entries, runs, bin } => {
            bench_citations::run(&dir, &counts, &entries, runs, bin)
        }
        Command::BigNote { dir, changed, runs, bin, baseline } => {
            bench_big_note::run(&dir, &changed, runs, bin, baseline)
        }
    }
}
