//! The reference scenario (issue 3's first "done when"): the pnpm migration produces exactly
//! one `inferred-date` and one `citation-unsupported`, and nothing else.

use crate::common::*;

const SESSION: &str = "5b0e7c2a-41d3-4c1e-9f0a-2d6b8e3c7a15.jsonl";

#[test]
fn pnpm_scenario_has_exactly_the_expected_flags() {
    let (_g, dream, _memory) = pnpm();
    let (code, v) = check_json(&dream, &[]);
    assert_eq!(code, 0, "warnings only: exit 0");
    assert_eq!(
        flag_rows(&v),
        vec![
            flag_row("CHANGES.md #1", "citation-unsupported", "warning", &format!("{SESSION}:3")),
            flag_row("testing.md#1", "inferred-date", "warning", "late Oct 2026"),
        ]
    );
    assert_eq!(v["summary"]["flags"]["error"], 0);
    assert_eq!(v["summary"]["flags"]["warning"], 2);
    assert_eq!(v["summary"]["hunks"], 1);
}

#[test]
fn late_october_is_traced_to_last_week_on_line_1() {
    let (_g, dream, _memory) = pnpm();
    let (_, v) = check_json(&dream, &[]);
    let f = flag_at(&v, "testing.md#1", "inferred-date", "late Oct 2026");
    assert_eq!(f["severity"], "warning");
    assert_eq!(f["source"], format!("{SESSION}:1"));
    assert_eq!(
        f["line"],
        "Run tests with `pnpm test` (project moved from npm to pnpm in late Oct 2026; `npm test` is outdated)."
    );
    let msg = f["message"].as_str().unwrap();
    assert!(msg.contains("«last week»"), "{msg}");
    assert!(msg.contains("2026-11-01"), "{msg}");
    assert_eq!(
        msg,
        format!(
            "«late Oct 2026» is stated by no source: probably inferred from «last week» — last week said on \
             Sun 2026-11-01 means Mon 2026-10-19 to Mon 2026-10-26: the calendar week Mon 2026-10-19 to Sun \
             2026-10-25, or the days 6 to 13 before ({SESSION}:1, 2026-11-01 09:14:03 UTC)"
        )
    );
}

#[test]
fn only_the_entry_citing_line_3_is_unsupported() {
    let (_g, dream, _memory) = pnpm();
    let (_, v) = check_json(&dream, &[]);
    let changes = v["changes"].as_array().unwrap();
    assert_eq!(changes.len(), 3);
    let flagged: Vec<(u64, Vec<String>)> = changes
        .iter()
        .map(|c| {
            let kinds = c["flags"].as_array().unwrap().iter().map(|f| f["kind"].as_str().unwrap().to_string());
            (c["index"].as_u64().unwrap(), kinds.collect())
        })
        .collect();
    assert_eq!(flagged, vec![(1, vec!["citation-unsupported".to_string()]), (2, vec![]), (3, vec![])]);
    let f = &changes[0]["flags"][0];
    assert_eq!(
        f["message"],
        format!("CHANGES.md #1 cites {SESSION}:3, which says none of «npm test», «pnpm test», «late Oct 2026»")
    );
    // Entry #1 really is the one citing line 3.
    assert_eq!(changes[0]["citations"][0]["line"], 3);
    assert_eq!(changes[0]["citations"][0]["resolved"], true);
    for c in changes {
        assert_eq!(entry_hunks(&v, c["index"].as_u64().unwrap()), ["testing.md#1"]);
    }
}

#[test]
fn sourced_claims_name_their_line_and_raise_no_flag() {
    let (_g, dream, _memory) = pnpm();
    let (_, v) = check_json(&dream, &[]);
    let at = |n: usize| format!("{SESSION}:{n}");
    assert_eq!(claim_status(&v, "testing.md#1", "pnpm test"), ("sourced".into(), at(4)));
    // Entry #3 states "214 tests passed on 2026-11-01" and cites line 4: its line is the
    // source shown (the date is the timestamp of line 4, as the scenario README says).
    assert_eq!(claim_status(&v, "testing.md#1", "214 tests"), ("sourced".into(), at(4)));
    assert_eq!(claim_status(&v, "testing.md#1", "2026-11-01"), ("sourced".into(), at(4)));
    assert_eq!(claim_status(&v, "testing.md#1", "Redis"), ("sourced".into(), at(1)));
    assert_eq!(claim_status(&v, "testing.md#1", "npm test"), ("carried".into(), String::new()));
    assert_eq!(claim_status(&v, "testing.md#1", "late Oct 2026"), ("unsourced".into(), String::new()));
    // "in-memory fake" is prose, not a checkable fact: no claim, so nothing to flag.
    let claims = v["files"][0]["hunks"][0]["claims"].as_array().unwrap();
    let texts: Vec<&str> = claims.iter().map(|c| c["text"].as_str().unwrap()).collect();
    assert_eq!(texts, ["pnpm test", "late Oct 2026", "npm test", "Redis", "2026-11-01", "214 tests"]);
    for row in flag_rows(&v) {
        for gone in ["pnpm test", "in-memory", "214 tests", "2026-11-01"] {
            assert!(!row.3.contains(gone), "unexpected flag {row:?}");
        }
    }
}

#[test]
fn text_output_says_the_same() {
    let (_g, dream, _memory) = pnpm();
    let r = run(dream.parent().unwrap(), &["check", dream.to_str().unwrap()]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains("1 changed file, 1 hunk, 0 errors, 2 warnings"), "{}", r.stdout);
    assert!(r.stdout.contains("warning[inferred-date]: «late Oct 2026»"), "{}", r.stdout);
    assert!(r.stdout.contains("warning[citation-unsupported]: CHANGES.md #1 cites"), "{}", r.stdout);
    assert_eq!(r.stdout.matches("warning[").count(), 2, "{}", r.stdout);
}
