//! Claim extraction, matching and relative phrases never panic, and claim ranges always
//! slice the line to the claim's text.

use dreamreview::analysis::claims::{
    covers, extract, needles, occurs_in, overlaps, relative_needles, relative_phrases,
};
use dreamreview::base::date::Date;
use proptest::prelude::*;

fn tricky() -> impl Strategy<Value = String> {
    let token = prop_oneof![
        Just(" ".to_string()),
        Just("`".to_string()),
        Just("``".to_string()),
        Just("\r".to_string()),
        Just("\n".to_string()),
        Just("e\u{301}".to_string()),
        Just("\u{200d}".to_string()),
        Just("2026".to_string()),
        Just("-".to_string()),
        Just("/".to_string()),
        Just(".".to_string()),
        Just(",".to_string()),
        Just(":".to_string()),
        Just("11".to_string()),
        Just("1".to_string()),
        Just("０１".to_string()),
        Just("年".to_string()),
        Just("月".to_string()),
        Just("日".to_string()),
        Just("년".to_string()),
        Just("월".to_string()),
        Just("일".to_string()),
        Just("말".to_string()),
        Just("下旬".to_string()),
        Just("late ".to_string()),
        Just("Oct".to_string()),
        Just("May".to_string()),
        Just("Q4".to_string()),
        Just("in ".to_string()),
        Just("last week".to_string()),
        Just("days ago".to_string()),
        Just("先週".to_string()),
        Just("yesterday".to_string()),
        Just("Last Friday".to_string()),
        Just("on Monday".to_string()),
        Just("two weeks ago".to_string()),
        Just("the other day".to_string()),
        Just("지난 주".to_string()),
        Just("3일 전".to_string()),
        Just("上个月".to_string()),
        Just("三天前".to_string()),
        Just("明日".to_string()),
        Just("日前".to_string()),
        Just("tests".to_string()),
        Just("port ".to_string()),
        Just("#".to_string()),
        Just("$".to_string()),
        Just("%".to_string()),
        Just("v3.2.4".to_string()),
        Just("Python ".to_string()),
        Just("https://".to_string()),
        Just("example.com".to_string()),
        Just("@".to_string()),
        Just("~/".to_string()),
        Just(".md".to_string()),
        Just("[T](".to_string()),
        Just(")".to_string()),
        Just("[[".to_string()),
        Just("]]".to_string()),
        Just("Redis".to_string()),
        Just("GitHub".to_string()),
        Just("'s".to_string()),
        Just("**".to_string()),
        Just("## ".to_string()),
        Just("件".to_string()),
        Just("テスト".to_string()),
        // Issue 14: host and port forms, literals, glued units, closed-class words, values
        // after arrows, colons and list markers.
        Just("localhost:".to_string()),
        Just("127.0.0.1:".to_string()),
        Just("[::1]:".to_string()),
        Just("redis:6379".to_string()),
        Just(":8443".to_string()),
        Just("ポート ".to_string()),
        Just("0x1F40".to_string()),
        Just("0b".to_string()),
        Just("4h".to_string()),
        Just("250ms".to_string()),
        Just("2GiB".to_string()),
        Just("4,310".to_string()),
        Just(" between".to_string()),
        Just(" 대해서".to_string()),
        Just("まで".to_string()),
        Just("以上".to_string()),
        Just("→ ".to_string()),
        Just("DNS: ".to_string()),
        Just("- ".to_string()),
        Just("Quad9".to_string()),
        "\\PC{0,3}",
    ];
    prop::collection::vec(token, 0..30).prop_map(|v| v.concat())
}

fn check(line: &str) -> Result<(), TestCaseError> {
    let claims = extract(line);
    let mut last_end = 0;
    for c in &claims {
        prop_assert!(c.start < c.end);
        prop_assert!(c.start >= last_end, "overlap in {:?}: {:?}", line, claims);
        prop_assert_eq!(line.get(c.start..c.end), Some(c.text.as_str()));
        last_end = c.end;
        // Needles are a superset filter: whenever the claim occurs, a needle is present.
        let lower = line.to_lowercase();
        if occurs_in(c, line) {
            prop_assert!(needles(c).iter().any(|n| lower.contains(n.as_str())));
        }
        let anchor = Date::new(2026, 11, 1).unwrap_or(Date { year: 2026, month: 11, day: 1 });
        let _ = overlaps(c, (anchor.add_days(-10), anchor));
    }
    for r in relative_phrases(line) {
        prop_assert_eq!(line.get(r.start..r.end), Some(r.phrase.as_str()));
        let lower = r.phrase.to_lowercase();
        prop_assert!(relative_needles().iter().any(|n| lower.contains(n)), "{}", r.phrase);
        let anchor = Date::new(2026, 1, 1).unwrap_or(Date { year: 2026, month: 1, day: 1 });
        let (a, b) = r.resolve(anchor);
        prop_assert!(a <= b);
        // With an unknown zone the anchor is ±1 day: every reading lies inside the union,
        // and a claim covering a reading overlaps it.
        let day = dreamreview::base::zone::LocalDay { day: anchor, slack: 1 };
        let (lo, hi) = r.resolve_around(day);
        for (_, (x, y)) in r.readings(day) {
            prop_assert!(lo <= x && y <= hi && x <= y);
            for c in &claims {
                if covers(c, (x, y)) {
                    prop_assert!(overlaps(c, (x, y)), "{c:?} covers {x}..{y} without overlapping it");
                }
            }
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 800, rng_seed: proptest::test_runner::RngSeed::Fixed(1), ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_strings(line in "\\PC*") {
        check(&line)?;
    }

    #[test]
    fn tricky_strings(line in tricky()) {
        check(&line)?;
    }

    #[test]
    fn arbitrary_bytes(bytes in prop::collection::vec(any::<u8>(), 0..200)) {
        let line = String::from_utf8_lossy(&bytes);
        check(&line)?;
    }

    #[test]
    fn matching_arbitrary_text(line in tricky(), text in tricky()) {
        for c in extract(&line) {
            if occurs_in(&c, &text) {
                let lower = text.to_lowercase();
                prop_assert!(needles(&c).iter().any(|n| lower.contains(n.as_str())));
            }
        }
    }
}
