//! Rule or remark, and what the dream left out: a standing rule the user said once as a
//! passing remark is `one-off` (info), with how often it was said beside it; a correction
//! of the user's that an added line still contradicts is `correction-lost` (error); the
//! user's lasting instructions the memory does not hold, and the notes the dream deletes
//! (with the sessions that read them), are listed in the left-out section.

use crate::common::{check_json, dream_fixture, review, write};
use dreamreview::analysis::flag::FlagKind;
use dreamreview::analysis::provenance::leftout::{LeftOutKind, LeftOutState};

const A: &str = "a1b2c3d4-1111-4222-8333-444455556666";
const B: &str = "b1b2c3d4-1111-4222-8333-444455556666";

/// A Claude Code line of session `session`, said on day `day` of November 2026.
fn line(session: &str, n: usize, day: u32, ty: &str, content: serde_json::Value) -> String {
    let v = serde_json::json!({
        "parentUuid": null, "isSidechain": false, "type": ty, "sessionId": session,
        "uuid": format!("00000000-0000-4000-8000-{n:012}"),
        "timestamp": format!("2026-11-{day:02}T09:{n:02}:00.000Z"),
        "message": {"role": ty, "content": content},
    });
    v.to_string() + "\n"
}

fn user(session: &str, n: usize, day: u32, text: &str) -> String {
    line(session, n, day, "user", serde_json::json!(text))
}

fn assistant(session: &str, n: usize, day: u32, text: &str) -> String {
    line(session, n, day, "assistant", serde_json::json!([{"type": "text", "text": text}]))
}

/// The review of a dream that turns `live` (notes.md) into `proposed`, citing `A.jsonl:1`,
/// over the sessions given as (id, text).
fn analyze(
    sessions: &[(&str, String)],
    live: &[(&str, &str)],
    proposed: &[(&str, &str)],
) -> (dreamreview::model::review::Review, dreamreview::analysis::result::Analysis, tempfile::TempDir) {
    let (g, dream, memory) = dream_fixture(live, proposed, &format!("- notes.md: what the user said ({A}.jsonl:1)\n"));
    for (id, text) in sessions {
        write(&memory.parent().unwrap().join(format!("{id}.jsonl")), text);
    }
    let (r, a) = review(&dream, &memory);
    (r, a, g)
}

fn kinds(a: &dreamreview::analysis::result::Analysis) -> Vec<FlagKind> {
    a.findings.all().flat_map(|(_, h)| h.flags.iter().map(|f| f.kind)).collect()
}

/// (user remark, the rule the note makes of it, the same remark said as lasting), per
/// language.
const REMARKS: &[(&str, &str, &str)] = &[
    (
        "Use pnpm for the install step in CI.",
        "- Always use pnpm for the install step in CI.\n",
        "From now on, use pnpm for the install step in CI.",
    ),
    (
        "CI のインストール手順では pnpm を使って。",
        "- CI のインストール手順では必ず pnpm を使う。\n",
        "今後、CI のインストール手順では pnpm を使って。",
    ),
    (
        "CI 설치 단계에서는 pnpm 을 써 줘.",
        "- CI 설치 단계에서는 항상 pnpm 을 쓴다.\n",
        "앞으로 CI 설치 단계에서는 pnpm 을 써 줘.",
    ),
    ("CI 的安装步骤用 pnpm。", "- CI 的安装步骤总是用 pnpm。\n", "以后 CI 的安装步骤用 pnpm。"),
];

#[test]
fn a_rule_from_one_passing_remark_is_one_off_in_every_language() {
    for (remark, rule, _) in REMARKS {
        let s = user(A, 1, 2, remark) + &assistant(A, 2, 2, "Done.");
        let (_r, a, _g) = analyze(&[(A, s)], &[("notes.md", "# CI\n")], &[("notes.md", &format!("# CI\n{rule}"))]);
        let flags: Vec<_> = a.findings.all().flat_map(|(_, h)| h.flags.clone()).collect();
        let one_off: Vec<_> = flags.iter().filter(|f| f.kind == FlagKind::OneOff).collect();
        assert_eq!(one_off.len(), 1, "{remark} → {rule}: {flags:#?}");
        assert_eq!(one_off[0].severity.name(), "info");
        assert_eq!(one_off[0].source.as_deref(), Some(format!("{A}.jsonl:1").as_str()));
        let rules: Vec<_> = a.findings.all().flat_map(|(_, h)| h.rules.clone()).collect();
        assert_eq!((rules.len(), rules[0].remarks, rules[0].phrase().as_str()), (1, 1, "said once, in one session"));
    }
}

