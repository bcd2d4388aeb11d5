//! `dreamreview index`: brings the transcript index up to date for the given transcript
//! files and folders; and the hand-over of what a run left unindexed to a background
//! `index` process.

use anyhow::{Context, Result, bail};
use clap::Args;
use std::io::Read;
use std::path::{Path, PathBuf};

use crate::inputs::transcript::{SourceKind, SourceSet, index};

/// Arguments of `dreamreview index`.
#[derive(Args, Debug)]
pub struct IndexArgs {
    /// Transcript files (`*.jsonl`) or folders holding them (walked, sub-agent folders
    /// included). Default: every Claude Code project ($CLAUDE_CONFIG_DIR/projects, else
    /// ~/.claude/projects).
    pub paths: Vec<PathBuf>,
    /// Read NUL-separated transcript paths from standard input (how `check`, `review` and
    /// `apply` hand over the transcripts they left unindexed).
    #[arg(long, hide = true)]
    pub stdin: bool,
    /// The cache folder (default: $XDG_CACHE_HOME/dreamreview, else ~/.cache/dreamreview).
    #[arg(long, hide = true, value_name = "DIR")]
    pub cache: Option<PathBuf>,
}

/// Runs `dreamreview index`.
pub fn run(args: &IndexArgs) -> Result<i32> {
    let cache = match args.cache.clone().or_else(index::default_dir) {
        Some(c) => c,
        None => bail!("no cache folder for the transcript index: set XDG_CACHE_HOME or HOME"),
    };
    let mut paths = Vec::new();
    if args.stdin {
        lower_priority();
        let mut input = Vec::new();
        std::io::stdin().read_to_end(&mut input).context("cannot read transcript paths from standard input")?;
        paths.extend(index::read_paths(&input));
    }
    let mut named = args.paths.clone();
    if named.is_empty() && !args.stdin {
        match crate::inputs::claude::projects_dir().filter(|p| p.is_dir()) {
            Some(projects) => named.push(projects),
            None => bail!(
                "no {} here: name the transcript files or folders to index",
                crate::inputs::claude::projects_label()
            ),
        }
    }
    for p in &named {
        transcripts_in(p, &mut paths)?;
    }
    let built = index::build_all(&cache, &paths)
        .with_context(|| format!("cannot build the transcript index under {}", cache.display()))?;
    for note in index::take_notes() {
        tell!("dreamreview: {}", super::output::shown(&note));
    }
    if built.busy {
        say!("another dreamreview is building the transcript index under {}: left to it", cache.display());
    } else {
        say!(
            "{} of {} transcripts indexed ({:.1} MiB read) under {}",
            built.files,
            paths.len(),
            built.bytes as f64 / (1 << 20) as f64,
            cache.display()
        );
    }
    Ok(0)
}

/// `path` if it is a file, else the JSONL transcripts under it as a review finds them
/// ([`SourceSet::discover`]: sub-agent folders included, hidden folders and symbolic
/// links not followed).
fn transcripts_in(path: &Path, out: &mut Vec<PathBuf>) -> Result<()> {
    let meta = std::fs::metadata(path).with_context(|| format!("cannot read {}", path.display()))?;
    if meta.is_file() {
        out.push(path.to_path_buf());
        return Ok(());
    }
    let found = SourceSet::discover(Some(path), &[], None)?;
    if let Some(dir) = found.skipped().first() {
        bail!("cannot list {}", dir.display());
    }
    out.extend(found.files().iter().filter(|f| f.kind == SourceKind::Jsonl).map(|f| f.path.clone()));
    Ok(())
}

/// A background build yields to whatever the user runs next.
fn lower_priority() {
    #[cfg(unix)]
    // SAFETY: `nice` only changes this process's scheduling priority.
    unsafe {
        let _ = libc::nice(10);
    }
}

/// Hands the transcripts this run left unindexed to a background `dreamreview index`
/// (see [`index::background`]), saying so on stderr.
pub fn hand_over_deferred(cache: Option<&Path>) {
    let deferred = index::take_deferred();
    let Some(cache) = cache else { return };
    if deferred.is_empty() {
        return;
    }
    let bytes: u64 = deferred.iter().filter_map(|p| std::fs::metadata(p).ok()).map(|m| m.len()).sum();
    let started = std::env::current_exe().and_then(|exe| index::spawn(&exe, cache, &deferred));
    match started {
        Ok(()) => tell!(
            "dreamreview: indexing {} transcripts ({:.0} MiB) in the background, for the next run",
            deferred.len(),
            bytes as f64 / (1 << 20) as f64
        ),
        Err(e) => tell!("dreamreview: cannot start the background transcript index ({e}); run `dreamreview index`"),
    }
}
