//! Values bound to what they are about: the clause a value stands in, the word that labels
//! it (`timeout` in `timeout: 30s`, `the deploy timeout is 30s`, `a 30s timeout`), and the
//! versions a product name holds (`Postgres 16`, `upgraded PostgreSQL from 15.4 to 16.4`).
//!
//! A source states a value claim only where it binds the same value to the same subject:
//! in one clause (a sentence, a `;`-separated part, one line of output or one table row),
//! next to each other. A name elsewhere in the text does not lend itself to a number.
//!
//! Words are compared by their stem (Snowball's English stemmer through `rust-stemmers`:
//! `timeouts` = `timeout`, `retried` = `retri` = `retries`); a CJK label is compared as
//! written, without its trailing particle (`タイムアウトは` → `タイムアウト`).

use std::ops::Range;

use super::closed;
use super::text::{char_before, is_cjk, is_word_char};

pub(crate) use super::clause::{Tok, TokKind, clause_at, tokens};
pub(crate) use super::stems::stem;

/// Words that stand between a label and its value without being the label: `the deploy
/// timeout is set to 30s`, `retry after 30s`, `p99 of about 250ms`.
const LINKING: &[&str] = &[
    "set",
    "sets",
    "equals",
    "equal",
    "approximately",
    "roughly",
    "around",
    "about",
    "currently",
    "now",
    "still",
    "only",
    "just",
    "exactly",
    "least",
    "most",
    "max",
    "min",
    "maximum",
    "minimum",
    "up",
    "default",
    "defaults",
    "usually",
    "typically",
    "always",
    "over",
    "under",
    "stay",
    "stays",
    "stayed",
    "remain",
    "remains",
    "remained",
    "nearly",
    "almost",
    "~",
];

/// True when `word` (lowercase) may stand between a label and its value.
fn linking(word: &str) -> bool {
    closed::english(word) || LINKING.contains(&word)
}

/// The word a value is about, found next to it in its clause.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Label {
    /// The word as written.
    pub text: String,
    /// Its comparable form ([`stem`]).
    pub stem: String,
    /// The comparable forms of the noun phrase it ends (`deploy timeout`, `cache size`):
    /// the label and up to two content words right before it.
    pub phrase: Vec<String>,
    /// It surely names what the value is: a key (`timeout:`, `TIMEOUT=`), an identifier
    /// (`retry_after_ms`, `p99`), a noun of measures (`timeout`, `latency`, `budget`), or a
    /// word after a determiner (`the warmup is 30s`). Only such a label binds: a word that
    /// may be a verb (`took`, `grew to 450`) says how, not what.
    pub strong: bool,
    /// It is written as a key (`timeout:`, `TIMEOUT=`).
    pub key: bool,
    /// It is shaped as an identifier (`retry_after_ms`, `p99`, `fontSize`).
    pub identifier: bool,
    /// It is a noun of measures (`timeout`, `latency`) or follows a determiner.
    pub noun: bool,
}

impl Label {
    /// True when this label (a source's) may speak of what `subject` (a claim's) is about:
    /// their phrases share a word, or the label is one of the words of the claim's clause,
    /// or the two are in different scripts (a Japanese note, an English source).
    pub(crate) fn fits(&self, subject: &Label, context: &[String]) -> bool {
        let cjk = |s: &str| s.chars().any(is_cjk);
        if cjk(&self.stem) != cjk(&subject.stem) {
            return true;
        }
        // Two statistics of one measure are two figures (`mean 0.41 ms` is no `p99`).
        let (ours, wanted) = (statistics(&self.phrase), statistics(&subject.phrase));
        if !ours.is_empty() && !wanted.is_empty() {
            return ours.iter().any(|s| wanted.contains(s));
        }
        let theirs = subject.phrase.iter().chain(context);
        self.phrase.iter().any(|a| theirs.clone().any(|b| same_subject(a, b)))
    }
}

/// The label of the value at `value` (its number, with any unit) in `text`: the key it is
/// written after (`timeout: 30s`, `Tests: 1 failed, 213 passed`), else the nearest content
/// word before it in its clause (linking words skipped), else the content word right after
/// it (`a 30s timeout`). `None` when the clause has none.
pub(crate) fn label_of(text: &str, value: Range<usize>) -> Option<Label> {
    let toks = tokens(text, clause_at(text, value.start));
    label_among(text, &toks, value)
}

