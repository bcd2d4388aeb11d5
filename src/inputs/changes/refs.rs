//! File and line references in free text, and how they pair up into [`Citation`]s.
//!
//! A *file mention* is a transcript (`abc.jsonl`, `<uuid>/subagents/agent-x.jsonl`), a bare
//! session id (a UUID), or a Markdown file (`memory/2026-06-02.md`, `testing.md`). A *line
//! mention* is `:3`, `:3-5`, `#L3-L5` right after a file, or anywhere: `line 3`,
//! `lines 3-5`, `lines 3, 7`, `L3`, `3行目`, `3〜5行目`, `第3行`, `3번째 줄`, `3행`.
//! Each line mention belongs to the previous source file of the text (else the only one,
//! else the next one, else the caller's default).

use std::ops::Range;
use std::sync::LazyLock;

use regex::Regex;

use super::citation::Citation;
use super::line_numbers::{self, BadLines};
use crate::base::ranges::{Ranges, Taken};

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

/// A line reference: byte range and the (start, end) spans it names (inclusive, 1-based),
/// each checked ([`line_numbers::span`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct LineMention {
    pub range: Range<usize>,
    pub spans: Vec<Result<(usize, usize), BadLines>>,
}

/// Citations and the Markdown mentions left over as notes.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Refs {
    /// Citations in order of position.
    pub citations: Vec<Citation>,
    /// Markdown files named without a line reference and not date-named: notes.
    pub notes: Vec<Range<usize>>,
    /// The last source file named (for entries nested under this one).
    pub last_file: Option<String>,
    /// Byte ranges of the source files and line references (not of notes), sorted.
    pub spans: Vec<Range<usize>>,
}

/// Characters that end a file name when walking back from its extension.
fn is_name_delim(c: char) -> bool {
    c.is_whitespace() || c.is_control() || "`\"'()[]<>{}|,;:=*#@!?（）「」『』、，；：。！？“”‘’".contains(c)
}

