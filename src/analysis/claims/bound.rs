//! Value claims judged where the source binds a value to a subject: a number with its unit
//! and label, a version with its product. [`quantity_stated`] and [`version_stated`] say
//! whether a source text states such a claim; [`contradiction`] finds the clause where a
//! source binds the claim's subject to another value ("Postgres 16" against a note's
//! `Postgres 17`, "64 rows" against `40 rows`, `timeout: 60s` against `timeout 30s`).

use std::ops::Range;

use super::binding::{
    clause_at, label_among, label_of, product_versions, same_subject, tokens, version_matches, word_start,
};
use super::numbers::{Suffix, number_words, numbers_equal, unit_key, unit_stem};
use super::text::char_before;
use super::words::{CJK_CURRENCY_WORDS, GENERIC_COUNTERS, OUTCOMES, PREFIX_LABELS};
use super::written::{Numbers, Written, numbers, written};
use super::{Claim, ClaimKind, ClaimValue, Subject};

/// The comparable stem of a unit word (`tests` → `test`, `s` → `second`).
fn unit_id(unit: &str) -> String {
    unit_stem(&unit_key(unit))
}

/// True when the number written at `w` carries `unit` (glued or next to it, a few words
/// after it in its clause — `64 new rows` — or as the key it is written under: `rows: 64`,
/// `Tests: 1 failed, 213 passed, 214 total`).
fn carries_unit(text: &str, w: &Written, unit: &str) -> bool {
    let want = unit_id(unit);
    if let Suffix::Unit(_, own) = &w.suffix
        && unit_id(own) == want
    {
        return true;
    }
    // A count in one state is no count in another (`9 unsupported` under `No failures:`):
    // the number's own word says which.
    let outcome = |u: &str| OUTCOMES.contains(&u.to_lowercase().as_str());
    if let Suffix::Unit(_, own) = &w.suffix
        && outcome(own)
        && outcome(unit)
    {
        return false;
    }
    // A count written in another script: `12 layers` (an English entry) is `12개 레이어` in
    // a Korean source, whose generic counter says "this many things" and leaves the thing
    // to a word no Latin unit compares with. Units of measure are compared as ever.
    if super::numbers::counted_in_any_script(unit)
        && matches!(&w.suffix, Suffix::Unit(_, own) if GENERIC_COUNTERS.contains(&own.as_str()))
    {
        return true;
    }
    if unit.chars().any(super::text::is_cjk) {
        // A CJK counter is written glued to its number (`214件`, `7대`).
        return text.get(w.range.end..).is_some_and(|r| r.trim_start().starts_with(unit));
    }
    let clause = clause_at(text, w.range.start);
    let toks = tokens(text, clause);
    let Some(at) = toks.iter().position(|t| t.range.end > w.range.start) else { return false };
    let word_is_unit = |r: &Range<usize>| text.get(r.clone()).is_some_and(|x| unit_id(x) == want);
    let after = toks.iter().skip(at + 1).take(3).take_while(|t| !matches!(t.kind, super::binding::TokKind::Number));
    if after.filter(|t| t.kind == super::binding::TokKind::Word).any(|t| word_is_unit(&t.range)) {
        return true;
    }
    label_among(text, &toks, w.range.clone())
        .is_some_and(|l| unit_id(&l.text) == want || key_names_unit(&l.text, &want))
        || total_of_unit(text, w.range.end, &want)
}

/// True when an identifier key's last part is the unit `want` (`GPS_UART_BAUD 9600` gives
/// 9600 baud, `MAX_RETRIES = 5` five retries, `workerCount: 4` four workers).
fn key_names_unit(key: &str, want: &str) -> bool {
    let parts = super::conversion::key_parts(key);
    parts.len() >= 2 && parts.last().is_some_and(|last| unit_id(last) == want)
}

/// True when the number ending at `end` is a part of a total of `want` written after it
/// (`1 of 3 updated replicas`, `4 of the 23 tasks`): the total's unit, a word or two on.
fn total_of_unit(text: &str, end: usize, want: &str) -> bool {
    let Some((at, digits)) = super::numbers::total_after(text, end) else { return false };
    let words = text.get(at + digits.len()..).unwrap_or("");
    words.split_whitespace().take(3).any(|x| unit_id(x.trim_matches(|c: char| !c.is_alphanumeric())) == want)
}

