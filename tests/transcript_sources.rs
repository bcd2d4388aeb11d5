//! Source discovery (Claude Code layout, `--sources`, OpenClaw daily notes) and citation
//! resolution.

use std::fs;
use std::path::{Path, PathBuf};

use dreamreview::inputs::transcript::{SourceKind, SourceSet};

const SESSION: &str = "5b0e7c2a-41d3-4c1e-9f0a-2d6b8e3c7a15";

fn write(path: &Path, text: &str) {
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(path, text).unwrap();
}

/// A Claude Code project folder: sessions, sub-agents, memory, and things to skip.
fn project() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(&root.join(format!("{SESSION}.jsonl")), "{}\n");
    write(&root.join("ae4a77f8.jsonl"), "{}\n");
    write(&root.join("ae4a77f8/subagents/agent-aac57f5.jsonl"), "{}\n");
    write(&root.join("ae4a77f8/subagents/agent-b.jsonl"), "{}\n");
    write(&root.join("other/subagents/agent-b.jsonl"), "{}\n");
    write(&root.join("memory/MEMORY.md"), "- [t](testing.md)\n");
    write(&root.join("memory/stray.jsonl"), "{}\n");
    write(&root.join(".git/objects.jsonl"), "{}\n");
    write(&root.join(".hidden/x.jsonl"), "{}\n");
    write(&root.join("notes.md"), "not a transcript source in the default root\n");
    write(&root.join("Upper.JSONL"), "{}\n");
    dir
}

fn names(set: &SourceSet) -> Vec<&str> {
    set.files().iter().map(|f| f.name.as_str()).collect()
}

#[test]
fn discovers_the_claude_code_layout() {
    let dir = project();
    let root = dir.path();
    let set = SourceSet::discover(Some(root), &[], Some(&root.join("memory"))).unwrap();
    assert_eq!(
        names(&set),
        [
            format!("{SESSION}.jsonl").as_str(),
            "Upper.JSONL",
            "ae4a77f8.jsonl",
            "ae4a77f8/subagents/agent-aac57f5.jsonl",
            "ae4a77f8/subagents/agent-b.jsonl",
            "other/subagents/agent-b.jsonl",
        ]
    );
    assert!(set.files().iter().all(|f| f.kind == SourceKind::Jsonl && f.date.is_none()));
    assert!(set.skipped().is_empty());
}

#[cfg(unix)]
#[test]
fn never_follows_symlinks_while_walking() {
    let dir = project();
    let root = dir.path();
    let outside = tempfile::tempdir().unwrap();
    write(&outside.path().join("secret.jsonl"), "{}\n");
    write(&outside.path().join("deep/x.jsonl"), "{}\n");
    std::os::unix::fs::symlink(outside.path().join("secret.jsonl"), root.join("link.jsonl")).unwrap();
    std::os::unix::fs::symlink(outside.path().join("deep"), root.join("deeplink")).unwrap();
    let set = SourceSet::discover(Some(root), &[], Some(&root.join("memory"))).unwrap();
    assert!(!names(&set).iter().any(|n| n.contains("link")), "{:?}", names(&set));
    assert_eq!(set.len(), 6);
}

#[test]
fn missing_default_root_is_empty_but_missing_extra_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("nope");
    let set = SourceSet::discover(Some(&missing), &[], None).unwrap();
    assert!(set.is_empty());
    let err = SourceSet::discover(None, std::slice::from_ref(&missing), None).unwrap_err();
    let msg = format!("{err:#}");
    assert!(msg.contains(&missing.display().to_string()), "{msg}");
    assert!(msg.contains("sources"), "{msg}");
}

#[test]
fn extra_sources_and_openclaw_daily_notes() {
    let dir = project();
    let root = dir.path();
    let extra = tempfile::tempdir().unwrap();
    write(&extra.path().join("a.md"), "alpha\n");
    write(&extra.path().join("logs/b.jsonl"), "{}\n");
    write(&extra.path().join("logs/c.txt"), "skipped\n");
    write(&extra.path().join(".obsidian/d.md"), "skipped\n");
    let single = extra.path().join("logs/c.txt");

    // An OpenClaw workspace as the memory folder.
    let ws = tempfile::tempdir().unwrap();
    write(&ws.path().join("MEMORY.md"), "# Memory\n");
    write(&ws.path().join("memory/2026-06-02.md"), "- moved to pnpm\n");
    write(&ws.path().join("memory/2026-06-02-1406.md"), "- later\n");
    write(&ws.path().join("memory/topic.md"), "not dated\n");
    write(&ws.path().join("2026-06-03.md"), "- top level daily note\n");

    let set = SourceSet::discover(Some(root), &[extra.path().to_path_buf(), single], Some(ws.path())).unwrap();
    let got: Vec<(String, SourceKind, Option<String>)> =
        set.files().iter().map(|f| (f.name.clone(), f.kind, f.date.map(|d| d.to_string()))).collect();
    let md = SourceKind::Markdown;
    let js = SourceKind::Jsonl;
    let expected: Vec<(String, SourceKind, Option<String>)> = vec![
        (format!("{SESSION}.jsonl"), js, None),
        ("Upper.JSONL".into(), js, None),
        ("a.md".into(), md, None),
        ("ae4a77f8.jsonl".into(), js, None),
        ("ae4a77f8/subagents/agent-aac57f5.jsonl".into(), js, None),
        ("ae4a77f8/subagents/agent-b.jsonl".into(), js, None),
        ("c.txt".into(), md, None),
        ("logs/b.jsonl".into(), js, None),
        ("memory/2026-06-02-1406.md".into(), md, Some("2026-06-02".into())),
        ("memory/2026-06-02.md".into(), md, Some("2026-06-02".into())),
        ("memory/2026-06-03.md".into(), md, Some("2026-06-03".into())),
        // The memory folder here is the OpenClaw workspace, so this one is a source.
        ("memory/stray.jsonl".into(), js, None),
        ("other/subagents/agent-b.jsonl".into(), js, None),
    ];
    assert_eq!(got, expected);
}

