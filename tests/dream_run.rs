//! `dreamreview dream`: the night's dream run on a fake home (Claude Code projects under
//! CLAUDE_CONFIG_DIR, dreams under XDG_DATA_HOME, scratch folders under TMPDIR) with a
//! fake dreamer (a shell script): the scratch copy is removed however the run ends, live
//! memory is never touched, memory.diff is what `diff -ruN` prints, sub-agent transcripts
//! are copied, the window goes by each session's last event, one run per project, the
//! `--all` gate, and the schedule.

use crate::common::{Run, run_env, write};
use std::path::{Path, PathBuf};
use std::time::Duration;

const PROJECT: &str = "-home-dev-shop";

/// A fake home: `claude/projects/<project>/`, `data/` (XDG_DATA_HOME), `tmp/` (TMPDIR).
struct Home {
    _t: tempfile::TempDir,
    root: PathBuf,
}

impl Home {
    fn new() -> Home {
        let t = tempfile::tempdir().unwrap();
        let root = t.path().canonicalize().unwrap();
        std::fs::create_dir_all(root.join("tmp")).unwrap();
        std::fs::create_dir_all(root.join("claude/projects")).unwrap();
        Home { _t: t, root }
    }

    fn project(&self, name: &str) -> PathBuf {
        self.root.join("claude/projects").join(name)
    }

    fn memory(&self) -> PathBuf {
        self.project(PROJECT).join("memory")
    }

    /// The standard project: notes (one without a final newline, one in a subfolder),
    /// a recent session with a sub-agent.
    fn shop(&self) -> &Home {
        let m = self.memory();
        write(&m.join("MEMORY.md"), "# Memory\n- [Testing](testing.md) — how tests run\n- [Old](old.md) — gone\n");
        write(&m.join("testing.md"), "---\nname: testing\n---\nRun the tests with npm test.\nCI uses npm too.");
        write(&m.join("old.md"), "an old note\n");
        write(&m.join("people/alice.md"), "Alice owns deploys.\n");
        self.session(PROJECT, "s1", &recent(1));
        write(
            &self.project(PROJECT).join("s1/subagents/agent-a1b2c3d.jsonl"),
            &line(&recent(1), "sub-agent ran pnpm test"),
        );
        self
    }

    fn session(&self, project: &str, id: &str, last: &str) -> PathBuf {
        let p = self.project(project).join(format!("{id}.jsonl"));
        write(&p, &(line("2020-01-01T00:00:00Z", "hello") + &line(last, "we use pnpm now")));
        p
    }

    fn dreamer(&self, name: &str, body: &str) -> PathBuf {
        let p = self.root.join(format!("{name}.sh"));
        std::fs::write(&p, format!("#!/bin/sh\n{body}\n")).unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755)).unwrap();
        }
        p
    }

    fn env(&self) -> Vec<(String, String)> {
        let r = |p: &str| self.root.join(p).display().to_string();
        vec![
            ("CLAUDE_CONFIG_DIR".into(), r("claude")),
            ("XDG_DATA_HOME".into(), r("data")),
            ("TMPDIR".into(), r("tmp")),
            ("LC_ALL".into(), "C".into()),
        ]
    }

    fn dream(&self, dreamer: &Path, args: &[&str]) -> Run {
        let mut env = self.env();
        env.push(("DREAMREVIEW_DREAMER".into(), dreamer.display().to_string()));
        let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
        let mut all = vec!["dream"];
        all.extend_from_slice(args);
        run_env(&self.root, &all, &env)
    }

    fn dreams(&self) -> PathBuf {
        self.root.join("data/dreamreview/dreams").join(PROJECT)
    }

    /// The scratch folders left in TMPDIR (there must be none after a run).
    fn leftovers(&self) -> Vec<String> {
        std::fs::read_dir(self.root.join("tmp"))
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into())
            .collect()
    }
}

