//! Messages split over lines (`message.id`), the evidence-pane context around a cited
//! line, and what a line says (never its JSON envelope, never thinking).

use std::path::{Path, PathBuf};

use dreamreview::inputs::transcript::{ContextEntry, LineKind, SourceFile, Transcript, said_text};

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/transcripts")
}

fn open(name: &str) -> Transcript {
    Transcript::open(&SourceFile::new(fixtures().join(name), name.to_string())).unwrap()
}

const PNPM: &str = "5b0e7c2a-41d3-4c1e-9f0a-2d6b8e3c7a15.jsonl";

#[test]
fn message_spans_are_runs_of_adjacent_lines() {
    let short = open("spotter/short.jsonl");
    for n in 5..=8 {
        assert_eq!(short.message_span(n).unwrap(), 5..=8, "line {n}");
    }
    // Line 10 shares the id, but a progress line (9) stands between.
    assert_eq!(short.message_span(10).unwrap(), 10..=10);
    assert_eq!(short.message_span(9).unwrap(), 9..=9);
    assert_eq!(short.message_span(4).unwrap(), 4..=4);
    assert_eq!(short.message_span(0).unwrap(), 0..=0);
    assert_eq!(short.message_span(99).unwrap(), 99..=99);

    let agent = open("spotter/ae4a77f8-aedd-4bc1-888f-c94edc91af04/subagents/agent-aac57f5.jsonl");
    assert_eq!(agent.message_span(3).unwrap(), 2..=8);
    assert_eq!(agent.message_span(22).unwrap(), 21..=24);
    assert_eq!(agent.message_span(30).unwrap(), 29..=31);
    assert_eq!(agent.message_span(40).unwrap(), 40..=40);
}

#[test]
fn message_said_text_covers_the_whole_span() {
    let short = open("spotter/short.jsonl");
    let expected = "Let me check the project structure and try running the server to see the error.\nmix phx.server 2>&1 | head -80";
    assert_eq!(short.message_said_text(6).unwrap(), expected);
    assert_eq!(short.message_said_text(8).unwrap(), expected);
    assert_eq!(short.message_said_text(2).unwrap(), "");
    assert_eq!(short.message_said_text(400).unwrap(), "");
}

#[test]
fn message_spans_are_bounded() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("long.jsonl");
    let line = r#"{"type":"assistant","message":{"id":"msg_same","content":[{"type":"text","text":"x"}]}}"#;
    std::fs::write(&path, format!("{line}\n").repeat(300)).unwrap();
    let t = Transcript::open(&SourceFile::new(path, "long.jsonl".into())).unwrap();
    assert_eq!(t.message_span(150).unwrap(), 86..=214);
    assert_eq!(t.message_span(1).unwrap(), 1..=65);
}

fn summary(entries: &[ContextEntry]) -> Vec<(std::ops::RangeInclusive<usize>, bool, String)> {
    entries.iter().map(|e| (e.lines.clone(), e.cited, e.rendered.clone())).collect()
}

#[test]
fn context_merges_one_message_and_keeps_line_numbers() {
    let short = open("spotter/short.jsonl");
    let entries = short.context(7, 2).unwrap();
    assert_eq!(
        summary(&entries),
        vec![
            (
                5..=8,
                true,
                "2026-02-10 21:11:59 · assistant · (thinking, 154 chars) | Let me check the project structure and try running the server to see the error. | Bash: mix phx.server 2>&1 | head -80".to_string()
            ),
            (9..=9, false, "2026-02-10 21:12:01 · progress · hook_progress: PreToolUse:Bash".to_string()),
        ]
    );
    assert_eq!(entries[0].kind, LineKind::ToolUse);
    assert_eq!(entries[0].role, "assistant");
    assert_eq!(entries[0].time.as_deref(), Some("2026-02-10 21:11:59"));

    let entries = short.context(4, 2).unwrap();
    let lines: Vec<_> = entries.iter().map(|e| (e.lines.clone(), e.cited)).collect();
    assert_eq!(lines, vec![(2..=2, false), (3..=3, false), (4..=4, true), (5..=6, false)]);

    // Near the end of the file.
    let entries = short.context(15, 2).unwrap();
    let lines: Vec<_> = entries.iter().map(|e| (e.lines.clone(), e.cited)).collect();
    assert_eq!(lines, vec![(13..=13, false), (14..=14, false), (15..=15, true)]);
    assert!(short.context(40, 2).unwrap().is_empty());
}

