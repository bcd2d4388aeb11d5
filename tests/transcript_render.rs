//! Rendering transcript lines: every real sample line, one case per content-block kind,
//! broken input, and a fuzz-like property that rendering never panics.

use std::path::{Path, PathBuf};

use dreamreview::inputs::transcript::{
    LineKind, RenderedLine, SourceFile, SourceKind, SourceSet, Transcript, render_jsonl, render_jsonl_with_limit,
    render_note, said_text,
};
use proptest::prelude::*;

fn spotter() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/transcripts/spotter")
}

fn open(name: &str) -> Transcript {
    let path = spotter().join(name);
    Transcript::open(&SourceFile::new(path, name.to_string())).unwrap()
}

fn line(t: &Transcript, n: usize) -> RenderedLine {
    t.render(n).unwrap().unwrap()
}

fn r(json: &str) -> RenderedLine {
    render_jsonl(json.as_bytes(), 7)
}

#[test]
fn every_sample_line_renders() {
    let set = SourceSet::discover(Some(&spotter()), &[], None).unwrap();
    assert_eq!(set.len(), 4);
    let mut total = 0;
    for f in set.files() {
        let t = Transcript::open(f).unwrap();
        assert!(t.line_count() > 0, "{}", f.name);
        for n in 1..=t.line_count() {
            let rl = line(&t, n);
            assert_eq!(rl.number, n);
            assert_ne!(rl.role, "raw", "{}:{n}", f.name);
            assert_ne!(rl.kind, LineKind::Raw, "{}:{n}", f.name);
            assert!(!rl.truncated, "{}:{n}", f.name);
            assert!(rl.time.is_some() && rl.date.is_some(), "{}:{n}", f.name);
            assert!(!rl.text.contains('\n') && !rl.text.contains('\u{1b}'), "{}:{n}", f.name);
            total += 1;
        }
    }
    assert_eq!(total, 15 + 39 + 40 + 4);
}

#[test]
fn sample_lines_of_each_kind() {
    let short = open("short.jsonl");
    assert_eq!(line(&short, 1).display(), "2026-02-10 21:11:56 · file-history-snapshot · 0 tracked files");
    assert_eq!(line(&short, 2).display(), "2026-02-10 21:11:52 · progress · hook_progress: SessionStart:startup");
    assert_eq!(line(&short, 4).display(), "2026-02-10 21:11:56 · user · mix phx.server doesnt seem to start");
    let thinking = line(&short, 6);
    assert_eq!(thinking.text, "(thinking, 154 chars)");
    assert_eq!(thinking.kind, LineKind::Thinking);
    assert_eq!(thinking.message_id.as_deref(), Some("msg_01MKH1ccEGrZGNPvu8pYiiQa"));
    let bash = line(&short, 8);
    assert_eq!(bash.display(), "2026-02-10 21:12:01 · assistant · Bash: mix phx.server 2>&1 | head -80");
    assert_eq!(bash.kind, LineKind::ToolUse);
    assert_eq!(line(&short, 10).text, "Glob: mix.exs");
    let rejected = line(&short, 11);
    assert_eq!(rejected.role, "tool");
    assert_eq!(rejected.kind, LineKind::ToolError);
    assert!(rejected.text.starts_with("[error] The user doesn't want to proceed"), "{}", rejected.text);
    assert_eq!(
        line(&short, 14).text,
        "local_command: <command-name>/model</command-name> <command-message>model</command-message> <command-args></command-args>"
    );
    // ANSI colour codes in the command output never reach the screen.
    assert_eq!(
        line(&short, 15).text,
        "local_command: <local-command-stdout>Kept model as Default (recommended)</local-command-stdout>"
    );

    let heavy = open("tool_heavy.jsonl");
    assert_eq!(line(&heavy, 9).display(), "2026-02-10 22:57:58 · queue-operation · enqueue: /mcp");
    assert_eq!(line(&heavy, 10).text, "remove");
    assert_eq!(line(&heavy, 34).text, "Read: /home/marco/projects/spotter/assets/js/app.js");
    assert_eq!(line(&heavy, 29).text, "WebSearch: xterm.js scroll not working embedded page captures scroll events");
    let result = line(&heavy, 11);
    assert_eq!((result.role.as_str(), result.kind), ("tool", LineKind::ToolResult));
    assert!(result.text.starts_with("Command running in background with ID: bae407b."));

    let agent = open("ae4a77f8-aedd-4bc1-888f-c94edc91af04/subagents/agent-aac57f5.jsonl");
    assert_eq!(line(&agent, 22).text, "WebFetch: https://hex.pm/packages/opentelemetry_api");
}

