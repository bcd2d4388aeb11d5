//! Integration tests for `dreamreview audit` (`faces::cli::audit::run`): the aligned table,
//! the details, `--json`, and exit codes, on fixture folders with exact expected output.

use std::path::{Path, PathBuf};

use dreamreview::analysis::audit::report::default_dirs_in;
use dreamreview::faces::cli::audit;

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/audit")
}

/// Runs the report and returns (exit code, output with folder prefixes shortened).
fn run(dirs: &[PathBuf], json: bool, strip: &[&Path]) -> (i32, String) {
    let mut out = Vec::new();
    let code = match audit::run(dirs, &audit::Options { json, ..Default::default() }, &mut out) {
        Ok(c) => c,
        Err(e) => panic!("{e:#}"),
    };
    let mut text = String::from_utf8_lossy(&out).into_owned();
    for p in strip {
        text = text.replace(&format!("{}/", p.display()), "");
    }
    (code, text)
}

#[test]
fn fixture_folders_table_and_details() {
    let f = fixtures();
    let dirs: Vec<PathBuf> = ["no-index", "claude-ja", "openclaw", "claude-ko"].iter().map(|d| f.join(d)).collect();
    let (code, out) = run(&dirs, false, &[&f]);
    assert_eq!(code, 0);
    assert_eq!(
        out,
        "\
status  lines  bytes  dangling  orphans  invalid  secrets  unverifiable  folder
ok          8    752         1        2        2        0             0  claude-ko
ok          5    224         0        0        0        0             0  openclaw
ok          3    201         0        0        0        0             0  claude-ja
none        -      -         0        0        0        0             0  no-index

claude-ko
  warning  index-long-line      MEMORY.md:9          MEMORY.md line 9 is 185 characters (limit 150) — shorten it to a one-line hook and move the detail into the topic file.
  warning  dangling-link        MEMORY.md:8          MEMORY.md line 8 links to old.md, which does not exist — fix the link or remove the line.
  warning  orphan-note          broken.md            broken.md is not named in MEMORY.md, so it is never found — add a line like `- [Title](broken.md) — one-line hook` to MEMORY.md, or delete the note if it is stale.
  warning  orphan-note          note.md              note.md is not named in MEMORY.md, so it is never found — add a line like `- [Title](note.md) — one-line hook` to MEMORY.md, or delete the note if it is stale.
  warning  frontmatter-invalid  broken.md:1          broken.md has an unterminated frontmatter block — close it with a `---` line after its last key.
  warning  frontmatter-invalid  feedback_style.md:1  feedback_style.md frontmatter lacks `type` — add it to its `---` block (`type` may also sit under `metadata:`).
"
    );
}

/// A folder whose index is 249 lines / 27,639 bytes, plus a stored key and a bad file.
fn cut_folder(root: &Path) -> std::io::Result<PathBuf> {
    let dir = root.join("big");
    std::fs::create_dir_all(&dir)?;
    let mut index = String::new();
    for i in 1..=249 {
        let head = format!("- [Note {i:03}](note-{i:03}.md) — ");
        index.push_str(&format!("{head}{}\n", "x".repeat(110 - head.len())));
        std::fs::write(
            dir.join(format!("note-{i:03}.md")),
            format!("---\nname: n{i}\ndescription: d\ntype: user\n---\n"),
        )?;
    }
    std::fs::write(dir.join("MEMORY.md"), index)?;
    std::fs::write(
        dir.join("note-001.md"),
        "---\nname: n1\ndescription: d\ntype: user\n---\nAWS key AKIA2E0A8F3B244C9986\n",
    )?;
    std::fs::write(dir.join("note-002.md"), b"---\nname: n2\ndescription: \xff\ntype: user\n---\n")?;
    Ok(dir)
}

#[test]
fn cut_folder_sorts_first_and_exits_1() -> std::io::Result<()> {
    let tmp = tempfile::tempdir()?;
    let big = cut_folder(tmp.path())?;
    let f = fixtures();
    let (code, out) = run(&[f.join("claude-ja"), big], false, &[&f, tmp.path()]);
    assert_eq!(code, 1);
    assert_eq!(
        out,
        "\
status  lines  bytes  dangling  orphans  invalid  secrets  unverifiable  folder
CUT       249  27639         0        0        0        1             0  big
ok          3    201         0        0        0        0             0  claude-ja

big
  error  index-over-limit  MEMORY.md:201  MEMORY.md is 249 lines (limit 200, 49 over) and 27,639 bytes (limit 25,600, 2,039 over): loading stops at line 201, so the last 49 lines never load — move detail into topic files and keep one short line per note.
  error  secret            note-001.md:6  note-001.md line 6 holds a credential ([aws-access-key …9986]) — remove it from memory and rotate it.
  note   unread            note-002.md    note-002.md is not UTF-8 — audited as lossy text; re-save it as UTF-8
"
    );
    Ok(())
}

