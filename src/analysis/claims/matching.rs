//! Does a source text state a claim? [`needles`] for a fast pre-filter, [`occurs_in`] for
//! the exact test, [`date_stated_by`] for timestamps, [`overlaps`] for relative phrases.
//!
//! `occurs_in` first requires one of the claim's needles in the lowercased text, so the
//! needles are a superset filter by construction: a line no needle hits can be skipped.

use super::bound::{quantity_stated_in, version_stated};
use super::dates::{date_needles, find_dates};
use super::endpoints::{host_needles, host_port_occurs, is_literal, literal_needle, literal_occurs};
use super::numbers::{counted_in_any_script, unit_needle, with_generic_counters};
use super::occurs::{starts, token_occurs, word_occurs};
use super::text::is_word_char;
use super::written::Numbers;
use super::{Claim, ClaimKind, ClaimValue};
use crate::base::date::Date;

/// Lowercase strings one of which a source line must contain for [`occurs_in`] to hold:
/// feed them to a case-insensitive multi-pattern search (aho-corasick, `rg -F -i`) over raw
/// lines. Text needles never contain `"` or `\`, so they also hit JSON-escaped text.
/// Examples: `1,200 tests` → `["1200", "1,200"]`; `2026-11-01` → `["2026-11-01",
/// "2026/11/01", "nov 1", "november 1", "1 nov", "11/1", "11月1日", "11월 1일", …]`.
pub fn needles(claim: &Claim) -> Vec<String> {
    match &claim.value {
        ClaimValue::Date(spec) => date_needles(spec),
        ClaimValue::Number { value, .. } if is_literal(value) => vec![literal_needle(value)],
        ClaimValue::Number { value, unit } => {
            // A number of one or two digits is found on nearly every transcript line (times,
            // counts, ids): look for its unit word instead, which the claim requires too.
            if value.len() <= 2
                && let Some(needle) = unit.as_deref().and_then(unit_needle)
            {
                // A count may be written in another script with a generic counter glued to
                // it (`12개 레이어` for `12 layers`), which states it too (see `bound`).
                let counted = unit.as_deref().is_some_and(counted_in_any_script);
                let glued = with_generic_counters(value).filter(|_| counted);
                // The amount in another unit of its measure (`500` ms for `0.5 s`).
                let converted = super::conversion::converted_needles(value, unit.as_deref());
                return std::iter::once(needle).chain(glued).chain(converted).collect();
            }
            let mut out = vec![value.clone()];
            // Abbreviated as the note abbreviates it (`48.2` for `$48.2k`).
            out.extend(super::numbers::mantissa(&claim.text).map(str::to_string));
            let grouped = with_thousands(value);
            if grouped != *value {
                out.push(grouped);
            }
            out.extend(super::numbers::number_word(value).map(str::to_string));
            out.extend(super::conversion::converted_needles(value, unit.as_deref()));
            // A more precise amount that rounds to it (`41.27` for `41.3`).
            if let Some((whole, _)) = value.split_once('.') {
                out.push(format!("{whole}."));
            }
            out
        }
        ClaimValue::Port { host: Some(host), .. } => host_needles(host),
        ClaimValue::Port { host: None, port } => {
            let grouped = with_thousands(port);
            if grouped == *port { vec![grouped] } else { vec![port.clone(), grouped] }
        }
        // A version of a product is looked for by the longer of the two: `16` is on nearly
        // every line, `postgres` is not, and the product must be there.
        ClaimValue::Text(value) if claim.kind == ClaimKind::Version => {
            let product = claim.subject.as_ref().map(|s| s.label.stem.as_str()).filter(|p| p.len() > value.len());
            let mut out: Vec<String> = json_safe_piece(product.unwrap_or(value)).into_iter().collect();
            // A plugin a host tool lists by the last part of its name (`cov-7.0.0`).
            if let Some((_, last)) = product.and_then(|p| p.rsplit_once('-')).filter(|(_, l)| l.len() >= 3) {
                out.extend(["-", "=", "@"].iter().filter_map(|sep| json_safe_piece(&format!("{last}{sep}{value}"))));
            }
            out
        }
        ClaimValue::Text(value) if claim.kind == ClaimKind::Number => super::clock::clock_needles(value),
        ClaimValue::Text(value) => match glob_parts(value) {
            Some(parts) => parts.iter().max_by_key(|p| p.len()).and_then(|p| json_safe_piece(p)).into_iter().collect(),
            // A name may be written in its other number (`devDependency`, `devDependencies`),
            // or with spaces for its hyphens.
            None if claim.kind == ClaimKind::Name && value.len() >= 4 => std::iter::once(value.clone())
                .chain(super::occurs::other_forms(value))
                .filter_map(|v| json_safe_piece(&v))
                .collect(),
            None => json_safe_piece(value).into_iter().collect(),
        },
    }
}

