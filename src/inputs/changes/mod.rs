//! CHANGES.md: entries, the notes they name, their citations and quoted snippets.
//!
//! A dream's change log is written by a model, so it is free-form: bullet lists, numbered
//! lists, plain lines, tables, headings naming a note, nested bullets, English, Japanese,
//! Korean or Chinese. [`parse`] turns it into [`ChangeEntry`]s; [`inline_citations`] and
//! [`structure_spans`] handle the sources OpenClaw writes inline in the notes themselves.

pub mod citation;
pub mod file_mentions;
mod inline;
pub mod line_mentions;
pub mod line_numbers;
mod notes;
mod refs;

use serde::Serialize;

pub use citation::Citation;
pub use line_numbers::BadLines;

use crate::base::date::Date;

pub use inline::{inline_citations, structure_spans};
pub use notes::{normalise_note, snippets};

/// One change described in CHANGES.md: a list item (with its continuation lines) or a
/// non-empty line that is not a heading.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ChangeEntry {
    /// Position among the entries, 1-based.
    pub index: usize,
    /// Line of CHANGES.md where the entry starts, 1-based.
    pub line: usize,
    /// The entry's text without its list marker; continuation lines are joined by a space.
    pub text: String,
    /// Notes it names, relative to the memory folder (`testing.md`, `people/alice.md`).
    /// An entry naming none inherits those of the item it is nested under, else of the
    /// heading above it (`## testing.md`).
    pub notes: Vec<String>,
    /// The evidence it cites, in order of position.
    pub citations: Vec<Citation>,
    /// Text it quotes (`"…"`, `“…”`, `「…」`, `'…'`).
    pub snippets: Vec<String>,
}

/// All citations in a piece of free text (used for entries; exposed for callers that meet
/// citations elsewhere, e.g. a commit message).
pub fn citations_in(text: &str) -> Vec<Citation> {
    refs::find_refs(text, None).citations
}

/// Byte ranges of `text` that are references to evidence (source file names, line
/// references such as `line 3`, `#L3-L5`, `3行目`): skip claims inside them when checking
/// what an entry's own text claims.
pub fn reference_spans(text: &str) -> Vec<std::ops::Range<usize>> {
    refs::find_spans(text)
}

/// The date a dated Markdown source is named by (`memory/2026-06-02.md`,
/// `2026-06-02-1406.md` → 2026-06-02); its lines are dated by it, as transcript lines are
/// by their timestamps.
pub fn dated_source(file: &str) -> Option<Date> {
    if !file_mentions::is_dated_markdown(file) {
        return None;
    }
    let base = file.rsplit(['/', '\\']).next()?;
    Date::parse_iso_prefix(base)
}

/// A physical line in the middle of parsing: what it contributes.
struct Raw {
    line: usize,
    text: String,
    indent: usize,
    parent: Option<usize>,
    heading: Option<usize>,
    list_item: bool,
}

/// Notes and source file named by a heading, inherited by the entries below it.
struct Heading {
    notes: Vec<String>,
    file: Option<String>,
}

