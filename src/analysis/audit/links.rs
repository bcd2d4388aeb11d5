//! What an index line names: Markdown links, `[[wikilinks]]`, backticked file names and bare
//! `file.md` words, and how each resolves to a file of the folder.
//!
//! Names match whole file names: `note.md` is not named by `other_note.md` or
//! `note.md.bak`. Links and wikilinks are *links*: a missing target is dangling. Backticked
//! and bare names are *mentions*: index hooks often mention project files (`README.md`,
//! `docs/api.md`), so a missing mention is dangling only when it is the entry itself — the
//! first thing on its line after the list marker — and not an all-caps workspace file.

use serde::Serialize;

/// How a reference is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum RefKind {
    /// `[Title](file.md)`, `![alt](file.md)` or a reference definition `[id]: file.md`.
    Link,
    /// `[[name]]`, `[[name|alias]]`, `[[name#heading]]`.
    Wikilink,
    /// A file name inside a code span: `` `file.md` ``.
    Code,
    /// A bare `file.md` word.
    Bare,
}

/// One note name found on an index line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reference {
    /// 1-based line number in the index.
    pub line: usize,
    /// How it is written.
    pub kind: RefKind,
    /// The target as written, anchors and titles stripped, `%XX` decoded (for wikilinks:
    /// the name, without alias or heading).
    pub target: String,
    /// Whether it is the first thing on its line (after a list marker and emphasis).
    pub entry: bool,
}

/// The 1-based numbers of the lines of `text` inside a code block, fenced or indented, as
/// a Markdown parser (pulldown-cmark) reads it: a link or file name written there is an
/// example (`[x](missing.md)` in a fenced snippet), not a reference. A fence left open runs
/// to the end of the text, as a renderer shows it.
pub fn code_block_lines(text: &str) -> std::collections::BTreeSet<usize> {
    use pulldown_cmark::{Event, Parser, Tag};
    let mut out = std::collections::BTreeSet::new();
    if !text.contains("```") && !text.contains("~~~") && !text.contains("    ") && !text.contains('\t') {
        return out;
    }
    let line_of = |offset: usize| text.get(..offset).map_or(0, |b| b.matches('\n').count()) + 1;
    for (event, range) in Parser::new(text).into_offset_iter() {
        if let Event::Start(Tag::CodeBlock(_)) = event {
            let last = line_of(range.end.saturating_sub(1).max(range.start));
            out.extend(line_of(range.start)..=last);
        }
    }
    out
}

/// A link whose text runs over more than one line (`[Deploy\n  notes](deploy.md)`), which
/// [`references_in_line`] cannot read: found by pulldown-cmark in the whole text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SpanningLink {
    /// The 1-based lines it covers.
    pub lines: std::ops::RangeInclusive<usize>,
    /// The reference, on its first line.
    pub reference: Reference,
}

/// Every note link of `text` that spans lines (external links and non-notes left out).
pub fn spanning_links(text: &str) -> Vec<SpanningLink> {
    use pulldown_cmark::{Event, Parser, Tag};
    let mut out = Vec::new();
    if !text.contains("](") {
        return out;
    }
    let line_start = |offset: usize| text.get(..offset).and_then(|b| b.rfind('\n')).map_or(0, |i| i + 1);
    let line_of = |offset: usize| text.get(..offset).map_or(0, |b| b.matches('\n').count()) + 1;
    for (event, range) in Parser::new(text).into_offset_iter() {
        let (Event::Start(Tag::Link { dest_url, .. }) | Event::Start(Tag::Image { dest_url, .. })) = event else {
            continue;
        };
        let (first, last) = (line_of(range.start), line_of(range.end.saturating_sub(1).max(range.start)));
        let target = clean_target(&dest_url);
        if first == last || is_external(&target) || !ends_with_md(&target) {
            continue;
        }
        let from = line_start(range.start);
        let line = text.get(from..).and_then(|l| l.lines().next()).unwrap_or("");
        let entry = range.start - from == entry_start(line);
        let reference = Reference { line: first, kind: RefKind::Link, target, entry };
        out.push(SpanningLink { lines: first..=last, reference });
    }
    out
}