/// The literal parts of a glob claim (`.claude/*.local.*` → `.claude/`, `.local.`, ``):
/// a code or path claim holding `*` with at least three other bytes in one part. Not a glob:
/// `**bold**`-like runs of stars only, or a `*` with too little beside it to look for.
fn glob_parts(value: &str) -> Option<Vec<&str>> {
    if !value.contains('*') {
        return None;
    }
    let parts: Vec<&str> = value.split('*').collect();
    (parts.len() <= 8 && parts.iter().any(|p| p.len() >= 3)).then_some(parts)
}

/// True when `lower` writes the glob whose literal parts are `parts`, or a path it matches:
/// each `*` stands for up to 64 chars with no space, quote, bracket or (for a single `*`)
/// slash; `**` crosses slashes. `.claude/*.local.*` is stated by `.claude/*.local.md`.
fn glob_occurs(parts: &[&str], lower: &str) -> bool {
    let lead = parts.iter().take_while(|p| p.is_empty()).count();
    let Some((first, more)) = parts[lead..].split_first() else { return false };
    starts(lower, first).any(|i| {
        let opens =
            lead > 0 || !first.starts_with(is_word_char) || !lower[..i].chars().next_back().is_some_and(is_word_char);
        let after = i + first.len();
        let closes = !more.is_empty() || ends_word(first, lower, after);
        opens && closes && after_star(more, lower, after, lead > 1)
    })
}

/// True when the text from `at` matches `parts`, each of which follows a `*` of the glob
/// (an empty part before another is a `**`, which may cross slashes).
fn after_star(parts: &[&str], lower: &str, at: usize, slash_ok: bool) -> bool {
    let Some((&part, more)) = parts.split_first() else { return true };
    if part.is_empty() {
        return more.is_empty() || after_star(more, lower, at, true);
    }
    let stop = |c: char| {
        c.is_whitespace()
            || matches!(c, '"' | '\'' | '`' | '(' | ')' | '[' | ']' | '<' | '>' | ',')
            || c == '/' && !slash_ok
    };
    // Where the part may start: as far as the star can reach.
    let mut reach = at;
    for (i, c) in lower[at..].char_indices() {
        if i > 64 || stop(c) {
            break;
        }
        reach = at + i + c.len_utf8();
    }
    let mut end = (reach + part.len()).min(lower.len());
    while !lower.is_char_boundary(end) {
        end -= 1;
    }
    starts(&lower[at..end], part).any(|k| {
        let after = at + k + part.len();
        (!more.is_empty() || ends_word(part, lower, after)) && after_star(more, lower, after, false)
    })
}

/// True when a literal that ends at `after` in `lower` does not end inside a word.
fn ends_word(literal: &str, lower: &str, after: usize) -> bool {
    !literal.ends_with(is_word_char) || !lower[after..].starts_with(is_word_char)
}

/// `1234567.5` → `1,234,567.5`.
pub(super) fn with_thousands(value: &str) -> String {
    let (int, frac) = match value.split_once('.') {
        Some((i, f)) => (i, Some(f)),
        None => (value, None),
    };
    let digits: Vec<char> = int.chars().collect();
    let mut out = String::new();
    for (i, c) in digits.iter().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(*c);
    }
    if let Some(f) = frac {
        out.push('.');
        out.push_str(f);
    }
    out
}

/// The longest piece of `value` free of characters JSON escapes (`"`, `\`, controls).
fn json_safe_piece(value: &str) -> Option<String> {
    value
        .split(|c: char| c == '"' || c == '\\' || c.is_control())
        .max_by_key(|p| p.len())
        .filter(|p| !p.is_empty())
        .map(str::to_string)
}

