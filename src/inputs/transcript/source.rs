//! Finding the source files a dream may cite, and resolving how a citation names one.
//!
//! Sources are: every `*.jsonl` below the default root (the live memory
//! folder's parent in the Claude Code layout: `<session>.jsonl`,
//! `<session>/subagents/agent-*.jsonl`), every `*.jsonl` and `*.md` below each
//! `--sources` folder, and the OpenClaw daily notes (`YYYY-MM-DD*.md`) in the memory
//! folder. The memory folder's other notes are never sources: they are what is reviewed.

use crate::base::walk::{self, Entry as Walked, Failed, Kind};
use std::collections::HashSet;
use std::fs;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};

use crate::base::date::Date;

/// What a source file holds, which decides how its lines are read.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SourceKind {
    /// Claude Code JSONL: one JSON object per line.
    Jsonl,
    /// Plain text, one note per line (OpenClaw daily notes, any `*.md` source).
    Markdown,
}

/// One source file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SourceFile {
    /// Where it is on disk.
    pub path: PathBuf,
    /// Its path relative to the root it was found under, `/`-separated
    /// (`5b0e….jsonl`, `ae4…/subagents/agent-aac57f5.jsonl`, `memory/2026-06-02.md`).
    pub name: String,
    /// How its lines are read.
    pub kind: SourceKind,
    /// For a Markdown source named by a date (`2026-06-02.md`, `2026-06-02-1406.md`),
    /// that date: it dates every line of the file.
    pub date: Option<Date>,
}

impl SourceFile {
    /// Describes the file at `path` known as `name`: the kind comes from the extension
    /// (`.jsonl` is JSONL, anything else plain text) and the date from the file name.
    pub fn new(path: PathBuf, name: String) -> SourceFile {
        let file_name = path.file_name().map(|f| f.to_string_lossy().into_owned());
        let file_name = file_name.unwrap_or_default();
        let kind =
            if file_name.to_ascii_lowercase().ends_with(".jsonl") { SourceKind::Jsonl } else { SourceKind::Markdown };
        let date = match kind {
            SourceKind::Markdown => date_from_file_name(&file_name),
            SourceKind::Jsonl => None,
        };
        SourceFile { path, name, kind, date }
    }
}

/// The date a daily-note file name starts with: `2026-06-02.md`, `2026-06-02-1406.md`,
/// `2026-06-02_standup.md` → 2026-06-02. `None` when the name does not start with a valid
/// `YYYY-MM-DD` followed by a non-digit.
pub fn date_from_file_name(file_name: &str) -> Option<Date> {
    let next = file_name.as_bytes().get(10);
    if next.is_some_and(u8::is_ascii_digit) {
        return None;
    }
    Date::parse_iso_prefix(file_name)
}

/// All the sources of one review, sorted by name.
#[derive(Clone, Debug, Default)]
pub struct SourceSet {
    files: Vec<SourceFile>,
    skipped: Vec<PathBuf>,
}

