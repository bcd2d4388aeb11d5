//! What happened to a deed, and how sure anyone was: a note that records as done what the
//! session reports failed, stopped or not done, as applied a proposal the user refused in a
//! tool call, or as decided what the user only leaned toward, is flagged; the faithful note
//! is not. And a precise figure (`0.641`) is a claim of its own, label or not.

use crate::common::{one_session_kinds, record, session_kinds};

fn has(kinds: &[String], kind: &str) -> bool {
    kinds.iter().any(|k| k == kind)
}

#[test]
fn a_deed_the_session_reports_failed_or_stopped_is_contradicted_in_each_language() {
    let cases = [
        (
            "The deploy of api 2.3.1 to prod failed: the new pod is in ImagePullBackOff.",
            "- api 2.3.1 deployed to prod.",
            "- api 2.3.1 deploy to prod failed (ImagePullBackOff).",
        ),
        (
            "The backfill of the events table was interrupted at 2026-10-14.",
            "- Backfilled the events table for October.",
            "- Events table backfill for October: interrupted at 2026-10-14.",
        ),
        (
            "api v2.3.1 の本番デプロイは失敗しました。",
            "- api v2.3.1 の本番デプロイ完了。",
            "- api v2.3.1 の本番デプロイは失敗。",
        ),
        (
            "api v2.3.1 프로덕션 배포가 실패했습니다.",
            "- api v2.3.1 프로덕션 배포 완료.",
            "- api v2.3.1 프로덕션 배포 실패.",
        ),
        ("api v2.3.1 生产环境部署失败了。", "- api v2.3.1 生产环境部署已完成。", "- api v2.3.1 生产环境部署失败。"),
    ];
    for (said, wrong, faithful) in cases {
        let k = one_session_kinds(&[("assistant", said)], wrong, "1");
        assert!(has(&k, "contradicted"), "{wrong} ← {said}: {k:?}");
        let k = one_session_kinds(&[("assistant", said)], faithful, "1");
        assert!(k.is_empty(), "{faithful} ← {said}: {k:?}");
    }
    // A retry that succeeded: done.
    let turns = [
        ("assistant", "The deploy of api 2.3.1 to prod failed: the registry had no such tag."),
        ("assistant", "Pushed the tag and retried: deployed api 2.3.1 to prod, all pods ready."),
    ];
    let k = one_session_kinds(&turns, "- api 2.3.1 deployed to prod.", "1-2");
    assert!(k.is_empty(), "{k:?}");
    // The failure of another thing says nothing of this deed.
    let turns = [("assistant", "Merged the fix for the failing login test; CI is green.")];
    let k = one_session_kinds(&turns, "- Merged the fix for the failing login test.", "1");
    assert!(k.is_empty(), "{k:?}");
}

/// The assistant proposes `50m`, then makes the edit; the user rejects the tool call and
/// says no. The proposal was turned down, though its first wording had no tool call of its own.
fn rejected_edit_session() -> String {
    let edit = serde_json::json!([{"type": "tool_use", "id": "t1", "name": "Edit", "input": {
        "file_path": "/etc/nginx/nginx.conf",
        "old_string": "    client_max_body_size 10m;",
        "new_string": "    client_max_body_size 50m;"}}]);
    let refused = serde_json::json!([{"type": "tool_result", "tool_use_id": "t1", "is_error": true, "content":
        "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, \
         the new_string was NOT written to the file)."}]);
    [
        record(1, "user", "Uploads fail with 413. Check the nginx config.".into()),
        record(2, "assistant", "client_max_body_size is 10m. Raising it to 50m should fix the 413s.".into()),
        record(3, "assistant", edit),
        record(4, "user", refused),
        record(5, "user", "No, leave nginx.conf alone; uploads move to S3 presigned URLs.".into()),
    ]
    .concat()
}

#[test]
fn a_proposal_made_again_as_a_rejected_edit_is_overruled() {
    let log = rejected_edit_session();
    let k = session_kinds(&log, "- nginx client_max_body_size raised from 10m to 50m (fixes the 413s).", "1-5");
    assert!(has(&k, "citation-overruled"), "{k:?}");
    let k = session_kinds(&log, "- nginx client_max_body_size stays at 10m; uploads move to S3 presigned URLs.", "1-5");
    assert!(k.is_empty(), "{k:?}");
}

