//! The repository lock across real processes: a second process holding it refuses a
//! writer naming it; once that process is killed (SIGKILL, no cleanup) the next writer
//! takes the lock at once, whatever pid its leftover file names (a reused pid included);
//! and racing processes hold it one at a time. The other processes are this test binary
//! re-run as [`lock_child`] (see `common::LockHolder`).

use crate::common::{LOCK_CHILD_PATH, LOCK_CHILD_ROLE, LockHolder};
use dreamreview::store::repo::lock::{LockInfo, RepoLock};
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

/// The other process: does nothing unless `common::LockHolder` (role `hold`) or
/// [`racing_processes_hold_the_lock_one_at_a_time`] (role `race`) started it.
#[test]
fn lock_child() {
    let (Ok(role), Some(path)) = (std::env::var(LOCK_CHILD_ROLE), std::env::var_os(LOCK_CHILD_PATH)) else {
        return;
    };
    let path = Path::new(&path);
    match role.as_str() {
        "hold" => hold_until_killed(path),
        "race" => race(path),
        other => panic!("unknown {LOCK_CHILD_ROLE} {other}"),
    }
}

fn hold_until_killed(path: &Path) {
    let _lock = RepoLock::acquire_at(path).unwrap();
    println!("held {}", std::process::id());
    loop {
        std::thread::sleep(Duration::from_secs(60));
    }
}

/// Increments the counter beside the lock `RACE_ROUNDS` times, each under the lock, with
/// a pause between read and write that would lose increments if two held it at once.
fn race(path: &Path) {
    let dir = path.parent().unwrap();
    let counter = dir.join("counter");
    let inside = dir.join("inside");
    for _ in 0..RACE_ROUNDS {
        let lock = acquire_retrying(path);
        std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&inside)
            .expect("two processes hold the lock at once");
        let n: u64 = std::fs::read_to_string(&counter).unwrap().trim().parse().unwrap();
        std::thread::sleep(Duration::from_millis(2));
        std::fs::write(&counter, format!("{}\n", n + 1)).unwrap();
        std::fs::remove_file(&inside).unwrap();
        drop(lock);
    }
}

/// Takes the lock, trying again while another racer holds it (for 20 s at most).
fn acquire_retrying(path: &Path) -> RepoLock {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        match RepoLock::acquire_at(path) {
            Ok(l) => return l,
            Err(e) if Instant::now() < deadline && format!("{e:#}").contains("locked by another dreamreview") => {
                std::thread::sleep(Duration::from_millis(1));
            }
            Err(e) => panic!("could not take the lock: {e:#}"),
        }
    }
}

const RACE_ROUNDS: u64 = 15;
const RACERS: u64 = 6;

fn pid_in(path: &Path) -> u32 {
    LockInfo::parse(&std::fs::read_to_string(path).unwrap()).expect("a lock file naming a pid").pid
}

/// A process holding the lock refuses the next one, naming its pid and the file. Killed
/// with SIGKILL it cleans nothing up, yet the lock is free at once: the leftover file,
/// naming the dead pid, blocks nobody; nor does it when that pid is reused (simulated by
/// rewriting it to a live process: this test's own pid, and pid 1).
#[test]
fn a_killed_holder_blocks_nobody_even_when_its_pid_is_reused() {
    let t = tempfile::tempdir().unwrap();
    let path = t.path().join("dreamreview/lock");
    for reused in [None, Some(std::process::id()), Some(1)] {
        let holder = LockHolder::start(&path);
        let e = format!("{:#}", RepoLock::acquire_at(&path).unwrap_err());
        assert!(e.contains("locked by another dreamreview"), "{e}");
        assert!(e.contains(&format!("pid {}", holder.pid)), "{e}");
        assert!(e.contains(&path.display().to_string()), "{e}");
        let dead = holder.pid;
        holder.kill();
        assert_eq!(pid_in(&path), dead, "a killed holder leaves its file behind");
        let pid = reused.unwrap_or(dead);
        let text = std::fs::read_to_string(&path).unwrap();
        std::fs::write(&path, text.replace(&format!("pid={dead}\n"), &format!("pid={pid}\n"))).unwrap();
        let start = Instant::now();
        let lock = RepoLock::acquire_at(&path).unwrap_or_else(|e| panic!("pid {pid} left behind blocks: {e:#}"));
        assert!(start.elapsed() < Duration::from_secs(1), "took {:?}", start.elapsed());
        let why = lock.took_over.clone().expect("the takeover is reported");
        assert!(why.contains(&format!("pid {pid} ")), "{why}");
    }
}

/// Racing processes, started over the file a killed holder left (naming a reused pid),
/// each increment a counter under the lock with a pause between read and write: no
/// increment is lost and no two are ever inside at once.
#[test]
fn racing_processes_hold_the_lock_one_at_a_time() {
    let t = tempfile::tempdir().unwrap();
    let path = t.path().join("lock");
    std::fs::write(t.path().join("counter"), "0\n").unwrap();
    let left = LockInfo { pid: 1, ..LockInfo::this_process() };
    std::fs::write(&path, left.to_text()).unwrap();
    let racers: Vec<_> = (0..RACERS)
        .map(|_| {
            Command::new(std::env::current_exe().unwrap())
                .args(["repo_lock::lock_child", "--exact", "--nocapture", "--test-threads", "1"])
                .env(LOCK_CHILD_ROLE, "race")
                .env(LOCK_CHILD_PATH, &path)
                .stdout(std::process::Stdio::null())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    for r in racers {
        let out = r.wait_with_output().unwrap();
        assert!(out.status.success(), "a racer failed: {}", String::from_utf8_lossy(&out.stderr));
    }
    let n: u64 = std::fs::read_to_string(t.path().join("counter")).unwrap().trim().parse().unwrap();
    assert_eq!(n, RACERS * RACE_ROUNDS, "increments lost: two racers held the lock at once");
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "", "the last racer let go cleanly");
}
