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