/// [`label_of`] for a caller that has the tokens of the value's clause already
/// (`tokens(text, clause_at(text, value.start))`).
pub(crate) fn label_among(text: &str, toks: &[Tok], value: Range<usize>) -> Option<Label> {
    let at = toks.iter().position(|t| t.range.end > value.start)?;
    let after = toks.iter().position(|t| t.range.start >= value.end).unwrap_or(toks.len());
    if let Some(key) = key_before(text, toks, at) {
        return Some(key);
    }
    word_before(text, toks, at).or_else(|| word_after(text, toks, after))
}

/// The key of a `key: value` (or `key = value`) the value at token `at` belongs to: the
/// word before the nearest `:` or `=` back in the clause, with only values and value
/// separators between (`Tests: 1 failed, 213 passed` binds 213 to `Tests`).
fn key_before(text: &str, toks: &[Tok], at: usize) -> Option<Label> {
    let mut i = at;
    let mut steps = 0;
    while i > 0 && steps < 12 {
        i -= 1;
        steps += 1;
        match toks[i].kind {
            TokKind::Punct(':' | '=' | '：') => {
                let k = i.checked_sub(1)?;
                return matches!(toks.get(k)?.kind, TokKind::Word | TokKind::Cjk)
                    .then(|| label(text, toks, k, true))
                    .flatten();
            }
            TokKind::Number | TokKind::Punct(',' | '(' | ')' | '"' | '\'' | '`' | '*' | '/') => {}
            TokKind::Word => {
                // Words of the values of the key (`1 failed, 213 passed`) may stand between.
                let w = word(text, &toks[i]).to_lowercase();
                let after_number = i > 0 && toks[i - 1].kind == TokKind::Number;
                if !(after_number || linking(&w)) {
                    return None;
                }
            }
            _ => return None,
        }
    }
    None
}

/// The nearest content word before token `at` in the clause, linking words skipped.
fn word_before(text: &str, toks: &[Tok], at: usize) -> Option<Label> {
    let mut i = at;
    let mut skipped = 0;
    while i > 0 && skipped < 5 {
        i -= 1;
        let t = &toks[i];
        match t.kind {
            TokKind::Word => {
                if !linking(&word(text, t).to_lowercase()) {
                    return label(text, toks, i, false);
                }
                skipped += 1;
            }
            // A particle standing alone (`warn は 15 秒`) marks the word before it.
            TokKind::Cjk if particle(word(text, t)) => skipped += 1,
            TokKind::Cjk => return label(text, toks, i, false),
            TokKind::Punct(
                '(' | '"' | '\'' | '`' | '*' | '~' | '≈' | '<' | '>' | '≤' | '≥' | '|' | '#' | '$' | '-',
            ) => {
                skipped += 1;
            }
            // A call's empty parentheses (`process() 0.41 ms`): the function labels it.
            TokKind::Punct(')') if i > 0 && toks[i - 1].kind == TokKind::Punct('(') => {
                i -= 1;
                skipped += 1;
            }
            // Another value, or punctuation that ends a phrase (`,`, `→`): nothing labels it.
            _ => return None,
        }
    }
    None
}

/// True when a CJK token is a grammatical particle standing alone (`は`, `が`, `の`, `는`,
/// `에서`, `的`): it names nothing.
fn particle(token: &str) -> bool {
    const PARTICLES: &[&str] = &[
        "は", "が", "を", "に", "で", "と", "の", "も", "へ", "や", "から", "まで", "より", "은", "는", "이", "가",
        "을", "를", "에", "에서", "의", "도", "로", "으로", "的", "了", "是", "在",
    ];
    PARTICLES.contains(&token)
}

/// The content word right after the value (whose tokens end before `from`): `30s timeout`,
/// `a 5-minute timeout`. A linking word in between ends the search (`4,310 between March`).
fn word_after(text: &str, toks: &[Tok], from: usize) -> Option<Label> {
    for (k, t) in toks.iter().enumerate().skip(from).take(2) {
        match t.kind {
            TokKind::Word if !linking(&word(text, t).to_lowercase()) => return label(text, toks, k, false),
            TokKind::Cjk => return label(text, toks, k, false),
            TokKind::Punct('-') => {}
            _ => return None,
        }
    }
    None
}

fn word<'t>(text: &'t str, t: &Tok) -> &'t str {
    text.get(t.range.clone()).unwrap_or("")
}

