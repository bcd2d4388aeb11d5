//! URLs (with a scheme, e-mail addresses, bare domains) and file system paths in a line.

use std::ops::Range;
use std::sync::LazyLock;

use regex::Regex;

use super::ClaimKind;
use super::text::{char_at, char_before, is_cjk, is_word_char, overlap};
use super::words::{EXTENSIONS, PATH_ROOTS};

static URL: LazyLock<Option<Regex>> =
    LazyLock::new(|| Regex::new(r#"(?i)\b(?:https?|ftp|file|ssh|git|wss?)://[^\s<>"'`\]）」』]+"#).ok());
static EMAIL: LazyLock<Option<Regex>> =
    LazyLock::new(|| Regex::new(r"[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}").ok());
static DOMAIN: LazyLock<Option<Regex>> = LazyLock::new(|| {
    Regex::new(
        r"(?i)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+(?:com|org|net|io|dev|ai|app|co|jp|kr|cn|tw|hk|de|uk|fr|us|gov|edu|me|xyz|info|biz|tv|cloud|tech|gg|ly)(?:/[^\s<>`)\]）」』]*)?",
    )
    .ok()
});

/// URLs with a scheme, e-mail addresses and bare domains with a common TLD.
pub(crate) fn urls(line: &str) -> Vec<Range<usize>> {
    let mut out: Vec<Range<usize>> = Vec::new();
    let push = |r: Range<usize>, out: &mut Vec<Range<usize>>| {
        let r = trim_url_end(line, r);
        if !r.is_empty() && !out.iter().any(|o| overlap(o, &r)) {
            out.push(r);
        }
    };
    if let Some(re) = &*URL {
        for m in re.find_iter(line) {
            push(m.range(), &mut out);
        }
    }
    for re in [&*EMAIL, &*DOMAIN].into_iter().flatten() {
        for m in re.find_iter(line) {
            let left_ok = char_before(line, m.start())
                .is_none_or(|c| !is_word_char(c) && !matches!(c, '.' | '@' | '/' | '-' | '_'));
            let r = trim_url_end(line, m.range());
            // Nor may it go on past a joining mark (`a@b.test.assessment-2026-q3`): matching
            // would read the longer token, never this one.
            let joined =
                |c: char| matches!(c, '-' | '_' | '.') && char_at(line, r.end + c.len_utf8()).is_some_and(is_word_char);
            let right_ok = char_at(line, r.end).is_none_or(|c| !is_word_char(c) && c != '@' && !joined(c));
            if left_ok && right_ok {
                push(r, &mut out);
            }
        }
    }
    out
}

/// Drops trailing sentence punctuation and an unbalanced closing parenthesis.
fn trim_url_end(line: &str, mut r: Range<usize>) -> Range<usize> {
    loop {
        let Some(s) = line.get(r.clone()) else {
            return r.start..r.start;
        };
        let Some(last) = s.chars().next_back() else {
            return r;
        };
        let unbalanced_paren = last == ')' && s.matches('(').count() < s.matches(')').count();
        if ".,;:!?*_'\"".contains(last) || unbalanced_paren {
            r.end -= last.len_utf8();
        } else {
            return r;
        }
    }
}

pub(crate) fn normalise_url(s: &str) -> String {
    let lower = s.to_lowercase();
    let no_scheme = match lower.find("://") {
        Some(i) => lower.get(i + 3..).unwrap_or(""),
        None => lower.as_str(),
    };
    let no_www = no_scheme.strip_prefix("www.").unwrap_or(no_scheme);
    no_www.trim_end_matches('/').to_string()
}

fn is_path_delim(c: char) -> bool {
    c.is_whitespace() || is_cjk(c) || "`\"'“”‘’()[]{}<>|,;=、。「」（）：，；！？".contains(c)
}

/// Paths in the line: (range, kind). Bare `*.md` names and `memory/…` paths are links to
/// notes (`ClaimKind::Link`), not facts.
pub(crate) fn paths(line: &str) -> Vec<(Range<usize>, ClaimKind)> {
    let mut out = Vec::new();
    let mut start = None;
    let mut tokens = Vec::new();
    for (i, c) in line.char_indices() {
        if is_path_delim(c) {
            if let Some(s) = start.take() {
                tokens.push(s..i);
            }
        } else if start.is_none() {
            start = Some(i);
        }
    }
    if let Some(s) = start {
        tokens.push(s..line.len());
    }
    for t in tokens {
        // `/x` right after a closing backtick or a word is a continuation (`a`/b), not a root.
        let glued = char_before(line, t.start).is_some_and(|c| c == '`' || is_word_char(c));
        if glued && line.get(t.clone()).is_some_and(|s| s.starts_with('/')) {
            continue;
        }
        for piece in split_colons(line, t) {
            let r = trim_path(line, piece);
            let Some(s) = line.get(r.clone()) else {
                continue;
            };
            if let Some(kind) = classify_path(s) {
                out.push((r, kind));
            }
        }
    }
    out
}

/// Splits a token at `:` (line references, `key:value`), keeping a drive letter (`C:\`).
fn split_colons(line: &str, t: Range<usize>) -> Vec<Range<usize>> {
    let s = line.get(t.clone()).unwrap_or("");
    let mut out = Vec::new();
    let mut from = 0;
    for (i, c) in s.char_indices() {
        if c == ':' {
            let drive = i == 1
                && s.chars().next().is_some_and(|d| d.is_ascii_alphabetic())
                && s.get(2..).is_some_and(|r| r.starts_with(['\\', '/']));
            if !drive {
                out.push(t.start + from..t.start + i);
                from = i + 1;
            }
        }
    }
    out.push(t.start + from..t.end);
    out
}

fn trim_path(line: &str, mut r: Range<usize>) -> Range<usize> {
    while let Some(c) = line.get(r.clone()).and_then(|s| s.chars().next_back()) {
        if ".!?*_~".contains(c) && r.end > r.start {
            r.end -= c.len_utf8();
        } else {
            break;
        }
    }
    while let Some(c) = line.get(r.clone()).and_then(|s| s.chars().next()) {
        if c == '*' {
            r.start += 1;
        } else {
            break;
        }
    }
    r
}

fn has_ext(segment: &str) -> bool {
    match segment.rsplit_once('.') {
        Some((stem, ext)) => {
            !stem.is_empty()
                && stem.chars().any(|c| c.is_alphabetic() || c == '_' || c == '-' || c.is_ascii_digit())
                && EXTENSIONS.contains(&ext.to_ascii_lowercase().as_str())
        }
        None => false,
    }
}

fn classify_path(s: &str) -> Option<ClaimKind> {
    if s.len() < 2 || s.contains("://") || !s.chars().any(char::is_alphabetic) {
        return None;
    }
    let unified = s.replace('\\', "/");
    let segments: Vec<&str> = unified.split('/').collect();
    let last = segments.last().copied().unwrap_or("");
    let slashes = segments.len() - 1;
    let rooted = unified.starts_with("~/")
        || unified.starts_with("./")
        || unified.starts_with("../")
        || (unified.starts_with('/') && unified.len() > 1 && !unified.starts_with("//"))
        || s.get(1..3).is_some_and(|d| d == ":\\" || d == ":/");
    let dotfile = slashes == 0
        && s.starts_with('.')
        && s.len() > 2
        && s.chars().skip(1).all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || "._-".contains(c))
        && s.chars().nth(1).is_some_and(|c| c.is_ascii_lowercase());
    let is_path = if slashes == 0 {
        has_ext(s) || dotfile
    } else {
        let inner_ok = segments.iter().skip(1).take(slashes.saturating_sub(1)).all(|x| !x.is_empty());
        let special = segments.iter().any(|x| x.contains(['.', '_', '-']) || x.chars().any(|c| c.is_ascii_digit()));
        let root = PATH_ROOTS.contains(&segments.first().copied().unwrap_or("").to_ascii_lowercase().as_str());
        // An amount per units (`$20/seat/month`, `5GB/day/user`) is a rate, not a path.
        let amount = segments
            .first()
            .is_some_and(|f| f.starts_with(['$', '€', '£', '¥']) || f.starts_with(|c: char| c.is_ascii_digit()));
        let rate = amount && !rooted && !has_ext(last);
        inner_ok
            && !rate
            && (rooted
                || has_ext(last)
                || (last.is_empty() && slashes == 1 && segments.first().is_some_and(|f| f.len() > 1))
                || (slashes >= 2 && (special || root)))
    };
    if !is_path {
        return None;
    }
    let lower = unified.to_lowercase();
    let note_like = lower.ends_with(".md")
        && (slashes == 0
            || lower.starts_with("memory/")
            || lower.starts_with("./memory/")
            || (lower.starts_with("./") && slashes == 1));
    Some(if note_like { ClaimKind::Link } else { ClaimKind::Path })
}

pub(crate) fn normalise_path(s: &str) -> String {
    let lower = s.to_lowercase();
    let t = lower.strip_prefix("./").or(lower.strip_prefix("~/")).unwrap_or(&lower);
    // A folder written with its separator (`todo-app/`, `Week2\`) is the folder's name.
    let folder = t.trim_end_matches(['/', '\\']);
    if folder.is_empty() { t.to_string() } else { folder.to_string() }
}