/// True when `text` states the claim: case-insensitive; a number as a whole number token
/// (214 ≠ 2140 ≠ 1.214, 1,200 = 1200) with its unit word anywhere in the text (singular or
/// plural, synonyms such as `s`/`seconds`); a date as any form of a date the claim covers
/// (see [`super::DateSpec::contains`]: `late Oct 2026` is stated by `late October 2026` or
/// `2026-10-25`, not by `October 2026`); a version as a version token (`3.11` is stated by
/// `3.11.4`); names, code, paths, URLs and links as substrings that do not start or end
/// inside a word (`npm test` is not stated by `pnpm test`).
pub fn occurs_in(claim: &Claim, text: &str) -> bool {
    Haystack::new(text).states(claim)
}

/// A source text prepared for [`occurs_in`] against many claims: lowercased once, its
/// dates found once (when a date claim first asks), instead of once per claim.
pub struct Haystack<'a> {
    text: &'a str,
    lower: std::borrow::Cow<'a, str>,
    /// The day the text was said (a transcript line's timestamp, a daily note's date):
    /// dates it states without a year take the year nearest it.
    anchor: Option<crate::base::date::Date>,
    dates: std::cell::OnceCell<Vec<super::dates::FoundDate>>,
    numbers: Numbers<'a>,
}

impl<'a> Haystack<'a> {
    /// Prepares `text`.
    pub fn new(text: &'a str) -> Haystack<'a> {
        Haystack::dated(text, None)
    }

    /// Prepares `text` said on `anchor`: "March 2" in it states 2026-03-02 when said on
    /// 2026-03-04, not 2025-03-02. Without an anchor a yearless date states that day in
    /// any year.
    pub fn dated(text: &'a str, anchor: Option<crate::base::date::Date>) -> Haystack<'a> {
        Haystack {
            text,
            lower: crate::base::text::lowercase(text).into(),
            anchor,
            dates: std::cell::OnceCell::new(),
            numbers: Numbers::new(text),
        }
    }

    /// Prepares `text` whose lowercase the caller already has (`lower`, which must be
    /// `text.to_lowercase()`), said on no known day.
    pub(super) fn lowered(text: &'a str, lower: &'a str) -> Haystack<'a> {
        debug_assert_eq!(lower, text.to_lowercase());
        Haystack {
            text,
            lower: lower.into(),
            anchor: None,
            dates: std::cell::OnceCell::new(),
            numbers: Numbers::new(text),
        }
    }

    /// [`occurs_in`] on this text.
    pub fn states(&self, claim: &Claim) -> bool {
        occurs_in_prepared(claim, &needles(claim), self)
    }

    /// [`Haystack::states`] for a claim whose [`needles`] the caller made once.
    pub fn states_with(&self, claim: &Claim, needles: &[String]) -> bool {
        occurs_in_prepared(claim, needles, self)
    }
}

fn occurs_in_prepared(claim: &Claim, keys: &[String], hay: &Haystack<'_>) -> bool {
    let (text, lower) = (hay.text, hay.lower.as_ref());
    if !keys.iter().any(|n| lower.contains(n.as_str())) {
        return false;
    }
    match &claim.value {
        ClaimValue::Date(spec) => hay
            .dates
            .get_or_init(|| {
                let mut found = find_dates(text);
                if let Some(anchor) = hay.anchor {
                    for f in &mut found {
                        f.spec = f.spec.anchored(anchor);
                    }
                }
                found
            })
            .iter()
            .any(|f| spec.contains(&f.spec)),
        ClaimValue::Number { value, .. } if is_literal(value) => literal_occurs(value, text),
        ClaimValue::Number { value, unit } => {
            quantity_stated_in(value, unit.as_deref(), claim.subject.as_ref(), &hay.numbers)
        }
        // A port is its number (as `port 8443`, `:8443`, `host:8443`…, never a quantity of
        // something else), and its host when the claim names one.
        ClaimValue::Port { host: None, port } => quantity_stated_in(port, Some("port"), None, &hay.numbers),
        ClaimValue::Port { host: Some(host), port } => host_port_occurs(host, port, text, lower),
        ClaimValue::Text(value) => match claim.kind {
            ClaimKind::Version => version_stated(value, claim.subject.as_ref(), lower),
            ClaimKind::Number => super::clock::clock_stated(value, lower),
            _ => match glob_parts(value) {
                Some(parts) => glob_occurs(&parts, lower),
                None if matches!(claim.kind, ClaimKind::Path | ClaimKind::Code | ClaimKind::Url) => {
                    token_occurs(value, lower, claim.kind == ClaimKind::Code)
                }
                None if claim.kind == ClaimKind::Name => super::occurs::name_occurs(value, lower),
                None => word_occurs(value, lower),
            },
        },
    }
}

/// True when the claim is a date that can mean `date` (used with a cited line's
/// timestamp: a note saying 2026-11-01 is stated by a line written on 2026-11-01). A coarser
/// claim (`November 2026`, `in 2026`) is stated by any day inside it.
pub fn date_stated_by(claim: &Claim, date: Date) -> bool {
    claim.date().is_some_and(|spec| spec.includes_day(date))
}

/// True when the claim is a date whose days intersect the inclusive `range` (the days a
/// relative phrase can mean, see [`super::Relative::resolve`]). A date without a year is
/// tried in every year the range touches.
pub fn overlaps(claim: &Claim, range: (Date, Date)) -> bool {
    date_relates(claim, range, |(a, b), (lo, hi)| a <= hi && lo <= b)
}

/// True when the claim is a date whose days include every day of the inclusive `range`
/// (the days a relative phrase denotes): the line stating the phrase states the claim
/// ("昨日" said on 2026-03-10 states `2026-03-09` and `March 2026`, not `2026-03-10`). A
/// date without a year is tried in every year the range touches.
pub fn covers(claim: &Claim, range: (Date, Date)) -> bool {
    date_relates(claim, range, |(a, b), (lo, hi)| a <= lo && hi <= b)
}

/// True when the claim is a date whose days, read in some year the inclusive `range`
/// touches (its own year when it has one), stand in relation `to` with the range (both as
/// inclusive `(first, last)` days, the range in order).
fn date_relates(claim: &Claim, range: (Date, Date), to: impl Fn((Date, Date), (Date, Date)) -> bool) -> bool {
    let Some(spec) = claim.date() else {
        return false;
    };
    let (lo, hi) = if range.0 <= range.1 { range } else { (range.1, range.0) };
    let years: Vec<i32> = match spec.year() {
        Some(y) => vec![y],
        None => (lo.year..=hi.year).collect(),
    };
    years.into_iter().any(|y| spec.range_in(y).is_some_and(|days| to(days, (lo, hi))))
}

#[cfg(test)]
mod tests {
    use super::super::occurs::version_token;
    use super::*;

