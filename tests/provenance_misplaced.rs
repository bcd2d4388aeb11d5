//! A sentence cited at the wrong place: the entry cites a line a few lines off the one that
//! says what the note says. When the note line holds no value claim, only its sentence can
//! tell: it is `citation-unsupported`, naming the line that says it. A line that says it
//! in other words, or a citation of the right line, is not flagged.

use crate::common::{check_json, dream_fixture, flag_rows, write};

const SESSION: &str = "c17ec17e-1111-4222-8333-444455556666";

/// A session: the user's request (line 1), what they asked to keep (line 2), the
/// assistant's unrelated answer (line 3), more unrelated work (lines 4-6).
fn log(keep: &str) -> String {
    let said = [
        ("user", "Can you look at the flaky checkout test?"),
        ("user", keep),
        ("assistant", "Looking at the checkout test now; the fixture loads a stale cart."),
        ("assistant", "The fixture was reset between tests, which fixed the flake."),
        ("user", "Great, thanks."),
        ("assistant", "Pushed the fix to the branch."),
    ];
    said.iter()
        .enumerate()
        .map(|(i, (role, s))| {
            let v = serde_json::json!({"timestamp": format!("2026-05-02T09:0{i}:00Z"), "role": role, "content": s});
            v.to_string() + "\n"
        })
        .collect()
}

fn check(keep: &str, note: &str, line: u32) -> (Vec<crate::common::FlagRow>, String) {
    let changes = format!("## conventions.md\n- conventions.md: how the user wants it done ({SESSION}.jsonl:{line})\n");
    let (g, dream, memory) = dream_fixture(
        &[("MEMORY.md", "- [Conventions](conventions.md)\n")],
        &[
            ("MEMORY.md", "- [Conventions](conventions.md)\n"),
            ("conventions.md", &format!("# Conventions\n\n- {note}\n")),
        ],
        &changes,
    );
    write(&memory.parent().unwrap().join(format!("{SESSION}.jsonl")), &log(keep));
    let (_, v) = check_json(&dream, &["--memory", memory.to_str().unwrap(), "--tz", "UTC"]);
    drop(g);
    (flag_rows(&v), v.to_string())
}

/// (what the user said, the note line stating it, the note line in other words).
const SAID: &[(&str, &str, &str)] = &[
    (
        "Write commit messages in English and PR descriptions in Japanese, please.",
        "Write commit messages in English and PR descriptions in Japanese.",
        "Use English for commits; Japanese is for describing pull requests.",
    ),
    (
        "コミットメッセージは英語で、PR の説明は日本語で書いてね。",
        "コミットメッセージは英語で、PR の説明は日本語で書く。",
        "コミットは英語。プルリクは日本語で。",
    ),
    (
        "커밋 메시지는 영어로, PR 설명은 한국어로 써 줘.",
        "커밋 메시지는 영어로, PR 설명은 한국어로 쓴다.",
        "커밋은 영어, 풀 리퀘스트는 한국어.",
    ),
    ("提交信息用英文写，PR 描述用中文写。", "提交信息用英文写，PR 描述用中文写。", "英文提交；中文拉取请求。"),
];

#[test]
fn a_sentence_cited_a_few_lines_off_is_unsupported_naming_the_line_that_says_it() {
    for (keep, note, other_words) in SAID {
        for off in [3, 4, 5] {
            let (rows, json) = check(keep, note, off);
            let flagged = rows.iter().any(|r| r.0 == "conventions.md#1" && r.1 == "citation-unsupported");
            assert!(flagged, "{keep} cited at line {off}: {rows:#?}");
            assert!(json.contains(&format!("it is said at {SESSION}.jsonl:2")), "{json}");
        }
        let (rows, _) = check(keep, note, 2);
        assert!(rows.is_empty(), "{keep} cited at its line: {rows:#?}");
        // Its names may still be said elsewhere (`English`): the sentence is not.
        let (rows, _) = check(keep, other_words, 4);
        let sentence = |claim: &str| claim.contains(' ') && other_words.contains(claim);
        assert!(!rows.iter().any(|r| r.1 == "citation-unsupported" && sentence(&r.3)), "{other_words}: {rows:#?}");
    }
}

const OTHER: &str = "0717e000-1111-4222-8333-444455556666";

/// Like [`check`], with a second session `OTHER` that says `other` at line 1, the entry
/// citing `cite`.
fn check_other(keep: &str, note: &str, other: &str, cite: &str) -> Vec<crate::common::FlagRow> {
    let changes = format!("## conventions.md\n- conventions.md: how the user wants it done ({cite})\n");
    let (g, dream, memory) = dream_fixture(
        &[("MEMORY.md", "- [Conventions](conventions.md)\n")],
        &[
            ("MEMORY.md", "- [Conventions](conventions.md)\n"),
            ("conventions.md", &format!("# Conventions\n\n- {note}\n")),
        ],
        &changes,
    );
    write(&memory.parent().unwrap().join(format!("{SESSION}.jsonl")), &log(keep));
    let line = serde_json::json!({"timestamp": "2026-05-03T09:00:00Z", "role": "assistant", "content": other});
    write(&memory.parent().unwrap().join(format!("{OTHER}.jsonl")), &(line.to_string() + "\n"));
    let (_, v) = check_json(&dream, &["--memory", memory.to_str().unwrap(), "--tz", "UTC"]);
    drop(g);
    flag_rows(&v)
}

#[test]
fn a_citation_of_another_session_that_shares_no_word_with_the_note_is_unsupported() {
    let unrelated = [
        ("Noted: Omar owns the payments app; Dana reviews every migration.", true),
        ("メモしました：決済アプリはオマールが担当します。", true),
        // One word in common: a paraphrase of an edit shares little with it; left alone.
        ("Updated the commit hook to lint messages.", false),
    ];
    for (keep, note, _) in SAID {
        for (other, flagged) in unrelated {
            let rows = check_other(keep, note, other, &format!("{OTHER}.jsonl:1"));
            let unsupported = |r: &&crate::common::FlagRow| r.0 == "conventions.md#1" && r.1 == "citation-unsupported";
            // The English note's names (`English`, `Japanese`) get flags of their own; a
            // note with no value claim gets the sentence's. The CJK notes share no word
            // with the English line that has `commit` either.
            let sentence = |r: &&crate::common::FlagRow| unsupported(r) && r.3.chars().count() > 12;
            if flagged || !keep.is_ascii() {
                assert!(rows.iter().any(|r| unsupported(&r)), "{note} cited at «{other}»: {rows:#?}");
            } else {
                assert!(!rows.iter().any(|r| sentence(&r)), "{note} cited at «{other}»: {rows:#?}");
            }
        }
        let rows = check_other(keep, note, "unrelated", &format!("{SESSION}.jsonl:2"));
        assert!(rows.is_empty(), "{note} cited at its line: {rows:#?}");
    }
}
