//! Times of day are claims: a cron moved from 02:15 to 02:45, a standup from 9:30am to
//! 9:30pm, a nightly job from 23時 to 21時 is unsourced; the same time written another way
//! (`2:15` for `02:15`, `9:30` for `9:30am`) is sourced.

use crate::common::{check_json, dream_fixture, flag_rows, write};

const SESSION: &str = "71c0c001-2222-4333-8444-555566667777";

fn kinds(said: &str, note: &str) -> Vec<String> {
    let changes = format!("- ops.md: schedules ({SESSION}.jsonl:1)\n");
    let (g, dream, memory) = dream_fixture(
        &[("MEMORY.md", "- [Ops](ops.md)\n")],
        &[("MEMORY.md", "- [Ops](ops.md)\n"), ("ops.md", &format!("{note}\n"))],
        &changes,
    );
    let line = format!(
        "{{\"timestamp\":\"2026-06-01T09:00:00Z\",\"role\":\"user\",\"content\":{}}}\n",
        serde_json::Value::from(said)
    );
    write(&memory.parent().unwrap().join(format!("{SESSION}.jsonl")), &line);
    let (_, v) = check_json(&dream, &["--memory", memory.to_str().unwrap(), "--tz", "UTC"]);
    drop(g);
    flag_rows(&v).into_iter().filter(|r| r.0 == "ops.md#1").map(|r| r.1).collect()
}

#[test]
fn a_time_of_day_changed_is_unsourced_and_one_written_another_way_is_not() {
    let changed = [
        ("the cleanup cron runs at 02:15", "- The cleanup cron runs at 02:45."),
        ("standup is at 9:30am Berlin time", "- Standup is at 9:30pm Berlin time."),
        ("バックアップは毎晩23時に実行します", "- バックアップは毎晩21時に実行。"),
    ];
    for (said, note) in changed {
        assert!(!kinds(said, note).is_empty(), "{note} ← {said}");
    }
    let same = [
        ("the cleanup cron runs at 02:15", "- The cleanup cron runs at 2:15."),
        ("standup is at 9:30am Berlin time", "- Standup is at 9:30 Berlin time."),
        ("バックアップは毎晩23時に実行します", "- バックアップは毎晩23時に実行。"),
    ];
    for (said, note) in same {
        let k = kinds(said, note);
        assert!(k.is_empty(), "{note} ← {said}: {k:?}");
    }
}
