//! What is at a note's path, as the file system identifies it (device, inode, size, change
//! times), and the check that it still holds what a review expects: another program's edit
//! is a [`ChangedOnDisk`] error, never overwritten.

use anyhow::{Context, Result, anyhow};
use std::path::Path;

/// A note that did not hold what the review was computed from at the moment dreamreview
/// was about to replace it (or no longer held what dreamreview wrote, before the commit):
/// another program (a live agent session) edited it. Nothing of that edit is overwritten.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChangedOnDisk {
    /// Memory-relative path of the note.
    pub path: String,
}

impl std::fmt::Display for ChangedOnDisk {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} was changed by another program while dreamreview was writing the review", self.path)
    }
}

impl std::error::Error for ChangedOnDisk {}

/// What is at a path, as the file system identifies it: a file's device, inode, size and
/// change times (nanoseconds), or nothing. Two equal identities are the same unchanged file;
/// any write, truncation or replacement changes at least one field.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Identity {
    /// No file at the path.
    Absent,
    /// A regular file.
    File(FileStamp),
}

/// The stat fields of a file that any change to it moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FileStamp {
    pub(super) dev: u64,
    pub(super) ino: u64,
    pub(super) size: u64,
    pub(super) mtime: (i64, i64),
    ctime: (i64, i64),
}

impl FileStamp {
    #[cfg(unix)]
    pub(super) fn of(m: &std::fs::Metadata) -> FileStamp {
        use std::os::unix::fs::MetadataExt;
        FileStamp {
            dev: m.dev(),
            ino: m.ino(),
            size: m.size(),
            mtime: (m.mtime(), m.mtime_nsec()),
            ctime: (m.ctime(), m.ctime_nsec()),
        }
    }

    #[cfg(not(unix))]
    pub(super) fn of(m: &std::fs::Metadata) -> FileStamp {
        let nanos = |t: std::io::Result<std::time::SystemTime>| {
            t.ok()
                .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
                .map(|d| (d.as_secs() as i64, i64::from(d.subsec_nanos())))
                .unwrap_or((0, 0))
        };
        FileStamp { dev: 0, ino: 0, size: m.len(), mtime: nanos(m.modified()), ctime: nanos(m.created()) }
    }
}

/// The identity of what is at `path` now, without following a symlink.
pub(super) fn identity_now(path: &Path) -> Result<Identity> {
    match std::fs::symlink_metadata(path) {
        Ok(m) => Ok(Identity::File(FileStamp::of(&m))),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Identity::Absent),
        Err(e) => Err(anyhow!(e).context(format!("cannot inspect {}", path.display()))),
    }
}

/// Checks that `path` holds exactly `expected` (`None`: nothing) and returns the identity of
/// what it holds. The content is read through one open file whose stat is taken before and
/// after the read and compared with the path's, so an edit during the read is seen too.
pub(super) fn holds(path: &Path, rel: &str, expected: Option<&[u8]>) -> Result<Identity> {
    let changed = || anyhow::Error::new(ChangedOnDisk { path: rel.to_string() });
    let before = identity_now(path)?;
    let Identity::File(stamp) = before else {
        return if expected.is_none() { Ok(Identity::Absent) } else { Err(changed()) };
    };
    let Some(expected) = expected else { return Err(changed()) };
    if stamp.size != expected.len() as u64 {
        return Err(changed());
    }
    let mut f = std::fs::File::open(path).with_context(|| format!("cannot read {}", path.display()))?;
    let opened = FileStamp::of(&f.metadata().with_context(|| format!("cannot inspect {}", path.display()))?);
    let mut bytes = Vec::with_capacity(expected.len());
    std::io::Read::read_to_end(&mut f, &mut bytes).with_context(|| format!("cannot read {}", path.display()))?;
    let read = FileStamp::of(&f.metadata().with_context(|| format!("cannot inspect {}", path.display()))?);
    if opened != stamp || read != stamp || bytes != expected || identity_now(path)? != before {
        return Err(changed());
    }
    Ok(before)
}
