//! CHANGES.md parsing: entries, notes, every citation form, snippets.

use dreamreview::base::date::Date;
use dreamreview::inputs::changes::{ChangeEntry, Citation, citations_in, dated_source, parse, reference_spans};

const SESSION: &str = "5b0e7c2a-41d3-4c1e-9f0a-2d6b8e3c7a15.jsonl";

/// The reference scenario's CHANGES.md, byte for byte.
const PNPM_CHANGES: &str = "# Changes

- memory/testing.md: replaced `npm test` with `pnpm test`; the project moved from npm to pnpm in late Oct 2026 (5b0e7c2a-41d3-4c1e-9f0a-2d6b8e3c7a15.jsonl line 3)
- memory/testing.md: removed the local Redis requirement; tests use an in-memory fake (5b0e7c2a-41d3-4c1e-9f0a-2d6b8e3c7a15.jsonl line 1)
- memory/testing.md: recorded the verified run: 214 tests passed on 2026-11-01 (5b0e7c2a-41d3-4c1e-9f0a-2d6b8e3c7a15.jsonl line 4)
";

fn cite(raw: &str, file: Option<&str>, start: Option<usize>, end: Option<usize>) -> Citation {
    Citation { raw: raw.to_string(), file: file.map(str::to_string), start, end, bad: None }
}

/// (file, start, end) of every citation of the single entry in `text`.
fn cites(text: &str) -> Vec<(Option<String>, Option<usize>, Option<usize>)> {
    let entries = parse(text);
    assert_eq!(entries.len(), 1, "{entries:#?}");
    entries[0].citations.iter().map(|c| (c.file.clone(), c.start, c.end)).collect()
}

fn line(file: &str, a: usize, b: usize) -> (Option<String>, Option<usize>, Option<usize>) {
    (Some(file.to_string()), Some(a), Some(b))
}

#[test]
fn pnpm_scenario() {
    let entries = parse(PNPM_CHANGES);
    assert_eq!(entries.len(), 3);
    let expect = [(1, 3, 3), (2, 4, 1), (3, 5, 4)];
    for (e, (index, line_no, cited)) in entries.iter().zip(expect) {
        assert_eq!(e.index, index);
        assert_eq!(e.line, line_no);
        assert_eq!(e.notes, vec!["testing.md".to_string()]);
        assert_eq!(e.citations.len(), 1);
        assert_eq!(e.citations[0].file.as_deref(), Some(SESSION));
        assert_eq!(e.citations[0].start, Some(cited));
        assert_eq!(e.citations[0].end, Some(cited));
        assert_eq!(e.snippets, Vec::<String>::new());
    }
    assert_eq!(
        entries[0],
        ChangeEntry {
            index: 1,
            line: 3,
            text: "memory/testing.md: replaced `npm test` with `pnpm test`; the project moved from npm to pnpm in late Oct 2026 (5b0e7c2a-41d3-4c1e-9f0a-2d6b8e3c7a15.jsonl line 3)".into(),
            notes: vec!["testing.md".into()],
            citations: vec![cite(
                "5b0e7c2a-41d3-4c1e-9f0a-2d6b8e3c7a15.jsonl line 3",
                Some(SESSION),
                Some(3),
                Some(3)
            )],
            snippets: vec![],
        }
    );
}

#[test]
fn crlf_and_no_final_newline() {
    let text = PNPM_CHANGES.replace('\n', "\r\n");
    let entries = parse(text.trim_end());
    assert_eq!(entries.len(), 3);
    assert!(entries[2].text.ends_with("line 4)"));
    assert_eq!(entries[2].line, 5);
}

#[test]
fn colon_and_hash_forms() {
    assert_eq!(cites("- x.md: a (abc.jsonl:3)"), vec![line("abc.jsonl", 3, 3)]);
    assert_eq!(cites("- x.md: a (abc.jsonl:3-5)"), vec![line("abc.jsonl", 3, 5)]);
    assert_eq!(cites("- x.md: a (abc.jsonl:3–5)"), vec![line("abc.jsonl", 3, 5)]);
    assert_eq!(cites("- x.md: a abc.jsonl#L3"), vec![line("abc.jsonl", 3, 3)]);
    assert_eq!(cites("- x.md: a abc.jsonl#L3-L5"), vec![line("abc.jsonl", 3, 5)]);
    assert_eq!(cites("- x.md: a abc.jsonl:L3"), vec![line("abc.jsonl", 3, 3)]);
    assert_eq!(cites("- x.md: a abc.jsonl:3,7"), vec![line("abc.jsonl", 3, 3), line("abc.jsonl", 7, 7)]);
}

