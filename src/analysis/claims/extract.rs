//! [`extract`]: the claims of one note line, never overlapping.
//!
//! Recognisers run in priority order and a later one never takes bytes an earlier one
//! took: backticked code and Markdown links first (a date inside backticks is part of the
//! code claim), then relative time phrases (which are skipped: "last week" is not a claim,
//! nor is the "3 days" of "3 days ago"), host and port forms (`localhost:3000`, before the
//! URL, path and version recognisers could take the host) and literals in another base
//! (`0x1F40`), URLs (a path inside a URL is part of it), paths, dates, versions, numbers
//! with units, and finally proper names.

use std::ops::Range;
use std::sync::LazyLock;

use regex::Regex;

use super::binding::{clause_at, content_stems, label_of};
use super::dates::find_dates;
use super::endpoints::{host_ports, literals};
use super::names::find_names;
use super::numbers::{find_numbers, is_measure, whole_numbers};
use super::paths::{normalise_path, normalise_url, paths, urls};
use super::relative::relative_phrases;
use super::text::{Spans, is_cjk, is_word_char, overlap};
use super::versions::versions;
use super::{Claim, ClaimKind, ClaimValue, Label, Subject};

/// Claims found so far plus the byte ranges no later recogniser may use.
#[derive(Default)]
struct Acc {
    claims: Vec<Claim>,
    occupied: Spans,
}

impl Acc {
    fn free(&self, r: &Range<usize>) -> bool {
        self.occupied.free(r)
    }

    /// Adds a claim covering `r` (and occupying `outer`), unless the bytes are taken.
    fn add(&mut self, line: &str, kind: ClaimKind, r: Range<usize>, outer: Range<usize>, value: ClaimValue) {
        self.add_about(line, (kind, r, outer), value, None);
    }

    /// [`Acc::add`] for a value bound to a subject.
    fn add_about(
        &mut self,
        line: &str,
        (kind, r, outer): (ClaimKind, Range<usize>, Range<usize>),
        value: ClaimValue,
        subject: Option<Subject>,
    ) {
        let Some(text) = line.get(r.clone()) else {
            return;
        };
        if r.is_empty() || !self.free(&outer) {
            return;
        }
        self.occupied.insert(outer);
        // A value no needle can find (empty: `https://` or `~/` alone; only quotes or
        // backslashes, which JSON escapes: `` `\` ``) could never be sourced: its bytes are
        // taken, but it is no claim. Links are structure and stay.
        let findable = |v: &str| v.chars().any(|c| c != '"' && c != '\\' && !c.is_control());
        if kind != ClaimKind::Link && matches!(&value, ClaimValue::Text(v) if !findable(v)) {
            return;
        }
        self.claims.push(Claim { kind, text: text.to_string(), start: r.start, end: r.end, value, subject });
    }

    fn block(&mut self, r: Range<usize>) {
        if self.free(&r) {
            self.occupied.insert(r);
        }
    }
}

/// Every claim in `line`, in order of position. `claim.text == line[claim.start..claim.end]`
/// always holds, and no two claims overlap. Frontmatter keys, list markers and inline
/// metadata are the caller's concern (see `changes::structure_spans`).
///
/// Inside a [`super::memo::memoized`] scope, a line already read is not read again.
pub fn extract(line: &str) -> Vec<Claim> {
    super::memo::claims_of(line, read)
}

