//! Tests of `relative`.

use super::*;

fn d(y: i32, m: u32, day: u32) -> Date {
    Date::new(y, m, day).unwrap()
}

fn kinds(text: &str) -> Vec<(String, RelativeKind)> {
    relative_phrases(text).into_iter().map(|r| (r.phrase, r.kind)).collect()
}

/// The phrases of `text` searched whole, without keyword windows.
fn whole(text: &str) -> Vec<(String, usize, usize, RelativeKind)> {
    let mut out = Vec::new();
    phrases_in(text, 0, &mut out);
    non_overlapping(out).into_iter().map(|r| (r.phrase, r.start, r.end, r.kind)).collect()
}

fn windowed(text: &str) -> Vec<(String, usize, usize, RelativeKind)> {
    relative_phrases(text).into_iter().map(|r| (r.phrase, r.start, r.end, r.kind)).collect()
}

#[test]
fn windows_find_what_the_whole_text_holds() {
    let filler = "x".repeat(300);
    let text = format!("{filler} moved last week {filler} the day before yesterday {filler} 先週末 3日前{filler}");
    assert!(text.len() > SHORT_TEXT);
    assert_eq!(windowed(&text), whole(&text));
    assert_eq!(windowed(&text).len(), 4);
    // A keyword glued inside a long word is no phrase, windowed or not.
    let glued = format!("{filler}lastweek{filler} xyesterday {}", "y".repeat(200));
    assert_eq!(windowed(&glued), whole(&glued));
    assert!(windowed(&glued).is_empty());
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig { cases: 300, rng_seed: proptest::test_runner::RngSeed::Fixed(1), ..proptest::prelude::ProptestConfig::default() })]
    #[test]
    fn windowed_search_equals_whole_search(parts in proptest::collection::vec(proptest::sample::select(vec![
        "last week", "3 days ago", "a couple of weeks ago", "the day before yesterday", "yesterday", "this",
        "this morning", "on Monday", "next month", "the other day", "ago", "x", "word", " ", "\n", "-", "_",
        "昨日", "先週末", "3日前", "지난 주", "이틀 전", "上周", "两天前", "é", "🙂",
        "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
        "                                                                               ",
    ]), 0..120)) {
        let text: String = parts.concat();
        proptest::prop_assert_eq!(windowed(&text), whole(&text));
    }
}

#[test]
fn regexes_compile() {
    assert!(ENGLISH.is_some() && CJK.is_some());
}

#[test]
fn finds_phrases() {
    assert_eq!(
        kinds("we moved this repo from npm to pnpm last week, and since yesterday 3 days ago"),
        vec![
            ("last week".into(), RelativeKind::LastWeek),
            ("since yesterday".into(), RelativeKind::DaysAgo(1)),
            ("3 days ago".into(), RelativeKind::DaysAgo(3)),
        ]
    );
    assert_eq!(kinds("a few days ago"), vec![("a few days ago".into(), RelativeKind::DaysAgoBetween(2, 6))]);
    assert_eq!(kinds("Last Friday"), vec![("Last Friday".into(), RelativeKind::LastWeekday(4))]);
    assert_eq!(
        kinds("一昨日と昨日から"),
        vec![("一昨日".into(), RelativeKind::DaysAgo(2)), ("昨日から".into(), RelativeKind::DaysAgo(1)),]
    );
    assert_eq!(kinds("三日前"), vec![("三日前".into(), RelativeKind::DaysAgo(3))]);
    assert_eq!(kinds("3 일 전에"), vec![("3 일 전".into(), RelativeKind::DaysAgo(3))]);
    assert_eq!(kinds("两周前"), vec![("两周前".into(), RelativeKind::WeeksAgo(2))]);
    assert_eq!(kinds("지난 주에"), vec![("지난 주".into(), RelativeKind::LastWeek)]);
    assert_eq!(kinds("3か月前"), vec![("3か月前".into(), RelativeKind::MonthsAgo(3))]);
    assert_eq!(kinds("todays yesterdays"), vec![]);
}

/// (phrase, what it denotes said on `day`) for every phrase of `text`.
fn denoted(text: &str, day: LocalDay) -> Vec<(String, (Date, Date))> {
    relative_phrases(text).into_iter().map(|r| (r.phrase.clone(), r.resolve_around(day))).collect()
}

#[test]
fn day_phrases_mean_one_day_in_every_language_when_the_zone_is_known() {
    let day = LocalDay::exact(d(2026, 3, 10));
    let one = |y, m, dd| (d(y, m, dd), d(y, m, dd));
    for (text, phrase, want) in [
        ("deployed to staging yesterday", "yesterday", one(2026, 3, 9)),
        ("昨日ステージングにデプロイした", "昨日", one(2026, 3, 9)),
        ("어제 스테이징에 배포했다", "어제", one(2026, 3, 9)),
        ("昨天部署到了预发环境", "昨天", one(2026, 3, 9)),
        ("the day before yesterday", "the day before yesterday", one(2026, 3, 8)),
        ("一昨日に直した", "一昨日", one(2026, 3, 8)),
        ("그저께 고쳤다", "그저께", one(2026, 3, 8)),
        ("前天修好了", "前天", one(2026, 3, 8)),
        ("fixed 3 days ago", "3 days ago", one(2026, 3, 7)),
        ("3日前に直した", "3日前", one(2026, 3, 7)),
        ("3일 전에 고쳤다", "3일 전", one(2026, 3, 7)),
        ("三天前修好了", "三天前", one(2026, 3, 7)),
        // 2026-03-10 is a Tuesday: last Friday is 2026-03-06 (or the one before).
        ("since last Friday", "last Friday", (d(2026, 2, 27), d(2026, 3, 6))),
    ] {
        assert_eq!(denoted(text, day), vec![(phrase.to_string(), want)], "{text}");
    }
}

