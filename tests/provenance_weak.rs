//! Weak sourcing (issue 3): a claim found only in a session other than the one its entry
//! cites is "weakly sourced" with its location — never unsourced, never a flag. Citing the
//! other session (as a whole file) makes it sourced.

use crate::common::*;
use serde_json::json;
use std::path::Path;

const A: &str = "1f0c6a52-93d4-4e1b-8a7f-2c5d9e0b4a61";
const B: &str = "7a2e4c91-05bd-4f38-b6e2-d1c0a9f83e27";

const LIVE: &str =
    "---\nname: db\ndescription: Databases per environment\ntype: project\n---\n\nStaging uses `db-staging-1`.\n";
const PROPOSED: &str = "---\nname: db\ndescription: Databases per environment\ntype: project\n---\n\nStaging uses `db-staging-2` on port 5433.\n";

/// A user prompt line in Claude Code's shape.
fn user(session: &str, n: u32, ts: &str, text: &str) -> String {
    json!({
        "parentUuid": null, "isSidechain": false, "userType": "external", "cwd": "/home/dev/shop",
        "sessionId": session, "version": "2.1.97", "gitBranch": "main", "type": "user",
        "message": {"role": "user", "content": text},
        "uuid": format!("{}-{n:04}", &session[..8]), "timestamp": ts, "permissionMode": "default"
    })
    .to_string()
}

/// An assistant text line in Claude Code's shape.
fn assistant(session: &str, n: u32, ts: &str, text: &str) -> String {
    json!({
        "parentUuid": format!("{}-{:04}", &session[..8], n - 1), "isSidechain": false,
        "userType": "external", "cwd": "/home/dev/shop", "sessionId": session, "version": "2.1.97",
        "gitBranch": "main",
        "message": {"model": "claude-opus-4-6", "id": format!("msg_01{}{n:04}", &session[..8]), "type": "message",
            "role": "assistant", "content": [{"type": "text", "text": text}], "stop_reason": "end_turn",
            "stop_sequence": null, "usage": {"input_tokens": 4, "output_tokens": 21}},
        "requestId": format!("req_011{}{n:04}", &session[..8]), "type": "assistant",
        "uuid": format!("{}-{n:04}", &session[..8]), "timestamp": ts
    })
    .to_string()
}

/// Two sessions: A says staging moved to db-staging-2; only B says port 5433.
fn project(changes: &str) -> (tempfile::TempDir, std::path::PathBuf, std::path::PathBuf) {
    let (g, dream, memory) = dream_fixture(&[("db.md", LIVE)], &[("db.md", PROPOSED)], changes);
    let root = memory.parent().unwrap();
    let a = [
        user(A, 1, "2026-03-02T10:00:00.000Z", "Staging moved to db-staging-2 this morning."),
        assistant(A, 2, "2026-03-02T10:00:04.000Z", "Noted: staging now uses db-staging-2."),
    ];
    let b = [
        user(B, 1, "2026-03-03T16:20:00.000Z", "What port does the new staging database listen on?"),
        assistant(B, 2, "2026-03-03T16:20:05.000Z", "db-staging-2 listens on port 5433."),
    ];
    write(&root.join(format!("{A}.jsonl")), &(a.join("\n") + "\n"));
    write(&root.join(format!("{B}.jsonl")), &(b.join("\n") + "\n"));
    (g, dream, memory)
}

fn check(dream: &Path, memory: &Path) -> serde_json::Value {
    let (code, v) = check_json(dream, &["--memory", memory.to_str().unwrap()]);
    assert_eq!(code, 0);
    v
}

#[test]
fn a_claim_only_in_another_session_is_stated_elsewhere_with_its_location() {
    let (_g, dream, memory) = project(&format!("- memory/db.md: staging moved to `db-staging-2` ({A}.jsonl:1)\n"));
    let v = check(&dream, &memory);
    assert_eq!(claim_status(&v, "db.md#1", "db-staging-2"), ("sourced".into(), format!("{A}.jsonl:1")));
    assert_eq!(claim_status(&v, "db.md#1", "port 5433"), ("elsewhere".into(), format!("{B}.jsonl:2")));
    // The citation points at the wrong place for it: one flag, naming where it is said.
    assert_eq!(flag_rows(&v), vec![flag_row("db.md#1", "citation-unsupported", "warning", "port 5433")]);
    let flag = flag_at(&v, "db.md#1", "citation-unsupported", "port 5433");
    assert_eq!(
        flag["message"],
        format!("«port 5433» is not stated at the cited lines ({A}.jsonl:1); it is said at {B}.jsonl:2")
    );
    // The text view says where it was found.
    let r = run(dream.parent().unwrap(), &["check", dream.to_str().unwrap(), "--memory", memory.to_str().unwrap()]);
    assert!(r.stdout.contains(&format!("port 5433 ({B}.jsonl:2)")), "{}", r.stdout);
}

#[test]
fn citing_the_other_session_as_a_whole_file_sources_it() {
    let changes = format!("- memory/db.md: staging moved to `db-staging-2` ({A}.jsonl:1), port from {B}.jsonl\n");
    let (_g, dream, memory) = project(&changes);
    let v = check(&dream, &memory);
    assert_eq!(claim_status(&v, "db.md#1", "port 5433"), ("sourced".into(), format!("{B}.jsonl:2")));
    assert_eq!(flag_rows(&v), Vec::<FlagRow>::new());
}

