//! A value moved to another subject: the note writes a value the cited lines state, beside
//! words the cited lines bind to another value of the same sort (`12 GB` for the backup
//! archive, where 12 GB is the database and the archive is 3 GB). Such a line is
//! `contradicted`; a line that keeps each value with its subject is not, nor one whose value
//! shares its clause with the other value in the source.

use crate::common::{check_json, dream_fixture, flag_rows, write};

const SESSION: &str = "5e55a001-2222-4333-8444-555566667777";

fn log() -> String {
    let lines = [
        r#"{"timestamp":"2026-03-02T09:00:00Z","role":"user","content":"how big are the staging things?"}"#,
        r#"{"timestamp":"2026-03-02T09:00:05Z","role":"assistant","content":"The staging database holds 12 GB of rows. The nightly backup archive is 3 GB once compressed."}"#,
        r#"{"timestamp":"2026-03-02T09:01:00Z","role":"assistant","content":"The billing API runs on Node 20; the report worker still runs on Node 18."}"#,
        r#"{"timestamp":"2026-03-02T09:02:00Z","role":"assistant","content":"ビルドは4分かかる。結合テストは12分かかる。"}"#,
        r#"{"timestamp":"2026-03-02T09:03:00Z","role":"assistant","content":"The archive is 3 GB, a quarter of the 12 GB database."}"#,
        r#"{"timestamp":"2026-03-02T09:04:00Z","role":"assistant","content":"All 1,284 tests passed in about 3 minutes with `pytest -n 8`; the serial run took 11 minutes last week."}"#,
        r#"{"timestamp":"2026-03-02T09:05:00Z","role":"user","content":"the billing API listens on port 4000 and the docs site on port 4001"}"#,
        r#"{"timestamp":"2026-03-02T09:06:00Z","role":"user","content":"数据库备份是 12 GB，日志归档只有 3 GB。"}"#,
    ];
    lines.join("\n") + "\n"
}

fn check(note: &str, line: u32) -> Vec<crate::common::FlagRow> {
    let changes = format!("- sizes.md: staging facts ({SESSION}.jsonl:{line})\n");
    let (g, dream, memory) = dream_fixture(
        &[("MEMORY.md", "- [Sizes](sizes.md)\n")],
        &[("MEMORY.md", "- [Sizes](sizes.md)\n"), ("sizes.md", note)],
        &changes,
    );
    write(&memory.parent().unwrap().join(format!("{SESSION}.jsonl")), &log());
    let (_, v) = check_json(&dream, &["--memory", memory.to_str().unwrap(), "--tz", "UTC"]);
    drop(g);
    flag_rows(&v)
}

fn contradicted(rows: &[crate::common::FlagRow]) -> bool {
    rows.iter().any(|r| r.0 == "sizes.md#1" && r.1 == "contradicted")
}

#[test]
fn a_size_moved_to_another_subject_is_contradicted() {
    let rows = check("The nightly backup archive is 12 GB once compressed.\n", 2);
    assert!(contradicted(&rows), "{rows:#?}");
    let rows = check("The nightly backup archive is 3 GB once compressed.\n", 2);
    assert!(rows.is_empty(), "{rows:#?}");
}

#[test]
fn a_version_moved_to_another_subject_is_contradicted() {
    let rows = check("The report worker runs on Node 20.\n", 3);
    assert!(contradicted(&rows), "{rows:#?}");
    let rows = check("The report worker runs on Node 18.\n", 3);
    assert!(rows.is_empty(), "{rows:#?}");
}

#[test]
fn a_duration_moved_to_another_subject_is_contradicted_in_japanese() {
    let rows = check("結合テストは4分かかる。\n", 4);
    assert!(contradicted(&rows), "{rows:#?}");
    let rows = check("結合テストは12分かかる。\n", 4);
    assert!(rows.is_empty(), "{rows:#?}");
}

#[test]
fn a_clause_that_states_the_value_beside_the_other_is_no_verdict() {
    // The cited clause holds both sizes: it states the note's, whatever else it says.
    let rows = check("The archive is a quarter of the 12 GB database.\n", 5);
    assert!(rows.is_empty(), "{rows:#?}");
    let rows = check("The 12 GB database is four times the archive.\n", 5);
    assert!(rows.is_empty(), "{rows:#?}");
}

#[test]
fn a_value_beside_another_sourced_value_is_bound_by_it() {
    // The note puts 11 minutes beside the 1,284 tests; the cited clause that holds the tests
    // gives them 3 minutes (11 is the serial run's).
    let rows = check("Run `pytest -n 8` before a push: the 1,284 tests take about 11 minutes in parallel.\n", 6);
    assert!(contradicted(&rows), "{rows:#?}");
    let rows = check("Run `pytest -n 8` before a push: the 1,284 tests take about 3 minutes in parallel.\n", 6);
    assert!(rows.is_empty(), "{rows:#?}");
}

