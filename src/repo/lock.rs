//! One writer per memory repository: a lock file `<gitdir>/dreamreview/lock`, created with
//! `O_EXCL`, holding the pid, host and start time of the process that writes. A lock whose
//! process is gone (same host, pid not alive) is stale: it is taken over and the takeover
//! is explained. A lock from another host is never taken over automatically.
//!
//! Limitation: a pid reused by an unrelated process after a crash keeps the lock looking
//! alive; the message then says which file to delete.

use super::MemoryRepo;
use anyhow::{Context, Result, bail};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

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

    fn describe(&self) -> String {
        format!("pid {} on host {}, since {}", self.pid, self.host, format_time(self.started))
    }
}

/// A held lock; dropping it releases it (only if the file is still ours).
#[derive(Debug)]
pub struct RepoLock {
    path: PathBuf,
    text: String,
    /// Set when a stale lock was taken over: one sentence explaining whose and why.
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
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
        }
        let me = LockInfo::this_process();
        let text = me.to_text();
        let mut took_over = None;
        // Enough rounds to wait out a lock file being written (see `Staleness::Young`).
        for _ in 0..40 {
            match std::fs::OpenOptions::new().write(true).create_new(true).open(path) {
                Ok(mut f) => {
                    f.write_all(text.as_bytes())
                        .and_then(|_| f.sync_all())
                        .with_context(|| format!("cannot write lock {}", path.display()))?;
                    return Ok(RepoLock { path: path.to_path_buf(), text, took_over });
                }
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {}
                Err(e) => {
                    return Err(anyhow::anyhow!(e).context(format!("cannot create lock {}", path.display())));
                }
            }
            let held = match std::fs::read_to_string(path) {
                Ok(t) => t,
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
                Err(e) => {
                    return Err(anyhow::anyhow!(e).context(format!("cannot read lock {}", path.display())));
                }
            };
            match staleness(path, &held, &me) {
                Staleness::Alive(why) => bail!(
                    "the memory repository is locked by another dreamreview ({why}): it is \
                     writing the notes now. Wait for it to finish; if no dreamreview is running, \
                     delete {}",
                    path.display()
                ),
                Staleness::Young => {
                    std::thread::sleep(Duration::from_millis(200));
                    continue;
                }
                Staleness::Stale(why) => {
                    if take_over(path, &held)? {
                        took_over = Some(format!("took over a stale lock {} ({why})", path.display()));
                    }
                }
            }
        }
        bail!(
            "could not take the lock {} (it keeps changing hands); try again, or delete it if \
             no dreamreview is running",
            path.display()
        )
    }
}

impl RepoLock {
    /// Fails unless this is the lock of `repo` (a writer must hold its repository's lock).
    pub fn check(&self, repo: &MemoryRepo) -> Result<()> {
        if self.path != lock_path(repo) {
            bail!("internal error: holding lock {} but writing {}", self.path.display(), repo.memory.display());
        }
        Ok(())
    }
}

impl Drop for RepoLock {
    fn drop(&mut self) {
        if std::fs::read_to_string(&self.path).is_ok_and(|t| t == self.text) {
            let _ = std::fs::remove_file(&self.path);
        }
    }
}

enum Staleness {
    Alive(String),
    Young,
    Stale(String),
}

fn staleness(path: &Path, held: &str, me: &LockInfo) -> Staleness {
    let Some(info) = LockInfo::parse(held) else {
        // Created but not written yet, or garbage: wait a moment, then treat as stale.
        let age = std::fs::metadata(path)
            .and_then(|m| m.modified())
            .ok()
            .and_then(|t| SystemTime::now().duration_since(t).ok())
            .unwrap_or_default();
        return if age < Duration::from_secs(5) {
            Staleness::Young
        } else {
            Staleness::Stale("the lock file is unreadable and older than 5 s".into())
        };
    };
    if info.host != me.host {
        return Staleness::Alive(format!(
            "{}; it is on another machine, so dreamreview cannot tell whether it still runs",
            info.describe()
        ));
    }
    match pid_alive(info.pid) {
        Some(false) => {
            Staleness::Stale(format!("{}: that process no longer exists, it probably crashed", info.describe()))
        }
        _ => Staleness::Alive(info.describe()),
    }
}

