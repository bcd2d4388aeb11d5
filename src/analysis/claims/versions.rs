//! Software versions in a line, each with the product it is a version of when the line
//! names one: `Python 3.11`, `Postgres 16`, `PostgreSQL version 16.4`, `v2.3.1 of the SDK`
//! (product and version), `v3.2.4`, `1.4.0` (a bare version).
//!
//! A whole number is a version only right after a product name (`Postgres 16`, `Node 20`,
//! `Grafana 11`) and when no unit word follows it (`Kafka 3 brokers` is a count): a known
//! product, a CamelCase name, or a capitalised word that is no ordinal noun (`Step 3`,
//! `Phase 2`, `Sprint 14` are no versions).

use std::ops::Range;
use std::sync::LazyLock;

use regex::Regex;

use super::numbers::{Suffix, suffix_unit};
use super::text::{char_at, char_before, is_word_char, overlap};
use super::words::{CAPS_STOP, PRODUCTS};

/// A version claim found in a line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct FoundVersion {
    /// The claim's bytes: the product and the version when both are written together
    /// (`Python 3.11`), else the version alone.
    pub range: Range<usize>,
    /// The version, lowercase, without a leading `v`.
    pub value: String,
    /// The product as written (`Python`, `SDK`), when the line names one.
    pub product: Option<(Range<usize>, String)>,
}

static PRODUCT_VERSION: LazyLock<Option<Regex>> = LazyLock::new(|| {
    Regex::new(r"(?P<prod>[A-Za-z][A-Za-z0-9._+#-]*)\s(?:[vV]ersion\s)?(?P<ver>[vV]?\d+(?:\.\d+)*(?:-[0-9A-Za-z.]+)?)")
        .ok()
});
static V_VERSION: LazyLock<Option<Regex>> =
    LazyLock::new(|| Regex::new(r"[vV](?P<ver>\d+(?:\.\d+){0,3}(?:-[0-9A-Za-z.]+)?)").ok());
static DOTTED_VERSION: LazyLock<Option<Regex>> =
    LazyLock::new(|| Regex::new(r"(?P<ver>\d+\.\d+\.\d+(?:\.\d+)?(?:-[0-9A-Za-z]+(?:\.[0-9A-Za-z]+)*)?)").ok());
static OF_PRODUCT: LazyLock<Option<Regex>> =
    LazyLock::new(|| Regex::new(r"^\s+of\s+(?:the\s+)?`?(?P<prod>@?[A-Za-z][A-Za-z0-9./_+#-]*[A-Za-z0-9])").ok());

/// Capitalised words that number things rather than name products (lowercase).
#[rustfmt::skip]
const ORDINAL_NOUNS: &[&str] = &[
    "step", "steps", "phase", "stage", "section", "chapter", "part", "day", "days", "week", "month", "year",
    "sprint", "round", "level", "tier", "option", "figure", "fig", "table", "item", "line", "lines", "test",
    "case", "room", "page", "slide", "episode", "season", "volume", "vol", "no", "number", "top", "group",
    "team", "batch", "wave", "iteration", "milestone", "ticket", "issue", "pr", "build", "job", "run",
    "attempt", "try", "task", "story", "epic", "row", "column", "col", "q", "h", "rule", "point",
    "priority", "p", "grade", "class", "block", "zone", "region", "floor", "lane", "port", "pid", "bug",
    "version", "ver", "release", "rev", "revision", "v", "about", "over", "under", "around", "than", "since",
    "until", "after", "before", "from", "to", "and", "or", "the", "a", "an", "of", "in", "on", "at", "for",
    "by", "with", "is", "was", "are", "be",
];

/// Words that introduce a version without naming a product (lowercase).
pub(crate) const GENERIC: &[&str] = &["version", "ver", "release", "v"];

