//! Values the extractor must see and a unit that must be a content word (issue 14 §2, §3),
//! and `check` showing the line that says it (§4): built in temp dirs from Claude Code
//! shaped transcripts.

use crate::common::*;
use serde_json::json;
use std::path::{Path, PathBuf};

const S: &str = "4c1d7e20-8b3a-4f65-9e12-a0b7c3d5e8f1";

fn user(n: u32, ts: &str, text: &str) -> String {
    json!({
        "parentUuid": null, "isSidechain": false, "userType": "external", "cwd": "/home/dev/app",
        "sessionId": S, "version": "2.1.97", "gitBranch": "main", "type": "user",
        "message": {"role": "user", "content": text},
        "uuid": format!("u-{n:04}"), "timestamp": ts
    })
    .to_string()
}

/// One content block of an assistant message (`id` shared by its blocks).
fn block(n: u32, id: &str, ts: &str, content: serde_json::Value) -> String {
    json!({
        "parentUuid": format!("u-{:04}", n - 1), "isSidechain": false, "userType": "external",
        "cwd": "/home/dev/app", "sessionId": S, "version": "2.1.97", "gitBranch": "main",
        "message": {"model": "claude-opus-4-6", "id": id, "type": "message", "role": "assistant",
            "content": [content], "stop_reason": null, "stop_sequence": null,
            "usage": {"input_tokens": 4, "output_tokens": 21}},
        "type": "assistant", "uuid": format!("u-{n:04}"), "timestamp": ts
    })
    .to_string()
}

/// A project whose one session says `lines`; the dream proposes `proposed` for `note`.
fn project(
    note: &str,
    live: &str,
    proposed: &str,
    changes: &str,
    lines: &[String],
) -> (tempfile::TempDir, PathBuf, PathBuf) {
    let (g, dream, memory) = dream_fixture(&[(note, live)], &[(note, proposed)], changes);
    write(&memory.parent().unwrap().join(format!("{S}.jsonl")), &(lines.join("\n") + "\n"));
    (g, dream, memory)
}

fn check(dream: &Path, memory: &Path) -> serde_json::Value {
    check_json(dream, &["--memory", memory.to_str().unwrap()]).1
}

const FM: &str = "---\nname: dev\ndescription: Local development\ntype: project\n---\n\n";

#[test]
fn host_and_port_values_are_claims_matched_in_their_normalised_form() {
    let live = format!("{FM}- Run `pnpm dev` to start the app.\n");
    let proposed = format!(
        "{FM}- Run `pnpm dev` to start the app.\n- The dev server listens on localhost:3001.\n\
         - The API proxy forwards to 127.0.0.1:8080.\n- Metrics: ポート 9464.\n- DNS: Cloudflare → Quad9\n"
    );
    let lines = [
        user(
            1,
            "2026-05-04T09:00:00.000Z",
            "The dev server is up at http://localhost:3000/ and the proxy goes to 127.0.0.1:8080.",
        ),
        user(
            2,
            "2026-05-04T09:01:00.000Z",
            "Prometheus scrapes the exporter on :9464. We moved DNS from Cloudflare to Quad9 yesterday.",
        ),
    ];
    let changes = format!("- dev.md: dev server, proxy, metrics port and DNS ({S}.jsonl:1-2)\n");
    let (_g, dream, memory) = project("dev.md", &live, &proposed, &changes, &lines);
    let v = check(&dream, &memory);
    // The wrong port is a claim now, and no source says it: 3000 is what was said.
    assert_eq!(flag_rows(&v), vec![flag_row("dev.md#1", "unsourced-claim", "warning", "localhost:3001")], "{v:#}");
    let at1 = format!("{S}.jsonl:1");
    let at2 = format!("{S}.jsonl:2");
    assert_eq!(claim_status(&v, "dev.md#1", "127.0.0.1:8080"), ("sourced".into(), at1));
    // `ポート 9464` is the port `:9464` states.
    assert_eq!(claim_status(&v, "dev.md#1", "ポート 9464"), ("sourced".into(), at2.clone()));
    assert_eq!(claim_status(&v, "dev.md#1", "Cloudflare"), ("sourced".into(), at2.clone()));
    assert_eq!(claim_status(&v, "dev.md#1", "Quad9"), ("sourced".into(), at2));
}