/// The total a count claim is written as a part of (`12` of `5 of the 12 vendor CSVs`).
fn claimed_total(claim: &Claim) -> Option<String> {
    let count_end = claim.text.find(|c: char| !(c.is_ascii_digit() || c == ',' || c == '.'))?;
    let (_, digits) = super::numbers::total_after(&claim.text, count_end)?;
    Some(digits.replace(',', ""))
}

/// True when the number at `w` is written as a quantity of another unit of measure than
/// `unit` (`1500 ms` is no `1,500 rows`; `12480 rows` no `12,480 ms`).
fn other_measure(w: &Written, unit: &str) -> bool {
    let Suffix::Unit(_, own) = &w.suffix else { return false };
    let (own, claimed) = (unit_key(own), unit_key(unit));
    let measure = |k: &str| super::numbers::MEASURES.contains(&k);
    own != claimed && (measure(&own) || measure(&claimed))
}

/// True when the source's label of the number at `w` lets it speak of `subject`: the
/// source gives it no label, the same one, one of the claim's clause's words, or a word
/// that may be a verb (`took 12 minutes`). A claim whose own label may be a verb binds
/// nothing.
fn label_fits(text: &str, w: &Written, subject: Option<&Subject>) -> bool {
    let Some(s) = subject.filter(|s| s.label.strong) else { return true };
    let end = match &w.suffix {
        Suffix::Unit(e, _) => *e,
        _ => w.range.end,
    };
    if s.required {
        // A value that is a claim only by its label is stated only under that label.
        // The word after the number may be read as its unit (`0 AA`) or as its label.
        let fits = |r: Range<usize>| label_of(text, r).is_some_and(|l| l.fits(&s.label, &s.context));
        return fits(w.range.clone()) || fits(w.range.start..end);
    }
    label_of(text, w.range.start..end).is_none_or(|l| !l.strong || l.fits(&s.label, &s.context))
}

/// True when the source labels the number at `w` as `subject` is labelled.
fn labelled_as(text: &str, w: &Written, subject: Option<&Subject>) -> bool {
    let Some(s) = subject else { return false };
    label_of(text, w.range.clone()).is_some_and(|l| l.fits(&s.label, &s.context))
}

/// True when `text` states the number `value` of `unit` about `subject`: the number
/// written as a whole number, not as a quantity of another unit of measure, with its unit
/// bound to it (a prefix label such as `port` or `#` and a counter that only counts, `件`,
/// need not be written), and labelled as the claim's subject or not at all.
#[cfg(test)]
pub(crate) fn quantity_stated(value: &str, unit: Option<&str>, subject: Option<&Subject>, text: &str) -> bool {
    quantity_stated_in(value, unit, subject, &Numbers::new(text))
}

/// [`quantity_stated`] on a text whose numbers may have been found already.
pub(crate) fn quantity_stated_in(
    value: &str,
    unit: Option<&str>,
    subject: Option<&Subject>,
    nums: &Numbers<'_>,
) -> bool {
    let text = nums.text;
    // What follows a number is read only for the numbers that are `value`; a small count
    // may be written as a word (`three times` states `3 times`).
    numbers_equal(text, value).chain(number_words(text, value)).any(|range| {
        let w = &written(text, range, value.to_string());
        let unit_ok = match unit {
            None => true,
            // Money: `$1,200` is stated by `1200 USD`.
            // (its currency is judged apart: `claims::qualifier`).
            Some(u) if matches!(u, "$" | "€" | "£" | "¥") || CJK_CURRENCY_WORDS.contains(&u) => {
                text.get(..w.range.start).is_some_and(|b| b.ends_with(u)) || !other_measure(w, u)
            }
            // A port written as a quantity of something else (`5432 rows`) is no port,
            // unless its label says it is one (`port 5432 ms`).
            Some("port" | "ports") => {
                // `port 6379`, `redis-port 6379`: the label's last part names it.
                let labelled = char_before(text, w.range.start) == Some(':')
                    || label_of(text, w.range.clone())
                        .is_some_and(|l| l.stem.rsplit(['-', '_']).next() == Some("port"));
                labelled || !matches!(&w.suffix, Suffix::Unit(_, own) if !PREFIX_LABELS.contains(&own.as_str()))
            }
            Some(u) if PREFIX_LABELS.contains(&u) => true,
            Some(u) if GENERIC_COUNTERS.contains(&u) => !other_measure(w, u),
            // `retries 3 times` is stated by `retries = 3`: a count of occurrences needs no
            // unit where the source labels the number as the claim does.
            Some(u) if matches!(unit_key(u).as_str(), "x") && subject.is_some_and(|s| s.label.strong) => {
                !other_measure(w, u) && (carries_unit(text, w, u) || labelled_as(text, w, subject))
            }
            // A figure of five digits or more is that count whatever noun the source puts
            // after it (`SELECT 182340` states `182,340 rows`), unless it measures another
            // thing (`182340 ms`).
            Some(u) => !other_measure(w, u) && (carries_unit(text, w, u) || exact_figure(value)),
        };
        unit_ok && label_fits(text, w, subject)
    }) || unit.is_some_and(|u| converted_stated(value, u, subject, nums) || rounded_stated(value, u, subject, nums))
        || unit.is_none() && value.contains('.') && decimal_stated(value, nums)
}