#[test]
fn two_values_of_one_sentence_swapped_between_its_parts_are_contradicted() {
    // One cited sentence gives each subject its own value in its own part: the parts bind
    // them, not the sentence that holds both.
    let rows = check("The billing API listens on port 4001, the docs site on port 4000.\n", 7);
    assert!(contradicted(&rows), "{rows:#?}");
    let rows = check("The billing API listens on port 4000; the docs site on port 4001.\n", 7);
    assert!(rows.is_empty(), "{rows:#?}");
    // (In Chinese the claim binding already holds 12 GB to the backup: flagged either way.)
    let rows = check("日志归档只有 12 GB。\n", 8);
    assert!(!rows.is_empty(), "{rows:#?}");
    let rows = check("日志归档只有 3 GB。\n", 8);
    assert!(rows.is_empty(), "{rows:#?}");
}

/// Two things of one sentence swapped: names (`Dana`/`Omar`, `Svelte`/`React`), a product's
/// versions in parts of two words (`prod runs Postgres 15`), a move's target against the
/// clause a reason was given in (`moved sessions to ETS because Redis…`). Each is
/// `contradicted`; the faithful restatement, and a name beside words another name of the
/// source shares in another slot (`tests run against Postgres` where tests run *on* GitHub
/// Actions), are not.
#[test]
fn names_and_versions_swapped_between_the_parts_of_a_sentence_are_contradicted() {
    use crate::common::one_session_kinds;
    let cases = [
        (
            "Dana owns the billing service and Omar owns the search service, ping them for reviews",
            "- Omar owns the billing service and Dana owns the search service.",
            "- Billing service owner: Dana; search service owner: Omar.",
        ),
        (
            "the customer frontend is Svelte, the admin panel is React",
            "- The customer frontend is React, the admin panel is Svelte.",
            "- Customer frontend uses Svelte; admin panel uses React.",
        ),
        (
            "prod is on Postgres 16, staging is still on Postgres 15",
            "- Prod runs Postgres 15, staging runs Postgres 16.",
            "- Postgres versions: prod 16, staging 15.",
        ),
        (
            "we moved sessions to ETS because Redis wasn't worth the ops cost",
            "- Sessions moved to Redis.",
            "- Sessions moved to ETS.",
        ),
        (
            "the API runs on port 4000 and the docs site on port 4001",
            "- The API runs on port 4001 and the docs site on port 4000.",
            "- Ports: API 4000, docs site 4001.",
        ),
    ];
    for (said, wrong, faithful) in cases {
        let k = one_session_kinds(&[("user", said)], wrong, "1");
        assert!(k.iter().any(|k| k == "contradicted"), "{wrong} ← {said}: {k:?}");
        let k = one_session_kinds(&[("user", said)], faithful, "1");
        assert!(k.is_empty(), "{faithful} ← {said}: {k:?}");
    }
    let said = "tests run on GitHub Actions. We use Postgres in the tests, never SQLite.";
    let k = one_session_kinds(&[("user", said)], "- Tests run against Postgres on GitHub Actions.", "1");
    assert!(k.is_empty(), "{k:?}");
    let k = one_session_kinds(&[("user", said)], "- Tests run against Postgres.", "1");
    assert!(k.is_empty(), "{k:?}");
}

/// A state read off the wrong row: `PR #482 is merged` where `gh pr list` shows #482 OPEN
/// (and #481 MERGED) is `contradicted`; the rows read as they are, and a note naming two
/// things in one clause, are not.
#[test]
fn a_state_read_off_another_row_is_contradicted() {
    use crate::common::one_session_kinds;
    let rows = "#482  feat: CSV export for ledgers   feature/ledger-export  OPEN\n\
                #481  fix: retry webhook on 502     fix/webhook-retry      MERGED\n\
                #479  chore: bump vitest            chore/vitest           CLOSED";
    let k = one_session_kinds(&[("user", rows)], "- PR #482 (CSV export) is merged.", "1");
    assert!(k.iter().any(|k| k == "contradicted"), "{k:?}");
    let k = one_session_kinds(
        &[("user", rows)],
        "- PR #482 (CSV export) is still open; #481 (webhook retry) is merged.",
        "1",
    );
    assert!(k.is_empty(), "{k:?}");
}

/// The same value written twice in the note (`above 87% (87% after the upgrade)`) is one
/// claim: its second mention does not count for the clause that states it.
#[test]
fn a_value_written_twice_is_rebound_all_the_same() {
    let said = "Coverage has to stay above 85%. Now the suite reports TOTAL 18211 2367 87%";
    let k = crate::common::one_session_kinds(
        &[("user", said)],
        "- Coverage must stay above 87% (87% after the upgrade).",
        "1",
    );
    assert!(k.iter().any(|k| k == "contradicted"), "{k:?}");
    let k = crate::common::one_session_kinds(
        &[("user", said)],
        "- Coverage must stay above 85% (87% after the upgrade).",
        "1",
    );
    assert!(k.is_empty(), "{k:?}");
}
