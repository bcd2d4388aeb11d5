//! Rendering one source line as `time · role · text` for the evidence pane.
//!
//! Rendering is a pure function of the line's bytes: it never fails and never panics.
//! Lines that are not JSON objects (invalid JSON, arrays, numbers, invalid UTF-8) come
//! out with role `raw` and their lossy text; a JSON line cut short (a capped huge line,
//! a session killed mid-write) is closed and rendered from what it has, marked `[…]`;
//! types and blocks we do not know are shown as short `key=value` text, never an error.

use serde_json::{Map, Value};

use super::json::{get, get_str, parse_object};
use super::text::{one_line, strip_cr};
use crate::date::Date;

/// Default cap on the characters of [`RenderedLine::text`].
const DEFAULT_LIMIT: usize = 600;

/// Envelope fields never shown for lines of a type we do not know.
const ENVELOPE: &[&str] = &[
    "type",
    "uuid",
    "parentUuid",
    "leafUuid",
    "sessionId",
    "timestamp",
    "version",
    "cwd",
    "gitBranch",
    "isSidechain",
    "userType",
    "slug",
    "agentId",
    "requestId",
    "entrypoint",
];

/// What sort of line it is, so the evidence pane can style it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum LineKind {
    /// Only thinking (folded: thinking is never shown or used as evidence).
    Thinking,
    /// Conversation text (user prompt, assistant reply).
    Text,
    /// An assistant tool call.
    ToolUse,
    /// A tool result.
    ToolResult,
    /// A tool result marked `is_error`.
    ToolError,
    /// Anything else Claude Code records (system, progress, snapshots, queue…).
    Event,
    /// A line of a Markdown/plain-text source.
    Note,
    /// Not a JSON object: shown as its lossy text.
    Raw,
}

/// One line ready for display.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RenderedLine {
    /// 1-based physical line number.
    pub number: usize,
    /// `2026-11-01 09:14:03`, from the line's `timestamp` (as written, normally UTC).
    pub time: Option<String>,
    /// The day of the line: its timestamp's date, or a daily note's file-name date.
    pub date: Option<Date>,
    /// `user`, `assistant`, `tool` (a user line carrying tool results), `note`, `raw`, or
    /// the line's own `type` for other records (`system`, `progress`, …).
    pub role: String,
    /// The one-line text: collapsed whitespace, no control characters, cut with `…`.
    pub text: String,
    /// `message.id` (one API response split over several lines shares it).
    pub message_id: Option<String>,
    /// What sort of line it is.
    pub kind: LineKind,
    /// The line was cut (too long, or ended mid-JSON); `text` ends with `[…]`.
    pub truncated: bool,
}

impl RenderedLine {
    /// `time · role · text` (the date stands in for a missing time; nothing for neither).
    pub fn display(&self) -> String {
        let when = self
            .time
            .clone()
            .or_else(|| self.date.map(|d| d.to_string()));
        match when {
            Some(w) => format!("{w} · {} · {}", self.role, self.text),
            None => format!("{} · {}", self.role, self.text),
        }
    }

    /// Hook for secret masking: replaces `text` with `mask(text)`.
    pub fn mask_with(&mut self, mask: impl Fn(&str) -> String) {
        self.text = mask(&self.text);
    }
}

/// Renders a JSONL transcript line (`number` is its 1-based line number).
pub fn render_jsonl(line: &[u8], number: usize) -> RenderedLine {
    render_jsonl_with_limit(line, number, DEFAULT_LIMIT)
}

