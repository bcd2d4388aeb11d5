//! Tool noise never sources a claim: a number a tool printed beside the text (the `Read`
//! tool's line-number gutter, `cat -n`, `grep -n`) is not said by the line, so a claim
//! whose only source is such a number is unsourced; the same fact said in words is
//! sourced. Built in temp dirs from Claude Code shaped transcripts, driven through
//! `check --json`.

use crate::common::*;
use serde_json::json;
use std::path::PathBuf;

const S: &str = "9b4e2f17-6c3a-4d58-8e91-0a7f3c2d5b64";

const FM: &str = "---\nname: seed\ndescription: The development seed data\ntype: project\n---\n\n";

fn envelope(n: u32, ts: &str, ty: &str, message: serde_json::Value) -> String {
    json!({
        "parentUuid": if n > 1 { json!(format!("u-{:04}", n - 1)) } else { json!(null) },
        "isSidechain": false, "userType": "external", "cwd": "/home/dev/app", "sessionId": S,
        "version": "2.1.38", "gitBranch": "main", "type": ty, "message": message,
        "uuid": format!("u-{n:04}"), "timestamp": ts
    })
    .to_string()
}

fn user(n: u32, ts: &str, text: &str) -> String {
    envelope(n, ts, "user", json!({"role": "user", "content": text}))
}

fn tool_use(n: u32, ts: &str, name: &str, input: serde_json::Value) -> String {
    envelope(
        n,
        ts,
        "assistant",
        json!({"model": "claude-opus-4-6", "id": format!("msg_{n:04}"), "type": "message", "role": "assistant",
            "content": [{"type": "tool_use", "id": format!("toolu_{n:04}"), "name": name, "input": input}],
            "stop_reason": "tool_use", "usage": {"input_tokens": 4, "output_tokens": 21}}),
    )
}

fn tool_result(n: u32, ts: &str, output: &str) -> String {
    envelope(
        n,
        ts,
        "user",
        json!({"role": "user", "content": [{"tool_use_id": format!("toolu_{:04}", n - 1), "type": "tool_result",
            "content": output}]}),
    )
}

/// A project whose one session is `lines`, and a dream adding "The seed script inserts
/// 58 users." to seed.md, citing the whole session.
fn project(lines: &[String]) -> (tempfile::TempDir, PathBuf, PathBuf) {
    let live = format!("{FM}- Run `make seed` to load the development data.\n");
    let proposed =
        format!("{FM}- Run `make seed` to load the development data.\n- The seed script inserts 58 users.\n");
    let changes = format!("- seed.md: how many users the seed inserts ({S}.jsonl:1-{})\n", lines.len());
    let (g, dream, memory) = dream_fixture(&[("seed.md", &live)], &[("seed.md", &proposed)], &changes);
    write(&memory.parent().unwrap().join(format!("{S}.jsonl")), &(lines.join("\n") + "\n"));
    (g, dream, memory)
}

/// What `check --json` says of «58 users»: its flags on seed.md and its claim status.
fn verdict(lines: &[String]) -> (Vec<FlagRow>, (String, String)) {
    let (_g, dream, memory) = project(lines);
    let v = check_json(&dream, &["--memory", memory.to_str().unwrap()]).1;
    (flag_rows(&v), claim_status(&v, "seed.md#1", "58 users"))
}

#[test]
fn a_number_only_a_tool_printed_beside_the_text_sources_no_claim() {
    let ask = user(1, "2026-09-14T08:00:00.000Z", "How does the seed script create the users?");
    // Claude Code's Read: the gutter `    58→` is the tool's, the file says
    // `  users.insert(...)` on its line 58. The only "58" of the session is that gutter.
    let read = [
        ask.clone(),
        tool_use(2, "2026-09-14T08:00:05.000Z", "Read", json!({"file_path": "/home/dev/app/scripts/seed.rs"})),
        tool_result(
            3,
            "2026-09-14T08:00:06.000Z",
            "    56→fn seed(db: &mut Db) {\n    57→    for name in NAMES {\n    58→        users.insert(db, name);\n    59→    }\n    60→}\n",
        ),
    ];
    // Unsourced: its one flag (the entry, whose only claim it is, gets no second).
    let unsourced = vec![flag_row("seed.md#1", "unsourced-claim", "warning", "58 users")];
    let (flags, status) = verdict(&read);
    assert_eq!(flags, unsourced);
    assert_eq!(status.0, "unsourced");
    // The same from the current Read (an unpadded number and a tab), `cat -n` (a tab after
    // the padded number) and `grep -n`.
    let read_now = [
        ask.clone(),
        read[1].clone(),
        tool_result(
            3,
            "2026-09-14T08:00:06.000Z",
            "57\t    for name in NAMES {\n58\t        users.insert(db, name);\n59\t    }\n",
        ),
    ];
    assert_eq!(verdict(&read_now).0, unsourced);
    let cat = [
        ask.clone(),
        tool_use(2, "2026-09-14T08:00:05.000Z", "Bash", json!({"command": "cat -n scripts/seed.rs"})),
        tool_result(
            3,
            "2026-09-14T08:00:06.000Z",
            "    57\t    for name in NAMES {\n    58\t        users.insert(db, name);\n",
        ),
    ];
    assert_eq!(verdict(&cat).0, unsourced);
    let grep = [
        ask.clone(),
        tool_use(2, "2026-09-14T08:00:05.000Z", "Bash", json!({"command": "grep -rn users scripts"})),
        tool_result(3, "2026-09-14T08:00:06.000Z", "scripts/seed.rs:58:        users.insert(db, name);\n"),
    ];
    assert_eq!(verdict(&grep).0, unsourced);
    // Said in words, the fact is sourced, by the line that says it.
    let mut said = read.to_vec();
    said.push(user(4, "2026-09-14T08:01:00.000Z", "Right, the seed inserts 58 users, one per name."));
    let (flags, status) = verdict(&said);
    assert_eq!(flags, vec![]);
    assert_eq!(status, ("sourced".to_string(), format!("{S}.jsonl:4")));
    // A tool's output that says it in words sources it too.
    let log = [
        ask,
        tool_use(2, "2026-09-14T08:00:05.000Z", "Bash", json!({"command": "make seed"})),
        tool_result(3, "2026-09-14T08:00:06.000Z", "seeding…\ninserted 58 users in 0.4s\n"),
    ];
    assert_eq!(verdict(&log), (vec![], ("sourced".to_string(), format!("{S}.jsonl:3"))));
}
