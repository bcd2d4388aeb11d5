//! `dreamreview config` (the settings in force and where each came from), `dreamreview
//! completions SHELL` and `dreamreview man`, the last two generated from the command line's
//! own definition (clap_complete, clap_mangen).

use crate::inputs::config::{self, Overrides};
use anyhow::{Context, Result};
use std::io::Write;

/// `dreamreview config [--json]`.
pub fn show(json: bool) -> Result<i32> {
    let config = config::load(&Overrides::default())?;
    let mut out = std::io::stdout().lock();
    if json {
        crate::base::shown::json(&mut out, &config).context("cannot write the settings to standard output")?;
        let _ = writeln!(out);
    } else {
        let _ = write!(out, "{}", crate::base::shown::text(&config.to_text()));
    }
    Ok(0)
}

/// `dreamreview completions SHELL`: the shell's completion script for `cmd` (the command
/// line's definition) on standard output.
pub fn completions(mut cmd: clap::Command, shell: clap_complete::Shell) -> Result<i32> {
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut cmd, "dreamreview", &mut script);
    let script = String::from_utf8_lossy(&script);
    std::io::stdout()
        .lock()
        .write_all(crate::base::shown::text(&script).as_bytes())
        .context("cannot write the completion script")?;
    Ok(0)
}

/// `dreamreview man`: the manual page (roff) of `cmd` on standard output.
pub fn man(cmd: clap::Command) -> Result<i32> {
    let mut page = Vec::new();
    clap_mangen::Man::new(cmd).render(&mut page).context("cannot render the manual page")?;
    let page = String::from_utf8_lossy(&page);
    std::io::stdout()
        .lock()
        .write_all(crate::base::shown::text(&page).as_bytes())
        .context("cannot write the manual page")?;
    Ok(0)
}
