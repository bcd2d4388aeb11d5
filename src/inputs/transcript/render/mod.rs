//! Rendering one source line as `time · role · text` for the evidence pane.
//!
//! Rendering is a pure function of the line's bytes: it never fails and never panics.
//! Lines that are not JSON objects (invalid JSON, arrays, numbers, invalid UTF-8) come
//! out with role `raw` and their lossy text; a JSON line cut short (a capped huge line,
//! a session killed mid-write) is closed and rendered from what it has, marked `[…]`;
//! types and blocks we do not know are shown as short `key=value` text, never an error.

mod blocks;
mod events;
mod fields;
pub mod kind;

use serde_json::Value;

use self::blocks::render_message;
pub(crate) use self::blocks::strongest;
use self::events::{render_attachment, render_progress, render_snapshot};
use self::fields::{DEFAULT_LIMIT, join, key_values, s};
pub use self::kind::LineKind;
use super::json::{get_str, parse_object};
use super::partial::skip_ws;
use super::text::{one_line, strip_cr};
use crate::base::date::Date;

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

/// One line ready for display.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RenderedLine {
    /// 1-based physical line number.
    pub number: usize,
    /// `2026-11-01 09:14:03`, from the line's `timestamp` (as written, normally UTC).
    pub time: Option<String>,
    /// The day of the line: its timestamp's date (as written, normally UTC), or a daily
    /// note's file-name date.
    pub date: Option<Date>,
    /// The moment of its timestamp, when it has a clock (see [`crate::base::zone`] for the day
    /// that is where the user lives).
    pub instant: Option<jiff::Timestamp>,
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
        let when = self.time.clone().or_else(|| self.date.map(|d| d.to_string()));
        match when {
            Some(w) => format!("{w} · {} · {}", self.role, self.text),
            None => format!("{} · {}", self.role, self.text),
        }
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
    let Stamp { time, date, instant } = stamp.map(parse_time).unwrap_or_default();
    let message = obj.get("message");
    let message_id = message.and_then(|m| get_str(m, "id")).map(str::to_string);

    let (role, text, kind) = match (ty, message) {
        ("user" | "assistant", Some(m)) => render_message(ty, m),
        ("user" | "assistant", None) => (ty.to_string(), String::new(), LineKind::Text),
        ("system", _) => (ty.into(), join(&[s(&obj, "subtype"), s(&obj, "content")]), LineKind::Event),
        ("progress", _) => (ty.into(), render_progress(obj.get("data")), LineKind::Event),
        ("file-history-snapshot", _) => (ty.into(), render_snapshot(&obj), LineKind::Event),
        ("queue-operation", _) => (ty.into(), join(&[s(&obj, "operation"), s(&obj, "content")]), LineKind::Event),
        ("summary", _) => (ty.into(), s(&obj, "summary").to_string(), LineKind::Event),
        ("attachment", _) => (ty.into(), render_attachment(obj.get("attachment")), LineKind::Event),
        // Unknown type (or a cut line whose `type` came after the message): a message
        // object still says who speaks.
        (_, Some(m)) if m.is_object() => {
            let role = get_str(m, "role").filter(|r| !r.is_empty()).unwrap_or(ty);
            let role = if role.is_empty() { "unknown" } else { role };
            render_message(role, m)
        }
        // A bare chat message: the line is the message.
        (_, None) if obj.get("role").is_some_and(Value::is_string) && obj.contains_key("content") => {
            let role = obj.get("role").and_then(Value::as_str).unwrap_or("unknown");
            render_message(role, &Value::Object(obj.clone()))
        }
        _ => {
            let role = if ty.is_empty() { "unknown" } else { ty };
            (role.to_string(), key_values(&obj, ENVELOPE), LineKind::Event)
        }
    };
    let mut text = one_line(&text, max_chars);
    if cut {
        text.push_str(" […]");
    }
    // The role comes from the file too: cleaned like the text, so an escape sequence in a
    // crafted `role` or `type` cannot reach the reviewer's terminal.
    let role = one_line(&role, 40);
    let role = if role.is_empty() { "unknown".to_string() } else { role };
    RenderedLine { number, time, date, instant, role, text, message_id, kind, truncated: cut }
}

