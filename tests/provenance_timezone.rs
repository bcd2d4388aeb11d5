//! Issue 14 §1: a date means a day in the speaker's time zone. Every source line gets a
//! local day (a daily note's file-name day; a transcript timestamp in the user's zone:
//! `--tz`, else the machine's, else the memory repository's commit offset, else UTC ±1), and
//! a relative phrase on a cited line ("yesterday", 昨日, 어제, 昨天, "in the last 30 days")
//! states the days it denotes, not the line's own day.

use crate::common::*;
use serde_json::json;
use std::path::{Path, PathBuf};

const S: &str = "4c2b9e17-8a3d-4f60-b5e1-0d7c2a9f6e38";

/// A user prompt line in Claude Code's shape.
fn user(n: u32, ts: &str, text: &str) -> String {
    json!({
        "parentUuid": null, "isSidechain": false, "userType": "external", "cwd": "/home/dev/billing",
        "sessionId": S, "version": "2.1.97", "gitBranch": "main", "type": "user",
        "message": {"role": "user", "content": text},
        "uuid": format!("{}-{n:04}", &S[..8]), "timestamp": ts, "permissionMode": "default"
    })
    .to_string()
}

/// An assistant text line in Claude Code's shape.
fn assistant(n: u32, ts: &str, text: &str) -> String {
    json!({
        "parentUuid": format!("{}-{:04}", &S[..8], n - 1), "isSidechain": false,
        "userType": "external", "cwd": "/home/dev/billing", "sessionId": S, "version": "2.1.97",
        "gitBranch": "main",
        "message": {"model": "claude-opus-4-6", "id": format!("msg_01{}{n:04}", &S[..8]), "type": "message",
            "role": "assistant", "content": [{"type": "text", "text": text}], "stop_reason": "end_turn",
            "stop_sequence": null, "usage": {"input_tokens": 4, "output_tokens": 21}},
        "requestId": format!("req_011{}{n:04}", &S[..8]), "type": "assistant",
        "uuid": format!("{}-{n:04}", &S[..8]), "timestamp": ts
    })
    .to_string()
}

const LIVE: &str =
    "---\nname: deploy\ndescription: Deploys and fixes\ntype: project\n---\n\n- Deploys go through CI.\n";

/// A Claude Code session of a user in Tokyo (UTC+9) who speaks across UTC midnight:
/// line 1 at 23:40 UTC on 2026-03-09 is 08:40 on 2026-03-10 in Tokyo, so its "yesterday"
/// is 2026-03-09 there (2026-03-08 in UTC); line 3 at 15:10 UTC on 2026-03-10 is ten past
/// midnight on 2026-03-11 in Tokyo. `notes` are the dream's new lines, each entry of
/// `changes` cites one line.
fn tokyo_session(notes: &str, changes: &str) -> (tempfile::TempDir, PathBuf, PathBuf) {
    let prop = format!("{LIVE}{notes}");
    let (g, dream, memory) = dream_fixture(&[("deploy.md", LIVE)], &[("deploy.md", &prop)], changes);
    let lines = [
        user(1, "2026-03-09T23:40:00.000Z", "I deployed the billing service to staging yesterday."),
        assistant(2, "2026-03-09T23:40:06.000Z", "Noted, thanks."),
        user(3, "2026-03-10T15:10:00.000Z", "Merged the hotfix for the invoice rounding bug."),
    ];
    write(&memory.parent().unwrap().join(format!("{S}.jsonl")), &(lines.join("\n") + "\n"));
    (g, dream, memory)
}

fn right_notes() -> (tempfile::TempDir, PathBuf, PathBuf) {
    tokyo_session(
        "- Billing deployed to staging on 2026-03-09.\n- Invoice rounding hotfix merged on 2026-03-11.\n",
        &format!(
            "- memory/deploy.md: billing deployed to staging ({S}.jsonl:1)\n\
             - memory/deploy.md: invoice rounding hotfix merged ({S}.jsonl:3)\n"
        ),
    )
}

fn check_env(dream: &Path, memory: &Path, extra: &[&str], env: &[(&str, &str)]) -> (i32, serde_json::Value) {
    let mut args = vec!["check", dream.to_str().unwrap(), "--memory", memory.to_str().unwrap(), "--json"];
    args.extend_from_slice(extra);
    let r = run_env(dream.parent().unwrap(), &args, env);
    assert!(r.code == 0 || r.code == 1, "check failed: {}", r.both());
    (r.code, json(&r))
}

fn date_flags(v: &serde_json::Value) -> Vec<FlagRow> {
    flag_rows(v).into_iter().filter(|f| f.1 == "inferred-date").collect()
}

