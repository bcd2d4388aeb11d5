//! [`extract`]: the claims of one note line, never overlapping.
//!
//! Recognisers run in priority order and a later one never takes bytes an earlier one
//! took: backticked code and Markdown links first (a date inside backticks is part of the
//! code claim), then relative time phrases (which are skipped: "last week" is not a claim,
//! nor is the "3 days" of "3 days ago"), URLs (a path inside a URL is part of it), paths,
//! dates, versions, numbers with units, and finally proper names.

use std::ops::Range;
use std::sync::LazyLock;

use regex::Regex;

use super::dates::find_dates;
use super::names::find_names;
use super::numbers::find_numbers;
use super::relative::relative_phrases;
use super::text::{char_at, char_before, is_cjk, is_word_char, overlap};
use super::{Claim, ClaimKind, ClaimValue};

/// Claims found so far plus the byte ranges no later recogniser may use.
#[derive(Default)]
struct Acc {
    claims: Vec<Claim>,
    occupied: Vec<Range<usize>>,
}

impl Acc {
    fn free(&self, r: &Range<usize>) -> bool {
        r.start < r.end && !self.occupied.iter().any(|o| overlap(o, r))
    }

    /// Adds a claim covering `r` (and occupying `outer`), unless the bytes are taken.
    fn add(&mut self, line: &str, kind: ClaimKind, r: Range<usize>, outer: Range<usize>, value: ClaimValue) {
        let Some(text) = line.get(r.clone()) else { return };
        if r.is_empty() || !self.free(&outer) {
            return;
        }
        self.occupied.push(outer);
        self.claims.push(Claim { kind, text: text.to_string(), start: r.start, end: r.end, value });
    }

    fn block(&mut self, r: Range<usize>) {
        if self.free(&r) {
            self.occupied.push(r);
        }
    }
}

/// Every claim in `line`, in order of position. `claim.text == line[claim.start..claim.end]`
/// always holds, and no two claims overlap. Frontmatter keys, list markers and inline
/// metadata are the caller's concern (see `changes::structure_spans`).
pub fn extract(line: &str) -> Vec<Claim> {
    let mut acc = Acc::default();
    let codes = code_spans(line);
    for (outer, kind, value) in links(line) {
        if !codes.iter().any(|(o, _)| o.contains(&outer.start)) {
            acc.add(line, kind, outer.clone(), outer, ClaimValue::Text(value));
        }
    }
    for (outer, inner) in codes {
        let value = line.get(inner.clone()).unwrap_or("").to_lowercase();
        if inner.is_empty() {
            acc.block(outer);
        } else {
            acc.add(line, ClaimKind::Code, inner, outer, ClaimValue::Text(value));
        }
    }
    for rel in relative_phrases(line) {
        acc.block(rel.start..rel.end);
    }
    for r in urls(line) {
        let value = normalise_url(line.get(r.clone()).unwrap_or(""));
        acc.add(line, ClaimKind::Url, r.clone(), r, ClaimValue::Text(value));
    }
    for (r, kind) in paths(line) {
        let value = normalise_path(line.get(r.clone()).unwrap_or(""));
        acc.add(line, kind, r.clone(), r, ClaimValue::Text(value));
    }
    for f in find_dates(line) {
        acc.add(line, ClaimKind::Date, f.range.clone(), f.range, ClaimValue::Date(f.spec));
    }
    for (r, value) in versions(line) {
        acc.add(line, ClaimKind::Version, r.clone(), r, ClaimValue::Text(value));
    }
    let numbers = find_numbers(line, &|r| acc.free(r));
    for n in numbers {
        let value = ClaimValue::Number { value: n.value, unit: Some(n.unit) };
        acc.add(line, ClaimKind::Number, n.range.clone(), n.range, value);
    }
    let mut taken = acc.occupied.clone();
    taken.sort_by_key(|r| r.start);
    for r in find_names(line, &taken) {
        let value = line.get(r.clone()).unwrap_or("").to_lowercase();
        acc.add(line, ClaimKind::Name, r.clone(), r, ClaimValue::Text(value));
    }
    acc.claims.sort_by_key(|c| c.start);
    acc.claims
}

