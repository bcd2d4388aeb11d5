//! Faithful rewrites of what a session said are no claims without a source: a figure
//! abbreviated (`€4.5k` for `€4,500`, `1.5万` for `15,000`), a value whose unit the key
//! names (`request_timeout_ms = 90000` as `1.5 min`), one end of a range of times
//! (`09:15-12:00`), a timestamp's time (`2026-06-01T03:22:47Z` as `03:22`), a day of the
//! month said alone (`Thursday (4th)`), a span worked out beside its times in any script.
//! The same lines with the value changed are still flagged; what a tool prints to show its
//! progress (pytest's `[  5%]`) sources nothing.

use crate::common::one_session_kinds;

/// The flag kinds on the note when the session's one user turn says `said`.
fn kinds(said: &str, note: &str) -> Vec<String> {
    one_session_kinds(&[("user", said)], note, "1")
}

#[track_caller]
fn faithful_and_wrong(said: &str, faithful: &str, wrong: &str) {
    let k = kinds(said, faithful);
    assert!(k.is_empty(), "{faithful} ← {said}: {k:?}");
    let k = kinds(said, wrong);
    assert!(!k.is_empty(), "{wrong} ← {said}: nothing flagged");
}

#[test]
fn an_abbreviated_figure_is_the_figure() {
    faithful_and_wrong(
        "Correction, finance just approved €4,500 for the Porto offsite.",
        "- Porto offsite: finance-approved budget €4.5k.",
        "- Porto offsite: finance-approved budget €5.5k.",
    );
    faithful_and_wrong(
        "The importer loads about 35,000 rows a day from the billing export.",
        "- The billing importer loads ~35k rows a day.",
        "- The billing importer loads ~45k rows a day.",
    );
    faithful_and_wrong(
        "The AWS bill came in at $42.4k vs $48.2k the month before, down 12%.",
        "- AWS bill: $48.2k the month before, $42.4k now.",
        "- AWS bill: $49.2k the month before, $42.4k now.",
    );
    faithful_and_wrong(
        "注文テーブルには毎日 15,000 行が追加される。",
        "- 注文テーブル：毎日 1.5万行 追加。",
        "- 注文テーブル：毎日 2.5万行 追加。",
    );
}

#[test]
fn a_key_may_name_the_unit_of_its_value() {
    faithful_and_wrong(
        "exporter/config.toml:7:request_timeout_ms = 90000\nexporter/config.toml:8:retry_backoff_ms = 2500",
        "- Report exporter: request timeout 1.5 min, retry backoff 2.5 s.",
        "- Report exporter: request timeout 2 min, retry backoff 2.5 s.",
    );
}

#[test]
fn times_in_ranges_and_timestamps_are_stated() {
    faithful_and_wrong(
        "Event created: Blocked  Tue Dec 01 09:15-12:00",
        "- Dentist day: the morning is blocked until 12:00.",
        "- Dentist day: the morning is blocked until 12:30.",
    );
    faithful_and_wrong(
        "orders_etl  success  2026-05-31T03:00:00+00:00  2026-06-01T03:00:03+00:00  2026-06-01T03:22:47+00:00",
        "- orders_etl: the last successful run finished at 03:22 UTC.",
        "- orders_etl: the last successful run finished at 03:42 UTC.",
    );
}

#[test]
fn a_day_of_the_month_said_alone_dates_the_event() {
    // Said on Monday 2026-06-01: Thursday the 4th.
    faithful_and_wrong(
        "Write migration 0042 today; we'll apply it on Thursday night (4th) in the maintenance window.",
        "- Migration 0042: to be applied on Thu 4 June in the maintenance window.",
        "- Migration 0042: to be applied on Thu 11 June in the maintenance window.",
    );
}

#[test]
fn a_zero_padded_id_is_no_count_nor_version() {
    let k = kinds("Today is Friday, so I'll leave migration 0043 for Monday.", "- Migration 0043 waits until Monday.");
    assert!(!k.iter().any(|k| k == "unsourced-claim"), "{k:?}");
}

#[test]
fn a_span_between_two_times_is_worked_out_in_any_script() {
    let k = kinds(
        "INC-2198 从 09:12 开始告警，10:05 才恢复，都是北京时间",
        "- INC-2198：北京时间 09:12 告警，10:05 恢复，持续 53 分钟。",
    );
    assert!(k.is_empty(), "{k:?}");
}

