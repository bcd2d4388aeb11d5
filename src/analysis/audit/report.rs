//! `dreamreview audit [DIR...]`: audits memory folders on disk and prints a table (one line
//! per folder, largest index first) followed by each folder's findings, or JSON.
//!
//! Status per folder: `CUT` when an index is over its load limit, `ERROR` when another
//! error-level finding stands (a credential in a note), `near` at 80% of a limit, `ok`
//! otherwise, `none` when the folder has no `MEMORY.md` and nothing else is wrong. Besides
//! the hygiene flags of [`super::audit`], the report lists credentials stored in the notes
//! ([`super::scan_secrets`]): a memory folder is the last place a key should live.
//!
//! Given the folder's git history ([`Options::history`]), it also counts the notes that can
//! no longer be checked against their sources ([`super::unverifiable`]), and lists them
//! with `verbose` (always in JSON).

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use serde::Serialize;

use super::{AuditFlag, BudgetStatus, FolderAudit, ReadProblem, UnverifiableNote, audit, read_folder, scan_secrets};
use crate::analysis::flag::Severity;
use unicode_width::UnicodeWidthStr;

/// Every `<projects>/*/memory/` folder of Claude Code's projects folder
/// ([`crate::inputs::claude::projects_dir`]: `$CLAUDE_CONFIG_DIR/projects`, else
/// `~/.claude/projects`), sorted; empty when neither is known.
pub fn default_dirs() -> Vec<PathBuf> {
    crate::inputs::claude::projects_dir().map(|p| dirs_in_projects(&p)).unwrap_or_default()
}

/// Every `<home>/.claude/projects/*/memory/` folder that exists, sorted.
pub fn default_dirs_in(home: &Path) -> Vec<PathBuf> {
    dirs_in_projects(&home.join(".claude").join("projects"))
}

/// Every `<projects>/*/memory/` folder that exists, sorted.
pub fn dirs_in_projects(projects: &Path) -> Vec<PathBuf> {
    let Ok(projects) = std::fs::read_dir(projects) else {
        return Vec::new();
    };
    let mut dirs: Vec<PathBuf> =
        projects.filter_map(|e| e.ok()).map(|e| e.path().join("memory")).filter(|p| p.is_dir()).collect();
    dirs.sort();
    dirs
}

/// The report of one folder, as printed in the table and in `--json`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct FolderReport {
    /// The folder as given.
    pub folder: String,
    /// `ok`, `near`, `CUT`, or `none` without a `MEMORY.md`.
    pub status: &'static str,
    /// Counted lines of the root `MEMORY.md`.
    pub lines: Option<usize>,
    /// Counted bytes of the root `MEMORY.md`.
    pub bytes: Option<usize>,
    /// Dangling index links.
    pub dangling: usize,
    /// Notes no index names.
    pub orphans: usize,
    /// Notes with invalid frontmatter.
    pub invalid_frontmatter: usize,
    /// Credentials found in the folder's files.
    pub secrets: usize,
    /// Every finding, in order (hygiene flags, then secrets).
    pub flags: Vec<AuditFlag>,
    /// Files skipped or read lossily.
    pub problems: Vec<ReadProblem>,
    /// How many notes are unverifiable (0 without a git history).
    pub unverifiable: usize,
    /// Those notes, by path.
    pub unverifiable_notes: Vec<UnverifiableNote>,
}

/// Finds the unverifiable notes among the given ones (paths relative to the folder) of
/// a memory folder, from its git history.
pub type History<'a> = &'a dyn Fn(&Path, &[&str]) -> Result<Vec<UnverifiableNote>>;

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

impl FolderReport {
    /// Builds the report of an audited folder.
    pub fn new(folder: String, a: FolderAudit, secrets: Vec<AuditFlag>, problems: Vec<ReadProblem>) -> FolderReport {
        let worst = a.index.iter().chain(a.other_indexes.iter()).map(|b| b.status).max();
        let status = match worst {
            None => "none",
            Some(BudgetStatus::Ok) => "ok",
            Some(BudgetStatus::Near) => "near",
            Some(BudgetStatus::Over) => "CUT",
        };
        let secret_count = secrets.len();
        let mut flags = a.flags;
        flags.extend(secrets);
        // Any other error (a credential in a note) outranks the budget: never `ok`.
        let errors = flags.iter().any(|f| f.flag.severity == Severity::Error);
        let status = if errors && status != "CUT" { "ERROR" } else { status };
        FolderReport {
            folder,
            status,
            lines: a.index.as_ref().map(|b| b.lines),
            bytes: a.index.as_ref().map(|b| b.bytes),
            dangling: a.dangling.len(),
            orphans: a.orphans.len(),
            invalid_frontmatter: a.frontmatter_invalid.len(),
            secrets: secret_count,
            flags,
            problems,
            unverifiable: 0,
            unverifiable_notes: Vec::new(),
        }
    }

    /// Adds the folder's unverifiable notes.
    pub fn with_unverifiable(mut self, notes: Vec<UnverifiableNote>) -> FolderReport {
        self.unverifiable = notes.len();
        self.unverifiable_notes = notes;
        self
    }

    /// Whether any flag is error-level (index over its limit, a credential).
    pub fn has_errors(&self) -> bool {
        self.flags.iter().any(|f| f.flag.severity == Severity::Error)
    }
}

/// Audits each folder of `dirs` and writes the report to `out`. Returns the exit code:
/// 0 when every folder is fine, 1 when any has an error-level flag. A given path that does
/// not exist or is not a directory is an error naming each such path (nothing is audited
/// then; the command line prints it on stderr and exits 2, so `--json` output stays JSON).
pub fn run(dirs: &[PathBuf], options: &Options<'_>, out: &mut dyn Write) -> Result<i32> {
    let mut bad = Vec::new();
    for dir in dirs {
        let message = if !dir.exists() {
            Some("does not exist — pass the path of a memory folder, e.g. ~/.claude/projects/<project>/memory")
        } else if !dir.is_dir() {
            Some("is not a directory — pass the memory folder that holds MEMORY.md, not a file in it")
        } else {
            None
        };
        if let Some(m) = message {
            bad.push(format!("{} {m}", dir.display()));
        }
    }
    if !bad.is_empty() {
        anyhow::bail!("{}", bad.join("\ndreamreview: "));
    }
    let mut reports = Vec::with_capacity(dirs.len());
    for dir in dirs {
        let read = read_folder(dir)?;
        let folder = dir.display().to_string();
        let mut problems = read.problems;
        let unverifiable = match options.history {
            Some(history) => {
                let notes: Vec<&str> = read.files.keys().map(String::as_str).collect();
                history(dir, &notes).unwrap_or_else(|e| {
                    problems.push(ReadProblem {
                        path: ".git".into(),
                        message: format!(
                            "(its history) cannot be read — unverifiable notes not counted: {}",
                            crate::base::secrets::mask(&format!("{e:#}"))
                        ),
                    });
                    Vec::new()
                })
            }
            None => Vec::new(),
        };
        let report = FolderReport::new(folder, audit(&read.files), scan_secrets(&read.files), problems);
        reports.push(report.with_unverifiable(unverifiable));
    }
    reports.sort_by(|a, b| (b.bytes, b.lines).cmp(&(a.bytes, a.lines)).then_with(|| a.folder.cmp(&b.folder)));
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