fn message<'a>(v: &'a serde_json::Value, at: &str, claim: &str) -> &'a str {
    flag_at(v, at, "inferred-date", claim)["message"].as_str().unwrap()
}

/// With `--tz Asia/Tokyo` both dates are the days the user meant: sourced, no flag. (Old
/// code knew no `--tz`, and read both lines in UTC.)
#[test]
fn a_local_speaker_across_utc_midnight_with_tz() {
    let (_g, dream, memory) = right_notes();
    let (_, v) = check_env(&dream, &memory, &["--tz", "Asia/Tokyo"], &[]);
    assert_eq!(date_flags(&v), vec![], "{v:#}");
    assert_eq!(claim_status(&v, "deploy.md#1", "2026-03-09"), ("sourced".into(), format!("{S}.jsonl:1")));
    assert_eq!(claim_status(&v, "deploy.md#1", "2026-03-11"), ("sourced".into(), format!("{S}.jsonl:3")));
    assert_eq!(v["time_zone"]["name"], "Asia/Tokyo");
    assert_eq!(v["time_zone"]["source"], "flag");
    assert_eq!(v["time_zone"]["slack_days"], 0);
    // The text report says which zone it used.
    let r = run(
        dream.parent().unwrap(),
        &["check", dream.to_str().unwrap(), "--memory", memory.to_str().unwrap(), "--tz", "Asia/Tokyo"],
    );
    assert!(r.stdout.contains("\nzone    Asia/Tokyo (--tz)\n"), "{}", r.stdout);
}

/// The machine's zone (`TZ`) does the same without `--tz`; in UTC the same notes are off by
/// one day and flagged with the arithmetic. (Old code flagged 2026-03-11 in any zone.)
#[test]
fn a_local_speaker_across_utc_midnight_with_the_machine_zone() {
    let (_g, dream, memory) = right_notes();
    let (_, v) = check_env(&dream, &memory, &[], &[("TZ", "Asia/Tokyo")]);
    assert_eq!(date_flags(&v), vec![], "{v:#}");
    assert_eq!(v["time_zone"]["source"], "machine");
    assert_eq!(v["time_zone"]["name"], "Asia/Tokyo");
    assert!(v["time_zone"]["description"].as_str().unwrap().contains("TZ=Asia/Tokyo"), "{v:#}");

    // The same transcript read in UTC: both dates are a day later than the lines say there.
    let (_, v) = check_env(&dream, &memory, &[], &[("TZ", "UTC")]);
    let flags = date_flags(&v);
    assert_eq!(
        flags,
        vec![
            flag_row("deploy.md#1", "inferred-date", "warning", "2026-03-09"),
            flag_row("deploy.md#1", "inferred-date", "warning", "2026-03-11"),
        ],
        "{v:#}"
    );
    assert!(
        message(&v, "deploy.md#1", "2026-03-09")
            .starts_with("«2026-03-09» — yesterday said on 2026-03-09 means 2026-03-08"),
        "{v:#}"
    );
}

/// The classic slip: the model wrote the local day of the line for "yesterday". Flagged,
/// and the message shows the arithmetic in the user's zone. (Old code named the phrase
/// but no arithmetic, and read the line in UTC.)
#[test]
fn the_day_a_line_was_said_is_not_the_day_its_yesterday_means() {
    let (_g, dream, memory) = tokyo_session(
        "- Billing deployed to staging on 2026-03-10.\n",
        &format!("- memory/deploy.md: billing deployed to staging ({S}.jsonl:1)\n"),
    );
    let (_, v) = check_env(&dream, &memory, &["--tz", "Asia/Tokyo"], &[]);
    assert_eq!(date_flags(&v), vec![flag_row("deploy.md#1", "inferred-date", "warning", "2026-03-10")], "{v:#}");
    assert_eq!(
        message(&v, "deploy.md#1", "2026-03-10"),
        format!(
            "«2026-03-10» — yesterday said on 2026-03-10 means 2026-03-09 ({S}.jsonl:1, 2026-03-09 23:40:00 UTC = \
             2026-03-10 08:40 Asia/Tokyo)"
        )
    );
    assert_eq!(flag_at(&v, "deploy.md#1", "inferred-date", "2026-03-10")["source"], format!("{S}.jsonl:1"));
}

