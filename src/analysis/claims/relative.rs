//! Relative time phrases ("last week", "昨日", "지난주", "上周"…) in source lines, and the
//! days they can mean given the line's timestamp.
//!
//! A dream turns "we moved last week" (said on 2026-11-01) into "moved in late Oct 2026";
//! finding the phrase lets the `inferred-date` flag show where the date probably came from,
//! and what the phrase denotes is what the line states ("昨日" said on 2026-03-10 states
//! 2026-03-09). The anchor is the line's *local* day ([`crate::base::zone`]): a day phrase means
//! exactly one day, and only when the user's zone is unknown is the anchor itself ±1
//! ([`Relative::resolve_around`]). A model converting "last week" or "last month" may pick
//! the calendar period or a rolling one, so both are covered; rolling windows ("in the last
//! 30 days", 直近30日, 최근 30일, 过去30天) end on the anchor.

use std::sync::LazyLock;

use aho_corasick::{AhoCorasick, AhoCorasickBuilder, MatchKind};
use regex::{Captures, Regex};

use super::text::parse_cjk_number;
use super::words::RELATIVE_NEEDLES;
use crate::base::date::{Date, days_in_month};
use crate::base::zone::LocalDay;

/// What a relative phrase refers to, before anchoring it to a date.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RelativeKind {
    /// N days before the anchor: today = 0, yesterday = 1, the day before yesterday = 2.
    DaysAgo(u32),
    /// Somewhere between `.0` and `.1` days before ("a few days ago", "the other day").
    DaysAgoBetween(u32, u32),
    /// N weeks before the anchor ("2 weeks ago", "3週間前").
    WeeksAgo(u32),
    /// N months before the anchor ("2 months ago", "3개월 전").
    MonthsAgo(u32),
    /// N years before the anchor ("a year ago").
    YearsAgo(u32),
    /// The previous week ("last week", "先週", "지난주", "上周").
    LastWeek,
    /// The previous weekend ("last weekend", "先週末", "上周末").
    LastWeekend,
    /// The previous month ("last month", "先月", "지난달", "上个月").
    LastMonth,
    /// The previous year ("last year", "去年", "작년").
    LastYear,
    /// The most recent given weekday before the anchor (0 = Monday … 6 = Sunday), "last Friday".
    LastWeekday(u32),
    /// Earlier in the anchor's week ("earlier this week", "今週", "이번 주").
    ThisWeek,
    /// N days after the anchor: tomorrow = 1 ("明日", "내일", "明天").
    DaysAhead(u32),
    /// The week after the anchor's ("next week", "来週", "다음 주", "下周").
    NextWeek,
    /// The month after the anchor's ("next month", "来月", "다음 달", "下个月").
    NextMonth,
    /// A weekday named without "last" ("on Friday", "this Friday", "next Friday"): the
    /// nearest such day on either side of the anchor (0 = Monday … 6 = Sunday).
    Weekday(u32),
    /// A rolling window of N days ending on the anchor ("in the last 30 days", "over the past
    /// two weeks", 直近30日, 최근 30일, 过去30天).
    Within(u32),
}

/// A relative time phrase found in a text.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Relative {
    /// The phrase exactly as written (`last week`, `先週`).
    pub phrase: String,
    /// Byte offset of the phrase in the text.
    pub start: usize,
    /// Byte offset just past the phrase.
    pub end: usize,
    /// What it refers to.
    pub kind: RelativeKind,
}

impl Relative {
    /// Why [`Relative::resolve`] gives more days than the phrase names, for a reader of the
    /// arithmetic: `last week` said on Sun 2026-11-01 is the calendar week Mon 2026-10-19 to
    /// Sun 2026-10-25, or the days 6 to 13 before. `None` when the range is what it names.
    pub fn reason(&self, anchor: Date) -> Option<String> {
        let week = |monday: Date| {
            let sunday = monday.add_days(6);
            format!("the calendar week Mon {monday} to Sun {sunday}")
        };
        let monday = anchor.add_days(-i64::from(anchor.weekday()));
        match self.kind {
            RelativeKind::LastWeek => Some(format!("{}, or the days 6 to 13 before", week(monday.add_days(-7)))),
            RelativeKind::NextWeek => Some(format!("{}, or the days 6 to 13 after", week(monday.add_days(7)))),
            RelativeKind::WeeksAgo(n) => Some(format!("{} days before, give or take 3", 7 * n)),
            RelativeKind::MonthsAgo(n) => Some(format!("{} days before, give or take 10", 30 * n)),
            _ => None,
        }
    }

