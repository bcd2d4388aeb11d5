//! What a transcript line *says*: the only text claims are matched against.
//!
//! A line says its conversation content: the message text, every string value of a tool
//! call's input (not the keys), tool results, and the content of the few other records
//! that carry words someone or something actually produced (local command output in
//! `system` lines, queued prompts, conversation summaries, bash progress output, a
//! sub-agent's messages relayed in `agent_progress`, hook output and attached files).
//!
//! It does **not** say its envelope (`cwd`, `version`, `uuid`, `timestamp`, `sessionId`,
//! `gitBranch`, `requestId`, `message.usage`, `tool_use_id`, `toolUseResult`, which only
//! duplicates the tool result): matched against, those would "source" any path, version
//! or date by accident. Nor does it say **thinking**: thinking is the model's private
//! guess, not evidence; a date the model only reasoned about is exactly what the review
//! must flag. Memory the session loaded (`nested_memory`, `relevant_memories`
//! attachments) is excluded too: memory cannot be its own source. Base64 payloads
//! (images, documents) say nothing.
//!
//! Nor does a line say what a **tool added** to the text it shows ([`noise`]): each part
//! (one JSON string: a tool result, a tool input, a message) is said without its
//! terminal escape sequences, without the line-number gutter of `Read` and `cat -n`
//! (`    58→`, `58\t`, `    58\t`), the `file:N:` / `file-N-` / `N:` prefixes of `grep -n` and
//! `rg -n` (the file's name stays), the marker column of unified-diff hunks (and their
//! `@@ -a,b +c,d @@` ranges), progress bars with their figures and the segments a `\r`
//! overwrote, and with JSON-encoded text (`{\"port\": 5432}`) unescaped. The 58 of
//! `    58→  users.insert(…)` is the tool's count of lines, not the file's: it must never
//! source "58 users". Each rule needs the shape of that tool's output, so prose keeps its
//! `- item` lists and `12:30` times. Markdown sources (daily notes) are said as written.
//!
//! The line is parsed once into a tree that borrows its strings from the line
//! ([`loose::Loose`]): only the fields read here are built, every other value (the
//! envelope, `toolUseResult`'s copy of the output) is skipped by the parser without being
//! built.

mod loose;
mod noise;
#[cfg(test)]
mod reference;

pub(crate) use noise::strip_noise_bytes;

use serde::Deserialize;

use super::json::read_object;
use super::partial::content_start;
use super::source::SourceKind;
use super::text::{strip_cr, strip_escapes};
use loose::{Loose, push_part, push_strings};

/// Keys whose values are identifiers or payloads, not words, wherever they appear.
const NOT_SAID: &[&str] = &["id", "tool_use_id", "signature", "data", "cache_control"];

/// The fields of a line [`said_text`] reads; everything else is skipped while parsing,
/// without being built (this is the hot path of the scanner). The scanner relies on
/// these being the only top-level keys read: keep `unsaid::SAID_TOP_LEVEL` in step.
#[derive(Deserialize, Default)]
#[serde(default)]
struct Envelope<'a> {
    #[serde(rename = "type", borrow)]
    ty: Option<Loose<'a>>,
    #[serde(borrow)]
    message: Option<Loose<'a>>,
    #[serde(borrow)]
    content: Option<Loose<'a>>,
    #[serde(borrow)]
    summary: Option<Loose<'a>>,
    #[serde(borrow)]
    data: Option<Loose<'a>>,
    #[serde(borrow)]
    attachment: Option<Loose<'a>>,
    /// Read for its presence only: a line with a `role` and no `message` is a bare chat
    /// message (`{"role":"user","content":"…"}`), its `content` what it says.
    #[serde(borrow)]
    role: Option<Loose<'a>>,
}