fn line(ts: &str, text: &str) -> String {
    format!("{{\"type\":\"user\",\"timestamp\":\"{ts}\",\"message\":{{\"role\":\"user\",\"content\":\"{text}\"}}}}\n")
}

fn recent(hours: i64) -> String {
    (jiff::Timestamp::now() - jiff::SignedDuration::from_hours(hours)).to_string()
}

/// Every file under a folder with its bytes.
fn files(root: &Path) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    fn go(root: &Path, dir: &Path, out: &mut Vec<(String, Vec<u8>)>) {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                go(root, &p, out);
            } else {
                out.push((p.strip_prefix(root).unwrap().display().to_string(), std::fs::read(&p).unwrap()));
            }
        }
    }
    go(root, root, &mut out);
    out.sort();
    out
}

/// A dreamer that edits notes, adds and deletes one, and writes CHANGES.md with the
/// transcripts it was given and its folder's mode.
const GOOD: &str = r#"sed -i 's/npm/pnpm/g' memory/testing.md
printf 'new note\n' > memory/people/bob.md
rm memory/old.md
{ echo '- memory/testing.md: npm is now pnpm (s1.jsonl line 2)'; find transcripts -type f | sort; stat -c 'mode %a' .; } > CHANGES.md
echo "consolidated 3 notes""#;

#[test]
fn dream_writes_the_folder_and_leaves_live_memory_and_no_scratch() {
    let h = Home::new();
    h.shop();
    let before = files(&h.memory());
    let d = h.dreamer("good", GOOD);
    let r = h.dream(&d, &[PROJECT]);
    assert_eq!(r.code, 0, "{}", r.both());
    assert_eq!(files(&h.memory()), before, "live memory changed");
    assert!(h.leftovers().is_empty(), "scratch left: {:?}", h.leftovers());
    let folder = std::fs::read_dir(h.dreams())
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.file_name().unwrap().to_string_lossy().starts_with("dream-"))
        .expect("a dream folder");
    assert!(r.stdout.contains(&folder.display().to_string()), "{}", r.both());
    let changes = std::fs::read_to_string(folder.join("CHANGES.md")).unwrap();
    // Sub-agent transcripts are copied beside their session, and the folder is private.
    assert!(changes.contains("transcripts/s1.jsonl\n"), "{changes}");
    assert!(changes.contains("transcripts/s1/subagents/agent-a1b2c3d.jsonl\n"), "{changes}");
    assert!(changes.contains("mode 700"), "{changes}");
    assert_eq!(std::fs::read(folder.join("memory/people/bob.md")).unwrap(), b"new note\n");
    assert!(!folder.join("memory/old.md").exists());
    let log = std::fs::read_to_string(folder.join("run.log")).unwrap();
    assert!(log.contains("consolidated 3 notes"), "{log}");
    // memory.diff is byte for byte what GNU diff prints.
    let gnu = std::process::Command::new("diff")
        .args(["-ruN", &h.memory().display().to_string(), &folder.join("memory").display().to_string()])
        .env("LC_ALL", "C")
        .env("TZ", "UTC")
        .output()
        .unwrap();
    assert_eq!(gnu.status.code(), Some(1), "{}", String::from_utf8_lossy(&gnu.stderr));
    let ours = std::fs::read(folder.join("memory.diff")).unwrap();
    assert_eq!(String::from_utf8_lossy(&ours), String::from_utf8_lossy(&gnu.stdout));
    assert_eq!(ours, gnu.stdout);
    // And the review reads it: the live folder comes from memory.diff.
    let check = run_env(&h.root, &["check", &folder.display().to_string(), "--json"], &[]);
    assert!(check.code == 0 || check.code == 1, "{}", check.both());
    let j: serde_json::Value = serde_json::from_str(&check.stdout).unwrap();
    assert_eq!(j["memory"]["path"].as_str().unwrap(), h.memory().display().to_string());
    // The citation form the shipped prompt asks for resolves to the transcript line.
    let c = &j["changes"][0]["citations"][0];
    assert_eq!(c["resolved"], true, "{}", j["changes"]);
    assert_eq!(c["line"], 2, "{}", j["changes"]);
    assert!(dreamreview::store::dreamrun::DEFAULT_PROMPT.contains("jsonl line 42)"));
}