    /// The inclusive range of days the phrase can mean when said on `anchor` (the line's
    /// local day). See the module doc for how generous each kind is.
    pub fn resolve(&self, anchor: Date) -> (Date, Date) {
        let back = |n: i64| anchor.add_days(-n);
        match self.kind {
            RelativeKind::DaysAgo(n) => (back(i64::from(n)), back(i64::from(n))),
            RelativeKind::DaysAgoBetween(lo, hi) => (back(i64::from(hi)), back(i64::from(lo))),
            RelativeKind::Within(n) => (back(i64::from(n)), anchor),
            RelativeKind::WeeksAgo(n) => {
                let days = 7 * i64::from(n);
                (back(days + 3), back(days - 3))
            }
            RelativeKind::MonthsAgo(n) => {
                let days = 30 * i64::from(n);
                (back(days + 10), back(days - 10))
            }
            RelativeKind::YearsAgo(n) => {
                let days = 365 * i64::from(n);
                (back(days + 31), back(days - 31))
            }
            RelativeKind::LastWeek => {
                let monday = back(i64::from(anchor.weekday()));
                let (cal_start, cal_end) = (monday.add_days(-7), monday.add_days(-1));
                (cal_start.min(back(13)), cal_end.max(back(6)))
            }
            RelativeKind::LastWeekend => {
                // Most recent Saturday strictly before the anchor.
                let wd = i64::from(anchor.weekday());
                let sat = back(((wd + 7 - 5 - 1).rem_euclid(7)) + 1);
                let gap = anchor.to_days() - sat.to_days();
                let start = if gap <= 2 { sat.add_days(-7) } else { sat };
                (start, sat.add_days(1))
            }
            RelativeKind::LastMonth => {
                let (y, m) = if anchor.month == 1 { (anchor.year - 1, 12) } else { (anchor.year, anchor.month - 1) };
                let first = Date { year: y, month: m, day: 1 };
                let last = Date { year: y, month: m, day: days_in_month(y, m) };
                (first.min(back(37)), last.max(back(23)))
            }
            RelativeKind::LastYear => {
                (Date { year: anchor.year - 1, month: 1, day: 1 }, Date { year: anchor.year - 1, month: 12, day: 31 })
            }
            RelativeKind::LastWeekday(target) => {
                let wd = i64::from(anchor.weekday());
                let recent = back(((wd - i64::from(target) - 1).rem_euclid(7)) + 1);
                (recent.add_days(-7), recent)
            }
            RelativeKind::ThisWeek => {
                let monday = back(i64::from(anchor.weekday()));
                (monday.min(back(1)), anchor)
            }
            RelativeKind::DaysAhead(n) => (anchor.add_days(i64::from(n)), anchor.add_days(i64::from(n))),
            RelativeKind::NextWeek => {
                let monday = back(i64::from(anchor.weekday()));
                let (cal_start, cal_end) = (monday.add_days(7), monday.add_days(13));
                (cal_start.min(anchor.add_days(6)), cal_end.max(anchor.add_days(13)))
            }
            RelativeKind::NextMonth => {
                let (y, m) = if anchor.month == 12 { (anchor.year + 1, 1) } else { (anchor.year, anchor.month + 1) };
                let first = Date { year: y, month: m, day: 1 };
                let last = Date { year: y, month: m, day: days_in_month(y, m) };
                (first.min(anchor.add_days(23)), last.max(anchor.add_days(37)))
            }
            RelativeKind::Weekday(target) => {
                let wd = i64::from(anchor.weekday());
                let recent = back((wd - i64::from(target)).rem_euclid(7));
                (recent.add_days(-7), recent.add_days(7))
            }
        }
    }

