//! Note names and quoted snippets in a CHANGES.md entry.

/// Normalises a Markdown path named in CHANGES.md to a path relative to the memory folder:
/// `memory/testing.md`, `./memory/testing.md`, `testing.md` → `testing.md`;
/// `memory/people/alice.md` → `people/alice.md`; an absolute path keeps what follows its
/// first `memory` component. Returns `None` for `CHANGES.md` itself and for URLs.
pub fn normalise_note(path: &str) -> Option<String> {
    let unified = path.trim().replace('\\', "/");
    if unified.contains("://") || unified.is_empty() {
        return None;
    }
    let mut p = unified.as_str();
    while let Some(rest) = p.strip_prefix("./") {
        p = rest;
    }
    let segments: Vec<&str> = p.split('/').collect();
    let rel: Vec<&str> = match segments.iter().position(|s| *s == "memory") {
        Some(i) if i + 1 < segments.len() => segments.get(i + 1..).unwrap_or(&[]).to_vec(),
        _ => segments,
    };
    let rel: Vec<&str> = rel.into_iter().filter(|s| !s.is_empty() && *s != ".").collect();
    let out = rel.join("/");
    if out.is_empty() || (rel.len() == 1 && out.eq_ignore_ascii_case("changes.md")) {
        return None;
    }
    Some(out)
}

/// Quote pairs recognised as snippets: (open, close).
const PAIRS: &[(char, char)] = &[('"', '"'), ('“', '”'), ('「', '」'), ('『', '』'), ('‘', '’')];

/// Text quoted in `"…"`, `“…”`, `「…」`, `『…』`, `‘…’` or `'…'` (not inside backticks:
/// backticked spans are claims). Single quotes count only around a phrase, never as an
/// apostrophe (`don't`, `user's`).
pub fn snippets(text: &str) -> Vec<String> {
    let code: Vec<(usize, usize)> =
        crate::base::text::code_spans(text).into_iter().map(|(r, _)| (r.start, r.end)).collect();
    // Code ranges are sorted and disjoint: binary search.
    let in_code = |i: usize| {
        let k = code.partition_point(|(_, b)| *b <= i);
        code.get(k).is_some_and(|(a, _)| *a <= i)
    };
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    let mut out = Vec::new();
    let mut unclosed: Vec<char> = Vec::new();
    let mut k = 0;
    while k < chars.len() {
        let Some(&(i, c)) = chars.get(k) else { break };
        if in_code(i) {
            k += 1;
            continue;
        }
        let close = if let Some((_, cl)) = PAIRS.iter().find(|(o, _)| *o == c) {
            Some(*cl)
        } else if c == '\'' && single_quote_opens(&chars, k) {
            Some('\'')
        } else {
            None
        };
        let Some(close) = close else {
            k += 1;
            continue;
        };
        if unclosed.contains(&close) {
            k += 1;
            continue;
        }
        let found = (k + 1..chars.len()).find(|&j| {
            chars.get(j).is_some_and(|&(pos, ch)| {
                ch == close && !in_code(pos) && (close != '\'' || single_quote_closes(&chars, j))
            })
        });
        match found {
            Some(j) => {
                let start = i + c.len_utf8();
                let end = chars.get(j).map(|&(p, _)| p).unwrap_or(start);
                let inner = text.get(start..end).unwrap_or("").trim();
                if !inner.is_empty() {
                    out.push(inner.to_string());
                }
                k = j + 1;
            }
            None => {
                // Nothing closes it: later openers of the same kind cannot close either.
                unclosed.push(close);
                k += 1;
            }
        }
    }
    out
}

fn single_quote_opens(chars: &[(usize, char)], k: usize) -> bool {
    let prev = k.checked_sub(1).and_then(|p| chars.get(p)).map(|&(_, c)| c);
    let next = chars.get(k + 1).map(|&(_, c)| c);
    prev.is_none_or(|p| p.is_whitespace() || "([{:".contains(p))
        && next.is_some_and(|n| !n.is_whitespace() && n != '\'')
}

fn single_quote_closes(chars: &[(usize, char)], k: usize) -> bool {
    let prev = k.checked_sub(1).and_then(|p| chars.get(p)).map(|&(_, c)| c);
    let next = chars.get(k + 1).map(|&(_, c)| c);
    prev.is_some_and(|p| !p.is_whitespace()) && next.is_none_or(|n| !n.is_alphanumeric())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notes_normalise() {
        for (a, b) in [
            ("memory/testing.md", "testing.md"),
            ("testing.md", "testing.md"),
            ("./memory/testing.md", "testing.md"),
            ("memory/people/alice.md", "people/alice.md"),
            ("/home/dev/.claude/projects/x/memory/deploy.md", "deploy.md"),
            ("memory\\win.md", "win.md"),
            ("MEMORY.md", "MEMORY.md"),
        ] {
            assert_eq!(normalise_note(a).as_deref(), Some(b), "{a}");
        }
        assert_eq!(normalise_note("CHANGES.md"), None);
        assert_eq!(normalise_note("https://x.dev/a.md"), None);
    }

    #[test]
    fn quoted() {
        assert_eq!(
            snippets(r#"said "we moved to pnpm" and “Redis is gone”, 「昨日」 and 'in-memory fake'"#),
            vec!["we moved to pnpm", "Redis is gone", "昨日", "in-memory fake"]
        );
        assert_eq!(snippets("don't touch the user's `\"x\"` file"), Vec::<String>::new());
        assert_eq!(snippets("an \"unclosed quote"), Vec::<String>::new());
    }
}