/// What a JSONL transcript line says, as plain text (parts separated by newlines). See
/// the module docs for what is in and out. A line cut short says what its readable
/// beginning says. A line that is not JSON at all (does not start with `{` or `[`) is
/// taken as plain text and says itself; broken or wrong-shaped JSON says nothing.
/// Terminal escape sequences (colour codes in tool output) are removed, and so is what
/// tools add to a part's text (gutters, grep prefixes, diff markers, progress bars, JSON
/// escaping: `said::noise`).
pub fn said_text(line: &[u8]) -> String {
    let line = strip_cr(line);
    let mut out = String::new();
    if said_object(line, &mut out).is_none() {
        let first = line.get(content_start(line)).copied();
        let json_like = matches!(first, Some(b'{' | b'[' | b'"'));
        if !json_like && serde_json::from_slice::<serde_json::Value>(line).is_err() {
            out = String::from_utf8_lossy(line).trim().to_string();
        }
    }
    match strip_escapes(&out) {
        std::borrow::Cow::Borrowed(_) => out,
        std::borrow::Cow::Owned(clean) => clean,
    }
}

/// What a line of a source of `kind` says: [`said_text`] for JSONL; for a Markdown source
/// the line itself, without its `\r` and terminal escape sequences (a note is what someone
/// wrote: no tool noise is removed from it). The one definition the scanner and the
/// cited-line reader share (the index's keys follow it: `index::grams`).
pub fn said_text_in(kind: SourceKind, line: &[u8]) -> String {
    match kind {
        SourceKind::Jsonl => said_text(line),
        SourceKind::Markdown => {
            let text = String::from_utf8_lossy(strip_cr(line));
            strip_escapes(&text).into_owned()
        }
    }
}

/// Writes what the JSON object `line` says to `out`; `None` when it is not an object or
/// is too broken to read (a cut line is closed first, see [`super::partial`]).
fn said_object(line: &[u8], out: &mut String) -> Option<()> {
    read_object(line, &mut |body| said_exact(body, out)).map(|_| ())
}

/// [`said_object`] on a complete object: a typed parse, borrowing; a legal but odd object
/// the typed parse rejects (a duplicate key) is read through `serde_json::Value`.
fn said_exact(body: &[u8], out: &mut String) -> Option<()> {
    match serde_json::from_slice::<Envelope<'_>>(body) {
        Ok(env) => said_envelope(&env, out),
        Err(e) if e.is_data() => {
            let v: serde_json::Value = serde_json::from_slice(body).ok()?;
            if !v.is_object() {
                return None;
            }
            let env = Envelope::deserialize(&v).ok()?;
            said_envelope(&env, out);
        }
        Err(_) => return None,
    }
    Some(())
}

fn said_envelope(env: &Envelope<'_>, out: &mut String) {
    let ty = env.ty.as_ref().and_then(Loose::as_str).unwrap_or("");
    let str_of = |v: &Option<Loose<'_>>| v.as_ref().and_then(Loose::as_str).unwrap_or("").to_string();
    match ty {
        "user" | "assistant" => said_chat(env, out),
        "system" | "summary" => {
            push_part(out, &str_of(&env.content));
            push_part(out, &str_of(&env.summary));
        }
        // The prompt the user queued (only `enqueue` carries one).
        "queue-operation" => push_part(out, &str_of(&env.content)),
        "progress" => {
            if let Some(d) = &env.data {
                said_progress(d, out);
            }
        }
        "attachment" => {
            if let Some(a) = &env.attachment {
                said_attachment(a, out);
            }
        }
        // A type we do not know says what its message says, if it has one.
        _ => said_chat(env, out),
    }
}

/// A chat line: its `message`, or for a bare message (a `role` beside `content`, no
/// `message`: the shape many chat logs write) its own `content`.
fn said_chat(env: &Envelope<'_>, out: &mut String) {
    match (&env.message, &env.role) {
        (Some(m), _) => said_message(m, out),
        (None, Some(_)) => said_content(env.content.as_ref(), out),
        (None, None) => {}
    }
}

/// A message object: `content` as a string or a list of blocks.
fn said_message(message: &Loose<'_>, out: &mut String) {
    said_content(message.get("content"), out);
}

/// A message's `content`: a string or a list of blocks.
fn said_content(content: Option<&Loose<'_>>, out: &mut String) {
    match content {
        Some(Loose::Str(s)) => push_part(out, s),
        Some(Loose::Arr(blocks)) => {
            for block in blocks {
                said_block(block, out);
            }
        }
        // One block written without its list.
        Some(block @ Loose::Obj(_)) => said_block(block, out),
        _ => {}
    }
}