/// Every version claim of `line`.
pub(crate) fn versions(line: &str) -> Vec<FoundVersion> {
    let mut out: Vec<FoundVersion> = Vec::new();
    let right_ok = |end: usize| {
        let next = char_at(line, end);
        let after = char_at(line, end + 1);
        let glued = next.is_some_and(|c| is_word_char(c) || c == '_');
        let continues = matches!(next, Some('.' | '-')) && after.is_some_and(|c| c.is_ascii_digit());
        !glued && !continues
    };
    let left_clean =
        |start: usize| char_before(line, start).is_none_or(|c| !is_word_char(c) && !matches!(c, '.' | '-' | '_'));
    if let Some(re) = &*PRODUCT_VERSION {
        // A rejected match is tried again from its next word (`CLI version 2.1.97`: not
        // `CLI`, but `version 2.1.97`).
        let mut from = 0;
        while let Some(c) = line.get(from..).and_then(|rest| re.captures(rest)) {
            let (Some(p), Some(v)) = (c.name("prod"), c.name("ver")) else { break };
            let (p_range, v_range) = (from + p.start()..from + p.end(), from + v.start()..from + v.end());
            let dotted = v.as_str().contains('.');
            let counts = !dotted && counted(line, v_range.end);
            // A zero-padded whole number is an id (`Migration 0042`, `Step 03`), no version.
            let padded = !dotted && v.as_str().trim_start_matches(['v', 'V']).starts_with('0') && v.as_str().len() > 1;
            // A sentence's end between them parts them (`… on Node. 20 minutes later`).
            let same_clause = super::clause::clause_at(line, v_range.start).contains(&p_range.start);
            if is_product(p.as_str(), dotted)
                && left_clean(p_range.start)
                && right_ok(v_range.end)
                && !counts
                && !padded
                && same_clause
            {
                let value = clean_version(v.as_str());
                let product = Some((p_range.clone(), p.as_str().to_string()));
                out.push(FoundVersion { range: p_range.start..v_range.end, value, product });
                from = v_range.end;
            } else {
                from = p_range.end + line.get(p_range.end..).and_then(|r| r.chars().next()).map_or(1, char::len_utf8);
            }
        }
    }
    for re in [&*V_VERSION, &*DOTTED_VERSION].into_iter().flatten() {
        for c in re.captures_iter(line) {
            let (Some(m), Some(v)) = (c.get(0), c.name("ver")) else {
                continue;
            };
            if left_clean(m.start()) && right_ok(m.end()) && !out.iter().any(|f| overlap(&f.range, &m.range())) {
                let product = product_after(line, m.end());
                out.push(FoundVersion { range: m.range(), value: v.as_str().to_ascii_lowercase(), product });
            }
        }
    }
    out
}

/// A version as compared: lowercase, without its `v`, its numbers (`1.4.0`) and a
/// pre-release or build suffix glued by `-` (`-rc1`, `-beta.2`), nothing after
/// (`1-.https` is `1`).
pub(crate) fn clean_version(written: &str) -> String {
    let v = written.trim_start_matches(['v', 'V']).to_ascii_lowercase();
    let numbers = v.find(|c: char| !(c.is_ascii_digit() || c == '.')).unwrap_or(v.len());
    let head = v[..numbers].trim_end_matches('.');
    let suffix = match v[numbers..].strip_prefix('-') {
        Some(s) if s.starts_with(|c: char| c.is_ascii_alphanumeric()) => {
            // Letters, digits and `-`; a point only before a digit (`-beta.2`), as the
            // tokens a source is read in join them.
            let b = s.as_bytes();
            let n = (0..b.len())
                .find(|&i| {
                    let c = b[i];
                    let point_ok = c == b'.' && b.get(i + 1).is_some_and(u8::is_ascii_digit);
                    !(c.is_ascii_alphanumeric() || c == b'-' || point_ok)
                })
                .unwrap_or(b.len());
            format!("-{}", s[..n].trim_end_matches(['.', '-']))
        }
        _ => String::new(),
    };
    // A number ending in a point (`1.`) takes no suffix after it.
    if head.len() < numbers { head.to_string() } else { format!("{head}{suffix}") }
}