#[test]
fn dream_window_goes_by_the_last_event_not_the_mtime() {
    let h = Home::new();
    h.shop();
    // Old mtime, recent last event: in. Recent mtime, old last event: out.
    let old_file = h.session(PROJECT, "oldmtime", &recent(2));
    let touched = std::process::Command::new("touch").args(["-d", "2020-01-01"]).arg(&old_file).status().unwrap();
    assert!(touched.success());
    h.session(PROJECT, "stale", "2020-06-01T00:00:00Z");
    let d = h.dreamer("good", GOOD);
    let out = h.root.join("out");
    let r = h.dream(&d, &[PROJECT, "--days", "3", "--out", &out.display().to_string()]);
    assert_eq!(r.code, 0, "{}", r.both());
    let folder = out.join(format!("dream-{}", jiff::ZonedDateTime::now().date()));
    let changes = std::fs::read_to_string(folder.join("CHANGES.md")).unwrap();
    assert!(changes.contains("transcripts/oldmtime.jsonl"), "{changes}");
    assert!(!changes.contains("stale"), "{changes}");
}

#[test]
fn dream_failure_keeps_the_log_and_the_code_and_removes_the_scratch() {
    let h = Home::new();
    h.shop();
    let before = files(&h.memory());
    let d = h.dreamer("fail", "echo 'rate limited, giving up' >&2\nexit 3");
    let r = h.dream(&d, &[PROJECT]);
    assert_eq!(r.code, 3, "{}", r.both());
    assert!(r.stderr.contains("exited with code 3"), "{}", r.both());
    assert!(h.leftovers().is_empty(), "scratch left: {:?}", h.leftovers());
    assert_eq!(files(&h.memory()), before);
    let logs: Vec<_> = std::fs::read_dir(h.dreams())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.to_string_lossy().ends_with(".run.log"))
        .collect();
    assert_eq!(logs.len(), 1, "{}", r.both());
    assert!(std::fs::read_to_string(&logs[0]).unwrap().contains("rate limited"));
    // A dreamer killed by a signal is a failure too.
    let d = h.dreamer("killed", "kill -9 $$");
    let r = h.dream(&d, &[PROJECT]);
    assert_eq!(r.code, 1, "{}", r.both());
    assert!(r.stderr.contains("killed by a signal"), "{}", r.both());
    assert!(h.leftovers().is_empty(), "scratch left: {:?}", h.leftovers());
}

#[test]
fn dream_timeout_stops_a_hanging_dreamer() {
    let h = Home::new();
    h.shop();
    let d = h.dreamer("hang", "echo thinking hard\nsleep 30");
    // The project named by its memory folder's path.
    let r = h.dream(&d, &[&h.memory().display().to_string(), "--timeout-secs", "1"]);
    assert_eq!(r.code, 1, "{}", r.both());
    // Progress on stderr: the project and the time elapsed.
    assert!(r.stderr.contains(&format!("dreaming {PROJECT} · 0m0")), "{}", r.both());
    assert!(r.took < Duration::from_secs(10), "took {:?}", r.took);
    assert!(r.stderr.contains("past the timeout"), "{}", r.both());
    assert!(h.leftovers().is_empty(), "scratch left: {:?}", h.leftovers());
}