/// A label from token `k`; `key` when it is written as a key.
fn label(text: &str, toks: &[Tok], k: usize, key: bool) -> Option<Label> {
    let t = toks.get(k)?;
    let written = word(text, t);
    let written = if t.kind == TokKind::Cjk { after_topic(written) } else { written };
    let stem = stem(written);
    if stem.is_empty() {
        return None;
    }
    let lower = written.to_lowercase();
    let identifier = written.contains(['_', '.'])
        || written.chars().any(|c| c.is_ascii_digit())
        || written.chars().skip(1).any(|c| c.is_ascii_uppercase());
    let verb_like = lower.ends_with("ed") || lower.ends_with("ing") || VERBS.contains(&lower.as_str());
    let noun = MEASURE_NOUNS.contains(&stem.as_str()) || MEASURE_NOUNS.contains(&lower.as_str());
    // Up to two content words right before it make its phrase (`deploy timeout`).
    let mut phrase = vec![stem.clone()];
    let mut determined = false;
    let mut j = k;
    while j > 0 && k - j < 3 {
        j -= 1;
        let w = word(text, &toks[j]).to_lowercase();
        match toks[j].kind {
            TokKind::Word if DETERMINERS.contains(&w.as_str()) => {
                determined = true;
                break;
            }
            TokKind::Word if !closed::english(&w) && phrase.len() < 3 => phrase.push(self::stem(&w)),
            _ => break,
        }
    }
    let cjk = t.kind == TokKind::Cjk;
    // A statistic in the phrase binds (`p99 process() 0.41 ms`).
    let statistic = !verb_like && !statistics(&phrase).is_empty();
    let strong = key || identifier || cjk || statistic || (!verb_like && (noun || determined));
    let noun = !verb_like && (noun || determined);
    Some(Label { text: written.to_string(), stem, phrase, strong, key, identifier, noun })
}

/// The last phrase of a Japanese run that particles join (`土曜は期末考査前の` labels
/// with `期末考査前の`): the text after the last `は`, `が`, `を`, `で`, `も`, `へ` or `と`
/// standing after a kanji or katakana, when two characters or more follow it.
fn after_topic(run: &str) -> &str {
    let kanji_or_kana = |c: char| matches!(c, '\u{4E00}'..='\u{9FFF}' | '\u{30A0}'..='\u{30FF}');
    let mut cut = 0;
    let mut prev = None;
    for (i, c) in run.char_indices() {
        if matches!(c, 'は' | 'が' | 'を' | 'で' | 'も' | 'へ' | 'と') && prev.is_some_and(kanji_or_kana) {
            let rest = &run[i + c.len_utf8()..];
            if rest.chars().count() >= 2 {
                cut = i + c.len_utf8();
            }
        }
        prev = Some(c);
    }
    &run[cut..]
}

/// The statistics a label's phrase names, each in one spelling (`average` and `mean` are
/// one, `median` and `p50`, `peak` and `max`).
fn statistics(phrase: &[String]) -> Vec<&'static str> {
    phrase
        .iter()
        .filter_map(|w| {
            Some(match w.as_str() {
                "mean" | "averag" | "average" | "avg" | "平均" | "평균" => "mean",
                "median" | "p50" | "中央値" | "中位数" | "중앙값" => "p50",
                "max" | "maximum" | "peak" | "最大" | "최대" => "max",
                // (`min` alone is as often minutes: `a 30 min timeout`.)
                "minimum" | "最小" | "최소" => "min",
                "stddev" | "std" => "stddev",
                "p75" | "p90" | "p95" | "p99" | "p999" => {
                    ["p75", "p90", "p95", "p99", "p999"].into_iter().find(|p| p == w)?
                }
                _ => return None,
            })
        })
        .collect()
}

/// Words after which the next noun names a thing (`the`, `its`, `each`).
const DETERMINERS: &[&str] =
    &["the", "a", "an", "its", "our", "their", "his", "her", "my", "your", "this", "that", "each", "every", "per"];