/// No `--tz` and no machine zone: the memory repository's commits say +09:00 (git records
/// each commit's offset), and that zone is used. Without commits either, UTC ±1 day.
#[test]
fn without_a_machine_zone_the_commits_offset_is_used_then_utc_with_slack() {
    let (_g, dream, memory) = right_notes();
    let env = [("TZ", "Nowhere/Special")];
    // No repository: unknown, UTC with a day of slack for relative phrases ("yesterday" may
    // mean 2026-03-09) but none for a line's own day (line 3 is 2026-03-10 in UTC).
    let (_, v) = check_env(&dream, &memory, &[], &env);
    assert_eq!(v["time_zone"]["source"], "unknown", "{v:#}");
    assert_eq!(v["time_zone"]["slack_days"], 1);
    assert!(v["time_zone"]["description"].as_str().unwrap().contains("TZ=Nowhere/Special is not a time zone"));
    assert_eq!(claim_status(&v, "deploy.md#1", "2026-03-09"), ("sourced".into(), format!("{S}.jsonl:1")));
    assert_eq!(date_flags(&v), vec![flag_row("deploy.md#1", "inferred-date", "warning", "2026-03-11")], "{v:#}");

    git(&memory, &["init", "-q"]);
    git(&memory, &["-c", "user.name=Dev", "-c", "user.email=dev@example.com", "add", "-A"]);
    for (i, day) in ["2026-03-08", "2026-03-09", "2026-03-10"].iter().enumerate() {
        git(
            &memory,
            &[
                "-c",
                "user.name=Dev",
                "-c",
                "user.email=dev@example.com",
                "commit",
                "-q",
                "--allow-empty",
                "-m",
                &format!("notes {i}"),
                &format!("--date={day}T21:00:00+09:00"),
            ],
        );
    }
    let (_, v) = check_env(&dream, &memory, &[], &env);
    assert_eq!(v["time_zone"]["source"], "commits", "{v:#}");
    assert_eq!(v["time_zone"]["name"], "+09:00");
    assert_eq!(v["time_zone"]["slack_days"], 0);
    assert!(
        v["time_zone"]["description"].as_str().unwrap().contains("3 of the memory repository's last 3 commits"),
        "{v:#}"
    );
    assert_eq!(date_flags(&v), vec![], "{v:#}");
    assert_eq!(claim_status(&v, "deploy.md#1", "2026-03-11"), ("sourced".into(), format!("{S}.jsonl:3")));
}

/// A bad `--tz` is a clear error naming the value, exit 2, on every command that reads
/// transcripts.
#[test]
fn a_bad_tz_is_an_error_naming_it() {
    let (_g, dream, memory) = right_notes();
    let (d, m) = (dream.to_str().unwrap(), memory.to_str().unwrap());
    for args in [
        vec!["check", d, "--memory", m, "--tz", "Mars/Olympus_Mons"],
        vec!["review", d, "--memory", m, "--tz", "Mars/Olympus_Mons"],
        vec!["apply", d, "--memory", m, "--accept-all", "--tz", "Mars/Olympus_Mons"],
    ] {
        let r = run(dream.parent().unwrap(), &args);
        assert_eq!(r.code, 2, "{args:?}: {}", r.both());
        assert!(r.stderr.contains("\"Mars/Olympus_Mons\" is not a time zone"), "{args:?}: {}", r.both());
    }
    let help = run(dream.parent().unwrap(), &["check", "--help"]);
    assert!(help.stdout.contains("--tz <ZONE>"), "{}", help.stdout);
}

const INDEX: &str = "# MEMORY\n\n- Prefers short PR descriptions.\n";

/// An OpenClaw daily note: its lines are dated by the file name, exactly. Each says
/// "yesterday" in its own language; a promoted line giving the note's own day is off by one
/// (flagged with the arithmetic), one giving the day before is what the line states.
/// (Old code sourced the wrong dates by the note's day and flagged the right ones.)
#[test]
fn an_openclaw_daily_note_yesterday_in_four_languages() {
    let daily_text = "# Daily notes\n\n\
- 昨日ステージングにデプロイした。\n\
- 어제 Redis를 7.2로 올렸다.\n\
- Rotated the API keys yesterday.\n\
- 昨天把 CI 切换到了 Buildkite。\n";
    let daily = ("memory/2026-03-10.md", daily_text);
    let promoted = format!(
        "{INDEX}\n## Promoted From Short-Term Memory (2026-03-11)\n\n\
- 2026-03-10にステージングへデプロイ。 [score=0.901 recalls=0 avg=0.620 source=memory/2026-03-10.md:3-3]\n\
- 2026년 3월 9일 Redis 7.2로 업그레이드. [score=0.880 recalls=0 avg=0.610 source=memory/2026-03-10.md:4-4]\n\
- API keys rotated on March 10, 2026. Source: memory/2026-03-10.md#L5-L5\n\
- 2026年3月9日 CI 切换到 Buildkite。 Source: memory/2026-03-10.md#L6-L6\n"
    );
    let (_g, dream, memory) = dream_fixture(&[("MEMORY.md", INDEX), daily], &[("MEMORY.md", &promoted), daily], "");
    std::fs::remove_file(dream.join("CHANGES.md")).unwrap();
    let (_, v) = check_env(&dream, &memory, &[], &[]);
    assert_eq!(
        date_flags(&v),
        vec![
            flag_row("MEMORY.md#1", "inferred-date", "warning", "2026-03-10"),
            flag_row("MEMORY.md#1", "inferred-date", "warning", "March 10, 2026"),
        ],
        "{v:#}"
    );
    assert_eq!(
        message(&v, "MEMORY.md#1", "2026-03-10"),
        "«2026-03-10» — 昨日 said on 2026-03-10 means 2026-03-09 (memory/2026-03-10.md:3)"
    );
    assert_eq!(
        message(&v, "MEMORY.md#1", "March 10, 2026"),
        "«March 10, 2026» — yesterday said on 2026-03-10 means 2026-03-09 (memory/2026-03-10.md:5)"
    );
    assert_eq!(claim_status(&v, "MEMORY.md#1", "2026년 3월 9일"), ("sourced".into(), "memory/2026-03-10.md:4".into()));
    assert_eq!(claim_status(&v, "MEMORY.md#1", "2026年3月9日"), ("sourced".into(), "memory/2026-03-10.md:6".into()));
}

