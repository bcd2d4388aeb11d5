//! Tests of `numbers`.

proptest::proptest! {
    #[test]
    fn numbers_equal_finds_what_whole_numbers_finds(text in "[0-9,. x]{0,40}", value in "[1-9][0-9]{0,3}(\\.[0-9])?") {
        let slow: Vec<std::ops::Range<usize>> =
            super::whole_numbers(&text).filter(|(_, v)| super::same_figure(v, &value)).map(|(r, _)| r).collect();
        let fast: Vec<std::ops::Range<usize>> = super::numbers_equal(&text, &value).collect();
        proptest::prop_assert_eq!(slow, fast);
    }
}

use super::*;

fn nums(line: &str) -> Vec<(String, String, String)> {
    find_numbers(line, &|_| true)
        .into_iter()
        .map(|f| (line[f.range].to_string(), f.value, f.unit.unwrap_or_default()))
        .collect()
}

fn t(a: &str, b: &str, c: &str) -> (String, String, String) {
    (a.into(), b.into(), c.into())
}

#[test]
fn recognises_units() {
    assert_eq!(nums("Verified: 214 tests passed."), vec![t("214 tests", "214", "tests")]);
    assert_eq!(nums("1,200 tests"), vec![t("1,200 tests", "1200", "tests")]);
    assert_eq!(nums("Duration 9.81s"), vec![t("9.81s", "9.81", "s")]);
    assert_eq!(nums("needs 3 GB of RAM"), vec![t("3 GB", "3", "gb")]);
    assert_eq!(nums("Redis on port 6379."), vec![t("port 6379", "6379", "port")]);
    assert_eq!(nums("see PR #123"), vec![t("PR #123", "123", "pr")]);
    assert_eq!(nums("costs $5"), vec![t("$5", "5", "$")]);
    assert_eq!(nums("a 5-minute timeout"), vec![t("5-minute", "5", "minute")]);
    assert_eq!(nums("30% faster"), vec![t("30%", "30", "%")]);
    assert_eq!(nums("テストは214件"), vec![t("214件", "214", "件")]);
    assert_eq!(nums("테스트 214개 통과"), vec![t("214개", "214", "개")]);
}

#[test]
fn rejects_bare_and_glued_numbers() {
    for s in [
        "returns 404",
        "09:14 started",
        "gemma4:31b-cloud",
        "1.4.0 release",
        "the 2nd try",
        "at 3pm",
        "20/20 benchmark",
        "id 1476561093454200923",
        "abc123 tests",
        "3 of them",
        "430 TeamMotorcycle",
    ] {
        assert_eq!(nums(s), vec![], "{s}");
    }
}

#[test]
fn token_matching() {
    assert!(number_occurs("214", " Tests  214 passed (214)"));
    assert!(!number_occurs("214", "2140 tests"));
    assert!(!number_occurs("214", "1.214 tests"));
    assert!(!number_occurs("214", "214.5 tests"));
    assert!(number_occurs("1200", "1,200 tests"));
    assert!(number_occurs("1200", "1200 tests"));
    assert!(number_occurs("9.81", "Duration  9.81s"));
    assert!(number_occurs("214", "214."));
}

#[test]
fn units() {
    assert_eq!(unit_key("Tests"), "test");
    assert_eq!(unit_key("seconds"), unit_key("s"));
    assert_eq!(unit_key("GB"), unit_key("gigabytes"));
    assert_eq!(unit_key("entries"), "entry");
    assert_eq!(unit_key("passes"), "pass");
    let stated = super::super::bound::quantity_stated;
    assert!(stated("214", Some("tests"), None, " Tests  214 passed (214)"));
    assert!(stated("9.81", Some("s"), None, "Duration 9.81 seconds"));
    assert!(!stated("214", Some("tests"), None, "214 files"));
    assert!(stated("6379", Some("port"), None, "localhost:6379"));
    assert!(stated("214", Some("件"), None, "テスト214件"));
    assert!(stated("214", Some("passing"), None, "214 passed"));
    assert!(!stated("214", Some("files"), None, "214 passed"));
}

#[test]
fn a_closed_class_word_is_no_unit_english() {
    // Issue 14 §3: `4,310 between` was a claim with the unit `between`.
    assert_eq!(
        nums("9,120 downloads this month, 4,310 between March and May"),
        vec![t("9,120 downloads", "9120", "downloads"), t("4,310", "4310", "")]
    );
    for (line, claim) in [
        ("1,200 of them", "1,200"),
        ("grew to 450 and then fell", "450"),
        ("357 were flaky", "357"),
        ("it took 900 more", "900"),
        // A verb the number is the subject of.
        ("so 213 use [caption]", "213"),
        ("1,500 need a rebuild", "1,500"),
    ] {
        assert_eq!(nums(line), vec![t(claim, &claim.replace(',', ""), "")], "{line}");
    }
    // One or two digits alone are no checkable fact; a year before a word is no number.
    assert_eq!(nums("3 of them"), vec![]);
    assert_eq!(nums("since 2019 we ship"), vec![]);
    // Content words stay units, and so do unit symbols NLTK lists as contraction pieces.
    assert_eq!(nums("took 5 s"), vec![t("5 s", "5", "s")]);
    assert_eq!(nums("4,310 downloads"), vec![t("4,310 downloads", "4310", "downloads")]);
}

#[test]
fn a_closed_class_word_is_no_unit_korean() {
    // `대해서` ("about") starts like the counter `대`; spaces delimit Korean words.
    assert_eq!(nums("4,310 대해서 검토"), vec![t("4,310", "4310", "")]);
    assert_eq!(nums("1,500 이상 증가"), vec![t("1,500", "1500", "")]);
    assert_eq!(nums("서버 7대"), vec![t("7대", "7", "대")]);
    assert_eq!(nums("214개를 확인"), vec![t("214개", "214", "개")]);
}

