//! Claim extraction from note lines: exact claims for the reference scenario and every form.

use dreamreview::analysis::claims::{Claim, ClaimKind, ClaimValue, DateSpec, MonthPart, extract};
use dreamreview::base::date::Date;

fn kinds(line: &str) -> Vec<(ClaimKind, String)> {
    extract(line).into_iter().map(|c| (c.kind, c.text)).collect()
}

fn k(kind: ClaimKind, text: &str) -> (ClaimKind, String) {
    (kind, text.to_string())
}

fn day(y: i32, m: u32, d: u32) -> DateSpec {
    DateSpec::Day(Date::new(y, m, d).unwrap())
}

#[test]
fn pnpm_first_line() {
    let line =
        "Run tests with `pnpm test` (project moved from npm to pnpm in late Oct 2026; `npm test` is outdated).\n";
    let claims = extract(line);
    assert_eq!(
        claims,
        vec![
            Claim {
                kind: ClaimKind::Code,
                text: "pnpm test".into(),
                start: 16,
                end: 25,
                value: ClaimValue::Text("pnpm test".into()),
                subject: None,
            },
            Claim {
                kind: ClaimKind::Date,
                text: "late Oct 2026".into(),
                start: 62,
                end: 75,
                value: ClaimValue::Date(DateSpec::PartOfMonth { year: Some(2026), month: 10, part: MonthPart::Late }),
                subject: None,
            },
            Claim {
                kind: ClaimKind::Code,
                text: "npm test".into(),
                start: 78,
                end: 86,
                value: ClaimValue::Text("npm test".into()),
                subject: None,
            },
        ]
    );
}

#[test]
fn pnpm_second_line() {
    let line = "No Redis needed: tests use an in-memory fake. Verified 2026-11-01: 214 tests passed.\n";
    let claims = extract(line);
    assert_eq!(
        kinds(line),
        vec![k(ClaimKind::Name, "Redis"), k(ClaimKind::Date, "2026-11-01"), k(ClaimKind::Number, "214 tests")]
    );
    assert_eq!(claims[0].value, ClaimValue::Text("redis".into()));
    assert_eq!(claims[1].value, ClaimValue::Date(day(2026, 11, 1)));
    assert_eq!(claims[2].value, ClaimValue::Number { value: "214".into(), unit: Some("tests".into()) });
}

#[test]
fn live_line() {
    assert_eq!(
        kinds("Run tests with `npm test`; the suite needs a local Redis on port 6379."),
        vec![k(ClaimKind::Code, "npm test"), k(ClaimKind::Name, "Redis"), k(ClaimKind::Number, "port 6379")]
    );
}

#[test]
fn date_forms() {
    let cases: &[(&str, &str, DateSpec)] = &[
        ("on 2026-11-01.", "2026-11-01", day(2026, 11, 1)),
        ("on 2026/11/01.", "2026/11/01", day(2026, 11, 1)),
        ("on Nov 1 2026.", "Nov 1 2026", day(2026, 11, 1)),
        ("on Nov 1, 2026.", "Nov 1, 2026", day(2026, 11, 1)),
        ("on 1 November 2026.", "1 November 2026", day(2026, 11, 1)),
        ("in November 2026.", "November 2026", DateSpec::Month { year: Some(2026), month: 11 }),
        ("on 11/1.", "11/1", DateSpec::MonthDay { month: 11, day: 1 }),
        ("2026年11月1日に移行", "2026年11月1日", day(2026, 11, 1)),
        ("11月1日に移行", "11月1日", DateSpec::MonthDay { month: 11, day: 1 }),
        ("2026년 11월 1일에 이전", "2026년 11월 1일", day(2026, 11, 1)),
        (
            "moved in late Oct 2026",
            "late Oct 2026",
            DateSpec::PartOfMonth { year: Some(2026), month: 10, part: MonthPart::Late },
        ),
        (
            "early November 2026",
            "early November 2026",
            DateSpec::PartOfMonth { year: Some(2026), month: 11, part: MonthPart::Early },
        ),
        (
            "mid November 2026",
            "mid November 2026",
            DateSpec::PartOfMonth { year: Some(2026), month: 11, part: MonthPart::Mid },
        ),
        (
            "by the end of November 2026",
            "end of November 2026",
            DateSpec::PartOfMonth { year: Some(2026), month: 11, part: MonthPart::Late },
        ),
        ("ships in Q4 2026", "Q4 2026", DateSpec::Quarter { year: 2026, quarter: 4 }),
        ("started in 2026", "2026", DateSpec::Year(2026)),
    ];
    for (line, text, spec) in cases {
        let claims = extract(line);
        let dates: Vec<&Claim> = claims.iter().filter(|c| c.kind == ClaimKind::Date).collect();
        assert_eq!(dates.len(), 1, "{line}: {claims:?}");
        assert_eq!(dates[0].text, *text, "{line}");
        assert_eq!(dates[0].value, ClaimValue::Date(*spec), "{line}");
    }
    // A bare year without context, and relative phrases, are no claims.
    assert_eq!(kinds("the 2026 roadmap"), vec![]);
    assert_eq!(kinds("we moved last week, 3 days ago, since yesterday"), vec![]);
    assert_eq!(kinds("先週 pnpm に移行した"), vec![k(ClaimKind::Name, "pnpm")]);
    assert_eq!(kinds("3日前に移行"), vec![]);
}

