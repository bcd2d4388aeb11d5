//! Which processes hold a file open, as far as this system lets us see: on Linux, every
//! `/proc/<pid>/fd/<n>` of a process of this user is matched by device and inode (so a
//! file renamed or unlinked since it was opened is still found), and
//! `/proc/<pid>/fdinfo/<n>` says whether it was opened for writing. Processes of other
//! users cannot be inspected (their `/proc` entries are not readable) and are not seen;
//! elsewhere nothing can be seen at all, and [`Seen::Unknown`] says so.
//!
//! Used to name the holder of a git lock file left behind ([`super::preflight`]) and the
//! sessions that keep a note open for writing ([`super::commit`]).

use std::path::Path;

/// A process holding a file open.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Holder {
    /// Its process id.
    pub pid: u32,
    /// Its command name (`/proc/<pid>/comm`), empty when unreadable.
    pub name: String,
    /// True when it opened the file for writing.
    pub writes: bool,
}

impl Holder {
    /// `pid 123 (sh)`.
    pub fn describe(&self) -> String {
        if self.name.is_empty() { format!("pid {}", self.pid) } else { format!("pid {} ({})", self.pid, self.name) }
    }
}

/// What could be seen about a file's holders.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Seen {
    /// The processes of this user that hold it (none: empty).
    Holders(Vec<Holder>),
    /// This system offers no way to tell.
    Unknown,
}

/// A file's identity: device and inode.
pub type FileId = (u64, u64);

/// The identity of the file at `path` (following a final symlink), if it exists.
#[cfg(unix)]
pub fn file_id(path: &Path) -> Option<FileId> {
    use std::os::unix::fs::MetadataExt;
    std::fs::metadata(path).ok().map(|m| (m.dev(), m.ino()))
}

/// The identity of the file at `path`, if it exists (never on this platform).
#[cfg(not(unix))]
pub fn file_id(_path: &Path) -> Option<FileId> {
    None
}

/// The holders of the file at `path` (this process excluded).
pub fn of_path(path: &Path) -> Seen {
    match file_id(path) {
        Some(id) => of(&[id]).pop().unwrap_or(Seen::Unknown),
        None => Seen::Unknown,
    }
}

/// The holders of each file of `ids`, in order (this process excluded): one pass over
/// `/proc` whatever the number of files.
pub fn of(ids: &[FileId]) -> Vec<Seen> {
    let Ok(procs) = std::fs::read_dir("/proc") else { return ids.iter().map(|_| Seen::Unknown).collect() };
    if !Path::new("/proc/self/fd").exists() {
        return ids.iter().map(|_| Seen::Unknown).collect();
    }
    let me = std::process::id();
    let mut found: Vec<Vec<Holder>> = ids.iter().map(|_| Vec::new()).collect();
    for p in procs.flatten() {
        let Some(pid) = p.file_name().to_str().and_then(|n| n.parse::<u32>().ok()) else { continue };
        if pid == me {
            continue;
        }
        let Ok(fds) = std::fs::read_dir(p.path().join("fd")) else { continue };
        for fd in fds.flatten() {
            let Some(id) = file_id(&fd.path()) else { continue };
            let Some(i) = ids.iter().position(|x| *x == id) else { continue };
            let writes = opened_for_writing(&p.path().join("fdinfo").join(fd.file_name()));
            let name = std::fs::read_to_string(p.path().join("comm")).map(|s| s.trim().to_string()).unwrap_or_default();
            match found[i].iter_mut().find(|h| h.pid == pid) {
                Some(h) => h.writes |= writes,
                None => found[i].push(Holder { pid, name, writes }),
            }
        }
    }
    found.into_iter().map(Seen::Holders).collect()
}

/// True when `/proc/<pid>/fdinfo/<n>`'s `flags:` (octal) has write access; true too when
/// it cannot be read (assume the worst).
fn opened_for_writing(fdinfo: &Path) -> bool {
    let Ok(text) = std::fs::read_to_string(fdinfo) else { return true };
    let flags = text.lines().find_map(|l| l.strip_prefix("flags:")).and_then(|v| u32::from_str_radix(v.trim(), 8).ok());
    match flags {
        // O_ACCMODE: 0 read only, 1 write only, 2 read and write.
        Some(f) => f & 0o3 != 0,
        None => true,
    }
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;
    use std::process::{Command, Stdio};

    #[test]
    fn a_process_holding_a_file_open_for_append_is_seen_after_the_file_is_replaced() {
        let t = tempfile::tempdir().unwrap();
        let f = t.path().join("x.md");
        std::fs::write(&f, "old\n").unwrap();
        let id = file_id(&f).unwrap();
        let mut child = Command::new("sh")
            .arg("-c")
            .arg(format!("exec 3>>'{}' 4<'{}'; echo ready; read _", f.display(), f.display()))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        let mut line = String::new();
        std::io::BufRead::read_line(&mut std::io::BufReader::new(child.stdout.take().unwrap()), &mut line).unwrap();
        // Replaced by a rename: the holder still holds the old file, found by its identity.
        std::fs::write(t.path().join("new"), "new\n").unwrap();
        std::fs::rename(t.path().join("new"), &f).unwrap();
        let seen = of(&[id, file_id(&f).unwrap()]);
        let _ = child.kill();
        let _ = child.wait();
        assert_eq!(seen[0], Seen::Holders(vec![Holder { pid: child.id(), name: "sh".into(), writes: true }]));
        assert_eq!(seen[1], Seen::Holders(vec![]));
    }
}
