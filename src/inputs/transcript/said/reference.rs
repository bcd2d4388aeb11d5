//! The first implementation of [`super::said_text`], over `serde_json::Value`: kept for
//! the property test that the borrowed one says exactly the same on any input.

use serde::Deserialize;
use serde_json::Value;

use crate::inputs::transcript::json::{get, get_str, parse_object};
use crate::inputs::transcript::partial::content_start;
use crate::inputs::transcript::text::{strip_cr, strip_escapes};

use super::NOT_SAID;
use super::loose::push_part;

/// The fields of a line [`said_text`] reads (the same as the borrowed `Envelope`).
#[derive(Deserialize, Default)]
#[serde(default)]
struct Envelope {
    #[serde(rename = "type")]
    ty: Option<Value>,
    message: Option<Value>,
    content: Option<Value>,
    summary: Option<Value>,
    data: Option<Value>,
    attachment: Option<Value>,
    role: Option<Value>,
}

/// What a JSONL transcript line says, as plain text (parts separated by newlines). See
/// the module docs for what is in and out. A line cut short says what its readable
/// beginning says. A line that is not JSON at all (does not start with `{` or `[`) is
/// taken as plain text and says itself; broken or wrong-shaped JSON says nothing.
/// Terminal escape sequences (colour codes in tool output) are removed.
pub(super) fn said_text(line: &[u8]) -> String {
    let line = strip_cr(line);
    let mut out = String::new();
    match parse_object::<Envelope>(line) {
        Some((env, _cut)) => said_envelope(&env, &mut out),
        None => {
            let first = line.get(content_start(line)).copied();
            let json_like = matches!(first, Some(b'{' | b'[' | b'"'));
            if !json_like && serde_json::from_slice::<Value>(line).is_err() {
                out = String::from_utf8_lossy(line).trim().to_string();
            }
        }
    }
    match strip_escapes(&out) {
        std::borrow::Cow::Borrowed(_) => out,
        std::borrow::Cow::Owned(clean) => clean,
    }
}

fn said_envelope(env: &Envelope, out: &mut String) {
    let ty = env.ty.as_ref().and_then(Value::as_str).unwrap_or("");
    let str_of = |v: &Option<Value>| v.as_ref().and_then(Value::as_str).unwrap_or("").to_string();
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

/// A chat line: its `message`, or for a bare message (`role` and `content`) its content.
fn said_chat(env: &Envelope, out: &mut String) {
    match (&env.message, &env.role) {
        (Some(m), _) => said_message(m, out),
        (None, Some(_)) => said_content(env.content.as_ref(), out),
        (None, None) => {}
    }
}

/// A message object: `content` as a string or a list of blocks.
fn said_message(message: &Value, out: &mut String) {
    said_content(get(message, "content"), out);
}

/// A message's `content`: a string or a list of blocks.
fn said_content(content: Option<&Value>, out: &mut String) {
    match content {
        Some(Value::String(s)) => push_part(out, s),
        Some(Value::Array(blocks)) => {
            for block in blocks {
                said_block(block, out);
            }
        }
        Some(block @ Value::Object(_)) => said_block(block, out),
        _ => {}
    }
}

fn said_block(block: &Value, out: &mut String) {
    if let Some(s) = block.as_str() {
        push_part(out, s);
        return;
    }
    match get_str(block, "type").unwrap_or("") {
        "text" => push_part(out, get_str(block, "text").unwrap_or("")),
        "thinking" | "redacted_thinking" | "image" | "document" => {}
        "tool_use" | "server_tool_use" => {
            if let Some(input) = get(block, "input") {
                push_strings(input, NOT_SAID, out);
            }
        }
        "tool_reference" => push_part(out, get_str(block, "tool_name").unwrap_or("")),
        t if t == "tool_result" || t.ends_with("_tool_result") => {
            said_result(get(block, "content").or_else(|| get(block, "output")), out);
        }
        _ => {
            // An unknown block: its words, without identifiers and payloads.
            if let Some(obj) = block.as_object() {
                for (k, v) in obj {
                    if k != "type" && !NOT_SAID.contains(&k.as_str()) && k != "source" {
                        push_strings(v, NOT_SAID, out);
                    }
                }
            }
        }
    }
}

/// A tool result's `content`: a string, a list of items, or an object.
fn said_result(content: Option<&Value>, out: &mut String) {
    match content {
        Some(Value::String(s)) => push_part(out, s),
        Some(Value::Array(items)) => {
            for item in items {
                said_block(item, out);
            }
        }
        Some(v @ Value::Object(_)) => said_block(v, out),
        _ => {}
    }
}

fn said_progress(data: &Value, out: &mut String) {
    match get_str(data, "type").unwrap_or("") {
        "bash_progress" => {
            let full = get_str(data, "fullOutput").filter(|s| !s.is_empty());
            push_part(out, full.or(get_str(data, "output")).unwrap_or(""));
        }
        "agent_progress" => {
            // The sub-agent's message, relayed (also in its own transcript when recorded).
            if let Some(m) = get(data, "message").and_then(|m| get(m, "message")) {
                said_message(m, out);
            }
        }
        "query_update" => push_part(out, get_str(data, "query").unwrap_or("")),
        _ => {}
    }
}

fn said_attachment(att: &Value, out: &mut String) {
    let field = |k: &str, out: &mut String| {
        if let Some(v) = get(att, k) {
            push_strings(v, NOT_SAID, out);
        }
    };
    match get_str(att, "type").unwrap_or("") {
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

/// Appends every string value inside `v` (recursively, not keys) to `out`, one per line,
/// skipping the values of `skip_keys` at any depth.
fn push_strings(v: &Value, skip_keys: &[&str], out: &mut String) {
    // Iterative, so that adversarial nesting cannot overflow the stack.
    let mut stack: Vec<&Value> = vec![v];
    while let Some(v) = stack.pop() {
        match v {
            Value::String(s) => push_part(out, s),
            Value::Array(items) => stack.extend(items.iter().rev()),
            Value::Object(map) => {
                let mut children: Vec<&Value> =
                    map.iter().filter(|(k, _)| !skip_keys.contains(&k.as_str())).map(|(_, v)| v).collect();
                children.reverse();
                stack.extend(children);
            }
            _ => {}
        }
    }
}