#[test]
fn dates_convert_to_ranges() {
    let spec = DateSpec::PartOfMonth { year: Some(2026), month: 10, part: MonthPart::Late };
    assert_eq!(spec.range(), Some((Date::new(2026, 10, 21).unwrap(), Date::new(2026, 10, 31).unwrap())));
    let early = DateSpec::PartOfMonth { year: Some(2026), month: 2, part: MonthPart::Early };
    assert_eq!(early.range(), Some((Date::new(2026, 2, 1).unwrap(), Date::new(2026, 2, 10).unwrap())));
    let mid = DateSpec::PartOfMonth { year: Some(2026), month: 2, part: MonthPart::Mid };
    assert_eq!(mid.range(), Some((Date::new(2026, 2, 11).unwrap(), Date::new(2026, 2, 20).unwrap())));
    assert_eq!(DateSpec::MonthDay { month: 11, day: 1 }.range(), None);
    assert_eq!(
        DateSpec::MonthDay { month: 11, day: 1 }.range_in(2026),
        Some((Date::new(2026, 11, 1).unwrap(), Date::new(2026, 11, 1).unwrap()))
    );
    assert_eq!(DateSpec::Year(2026).to_string(), "2026");
    assert_eq!(spec.to_string(), "late 2026-10");
}

#[test]
fn numbers_need_units() {
    assert_eq!(
        kinds("214 tests, 3 GB, 9.81s, port 6379, 1,200 tests"),
        vec![
            k(ClaimKind::Number, "214 tests"),
            k(ClaimKind::Number, "3 GB"),
            k(ClaimKind::Number, "9.81s"),
            k(ClaimKind::Number, "port 6379"),
            k(ClaimKind::Number, "1,200 tests"),
        ]
    );
    let c = extract("1,200 tests");
    assert_eq!(c[0].value, ClaimValue::Number { value: "1200".into(), unit: Some("tests".into()) });
    // Issue 14 §3: a number followed by a closed-class word is a bare number claim (three
    // digits or more); one or two digits are not, nor a number with nothing after it —
    // unless a noun that names a value labels it (issue 27: `retries 3`, `exit code 7`).
    assert_eq!(kinds("it returns 404 and retries 3"), vec![k(ClaimKind::Number, "404"), k(ClaimKind::Number, "3")]);
    assert_eq!(kinds("it returns 404"), vec![]);
    assert_eq!(kinds("it retries 3 and stops"), vec![k(ClaimKind::Number, "3")]);
    assert_eq!(kinds("it took 3 and stops"), vec![]);
    // A number a noun names is that noun's number: the word after it is no unit.
    assert_eq!(kinds("task 1.2 covers the parser"), vec![k(ClaimKind::Number, "task 1.2")]);
    assert_eq!(kinds("see section 4 explains it"), vec![k(ClaimKind::Number, "section 4")]);
}

#[test]
fn versions_code_paths_urls() {
    assert_eq!(
        kinds(
            "Requires Python 3.11 and v3.2.4; see https://vitest.dev/guide, `pnpm i`, src/cart.test.ts, ~/.claude/x, /etc/hosts, config.yaml."
        ),
        vec![
            k(ClaimKind::Version, "Python 3.11"),
            k(ClaimKind::Version, "v3.2.4"),
            k(ClaimKind::Url, "https://vitest.dev/guide"),
            k(ClaimKind::Code, "pnpm i"),
            k(ClaimKind::Path, "src/cart.test.ts"),
            k(ClaimKind::Path, "~/.claude/x"),
            k(ClaimKind::Path, "/etc/hosts"),
            k(ClaimKind::Path, "config.yaml"),
        ]
    );
    let v = extract("shop@1.4.0");
    assert_eq!(v[0].kind, ClaimKind::Version);
    assert_eq!(v[0].value, ClaimValue::Text("1.4.0".into()));
    let p = extract("edit ~/.claude/x");
    assert_eq!(p[0].value, ClaimValue::Text(".claude/x".into()));
    let u = extract("at https://www.Example.com/Docs/");
    assert_eq!(u[0].value, ClaimValue::Text("example.com/docs".into()));
}

