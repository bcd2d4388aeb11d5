//! The small formatting helpers the renderers share: a string field of an object, parts
//! joined, `key=value` pairs and compact JSON, each bounded in size.

use serde_json::{Map, Value};

/// Default cap on the characters of [`super::RenderedLine::text`].
pub(super) const DEFAULT_LIMIT: usize = 600;

/// A string field of `obj`, or "".
pub(super) fn s<'a>(obj: &'a Map<String, Value>, key: &str) -> &'a str {
    obj.get(key).and_then(Value::as_str).unwrap_or("")
}

/// The non-empty parts joined by `: `.
pub(super) fn join(parts: &[&str]) -> String {
    let kept: Vec<&str> = parts.iter().copied().filter(|p| !p.trim().is_empty()).collect();
    kept.join(": ")
}

/// `key=value` pairs for the fields of `obj` not in `skip` (objects and arrays compact).
pub(super) fn key_values(obj: &Map<String, Value>, skip: &[&str]) -> String {
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
pub(super) fn compact(v: &Value) -> String {
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
