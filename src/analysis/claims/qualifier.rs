//! What a value is given in: the currency of an amount (`$20`, `20 EUR`, `€20`, `20ドル`,
//! `20元`), the time zone of a time of day (`11:00 UTC`, `9:30am Berlin time`, `3pm
//! PT`, `日本時間23時`), and the bound a requirement puts on a version (`>=3.10`, `3.10 or
//! newer`, `<2`, `^18.2.0`, `==1.4.2`, `3.10 이상`).
//!
//! Like a rate (see `rates`), the qualifier is part of the value: `€20` does not say what
//! `$20` says, nor `11:00 CET` what `11:00 UTC` says, though the number is the same. A note's
//! value given in one currency or zone where every cited sentence stating the number gives
//! it in another is a value turned into another one (see `provenance::statements`). A side
//! that names none says nothing either way (`20` against `$20`).
//!
//! Currencies are compared by family (`$`, `USD`, `dollars`, `ドル`, `달러`, `美元` are one;
//! `¥` is both yen and yuan). Zones by the region they keep the clock of (`PST`, `PDT`,
//! `PT`, `Pacific` are one; `UTC`, `GMT`, `Z` are one; `UTC+2` is its offset); a zone
//! named by a place (`Berlin time`) by its place when no table holds it.

use super::{Claim, ClaimValue};
use std::ops::Range;

/// What a value is given in, comparable.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Qualifier {
    /// The currencies an amount may be in (one family, or two for `¥`).
    Currency(Vec<&'static str>),
    /// The zone a time of day is told in.
    Zone(String),
    /// Which versions a requirement admits besides the one named.
    Bound(Bound),
}

/// The versions a requirement admits (`>=3.10`, `3.10 or newer`, `<2`, `^18.2.0`, `==1.4.2`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// This one or later (`>=`, `>`, `at least`, `or newer`, `3.10+`, 以上, 이상).
    Lower,
    /// Up to this one (`<`, `<=`, `below`, `or older`, 以下, 이하).
    Upper,
    /// Compatible releases (`^`, `~`, `~>`): later ones of the same line.
    Compatible,
    /// This one only (`==`, `exactly`, `pinned at`).
    Exact,
}

impl Qualifier {
    /// True when the two can be the same: families that meet, or the same zone.
    pub fn agrees(&self, other: &Qualifier) -> bool {
        match (self, other) {
            (Qualifier::Currency(a), Qualifier::Currency(b)) => a.iter().any(|f| b.contains(f)),
            (Qualifier::Zone(a), Qualifier::Zone(b)) => a == b,
            // `^18.2.0` admits later 18.x releases, as `>=18.2.0` does within the line.
            (Qualifier::Bound(a), Qualifier::Bound(b)) => {
                a == b || matches!((a, b), (Bound::Lower, Bound::Compatible) | (Bound::Compatible, Bound::Lower))
            }
            _ => true,
        }
    }
}

/// Currency families and the marks and words that name them (lowercase).
const CURRENCIES: &[(&str, &[&str])] = &[
    ("dollar", &["$", "usd", "us$", "dollar", "dollars", "ドル", "달러", "美元", "美金"]),
    ("euro", &["€", "eur", "euro", "euros", "ユーロ", "유로", "欧元", "歐元"]),
    ("pound", &["£", "gbp", "ポンド", "파운드", "英镑"]),
    ("yen", &["¥", "jpy", "yen", "円", "엔", "日元"]),
    ("yuan", &["¥", "cny", "rmb", "yuan", "元", "块", "人民币", "위안"]),
    ("won", &["₩", "krw", "won", "원", "ウォン", "韩元"]),
    ("rupee", &["₹", "inr", "rupee", "rupees"]),
    ("franc", &["chf"]),
];