#[test]
fn word_forms() {
    assert_eq!(cites("- a: abc.jsonl line 3"), vec![line("abc.jsonl", 3, 3)]);
    assert_eq!(cites("- a: abc.jsonl lines 3-5"), vec![line("abc.jsonl", 3, 5)]);
    assert_eq!(cites("- a (abc.jsonl (line 3))"), vec![line("abc.jsonl", 3, 3)]);
    assert_eq!(cites("- a (abc.jsonl (lines 3-5))"), vec![line("abc.jsonl", 3, 5)]);
    assert_eq!(cites("- a: abc.jsonl lines 3, 7"), vec![line("abc.jsonl", 3, 3), line("abc.jsonl", 7, 7)]);
    assert_eq!(cites("- a: abc.jsonl lines 3 and 7–9"), vec![line("abc.jsonl", 3, 3), line("abc.jsonl", 7, 9)]);
    assert_eq!(cites("- a: abc.jsonl, L3"), vec![line("abc.jsonl", 3, 3)]);
    assert_eq!(cites("- a: lines 5 to 3 of abc.jsonl"), vec![line("abc.jsonl", 3, 5)]);
}

#[test]
fn bare_line_refers_to_previous_or_only_file() {
    assert_eq!(
        cites("- a: see abc.jsonl#L3, then L9; b from def.jsonl line 2 and line 7"),
        vec![line("abc.jsonl", 3, 3), line("abc.jsonl", 9, 9), line("def.jsonl", 2, 2), line("def.jsonl", 7, 7)]
    );
    assert_eq!(cites("- L3 says so (abc.jsonl)"), vec![line("abc.jsonl", 3, 3)]);
    assert_eq!(cites("- testing.md: line 7"), vec![(None, Some(7), Some(7))]);
}

#[test]
fn raw_text_as_written() {
    let e = &parse("- testing.md: moved (abc.jsonl (lines 3-5)); also L9")[0];
    assert_eq!(
        e.citations,
        vec![
            cite("abc.jsonl (lines 3-5)", Some("abc.jsonl"), Some(3), Some(5)),
            cite("L9", Some("abc.jsonl"), Some(9), Some(9)),
        ]
    );
}

#[test]
fn session_ids_basenames_and_subagents() {
    assert_eq!(
        cites("- a (5b0e7c2a-41d3-4c1e-9f0a-2d6b8e3c7a15 line 3)"),
        vec![line("5b0e7c2a-41d3-4c1e-9f0a-2d6b8e3c7a15", 3, 3)]
    );
    assert_eq!(
        cites("- a (session 5b0e7c2a-41d3-4c1e-9f0a-2d6b8e3c7a15:3-4)"),
        vec![line("5b0e7c2a-41d3-4c1e-9f0a-2d6b8e3c7a15", 3, 4)]
    );
    assert_eq!(
        cites("- a (session 5b0e7c2a-41d3-4c1e-9f0a-2d6b8e3c7a15#L2)"),
        vec![line("5b0e7c2a-41d3-4c1e-9f0a-2d6b8e3c7a15", 2, 2)]
    );
    assert_eq!(cites("- a (agent-aac57f5.jsonl)"), vec![(Some("agent-aac57f5.jsonl".into()), None, None)]);
    assert_eq!(
        cites("- a (ae4a77f8-aedd-4bc1-888f-c94edc91af04/subagents/agent-aac57f5.jsonl:12)"),
        vec![line("ae4a77f8-aedd-4bc1-888f-c94edc91af04/subagents/agent-aac57f5.jsonl", 12, 12)]
    );
    assert_eq!(cites("- a ~/.claude/projects/x/abc.jsonl line 2"), vec![line("~/.claude/projects/x/abc.jsonl", 2, 2)]);
    // A sub-agent id without `.jsonl` is a source when a line reference follows it.
    assert_eq!(cites("- a (agent-aac57f5:37)"), vec![line("agent-aac57f5", 37, 37)]);
    assert_eq!(cites("- a agent-aac57f5 line 37"), vec![line("agent-aac57f5", 37, 37)]);
    assert_eq!(cites("- a (agent-acompact-fffbd0 lines 26-28)"), vec![line("agent-acompact-fffbd0", 26, 28)]);
    // Without one, or without a digit, it is prose.
    assert!(cites("- the agent-aac57f5 run found it").is_empty());
    assert!(cites("- an agent-based workflow, line 3").iter().all(|(f, ..)| f.is_none()));
}