/// [`extract`], read.
pub(super) fn read(line: &str) -> Vec<Claim> {
    let mut acc = Acc::default();
    let codes = crate::base::text::code_spans(line);
    for (outer, kind, value) in links(line) {
        if !codes.iter().any(|(o, _)| o.contains(&outer.start)) {
            acc.add(line, kind, outer.clone(), outer, ClaimValue::Text(value));
        }
    }
    for (outer, inner) in codes {
        let mut value = line.get(inner.clone()).unwrap_or("").to_lowercase();
        // A folder in backticks (`todo-app/`) is the folder's name.
        if !value.contains(char::is_whitespace) && value.len() > 1 {
            value = value.trim_end_matches(['/', '\\']).to_string();
        }
        if inner.is_empty() {
            acc.block(outer);
        } else {
            acc.add(line, ClaimKind::Code, inner, outer, ClaimValue::Text(value));
        }
    }
    for rel in relative_phrases(line) {
        acc.block(rel.start..rel.end);
    }
    for p in host_ports(line) {
        let value = ClaimValue::Port { host: p.host, port: p.port };
        acc.add(line, ClaimKind::Number, p.range.clone(), p.range, value);
    }
    for (r, value) in literals(line) {
        let value = ClaimValue::Number { value, unit: None };
        acc.add(line, ClaimKind::Number, r.clone(), r, value);
    }
    for r in urls(line) {
        let value = normalise_url(line.get(r.clone()).unwrap_or(""));
        acc.add(line, ClaimKind::Url, r.clone(), r, ClaimValue::Text(value));
    }
    for r in super::ids::commit_ids(line) {
        let value = line.get(r.clone()).unwrap_or("").to_lowercase();
        acc.add(line, ClaimKind::Code, r.clone(), r, ClaimValue::Text(value));
    }
    for (r, kind) in paths(line) {
        let value = normalise_path(line.get(r.clone()).unwrap_or(""));
        acc.add(line, kind, r.clone(), r, ClaimValue::Text(value));
    }
    for r in super::flags::options(line) {
        let value = line.get(r.clone()).unwrap_or("").to_lowercase();
        acc.add(line, ClaimKind::Code, r.clone(), r, ClaimValue::Text(value));
    }
    for f in find_dates(line) {
        acc.add(line, ClaimKind::Date, f.range.clone(), f.range, ClaimValue::Date(f.spec));
    }
    // A time of day (`02:15`, `9:30pm`, `23時`): its value is the time on a 24-hour clock.
    for (r, value) in super::clock::clock_times(line) {
        acc.add(line, ClaimKind::Number, r.clone(), r, ClaimValue::Text(value));
    }
    for v in versions(line) {
        let subject = v.product.as_ref().and_then(|(pr, _)| product_subject(line, pr.clone(), &v.range));
        // `v2.3.1 of the SDK`: the product after the version is taken too (no name claim).
        let outer = match &v.product {
            Some((pr, _)) if pr.start >= v.range.end => v.range.start..pr.end,
            _ => v.range.clone(),
        };
        acc.add_about(line, (ClaimKind::Version, v.range.clone(), outer), ClaimValue::Text(v.value), subject);
    }
    let numbers = find_numbers(line, &|r| acc.free(r));
    for n in numbers {
        let subject = needs_label(n.unit.as_deref()).then(|| measure_subject(line, n.range.clone())).flatten();
        let value = match n.unit.as_deref() {
            // `port 8443`, `ポート 8443`: the same claim as `:8443`.
            Some("port" | "ports") if n.value.parse::<u32>().is_ok_and(|p| (1..=65535).contains(&p)) => {
                ClaimValue::Port { host: None, port: n.value }
            }
            _ => ClaimValue::Number { value: n.value, unit: n.unit },
        };
        acc.add_about(line, (ClaimKind::Number, n.range.clone(), n.range), value, subject);
    }
    for (r, value, subject) in labelled_values(line, &|r| acc.free(r)) {
        acc.add_about(line, (ClaimKind::Number, r.clone(), r), ClaimValue::Number { value, unit: None }, Some(subject));
    }
    for (r, value) in decimals(line, &|r| acc.free(r)) {
        acc.add(line, ClaimKind::Number, r.clone(), r, ClaimValue::Number { value, unit: None });
    }
    let taken = acc.occupied.clone();
    for r in find_names(line, taken.ranges()) {
        // A name glued to a word before or after it (`ABC` in `6379ABC`, `Redis` in
        // `Redis6月`, the date taken first) is a fragment: matching never finds a claim
        // that starts or ends inside a word, so it could never be sourced.
        let before = line.get(..r.start).and_then(|s| s.chars().next_back());
        let after = line.get(r.end..).and_then(|s| s.chars().next());
        if before.is_some_and(is_word_char) || after.is_some_and(is_word_char) {
            continue;
        }
        let value = line.get(r.clone()).unwrap_or("").to_lowercase();
        acc.add(line, ClaimKind::Name, r.clone(), r, ClaimValue::Text(value));
    }
    acc.claims.sort_by_key(|c| c.start);
    acc.claims
}

