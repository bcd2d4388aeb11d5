//! Software versions in a line: `Python 3.11` (the whole phrase), `v3.2.4`, `1.4.0`.

use std::ops::Range;
use std::sync::LazyLock;

use regex::Regex;

use super::text::{char_at, char_before, is_word_char, overlap};
use super::words::PRODUCTS;

static PRODUCT_VERSION: LazyLock<Option<Regex>> = LazyLock::new(|| {
    Regex::new(r"(?P<prod>[A-Za-z][A-Za-z0-9.+#-]*)\s(?P<ver>[vV]?\d+\.\d+(?:\.\d+)*(?:-[0-9A-Za-z.]+)?)").ok()
});
static V_VERSION: LazyLock<Option<Regex>> =
    LazyLock::new(|| Regex::new(r"[vV](?P<ver>\d+(?:\.\d+){0,3}(?:-[0-9A-Za-z.]+)?)").ok());
static DOTTED_VERSION: LazyLock<Option<Regex>> =
    LazyLock::new(|| Regex::new(r"(?P<ver>\d+\.\d+\.\d+(?:\.\d+)?(?:-[0-9A-Za-z]+(?:\.[0-9A-Za-z]+)*)?)").ok());

/// Versions: `Python 3.11` (whole phrase), `v3.2.4`, `1.4.0`. Value: the number without `v`.
pub(crate) fn versions(line: &str) -> Vec<(Range<usize>, String)> {
    let mut out: Vec<(Range<usize>, String)> = Vec::new();
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
        for c in re.captures_iter(line) {
            let (Some(p), Some(v)) = (c.name("prod"), c.name("ver")) else {
                continue;
            };
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
            let (Some(m), Some(v)) = (c.get(0), c.name("ver")) else {
                continue;
            };
            if left_clean(m.start()) && right_ok(m.end()) && !out.iter().any(|(r, _)| overlap(r, &m.range())) {
                out.push((m.range(), v.as_str().to_ascii_lowercase()));
            }
        }
    }
    out
}