/// Nouns that name what a measure measures (stems and plain forms): a label of one of
/// them binds the value even without a determiner (`timeout 30s`, `p99 latency 250ms`).
#[rustfmt::skip]
const MEASURE_NOUNS: &[&str] = &[
    "timeout", "latenc", "latency", "interv", "interval", "ttl", "delay", "durat", "duration", "retri",
    "retry", "backoff", "limit", "size", "memori", "memory", "heap", "cach", "cache", "disk", "budget",
    "cost", "price", "coverag", "coverage", "threshold", "quota", "rate", "cpu", "ram", "storag", "storage",
    "bandwidth", "throughput", "window", "expiri", "expiry", "lifetim", "lifetime", "period", "uptim",
    "uptime", "downtim", "downtime", "deadlin", "deadline", "ttfb", "p50", "p90", "p95", "p99", "max", "min",
    "maximum", "minimum", "capac", "capacity", "volum", "volume", "length", "width", "height", "weight",
    "speed", "load", "fee", "salari", "salary", "discount", "margin", "share", "ratio", "grace", "warmup",
    "cooldown", "sla", "slo", "error", "accuraci", "accuracy", "score", "scale", "factor", "rpm", "rps", "qps",
    "tps", "pool", "batch", "buffer", "chunk", "page", "limit", "cap", "trial", "retent", "retention",
];

/// Verbs that often stand before a measure (`takes 12 minutes`): as a label they say how,
/// not what, so a source that says it with another verb still states the value.
const VERBS: &[&str] = &[
    "take", "takes", "took", "wait", "waits", "run", "runs", "ran", "last", "lasts", "need", "needs", "use", "uses",
    "cost", "costs", "get", "gets", "got", "give", "gives", "gave", "hit", "hits", "reach", "reaches", "finish",
    "finishes", "spend", "spends", "spent", "keep", "keeps", "kept", "hold", "holds", "held", "go", "goes", "went",
    "come", "comes", "came", "be", "make", "makes", "made", "show", "shows", "say", "says", "said", "grew", "grow",
    "grows", "fell", "fall", "falls", "rose", "rise", "rises", "drop", "drops", "cut", "cuts", "means",
];

/// The comparable content words of a text: stems of its Latin words that are not
/// closed-class, and its CJK words without particles.
pub(crate) fn content_stems(text: &str) -> Vec<String> {
    let mut out: Vec<String> = tokens(text, 0..text.len())
        .into_iter()
        .filter(|t| matches!(t.kind, TokKind::Word | TokKind::Cjk))
        .filter_map(|t| text.get(t.range))
        .filter(|w| !closed::english(&w.to_lowercase()))
        .map(stem)
        .filter(|s| !s.is_empty())
        .collect();
    out.sort();
    out.dedup();
    out
}

/// The versions a product (of `len` bytes) named at byte `at` of `lower` (lowercase text) holds: version
/// tokens reachable from it in its clause through connectors only (`postgres 16`,
/// `postgresql 15.4 → 16.4`, `redis_version:7.2.5`, `postgres:16-alpine`,
/// `v2.3.1 of the sdk`), lowercased without a leading `v`.
pub(crate) fn product_versions(lower: &str, at: usize, len: usize) -> Vec<String> {
    let clause = clause_at(lower, at);
    let toks = tokens(lower, clause);
    let Some(p) = toks.iter().position(|t| t.range.end > at) else { return Vec::new() };
    // The product may run on inside its token (`postgresql`, `redis_version`, `node.js`).
    let mut out: Vec<String> = Vec::new();
    // A version glued to the product: `pytest-9.0.2`, `node@20.11.1`, `redis:7.2`.
    let after = at + len;
    let name_end = after + lower.get(after..).unwrap_or("").find(|c: char| !c.is_ascii_alphabetic()).unwrap_or(0);
    if let Some(rest) = lower.get(name_end..)
        && let Some(tail) = rest.strip_prefix(['-', '_', '@', ':', '/'])
    {
        let tail = tail.strip_prefix('v').unwrap_or(tail);
        let n = tail.find(|c: char| !(c.is_ascii_digit() || c == '.')).unwrap_or(tail.len());
        let glued = tail[..n].trim_end_matches('.');
        if glued.starts_with(|c: char| c.is_ascii_digit()) {
            out.push(glued.to_string());
        }
    }
    let version = |t: &Tok| -> Option<String> {
        (t.kind == TokKind::Number)
            .then(|| lower.get(t.range.clone()))
            .flatten()
            .map(|v| {
                let v = v.trim_start_matches('v');
                let n = v.find(|c: char| !(c.is_ascii_digit() || c == '.')).unwrap_or(v.len());
                v[..n].trim_end_matches('.').to_string()
            })
            .filter(|v| v.starts_with(|c: char| c.is_ascii_digit()))
    };
    let connector = |t: &Tok| match t.kind {
        TokKind::Punct(c) => matches!(c, ':' | '=' | '@' | '(' | ')' | '→' | ',' | '-' | '>' | '~' | '^' | '"'),
        TokKind::Word => FORWARD.contains(&lower.get(t.range.clone()).unwrap_or("")),
        // A particle between them (`ingress-nginx 를 4.11.3`, `Redis を 7.2 に`).
        TokKind::Cjk => lower.get(t.range.clone()).is_some_and(|w| w.chars().count() <= 2),
        _ => false,
    };
    // The product tags the version it is glued to (`v1.31.4-eks-2d5f4b1`).
    if let Some(v) = toks.get(p).and_then(version) {
        out.push(v);
    }
    // Forward: `postgres 15 to 16`; a number with a unit after it is a quantity, not a
    // version (`postgres on 3 hosts`).
    // From the first token after the product's own characters (`c++ 17`: past the `+`s).
    let first = toks.iter().position(|t| t.range.start >= after).unwrap_or(toks.len()).max(p + 1);
    let mut i = first;
    while let Some(t) = toks.get(i).filter(|_| i <= first + 7) {
        if let Some(v) = version(t) {
            // The extractor's own test of a quantity (`postgres on 3 hosts`), so that a
            // line always states the versions read from it.
            // A version with a suffix (`6379-rc1`, `1.4.0-beta`) is also held whole; the
            // quantity test looks after what the extractor reads as the version.
            let written = lower.get(t.range.clone()).unwrap_or("");
            let whole = super::versions::clean_version(written);
            let read = if whole.starts_with(&v) { whole.len() } else { v.len() };
            let v_end = t.range.start + (written.len() - written.trim_start_matches('v').len()) + read;
            if !v.contains('.') && super::versions::counted(lower, v_end) {
                break;
            }
            if whole != v && whole.starts_with(&v) {
                out.push(whole);
            }
            out.push(v);
        } else if !connector(t) {
            break;
        }
        i += 1;
    }
    let mut seen = std::collections::HashSet::new();
    out.retain(|v| seen.insert(v.clone()));
    // Backward, only through `of the`: `v2.3.1 of the sdk`.
    for t in toks.iter().take(p).rev().take(4) {
        if let Some(v) = version(t) {
            out.push(v);
            break;
        }
        let w = lower.get(t.range.clone()).unwrap_or("");
        if !(t.kind == TokKind::Word && matches!(w, "of" | "the" | "for")) {
            break;
        }
    }
    out
}

