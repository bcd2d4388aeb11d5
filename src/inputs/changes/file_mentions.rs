//! File mentions in free text: a transcript (`abc.jsonl`, `<uuid>/subagents/agent-x.jsonl`),
//! a bare session id (a UUID), or a Markdown file (`memory/2026-06-02.md`, `testing.md`),
//! names inside a URL left out.

use std::ops::Range;
use std::sync::LazyLock;

use regex::Regex;

use crate::base::ranges::Taken;

/// What sort of file a mention names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum FileKind {
    /// A `.jsonl` transcript.
    Jsonl,
    /// A bare session id (UUID) naming `<uuid>.jsonl`.
    SessionId,
    /// A bare sub-agent id (`agent-a1b2c3`) naming `agent-a1b2c3.jsonl` under some
    /// session's `subagents/`; a citation only when a line reference follows it, so prose
    /// such as "agent-based" or a passing mention never becomes an unresolvable source.
    AgentId,
    /// A Markdown file (a note, or a source when date-named or followed by a line ref).
    Markdown,
}

/// A file named in the text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct FileMention {
    /// Byte range of the name as written.
    pub range: Range<usize>,
    /// What it is.
    pub kind: FileKind,
}

/// Characters that end a file name when walking back from its extension.
pub(super) fn is_name_delim(c: char) -> bool {
    c.is_whitespace() || c.is_control() || "`\"'()[]<>{}|,;:=*#@!?（）「」『』、，；：。！？“”‘’".contains(c)
}

/// Walks back from `ext_start` over file-name characters. CJK letters are taken only
/// when the file name itself is CJK (`テスト.md`), not when prose is glued to a path.
pub(super) fn name_start(text: &str, ext_start: usize) -> usize {
    let head = text.get(..ext_start).unwrap_or("");
    let mut start = ext_start;
    for (i, c) in head.char_indices().rev() {
        if is_name_delim(c) || crate::base::text::is_cjk(c) {
            break;
        }
        start = i;
    }
    if start == ext_start {
        for (i, c) in head.char_indices().rev() {
            if is_name_delim(c) {
                break;
            }
            start = i;
        }
    }
    start
}

/// Files named in `text`: transcripts, session ids and Markdown files, in order.
pub(crate) fn file_mentions(text: &str) -> Vec<FileMention> {
    let lower = text.to_ascii_lowercase();
    let mut out: Vec<FileMention> = Vec::new();
    let mut taken = Taken::default();
    for (ext, kind) in [(".jsonl", FileKind::Jsonl), (".md", FileKind::Markdown)] {
        for (i, _) in lower.match_indices(ext) {
            let end = i + ext.len();
            if text.get(end..).and_then(|r| r.chars().next()).is_some_and(|c| c.is_ascii_alphanumeric() || c == '_') {
                continue;
            }
            let start = name_start(text, i);
            let name = text.get(start..i).unwrap_or("");
            if name.trim_matches(['.', '/', '\\', '~']).is_empty() || name.contains("//") {
                continue;
            }
            taken.insert(&(start..end));
            out.push(FileMention { range: start..end, kind });
        }
    }
    if let Some(re) = &*UUID {
        for m in re.find_iter(text) {
            let before = text.get(..m.start()).and_then(|s| s.chars().next_back());
            let after = text.get(m.end()..).and_then(|s| s.chars().next());
            let clean_left = !before.is_some_and(|c| c.is_ascii_alphanumeric() || "-_/.\\".contains(c));
            let after2 = text.get(m.end()..).and_then(|s| s.chars().nth(1));
            let clean_right = match after {
                None => true,
                Some('.') => !after2.is_some_and(|c| c.is_ascii_alphanumeric()),
                Some(c) => !(c.is_ascii_alphanumeric() || "-_/\\".contains(c)),
            };
            if clean_left && clean_right && !taken.overlaps(&m.range()) {
                taken.insert(&m.range());
                out.push(FileMention { range: m.range(), kind: FileKind::SessionId });
            }
        }
    }
    if let Some(re) = &*AGENT_ID {
        for m in re.find_iter(text) {
            let before = text.get(..m.start()).and_then(|s| s.chars().next_back());
            let after = text.get(m.end()..).and_then(|s| s.chars().next());
            let clean_left = !before.is_some_and(|c| c.is_ascii_alphanumeric() || "-_/.\\".contains(c));
            let clean_right = !after.is_some_and(|c| c.is_ascii_alphanumeric() || "-_/\\".contains(c))
                && !text.get(m.end()..).is_some_and(|r| r.to_ascii_lowercase().starts_with(".jsonl"));
            let id = m.as_str().get("agent-".len()..).unwrap_or("");
            let id_like = id.len() >= 5 && id.bytes().any(|b| b.is_ascii_digit());
            if clean_left && clean_right && id_like && !taken.overlaps(&m.range()) {
                taken.insert(&m.range());
                out.push(FileMention { range: m.range(), kind: FileKind::AgentId });
            }
        }
    }
    out.sort_by_key(|f| f.range.start);
    // A URL is not a file mention.
    let mut urls = InUrl::default();
    out.retain(|f| !urls.ends_a_url(text, &f.range));
    out
}

/// Whether a name lies in a URL: its whitespace-delimited token holds `://` up to the
/// name's end. Asked in order of position, the text is read once whatever the number of
/// names (a token without spaces may hold thousands).
#[derive(Default)]
pub(super) struct InUrl {
    /// How far the text has been read.
    read: usize,
    /// Where the token being read starts.
    token: usize,
    /// A `://` starts at or after `token`, before `read`.
    seen: bool,
}

impl InUrl {
    fn ends_a_url(&mut self, text: &str, name: &Range<usize>) -> bool {
        let upto = name.start.max(self.read);
        for (i, c) in text.get(self.read..upto).unwrap_or("").char_indices() {
            if c.is_whitespace() {
                self.token = self.read + i + c.len_utf8();
                self.seen = false;
            } else if c == ':' && text.get(self.read + i..).is_some_and(|r| r.starts_with("://")) {
                self.seen = true;
            }
        }
        self.read = upto;
        // A `://` straddling the name's start, or inside the name.
        let mut from = name.start.saturating_sub(2).max(self.token);
        while !text.is_char_boundary(from) {
            from += 1;
        }
        self.seen || text.get(from..name.end).is_some_and(|t| t.contains("://"))
    }
}

pub(super) static UUID: LazyLock<Option<Regex>> =
    LazyLock::new(|| Regex::new(r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}").ok());

pub(super) static AGENT_ID: LazyLock<Option<Regex>> =
    LazyLock::new(|| Regex::new(r"agent-[0-9A-Za-z][0-9A-Za-z_-]*").ok());

/// Is this file name a dated daily note (`2026-06-02.md`, `2026-06-02-1406.md`)?
pub(crate) fn is_dated_markdown(name: &str) -> bool {
    let base = name.rsplit(['/', '\\']).next().unwrap_or(name);
    let b = base.as_bytes();
    b.len() >= 13
        && b.iter().take(4).all(u8::is_ascii_digit)
        && b.get(4) == Some(&b'-')
        && b.get(5..7).is_some_and(|x| x.iter().all(u8::is_ascii_digit))
        && b.get(7) == Some(&b'-')
        && b.get(8..10).is_some_and(|x| x.iter().all(u8::is_ascii_digit))
        && matches!(b.get(10), Some(b'.' | b'-' | b'_'))
}