#[test]
fn dream_refuses_changes_outside_memory() {
    let h = Home::new();
    h.shop();
    let before = files(&h.memory());
    let d = h.dreamer(
        "outside",
        "sed -i 's/npm/pnpm/' memory/testing.md\nrm -f transcripts/s1.jsonl\necho forged > transcripts/s1.jsonl\necho x > notes.txt",
    );
    let r = h.dream(&d, &[PROJECT]);
    assert_eq!(r.code, 2, "{}", r.both());
    assert!(r.stderr.contains("transcripts/s1.jsonl (modified)"), "{}", r.both());
    assert!(r.stderr.contains("notes.txt (added)"), "{}", r.both());
    assert!(h.leftovers().is_empty(), "scratch left: {:?}", h.leftovers());
    assert_eq!(files(&h.memory()), before);
    let dreams: Vec<_> = std::fs::read_dir(h.dreams())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with("dream-"))
        .collect();
    assert!(dreams.is_empty(), "{dreams:?}");
}

#[cfg(unix)]
#[test]
fn dream_sigterm_stops_the_dreamer_and_removes_the_scratch() {
    let h = Home::new();
    h.shop();
    let pidfile = h.root.join("dreamer.pid");
    let d = h.dreamer("slow", &format!("echo $$ > '{}'\nsleep 30", pidfile.display()));
    let mut c = std::process::Command::new(env!("CARGO_BIN_EXE_dreamreview"));
    c.args(["dream", PROJECT])
        .current_dir(&h.root)
        .env("HOME", &h.root)
        .env("DREAMREVIEW_DREAMER", &d)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped());
    for (k, v) in h.env() {
        c.env(k, v);
    }
    let child = c.spawn().unwrap();
    let start = std::time::Instant::now();
    while !pidfile.exists() || std::fs::read_to_string(&pidfile).unwrap().trim().is_empty() {
        assert!(start.elapsed() < Duration::from_secs(10), "the dreamer never started");
        std::thread::sleep(Duration::from_millis(20));
    }
    assert_eq!(h.leftovers().len(), 1, "the scratch folder exists while it runs");
    let dreamer_pid: i32 = std::fs::read_to_string(&pidfile).unwrap().trim().parse().unwrap();
    // SAFETY: a signal to the dreamreview process this test started.
    unsafe { libc::kill(child.id() as i32, libc::SIGTERM) };
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(128 + libc::SIGTERM), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(h.leftovers().is_empty(), "scratch left: {:?}", h.leftovers());
    // The dreamer went with it.
    let gone = (0..100).any(|_| {
        // SAFETY: signal 0 only asks whether the process exists.
        let alive = unsafe { libc::kill(dreamer_pid, 0) } == 0;
        if alive {
            std::thread::sleep(Duration::from_millis(20));
        }
        !alive
    });
    assert!(gone, "the dreamer {dreamer_pid} still runs");
}

#[test]
fn dream_one_run_per_project() {
    let h = Home::new();
    h.shop();
    let lock = h.dreams().join(".lock");
    std::fs::create_dir_all(h.dreams()).unwrap();
    let mut f = std::fs::OpenOptions::new().create(true).truncate(false).read(true).write(true).open(&lock).unwrap();
    f.try_lock().unwrap();
    use std::io::Write;
    write!(f, "pid=4242\nhost=elsewhere\nstarted=1700000000\n").unwrap();
    let d = h.dreamer("good", GOOD);
    let r = h.dream(&d, &[PROJECT]);
    assert_eq!(r.code, 2, "{}", r.both());
    assert!(r.stderr.contains("already running") && r.stderr.contains("pid 4242"), "{}", r.both());
    drop(f);
    let r = h.dream(&d, &[PROJECT]);
    assert_eq!(r.code, 0, "{}", r.both());
}

