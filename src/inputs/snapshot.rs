//! A snapshot of a notes folder: every regular file's bytes and every symlink's target,
//! keyed by '/'-separated path relative to the folder. Hidden files, `.git` and special
//! files are not notes; symlinks are recorded, never followed.

use crate::base::walk::{self, Entry as Walked, Failed, Kind, WalkError};
use anyhow::{Context, Result, bail};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// One entry of a notes folder.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Entry {
    /// A regular file and its exact bytes.
    File(Vec<u8>),
    /// A symbolic link and the target it names (not followed, never written through).
    Symlink(PathBuf),
}

impl Entry {
    /// The file's bytes, or `None` for a symlink.
    pub fn bytes(&self) -> Option<&[u8]> {
        match self {
            Entry::File(b) => Some(b),
            Entry::Symlink(_) => None,
        }
    }
}

/// The entries of a notes folder, keyed by relative path ("testing.md", "people/alice.md").
pub type Snapshot = BTreeMap<String, Entry>;

/// True for a path component that is not a note: hidden names (`.git`, `.DS_Store`, editor
/// swap files) start with a dot.
pub fn is_hidden(name: &str) -> bool {
    name.starts_with('.')
}

/// Reads every note under `root`. Errors name the path that could not be read; a missing
/// or non-directory `root` is an error.
pub fn read_folder(root: &Path) -> Result<Snapshot> {
    let meta = std::fs::metadata(root).with_context(|| format!("cannot open folder {}", root.display()))?;
    if !meta.is_dir() {
        bail!("{} is not a folder", root.display());
    }
    let mut out = Snapshot::new();
    let walked = walk::walk(root, &mut |e| match e {
        Walked::Found { utf8: false, path, .. } => {
            bail!("{}: file name is not valid UTF-8; rename it to review this folder", path.display())
        }
        Walked::Found { name, .. } if is_hidden(name) => Ok(false),
        Walked::Found { rel, path, kind: Kind::Symlink, .. } => {
            let target = std::fs::read_link(path).with_context(|| format!("cannot read symlink {}", path.display()))?;
            out.insert(rel.to_string(), Entry::Symlink(target));
            Ok(false)
        }
        Walked::Found { kind: Kind::Dir, .. } => Ok(true),
        Walked::Found { rel, path, kind: Kind::File, .. } => {
            let bytes = std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
            out.insert(rel.to_string(), Entry::File(bytes));
            Ok(false)
        }
        // Sockets, fifos and devices are not notes.
        Walked::Found { kind: Kind::Other, .. } => Ok(false),
        Walked::Unreadable { name, .. } if is_hidden(name) => Ok(false),
        Walked::Unreadable { path, error, failed: Failed::List, .. } => {
            Err(anyhow::anyhow!("cannot list folder {}: {error}", path.display()))
        }
        Walked::Unreadable { path, error, failed: Failed::Stat, .. } => {
            Err(anyhow::anyhow!("cannot stat {}: {error}", path.display()))
        }
    });
    match walked {
        Ok(()) => Ok(out),
        Err(WalkError::Root(e)) => Err(anyhow::Error::new(e).context(format!("cannot list folder {}", root.display()))),
        Err(WalkError::Visitor(e)) => Err(e),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_nested_notes_skips_hidden_and_keeps_symlinks() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        std::fs::write(root.join("MEMORY.md"), "# Memory\n").unwrap();
        std::fs::create_dir(root.join("people")).unwrap();
        std::fs::write(root.join("people/alice.md"), "Alice\r\n").unwrap();
        std::fs::create_dir(root.join(".git")).unwrap();
        std::fs::write(root.join(".git/HEAD"), "ref").unwrap();
        std::fs::write(root.join(".hidden.md"), "x").unwrap();
        #[cfg(unix)]
        std::os::unix::fs::symlink("/etc/hostname", root.join("link.md")).unwrap();
        let snap = read_folder(root).unwrap();
        let keys: Vec<_> = snap.keys().cloned().collect();
        #[cfg(unix)]
        assert_eq!(keys, ["MEMORY.md", "link.md", "people/alice.md"]);
        assert_eq!(snap["people/alice.md"], Entry::File(b"Alice\r\n".to_vec()));
        #[cfg(unix)]
        assert_eq!(snap["link.md"], Entry::Symlink("/etc/hostname".into()));
    }

    #[test]
    fn missing_folder_names_the_path() {
        let err = read_folder(Path::new("/nonexistent/dreamreview-x")).unwrap_err();
        assert!(format!("{err:#}").contains("/nonexistent/dreamreview-x"));
    }
}
