//! Recognisers for every written form of a date (see the parent module for the list).

use std::ops::Range;
use std::sync::LazyLock;

use regex::{Captures, Regex};

use super::spec::{ANY_LEAP_YEAR, DateSpec, MonthPart};
use crate::analysis::claims::text::{
    char_at, char_before, is_cjk, is_hangul, is_word_char, parse_cjk_number, parse_digits,
};
use crate::base::date::{Date, days_in_month};

/// One date found in a text: its byte range and value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct FoundDate {
    /// Byte range of the date as written.
    pub range: Range<usize>,
    /// Its value.
    pub spec: DateSpec,
}

const MONTH: &str = r"(?P<mon>jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept(?:ember)?|sep|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?";
const WEEKDAY: &str = r"(?:(?:mon|tues?|wed(?:nes)?|thu(?:rs?)?|fri|sat(?:ur)?|sun)(?:day)?\.?,?\s)?";
const CJK_PART: &str = r"(?P<part>上旬|中旬|下旬|初旬|初め|初頭|末|底|初)";
const KO_PART: &str = r"(?P<part>초순|상순|중순|하순|초|말)";
const FW: &str = "[0-9０-９]";
/// The optional space between the parts of a CJK date (`8 월`, `2026年 8月`): an ASCII or
/// ideographic space, so that [`super::needles`] can spell every form.
const SP: &str = "[ \u{3000}]?";

fn compile(pattern: &str) -> Option<Regex> {
    Regex::new(pattern).ok()
}

/// A recogniser: a regex and what a match of it means.
struct Form {
    re: Option<Regex>,
    build: fn(&str, &Captures) -> Option<FoundDate>,
    /// It can match a text without a digit (`late Oct`, `in October`); every other form
    /// needs one (`\d` is any Unicode decimal digit: a numeric character).
    digitless: bool,
}