#[test]
fn context_of_a_cited_range() {
    let t = open(PNPM);
    let entries = t.context_range(3..=4, 1).unwrap();
    assert_eq!(
        summary(&entries),
        vec![
            (2..=2, false, "2026-11-01 09:14:06 · assistant · Bash: pnpm test".to_string()),
            (
                3..=3,
                true,
                "2026-11-01 09:14:17 · tool · > shop@1.4.0 test /home/dev/shop > vitest run RUN v3.2.4 /home/dev/shop ✓ src/cart.test.ts (38 tests) 412ms ✓ src/checkout.test.ts (51 tests) 977ms ✓ src/catalog.test.ts (125 tests) 1203ms Test Files 12 passed (12) Tests 214 passed (214) Duration 9.81s".to_string()
            ),
            (
                4..=4,
                true,
                "2026-11-01 09:14:20 · assistant · All 214 tests pass with `pnpm test`, and nothing in the run needed Redis.".to_string()
            ),
        ]
    );
}

#[test]
fn context_of_a_daily_note() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("2026-06-02.md");
    std::fs::write(&path, "# 2026-06-02\n- moved to pnpm last week\n- 先週 Redis を削除\n").unwrap();
    let t = Transcript::open(&SourceFile::new(path, "memory/2026-06-02.md".into())).unwrap();
    assert_eq!(t.message_span(2).unwrap(), 2..=2);
    let entries = t.context(2, 1).unwrap();
    assert_eq!(
        summary(&entries),
        vec![
            (1..=1, false, "2026-06-02 · note · # 2026-06-02".to_string()),
            (2..=2, true, "2026-06-02 · note · - moved to pnpm last week".to_string()),
            (3..=3, false, "2026-06-02 · note · - 先週 Redis を削除".to_string()),
        ]
    );
    assert_eq!(t.said_text(3).unwrap().as_deref(), Some("- 先週 Redis を削除"));
}

#[test]
fn said_text_is_the_conversation_not_the_envelope() {
    let t = open(PNPM);
    let said: Vec<String> = (1..=4).map(|n| t.said_text(n).unwrap().unwrap()).collect();
    assert_eq!(
        said[0],
        "Heads up: we moved this repo from npm to pnpm last week, and Redis is gone - the tests use an in-memory fake now. Can you run the suite?"
    );
    assert_eq!(said[1], "pnpm test\nRun the test suite");
    assert!(said[2].starts_with("> shop@1.4.0 test /home/dev/shop\n> vitest run"));
    assert!(said[2].contains("Tests  214 passed (214)"));
    assert_eq!(said[3], "All 214 tests pass with `pnpm test`, and nothing in the run needed Redis.");
    for (i, s) in said.iter().enumerate() {
        let lower = s.to_lowercase();
        // Envelope values present in every raw line: never said.
        for envelope in
            ["2026-11-01", "2.1.240", "5b0e7c2a", "u-000", "msg_01", "req_011", "external", "main", "claude-opus"]
        {
            assert!(!lower.contains(envelope), "line {} says {envelope:?}: {s}", i + 1);
        }
    }
    // Line 3's raw JSON holds "Pnpm" only in its tool_use_id.
    let raw = t.line(3).unwrap().unwrap().bytes;
    assert!(String::from_utf8_lossy(&raw).to_lowercase().contains("pnpm"));
    assert!(!said[2].to_lowercase().contains("pnpm"));
}

#[test]
fn thinking_is_not_evidence() {
    let short = open("spotter/short.jsonl");
    let raw = String::from_utf8(short.line(6).unwrap().unwrap().bytes).unwrap();
    assert!(raw.contains("The user is having trouble starting their Phoenix server"));
    assert_eq!(short.said_text(6).unwrap().as_deref(), Some(""));
    let line = br#"{"type":"assistant","message":{"content":[{"type":"thinking","thinking":"they moved in late Oct 2026"},{"type":"text","text":"Noted."}]}}"#;
    assert_eq!(said_text(line), "Noted.");
}