/// True when a number with `unit` says nothing of what it measures on its own: a duration,
/// size, share, factor, amount of money, or a bare number (`timeout 30s`, `budget $1,200`,
/// `max_connections = 100`). A count names its subject as its unit (`64 rows`) and a prefix
/// label (`port`, `PR #`) is its own subject.
fn needs_label(unit: Option<&str>) -> bool {
    match unit {
        None => true,
        Some(u) => is_measure(u) || matches!(u, "$" | "€" | "£" | "¥"),
    }
}

/// The subject of a measure at `range`: its label in the line, with the line's clause's
/// content words.
fn measure_subject(line: &str, range: Range<usize>) -> Option<Subject> {
    let label = label_of(line, range.clone())?;
    let clause = clause_at(line, range.start);
    Some(Subject { label, context: content_stems(line.get(clause).unwrap_or("")), required: false })
}

/// Numbers no other recogniser takes that are values by their label: a key (`fontSize:
/// 14`, `TIMEOUT=30`), an identifier (`max_connections 100`) or a noun that names a value
/// (`exit code 7`, `retries 3`). Each is bound to that label and stated only where a
/// source gives the value the same label.
fn labelled_values(line: &str, free: &dyn Fn(&Range<usize>) -> bool) -> Vec<(Range<usize>, String, Subject)> {
    let glued = |c: Option<char>| c.is_some_and(|c| super::text::is_word_char(c) || matches!(c, '_' | '.' | '-' | '/'));
    let mut out = Vec::new();
    for (r, value) in whole_numbers(line) {
        let before = line.get(..r.start).and_then(|s| s.chars().next_back());
        let after = line.get(r.end..).and_then(|s| s.chars().next());
        let after_digit = line.get(r.end + 1..).and_then(|s| s.chars().next()).is_some_and(|c| c.is_ascii_digit());
        // `main.rs:12`, `09:14`: a number glued to a colon is a location or a time.
        let colon = matches!(before, Some(':' | '：'));
        // A sentence's full stop is no glue; a decimal point is.
        let stop = after == Some('.') && !after_digit;
        if glued(before) || colon || (glued(after) && !stop) || !free(&r) {
            continue;
        }
        let Some(mut label) = label_of(line, r.clone()) else { continue };
        // A unit is no label (`分钟：15 min`): the value is a quantity of it, judged as one.
        if is_measure(&label.text) || super::words::CJK_COUNTERS.contains(&label.stem.as_str()) {
            continue;
        }
        if VALUE_LABELS.contains(&label.stem.as_str()) {
            // A noun that names a value binds it wherever it stands (`exits with code 7`).
            label.strong = true;
            label.noun = true;
        }
        if label.strong && (label.key || label.identifier || label.noun) {
            let clause = clause_at(line, r.start);
            let context = content_stems(line.get(clause).unwrap_or(""));
            out.push((r, value, Subject { label, context, required: true }));
        }
    }
    out
}

/// Decimals no other recogniser took (`NDCG 0.612 → 0.641`, `title boost raised to 3.5`):
/// a figure that precise is a claim on its own, label or not, stated where a source writes
/// that figure, a more precise one that rounds to it, or parts that add up to it (see
/// `bound::quantity_stated`, `bound::total_stated`). Not a piece of an identifier, a path or
/// a version (`v0.4`, `x86_64`, `1.2.3`), nor a location (`main.rs:1.5`), nor a series of
/// the line's own versions (`within 0.21` beside `0.21.11`); not a quantity of a unit no
/// recogniser reads (`1.5 小时`: a figure and its unit are judged together or not at all).
fn decimals(line: &str, free: &dyn Fn(&Range<usize>) -> bool) -> Vec<(Range<usize>, String)> {
    let glued = |c: Option<char>| c.is_some_and(|c| is_word_char(c) || matches!(c, '_' | '.' | '-' | '/' | ':' | '@'));
    whole_numbers(line)
        .filter(|(r, value)| {
            let before = line.get(..r.start).and_then(|s| s.chars().next_back());
            let after = line.get(r.end..).and_then(|s| s.chars().next());
            let after_digit = line.get(r.end + 1..).and_then(|s| s.chars().next()).is_some_and(|c| c.is_ascii_digit());
            // A sentence's full stop is no glue.
            let stop = after == Some('.') && !after_digit;
            let unit_after = line.get(r.end..).map(str::trim_start).and_then(|s| s.chars().next()).is_some_and(is_cjk);
            let series = line
                .match_indices(&format!("{value}."))
                .any(|(at, m)| line.get(at + m.len()..).is_some_and(|s| s.starts_with(|c: char| c.is_ascii_digit())));
            value.contains('.')
                && line.get(r.clone()).is_some_and(|t| t.contains('.'))
                && !glued(before)
                && (!glued(after) || stop)
                && !unit_after
                && !series
                && free(r)
        })
        .collect()
}

