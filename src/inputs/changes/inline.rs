//! Inline sources in note lines (OpenClaw promotions) and the metadata spans that are
//! structure, not claims.
//!
//! OpenClaw's deep dreaming phase appends to MEMORY.md:
//!
//! ```text
//! ## Promoted From Short-Term Memory (2026-06-02)
//!
//! <!-- openclaw-memory-promotion:memory:memory/2026-06-02-1406.md:14:17 -->
//! - <snippet> [score=0.877 recalls=0 avg=0.620 source=memory/2026-06-02-1406.md:14-17]
//! ```
//!
//! and consolidation writes `- <fact> Source: memory/2026-06-02.md#L3-L5`.

use std::ops::Range;
use std::sync::LazyLock;

use regex::Regex;

use super::citation::Citation;
use super::file_mentions::file_mentions;
use super::line_mentions::attached_line_mention;
use super::refs::find_refs;

static PROMOTED_HEADING: LazyLock<Option<Regex>> =
    LazyLock::new(|| Regex::new(r"(?i)^\s{0,3}#{1,6}\s+promoted\s+from\s+short-term\s+memory\b").ok());
static META_BRACKET: LazyLock<Option<Regex>> =
    LazyLock::new(|| Regex::new(r"\[[^\[\]\n]*\b(?:score|source|recalls|avg)=[^\[\]\n]*\]").ok());
static SOURCE_LABEL: LazyLock<Option<Regex>> = LazyLock::new(|| Regex::new(r"(?i)\b(?:sources?|src)\s*[:：]\s*").ok());
const PROMOTION_PREFIX: &str = "openclaw-memory-promotion:";

/// A `Source: …` tail: the whole span and the part holding the references.
struct SourceTail {
    span: Range<usize>,
    refs: Range<usize>,
}

/// `Source:` labels followed by at least one file reference (`memory/2026-06-02.md#L3-L5`,
/// `a.md, b.md`, `abc.jsonl:3`). The span takes an enclosing `(…)` along.
fn source_tails(line: &str) -> Vec<SourceTail> {
    let Some(re) = &*SOURCE_LABEL else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for m in re.find_iter(line) {
        let rest_start = m.end();
        let rest = line.get(rest_start..).unwrap_or("");
        // References run until the first word that is neither a file nor a separator.
        let files = file_mentions(rest);
        let mut pos = 0;
        let mut last_end = None;
        for f in &files {
            let gap = rest.get(pos..f.range.start).unwrap_or("x");
            if !gap.chars().all(|c| c.is_whitespace() || ",、;&".contains(c)) && !gap.trim().eq_ignore_ascii_case("and")
            {
                break;
            }
            let end = attached_line_mention(rest, f.range.end).map_or(f.range.end, |l| l.range.end);
            last_end = Some(end);
            pos = end;
        }
        let Some(end) = last_end else { continue };
        let mut span = m.start()..rest_start + end;
        let before = line.get(..m.start()).and_then(|s| s.trim_end().chars().next_back());
        if let Some(opener @ ('(' | '（')) = before {
            // Byte offset of the opening parenthesis itself (it may be multi-byte).
            let open = line.get(..m.start()).map(|s| s.trim_end().len()).unwrap_or(0).saturating_sub(opener.len_utf8());
            let after = line.get(span.end..).unwrap_or("");
            let close = after.trim_start();
            if close.starts_with([')', '）']) {
                let skipped = after.len() - close.len();
                let ch = close.chars().next().map_or(1, char::len_utf8);
                span = open..span.end + skipped + ch;
            }
        }
        out.push(SourceTail { span, refs: rest_start..rest_start + end });
    }
    out
}

/// HTML comments (`<!-- … -->`, an unclosed one runs to the end of the line).
fn html_comments(line: &str) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(i) = line.get(from..).and_then(|s| s.find("<!--")) {
        let start = from + i;
        let end = match line.get(start + 4..).and_then(|s| s.find("-->")) {
            Some(j) => start + 4 + j + 3,
            None => line.trim_end_matches(['\r', '\n']).len().max(start + 4),
        };
        out.push(start..end);
        from = end;
    }
    out
}

/// Byte ranges of `line` that are metadata, not claims: a `## Promoted From Short-Term
/// Memory (…)` heading (the whole line), `[score=… source=…]` brackets, `Source: …` tails,
/// and HTML comments (`<!-- openclaw-memory-promotion:… -->`). Sorted and merged.
pub fn structure_spans(line: &str) -> Vec<Range<usize>> {
    let content_len = line.trim_end_matches(['\r', '\n']).len();
    if PROMOTED_HEADING.as_ref().is_some_and(|re| re.is_match(line)) {
        let whole_line = 0..content_len;
        return vec![whole_line];
    }
    let mut spans = html_comments(line);
    if let Some(re) = &*META_BRACKET {
        spans.extend(re.find_iter(line).map(|m| m.range()));
    }
    spans.extend(source_tails(line).into_iter().map(|t| t.span));
    spans.retain(|r| r.start < r.end);
    spans.sort_by_key(|r| r.start);
    let mut merged: Vec<Range<usize>> = Vec::new();
    for r in spans {
        match merged.last_mut() {
            Some(last) if r.start <= last.end => last.end = last.end.max(r.end),
            _ => merged.push(r),
        }
    }
    merged
}

