//! Messages split over lines, and the lines around a citation.
//!
//! Claude Code writes one API response as several physical lines (one per content block:
//! text, thinking, each tool call) that share `message.id`. Claim matching treats such a
//! run as one message ([`Transcript::message_span`], [`Transcript::message_said_text`]),
//! and the evidence pane shows it as one entry ([`Transcript::context`]), always keeping
//! the physical line numbers that CHANGES.md cites.
//!
//! A span is the run of *adjacent* lines sharing the id, looked for within
//! [`SPAN_WINDOW`] lines either side: any other line in between (a hook `progress`
//! record, a tool result) ends it. Tool calls of one response separated by their results
//! are therefore separate spans; each keeps its own evidence.

use std::ops::RangeInclusive;

use anyhow::Result;
use serde::Deserialize;
use serde_json::Value;

use super::file::Transcript;
use super::json::parse_object;
use super::render::{LineKind, RenderedLine, strongest};
use super::source::SourceKind;

/// How far (in lines, each way) a message span is looked for.
pub const SPAN_WINDOW: usize = 64;

/// How much of each neighbouring line is read to learn its `message.id`, which Claude
/// Code writes near the start of the line.
const ID_PREFIX_BYTES: usize = 64 << 10;

/// One entry of the evidence pane: a line, or several adjacent lines of one message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ContextEntry {
    /// The physical lines it covers (1-based, inclusive).
    pub lines: RangeInclusive<usize>,
    /// Time of its first line (`2026-11-01 09:14:03`), or the note's date.
    pub time: Option<String>,
    /// Role of its first line.
    pub role: String,
    /// The lines' texts joined with ` | ` (empty parts left out).
    pub text: String,
    /// `time · role · text`.
    pub rendered: String,
    /// What sort of entry it is (the strongest kind among its lines).
    pub kind: LineKind,
    /// Whether it covers a cited line.
    pub cited: bool,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct IdOnly {
    message: Option<Value>,
}

/// `message.id` of a JSONL line (cut lines included), if it has one.
fn message_id(bytes: &[u8]) -> Option<String> {
    let (env, _) = parse_object::<IdOnly>(bytes)?;
    let id = env.message?.get("id")?.as_str()?.to_string();
    (!id.is_empty()).then_some(id)
}

impl Transcript {
    /// The run of adjacent lines around line `n` sharing its `message.id` (at most
    /// [`SPAN_WINDOW`] lines each way). `n..=n` for a line without an id, a Markdown
    /// source, or a line that does not exist.
    pub fn message_span(&self, n: usize) -> Result<RangeInclusive<usize>> {
        if self.kind() != SourceKind::Jsonl || n == 0 || n > self.line_count() {
            return Ok(n..=n);
        }
        let mut file = self.open_file()?;
        let mut id_of = |line: usize| -> Result<Option<String>> {
            let l = self.read_line_from(&mut file, line, ID_PREFIX_BYTES)?;
            Ok(message_id(&l.bytes))
        };
        let Some(id) = id_of(n)? else {
            return Ok(n..=n);
        };
        let lo = n.saturating_sub(SPAN_WINDOW).max(1);
        let hi = n.saturating_add(SPAN_WINDOW).min(self.line_count());
        let mut first = n;
        while first > lo && id_of(first - 1)?.as_deref() == Some(id.as_str()) {
            first -= 1;
        }
        let mut last = n;
        while last < hi && id_of(last + 1)?.as_deref() == Some(id.as_str()) {
            last += 1;
        }
        Ok(first..=last)
    }

    /// What the whole message containing line `n` says: the said text of every line of
    /// [`Transcript::message_span`], joined by newlines. Empty when `n` does not exist.
    pub fn message_said_text(&self, n: usize) -> Result<String> {
        let span = self.message_span(n)?;
        let lines = self.lines(span)?;
        let parts: Vec<String> = lines.iter().map(|l| self.said_text_of(l)).filter(|t| !t.is_empty()).collect();
        Ok(parts.join("\n"))
    }

    /// The lines within `radius` of line `n` for the evidence pane, adjacent lines of one
    /// message merged into one entry; the entry holding `n` is `cited`.
    pub fn context(&self, n: usize, radius: usize) -> Result<Vec<ContextEntry>> {
        self.context_range(n..=n, radius)
    }

    /// Like [`Transcript::context`] for a cited range of lines (`lines 3-5`): `radius`
    /// lines either side of it; entries overlapping the range are `cited`.
    pub fn context_range(&self, cited: RangeInclusive<usize>, radius: usize) -> Result<Vec<ContextEntry>> {
        let lo = cited.start().saturating_sub(radius).max(1);
        let hi = cited.end().saturating_add(radius);
        let rendered: Vec<RenderedLine> = self.lines(lo..=hi)?.iter().map(|l| self.render_line(l)).collect();
        Ok(context_entries(&rendered, &cited))
    }
}

/// The evidence pane's entries for lines already rendered (in line order): adjacent lines
/// of one message merged into one entry; entries overlapping `cited` are `cited`.
pub fn context_entries(rendered: &[RenderedLine], cited: &RangeInclusive<usize>) -> Vec<ContextEntry> {
    let mut entries: Vec<(ContextEntry, Option<&str>)> = Vec::new();
    for r in rendered {
        let is_cited = cited.contains(&r.number);
        if let Some((last, last_id)) = entries.last_mut()
            && r.message_id.is_some()
            && *last_id == r.message_id.as_deref()
            && *last.lines.end() + 1 == r.number
        {
            last.lines = *last.lines.start()..=r.number;
            if !r.text.trim().is_empty() {
                if !last.text.is_empty() {
                    last.text.push_str(" | ");
                }
                last.text.push_str(&r.text);
            }
            last.kind = strongest(last.kind, r.kind);
            last.cited |= is_cited;
            continue;
        }
        let time = r.time.clone().or_else(|| r.date.map(|d| d.to_string()));
        let entry = ContextEntry {
            lines: r.number..=r.number,
            time,
            role: r.role.clone(),
            text: r.text.clone(),
            rendered: String::new(),
            kind: r.kind,
            cited: is_cited,
        };
        entries.push((entry, r.message_id.as_deref()));
    }
    entries
        .into_iter()
        .map(|(mut e, _)| {
            e.rendered = match &e.time {
                Some(t) => format!("{t} · {} · {}", e.role, e.text),
                None => format!("{} · {}", e.role, e.text),
            };
            e
        })
        .collect()
}
