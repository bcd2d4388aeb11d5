//! Size limits on what is read whole, checked from the file's size before a byte of it is
//! read: a note (a sparse 1.5 GiB file once aborted the process out of memory) and a
//! decisions file (`--decisions`, whose edited text is held whole). Each limit has a
//! default and an environment variable to raise it; the error names the file, the limit
//! and the variable.

use anyhow::{Result, bail};
use std::path::Path;

/// A limit on a file's size.
#[derive(Clone, Copy, Debug)]
pub struct Limit {
    /// What the file is, for the message (`a note`).
    pub what: &'static str,
    /// The default, in MiB.
    pub default_mib: u64,
    /// The environment variable that sets it, in MiB.
    pub env: &'static str,
}

/// One note of a memory folder or a proposal: memory notes are read at every session
/// start; one of 16 MiB is already far past what an agent can load.
pub const NOTE: Limit = Limit { what: "a note", default_mib: 16, env: "DREAMREVIEW_MAX_NOTE_MIB" };

/// All the notes of one folder together.
pub const FOLDER: Limit =
    Limit { what: "the notes of one folder", default_mib: 128, env: "DREAMREVIEW_MAX_FOLDER_MIB" };

/// A decisions file (`apply --decisions`): its edited texts become notes.
pub const DECISIONS: Limit = Limit { what: "a decisions file", default_mib: 32, env: "DREAMREVIEW_MAX_DECISIONS_MIB" };

impl Limit {
    /// The limit in force, in bytes: the environment's value when it is a whole number of
    /// MiB, else the default.
    pub fn bytes(self) -> u64 {
        let mib = std::env::var(self.env).ok().and_then(|v| v.trim().parse::<u64>().ok()).unwrap_or(self.default_mib);
        mib.saturating_mul(1 << 20)
    }

    /// Refuses `size` bytes of `path` over the limit, saying which limit and how to raise it.
    pub fn check(self, path: &Path, size: u64) -> Result<()> {
        let limit = self.bytes();
        if size > limit {
            bail!(
                "{} is {}, over the {} MiB limit on {} (not read); move it out of the folder, \
                 or raise the limit with {}=<MiB>",
                path.display(),
                shown_size(size),
                limit >> 20,
                self.what,
                self.env
            );
        }
        Ok(())
    }
}

/// `1.5 GiB`, `150.0 MiB`, `912 bytes`.
fn shown_size(n: u64) -> String {
    match n {
        n if n >= 1 << 30 => format!("{:.1} GiB", n as f64 / f64::from(1u32 << 30)),
        n if n >= 1 << 20 => format!("{:.1} MiB", n as f64 / f64::from(1u32 << 20)),
        n => format!("{n} bytes"),
    }
}

/// Checks every file a folder read would read whole ([`NOTE`] each, [`FOLDER`] together),
/// from their sizes, before any is read. Hidden names are skipped as the read skips them;
/// what cannot be listed is left for the read to report.
pub fn check_folder(root: &Path) -> Result<()> {
    use crate::base::walk::{Entry as Walked, Kind};
    let mut total: u64 = 0;
    let walked = crate::base::walk::walk(root, &mut |e| match e {
        Walked::Found { name, .. } if name.starts_with('.') => Ok(false),
        Walked::Found { kind: Kind::Dir, .. } => Ok(true),
        Walked::Found { path, kind: Kind::File, .. } => {
            let size = std::fs::symlink_metadata(path).map(|m| m.len()).unwrap_or(0);
            NOTE.check(path, size)?;
            total = total.saturating_add(size);
            FOLDER.check(root, total).map_err(|e| e.context(format!("{} (at {})", root.display(), path.display())))?;
            Ok(false)
        }
        _ => Ok(false),
    });
    match walked {
        Err(crate::base::walk::WalkError::Visitor(e)) => Err(e),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sparse_note_over_the_limit_is_refused_by_its_size_naming_the_limit() {
        let t = tempfile::tempdir().unwrap();
        std::fs::write(t.path().join("ok.md"), "fine\n").unwrap();
        let big = std::fs::File::create(t.path().join("huge.md")).unwrap();
        big.set_len(3 << 29).unwrap();
        let e = format!("{:#}", check_folder(t.path()).unwrap_err());
        assert!(e.contains("huge.md is 1.5 GiB, over the 16 MiB limit on a note"), "{e}");
        assert!(e.contains("DREAMREVIEW_MAX_NOTE_MIB"), "{e}");
        std::fs::remove_file(t.path().join("huge.md")).unwrap();
        assert!(check_folder(t.path()).is_ok());
    }
}