/// Whether a character may be part of a bare file name (CJK letters included).
fn is_path_char(c: char) -> bool {
    c.is_alphanumeric() || matches!(c, '_' | '-' | '.' | '/' | '+' | '~' | '%' | '@')
}

fn ends_with_md(s: &str) -> bool {
    s.len() > 3 && s.get(s.len() - 3..).is_some_and(|e| e.eq_ignore_ascii_case(".md"))
}

/// Byte offset where an entry's content starts: after indentation, a list marker
/// (`-`, `*`, `+`, `1.`, `1)`), a task box and emphasis markers.
fn entry_start(line: &str) -> usize {
    let mut rest = line.trim_start();
    let marker_end = {
        let b = rest.as_bytes();
        let digits = b.iter().take_while(|c| c.is_ascii_digit()).count();
        match b.first() {
            Some(b'-' | b'*' | b'+') if b.get(1).is_some_and(|c| *c == b' ' || *c == b'\t') => 1,
            _ if digits > 0
                && matches!(b.get(digits), Some(b'.' | b')'))
                && b.get(digits + 1).is_some_and(|c| *c == b' ') =>
            {
                digits + 1
            }
            _ => 0,
        }
    };
    rest = rest.get(marker_end..).unwrap_or("").trim_start();
    for task in ["[ ] ", "[x] ", "[X] "] {
        if let Some(r) = rest.strip_prefix(task) {
            rest = r.trim_start();
        }
    }
    rest = rest.trim_start_matches(['*', '_']);
    line.len() - rest.len()
}

/// Blanks `range` of `s` with spaces (same byte length, so offsets stay valid).
fn blank(s: &mut String, start: usize, end: usize) {
    if let Some(part) = s.get(start..end) {
        let spaces = " ".repeat(part.len());
        s.replace_range(start..end, &spaces);
    }
}

/// Decodes `%XX` escapes; returns the input when the result is not UTF-8.
pub fn percent_decode(s: &str) -> String {
    if !s.contains('%') {
        return s.to_string();
    }
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while let Some(&c) = b.get(i) {
        let hex = |j: usize| b.get(j).and_then(|d| (*d as char).to_digit(16));
        if c == b'%'
            && let (Some(h), Some(l)) = (hex(i + 1), hex(i + 2))
        {
            out.push((h * 16 + l) as u8);
            i += 3;
            continue;
        }
        out.push(c);
        i += 1;
    }
    String::from_utf8(out).unwrap_or_else(|_| s.to_string())
}

/// Whether a link target points outside the folder's files (a URL, mail, absolute path).
fn is_external(target: &str) -> bool {
    if target.starts_with("//") || target.starts_with('/') || target.starts_with('~') {
        return true;
    }
    match target.find(':') {
        Some(i) => {
            let scheme = target.get(..i).unwrap_or("");
            scheme.len() >= 2 && scheme.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'))
        }
        None => false,
    }
}

/// A link target without `<>`, title, anchor and query, percent-decoded.
fn clean_target(raw: &str) -> String {
    let raw = raw.trim();
    let t = if let Some(inner) = raw.strip_prefix('<') {
        inner.split('>').next().unwrap_or("")
    } else {
        raw.split([' ', '\t']).next().unwrap_or("")
    };
    let t = t.split(['#', '?']).next().unwrap_or("");
    percent_decode(t)
}