#[test]
fn a_number_before_a_closed_class_word_is_a_bare_number_claim() {
    let fm = "---\nname: stats\ndescription: Package stats\ntype: project\n---\n\n";
    let live = format!("{fm}- Downloads are tracked weekly.\n");
    let proposed =
        format!("{fm}- Downloads are tracked weekly.\n- 9,120 downloads this month, 4,310 between March and May.\n");
    let lines =
        [user(1, "2026-06-02T08:00:00.000Z", "Stats: 9,120 downloads this month; 4,310 downloads from March to May.")];
    let changes = format!("- stats.md: download numbers ({S}.jsonl:1)\n");
    let (_g, dream, memory) = project("stats.md", &live, &proposed, &changes, &lines);
    let v = check(&dream, &memory);
    // `4,310 between` was a claim whose unit "between" no line said: unsourced-claim.
    assert_eq!(flag_rows(&v), vec![], "{v:#}");
    let at = format!("{S}.jsonl:1");
    assert_eq!(claim_status(&v, "stats.md#1", "4,310"), ("sourced".into(), at.clone()));
    assert_eq!(claim_status(&v, "stats.md#1", "9,120 downloads"), ("sourced".into(), at));
    // A wrong bare number is flagged.
    let wrong = proposed.replace("4,310 between", "4,130 between");
    let (_g2, dream, memory) = project("stats.md", &live, &wrong, &changes, &lines);
    let v = check(&dream, &memory);
    assert_eq!(flag_rows(&v), vec![flag_row("stats.md#1", "unsourced-claim", "warning", "4,130")]);
}

#[test]
fn check_shows_every_line_of_a_cited_range_and_the_line_that_says_a_claim() {
    let fm = "---\nname: deploy\ndescription: Deploys\ntype: project\n---\n\n";
    let live = format!("{fm}- Deploy with `make deploy`.\n");
    let proposed = format!("{fm}- Deploy with `make deploy`.\n- The deploy config lives in config/deploy.yaml.\n");
    let id = "msg_01DEPLOY";
    let lines = [
        user(1, "2026-07-01T10:00:00.000Z", "Where is the deploy config?"),
        block(2, id, "2026-07-01T10:00:03.000Z", json!({"type": "text", "text": "Let me look for it."})),
        block(
            3,
            id,
            "2026-07-01T10:00:04.000Z",
            json!({"type": "tool_use", "id": "toolu_01", "name": "Bash", "input": {"command": "ls config/deploy.yaml"}}),
        ),
        user(4, "2026-07-01T10:00:09.000Z", "Great, note that down."),
    ];
    // The entry cites the message at its text block (line 2), and lines 1-4 as a range.
    let changes =
        format!("- deploy.md: where the deploy config lives ({S}.jsonl:2)\n- deploy.md: the same ({S}.jsonl:1-4)\n");
    let (_g, dream, memory) = project("deploy.md", &live, &proposed, &changes, &lines);
    let v = check(&dream, &memory);
    // Line 3 says the path, not the cited line 2 (the same split message).
    assert_eq!(claim_status(&v, "deploy.md#1", "config/deploy.yaml"), ("sourced".into(), format!("{S}.jsonl:3")));
    let r = run(dream.parent().unwrap(), &["check", dream.to_str().unwrap(), "--memory", memory.to_str().unwrap()]);
    let out = &r.stdout;
    assert!(out.contains(&format!("✓ config/deploy.yaml ({S}.jsonl:3)")), "{out}");
    // The range prints each of its cited messages with the ▶ mark, not only the first.
    let range = out.split(&format!("↳ {S}.jsonl:1-4")).nth(1).expect("the range citation");
    for (mark, said) in
        [("▶ 1 ", "Where is the deploy config?"), ("▶ 2-3 ", "Let me look for it."), ("▶ 4 ", "Great, note that down.")]
    {
        let line =
            range.lines().find(|l| l.trim_start().starts_with(mark)).unwrap_or_else(|| panic!("no {mark:?} in {out}"));
        assert!(line.contains(said), "{line}");
    }
}

