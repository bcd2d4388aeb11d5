//! Rendering the records that are not conversation (progress, snapshots, attachments,
//! unknown types) as short readable text.

use serde_json::{Map, Value};

use super::blocks::render_message;
use super::fields::{compact, join, key_values};
use crate::inputs::transcript::json::{get, get_str};

pub(super) fn render_progress(data: Option<&Value>) -> String {
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

pub(super) fn render_snapshot(obj: &Map<String, Value>) -> String {
    let files =
        obj.get("snapshot").and_then(|s| get(s, "trackedFileBackups")).and_then(Value::as_object).map_or(0, Map::len);
    let update = obj.get("isSnapshotUpdate").and_then(Value::as_bool) == Some(true);
    let plural = if files == 1 { "" } else { "s" };
    let mut text = format!("{files} tracked file{plural}");
    if update {
        text.push_str(" (update)");
    }
    text
}

pub(super) fn render_attachment(att: Option<&Value>) -> String {
    let Some(att) = att else { return String::new() };
    let ty = get_str(att, "type").unwrap_or("attachment");
    match att.as_object() {
        Some(obj) => join(&[ty, &key_values(obj, &["type", "toolUseID", "source_uuid"])]),
        None => compact(att),
    }
}
