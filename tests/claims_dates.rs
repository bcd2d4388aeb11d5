//! Every written form of a date, as extract sees it (only the date claims of a line).

use dreamreview::analysis::claims::{ClaimKind, ClaimValue, DateSpec, MonthPart, extract};
use dreamreview::base::date::Date;

fn d(y: i32, m: u32, day: u32) -> Date {
    Date::new(y, m, day).unwrap()
}

/// The date claims of `text`: (text as written, value).
fn found_dates(text: &str) -> Vec<(String, DateSpec)> {
    extract(text)
        .into_iter()
        .filter(|c| c.kind == ClaimKind::Date)
        .filter_map(|c| match c.value {
            ClaimValue::Date(spec) => Some((c.text, spec)),
            _ => None,
        })
        .collect()
}

fn one(text: &str) -> (String, DateSpec) {
    let found = found_dates(text);
    assert_eq!(found.len(), 1, "{text:?} → {found:?}");
    found[0].clone()
}

#[test]
fn english_forms() {
    let day = DateSpec::Day(d(2026, 11, 1));
    for s in [
        "2026-11-01",
        "2026/11/01",
        "2026.11.01",
        "Nov 1 2026",
        "Nov 1, 2026",
        "Nov. 1, 2026",
        "November 1st, 2026",
        "Sunday, November 1, 2026",
        "1 November 2026",
        "1st of Nov 2026",
        "11/1/2026",
        "11/01/2026",
        "2026年11月1日",
        "2026년 11월 1일",
        "２０２６年１１月１日",
    ] {
        assert_eq!(one(s), (s.to_string(), day), "{s}");
    }
    assert_eq!(one("on 2026-11-01T09:14:03Z").1, day);
}

#[test]
fn partial_forms() {
    let late_oct = DateSpec::PartOfMonth { year: Some(2026), month: 10, part: MonthPart::Late };
    assert_eq!(one("in late Oct 2026;"), ("late Oct 2026".into(), late_oct));
    assert_eq!(one("end of October 2026"), ("end of October 2026".into(), late_oct));
    assert_eq!(one("2026年10月下旬"), ("2026年10月下旬".into(), late_oct));
    assert_eq!(one("2026년 10월 말에"), ("2026년 10월 말".into(), late_oct));
    assert_eq!(
        one("mid-November"),
        ("mid-November".into(), DateSpec::PartOfMonth { year: None, month: 11, part: MonthPart::Mid })
    );
    assert_eq!(one("November 2026").1, DateSpec::Month { year: Some(2026), month: 11 });
    assert_eq!(one("2026-11").1, DateSpec::Month { year: Some(2026), month: 11 });
    assert_eq!(one("Q4 2026").1, DateSpec::Quarter { year: 2026, quarter: 4 });
    assert_eq!(one("2026-Q4").1, DateSpec::Quarter { year: 2026, quarter: 4 });
    assert_eq!(one("2026年第4四半期").1, DateSpec::Quarter { year: 2026, quarter: 4 });
    assert_eq!(one("moved in 2026."), ("2026".into(), DateSpec::Year(2026)));
    assert_eq!(one("early 2026"), ("early 2026".into(), DateSpec::Year(2026)));
    assert_eq!(one("11/1"), ("11/1".into(), DateSpec::MonthDay { month: 11, day: 1 }));
    assert_eq!(one("11月1日"), ("11月1日".into(), DateSpec::MonthDay { month: 11, day: 1 }));
    assert_eq!(one("11월 1일"), ("11월 1일".into(), DateSpec::MonthDay { month: 11, day: 1 }));
    assert_eq!(one("since October"), ("October".into(), DateSpec::Month { year: None, month: 10 }));
    // Korean 말 inside a word is not "end of".
    assert_eq!(one("10월 말했다").1, DateSpec::Month { year: None, month: 10 });
}

#[test]
fn non_dates() {
    for s in [
        "214 tests",
        "v2026.8.1",
        "3.11",
        "24/7",
        "2026",
        "you may 5",
        "the 2026 tests",
        "12026-11-01",
        "2026-13-01",
        "Feb 30 2026",
        "11/1/26",
        "src/11/1",
        "1.11/2",
        "a 3か月",
        "3개월",
    ] {
        assert_eq!(found_dates(s), vec![], "{s}");
    }
}