#[test]
fn a_remark_said_as_lasting_or_said_again_is_a_rule() {
    for (remark, rule, lasting) in REMARKS {
        // Lasting words in the user's sentence (not in the note's).
        let s = user(A, 1, 2, lasting) + &assistant(A, 2, 2, "Done.");
        let (_r, a, _g) = analyze(&[(A, s)], &[("notes.md", "# CI\n")], &[("notes.md", &format!("# CI\n{rule}"))]);
        assert!(!kinds(&a).contains(&FlagKind::OneOff), "{lasting}");
        let rules: Vec<_> = a.findings.all().flat_map(|(_, h)| h.rules.clone()).collect();
        assert!(rules[0].lasting, "{lasting}");
        // Said in two sessions on two days.
        let one = user(A, 1, 2, remark) + &assistant(A, 2, 2, "Done.");
        let two = user(B, 1, 5, remark) + &assistant(B, 2, 5, "Done.");
        let (_r, a, _g) =
            analyze(&[(A, one), (B, two)], &[("notes.md", "# CI\n")], &[("notes.md", &format!("# CI\n{rule}"))]);
        assert!(!kinds(&a).contains(&FlagKind::OneOff), "{remark} twice");
        let rules: Vec<_> = a.findings.all().flat_map(|(_, h)| h.rules.clone()).collect();
        assert_eq!(rules[0].phrase(), "said in 2 sessions over 2 days", "{remark}");
    }
}

/// (what the assistant said, the user's correction, the line that still says it, the line
/// that says the correction), per language.
const CORRECTIONS: &[(&str, &str, &str, &str)] = &[
    (
        "The ledger DB runs Postgres 15.",
        "No, it's Postgres 16, not 15.",
        "- The ledger DB runs Postgres 15.\n",
        "- The ledger DB runs Postgres 16.\n",
    ),
    (
        "ledger DB は Postgres 15 です。",
        "いや、Postgres は 15 じゃなくて 16 だよ。",
        "- ledger DB は Postgres 15 で動いている。\n",
        "- ledger DB は Postgres 16 で動いている。\n",
    ),
    (
        "ledger DB 는 Postgres 15 입니다.",
        "아니, Postgres 는 15 말고 16 이야.",
        "- ledger DB 는 Postgres 15 에서 돈다.\n",
        "- ledger DB 는 Postgres 16 에서 돈다.\n",
    ),
    (
        "ledger 数据库是 Postgres 15。",
        "不是 15，Postgres 是 16。",
        "- ledger 数据库运行 Postgres 15。\n",
        "- ledger 数据库运行 Postgres 16。\n",
    ),
];

#[test]
fn a_line_that_still_says_what_the_user_corrected_is_correction_lost_in_every_language() {
    for (said, correction, lost, kept) in CORRECTIONS {
        // The cited session says it; a later one of the window corrects it.
        let s = assistant(A, 1, 2, said);
        let later = assistant(B, 1, 3, said) + &user(B, 2, 3, correction) + &assistant(B, 3, 3, "Noted.");
        let sessions = [(A, s), (B, later)];
        let (_r, a, _g) = analyze(&sessions, &[("notes.md", "# DB\n")], &[("notes.md", &format!("# DB\n{lost}"))]);
        let flags: Vec<_> = a.findings.all().flat_map(|(_, h)| h.flags.clone()).collect();
        let f = flags.iter().find(|f| f.kind == FlagKind::CorrectionLost);
        let f = f.unwrap_or_else(|| panic!("{correction} → {lost}: {flags:#?}"));
        assert_eq!((f.severity.name(), f.source.as_deref()), ("error", Some(format!("{B}.jsonl:2").as_str())));
        assert!(a.left_out.iter().any(|l| l.kind == LeftOutKind::Correction && l.flagged), "{:#?}", a.left_out);
        // The line the dream writes as corrected: nothing lost, nothing left out.
        let (_r, a, _g) = analyze(&sessions, &[("notes.md", "# DB\n")], &[("notes.md", &format!("# DB\n{kept}"))]);
        assert!(!kinds(&a).contains(&FlagKind::CorrectionLost), "{kept}");
        assert!(a.left_out.is_empty(), "{kept}: {:#?}", a.left_out);
    }
}

