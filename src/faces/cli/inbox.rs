//! `dreamreview inbox` (and `dreamreview` with no argument): every dream waiting on this
//! machine, on a screen where Enter reviews one and the inbox comes back after, re-scanned;
//! or with `--json`, the same list printed. Also what plain `dreamreview` means where it is
//! run ([`default_here`]).

use super::inputs::InputArgs;
use crate::faces::ui::inbox::run::Scan;
use crate::inputs::config::{self, Overrides};
use crate::inputs::inbox::{self, Places};
use crate::inputs::retention::Retention;
use anyhow::{Context, Result};
use clap::Args;
use serde::Serialize;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// Arguments of `dreamreview inbox`.
#[derive(Args, Debug, Clone, Default)]
pub struct InboxArgs {
    /// Print the list as JSON (the rows the screen shows) instead of opening the screen.
    #[arg(long)]
    pub json: bool,
    /// A folder of dream folders to look in besides the dreams folder ($XDG_DATA_HOME/
    /// dreamreview/dreams); repeatable. Replaces the `dreams_dirs` setting.
    #[arg(long = "dreams-dir", value_name = "DIR")]
    pub dreams_dirs: Vec<PathBuf>,
    /// An OpenClaw workspace to list; repeatable. Replaces the `openclaw_workspaces` setting.
    #[arg(long = "openclaw-workspace", value_name = "DIR")]
    pub openclaw_workspaces: Vec<PathBuf>,
    /// Scan every transcript whole instead of through the transcript index.
    #[arg(long)]
    pub no_index: bool,
    /// Where the transcript index is kept: set by the command line's `main`.
    #[arg(skip)]
    pub index: Option<PathBuf>,
}

/// What `inbox --json` prints.
#[derive(Serialize)]
struct Listing<'a> {
    /// Where the inbox looked.
    dreams_dir: Option<&'a Path>,
    dreams_dirs: &'a [PathBuf],
    projects: Option<&'a Path>,
    openclaw_workspaces: &'a [PathBuf],
    /// One object per waiting dream.
    dreams: Vec<crate::store::waiting::Row>,
}

/// The arguments plain `dreamreview` stands for in `cwd`: inside a dream folder, its review
/// (`review .`); inside a memory folder under git (it holds `MEMORY.md`), its in-place
/// review, as before the inbox; anywhere else, the inbox.
pub fn default_here(cwd: Option<&Path>) -> Vec<&'static str> {
    let Some(cwd) = cwd else { return vec!["inbox"] };
    if inbox::is_dream_folder(cwd) {
        return vec!["review", "."];
    }
    if cwd.join("MEMORY.md").is_file() && matches!(crate::store::repo::MemoryRepo::discover(cwd), Ok(Some(_))) {
        return vec!["review"];
    }
    vec!["inbox"]
}

/// Runs `dreamreview inbox`.
pub fn run(args: &InboxArgs) -> Result<i32> {
    let overrides = Overrides {
        dreams_dirs: args.dreams_dirs.clone(),
        openclaw_workspaces: args.openclaw_workspaces.clone(),
        ..Overrides::default()
    };
    let config = config::load(&overrides)?;
    let places = Places {
        dreams_dir: inbox::dreams_dir(),
        extra_dreams_dirs: config.dreams_dirs.value.clone(),
        projects: crate::inputs::claude::projects_dir(),
        openclaw_workspaces: config.openclaw_workspaces.value.clone(),
    };
    if args.json {
        let rows =
            crate::store::waiting::check_all(&inbox::discover(&places), args.index.clone(), &Retention::of_user());
        let listing = Listing {
            dreams_dir: places.dreams_dir.as_deref(),
            dreams_dirs: &places.extra_dreams_dirs,
            projects: places.projects.as_deref(),
            openclaw_workspaces: &places.openclaw_workspaces,
            dreams: rows,
        };
        let mut out = std::io::stdout().lock();
        crate::base::shown::json(&mut out, &listing).context("cannot write the list to standard output")?;
        let _ = std::io::Write::write_all(&mut out, b"\n");
        return Ok(0);
    }
    let scan = Scan { places, index: args.index.clone() };
    let theme = crate::faces::ui::theme::Theme::for_choice(config.theme.value);
    // A signal during a review ends the review (it saves and restores the terminal), and
    // then the whole run, not only the review.
    let stopped = Arc::new(AtomicBool::new(false));
    for s in [signal_hook::consts::SIGTERM, signal_hook::consts::SIGHUP, signal_hook::consts::SIGINT] {
        let _ = signal_hook::flag::register(s, stopped.clone());
    }
    let mut status = None;
    loop {
        let Some(row) = crate::faces::ui::inbox::run::run(&scan, theme.clone(), status.take())? else { return Ok(0) };
        if stopped.load(Ordering::SeqCst) {
            return Ok(0);
        }
        let (dream, memory) = row.review_args();
        let mut inputs = InputArgs { dream, memory, index: scan.index.clone(), ..InputArgs::default() };
        inputs.zone_setting = super::inputs::zone_setting(&config)?;
        status = Some(match super::tui::tui(&inputs, None, false) {
            Ok(_) => (format!("back from {} ({})", row.place.project, place_name(&row)), false),
            Err(e) => (format!("{}: {e:#}", row.place.project), true),
        });
        if stopped.load(Ordering::SeqCst) {
            return Ok(0);
        }
    }
}

fn place_name(row: &crate::store::waiting::Row) -> String {
    match &row.place.dream {
        Some(d) => d.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default(),
        None => "in place".into(),
    }
}