/// Backticked spans: (range with backticks, trimmed inner range). An unclosed run of
/// backticks is literal text.
fn code_spans(line: &str) -> Vec<(Range<usize>, Range<usize>)> {
    let b = line.as_bytes();
    let run_len = |i: usize| b.get(i..).map_or(0, |s| s.iter().take_while(|c| **c == b'`').count());
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if b.get(i) != Some(&b'`') {
            i += 1;
            continue;
        }
        let n = run_len(i);
        let mut j = i + n;
        let mut close = None;
        while j < b.len() {
            if b.get(j) == Some(&b'`') {
                let m = run_len(j);
                if m == n {
                    close = Some(j);
                    break;
                }
                j += m;
            } else {
                j += 1;
            }
        }
        match close {
            Some(j) => {
                let inner = line.get(i + n..j).unwrap_or("");
                let lead = inner.len() - inner.trim_start().len();
                let trail = inner.len() - inner.trim_end().len();
                let (s, e) = (i + n + lead, j - trail);
                out.push((i..j + n, s..e.max(s)));
                i = j + n;
            }
            None => i += n,
        }
    }
    out
}

static MD_LINK: LazyLock<Option<Regex>> = LazyLock::new(|| {
    Regex::new(r#"!?\[(?P<text>[^\]\n]*)\]\((?P<target>[^)\s]*)(?:\s+"[^"\n]*")?\)"#).ok()
});
static WIKI_LINK: LazyLock<Option<Regex>> =
    LazyLock::new(|| Regex::new(r"\[\[(?P<target>[^\]\n]+)\]\]").ok());

/// Markdown links to non-URL targets and wikilinks: (range, kind, normalised target).
/// Links to URLs are left to the URL recogniser.
fn links(line: &str) -> Vec<(Range<usize>, ClaimKind, String)> {
    let mut out = Vec::new();
    if let Some(re) = &*WIKI_LINK {
        for c in re.captures_iter(line) {
            if let (Some(m), Some(t)) = (c.get(0), c.name("target")) {
                let target = t.as_str().split('|').next().unwrap_or("").trim().to_lowercase();
                out.push((m.range(), ClaimKind::Link, target));
            }
        }
    }
    if let Some(re) = &*MD_LINK {
        for c in re.captures_iter(line) {
            if let (Some(m), Some(t)) = (c.get(0), c.name("target")) {
                let target = t.as_str();
                let lower = target.to_lowercase();
                if lower.contains("://") || lower.starts_with("mailto:") {
                    continue;
                }
                if out.iter().any(|(r, _, _)| overlap(r, &m.range())) {
                    continue;
                }
                out.push((m.range(), ClaimKind::Link, lower));
            }
        }
    }
    out
}

static URL: LazyLock<Option<Regex>> = LazyLock::new(|| {
    Regex::new(r#"(?i)\b(?:https?|ftp|file|ssh|git|wss?)://[^\s<>"'`\]）」』]+"#).ok()
});
static EMAIL: LazyLock<Option<Regex>> = LazyLock::new(|| {
    Regex::new(r"[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}").ok()
});
static DOMAIN: LazyLock<Option<Regex>> = LazyLock::new(|| {
    Regex::new(
        r"(?i)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+(?:com|org|net|io|dev|ai|app|co|jp|kr|cn|tw|hk|de|uk|fr|us|gov|edu|me|xyz|info|biz|tv|cloud|tech|gg|ly)(?:/[^\s<>`)\]）」』]*)?",
    )
    .ok()
});

/// URLs with a scheme, e-mail addresses and bare domains with a common TLD.
fn urls(line: &str) -> Vec<Range<usize>> {
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
            let right_ok = char_at(line, r.end).is_none_or(|c| !is_word_char(c) && c != '@');
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
        let Some(s) = line.get(r.clone()) else { return r.start..r.start };
        let Some(last) = s.chars().next_back() else { return r };
        let unbalanced_paren = last == ')' && s.matches('(').count() < s.matches(')').count();
        if ".,;:!?*_'\"".contains(last) || unbalanced_paren {
            r.end -= last.len_utf8();
        } else {
            return r;
        }
    }
}

fn normalise_url(s: &str) -> String {
    let lower = s.to_lowercase();
    let no_scheme = match lower.find("://") {
        Some(i) => lower.get(i + 3..).unwrap_or(""),
        None => lower.as_str(),
    };
    let no_www = no_scheme.strip_prefix("www.").unwrap_or(no_scheme);
    no_www.trim_end_matches('/').to_string()
}

/// File extensions that make a bare `name.ext` a path.
const EXTENSIONS: &[&str] = &[
    "md", "markdown", "txt", "rst", "adoc", "json", "jsonl", "json5", "yaml", "yml", "toml",
    "ini", "cfg", "conf", "env", "lock", "log", "csv", "tsv", "xml", "html", "htm", "css",
    "scss", "sass", "less", "js", "mjs", "cjs", "jsx", "ts", "mts", "cts", "tsx", "vue",
    "svelte", "astro", "rs", "py", "pyi", "ipynb", "rb", "go", "java", "kt", "kts", "scala",
    "swift", "c", "h", "cc", "cpp", "cxx", "hpp", "cs", "fs", "php", "lua", "jl", "dart", "ex",
    "exs", "erl", "hs", "ml", "clj", "sh", "bash", "zsh", "fish", "ps1", "bat", "cmd", "sql",
    "graphql", "gql", "proto", "tf", "hcl", "nix", "mk", "gradle", "sbt", "png", "jpg", "jpeg",
    "gif", "svg", "webp", "ico", "pdf", "zip", "gz", "tgz", "tar", "bz2", "xz", "whl", "jar",
    "so", "dll", "dylib", "exe", "wasm", "db", "sqlite", "sqlite3", "pem", "crt", "service",
    "plist", "patch", "diff", "bak", "tmp", "pid", "sock",
];

/// First segments that make an extension-less `a/b/c` a path.
const PATH_ROOTS: &[&str] = &[
    "src", "lib", "app", "apps", "test", "tests", "spec", "docs", "doc", "packages", "scripts",
    "bin", "config", "configs", "memory", "logs", "build", "dist", "target", "public",
    "assets", "static", "vendor", "internal", "cmd", "pkg", "crates", "components", "pages",
    "node_modules", "etc", "usr", "var", "opt", "home", "tmp",
];

fn is_path_delim(c: char) -> bool {
    c.is_whitespace()
        || is_cjk(c)
        || "`\"'“”‘’()[]{}<>|,;=、。「」（）：，；！？".contains(c)
}

/// Paths in the line: (range, kind). Bare `*.md` names and `memory/…` paths are links to
/// notes (`ClaimKind::Link`), not facts.
fn paths(line: &str) -> Vec<(Range<usize>, ClaimKind)> {
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
            let Some(s) = line.get(r.clone()) else { continue };
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
        let special = segments
            .iter()
            .any(|x| x.contains(['.', '_', '-']) || x.chars().any(|c| c.is_ascii_digit()));
        let root = PATH_ROOTS.contains(&segments.first().copied().unwrap_or("").to_ascii_lowercase().as_str());
        inner_ok
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

fn normalise_path(s: &str) -> String {
    let lower = s.to_lowercase();
    let t = lower.strip_prefix("./").or(lower.strip_prefix("~/")).unwrap_or(&lower);
    t.to_string()
}

/// Names after which `X.Y` is a version (`Python 3.11`), lowercase.
const PRODUCTS: &[&str] = &[
    "python", "node", "node.js", "nodejs", "ruby", "go", "golang", "java", "jdk", "rust",
    "rustc", "cargo", "php", "perl", "pnpm", "npm", "yarn", "bun", "deno", "typescript",
    "postgres", "postgresql", "mysql", "mariadb", "sqlite", "redis", "mongodb", "ubuntu",
    "debian", "fedora", "alpine", "centos", "rhel", "macos", "ios", "ipados", "android",
    "windows", "kotlin", "swift", "scala", "elixir", "erlang", "zig", "dart", "flutter", "react",
    "vue", "angular", "svelte", "next", "next.js", "nuxt", "django", "rails", "flask",
    "laravel", "spring", "dotnet", "gcc", "clang", "llvm", "cmake", "docker", "kubernetes",
    "k8s", "terraform", "helm", "nginx", "kafka", "elasticsearch", "git", "vim", "neovim",
    "emacs", "vscode", "chrome", "firefox", "safari", "electron", "webpack", "vite", "vitest",
    "jest", "pytest", "eslint", "prettier", "tailwind", "gradle", "maven", "xcode", "cuda",
    "pytorch", "torch", "tensorflow", "numpy", "pandas", "claude", "opus", "sonnet", "haiku",
    "gpt", "gemini", "llama", "qwen", "mistral", "version", "ver", "release", "openclaw",
];

static PRODUCT_VERSION: LazyLock<Option<Regex>> = LazyLock::new(|| {
    Regex::new(r"(?P<prod>[A-Za-z][A-Za-z0-9.+#-]*)\s(?P<ver>[vV]?\d+\.\d+(?:\.\d+)*(?:-[0-9A-Za-z.]+)?)").ok()
});
static V_VERSION: LazyLock<Option<Regex>> = LazyLock::new(|| {
    Regex::new(r"[vV](?P<ver>\d+(?:\.\d+){0,3}(?:-[0-9A-Za-z.]+)?)").ok()
});
static DOTTED_VERSION: LazyLock<Option<Regex>> = LazyLock::new(|| {
    Regex::new(r"(?P<ver>\d+\.\d+\.\d+(?:\.\d+)?(?:-[0-9A-Za-z]+(?:\.[0-9A-Za-z]+)*)?)").ok()
});

/// Versions: `Python 3.11` (whole phrase), `v3.2.4`, `1.4.0`. Value: the number without `v`.
fn versions(line: &str) -> Vec<(Range<usize>, String)> {
    let mut out: Vec<(Range<usize>, String)> = Vec::new();
    let right_ok = |end: usize| {
        let next = char_at(line, end);
        let after = char_at(line, end + 1);
        !next.is_some_and(|c| is_word_char(c) || c == '_')
            && !(matches!(next, Some('.' | '-')) && after.is_some_and(|c| c.is_ascii_digit()))
    };
    let left_clean = |start: usize| char_before(line, start).is_none_or(|c| !is_word_char(c) && !matches!(c, '.' | '-' | '_'));
    if let Some(re) = &*PRODUCT_VERSION {
        for c in re.captures_iter(line) {
            let (Some(p), Some(v)) = (c.name("prod"), c.name("ver")) else { continue };
            let prod = p.as_str();
            let lower = prod.to_ascii_lowercase();
            let camel = prod.chars().skip(1).any(|ch| ch.is_ascii_uppercase())
                && prod.chars().any(|ch| ch.is_ascii_lowercase());
            if (PRODUCTS.contains(&lower.as_str()) || camel) && left_clean(p.start()) && right_ok(v.end()) {
                let value = v.as_str().trim_start_matches(['v', 'V']).to_ascii_lowercase();
                out.push((p.start()..v.end(), value));
            }
        }
    }
    for re in [&*V_VERSION, &*DOTTED_VERSION].into_iter().flatten() {
        for c in re.captures_iter(line) {
            let (Some(m), Some(v)) = (c.get(0), c.name("ver")) else { continue };
            if left_clean(m.start()) && right_ok(m.end()) && !out.iter().any(|(r, _)| overlap(r, &m.range())) {
                out.push((m.range(), v.as_str().to_ascii_lowercase()));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(line: &str) -> Vec<(ClaimKind, &str)> {
        extract(line).into_iter().map(|c| (c.kind, &line[c.start..c.end])).collect()
    }

    #[test]
    fn code_spans_and_links() {
        assert_eq!(code_spans("a `b` ``c ` d`` `e"), vec![(2..5, 3..4), (6..15, 8..13)]);
        assert_eq!(
            kinds("See [Testing](testing.md) and [[deploy-notes]] or [docs](https://x.dev/a)."),
            vec![
                (ClaimKind::Link, "[Testing](testing.md)"),
                (ClaimKind::Link, "[[deploy-notes]]"),
                (ClaimKind::Url, "https://x.dev/a"),
            ]
        );
        assert_eq!(kinds("run `date -d 2026-11-01` now"), vec![(ClaimKind::Code, "date -d 2026-11-01")]);
    }

    #[test]
    fn urls_paths() {
        assert_eq!(
            kinds("Docs at https://example.com/a/b.md, mail ops@example.com or see github.com/x."),
            vec![
                (ClaimKind::Url, "https://example.com/a/b.md"),
                (ClaimKind::Url, "ops@example.com"),
                (ClaimKind::Url, "github.com/x"),
            ]
        );
        assert_eq!(
            kinds("Edit src/cart.test.ts, ~/.claude/settings.json, /etc/hosts and config.yaml."),
            vec![
                (ClaimKind::Path, "src/cart.test.ts"),
                (ClaimKind::Path, "~/.claude/settings.json"),
                (ClaimKind::Path, "/etc/hosts"),
                (ClaimKind::Path, "config.yaml"),
            ]
        );
        assert_eq!(kinds("npm/pnpm and and/or, e.g. this"), vec![]);
        assert_eq!(kinds("see testing.md and memory/people/alice.md"), vec![
            (ClaimKind::Link, "testing.md"),
            (ClaimKind::Link, "memory/people/alice.md"),
        ]);
        assert_eq!(kinds("fails at src/main.rs:12"), vec![(ClaimKind::Path, "src/main.rs")]);
    }

    #[test]
    fn versions_found() {
        assert_eq!(
            kinds("uses vitest v3.2.4 on shop@1.4.0 with Python 3.11."),
            vec![
                (ClaimKind::Version, "vitest v3.2.4"),
                (ClaimKind::Version, "1.4.0"),
                (ClaimKind::Version, "Python 3.11"),
            ]
        );
        let c = extract("Python 3.11");
        assert_eq!(c[0].value, ClaimValue::Text("3.11".into()));
    }
}