fn said_block(block: &Loose<'_>, out: &mut String) {
    if let Some(s) = block.as_str() {
        push_part(out, s);
        return;
    }
    match block.get_str("type").unwrap_or("") {
        "text" => push_part(out, block.get_str("text").unwrap_or("")),
        "thinking" | "redacted_thinking" | "image" | "document" => {}
        "tool_use" | "server_tool_use" => {
            if let Some(input) = block.get("input") {
                push_strings(input, NOT_SAID, out);
            }
        }
        "tool_reference" => push_part(out, block.get_str("tool_name").unwrap_or("")),
        t if t == "tool_result" || t.ends_with("_tool_result") => {
            // Some logs name a result's text `output`.
            said_result(block.get("content").or_else(|| block.get("output")), out);
        }
        _ => {
            // An unknown block: its words, without identifiers and payloads.
            for (k, v) in block.entries().unwrap_or_default() {
                if k != "type" && !NOT_SAID.contains(&k) && k != "source" {
                    push_strings(v, NOT_SAID, out);
                }
            }
        }
    }
}

/// A tool result's `content`: a string, a list of items, or an object.
fn said_result(content: Option<&Loose<'_>>, out: &mut String) {
    match content {
        Some(Loose::Str(s)) => push_part(out, s),
        Some(Loose::Arr(items)) => {
            for item in items {
                said_block(item, out);
            }
        }
        Some(v @ Loose::Obj(_)) => said_block(v, out),
        _ => {}
    }
}

fn said_progress(data: &Loose<'_>, out: &mut String) {
    match data.get_str("type").unwrap_or("") {
        "bash_progress" => {
            let full = data.get_str("fullOutput").filter(|s| !s.is_empty());
            push_part(out, full.or(data.get_str("output")).unwrap_or(""));
        }
        "agent_progress" => {
            // The sub-agent's message, relayed (also in its own transcript when recorded).
            if let Some(m) = data.get("message").and_then(|m| m.get("message")) {
                said_message(m, out);
            }
        }
        "query_update" => push_part(out, data.get_str("query").unwrap_or("")),
        _ => {}
    }
}

