//! `dreamreview why NOTE[:LINE]`: where a line of a note came from, as text or JSON.

use crate::store::repo::{MemoryRepo, why};
use anyhow::{Context, Result, anyhow};
use clap::Args;
use std::io::Write;
use std::path::PathBuf;

/// Arguments of `dreamreview why`.
#[derive(Args, Debug, Clone)]
pub struct WhyArgs {
    /// The note, relative to the memory folder, and optionally a line (`testing.md:3`).
    /// Without a line, every line of the note, grouped by the review that wrote it.
    #[arg(value_name = "NOTE[:LINE]", allow_hyphen_values = true)]
    pub target: String,
    /// The memory folder (default: the current directory).
    #[arg(long, value_name = "DIR")]
    pub memory: Option<PathBuf>,
    /// Print one JSON object (`dreamreview-why/1`, see the README) instead of text.
    #[arg(long)]
    pub json: bool,
}

/// Runs `why`: 0 with the answer printed; bad input (no such note, a line out of range,
/// no repository) is an error naming the path (exit 2).
pub fn run(args: &WhyArgs) -> Result<i32> {
    let dir = match args.memory.as_deref() {
        Some(m) => crate::inputs::dream::existing_dir(m, "memory folder", "check the --memory path")?,
        None => std::env::current_dir().context("cannot read the current directory")?,
    };
    let repo = MemoryRepo::discover(&dir)?.ok_or_else(|| {
        anyhow!(
            "{} is not in a git repository, so no review wrote its notes; pass --memory DIR \
             (the memory folder dreamreview commits to)",
            dir.display()
        )
    })?;
    let (note, line) = why::parse_target(&args.target)?;
    let explanation = why::explain(&repo, &note, line)?;
    let mut out = std::io::stdout().lock();
    if args.json {
        let text = crate::base::shown::json_string(&explanation).context("cannot encode the answer")?;
        let _ = writeln!(out, "{text}");
    } else {
        let _ = write!(out, "{}", crate::base::shown::text(&crate::faces::why::to_text(&explanation)));
    }
    Ok(0)
}
