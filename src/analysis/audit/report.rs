//! The audit of memory folders on disk, one report per folder (what `dreamreview audit`
//! prints, as a table or JSON, from the command line's `audit`).
//!
//! Status per folder: `CUT` when an index is over its load limit, `ERROR` when another
//! error-level finding stands (a credential in a note), `near` at 80% of a limit, `ok`
//! otherwise, `none` when the folder has no `MEMORY.md` and nothing else is wrong. Besides
//! the hygiene flags of [`super::audit`], the report lists credentials stored in the notes
//! ([`super::scan_secrets`]): a memory folder is the last place a key should live.
//!
//! Given the folder's git history ([`History`]), it also counts the notes that can no longer
//! be checked against their sources ([`super::unverifiable`]).

use std::path::{Path, PathBuf};

use anyhow::Result;
use serde::Serialize;

use super::credentials::scan_secrets;
use super::flagged::AuditFlag;
use super::folder::{ReadProblem, read_folder};
use super::folder_audit::{FolderAudit, audit};
use super::memory_index::BudgetStatus;
use super::unverifiable::UnverifiableNote;
use crate::analysis::flag::Severity;

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

/// Audits each folder of `dirs`: one report per folder, the largest index first. A given
/// path that does not exist or is not a directory is an error naming each such path
/// (nothing is audited then). `history` reads a folder's git history for its unverifiable
/// notes; without it nothing is unverifiable.
pub fn reports(dirs: &[PathBuf], history: Option<History<'_>>) -> Result<Vec<FolderReport>> {
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
        let unverifiable = match history {
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
    Ok(reports)
}
