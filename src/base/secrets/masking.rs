//! Masking credentials: each replaced by `[<kind> …<last 4 chars>]`, in a text or in lines
//! read as one text, and the spans of each line that were masked.

use super::finding::find;
use super::kind::{Secret, SecretKind};
use super::thresholds::SHOWN_TAIL_MIN_LEN;
use super::urls;
use std::borrow::Cow;

impl Secret {
    /// This secret of `text` (the text it was found in) as it may be shown:
    /// `[<kind> …<last 4 chars>]`. Masking the value alone with [`mask`] is not enough: a
    /// value found by its key (`password: …`) is no credential without that key.
    pub fn masked(&self, text: &str) -> String {
        label(text, self, 0)
    }
}

/// `text` with every secret replaced by `[<kind> …<last 4 chars>]`. Borrowed when there is
/// nothing to mask. Idempotent: masking a masked text changes nothing.
pub fn mask(text: &str) -> Cow<'_, str> {
    mask_settling(text).0
}

/// [`mask`] of `text`, and whether the passes ended on a text with no credential left (so
/// that masking the result again returns it unchanged, and need not search it again).
fn mask_settling(text: &str) -> (Cow<'_, str>, bool) {
    let mut secrets = find(text);
    if secrets.is_empty() {
        return (Cow::Borrowed(text), true);
    }
    let mut current = replace(text, &secrets);
    // A replacement can, in theory, expose a neighbour; a few passes reach a fixed point.
    for _ in 0..4 {
        secrets = find(&current);
        if secrets.is_empty() {
            return (Cow::Owned(current), true);
        }
        current = replace(&current, &secrets);
    }
    (Cow::Owned(current), false)
}

/// A text masked as it may be shown ([`mask`]), knowing whether masking it again would
/// change nothing: [`super::Masked`] writes a settled one as it is, without searching it
/// a second time. Made only here, so `settled` is true only of a text [`find`] found no
/// credential in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shown {
    text: String,
    settled: bool,
}

impl Shown {
    /// `text` masked ([`mask`]).
    pub fn of(text: &str) -> Shown {
        let (shown, settled) = mask_settling(text);
        Shown { text: shown.into_owned(), settled }
    }

    /// The masked text.
    pub fn as_str(&self) -> &str {
        &self.text
    }

    /// The masked text, owned.
    pub fn into_string(self) -> String {
        self.text
    }

    /// True when no credential is left in it: [`mask`] returns it unchanged.
    pub(super) fn settled(&self) -> bool {
        self.settled
    }
}

/// One line of [`mask_some_lines`]: as shown, and the byte ranges of the written line a
/// credential covers with what is shown there ([`line_spans`]).
pub struct ShownLine {
    pub shown: Shown,
    pub spans: LineSpans,
}

/// [`mask_lines`] and [`line_spans`] of the lines of `lines` that `wanted` picks (by index;
/// `None` for the others), the lines read as one text all the same: the credentials are
/// found once, and a line nobody shows is not masked on its own.
pub fn mask_some_lines<S: AsRef<str>>(lines: &[S], wanted: impl Fn(usize) -> bool) -> Vec<Option<ShownLine>> {
    let (joined, secrets) = find_in_lines(lines);
    let mut start = 0;
    let mut out = Vec::with_capacity(lines.len());
    for (i, line) in lines.iter().enumerate() {
        let line = line.as_ref();
        out.push(wanted(i).then(|| {
            let (text, settled) = line_in(line, start, &joined, &secrets);
            ShownLine { shown: Shown { text, settled }, spans: spans_of(line, start, &joined, &secrets) }
        }));
        start += line.len();
    }
    out
}

/// Consecutive `lines` of one text (terminators kept), each masked as part of the whole:
/// a secret spanning lines (a PEM private key block) shows its mask on its first line and
/// `[… <kind>]` on the lines it continues over, so no line prints a piece of it. For
/// callers that show a text line by line (a hunk in `check`, the diff pane).
pub fn mask_lines<S: AsRef<str>>(lines: &[S]) -> Vec<String> {
    let (joined, secrets) = find_in_lines(lines);
    masked_in(lines, &joined, &secrets)
}

/// The byte ranges of a line a credential covers, each with what masking shows there.
pub type LineSpans = Vec<(std::ops::Range<usize>, String)>;

/// [`mask_lines`] of `lines`, whose text joined is `joined` and holds `secrets`.
pub(super) fn masked_in<S: AsRef<str>>(lines: &[S], joined: &str, secrets: &[Secret]) -> Vec<String> {
    let mut out = Vec::with_capacity(lines.len());
    let mut start = 0;
    for line in lines {
        let line = line.as_ref();
        out.push(line_in(line, start, joined, secrets).0);
        start += line.len();
    }
    out
}