    #[test]
    fn a_yearless_date_takes_the_year_nearest_the_day_it_was_said() {
        let date = |line: &str| super::super::extract(line).into_iter().find(|c| c.kind == ClaimKind::Date).unwrap();
        let said_on = |y, m, d| Some(crate::base::date::Date::new(y, m, d).unwrap());
        let hay = Haystack::dated("the job ran on March 2", said_on(2026, 3, 4));
        assert!(hay.states(&date("ran on 2026-03-02")));
        assert!(!hay.states(&date("ran on 2025-03-02")));
        assert!(!hay.states(&date("ran on 2027-03-02")));
        // Around New Year the nearest year is the one before.
        let hay = Haystack::dated("released on Dec 30", said_on(2026, 1, 3));
        assert!(hay.states(&date("released on 2025-12-30")));
        assert!(!hay.states(&date("released on 2026-12-30")));
        // Without the day it was said, any year.
        assert!(Haystack::new("the job ran on March 2").states(&date("ran on 2025-03-02")));
    }

    #[test]
    fn a_number_written_with_another_unit_of_measure_is_not_the_claim() {
        let number =
            |line: &str| super::super::extract(line).into_iter().find(|c| c.kind == ClaimKind::Number).unwrap();
        let said = "The table has 12480 rows; the query took 1500 ms.";
        assert!(occurs_in(&number("it has 12,480 rows"), said));
        assert!(occurs_in(&number("it took 1,500 ms"), said));
        assert!(!occurs_in(&number("it has 1,500 rows"), said), "1500 is milliseconds there");
        assert!(!occurs_in(&number("it took 12,480 ms"), said), "12480 is rows there");
        // The unit may still stand elsewhere when the number carries none, or a count word.
        assert!(occurs_in(&number("12 tests passed"), "ran 12 new tests"));
        assert!(occurs_in(&number("took 12 seconds"), "took 12 (seconds, not minutes)"));
        // A number written as a quantity of something is no port.
        assert!(!occurs_in(&number("on port 6379"), "waited 6379 ms"));
        assert!(occurs_in(&number("on port 6379"), "port: 6379 (tcp)"));
    }

