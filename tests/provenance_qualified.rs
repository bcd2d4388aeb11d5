//! What a value is given in is part of it: an amount in another currency (`€20` where the
//! user said `$20`) and a time of day in another zone (`11:00 CET` where the session says
//! `11:00 UTC`) are `contradicted`; the same currency or zone written another way (`USD`
//! for `$`, `PDT` for `PT`), or a side that names none, is not.

use crate::common::one_session_kinds;

fn contradicted(said: &str, note: &str) -> bool {
    one_session_kinds(&[("user", said)], note, "1").iter().any(|k| k == "contradicted")
}

#[test]
fn an_amount_in_another_currency_is_contradicted() {
    let wrong = [
        ("the hosted plan costs $20 per seat per month", "- Hosted plan: €20 per seat per month."),
        ("the support contract is 1500 EUR a year", "- Support contract: $1500 a year."),
        ("ホスティングは月額20ドルです", "- ホスティングは月額20ユーロ。"),
        ("服务器每月 300 元", "- 服务器每月 300 美元。"),
    ];
    for (said, note) in wrong {
        assert!(contradicted(said, note), "{note} ← {said}");
    }
    let same = [
        ("the hosted plan costs $20 per seat per month", "- Hosted plan: USD 20 per seat per month."),
        ("the hosted plan costs $20 per seat per month", "- Hosted plan: 20 per seat per month."),
        ("the support contract is 1500 EUR a year", "- Support contract: €1500 a year."),
        ("ホスティングは月額20ドルです", "- ホスティングは月額$20。"),
    ];
    for (said, note) in same {
        let k = one_session_kinds(&[("user", said)], note, "1");
        assert!(k.is_empty(), "{note} ← {said}: {k:?}");
    }
}

#[test]
fn a_time_of_day_in_another_zone_is_contradicted() {
    let wrong = [
        ("the nightly backup job runs at 11:00 UTC", "- Nightly backup: 11:00 CET."),
        ("the deploy window opens at 3pm PT on weekdays", "- Deploy window opens at 3pm ET on weekdays."),
        ("standup is at 9:30am Berlin time", "- Standup is at 9:30am London time."),
    ];
    for (said, note) in wrong {
        assert!(contradicted(said, note), "{note} ← {said}");
    }
    let same = [
        ("the nightly backup job runs at 11:00 UTC", "- Nightly backup: 11:00 GMT."),
        ("the deploy window opens at 3pm PT on weekdays", "- Deploy window opens at 3pm PDT on weekdays."),
        ("standup is at 9:30am Berlin time", "- Standup is at 9:30am CET."),
        ("standup is at 9:30am Berlin time", "- Standup is at 9:30am."),
    ];
    for (said, note) in same {
        let k = one_session_kinds(&[("user", said)], note, "1");
        assert!(k.is_empty(), "{note} ← {said}: {k:?}");
    }
}

/// The same amount in another unit of its measure is the same value: `0.5 s` for `500 ms`,
/// `1.5 hours` for `90 minutes`, `2048 MB` for `2 GB` — no flag; `500 s` for `500 ms` is
/// still unsourced.
#[test]
fn an_amount_converted_to_another_unit_is_stated_and_a_changed_unit_is_not() {
    let same = [
        (
            "the health check timeout is 500 ms; anything slower and k8s restarts the pod",
            "- Health check timeout is 0.5 s.",
        ),
        ("the full e2e run takes 90 minutes on CI", "- The full e2e run takes 1.5 hours on CI."),
        ("the model file is 2 GB, keep it out of git", "- The model file is 2048 MB; keep it out of git."),
    ];
    for (said, note) in same {
        let k = one_session_kinds(&[("user", said)], note, "1");
        assert!(k.is_empty(), "{note} ← {said}: {k:?}");
    }
    let k = one_session_kinds(&[("user", same[0].0)], "- Health check timeout is 500 s.", "1");
    assert!(!k.is_empty(), "500 s for 500 ms");
}