/// Renders a line of a Markdown/plain-text source dated `date` (from its file name).
pub fn render_note(line: &[u8], number: usize, date: Option<Date>) -> RenderedLine {
    let text = String::from_utf8_lossy(strip_cr(line));
    RenderedLine {
        number,
        time: None,
        date,
        instant: None,
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
        instant: None,
        role: "raw".into(),
        text: one_line(&text, max_chars),
        message_id: None,
        kind: LineKind::Raw,
        truncated: false,
    }
}

/// What a line's `"timestamp"` says.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Stamp {
    /// `2026-11-01 09:14:03` as written, when it has a clock.
    pub time: Option<String>,
    /// Its date as written.
    pub date: Option<Date>,
    /// The moment it names (UTC when it has no offset), when it has a clock.
    pub instant: Option<jiff::Timestamp>,
}

/// The time, day and moment of a raw JSONL line's first `"timestamp"` value, read without
/// parsing the line (the scanner's hot path), as [`RenderedLine::time`],
/// [`RenderedLine::date`] and [`RenderedLine::instant`] show them.
pub fn line_stamp(raw: &[u8]) -> Stamp {
    let key = b"\"timestamp\"";
    let Some(at) = memchr::memmem::find(raw, key).map(|i| i + key.len()) else { return Stamp::default() };
    // `"timestamp":"…"`, also with spaces around the colon (Python's json.dumps writes
    // `": "`).
    let at = skip_ws(raw, at);
    if raw.get(at) != Some(&b':') {
        return Stamp::default();
    }
    let mut at = skip_ws(raw, at + 1);
    if raw.get(at) != Some(&b'"') {
        return Stamp::default();
    }
    at += 1;
    let value = raw.get(at..raw.len().min(at + 40)).unwrap_or(&[]);
    let value = value.get(..memchr::memchr(b'"', value).unwrap_or(value.len())).unwrap_or(&[]);
    std::str::from_utf8(value).map_or_else(|_| Stamp::default(), parse_time)
}

/// `2026-11-01T09:14:03.112Z` → (`2026-11-01 09:14:03`, 2026-11-01, that moment).
fn parse_time(stamp: &str) -> Stamp {
    let date = Date::parse_iso_prefix(stamp);
    let b = stamp.as_bytes();
    let clock = b.get(10).is_some_and(|&c| c == b'T' || c == b' ')
        && b.get(11..19).is_some_and(|t| {
            t.iter().enumerate().all(|(i, c)| if i == 2 || i == 5 { *c == b':' } else { c.is_ascii_digit() })
        });
    let time = match (date, clock, stamp.get(11..19)) {
        (Some(d), true, Some(t)) => Some(format!("{d} {t}")),
        _ => None,
    };
    let instant = if time.is_some() { crate::base::zone::parse_instant(stamp) } else { None };
    Stamp { time, date, instant }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_stamp_reads_what_rendering_shows() {
        let line = br#"{"type":"user","timestamp":"2026-11-01T09:14:03.112Z","message":{"content":"hi"}}"#;
        let r = render_jsonl(line, 1);
        let s = line_stamp(line);
        assert_eq!((s.time.clone(), s.date, s.instant), (r.time.clone(), r.date, r.instant));
        assert_eq!(r.time.as_deref(), Some("2026-11-01 09:14:03"));
        assert_eq!(r.instant.map(|i| i.to_string()).as_deref(), Some("2026-11-01T09:14:03.112Z"));
        // A date without a clock gives the day only; no timestamp gives nothing.
        let day_only = line_stamp(br#"{"timestamp":"2026-11-01"}"#);
        assert_eq!((day_only.time, day_only.date, day_only.instant), (None, Date::new(2026, 11, 1), None));
        assert_eq!(line_stamp(br#"{"type":"user"}"#), Stamp::default());
        // Spaces around the colon, as Python's json.dumps writes them.
        let spaced = line_stamp(br#"{"type": "user", "timestamp": "2026-03-04T09:10:00.000Z"}"#);
        assert_eq!((spaced.time.as_deref(), spaced.date), (Some("2026-03-04 09:10:00"), Date::new(2026, 3, 4)));
        assert!(spaced.instant.is_some());
        assert_eq!(line_stamp(br#"{"timestamp": 5}"#), Stamp::default());
        // A clock that is no time of day: shown as written, no moment, no panic.
        let odd = line_stamp(br#"{"timestamp":"2026-03-04T99:99:99Z"}"#);
        assert_eq!((odd.date, odd.instant), (Date::new(2026, 3, 4), None));
    }
}