/// True when `text` states the decimal `value` (a figure with no unit or label) otherwise
/// than as written: a more precise figure that rounds to it (`0.6124` for `0.61`), or a
/// version of that series (`0.21.10` for `0.21`).
fn decimal_stated(value: &str, nums: &Numbers<'_>) -> bool {
    let text = nums.text;
    nums.all().iter().any(|w| rounds_to(&w.value, value))
        || text.match_indices(&format!("{value}.")).any(|(at, m)| {
            let before = text.get(..at).and_then(|s| s.chars().next_back());
            !before.is_some_and(|c| c.is_ascii_digit() || c == '.')
                && text.get(at + m.len()..).is_some_and(|s| s.starts_with(|c: char| c.is_ascii_digit()))
        })
}

/// True when `value` has five significant digits or more: no other count is written so.
fn exact_figure(value: &str) -> bool {
    value.bytes().filter(u8::is_ascii_digit).count() >= 5 && value.trim_end_matches('0').len() >= 4
}

/// True when `precise` (a number of a source) written to as many decimals as `value` is
/// `value`, and has more of them: `41.27` rounds to `41`, `2.346` to `2.35`.
pub(super) fn rounds_to(precise: &str, value: &str) -> bool {
    let decimals = |v: &str| v.split_once('.').map_or(0, |(_, d)| d.len());
    let (d, dv) = (decimals(precise), decimals(value));
    let (Ok(p), Ok(v)) = (precise.parse::<f64>(), value.parse::<f64>()) else { return false };
    let scale = 10f64.powi(dv as i32);
    d > dv && ((p * scale).round() - v * scale).abs() < 1e-6
}

/// True when `text` states a more precise amount of `unit` that rounds to `value` (`41.27s`
/// for `41 seconds`), bound as the claim is.
fn rounded_stated(value: &str, unit: &str, subject: Option<&Subject>, nums: &Numbers<'_>) -> bool {
    let text = nums.text;
    nums.all().iter().any(|w| {
        rounds_to(&w.value, value)
            && matches!(&w.suffix, Suffix::Unit(_, own) if unit_key(own) == unit_key(unit))
            && label_fits(text, w, subject)
    })
}

/// The whole of a compound duration the number at `w` ends (`3m 12s` is 192 seconds, `1h
/// 30m` 90 minutes), in the number's unit, when it ends one.
fn compound_total(text: &str, w: &Written) -> Option<String> {
    static LEAD: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
        regex::Regex::new(r"(?:(\d+)\s?h(?:ours?|rs?)?\s+)?(\d+)\s?(h|hr|hrs|hours?|m|min|mins|minutes?)\s+$")
            .expect("the compound pattern is valid")
    });
    let Suffix::Unit(_, own) = &w.suffix else { return None };
    let own = unit_key(own);
    let before = text.get(w.range.start.saturating_sub(24)..w.range.start).or_else(|| text.get(..w.range.start))?;
    let caps = LEAD.captures(before)?;
    let lead: f64 = caps.get(2)?.as_str().parse().ok()?;
    let lead_unit = if caps.get(3)?.as_str().starts_with('h') { "hour" } else { "minute" };
    let hours: f64 = caps.get(1).and_then(|h| h.as_str().parse().ok()).unwrap_or(0.0);
    let n: f64 = w.value.parse().ok()?;
    let total = match (lead_unit, own.as_str()) {
        ("minute", "second") => (hours * 60.0 + lead) * 60.0 + n,
        ("hour", "minute") => lead * 60.0 + n,
        _ => return None,
    };
    Some(format!("{total}"))
}

