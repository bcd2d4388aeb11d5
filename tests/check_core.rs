//! `check` end to end on real folders: input discovery, the diff model in JSON, drift, and
//! bad input (exit 2 with a message naming the path).

use crate::common::*;
use std::fs;

#[test]
fn pnpm_scenario_has_exactly_one_hunk_matching_memory_diff() {
    let (_g, dream, memory) = pnpm();
    let r = run(dream.parent().unwrap(), &["check", dream.to_str().unwrap(), "--json"]);
    assert!(r.code == 0 || r.code == 1, "{}", r.stderr);
    let v = json(&r);
    assert_eq!(v["dream"]["kind"], "dream-folder");
    assert_eq!(v["memory"]["path"], memory.to_str().unwrap());
    assert_eq!(v["memory"]["found_by"], "memory.diff");
    let files = v["files"].as_array().unwrap();
    assert_eq!(files.len(), 1, "{}", r.stdout);
    assert_eq!(files[0]["path"], "testing.md");
    assert_eq!(files[0]["status"], "modified");
    let hunks = files[0]["hunks"].as_array().unwrap();
    assert_eq!(hunks.len(), 1);
    let h = &hunks[0];
    assert_eq!(h["id"], "testing.md#1");
    assert_eq!((h["old_start"].as_u64(), h["old_lines"].as_u64()), (Some(4), Some(4)));
    assert_eq!((h["new_start"].as_u64(), h["new_lines"].as_u64()), (Some(4), Some(5)));
    // The hunk's lines are exactly memory.diff's hunk body.
    let diff = fs::read_to_string(dream.join("memory.diff")).unwrap();
    let body: Vec<&str> = diff.lines().skip_while(|l| !l.starts_with("@@")).skip(1).collect();
    let ours: Vec<String> = h["lines"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| format!("{}{}", l["op"].as_str().unwrap(), l["text"].as_str().unwrap().trim_end_matches('\n')))
        .collect();
    assert_eq!(ours, body);
    for key in ["changes", "audit", "summary", "flags"] {
        assert!(v.get(key).is_some() || h.get(key).is_some(), "missing field {key}");
    }
    assert_eq!(v["summary"]["files"], 1);
    assert_eq!(v["summary"]["hunks"], 1);
}

#[test]
fn text_check_is_readable() {
    let (_g, dream, _) = pnpm();
    let r = run(dream.parent().unwrap(), &["check", dream.to_str().unwrap()]);
    assert!(r.stdout.contains("modified testing.md"), "{}", r.stdout);
    assert!(r.stdout.contains("testing.md#1  @@ -4,4 +4,5 @@"), "{}", r.stdout);
    assert!(r.stdout.contains("+No Redis needed"), "{}", r.stdout);
}

#[test]
fn live_folder_from_memory_option_without_memory_diff() {
    let (_g, dream, memory) = pnpm();
    fs::remove_file(dream.join("memory.diff")).unwrap();
    let r = run(dream.parent().unwrap(), &["check", dream.to_str().unwrap()]);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("--memory"), "{}", r.stderr);
    let r = run(
        dream.parent().unwrap(),
        &["check", dream.to_str().unwrap(), "--memory", memory.to_str().unwrap(), "--json"],
    );
    assert_eq!(json(&r)["memory"]["found_by"], "--memory");
}

#[test]
fn memory_diff_naming_a_missing_folder_says_what_was_tried() {
    let (_g, root) = fixture("pnpm-migration");
    let dream = root.join("dream-2026-11-02");
    let r = run(&root, &["check", dream.to_str().unwrap()]);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("/home/dev/.claude/projects/-home-dev-shop/memory"), "{}", r.stderr);
    assert!(r.stderr.contains("memory.diff") && r.stderr.contains("--memory"), "{}", r.stderr);
}

#[test]
fn bad_inputs_exit_2_naming_the_path() {
    let (_g, dream, memory) = pnpm();
    let cwd = dream.parent().unwrap();
    // Missing dream folder.
    let r = run(cwd, &["check", "no-such-dream"]);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("no-such-dream"), "{}", r.stderr);
    // Missing --memory folder.
    let r = run(cwd, &["check", dream.to_str().unwrap(), "--memory", "/no/such/memory"]);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("/no/such/memory"), "{}", r.stderr);
    // A memory.diff that is not a diff.
    fs::write(dream.join("memory.diff"), "this is not a diff\n").unwrap();
    let r = run(cwd, &["check", dream.to_str().unwrap()]);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("memory.diff") && r.stderr.contains("not a unified diff"), "{}", r.stderr);
    let r = run(cwd, &["check", dream.to_str().unwrap(), "--memory", memory.to_str().unwrap()]);
    assert_eq!(r.code, 2, "a broken memory.diff is an error even with --memory");
    // A dream folder without notes.
    fs::remove_dir_all(dream.join("memory")).unwrap();
    let r = run(cwd, &["check", dream.to_str().unwrap(), "--memory", memory.to_str().unwrap()]);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("no proposed notes") && r.stderr.contains("dream-2026-11-02"), "{}", r.stderr);
}