/// Citations written inline in a note line: the `source=` of an OpenClaw promotion bracket,
/// a `Source: …` tail, and the path and lines of an `<!-- openclaw-memory-promotion:… -->`
/// comment (which repeats the bracket of the line after it: callers may deduplicate on
/// file and lines).
pub fn inline_citations(line: &str) -> Vec<Citation> {
    let mut found: Vec<(usize, Citation)> = Vec::new();
    if let Some(re) = &*META_BRACKET {
        for m in re.find_iter(line) {
            let inner = m.as_str();
            let Some(i) = inner.find("source=") else {
                continue;
            };
            let value_start = m.start() + i + "source=".len();
            let value = line.get(value_start..m.end().saturating_sub(1)).unwrap_or("");
            let value = value.split_whitespace().next().unwrap_or("");
            for c in find_refs(value, None).citations {
                found.push((value_start, c));
            }
        }
    }
    for tail in source_tails(line) {
        let text = line.get(tail.refs.clone()).unwrap_or("");
        for c in find_refs(text, None).citations {
            found.push((tail.refs.start, c));
        }
    }
    for r in html_comments(line) {
        let body = line.get(r.clone()).unwrap_or("");
        let inner = body.trim_start_matches("<!--").trim_end_matches("-->").trim();
        if let Some(rest) = inner.strip_prefix(PROMOTION_PREFIX)
            && let Some(c) = promotion_citation(rest)
        {
            found.push((r.start, c));
        }
    }
    found.sort_by_key(|(p, _)| *p);
    found.into_iter().map(|(_, c)| c).collect()
}

/// `memory:memory/2026-08-16.md:6:9` → file `memory/2026-08-16.md`, lines 6–9.
fn promotion_citation(rest: &str) -> Option<Citation> {
    let mut parts: Vec<&str> = rest.rsplitn(3, ':').collect();
    parts.reverse();
    let (head, a, b) = match parts.as_slice() {
        [head, a, b] => (*head, *a, *b),
        _ => return None,
    };
    let start: usize = a.trim().parse().ok()?;
    let end: usize = b.trim().parse().ok()?;
    // The head is `<source kind>:<path>`; the path is what follows the first colon.
    let file = head.split_once(':').map_or(head, |(_, p)| p).trim();
    if file.is_empty() {
        return None;
    }
    Some(Citation {
        raw: rest.trim().to_string(),
        file: Some(file.to_string()),
        start: Some(start.min(end)),
        end: Some(start.max(end)),
        bad: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cite(file: &str, a: usize, b: usize) -> (Option<String>, Option<usize>, Option<usize>) {
        (Some(file.to_string()), Some(a), Some(b))
    }

    fn cites(line: &str) -> Vec<(Option<String>, Option<usize>, Option<usize>)> {
        inline_citations(line).into_iter().map(|c| (c.file, c.start, c.end)).collect()
    }

    #[test]
    fn regexes_compile() {
        assert!(PROMOTED_HEADING.is_some() && META_BRACKET.is_some() && SOURCE_LABEL.is_some());
    }

    #[test]
    fn openclaw_bracket() {
        let line = "- Uses pnpm now [score=0.877 recalls=0 avg=0.620 source=memory/2026-06-02-1406.md:14-17]\n";
        assert_eq!(cites(line), vec![cite("memory/2026-06-02-1406.md", 14, 17)]);
        let spans = structure_spans(line);
        assert_eq!(spans.len(), 1);
        assert_eq!(&line[spans[0].clone()], "[score=0.877 recalls=0 avg=0.620 source=memory/2026-06-02-1406.md:14-17]");
    }

    #[test]
    fn source_tail() {
        let line = "- Alpha deploys use green. Source: memory/2026-07-01.md#L3-L5 <!-- importance: 9 -->";
        assert_eq!(cites(line), vec![cite("memory/2026-07-01.md", 3, 5)]);
        let spans: Vec<&str> = structure_spans(line).into_iter().map(|r| &line[r]).collect();
        assert_eq!(spans, vec!["Source: memory/2026-07-01.md#L3-L5", "<!-- importance: 9 -->"]);
        let two = "Source: memory/2026-10-03.md, memory/2026-10-02-2114.md";
        assert_eq!(
            cites(two),
            vec![
                (Some("memory/2026-10-03.md".into()), None, None),
                (Some("memory/2026-10-02-2114.md".into()), None, None)
            ]
        );
        let paren = "Vision is on (Source: memory/2026-03-15-model.md) now";
        let spans: Vec<&str> = structure_spans(paren).into_iter().map(|r| &paren[r]).collect();
        assert_eq!(spans, vec!["(Source: memory/2026-03-15-model.md)"]);
        assert_eq!(structure_spans("Source: the user said so"), Vec::<Range<usize>>::new());
    }

    #[test]
    fn promotion_comment_and_heading() {
        let c = "<!-- openclaw-memory-promotion:memory:memory/2026-08-16.md:6:9 -->";
        assert_eq!(cites(c), vec![cite("memory/2026-08-16.md", 6, 9)]);
        assert_eq!(structure_spans(c), vec![0..c.len()]);
        let h = "## Promoted From Short-Term Memory (2026-06-02)\r\n";
        assert_eq!(structure_spans(h), vec![0..h.len() - 2]);
    }
}