#[test]
fn japanese_korean_chinese() {
    assert_eq!(cites("- testing.md: pnpm に移行（abc.jsonl の3行目）"), vec![line("abc.jsonl", 3, 3)]);
    assert_eq!(cites("- testing.md: abc.jsonl 3行目"), vec![line("abc.jsonl", 3, 3)]);
    assert_eq!(cites("- testing.md: abc.jsonl の3〜5行目"), vec![line("abc.jsonl", 3, 5)]);
    assert_eq!(cites("- testing.md: abc.jsonl の3-5行目"), vec![line("abc.jsonl", 3, 5)]);
    assert_eq!(cites("- testing.md: abc.jsonl の３行目"), vec![line("abc.jsonl", 3, 3)]);
    assert_eq!(
        cites("- testing.md: 3行目と7行目（abc.jsonl）"),
        vec![line("abc.jsonl", 3, 3), line("abc.jsonl", 7, 7)]
    );
    assert_eq!(cites("- testing.md: 테스트 통과 (abc.jsonl 4번째 줄)"), vec![line("abc.jsonl", 4, 4)]);
    assert_eq!(cites("- testing.md: abc.jsonl 4행"), vec![line("abc.jsonl", 4, 4)]);
    assert_eq!(cites("- testing.md: 测试通过（abc.jsonl 第4行）"), vec![line("abc.jsonl", 4, 4)]);
    assert_eq!(cites("- testing.md: abc.jsonl 第4至6行"), vec![line("abc.jsonl", 4, 6)]);
    let e = &parse("- memory/testing.md: 先週 pnpm に移行「先週移行した」(abc.jsonl:1)")[0];
    assert_eq!(e.notes, vec!["testing.md".to_string()]);
    assert_eq!(e.snippets, vec!["先週移行した".to_string()]);
}

#[test]
fn two_files_in_one_entry() {
    let e = &parse("- Updated testing.md and deploy.md (a.jsonl line 3; b.jsonl (lines 5–6))")[0];
    assert_eq!(e.notes, vec!["testing.md".to_string(), "deploy.md".to_string()]);
    assert_eq!(
        e.citations,
        vec![
            cite("a.jsonl line 3", Some("a.jsonl"), Some(3), Some(3)),
            cite("b.jsonl (lines 5–6)", Some("b.jsonl"), Some(5), Some(6)),
        ]
    );
}

#[test]
fn markdown_sources_are_citations_not_notes() {
    let e = &parse("- memory/testing.md: from memory/2026-06-02.md#L3-L5 and memory/2026-06-02-1406.md")[0];
    assert_eq!(e.notes, vec!["testing.md".to_string()]);
    assert_eq!(
        e.citations,
        vec![
            cite("memory/2026-06-02.md#L3-L5", Some("memory/2026-06-02.md"), Some(3), Some(5)),
            cite("memory/2026-06-02-1406.md", Some("memory/2026-06-02-1406.md"), None, None),
        ]
    );
    // A note followed by a line reference is a citation of that note's line.
    let e = &parse("- deploy.md:12 says so")[0];
    assert_eq!(e.notes, Vec::<String>::new());
    assert_eq!(e.citations, vec![cite("deploy.md:12", Some("deploy.md"), Some(12), Some(12))]);
    assert_eq!(dated_source("memory/2026-06-02-1406.md"), Date::new(2026, 6, 2));
}