/// Like [`render_jsonl`], with `text` cut at `max_chars` characters instead of 600.
pub fn render_jsonl_with_limit(line: &[u8], number: usize, max_chars: usize) -> RenderedLine {
    let line = strip_cr(line);
    let Some((Value::Object(obj), cut)) = parse_object::<Value>(line) else {
        return raw(line, number, max_chars);
    };
    let ty = obj.get("type").and_then(Value::as_str).unwrap_or("");
    let stamp = obj
        .get("timestamp")
        .and_then(Value::as_str)
        .or_else(|| obj.get("snapshot").and_then(|s| get_str(s, "timestamp")));
    let (time, date) = stamp.map(parse_time).unwrap_or((None, None));
    let message = obj.get("message");
    let message_id = message.and_then(|m| get_str(m, "id")).map(str::to_string);

    let (role, text, kind) = match (ty, message) {
        ("user" | "assistant", Some(m)) => render_message(ty, m),
        ("user" | "assistant", None) => (ty.to_string(), String::new(), LineKind::Text),
        ("system", _) => (
            ty.into(),
            join(&[s(&obj, "subtype"), s(&obj, "content")]),
            LineKind::Event,
        ),
        ("progress", _) => (ty.into(), render_progress(obj.get("data")), LineKind::Event),
        ("file-history-snapshot", _) => (ty.into(), render_snapshot(&obj), LineKind::Event),
        ("queue-operation", _) => (
            ty.into(),
            join(&[s(&obj, "operation"), s(&obj, "content")]),
            LineKind::Event,
        ),
        ("summary", _) => (ty.into(), s(&obj, "summary").to_string(), LineKind::Event),
        ("attachment", _) => (
            ty.into(),
            render_attachment(obj.get("attachment")),
            LineKind::Event,
        ),
        // Unknown type (or a cut line whose `type` came after the message): a message
        // object still says who speaks.
        (_, Some(m)) if m.is_object() => {
            let role = get_str(m, "role").filter(|r| !r.is_empty()).unwrap_or(ty);
            let role = if role.is_empty() { "unknown" } else { role };
            render_message(role, m)
        }
        _ => {
            let role = if ty.is_empty() { "unknown" } else { ty };
            (
                role.to_string(),
                key_values(&obj, ENVELOPE),
                LineKind::Event,
            )
        }
    };
    let mut text = one_line(&text, max_chars);
    if cut {
        text.push_str(" […]");
    }
    RenderedLine {
        number,
        time,
        date,
        role,
        text,
        message_id,
        kind,
        truncated: cut,
    }
}

/// Renders a line of a Markdown/plain-text source dated `date` (from its file name).
pub fn render_note(line: &[u8], number: usize, date: Option<Date>) -> RenderedLine {
    let text = String::from_utf8_lossy(strip_cr(line));
    RenderedLine {
        number,
        time: None,
        date,
        role: "note".into(),
        text: one_line(&text, DEFAULT_LIMIT),
        message_id: None,
        kind: LineKind::Note,
        truncated: false,
    }
}

fn raw(line: &[u8], number: usize, max_chars: usize) -> RenderedLine {
    let text = String::from_utf8_lossy(line);
    RenderedLine {
        number,
        time: None,
        date: None,
        role: "raw".into(),
        text: one_line(&text, max_chars),
        message_id: None,
        kind: LineKind::Raw,
        truncated: false,
    }
}

/// `2026-11-01T09:14:03.112Z` → (`2026-11-01 09:14:03`, 2026-11-01).
fn parse_time(stamp: &str) -> (Option<String>, Option<Date>) {
    let date = Date::parse_iso_prefix(stamp);
    let b = stamp.as_bytes();
    let clock = b.get(10).is_some_and(|&c| c == b'T' || c == b' ')
        && b.get(11..19).is_some_and(|t| {
            t.iter().enumerate().all(|(i, c)| {
                if i == 2 || i == 5 {
                    *c == b':'
                } else {
                    c.is_ascii_digit()
                }
            })
        });
    let time = match (date, clock, stamp.get(11..19)) {
        (Some(d), true, Some(t)) => Some(format!("{d} {t}")),
        _ => None,
    };
    (time, date)
}

/// (role, text, kind) of a `user`/`assistant` message.
fn render_message(role: &str, message: &Value) -> (String, String, LineKind) {
    let content = get(message, "content");
    let mut parts: Vec<String> = Vec::new();
    let mut kind: Option<LineKind> = None;
    let mut all_results = true;
    let mut any_block = false;
    let note = |k: LineKind, kind: &mut Option<LineKind>| {
        *kind = Some(kind.map_or(k, |old| strongest(old, k)));
    };
    match content {
        Some(Value::String(text)) => {
            parts.push(text.clone());
            note(LineKind::Text, &mut kind);
            all_results = false;
            any_block = true;
        }
        Some(Value::Array(blocks)) => {
            for block in blocks {
                any_block = true;
                let (text, k) = render_block(block);
                all_results &= matches!(k, LineKind::ToolResult | LineKind::ToolError);
                note(k, &mut kind);
                if !text.trim().is_empty() {
                    parts.push(text);
                }
            }
        }
        Some(other) if !other.is_null() => {
            parts.push(compact(other));
            note(LineKind::Text, &mut kind);
            all_results = false;
            any_block = true;
        }
        _ => {}
    }
    let role = if role == "user" && any_block && all_results {
        "tool"
    } else {
        role
    };
    (
        role.to_string(),
        parts.join(" | "),
        kind.unwrap_or(LineKind::Text),
    )
}