#[test]
fn a_leaning_recorded_as_a_decision_is_speculative_in_each_language() {
    let cases = [
        (
            "I'm leaning toward withdrawing the ICML paper and sending it to NeurIPS instead, but I want to talk \
             to Sarah first.",
            "- ICML paper: decided to withdraw and resubmit to NeurIPS.",
            "- ICML paper: leaning toward withdrawing and resubmitting to NeurIPS (after talking to Sarah).",
        ),
        (
            "ICML の論文は取り下げて NeurIPS に出し直すか検討中。まず Sarah と相談する。",
            "- ICML の論文は取り下げて NeurIPS に出し直すことに決定。",
            "- ICML の論文は取り下げて NeurIPS に出し直すか検討中（Sarah と相談後）。",
        ),
        (
            "김민준 후보 오퍼 발송은 레퍼런스 체크 통과하면 진행.",
            "- 김민준 후보 오퍼 발송 확정.",
            "- 김민준 후보 오퍼 발송은 레퍼런스 체크 통과 후.",
        ),
        (
            "我在考虑把论文转投 NeurIPS，还没定。",
            "- 已决定把论文转投 NeurIPS。",
            "- 在考虑把论文转投 NeurIPS（未定）。",
        ),
    ];
    for (said, wrong, faithful) in cases {
        let k = one_session_kinds(&[("user", said)], wrong, "1");
        // (`还没定`, "not decided yet", also denies the decision outright.)
        assert!(has(&k, "speculative-source") || has(&k, "contradicted"), "{wrong} ← {said}: {k:?}");
        let k = one_session_kinds(&[("user", said)], faithful, "1");
        assert!(k.is_empty(), "{faithful} ← {said}: {k:?}");
    }
    // Settled later in the session: decided.
    let turns = [
        ("user", "I'm leaning toward withdrawing the ICML paper and sending it to NeurIPS instead."),
        ("user", "Talked to Sarah: we withdraw the ICML paper and resubmit to NeurIPS."),
    ];
    let k = one_session_kinds(&turns, "- ICML paper: decided to withdraw and resubmit to NeurIPS.", "1-2");
    assert!(k.is_empty(), "{k:?}");
}

#[test]
fn a_decimal_figure_is_a_claim_of_its_own() {
    let said = "help-intents: NDCG@10 went from 0.612 to 0.6314 with the synonym; rustls 0.21.10 is in Cargo.lock.";
    let kinds = |note: &str| one_session_kinds(&[("assistant", said)], note, "1");
    assert!(has(&kinds("- Synonym raised help-intents NDCG@10 from 0.612 to 0.641."), "unsourced-claim"));
    assert!(has(&kinds("- Title boost raised to 3.5."), "unsourced-claim"));
    // Rounded, or a series of versions: stated.
    assert_eq!(kinds("- Synonym raised help-intents NDCG@10 from 0.612 to 0.631."), Vec::<String>::new());
    assert_eq!(kinds("- Upgrade rustls within 0.21 (Cargo.lock)."), Vec::<String>::new());
    // A total of the amounts a source lists.
    let listed = "Unmatched: 2026-10-08 transfer 3,400.00; 2026-10-19 refund 615.25; 2026-10-27 interest 25.25.";
    let k = one_session_kinds(&[("assistant", listed)], "- Three unmatched lines, total 4,040.50.", "1");
    assert!(k.is_empty(), "{k:?}");
    let k = one_session_kinds(&[("assistant", listed)], "- Three unmatched lines, total 4,140.50.", "1");
    assert!(has(&k, "unsourced-claim"), "{k:?}");
}

#[test]
fn an_option_the_user_passed_over_is_overruled() {
    let turns = [
        ("user", "the incremental model misses late mobile events; what lookback do we need?"),
        (
            "assistant",
            "p99 lag is 51 h, the max 163 h (~6.8 days). A 3-day lookback covers p99 with margin; a 7-day \
             lookback would cover even the max, but every merge would rescan a week of events.",
        ),
        ("user", "go with 3 days, the stragglers are test devices."),
    ];
    let k = one_session_kinds(&turns, "- fct_page_sessions lookback is 7 days (covers the max lag).", "1-3");
    assert!(has(&k, "citation-overruled"), "{k:?}");
    let k = one_session_kinds(&turns, "- fct_page_sessions lookback is 3 days (covers p99).", "1-3");
    assert!(k.is_empty(), "{k:?}");
    // One value offered, another asked for: no choice among options (the later value is
    // judged as any other).
    let turns = [("assistant", "The lookback is 1 day today."), ("user", "make the report window 3 days")];
    let k = one_session_kinds(&turns, "- fct_page_sessions lookback is 1 day.", "1-2");
    assert!(!has(&k, "citation-overruled"), "{k:?}");
}

