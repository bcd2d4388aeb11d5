//! A number given per another unit: `$120 per day` where the cited lines say `$120 per
//! hour`, `5 GB per day` where a tool printed `5 GB/month`, `1200円/日` for `1200円/時間`.
//! Every word and the number are the same, so only the rate tells them apart: such a line
//! is `contradicted`; the note that keeps the cited rate (written another way: `/hr` for
//! `per hour`) is not, nor one that gives no rate.

use crate::common::{check_json, dream_fixture, flag_rows, write};

const SESSION: &str = "a7e5a7e5-1111-4222-8333-444455556666";

fn log() -> String {
    let lines = [
        r#"{"timestamp":"2026-05-02T09:00:00Z","role":"user","content":"The contractor rate is $120 per hour, invoiced monthly."}"#,
        r#"{"timestamp":"2026-05-02T09:01:00Z","role":"assistant","content":"Checked the CDN plan: it includes 5 GB/month of egress and 500 requests per minute per key."}"#,
        r#"{"timestamp":"2026-05-02T09:02:00Z","role":"user","content":"翻訳の単価は1200円/時間です。"}"#,
        r#"{"timestamp":"2026-05-02T09:03:00Z","role":"user","content":"The plan costs $20/user/month."}"#,
    ];
    lines.join("\n") + "\n"
}

fn check(note: &str, line: u32) -> Vec<crate::common::FlagRow> {
    let changes = format!("- costs.md: costs ({SESSION}.jsonl:{line})\n");
    let (g, dream, memory) = dream_fixture(
        &[("MEMORY.md", "- [Costs](costs.md)\n")],
        &[("MEMORY.md", "- [Costs](costs.md)\n"), ("costs.md", note)],
        &changes,
    );
    write(&memory.parent().unwrap().join(format!("{SESSION}.jsonl")), &log());
    let (_, v) = check_json(&dream, &["--memory", memory.to_str().unwrap(), "--tz", "UTC"]);
    drop(g);
    flag_rows(&v)
}

fn contradicted(rows: &[crate::common::FlagRow]) -> bool {
    rows.iter().any(|r| r.0 == "costs.md#1" && r.1 == "contradicted")
}

#[test]
fn a_pay_given_per_another_unit_is_contradicted() {
    let rows = check("- Contractor rate: $120 per day, invoiced monthly.\n", 1);
    assert!(contradicted(&rows), "{rows:#?}");
    for same in ["- Contractor rate: $120/hr, invoiced monthly.\n", "- Contractor rate: $120 per hour.\n"] {
        let rows = check(same, 1);
        assert!(rows.is_empty(), "{same}: {rows:#?}");
    }
}

#[test]
fn a_quota_from_a_tool_given_per_another_unit_is_contradicted() {
    let rows = check("- The CDN plan includes 5 GB per day of egress.\n", 2);
    assert!(contradicted(&rows), "{rows:#?}");
    let rows = check("- API keys are limited to 500 requests per second.\n", 2);
    assert!(contradicted(&rows), "{rows:#?}");
    let rows = check("- The CDN plan includes 5 GB of egress per month; 500 requests a minute per key.\n", 2);
    assert!(!contradicted(&rows), "{rows:#?}");
}

#[test]
fn a_rate_turned_in_japanese() {
    let rows = check("- 翻訳の単価は1200円/日。\n", 3);
    assert!(contradicted(&rows), "{rows:#?}");
    let rows = check("- 翻訳の単価は1200円/時間。\n", 3);
    assert!(rows.is_empty(), "{rows:#?}");
}

#[test]
fn a_chain_of_units_is_given_per_its_first() {
    let rows = check("- The plan costs $20 per user per month.\n", 4);
    assert!(rows.is_empty(), "{rows:#?}");
    let rows = check("- The plan costs $20 per month.\n", 4);
    assert!(contradicted(&rows), "{rows:#?}");
}