    #[test]
    fn cjk_ports_and_counters() {
        let number = |line: &str| super::super::extract(line).into_iter().find(|c| c.kind == ClaimKind::Number);
        for line in ["- ポートは 6380。", "- 포트는 6380.", "- 端口是 6380。", "- ポート6380を使う"] {
            let c = number(line).unwrap_or_else(|| panic!("no claim in {line}"));
            assert!(occurs_in(&c, "Redis listens on port 6380"), "{line}: {c:?}");
            assert!(!occurs_in(&c, "Redis listens on port 6379"), "{line}");
        }
        let servers = number("- 서버는 7대.").expect("a counted number");
        assert!(!occurs_in(&servers, "we run 5 servers"));
        // A counter that only counts: an English source with the number states it.
        let tests = number("- テストは214件通過。").unwrap();
        assert!(occurs_in(&tests, "Tests: 214 passed, 214 total"));
        assert!(!occurs_in(&tests, "Tests: 213 passed"));
    }

    #[test]
    fn a_product_version_needs_its_product() {
        let version =
            |line: &str| super::super::extract(line).into_iter().find(|c| c.kind == ClaimKind::Version).unwrap();
        let said = "The dev database is PostgreSQL 16.4 now.";
        assert!(!occurs_in(&version("Dev DB is MySQL 16.4."), said));
        assert!(!occurs_in(&version("Dev DB is Redis 16.4."), said));
        assert!(occurs_in(&version("Dev DB is Postgres 16.4."), said));
        assert!(occurs_in(&version("Dev DB is PostgreSQL 16.4."), said));
        // A bare version needs only itself.
        assert!(occurs_in(&version("pinned v16.4.0"), "pinned to 16.4.0"));
    }

    #[test]
    fn a_small_count_written_as_a_word_states_the_number() {
        let number =
            |line: &str| super::super::extract(line).into_iter().find(|c| c.kind == ClaimKind::Number).unwrap();
        assert!(occurs_in(&number("PRs need 2 approvals."), "PRs need Two approvals before merge"));
        assert!(occurs_in(&number("retried 3 times"), "flaky tests get retried three times in CI"));
        assert!(!occurs_in(&number("PRs need 3 approvals."), "PRs need two approvals before merge"));
        assert!(!occurs_in(&number("runs 2 workers"), "network workers are down"), "no word inside a word");
    }

    #[test]
    fn a_path_or_command_the_source_goes_on_past_is_another_one() {
        let claim = |line: &str| super::super::extract(line).into_iter().next().unwrap();
        let path = claim("Edit config/runtime.exs first.");
        assert!(!occurs_in(&path, "copy config/runtime.exs.example first"));
        assert!(occurs_in(&path, "edit config/runtime.exs. Then boot"));
        assert!(occurs_in(&path, "see config/runtime.exs: it sets the port"));
        // A path's line number is no other path.
        assert!(occurs_in(&path, "config/runtime.exs:12: config :app, port: 4000"));
        let build = claim("Deploys use `npm run build`.");
        assert!(!occurs_in(&build, "run `npm run build:prod` for deploys"));
        assert!(occurs_in(&build, "ran npm run build, it passed"));
        let force = claim("Push with `git push --force`.");
        assert!(!occurs_in(&force, "always git push --force-with-lease"));
        // A name is a word: `Node` is stated by `Node.js`.
        let name = claim("The API runs on Node.");
        assert!(occurs_in(&name, "the API runs on Node.js 20"), "{name:?}");
    }

    #[test]
    fn overlapping_occurrences_are_all_tried() {
        // Fuzz crash-ecc0c39a: the `ps://p` inside `https://` hid the real one after it.
        let line = "see https://ps://p (was npm)";
        for c in super::super::extract(line) {
            assert!(occurs_in(&c, line), "{c:?}");
        }
        assert!(word_occurs("aa b", "xaa b aa b"));
    }

