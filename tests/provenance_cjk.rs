//! The Japanese scenario (`ja-kaeru`) and the mixed one (`mixed-infra`: Korean notes with
//! English identifiers, a Chinese note, Korean and Chinese sessions). Exact flags, the CJK
//! relative phrases behind each inferred date, CJK citation forms, entry ↔ hunk mapping,
//! `citation-missing` and `citation-unsupported`.

use crate::common::*;

const J1: &str = "3f6a9c2e-8d41-4b7a-b0e5-72c9d1a4f836.jsonl";
const J2: &str = "b7e2d519-0c3a-4f86-9d17-5a8e3c0b6f24.jsonl";
const K1: &str = "c41f8a27-5e0b-4d93-8a6c-2b7d9e1f3a05.jsonl";
const C1: &str = "7e9b2d40-1f6c-4a85-b3e2-d0c8a5f17b96.jsonl";

fn checked(name: &str) -> (tempfile::TempDir, i32, serde_json::Value) {
    let (g, dream, _memory) = scenario(name);
    let (code, v) = check_json(&dream, &[]);
    (g, code, v)
}

fn message<'a>(v: &'a serde_json::Value, at: &str, kind: &str, claim: &str) -> &'a str {
    flag_at(v, at, kind, claim)["message"].as_str().unwrap()
}

#[test]
fn japanese_scenario_has_exactly_the_expected_flags() {
    let (_g, code, v) = checked("ja-kaeru");
    assert_eq!(
        flag_rows(&v),
        // 3日前 (dev-env.md#1) and 昨日から (release.md#2, which entry #3 explains too: it
        // states 1.8.0) are on cited lines and the notes give the days they denote: sourced.
        // `corepack enable` is on line 6, a tool call after the cited lines 1 and 5.
        vec![
            flag_row("dev-env.md#1", "citation-unsupported", "warning", "corepack enable"),
            flag_row("release.md#1", "inferred-date", "warning", "2026年9月29日"),
        ]
    );
    assert_eq!(code, 0);
    assert_eq!(
        (v["summary"]["flags"]["error"].as_u64(), v["summary"]["flags"]["warning"].as_u64()),
        (Some(0), Some(2))
    );
}

#[test]
fn japanese_relative_phrases_name_their_line() {
    let (_g, _, v) = checked("ja-kaeru");
    // 先週 (said 2026-10-07) on a line no entry cites: found by the scan. A week (calendar
    // or rolling) is no day: the note is more precise than its source.
    assert_eq!(
        message(&v, "release.md#1", "inferred-date", "2026年9月29日"),
        format!(
            "«2026年9月29日» is stated by no source: probably inferred from «先週» — 先週 said on Wed 2026-10-07 means \
             Thu 2026-09-24 to Sun 2026-10-04: the calendar week Mon 2026-09-28 to Sun 2026-10-04, or the days 6 to 13 \
             before ({J1}:1, 2026-10-07 00:12:40 UTC)"
        )
    );
    // 3日前 said on 2026-10-08 on a cited line states 2026-10-05.
    assert_eq!(claim_status(&v, "dev-env.md#1", "2026年10月5日"), ("sourced".into(), format!("{J2}:1")));
    // 昨日から on the cited line 8 (said 2026-10-07 00:20:12) states 2026-10-06.
    assert_eq!(claim_status(&v, "release.md#2", "2026年10月6日"), ("sourced".into(), format!("{J1}:8")));
}