/// Zones and the names that keep their clock (as written, compared lowercase).
const ZONES: &[(&str, &[&str])] = &[
    ("utc", &["utc", "gmt", "z", "zulu", "utc+0", "gmt+0", "utc+00:00"]),
    (
        "central-europe",
        &["cet", "cest", "mez", "berlin", "paris", "amsterdam", "madrid", "rome", "vienna", "stockholm"],
    ),
    ("eastern-europe", &["eet", "eest", "helsinki", "athens", "kyiv"]),
    ("uk", &["bst", "london"]),
    ("us-eastern", &["est", "edt", "et", "eastern", "new york", "nyc"]),
    ("us-central", &["cdt", "ct", "chicago"]),
    ("us-mountain", &["mst", "mdt", "mt", "mountain", "denver"]),
    ("us-pacific", &["pst", "pdt", "pt", "pacific", "los angeles", "san francisco", "seattle"]),
    ("japan", &["jst", "japan", "tokyo", "日本時間", "東京時間"]),
    ("korea", &["kst", "korea", "seoul", "한국 시간", "한국시간", "서울 시간"]),
    ("china", &["beijing", "shanghai", "北京时间", "北京時間"]),
    ("india", &["ist", "india"]),
    ("australia-east", &["aest", "aedt", "sydney", "melbourne"]),
];

/// The qualifier of a value claim of `line` (see the module doc); `None` when it names
/// none or is no amount or time.
pub fn qualifier_of(line: &str, claim: &Claim) -> Option<Qualifier> {
    let inner = line.get(claim.start..claim.end)?;
    let at = |r: Range<usize>| claim.start + r.start..claim.start + r.end;
    match &claim.value {
        ClaimValue::Number { value, .. } => {
            let r = super::numbers::numbers_equal(inner, value).next().map(at)?;
            currency_around(line, r)
        }
        ClaimValue::Text(value) if is_time(value) => {
            let r = super::clock::clock_times(inner).into_iter().next().map(|(r, _)| at(r))?;
            zone_around(line, r)
        }
        ClaimValue::Text(value) if claim.kind == super::ClaimKind::Version => {
            let r = version_places(inner, value).next().map(at)?;
            bound_around(line, r)
        }
        _ => None,
    }
}

/// Where `text` writes the version `value` as a token of its own.
fn version_places<'a>(text: &'a str, value: &'a str) -> impl Iterator<Item = Range<usize>> + 'a {
    text.match_indices(value).map(|(i, v)| i..i + v.len()).filter(move |r| {
        let before = text[..r.start].chars().next_back();
        let after = text[r.end..].chars().next();
        let after_next = text[r.end..].chars().nth(1);
        !before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '.')
            && !after.is_some_and(|c| c.is_ascii_digit() || c == '.' && after_next.is_some_and(|n| n.is_ascii_digit()))
    })
}

/// The bound a requirement puts on the version at `r` of `text`: an operator or word
/// before it, or a phrase after it.
fn bound_around(text: &str, r: Range<usize>) -> Option<Qualifier> {
    let before = text.get(..r.start)?.trim_end_matches([' ', '"', '\'', 'v']);
    let after = text.get(r.end..)?.trim_start();
    let lower_after = after.to_lowercase();
    let lower_before = before.to_lowercase();
    let ops: &[(&str, Bound)] = &[
        (">=", Bound::Lower),
        ("≥", Bound::Lower),
        ("<=", Bound::Upper),
        ("≤", Bound::Upper),
        ("==", Bound::Exact),
        ("~>", Bound::Compatible),
        (">", Bound::Lower),
        ("<", Bound::Upper),
        ("^", Bound::Compatible),
        ("~", Bound::Compatible),
        ("at least", Bound::Lower),
        ("below", Bound::Upper),
        ("under", Bound::Upper),
        ("up to", Bound::Upper),
        ("above", Bound::Lower),
        ("exactly", Bound::Exact),
        ("pinned at", Bound::Exact),
        ("pinned to", Bound::Exact),
    ];
    let after_words: &[(&str, Bound)] = &[
        ("or newer", Bound::Lower),
        ("or later", Bound::Lower),
        ("or higher", Bound::Lower),
        ("or above", Bound::Lower),
        ("or greater", Bound::Lower),
        ("and up", Bound::Lower),
        ("and above", Bound::Lower),
        ("or older", Bound::Upper),
        ("or earlier", Bound::Upper),
        ("or lower", Bound::Upper),
        ("or below", Bound::Upper),
        ("以上", Bound::Lower),
        ("이상", Bound::Lower),
        ("及以上", Bound::Lower),
        ("以下", Bound::Upper),
        ("이하", Bound::Upper),
        ("未満", Bound::Upper),
        ("미만", Bound::Upper),
    ];
    let found = ops.iter().find(|(op, _)| lower_before.ends_with(op)).map(|(_, b)| *b).or_else(|| {
        if after.starts_with('+') && !after[1..].starts_with(|c: char| c.is_ascii_digit()) {
            return Some(Bound::Lower);
        }
        after_words.iter().find(|(w, _)| lower_after.starts_with(w)).map(|(_, b)| *b)
    });
    found.map(Qualifier::Bound)
}