#[test]
fn a_live_line_the_dream_leaves_contradicting_a_correction_is_listed_not_flagged() {
    let (said, correction, lost, _) = CORRECTIONS[0];
    let s = assistant(A, 1, 2, said) + &user(A, 2, 2, correction);
    let live = format!("# DB\n{lost}");
    let (_r, a, _g) =
        analyze(&[(A, s)], &[("notes.md", &live)], &[("notes.md", &format!("{live}- Backups run nightly.\n"))]);
    assert!(!kinds(&a).contains(&FlagKind::CorrectionLost));
    let l = a.left_out.iter().find(|l| l.kind == LeftOutKind::Correction).expect("listed");
    assert_eq!(
        (l.state, l.contradicted_by.as_deref(), l.flagged),
        (LeftOutState::Contradicted, Some("notes.md:2"), false)
    );
}

/// (a lasting instruction, one said for the moment), per language.
const INSTRUCTIONS: &[(&str, &str)] = &[
    ("Remember that the staging database is read-only.", "Check the staging database now."),
    ("今後、ステージングのデータベースは読み取り専用として扱って。", "ステージングのデータベースを確認して。"),
    ("앞으로 스테이징 데이터베이스는 읽기 전용으로 다뤄 줘.", "스테이징 데이터베이스를 확인해 줘."),
    ("以后把预发布数据库当作只读。", "检查一下预发布数据库。"),
];

#[test]
fn a_lasting_instruction_the_memory_does_not_hold_is_left_out_in_every_language() {
    for (lasting, passing) in INSTRUCTIONS {
        let s = user(A, 1, 2, lasting) + &assistant(A, 2, 2, "OK.") + &user(A, 3, 2, passing);
        let (_r, a, _g) =
            analyze(&[(A, s)], &[("notes.md", "# DB\n")], &[("notes.md", "# DB\n- Backups run nightly.\n")]);
        let listed: Vec<(&LeftOutKind, Option<&str>)> =
            a.left_out.iter().map(|l| (&l.kind, l.source.as_deref())).collect();
        let at = format!("{A}.jsonl:1");
        assert_eq!(listed, vec![(&LeftOutKind::Instruction, Some(at.as_str()))], "{lasting}");
        // Kept in the memory: not left out.
        let kept = format!("# DB\n- {}\n", lasting);
        let s = user(A, 1, 2, lasting);
        let (_r, a, _g) = analyze(&[(A, s)], &[("notes.md", "# DB\n")], &[("notes.md", &kept)]);
        assert!(a.left_out.is_empty(), "{lasting}: {:#?}", a.left_out);
    }
}

/// (what the user asked to keep, a memory that keeps only part of it, one that keeps it
/// all in other words), per language: two facts joined, one kept; the value of a rule
/// lost, its side remark kept; a requirement kept without the side it takes.
const HALF_KEPT: &[(&str, &str, &str)] = &[
    (
        "Remember: Omar owns the payments app, and Dana reviews every migration.",
        "- Omar owns the payments app.\n",
        "- Omar owns the payments app; Dana reviews every migration.\n",
    ),
    (
        "From now on coverage must stay above 85% (87% since the Django upgrade).",
        "- Django was upgraded to 5.2 (the upgrade is done).\n",
        "- Coverage stays above 85%; it is 87% after the Django upgrade.\n",
    ),
    (
        "覚えておいて：本番デプロイには承認が必須、担当は佐藤さん。",
        "- 本番デプロイの担当は佐藤さん。\n",
        "- 本番デプロイには承認が必須。担当は佐藤さん。\n",
    ),
    (
        "앞으로 결제 앱은 오마르가 맡고, 마이그레이션은 다나가 검토해.",
        "- 결제 앱은 오마르가 맡는다.\n",
        "- 결제 앱은 오마르가 맡고 마이그레이션은 다나가 검토한다.\n",
    ),
    (
        "记住：支付应用归 Omar 负责，每次迁移都由 Dana 审查。",
        "- 支付应用归 Omar 负责。\n",
        "- 支付应用归 Omar 负责；每次迁移都由 Dana 审查。\n",
    ),
];