/// True when `text` states `value` of `unit` in another unit of its measure (`500 ms` for
/// `0.5 s`; see `conversion`), bound to the same subject — or as a compound duration (`3m
/// 12s` for `192 s`), which is specific enough by itself.
fn converted_stated(value: &str, unit: &str, subject: Option<&Subject>, nums: &Numbers<'_>) -> bool {
    if !super::conversion::convertible(unit) {
        return false;
    }
    let text = nums.text;
    let compound = nums.all().iter().any(|w| {
        let Suffix::Unit(_, own) = &w.suffix else { return false };
        compound_total(text, w).is_some_and(|total| super::conversion::same_amount(value, unit, &total, own))
    });
    if compound {
        return true;
    }
    // Two amounts of a measure often meet by chance (`3 days ago` is 72 hours): the source
    // must give the converted amount the claim's label (`timeout is 500 ms` for `timeout
    // 0.5 s`).
    let Some(s) = subject else { return false };
    nums.all().iter().any(|w| match &w.suffix {
        Suffix::Unit(end, own) => {
            super::conversion::same_amount(value, unit, &w.value, own)
                && label_of(text, w.range.start..*end).is_some_and(|l| same_subject(&l.stem, &s.label.stem))
        }
        // A key that names the unit (`request_timeout_ms = 90000` for `request timeout 1.5
        // min`), with the claim's label among its other parts.
        _ => label_of(text, w.range.clone())
            .filter(|l| l.key || l.identifier)
            .and_then(|l| super::conversion::unit_in_key(&l.text))
            .is_some_and(|(own, parts)| {
                super::conversion::same_amount(value, unit, &w.value, &own)
                    && parts.iter().any(|p| same_subject(&super::binding::stem(p), &s.label.stem))
            }),
    })
}

/// True when `lower` (lowercase text) states version `value` of the claim's product: the
/// product named at the start of a word (it may run on: `postgresql`, `node.js`) holding
/// the version in its clause; without a product, the version as a token.
///
/// Tool output often prints a product and its version apart (`> vitest run` … `RUN
/// v3.2.4`): a dotted version written as a token states the product's version when the
/// text names the product somewhere and binds it to no other version.
pub(crate) fn version_stated(value: &str, subject: Option<&Subject>, lower: &str) -> bool {
    let token = |v: &str| super::occurs::version_token(v, lower);
    let Some(s) = subject else { return token(value) };
    let mut named = false;
    let mut other = false;
    for i in product_places(&s.label.stem, lower) {
        named = true;
        let held = product_versions(lower, i, s.label.stem.len());
        if held.iter().any(|h| version_matches(value, h)) {
            return true;
        }
        // A less precise version of it (`~> 1.5` for `1.5.0`) is no other version.
        other |= held.iter().any(|h| !version_matches(h, value));
    }
    named && !other && value.contains('.') && free_version(value, lower) || plugin_version(value, &s.label.stem, lower)
}

/// True when `lower` glues `value` to the last part of a hyphenated product the way a host
/// tool lists its plugins (`plugins: anyio-4.2.0, cov-7.0.0` for `pytest-cov 7.0.0`;
/// `xdist==3.5.0`, `cov@7.0.0`): the part must be three letters or more and start a word.
fn plugin_version(value: &str, product: &str, lower: &str) -> bool {
    let Some((_, last)) = product.rsplit_once('-') else { return false };
    if last.len() < 3 || !value.contains('.') {
        return false;
    }
    ["-", "==", "@", "="].iter().any(|sep| {
        let glued = format!("{last}{sep}{value}");
        lower.match_indices(&glued).any(|(i, _)| {
            let after = lower.get(i + glued.len()..).unwrap_or("");
            word_start(lower, i)
                && !after.starts_with(|c: char| {
                    c.is_ascii_digit()
                        || c == '.' && after.len() > 1 && after[1..].starts_with(|d: char| d.is_ascii_digit())
                })
        })
    })
}

/// Words a tool prints before a version that name no product (`RUN v3.2.4`, `Using 1.4.0`).
const BANNERS: &[&str] = &[
    "run",
    "running",
    "using",
    "installed",
    "found",
    "detected",
    "version",
    "release",
    "released",
    "v",
    "latest",
    "current",
    "stable",
    "newest",
    "previous",
    "old",
    "new",
];