/// The qualifiers of each place `text` writes the claim's value (`None` for one given in
/// nothing); empty when the claim is no amount or time or `text` does not hold it.
pub fn qualifiers_in(text: &str, claim: &Claim) -> Vec<Option<Qualifier>> {
    match &claim.value {
        ClaimValue::Number { value, .. } => {
            super::numbers::numbers_equal(text, value).map(|r| currency_around(text, r)).collect()
        }
        ClaimValue::Text(value) if is_time(value) => super::clock::clock_times(text)
            .into_iter()
            .filter(|(_, v)| super::clock::same_time(value, v))
            .map(|(r, _)| zone_around(text, r))
            .collect(),
        ClaimValue::Text(value) if claim.kind == super::ClaimKind::Version => {
            version_places(text, value).map(|r| bound_around(text, r)).collect()
        }
        _ => Vec::new(),
    }
}

/// True when a claim's text value is a time of day (`H:MM`, `H:MM?`).
fn is_time(value: &str) -> bool {
    let v = value.trim_end_matches('?');
    v.split_once(':').is_some_and(|(h, m)| {
        !h.is_empty() && h.len() <= 2 && m.len() == 2 && (h.to_owned() + m).bytes().all(|b| b.is_ascii_digit())
    })
}

/// The currency of the number at `r` of `text`: a mark or code right before it (`$20`,
/// `USD 20`), or a code or word right after it, past a magnitude (`20k EUR`, `2万円`).
fn currency_around(text: &str, r: Range<usize>) -> Option<Qualifier> {
    let before = text.get(..r.start)?.trim_end_matches(' ');
    let before_word: String = before.chars().rev().take_while(|c| !c.is_whitespace() && !c.is_ascii_digit()).collect();
    let before_word: String = before_word.chars().rev().collect::<String>().to_lowercase();
    let after = text.get(r.end..)?;
    let after = after.trim_start_matches(['k', 'K', 'm', 'M', 'b', 'B', '万', '만', '億', '억', '千', '천']);
    let after = after.trim_start_matches(' ');
    let after_word: String =
        after.chars().take_while(|c| c.is_alphabetic() || "$€£¥₩₹".contains(*c)).collect::<String>().to_lowercase();
    let family = |word: &str, glued_end: bool| -> Vec<&'static str> {
        CURRENCIES
            .iter()
            .filter(|(_, names)| names.iter().any(|n| word == *n || (glued_end && !n.is_ascii() && word.ends_with(n))))
            .map(|(f, _)| *f)
            .collect()
    };
    // A CJK word ends in its mark (`料金は¥`); after the number, the first word (`20ドルです`).
    let mut found = family(&before_word, true);
    if found.is_empty() {
        found = family(&after_word, false);
        if found.is_empty() && !after_word.is_ascii() {
            found = CURRENCIES
                .iter()
                .filter(|(_, names)| names.iter().any(|n| !n.is_ascii() && after_word.starts_with(n)))
                .map(|(f, _)| *f)
                .collect();
        }
    }
    (!found.is_empty()).then_some(Qualifier::Currency(found))
}