/// A rolling window ends on the day its line was said: a month computed from it is an
/// inferred date naming the window and what it denotes. (Old code saw no phrase.)
#[test]
fn a_rolling_window_is_named_with_its_days() {
    let live = "---\nname: stats\ndescription: Package stats\ntype: project\n---\n\n- Stats come from npm.\n";
    let en = format!("{live}- 4,310 downloads in February 2026.\n");
    let ja = format!("{live}- 2026年2月のダウンロードは4,310件。\n");
    let changes = format!(
        "- memory/stats.md: downloads ({S}.jsonl:1)\n\
         - memory/stats-ja.md: ダウンロード数 ({S}.jsonl:2)\n"
    );
    let (_g, dream, memory) = dream_fixture(
        &[("stats.md", live), ("stats-ja.md", live)],
        &[("stats.md", &en), ("stats-ja.md", &ja)],
        &changes,
    );
    let lines = [
        user(1, "2026-03-10T09:00:00.000Z", "npm stats: 4,310 downloads in the last 30 days."),
        user(2, "2026-03-10T09:01:00.000Z", "直近30日のダウンロードは4,310件。"),
    ];
    write(&memory.parent().unwrap().join(format!("{S}.jsonl")), &(lines.join("\n") + "\n"));
    let (_, v) = check_env(&dream, &memory, &[], &[]);
    assert_eq!(
        date_flags(&v),
        vec![
            flag_row("stats-ja.md#1", "inferred-date", "warning", "2026年2月"),
            flag_row("stats.md#1", "inferred-date", "warning", "February 2026"),
        ],
        "{v:#}"
    );
    assert_eq!(
        message(&v, "stats.md#1", "February 2026"),
        format!(
            "«February 2026» is stated by no source: probably inferred from the rolling window «the last 30 days» — \
             the last 30 days said on Tue 2026-03-10 means Sun 2026-02-08 to Tue 2026-03-10 ({S}.jsonl:1, 2026-03-10 09:00:00 UTC)"
        )
    );
    assert!(
        message(&v, "stats-ja.md#1", "2026年2月").contains(
            "the rolling window «直近30日» — 直近30日 said on Tue 2026-03-10 means Sun 2026-02-08 to Tue 2026-03-10"
        ),
        "{v:#}"
    );
}

/// A moment converted to another zone must move its day with its hour: the note that keeps
/// the day is contradicted, the right conversion is sourced by the line it converts.
#[test]
fn a_moment_converted_to_another_zone_moves_its_day() {
    let cases = [
        (
            "점검 시간은 한국 시간 6/3 01:00~03:00 입니다.",
            "- DB maintenance: 2026-06-03 16:00-18:00 UTC.",
            "- DB maintenance: 2026-06-02 16:00-18:00 UTC.",
        ),
        (
            "The freeze starts 2026-06-02 at 01:30 CEST and lasts two hours.",
            "- Release freeze from 2026-06-02 16:30 PDT.",
            "- Release freeze from 2026-06-01 16:30 PDT.",
        ),
    ];
    for (said, wrong, right) in cases {
        let log = [record(1, "user", "when is it?".into()), record(2, "assistant", said.into())].concat();
        let k = session_kinds(&log, wrong, "1-2");
        assert!(k.iter().any(|k| k == "contradicted"), "{wrong}: {k:?}");
        let k = session_kinds(&log, right, "1-2");
        assert!(k.is_empty(), "{right}: {k:?}");
    }
}