fn said_attachment(att: &Loose<'_>, out: &mut String) {
    let field = |k: &str, out: &mut String| {
        if let Some(v) = att.get(k) {
            push_strings(v, NOT_SAID, out);
        }
    };
    match att.get_str("type").unwrap_or("") {
        "queued_command" => field("prompt", out),
        "edited_text_file" => field("snippet", out),
        "file" | "directory" => field("content", out),
        "plan_file_reference" => field("planContent", out),
        // What the session was told of its surroundings: the working directory, the
        // model, today's date.
        "environment" => field("snapshot", out),
        "model" => field("identity", out),
        "date" => field("date", out),
        "task_status" => {
            field("description", out);
            field("deltaSummary", out);
        }
        t if t.starts_with("hook_") => {
            for k in ["content", "stdout", "stderr", "message", "blockingError"] {
                field(k, out);
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn message_text_and_tool_io_but_not_envelope() {
        let line = br#"{"type":"assistant","cwd":"/home/dev/shop","version":"2.1.9","uuid":"u-1","timestamp":"2026-11-01T09:14:06Z","message":{"id":"msg_1","content":[{"type":"tool_use","id":"toolu_01PnpmTest","name":"Bash","input":{"command":"pnpm test","description":"Run the suite"}}],"usage":{"output_tokens":214}}}"#;
        assert_eq!(said_text(line), "pnpm test\nRun the suite");
    }

    #[test]
    fn tool_results_in_every_shape() {
        let s = br#"{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"toolu_pnpm","content":"214 passed"}]},"toolUseResult":{"stdout":"214 passed"}}"#;
        assert_eq!(said_text(s), "214 passed");
        let l = br#"{"type":"user","message":{"content":[{"type":"tool_result","content":[{"type":"text","text":"a"},{"type":"image","source":{"data":"QUJD"}},"b"]}]}}"#;
        assert_eq!(said_text(l), "a\nb");
    }

    #[test]
    fn tool_results_say_their_text_not_what_the_tool_added() {
        // Claude Code's Read result (as in tests/fixtures/transcripts/spotter/tool_heavy.jsonl
        // line 36): the gutter is the tool's; `toolUseResult` is the envelope.
        let read = r#"{"type":"user","message":{"role":"user","content":[{"tool_use_id":"toolu_1","type":"tool_result","content":"    57→fn seed() {\n    58→  users.insert(a);\n"}]},"toolUseResult":{"type":"text"}}"#;
        assert_eq!(said_text(read.as_bytes()), "fn seed() {\n  users.insert(a);\n");
        let grep = br#"{"type":"user","message":{"content":[{"type":"tool_result","content":"src/db.rs:12:  users.insert(a);"}]}}"#;
        assert_eq!(said_text(grep), "src/db.rs\n  users.insert(a);");
        // A user's list and clock time stay as written.
        let prose = br#"{"type":"user","message":{"content":"- seed at 12:30\n- 58 users"}}"#;
        assert_eq!(said_text(prose), "- seed at 12:30\n- 58 users");
        // Each part is cleaned on its own: a gutter in a tool input too (an Edit's snippet
        // copied with it), after the colour codes are gone.
        let input = br#"{"type":"assistant","message":{"content":[{"type":"tool_use","input":{"old":"\u001b[2m     5\u2192\u001b[0mport = 1"}}]}}"#;
        assert_eq!(said_text(input), "port = 1");
    }

    #[test]
    fn markdown_lines_are_not_cleaned() {
        // A daily note is what someone wrote, not a tool's output.
        assert_eq!(said_text_in(SourceKind::Markdown, "    58→ users".as_bytes()), "    58→ users");
    }

    #[test]
    fn markdown_lines_say_themselves_without_escapes() {
        // One definition for the scanner and the cited-line reader: a coloured daily-note
        // line says the same whether it is cited or found by the scan.
        assert_eq!(said_text_in(SourceKind::Markdown, b"port \x1b[1m6379\x1b[0m\r"), "port 6379");
        assert_eq!(said_text_in(SourceKind::Jsonl, br#"{"type":"user","message":{"content":"hi"}}"#), "hi");
    }

    #[test]
    fn invalid_utf8_reads_as_replacement_characters() {
        let l = b"{\"type\":\"user\",\"message\":{\"content\":\"caf\xe9 \xff port 6379\"}}";
        assert_eq!(said_text(l), "caf\u{fffd} \u{fffd} port 6379");
        let cut = b"{\"type\":\"user\",\"message\":{\"content\":\"port 6379 \xe6\x97";
        assert_eq!(said_text(cut), "port 6379 \u{fffd}");
    }

    #[test]
    fn thinking_says_nothing() {
        let t = br#"{"type":"assistant","message":{"content":[{"type":"thinking","thinking":"maybe late Oct 2026","signature":"x"},{"type":"text","text":"ok"}]}}"#;
        assert_eq!(said_text(t), "ok");
    }

    #[test]
    fn other_records() {
        let sys = br#"{"type":"system","subtype":"local_command","content":"<local-command-stdout>done</local-command-stdout>","level":"info"}"#;
        assert_eq!(said_text(sys), "<local-command-stdout>done</local-command-stdout>");
        let q = br#"{"type":"queue-operation","operation":"enqueue","content":"/mcp"}"#;
        assert_eq!(said_text(q), "/mcp");
        let hook = br#"{"type":"progress","data":{"type":"hook_progress","command":"bd prime"}}"#;
        assert_eq!(said_text(hook), "");
        let snap =
            br#"{"type":"file-history-snapshot","messageId":"m","snapshot":{"timestamp":"2026-02-10T21:11:56.906Z"}}"#;
        assert_eq!(said_text(snap), "");
        let mem =
            br#"{"type":"attachment","attachment":{"type":"relevant_memories","memories":[{"content":"uses pnpm"}]}}"#;
        assert_eq!(said_text(mem), "");
        let q = br#"{"type":"attachment","attachment":{"type":"queued_command","prompt":"run it"}}"#;
        assert_eq!(said_text(q), "run it");
        // What the session was told of where it runs.
        let env = br#"{"type":"attachment","attachment":{"type":"environment","snapshot":{"workingDirectory":"/fixture/project","isGitRepo":false}}}"#;
        assert_eq!(said_text(env), "/fixture/project");
        let model = br#"{"type":"attachment","attachment":{"type":"model","identity":{"modelId":"claude-haiku-4-5-20251001"}}}"#;
        assert_eq!(said_text(model), "claude-haiku-4-5-20251001");
        let date = br#"{"type":"attachment","attachment":{"type":"date","date":"2026-09-12"}}"#;
        assert_eq!(said_text(date), "2026-09-12");
    }

    #[test]
    fn a_bare_chat_message_says_its_content_in_every_shape() {
        // `{"role","content"}` lines (chat logs other than Claude Code's), the content a
        // string, a list of blocks, or one block without its list; a result's text under
        // `output`. The role itself is no word of it; without a role nothing is a message.
        let cases: &[(&[u8], &str)] = &[
            (br#"{"role":"user","content":"logout"}"#, "logout"),
            (br#"{"role":"assistant","content":[{"type":"text","text":"signOut is used"}]}"#, "signOut is used"),
            (br#"{"timestamp":"2026-02-25T04:48:20Z","role":"user","content":{"type":"text","text":"clone it"}}"#, "clone it"),
            (
                br#"{"role":"tool","content":{"type":"tool_result","tool_id":"t1","output":"Permission denied (publickey)."}}"#,
                "Permission denied (publickey).",
            ),
            (br#"{"role":"assistant","content":{"type":"thinking","text":"maybe"}}"#, ""),
            (br#"{"content":"no role, no type"}"#, ""),
        ];
        for (line, said) in cases {
            assert_eq!(said_text(line), *said, "{}", String::from_utf8_lossy(line));
            assert_eq!(reference::said_text(line), *said, "{}", String::from_utf8_lossy(line));
        }
    }

    #[test]
    fn broken_lines() {
        assert_eq!(said_text(b"{\"type\":\"user\",\"message\":{\"content\":\"we moved to pn"), "we moved to pn");
        assert_eq!(said_text(b"[1,2]"), "");
        assert_eq!(said_text(b"{not json"), "");
        assert_eq!(said_text(b"plain words"), "plain words");
        assert_eq!(said_text(b"\xff\xfe"), "\u{fffd}\u{fffd}");
    }

    /// Random JSON text shaped like transcript lines, with what `serde_json::Value`
    /// cannot hold: duplicate keys, at the top and nested.
    mod same_as_reference {
        use super::super::reference;
        use super::*;
        use proptest::prelude::*;

        #[derive(Clone, Debug)]
        enum Node {
            Str(String),
            Num(i64),
            Lit(&'static str),
            Arr(Vec<Node>),
            Obj(Vec<(String, Node)>),
        }

        fn esc(s: &str) -> String {
            serde_json::to_string(s).unwrap()
        }

        fn text(n: &Node, out: &mut String) {
            match n {
                Node::Str(s) => out.push_str(&esc(s)),
                Node::Num(i) => out.push_str(&i.to_string()),
                Node::Lit(l) => out.push_str(l),
                Node::Arr(items) => {
                    out.push('[');
                    for (i, v) in items.iter().enumerate() {
                        if i > 0 {
                            out.push(',');
                        }
                        text(v, out);
                    }
                    out.push(']');
                }
                Node::Obj(entries) => {
                    out.push('{');
                    for (i, (k, v)) in entries.iter().enumerate() {
                        if i > 0 {
                            out.push_str(", ");
                        }
                        out.push_str(&esc(k));
                        out.push(':');
                        text(v, out);
                    }
                    out.push('}');
                }
            }
        }

        fn word() -> impl Strategy<Value = String> {
            prop_oneof![
                "[a-z ]{0,8}",
                r#"[\\"\n\t\x1b\[0-9m ]{0,6}"#,
                Just("先週 pnpm".to_string()),
                Just("😀 x".to_string()),
                Just("  ".to_string()),
            ]
        }

        fn key() -> impl Strategy<Value = String> {
            prop_oneof![
                Just("type".to_string()),
                Just("text".to_string()),
                Just("content".to_string()),
                Just("input".to_string()),
                Just("id".to_string()),
                Just("data".to_string()),
                Just("source".to_string()),
                Just("message".to_string()),
                Just("tool_name".to_string()),
                Just("output".to_string()),
                Just("fullOutput".to_string()),
                Just("prompt".to_string()),
                "[a-z]{1,3}",
            ]
        }

        fn type_name() -> impl Strategy<Value = String> {
            prop_oneof![
                Just("user"),
                Just("assistant"),
                Just("system"),
                Just("summary"),
                Just("queue-operation"),
                Just("progress"),
                Just("attachment"),
                Just("text"),
                Just("thinking"),
                Just("tool_use"),
                Just("tool_result"),
                Just("web_search_tool_result"),
                Just("tool_reference"),
                Just("image"),
                Just("bash_progress"),
                Just("agent_progress"),
                Just("query_update"),
                Just("queued_command"),
                Just("file"),
                Just("task_status"),
                Just("hook_success"),
                Just("other"),
            ]
            .prop_map(str::to_string)
        }

        fn node() -> impl Strategy<Value = Node> {
            let leaf = prop_oneof![
                word().prop_map(Node::Str),
                type_name().prop_map(Node::Str),
                (-5i64..300).prop_map(Node::Num),
                prop_oneof![Just("null"), Just("true"), Just("false"), Just("1.5e3")].prop_map(Node::Lit),
            ];
            leaf.prop_recursive(5, 48, 6, |inner| {
                prop_oneof![
                    prop::collection::vec(inner.clone(), 0..5).prop_map(Node::Arr),
                    prop::collection::vec((key(), inner.clone()), 0..6).prop_map(Node::Obj),
                    (type_name(), prop::collection::vec((key(), inner), 0..4)).prop_map(|(t, mut e)| {
                        e.insert(0, ("type".to_string(), Node::Str(t)));
                        Node::Obj(e)
                    }),
                ]
            })
        }

        /// A line: an object with a type and some said-ish and envelope fields, in any
        /// order, maybe a key twice; then maybe cut, a CR, a BOM.
        fn line() -> impl Strategy<Value = Vec<u8>> {
            let field = prop_oneof![
                (Just("type".to_string()), type_name().prop_map(Node::Str)),
                (Just("message".to_string()), node()),
                (Just("content".to_string()), node()),
                (Just("summary".to_string()), node()),
                (Just("data".to_string()), node()),
                (Just("attachment".to_string()), node()),
                (Just("cwd".to_string()), word().prop_map(Node::Str)),
                (Just("toolUseResult".to_string()), node()),
            ];
            (prop::collection::vec(field, 0..7), any::<u16>(), 0u8..8).prop_map(|(fields, cut, extra)| {
                let mut s = String::new();
                text(&Node::Obj(fields), &mut s);
                let mut b = s.into_bytes();
                match extra {
                    0 => {
                        let at = cut as usize % (b.len() + 1);
                        b.truncate(at);
                    }
                    1 => b.extend_from_slice(b"\r"),
                    2 => b.splice(0..0, [0xEF, 0xBB, 0xBF]).for_each(drop),
                    3 => b.extend_from_slice(b" x"),
                    _ => {}
                }
                b
            })
        }

        proptest! {
            #![proptest_config(ProptestConfig { cases: 2000, rng_seed: proptest::test_runner::RngSeed::Fixed(1), ..ProptestConfig::default() })]

            #[test]
            fn on_transcript_shaped_lines(l in line()) {
                prop_assert_eq!(said_text(&l), reference::said_text(&l));
            }

            #[test]
            fn on_any_bytes(b in prop::collection::vec(any::<u8>(), 0..200)) {
                prop_assert_eq!(said_text(&b), reference::said_text(&b));
            }

            #[test]
            fn on_any_text(s in "\\PC{0,120}") {
                prop_assert_eq!(said_text(s.as_bytes()), reference::said_text(s.as_bytes()));
            }
        }

        #[test]
        fn duplicate_keys_read_like_value() {
            let l = br#"{"type":"assistant","message":{"content":[{"type":"tool_use","input":{"b":"1","a":"2","b":"3"}}]},"message":{"content":"last"}}"#;
            assert_eq!(said_text(l), "last");
            assert_eq!(said_text(l), reference::said_text(l));
            let nested =
                br#"{"type":"user","message":{"content":[{"type":"tool_use","input":{"b":"1","a":"2","b":"3"}}]}}"#;
            assert_eq!(said_text(nested), "2\n3");
            assert_eq!(said_text(nested), reference::said_text(nested));
        }
    }
}