#[test]
fn an_instruction_the_memory_keeps_only_part_of_is_left_out_in_every_language() {
    for (said, part, whole) in HALF_KEPT {
        let s = user(A, 1, 2, said) + &assistant(A, 2, 2, "OK.");
        let (_r, a, _g) =
            analyze(&[(A, s.clone())], &[("notes.md", "# Team\n")], &[("notes.md", &format!("# Team\n{part}"))]);
        let listed: Vec<(&LeftOutKind, &LeftOutState)> = a.left_out.iter().map(|l| (&l.kind, &l.state)).collect();
        assert_eq!(listed, vec![(&LeftOutKind::Instruction, &LeftOutState::Missing)], "{said} → {part}");
        let (_r, a, _g) = analyze(&[(A, s)], &[("notes.md", "# Team\n")], &[("notes.md", &format!("# Team\n{whole}"))]);
        assert!(a.left_out.is_empty(), "{said} → {whole}: {:#?}", a.left_out);
    }
}

/// The `always` a rule is phrased with need not be repeated by the memory that states it;
/// the rule turned around (`never`) is not stated.
#[test]
fn a_rule_kept_without_its_always_is_kept() {
    let said = "always push with git push --force-with-lease, never plain --force";
    let s = user(A, 1, 2, said) + &assistant(A, 2, 2, "OK.");
    let kept = "# Git\n- Push rewritten branches with `git push --force-with-lease`, never plain `--force`.\n";
    let (_r, a, _g) = analyze(&[(A, s.clone())], &[("notes.md", "# Git\n")], &[("notes.md", kept)]);
    assert!(a.left_out.is_empty(), "{:#?}", a.left_out);
    let lost = "# Git\n- Rewritten branches are pushed by the CI job.\n";
    let (_r, a, _g) = analyze(&[(A, s)], &[("notes.md", "# Git\n")], &[("notes.md", lost)]);
    assert_eq!(a.left_out.len(), 1, "{:#?}", a.left_out);
}

#[test]
fn an_index_line_or_a_description_does_not_keep_an_instruction() {
    let said = "Remember: staging deploys need no approval, production deploys need two.";
    let s = user(A, 1, 2, said) + &assistant(A, 2, 2, "OK.");
    let index = "# Memory\n- [Deploys](deploys.md) — staging and production deploys, approvals\n";
    let note = "---\nname: deploys\ndescription: staging and production deploys need approvals\n---\n\n# Deploys\n";
    let (_r, a, _g) = analyze(
        &[(A, s)],
        &[("notes.md", "# Team\n")],
        &[("notes.md", "# Team\n"), ("MEMORY.md", index), ("deploys.md", note)],
    );
    let listed: Vec<&str> = a.left_out.iter().map(|l| l.text.as_str()).collect();
    assert_eq!(listed, vec![said.trim_end_matches('.')], "{:#?}", a.left_out);
}