#[test]
fn claims_never_overlap() {
    // A date inside backticks belongs to the code; a path inside a URL to the URL.
    assert_eq!(kinds("run `date -d 2026-11-01`"), vec![k(ClaimKind::Code, "date -d 2026-11-01")]);
    assert_eq!(
        kinds("see https://github.com/acme/shop/blob/main/src/cart.ts"),
        vec![k(ClaimKind::Url, "https://github.com/acme/shop/blob/main/src/cart.ts")]
    );
    assert_eq!(kinds("in memory/2026-06-02.md"), vec![k(ClaimKind::Link, "memory/2026-06-02.md")]);
}

#[test]
fn links_are_returned_for_skipping() {
    assert_eq!(
        kinds("- [Testing](testing.md) — how to run tests; see [[deploy-notes]]"),
        vec![k(ClaimKind::Link, "[Testing](testing.md)"), k(ClaimKind::Link, "[[deploy-notes]]")]
    );
    let c = extract("[Testing](testing.md)");
    assert_eq!(c[0].value, ClaimValue::Text("testing.md".into()));
}

#[test]
fn names() {
    assert_eq!(
        kinds("The user, Alice Smith, deploys with GitHub Actions on AWS."),
        vec![
            k(ClaimKind::Name, "Alice"),
            k(ClaimKind::Name, "Smith"),
            k(ClaimKind::Name, "GitHub"),
            k(ClaimKind::Name, "Actions"),
            k(ClaimKind::Name, "AWS"),
        ]
    );
    // Never sentence-initial plain words, common words, weekdays, months, markers.
    assert_eq!(kinds("Verified on Monday. No. The API works. I checked it in May."), vec![k(ClaimKind::Date, "May"),]);
    assert_eq!(kinds("PERMANENT: never force-push. TODO: ask."), vec![]);
    assert_eq!(kinds("## Deploy Process"), vec![]);
    // Latin names inside CJK text.
    assert_eq!(
        kinds("テストは pnpm で実行。Redis は不要。"),
        vec![k(ClaimKind::Name, "pnpm"), k(ClaimKind::Name, "Redis")]
    );
    assert_eq!(kinds("Redis는 필요 없음"), vec![k(ClaimKind::Name, "Redis")]);
    assert_eq!(kinds("测试改用 Vitest 运行"), vec![k(ClaimKind::Name, "Vitest")]);
}

#[test]
fn cjk_lines() {
    assert_eq!(
        kinds("テストは `pnpm test` で実行する（2026年10月下旬に npm から移行）。"),
        vec![k(ClaimKind::Code, "pnpm test"), k(ClaimKind::Date, "2026年10月下旬"), k(ClaimKind::Name, "npm")]
    );
    assert_eq!(
        kinds("테스트 214개 통과 (2026년 11월 1일)"),
        vec![k(ClaimKind::Number, "214개"), k(ClaimKind::Date, "2026년 11월 1일")]
    );
    assert_eq!(kinds("测试共 214 个，耗时 9.81s"), vec![k(ClaimKind::Number, "214 个"), k(ClaimKind::Number, "9.81s")]);
}

#[test]
fn byte_ranges_slice_the_line() {
    let line = "日本語 `コード` と Redis、2026年11月1日、214件、https://例え.jp/パス";
    for c in extract(line) {
        assert_eq!(&line[c.start..c.end], c.text);
    }
}

/// An amount per units (`$20/seat/month`, `5GB/day/user`) is a rate, not a path; a dated
/// folder with a file in it still is one.
#[test]
fn an_amount_per_units_is_no_path() {
    for line in ["Hosted plan: $20/seat/month.", "Quota: 5GB/day/user for the free tier."] {
        assert!(!kinds(line).iter().any(|(k, _)| *k == ClaimKind::Path), "{line}: {:?}", kinds(line));
    }
    assert!(
        kinds("Reports: 2024/01/report.md.").iter().any(|(k, t)| *k == ClaimKind::Path && t == "2024/01/report.md")
    );
}