/// Removes a stale lock whose text is still `held`, under a short-lived takeover guard so
/// two processes never both remove and re-create. Returns false when someone else moved
/// first (the caller then retries).
fn take_over(path: &Path, held: &str) -> Result<bool> {
    let guard = path.with_extension("takeover");
    match std::fs::OpenOptions::new().write(true).create_new(true).open(&guard) {
        Ok(_) => {}
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
            let old = std::fs::metadata(&guard)
                .and_then(|m| m.modified())
                .ok()
                .and_then(|t| SystemTime::now().duration_since(t).ok())
                .is_some_and(|age| age > Duration::from_secs(30));
            if old {
                let _ = std::fs::remove_file(&guard);
            } else {
                std::thread::sleep(Duration::from_millis(100));
            }
            return Ok(false);
        }
        Err(e) => {
            return Err(anyhow::anyhow!(e).context(format!("cannot create {}", guard.display())));
        }
    }
    let same = std::fs::read_to_string(path).is_ok_and(|t| t == held);
    let removed = same && std::fs::remove_file(path).is_ok();
    let _ = std::fs::remove_file(&guard);
    Ok(removed)
}

/// Whether a process with this pid exists on this machine: `None` when it cannot be told.
pub fn pid_alive(pid: u32) -> Option<bool> {
    if pid == 0 {
        return Some(false);
    }
    if pid == std::process::id() {
        return Some(true);
    }
    #[cfg(target_os = "linux")]
    {
        match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
            // Zombies (state Z/X) have exited; only their parent has not reaped them.
            Ok(stat) => {
                let state = stat.rsplit_once(')').and_then(|(_, rest)| rest.trim_start().chars().next());
                Some(!matches!(state, Some('Z') | Some('X')))
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Some(false),
            Err(_) => None,
        }
    }
    #[cfg(all(unix, not(target_os = "linux")))]
    {
        std::process::Command::new("ps")
            .args(["-p", &pid.to_string()])
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .status()
            .ok()
            .map(|s| s.success())
    }
    #[cfg(not(unix))]
    {
        None
    }
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

/// `YYYY-MM-DD HH:MM:SS UTC` for seconds since the epoch.
pub fn format_time(secs: u64) -> String {
    let days = (secs / 86_400) as i64;
    let rem = secs % 86_400;
    format!("{} {:02}:{:02}:{:02} UTC", crate::date::Date::from_days(days), rem / 3600, rem % 3600 / 60, rem % 60)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dead_pid() -> u32 {
        let mut c = std::process::Command::new("true").spawn().unwrap();
        let pid = c.id();
        c.wait().unwrap();
        pid
    }

    #[test]
    fn lock_is_exclusive_and_released_on_drop() {
        let t = tempfile::tempdir().unwrap();
        let p = t.path().join("dreamreview/lock");
        let l = RepoLock::acquire_at(&p).unwrap();
        assert!(l.took_over.is_none());
        let text = std::fs::read_to_string(&p).unwrap();
        let info = LockInfo::parse(&text).unwrap();
        assert_eq!(info.pid, std::process::id());
        let e = format!("{:#}", RepoLock::acquire_at(&p).unwrap_err());
        assert!(e.contains("locked by another dreamreview"), "{e}");
        assert!(e.contains(&format!("pid {}", std::process::id())), "{e}");
        assert!(e.contains(&p.display().to_string()), "{e}");
        drop(l);
        assert!(!p.exists());
        drop(RepoLock::acquire_at(&p).unwrap());
    }

    #[cfg(unix)]
    #[test]
    fn stale_lock_is_taken_over_and_explained() {
        let t = tempfile::tempdir().unwrap();
        let p = t.path().join("lock");
        let dead = dead_pid();
        assert_eq!(pid_alive(dead), Some(false));
        let stale = LockInfo { pid: dead, started: 0, ..LockInfo::this_process() };
        std::fs::write(&p, stale.to_text()).unwrap();
        let l = RepoLock::acquire_at(&p).unwrap();
        let why = l.took_over.clone().unwrap();
        assert!(why.contains(&format!("pid {dead}")), "{why}");
        assert!(why.contains("no longer exists"), "{why}");
        assert!(why.contains("1970-01-01 00:00:00 UTC"), "{why}");
        assert!(!p.with_extension("takeover").exists());
    }

    #[test]
    fn other_hosts_are_never_taken_over() {
        let t = tempfile::tempdir().unwrap();
        let p = t.path().join("lock");
        let other = LockInfo { pid: 1, host: "some-other-machine".into(), started: 1 };
        std::fs::write(&p, other.to_text()).unwrap();
        let e = format!("{:#}", RepoLock::acquire_at(&p).unwrap_err());
        assert!(e.contains("another machine"), "{e}");
        assert_eq!(std::fs::read_to_string(&p).unwrap(), other.to_text());
    }

    #[test]
    fn parse_is_total() {
        assert_eq!(LockInfo::parse(""), None);
        assert_eq!(LockInfo::parse("pid=x\nhost=a\nstarted=1"), None);
        let i = LockInfo::this_process();
        assert_eq!(LockInfo::parse(&i.to_text()), Some(i));
    }
}
