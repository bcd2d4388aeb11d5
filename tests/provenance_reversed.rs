//! A relation turned around: cause and effect swapped (`the queue backlog causes the OOM
//! kills` where the OOM kills cause the backlog; `the migration timed out because the deploy
//! failed`), two steps or versions put in the other order (`db:migrate の前に db:seed`,
//! `upgraded to v2.4.0 after v2.3.1 broke`) are `contradicted`; the relation restated the
//! same way round is not.

use crate::common::one_session_kinds;

#[test]
fn a_cause_or_an_order_turned_around_is_contradicted_and_restated_is_not() {
    let cases = [
        (
            "the worker OOM kills are what's causing the queue backlog, fix memory first",
            "- The queue backlog causes the worker OOM kills; fix memory first.",
            "- Worker OOM kills cause the queue backlog; fix memory first.",
        ),
        (
            "The deploy failed because the migration 20261119_add_ledger_index hit the statement timeout.",
            "- Migration 20261119_add_ledger_index hit the statement timeout because the deploy failed.",
            "- The deploy failed because migration 20261119_add_ledger_index hit the statement timeout.",
        ),
        (
            "we rolled prod back to v2.3.1 after v2.4.0 broke checkout",
            "- Prod was upgraded to v2.4.0 after v2.3.1 broke checkout.",
            "- Prod was rolled back to v2.3.1 after v2.4.0 broke checkout.",
        ),
        (
            "db:seed の前に必ず db:migrate を実行してください",
            "- db:migrate の前に db:seed を実行する。",
            "- db:seed の前に db:migrate を実行する。",
        ),
        (
            "ワーカーのOOMが原因でキューが詰まっています。まずメモリを直してください",
            "- キューの詰まりが原因でワーカーがOOMになる。",
            "- ワーカーのOOMが原因でキューが詰まる。",
        ),
    ];
    for (said, wrong, faithful) in cases {
        let k = one_session_kinds(&[("user", said)], wrong, "1");
        assert!(k.iter().any(|k| k == "contradicted"), "{wrong} ← {said}: {k:?}");
        let k = one_session_kinds(&[("user", said)], faithful, "1");
        assert!(k.is_empty(), "{faithful} ← {said}: {k:?}");
    }
}