/// True when `word` before a version names a product: a known product, a CamelCase name,
/// or (for a dotted version, or any version after a capitalised word) a capitalised word
/// that is no ordinal noun. Generic words (`version`, `release`) name none.
fn is_product(word: &str, dotted: bool) -> bool {
    let lower = word.to_ascii_lowercase();
    // `version 2.1.97`: a version claim of no product (see `GENERIC`).
    if GENERIC.contains(&lower.as_str()) {
        return dotted;
    }
    if ORDINAL_NOUNS.contains(&lower.as_str()) || CAPS_STOP.contains(&word) {
        return false;
    }
    if PRODUCTS.contains(&lower.as_str()) {
        return true;
    }
    let camel =
        word.chars().skip(1).any(|ch| ch.is_ascii_uppercase()) && word.chars().any(|ch| ch.is_ascii_lowercase());
    // A package name (`opentelemetry_api`, `react-dom`) before a dotted version.
    let package =
        dotted && word.contains(['_', '-']) && word.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
    if package {
        return true;
    }
    let capitalised = word.chars().next().is_some_and(|c| c.is_ascii_uppercase()) && word.len() >= 2;
    // A capitalised verb or plural starting a sentence (`Removed 12`, `Needs 2`) is no product.
    let verb_like = lower.ends_with("ed") || lower.ends_with("ing") || lower.ends_with('s');
    let plain = word.chars().skip(1).all(|c| c.is_ascii_lowercase() || c.is_ascii_digit());
    camel || (capitalised && !super::closed::english(&lower) && (dotted || (plain && !verb_like)))
}

/// True when a unit word follows the number ending at `end` (`3 brokers`, `16 GB`): a count.
pub(crate) fn counted(line: &str, end: usize) -> bool {
    // Read as written and lowercased (`2 Mo` is `2 mo`, two months), so that the note's
    // line and a source read lowercased agree on it.
    let unit = |t: &str, at: usize| matches!(suffix_unit(t, at), Suffix::Unit(..));
    unit(line, end) || line.get(end..).is_some_and(|rest| unit(&rest.to_lowercase(), 0))
}

/// The product named right after a bare version: `v2.3.1 of the SDK`, `1.4.0 of @acme/sdk`.
fn product_after(line: &str, end: usize) -> Option<(Range<usize>, String)> {
    let rest = line.get(end..)?;
    let c = OF_PRODUCT.as_ref()?.captures(rest)?;
    let p = c.name("prod")?;
    let word = p.as_str();
    let generic = ORDINAL_NOUNS.contains(&word.to_ascii_lowercase().as_str());
    (!generic).then(|| (end + p.start()..end + p.end(), word.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(line: &str) -> Vec<(&str, String, Option<String>)> {
        versions(line).into_iter().map(|f| (&line[f.range], f.value, f.product.map(|(_, p)| p))).collect()
    }

    fn v(text: &str, value: &str, product: Option<&str>) -> (&'static str, String, Option<String>) {
        (Box::leak(text.to_string().into_boxed_str()), value.to_string(), product.map(str::to_string))
    }

    #[test]
    fn products_with_whole_number_versions() {
        assert_eq!(found("We run Postgres 17 in dev."), vec![v("Postgres 17", "17", Some("Postgres"))]);
        assert_eq!(found("upgrade to node 22."), vec![v("node 22", "22", Some("node"))]);
        assert_eq!(found("Grafana 11 is out"), vec![v("Grafana 11", "11", Some("Grafana"))]);
        assert_eq!(found("PostgreSQL version 16.4"), vec![v("PostgreSQL version 16.4", "16.4", Some("PostgreSQL"))]);
        for none in [
            "Step 3 is done",
            "Kafka 3 brokers",
            "Phase 2 starts",
            "Sprint 14 review",
            "about 3 of them",
            "Removed 12",
            "Migration 0042 is written",
        ] {
            assert_eq!(found(none), vec![], "{none}");
        }
    }

    #[test]
    fn a_product_after_a_bare_version() {
        assert_eq!(found("pinned v2.3.1 of the SDK"), vec![v("v2.3.1", "2.3.1", Some("SDK"))]);
        assert_eq!(found("1.4.0 of `@acme/sdk` ships"), vec![v("1.4.0", "1.4.0", Some("@acme/sdk"))]);
        assert_eq!(found("uses vitest v3.2.4"), vec![v("vitest v3.2.4", "3.2.4", Some("vitest"))]);
        assert_eq!(found("shop@1.4.0"), vec![v("1.4.0", "1.4.0", None)]);
        assert_eq!(
            found("opentelemetry_api 1.5.0"),
            vec![v("opentelemetry_api 1.5.0", "1.5.0", Some("opentelemetry_api"))]
        );
    }
}