/// Nouns after which a number is a value of that thing (stems): `exit code 7`, `status 3`.
const VALUE_LABELS: &[&str] = &[
    "code", "status", "exit", "errno", "signal", "level", "tier", "prioriti", "attempt", "retri", "worker", "thread",
    "replica", "shard", "partit", "node", "instanc", "concurr", "parallel", "pid", "uid", "gid", "build", "job", "run",
    "step", "phase", "stage", "round", "epoch", "batch", "seed", "depth", "width", "height", "size", "limit", "count",
    "total", "max", "min",
];

/// The subject of a version: its product (a strong label: a name).
fn product_subject(line: &str, product: Range<usize>, version: &Range<usize>) -> Option<Subject> {
    let word = line.get(product.clone())?;
    if super::versions::GENERIC.contains(&word.to_ascii_lowercase().as_str()) {
        return None;
    }
    let stem = word.trim_start_matches('@').to_lowercase();
    let label = Label {
        text: word.to_string(),
        phrase: vec![stem.clone()],
        stem,
        strong: true,
        key: false,
        identifier: false,
        noun: true,
    };
    let clause = clause_at(line, version.start);
    Some(Subject { label, context: content_stems(line.get(clause).unwrap_or("")), required: false })
}

static MD_LINK: LazyLock<Option<Regex>> =
    LazyLock::new(|| Regex::new(r#"!?\[(?P<text>[^\]\n]*)\]\((?P<target>[^)\s]*)(?:\s+"[^"\n]*")?\)"#).ok());
static WIKI_LINK: LazyLock<Option<Regex>> = LazyLock::new(|| Regex::new(r"\[\[(?P<target>[^\]\n]+)\]\]").ok());

/// Markdown links to non-URL targets and wikilinks: (range, kind, normalised target).
/// Links to URLs are left to the URL recogniser.
fn links(line: &str) -> Vec<(Range<usize>, ClaimKind, String)> {
    // A link to nothing (`[]()`, `[](\\)`: blank, or only quotes and backslashes, which
    // no needle finds) names no note: no claim.
    let names_nothing = |t: &str| !t.chars().any(|c| c != '"' && c != '\\' && !c.is_control() && !c.is_whitespace());
    let mut out = Vec::new();
    if let Some(re) = &*WIKI_LINK {
        for c in re.captures_iter(line) {
            if let (Some(m), Some(t)) = (c.get(0), c.name("target")) {
                let target = t.as_str().split('|').next().unwrap_or("").trim().to_lowercase();
                if !names_nothing(&target) {
                    out.push((m.range(), ClaimKind::Link, target));
                }
            }
        }
    }
    if let Some(re) = &*MD_LINK {
        for c in re.captures_iter(line) {
            if let (Some(m), Some(t)) = (c.get(0), c.name("target")) {
                let target = t.as_str();
                let lower = target.to_lowercase();
                if names_nothing(&lower) || lower.contains("://") || lower.starts_with("mailto:") {
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

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(line: &str) -> Vec<(ClaimKind, &str)> {
        extract(line).into_iter().map(|c| (c.kind, &line[c.start..c.end])).collect()
    }

    #[test]
    fn code_spans_and_links() {
        assert_eq!(crate::base::text::code_spans("a `b` ``c ` d`` `e"), vec![(2..5, 3..4), (6..15, 8..13)]);
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
        assert_eq!(
            kinds("see testing.md and memory/people/alice.md"),
            vec![(ClaimKind::Link, "testing.md"), (ClaimKind::Link, "memory/people/alice.md"),]
        );
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