#[test]
fn a_closed_class_word_is_no_unit_japanese() {
    assert_eq!(nums("4,310 まで増えた"), vec![t("4,310", "4310", "")]);
    assert_eq!(nums("ダウンロードは 9120 から"), vec![t("9120", "9120", "")]);
    assert_eq!(nums("テストは214件"), vec![t("214件", "214", "件")]);
}

#[test]
fn a_closed_class_word_is_no_unit_chinese() {
    assert_eq!(nums("下载量 4310以上"), vec![t("4310", "4310", "")]);
    // A counter wins where no space says where the word ends: three people.
    assert_eq!(nums("有 3个人"), vec![t("3个", "3", "个")]);
    assert_eq!(nums("用了 120分钟"), vec![t("120分钟", "120", "分钟")]);
}

#[test]
fn a_bare_number_is_stated_by_the_number_with_any_unit() {
    let stated = super::super::bound::quantity_stated;
    assert!(stated("4310", None, None, "4,310 downloads between March and May"));
    assert!(!stated("4310", None, None, "4,311 downloads"));
}

#[test]
fn a_magnitude_after_a_figure_scales_it() {
    assert_eq!(nums("budget €4.5k approved"), vec![t("€4.5k", "4500", "€")]);
    assert_eq!(nums("about 35k rows a day"), vec![t("35k rows", "35000", "rows")]);
    assert_eq!(nums("raised $3M"), vec![t("$3M", "3000000", "$")]);
    assert_eq!(nums("1.2M users"), vec![t("1.2M users", "1200000", "users")]);
    assert_eq!(nums("毎日 1.5万行 を取り込む"), vec![t("1.5万行", "15000", "行")]);
    assert_eq!(nums("예산 3억 원"), vec![t("3억 원", "300000000", "원")]);
    // One blank may stand between the figure and a CJK magnitude.
    assert_eq!(nums("单张限额为 100 万元"), vec![t("100 万元", "1000000", "元")]);
    assert_eq!(nums("예산 5 억 원"), vec![t("5 억 원", "500000000", "원")]);
    // Not a magnitude: a resolution, `du`'s sizes, a compound CJK figure.
    assert!(nums("a 4k display").iter().all(|n| n.1 != "4000"));
    assert!(nums("the log is 4.0M").iter().all(|n| n.1 != "4000000"));
    assert!(nums("1万2千人").iter().all(|n| n.1 != "10000"));
}

#[test]
fn a_zero_padded_figure_is_a_name() {
    assert!(nums("Migrations wait (0043 waits until Monday)").is_empty());
    assert_eq!(nums("0.5 s and 007 agents"), vec![t("0.5 s", "0.5", "s")]);
}

#[test]
fn a_source_abbreviating_a_figure_states_it() {
    use super::super::numbers::{mantissa, numbers_equal};
    assert_eq!(mantissa("$48.2k"), Some("48.2"));
    assert_eq!(mantissa("35k rows"), Some("35"));
    assert_eq!(mantissa("48,200 USD"), None);
    let text = "October came in at $42.4k vs $48.2k in September";
    assert_eq!(numbers_equal(text, "48200").map(|r| &text[r]).collect::<Vec<_>>(), ["48.2k"]);
}

#[test]
fn a_total_of_what_a_source_lists_is_stated() {
    let stated =
        |v: &str, u: Option<&str>, _: Option<()>, t: &str| super::super::totals::summed_stated(v, u.unwrap(), t);
    let listing = "es-data-0 212gb\nes-data-1 198gb\nes-data-2 205gb";
    assert!(stated("615", Some("GB"), None, listing));
    assert!(!stated("625", Some("GB"), None, listing));
    // A count is no measure: three nodes of 2 replicas are not 6 replicas.
    assert!(!stated("6", Some("replicas"), None, "node-a 2 replicas, node-b 2 replicas, node-c 2 replicas"));
}

#[test]
fn a_count_of_a_total_counts_the_totals_unit() {
    assert_eq!(nums("4 of 23 tasks failed"), vec![t("4 of 23 tasks", "4", "tasks"), t("23 tasks", "23", "tasks")]);
    assert_eq!(
        nums("2 out of 3 replicas"),
        vec![t("2 out of 3 replicas", "2", "replicas"), t("3 replicas", "3", "replicas")]
    );
    let stated = super::super::bound::quantity_stated;
    assert!(stated("4", Some("tasks"), None, "4 of the 23 tasks failed, all in the load step"));
    assert!(!stated("6", Some("tasks"), None, "4 of the 23 tasks failed, all in the load step"));
    assert!(stated("1", Some("replicas"), None, "rollout to finish: 1 of 3 updated replicas are available"));
}

#[test]
fn a_figure_written_otherwise_is_stated() {
    let stated = super::super::bound::quantity_stated;
    // An abbreviated round figure, trailing decimal zeros, a key naming the unit.
    assert!(stated("30000", Some("원"), None, "10% 할인인데 최대 5,000원까지만, 3만원 이상 구매 시"));
    assert!(stated("7450", Some("$"), None, "INV-2026-118 is drafted: total $7,450.00, net 30."));
    assert!(stated("9600", Some("baud"), None, "#define GPS_UART_BAUD     9600"));
    assert!(stated("5", Some("retries"), None, "MAX_RETRIES = 5"));
    assert!(!stated("9600", Some("baud"), None, "#define GPS_UART_PIN     9600"));
}