/// True when `lower` holds the dotted version `value` as a token that no other name holds
/// (`RUN v3.2.4`, `(3.11.4)`; not `cli to 2.3.1`).
fn free_version(value: &str, lower: &str) -> bool {
    lower.match_indices(value).any(|(i, _)| {
        let before = lower.get(..i).unwrap_or("").trim_end_matches(['v', 'V']);
        let left_ok = !before.ends_with(|c: char| c.is_ascii_digit() || c == '.');
        let after = lower.get(i + value.len()..).unwrap_or("");
        let right_ok = !after.starts_with(|c: char| c.is_ascii_digit());
        let holder = before
            .split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '-'))
            .rev()
            .find(|w| !w.is_empty() && !super::closed::english(w) && !super::binding::is_forward(w));
        left_ok && right_ok && holder.is_none_or(|w| BANNERS.contains(&w))
    })
}

/// Byte offsets where `product` starts a word in `lower`. It may run on into a longer name
/// of itself (`postgresql`, `node.js`, `redis_version`), not into another package's
/// (`opentelemetry_api` is no `opentelemetry`).
fn product_places<'a>(product: &'a str, lower: &'a str) -> impl Iterator<Item = usize> + 'a {
    lower.match_indices(product).map(|(i, _)| i).filter(move |&i| {
        let rest = lower.get(i + product.len()..).unwrap_or("");
        let another = rest.strip_prefix(['_', '-']).is_some_and(|r| {
            r.starts_with(|c: char| c.is_ascii_alphabetic()) && !r.starts_with("version") && !r.starts_with("ver")
        });
        word_start(lower, i) && !another
    })
}

/// True when `text` gives another amount of the claim's unit, whatever it is said of (`14
/// days` against `30 days`): what a correction that does not repeat the subject gives
/// (`on second thought, 14 days is enough`), or [`contradiction`] finds.
pub fn another_value(claim: &Claim, text: &str) -> bool {
    if contradiction(claim, text).is_some() {
        return true;
    }
    let ClaimValue::Number { value, unit: Some(unit) } = &claim.value else { return false };
    if PREFIX_LABELS.contains(&unit.as_str()) || GENERIC_COUNTERS.contains(&unit.as_str()) {
        return false;
    }
    numbers(text)
        .into_iter()
        .any(|w| w.value != *value && matches!(&w.suffix, Suffix::Unit(_, own) if unit_key(own) == unit_key(unit)))
}

