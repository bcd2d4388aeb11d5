//! Sentences turned around where the cited lines do not say it: a rewrite that takes the
//! other side of the live line it replaces (`before every push` → `after every push`,
//! 必須 → 任意, 필수 → 선택, 必须 → 可选) with a citation about something else is
//! `contradicted`; with a citation that says the new side it is not. A cited sentence that
//! says both sides of a pair (`required for production, and optional for staging`) is
//! read part by part, and `never X` says what `don't X` says.

use crate::common::{check_json, dream_fixture, flag_rows, write};

const SESSION: &str = "f11bf11b-1111-4222-8333-444455556666";

fn log(said: &[&str]) -> String {
    said.iter()
        .enumerate()
        .map(|(i, s)| {
            let v = serde_json::json!({"timestamp": format!("2026-05-02T09:0{i}:00Z"), "role": "user", "content": s});
            v.to_string() + "\n"
        })
        .collect()
}

/// The flags of a dream that rewrites `live` (a line of notes.md) as `proposed`, citing
/// line 1 of a session that says `said`.
fn check(live: &str, proposed: &str, said: &[&str]) -> Vec<crate::common::FlagRow> {
    checked(live, proposed, said).0
}

/// [`check`]'s flags, and the messages of its `contradicted` flags.
fn checked(live: &str, proposed: &str, said: &[&str]) -> (Vec<crate::common::FlagRow>, Vec<String>) {
    let changes = format!("- notes.md: updated ({SESSION}.jsonl:1)\n");
    let head = "# Notes\n\n- The API is written in Go.\n";
    let (g, dream, memory) = dream_fixture(
        &[("MEMORY.md", "- [Notes](notes.md)\n"), ("notes.md", &format!("{head}{live}\n"))],
        &[("MEMORY.md", "- [Notes](notes.md)\n"), ("notes.md", &format!("{head}{proposed}\n"))],
        &changes,
    );
    write(&memory.parent().unwrap().join(format!("{SESSION}.jsonl")), &log(said));
    let (_, v) = check_json(&dream, &["--memory", memory.to_str().unwrap(), "--tz", "UTC"]);
    drop(g);
    let mut messages = Vec::new();
    let mut stack = vec![&v];
    while let Some(x) = stack.pop() {
        match x {
            serde_json::Value::Object(o) => {
                if o.get("kind").and_then(|k| k.as_str()) == Some("contradicted") {
                    messages.extend(o.get("message").and_then(|m| m.as_str()).map(str::to_string));
                }
                stack.extend(o.values());
            }
            serde_json::Value::Array(a) => stack.extend(a),
            _ => {}
        }
    }
    (flag_rows(&v), messages)
}

fn contradicted(rows: &[crate::common::FlagRow]) -> bool {
    rows.iter().any(|r| r.0 == "notes.md#1" && r.1 == "contradicted")
}

/// (live line, the dream's rewrite turning it around, the same rewrite keeping its side, a
/// user turn about something else in the line, one that says the new side).
const TURNED: &[(&str, &str, &str, &str, &str)] = &[
    (
        "- Run `pytest -q` before every push.",
        "- Run `pytest -q -n 8` after every push: the suite has 1,284 tests.",
        "- Run `pytest -q -n 8` before every push: the suite has 1,284 tests.",
        "The suite has 1,284 tests now and we run it with pytest -q -n 8.",
        "From now on run pytest -q -n 8 after every push, not before; the suite has 1,284 tests.",
    ),
    (
        "- Staging deploys are enabled on every merge.",
        "- Staging deploys are disabled on every merge to main.",
        "- Staging deploys are enabled on every merge to main.",
        "We only merge to main now.",
        "Staging deploys are disabled on merges to main from today.",
    ),
    (
        "- 本番デプロイには承認が必須。",
        "- 本番デプロイには承認が任意（担当は佐藤さん）。",
        "- 本番デプロイには承認が必須（担当は佐藤さん）。",
        "本番デプロイの担当は佐藤さんです。",
        "本番デプロイの承認は任意にしました。担当は佐藤さんです。",
    ),
    (
        "- 운영 배포에는 승인이 필수.",
        "- 운영 배포에는 승인이 선택 (담당 오마르).",
        "- 운영 배포에는 승인이 필수 (담당 오마르).",
        "운영 배포 담당은 오마르입니다.",
        "운영 배포 승인은 이제 선택이에요. 담당은 오마르입니다.",
    ),
    (
        "- 生产部署必须审批。",
        "- 生产部署可选审批（负责人 Omar）。",
        "- 生产部署必须审批（负责人 Omar）。",
        "生产部署的负责人是 Omar。",
        "生产部署现在可选审批，负责人是 Omar。",
    ),
];

#[test]
fn a_rewrite_that_turns_the_live_line_around_on_no_source_is_contradicted() {
    for (live, turned, kept, other, says) in TURNED {
        let (rows, messages) = checked(live, turned, &[other]);
        assert!(contradicted(&rows), "{live} → {turned}: {rows:#?}");
        assert!(messages.iter().any(|m| m.contains("notes.md:4")), "names the live line: {messages:#?}");
        let rows = check(live, kept, &[other]);
        assert!(!contradicted(&rows), "{live} → {kept}: {rows:#?}");
        let rows = check(live, turned, &[says]);
        assert!(!contradicted(&rows), "{live} → {turned} said as {says}: {rows:#?}");
    }
}

#[test]
fn a_sentence_that_says_both_sides_is_read_part_by_part() {
    for (said, turned, kept) in [
        (
            "Approval is required for production deploys, and optional for staging.",
            "- Approval is optional for production deploys.",
            "- Approval is required for production deploys.",
        ),
        (
            "本番デプロイには承認が必須で、ステージングは任意。",
            "- 本番デプロイには承認が任意。",
            "- 本番デプロイには承認が必須。",
        ),
    ] {
        let rows = check("- Deploys go through CI.", &format!("- Deploys go through CI.\n{turned}"), &[said]);
        assert!(contradicted(&rows), "{said} → {turned}: {rows:#?}");
        let rows = check("- Deploys go through CI.", &format!("- Deploys go through CI.\n{kept}"), &[said]);
        assert!(!contradicted(&rows), "{said} → {kept}: {rows:#?}");
    }
}

#[test]
fn a_denial_joined_by_and_is_judged_on_its_own() {
    let said = "The package still exists and is actively maintained. There's no replacement needed.";
    let turned = "- opentelemetry_exporter is not still maintained and nothing replaces it.";
    let rows = check("- Deploys go through CI.", &format!("- Deploys go through CI.\n{turned}"), &[said]);
    assert!(contradicted(&rows), "{rows:#?}");
    let kept = "- opentelemetry_exporter is still maintained and nothing replaces it.";
    let rows = check("- Deploys go through CI.", &format!("- Deploys go through CI.\n{kept}"), &[said]);
    assert!(!contradicted(&rows), "{rows:#?}");
}

#[test]
fn never_says_what_dont_says() {
    let said = "No, don't add a cron job; use the existing job queue instead.";
    let kept = "- Reload fixtures through the job queue, never a cron job.";
    let rows = check("- Deploys go through CI.", &format!("- Deploys go through CI.\n{kept}"), &[said]);
    assert!(!contradicted(&rows), "{rows:#?}");
}
