//! A cited transcript Claude Code is about to delete (older than `cleanupPeriodDays` − 7,
//! read from its `settings.json`, default 30) is named by `check`, beside the citation and
//! once in the notes, with the setting and where it came from.

use crate::common::run_env;
use crate::hardening_support::*;
use std::time::{Duration, SystemTime};

/// The standard project, its transcript last written `age_days` ago, under a Claude Code
/// configuration folder (`root/claude`, whose `projects` is the project's parent).
fn aged(age_days: u32, settings: Option<&str>) -> Project {
    let p = Project::standard();
    let config = p.root.join("claude");
    std::fs::create_dir_all(&config).unwrap();
    std::os::unix::fs::symlink(&p.root, config.join("projects")).unwrap();
    if let Some(s) = settings {
        put(&config.join("settings.json"), s.as_bytes());
    }
    let f = std::fs::File::options().write(true).open(p.root.join("project/s1.jsonl")).unwrap();
    f.set_modified(SystemTime::now() - Duration::from_secs(86_400) * age_days).unwrap();
    p
}

fn check(p: &Project, json: bool) -> String {
    let config = p.root.join("claude");
    let mut args = vec!["check", s(&p.dream), "--memory", s(&p.memory)];
    if json {
        args.push("--json");
    }
    let r = run_env(&p.root, &args, &[("CLAUDE_CONFIG_DIR", s(&config))]);
    assert!(r.code == 0 || r.code == 1, "exit {}: {}", r.code, r.stderr);
    r.stdout
}

#[test]
fn a_transcript_four_days_from_deletion_is_named_with_the_default_setting() {
    let p = aged(26, None);
    let text = check(&p, false);
    assert!(
        text.contains(
            "⌛ this transcript is deleted by Claude Code in 4 days; the review commit keeps the cited lines"
        ),
        "{text}"
    );
    assert!(
        text.contains("s1.jsonl: is deleted by Claude Code in 4 days (cleanupPeriodDays 30, the default:"),
        "{text}"
    );
    assert!(text.contains("settings.json does not exist"), "{text}");
    let v: serde_json::Value = serde_json::from_str(&check(&p, true)).unwrap();
    assert_eq!(v["changes"][0]["citations"][0]["deleted_in_days"], 4, "{v}");
}

#[test]
fn the_setting_decides_and_a_broken_one_is_the_named_default() {
    let long = aged(26, Some(r#"{"cleanupPeriodDays": 90}"#));
    let text = check(&long, false);
    assert!(!text.contains("deleted by Claude Code"), "64 days left: {text}");

    let short = aged(3, Some(r#"{"cleanupPeriodDays": 5}"#));
    let text = check(&short, false);
    assert!(text.contains("in 2 days (cleanupPeriodDays 5, set in"), "{text}");

    let broken = aged(40, Some("{ not json"));
    let text = check(&broken, false);
    assert!(text.contains("is due for deletion by Claude Code"), "{text}");
    assert!(text.contains("(cleanupPeriodDays 30, the default:") && text.contains("is not valid JSON"), "{text}");
}

#[test]
fn a_transcript_outside_claude_codes_projects_is_not_counted() {
    let p = aged(60, None);
    // HOME is the temp root, which has no .claude: these transcripts are not Claude Code's.
    let r = p.check(&[]);
    assert!(!r.stdout.contains("deleted by Claude Code"), "{}", r.stdout);
}

/// The evidence pane says it beside the citation, on the first screen at 80×24.
#[test]
fn the_evidence_pane_names_a_transcript_about_to_go() {
    use dreamreview::faces::ui::{
        script,
        snapshot::to_text,
        theme::{Theme, ThemeName},
    };
    let dir = tempfile::tempdir().unwrap();
    let mut app = script::open_demo(dir.path(), (80, 24), Theme::new(ThemeName::Dark)).unwrap();
    script::drive(&mut app, "]").unwrap();
    let hunk = app.current_file().unwrap().hunks[0].id.clone();
    let entry = app.analysis.changes.iter_mut().find(|c| c.hunks.contains(&hunk)).expect("an entry of the hunk");
    entry.citations[0].deleted_in_days = Some(3);
    let screen = to_text(&script::render(&app));
    let flat: String = screen.lines().map(|l| l.trim_matches(|c| c == '│' || c == ' ')).collect::<Vec<_>>().join(" ");
    assert!(flat.contains("⌛ deleted by Claude Code in 3 days: 3f1c9a52"), "{screen}");
}