impl SourceSet {
    /// Discovers the sources (see the module docs). `default_root` missing → no sources
    /// from it; an `extra` that does not exist → error naming it. Hidden directories,
    /// `.git` and `memory_dir` itself are never entered, and symbolic links found while
    /// walking are never followed. A file reachable from two roots is listed once, under
    /// its first name (default root, then extras in order, then daily notes).
    /// Directories that cannot be read are skipped and listed in [`SourceSet::skipped`].
    pub fn discover(default_root: Option<&Path>, extra: &[PathBuf], memory_dir: Option<&Path>) -> Result<SourceSet> {
        let memory_canon = memory_dir.and_then(|m| fs::canonicalize(m).ok());
        let mut walker = Walker { exclude: memory_canon.clone(), files: Vec::new(), skipped: Vec::new() };

        if let Some(root) = default_root
            && root.is_dir()
        {
            walker.walk(root, &|name| has_ext(name, "jsonl"));
        }

        for dir in extra {
            let meta = fs::metadata(dir)
                .with_context(|| format!("sources {}: cannot read it (check the --sources path)", dir.display()))?;
            if meta.is_dir() {
                walker.walk(dir, &|name| has_ext(name, "jsonl") || has_ext(name, "md"));
            } else if meta.is_file() {
                let name = dir.file_name().map(|f| f.to_string_lossy().into_owned());
                let Some(name) = name else {
                    bail!("sources {}: not a file name", dir.display());
                };
                walker.files.push(SourceFile::new(dir.clone(), name));
            } else {
                bail!("sources {}: neither a file nor a folder", dir.display());
            }
        }

        if let Some(mem) = memory_dir {
            for sub in [mem.join("memory"), mem.to_path_buf()] {
                let Ok(entries) = fs::read_dir(&sub) else {
                    continue;
                };
                for entry in entries.flatten() {
                    let Ok(ft) = entry.file_type() else { continue };
                    let file_name = entry.file_name().to_string_lossy().into_owned();
                    if ft.is_file() && has_ext(&file_name, "md") && date_from_file_name(&file_name).is_some() {
                        let name = format!("memory/{file_name}");
                        walker.files.push(SourceFile::new(entry.path(), name));
                    }
                }
            }
        }

        // Deduplicate by the file's identity (first wins), then sort by name.
        let mut seen = HashSet::new();
        let mut files: Vec<SourceFile> = walker
            .files
            .into_iter()
            .filter(|f| seen.insert(fs::canonicalize(&f.path).unwrap_or_else(|_| f.path.clone())))
            .collect();
        files.sort_by(|a, b| a.name.cmp(&b.name).then_with(|| a.path.cmp(&b.path)));
        Ok(SourceSet { files, skipped: walker.skipped })
    }

    /// A set of exactly these files (sorted by name), for callers that already know them.
    pub fn from_files(mut files: Vec<SourceFile>) -> SourceSet {
        files.sort_by(|a, b| a.name.cmp(&b.name).then_with(|| a.path.cmp(&b.path)));
        SourceSet { files, skipped: Vec::new() }
    }

    /// The files, sorted by name; indexes into this slice identify a source everywhere
    /// (`find`, `Hit::source`).
    pub fn files(&self) -> &[SourceFile] {
        &self.files
    }

    /// The file at `index`.
    pub fn get(&self, index: usize) -> Option<&SourceFile> {
        self.files.get(index)
    }

    /// Number of files.
    pub fn len(&self) -> usize {
        self.files.len()
    }

    /// Whether there is no source at all.
    pub fn is_empty(&self) -> bool {
        self.files.is_empty()
    }

    /// Directories that could not be read during discovery (their files are missing).
    pub fn skipped(&self) -> &[PathBuf] {
        &self.skipped
    }

    /// Resolves how a CHANGES.md citation names a file, returning the indexes of every
    /// match of the best kind (several when ambiguous, none when unknown). In order of
    /// preference: the exact relative name; a trailing path (`subagents/agent-x.jsonl`)
    /// or bare basename (`agent-x.jsonl`) found anywhere; the same with `.jsonl` (a
    /// session id) or `.md` added; a longer or absolute path ending with a source's name.
    /// A leading `./`, surrounding quotes or backticks, and `\` separators are ignored.
    pub fn find(&self, citation: &str) -> Vec<usize> {
        let c = normalize_citation(citation);
        if c.is_empty() {
            return Vec::new();
        }
        let mut candidates = vec![c.clone()];
        if !has_ext(&c, "jsonl") && !has_ext(&c, "md") {
            candidates.push(format!("{c}.jsonl"));
            candidates.push(format!("{c}.md"));
        }
        for cand in &candidates {
            let exact = self.matching(|f| f.name == *cand);
            if !exact.is_empty() {
                return exact;
            }
            let suffix = format!("/{cand}");
            let tail = self.matching(|f| f.name.ends_with(&suffix));
            if !tail.is_empty() {
                return tail;
            }
        }
        // The citation is a longer path (absolute, or from another root) ending with a
        // source's name: take the sources with the longest such name.
        let mut best: Vec<usize> = Vec::new();
        let mut best_len = 0;
        for (i, f) in self.files.iter().enumerate() {
            let hit = Path::new(&c) == f.path || c.ends_with(&format!("/{}", f.name));
            if !hit {
                continue;
            }
            match f.name.len().cmp(&best_len) {
                std::cmp::Ordering::Greater => {
                    best_len = f.name.len();
                    best = vec![i];
                }
                std::cmp::Ordering::Equal => best.push(i),
                std::cmp::Ordering::Less => {}
            }
        }
        best
    }