    /// What the phrase means said on `day`, for each day the line may have been said on
    /// (one when the zone is known, three when it is not): (anchor, range).
    pub fn readings(&self, day: LocalDay) -> impl Iterator<Item = (Date, (Date, Date))> + '_ {
        day.candidates().map(move |a| (a, self.resolve(a)))
    }

    /// Every day the phrase can mean said on `day`: [`Relative::resolve`] on the day, widened
    /// by the day's slack when the user's zone is unknown.
    pub fn resolve_around(&self, day: LocalDay) -> (Date, Date) {
        let first = self.resolve(day.day);
        self.readings(day).fold(first, |acc, (_, r)| (acc.0.min(r.0), acc.1.max(r.1)))
    }

    /// True for a rolling window ("in the last 30 days").
    pub fn is_window(&self) -> bool {
        matches!(self.kind, RelativeKind::Within(_))
    }
}

const EN_NUMBER: &str = r"(?P<n>\d{1,3}|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|an?|a\scouple\sof|couple\sof|a\sfew|few|several)";
/// The count of a rolling window ("the last 30 days", "the past two weeks", "the last few days").
const EN_WINDOW: &str = r"(?P<wn>\d{1,3}|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fourteen|thirty|sixty|ninety|a\sfew|few|several|couple\sof|a\scouple\sof)";
const CJK_N: &str = r"(?P<n>[0-9０-９]{1,3}|[一二三四五六七八九十两兩]{1,3})";

static ENGLISH: LazyLock<Option<Regex>> = LazyLock::new(|| {
    Regex::new(&format!(
        r"(?i)\b(?:(?P<fixed>the\sday\sbefore\syesterday|since\syesterday|yesterday|today|tonight|this\smorning|this\safternoon|this\sevening|earlier\stoday|last\snight|last\sweekend|last\sweek|last\smonth|last\syear|the\sother\sday|earlier\sthis\sweek|this\sweek|tomorrow|the\sday\safter\stomorrow|next\sweek|next\smonth)|last\s(?P<wd>monday|tuesday|wednesday|thursday|friday|saturday|sunday)|(?:on|this|next|since|until|by)\s(?P<wd2>monday|tuesday|wednesday|thursday|friday|saturday|sunday)|{EN_NUMBER}\s(?P<u>days?|weeks?|months?|years?)\sago|(?:the\s)?(?:last|past)\s{EN_WINDOW}\s?(?P<wu>days?|weeks?|months?)|the\spast\s(?P<wp>week|fortnight|month))\b"
    ))
    .ok()
});

static CJK: LazyLock<Option<Regex>> = LazyLock::new(|| {
    Regex::new(&format!(
        r"(?P<fixed>明後日|明日|来週|来月|내일|모레|다음\s?주|다음\s?달|明天|后天|後天|下周|下週|下星期|下个月|下個月|一昨日|おととい|昨日から|昨日|昨夜|昨晩|今日|今朝|本日|先週末|先週|先月|今週|去年|昨年|先日|数日前|前天|昨天|昨晚|今天|今早|上周末|上週末|上周|上週|上星期|上礼拜|上禮拜|上个月|上個月|上月|本周|这周|這週|这个星期|几天前|幾天前|前几天|前幾天|그저께|그제|어젯밤|어제|오늘|지난\s?주말|지난\s?주|지난\s?달|이번\s?주|작년|며칠\s?전|하루\s?전|이틀\s?전|사흘\s?전)|(?P<wk>直近|過去|过去|最近|ここ|최근|지난)\s?(?P<wn>[0-9０-９]{{1,3}}|[一二三四五六七八九十两兩]{{1,3}})\s?(?P<wu>日間|日|週間|(?:か|ヶ|カ|ケ|箇)月間?|天|(?:个|個)?(?:星期|礼拜|禮拜)|周|週|(?:个|個)月|일간|일\s?동안|일|주간|주\s?동안|주|개월간|개월\s?동안|개월)|{CJK_N}\s?(?P<u>日前|週間前|(?:か|ヶ|カ|ケ|箇)月前|年前|天前|(?:个|個)?(?:星期|礼拜|禮拜)前|周前|週前|(?:个|個)月前|일\s?전|주\s?전|(?:개월|달)\s?전|년\s?전)"
    ))
    .ok()
});

/// Lowercase strings one of which every relative phrase contains: a pre-filter for the
/// source lines worth passing to [`relative_phrases`] (search case-insensitively).
pub fn relative_needles() -> &'static [&'static str] {
    RELATIVE_NEEDLES
}

