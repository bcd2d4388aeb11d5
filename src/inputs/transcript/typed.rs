//! What the person typed in a session, and which files its tools read: the two things the
//! window's sessions are read for in full (a rule's support, what the dream left out).
//!
//! [`read_session`] streams a JSONL transcript once, in chunks, and keeps only
//! - the turns the user typed ([`Turn::typed_by_user`]: no tool result, no skill's text,
//!   no hook or summary, no interruption marker, no slash command), each with its
//!   timestamp, cut at a cap;
//! - the paths of `Read`-style tool calls (`Read`, `NotebookRead`, `read_file`, `view`).
//!
//! Lines are judged cheaply before they are parsed, by their first [`HEAD`] bytes (where
//! Claude Code writes a line's type and its first content block): a line that carries a
//! tool result (`"tool_result"` as JSON structure) is never a typed turn, and a line that
//! names neither a user nor a read tool there is skipped unparsed (a read call after a long
//! text block of the same message is a known miss). Lines are judged in place in the read
//! buffer; an over-long line is judged by its beginning ([`MAX_LINE_BYTES`]), the rest
//! skipped.

use std::fs::File;
use std::io::{self, Read};

use memchr::memmem;
use serde_json::Value;

use super::file::MAX_LINE_BYTES;
use super::render::line_stamp;
use super::source::{SourceFile, SourceKind};
use super::turns::turn_of;

/// One turn the user typed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TypedTurn {
    /// 1-based physical line.
    pub line: usize,
    /// What the user typed (cut at the cap given to [`read_session`]).
    pub text: String,
    /// When, from the line's timestamp.
    pub instant: Option<jiff::Timestamp>,
    /// The assistant spoke before it in the session: something it may answer or correct.
    pub replying: bool,
}

/// One file a tool call read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReadCall {
    /// 1-based physical line of the call.
    pub line: usize,
    /// The path as the call names it.
    pub path: String,
}

/// What one session says for the window: the user's typed turns and the files it read.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SessionWords {
    /// Typed turns in line order.
    pub typed: Vec<TypedTurn>,
    /// Read calls in line order.
    pub reads: Vec<ReadCall>,
    /// An assistant line has been read (what [`TypedTurn::replying`] is taken from).
    assistant_seen: bool,
}

/// Tools whose call reads one file by path.
const READ_TOOLS: &[&str] = &["Read", "NotebookRead", "read_file", "view"];

/// Reads `source` (a JSONL transcript; anything else says nothing), keeping each typed
/// turn's first `cap` bytes and every read call.
pub fn read_session(source: &SourceFile, cap: usize) -> io::Result<SessionWords> {
    read_session_naming(source, cap, None)
}

/// [`read_session`] keeping only the read calls whose line names one of `names` (file
/// names, as bytes: a cheap test before the line is parsed); `None` keeps them all, an
/// empty list none.
pub fn read_session_naming(source: &SourceFile, cap: usize, names: Option<&[Vec<u8>]>) -> io::Result<SessionWords> {
    let judge = |bytes: &[u8], n: usize, out: &mut SessionWords| judge(bytes, n, cap, names, out);
    let mut out = SessionWords::default();
    if source.kind != SourceKind::Jsonl {
        return Ok(out);
    }
    let mut file = File::open(&source.path)?;
    // A line that spans two reads is gathered here (its first MAX_LINE_BYTES); lines inside
    // one read are judged where they are.
    let mut carry: Vec<u8> = Vec::new();
    let mut chunk = vec![0u8; 1 << 20];
    let mut line = 1usize;
    let mut long = false;
    loop {
        let n = file.read(&mut chunk)?;
        if n == 0 {
            break;
        }
        let mut rest = &chunk[..n];
        while let Some(i) = memchr::memchr(b'\n', rest) {
            if carry.is_empty() && !long {
                judge(&rest[..i], line, &mut out);
            } else {
                if !long {
                    let room = MAX_LINE_BYTES.saturating_sub(carry.len());
                    carry.extend_from_slice(&rest[..i.min(room)]);
                }
                judge(&carry, line, &mut out);
                carry.clear();
                long = false;
            }
            line += 1;
            rest = &rest[i + 1..];
        }
        if !long {
            let room = MAX_LINE_BYTES.saturating_sub(carry.len());
            carry.extend_from_slice(&rest[..rest.len().min(room)]);
            long = carry.len() >= MAX_LINE_BYTES;
        }
    }
    if !carry.is_empty() {
        judge(&carry, line, &mut out);
    }
    Ok(out)
}

/// How much of a line's beginning says what it is: Claude Code writes a line's `type` and
/// the start of its message (a tool result's or a tool call's block) before this.
const HEAD: usize = 2048;

/// Finders of what a line's head is judged by, built once.
struct Marks {
    tool_result: memmem::Finder<'static>,
    user: memmem::Finder<'static>,
    assistant: memmem::Finder<'static>,
    read_tools: Vec<memmem::Finder<'static>>,
}

static MARKS: std::sync::LazyLock<Marks> = std::sync::LazyLock::new(|| Marks {
    tool_result: memmem::Finder::new(b"\"tool_result\"").into_owned(),
    user: memmem::Finder::new(b"\"user\"").into_owned(),
    assistant: memmem::Finder::new(b"\"assistant\"").into_owned(),
    read_tools: READ_TOOLS.iter().map(|t| memmem::Finder::new(format!("\"{t}\"").as_bytes()).into_owned()).collect(),
});

