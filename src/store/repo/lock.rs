//! One writer per memory repository: an exclusive OS lock (`flock`, through
//! [`File::try_lock`]) on `<gitdir>/dreamreview/lock`, held by an open file for as long as
//! the [`RepoLock`] lives. The operating system releases it when the holder's file closes,
//! however the holder ends (finished, crashed, killed with SIGKILL), so a dead holder never
//! blocks the next writer, and no process id is ever checked or guessed at.
//!
//! The file's text (`pid=…`, `host=…`, `started=…`) only names the holder, for the message a
//! refused writer prints. The holder empties it before it lets go, so text found by the
//! next holder means the previous one stopped without finishing: that is reported as a
//! takeover. The file itself is never deleted: a writer that deleted it while another
//! waited could let two writers lock two different files.
//!
//! File locks need a file system that supports them (local disks; NFS with its lock
//! manager). Where they are not supported, taking the lock fails naming the file.

use super::MemoryRepo;
use anyhow::{Context, Result, anyhow, bail};
use std::fs::{File, OpenOptions, TryLockError};
use std::io::{Read, Seek, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

/// How long a refused writer keeps trying before it names the holder: long enough to wait
/// out a holder that is just letting go, or a `check` looking whether anyone holds it.
const PATIENCE: Duration = Duration::from_millis(300);

/// Who holds (or held) a lock.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LockInfo {
    /// Process id of the holder.
    pub pid: u32,
    /// Host name of the holder's machine.
    pub host: String,
    /// When the holder took the lock, seconds since the Unix epoch.
    pub started: u64,
}

impl LockInfo {
    /// This process, now.
    pub fn this_process() -> LockInfo {
        LockInfo { pid: std::process::id(), host: hostname(), started: now_secs() }
    }

    /// The lock file's text: `pid=…`, `host=…`, `started=…` lines.
    pub fn to_text(&self) -> String {
        format!("pid={}\nhost={}\nstarted={}\ntool=dreamreview\n", self.pid, self.host, self.started)
    }

    /// Parses a lock file's text; `None` when it is not one (empty, half-written, garbage).
    pub fn parse(text: &str) -> Option<LockInfo> {
        let mut pid = None;
        let mut host = None;
        let mut started = None;
        for line in text.lines() {
            match line.split_once('=') {
                Some(("pid", v)) => pid = v.trim().parse().ok(),
                Some(("host", v)) => host = Some(v.trim().to_string()),
                Some(("started", v)) => started = v.trim().parse().ok(),
                _ => {}
            }
        }
        Some(LockInfo { pid: pid?, host: host?, started: started? })
    }

    /// `pid N on host H, since T`.
    pub fn describe(&self) -> String {
        format!("pid {} on host {}, since {}", self.pid, self.host, format_time(self.started))
    }
}

/// A held lock: the open file carrying the OS lock. Dropping it empties the file and
/// closes it, which releases the lock.
#[derive(Debug)]
pub struct RepoLock {
    file: File,
    path: PathBuf,
    /// Set when the previous holder stopped without letting go: one sentence saying whose
    /// lock it was.
    pub took_over: Option<String>,
}

/// Where the lock of a memory repository lives.
pub fn lock_path(repo: &MemoryRepo) -> PathBuf {
    repo.state_dir().join("lock")
}

impl RepoLock {
    /// Takes the lock of `repo`'s git directory, or fails naming the holder and what to do.
    pub fn acquire(repo: &MemoryRepo) -> Result<RepoLock> {
        RepoLock::acquire_at(&lock_path(repo))
    }

    /// Takes the lock file at `path` (its folder is created when missing).
    pub fn acquire_at(path: &Path) -> Result<RepoLock> {
        create_parent(path)?;
        let mut file = lock_within_patience(path)?;
        let previous = read_holder(&mut file, path)?;
        write_holder(&mut file, path, &LockInfo::this_process())?;
        let took_over = previous.map(|info| {
            format!(
                "took over a stale lock {} ({}): that dreamreview stopped without letting go \
                 (killed or crashed), and its lock ended with it",
                path.display(),
                info.describe()
            )
        });
        Ok(RepoLock { file, path: path.to_path_buf(), took_over })
    }

    /// Fails unless this is the lock of `repo` (a writer must hold its repository's lock).
    pub fn check(&self, repo: &MemoryRepo) -> Result<()> {
        if self.path != lock_path(repo) {
            bail!("internal error: holding lock {} but writing {}", self.path.display(), repo.memory.display());
        }
        Ok(())
    }
}

