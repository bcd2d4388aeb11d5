//! Faithful notes in other words are not contradicted, and the same sentences turned
//! around are: a denial bears on its own clause (`takes 20 minutes | so don't run it on
//! every push`), `forbidden` and `not allowed` deny as `don't` does, `not optional` says
//! `required`, what `instead of` / `rather than` sets against is denied beside the rest, and
//! what a move leaves (`switched from X to Y`) is denied. Built from the shapes of real
//! user turns.

use crate::common::{check_json, dream_fixture, flag_rows, write};

const SESSION: &str = "9a9a0001-2222-4333-8444-555566667777";

const SAID: &[&str] = &[
    "the integration suite takes 20 minutes so don't run it on every push",
    "we moved sessions to ETS because Redis wasn't worth the ops cost",
    "don't deploy on Fridays",
    "running the linter before commit is not optional",
    "don't use SQLite for tests, use Postgres",
    "never run migrations on app boot, run them from the release task",
    "stop using the mock server for the e2e tests, hit the real sandbox API",
    "we switched CI from GitHub Actions to Buildkite last week",
    "金曜日にはデプロイしないでください",
];

fn log() -> String {
    SAID.iter()
        .enumerate()
        .map(|(i, s)| {
            format!(
                "{{\"timestamp\":\"2026-05-04T09:{i:02}:00Z\",\"role\":\"user\",\"content\":{}}}\n",
                serde_json::Value::from(*s)
            )
        })
        .collect()
}

fn kinds(note: &str, line: usize) -> Vec<String> {
    let changes = format!("- rules.md: team rules ({SESSION}.jsonl:{line})\n");
    let (g, dream, memory) = dream_fixture(
        &[("MEMORY.md", "- [Rules](rules.md)\n")],
        &[("MEMORY.md", "- [Rules](rules.md)\n"), ("rules.md", &format!("{note}\n"))],
        &changes,
    );
    write(&memory.parent().unwrap().join(format!("{SESSION}.jsonl")), &log());
    let (_, v) = check_json(&dream, &["--memory", memory.to_str().unwrap(), "--tz", "UTC"]);
    drop(g);
    flag_rows(&v).into_iter().filter(|r| r.0 == "rules.md#1").map(|r| r.1).collect()
}

#[test]
fn faithful_notes_in_other_words_are_not_contradicted() {
    let faithful = [
        (1, "- The integration suite takes 20 minutes."),
        (2, "- Sessions moved to ETS."),
        (3, "- Deploys are not allowed on Fridays."),
        (3, "- Friday deploys are forbidden."),
        (4, "- Running the linter before commit is required."),
        (5, "- Tests use Postgres rather than SQLite."),
        (6, "- Migrations run from the release task, not on app boot."),
        (7, "- e2e tests hit the real sandbox API, not the mock server."),
        (8, "- GitHub Actions was retired; CI runs on Buildkite."),
        (9, "- 金曜日のデプロイは禁止。"),
    ];
    for (line, note) in faithful {
        let k = kinds(note, line);
        assert!(!k.iter().any(|k| k == "contradicted"), "{note} ← {}: {k:?}", SAID[line - 1]);
    }
}

#[test]
fn the_same_notes_turned_around_are_contradicted() {
    let turned = [
        (3, "- Deploys are allowed on Fridays."),
        (4, "- Running the linter before commit is optional."),
        (5, "- Tests use SQLite rather than Postgres."),
        (6, "- Migrations run on app boot."),
        (7, "- Use the mock server for the e2e tests."),
        (8, "- CI runs on GitHub Actions."),
        (9, "- 金曜日にデプロイする。"),
    ];
    for (line, note) in turned {
        let k = kinds(note, line);
        assert!(k.iter().any(|k| k == "contradicted"), "{note} ← {}: {k:?}", SAID[line - 1]);
    }
}