/// Keeps line `n` when it is a typed turn or holds read calls (of `names` when given).
fn judge(bytes: &[u8], n: usize, cap: usize, names: Option<&[Vec<u8>]>, out: &mut SessionWords) {
    let head = &bytes[..bytes.len().min(HEAD)];
    let marks = &*MARKS;
    if marks.tool_result.find(head).is_some() {
        return;
    }
    let user = marks.user.find(head).is_some();
    if !user && marks.assistant.find(head).is_some() {
        out.assistant_seen = true;
    }
    let named = |n: &[Vec<u8>]| n.iter().any(|name| memmem::find(bytes, name).is_some());
    let reads = names.is_none_or(named) && marks.read_tools.iter().any(|f| f.find(head).is_some());
    if !user && !reads {
        return;
    }
    if reads {
        out.reads.extend(read_paths(bytes).into_iter().map(|path| ReadCall { line: n, path }));
    }
    if !user {
        return;
    }
    let Some(turn) = turn_of(bytes, n) else { return };
    let text = turn.text.trim();
    if !turn.typed_by_user()
        || turn.interruption()
        || text.starts_with('<') && (text.contains("<command-") || text.contains("<local-command"))
    {
        return;
    }
    let mut text = text.to_string();
    let mut end = text.len().min(cap);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    text.truncate(end);
    let replying = out.assistant_seen;
    out.typed.push(TypedTurn { line: n, text, instant: line_stamp(bytes).instant, replying });
}

/// The paths the read tool calls of one line name (`file_path`, `notebook_path`, `path`).
fn read_paths(bytes: &[u8]) -> Vec<String> {
    let Ok(v) = serde_json::from_slice::<Value>(bytes) else { return Vec::new() };
    let content = v.get("message").and_then(|m| m.get("content")).or_else(|| v.get("content"));
    let blocks: Vec<&Value> = match content {
        Some(Value::Array(a)) => a.iter().collect(),
        Some(b @ Value::Object(_)) => vec![b],
        _ => return Vec::new(),
    };
    let field =
        |b: &Value, keys: &[&str]| keys.iter().find_map(|k| b.get(*k).and_then(Value::as_str)).map(str::to_string);
    blocks
        .into_iter()
        .filter(|b| matches!(b.get("type").and_then(Value::as_str), Some("tool_use")))
        .filter(|b| field(b, &["name", "tool_name"]).is_some_and(|n| READ_TOOLS.contains(&n.as_str())))
        .filter_map(|b| b.get("input").and_then(|i| field(i, &["file_path", "notebook_path", "path"])))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn session(lines: &[&str]) -> (tempfile::TempDir, SessionWords) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("s.jsonl");
        std::fs::write(&path, lines.join("\n")).unwrap();
        let words = read_session(&SourceFile::new(path, "s.jsonl".into()), 1000).unwrap();
        (dir, words)
    }

    #[test]
    fn typed_turns_and_reads_only() {
        let (_d, w) = session(&[
            r#"{"type":"user","timestamp":"2026-11-01T09:00:00Z","message":{"role":"user","content":"from now on use pnpm"}}"#,
            r#"{"type":"assistant","message":{"content":[{"type":"tool_use","id":"t1","name":"Read","input":{"file_path":"/m/memory/a.md"}}]}}"#,
            r#"{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"t1","content":"always use npm"}]}}"#,
            r#"{"type":"user","isMeta":true,"message":{"content":"<local-command-caveat>x</local-command-caveat>"}}"#,
            r#"{"type":"user","message":{"content":"[Request interrupted by user]"}}"#,
            r#"{"type":"user","isSidechain":true,"message":{"content":"remember to use npm"}}"#,
            r#"{"type":"user","message":{"content":[{"type":"text","text":"no, it's Postgres 16 not 15"}]}}"#,
        ]);
        let typed: Vec<(usize, &str)> = w.typed.iter().map(|t| (t.line, t.text.as_str())).collect();
        assert_eq!(typed, vec![(1, "from now on use pnpm"), (7, "no, it's Postgres 16 not 15")]);
        assert!(w.typed[0].instant.is_some());
        assert_eq!(w.reads, vec![ReadCall { line: 2, path: "/m/memory/a.md".into() }]);
    }

    #[test]
    fn only_the_reads_of_the_names_asked_for_are_kept() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("s.jsonl");
        let call = |p: &str| {
            format!(
                r#"{{"type":"assistant","message":{{"content":[{{"type":"tool_use","id":"t","name":"Read","input":{{"file_path":"{p}"}}}}]}}}}"#
            )
        };
        std::fs::write(&path, [call("/m/memory/a.md"), call("/m/memory/b.md")].join("\n")).unwrap();
        let source = SourceFile::new(path, "s.jsonl".into());
        let paths = |names: Option<&[Vec<u8>]>| -> Vec<String> {
            read_session_naming(&source, 100, names).unwrap().reads.into_iter().map(|r| r.path).collect()
        };
        assert_eq!(paths(None), ["/m/memory/a.md", "/m/memory/b.md"]);
        assert_eq!(paths(Some(&[b"b.md".to_vec()])), ["/m/memory/b.md"]);
        assert!(paths(Some(&[])).is_empty());
    }

    #[test]
    fn an_over_long_line_is_judged_by_its_beginning() {
        let long = format!(r#"{{"type":"user","message":{{"content":"{}"}}}}"#, "x".repeat(MAX_LINE_BYTES + 10));
        let (_d, w) = session(&[&long, r#"{"type":"user","message":{"content":"after"}}"#]);
        assert_eq!(w.typed.iter().map(|t| (t.line, t.text.as_str())).collect::<Vec<_>>(), vec![(2, "after")]);
    }
}
