//! Proper names in a line: capitalised words that do not start a sentence, CamelCase
//! words, ALL-CAPS acronyms, and Latin words set inside CJK text.
//!
//! Never names: a sentence's first word (after `.`, `!`, `?`, `:`, `|`, an opening bracket
//! or quote, or the line start), common words ("I", "No", "The"…), weekday and month names,
//! generic acronyms (`API`, `JSON`, `PR`, `PERMANENT`, `TODO`…), plain words in a Markdown
//! heading (titles are Title Case), and any lowercase word in Latin text.

use std::ops::Range;

use super::text::{Spans, char_at, has_cjk, is_cjk, is_word_char};
use super::words::{ABBREVIATIONS, CALENDAR, CAPS_STOP, EMBEDDED_COMMON, STOPWORDS};

/// A word of the line: byte range (possessive `'s` excluded) and whether it counts as a
/// Latin word set inside CJK text.
struct Word {
    range: Range<usize>,
    embedded: bool,
}

/// Every name in `line` outside the `taken` byte ranges (sorted, non-overlapping).
pub(crate) fn find_names(line: &str, taken: &[Range<usize>]) -> Vec<Range<usize>> {
    let heading = is_heading(line);
    let labels = bold_labels(line);
    let cjk = has_cjk(line);
    let mut words = scan_words(line, taken);
    if cjk {
        mark_embedded(line, &mut words);
    }
    let shouted = shouted_words(line, &words);
    let mut out = Vec::new();
    let mut sentence_start = true;
    // Right after an arrow, a label's colon or a list marker: the value of a `key: value`,
    // `old → new` or list item, where a capitalised word that ends the item is a name
    // (`→ Quad9`, `DNS: Cloudflare`, `- Cloudflare`), not a sentence's first word.
    let mut value_start = false;
    // After a list marker only a whole item is a value (`- Cloudflare`), not a title
    // followed by more (`- Testing - Run it`, `- Testing, linting`).
    let mut whole_item = false;
    let mut last_word = String::new();
    let mut pos = list_marker_end(line).unwrap_or(0);
    if pos > 0 {
        value_start = true;
        whole_item = true;
    }
    let mut wi = 0;
    let mut ti = 0;
    while pos < line.len() {
        if let Some(t) = taken.get(ti) {
            if t.end <= pos {
                ti += 1;
                continue;
            }
            if t.start <= pos {
                sentence_start = false;
                value_start = false;
                last_word.clear();
                pos = t.end;
                continue;
            }
        }
        while words.get(wi).is_some_and(|w| w.range.start < pos) {
            wi += 1;
        }
        if let Some(w) = words.get(wi)
            && w.range.start == pos
        {
            let text = line.get(w.range.clone()).unwrap_or("");
            let title = heading || labels.iter().any(|l| l.contains(&w.range.start));
            let value = value_start && !title && ends_item(line, w.range.end, whole_item) && !common_word(text);
            if !shouted.contains(&wi) && is_name(text, sentence_start && !value, title, w.embedded) {
                out.push(w.range.clone());
            }
            if text.chars().any(char::is_alphabetic) {
                sentence_start = false;
                // The rest of a value phrase (`Cloudflare Zero Trust`) is a value too.
                value_start = value;
            }
            last_word = text.to_lowercase();
            pos = skip_possessive(line, w.range.end);
            wi += 1;
            continue;
        }
        let Some(c) = char_at(line, pos) else { break };
        let next = char_at(line, pos + c.len_utf8());
        match c {
            '.' => {
                let ends = next.is_none_or(|n| n.is_whitespace() || "\"'”’)]*_".contains(n));
                if ends && !ABBREVIATIONS.contains(&last_word.as_str()) {
                    sentence_start = true;
                }
            }
            ':' if next.is_none_or(|n| n.is_whitespace() || n == '*' || n == '_') => {
                sentence_start = true;
                value_start = true;
                whole_item = false;
            }
            '-' | '=' if next == Some('>') => {
                sentence_start = true;
                value_start = true;
                whole_item = false;
            }
            '-' => {
                // A spaced dash separates a title from its hook: `[T](t.md) - Run it`.
                let before = line.get(..pos).and_then(|p| p.chars().next_back());
                if before.is_some_and(char::is_whitespace) && next.is_some_and(char::is_whitespace) {
                    sentence_start = true;
                }
            }
            '→' | '⇒' | '⟶' | '：' => {
                sentence_start = true;
                value_start = true;
                whole_item = false;
            }
            '—' | '–' | '!' | '?' | '。' | '！' | '？' | '|' | '•' | '\n' | '\r' | '(' | '[' | '"' | '“' | '「'
            | '『' | '（' | '‘' | '\'' | '・' => sentence_start = true,
            _ => {}
        }
        if !c.is_whitespace() {
            last_word.clear();
            let keeps_value = matches!(c, ':' | '：' | '→' | '⇒' | '⟶' | '*' | '_' | '>' | '`')
                || (matches!(c, '-' | '=') && next == Some('>'));
            if !keeps_value {
                value_start = false;
            }
        }
        pos += c.len_utf8();
    }
    out
}