#[test]
fn a_progress_counter_sources_no_percentage() {
    let said =
        "tests/test_api.py ........................ [  5%]\n........................ [100%]\nTOTAL 18211 2367 87%";
    let k = kinds(said, "- Coverage is 87%.");
    assert!(k.is_empty(), "{k:?}");
    let k = kinds(said, "- Coverage is 5%.");
    assert!(!k.is_empty(), "a pytest progress counter sourced «5%»");
}

#[test]
fn a_value_that_stays_a_total_and_a_tables_header() {
    // `seats stay at 10` binds 10 to seats.
    faithful_and_wrong(
        "Team is now $59/month; annual stays $490 and seats stay at 10.",
        "- Team plan: $59/mo, annual $490, 10 seats.",
        "- Team plan: $59/mo, annual $490, 50 seats.",
    );
    // A total of what a listing gives, in the listing's unit.
    faithful_and_wrong(
        "es-data-0 212gb\nes-data-1 198gb\nes-data-2 205gb",
        "- events ES cluster: ~615 GB of indices.",
        "- events ES cluster: ~715 GB of indices.",
    );
    // The digits of a column name (`p99_ms`) bind no value to the words before them.
    let table = "region          p50_ms  p95_ms  p99_ms\nus-east-1       41      97      180\neu-west-1       38      88      142";
    let k = kinds(table, "- Latency report: best p99 is eu-west-1 at 142 ms across 2 regions.");
    assert!(!k.iter().any(|k| k == "contradicted"), "{k:?}");
}

#[test]
fn a_count_out_of_a_total_is_a_claim() {
    faithful_and_wrong(
        "4 of the 23 tasks failed, all in the load step: load_orders, load_payments, load_refunds, load_events.",
        "- nightly_etl: 4 of 23 tasks failed, all load_*.",
        "- nightly_etl: 6 of 23 tasks failed, all load_*.",
    );
    // The total a count is a part of says nothing against the count.
    let k = kinds(
        "Waiting for deployment \"api\" rollout to finish: 1 of 3 updated replicas are available...",
        "- The api rollout was halted at 1 of 3 replicas.",
    );
    assert!(!k.iter().any(|k| k == "contradicted"), "{k:?}");
}

#[test]
fn figures_written_otherwise_by_the_source() {
    // A round figure the source abbreviates, copied as it is.
    faithful_and_wrong(
        "10% 할인, 최대 5,000원까지만, 3만원 이상 구매 시.",
        "- 쿠폰: 10% 할인, 최대 5,000원, 3만원 이상 주문 시.",
        "- 쿠폰: 10% 할인, 최대 5,000원, 5만원 이상 주문 시.",
    );
    // Trailing decimal zeros.
    faithful_and_wrong(
        "INV-2026-118 is drafted: total $7,450.00, net 30.",
        "- INV-2026-118: $7.45k total, net 30.",
        "- INV-2026-118: $7.54k total, net 30.",
    );
    // A key whose last part names the unit.
    faithful_and_wrong(
        "#define GPS_UART_BAUD     9600\n#define DEBUG_UART_BAUD   115200",
        "- GPS UART runs at 9600 baud.",
        "- GPS UART runs at 4800 baud.",
    );
}

#[test]
fn a_reported_proposal_and_an_adverb_are_no_statement_to_turn_around() {
    let said = "Someone suggested turning off auto-renew on the staging cert because it spams the alerts channel. \
                No, keep auto-renew on, an expiry broke e2e before. Mute the CertRenewed alert instead.";
    let k = kinds(
        said,
        "- Staging cert auto-renew stays on (an expiry broke e2e before); only its CertRenewed alert is muted.",
    );
    assert!(!k.iter().any(|k| k == "contradicted"), "{k:?}");
    // `ignore case` is `do not tell case apart`.
    let k =
        kinds("把 customers_2026.csv 按 email 去重，忽略大小写", "- customers_2026.csv 按 email（不区分大小写）去重。");
    assert!(!k.iter().any(|k| k == "contradicted"), "{k:?}");
}

#[test]
fn a_weekday_beside_a_date_without_its_year_is_read_in_the_year_said() {
    // Said on 2026-06-01: June 3 is a Wednesday.
    let said = "The release freeze starts on June 3, tag the RC the day before.";
    let k = kinds(said, "- Release freeze starts Tuesday, June 3.");
    assert!(k.iter().any(|k| k == "contradicted"), "{k:?}");
    let k = kinds(said, "- Release freeze starts Wednesday, June 3.");
    assert!(k.is_empty(), "{k:?}");
    let k = kinds("릴리스 동결은 6월 3일부터야.", "- 릴리스 동결: 6월 3일(화)부터.");
    assert!(k.iter().any(|k| k == "contradicted"), "{k:?}");
}