#[test]
fn deleted_notes_come_first_with_the_sessions_that_read_them() {
    let read = line(
        A,
        2,
        2,
        "assistant",
        serde_json::json!([{"type": "tool_use", "id": "t1", "name": "Read", "input": {"file_path": "/home/u/.claude/projects/p/memory/deploy.md"}}]),
    );
    let s = user(A, 1, 2, "Remember that the staging database is read-only.") + &read;
    let live = [("notes.md", "# DB\n"), ("deploy.md", "# Deploy\n- Use blue/green.\n"), ("old.md", "# Old\n")];
    let (_r, a, _g) = analyze(&[(A, s)], &live, &[("notes.md", "# DB\n- Backups run nightly.\n")]);
    let listed: Vec<(LeftOutKind, &str, Option<usize>)> =
        a.left_out.iter().map(|l| (l.kind, l.text.as_str(), l.read_by)).collect();
    assert_eq!(listed[0], (LeftOutKind::DeletedNote, "deploy.md", Some(1)));
    assert_eq!(listed[1], (LeftOutKind::DeletedNote, "old.md", Some(0)));
    assert_eq!(listed[2].0, LeftOutKind::Instruction);
}

#[test]
fn check_json_and_text_carry_rules_and_the_left_out_section() {
    let (remark, rule, _) = REMARKS[0];
    let (g, dream, memory) = dream_fixture(
        &[("notes.md", "# CI\n"), ("old.md", "# Old\n")],
        &[("notes.md", &format!("# CI\n{rule}"))],
        &format!("- notes.md: CI ({A}.jsonl:1)\n"),
    );
    write(&memory.parent().unwrap().join(format!("{A}.jsonl")), &user(A, 1, 2, remark));
    let (_, v) = check_json(&dream, &["--memory", memory.to_str().unwrap(), "--tz", "UTC"]);
    let hunk = &v["files"].as_array().unwrap().iter().find(|f| f["path"] == "notes.md").unwrap()["hunks"][0];
    assert_eq!(hunk["rules"][0]["phrase"], "said once, in one session");
    assert_eq!(hunk["rules"][0]["said"][0], format!("{A}.jsonl:1"));
    assert_eq!(v["left_out"][0]["kind"], "deleted-note");
    assert_eq!(v["left_out"][0]["read_by"], 0);
    assert_eq!(v["summary"]["flags"]["info"], 1);
    let r = crate::common::run(
        dream.parent().unwrap(),
        &["check", dream.to_str().unwrap(), "--memory", memory.to_str().unwrap()],
    );
    assert!(
        r.stdout.contains("\nleft out\n  · deleted note old.md (read in no session of the window)"),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout.contains("rule: «- Always use pnpm for the install step in CI.» — said once, in one session"),
        "{}",
        r.stdout
    );
    assert!(r.stdout.contains("info[one-off]"), "{}", r.stdout);
    drop(g);
}

/// A session's first prompt answers nothing: a wish about the task in it (`I don't want to
/// run out of disk`) is no correction the memory must keep. What it forbids or says has
/// changed still is one, when the memory leaves it out.
#[test]
fn a_first_prompt_corrects_only_what_it_forbids_or_says_has_changed() {
    let live = [("MEMORY.md", "- [Notes](notes.md)\n"), ("notes.md", "- Deploys go through CI.\n")];
    let note = "- Deploys go through CI.\n- The fine-tune keeps the last 4 checkpoints, one every 500 steps.\n";
    let proposed = [("MEMORY.md", "- [Notes](notes.md)\n"), ("notes.md", note)];
    let wish = "Before I kick off the fine-tune overnight, check the config is sane — I don't want to run out of disk.";
    let answer = "Looks fine: a checkpoint every 500 steps, the last 4 kept.";
    let (_, a, _g) = analyze(&[(A, user(A, 1, 20, wish) + &assistant(A, 2, 20, answer))], &live, &proposed);
    assert!(a.left_out.is_empty(), "{:#?}", a.left_out);
    for (first, noted) in [
        ("we don't use Redis anymore, sessions moved to ETS", "- Sessions are stored in Redis.\n"),
        (
            "I like rebase merges that keep every commit, please don't squash my branches.",
            "- User prefers squash-merging PRs (keeps main linear).\n",
        ),
    ] {
        let proposed = [("MEMORY.md", "- [Notes](notes.md)\n"), ("notes.md", noted)];
        let (_, a, _g) = analyze(&[(A, user(A, 1, 20, first) + &assistant(A, 2, 20, "OK."))], &live, &proposed);
        assert!(a.left_out.iter().any(|l| l.kind == LeftOutKind::Correction), "{first}: {:#?}", a.left_out);
    }
}