/// Words that may stand between a product and its versions.
const FORWARD: &[&str] = &[
    "from", "to", "is", "was", "are", "at", "version", "ver", "v", "now", "release", "and", "or", "vs", "upgraded",
    "bumped", "pinned", "->",
];

/// True when `word` (lowercase) may stand between a product and its versions.
pub(crate) fn is_forward(word: &str) -> bool {
    FORWARD.contains(&word)
}

/// True when a version `value` (no `v`) is the version `held` or a prefix of it at a dot
/// (`16` is held by `16.4`, `3.11` by `3.11.4`, not `3.1` by `3.11`).
pub(crate) fn version_matches(value: &str, held: &str) -> bool {
    held == value || held.strip_prefix(value).is_some_and(|rest| rest.starts_with(['.', '-', '+']))
}

/// True when two labels name the same thing: equal stems, or for CJK words one ending the
/// other (`デプロイのタイムアウト` and `タイムアウト`).
pub(crate) fn same_subject(a: &str, b: &str) -> bool {
    if a == b {
        return true;
    }
    let cjk = |s: &str| s.chars().any(is_cjk);
    cjk(a) && cjk(b) && (a.ends_with(b) || b.ends_with(a))
}

/// True when the char before byte `i` of `s` is not part of a word.
pub(crate) fn word_start(s: &str, i: usize) -> bool {
    !char_before(s, i).is_some_and(is_word_char)
}

#[cfg(test)]
mod tests {
    use super::super::clause::CLAUSE_REACH;
    use super::*;

    fn label_at(text: &str, value: &str) -> Option<String> {
        let i = text.find(value).unwrap();
        label_of(text, i..i + value.len()).map(|l| l.text)
    }

    #[test]
    fn a_value_that_stays_keeps_its_label() {
        assert_eq!(label_at("annual stays $490 and seats stay at 10", "10").as_deref(), Some("seats"));
        assert_eq!(label_at("the pool size remains 20", "20").as_deref(), Some("size"));
    }