/// A count written as a word that a cited clause gives another number (`seven replicas`
/// where the user said `5 replicas`) is contradicted; the same count in words is not, nor
/// a count in words nobody gave a number for.
#[test]
fn a_count_in_words_changed_is_contradicted() {
    use crate::common::one_session_kinds;
    let said = "we keep 5 replicas in prod";
    let k = one_session_kinds(&[("user", said)], "- Prod runs seven replicas.", "1");
    assert!(k.iter().any(|k| k == "contradicted"), "{k:?}");
    let k = one_session_kinds(&[("user", said)], "- Prod runs five replicas.", "1");
    assert!(k.is_empty(), "{k:?}");
    let k = one_session_kinds(&[("user", said)], "- Prod runs 5 replicas in two regions.", "1");
    assert!(k.is_empty(), "{k:?}");
}

/// A number the note works out beside its operands (`260 tests (212 unit, 48 integration)`,
/// `45 minutes (14:02-14:47)`) is as sourced as they are; a wrong result is not.
#[test]
fn a_number_worked_out_beside_its_operands_is_sourced() {
    use crate::common::one_session_kinds;
    let said = "단위 테스트 212개, 통합 테스트 48개 모두 통과했습니다";
    let k = one_session_kinds(&[("user", said)], "- 테스트 전체 260개 통과 (단위 212, 통합 48).", "1");
    assert!(k.is_empty(), "{k:?}");
    let k = one_session_kinds(&[("user", said)], "- 테스트 전체 270개 통과 (단위 212, 통합 48).", "1");
    assert!(!k.is_empty(), "270 is no sum");
    let said = "the backfill migration started at 14:02 and finished at 14:47, so plan for that";
    let k = one_session_kinds(&[("user", said)], "- The backfill takes about 45 minutes (14:02-14:47).", "1");
    assert!(k.is_empty(), "{k:?}");
    let k = one_session_kinds(&[("user", said)], "- The backfill takes about 25 minutes (14:02-14:47).", "1");
    assert!(!k.is_empty(), "25 minutes is no span of them");
}

/// A weekday beside a date it is not the weekday of is contradicted by the calendar,
/// whatever the cited lines say; the right weekday is no flag.
#[test]
fn a_weekday_that_is_not_the_dates_is_contradicted() {
    use crate::common::one_session_kinds;
    let said = "the release freeze starts on 2026-11-18, tell the team";
    let k = one_session_kinds(&[("user", said)], "- Release freeze starts Tuesday, 2026-11-18.", "1");
    assert!(k.iter().any(|k| k == "contradicted"), "{k:?}");
    let k = one_session_kinds(&[("user", said)], "- Release freeze starts Wednesday, 2026-11-18.", "1");
    assert!(k.is_empty(), "{k:?}");
    let said = "リリース凍結は2026年11月18日から";
    let k = one_session_kinds(&[("user", said)], "- リリース凍結は2026年11月18日（火）から。", "1");
    assert!(k.iter().any(|k| k == "contradicted"), "{k:?}");
}

#[test]
fn a_cjk_figure_with_its_magnitude_one_blank_after_is_a_claim() {
    let said = "单张开票限额是 10 万元（config/invoice.yaml，税局核定），这张 12.85 万元超了。";
    let log = [record(1, "user", "看下限额配置".into()), record(2, "assistant", said.into())].concat();
    let wrong = session_kinds(&log, "- 单张开票限额为 100 万元（config/invoice.yaml）。", "1-2");
    assert!(!wrong.is_empty(), "{wrong:?}");
    let right = session_kinds(&log, "- 单张开票限额为 10 万元（config/invoice.yaml）。", "1-2");
    assert!(right.is_empty(), "{right:?}");
}