#[test]
fn json_report_has_the_table_fields_and_flags() -> std::io::Result<()> {
    let f = fixtures();
    let (code, out) = run(&[f.join("claude-ja"), f.join("no-index")], true, &[&f]);
    assert_eq!(code, 0);
    let value: serde_json::Value = serde_json::from_str(&out).unwrap_or_default();
    assert_eq!(
        value,
        serde_json::json!([
            {
                "folder": "claude-ja",
                "status": "ok",
                "lines": 3,
                "bytes": 201,
                "dangling": 0,
                "orphans": 0,
                "invalid_frontmatter": 0,
                "secrets": 0,
                "flags": [],
                "problems": [],
                "unverifiable": 0,
                "unverifiable_notes": []
            },
            {
                "folder": "no-index",
                "status": "none",
                "lines": null,
                "bytes": null,
                "dangling": 0,
                "orphans": 0,
                "invalid_frontmatter": 0,
                "secrets": 0,
                "flags": [],
                "problems": [],
                "unverifiable": 0,
                "unverifiable_notes": []
            }
        ])
    );
    let (_, ko) = run(&[f.join("claude-ko")], true, &[&f]);
    let ko: serde_json::Value = serde_json::from_str(&ko).unwrap_or_default();
    assert_eq!(
        ko[0]["flags"][1],
        serde_json::json!({
            "path": "MEMORY.md",
            "line": 8,
            "flag": {
                "kind": "dangling-link",
                "severity": "warning",
                "message": "MEMORY.md line 8 links to old.md, which does not exist — fix the link or remove the line.",
                "claim": "old.md",
                "line": "- [오래된 메모](old.md) — 지난주에 정리됨"
            }
        })
    );
    Ok(())
}

#[test]
fn missing_dir_or_file_exits_2_naming_it() {
    let f = fixtures();
    let missing = f.join("does-not-exist");
    let file = f.join("claude-ja/testing.md");
    let mut out = Vec::new();
    let err = audit::run(&[f.join("claude-ja"), missing, file], &audit::Options::default(), &mut out).unwrap_err();
    assert!(out.is_empty(), "nothing on stdout, so --json output stays JSON");
    assert_eq!(
        format!("{err:#}").replace(&format!("{}/", f.display()), ""),
        "\
does-not-exist does not exist — pass the path of a memory folder, e.g. ~/.claude/projects/<project>/memory
dreamreview: claude-ja/testing.md is not a directory — pass the memory folder that holds MEMORY.md, not a file in it"
    );
    // The binary: stderr, exit 2.
    let r = crate::common::run(&f, &["audit", "--json", "does-not-exist"]);
    assert_eq!(r.code, 2);
    assert!(r.stdout.is_empty() && r.stderr.contains("does-not-exist does not exist"), "{}", r.stderr);
}

#[test]
fn no_folders_prints_a_hint_and_exits_0() {
    let (code, out) = run(&[], false, &[]);
    assert_eq!(code, 0);
    assert_eq!(
        out,
        "no memory folders found — pass one: dreamreview audit DIR (Claude Code keeps them in ~/.claude/projects/<project>/memory)\n"
    );
    assert_eq!(run(&[], true, &[]), (0, "[]\n".to_string()));
}

#[test]
fn default_dirs_are_the_memory_folders_of_claude_projects() -> std::io::Result<()> {
    let home = tempfile::tempdir()?;
    let projects = home.path().join(".claude/projects");
    std::fs::create_dir_all(projects.join("-home-u-b/memory"))?;
    std::fs::create_dir_all(projects.join("-home-u-a/memory"))?;
    std::fs::create_dir_all(projects.join("-home-u-c"))?;
    assert_eq!(
        default_dirs_in(home.path()),
        vec![projects.join("-home-u-a/memory"), projects.join("-home-u-b/memory")]
    );
    assert_eq!(default_dirs_in(&home.path().join("nope")), Vec::<PathBuf>::new());
    Ok(())
}

/// A folder holding a credential is never `ok`: its status says `ERROR` (and `CUT` still
/// wins for an index over its limit).
#[test]
fn a_folder_with_a_secret_is_not_ok() -> std::io::Result<()> {
    let t = tempfile::tempdir()?;
    let m = t.path().join("m");
    std::fs::create_dir_all(&m)?;
    std::fs::write(m.join("MEMORY.md"), "- [a](a.md) — a\n")?;
    std::fs::write(
        m.join("a.md"),
        "---\nname: a\ndescription: a\ntype: project\n---\ntoken sk-ant-api03-Zq8VbN2xLk4TfR7mWc1YhJ5sPd9GuE3aKo6Ni0Bx-7tQ2wZ9AA\n",
    )?;
    let (code, text) = run(std::slice::from_ref(&m), false, &[t.path()]);
    assert_eq!(code, 1);
    let row = text.lines().nth(1).unwrap_or_default();
    assert!(row.starts_with("ERROR "), "{text}");
    let (_, json) = run(&[m], true, &[t.path()]);
    assert!(json.contains("\"status\": \"ERROR\""), "{json}");
    Ok(())
}
