//! `dreamreview snapshot` (a clean baseline for in-place dreams: what sessions wrote,
//! committed as a snapshot, never a review) and `dreamreview hooks install|uninstall`
//! (settings.json edited without touching anything else).

use crate::common::{git, run_env, write};
use std::path::Path;

fn env(root: &Path) -> Vec<(String, String)> {
    vec![("CLAUDE_CONFIG_DIR".into(), root.join("claude").display().to_string())]
}

fn run(root: &Path, args: &[&str], extra: &[(&str, &str)]) -> crate::common::Run {
    let e = env(root);
    let mut all: Vec<(&str, &str)> = e.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    all.extend_from_slice(extra);
    run_env(root, args, &all)
}

#[test]
fn snapshot_commits_session_writes_as_a_snapshot_and_inits_only_when_asked() {
    let t = tempfile::tempdir().unwrap();
    let root = t.path().canonicalize().unwrap();
    let mem = root.join("claude/projects/-home-dev-shop/memory");
    write(&mem.join("MEMORY.md"), "# Memory\n");
    let m = mem.display().to_string();
    let r = run(&root, &["snapshot", "--memory", &m], &[]);
    assert_eq!(r.code, 2, "{}", r.both());
    assert!(r.stderr.contains("--init"), "{}", r.both());
    assert!(!mem.join(".git").exists(), "git init without consent");
    let r = run(&root, &["snapshot", "--memory", &m, "--init"], &[]);
    assert_eq!(r.code, 0, "{}", r.both());
    // A session writes; the snapshot commits it.
    write(&mem.join("testing.md"), "Run the tests with pnpm.\n");
    let r = run(&root, &["snapshot", "--memory", &m], &[]);
    assert_eq!(r.code, 0, "{}", r.both());
    assert!(r.stdout.contains("memory: snapshot of what sessions wrote (1 file: testing.md)"), "{}", r.both());
    assert_eq!(git(&mem, &["status", "--porcelain"]), "");
    let log = run(&root, &["log", "--memory", &m], &[]);
    assert!(log.stdout.contains("[snapshot] memory: snapshot of what sessions wrote"), "{}", log.both());
    assert!(!log.stdout.contains("[review"), "{}", log.both());
    // Nothing new: no commit.
    let r = run(&root, &["snapshot", "--memory", &m], &[]);
    assert!(r.stdout.contains("nothing to snapshot"), "{}", r.both());
    // As the SessionEnd hook: the memory folder beside the transcript, from stdin.
    write(&mem.join("deploy.md"), "Deploy with make ship.\n");
    let transcript = root.join("claude/projects/-home-dev-shop/abc.jsonl");
    let input =
        serde_json::json!({"hook_event_name": "SessionEnd", "transcript_path": transcript, "cwd": "/elsewhere"});
    let out = hook(&root, &input.to_string());
    assert!(out.contains("(1 file: deploy.md)"), "{out}");
    assert_eq!(git(&mem, &["status", "--porcelain"]), "");
    // A project whose memory is not under git is skipped quietly by the hook.
    write(&root.join("claude/projects/-other/memory/a.md"), "x\n");
    let input = serde_json::json!({"transcript_path": root.join("claude/projects/-other/s.jsonl")});
    hook(&root, &input.to_string());
    assert!(!root.join("claude/projects/-other/memory/.git").exists());
}

/// Runs `snapshot --hook` with `input` on stdin; asserts exit 0; returns stdout.
fn hook(root: &Path, input: &str) -> String {
    use std::io::Write;
    let mut c = std::process::Command::new(env!("CARGO_BIN_EXE_dreamreview"));
    c.args(["snapshot", "--hook"])
        .current_dir(root)
        .env("HOME", root)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("NO_COLOR", "1")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped());
    for (k, v) in env(root) {
        c.env(k, v);
    }
    let mut child = c.spawn().unwrap();
    child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert_eq!(out.status.code(), Some(0), "{stdout}{}", String::from_utf8_lossy(&out.stderr));
    stdout
}

/// A settings.json as people keep it: other keys, other hooks, another tool's SessionEnd
/// entry, a non-ASCII value, 4-space indentation, no final newline.
const SETTINGS: &str = r#"{
    "model": "opus",
    "cleanupPeriodDays": 90,
    "env": { "LANG": "ja_JP.UTF-8", "NOTE": "メモ \u00e9" },
    "hooks": {
        "PreToolUse": [
            {
                "matcher": "Bash",
                "hooks": [ { "type": "command", "command": "audit-bash" } ]
            }
        ],
        "SessionEnd": [
            { "hooks": [ { "type": "command", "command": "other-tool --flush" } ] }
        ]
    },
    "permissions": {"allow": ["Read"]}
}"#;

#[test]
fn hooks_round_trip_settings_byte_for_byte() {
    let t = tempfile::tempdir().unwrap();
    let root = t.path().canonicalize().unwrap();
    let settings = root.join("claude/settings.json");
    for original in [SETTINGS, "{\n  \"model\": \"opus\"\n}\n"] {
        write(&settings, original);
        let r = run(&root, &["hooks", "install"], &[]);
        assert_eq!(r.code, 0, "{}", r.both());
        let installed = std::fs::read_to_string(&settings).unwrap();
        // Install changes only its entry: the rest of the file is as it was.
        let v: serde_json::Value = serde_json::from_str(&installed).unwrap();
        let mut without = v.clone();
        let ends = without["hooks"]["SessionEnd"].as_array_mut().unwrap();
        let ours = ends.pop().unwrap();
        assert!(ours["hooks"][0]["command"].as_str().unwrap().ends_with("dreamreview snapshot --hook"), "{installed}");
        if ends.is_empty() {
            without["hooks"].as_object_mut().unwrap().remove("SessionEnd");
        }
        if without["hooks"].as_object().unwrap().is_empty() {
            without.as_object_mut().unwrap().remove("hooks");
        }
        assert_eq!(without, serde_json::from_str::<serde_json::Value>(original).unwrap());
        assert!(
            installed.starts_with(&original[..original.find("\"hooks\"").unwrap_or(original.rfind('"').unwrap() + 1)])
        );
        // A backup of the original was written first.
        let backups: Vec<_> = std::fs::read_dir(root.join("claude"))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.file_name().unwrap().to_string_lossy().starts_with("settings.json.bak-"))
            .collect();
        assert!(backups.iter().any(|b| std::fs::read_to_string(b).unwrap() == original), "{backups:?}");
        // Twice is once.
        let r = run(&root, &["hooks", "install"], &[]);
        assert!(r.stdout.contains("already"), "{}", r.both());
        assert_eq!(std::fs::read_to_string(&settings).unwrap(), installed);
        let r = run(&root, &["hooks", "uninstall"], &[]);
        assert_eq!(r.code, 0, "{}", r.both());
        assert_eq!(std::fs::read_to_string(&settings).unwrap(), original, "uninstall did not restore the file");
        for b in backups {
            std::fs::remove_file(b).unwrap();
        }
    }
    // Uninstall with nothing of ours changes nothing.
    let r = run(&root, &["hooks", "uninstall"], &[]);
    assert!(r.stdout.contains("no dreamreview hook"), "{}", r.both());
    // An invalid file is refused and left alone.
    write(&settings, "{\"model\": \"opus\",}\n");
    let r = run(&root, &["hooks", "install"], &[]);
    assert_eq!(r.code, 2, "{}", r.both());
    assert!(r.stderr.contains("is not valid JSON"), "{}", r.both());
    assert_eq!(std::fs::read_to_string(&settings).unwrap(), "{\"model\": \"opus\",}\n");
}