    fn matching(&self, pred: impl Fn(&SourceFile) -> bool) -> Vec<usize> {
        let it = self.files.iter().enumerate();
        it.filter(|(_, f)| pred(f)).map(|(i, _)| i).collect()
    }
}

/// A citation with quotes, backticks, `./` and `\` separators taken away.
fn normalize_citation(citation: &str) -> String {
    let trimmed = citation.trim().trim_matches(|c| matches!(c, '`' | '"' | '\'' | '(' | ')'));
    let mut s = trimmed.trim().replace('\\', "/");
    while let Some(rest) = s.strip_prefix("./") {
        s = rest.to_string();
    }
    s.trim_end_matches('/').to_string()
}

/// Whether `name` ends with `.ext` (ASCII case-insensitive).
fn has_ext(name: &str, ext: &str) -> bool {
    let Some((_, e)) = name.rsplit_once('.') else {
        return false;
    };
    e.eq_ignore_ascii_case(ext)
}

/// Recursive directory walk that never follows links.
struct Walker {
    exclude: Option<PathBuf>,
    files: Vec<SourceFile>,
    skipped: Vec<PathBuf>,
}

impl Walker {
    /// Adds every file below `root` whose name `want` accepts, named relative to `root`.
    /// Hidden folders, symbolic links and the excluded folder are not walked; folders that
    /// cannot be listed are skipped and remembered.
    fn walk(&mut self, root: &Path, want: &dyn Fn(&str) -> bool) {
        if self.is_excluded(root) {
            return;
        }
        let walked = walk::walk(root, &mut |e| {
            match e {
                Walked::Found { name, path, kind: Kind::Dir, .. } => {
                    return Ok(!name.starts_with('.') && !self.is_excluded(path));
                }
                Walked::Found { rel, name, path, kind: Kind::File, .. } if want(name) => {
                    self.files.push(SourceFile::new(path.to_path_buf(), rel.to_string()));
                }
                // A folder that cannot be listed is said; an entry whose type cannot be
                // read is passed over.
                Walked::Unreadable { path, failed: Failed::List, .. } => self.skipped.push(path.to_path_buf()),
                _ => {}
            }
            Ok(false)
        });
        if walked.is_err() {
            self.skipped.push(root.to_path_buf());
        }
    }

    fn is_excluded(&self, dir: &Path) -> bool {
        let Some(ex) = &self.exclude else {
            return false;
        };
        fs::canonicalize(dir).is_ok_and(|c| c == *ex)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_from_file_names() {
        let d = |s: &str| date_from_file_name(s).map(|d| d.to_string());
        assert_eq!(d("2026-06-02.md").as_deref(), Some("2026-06-02"));
        assert_eq!(d("2026-06-02-1406.md").as_deref(), Some("2026-06-02"));
        assert_eq!(d("2026-06-021.md"), None);
        assert_eq!(d("2026-02-30.md"), None);
        assert_eq!(d("notes.md"), None);
        assert_eq!(d("日本語.md"), None);
    }

    #[test]
    fn normalizes_citations() {
        assert_eq!(normalize_citation(" ./a/b.jsonl "), "a/b.jsonl");
        assert_eq!(normalize_citation("`x.jsonl`"), "x.jsonl");
        assert_eq!(normalize_citation(".\\a\\b.jsonl"), "a/b.jsonl");
        assert_eq!(normalize_citation("././x"), "x");
    }

    #[test]
    fn kinds_from_extensions() {
        let f = SourceFile::new(PathBuf::from("/x/2026-06-02.md"), "memory/2026-06-02.md".into());
        assert_eq!(f.kind, SourceKind::Markdown);
        assert_eq!(f.date.map(|d| d.to_string()).as_deref(), Some("2026-06-02"));
        let f = SourceFile::new(PathBuf::from("/x/A.JSONL"), "A.JSONL".into());
        assert_eq!((f.kind, f.date), (SourceKind::Jsonl, None));
    }
}
