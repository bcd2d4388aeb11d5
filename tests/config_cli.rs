//! `dreamreview config` (the settings in force and where each came from), a config file's
//! errors, shell completions and the manual page, and what plain `dreamreview` opens.

use crate::common::*;
use std::path::Path;

fn run_with(home: &Path, args: &[&str], extra: &[(&str, &str)]) -> Run {
    let config = home.join("config");
    let mut env = vec![("XDG_CONFIG_HOME", config.to_str().unwrap())];
    env.extend_from_slice(extra);
    run_env(home, args, &env)
}

#[test]
fn a_setting_comes_from_the_flag_else_the_variable_else_the_file_else_the_default() {
    let t = tempfile::tempdir().unwrap();
    write(
        &t.path().join("config/dreamreview/config.toml"),
        "time_zone = \"Asia/Tokyo\"\nwindow_days = 3\n\n[gate]\nmin_sessions = 2\n",
    );
    let v = json(&run_with(t.path(), &["config", "--json"], &[("DREAMREVIEW_WINDOW_DAYS", "5")]));
    assert_eq!(v["time_zone"], serde_json::json!({"value": "Asia/Tokyo", "source": "file"}));
    assert_eq!(v["window_days"], serde_json::json!({"value": 5, "source": "env DREAMREVIEW_WINDOW_DAYS"}));
    assert_eq!(v["gate"]["min_sessions"], serde_json::json!({"value": 2, "source": "file"}));
    assert_eq!(v["gate"]["min_hours"], serde_json::json!({"value": 24, "source": "default"}));
    let text = run_with(t.path(), &["config"], &[("DREAMREVIEW_TZ", "Europe/Paris")]);
    assert!(text.stdout.contains("time_zone = \"Europe/Paris\"  (env DREAMREVIEW_TZ)"), "{}", text.both());
    // `check` reads transcripts in the setting's zone, beneath --tz.
    let (_g, dream, memory) = pnpm();
    let check = |extra: &[&str]| {
        let mut args = vec!["check", dream.to_str().unwrap(), "--memory", memory.to_str().unwrap(), "--json"];
        args.extend_from_slice(extra);
        json(&run_with(t.path(), &args, &[]))["time_zone"].clone()
    };
    let z = check(&[]);
    assert_eq!((z["name"].as_str(), z["source"].as_str()), (Some("Asia/Tokyo"), Some("setting")), "{z}");
    assert!(z["description"].as_str().unwrap().contains("config.toml"), "{z}");
    let z = check(&["--tz", "+02:00"]);
    assert_eq!((z["name"].as_str(), z["source"].as_str()), (Some("+02:00"), Some("flag")), "{z}");
}

#[test]
fn a_bad_config_file_names_the_file_the_key_and_the_line() {
    let t = tempfile::tempdir().unwrap();
    let file = t.path().join("config/dreamreview/config.toml");
    for (text, key, line, says) in [
        ("window_days = 3\ncolour = \"red\"\n", "`colour`", "line 2", "unknown field"),
        (
            "window_days = 3\n\n[dreamer]\ntimeout_minutes = \"soon\"\n",
            "`dreamer.timeout_minutes`",
            "line 4",
            "invalid type",
        ),
        ("time_zone = \"Mars/Olympus\"\n", "`time_zone`", "line 1", "not a time zone"),
    ] {
        write(&file, text);
        for args in [&["config"][..], &["inbox", "--json"], &["check", "--memory", "."]] {
            let r = run_with(t.path(), args, &[]);
            assert_eq!(r.code, 2, "{args:?}: {}", r.both());
            for part in [file.to_str().unwrap(), key, line, says] {
                assert!(r.stderr.contains(part), "{args:?} {part}: {}", r.stderr);
            }
        }
    }
}

#[test]
fn completions_and_the_manual_page_name_the_commands() {
    let t = tempfile::tempdir().unwrap();
    for shell in ["bash", "zsh", "fish"] {
        let r = run(t.path(), &["completions", shell]);
        assert_eq!(r.code, 0, "{}", r.both());
        for cmd in ["inbox", "check", "apply", "config", "completions"] {
            assert!(r.stdout.contains(cmd), "{shell} {cmd}: {}", r.stdout);
        }
    }
    let man = run(t.path(), &["man"]);
    assert_eq!(man.code, 0, "{}", man.both());
    assert!(man.stdout.starts_with(".ie") || man.stdout.contains(".TH"), "{}", man.stdout);
    for cmd in ["dreamreview\\-inbox", "dreamreview\\-check", "dreamreview\\-config"] {
        assert!(man.stdout.contains(cmd), "{cmd}: {}", man.stdout);
    }
}

/// Plain `dreamreview` opens the inbox anywhere but a dream folder (its review) or a memory
/// folder under git (its in-place review). Without a terminal each says it needs one; what
/// was meant shows in `--help`-free ways: the inbox needs no dream, a review does.
#[test]
fn plain_dreamreview_is_the_inbox_or_the_review_of_the_folder_it_is_run_in() {
    use dreamreview::faces::cli::inbox::default_here;
    let (_g, dream, memory) = pnpm();
    assert_eq!(default_here(Some(&dream)), vec!["review", "."]);
    assert_eq!(default_here(Some(&memory)), vec!["inbox"], "no git yet");
    git(&memory, &["init", "-q"]);
    assert_eq!(default_here(Some(&memory)), vec!["review"]);
    assert_eq!(default_here(Some(dream.parent().unwrap())), vec!["inbox"]);
    // Inside the dream folder, the review is of that dream (no "not in a git repository").
    let r = run(&dream, &[]);
    assert!(!r.stderr.contains("not in a git repository"), "{}", r.both());
    assert!(r.stderr.contains("terminal"), "{}", r.both());
}

/// With `CLAUDE_CONFIG_DIR` set, every Claude Code path is under it, not `~/.claude`:
/// `audit`'s default folders, `index`'s default transcripts, and the trust of a memory
/// folder only `memory.diff` names.
#[test]
fn claude_config_dir_moves_every_claude_code_path() {
    let t = tempfile::tempdir().unwrap();
    let home = t.path().join("home");
    let claude = t.path().join("elsewhere");
    let (_g, dream, _) = pnpm();
    let project = claude.join("projects/-home-dev-shop");
    copy_dir(&dream.parent().unwrap().join("project"), &project);
    std::fs::create_dir_all(&home).unwrap();
    let memory = project.join("memory");
    replace_in(
        &dream.join("memory.diff"),
        &dream.parent().unwrap().join("project/memory").to_string_lossy(),
        &memory.to_string_lossy(),
    );
    let env = [("CLAUDE_CONFIG_DIR", claude.to_str().unwrap()), ("HOME", home.to_str().unwrap())];
    let audit = run_env(&home, &["audit", "--json"], &env);
    assert!(audit.stdout.contains(memory.to_str().unwrap()), "{}", audit.both());
    let check = json(&run_env(&home, &["check", dream.to_str().unwrap(), "--json"], &env));
    assert_eq!(check["memory"]["trust"], "claude-memory", "{}", check["memory"]);
    let index = run_env(&home, &["index", "--cache", t.path().join("cache").to_str().unwrap()], &env);
    assert!(index.code == 0 && index.stdout.contains("1 of 1 transcripts"), "{}", index.both());
}