/// Quantity, frequency and bounds turned around: `at most` for `at least`, `all` for `most`,
/// `always` for `may`, `ends` for `starts`, 慢 for 快. Each is `contradicted`; the faithful
/// restatement (`a minimum of`, `most`, `optional`, `begins`, 快得多) is not.
#[test]
fn a_quantity_a_frequency_or_a_bound_turned_around_is_contradicted() {
    use crate::common::one_session_kinds;
    let cases = [
        (
            "PRs need at least two approvals before merge",
            "- PRs need at most two approvals before merge.",
            "- PRs need a minimum of two approvals before merging.",
        ),
        (
            "most API endpoints require a bearer token, the health and metrics ones don't",
            "- All API endpoints require a bearer token.",
            "- Most API endpoints need a bearer token; health and metrics are exempt.",
        ),
        (
            "you may squash commits before merging if the history is messy, it's up to you",
            "- Always squash commits before merging.",
            "- Squashing commits before merge is optional (ok when history is messy).",
        ),
        (
            "the deploy freeze starts on December 20",
            "- The deploy freeze ends on December 20.",
            "- Deploy freeze begins December 20.",
        ),
        ("新的构建流程比旧的快很多", "- 新的构建流程比旧的慢很多。", "- 新构建流程比旧的快得多。"),
    ];
    for (said, wrong, faithful) in cases {
        let k = one_session_kinds(&[("user", said)], wrong, "1");
        assert!(k.iter().any(|k| k == "contradicted"), "{wrong} ← {said}: {k:?}");
        let k = one_session_kinds(&[("user", said)], faithful, "1");
        assert!(k.is_empty(), "{faithful} ← {said}: {k:?}");
    }
}

/// Faithful rewrites of a negated or limiting shape are no contradiction: a bound (`no
/// longer than 5 minutes` = `5 minutes max`), `neither … nor` (one denial, not two), `can't
/// do anything but X` (only X), a condition turned with its verb (`fail unless X` = `only
/// pass when X`), an exception turned into `the only one not` — and the bound turned the
/// other way (`5 minutes or longer`) still is one.
#[test]
fn rewrites_of_a_limiting_or_excepting_shape_are_no_contradiction() {
    use crate::common::one_session_kinds;
    let same = [
        (
            "the price cache TTL must be no longer than 5 minutes, prices change during the day",
            "- Price cache TTL: 5 minutes max (prices change intraday).",
        ),
        (
            "neither staging nor prod should have the debug toolbar, it leaks SQL",
            "- Debug toolbar is off in both staging and prod (it leaks SQL).",
        ),
        (
            "the deploy bot can't do anything but restart pods, it has no write access to secrets",
            "- Deploy bot can only restart pods; no write access to secrets.",
        ),
        ("the integration tests fail unless REDIS_URL is set", "- Integration tests only pass when REDIS_URL is set."),
        (
            "every service ships logs to Loki except the payment gateway, which goes to Splunk for PCI",
            "- The payment gateway is the only service not logging to Loki (it uses Splunk for PCI).",
        ),
    ];
    for (said, note) in same {
        let k = one_session_kinds(&[("user", said)], note, "1");
        assert!(k.is_empty(), "{note} ← {said}: {k:?}");
    }
    let k = one_session_kinds(
        &[("user", same[0].0)],
        "- Price cache TTL should be 5 minutes or longer (prices change intraday).",
        "1",
    );
    assert!(k.iter().any(|k| k == "contradicted"), "{k:?}");
}

/// A value rounded from a more precise one (`about 41 seconds` for `41.27s`), a short commit
/// id of a full one, and a note that a step of an approved plan is not done yet are faithful.
#[test]
fn a_rounded_value_a_short_commit_id_and_a_step_not_done_yet_are_faithful() {
    use crate::common::one_session_kinds;
    let output = "=========== 3 failed, 212 passed, 4 skipped in 41.27s ===========";
    for note in ["- The full pytest run takes about 41 seconds.", "- The full pytest run takes 41.3 seconds."] {
        let k = one_session_kinds(&[("user", output)], note, "1");
        assert!(k.is_empty(), "{note}: {k:?}");
    }
    let k = one_session_kinds(&[("user", output)], "- The full pytest run takes 44 seconds.", "1");
    assert!(!k.is_empty(), "44 s for 41.27 s");
    let log = "0b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e6f7a8b9c fix: round currency before summing";
    let k = one_session_kinds(&[("user", log)], "- Currency rounding fix: commit 0b1c2d3 (round before summing).", "1");
    assert!(k.is_empty(), "{k:?}");
    let plan = "Plan: 1. Add index on jobs(status). 2. Drop column legacy_status.";
    let k = one_session_kinds(
        &[("assistant", plan)],
        "- The status index is planned; legacy_status is not dropped yet.",
        "1",
    );
    assert!(!k.iter().any(|k| k == "contradicted"), "{k:?}");
}
