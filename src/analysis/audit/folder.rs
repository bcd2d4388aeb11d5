//! Reading a memory folder from disk into the path → bytes map the audit works on.

use std::collections::BTreeMap;
use std::fs;
use std::path::Path;

use crate::base::walk::{self, Entry as Walked, Failed, Kind, WalkError};
use anyhow::Result;
use serde::Serialize;

/// A file the reader skipped or could only read in part; reported, never fatal.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ReadProblem {
    /// Path relative to the folder ('/'-separated; lossy when the name is not UTF-8).
    pub path: String,
    /// What happened and what it means for the audit, to follow the path in a sentence
    /// ("is not UTF-8 — audited as lossy text; …").
    pub message: String,
}

/// The Markdown files of a folder and the problems met reading it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FolderRead {
    /// Relative '/'-separated path → bytes, for every `.md` file.
    pub files: BTreeMap<String, Vec<u8>>,
    /// Files skipped (symlinks, unreadable, non-UTF-8 names) or read lossily (non-UTF-8).
    pub problems: Vec<ReadProblem>,
}

fn is_md(name: &str) -> bool {
    name.len() > 3 && name.get(name.len() - 3..).is_some_and(|e| e.eq_ignore_ascii_case(".md"))
}

/// Reads every `.md` file under `dir`, recursively, skipping hidden files and folders
/// (`.git`) and never following symlinks. Errors only when `dir` itself cannot be listed.
pub fn read_folder(dir: &Path) -> Result<FolderRead> {
    let mut out = FolderRead::default();
    let walked = walk::walk(dir, &mut |e| {
        match e {
            Walked::Found { rel, utf8: false, .. } => out.problems.push(ReadProblem {
                path: rel.to_string(),
                message: "has a file name that is not UTF-8 — skipped; rename it".into(),
            }),
            Walked::Found { name, .. } if name.starts_with('.') => {}
            Walked::Found { rel, kind: Kind::Symlink, .. } => out.problems.push(ReadProblem {
                path: rel.to_string(),
                message: "is a symbolic link — not followed, not audited".into(),
            }),
            Walked::Found { kind: Kind::Dir, .. } => return Ok(true),
            Walked::Found { rel, name, path, kind: Kind::File, .. } if is_md(name) => read_note(rel, path, &mut out),
            Walked::Found { .. } => {}
            Walked::Unreadable { name, .. } if name.starts_with('.') => {}
            Walked::Unreadable { failed: Failed::Stat, .. } => {}
            Walked::Unreadable { rel, error, .. } => out.problems.push(ReadProblem {
                path: if rel.is_empty() { ".".to_string() } else { rel.to_string() },
                message: format!("cannot be listed ({error}) — skipped; check its permissions"),
            }),
        }
        Ok(false)
    });
    match walked {
        Ok(()) => Ok(out),
        Err(WalkError::Root(e)) => {
            Err(anyhow::Error::new(e).context(format!("cannot list the memory folder {}", dir.display())))
        }
        Err(WalkError::Visitor(e)) => Err(e),
    }
}

/// Reads one note into `out`, or says why it could not.
fn read_note(rel: &str, path: &Path, out: &mut FolderRead) {
    let size = fs::symlink_metadata(path).map(|m| m.len()).unwrap_or(0);
    if let Err(e) = crate::inputs::limits::NOTE.check(Path::new(rel), size) {
        out.problems.push(ReadProblem { path: rel.to_string(), message: format!("— skipped: {e:#}") });
        return;
    }
    match fs::read(path) {
        Ok(bytes) => {
            if std::str::from_utf8(&bytes).is_err() {
                out.problems.push(ReadProblem {
                    path: rel.to_string(),
                    message: "is not UTF-8 — audited as lossy text; re-save it as UTF-8".into(),
                });
            }
            out.files.insert(rel.to_string(), bytes);
        }
        Err(e) => out.problems.push(ReadProblem {
            path: rel.to_string(),
            message: format!("cannot be read ({e}) — skipped; check its permissions"),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_md_recursively_skipping_hidden_and_other_files() -> Result<()> {
        let tmp = tempfile::tempdir()?;
        let root = tmp.path();
        fs::write(root.join("MEMORY.md"), "- [A](a.md)\n")?;
        fs::write(root.join("a.md"), "a\n")?;
        fs::write(root.join("image.png"), [0u8, 1, 2])?;
        fs::create_dir_all(root.join("team"))?;
        fs::write(root.join("team/b.md"), b"\xff\xfe bad\n")?;
        fs::create_dir_all(root.join(".git"))?;
        fs::write(root.join(".git/c.md"), "hidden\n")?;
        fs::write(root.join(".draft.md"), "hidden\n")?;
        #[cfg(unix)]
        std::os::unix::fs::symlink(root.join("a.md"), root.join("link.md"))?;
        let read = read_folder(root)?;
        let keys: Vec<&str> = read.files.keys().map(String::as_str).collect();
        assert_eq!(keys, vec!["MEMORY.md", "a.md", "team/b.md"]);
        let problems: Vec<(&str, &str)> = read.problems.iter().map(|p| (p.path.as_str(), p.message.as_str())).collect();
        #[cfg(unix)]
        assert_eq!(
            problems,
            vec![
                ("link.md", "is a symbolic link — not followed, not audited"),
                ("team/b.md", "is not UTF-8 — audited as lossy text; re-save it as UTF-8"),
            ]
        );
        Ok(())
    }

    #[test]
    fn missing_dir_is_an_error_naming_it() {
        let err = read_folder(Path::new("/nonexistent/dreamreview-audit")).err();
        assert!(err.is_some_and(|e| e.to_string() == "cannot list the memory folder /nonexistent/dreamreview-audit"));
    }
}
