//! The one folder walker: every folder dreamreview reads (the memory folder and the dream's
//! proposal, transcript folders, folders `audit` reads) is walked here.
//!
//! - entries of a folder are visited in name order, a subfolder's before the next entry
//!   (depth first), so what a caller reports comes out in the same order on every run;
//! - symbolic links are reported as links and never followed (a link to `/` or to its
//!   own folder cannot make a walk leave the folder or loop);
//! - a subfolder is entered only when the visitor asks ([`Visit`] returns `true` for it),
//!   so each caller keeps its own rule for hidden folders and excluded ones;
//! - what cannot be listed is reported to the visitor, which decides whether that ends the
//!   walk (an error) or is only noted.

use std::ffi::OsString;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use anyhow::Result;

/// What a folder entry is (read without following links).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    File,
    Dir,
    Symlink,
    /// A socket, FIFO or device.
    Other,
}

/// One thing the walk met.
#[derive(Debug)]
pub enum Entry<'a> {
    /// An entry.
    Found {
        /// '/'-separated path relative to the root (lossy where a name is not UTF-8).
        rel: &'a str,
        /// Its name (lossy when it is not UTF-8).
        name: &'a str,
        path: &'a Path,
        kind: Kind,
        /// False when its name is not UTF-8: `name` and `rel` are then not its real name.
        utf8: bool,
    },
    /// A folder below the root that could not be listed (wholly, or some of its entries:
    /// the others are still visited), or an entry whose type could not be read.
    Unreadable {
        rel: &'a str,
        /// Its name (lossy when it is not UTF-8): a caller that skips hidden names skips
        /// this too.
        name: &'a str,
        path: &'a Path,
        error: &'a io::Error,
        failed: Failed,
    },
}

/// What could not be read of an [`Entry::Unreadable`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Failed {
    /// Listing the folder.
    List,
    /// The entry's type.
    Stat,
}

/// The visitor: sees each entry, returns whether to enter it (only a [`Kind::Dir`] is ever
/// entered), or an error that ends the walk.
pub type Visit<'v> = dyn FnMut(Entry<'_>) -> Result<bool> + 'v;

/// Walks the folder `root`. Errors when `root` itself cannot be listed (the error is the
/// I/O error: callers add what they were reading), or when the visitor returns one. An
/// entry of `root` that cannot be read is reported as `root` unreadable (`rel` "").
pub fn walk(root: &Path, visit: &mut Visit<'_>) -> Result<(), WalkError> {
    let listing = list(root).map_err(WalkError::Root)?;
    walk_listing(listing, root, "", visit).map_err(WalkError::Visitor)
}

/// Why a walk stopped.
#[derive(Debug)]
pub enum WalkError {
    /// The root could not be listed.
    Root(io::Error),
    /// The visitor's error.
    Visitor(anyhow::Error),
}

/// A folder's entries, sorted by name, and the first error met listing them (the entries
/// read before and after it are kept).
struct Listing {
    entries: Vec<Listed>,
    error: Option<io::Error>,
}

/// A folder's entry as listed: its name, path and type.
type Listed = (OsString, PathBuf, io::Result<fs::FileType>);

fn list(dir: &Path) -> io::Result<Listing> {
    let mut out = Listing { entries: Vec::new(), error: None };
    for entry in fs::read_dir(dir)? {
        match entry {
            Ok(entry) => out.entries.push((entry.file_name(), entry.path(), entry.file_type())),
            Err(e) => {
                out.error.get_or_insert(e);
            }
        }
    }
    out.entries.sort_by(|a, b| a.0.cmp(&b.0));
    Ok(out)
}

/// Visits the entries of the folder `dir` (named `prefix` relative to the root).
fn walk_listing(listing: Listing, dir: &Path, prefix: &str, visit: &mut Visit<'_>) -> Result<()> {
    if let Some(error) = &listing.error {
        let rel = prefix.trim_end_matches('/');
        let name = rel.rsplit('/').next().unwrap_or(rel);
        visit(Entry::Unreadable { rel, name, path: dir, error, failed: Failed::List })?;
    }
    for (os_name, path, file_type) in listing.entries {
        let utf8 = os_name.to_str().is_some();
        let name = os_name.to_string_lossy();
        let rel = format!("{prefix}{name}");
        let kind = match file_type {
            Ok(t) if t.is_symlink() => Kind::Symlink,
            Ok(t) if t.is_dir() => Kind::Dir,
            Ok(t) if t.is_file() => Kind::File,
            Ok(_) => Kind::Other,
            Err(error) => {
                visit(Entry::Unreadable { rel: &rel, name: &name, path: &path, error: &error, failed: Failed::Stat })?;
                continue;
            }
        };
        let enter = visit(Entry::Found { rel: &rel, name: &name, path: &path, kind, utf8 })?;
        if kind == Kind::Dir && enter {
            match list(&path) {
                Ok(sub) => walk_listing(sub, &path, &format!("{rel}/"), visit)?,
                Err(error) => {
                    let failed = Failed::List;
                    visit(Entry::Unreadable { rel: &rel, name: &name, path: &path, error: &error, failed })?;
                }
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every entry the walk reports, as `rel kind`, entering every folder but `skip`.
    fn seen(root: &Path, skip: &str) -> Vec<String> {
        let mut out = Vec::new();
        walk(root, &mut |e| {
            Ok(match e {
                Entry::Found { rel, kind, .. } => {
                    out.push(format!("{rel} {kind:?}"));
                    rel != skip
                }
                Entry::Unreadable { rel, .. } => {
                    out.push(format!("{rel} unreadable"));
                    false
                }
            })
        })
        .unwrap();
        out
    }

    #[test]
    fn walks_in_name_order_depth_first_without_following_links() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        fs::create_dir_all(root.join("b/inner")).unwrap();
        fs::write(root.join("b/inner/z.md"), "z").unwrap();
        fs::write(root.join("a.md"), "a").unwrap();
        fs::write(root.join("c.md"), "c").unwrap();
        fs::create_dir(root.join("skip")).unwrap();
        fs::write(root.join("skip/x.md"), "x").unwrap();
        #[cfg(unix)]
        std::os::unix::fs::symlink(root, root.join("loop")).unwrap();
        let got = seen(root, "skip");
        let mut want = vec!["a.md File", "b Dir", "b/inner Dir", "b/inner/z.md File", "c.md File"];
        #[cfg(unix)]
        want.push("loop Symlink");
        want.push("skip Dir");
        assert_eq!(got, want);
    }

    #[test]
    fn a_missing_root_is_an_error_and_a_visitor_error_ends_the_walk() {
        let dir = tempfile::tempdir().unwrap();
        assert!(matches!(walk(&dir.path().join("none"), &mut |_| Ok(true)), Err(WalkError::Root(_))));
        fs::write(dir.path().join("a.md"), "a").unwrap();
        fs::write(dir.path().join("b.md"), "b").unwrap();
        let mut calls = 0;
        let r = walk(dir.path(), &mut |_| {
            calls += 1;
            anyhow::bail!("stop")
        });
        assert!(matches!(r, Err(WalkError::Visitor(_))));
        assert_eq!(calls, 1);
    }
}
