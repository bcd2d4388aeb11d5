//! The user's later word: a value the user gave and then changed in a later turn of the same
//! session (`on second thought, 14 days is enough`, やっぱり) is overruled
//! where a note keeps the first one, even when the correction does not repeat what the
//! value is about. The note that keeps the later value is clean. (Korean counters with a
//! particle glued on, `14일로`, are not read as amounts yet: not tested here.)

use crate::common::{check_json, dream_fixture, flag_rows, write};

const SESSION: &str = "c4a9e001-2222-4333-8444-555566667777";

fn log(first: &str, second: &str) -> String {
    [(0, "user", first), (1, "assistant", "Done, I updated the config."), (2, "user", second)]
        .iter()
        .map(|(i, role, text)| {
            format!(
                "{{\"timestamp\":\"2026-06-01T09:0{i}:00Z\",\"role\":\"{role}\",\"content\":{}}}\n",
                serde_json::Value::from(*text)
            )
        })
        .collect()
}

fn kinds(first: &str, second: &str, note: &str) -> Vec<String> {
    let changes = format!("- logs.md: log settings ({SESSION}.jsonl:1-3)\n");
    let (g, dream, memory) = dream_fixture(
        &[("MEMORY.md", "- [Logs](logs.md)\n")],
        &[("MEMORY.md", "- [Logs](logs.md)\n"), ("logs.md", &format!("{note}\n"))],
        &changes,
    );
    write(&memory.parent().unwrap().join(format!("{SESSION}.jsonl")), &log(first, second));
    let (_, v) = check_json(&dream, &["--memory", memory.to_str().unwrap(), "--tz", "UTC"]);
    drop(g);
    flag_rows(&v).into_iter().filter(|r| r.0 == "logs.md#1").map(|r| r.1).collect()
}

#[test]
fn a_value_the_user_changed_later_is_overruled_in_each_language() {
    let cases = [
        (
            "set log retention to 30 days",
            "on second thought, 14 days is enough",
            "- Log retention is 30 days.",
            "- Log retention is 14 days.",
        ),
        (
            "ログの保存期間は30日にしてください",
            "やっぱり、保存期間は14日にしてください",
            "- ログの保存期間は30日。",
            "- ログの保存期間は14日。",
        ),
        // A correction after an interjection that names the old number bare and gives another.
        (
            "raise the CPU alert threshold to 90%",
            "oh wait, 90 is too high. make it 85 percent.",
            "- CPU alert threshold: 90%.",
            "- CPU alert threshold: 85%.",
        ),
        (
            "api-gateway CPU 알림 임계값 90%로 올려줘",
            "아 잠깐, 90은 너무 높다. 85로 하자.",
            "- api-gateway CPU 알림 임계값 90%.",
            "- api-gateway CPU 알림 임계값은 90이 아니라 85로.",
        ),
    ];
    for (first, second, kept_first, kept_later) in cases {
        let k = kinds(first, second, kept_first);
        assert!(k.contains(&"citation-overruled".to_string()), "{kept_first}: {k:?}");
        let k = kinds(first, second, kept_later);
        assert!(k.is_empty(), "{kept_later}: {k:?}");
    }
}

#[test]
fn a_later_turn_that_agrees_or_speaks_of_another_unit_overrules_nothing() {
    let k =
        kinds("set log retention to 30 days", "actually also rotate the files daily", "- Log retention is 30 days.");
    assert!(k.is_empty(), "{k:?}");
    let k = kinds(
        "set log retention to 30 days",
        "no wait, keep 30 days but cap it at 2 GB",
        "- Log retention is 30 days.",
    );
    assert!(k.is_empty(), "{k:?}");
}