/// Finds the [`RELATIVE_NEEDLES`] (ASCII case-insensitively): where phrases can be.
static KEYWORDS: LazyLock<Option<AhoCorasick>> = LazyLock::new(|| {
    AhoCorasickBuilder::new().ascii_case_insensitive(true).match_kind(MatchKind::Standard).build(RELATIVE_NEEDLES).ok()
});

/// Bytes of context searched on each side of a keyword: more than any phrase reaches
/// beyond the keyword it contains ("the day before yesterday", "a couple of weeks ago").
const WINDOW: usize = 64;

/// Texts up to this long are searched whole.
const SHORT_TEXT: usize = 4 * WINDOW;

/// Every relative time phrase in `text`, in order, never overlapping.
///
/// Every phrase contains one of [`RELATIVE_NEEDLES`], so a long text (a tool result of
/// many kilobytes) is searched only in windows around those keywords: the phrase regexes
/// need the slow engine (Unicode word boundaries, captures), and a transcript scan runs
/// them on every line that says "this" or "last". Each window starts and ends at a word
/// boundary, so cutting it out never creates a boundary the text does not have. Same
/// result as searching the whole text (property-tested).
pub fn relative_phrases(text: &str) -> Vec<Relative> {
    let mut out = Vec::new();
    match &*KEYWORDS {
        Some(keywords) if text.len() > SHORT_TEXT => {
            let mut windows: Vec<(usize, usize)> = Vec::new();
            for m in keywords.find_iter(text) {
                let (start, end) =
                    (word_start(text, m.start().saturating_sub(WINDOW)), word_end(text, m.end() + WINDOW));
                match windows.last_mut() {
                    Some(last) if start <= last.1 => last.1 = last.1.max(end),
                    _ => windows.push((start, end)),
                }
            }
            for (start, end) in windows {
                if let Some(window) = text.get(start..end) {
                    phrases_in(window, start, &mut out);
                }
            }
        }
        _ => phrases_in(text, 0, &mut out),
    }
    non_overlapping(out)
}

/// `found` in text order, a phrase inside or overlapping an earlier (or longer) one dropped.
fn non_overlapping(mut found: Vec<Relative>) -> Vec<Relative> {
    found.sort_by_key(|r| (r.start, std::cmp::Reverse(r.end)));
    let mut kept: Vec<Relative> = Vec::new();
    for r in found {
        if kept.last().is_none_or(|k| r.start >= k.end) {
            kept.push(r);
        }
    }
    kept
}

/// Every phrase either regex finds in `text` (which starts at byte `offset` of the whole),
/// overlaps included.
fn phrases_in(text: &str, offset: usize, out: &mut Vec<Relative>) {
    for (re, build) in [
        (&*ENGLISH, english as fn(&Captures) -> Option<RelativeKind>),
        (&*CJK, cjk as fn(&Captures) -> Option<RelativeKind>),
    ] {
        let Some(re) = re else { continue };
        for caps in re.captures_iter(text) {
            let (Some(m), Some(kind)) = (caps.get(0), build(&caps)) else {
                continue;
            };
            let (start, end) = (offset + m.start(), offset + m.end());
            out.push(Relative { phrase: m.as_str().to_string(), start, end, kind });
        }
    }
}

/// A window start at or before `at`: the start of the word `at` is in (looking back at
/// most [`WINDOW`] more bytes: inside a longer run of word characters, such as base64, no
/// phrase can start anyway), always a char boundary.
fn word_start(text: &str, mut at: usize) -> usize {
    while at > 0 && !text.is_char_boundary(at) {
        at -= 1;
    }
    let before = text.get(..at).unwrap_or("");
    let mut moved = 0;
    for (i, c) in before.char_indices().rev() {
        if !is_word(c) || moved > WINDOW {
            return i + c.len_utf8();
        }
        moved += c.len_utf8();
    }
    0
}