/// Where a source contradicts a value claim: the clause of `text` that binds the claim's
/// subject to another value of the same sort (a product to other versions, a count's unit
/// to another number, a measure's label to another amount of the same unit). The caller
/// asks only once the text is known not to state the claim.
pub fn contradiction(claim: &Claim, text: &str) -> Option<Range<usize>> {
    let lower = text.to_lowercase();
    match (&claim.value, claim.kind) {
        (ClaimValue::Text(value), ClaimKind::Version) => {
            let s = claim.subject.as_ref()?;
            // Only a version of the same shape speaks against it: `Postgres 16` against
            // `Postgres 17`, `1.4.2` against `1.5.0` — not the `7` of `code 7` against
            // `Claude Code 2.1.258`.
            let comparable = |h: &String| !value.contains('.') || h.contains('.');
            product_places(&s.label.stem, &lower).find_map(|i| {
                let held: Vec<String> =
                    product_versions(&lower, i, s.label.stem.len()).into_iter().filter(comparable).collect();
                // A less precise version (`~> 1.5` beside `1.5.0`) says nothing against it.
                let agrees = |h: &String| version_matches(value, h) || version_matches(h, value);
                (!held.is_empty() && !held.iter().any(agrees)).then(|| clause_at(text, i))
            })
        }
        (ClaimValue::Number { value, unit: Some(unit) }, _) if !PREFIX_LABELS.contains(&unit.as_str()) => {
            let subject = claim.subject.as_ref().filter(|s| s.label.strong);
            // (A part of a compound duration, `12s` of `3m 12s`, is not an amount by itself.)
            let whole = |w: &Written| compound_total(text, w).is_none();
            // The total the note's count is a part of (`5 of the 12 CSVs` against `all 12 CSVs`).
            let total = claimed_total(claim);
            // Digits inside an identifier (`p50_ms`, `x86_64`, `h2o`) are no amount of anything.
            let in_name = |w: &Written| {
                let glued = |c: Option<char>| c.is_some_and(|c| c.is_ascii_alphabetic() || c == '_');
                glued(char_before(text, w.range.start)) && glued(text.get(w.range.end..).and_then(|r| r.chars().next()))
            };
            // A count is a whole number: a figure written with decimals (`3,400.00`) is an
            // amount of something else.
            let count = !super::numbers::is_measure(unit) && !value.contains('.');
            let decimal = |w: &Written| text.get(w.range.clone()).is_some_and(|t| t.contains('.'));
            // Nor is a part of a date or a range of digits (`2026-10-08`, `10/08`).
            let in_date = |w: &Written| {
                let joined = |a: Option<char>, b: Option<char>| {
                    matches!(a, Some('-' | '/')) && b.is_some_and(|c| c.is_ascii_digit())
                };
                let before = text.get(..w.range.start).map(|t| t.chars().rev());
                let after = text.get(w.range.end..).map(|t| t.chars());
                before.is_some_and(|mut it| joined(it.next(), it.next()))
                    || after.is_some_and(|mut it| joined(it.next(), it.next()))
            };
            let others = numbers(text).into_iter().filter(|w| {
                w.value != *value
                    && !rounds_to(&w.value, value)
                    && !in_name(w)
                    && !(count && (decimal(w) || in_date(w)))
                    && !super::numbers::is_total_of(text, w.range.start, value)
                    && Some(&w.value) != total.as_ref()
            });
            others.filter(whole).find_map(|w| {
                let same_unit = matches!(&w.suffix, Suffix::Unit(_, own) if unit_key(own) == unit_key(unit))
                    || (subject.is_none() && carries_unit(text, &w, unit) && !other_measure(&w, unit));
                let about = match subject {
                    // A measure: the source labels this amount as the claim's subject.
                    Some(s) => {
                        let end = match &w.suffix {
                            Suffix::Unit(e, _) => *e,
                            _ => w.range.end,
                        };
                        label_of(text, w.range.start..end).is_some_and(|l| same_subject(&l.stem, &s.label.stem))
                    }
                    None => !GENERIC_COUNTERS.contains(&unit.as_str()),
                };
                (same_unit && about).then(|| clause_at(text, w.range.start))
            })
        }
        (ClaimValue::Number { value, unit: None }, _) => {
            // A value by its label: the source gives the same label another value.
            let s = claim.subject.as_ref().filter(|s| s.required)?;
            numbers(text).into_iter().filter(|w| w.value != *value).find_map(|w| {
                let l = label_of(text, w.range.clone())?;
                same_subject(&l.stem, &s.label.stem).then(|| clause_at(text, w.range.start))
            })
        }
        (ClaimValue::Port { host: None, port }, _) => numbers(text).into_iter().find_map(|w| {
            let labelled = char_before(text, w.range.start) == Some(':')
                || label_of(text, w.range.clone()).is_some_and(|l| matches!(l.stem.as_str(), "port"));
            (w.value != *port && labelled && w.value.len() >= 2).then(|| clause_at(text, w.range.start))
        }),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn claim(line: &str, kind: ClaimKind) -> Claim {
        super::super::extract(line)
            .into_iter()
            .find(|c| c.kind == kind)
            .unwrap_or_else(|| panic!("no {kind:?} in {line}"))
    }

    fn states(note: &str, kind: ClaimKind, source: &str) -> bool {
        super::super::occurs_in(&claim(note, kind), source)
    }

    fn contradicts<'a>(note: &str, kind: ClaimKind, source: &'a str) -> Option<&'a str> {
        contradiction(&claim(note, kind), source).map(|r| source[r].trim())
    }

    #[test]
    fn a_latin_count_is_stated_by_a_generic_cjk_counter() {
        let c = |line: &str| {
            crate::analysis::claims::extract(line).into_iter().find(|c| c.kind == ClaimKind::Number).unwrap()
        };
        let layers = c("the 12 layers the dashboard uses");
        assert!(super::super::matching::occurs_in(&layers, "사용 API 12개 레이어: 겨울"));
        assert!(super::super::matching::occurs_in(&layers, "使うのは12個のレイヤー"));
        // A measure is no count: `12 MB` is not stated by `12개`.
        let size = c("a 12 MB download");
        assert!(!super::super::matching::occurs_in(&size, "12개 파일"));
    }

    #[test]
    fn a_version_is_bound_to_its_product() {
        let v = ClaimKind::Version;
        assert!(states("We run Postgres 16.", v, "the dev database is Postgres 16"));
        assert!(states("We run Postgres 16.", v, "psql (PostgreSQL) 16.4"));
        assert!(!states("We run Postgres 17.", v, "the dev database is Postgres 16, and we keep 17 test rows"));
        assert!(!states("We run Postgres 17.", v, "Postgres is at 16. Redis 17 is unrelated."));
        assert_eq!(
            contradicts("We run Postgres 17.", v, "Notes. The dev database is Postgres 16. Fine."),
            Some("The dev database is Postgres 16")
        );
        assert!(states("Redis 7.2.5 is the broker", v, "5.4.0 (opalescent)\nredis_version:7.2.5"));
        assert!(states("pinned v2.3.1 of the SDK", v, "bumped the sdk to 2.3.1"));
        assert!(!states("pinned v2.3.1 of the SDK", v, "bumped the cli to 2.3.1; the sdk stays"));
        // A host tool lists a plugin by the last part of its name.
        assert!(states("pytest-cov 7.0.0 measures coverage", v, "plugins: anyio-4.2.0, cov-7.0.0\ncollecting"));
        assert!(!states("pytest-cov 7.0.0 measures coverage", v, "plugins: anyio-4.2.0, cov-7.0.1"));
        assert!(!states("pytest-cov 7.0.0 measures coverage", v, "plugins: discov-7.0.0"));
    }

    #[test]
    fn a_count_is_bound_to_its_unit() {
        let n = ClaimKind::Number;
        assert!(states("the fixture has 64 rows", n, "SELECT returned 64 rows"));
        assert!(states("the fixture has 64 rows", n, "rows: 64, cols: 12"));
        assert!(states("the suite has 214 tests", n, "Tests:       1 failed, 213 passed, 214 total"));
        assert!(states("the fixture has 64 rows", n, "64 new rows were loaded"));
        assert!(!states("the fixture has 40 rows", n, "line 40 of the loader; rows are read in batches"));
        assert!(!states("the fixture has 12 rows", n, "rows: 64, cols: 12"));
        assert_eq!(
            contradicts("the fixture has 40 rows", n, "The fixture has 64 rows."),
            Some("The fixture has 64 rows")
        );
    }

    #[test]
    fn a_measure_is_bound_to_its_label() {
        let n = ClaimKind::Number;
        assert!(states("The deploy timeout is 30s.", n, "set --timeout 30s on the deploy"));
        assert!(states("builds take 12 minutes", n, "the build took 12 minutes"));
        assert!(!states("retry after 30s", n, "timeout: 30s, retry: 60s"));
        assert!(states("timeout 30s", n, "it finished after 30s"), "a label that may be a verb binds nothing");
        assert_eq!(contradicts("The deploy timeout is 30s.", n, "timeout: 60s"), Some("timeout: 60s"));
        assert_eq!(contradicts("retry after 30s", n, "timeout: 30s, retry: 60s"), Some("timeout: 30s, retry: 60s"));
    }

    #[test]
    fn a_value_by_its_label_is_stated_only_under_that_label() {
        let n = ClaimKind::Number;
        assert!(states("The failure step exits with code 7.", n, "Error: Exit code 7\nFIXTURE_FAILURE"));
        assert!(!states("The failure step exits with code 7.", n, "ran 7 steps, exit code 0"));
        assert_eq!(contradicts("The failure step exits with code 7.", n, "Exit code 1"), Some("Exit code 1"));
        assert!(states("The terminal keeps scrollback: 10000", n, "    scrollback: 10000,"));
        assert!(!states("scrollback: 10000", n, "maxRows: 10000"));
        // A number glued to a colon is a place or a time, no value.
        assert!(super::super::extract("fails at src/main.rs:12").iter().all(|c| c.kind != n));
    }

    #[test]
    fn a_port_is_no_other_quantity() {
        let n = ClaimKind::Number;
        assert!(states("Postgres listens on port 5432", n, "DATABASE_URL=postgres://db:5432/app"));
        assert!(!states("Postgres listens on port 5432", n, "inserted 5432 rows"));
        assert_eq!(
            contradicts("Postgres listens on port 5432", n, "postgres runs on port 5433"),
            Some("postgres runs on port 5433")
        );
    }
}