/// Which of two kinds describes a line (or merged entry) holding both.
pub(crate) fn strongest(a: LineKind, b: LineKind) -> LineKind {
    let rank = |k: LineKind| match k {
        LineKind::ToolError => 5,
        LineKind::ToolResult => 4,
        LineKind::ToolUse => 3,
        LineKind::Text => 2,
        LineKind::Thinking => 1,
        _ => 0,
    };
    if rank(b) > rank(a) { b } else { a }
}

/// Text and kind of one content block.
fn render_block(block: &Value) -> (String, LineKind) {
    if let Some(text) = block.as_str() {
        return (text.to_string(), LineKind::Text);
    }
    let ty = get_str(block, "type").unwrap_or("");
    match ty {
        "text" => (
            get_str(block, "text").unwrap_or("").to_string(),
            LineKind::Text,
        ),
        "thinking" => {
            let n = get_str(block, "thinking").map_or(0, |t| t.chars().count());
            (format!("(thinking, {n} chars)"), LineKind::Thinking)
        }
        "redacted_thinking" => ("(thinking, redacted)".into(), LineKind::Thinking),
        "tool_use" | "server_tool_use" => (tool_use_summary(block), LineKind::ToolUse),
        "image" => ("[image]".into(), LineKind::Text),
        "document" => ("[document]".into(), LineKind::Text),
        t if t == "tool_result" || t.ends_with("_tool_result") => {
            let error = get(block, "is_error").and_then(Value::as_bool) == Some(true);
            let body = result_text(get(block, "content"));
            if error {
                (format!("[error] {body}"), LineKind::ToolError)
            } else {
                (body, LineKind::ToolResult)
            }
        }
        _ => {
            let label = if ty.is_empty() { "block" } else { ty };
            let skip = [
                "type",
                "id",
                "signature",
                "data",
                "source",
                "tool_use_id",
                "cache_control",
            ];
            let body = match block.as_object() {
                Some(obj) => key_values(obj, &skip),
                None => compact(block),
            };
            (format!("[{label}] {body}"), LineKind::Text)
        }
    }
}

/// `Name: input summary` for a tool call: the field that says what the call does (Bash
/// command, file path, pattern, URL, task description…), else the input's first string
/// fields.
fn tool_use_summary(block: &Value) -> String {
    let name = get_str(block, "name")
        .filter(|n| !n.is_empty())
        .unwrap_or("tool");
    let input = get(block, "input");
    let field = |k: &str| {
        input
            .and_then(|i| get_str(i, k))
            .filter(|v| !v.trim().is_empty())
            .map(str::to_string)
    };
    let summary = match name {
        "Bash" | "PowerShell" => field("command"),
        "Read" | "Write" | "Edit" | "MultiEdit" => field("file_path"),
        "NotebookEdit" => field("notebook_path"),
        "Grep" | "Glob" => field("pattern"),
        "WebFetch" => field("url"),
        "WebSearch" => field("query"),
        "Task" | "Agent" => match (field("description"), field("subagent_type")) {
            (Some(d), Some(t)) => Some(format!("{d} ({t})")),
            (d, t) => d.or(t),
        },
        _ => None,
    };
    let summary = summary.unwrap_or_else(|| match input.and_then(Value::as_object) {
        Some(obj) => {
            let strings: Vec<&str> = obj
                .values()
                .filter_map(Value::as_str)
                .filter(|v| !v.trim().is_empty())
                .take(3)
                .collect();
            if strings.is_empty() {
                key_values(obj, &[])
            } else {
                strings.join(" ")
            }
        }
        None => input.map(compact).unwrap_or_default(),
    });
    if summary.is_empty() {
        name.to_string()
    } else {
        format!("{name}: {summary}")
    }
}