/// A window end at or after `at`: the end of the word `at` is in (at most [`WINDOW`]
/// more bytes), always a char boundary.
fn word_end(text: &str, mut at: usize) -> usize {
    if at >= text.len() {
        return text.len();
    }
    while !text.is_char_boundary(at) {
        at += 1;
    }
    let after = text.get(at..).unwrap_or("");
    let mut moved = 0;
    for (i, c) in after.char_indices() {
        if !is_word(c) || moved > WINDOW {
            return at + i;
        }
        moved += c.len_utf8();
    }
    text.len()
}

/// A character that may be part of a word for `\b` (being generous only widens windows).
fn is_word(c: char) -> bool {
    c.is_alphanumeric() || c == '_' || !c.is_ascii() && !c.is_whitespace()
}

/// Days a rolling window of `n` `unit`s spans (a month as 31 days: generous).
fn window_days(n: u32, unit: &str) -> RelativeKind {
    let per = if unit.starts_with("week")
        || unit.starts_with('週')
        || unit.starts_with('周')
        || unit.starts_with('주')
        || unit.contains("星期")
        || unit.contains("礼拜")
        || unit.contains("禮拜")
    {
        7
    } else if unit.starts_with("month") || unit.contains('月') || unit.starts_with("개월") {
        31
    } else {
        1
    };
    RelativeKind::Within(n.saturating_mul(per))
}

/// "two" to "twelve" as a number.
fn small_number(word: &str) -> Option<u32> {
    let words = ["two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve"];
    words.iter().position(|w| *w == word).map(|i| i as u32 + 2)
}

/// The count of an English window ("30", "two", "a few").
fn english_count(n: &str) -> Option<u32> {
    let n: String = n.to_ascii_lowercase().split_whitespace().collect::<Vec<_>>().join(" ");
    Some(match n.as_str() {
        "a few" | "few" => 6,
        "several" => 9,
        "a couple of" | "couple of" => 3,
        "fourteen" => 14,
        "thirty" => 30,
        "sixty" => 60,
        "ninety" => 90,
        _ => small_number(&n).or_else(|| n.parse().ok())?,
    })
}

fn english(caps: &Captures) -> Option<RelativeKind> {
    if let Some(unit) = caps.name("wu") {
        let n = english_count(caps.name("wn")?.as_str())?;
        return Some(window_days(n, &unit.as_str().to_ascii_lowercase()));
    }
    if let Some(p) = caps.name("wp") {
        return Some(RelativeKind::Within(match p.as_str().to_ascii_lowercase().as_str() {
            "week" => 7,
            "fortnight" => 14,
            _ => 31,
        }));
    }
    if let Some(f) = caps.name("fixed") {
        let s = f.as_str().to_ascii_lowercase();
        let s: String = s.split_whitespace().collect::<Vec<_>>().join(" ");
        return Some(match s.as_str() {
            "the day before yesterday" => RelativeKind::DaysAgo(2),
            "since yesterday" | "yesterday" | "last night" => RelativeKind::DaysAgo(1),
            "today" | "tonight" | "this morning" | "this afternoon" | "this evening" | "earlier today" => {
                RelativeKind::DaysAgo(0)
            }
            "last weekend" => RelativeKind::LastWeekend,
            "last week" => RelativeKind::LastWeek,
            "last month" => RelativeKind::LastMonth,
            "last year" => RelativeKind::LastYear,
            "the other day" => RelativeKind::DaysAgoBetween(1, 10),
            "earlier this week" | "this week" => RelativeKind::ThisWeek,
            "tomorrow" => RelativeKind::DaysAhead(1),
            "the day after tomorrow" => RelativeKind::DaysAhead(2),
            "next week" => RelativeKind::NextWeek,
            "next month" => RelativeKind::NextMonth,
            _ => return None,
        });
    }
    if let Some(wd) = caps.name("wd") {
        let names = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"];
        let key = wd.as_str().to_ascii_lowercase();
        let idx = names.iter().position(|n| key.starts_with(n))?;
        return Some(RelativeKind::LastWeekday(idx as u32));
    }
    if let Some(wd) = caps.name("wd2") {
        let names = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"];
        let key = wd.as_str().to_ascii_lowercase();
        let idx = names.iter().position(|n| key.starts_with(n))?;
        return Some(RelativeKind::Weekday(idx as u32));
    }
    let n = caps.name("n")?.as_str().to_ascii_lowercase();
    let n: String = n.split_whitespace().collect::<Vec<_>>().join(" ");
    let unit = caps.name("u")?.as_str().to_ascii_lowercase();
    let vague = match n.as_str() {
        "a few" | "few" => Some((2, 6)),
        "several" => Some((3, 9)),
        "a couple of" | "couple of" => Some((2, 3)),
        _ => None,
    };
    let count = match (n.as_str(), small_number(&n), vague) {
        ("a" | "an" | "one", ..) => 1,
        (_, Some(k), _) => k,
        (_, None, Some((lo, _))) => lo,
        (_, None, None) => n.parse().ok()?,
    };
    Some(if unit.starts_with("day") {
        match vague {
            Some((lo, hi)) => RelativeKind::DaysAgoBetween(lo, hi),
            None => RelativeKind::DaysAgo(count),
        }
    } else if unit.starts_with("week") {
        RelativeKind::WeeksAgo(count)
    } else if unit.starts_with("month") {
        RelativeKind::MonthsAgo(count)
    } else {
        RelativeKind::YearsAgo(count)
    })
}