static FORMS: LazyLock<Vec<Form>> = LazyLock::new(|| {
    let day_suffix = r"(?:st|nd|rd|th)?";
    vec![
        // Sunday, Nov 1, 2026 / Nov 1 / November 1st 2026
        Form {
            re: compile(&format!(
                r"(?i)\b{WEEKDAY}{MONTH}\s(?P<day>\d{{1,2}}){day_suffix}(?:,?\s(?P<year>\d{{4}}))?\b"
            )),
            build: month_day_year,
            digitless: false,
        },
        // 1 November 2026 / 1st of Nov
        Form {
            re: compile(&format!(
                r"(?i)\b(?P<day>\d{{1,2}}){day_suffix}\s(?:of\s)?{MONTH}(?:,?\s(?P<year>\d{{4}}))?\b"
            )),
            build: day_month_year,
            digitless: false,
        },
        // November 2026
        Form { re: compile(&format!(r"(?i)\b{MONTH},?\s(?P<year>\d{{4}})\b")), build: month_year, digitless: false },
        // late Oct 2026 / mid-November / end of November 2026
        Form {
            re: compile(&format!(
                r"(?i)\b(?P<pw>early|mid|late|end\sof|beginning\sof|start\sof|middle\sof)[\s-]{MONTH}(?:,?\s(?P<year>\d{{4}}))?\b"
            )),
            build: part_month_year,
            digitless: true,
        },
        // Q4 2026 / Q4 of 2026
        Form {
            re: compile(r"(?i)\bQ(?P<q>[1-4])(?:\s|\s?/\s?|-|\sof\s)(?P<year>\d{4})\b"),
            build: quarter,
            digitless: false,
        },
        // 2026 Q4 / 2026-Q4
        Form { re: compile(r"(?i)\b(?P<year>\d{4})\s?-?\s?Q(?P<q>[1-4])\b"), build: quarter, digitless: false },
        // in 2026 / early 2026
        Form {
            re: compile(
                r"(?i)\b(?P<ctx>in|since|by|until|till|through|during|from|before|after|of|early|mid|late|end\sof|beginning\sof)[\s-](?P<year>\d{4})\b",
            ),
            build: year_in_context,
            digitless: false,
        },
        // 2026-11-01 / 2026/11/01 / 2026.11.01
        Form {
            re: compile(r"(?P<year>\d{4})(?P<s1>[-/.])(?P<m>\d{1,2})(?P<s2>[-/.])(?P<d>\d{1,2})"),
            build: iso_day,
            digitless: false,
        },
        // 2026-11
        Form { re: compile(r"(?P<year>\d{4})[-/](?P<m>\d{2})"), build: iso_month, digitless: false },
        // 11/1, 11/01/2026
        Form { re: compile(r"(?P<m>\d{1,2})/(?P<d>\d{1,2})(?:/(?P<year>\d{4}))?"), build: us_date, digitless: false },
        // 2026年11月1日 / 2026年11月 / 2026年 / 2026年10月下旬
        Form {
            re: compile(&format!(
                r"(?P<year>{FW}{{4}}){SP}年(?:{SP}(?P<m>{FW}{{1,2}}){SP}月(?:{SP}(?P<d>{FW}{{1,2}}){SP}[日号號]|{CJK_PART})?)?"
            )),
            build: cjk_date,
            digitless: false,
        },
        // 11月1日 / 10月下旬 / 11月
        Form {
            re: compile(&format!(r"(?P<m>{FW}{{1,2}}){SP}月(?:{SP}(?P<d>{FW}{{1,2}}){SP}[日号號]|{CJK_PART})?")),
            build: cjk_date,
            digitless: false,
        },
        // 2026년 11월 1일 / 2026년 / 10월 말
        Form {
            re: compile(&format!(
                r"(?P<year>{FW}{{4}}){SP}년(?:{SP}(?P<m>{FW}{{1,2}}){SP}월(?:{SP}(?P<d>{FW}{{1,2}}){SP}일|{SP}{KO_PART})?)?"
            )),
            build: korean_date,
            digitless: false,
        },
        Form {
            re: compile(&format!(r"(?P<m>{FW}{{1,2}}){SP}월(?:{SP}(?P<d>{FW}{{1,2}}){SP}일|{SP}{KO_PART})?")),
            build: korean_date,
            digitless: false,
        },
        // 2026年第4四半期 / 2026年Q4 / 2026년 4분기
        Form {
            re: compile(&format!(
                r"(?P<year>{FW}{{4}}){SP}年?{SP}(?:第{SP}(?P<q>[1-4１-４一二三四]){SP}(?:四半期|季度)|Q(?P<q2>[1-4]))"
            )),
            build: cjk_quarter,
            digitless: false,
        },
        Form {
            re: compile(&format!(r"(?P<year>{FW}{{4}}){SP}년{SP}(?P<q>[1-4]){SP}분기")),
            build: cjk_quarter,
            digitless: false,
        },
        // in October (capitalised month after a context word)
        Form {
            re: compile(
                r"(?i)\b(?:in|since|by|until|till|during|from|through|before|after)\s(?P<mon>january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec)\b",
            ),
            build: month_in_context,
            digitless: true,
        },
    ]
});

/// Every date in `text`, in order, never overlapping (leftmost, then longest, wins).
pub(crate) fn find_dates(text: &str) -> Vec<FoundDate> {
    let mut found = Vec::new();
    let digits = text.chars().any(char::is_numeric);
    for form in FORMS.iter().filter(|f| digits || f.digitless) {
        let Some(re) = &form.re else { continue };
        for caps in re.captures_iter(text) {
            if let Some(f) = (form.build)(text, &caps)
                && f.range.start < f.range.end
            {
                found.push(f);
            }
        }
    }
    found.sort_by(|a, b| a.range.start.cmp(&b.range.start).then(b.range.end.cmp(&a.range.end)));
    let mut out: Vec<FoundDate> = Vec::new();
    for f in found {
        if out.last().is_none_or(|last| f.range.start >= last.range.end) {
            out.push(f);
        }
    }
    out
}

