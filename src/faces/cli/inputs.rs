//! Where the dream, the live memory and the transcripts are, as the command line gives
//! them ([`InputArgs`]), and the review loaded from them.

use crate::inputs::dream;
use crate::model::review::Review;
use anyhow::Result;
use clap::Args;
use std::path::PathBuf;

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
            (Err(_), Some(d), None) => crate::inputs::inbox::project_memory(d),
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
