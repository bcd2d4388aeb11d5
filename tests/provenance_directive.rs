//! What a directive turns down: the user's `don't …` or `改成 …` after the assistant reports
//! a finding sets the next step and takes nothing back, so a note restating the finding is
//! not built from an overruled proposal. After a message that proposes, the directive does
//! turn the proposal down, unless the note records the user's choice itself. Beside them,
//! three readings that the same notes met: a relation's sides stay in their clause, a
//! negation denies a value only from its own part of the line, and a note saying how things
//! are *now* is not turned around by what was said before the session's edit.

use crate::common::{record, session_kinds};

/// An assistant message, then the user's reply.
fn exchange(said: &str, reply: &str) -> String {
    [
        record(1, "user", "Why did the page go stale?".into()),
        record(2, "assistant", said.into()),
        record(3, "user", reply.into()),
    ]
    .concat()
}

fn overruled(k: &[String]) -> bool {
    k.iter().any(|k| k == "citation-overruled")
}

#[test]
fn a_directive_after_a_report_takes_nothing_back() {
    let cases = [
        (
            "The page cache TTL is 15 minutes (`cache_ttl_minutes: 15` in settings.toml); the stale page came from the CDN, not from us.",
            "Don't touch the TTL, marketing wants 15 minutes. We'll purge the CDN by hand.",
            "- The page cache TTL is 15 minutes (`cache_ttl_minutes` in settings.toml).",
        ),
        ("报表每天早上 6:00 同步一次，用的是旧的导出接口。", "改成新接口吧", "- 报表每天早上 6:00 同步一次。"),
    ];
    for (said, reply, note) in cases {
        let k = session_kinds(&exchange(said, reply), note, "2");
        assert!(!overruled(&k), "{note}: {k:?}");
    }
}

#[test]
fn a_directive_after_a_proposal_turns_it_down_unless_the_note_records_the_choice() {
    let said = "Two ways out: I'll raise the export worker timeout to 120 s, or we could split the export into batches of 500.";
    let log = exchange(said, "Don't raise the timeout. Split the export into batches.");
    // Restating the proposal the user turned down.
    let k = session_kinds(&log, "- The export worker timeout is raised to 120 s.", "2");
    assert!(overruled(&k), "{k:?}");
    // Recording what the user chose, and what against.
    let k =
        session_kinds(&log, "- The export is split into batches of 500 instead of raising the worker timeout.", "2");
    assert!(!overruled(&k), "{k:?}");
}

#[test]
fn a_relation_stays_in_its_clause() {
    // `after 24 h` relates the expiry to a span of time, not to the retry in the next clause.
    let log = exchange("A customer got charged twice after retrying checkout the next day.", "ok, note it");
    let k = session_kinds(&log, "- Checkout keys expire after 24 hours; a retry is charged as a new payment.", "2");
    assert!(!k.iter().any(|k| k == "contradicted"), "{k:?}");
}

#[test]
fn a_negation_in_another_part_of_the_line_denies_no_value() {
    let log = exchange(
        "Keys live for 24 hours (`idempotency_ttl_hours: 24` in config/payments.yaml).",
        "Fine as it is, product wants 24h.",
    );
    let note = "- Keys expire after 24 h (`idempotency_ttl_hours` in config/payments.yaml); the user said not to change the TTL.";
    let k = session_kinds(&log, note, "2");
    assert!(!k.iter().any(|k| k == "contradicted"), "{k:?}");
    // Denied in its own part, it still is.
    let k = session_kinds(
        &log,
        "- `idempotency_ttl_hours` is not 24 in config/payments.yaml; keys expire after 24 h.",
        "2",
    );
    assert!(k.iter().any(|k| k == "contradicted"), "{k:?}");
}

#[test]
fn what_was_said_before_the_sessions_edit_does_not_turn_now_around() {
    let edit = serde_json::json!([{"type": "tool_use", "id": "t1", "name": "Edit", "input": {
        "file_path": "/src/cfg/store.c", "old_string": "erase(s);", "new_string": "erase(s);\n    wdt_kick();"}}]);
    let done = serde_json::json!([{"type": "tool_result", "tool_use_id": "t1",
        "content": "The file /src/cfg/store.c has been updated."}]);
    let log = [
        record(1, "user", "Why does the watchdog reset during config save?".into()),
        record(
            2,
            "assistant",
            "Erasing the three config sectors takes 2.4 s without a watchdog kick, longer than the 2 s timeout.".into(),
        ),
        record(3, "user", "Kick it between the sector erases.".into()),
        record(4, "assistant", edit),
        record(5, "user", done),
    ]
    .concat();
    let k = session_kinds(&log, "- Config save now kicks the watchdog between the sector erases.", "2-5");
    assert!(!k.iter().any(|k| k == "contradicted"), "{k:?}");
}

/// What a refused edit would have written, a later message names only to deny it: the
/// refusal stands (`#deploys` in a rejected Edit, then `I did not add the #deploys post`).
#[test]
fn what_a_refused_edit_would_write_and_a_message_denies_is_overruled() {
    let file = "/w/src/commands/page.ts";
    let edit = |id: &str, new: &str| {
        serde_json::json!([{"type": "tool_use", "id": id, "name": "Edit", "input": {
            "file_path": file, "old_string": "await ack(cmd);", "new_string": new}}])
    };
    let result = |id: &str, out: &str, error: bool| serde_json::json!([{"type": "tool_result", "tool_use_id": id, "content": out, "is_error": error}]);
    let refused = "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file).";
    let log = [
        record(1, "user", "When someone runs /page, DM the on-call lead.".into()),
        record(
            2,
            "assistant",
            edit("t1", "await dm(lead, msg);\nawait postToChannel('#deploys', msg);\nawait ack(cmd);"),
        ),
        record(3, "user", result("t1", refused, true)),
        record(4, "user", "No channel posts, the lead only.".into()),
        record(5, "assistant", edit("t2", "await dm(lead, msg);\nawait ack(cmd);")),
        record(6, "user", result("t2", &format!("The file {file} has been updated."), false)),
        record(7, "assistant", "Done: /page DMs the on-call lead. I did not add the `#deploys` post.".into()),
    ]
    .concat();
    let k = session_kinds(&log, "- /page DMs the on-call lead and posts to `#deploys` (src/commands/page.ts).", "1-7");
    assert!(overruled(&k), "{k:?}");
    let k = session_kinds(&log, "- /page only DMs the on-call lead (src/commands/page.ts).", "1-7");
    assert!(!overruled(&k) && !k.iter().any(|k| k == "contradicted"), "{k:?}");
}