/// Parses CHANGES.md into entries. Never fails: each list item and each other non-empty
/// line is an entry; indented lines continue the entry above; nested list items are
/// entries of their own that inherit their parent's notes and (for bare `L3`) file.
/// Skipped: headings (`# …`, and a line that is only a bold span such as `**deploy.md**`,
/// which names the notes of the entries below it), rules, table separator and header
/// rows (other rows are entries), code fences and their content, HTML comments, YAML
/// frontmatter.
pub fn parse(text: &str) -> Vec<ChangeEntry> {
    let lines: Vec<&str> = text.split('\n').collect();
    let mut raws: Vec<Raw> = Vec::new();
    let mut headings: Vec<Heading> = Vec::new();
    let mut stack: Vec<(usize, usize)> = Vec::new(); // (indent, raw index) of open list items
    let mut current: Option<usize> = None;
    let mut fence: Option<char> = None;
    let mut in_comment = false;
    let mut in_frontmatter = lines.first().is_some_and(|l| l.trim() == "---");
    for (n, physical) in lines.iter().enumerate() {
        let line_no = n + 1;
        let line = physical.strip_suffix('\r').unwrap_or(physical);
        let trimmed = line.trim();
        if in_frontmatter {
            if n > 0 && (trimmed == "---" || trimmed == "...") {
                in_frontmatter = false;
            }
            continue;
        }
        if let Some(f) = fence {
            if trimmed.starts_with(&format!("{f}{f}{f}")) {
                fence = None;
            }
            continue;
        }
        if trimmed.starts_with("```") || trimmed.starts_with("~~~") {
            fence = trimmed.chars().next();
            continue;
        }
        if in_comment {
            if trimmed.contains("-->") {
                in_comment = false;
            }
            continue;
        }
        if trimmed.starts_with("<!--") {
            in_comment = !trimmed.contains("-->");
            if in_comment || trimmed.ends_with("-->") {
                continue;
            }
        }
        if trimmed.is_empty() {
            continue;
        }
        let (quote_stripped, indent) = strip_quote(line);
        let body = quote_stripped.trim();
        if body.is_empty() || is_rule(body) || is_table_separator(body) {
            continue;
        }
        if let Some(h) = heading_text(body) {
            headings.push(heading_context(h));
            stack.clear();
            current = None;
            continue;
        }
        if body.starts_with('|') && next_is_table_separator(&lines, n) {
            continue;
        }
        let heading = headings.len().checked_sub(1);
        if let Some((_, rest)) = list_item(body) {
            while stack.last().is_some_and(|(i, _)| *i >= indent) {
                stack.pop();
            }
            let parent = stack.last().map(|(_, r)| *r);
            let rest = strip_checkbox(rest).trim();
            if rest.is_empty() {
                continue;
            }
            raws.push(Raw { line: line_no, text: rest.to_string(), indent, parent, heading, list_item: true });
            stack.push((indent, raws.len() - 1));
            current = Some(raws.len() - 1);
            continue;
        }
        let continuation =
            current.and_then(|c| raws.get(c)).is_some_and(|r| indent > r.indent || (indent > 0 && !r.list_item));
        if continuation && let Some(r) = current.and_then(|c| raws.get_mut(c)) {
            r.text.push(' ');
            r.text.push_str(table_text(body));
            continue;
        }
        stack.clear();
        raws.push(Raw {
            line: line_no,
            text: table_text(body).to_string(),
            indent,
            parent: None,
            heading,
            list_item: false,
        });
        current = Some(raws.len() - 1);
    }
    build_entries(&raws, &headings)
}

fn build_entries(raws: &[Raw], headings: &[Heading]) -> Vec<ChangeEntry> {
    let mut entries: Vec<ChangeEntry> = Vec::new();
    let mut last_files: Vec<Option<String>> = Vec::new();
    for (i, raw) in raws.iter().enumerate() {
        let heading = raw.heading.and_then(|h| headings.get(h));
        let context_file = match raw.parent {
            Some(p) => last_files.get(p).cloned().flatten(),
            None => heading.and_then(|h| h.file.clone()),
        };
        let found = refs::find_refs(&raw.text, context_file.as_deref());
        let mut notes: Vec<String> = Vec::new();
        for r in &found.notes {
            if let Some(n) = raw.text.get(r.clone()).and_then(normalise_note)
                && !notes.contains(&n)
            {
                notes.push(n);
            }
        }
        if notes.is_empty() {
            notes = match raw.parent {
                Some(p) => entries.get(p).map(|e| e.notes.clone()).unwrap_or_default(),
                None => heading.map(|h| h.notes.clone()).unwrap_or_default(),
            };
        } else if raw.parent.is_none()
            && let Some(h) = heading
        {
            // `## MEMORY.md` / "- Indexed a.md and b.md": the entry is about the heading's
            // note as well as the ones it names.
            for n in h.notes.iter().rev() {
                if !notes.contains(n) {
                    notes.insert(0, n.clone());
                }
            }
        }
        last_files.push(found.last_file.clone().or(context_file));
        entries.push(ChangeEntry {
            index: i + 1,
            line: raw.line,
            text: raw.text.clone(),
            notes,
            citations: found.citations,
            snippets: snippets(&raw.text),
        });
    }
    entries
}

/// Strips blockquote markers; returns the rest and its indentation width (tab = 4).
fn strip_quote(line: &str) -> (&str, usize) {
    let mut rest = line;
    loop {
        let t = rest.trim_start();
        match t.strip_prefix('>') {
            Some(r) => rest = r.strip_prefix(' ').unwrap_or(r),
            None => break,
        }
    }
    let indent = rest.chars().take_while(|c| *c == ' ' || *c == '\t').map(|c| if c == '\t' { 4 } else { 1 }).sum();
    (rest, indent)
}