/// The zone of the time of day at `r` of `text`: the words right after it (`UTC`, `UTC+2`,
/// `PT`, `Berlin time`), or a zone name right before it (`日本時間23時`).
fn zone_around(text: &str, r: Range<usize>) -> Option<Qualifier> {
    let after = text.get(r.end..)?.trim_start_matches([' ', '(']);
    let words: Vec<&str> = after.split([' ', ',', ';', ')', '.', '\n']).take(3).collect();
    let first = words.first().copied().unwrap_or("");
    let lower = first.to_lowercase();
    let then_time = words.get(1).is_some_and(|w| w.eq_ignore_ascii_case("time"));
    let capitalized = first.chars().next().is_some_and(char::is_uppercase);
    let abbreviation = (2..=5).contains(&first.len()) && first.bytes().all(|b| b.is_ascii_uppercase());
    let two = words.get(..2).map(|w| w.join(" ").to_lowercase()).unwrap_or_default();
    let zone = if let Some(z) = offset(&lower) {
        Some(z)
    } else if let Some(z) = zone_named(&two).filter(|_| capitalized || !first.is_ascii()) {
        Some(z.to_string())
    } else if let Some(z) = zone_named(&lower).filter(|_| capitalized) {
        // A lowercase `et`, `pt`, `mt` is a word, not a zone.
        Some(z.to_string())
    } else if (abbreviation && first.len() >= 3 && first.ends_with('T')) || (capitalized && then_time) {
        Some(lower)
    } else {
        None
    };
    if zone.is_some() {
        return zone.map(Qualifier::Zone);
    }
    // CJK: the zone's name just before the time.
    let before = text.get(..r.start)?.trim_end();
    ZONES
        .iter()
        .find(|(_, names)| names.iter().any(|n| !n.is_ascii() && before.ends_with(n)))
        .map(|(z, _)| Qualifier::Zone(z.to_string()))
}

/// The zone a name keeps the clock of, if a table holds it.
fn zone_named(name: &str) -> Option<&'static str> {
    ZONES.iter().find(|(_, names)| names.contains(&name)).map(|(z, _)| *z)
}