#[test]
fn japanese_citations_mapping_and_claims() {
    let (_g, _, v) = checked("ja-kaeru");
    let cites: Vec<Vec<(u64, Option<u64>)>> = v["changes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            c["citations"]
                .as_array()
                .unwrap()
                .iter()
                .map(|x| {
                    assert_eq!(x["resolved"], true, "{x}");
                    (x["line"].as_u64().unwrap(), x["end"].as_u64())
                })
                .collect()
        })
        .collect();
    // `3行目`, `5〜7行目`, `8行目`, `の 1行目と5行目`.
    assert_eq!(cites, vec![vec![(3, None)], vec![(5, Some(7))], vec![(8, None)], vec![(1, None), (5, None)]]);
    // Three entries explain one hunk.
    assert_eq!(v["files"][1]["hunks"][0]["id"], "release.md#1");
    assert_eq!(v["files"][1]["hunks"][0]["changes"], serde_json::json!([1, 2, 3]));
    // Entry #3 states Xcode (hunk 1) and 1.8.0 (hunk 2): it explains both.
    assert_eq!(entry_hunks(&v, 3), ["release.md#1", "release.md#2"]);
    assert_eq!(claim_status(&v, "release.md#2", "1.8.0"), ("sourced".into(), format!("{J1}:8")));
    assert_eq!(claim_status(&v, "release.md#1", "Xcode 16.4"), ("sourced".into(), format!("{J1}:3")));
    assert_eq!(
        claim_status(&v, "release.md#1", "fastlane match appstore --readonly"),
        ("sourced".into(), format!("{J1}:5"))
    );
    assert_eq!(claim_status(&v, "release.md#1", "iOS"), ("carried".into(), String::new()));
    // Carried over from the live note, in no transcript.
    assert_eq!(claim_status(&v, "dev-env.md#1", "pnpm install"), ("carried".into(), String::new()));
    assert_eq!(claim_status(&v, "dev-env.md#1", "pnpm pod-install"), ("carried".into(), String::new()));
    assert_eq!(claim_status(&v, "dev-env.md#1", ".nvmrc"), ("sourced".into(), format!("{J2}:5")));
    // Same session, a line the entry does not cite.
    assert_eq!(claim_status(&v, "dev-env.md#1", "corepack enable"), ("elsewhere".into(), format!("{J2}:6")));
}

#[test]
fn mixed_scenario_has_exactly_the_expected_flags() {
    let (_g, code, v) = checked("mixed-infra");
    assert_eq!(
        flag_rows(&v),
        vec![
            flag_row("CHANGES.md #3", "citation-unsupported", "warning", &format!("{K1}:5")),
            // Entry #4 cites line 5, which holds 昨天: the relative form of the hunk's date,
            // so the citation supports it, and the date is the day 昨天 denotes (sourced).
            flag_row("MEMORY.md#1", "citation-missing", "warning", ""),
            // Entry #3's claims are said in the Chinese session, which it does not cite.
            flag_row("cache.md#1", "citation-unsupported", "warning", "ElastiCache"),
            flag_row("cache.md#1", "citation-unsupported", "warning", "Redis 7.1.0"),
            flag_row("cache.md#1", "inferred-date", "warning", "2026년 6월 24일"),
            flag_row("infra.md#1", "inferred-date", "warning", "2026년 6월 10일"),
            flag_row("infra.md#2", "inferred-date", "warning", "2026-06-16"),
        ]
    );
    assert_eq!(code, 0);
    assert_eq!(
        (v["summary"]["flags"]["error"].as_u64(), v["summary"]["flags"]["warning"].as_u64()),
        (Some(0), Some(7))
    );
}

