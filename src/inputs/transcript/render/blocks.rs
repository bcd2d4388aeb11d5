//! Rendering a `user`/`assistant` message: its content string or blocks (text, folded
//! thinking, tool calls as `Name: summary`, tool results, images, unknown blocks).

use serde_json::Value;

use super::fields::{compact, key_values};
use super::kind::LineKind;
use crate::inputs::transcript::json::{get, get_str};

/// (role, text, kind) of a `user`/`assistant` message.
pub(super) fn render_message(role: &str, message: &Value) -> (String, String, LineKind) {
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
        // A list of blocks, or one block written without its list.
        Some(list @ (Value::Array(_) | Value::Object(_))) => {
            let blocks = list.as_array().map_or(std::slice::from_ref(list), Vec::as_slice);
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
    let role = if role == "user" && any_block && all_results { "tool" } else { role };
    (role.to_string(), parts.join(" | "), kind.unwrap_or(LineKind::Text))
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
        "text" => (get_str(block, "text").unwrap_or("").to_string(), LineKind::Text),
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
            if error { (format!("[error] {body}"), LineKind::ToolError) } else { (body, LineKind::ToolResult) }
        }
        _ => {
            let label = if ty.is_empty() { "block" } else { ty };
            let skip = ["type", "id", "signature", "data", "source", "tool_use_id", "cache_control"];
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
    let name = get_str(block, "name").filter(|n| !n.is_empty()).unwrap_or("tool");
    let input = get(block, "input");
    let field = |k: &str| input.and_then(|i| get_str(i, k)).filter(|v| !v.trim().is_empty()).map(str::to_string);
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
            let strings: Vec<&str> =
                obj.values().filter_map(Value::as_str).filter(|v| !v.trim().is_empty()).take(3).collect();
            if strings.is_empty() { key_values(obj, &[]) } else { strings.join(" ") }
        }
        None => input.map(compact).unwrap_or_default(),
    });
    if summary.is_empty() { name.to_string() } else { format!("{name}: {summary}") }
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
                        Some("tool_reference") => get_str(item, "tool_name").unwrap_or("").to_string(),
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
