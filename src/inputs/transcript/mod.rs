//! Claude Code JSONL transcripts and Markdown sources: reading, rendering, scanning.
//!
//! The pieces, in the order provenance uses them:
//!
//! - [`SourceSet`] finds the source files (session transcripts, sub-agent transcripts,
//!   OpenClaw daily notes, `--sources` folders) and resolves how a CHANGES.md citation
//!   names one of them ([`SourceSet::find`]).
//! - [`Transcript`] opens one source without loading it whole: it indexes line offsets
//!   by streaming, then fetches physical line N (1-based, what CHANGES.md cites) by
//!   offset. Lines longer than [`MAX_LINE_BYTES`] come back truncated and marked.
//! - [`render_jsonl`] / [`render_note`] turn a line into a [`RenderedLine`]
//!   (`time · role · text`) for the evidence pane; they never fail.
//! - [`said_text`] is what a line *says* (message text, tool inputs, tool results),
//!   without the JSON envelope, without thinking, and without what tools add to the text
//!   they show (line-number gutters, grep prefixes, diff markers, progress bars, JSON
//!   escaping): the only text claims are matched against.
//! - [`Transcript::message_span`] and [`Transcript::context`] treat one API response
//!   split over several physical lines (sharing `message.id`) as one message;
//!   [`Transcript::exchange`] ties a tool call to its result (and a slash command to its
//!   output), [`Transcript::answer`] reads what answered a message ([`Turn`], [`Speaker`]).
//! - [`scan`] looks for many needles in all sources in one bounded-memory parallel pass,
//!   keeping only hits whose line really says the needle; [`scan_with`] adds progress,
//!   cancellation and a per-source hit limit ([`ScanOptions`]); [`scan_lines`] lets the
//!   caller judge each line once, with all its needles, and stop looking for a needle in
//!   the rest of a file.
//! - [`index`] keeps, under the user's cache directory, which blocks of each JSONL
//!   transcript may say what (hashed grams, no text); when a scan is given its folder ([`ScanOptions::index`]),
//!   a scan reads only the blocks that can hold a needle, with the same hits.
//!   [`scan_lines_keyed`] takes, per needle, the keys a caller that knows its claims can
//!   require (`analysis::claims::keys_of`).
//!
//! Secrets: this module does not mask anything. Every piece of transcript text meant for
//! the screen is in [`RenderedLine::text`] or [`ContextEntry`]'s `text`/`rendered`; the
//! callers mask it there (`crate::base::secrets::mask`).

mod context;
mod deep;
mod file;
pub mod index;
mod json;
mod partial;
mod render;
mod said;
mod scan;
mod source;
mod text;
mod turns;
mod typed;
mod unsaid;

pub use context::{ContextEntry, SPAN_WINDOW, context_entries};
pub use file::{Line, MAX_LINE_BYTES, Transcript};
pub use render::{LineKind, RenderedLine, Stamp, line_stamp, render_jsonl, render_jsonl_with_limit, render_note};
pub use said::{said_text, said_text_in};
pub use scan::{
    CHUNK_BYTES, Hit, LineHit, NeedleKeys, ScanOptions, ScanProgress, ScanReport, Verdict, Verifier, VerifyLine,
    WithExhausted, scan, scan_lines, scan_lines_keyed, scan_patterns, scan_with, substring_keys,
};
pub use source::{SourceFile, SourceKind, SourceSet, date_from_file_name};
pub use turns::{ANSWER_WINDOW, Answer, Speaker, Spoken, ToolResult, Turn, turn_of};
pub use typed::{ReadCall, SessionWords, TypedTurn, read_session, read_session_naming};