#[test]
fn a_file_reachable_twice_is_listed_once() {
    let dir = project();
    let root = dir.path();
    let sub = root.join("ae4a77f8");
    let set = SourceSet::discover(Some(root), &[sub], Some(&root.join("memory"))).unwrap();
    assert_eq!(set.len(), 6);
    assert!(names(&set).contains(&"ae4a77f8/subagents/agent-b.jsonl"));
}

#[test]
fn memory_folder_is_never_a_source_even_under_an_extra() {
    let dir = project();
    let root = dir.path();
    let set = SourceSet::discover(None, &[root.to_path_buf()], Some(&root.join("memory"))).unwrap();
    assert!(!names(&set).iter().any(|n| n.starts_with("memory/")), "{:?}", names(&set));
    assert!(names(&set).contains(&"notes.md"));
}

#[test]
fn finds_citations_the_ways_changes_md_writes_them() {
    let dir = project();
    let root = dir.path();
    let ws = tempfile::tempdir().unwrap();
    write(&ws.path().join("memory/2026-06-02.md"), "- x\n");
    let set = SourceSet::discover(Some(root), &[], Some(ws.path())).unwrap();
    let name_of = |c: &str| -> Vec<String> { set.find(c).iter().map(|&i| set.files()[i].name.clone()).collect() };
    let session = format!("{SESSION}.jsonl");
    assert_eq!(name_of(&session), [session.as_str()]);
    assert_eq!(name_of(&format!("./{session}")), [session.as_str()]);
    assert_eq!(name_of(SESSION), [session.as_str()]);
    assert_eq!(name_of(&format!("`{SESSION}`")), [session.as_str()]);
    assert_eq!(name_of("agent-aac57f5.jsonl"), ["ae4a77f8/subagents/agent-aac57f5.jsonl"]);
    assert_eq!(name_of("agent-aac57f5"), ["ae4a77f8/subagents/agent-aac57f5.jsonl"]);
    assert_eq!(name_of("subagents/agent-aac57f5.jsonl"), ["ae4a77f8/subagents/agent-aac57f5.jsonl"]);
    // The session id names the session file, not its sub-agents.
    assert_eq!(name_of("ae4a77f8"), ["ae4a77f8.jsonl"]);
    // Ambiguous: every match.
    assert_eq!(name_of("agent-b.jsonl"), ["ae4a77f8/subagents/agent-b.jsonl", "other/subagents/agent-b.jsonl"]);
    assert_eq!(name_of("ae4a77f8/subagents/agent-b.jsonl"), ["ae4a77f8/subagents/agent-b.jsonl"]);
    assert_eq!(name_of("memory/2026-06-02.md"), ["memory/2026-06-02.md"]);
    assert_eq!(name_of("2026-06-02.md"), ["memory/2026-06-02.md"]);
    assert_eq!(name_of("memory/2026-06-02"), ["memory/2026-06-02.md"]);
    // A path from the dreaming machine, longer than any name.
    let foreign = format!("/home/dev/.claude/projects/-home-dev-shop/{session}");
    assert_eq!(name_of(&foreign), [session.as_str()]);
    let foreign_sub = "~/.claude/projects/p/ae4a77f8/subagents/agent-b.jsonl";
    assert_eq!(name_of(foreign_sub), ["ae4a77f8/subagents/agent-b.jsonl"]);
    let real: PathBuf = set.files()[set.find(&session)[0]].path.clone();
    assert_eq!(name_of(&real.display().to_string()), [session.as_str()]);
    assert!(name_of("missing.jsonl").is_empty());
    assert!(name_of("").is_empty());
    assert!(name_of("   ").is_empty());
    assert!(name_of("b.jsonl").is_empty(), "a basename must match whole");
}

#[test]
fn discovers_the_bundled_samples() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/transcripts/spotter");
    let set = SourceSet::discover(Some(&root), &[], None).unwrap();
    assert_eq!(
        names(&set),
        [
            "258c7280-ae70-4798-800f-63464d01a85d/subagents/agent-acompact-fffbd0.jsonl",
            "ae4a77f8-aedd-4bc1-888f-c94edc91af04/subagents/agent-aac57f5.jsonl",
            "short.jsonl",
            "tool_heavy.jsonl",
        ]
    );
    assert_eq!(set.find("agent-aac57f5.jsonl"), [1]);
    assert_eq!(set.find("short"), [2]);
}
