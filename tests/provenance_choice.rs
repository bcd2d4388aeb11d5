//! A choice turned around: the note sets two named things against each other (`A instead of
//! B`, `BではなくA`, `A而不是B`) the other way round from the cited lines, which chose B.
//! Such a line is `contradicted`; the note that keeps the cited choice is not, nor one whose
//! cited lines chose both or neither.

use crate::common::{check_json, dream_fixture, flag_rows, write};

const SESSION: &str = "c401ce00-1111-4222-8333-444455556666";

fn log() -> String {
    let lines = [
        r#"{"timestamp":"2026-04-07T10:00:00Z","role":"user","content":"which backend should the photo classifier use on phones?"}"#,
        r#"{"timestamp":"2026-04-07T10:00:09Z","role":"assistant","content":"WebGPU would need the 172 MB fp16 weights, double the 87 MB q8 download. A small download matters more, so I'll use quantized WASM everywhere."}"#,
        r#"{"timestamp":"2026-04-07T10:01:00Z","role":"user","content":"sounds good, go ahead"}"#,
        r#"{"timestamp":"2026-04-07T10:02:00Z","role":"user","content":"キャッシュはRedisではなくValkeyにします。ライセンスの都合です。"}"#,
        r#"{"timestamp":"2026-04-07T10:03:00Z","role":"assistant","content":"包管理器改用pnpm，不再用npm，因为工作区需要它。"}"#,
        r#"{"timestamp":"2026-04-07T10:04:00Z","role":"assistant","content":"Both WebGPU and WASM builds are kept: we use WASM and WebGPU depending on the device."}"#,
    ];
    lines.join("\n") + "\n"
}

fn check(note: &str, line: u32) -> Vec<crate::common::FlagRow> {
    let changes = format!("- stack.md: stack decisions ({SESSION}.jsonl:{line})\n");
    let (g, dream, memory) = dream_fixture(
        &[("MEMORY.md", "- [Stack](stack.md)\n")],
        &[("MEMORY.md", "- [Stack](stack.md)\n"), ("stack.md", note)],
        &changes,
    );
    write(&memory.parent().unwrap().join(format!("{SESSION}.jsonl")), &log());
    let (_, v) = check_json(&dream, &["--memory", memory.to_str().unwrap(), "--tz", "UTC"]);
    drop(g);
    flag_rows(&v)
}

fn contradicted(rows: &[crate::common::FlagRow]) -> bool {
    rows.iter().any(|r| r.0 == "stack.md#1" && r.1 == "contradicted")
}

#[test]
fn a_choice_the_cited_line_made_the_other_way_is_contradicted() {
    let rows = check("- Decision: WebGPU everywhere instead of quantized WASM, for speed on phones.\n", 2);
    assert!(contradicted(&rows), "{rows:#?}");
    let rows = check("- Decision: quantized WASM everywhere instead of WebGPU: a small download matters more.\n", 2);
    assert!(rows.is_empty(), "{rows:#?}");
}

#[test]
fn a_choice_turned_around_in_japanese() {
    let rows = check("- キャッシュはValkeyではなくRedisを使う。\n", 4);
    assert!(contradicted(&rows), "{rows:#?}");
    let rows = check("- キャッシュはRedisではなくValkeyを使う。\n", 4);
    assert!(rows.is_empty(), "{rows:#?}");
}

#[test]
fn a_choice_turned_around_in_chinese() {
    let rows = check("- 包管理器用npm而不是pnpm。\n", 5);
    assert!(contradicted(&rows), "{rows:#?}");
    let rows = check("- 包管理器用pnpm而不是npm。\n", 5);
    assert!(rows.is_empty(), "{rows:#?}");
}

#[test]
fn cited_lines_that_chose_both_decide_nothing() {
    let rows = check("- WebGPU on desktops instead of WASM.\n", 6);
    assert!(!contradicted(&rows), "{rows:#?}");
}