/// `keep it off the CI runners` says what `don't run it on the CI runners` says.
#[test]
fn what_is_kept_off_is_denied() {
    let said = "heads up, the vision model download is 850 MB so don't run it on the CI runners";
    let k =
        one_session_kinds(&[("user", said)], "- The vision model download is 850 MB; keep it off the CI runners.", "1");
    assert!(k.is_empty(), "{k:?}");
    let said = "the new feature flags are enabled on staging only for now, keep them off in production";
    let k = one_session_kinds(&[("user", said)], "- New feature flags: on in staging, off in production for now.", "1");
    assert!(k.is_empty(), "{k:?}");
}

/// A version requirement's bound is part of it: `exactly 18.2.0` for `^18.2.0`, `Node 20 or
/// older` for `>=20` are contradicted; `^18.2.0` and `20 or newer` restated are not.
#[test]
fn a_version_requirement_turned_the_other_way_is_contradicted() {
    let said = "the web app uses React ^18.2.0 and needs Node >=20";
    for wrong in ["- React is pinned to exactly 18.2.0.", "- Node 20 or older is fine."] {
        assert!(contradicted(said, wrong), "{wrong}");
    }
    for same in ["- React ^18.2.0 (any later 18.x).", "- Node 20 or newer is required."] {
        let k = one_session_kinds(&[("user", said)], same, "1");
        assert!(k.is_empty(), "{same}: {k:?}");
    }
}

/// A setting written with the value the cited file gives another key (`DEBUG = True` where
/// `settings/prod.py` says `DEBUG = False`) is contradicted; the setting as read is not.
#[test]
fn a_setting_given_another_keys_value_is_contradicted() {
    let read = "     1→from .base import *\n     2→\n     3→DEBUG = False\n     4→SECURE_SSL_REDIRECT = True";
    let wrong = "- Prod settings have DEBUG = True and SECURE_SSL_REDIRECT = True.";
    let k = one_session_kinds(&[("user", read)], wrong, "1");
    assert!(k.iter().any(|k| k == "contradicted"), "{k:?}");
    let same = "- Prod settings have DEBUG = False and SECURE_SSL_REDIRECT = True.";
    let k = one_session_kinds(&[("user", read)], same, "1");
    assert!(k.is_empty(), "{k:?}");
    let zh = "只有设置了 AUTO_MIGRATE=1 才会在启动时自动迁移";
    let k = one_session_kinds(&[("user", zh)], "- 启动时自动迁移需设置 AUTO_MIGRATE=1。", "1");
    assert!(k.is_empty(), "{k:?}");
}

/// Tool output written as a careful summary: a compound duration converted (`~192 s (3m
/// 12s)` for `BUILD SUCCESSFUL in 3m 12s`), a large figure given its noun (`182,340 rows`
/// for `SELECT 182340`), a `file:line` of a `file:line:col` — no flag; a changed total
/// still is one.
#[test]
fn tool_output_summarised_with_conversions_and_places_is_faithful() {
    let build = "BUILD SUCCESSFUL in 3m 12s\n214 actionable tasks: 214 executed";
    let k = one_session_kinds(&[("user", build)], "- Clean release build takes ~192 s (3m 12s), 214 tasks.", "1");
    assert!(k.is_empty(), "{k:?}");
    let k = one_session_kinds(&[("user", build)], "- Clean release build takes ~312 s, 214 tasks.", "1");
    assert!(!k.is_empty(), "312 s is not 3m 12s");
    let dbt = "OK created sql table model analytics.fct_orders [SELECT 182340 in 4.21s]";
    let k = one_session_kinds(&[("user", dbt)], "- fct_orders was built with 182,340 rows.", "1");
    assert!(k.is_empty(), "{k:?}");
    let pw = "1) [webkit] › e2e/checkout.spec.ts:48:5 › checkout › applies coupon before tax";
    let k =
        one_session_kinds(&[("user", pw)], "- The coupon test (e2e/checkout.spec.ts:48) fails on WebKit only.", "1");
    assert!(k.is_empty(), "{k:?}");
}