    #[test]
    fn a_date_covers_what_a_phrase_denotes_only_when_it_holds_all_of_it() {
        let date = |line: &str| super::super::extract(line).into_iter().find(|c| c.kind == ClaimKind::Date).unwrap();
        let d = |y, m, day| Date::new(y, m, day).unwrap();
        let yesterday = (d(2026, 3, 9), d(2026, 3, 9));
        assert!(covers(&date("deployed on 2026-03-09"), yesterday));
        assert!(!covers(&date("deployed on 2026-03-10"), yesterday));
        assert!(covers(&date("deployed in March 2026"), yesterday));
        assert!(covers(&date("deployed on March 9"), yesterday), "a yearless date takes the range's year");
        let window = (d(2026, 2, 8), d(2026, 3, 10));
        assert!(!covers(&date("downloads in February 2026"), window));
        assert!(overlaps(&date("downloads in February 2026"), window));
        assert!(covers(&date("downloads in 2026"), window));
        let port = super::super::extract("on port 8080").into_iter().next().expect("a number claim");
        assert!(!covers(&port, window), "not a date");
    }

    #[test]
    fn thousands() {
        assert_eq!(with_thousands("1200"), "1,200");
        assert_eq!(with_thousands("214"), "214");
        assert_eq!(with_thousands("1234567.5"), "1,234,567.5");
    }

    #[test]
    fn json_pieces() {
        assert_eq!(json_safe_piece("grep \"foo bar\" x"), Some("foo bar".into()));
        assert_eq!(json_safe_piece("pnpm test"), Some("pnpm test".into()));
        assert_eq!(json_safe_piece("\""), None);
    }

    fn number_claim(line: &str) -> Claim {
        super::super::extract(line).into_iter().find(|c| c.kind == ClaimKind::Number).expect("a number claim")
    }

    #[test]
    fn a_glob_is_stated_by_itself_or_a_path_it_matches() {
        let c = |line: &str| super::super::extract(line).into_iter().find(|c| c.kind == ClaimKind::Code).unwrap();
        let local = c("ignored: `.claude/*.local.*` only");
        assert_eq!(needles(&local), [".claude/"]);
        assert!(occurs_in(&local, "2→.claude/bin/\n 3→.claude/*.local.md\n"));
        assert!(occurs_in(&local, "patterns: .claude/*.local.*"));
        assert!(!occurs_in(&local, ".claude/settings.json and x.local.md"));
        assert!(!occurs_in(&local, ".claude/sub/dir.local.md"));
        let ts = c("tests live in `src/**/*.test.ts`");
        assert!(occurs_in(&ts, "PASS src/cart/price.test.ts"));
        assert!(!occurs_in(&ts, "PASS src/cart/price.test.tsx"));
        assert!(!occurs_in(&ts, "PASS lib/cart/price.test.ts"));
        let pyc = c("ignore `*.pyc` files");
        assert!(occurs_in(&pyc, "__pycache__/mod.cpython-312.pyc"));
        assert!(!occurs_in(&pyc, "a .pycache dir"));
    }

    #[test]
    fn short_numbers_are_looked_for_by_their_unit() {
        // 12 is everywhere; its unit word is what a stating line must also have.
        let c = number_claim("The invoices table has 12 columns.");
        assert_eq!(needles(&c)[0], "colu");
        // … or the number with a generic CJK counter (`12개`): columns are counted things.
        assert!(needles(&c).contains(&"12개".to_string()));
        assert!(occurs_in(&c, "Query returned: 12 Columns in invoices"));
        assert!(!occurs_in(&c, "12 rows"));
        // Longer numbers keep the number; synonyms and `%` keep it too (`12 ms` states
        // 12 milliseconds without spelling the stem).
        assert_eq!(needles(&number_claim("The suite has 482 tests.")), ["482"]);
        let ms = number_claim("p99 is 12 milliseconds.");
        // (and a count of 2 to 12 its English word: `twelve milliseconds`, and the amount in
        // another unit of time: `0.012` s)
        assert_eq!(needles(&ms), ["12", "twelve", "0.012"]);
        assert!(occurs_in(&ms, "p99 12 ms"));
        assert_eq!(needles(&number_claim("Coverage is 12%.")), ["12", "twelve"]);
    }

    #[test]
    fn unit_needles_are_certain() {
        use super::super::numbers::unit_needle;
        assert_eq!(unit_needle("columns").as_deref(), Some("colu"));
        assert_eq!(unit_needle("台").as_deref(), Some("台"));
        // A counter that only counts needs not be in the source: the number is the needle.
        assert_eq!(unit_needle("件"), None);
        assert_eq!(unit_needle("entries").as_deref(), Some("entr"));
        // A prefix label, %, synonyms, a stem a synonym reaches, too short a unit.
        for none in ["port", "%", "s", "seconds", "hourly", "tests"] {
            assert_eq!(unit_needle(none), None, "{none}");
        }
    }