#[test]
fn string_and_text_content() {
    let s = r(
        r#"{"type":"user","timestamp":"2026-11-01T09:14:03.112Z","message":{"role":"user","content":"we moved to  pnpm\nlast week"}}"#,
    );
    assert_eq!(s.display(), "2026-11-01 09:14:03 · user · we moved to pnpm last week");
    assert_eq!((s.kind, s.number), (LineKind::Text, 7));
    assert_eq!(s.date.map(|d| d.to_string()).as_deref(), Some("2026-11-01"));
    let t = r(
        r#"{"type":"assistant","message":{"id":"msg_1","content":[{"type":"text","text":"先週 pnpm に移行しました"}]}}"#,
    );
    assert_eq!(t.display(), "assistant · 先週 pnpm に移行しました");
    assert_eq!(t.message_id.as_deref(), Some("msg_1"));
}

#[test]
fn thinking_is_folded_never_shown() {
    let t = r(
        r#"{"type":"assistant","message":{"content":[{"type":"thinking","thinking":"probably late Oct","signature":"abc"},{"type":"text","text":"Done."}]}}"#,
    );
    assert_eq!(t.text, "(thinking, 17 chars) | Done.");
    assert!(!t.text.contains("late Oct"));
    assert_eq!(t.kind, LineKind::Text);
    let red = r(r#"{"type":"assistant","message":{"content":[{"type":"redacted_thinking","data":"xx"}]}}"#);
    assert_eq!((red.text.as_str(), red.kind), ("(thinking, redacted)", LineKind::Thinking));
}

#[test]
fn tool_use_summaries() {
    let tool = |name: &str, input: &str| {
        r(&format!(r#"{{"type":"assistant","message":{{"content":[{{"type":"tool_use","id":"toolu_1","name":"{name}","input":{input}}}]}}}}"#)).text
    };
    assert_eq!(tool("Bash", r#"{"command":"pnpm test","description":"Run"}"#), "Bash: pnpm test");
    assert_eq!(tool("Read", r#"{"file_path":"/a/b.rs"}"#), "Read: /a/b.rs");
    assert_eq!(tool("Write", r#"{"file_path":"/a/c.md","content":"x"}"#), "Write: /a/c.md");
    assert_eq!(tool("Edit", r#"{"file_path":"/a/d.md","old_string":"x"}"#), "Edit: /a/d.md");
    assert_eq!(tool("Grep", r#"{"pattern":"fn main","path":"src"}"#), "Grep: fn main");
    assert_eq!(tool("Glob", r#"{"pattern":"**/*.rs"}"#), "Glob: **/*.rs");
    assert_eq!(
        tool("Task", r#"{"description":"Find versions","prompt":"long","subagent_type":"general-purpose"}"#),
        "Task: Find versions (general-purpose)"
    );
    assert_eq!(tool("WebFetch", r#"{"url":"https://x.dev","prompt":"p"}"#), "WebFetch: https://x.dev");
    assert_eq!(tool("mcp__db__query", r#"{"sql":"select 1"}"#), "mcp__db__query: select 1");
    assert_eq!(tool("TodoWrite", r#"{"todos":[]}"#), "TodoWrite: todos=[]");
    assert_eq!(tool("Bash", r#""wrong shape""#), "Bash: \"wrong shape\"");
}

#[test]
fn tool_results_string_list_image_error() {
    let s = r(
        r#"{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"toolu_1","content":"  Tests  214 passed (214)\n"}]}}"#,
    );
    assert_eq!((s.role.as_str(), s.text.as_str(), s.kind), ("tool", "Tests 214 passed (214)", LineKind::ToolResult));
    let l = r(
        r#"{"type":"user","message":{"content":[{"type":"tool_result","content":[{"type":"text","text":"first"},{"type":"image","source":{"type":"base64","data":"AAAA"}},{"type":"text","text":"second"}]}]}}"#,
    );
    assert_eq!(l.text, "first [image] second");
    let e = r(r#"{"type":"user","message":{"content":[{"type":"tool_result","content":"exit 1","is_error":true}]}}"#);
    assert_eq!((e.text.as_str(), e.kind), ("[error] exit 1", LineKind::ToolError));
    let img = r(
        r#"{"type":"user","message":{"content":[{"type":"image","source":{"type":"base64","data":"AAAA"}},{"type":"text","text":"see this"}]}}"#,
    );
    assert_eq!((img.role.as_str(), img.text.as_str()), ("user", "[image] | see this"));
    let long = "x".repeat(5000);
    let big = render_jsonl_with_limit(
        format!(r#"{{"type":"user","message":{{"content":[{{"type":"tool_result","content":"{long}"}}]}}}}"#)
            .as_bytes(),
        1,
        100,
    );
    assert_eq!(big.text.chars().count(), 101);
    assert!(big.text.ends_with('…'));
}

#[test]
fn events() {
    let p = r(
        r#"{"type":"progress","timestamp":"2026-02-10T21:12:01.124Z","data":{"type":"hook_progress","hookEvent":"PreToolUse","hookName":"PreToolUse:Bash","command":"x"}}"#,
    );
    assert_eq!(
        (p.role.as_str(), p.text.as_str(), p.kind),
        ("progress", "hook_progress: PreToolUse:Bash", LineKind::Event)
    );
    let sys = r(r#"{"type":"system","subtype":"turn_duration","durationMs":1200}"#);
    assert_eq!(sys.display(), "system · turn_duration");
    let snap = r(
        r#"{"type":"file-history-snapshot","messageId":"m","snapshot":{"messageId":"m","trackedFileBackups":{"a":{},"b":{}},"timestamp":"2026-02-10T21:11:56.906Z"},"isSnapshotUpdate":true}"#,
    );
    assert_eq!(snap.display(), "2026-02-10 21:11:56 · file-history-snapshot · 2 tracked files (update)");
    let q = r(
        r#"{"type":"queue-operation","operation":"enqueue","timestamp":"2026-02-10T22:57:58.381Z","content":"run the tests"}"#,
    );
    assert_eq!(q.text, "enqueue: run the tests");
    let summary = r(r#"{"type":"summary","summary":"Moved to pnpm","leafUuid":"u"}"#);
    assert_eq!((summary.role.as_str(), summary.text.as_str()), ("summary", "Moved to pnpm"));
    let future = r(r#"{"type":"ai-title","aiTitle":"Pnpm move","sessionId":"s","uuid":"u"}"#);
    assert_eq!((future.role.as_str(), future.text.as_str()), ("ai-title", "aiTitle=Pnpm move"));
    let untyped = r(r#"{"foo":1}"#);
    assert_eq!((untyped.role.as_str(), untyped.text.as_str()), ("unknown", "foo=1"));
}

#[test]
fn broken_lines_are_raw() {
    let bad = r(r#"{"type":"user", oops}"#);
    assert_eq!((bad.role.as_str(), bad.kind), ("raw", LineKind::Raw));
    assert_eq!(bad.text, r#"{"type":"user", oops}"#);
    for shape in ["[1,2,3]", "42", r#""just a string""#, "null", ""] {
        let rl = r(shape);
        assert_eq!(rl.role, "raw", "{shape}");
        assert_eq!(rl.time, None);
    }
    // Invalid UTF-8 is not broken JSON: the line renders as its message, with U+FFFD.
    let utf8 = render_jsonl(b"{\"type\":\"user\",\"message\":{\"content\":\"caf\xe9\"}}", 3);
    assert_eq!((utf8.role.as_str(), utf8.text.as_str()), ("user", "caf\u{fffd}"));
    let long_raw = render_jsonl_with_limit("z".repeat(10_000).as_bytes(), 1, 50);
    assert_eq!(long_raw.text.chars().count(), 51);
}

#[test]
fn truncated_last_line_keeps_its_beginning() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("s.jsonl");
    let body = concat!(
        r#"{"type":"user","timestamp":"2026-11-01T09:14:03Z","message":{"content":"hi"}}"#,
        "\n",
        r#"{"type":"user","timestamp":"2026-11-01T09:15:00Z","message":{"role":"user","content":"we moved to pn"#
    );
    std::fs::write(&path, body).unwrap();
    let t = Transcript::open(&SourceFile::new(path, "s.jsonl".into())).unwrap();
    assert_eq!(t.line_count(), 2);
    let last = t.render(2).unwrap().unwrap();
    assert_eq!(last.display(), "2026-11-01 09:15:00 · user · we moved to pn […]");
    assert!(last.truncated);
    assert_eq!(t.said_text(2).unwrap().as_deref(), Some("we moved to pn"));
}

#[test]
fn lines_over_the_cap_are_cut_and_marked() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("big.jsonl");
    let huge = "y".repeat(dreamreview::inputs::transcript::MAX_LINE_BYTES + 10);
    let body = format!(
        "{}\n{{\"type\":\"user\",\"message\":{{\"content\":\"start {huge}\"}},\"timestamp\":\"2026-11-01T00:00:00Z\"}}\n{}\n",
        r#"{"type":"user","message":{"content":"a"}}"#, r#"{"type":"user","message":{"content":"b"}}"#
    );
    std::fs::write(&path, body).unwrap();
    let t = Transcript::open(&SourceFile::new(path, "big.jsonl".into())).unwrap();
    assert_eq!(t.line_count(), 3);
    let l = t.line(2).unwrap().unwrap();
    assert!(l.truncated);
    assert_eq!(l.bytes.len(), dreamreview::inputs::transcript::MAX_LINE_BYTES);
    assert!(l.len > dreamreview::inputs::transcript::MAX_LINE_BYTES as u64);
    let rl = t.render(2).unwrap().unwrap();
    assert_eq!(rl.role, "user");
    assert!(rl.text.starts_with("start yyy") && rl.text.ends_with("[…]"), "{}", &rl.text);
    assert_eq!(t.render(3).unwrap().unwrap().text, "b");
}

#[test]
fn note_lines() {
    let d = dreamreview::base::date::Date::new(2026, 6, 2);
    let n = render_note("- 先週 moved to pnpm\r".as_bytes(), 4, d);
    assert_eq!(n.display(), "2026-06-02 · note · - 先週 moved to pnpm");
    assert_eq!((n.kind, n.number, n.time.clone()), (LineKind::Note, 4, None));
    let path = spotter().join("README.md");
    let f = SourceFile::new(path, "README.md".into());
    assert_eq!(f.kind, SourceKind::Markdown);
    let t = Transcript::open(&f).unwrap();
    assert_eq!(t.render(1).unwrap().unwrap().display(), "note · # Transcript Fixtures");
}

#[test]
fn every_cut_of_a_sample_line_renders_without_raw_json() {
    let short = open("short.jsonl");
    let full = short.line(8).unwrap().unwrap().bytes;
    let text = String::from_utf8(full.clone()).unwrap();
    // `type` comes last in Claude Code's lines; `message.role` says who speaks.
    let role_end = text.find(r#""role":"assistant""#).unwrap() + 18;
    let command_end = text.find("head -80").unwrap() + 8;
    for cut in (0..full.len()).step_by(3) {
        let rl = render_jsonl(&full[..cut], 8);
        let said = said_text(&full[..cut]);
        if cut > role_end {
            assert_eq!(rl.role, "assistant", "cut {cut}");
        }
        if cut > command_end {
            assert_eq!(rl.text, "Bash: mix phx.server 2>&1 | head -80 […]", "cut {cut}");
            assert_eq!(said, "mix phx.server 2>&1 | head -80", "cut {cut}");
        }
    }
}

proptest! {
    #[test]
    fn rendering_arbitrary_bytes_never_panics(bytes in proptest::collection::vec(any::<u8>(), 0..400)) {
        let rl = render_jsonl(&bytes, 1);
        prop_assert!(!rl.role.is_empty());
        let _ = said_text(&bytes);
        let _ = render_note(&bytes, 1, None);
    }

    #[test]
    fn rendering_json_like_text_never_panics(s in r#"[{}\[\]":,a-z0-9 \\u]{0,200}"#) {
        let wrapped = format!(r#"{{"type":"user","message":{{"content":[{s}"#);
        let _ = render_jsonl(wrapped.as_bytes(), 1);
        let _ = said_text(wrapped.as_bytes());
        let _ = render_jsonl(s.as_bytes(), 1);
    }
}