impl Drop for RepoLock {
    /// Empties the file while the lock is still held (so the next holder sees a clean
    /// release); closing the file then releases the lock.
    fn drop(&mut self) {
        let _ = self.file.set_len(0);
    }
}

/// A process holding a lock right now, as its lock file names it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Holder {
    /// What the file says (`None`: the holder has not written it yet).
    pub info: Option<LockInfo>,
}

impl Holder {
    /// `pid N on host H, since T`, or that the holder has not said yet.
    pub fn describe(&self) -> String {
        self.info
            .as_ref()
            .map(LockInfo::describe)
            .unwrap_or_else(|| "it has just started and not written its pid yet".into())
    }
}

/// Whether a process holds the lock at `path` right now, without taking it and without
/// creating the file. Read only, for `check`.
pub fn holder_at(path: &Path) -> Result<Option<Holder>> {
    let mut file = match File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(anyhow!(e).context(format!("cannot open lock {}", path.display()))),
    };
    match file.try_lock_shared() {
        Ok(()) => Ok(None),
        Err(TryLockError::WouldBlock) => Ok(Some(holder_of(&mut file))),
        Err(TryLockError::Error(e)) => Err(unsupported(path, e)),
    }
}

/// [`holder_at`] for `repo`'s lock.
pub fn holder(repo: &MemoryRepo) -> Result<Option<Holder>> {
    holder_at(&lock_path(repo))
}

fn create_parent(path: &Path) -> Result<()> {
    match path.parent() {
        Some(dir) => std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display())),
        None => Ok(()),
    }
}

/// Opens and locks the file, trying again for [`PATIENCE`] while someone else holds it.
fn lock_within_patience(path: &Path) -> Result<File> {
    let deadline = Instant::now() + PATIENCE;
    loop {
        let mut file = open(path)?;
        match file.try_lock() {
            Ok(()) if same_file(&file, path) => return Ok(file),
            // The file was deleted or replaced between our open and our lock: lock the
            // one that is there now.
            Ok(()) => continue,
            Err(TryLockError::WouldBlock) if Instant::now() < deadline => {
                std::thread::sleep(Duration::from_millis(20));
            }
            Err(TryLockError::WouldBlock) => {
                let who = holder_of(&mut file).describe();
                bail!(
                    "the memory repository is locked by another dreamreview ({who}): it is \
                     writing the notes now. Wait for it to finish and run this again (its lock \
                     {} is released the moment it exits)",
                    path.display()
                );
            }
            Err(TryLockError::Error(e)) => return Err(unsupported(path, e)),
        }
    }
}

/// Opens the lock file for reading and writing, creating it, never truncating it (that
/// would erase the holder's name), and never through a symlink.
fn open(path: &Path) -> Result<File> {
    if std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink()) {
        bail!("the lock {} is a symlink, which dreamreview never follows; delete it", path.display());
    }
    OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(path)
        .with_context(|| format!("cannot open lock {}", path.display()))
}

fn unsupported(path: &Path, e: std::io::Error) -> anyhow::Error {
    anyhow!(
        "cannot lock {}: {e}. The file system holding the memory repository does not support \
         file locks (a network share without a lock manager?); work on a copy of the memory \
         folder on a local disk",
        path.display()
    )
}

/// True when the open `file` is still the file at `path`.
fn same_file(file: &File, path: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        match (file.metadata(), std::fs::symlink_metadata(path)) {
            (Ok(a), Ok(b)) => a.dev() == b.dev() && a.ino() == b.ino(),
            _ => false,
        }
    }
    #[cfg(not(unix))]
    {
        let _ = (file, path);
        true
    }
}

fn holder_of(file: &mut File) -> Holder {
    Holder { info: read_text(file).ok().and_then(|t| LockInfo::parse(&t)) }
}

fn read_text(file: &mut File) -> std::io::Result<String> {
    let mut bytes = Vec::new();
    file.rewind()?;
    file.take(4096).read_to_end(&mut bytes)?;
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

/// What a previous holder left in the file (it empties it when it lets go normally).
fn read_holder(file: &mut File, path: &Path) -> Result<Option<LockInfo>> {
    let text = read_text(file).with_context(|| format!("cannot read lock {}", path.display()))?;
    Ok(LockInfo::parse(&text))
}

fn write_holder(file: &mut File, path: &Path, me: &LockInfo) -> Result<()> {
    file.set_len(0)
        .and_then(|_| file.rewind())
        .and_then(|_| file.write_all(me.to_text().as_bytes()))
        .and_then(|_| file.sync_data())
        .with_context(|| format!("cannot write lock {}", path.display()))
}

/// This machine's host name (best effort; `localhost` when unknown).
pub fn hostname() -> String {
    for f in ["/proc/sys/kernel/hostname", "/etc/hostname"] {
        if let Ok(s) = std::fs::read_to_string(f) {
            let s = s.trim();
            if !s.is_empty() {
                return s.to_string();
            }
        }
    }
    for v in ["HOSTNAME", "COMPUTERNAME"] {
        if let Ok(s) = std::env::var(v)
            && !s.trim().is_empty()
        {
            return s.trim().to_string();
        }
    }
    "localhost".to_string()
}

fn now_secs() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or(0)
}