    #[test]
    fn version_and_word_boundaries() {
        assert!(version_token("3.11", "python 3.11.4"));
        assert!(!version_token("3.11", "13.11"));
        assert!(!version_token("3.2.4", "3.2.45"));
        assert!(word_occurs("redis", "redis-server up"));
        assert!(!word_occurs("redis", "redisson"));
        assert!(word_occurs("redis", "redisは不要"));
    }

    fn first(line: &str, kind: ClaimKind) -> Claim {
        super::super::extract(line)
            .into_iter()
            .find(|c| c.kind == kind)
            .unwrap_or_else(|| panic!("no {kind:?} in {line}"))
    }

    #[test]
    fn host_and_port_forms_are_one_claim() {
        // Every way of writing port 8443 is stated by every other.
        let forms = ["listens on port 8443", "listens on :8443", "ポート 8443 で待ち受け", "포트 8443", "端口 8443"];
        for note in forms {
            let c = first(note, ClaimKind::Number);
            assert_eq!(c.value, ClaimValue::Port { host: None, port: "8443".into() }, "{note}");
            for said in ["nginx on port 8443", "curl https://example.com:8443/x", "bound 0.0.0.0:8443"] {
                assert!(occurs_in(&c, said), "{note} in {said}");
            }
            assert!(!occurs_in(&c, "nginx on port 8444"), "{note}");
        }
        // A host is part of the claim; loopback spellings state each other.
        let c = first("dev server at localhost:3000", ClaimKind::Number);
        assert_eq!(c.value, ClaimValue::Port { host: Some("localhost".into()), port: "3000".into() });
        assert!(occurs_in(&c, "Local: http://127.0.0.1:3000/"));
        assert!(occurs_in(&c, "running on localhost, port 3000"));
        assert!(!occurs_in(&c, "running on 10.0.0.7:3000"));
        assert!(!occurs_in(&c, "running on localhost:3001"));
        let c = first("cache is redis:6379", ClaimKind::Number);
        assert!(occurs_in(&c, "REDIS_URL=redis://redis:6379/0"));
        assert!(!occurs_in(&c, "REDIS_URL=redis://cache:6379/0"));
        assert_eq!(needles(&c), ["redis"]);
    }

    #[test]
    fn literal_numbers_are_claims() {
        let c = first("the mask is 0x1F40", ClaimKind::Number);
        assert_eq!(c.value, ClaimValue::Number { value: "0x1f40".into(), unit: None });
        assert!(occurs_in(&c, "mask = 0x00001f40"));
        assert!(!occurs_in(&c, "mask = 0x1f41"));
        assert!(!occurs_in(&c, "mask = 1f40"));
        let c = first("mode 0o755", ClaimKind::Number);
        assert!(occurs_in(&c, "chmod 0O755"));
    }

    #[test]
    fn glued_durations_sizes_percentages_money() {
        for (note, said, not_said) in [
            ("timeout 4h", "timeout set to 4 hours", "timeout set to 4 minutes"),
            ("p99 250ms", "p99 = 250 milliseconds", "p99 = 250 s"),
            ("retry after 30s", "retrying after 30 seconds", "retrying after 30 minutes"),
            ("cache 512MB", "cache size 512 MiB", "cache size 512 GB"),
            ("heap 2GiB", "heap: 2 GiB", "heap: 2 MiB"),
            ("coverage 85%", "coverage 85 percent", "coverage 86%"),
            ("costs $1,200", "total 1200 USD", "total 1300 USD"),
            ("予算は5,000円", "budget 5,000円", "budget 6,000円"),
        ] {
            let c = first(note, ClaimKind::Number);
            assert!(occurs_in(&c, said), "{note} in {said}");
            assert!(!occurs_in(&c, not_said), "{note} in {not_said}");
        }
    }

    #[test]
    fn a_bare_number_before_a_closed_class_word() {
        let c = first("4,310 between March and May", ClaimKind::Number);
        assert_eq!(c.text, "4,310");
        assert!(occurs_in(&c, "4,310 downloads (Mar-May)"));
        assert!(occurs_in(&c, "downloads: 4310"));
        assert!(!occurs_in(&c, "4,311 downloads"));
    }
}