#[test]
fn note_forms() {
    let notes = |t: &str| parse(t)[0].notes.clone();
    assert_eq!(notes("- memory/testing.md: x"), vec!["testing.md"]);
    assert_eq!(notes("- testing.md: x"), vec!["testing.md"]);
    assert_eq!(notes("- ./memory/testing.md: x"), vec!["testing.md"]);
    assert_eq!(notes("- `testing.md`: x"), vec!["testing.md"]);
    assert_eq!(notes("- **memory/testing.md**: x"), vec!["testing.md"]);
    assert_eq!(notes("- [Testing](testing.md): x"), vec!["testing.md"]);
    assert_eq!(notes("- memory/people/alice.md: x"), vec!["people/alice.md"]);
    assert_eq!(notes("- MEMORY.md: added a pointer"), vec!["MEMORY.md"]);
    assert_eq!(notes("- テスト.md を更新"), vec!["テスト.md"]);
    assert_eq!(notes("- see https://example.com/x.md"), Vec::<String>::new());
}

#[test]
fn structure_of_the_file() {
    let text = "---
title: changes
---
# Changes

## memory/deploy.md
- Added `./deploy.sh` (abc.jsonl:12)
  continued here with \"a quote\"
    - nested detail (L14)

Plain line naming ops.md (x.jsonl line 9)
| note | change | source |
|---|---|---|
| testing.md | replaced npm | abc.jsonl:3 |
```
- not an entry (abc.jsonl:1)
```
<!-- a comment
- inside the comment -->
***
1. numbered, no note (abc.jsonl:5)
2) [x] done item
";
    let entries = parse(text);
    let summary: Vec<(usize, usize, &str, Vec<String>)> =
        entries.iter().map(|e| (e.index, e.line, e.text.as_str(), e.notes.clone())).collect();
    assert_eq!(
        summary,
        vec![
            (1, 7, "Added `./deploy.sh` (abc.jsonl:12) continued here with \"a quote\"", vec!["deploy.md".into()]),
            (2, 9, "nested detail (L14)", vec!["deploy.md".into()]),
            // Entries naming notes of their own keep the note of the heading above them.
            (3, 11, "Plain line naming ops.md (x.jsonl line 9)", vec!["deploy.md".into(), "ops.md".into()]),
            (4, 14, "testing.md | replaced npm | abc.jsonl:3", vec!["deploy.md".into(), "testing.md".into()]),
            (5, 21, "numbered, no note (abc.jsonl:5)", vec!["deploy.md".into()]),
            (6, 22, "done item", vec!["deploy.md".into()]),
        ]
    );
    assert_eq!(entries[0].snippets, vec!["a quote".to_string()]);
    // The nested item's bare line reference uses its parent's file.
    assert_eq!(entries[1].citations, vec![cite("L14", Some("abc.jsonl"), Some(14), Some(14))]);
}

#[test]
fn snippets_forms() {
    let e =
        &parse(r#"- testing.md: user said "we moved to pnpm", “Redis is gone”, 「昨日」, 'in-memory fake' (don't)"#)[0];
    assert_eq!(e.snippets, vec!["we moved to pnpm", "Redis is gone", "昨日", "in-memory fake"]);
    let e = &parse("- testing.md: replaced `\"npm test\"` with it")[0];
    assert_eq!(e.snippets, Vec::<String>::new());
}

#[test]
fn citations_in_free_text() {
    assert_eq!(
        citations_in("see abc.jsonl:3 and def.jsonl"),
        vec![
            cite("abc.jsonl:3", Some("abc.jsonl"), Some(3), Some(3)),
            cite("def.jsonl", Some("def.jsonl"), None, None),
        ]
    );
}

#[test]
fn empty_and_junk() {
    assert_eq!(parse(""), vec![]);
    assert_eq!(parse("\n\n# Only a heading\n---\n"), vec![]);
    let e = parse("-\n- \n*\nsomething");
    assert_eq!(e.len(), 1);
    assert_eq!(e[0].text, "something");
}

#[test]
fn reference_spans_cover_citations() {
    let text = &parse(PNPM_CHANGES)[0].text;
    let spans: Vec<&str> = reference_spans(text).into_iter().map(|r| &text[r]).collect();
    assert_eq!(spans, vec![SESSION, "line 3"]);
    let text = "testing.md: x (abc.jsonl#L3-L5, 3行目)";
    let spans: Vec<&str> = reference_spans(text).into_iter().map(|r| &text[r]).collect();
    assert_eq!(spans, vec!["abc.jsonl", "#L3-L5", "3行目"]);
}