/// [`masked_in`] of one `line`, starting at `start` of `joined`; and whether it settled
/// (see [`Shown`]).
fn line_in(line: &str, start: usize, joined: &str, secrets: &[Secret]) -> (String, bool) {
    let end = start + line.len();
    let body_end = start + crate::base::text::strip_terminator(line).len();
    let mut masked = String::with_capacity(line.len());
    let mut pos = start;
    for s in secrets.iter().filter(|s| s.start < body_end && s.end > start) {
        let (a, b) = (s.start.max(start), s.end.min(body_end));
        masked.push_str(joined.get(pos..a).unwrap_or(""));
        masked.push_str(&label(joined, s, start));
        pos = b;
    }
    masked.push_str(joined.get(pos..end).unwrap_or(""));
    let (shown, settled) = mask_settling(&masked);
    (shown.into_owned(), settled)
}

/// Per line of consecutive `lines` (terminators kept), the byte ranges within it that a
/// credential covers, each with what [`mask_lines`] shows there (`[anthropic-key …Z9AA]`,
/// or `[… private-key]` on the lines a secret continues over), the lines read as one text.
pub fn line_spans<S: AsRef<str>>(lines: &[S]) -> Vec<LineSpans> {
    let (joined, secrets) = find_in_lines(lines);
    spans_in(lines, &joined, &secrets)
}

/// [`line_spans`] of `lines`, whose text joined is `joined` and holds `secrets`.
pub(super) fn spans_in<S: AsRef<str>>(lines: &[S], joined: &str, secrets: &[Secret]) -> Vec<LineSpans> {
    let mut start = 0;
    let mut out = Vec::with_capacity(lines.len());
    for line in lines {
        out.push(spans_of(line.as_ref(), start, joined, secrets));
        start += line.as_ref().len();
    }
    out
}

/// [`spans_in`] of one `line`, starting at `start` of `joined`.
fn spans_of(line: &str, start: usize, joined: &str, secrets: &[Secret]) -> LineSpans {
    let end = start + line.len();
    let spans = secrets.iter().filter(|s| s.start < end && s.end > start);
    spans.map(|s| (s.start.max(start) - start..s.end.min(end) - start, label(joined, s, start))).collect()
}

/// What masking shows for secret `s` of `text` on a line starting at `line_start`.
pub(super) fn label(text: &str, s: &Secret, line_start: usize) -> String {
    if s.start >= line_start {
        let value = text.get(s.start..s.end).unwrap_or("");
        replace(value, &[Secret { kind: s.kind, start: 0, end: value.len() }])
    } else {
        format!("[… {}]", s.kind.name())
    }
}

/// `lines` joined, and the credentials in that text.
pub(super) fn find_in_lines<S: AsRef<str>>(lines: &[S]) -> (String, Vec<Secret>) {
    let joined: String = lines.iter().map(AsRef::as_ref).collect();
    let secrets = find(&joined);
    (joined, secrets)
}

pub(super) fn replace(text: &str, secrets: &[Secret]) -> String {
    let mut out = String::with_capacity(text.len());
    let mut pos = 0;
    for s in secrets {
        let (Some(before), Some(value)) = (text.get(pos..s.start), text.get(s.start..s.end)) else {
            continue;
        };
        out.push_str(before);
        out.push('[');
        out.push_str(s.kind.name());
        let tail = match s.kind {
            SecretKind::PrivateKey => pem_tail(value),
            // A URL's masked part may end in a short token (`…/catch/2085782/otichcc`):
            // its last 4 characters would be most of that token.
            SecretKind::CapabilityUrl(_) if urls::last_token_len(value) < SHOWN_TAIL_MIN_LEN => String::new(),
            _ if value.chars().count() >= SHOWN_TAIL_MIN_LEN => last_chars(value, 4),
            // The last 4 characters of a short password are most of it.
            _ => String::new(),
        };
        if !tail.is_empty() {
            out.push_str(" …");
            out.push_str(&tail);
        }
        out.push(']');
        pos = s.end;
    }
    out.push_str(text.get(pos..).unwrap_or(""));
    out
}

pub(super) fn last_chars(s: &str, n: usize) -> String {
    let chars: Vec<char> = s.chars().collect();
    chars[chars.len().saturating_sub(n)..].iter().collect()
}

/// The last 4 base64 characters of a PEM block's body (padding and escaped newlines skipped);
/// a body found without its BEGIN line starts at once.
pub(super) fn pem_tail(block: &str) -> String {
    let body_start = if block.starts_with("-----") { block.find("-----\n").map(|i| i + 6) } else { Some(0) };
    let body_start = body_start
        .or_else(|| block.find("-----\\n").map(|i| i + 7))
        .or_else(|| block.get(10..).and_then(|r| r.find("-----")).map(|i| i + 15))
        .unwrap_or(block.len());
    let body_end = block.rfind("-----END").unwrap_or(block.len());
    let body = block.get(body_start..body_end.max(body_start)).unwrap_or("");
    let mut chars: Vec<char> = Vec::new();
    let mut it = body.chars().peekable();
    while let Some(c) = it.next() {
        if c == '\\' && matches!(it.peek(), Some('n' | 'r')) {
            it.next();
            continue;
        }
        if c.is_ascii_alphanumeric() || c == '+' || c == '/' {
            chars.push(c);
        }
    }
    chars[chars.len().saturating_sub(4)..].iter().collect()
}