fn valid_year(y: u32) -> Option<i32> {
    (1900..=2199).contains(&y).then_some(y as i32)
}

fn group_num(caps: &Captures, name: &str) -> Option<u32> {
    caps.name(name).and_then(|m| parse_digits(m.as_str()))
}

fn month_index(name: &str) -> Option<u32> {
    let lower = name.to_ascii_lowercase();
    let key = lower.get(..3)?;
    const NAMES: [&str; 12] = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];
    NAMES.iter().position(|n| *n == key).map(|i| i as u32 + 1)
}

/// The month named by the `mon` group, refusing a lowercase "may" (the verb).
fn month_of(caps: &Captures) -> Option<(u32, bool)> {
    let m = caps.name("mon")?;
    let s = m.as_str();
    let capitalised = s.chars().next().is_some_and(|c| c.is_uppercase());
    let month = month_index(s)?;
    if month == 5 && !capitalised {
        return None;
    }
    Some((month, capitalised))
}

fn whole(caps: &Captures) -> Option<Range<usize>> {
    caps.get(0).map(|m| m.range())
}

fn day_or_month_day(year: Option<u32>, month: u32, day: u32) -> Option<DateSpec> {
    match year {
        Some(y) => Some(DateSpec::Day(Date::new(valid_year(y)?, month, day)?)),
        None => (day >= 1 && day <= days_in_month(ANY_LEAP_YEAR, month)).then_some(DateSpec::MonthDay { month, day }),
    }
}

fn month_day_year(_: &str, caps: &Captures) -> Option<FoundDate> {
    let (month, _) = month_of(caps)?;
    let spec = day_or_month_day(group_num(caps, "year"), month, group_num(caps, "day")?)?;
    Some(FoundDate { range: whole(caps)?, spec })
}

fn day_month_year(_: &str, caps: &Captures) -> Option<FoundDate> {
    let (month, capitalised) = month_of(caps)?;
    let year = group_num(caps, "year");
    if year.is_none() && !capitalised {
        return None;
    }
    let spec = day_or_month_day(year, month, group_num(caps, "day")?)?;
    Some(FoundDate { range: whole(caps)?, spec })
}

fn month_year(_: &str, caps: &Captures) -> Option<FoundDate> {
    let (month, _) = month_of(caps)?;
    let year = valid_year(group_num(caps, "year")?)?;
    Some(FoundDate { range: whole(caps)?, spec: DateSpec::Month { year: Some(year), month } })
}

fn part_month_year(_: &str, caps: &Captures) -> Option<FoundDate> {
    let (month, _) = month_of(caps)?;
    let year = match group_num(caps, "year") {
        Some(y) => Some(valid_year(y)?),
        None => None,
    };
    let pw = caps.name("pw")?.as_str().to_ascii_lowercase();
    let part = if pw.starts_with("early") || pw.starts_with("beginning") || pw.starts_with("start") {
        MonthPart::Early
    } else if pw.starts_with("mid") {
        MonthPart::Mid
    } else {
        MonthPart::Late
    };
    Some(FoundDate { range: whole(caps)?, spec: DateSpec::PartOfMonth { year, month, part } })
}

fn quarter(_: &str, caps: &Captures) -> Option<FoundDate> {
    let year = valid_year(group_num(caps, "year")?)?;
    let quarter = group_num(caps, "q")?;
    Some(FoundDate { range: whole(caps)?, spec: DateSpec::Quarter { year, quarter } })
}

fn year_in_context(text: &str, caps: &Captures) -> Option<FoundDate> {
    let y = caps.name("year")?;
    let year = valid_year(parse_digits(y.as_str())?)?;
    // Not when the year starts a longer numeric form (2026-11, 2026/11, 2026.5, 2026年).
    let next = char_at(text, y.end());
    let after = char_at(text, y.end() + 1);
    if matches!(next, Some('-' | '/' | '.' | ',')) && after.is_some_and(|c| c.is_ascii_digit()) {
        return None;
    }
    let ctx = caps.name("ctx")?;
    let c = ctx.as_str().to_ascii_lowercase();
    let start = if matches!(c.as_str(), "early" | "mid" | "late") || c.starts_with("end") || c.starts_with("beginning")
    {
        ctx.start()
    } else {
        y.start()
    };
    Some(FoundDate { range: start..y.end(), spec: DateSpec::Year(year) })
}