    #[test]
    fn clauses_end_at_sentences_lines_and_semicolons() {
        let t = "Use Python 3.11. The timeout is 30s; retry after 5s\nnext";
        assert_eq!(&t[clause_at(t, t.find("30s").unwrap())], " The timeout is 30s");
        assert_eq!(&t[clause_at(t, t.find("3.11").unwrap())], "Use Python 3.11");
        assert_eq!(&t[clause_at(t, t.find("5s").unwrap())], " retry after 5s");
        let ja = "タイムアウトは30秒。リトライは5秒";
        assert_eq!(&ja[clause_at(ja, ja.find("5秒").unwrap())], "リトライは5秒");
    }

    #[test]
    fn a_clause_reaches_a_bounded_way_and_is_cut_at_a_space() {
        let long = format!("{} the timeout is 30s {}", "word ".repeat(2000), "ワード ".repeat(2000));
        let at = long.find("30s").unwrap();
        let r = clause_at(&long, at);
        assert!(r.len() <= 2 * CLAUSE_REACH && r.contains(&at), "{r:?}");
        let clause = &long[r];
        assert!(clause.starts_with("word ") && clause.ends_with("ワード"), "{clause:?}");
        // No space to cut at: the reach cuts on a char boundary.
        let blob = "é".repeat(10_000) + "42" + &"é".repeat(10_000);
        let r = clause_at(&blob, blob.find("42").unwrap());
        assert!(r.len() <= 2 * CLAUSE_REACH && blob.get(r).is_some());
    }

    #[test]
    fn labels_english() {
        assert_eq!(label_at("The deploy timeout is set to 30s.", "30s").as_deref(), Some("timeout"));
        assert_eq!(label_at("timeout: 30s, retry: 60s", "60s").as_deref(), Some("retry"));
        assert_eq!(label_at("retry after 30s", "30s").as_deref(), Some("retry"));
        assert_eq!(label_at("a 30s timeout", "30s").as_deref(), Some("timeout"));
        assert_eq!(label_at("TIMEOUT=30", "30").as_deref(), Some("TIMEOUT"));
        assert_eq!(label_at("Tests:       1 failed, 213 passed, 214 total", "214").as_deref(), Some("Tests"));
        assert_eq!(label_at("took 12 minutes", "12").as_deref(), Some("took"));
        assert_eq!(label_at("| timeout | 30s |", "30s").as_deref(), Some("timeout"));
        assert_eq!(label_at("30s", "30s"), None);
        assert_eq!(label_at("retry 5s, 30s", "30s"), None, "a comma ends the phrase");
    }

    #[test]
    fn labels_cjk() {
        assert_eq!(label_at("タイムアウトは30秒", "30秒").as_deref(), Some("タイムアウトは"));
        assert_eq!(stem("タイムアウトは"), "タイムアウト");
        assert_eq!(stem("타임아웃은"), "타임아웃");
        assert_eq!(stem("超时是"), "超时");
    }

    #[test]
    fn stems() {
        assert_eq!(stem("timeouts"), stem("timeout"));
        assert_eq!(stem("Retries"), stem("retried"));
        assert_eq!(stem("max_connections"), "max_connections");
    }

    #[test]
    fn product_versions_follow_connectors_only() {
        let v = |t: &str, p: &str| {
            let lower = t.to_lowercase();
            let i = lower.find(p).unwrap();
            product_versions(&lower, i, p.len())
        };
        assert_eq!(v("We run Postgres 16 now", "postgres"), ["16"]);
        assert_eq!(v("upgraded PostgreSQL from 15.4 to 16.4", "postgres"), ["15.4", "16.4"]);
        assert_eq!(v("redis_version:7.2.5", "redis"), ["7.2.5"]);
        assert_eq!(v("platform linux -- Python 3.12.3, pytest-9.0.2", "pytest"), ["9.0.2"]);
        assert_eq!(v("added node@20.11.1", "node"), ["20.11.1"]);
        assert_eq!(v("ingress-nginx-4.11.3", "ingress-nginx"), ["4.11.3"]);
        assert_eq!(v("ingress-nginx 를 4.11.3 으로", "ingress-nginx"), ["4.11.3"]);
        assert_eq!(v("image: postgres:16-alpine", "postgres"), ["16", "16-alpine"]);
        assert_eq!(v("pinned v2.3.1 of the SDK", "sdk"), ["2.3.1"]);
        assert_eq!(v("Postgres 16 and Redis 7", "redis"), ["7"]);
        assert_eq!(v("Postgres on 3 hosts", "postgres"), Vec::<String>::new());
        assert!(version_matches("16", "16.4") && !version_matches("3.1", "3.11") && version_matches("3.11", "3.11"));
    }
}