#[test]
fn elsewhere_is_not_carried_and_not_unsourced() {
    // Without B the port is nowhere: it is an unsourced claim. With B it is said elsewhere.
    let (_g, dream, memory) = project(&format!("- memory/db.md: staging moved to `db-staging-2` ({A}.jsonl:1)\n"));
    std::fs::remove_file(memory.parent().unwrap().join(format!("{B}.jsonl"))).unwrap();
    let v = check(&dream, &memory);
    assert_eq!(claim_status(&v, "db.md#1", "port 5433"), ("unsourced".into(), String::new()));
    assert_eq!(flag_rows(&v), vec![flag_row("db.md#1", "unsourced-claim", "warning", "port 5433")]);
}

#[test]
fn a_claim_in_coloured_tool_output_of_another_session() {
    // Session B ran jest, whose output colours the file name inside the path.
    let proposed = format!("{PROPOSED}The flaky test was src/cart.test.ts.\n");
    let (_g, dream, memory) = dream_fixture(
        &[("db.md", LIVE)],
        &[("db.md", &proposed)],
        &format!("- memory/db.md: staging moved to `db-staging-2` ({A}.jsonl:1)\n"),
    );
    let root = memory.parent().unwrap();
    write(
        &root.join(format!("{A}.jsonl")),
        &(user(A, 1, "2026-03-02T10:00:00.000Z", "Staging moved to db-staging-2, port 5433.") + "\n"),
    );
    let jest = json!({
        "parentUuid": null, "isSidechain": false, "userType": "external", "cwd": "/home/dev/shop",
        "sessionId": B, "version": "2.1.97", "gitBranch": "main", "type": "user",
        "message": {"role": "user", "content": [{"tool_use_id": "toolu_01Jest", "type": "tool_result",
            "content": "FAIL src/\u{1b}[1mcart.test.ts\u{1b}[22m\n  ✕ applies coupons (12 ms)", "is_error": true}]},
        "uuid": "7a2e4c91-0001", "timestamp": "2026-03-03T16:20:00.000Z"
    });
    write(&root.join(format!("{B}.jsonl")), &format!("{jest}\n"));
    let v = check(&dream, &memory);
    // The line says `src/cart.test.ts` once its colour codes are dropped: said there.
    assert_eq!(claim_status(&v, "db.md#1", "src/cart.test.ts"), ("elsewhere".into(), format!("{B}.jsonl:1")));
    assert_eq!(flag_rows(&v), vec![flag_row("db.md#1", "citation-unsupported", "warning", "src/cart.test.ts")]);
}

/// A date a line states without a year means the one nearest the line's day: "ran on
/// March 2" written on 2026-03-04 sources 2026-03-02 (cited or found by the scan), never
/// the same day of another year.
#[test]
fn a_yearless_date_in_a_transcript_sources_only_its_own_year() {
    for (claimed, want) in [("2026-03-02", "sourced"), ("2025-03-02", "unsourced")] {
        let live = "---\nname: jobs\ndescription: Batch jobs\ntype: project\n---\n\nBackfills run by hand.\n";
        let prop = format!("{live}The messages backfill ran on {claimed}.\n");
        let (_g, dream, memory) = dream_fixture(
            &[("jobs.md", live)],
            &[("jobs.md", &prop)],
            &format!("- memory/jobs.md: recorded the backfill run ({A}.jsonl:1)\n"),
        );
        let lines = [user(A, 1, "2026-03-04T09:10:00.000Z", "The messages backfill migration ran on March 2.")];
        write(&memory.parent().unwrap().join(format!("{A}.jsonl")), &(lines.join("\n") + "\n"));
        let (_, v) = check_json(&dream, &["--memory", memory.to_str().unwrap()]);
        assert_eq!(claim_status(&v, "jobs.md#1", claimed).0, want, "{claimed}: {v:#}");
    }
}

/// Several entries explain one hunk: the relative phrase whose arithmetic an inferred date's
/// flag shows comes from the entry that speaks of the date's line, not from the first
/// entry's citation. (The dream wrote the day the line was said, not the day 昨天 means.)
#[test]
fn an_inferred_date_names_the_phrase_its_own_entry_cites() {
    let live = "---\nname: infra\ndescription: Infra\ntype: project\n---\n\n- 배포는 수동.\n";
    let prop = format!("{live}- 배포 파이프라인 변경.\n- 2026年3月12日缓存切换到 Redis。\n");
    let changes = format!(
        "- memory/infra.md: 배포 파이프라인 변경. {A}.jsonl 1번째 줄\n- infra.md: 缓存切换到 Redis。{A}.jsonl 第2行\n"
    );
    let (_g, dream, memory) = dream_fixture(&[("infra.md", live)], &[("infra.md", &prop)], &changes);
    let lines = [
        user(A, 1, "2026-03-12T03:00:00.000Z", "어제 배포 파이프라인을 바꿨어요."),
        user(A, 2, "2026-03-12T03:02:00.000Z", "昨天缓存切换到 Redis 了。"),
    ];
    write(&memory.parent().unwrap().join(format!("{A}.jsonl")), &(lines.join("\n") + "\n"));
    let (_, v) = check_json(&dream, &["--memory", memory.to_str().unwrap()]);
    let flag = flag_at(&v, "infra.md#1", "inferred-date", "2026年3月12日");
    let msg = flag["message"].as_str().unwrap();
    assert_eq!(
        msg,
        format!("«2026年3月12日» — 昨天 said on 2026-03-12 means 2026-03-11 ({A}.jsonl:2, 2026-03-12 03:02:00 UTC)")
    );
}