/// Byte offset just past a list marker (`- `, `* `, `+ `, `1. `, `2) `) opening the line.
fn list_marker_end(line: &str) -> Option<usize> {
    let indent = line.len() - line.trim_start_matches([' ', '\t']).len();
    let rest = line.get(indent..)?;
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    let marker = match rest.as_bytes().first()? {
        b'-' | b'*' | b'+' => 1,
        _ if (1..=3).contains(&digits) && matches!(rest.as_bytes().get(digits), Some(b'.' | b')')) => digits + 1,
        _ => return None,
    };
    rest.get(marker..)?.starts_with(' ').then_some(indent + marker + 1)
}

/// True when the value phrase a word at `end` belongs to ends its item: only capitalised
/// words or words with digits follow it up to the end of the line, a sentence's period, an
/// arrow, or (unless `whole`) a separator (`,`, `;`, `)`, `(`, `/`, `|`). `DNS: Cloudflare`
/// and `→ Quad9 (9.9.9.9)` do; `- Deploys go to prod` does not (lowercase prose follows).
fn ends_item(line: &str, end: usize, whole: bool) -> bool {
    let mut rest = line.get(end..).unwrap_or("");
    loop {
        rest = rest.trim_start_matches([' ', '\t', '*', '_', '`']);
        let Some(c) = rest.chars().next() else { return true };
        match c {
            '→' | '⇒' | '。' | '\r' | '\n' => return true,
            ',' | ';' | ')' | '(' | '/' | '|' | '、' | '（' | '）' => return !whole,
            '.' | '!' | '?' => {
                let after = rest.get(1..).and_then(|r| r.chars().next());
                return after.is_none_or(char::is_whitespace);
            }
            '-' | '=' if rest.get(1..).is_some_and(|r| r.starts_with('>')) => return true,
            c if c.is_uppercase() || c.is_ascii_digit() => {
                let n: usize = rest
                    .char_indices()
                    .find(|&(_, d)| !(is_word_char(d) || matches!(d, '.' | '-' | '\'' | '’')))
                    .map_or(rest.len(), |(i, _)| i);
                let word = rest.get(..n).unwrap_or("").trim_end_matches(['.', '-']);
                if common_word(word) {
                    return false;
                }
                rest = rest.get(word.len().max(c.len_utf8())..).unwrap_or("");
            }
            _ => return false,
        }
    }
}

/// A word no value position makes a name: common words (`Done`, `Yes`, `Tests`), closed-class
/// words and calendar words.
fn common_word(word: &str) -> bool {
    let lower = word.to_lowercase();
    STOPWORDS.contains(&lower.as_str())
        || EMBEDDED_COMMON.contains(&lower.as_str())
        || CALENDAR.contains(&lower.as_str())
        || super::closed::english(&lower)
}

