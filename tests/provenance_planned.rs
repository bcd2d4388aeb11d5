//! Intent written as fact: a note that records as done what the cited lines only plan
//! (`the database was migrated to Postgres 17` where the user said `we plan to migrate to
//! Postgres 17 next quarter`) is `contradicted`, in every language the product reads; the
//! note that keeps it a plan, and one whose plan the session then carried out, are not.

use crate::common::one_session_kinds;

fn contradicted(turns: &[(&str, &str)], note: &str, cite: &str) -> bool {
    one_session_kinds(turns, note, cite).iter().any(|k| k == "contradicted")
}

#[test]
fn a_plan_recorded_as_done_is_contradicted_in_each_language() {
    let cases = [
        (
            "we plan to migrate to Postgres 17 next quarter, nothing started yet",
            "- The database was migrated to Postgres 17.",
            "- Migration to Postgres 17 is planned for next quarter (not started).",
        ),
        (
            "the team wants to upgrade the staging cluster to Kubernetes 1.31 next sprint",
            "- The staging cluster was upgraded to Kubernetes 1.31.",
            "- Staging cluster upgrade to Kubernetes 1.31 is planned for next sprint.",
        ),
        (
            "Postgres 17 への移行は来期の予定です。まだ何もしていません",
            "- Postgres 17 への移行が完了しました。",
            "- Postgres 17 への移行は来期の予定。",
        ),
        (
            "다음 분기에 Postgres 17로 마이그레이션할 계획입니다",
            "- Postgres 17로 마이그레이션을 완료했다.",
            "- 다음 분기에 Postgres 17로 마이그레이션할 계획.",
        ),
        ("我们计划下季度迁移到 Postgres 17", "- 已经迁移到 Postgres 17。", "- 计划下季度迁移到 Postgres 17。"),
    ];
    for (said, wrong, faithful) in cases {
        assert!(contradicted(&[("user", said)], wrong, "1"), "{wrong} ← {said}");
        let k = one_session_kinds(&[("user", said)], faithful, "1");
        assert!(k.is_empty(), "{faithful} ← {said}: {k:?}");
    }
}

#[test]
fn a_plan_the_session_carried_out_or_the_next_step_of_the_assistant_is_no_plan() {
    let turns = [
        ("user", "we plan to migrate the fixtures to Postgres 17 next week"),
        ("assistant", "Done: the fixtures were migrated to Postgres 17 and the suite passes."),
    ];
    let k = one_session_kinds(&turns, "- The fixtures were migrated to Postgres 17.", "1-2");
    assert!(k.is_empty(), "{k:?}");
    let turns = [("assistant", "I'll migrate the fixtures to Postgres 17 now.")];
    let k = one_session_kinds(&turns, "- The fixtures were migrated to Postgres 17.", "1");
    assert!(!k.iter().any(|k| k == "contradicted"), "{k:?}");
}

/// An obligation said with a double negation (`しないといけない`, "has to be done") is a
/// to-do, not a denial: recording it as done is contradicted, keeping it a to-do is not.
#[test]
fn an_obligation_said_with_a_double_negation_is_a_to_do_not_a_denial() {
    let said = "4.2 のリリース前にアップロード鍵のキーストアをローテーションしないといけない。まだ手を付けてない";
    let k = one_session_kinds(&[("user", said)], "- 4.2 リリース前にキーストアのローテーションを完了した。", "1");
    assert!(k.iter().any(|k| k == "contradicted"), "{k:?}");
    let k =
        one_session_kinds(&[("user", said)], "- TODO: 4.2 リリース前にキーストアをローテーションする（未着手）。", "1");
    assert!(k.is_empty(), "{k:?}");
}

/// A question asserts nothing a note could turn around (`who reviews changes under
/// scripts/?` against `scripts/ has no dedicated CODEOWNERS entry`).
#[test]
fn a_question_is_turned_around_by_nothing() {
    let turns = [
        ("user", "who reviews changes under scripts/?"),
        ("assistant", "# default\n*                @acme/platform\n\n/src/billing/     @acme/payments-core"),
    ];
    let k = one_session_kinds(
        &turns,
        "- scripts/ has no dedicated CODEOWNERS entry, so it falls back to @acme/platform.",
        "1-2",
    );
    assert!(k.is_empty(), "{k:?}");
}
