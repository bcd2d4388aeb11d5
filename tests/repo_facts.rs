//! Facts about the repository, checked against it: real Claude Code transcripts (the
//! spotter mutation case, whose sessions ran in `/home/marco/projects/spotter`) with a real
//! git project beside them, their `cwd` rewritten to it. A path, commit, branch or script
//! name a note adds that the project does not hold is `stale-reference` (a warning) naming
//! the project and its HEAD; what it holds, what lies outside it and what the live memory
//! already said raise nothing; `--no-repo-check` turns the check off; the project's
//! repository is never written.

use crate::common::{check_json, copy_dir, flag_rows, git, write};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The case laid out with its project: (guard, dream, memory, project root, HEAD short id,
/// the id of the commit before HEAD).
struct Case {
    _guard: tempfile::TempDir,
    dream: PathBuf,
    memory: PathBuf,
    project: PathBuf,
    head: String,
    first: String,
}

fn case() -> Case {
    let guard = tempfile::tempdir().unwrap();
    let root = guard.path().to_path_buf();
    copy_dir(&Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/mutation/spotter"), &root.join("case"));
    let project = root.join("code/spotter");
    for (p, t) in [
        ("mix.exs", "defmodule Spotter.MixProject do\nend\n"),
        ("assets/js/app.js", "import { Terminal } from \"@xterm/xterm\"\n"),
        ("assets/js/hooks/terminal.js", "export default {}\n"),
        (
            "assets/package.json",
            r#"{"name":"spotter-assets","scripts":{"build":"esbuild js/app.js","watch":"esbuild --watch"}}"#,
        ),
        ("lib/spotter/poller.ex", "defmodule Spotter.Poller do\nend\n"),
        ("Makefile", ".PHONY: test\ntest:\n\tmix test\n"),
    ] {
        write(&project.join(p), t);
    }
    git(&project, &["init", "-q", "-b", "main"]);
    git(&project, &["add", "-A"]);
    git(&project, &["commit", "-qm", "first"]);
    let first = git(&project, &["rev-parse", "--short=7", "HEAD"]).trim().to_string();
    git(&project, &["branch", "feat/terminal"]);
    git(&project, &["rm", "-q", "lib/spotter/poller.ex"]);
    git(&project, &["commit", "-qm", "drop the poller"]);
    let head = git(&project, &["rev-parse", "--short=7", "HEAD"]).trim().to_string();
    let case = root.join("case");
    for f in walk(&case.join("project")) {
        if f.extension().is_some_and(|e| e == "jsonl") {
            let text = std::fs::read_to_string(&f).unwrap();
            std::fs::write(&f, text.replace("/home/marco/projects/spotter", &project.to_string_lossy())).unwrap();
        }
    }
    let project = project.canonicalize().unwrap();
    Case { dream: case.join("dream"), memory: case.join("project/memory"), project, head, first, _guard: guard }
}

fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        let p = e.path();
        if p.is_dir() { out.extend(walk(&p)) } else { out.push(p) }
    }
    out
}

/// `check --json` with `lines` added to the dream's project_spotter.md.
fn check(c: &Case, lines: &[&str], extra: &[&str]) -> serde_json::Value {
    let note = c.dream.join("memory/project_spotter.md");
    let mut text = std::fs::read_to_string(&note).unwrap();
    for l in lines {
        text.push_str(l);
        text.push('\n');
    }
    std::fs::write(&note, text).unwrap();
    let mut args = vec!["--memory", c.memory.to_str().unwrap(), "--tz", "UTC"];
    args.extend_from_slice(extra);
    check_json(&c.dream, &args).1
}

/// The claims of the `stale-reference` flags.
fn stale(v: &serde_json::Value) -> Vec<String> {
    flag_rows(v).into_iter().filter(|r| r.1 == "stale-reference").map(|r| r.3).collect()
}

/// The messages of the `stale-reference` flags.
fn messages(v: &serde_json::Value) -> Vec<String> {
    let mut out = Vec::new();
    for f in v["files"].as_array().unwrap() {
        for h in f["hunks"].as_array().unwrap() {
            for fl in h["flags"].as_array().unwrap().iter().filter(|fl| fl["kind"] == "stale-reference") {
                out.push(fl["message"].as_str().unwrap().to_string());
                assert_eq!(fl["severity"], "warning");
            }
        }
    }
    out
}

/// Every file of the project's `.git` with its length and modification time.
fn git_state(project: &Path) -> BTreeMap<PathBuf, (u64, std::time::SystemTime)> {
    walk(&project.join(".git"))
        .into_iter()
        .map(|p| {
            let m = std::fs::metadata(&p).unwrap();
            (p, (m.len(), m.modified().unwrap()))
        })
        .collect()
}