/// A note its reader may not read stops `check` with exit 2 naming it. Permission bits do
/// not stop root, so as root the check runs as `nobody` (uid and gid 65534), for whom they
/// do; where even that is not possible (no right to change user) the test says it skipped.
#[cfg(unix)]
#[test]
fn unreadable_note_exits_2_naming_it() {
    use std::os::unix::fs::PermissionsExt;
    use std::os::unix::process::CommandExt;
    let (g, dream, memory) = pnpm();
    let note = memory.join("testing.md");
    fs::set_permissions(&note, fs::Permissions::from_mode(0o000)).unwrap();
    let privileged = fs::read(&note).is_ok();
    let cwd = dream.parent().unwrap();
    let r = if privileged {
        // The temp dir is private to its creator: open it for `nobody` to walk.
        fs::set_permissions(g.path(), fs::Permissions::from_mode(0o755)).unwrap();
        let mut c = std::process::Command::new(env!("CARGO_BIN_EXE_dreamreview"));
        c.args(["check", dream.to_str().unwrap()])
            .current_dir(cwd)
            .env("NO_COLOR", "1")
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("HOME", cwd)
            .env("XDG_CACHE_HOME", crate::common::cache_home())
            .env("TZ", "UTC")
            .uid(65534)
            .gid(65534);
        match c.output() {
            Ok(out) => Run {
                code: out.status.code().unwrap_or(-1),
                stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
                stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
                took: std::time::Duration::ZERO,
            },
            Err(e) => {
                skip(
                    "unreadable_note_exits_2_naming_it",
                    &format!("permission bits do not stop this user, and running as nobody failed: {e}"),
                );
                return;
            }
        }
    } else {
        run(cwd, &["check", dream.to_str().unwrap()])
    };
    assert_eq!(r.code, 2, "{}", r.both());
    assert!(r.stderr.contains("testing.md"), "{}", r.stderr);
}

#[test]
fn drift_far_from_the_hunk_applies_near_it_is_live_changed() {
    // A session edited live's frontmatter (far from the dream's hunk) after the dream ran.
    let (_g, dream, memory) = pnpm();
    let note = memory.join("testing.md");
    let live = fs::read_to_string(&note).unwrap();
    let far = live.replace("description: How to run the test suite", "description: How to run the whole test suite");
    assert_ne!(far, live);
    fs::write(&note, &far).unwrap();
    let r = run(dream.parent().unwrap(), &["check", dream.to_str().unwrap(), "--json"]);
    let v = json(&r);
    let h = &v["files"][0]["hunks"][0];
    assert_eq!(h["live_changed"], false, "{}", r.stdout);
    assert_eq!(v["files"].as_array().unwrap().len(), 1);
    // Edited inside the hunk's lines: live-changed.
    let near = live.replace("Run tests with `npm test`", "Run tests with `npm run test`");
    fs::write(&note, &near).unwrap();
    let r = run(dream.parent().unwrap(), &["check", dream.to_str().unwrap(), "--json"]);
    let v = json(&r);
    let h = &v["files"][0]["hunks"][0];
    assert_eq!(h["live_changed"], true, "{}", r.stdout);
    // The live edit is what the hunk removes: rejecting keeps it.
    let removed: Vec<&str> =
        h["lines"].as_array().unwrap().iter().filter(|l| l["op"] == "-").map(|l| l["text"].as_str().unwrap()).collect();
    assert!(removed.iter().any(|t| t.contains("npm run test")), "{removed:?}");
}

#[test]
fn in_place_dream_reviews_work_tree_against_head() {
    let (_g, _dream, memory) = pnpm();
    git(&memory, &["init", "-q"]);
    git(&memory, &["add", "-A"]);
    git(&memory, &["commit", "-qm", "init"]);
    let note = memory.join("testing.md");
    let live = fs::read_to_string(&note).unwrap();
    fs::write(&note, live.replace("npm test", "pnpm test")).unwrap();
    let r = run(&memory, &["check", "--json"]);
    let v = json(&r);
    assert_eq!(v["dream"]["kind"], "in-place", "{}", r.stderr);
    assert_eq!(v["files"][0]["path"], "testing.md");
    let lines = v["files"][0]["hunks"][0]["lines"].as_array().unwrap();
    assert!(lines.iter().any(|l| l["op"] == "-" && l["text"].as_str().unwrap().contains("`npm test`")));
    // Not a repository: a clear error.
    let plain = tempfile::tempdir().unwrap();
    let r = run(plain.path(), &["check"]);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("not in a git repository"), "{}", r.stderr);
}

/// Changes no one can see in a diff — line endings, trailing spaces — are named on their
/// hunk by `check`.
#[test]
fn invisible_changes_are_named() {
    let fm = "---\nname: n\ndescription: d\ntype: project\n---\n\n";
    let live = format!("{fm}Deploy on Fridays.  \r\nNever on Mondays.\r\n");
    let prop = format!("{fm}Deploy on Fridays.\r\nNever on Mondays.\n");
    let (_g, dream, memory) = dream_fixture(&[("a.md", &live)], &[("a.md", &prop)], "");
    let r = run(dream.parent().unwrap(), &["check", dream.to_str().unwrap(), "--memory", memory.to_str().unwrap()]);
    assert!(r.stdout.contains("    ~ CRLF → LF: lines that look the same differ in it\n"), "{}", r.stdout);
    assert!(r.stdout.contains("    ~ trailing spaces: lines that look the same differ in it\n"), "{}", r.stdout);
    // The TUI names them in the hunk's header, from the same derivation.
    let (review, _) = review(&dream, &memory);
    let mut app = dreamreview::faces::ui::state::App::new(
        review,
        dreamreview::faces::ui::theme::Theme::new(dreamreview::faces::ui::theme::ThemeName::Dark),
        (100, 20),
    );
    app.rebuild_rows();
    let screen = dreamreview::faces::ui::snapshot::to_text(&dreamreview::faces::ui::script::render(&app));
    assert!(screen.contains("CRLF → LF trailing spaces"), "{screen}");
}