#[test]
fn an_unknown_zone_widens_the_anchor_by_a_day() {
    let day = LocalDay { day: d(2026, 3, 10), slack: 1 };
    assert_eq!(denoted("昨日", day), vec![("昨日".to_string(), (d(2026, 3, 8), d(2026, 3, 10)))]);
    let r = &relative_phrases("yesterday")[0];
    let readings: Vec<(Date, Date)> = r.readings(day).map(|(_, x)| x).collect();
    assert_eq!(
        readings,
        vec![(d(2026, 3, 9), d(2026, 3, 9)), (d(2026, 3, 8), d(2026, 3, 8)), (d(2026, 3, 10), d(2026, 3, 10))]
    );
}

#[test]
fn rolling_windows_end_on_the_day_they_were_said() {
    let day = LocalDay::exact(d(2026, 3, 10));
    for (text, phrase, from) in [
        ("9,120 downloads in the last 30 days", "the last 30 days", d(2026, 2, 8)),
        ("over the past two weeks", "the past two weeks", d(2026, 2, 24)),
        ("over the past week", "the past week", d(2026, 3, 3)),
        ("the last few days were calm", "the last few days", d(2026, 3, 4)),
        ("直近30日のダウンロード数", "直近30日", d(2026, 2, 8)),
        ("過去2週間で", "過去2週間", d(2026, 2, 24)),
        ("최근 30일 다운로드", "최근 30일", d(2026, 2, 8)),
        ("지난 30일간 다운로드", "지난 30일간", d(2026, 2, 8)),
        ("过去30天的下载量", "过去30天", d(2026, 2, 8)),
        ("最近两周", "最近两周", d(2026, 2, 24)),
    ] {
        let found = relative_phrases(text);
        assert_eq!(found.len(), 1, "{text}: {found:?}");
        assert!(found[0].is_window(), "{text}");
        assert_eq!(
            (found[0].phrase.as_str(), found[0].resolve_around(day)),
            (phrase, (from, d(2026, 3, 10))),
            "{text}"
        );
    }
    // 지난 30일 alone is as often "on the 30th": no window.
    assert!(relative_phrases("지난 30일 발표했다").iter().all(|r| !r.is_window()));
    // "last week" stays the previous week; "3 days ago" no window.
    assert!(relative_phrases("last week, 3 days ago").iter().all(|r| !r.is_window()));
}

#[test]
fn resolves() {
    let sunday = d(2026, 11, 1);
    let r = |kind| Relative { phrase: String::new(), start: 0, end: 0, kind }.resolve(sunday);
    assert_eq!(r(RelativeKind::LastWeek), (d(2026, 10, 19), d(2026, 10, 26)));
    assert_eq!(r(RelativeKind::DaysAgo(1)), (d(2026, 10, 31), d(2026, 10, 31)));
    assert_eq!(r(RelativeKind::DaysAgo(2)), (d(2026, 10, 30), d(2026, 10, 30)));
    assert_eq!(r(RelativeKind::DaysAhead(1)), (d(2026, 11, 2), d(2026, 11, 2)));
    assert_eq!(r(RelativeKind::Within(30)), (d(2026, 10, 2), d(2026, 11, 1)));
    assert_eq!(r(RelativeKind::LastMonth), (d(2026, 9, 25), d(2026, 10, 31)));
    assert_eq!(r(RelativeKind::LastWeekday(4)), (d(2026, 10, 23), d(2026, 10, 30)));
    assert_eq!(r(RelativeKind::LastWeekend), (d(2026, 10, 24), d(2026, 11, 1)));
    assert_eq!(r(RelativeKind::ThisWeek), (d(2026, 10, 26), d(2026, 11, 1)));
    assert_eq!(r(RelativeKind::LastYear), (d(2025, 1, 1), d(2025, 12, 31)));
    let wed = d(2026, 11, 4);
    let rw = |kind| Relative { phrase: String::new(), start: 0, end: 0, kind }.resolve(wed);
    assert_eq!(rw(RelativeKind::LastWeek), (d(2026, 10, 22), d(2026, 11, 1)));
    assert_eq!(rw(RelativeKind::LastWeekend), (d(2026, 10, 31), d(2026, 11, 1)));
    assert_eq!(rw(RelativeKind::LastWeekday(2)), (d(2026, 10, 21), d(2026, 10, 28)));
}
