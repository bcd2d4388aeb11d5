//! Relative time phrases in source lines and the days they can mean.

use dreamreview::analysis::claims::{Relative, RelativeKind, relative_needles, relative_phrases};
use dreamreview::base::date::Date;

fn d(y: i32, m: u32, day: u32) -> Date {
    Date::new(y, m, day).unwrap()
}

/// (phrase, resolved range) of every phrase in `text`, anchored at `anchor` (the line's
/// local day, known exactly: a day phrase means one day).
fn resolved(text: &str, anchor: Date) -> Vec<(String, (Date, Date))> {
    relative_phrases(text).into_iter().map(|r| (r.phrase.clone(), r.resolve(anchor))).collect()
}

fn one(text: &str, anchor: Date) -> (Date, Date) {
    let all = resolved(text, anchor);
    assert_eq!(all.len(), 1, "{text}: {all:?}");
    all[0].1
}

const SUNDAY: (i32, u32, u32) = (2026, 11, 1);

fn sunday() -> Date {
    d(SUNDAY.0, SUNDAY.1, SUNDAY.2)
}

#[test]
fn english() {
    let a = sunday();
    assert_eq!(one("we moved last week", a), (d(2026, 10, 19), d(2026, 10, 26)));
    assert_eq!(one("Yesterday it broke", a), (d(2026, 10, 31), d(2026, 10, 31)));
    assert_eq!(one("since yesterday", a), (d(2026, 10, 31), d(2026, 10, 31)));
    assert_eq!(one("today", a), (d(2026, 11, 1), d(2026, 11, 1)));
    assert_eq!(one("last night", a), (d(2026, 10, 31), d(2026, 10, 31)));
    assert_eq!(one("last month", a), (d(2026, 9, 25), d(2026, 10, 31)));
    assert_eq!(one("last Friday", a), (d(2026, 10, 23), d(2026, 10, 30)));
    assert_eq!(one("3 days ago", a), (d(2026, 10, 29), d(2026, 10, 29)));
    assert_eq!(one("three days ago", a), (d(2026, 10, 29), d(2026, 10, 29)));
    assert_eq!(one("twelve days ago", a), (d(2026, 10, 20), d(2026, 10, 20)));
    assert_eq!(one("2 weeks ago", a), (d(2026, 10, 15), d(2026, 10, 21)));
    assert_eq!(one("a few days ago", a), (d(2026, 10, 26), d(2026, 10, 30)));
    assert_eq!(one("the other day", a), (d(2026, 10, 22), d(2026, 10, 31)));
    assert_eq!(one("earlier this week", a), (d(2026, 10, 26), d(2026, 11, 1)));
    assert_eq!(one("the day before yesterday", a), (d(2026, 10, 30), d(2026, 10, 30)));
}

#[test]
fn japanese_korean_chinese() {
    let a = sunday();
    let last_week = (d(2026, 10, 19), d(2026, 10, 26));
    let yesterday = (d(2026, 10, 31), d(2026, 10, 31));
    for p in ["先週", "지난주", "지난 주", "上周", "上週", "上星期"] {
        assert_eq!(one(&format!("{p}に"), a), last_week, "{p}");
    }
    for p in ["昨日", "昨日から", "어제", "昨天"] {
        assert_eq!(one(p, a), yesterday, "{p}");
    }
    for p in ["先月", "지난달", "上个月"] {
        assert_eq!(one(p, a), (d(2026, 9, 25), d(2026, 10, 31)), "{p}");
    }
    for p in ["一昨日", "前天", "그저께"] {
        assert_eq!(one(p, a), (d(2026, 10, 30), d(2026, 10, 30)), "{p}");
    }
    for p in ["3日前", "三日前", "３日前", "3일 전", "3天前", "三天前"] {
        assert_eq!(one(p, a), (d(2026, 10, 29), d(2026, 10, 29)), "{p}");
    }
    assert_eq!(one("今朝", a), (d(2026, 11, 1), d(2026, 11, 1)));
    assert_eq!(one("2週間前", a), (d(2026, 10, 15), d(2026, 10, 21)));
}

/// Only when the user's time zone is unknown is the anchor ±1 day, and a day phrase three
/// days wide (what every day phrase was before issue 14).
#[test]
fn an_unknown_zone_keeps_a_day_of_slack() {
    let around = |text: &str, slack: i64| {
        let r = &relative_phrases(text)[0];
        r.resolve_around(dreamreview::base::zone::LocalDay { day: sunday(), slack })
    };
    assert_eq!(around("yesterday", 1), (d(2026, 10, 30), d(2026, 11, 1)));
    assert_eq!(around("3日前", 1), (d(2026, 10, 28), d(2026, 10, 30)));
    assert_eq!(around("어제", 0), (d(2026, 10, 31), d(2026, 10, 31)));
    assert_eq!(around("过去30天", 0), (d(2026, 10, 2), d(2026, 11, 1)));
}

#[test]
fn positions_and_kinds() {
    let text = "Heads up: we moved this repo from npm to pnpm last week, and Redis is gone";
    let found = relative_phrases(text);
    assert_eq!(found, vec![Relative { phrase: "last week".into(), start: 46, end: 55, kind: RelativeKind::LastWeek }]);
    assert_eq!(&text[found[0].start..found[0].end], "last week");
    assert_eq!(relative_phrases("nothing relative here: 2026-11-01, weekly, todays"), vec![]);
}

#[test]
fn week_boundaries_from_every_weekday() {
    // Whatever the anchor's weekday, "last week" covers the previous calendar week and
    // every day 6–13 days back.
    for offset in 0..7 {
        let anchor = d(2026, 11, 2).add_days(offset);
        let (lo, hi) = one("last week", anchor);
        for back in 6..=13 {
            let day = anchor.add_days(-back);
            assert!(lo <= day && day <= hi, "{anchor}: {day} not in {lo}..{hi}");
        }
        let monday = anchor.add_days(-i64::from(anchor.weekday()));
        assert!(lo <= monday.add_days(-7) && monday.add_days(-1) <= hi);
    }
}

#[test]
fn future_and_named_weekdays() {
    let a = sunday();
    assert_eq!(one("tomorrow", a), (d(2026, 11, 2), d(2026, 11, 2)));
    assert_eq!(one("明日", a), (d(2026, 11, 2), d(2026, 11, 2)));
    assert_eq!(one("next week", a), (d(2026, 11, 2), d(2026, 11, 14)));
    assert_eq!(one("다음 달", a), (d(2026, 11, 24), d(2026, 12, 31)));
    // Sunday 2026-11-01: the nearest Friday before is Oct 30.
    assert_eq!(one("we deployed on Friday", a), (d(2026, 10, 23), d(2026, 11, 6)));
    let found = relative_phrases("on Friday");
    assert_eq!(found[0].kind, RelativeKind::Weekday(4));
}

#[test]
fn needles_prefilter_every_phrase() {
    let text = "yesterday, Last Friday, two weeks ago, the other day, 先週, 昨日から, 3일 전, 지난달, 上个月, 三天前, 明日, next week";
    let found = relative_phrases(text);
    assert_eq!(found.len(), 12);
    for r in found {
        let lower = r.phrase.to_lowercase();
        assert!(relative_needles().iter().any(|n| lower.contains(n)), "{}", r.phrase);
    }
}