/// Indices of words in runs of three or more ALL-CAPS words (`DO NOT PUSH TO MAIN`):
/// shouting, not acronyms.
fn shouted_words(line: &str, words: &[Word]) -> Vec<usize> {
    let caps = |w: &Word| {
        let t = line.get(w.range.clone()).unwrap_or("");
        t.chars().filter(|c| c.is_alphabetic()).count() >= 1 && !t.chars().any(char::is_lowercase)
    };
    let mut out = Vec::new();
    let mut run: Vec<usize> = Vec::new();
    for (i, w) in words.iter().enumerate() {
        if caps(w) {
            run.push(i);
        } else {
            if run.len() >= 3 {
                out.append(&mut run);
            }
            run.clear();
        }
    }
    if run.len() >= 3 {
        out.append(&mut run);
    }
    out
}

/// Contents of bold labels (`**Deploy Process:**`, `**Test Command**:`), which are titles.
fn bold_labels(line: &str) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    for marker in ["**", "__"] {
        let mut from = 0;
        while let Some(open) = line.get(from..).and_then(|s| s.find(marker)).map(|i| from + i) {
            let inner_start = open + marker.len();
            let Some(close) = line.get(inner_start..).and_then(|s| s.find(marker)).map(|i| inner_start + i) else {
                break;
            };
            let inner = line.get(inner_start..close).unwrap_or("");
            let after = line.get(close + marker.len()..).unwrap_or("");
            if inner.trim_end().ends_with([':', '：']) || after.starts_with([':', '：']) {
                out.push(inner_start..close);
            }
            from = close + marker.len();
        }
    }
    out
}

fn is_heading(line: &str) -> bool {
    let t = line.trim_start();
    let hashes = t.bytes().take_while(|b| *b == b'#').count();
    (1..=6).contains(&hashes) && t.get(hashes..).is_some_and(|r| r.starts_with([' ', '\t']))
}

fn skip_possessive(line: &str, end: usize) -> usize {
    for p in ["'s", "’s"] {
        if line.get(end..).is_some_and(|r| r.starts_with(p)) && !char_at(line, end + p.len()).is_some_and(is_word_char)
        {
            return end + p.len();
        }
    }
    end
}

/// Splits the line into words (letters/digits with internal `'`, `’`, `-`, `.`), never
/// entering a taken range.
fn scan_words(line: &str, taken: &[Range<usize>]) -> Vec<Word> {
    let spans = Spans::from_ranges(taken.to_vec());
    let in_taken = |i: usize| spans.contains(i);
    let mut words = Vec::new();
    let mut iter = line.char_indices().peekable();
    while let Some((i, c)) = iter.next() {
        if !is_word_char(c) || in_taken(i) {
            continue;
        }
        let mut end = i + c.len_utf8();
        while let Some(&(j, d)) = iter.peek() {
            if in_taken(j) {
                break;
            }
            if is_word_char(d) {
                end = j + d.len_utf8();
                iter.next();
                continue;
            }
            let joiner = matches!(d, '\'' | '’' | '-' | '.' | '_');
            let follows = char_at(line, j + d.len_utf8()).is_some_and(is_word_char) && !in_taken(j + d.len_utf8());
            let possessive = matches!(d, '\'' | '’')
                && line.get(j + d.len_utf8()..).is_some_and(|r| r.starts_with('s'))
                && !char_at(line, j + d.len_utf8() + 1).is_some_and(is_word_char);
            if joiner && follows && !possessive {
                iter.next();
                continue;
            }
            break;
        }
        words.push(Word { range: i..end, embedded: false });
    }
    words
}

/// Marks the words of short Latin phrases that sit directly next to CJK letters.
fn mark_embedded(line: &str, words: &mut [Word]) {
    // Group words separated by spaces only into phrases: (first, last) indices.
    let mut phrases: Vec<(usize, usize)> = Vec::new();
    for (i, w) in words.iter().enumerate() {
        let joined = phrases.last().and_then(|&(_, last)| words.get(last)).is_some_and(|prev| {
            let gap = line.get(prev.range.end..w.range.start).unwrap_or("x");
            !gap.is_empty() && gap.chars().all(|c| c == ' ')
        });
        match phrases.last_mut() {
            Some(p) if joined => p.1 = i,
            _ => phrases.push((i, i)),
        }
    }
    for (first, last) in phrases {
        let start = words.get(first).map_or(0, |w| w.range.start);
        let end = words.get(last).map_or(0, |w| w.range.end);
        let left = line.get(..start).and_then(|s| s.trim_end().chars().next_back());
        let right = line.get(end..).and_then(|s| s.trim_start().chars().next());
        let next_to_cjk = left.is_some_and(is_cjk) || right.is_some_and(is_cjk);
        if next_to_cjk && last - first < 4 {
            for w in words.iter_mut().take(last + 1).skip(first) {
                w.embedded = true;
            }
        }
    }
}