/// A zone given as an offset (`utc+2`, `gmt-05:00`), comparable (`utc+2`); `UTC+0` is UTC.
fn offset(word: &str) -> Option<String> {
    let rest = word.strip_prefix("utc").or_else(|| word.strip_prefix("gmt"))?;
    let sign = rest.chars().next().filter(|c| matches!(c, '+' | '-' | '−'))?;
    let digits = &rest[sign.len_utf8()..];
    let (h, m) = digits.split_once(':').unwrap_or((digits, "00"));
    let h: u32 = h.parse().ok()?;
    let m: u32 = m.parse().ok()?;
    if h == 0 && m == 0 {
        return Some("utc".into());
    }
    let sign = if sign == '+' { '+' } else { '-' };
    Some(if m == 0 { format!("utc{sign}{h}") } else { format!("utc{sign}{h}:{m:02}") })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn amount(text: &str, number: &str) -> Option<Qualifier> {
        let at = text.find(number).unwrap();
        currency_around(text, at..at + number.len())
    }

    fn zone(text: &str, time: &str) -> Option<Qualifier> {
        let at = text.find(time).unwrap();
        zone_around(text, at..at + time.len())
    }

    fn cur(f: &[&'static str]) -> Option<Qualifier> {
        Some(Qualifier::Currency(f.to_vec()))
    }

    #[test]
    fn the_currency_of_an_amount_in_any_script() {
        assert_eq!(amount("costs $20 per seat", "20"), cur(&["dollar"]));
        assert_eq!(amount("Hosted plan: €20 per seat", "20"), cur(&["euro"]));
        assert_eq!(amount("about 20 EUR a month", "20"), cur(&["euro"]));
        assert_eq!(amount("budget is USD 1500", "1500"), cur(&["dollar"]));
        assert_eq!(amount("$95k annually", "95"), cur(&["dollar"]));
        assert_eq!(amount("月額20ドルです", "20"), cur(&["dollar"]));
        assert_eq!(amount("料金は2万円", "2"), cur(&["yen"]));
        assert_eq!(amount("每月 300 元", "300"), cur(&["yuan"]));
        assert_eq!(amount("월 300만 원", "300"), cur(&["won"]));
        assert_eq!(amount("price ¥500", "500"), cur(&["yen", "yuan"]));
        assert_eq!(amount("the fixture has 64 rows", "64"), None);
        assert_eq!(amount("20 seats", "20"), None);
        assert!(cur(&["yen", "yuan"]).unwrap().agrees(&cur(&["yen"]).unwrap()));
        assert!(!cur(&["euro"]).unwrap().agrees(&cur(&["dollar"]).unwrap()));
    }

    #[test]
    fn the_zone_of_a_time_of_day() {
        let z = |s: &str| Some(Qualifier::Zone(s.to_string()));
        assert_eq!(zone("runs at 11:00 UTC, daily", "11:00"), z("utc"));
        assert_eq!(zone("Nightly backup: 11:00 CET.", "11:00"), z("central-europe"));
        assert_eq!(zone("standup at 9:30am Berlin time", "9:30am"), z("central-europe"));
        assert_eq!(zone("standup at 9:30am Lisbon time", "9:30am"), z("lisbon"));
        assert_eq!(zone("deploy window 3pm PT", "3pm"), z("us-pacific"));
        assert_eq!(zone("deploy window 3pm PDT", "3pm"), z("us-pacific"));
        assert_eq!(zone("at 14:00 UTC+2", "14:00"), z("utc+2"));
        assert_eq!(zone("at 14:00 GMT+0", "14:00"), z("utc"));
        assert_eq!(zone("at 14:00 (NZST)", "14:00"), z("nzst"));
        assert_eq!(zone("日本時間23時に実行", "23時"), z("japan"));
        assert_eq!(zone("at 11:00 tomorrow", "11:00"), None);
        assert_eq!(zone("at 11:00 Then we go", "11:00"), None);
        assert_eq!(zone("at 11:00 in the morning", "11:00"), None);
        assert_eq!(offset("utc-05:30").as_deref(), Some("utc-5:30"));
    }

    #[test]
    fn the_bound_of_a_version_requirement() {
        let bound = |text: &str, v: &str| {
            let r = version_places(text, v).next().unwrap();
            bound_around(text, r)
        };
        let b = |x: Bound| Some(Qualifier::Bound(x));
        assert_eq!(bound(r#"requires-python = ">=3.10""#, "3.10"), b(Bound::Lower));
        assert_eq!(bound("needs Python 3.10 or newer", "3.10"), b(Bound::Lower));
        assert_eq!(bound("needs Python 3.10 or older", "3.10"), b(Bound::Upper));
        assert_eq!(bound("Python 3.10+ only", "3.10"), b(Bound::Lower));
        assert_eq!(bound(r#""react": "^18.2.0""#, "18.2.0"), b(Bound::Compatible));
        assert_eq!(bound("React exactly 18.2.0", "18.2.0"), b(Bound::Exact));
        assert_eq!(bound("Node 20 이상", "20"), b(Bound::Lower));
        assert_eq!(bound("runs on Postgres 16", "16"), None);
        assert!(b(Bound::Lower).unwrap().agrees(&b(Bound::Compatible).unwrap()));
        assert!(!b(Bound::Lower).unwrap().agrees(&b(Bound::Upper).unwrap()));
        assert!(!b(Bound::Exact).unwrap().agrees(&b(Bound::Compatible).unwrap()));
    }
}