#[test]
fn a_scope_widened_is_contradicted_in_each_language() {
    let cases = [
        (
            "Light theme: clean. Dark theme: 9 color-contrast failures on the sidebar links. File it as dark-theme-only.",
            "- Docs sidebar links fail color-contrast in both light and dark themes.",
            "- Docs sidebar links fail color-contrast in the dark theme only.",
        ),
        (
            "test_watch_fs keeps failing on the macOS runners, never on ubuntu. Skip test_watch_fs on the macOS runners only.",
            "- test_watch_fs is skipped on all CI runners.",
            "- test_watch_fs is skipped on the macOS CI runners only.",
        ),
        (
            "크래시는 안드로이드 14 삼성 기기에서만 발생합니다.",
            "- 크래시: 모든 안드로이드 14 기기에서 발생.",
            "- 크래시: 안드로이드 14 삼성 기기에서만 발생.",
        ),
        ("时间窗约束只对冷链站点生效。", "- 时间窗约束对所有站点生效。", "- 时间窗约束只对冷链站点生效。"),
    ];
    for (said, wrong, faithful) in cases {
        let k = one_session_kinds(&[("assistant", said)], wrong, "1");
        assert!(has(&k, "contradicted"), "{wrong} ← {said}: {k:?}");
        let k = one_session_kinds(&[("assistant", said)], faithful, "1");
        assert!(k.is_empty(), "{faithful} ← {said}: {k:?}");
    }
}

#[test]
fn steps_put_in_another_order_are_contradicted() {
    let recap = "Staging is back. Order was: stop the API, restore the dump, run migrations, start the API. \
                 Migrations have to come after the restore because the dump has the old schema.";
    let k = one_session_kinds(
        &[("assistant", recap)],
        "- Restore runbook: stop API → run migrations → restore dump → start API.",
        "1",
    );
    assert!(has(&k, "contradicted"), "{k:?}");
    let k = one_session_kinds(
        &[("assistant", recap)],
        "- Restore runbook: stop API → restore dump → run migrations → start API.",
        "1",
    );
    assert!(k.is_empty(), "{k:?}");
    let said = "じゃあ手順は、先に bbappend で SRCREV を上げて、そのあとで bitbake -c cleansstate linux-custom、で。";
    let wrong = "- SRCREV 更新手順: まず bitbake -c cleansstate linux-custom、その後 bbappend の SRCREV を上げる。";
    let k = one_session_kinds(&[("user", said)], wrong, "1");
    assert!(has(&k, "contradicted"), "{k:?}");
    // A change of value is no sequence of steps.
    let said = "limits: memory: 512Mi. Bump the limit to 1Gi, leave requests alone.";
    let k = one_session_kinds(&[("user", said)], "- memory limit raised 512Mi → 1Gi; requests unchanged.", "1");
    assert!(!has(&k, "contradicted"), "{k:?}");
}

/// One Claude Code session whose edits change `BATCH_SIZE` twice: 100 → 500, then 500 → 200.
fn edited_twice_session() -> String {
    let edit = |id: &str, old: &str, new: &str| {
        serde_json::json!([{"type": "tool_use", "id": id, "name": "Edit", "input": {
            "file_path": "/srv/uploader/config.py", "old_string": old, "new_string": new}}])
    };
    let done = |id: &str| {
        serde_json::json!([{"type": "tool_result", "tool_use_id": id, "content":
            "The file /srv/uploader/config.py has been updated successfully."}])
    };
    [
        record(1, "user", "The sensor uploader is slow. Bump BATCH_SIZE to 500.".into()),
        record(2, "assistant", edit("e1", "BATCH_SIZE = 100", "BATCH_SIZE = 500")),
        record(3, "user", done("e1")),
        record(4, "assistant", "At 500 the staging gateway returns 504 on some batches.".into()),
        record(5, "user", "ugh. drop it to 200 then".into()),
        record(6, "assistant", edit("e2", "BATCH_SIZE = 500", "BATCH_SIZE = 200")),
        record(7, "user", done("e2")),
    ]
    .concat()
}

#[test]
fn a_setting_a_later_edit_replaced_is_contradicted() {
    let log = edited_twice_session();
    let k = session_kinds(&log, "- Sensor uploader `BATCH_SIZE` = 500 (config.py).", "1-7");
    assert!(has(&k, "contradicted"), "{k:?}");
    let k =
        session_kinds(&log, "- Sensor uploader `BATCH_SIZE` = 200 (config.py); the gateway returns 504 at 500.", "1-7");
    assert!(k.is_empty(), "{k:?}");
}

#[test]
fn a_correction_that_apologises_or_picks_a_bare_value_overrules() {
    let turns = [
        ("user", "Add a constraint: PE can't be scheduled for more than 3 consecutive periods."),
        ("assistant", "Added max_consecutive(\"PE\", 3) next to the labs rule max_consecutive(\"LAB\", 3)."),
        ("user", "Sorry, I misremembered — it's max 2 in a row for PE. The 3 is the science labs rule."),
    ];
    let k = one_session_kinds(&turns, "- Timetable: PE max 3 consecutive periods.", "1-3");
    assert!(has(&k, "citation-overruled"), "{k:?}");
    let turns = [
        ("assistant", "One option is to widen the USB netclass trace width from 0.2 mm to 0.25 mm and re-route."),
        ("user", "No — keep 0.2, the impedance calc for our stackup is done at 0.2."),
        ("assistant", "Understood, the trace width stays 0.2 mm; I'll move the vias instead."),
    ];
    let k = one_session_kinds(&turns, "- USB netclass trace width is 0.25 mm.", "1-3");
    assert!(has(&k, "citation-overruled"), "{k:?}");
    let k = one_session_kinds(&turns, "- USB netclass trace width stays 0.2 mm.", "1-3");
    assert!(!has(&k, "citation-overruled"), "{k:?}");
}