/// `YYYY-MM-DD HH:MM:SS UTC` for seconds since the epoch, formatted by jiff (a time past
/// the year 9999 is shown as its last second).
pub fn format_time(secs: u64) -> String {
    let at =
        i64::try_from(secs).ok().and_then(|s| jiff::Timestamp::from_second(s).ok()).unwrap_or(jiff::Timestamp::MAX);
    at.strftime("%Y-%m-%d %H:%M:%S UTC").to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lock_is_exclusive_and_released_on_drop() {
        let t = tempfile::tempdir().unwrap();
        let p = t.path().join("dreamreview/lock");
        let l = RepoLock::acquire_at(&p).unwrap();
        assert!(l.took_over.is_none());
        let info = LockInfo::parse(&std::fs::read_to_string(&p).unwrap()).unwrap();
        assert_eq!(info.pid, std::process::id());
        // A second open file description is refused like another process would be.
        let e = format!("{:#}", RepoLock::acquire_at(&p).unwrap_err());
        assert!(e.contains("locked by another dreamreview"), "{e}");
        assert!(e.contains(&format!("pid {}", std::process::id())), "{e}");
        assert!(e.contains(&p.display().to_string()), "{e}");
        assert_eq!(holder_at(&p).unwrap(), Some(Holder { info: Some(info) }));
        drop(l);
        assert_eq!(std::fs::read_to_string(&p).unwrap(), "", "emptied, not deleted");
        assert_eq!(holder_at(&p).unwrap(), None);
        let again = RepoLock::acquire_at(&p).unwrap();
        assert!(again.took_over.is_none(), "a clean release is no takeover");
    }

    /// The text a dead holder left, even naming a live process (a reused pid: here this
    /// very process), is not a lock: only the OS lock is.
    #[test]
    fn a_leftover_file_naming_a_live_pid_does_not_block() {
        let t = tempfile::tempdir().unwrap();
        let p = t.path().join("lock");
        for pid in [std::process::id(), 1] {
            let left = LockInfo { pid, started: 0, ..LockInfo::this_process() };
            std::fs::write(&p, left.to_text()).unwrap();
            let l = RepoLock::acquire_at(&p).unwrap();
            let why = l.took_over.clone().unwrap();
            assert!(why.contains(&format!("pid {pid}")), "{why}");
            assert!(why.contains("1970-01-01 00:00:00 UTC"), "{why}");
        }
    }

    #[test]
    fn a_lock_file_from_another_host_is_only_a_name() {
        let t = tempfile::tempdir().unwrap();
        let p = t.path().join("lock");
        let other = LockInfo { pid: 1, host: "some-other-machine".into(), started: 1 };
        std::fs::write(&p, other.to_text()).unwrap();
        let l = RepoLock::acquire_at(&p).unwrap();
        assert!(l.took_over.as_deref().unwrap_or_default().contains("some-other-machine"));
    }

    #[test]
    fn holder_never_creates_the_file() {
        let t = tempfile::tempdir().unwrap();
        let p = t.path().join("lock");
        assert_eq!(holder_at(&p).unwrap(), None);
        assert!(!p.exists());
    }

    #[cfg(unix)]
    #[test]
    fn a_symlinked_lock_is_refused() {
        let t = tempfile::tempdir().unwrap();
        let p = t.path().join("lock");
        std::os::unix::fs::symlink(t.path().join("elsewhere"), &p).unwrap();
        let e = format!("{:#}", RepoLock::acquire_at(&p).unwrap_err());
        assert!(e.contains("symlink") && e.contains(&p.display().to_string()), "{e}");
        assert!(!t.path().join("elsewhere").exists());
    }

    #[test]
    fn parse_is_total() {
        assert_eq!(LockInfo::parse(""), None);
        assert_eq!(LockInfo::parse("pid=x\nhost=a\nstarted=1"), None);
        let i = LockInfo::this_process();
        assert_eq!(LockInfo::parse(&i.to_text()), Some(i));
    }
}