#[test]
fn group_repo_facts_the_clean_dream_and_what_the_project_holds_raise_nothing() {
    let c = case();
    let before = git_state(&c.project);
    let v = check(
        &c,
        &[
            "- The terminal hook lives in assets/js/hooks/terminal.js; the entry point is `assets/js/app.js`.",
            &format!("- The xterm upgrade landed in commit {}.", c.first),
            "- Terminal work happens on branch `feat/terminal`.",
            "- Build the assets with `npm run build` and test with `make test`.",
            "- Paths written from the session folder: `js/hooks/terminal.js`.",
            "- Outside the project: ~/.config/spotter/config.json, /etc/hosts and /home/other/x/src/y.ex.",
            "- Placeholders are no paths: path/to/file.ex, src/**/*.ex.",
            "- The sessions ran in `spotter/`; spotter/assets/js/app.js is the entry point.",
            "- assets/js/legacy_term.js was removed in the xterm upgrade.",
        ],
        &[],
    );
    assert_eq!(stale(&v), Vec::<String>::new(), "{:#?}", flag_rows(&v));
    assert_eq!(git_state(&c.project), before, "the project's repository was written");
}

#[test]
fn group_repo_facts_what_the_project_lacks_is_a_stale_reference_naming_it_and_its_head() {
    let c = case();
    let before = git_state(&c.project);
    let v = check(
        &c,
        &[
            "- The xterm options are set in `assets/js/hooks/shell.js`.",
            "- Polling lives in lib/spotter/poller.ex.",
            "- The fix is commit 1234abcd.",
            "- 修正はコミット 89abcdef0 にある。",
            "- Terminal work happens on branch `feat/missing`.",
            "- Deploy with `npm run deploy`, then `make release`.",
        ],
        &[],
    );
    let mut got = stale(&v);
    got.sort();
    assert_eq!(
        got,
        [
            "1234abcd",
            "89abcdef0",
            "assets/js/hooks/shell.js",
            "feat/missing",
            "lib/spotter/poller.ex",
            "make release",
            "npm run deploy"
        ]
    );
    let root = c.project.display().to_string();
    let m = messages(&v);
    let has = |s: &str| m.iter().any(|x| x.contains(s));
    assert!(has(&format!("assets/js/hooks/shell.js does not exist in {root} at HEAD {}", c.head)), "{m:#?}");
    assert!(
        has(&format!("lib/spotter/poller.ex does not exist in {root} at HEAD {} (deleted in {})", c.head, c.head)),
        "{m:#?}"
    );
    assert!(has("commit 1234abcd is not in"), "{m:#?}");
    assert!(has("branch feat/missing does not exist in"), "{m:#?}");
    assert!(has("npm run deploy: no script deploy in the package.json of"), "{m:#?}");
    assert!(has("make release: no target release in the Makefile of"), "{m:#?}");
    // Never a filter: the claims keep their verdicts.
    let hunk = &v["files"].as_array().unwrap().iter().find(|f| f["path"] == "project_spotter.md").unwrap()["hunks"][0];
    assert!(hunk["claims"].as_array().unwrap().iter().any(|cl| cl["text"] == "assets/js/hooks/shell.js"), "{hunk:#}");
    assert_eq!(git_state(&c.project), before, "the project's repository was written");

    let c = case();
    let off = check(&c, &["- The xterm options are set in `assets/js/hooks/shell.js`."], &["--no-repo-check"]);
    assert_eq!(stale(&off), Vec::<String>::new());
}

#[test]
fn group_repo_facts_what_the_live_memory_already_said_and_a_missing_project_are_left_alone() {
    let c = case();
    // The live memory already names the path: the dream did not add it.
    let live = c.memory.join("project_spotter.md");
    let mut text = std::fs::read_to_string(&live).unwrap();
    text.push_str("- Old notes mention `assets/js/hooks/shell.js`.\n");
    std::fs::write(&live, &text).unwrap();
    let dream_note = c.dream.join("memory/project_spotter.md");
    let mut dream_text = std::fs::read_to_string(&dream_note).unwrap();
    dream_text.push_str("- Old notes mention `assets/js/hooks/shell.js`.\n");
    std::fs::write(&dream_note, dream_text).unwrap();
    let v = check(&c, &["- Shell options: see `assets/js/hooks/shell.js` too."], &[]);
    assert_eq!(stale(&v), Vec::<String>::new());

    // No project on this machine: nothing checked, nothing flagged.
    let c = case();
    std::fs::remove_dir_all(&c.project).unwrap();
    let v = check(&c, &["- The xterm options are set in `assets/js/hooks/shell.js`."], &[]);
    assert_eq!(stale(&v), Vec::<String>::new());
}

#[test]
fn group_repo_facts_past_the_cap_one_note_says_what_was_not_checked() {
    let c = case();
    let lines: Vec<String> = (0..205).map(|i| format!("- Generated module {i} is lib/gen/mod_{i}.ex.")).collect();
    let refs: Vec<&str> = lines.iter().map(String::as_str).collect();
    let v = check(&c, &refs, &[]);
    // The dream's own `/mcp` (a path outside the project) is the first reference looked at.
    assert_eq!(stale(&v).len(), 199);
    let notes: Vec<&str> = v["notes"].as_array().unwrap().iter().filter_map(|n| n.as_str()).collect();
    assert!(
        notes.iter().any(|n| n.starts_with("6 of 206 references to the project were not checked against")),
        "{notes:#?}"
    );
}