fn is_rule(body: &str) -> bool {
    let chars: Vec<char> = body.chars().filter(|c| !c.is_whitespace()).collect();
    let first = chars.first().copied();
    chars.len() >= 3 && chars.iter().all(|c| Some(*c) == first) && matches!(first, Some('-' | '*' | '_' | '='))
}

fn is_table_separator(body: &str) -> bool {
    body.contains('-') && body.contains('|') && body.chars().all(|c| matches!(c, '|' | '-' | ':' | ' ' | '\t'))
}

fn next_is_table_separator(lines: &[&str], n: usize) -> bool {
    lines.iter().skip(n + 1).find(|l| !l.trim().is_empty()).is_some_and(|l| is_table_separator(l.trim()))
}

/// A table row's text: the cells joined by ` | ` without the outer pipes.
fn table_text(body: &str) -> &str {
    if body.starts_with('|') { body.trim_matches('|').trim() } else { body }
}

/// `# Heading` text, or a line that is nothing but one bold span (`**testing.md**`).
fn heading_text(body: &str) -> Option<&str> {
    let hashes = body.bytes().take_while(|b| *b == b'#').count();
    if (1..=6).contains(&hashes) {
        let rest = body.get(hashes..)?;
        if rest.is_empty() || rest.starts_with([' ', '\t']) {
            return Some(rest.trim().trim_end_matches('#').trim());
        }
    }
    for m in ["**", "__"] {
        if let Some(inner) = body.strip_prefix(m).and_then(|r| r.strip_suffix(m)) {
            let inner = inner.trim_end_matches(':');
            if !inner.contains(m) && !inner.trim().is_empty() {
                return Some(inner.trim());
            }
        }
        if let Some(inner) = body.strip_prefix(m).and_then(|r| r.strip_suffix(&format!("{m}:")[..]))
            && !inner.contains(m)
            && !inner.trim().is_empty()
        {
            return Some(inner.trim());
        }
    }
    None
}

fn heading_context(text: &str) -> Heading {
    let found = refs::find_refs(text, None);
    let mut notes = Vec::new();
    for r in &found.notes {
        if let Some(n) = text.get(r.clone()).and_then(normalise_note)
            && !notes.contains(&n)
        {
            notes.push(n);
        }
    }
    Heading { notes, file: found.last_file }
}

/// A list item: marker (`-`, `*`, `+`, `•`, `1.`, `1)`) followed by whitespace or the end.
/// Returns the marker's length and the item's text.
fn list_item(body: &str) -> Option<(usize, &str)> {
    let first = body.chars().next()?;
    let marker_len = if matches!(first, '-' | '*' | '+' | '•' | '・') {
        first.len_utf8()
    } else {
        let digits = body.bytes().take_while(u8::is_ascii_digit).count();
        if digits == 0 || digits > 9 || !matches!(body.as_bytes().get(digits), Some(b'.' | b')')) {
            return None;
        }
        digits + 1
    };
    let rest = body.get(marker_len..)?;
    if rest.is_empty() {
        return Some((marker_len, rest));
    }
    if !rest.starts_with([' ', '\t']) {
        return None;
    }
    Some((marker_len, rest))
}

fn strip_checkbox(rest: &str) -> &str {
    let t = rest.trim_start();
    for b in ["[ ]", "[x]", "[X]"] {
        if let Some(r) = t.strip_prefix(b) {
            return r;
        }
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markers() {
        assert_eq!(list_item("- a"), Some((1, " a")));
        assert_eq!(list_item("12. a"), Some((3, " a")));
        assert_eq!(list_item("3) a"), Some((2, " a")));
        assert_eq!(list_item("-a"), None);
        assert_eq!(list_item("2026-11-01 x"), None);
        assert_eq!(list_item("**bold**"), None);
    }

    #[test]
    fn headings_and_rules() {
        assert_eq!(heading_text("## memory/testing.md"), Some("memory/testing.md"));
        assert_eq!(heading_text("**testing.md**"), Some("testing.md"));
        assert_eq!(heading_text("**Changes:**"), Some("Changes"));
        assert_eq!(heading_text("#hashtag"), None);
        assert!(is_rule("---") && is_rule("* * *") && !is_rule("--"));
        assert!(is_table_separator("|---|:--:|") && !is_table_separator("| a | b |"));
    }

    #[test]
    fn dated_sources() {
        assert_eq!(dated_source("memory/2026-06-02-1406.md"), Date::new(2026, 6, 2));
        assert_eq!(dated_source("testing.md"), None);
    }
}