#[test]
fn dream_all_follows_the_gate() {
    let h = Home::new();
    h.shop();
    for i in 0..4 {
        h.session(PROJECT, &format!("more{i}"), &recent(3));
    }
    // Two sessions only.
    write(&h.project("-few").join("memory/MEMORY.md"), "# M\n- npm\n");
    h.session("-few", "a", &recent(1));
    h.session("-few", "b", &recent(1));
    // Dreamed an hour ago.
    write(&h.project("-recent").join("memory/MEMORY.md"), "# M\n- npm\n");
    for i in 0..6 {
        h.session("-recent", &format!("r{i}"), &recent(0));
    }
    let state = h.root.join("data/dreamreview/dreams/-recent");
    write(&state.join(".last-dream"), &format!("{}\n", recent(1)));
    let d = h.dreamer("good", GOOD);
    let r = h.dream(&d, &["--all"]);
    assert_eq!(r.code, 0, "{}", r.both());
    assert!(r.stdout.contains(&format!("{PROJECT}: due: 5 sessions")), "{}", r.both());
    assert!(r.stdout.contains("-few: not due: 2 sessions"), "{}", r.both());
    assert!(r.stdout.contains("-recent: not due: last dream 1 h ago"), "{}", r.both());
    assert!(h.dreams().join(format!("dream-{}", jiff::ZonedDateTime::now().date())).is_dir(), "{}", r.both());
    assert!(!h.root.join("data/dreamreview/dreams/-few").exists());
    // Just dreamed: not due again.
    let r = h.dream(&d, &["--all"]);
    assert!(r.stdout.contains(&format!("{PROJECT}: not due: last dream 0 h ago")), "{}", r.both());
}

#[test]
fn dream_says_how_to_install_a_missing_dreamer() {
    let h = Home::new();
    h.shop();
    let r = h.dream(Path::new("/nonexistent/dreamer"), &[PROJECT]);
    assert_eq!(r.code, 2, "{}", r.both());
    assert!(r.stderr.contains("`/nonexistent/dreamer` is not found"), "{}", r.both());
    let mut env = h.env();
    env.push(("PATH".into(), h.root.join("tmp").display().to_string()));
    let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    let r = run_env(&h.root, &["dream", PROJECT], &env);
    assert_eq!(r.code, 2, "{}", r.both());
    assert!(r.stderr.contains("npm install -g @anthropic-ai/claude-code"), "{}", r.both());
    assert!(h.leftovers().is_empty(), "scratch left: {:?}", h.leftovers());
}

#[test]
fn dream_prints_a_schedule() {
    let h = Home::new();
    let r = run_env(&h.root, &["dream", "--print-schedule"], &[]);
    assert_eq!(r.code, 0, "{}", r.both());
    for want in ["[Timer]", "OnCalendar=*-*-* 03:00:00", "[Service]", "ExecStart=", "0 3 * * * ", " dream --all"] {
        assert!(r.stdout.contains(want), "{want} missing:\n{}", r.stdout);
    }
}

#[test]
fn dream_takes_its_dreamer_and_gate_from_the_config_file() {
    let h = Home::new();
    h.shop();
    let d = h.dreamer(
        "configured",
        "echo 'Tests run with pnpm.' >> memory/testing.md\necho '- testing.md: from the config (s1.jsonl line 2)' > CHANGES.md",
    );
    write(
        &h.root.join("config/dreamreview/config.toml"),
        &format!("[dreamer]\ncommand = [{:?}]\n\n[gate]\nmin_sessions = 1\nmin_hours = 0\n", d.display().to_string()),
    );
    let mut env = h.env();
    env.push(("XDG_CONFIG_HOME".into(), h.root.join("config").display().to_string()));
    let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    let r = run_env(&h.root, &["dream", PROJECT], &env);
    assert_eq!(r.code, 0, "{}", r.both());
    let written: Vec<PathBuf> = std::fs::read_dir(h.dreams()).unwrap().map(|e| e.unwrap().path()).collect();
    let changes = written.iter().find(|p| p.join("CHANGES.md").exists()).map(|p| p.join("CHANGES.md"));
    let text = std::fs::read_to_string(changes.expect("a dream folder with CHANGES.md")).unwrap();
    assert!(text.contains("from the config"), "{text}");
}