/// Text of a tool result's `content`: a string, or a list of text/image/… items.
fn result_text(content: Option<&Value>) -> String {
    match content {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Array(items)) => {
            let parts: Vec<String> = items
                .iter()
                .map(|item| match item {
                    Value::String(s) => s.clone(),
                    _ => match get_str(item, "type") {
                        Some("text") => get_str(item, "text").unwrap_or("").to_string(),
                        Some("image") => "[image]".into(),
                        Some("document") => "[document]".into(),
                        Some("tool_reference") => {
                            get_str(item, "tool_name").unwrap_or("").to_string()
                        }
                        _ => compact(item),
                    },
                })
                .filter(|p| !p.is_empty())
                .collect();
            parts.join(" ")
        }
        Some(Value::Object(obj)) => match obj.get("text").and_then(Value::as_str) {
            Some(t) => t.to_string(),
            None => key_values(obj, &["type"]),
        },
        Some(Value::Null) | None => String::new(),
        Some(other) => compact(other),
    }
}

fn render_progress(data: Option<&Value>) -> String {
    let Some(data) = data else {
        return String::new();
    };
    let ty = get_str(data, "type").unwrap_or("");
    let f = |k: &str| get_str(data, k).unwrap_or("");
    match ty {
        "hook_progress" => join(&[ty, f("hookName")]),
        "bash_progress" => join(&[ty, f("output")]),
        "mcp_progress" => join(&[ty, &[f("serverName"), f("toolName"), f("status")].join(" ")]),
        "query_update" => join(&[ty, f("query")]),
        "waiting_for_task" => join(&[ty, f("taskDescription")]),
        "agent_progress" => {
            let inner = get(data, "message").and_then(|m| get(m, "message"));
            let text = match inner {
                Some(m) => render_message("", m).1,
                None => f("prompt").to_string(),
            };
            join(&[ty, f("agentId"), &text])
        }
        _ => match data.as_object() {
            Some(obj) => join(&[ty, &key_values(obj, &["type"])]),
            None => compact(data),
        },
    }
}

fn render_snapshot(obj: &Map<String, Value>) -> String {
    let files = obj
        .get("snapshot")
        .and_then(|s| get(s, "trackedFileBackups"))
        .and_then(Value::as_object)
        .map_or(0, Map::len);
    let update = obj.get("isSnapshotUpdate").and_then(Value::as_bool) == Some(true);
    let plural = if files == 1 { "" } else { "s" };
    let mut text = format!("{files} tracked file{plural}");
    if update {
        text.push_str(" (update)");
    }
    text
}

fn render_attachment(att: Option<&Value>) -> String {
    let Some(att) = att else { return String::new() };
    let ty = get_str(att, "type").unwrap_or("attachment");
    match att.as_object() {
        Some(obj) => join(&[ty, &key_values(obj, &["type", "toolUseID", "source_uuid"])]),
        None => compact(att),
    }
}

/// A string field of `obj`, or "".
fn s<'a>(obj: &'a Map<String, Value>, key: &str) -> &'a str {
    obj.get(key).and_then(Value::as_str).unwrap_or("")
}

/// The non-empty parts joined by `: `.
fn join(parts: &[&str]) -> String {
    let kept: Vec<&str> = parts
        .iter()
        .copied()
        .filter(|p| !p.trim().is_empty())
        .collect();
    kept.join(": ")
}

/// `key=value` pairs for the fields of `obj` not in `skip` (objects and arrays compact).
fn key_values(obj: &Map<String, Value>, skip: &[&str]) -> String {
    let mut out = String::new();
    for (k, v) in obj {
        if skip.contains(&k.as_str()) || v.is_null() {
            continue;
        }
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(k);
        out.push('=');
        match v {
            Value::String(s) => out.push_str(s),
            other => out.push_str(&compact(other)),
        }
        if out.len() > 4 * DEFAULT_LIMIT {
            break;
        }
    }
    out
}

/// Compact JSON text of `v`, bounded in size.
fn compact(v: &Value) -> String {
    let mut s = v.to_string();
    if s.len() > 4 * DEFAULT_LIMIT {
        let mut cut = 4 * DEFAULT_LIMIT;
        while !s.is_char_boundary(cut) {
            cut -= 1;
        }
        s.truncate(cut);
        s.push('…');
    }
    s
}