/// Left boundary for numeric forms: not inside a number, word, version or path.
fn numeric_left_ok(text: &str, start: usize) -> bool {
    match char_before(text, start) {
        None => true,
        Some(c) => !is_word_char(c) && !matches!(c, '.' | '/' | '-' | '_' | ':' | '０'..='９'),
    }
}

fn iso_day(text: &str, caps: &Captures) -> Option<FoundDate> {
    let m0 = caps.get(0)?;
    if caps.name("s1")?.as_str() != caps.name("s2")?.as_str() {
        return None;
    }
    // A dashed ISO date is unambiguous: accept it inside file names (`memory/2026-06-02.md`).
    let left_ok = if caps.name("s1")?.as_str() == "-" {
        !char_before(text, m0.start()).is_some_and(|c| c.is_ascii_alphanumeric())
    } else {
        numeric_left_ok(text, m0.start())
    };
    if !left_ok || char_at(text, m0.end()).is_some_and(|c| c.is_ascii_digit()) {
        return None;
    }
    let (ms, ds) = (caps.name("m")?.as_str(), caps.name("d")?.as_str());
    if caps.name("s1")?.as_str() == "." && (ms.len() != 2 || ds.len() != 2) {
        return None;
    }
    let year = valid_year(group_num(caps, "year")?)?;
    let date = Date::new(year, parse_digits(ms)?, parse_digits(ds)?)?;
    Some(FoundDate { range: m0.range(), spec: DateSpec::Day(date) })
}

fn iso_month(text: &str, caps: &Captures) -> Option<FoundDate> {
    let m0 = caps.get(0)?;
    if !numeric_left_ok(text, m0.start()) {
        return None;
    }
    let next = char_at(text, m0.end());
    let after = char_at(text, m0.end() + 1);
    if next.is_some_and(|c| c.is_ascii_digit())
        || (matches!(next, Some('-' | '/' | '.')) && after.is_some_and(|c| c.is_ascii_digit()))
    {
        return None;
    }
    let year = valid_year(group_num(caps, "year")?)?;
    let month = group_num(caps, "m")?;
    if !(1..=12).contains(&month) {
        return None;
    }
    Some(FoundDate { range: m0.range(), spec: DateSpec::Month { year: Some(year), month } })
}

fn us_date(text: &str, caps: &Captures) -> Option<FoundDate> {
    let m0 = caps.get(0)?;
    if !numeric_left_ok(text, m0.start()) {
        return None;
    }
    let next = char_at(text, m0.end());
    let after = char_at(text, m0.end() + 1);
    if next.is_some_and(|c| c.is_ascii_digit() || c.is_alphabetic() && !is_cjk(c))
        || (matches!(next, Some('/' | '.' | ':' | '-')) && after.is_some_and(|c| c.is_ascii_digit()))
    {
        return None;
    }
    let month = group_num(caps, "m")?;
    if !(1..=12).contains(&month) {
        return None;
    }
    let spec = day_or_month_day(group_num(caps, "year"), month, group_num(caps, "d")?)?;
    Some(FoundDate { range: m0.range(), spec })
}

fn cjk_part(s: &str) -> Option<MonthPart> {
    Some(match s {
        "上旬" | "初旬" | "初め" | "初頭" | "初" | "초" | "초순" | "상순" => MonthPart::Early,
        "中旬" | "중순" => MonthPart::Mid,
        "下旬" | "末" | "底" | "말" | "하순" => MonthPart::Late,
        _ => return None,
    })
}

