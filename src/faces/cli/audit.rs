//! `dreamreview audit [DIR...]`: audits memory folders on disk and prints a table (one line
//! per folder, largest index first) followed by each folder's findings, or JSON; with
//! `verbose`, the unverifiable notes (always in JSON). The reports themselves are
//! [`crate::analysis::audit::report`]'s.

use std::io::Write;

use anyhow::{Context, Result};
use unicode_width::UnicodeWidthStr;

use crate::analysis::audit::report::{FolderReport, History, reports};

/// How to audit and what to print.
#[derive(Clone, Copy, Default)]
pub struct Options<'a> {
    /// Print JSON instead of the table.
    pub json: bool,
    /// List the unverifiable notes under the details.
    pub verbose: bool,
    /// Reads the folders' history; without it nothing is unverifiable.
    pub history: Option<History<'a>>,
}

/// Audits each folder of `dirs` ([`reports`]) and writes the report to `out`. Returns the
/// exit code: 0 when every folder is fine, 1 when any has an error-level flag. A given path
/// that does not exist or is not a directory is an error naming each such path (nothing is
/// audited then; the command line prints it on stderr and exits 2, so `--json` output stays
/// JSON).
pub fn run(dirs: &[std::path::PathBuf], options: &Options<'_>, out: &mut dyn Write) -> Result<i32> {
    let reports = reports(dirs, options.history)?;
    if options.json {
        crate::base::shown::json(&mut *out, &reports).context("cannot write the JSON report")?;
        writeln!(out)?;
    } else if reports.is_empty() {
        writeln!(
            out,
            "no memory folders found — pass one: dreamreview audit DIR (Claude Code keeps them in ~/.claude/projects/<project>/memory)"
        )?;
    } else {
        write_table(&reports, out)?;
        write_details(&reports, out)?;
        write_unverifiable(&reports, options.verbose, out)?;
    }
    Ok(i32::from(reports.iter().any(FolderReport::has_errors)))
}

fn opt(n: Option<usize>) -> String {
    n.map_or_else(|| "-".to_string(), |n| n.to_string())
}

/// The aligned summary table: numbers right-aligned, the folder last.
pub fn write_table(reports: &[FolderReport], out: &mut dyn Write) -> Result<()> {
    let header = ["status", "lines", "bytes", "dangling", "orphans", "invalid", "secrets", "unverifiable", "folder"];
    let rows: Vec<[String; 9]> = reports
        .iter()
        .map(|r| {
            [
                r.status.to_string(),
                opt(r.lines),
                opt(r.bytes),
                r.dangling.to_string(),
                r.orphans.to_string(),
                r.invalid_frontmatter.to_string(),
                r.secrets.to_string(),
                r.unverifiable.to_string(),
                r.folder.clone(),
            ]
        })
        .collect();
    let mut width = header.map(str::len);
    for row in &rows {
        for (w, cell) in width.iter_mut().zip(row.iter()) {
            *w = (*w).max(cell.width());
        }
    }
    let line = |cells: [&str; 9]| {
        let mut s = format!("{:<w$}", cells[0], w = width[0]);
        for i in 1..8 {
            s.push_str(&format!("  {:>w$}", cells[i], w = width[i]));
        }
        s.push_str("  ");
        s.push_str(cells[8]);
        s
    };
    writeln!(out, "{}", line(header))?;
    for row in &rows {
        writeln!(out, "{}", line(row.each_ref().map(String::as_str)))?;
    }
    Ok(())
}

/// The unverifiable notes of each folder (`verbose`), else one line saying how to list them.
pub fn write_unverifiable(reports: &[FolderReport], verbose: bool, out: &mut dyn Write) -> Result<()> {
    let total: usize = reports.iter().map(|r| r.unverifiable).sum();
    if total == 0 {
        return Ok(());
    }
    if !verbose {
        let s = if total == 1 { " is" } else { "s are" };
        writeln!(
            out,
            "\n{total} note{s} unverifiable: a review wrote lines citing transcripts that are gone, and kept none of their text — `dreamreview audit --verbose` lists them, `dreamreview why NOTE` shows what is left"
        )?;
        return Ok(());
    }
    for r in reports.iter().filter(|r| r.unverifiable > 0) {
        writeln!(out, "\n{}: unverifiable notes (cited transcripts gone, text not kept)", r.folder)?;
        for n in &r.unverifiable_notes {
            writeln!(out, "  {}", crate::base::text::visible_controls(&n.describe()))?;
        }
    }
    Ok(())
}

/// Each folder's findings under its name: severity, kind, location, message.
pub fn write_details(reports: &[FolderReport], out: &mut dyn Write) -> Result<()> {
    for r in reports {
        if r.flags.is_empty() && r.problems.is_empty() {
            continue;
        }
        writeln!(out, "\n{}", r.folder)?;
        let mut rows: Vec<[String; 4]> = r
            .flags
            .iter()
            .map(|f| {
                let severity = f.flag.severity.name();
                // Names as one line each, told apart when they differ only by normalization.
                let path = crate::base::text::visible_name(&f.path);
                let at = match f.line {
                    Some(l) => format!("{path}:{l}"),
                    None => path.into_owned(),
                };
                [severity.to_string(), f.flag.kind.name().to_string(), at, f.flag.message.clone()]
            })
            .collect();
        rows.extend(r.problems.iter().map(|p| {
            let path = crate::base::text::visible_name(&p.path).into_owned();
            ["note".to_string(), "unread".to_string(), path.clone(), format!("{path} {}", p.message)]
        }));
        let w0 = rows.iter().map(|c| c[0].len()).max().unwrap_or(0);
        let w1 = rows.iter().map(|c| c[1].len()).max().unwrap_or(0);
        let w2 = rows.iter().map(|c| c[2].width()).max().unwrap_or(0);
        for [sev, kind, at, msg] in rows {
            let pad = w2.saturating_sub(at.width());
            writeln!(out, "  {sev:<w0$}  {kind:<w1$}  {at}{}  {msg}", " ".repeat(pad))?;
        }
    }
    Ok(())
}