/// Walks back from `ext_start` over file-name characters. CJK letters are taken only
/// when the file name itself is CJK (`テスト.md`), not when prose is glued to a path.
fn name_start(text: &str, ext_start: usize) -> usize {
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
struct InUrl {
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

/// Of items listed in order of position, which is the last (highest index) to end at or
/// before a position, in log time; items may overlap, so ends need not be sorted.
struct LastBefore {
    /// (end, index) sorted by end.
    by_end: Vec<(usize, usize)>,
    /// The highest index among the first k+1 of `by_end`.
    best: Vec<usize>,
}

impl LastBefore {
    fn new(ends: Vec<usize>) -> LastBefore {
        let mut by_end: Vec<(usize, usize)> = ends.into_iter().enumerate().map(|(i, e)| (e, i)).collect();
        by_end.sort_unstable();
        let best = by_end
            .iter()
            .scan(None, |m: &mut Option<usize>, &(_, i)| {
                *m = Some(m.map_or(i, |m| m.max(i)));
                *m
            })
            .collect();
        LastBefore { by_end, best }
    }

    fn last_ending_by(&self, at: usize) -> Option<usize> {
        let k = self.by_end.partition_point(|&(e, _)| e <= at);
        k.checked_sub(1).and_then(|k| self.best.get(k).copied())
    }
}

/// Ranges asked whether one lies wholly within `from..to`, in log time.
struct FirstEnd {
    /// Starts, sorted.
    starts: Vec<usize>,
    /// The smallest end among the ranges from the k-th start on.
    min_end: Vec<usize>,
}

impl FirstEnd {
    fn new(mut ranges: Vec<Range<usize>>) -> FirstEnd {
        ranges.sort_by_key(|r| r.start);
        let mut min_end: Vec<usize> = ranges.iter().rev().map(|r| r.end).collect();
        for k in 1..min_end.len() {
            min_end[k] = min_end[k].min(min_end[k - 1]);
        }
        min_end.reverse();
        FirstEnd { starts: ranges.iter().map(|r| r.start).collect(), min_end }
    }

    fn some_within(&self, from: usize, to: usize) -> bool {
        let k = self.starts.partition_point(|&s| s < from);
        self.min_end.get(k).is_some_and(|&e| e <= to)
    }
}

static UUID: LazyLock<Option<Regex>> =
    LazyLock::new(|| Regex::new(r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}").ok());

static AGENT_ID: LazyLock<Option<Regex>> = LazyLock::new(|| Regex::new(r"agent-[0-9A-Za-z][0-9A-Za-z_-]*").ok());

const N: &str = "[0-9０-９]+";
const RANGE_SEP: &str = r"\s*(?:-|–|—|~|〜|～|\.\.|to\s|through\s)\s*";

static EN_LINES: LazyLock<Option<Regex>> = LazyLock::new(|| {
    Regex::new(&format!(
        r"(?i)\b(?:lines?|ll?\.)\s*(?P<list>{N}(?:{RANGE_SEP}{N})?(?:\s*(?:,|、|\band\b|&)\s*{N}(?:{RANGE_SEP}{N})?)*)"
    ))
    .ok()
});
static L_FORM: LazyLock<Option<Regex>> =
    LazyLock::new(|| Regex::new(&format!(r"\bL(?P<list>{N}(?:\s*[-–]\s*L?{N})?)\b")).ok());
static CJK_LINES: LazyLock<Option<Regex>> = LazyLock::new(|| {
    Regex::new(&format!(
        r"(?:第\s*(?P<zh>{N}(?:{RANGE_SEP}{N}|\s*[至到]\s*{N})?)\s*行|(?P<ja>{N}(?:{RANGE_SEP}{N})?)\s*行目|(?P<ko>{N}(?:{RANGE_SEP}{N})?)\s*(?:번째\s*)?(?:줄|행))"
    ))
    .ok()
});
static NUM: LazyLock<Option<Regex>> = LazyLock::new(|| Regex::new(N).ok());

/// Splits a list such as `3-5, 7 and 9` into spans. A list item is one number or a range
/// of two; numbers are paired by the separators between them.
/// What may stand between the two ends of a line range (lowercase, trimmed, without the
/// `L` of `L5`).
const RANGE_WORDS: &[&str] = &["-", "–", "—", "~", "〜", "～", "..", "to", "through", "至", "到"];

fn parse_list(list: &str) -> Vec<Result<(usize, usize), BadLines>> {
    let Some(num) = &*NUM else { return Vec::new() };
    let nums: Vec<(Range<usize>, &str)> = num.find_iter(list).map(|m| (m.range(), m.as_str())).collect();
    let mut out = Vec::new();
    let mut i = 0;
    while let Some((r, a)) = nums.get(i) {
        let next = nums.get(i + 1);
        // Two numbers form a range when only a range separator stands between them
        // (`3-5`, `3–L5`, `3 to 5`, `3〜5`, `3至5`); anything else (`,`, `and`) lists them.
        let is_range = next.is_some_and(|(r2, _)| {
            let gap = list.get(r.end..r2.start).unwrap_or("").to_lowercase();
            let gap = gap.trim().trim_end_matches('l').trim();
            RANGE_WORDS.contains(&gap)
        });
        match (is_range, next) {
            (true, Some((_, b))) => {
                out.push(line_numbers::span(a, Some(b)));
                i += 2;
            }
            _ => {
                out.push(line_numbers::span(a, None));
                i += 1;
            }
        }
    }
    // Mostly one span, held per line mention: an entry can have 160,000 of them.
    out.shrink_to_fit();
    out
}

/// Line references anywhere in the text (not the `:3` / `#L3` forms glued to a file).
fn free_line_mentions(text: &str) -> Vec<LineMention> {
    let mut out: Vec<LineMention> = Vec::new();
    let mut taken = Taken::default();
    for re in [&*EN_LINES, &*L_FORM, &*CJK_LINES].into_iter().flatten() {
        for c in re.captures_iter(text) {
            let Some(m) = c.get(0) else { continue };
            let list = ["list", "zh", "ja", "ko"].iter().find_map(|g| c.name(g));
            let Some(list) = list else { continue };
            let spans = parse_list(list.as_str());
            if !spans.is_empty() && !taken.overlaps(&m.range()) {
                taken.insert(&m.range());
                out.push(LineMention { range: m.range(), spans });
            }
        }
    }
    out
}

/// A line reference glued to the end of a file name: `:3`, `:3-5`, `:L3`, `:3,7`,
/// `#L3`, `#L3-L5`, `#3`.
pub(crate) fn attached_line_mention(text: &str, file_end: usize) -> Option<LineMention> {
    let rest = text.get(file_end..)?;
    let (prefix_len, allow_list) = if rest.starts_with("#L") || rest.starts_with("#l") {
        (2, false)
    } else if rest.starts_with(":L") || rest.starts_with(":l") {
        (2, true)
    } else if rest.starts_with(':') || rest.starts_with('#') {
        (1, true)
    } else {
        return None;
    };
    let body = rest.get(prefix_len..)?;
    // `:-1`: a negative number cites no line (never the whole file).
    if let Some(digits) = body.strip_prefix('-') {
        let n = digits.bytes().take_while(u8::is_ascii_digit).count();
        if n > 0 {
            let written = format!("-{}", &digits[..n]);
            let range = file_end..file_end + prefix_len + written.len();
            return Some(LineMention { range, spans: vec![Err(BadLines::Negative { written })] });
        }
    }
    let mut len = 0;
    let mut chars = body.char_indices().peekable();
    // number [sep [L] number] ([,] number [sep number])*
    let mut expect_number = true;
    while let Some(&(i, c)) = chars.peek() {
        if c.is_ascii_digit() {
            len = i + 1;
            expect_number = false;
            chars.next();
        } else if !expect_number && matches!(c, '-' | '–') {
            expect_number = true;
            chars.next();
            if matches!(chars.peek(), Some((_, 'L' | 'l'))) {
                chars.next();
            }
        } else if !expect_number && c == ',' && allow_list {
            expect_number = true;
            chars.next();
        } else {
            break;
        }
    }
    if len == 0 {
        return None;
    }
    let list = body.get(..len)?;
    let spans = parse_list(list);
    (!spans.is_empty()).then(|| LineMention { range: file_end..file_end + prefix_len + len, spans })
}

/// True when `gap` (text between a file name and a line reference) only joins them:
/// spaces, `(`, `,`, `:`, `の`, `at`, `on`.
fn is_connector(gap: &str) -> bool {
    let mut g = gap.trim().to_string();
    for w in ["(", "（", ",", "、", ":", "：", "の", "—", "-", "@"] {
        g = g.replace(w, " ");
    }
    g.split_whitespace().all(|w| matches!(w.to_ascii_lowercase().as_str(), "at" | "on"))
}

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

/// Finds the citations of `text`. `default_file` is used for line references when the
/// text names no source file (an entry nested under one that does).
pub(crate) fn find_refs(text: &str, default_file: Option<&str>) -> Refs {
    let mentions = Mentions::find(text);
    Refs {
        citations: mentions.citations(default_file),
        notes: mentions.notes(),
        last_file: mentions.last_file(),
        spans: mentions.spans(),
    }
}

/// [`Refs::spans`] of `text` alone: the mentions are found and paired, but no citation is
/// built (an entry of 160,000 citations would hold ~60 MB of them only to drop them).
pub(crate) fn find_spans(text: &str) -> Vec<Range<usize>> {
    Mentions::find(text).spans()
}

/// The file and line mentions of a text, each line mention paired with the file it is
/// glued or joined to, and which files are sources.
struct Mentions<'t> {
    text: &'t str,
    files: Vec<FileMention>,
    /// Attached line mentions first (in file order), then free ones (in text order).
    lines: Vec<LineMention>,
    /// The file each line mention is attached to, by index into `files`.
    attached_to: Vec<Option<usize>>,
    /// Indexes into `files` of the sources (transcripts, session ids, dated notes,
    /// Markdown with a line reference), in order.
    source_idx: Vec<usize>,
    /// Per file: whether it is a source.
    is_source: Vec<bool>,
}

impl<'t> Mentions<'t> {
    fn find(text: &'t str) -> Mentions<'t> {
        let files = file_mentions(text);
        let mut lines: Vec<LineMention> = Vec::new();
        let mut attached_to: Vec<Option<usize>> = Vec::new();
        for (fi, f) in files.iter().enumerate() {
            if let Some(lm) = attached_line_mention(text, f.range.end) {
                lines.push(lm);
                attached_to.push(Some(fi));
            }
        }
        // Every question below about what lies before or after a mention is answered by a
        // binary search: an entry with n citations costs n log n.
        let file_ranges = Ranges::new(files.iter().map(|f| f.range.clone()).collect());
        let mut taken = Taken::default();
        for lm in &lines {
            taken.insert(&lm.range);
        }
        for lm in free_line_mentions(text) {
            if !file_ranges.overlaps(&lm.range) && !taken.overlaps(&lm.range) {
                taken.insert(&lm.range);
                lines.push(lm);
                attached_to.push(None);
            }
        }
        attach_following(text, &files, &lines, &mut attached_to);
        // Which files are sources: transcripts, session ids, dated notes, Markdown with a line ref.
        let mut has_lines = vec![false; files.len()];
        for fi in attached_to.iter().flatten() {
            if let Some(h) = has_lines.get_mut(*fi) {
                *h = true;
            }
        }
        let is_source: Vec<bool> = files
            .iter()
            .enumerate()
            .map(|(fi, f)| match f.kind {
                FileKind::Jsonl | FileKind::SessionId => true,
                FileKind::AgentId => has_lines[fi],
                FileKind::Markdown => {
                    let name = text.get(f.range.clone()).unwrap_or("");
                    is_dated_markdown(name) || has_lines[fi]
                }
            })
            .collect();
        let source_idx: Vec<usize> = (0..files.len()).filter(|i| is_source.get(*i) == Some(&true)).collect();
        Mentions { text, files, lines, attached_to, source_idx, is_source }
    }

    fn name_of(&self, fi: usize) -> Option<String> {
        self.files.get(fi).and_then(|f| self.text.get(f.range.clone())).map(str::to_string)
    }

    /// One citation per span of each line mention (by the file it is attached to, else
    /// the source before it, else the only or next one, else `default_file`), and one
    /// for each source cited by no line, in order of position.
    fn citations(&self, default_file: Option<&str>) -> Vec<Citation> {
        let (text, files, lines, source_idx) = (self.text, &self.files, &self.lines, &self.source_idx);
        let sources_before = LastBefore::new(source_idx.iter().map(|&i| files[i].range.end).collect());
        let mut order: Vec<usize> = (0..lines.len()).collect();
        order.sort_by_key(|i| lines.get(*i).map(|l| l.range.start));
        let mut cited = vec![false; files.len()];
        let spans = lines.iter().map(|l| l.spans.len()).sum::<usize>();
        let mut citations: Vec<(usize, Citation)> = Vec::with_capacity(spans + source_idx.len());
        for li in order {
            let Some(lm) = lines.get(li) else { continue };
            let owner = match self.attached_to.get(li).copied().flatten() {
                Some(fi) => Some(fi),
                None => {
                    let before = sources_before.last_ending_by(lm.range.start).and_then(|k| source_idx.get(k));
                    let first_after = source_idx.partition_point(|&i| files[i].range.start < lm.range.end);
                    let after = source_idx.get(first_after);
                    before.or(if source_idx.len() == 1 { source_idx.first() } else { after }).copied()
                }
            };
            let attached = self.attached_to.get(li).copied().flatten().is_some();
            let (file, raw_range) = match owner {
                Some(fi) => {
                    if let Some(c) = cited.get_mut(fi) {
                        *c = true;
                    }
                    let fr = files.get(fi).map(|f| f.range.clone()).unwrap_or(0..0);
                    let mut raw = if attached { fr.start..lm.range.end } else { lm.range.clone() };
                    // Keep the closing parenthesis of `abc.jsonl (lines 3-5)` (the gap is read
                    // only when attached: an owner found far before is no neighbour).
                    let gap = if attached { text.get(fr.end..lm.range.start).unwrap_or("") } else { "" };
                    let closer = text.get(lm.range.end..).and_then(|r| r.chars().next());
                    if attached
                        && gap.contains(['(', '（'])
                        && let Some(c @ (')' | '）')) = closer
                    {
                        raw.end += c.len_utf8();
                    }
                    (self.name_of(fi), raw)
                }
                None => (default_file.map(str::to_string), lm.range.clone()),
            };
            let raw = text.get(raw_range.clone()).unwrap_or("").to_string();
            for span in &lm.spans {
                let (start, end, bad) = match span {
                    Ok((a, b)) => (Some(*a), Some(*b), None),
                    Err(bad) => (None, None, Some(bad.clone())),
                };
                citations.push((raw_range.start, Citation { raw: raw.clone(), file: file.clone(), start, end, bad }));
            }
        }
        for fi in source_idx {
            if cited.get(*fi) == Some(&false)
                && let Some(f) = files.get(*fi)
            {
                let name = text.get(f.range.clone()).unwrap_or("").to_string();
                citations.push((
                    f.range.start,
                    Citation { raw: name.clone(), file: Some(name), start: None, end: None, bad: None },
                ));
            }
        }
        citations.sort_by_key(|(pos, _)| *pos);
        let mut citations: Vec<Citation> = citations.into_iter().map(|(_, c)| c).collect();
        // Collected in place: without this the list would keep its pairs' larger size.
        citations.shrink_to_fit();
        citations
    }

    /// Markdown files named without a line reference and not date-named: notes.
    fn notes(&self) -> Vec<Range<usize>> {
        self.files
            .iter()
            .enumerate()
            .filter(|(i, f)| f.kind == FileKind::Markdown && self.is_source.get(*i) == Some(&false))
            .map(|(_, f)| f.range.clone())
            .collect()
    }

    /// The last source file named.
    fn last_file(&self) -> Option<String> {
        self.source_idx.last().and_then(|i| self.name_of(*i))
    }

    /// Byte ranges of the source files and line references, sorted by start.
    fn spans(&self) -> Vec<Range<usize>> {
        let mut spans: Vec<Range<usize>> = self
            .source_idx
            .iter()
            .filter_map(|i| self.files.get(*i).map(|f| f.range.clone()))
            .chain(self.lines.iter().map(|l| l.range.clone()))
            .collect();
        spans.sort_by_key(|r| r.start);
        spans
    }
}

/// Attaches a free line reference right after a file (only connectors between) to it.
fn attach_following(text: &str, files: &[FileMention], lines: &[LineMention], attached_to: &mut [Option<usize>]) {
    let all_files = LastBefore::new(files.iter().map(|f| f.range.end).collect());
    let between = FirstEnd::new(lines.iter().map(|l| l.range.clone()).collect());
    for (li, lm) in lines.iter().enumerate() {
        if attached_to.get(li).copied().flatten().is_some() {
            continue;
        }
        let prev = all_files.last_ending_by(lm.range.start).and_then(|fi| files.get(fi).map(|f| (fi, f)));
        if let Some((fi, f)) = prev {
            let gap = text.get(f.range.end..lm.range.start).unwrap_or("x");
            let nothing_between = !between.some_within(f.range.end, lm.range.start);
            // A note name is only a citation when the line reference follows it closely
            // (`testing.md line 4`, `testing.md (L4)`), not after a colon (`testing.md: L4`).
            let joined = match f.kind {
                FileKind::Markdown => gap.chars().all(|c| c.is_whitespace() || "(（の".contains(c)),
                _ => is_connector(gap),
            };
            if nothing_between
                && joined
                && let Some(slot) = attached_to.get_mut(li)
            {
                *slot = Some(fi);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cites(text: &str) -> Vec<(Option<String>, Option<usize>, Option<usize>)> {
        find_refs(text, None).citations.into_iter().map(|c| (c.file, c.start, c.end)).collect()
    }

    fn c(f: &str, a: usize, b: usize) -> (Option<String>, Option<usize>, Option<usize>) {
        (Some(f.to_string()), Some(a), Some(b))
    }

    #[test]
    fn regexes_compile() {
        assert!(
            UUID.is_some()
                && AGENT_ID.is_some()
                && EN_LINES.is_some()
                && L_FORM.is_some()
                && CJK_LINES.is_some()
                && NUM.is_some()
        );
    }

    #[test]
    fn lists() {
        assert_eq!(parse_list("3"), vec![Ok((3, 3))]);
        assert_eq!(parse_list("3-5"), vec![Ok((3, 5))]);
        assert_eq!(parse_list("3, 7"), vec![Ok((3, 3)), Ok((7, 7))]);
        assert_eq!(parse_list("3–5 and 9"), vec![Ok((3, 5)), Ok((9, 9))]);
        assert_eq!(parse_list("5 to 3"), vec![Ok((3, 5))]);
        assert_eq!(parse_list("3-L5"), vec![Ok((3, 5))]);
    }

    #[test]
    fn forms() {
        assert_eq!(cites("a.jsonl:3"), vec![c("a.jsonl", 3, 3)]);
        assert_eq!(cites("a.jsonl:3-5"), vec![c("a.jsonl", 3, 5)]);
        assert_eq!(cites("a.jsonl#L3-L5"), vec![c("a.jsonl", 3, 5)]);
        assert_eq!(cites("(a.jsonl lines 3, 7)"), vec![c("a.jsonl", 3, 3), c("a.jsonl", 7, 7)]);
        assert_eq!(cites("a.jsonl の3行目"), vec![c("a.jsonl", 3, 3)]);
        assert_eq!(cites("see L4 in a.jsonl"), vec![c("a.jsonl", 4, 4)]);
        assert_eq!(cites("a.jsonl"), vec![(Some("a.jsonl".into()), None, None)]);
        assert_eq!(cites("line 9"), vec![(None, Some(9), Some(9))]);
        assert_eq!(cites("x.jsonl:99999999999999999999999"), vec![(Some("x.jsonl".into()), None, None)]);
    }

    #[test]
    fn prose_glued_to_a_file_name_is_not_part_of_it_in_any_cjk_script() {
        // Half-width katakana is Japanese prose too (`crate::base::text::is_cjk`).
        assert_eq!(cites("ﾒﾓa.jsonl:3"), vec![c("a.jsonl", 3, 3)]);
        assert_eq!(cites("メモa.jsonl:3"), vec![c("a.jsonl", 3, 3)]);
        // A name that is CJK through and through is still one name.
        assert_eq!(cites("ﾃｽﾄ.jsonl:3"), vec![c("ﾃｽﾄ.jsonl", 3, 3)]);
    }

    #[test]
    fn dated_markdown() {
        assert!(is_dated_markdown("memory/2026-06-02.md"));
        assert!(is_dated_markdown("2026-06-02-1406.md"));
        assert!(!is_dated_markdown("testing.md"));
        assert!(!is_dated_markdown("2026-06.md"));
    }
}