#[test]
fn a_setting_only_a_refused_edit_gives_is_contradicted() {
    let edit = serde_json::json!([{"type": "tool_use", "id": "e1", "name": "Edit", "input": {
        "file_path": "/srv/portal/saml/config.ts",
        "old_string": "allowedClockSkewMs: 180_000,",
        "new_string": "allowedClockSkewMs: 600_000,"}}]);
    let refused = serde_json::json!([{"type": "tool_result", "tool_use_id": "e1", "is_error": true, "content":
        "The user doesn't want to proceed with this tool use. The tool use was rejected."}]);
    let log = [
        record(1, "user", "SAML login sometimes fails with `Response is not yet valid`.".into()),
        record(2, "assistant", "The IdP clock is ahead by ~4.5 min; widening the skew to 10 min avoids it.".into()),
        record(3, "assistant", edit),
        record(4, "user", refused),
        record(5, "user", "10分は長すぎ。3分のままにして、IdP の NTP を直してもらう".into()),
    ]
    .concat();
    let k = session_kinds(&log, "- Portal SAML `allowedClockSkewMs`: 600_000; IdP NTP fix requested.", "1-5");
    assert!(has(&k, "contradicted") || has(&k, "citation-overruled"), "{k:?}");
    let k = session_kinds(&log, "- Portal SAML `allowedClockSkewMs`: 180_000; IdP NTP fix requested.", "1-5");
    assert!(k.is_empty(), "{k:?}");
}

/// A particle standing alone is no label: `warn_before_sec は 15 秒` states the note's `警告は
/// 15 秒前` (the label is the word before `は`, in another script).
#[test]
fn a_particle_standing_alone_labels_nothing() {
    let said = "idle_timeout_sec は 120 秒に変更。warn_before_sec（タイムアウト前の警告）は 15 秒のままです。";
    let k = one_session_kinds(
        &[("assistant", said)],
        "- キオスクのアイドルタイムアウトは 120 秒。警告はその 15 秒前。",
        "1",
    );
    assert!(k.is_empty(), "{k:?}");
    let k = one_session_kinds(
        &[("assistant", said)],
        "- キオスクのアイドルタイムアウトは 120 秒。警告はその 20 秒前。",
        "1",
    );
    assert!(has(&k, "unsourced-claim") || has(&k, "contradicted"), "{k:?}");
}

/// A run the user interrupted: the tool's progress output, then the interruption on its own
/// line, then the user's reason.
fn interrupted_run_session(command: &str, output: &str, reason: &str) -> String {
    let call = serde_json::json!([{"type": "tool_use", "id": "t1", "name": "Bash", "input": {"command": command}}]);
    let out = serde_json::json!([{"type": "tool_result", "tool_use_id": "t1", "content": output}]);
    let stop = serde_json::json!([{"type": "text", "text": "[Request interrupted by user]"}]);
    [
        record(1, "user", "Seed the tile cache for Oregon, z0 to z12.".into()),
        record(2, "assistant", call),
        record(3, "user", out),
        record(4, "user", stop),
        record(5, "user", reason.into()),
    ]
    .concat()
}

#[test]
fn a_run_the_user_interrupted_is_not_done() {
    let log = interrupted_run_session(
        "mapproxy-seed -f mapproxy.yaml -s seed.yaml --seed oregon_z0_12 -c 8",
        "========== Seeding oregon_z0_12 ==========\n[13:02:11]  8  37.50%  (1203 tiles)\n[13:07:02] 11  61.23%  (19704 tiles)",
        "stop, it's hammering the state WMS upstream. We'll run it tonight with concurrency 2.",
    );
    let k = session_kinds(&log, "- Oregon z0–12 tile seed ran to completion; next seeds use -c 2.", "1-5");
    assert!(has(&k, "contradicted"), "{k:?}");
    for faithful in [
        "- Oregon z0–12 tile seed was stopped at ~61%; rerun tonight with -c 2.",
        "- Oregon z0–12 tile seed partly ran (to ~61%); the rest tonight with -c 2.",
    ] {
        let k = session_kinds(&log, faithful, "1-5");
        assert!(k.is_empty(), "{faithful}: {k:?}");
    }
}