#[test]
fn korean_and_chinese_relative_phrases_name_their_line() {
    let (_g, _, v) = checked("mixed-infra");
    assert_eq!(
        message(&v, "infra.md#1", "inferred-date", "2026년 6월 10일"),
        format!(
            "«2026년 6월 10일» is stated by no source: probably inferred from «지난주» — 지난주 said on Wed 2026-06-17 \
             means Thu 2026-06-04 to Sun 2026-06-14: the calendar week Mon 2026-06-08 to Sun 2026-06-14, or the days 6 \
             to 13 before ({K1}:1, 2026-06-17 01:30:12 UTC)"
        )
    );
    // cache.md#1's entry cites K1:5, whose 어제 denotes 2026-06-16: the date lies outside it
    // (the arithmetic is shown), and 上周 in another session is where it probably came from.
    assert_eq!(
        message(&v, "cache.md#1", "inferred-date", "2026년 6월 24일"),
        format!(
            "«2026년 6월 24일» — 어제 said on 2026-06-17 means 2026-06-16 ({K1}:5, 2026-06-17 01:33:40 UTC); \
             probably inferred from «上周» — 上周 said on Mon 2026-06-29 means Tue 2026-06-16 to Sun 2026-06-28: the \
             calendar week Mon 2026-06-22 to Sun 2026-06-28, or the days 6 to 13 before ({C1}:1, 2026-06-29 02:10:44 UTC)"
        )
    );
    assert_eq!(flag_at(&v, "cache.md#1", "inferred-date", "2026년 6월 24일")["source"], format!("{C1}:1"));
    // 昨天 said on 2026-06-29 on the cited line states 2026-06-28.
    assert_eq!(claim_status(&v, "oncall.md#1", "2026年6月28日"), ("sourced".into(), format!("{C1}:5")));
    // 어제 on K1:5 (the session the hunk's entry cites, not its cited line) is the phrase
    // behind 2026-06-16, not 上周 in another session said 13 days later (first in
    // source-name order), nor 지난주 on K1:1 (a week wide, where 어제 means one day).
    assert_eq!(
        message(&v, "infra.md#2", "inferred-date", "2026-06-16"),
        format!(
            "«2026-06-16» is stated by no source: probably inferred from «어제» — 어제 said on 2026-06-17 means \
             2026-06-16 ({K1}:5, 2026-06-17 01:33:40 UTC)"
        )
    );
}

#[test]
fn mixed_citations_mapping_and_claims() {
    let (_g, _, v) = checked("mixed-infra");
    // `L3, L8` and `第5行`.
    let lines = |i: usize| -> Vec<u64> {
        v["changes"][i]["citations"].as_array().unwrap().iter().map(|x| x["line"].as_u64().unwrap()).collect()
    };
    assert_eq!((lines(0), lines(3)), (vec![3, 8], vec![5]));
    // One entry on two hunks; two entries on one hunk.
    assert_eq!(entry_hunks(&v, 1), ["infra.md#1", "infra.md#2"]);
    assert_eq!(entry_hunks(&v, 2), ["infra.md#1"]);
    let infra = v["files"].as_array().unwrap().iter().find(|f| f["path"] == "infra.md").unwrap();
    assert_eq!(infra["hunks"][0]["changes"], serde_json::json!([1, 2]));
    assert_eq!(infra["hunks"][1]["changes"], serde_json::json!([1]));
    // MEMORY.md#1 has no entry at all.
    let index = v["files"].as_array().unwrap().iter().find(|f| f["path"] == "MEMORY.md").unwrap();
    assert_eq!(index["hunks"][0]["changes"], serde_json::json!([]));
    assert_eq!(message(&v, "MEMORY.md#1", "citation-missing", ""), "no CHANGES.md entry explains MEMORY.md#1");
    // The entry citing the Korean session for the Chinese colleague's Redis move.
    assert_eq!(
        message(&v, "CHANGES.md #3", "citation-unsupported", &format!("{K1}:5")),
        format!("CHANGES.md #3 cites {K1}:5, which says none of «Redis», «ElastiCache»")
    );
    assert_eq!(claim_status(&v, "cache.md#1", "ElastiCache"), ("elsewhere".into(), format!("{C1}:1")));
    assert_eq!(claim_status(&v, "cache.md#1", "Redis 7.1.0"), ("elsewhere".into(), format!("{C1}:3")));
    // `EKS 1.31` is one claim: the version bound to its product.
    assert_eq!(claim_status(&v, "infra.md#1", "EKS 1.31"), ("sourced".into(), format!("{K1}:3")));
    assert_eq!(claim_status(&v, "infra.md#2", "ingress-nginx 4.11.3"), ("sourced".into(), format!("{K1}:8")));
}