fn is_name(word: &str, sentence_start: bool, heading: bool, embedded: bool) -> bool {
    let letters = word.chars().filter(|c| c.is_alphabetic()).count();
    if letters == 0 {
        return false;
    }
    let lower = word.to_lowercase();
    if CALENDAR.contains(&lower.as_str()) {
        return false;
    }
    let upper = word.chars().filter(|c| c.is_uppercase()).count();
    let lowers = word.chars().filter(|c| c.is_lowercase()).count();
    // ALL-CAPS acronym, optionally pluralised (`APIs`).
    let stem = word.strip_suffix('s').filter(|s| s.chars().any(char::is_uppercase));
    let acronym = |w: &str| w.chars().filter(|c| c.is_alphabetic()).count() >= 2 && !w.chars().any(char::is_lowercase);
    if acronym(word) || stem.is_some_and(acronym) {
        let key = stem.filter(|s| acronym(s)).unwrap_or(word);
        // Acronyms are short (`AWS`, `GDPR`) or identifiers (`EC2`, `DATABASE_URL`); a long
        // capitalised word is emphasis (`HEADER-LESS`, `IMPORTANT`).
        let identifier = key.chars().any(|c| c.is_ascii_digit() || c == '_');
        return (letters <= 6 || identifier) && !CAPS_STOP.contains(&key.to_uppercase().as_str());
    }
    if STOPWORDS.contains(&lower.as_str()) {
        return false;
    }
    if embedded {
        let mixed_case = upper >= 1 && lowers >= 1 && !word.chars().next().is_some_and(char::is_uppercase);
        return letters >= 2 && (mixed_case || !EMBEDDED_COMMON.contains(&lower.as_str()));
    }
    let first_upper = word.chars().next().is_some_and(char::is_uppercase);
    // CamelCase: an uppercase letter after a lowercase one (GitHub, iPhone, macOS).
    let mut seen_lower = false;
    let mut camel = false;
    for c in word.chars() {
        if c.is_lowercase() {
            seen_lower = true;
        } else if c.is_uppercase() && seen_lower {
            camel = true;
        }
    }
    if camel && upper >= 1 && lowers >= 1 {
        return true;
    }
    // A capitalised word with a digit (`Quad9`, `Route53`) is no sentence's ordinary word.
    let digit = word.chars().any(|c| c.is_ascii_digit());
    first_upper && upper == 1 && letters >= 2 && (!sentence_start || digit) && !heading
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(line: &str) -> Vec<&str> {
        find_names(line, &[]).into_iter().map(|r| &line[r]).collect()
    }

    #[test]
    fn capitalised_mid_sentence() {
        assert_eq!(names("No Redis needed: tests use an in-memory fake. Verified on Sunday."), vec!["Redis"]);
        assert_eq!(names("Deploys go to Vercel via GitHub Actions."), vec!["Vercel", "GitHub", "Actions"]);
        assert_eq!(names("The AWS bill and the API key"), vec!["AWS"]);
        assert_eq!(names("Ask Alice's team, e.g. Bob."), vec!["Alice", "Bob"]);
        assert_eq!(names("then I moved it in May"), Vec::<&str>::new());
        assert_eq!(names("**Why:** Because PERMANENT TODOs matter"), Vec::<&str>::new());
        assert_eq!(names("## Deploy Process Notes"), Vec::<&str>::new());
        assert_eq!(names("## GitHub Setup"), vec!["GitHub"]);
        assert_eq!(names("(Redis) is gone"), Vec::<&str>::new());
        assert_eq!(names("- **Deploy Process:** ask Bob"), vec!["Bob"]);
        assert_eq!(names("- [Testing](testing.md) — Run it with Vitest"), vec!["Vitest"]);
        assert_eq!(names("- Testing - Run it"), Vec::<&str>::new());
        assert_eq!(names("set DATABASE_URL and the Claude key"), vec!["DATABASE_URL"]);
        assert_eq!(names("DO NOT PUSH TO MAIN without AWS"), vec!["AWS"]);
        assert_eq!(names("state is HEADER-LESS, set DEBUG_LEVEL"), vec!["DEBUG_LEVEL"]);
        assert_eq!(names("**Why:** Fluid compute is on"), Vec::<&str>::new());
        assert_eq!(names("レビュー後に merge して Vercel に deploy"), vec!["Vercel"]);
        assert_eq!(names("uses macOS and iPhone builds"), vec!["macOS", "iPhone"]);
        assert_eq!(names("run on EC2 with GPT-4"), vec!["EC2", "GPT-4"]);
    }

    #[test]
    fn latin_inside_cjk() {
        assert_eq!(names("テストは pnpm で実行する"), vec!["pnpm"]);
        assert_eq!(names("Redis は不要になった"), vec!["Redis"]);
        assert_eq!(names("Redis는 더 이상 필요 없음"), vec!["Redis"]);
        assert_eq!(names("デプロイは Vercel Edge で"), vec!["Vercel", "Edge"]);
        assert_eq!(names("测试 (tests use the fake now) 完成"), Vec::<&str>::new());
    }

    #[test]
    fn development_jargon_inside_cjk_is_no_name() {
        // A dream paraphrasing 「テストが不安定」 as "flaky" states no checkable fact.
        assert_eq!(names("flaky なテストは retry せずに rollback する"), Vec::<&str>::new());
        assert_eq!(names("staging 에서 e2e 테스트 후 production 배포"), Vec::<&str>::new());
        assert_eq!(names("CI が green になってから cherry-pick する"), Vec::<&str>::new());
        // Tool names stay names.
        assert_eq!(names("flaky なテストは pnpm で retry する"), vec!["pnpm"]);
    }

    #[test]
    fn taken_ranges_are_skipped() {
        let line = "Run `Redis` with Docker";
        let code = 5..10;
        assert_eq!(find_names(line, &[code]).into_iter().map(|r| &line[r]).collect::<Vec<_>>(), vec!["Docker"]);
    }

    #[test]
    fn names_after_arrows_colons_and_list_markers() {
        assert_eq!(names("Switched DNS → Quad9"), vec!["Quad9"]);
        assert_eq!(names("→ Quad9"), vec!["Quad9"]);
        assert_eq!(names("- DNS: Cloudflare"), vec!["Cloudflare"]);
        assert_eq!(names("- **DNS:** Cloudflare Gateway → Quad9."), vec!["Cloudflare", "Gateway", "Quad9"]);
        assert_eq!(names("resolver: Cloudflare, fallback: Google"), vec!["Cloudflare", "Google"]);
        assert_eq!(names("- Cloudflare"), vec!["Cloudflare"]);
        assert_eq!(names("1. Fastly"), vec!["Fastly"]);
        assert_eq!(names("moved from Cloudflare -> Quad9"), vec!["Cloudflare", "Quad9"]);
        // Prose after the marker or the colon is a sentence; common words are no names.
        for none in [
            "- Deploys go to prod",
            "Note: Always run the tests",
            "**Status:** Done",
            "- Tests",
            "Result: Yes",
            "- Testing - Run it",
            "- Testing, linting",
            "Day: Monday",
        ] {
            assert_eq!(names(none), Vec::<&str>::new(), "{none}");
        }
    }

    #[test]
    fn names_after_cjk_colons_and_arrows() {
        assert_eq!(names("DNS：Cloudflare"), vec!["Cloudflare"]);
        assert_eq!(names("リゾルバ → Quad9"), vec!["Quad9"]);
        assert_eq!(names("리졸버: Quad9"), vec!["Quad9"]);
        assert_eq!(names("解析器：Cloudflare"), vec!["Cloudflare"]);
    }
}