fn cjk_like(text: &str, caps: &Captures, korean: bool) -> Option<FoundDate> {
    let m0 = caps.get(0)?;
    if char_before(text, m0.start()).is_some_and(|c| c.is_ascii_digit() || ('０'..='９').contains(&c)) {
        return None;
    }
    let mut end = m0.end();
    let year = match caps.name("year") {
        Some(y) => Some(valid_year(parse_digits(y.as_str())?)?),
        None => None,
    };
    let Some(month) = group_num(caps, "m") else {
        return Some(FoundDate { range: m0.range(), spec: DateSpec::Year(year?) });
    };
    if !(1..=12).contains(&month) {
        return None;
    }
    let spec = if let Some(day) = group_num(caps, "d") {
        day_or_month_day(year.map(|y| y as u32), month, day)?
    } else if let Some(p) = caps.name("part") {
        // Korean 초/말 are parts only before a particle or a break, not inside a word (말하다).
        let ok = !korean
            || p.as_str().chars().count() > 1
            || match char_at(text, p.end()) {
                None => true,
                Some(c) => !is_hangul(c) || "에쯤경부까이의로".contains(c),
            };
        if ok {
            DateSpec::PartOfMonth { year, month, part: cjk_part(p.as_str())? }
        } else {
            end = text.get(..p.start())?.trim_end().len();
            DateSpec::Month { year, month }
        }
    } else {
        DateSpec::Month { year, month }
    };
    Some(FoundDate { range: m0.start()..end, spec })
}

fn cjk_date(text: &str, caps: &Captures) -> Option<FoundDate> {
    cjk_like(text, caps, false)
}

fn korean_date(text: &str, caps: &Captures) -> Option<FoundDate> {
    cjk_like(text, caps, true)
}

fn cjk_quarter(text: &str, caps: &Captures) -> Option<FoundDate> {
    let m0 = caps.get(0)?;
    if char_before(text, m0.start()).is_some_and(|c| c.is_ascii_digit()) {
        return None;
    }
    let year = valid_year(parse_digits(caps.name("year")?.as_str())?)?;
    let q = caps.name("q").or(caps.name("q2"))?.as_str();
    let quarter = parse_cjk_number(q)?;
    if !(1..=4).contains(&quarter) {
        return None;
    }
    Some(FoundDate { range: m0.range(), spec: DateSpec::Quarter { year, quarter } })
}

fn month_in_context(_: &str, caps: &Captures) -> Option<FoundDate> {
    let m = caps.name("mon")?;
    if !m.as_str().chars().next().is_some_and(|c| c.is_uppercase()) {
        return None;
    }
    let month = month_index(m.as_str())?;
    Some(FoundDate { range: m.range(), spec: DateSpec::Month { year: None, month } })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn all_forms_compile() {
        assert!(FORMS.iter().all(|f| f.re.is_some()));
    }

    #[test]
    fn only_the_digitless_forms_are_read_without_a_digit() {
        // Texts without a digit, near misses of every form among them: a form that matches
        // one must be marked digitless, or `find_dates` would skip it there.
        let texts = [
            "- Frozen until late Oct; the move is mid-November, end of March at the latest.",
            "- Shipped in October, since May, before June and after Sept.",
            "- Sunday, Nov the first; Q four; the 十一月 plan; 十月下旬; 시월 말.",
            "- Early December or the beginning of January (not in Jan).",
            "- November, twenty twenty-six; 第四四半期; Qx of year.",
        ];
        for (k, form) in FORMS.iter().enumerate() {
            let Some(re) = &form.re else { continue };
            let hits: Vec<&str> = texts.iter().filter(|t| re.is_match(t)).copied().collect();
            assert!(form.digitless || hits.is_empty(), "form {k} matches digit-free text: {hits:?}");
            assert!(!form.digitless || !hits.is_empty(), "form {k} is marked digitless but matches none");
        }
        assert_eq!(find_dates(texts[0]).len(), 3, "{:?}", find_dates(texts[0]));
        // A digit of any script brings every form back: `\d` is Unicode.
        assert!(!find_dates("- Released 1 November 2026.").is_empty());
    }
}