fn cjk(caps: &Captures) -> Option<RelativeKind> {
    if let Some(key) = caps.name("wk") {
        let n = parse_cjk_number(caps.name("wn")?.as_str())?;
        let unit: String = caps.name("wu")?.as_str().chars().filter(|c| !c.is_whitespace()).collect();
        // 지난 30일 is as often "on the 30th" as "the last 30 days": a window only with 간 / 동안.
        if key.as_str() == "지난" && unit.starts_with('일') && !(unit.contains('간') || unit.contains("동안")) {
            return None;
        }
        return Some(window_days(n, &unit));
    }
    if let Some(f) = caps.name("fixed") {
        let s: String = f.as_str().chars().filter(|c| !c.is_whitespace()).collect();
        return Some(match s.as_str() {
            "一昨日" | "おととい" | "前天" | "그저께" | "그제" | "이틀전" => RelativeKind::DaysAgo(2),
            "昨日から" | "昨日" | "昨夜" | "昨晩" | "昨天" | "昨晚" | "어젯밤" | "어제" | "하루전" => {
                RelativeKind::DaysAgo(1)
            }
            "今日" | "今朝" | "本日" | "今天" | "今早" | "오늘" => RelativeKind::DaysAgo(0),
            "사흘전" => RelativeKind::DaysAgo(3),
            "明日" | "내일" | "明天" => RelativeKind::DaysAhead(1),
            "明後日" | "모레" | "后天" | "後天" => RelativeKind::DaysAhead(2),
            "来週" | "다음주" | "下周" | "下週" | "下星期" => RelativeKind::NextWeek,
            "来月" | "다음달" | "下个月" | "下個月" => RelativeKind::NextMonth,
            "先週末" | "上周末" | "上週末" | "지난주말" => RelativeKind::LastWeekend,
            "先週" | "上周" | "上週" | "上星期" | "上礼拜" | "上禮拜" | "지난주" => {
                RelativeKind::LastWeek
            }
            "先月" | "上个月" | "上個月" | "上月" | "지난달" => RelativeKind::LastMonth,
            "去年" | "昨年" | "작년" => RelativeKind::LastYear,
            "今週" | "本周" | "这周" | "這週" | "这个星期" | "이번주" => RelativeKind::ThisWeek,
            "先日" => RelativeKind::DaysAgoBetween(1, 10),
            "数日前" | "几天前" | "幾天前" | "前几天" | "前幾天" | "며칠전" => {
                RelativeKind::DaysAgoBetween(2, 6)
            }
            _ => return None,
        });
    }
    let n = parse_cjk_number(caps.name("n")?.as_str())?;
    let unit: String = caps.name("u")?.as_str().chars().filter(|c| !c.is_whitespace()).collect();
    Some(match unit.as_str() {
        "日前" | "天前" | "일전" => RelativeKind::DaysAgo(n),
        "年前" | "년전" => RelativeKind::YearsAgo(n),
        u if u.ends_with("月前") || u.ends_with("개월전") || u.ends_with("달전") => RelativeKind::MonthsAgo(n),
        _ => RelativeKind::WeeksAgo(n),
    })
}

#[cfg(test)]
mod tests;