/// Every note name on one index line.
pub fn references_in_line(number: usize, line: &str) -> Vec<Reference> {
    let entry_at = entry_start(line);
    let mut refs = Vec::new();
    let mut rest = line.to_string();
    let mut push = |kind, target: String, at: Option<usize>| {
        if !target.is_empty() {
            refs.push(Reference { line: number, kind, target, entry: at == Some(entry_at) });
        }
    };

    // [[wikilinks]]
    let mut from = 0;
    while let Some(open) = rest.get(from..).and_then(|r| r.find("[[")).map(|o| o + from) {
        let Some(close) = rest.get(open + 2..).and_then(|r| r.find("]]")) else {
            break;
        };
        let close = open + 2 + close;
        let inner = rest.get(open + 2..close).unwrap_or("");
        let name = inner.split(['|', '#']).next().unwrap_or("").trim();
        let name = name.strip_suffix(".md").unwrap_or(name).to_string();
        push(RefKind::Wikilink, name, Some(open));
        blank(&mut rest, open, close + 2);
        from = close + 2;
    }

    // Reference definition: `[id]: target`.
    let trimmed = rest.trim_start();
    if trimmed.starts_with('[')
        && let Some(close) = trimmed.find("]:")
    {
        let at = rest.len() - trimmed.len();
        let target = clean_target(trimmed.get(close + 2..).unwrap_or(""));
        if !is_external(&target) && ends_with_md(&target) {
            push(RefKind::Link, target, Some(at));
        }
        let len = rest.len();
        blank(&mut rest, at, len);
    }

    // [Title](target) and ![alt](target)
    let mut from = 0;
    while let Some(mid) = rest.get(from..).and_then(|r| r.find("](")).map(|m| m + from) {
        let Some(open) = rest.get(..mid).and_then(|r| r.rfind('[')) else {
            from = mid + 2;
            continue;
        };
        let mut depth = 0usize;
        let mut close = None;
        for (i, c) in rest.get(mid + 2..).unwrap_or("").char_indices() {
            match c {
                '(' => depth += 1,
                ')' if depth == 0 => {
                    close = Some(mid + 2 + i);
                    break;
                }
                ')' => depth -= 1,
                _ => {}
            }
        }
        let Some(close) = close else {
            break;
        };
        let start = if open > 0 && rest.as_bytes().get(open - 1) == Some(&b'!') { open - 1 } else { open };
        let target = clean_target(rest.get(mid + 2..close).unwrap_or(""));
        if !is_external(&target) && ends_with_md(&target) {
            push(RefKind::Link, target, Some(start));
        }
        blank(&mut rest, start, close + 1);
        from = close + 1;
    }

    // `code spans`
    let mut from = 0;
    while let Some(open) = rest.get(from..).and_then(|r| r.find('`')).map(|o| o + from) {
        let ticks = rest.get(open..).unwrap_or("").bytes().take_while(|&c| c == b'`').count();
        let fence = "`".repeat(ticks);
        let body_start = open + ticks;
        let Some(close) = rest.get(body_start..).and_then(|r| r.find(&fence)) else {
            break;
        };
        let close = body_start + close;
        let inner = rest.get(body_start..close).unwrap_or("").trim();
        if ends_with_md(inner) && !inner.contains(char::is_whitespace) {
            push(RefKind::Code, inner.to_string(), Some(open));
        } else {
            for (_, word) in bare_words(inner) {
                push(RefKind::Code, word, None);
            }
        }
        blank(&mut rest, open, close + ticks);
        from = close + ticks;
    }

    // URLs are not notes.
    let mut from = 0;
    while let Some(sep) = rest.get(from..).and_then(|r| r.find("://")).map(|s| s + from) {
        let start = rest
            .get(..sep)
            .unwrap_or("")
            .rfind(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.')))
            .map_or(0, |p| p + 1);
        let end = rest.get(sep..).unwrap_or("").find(char::is_whitespace).map_or(rest.len(), |e| sep + e);
        blank(&mut rest, start, end);
        from = end;
    }

    for (at, word) in bare_words(&rest) {
        push(RefKind::Bare, word, Some(at));
    }
    refs
}

/// Bare `*.md` words of `s` with their byte offsets; trailing sentence dots are dropped.
fn bare_words(s: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut start: Option<usize> = None;
    let mut flush = |from: usize, to: usize| {
        let word = s.get(from..to).unwrap_or("").trim_end_matches('.');
        if ends_with_md(word) {
            out.push((from, word.to_string()));
        }
    };
    for (i, c) in s.char_indices() {
        match (is_path_char(c), start) {
            (true, None) => start = Some(i),
            (false, Some(st)) => {
                flush(st, i);
                start = None;
            }
            _ => {}
        }
    }
    if let Some(st) = start {
        flush(st, s.len());
    }
    out
}

/// Joins `target` to the index directory `dir` ("" for the root), resolving `.` and `..`.
/// `None` when it leaves the folder or is absolute.
pub fn normalize(dir: &str, target: &str) -> Option<String> {
    if target.starts_with('/') || target.starts_with('~') || target.contains('\\') {
        return None;
    }
    let mut parts: Vec<&str> = dir.split('/').filter(|p| !p.is_empty()).collect();
    for comp in target.split('/') {
        match comp {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            c => parts.push(c),
        }
    }
    (!parts.is_empty()).then(|| parts.join("/"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn code_block_lines_fenced_indented_and_unclosed() {
        let text = "a\n```\n[x](y.md)\n```\nb\n\n    code\n\n~~~\nopen to the end\n";
        let lines: Vec<usize> = code_block_lines(text).into_iter().collect();
        assert_eq!(lines, [2, 3, 4, 7, 9, 10]);
        assert!(code_block_lines("- [a](a.md)\n  - [b](b.md)\n").is_empty());
    }

    fn refs(line: &str) -> Vec<(RefKind, String, bool)> {
        references_in_line(1, line).into_iter().map(|r| (r.kind, r.target, r.entry)).collect()
    }

    #[test]
    fn markdown_links_with_anchor_dot_slash_and_encoded_spaces() {
        assert_eq!(
            refs("- [Testing](./testing.md#setup \"title\") — and [N](sub/my%20note.md)"),
            vec![(RefKind::Link, "./testing.md".into(), true), (RefKind::Link, "sub/my note.md".into(), false),]
        );
    }

    #[test]
    fn external_links_and_non_md_targets_are_skipped() {
        assert_eq!(refs("- [Docs](https://example.com/guide.md) [img](diagram.png) see https://x.io/a.md"), vec![]);
    }

    #[test]
    fn wikilinks_code_and_bare_words() {
        assert_eq!(
            refs("- [[deploy-flow|Deploy]] uses `testing.md`, then notes.md. Not other_note.md.bak"),
            vec![
                (RefKind::Wikilink, "deploy-flow".into(), true),
                (RefKind::Code, "testing.md".into(), false),
                (RefKind::Bare, "notes.md".into(), false),
            ]
        );
    }

    #[test]
    fn entry_position_after_marker_and_emphasis() {
        assert_eq!(refs("1. **`old.md`** — gone"), vec![(RefKind::Code, "old.md".into(), true)]);
        assert_eq!(refs("* [ ] stale.md: check"), vec![(RefKind::Bare, "stale.md".into(), true)]);
    }

    #[test]
    fn cjk_file_names_and_punctuation() {
        assert_eq!(
            refs("- テスト手順は「テスト.md」、배포는 배포.md。"),
            vec![(RefKind::Bare, "テスト.md".into(), false), (RefKind::Bare, "배포.md".into(), false),]
        );
    }

    #[test]
    fn reference_definition() {
        assert_eq!(refs("[t]: testing.md"), vec![(RefKind::Link, "testing.md".into(), true)]);
        assert_eq!(refs("[logo]: logo.png"), vec![]);
        assert_eq!(refs("[docs]: <https://example.com/a.md>"), vec![]);
    }

    #[test]
    fn normalize_paths() {
        assert_eq!(normalize("", "./a.md"), Some("a.md".into()));
        assert_eq!(normalize("team", "../a.md"), Some("a.md".into()));
        assert_eq!(normalize("", "../a.md"), None);
        assert_eq!(normalize("", "/etc/a.md"), None);
        assert_eq!(normalize("", "sub/./b.md"), Some("sub/b.md".into()));
    }

    #[test]
    fn percent_decoding() {
        assert_eq!(percent_decode("my%20note.md"), "my note.md");
        assert_eq!(percent_decode("%E3%83%86.md"), "テ.md");
        assert_eq!(percent_decode("100%"), "100%");
        assert_eq!(percent_decode("%FF"), "%FF");
    }
}
