//! OpenClaw inline sources and metadata spans in note lines.

use dreamreview::inputs::changes::{Citation, inline_citations, structure_spans};

fn cite(raw: &str, file: &str, start: Option<usize>, end: Option<usize>) -> Citation {
    Citation { raw: raw.to_string(), file: Some(file.to_string()), start, end, bad: None }
}

fn spans(line: &str) -> Vec<&str> {
    structure_spans(line).into_iter().map(|r| &line[r]).collect()
}

#[test]
fn promotion_bracket() {
    let line = "- Uses pnpm since the move [score=0.877 recalls=0 avg=0.620 source=memory/2026-06-02-1406.md:14-17]\n";
    assert_eq!(
        inline_citations(line),
        vec![cite("memory/2026-06-02-1406.md:14-17", "memory/2026-06-02-1406.md", Some(14), Some(17))]
    );
    assert_eq!(spans(line), vec!["[score=0.877 recalls=0 avg=0.620 source=memory/2026-06-02-1406.md:14-17]"]);
}

#[test]
fn promotion_comment_and_heading() {
    let comment = "<!-- openclaw-memory-promotion:memory:memory/2026-08-16.md:6:9 -->\n";
    assert_eq!(
        inline_citations(comment),
        vec![cite("memory:memory/2026-08-16.md:6:9", "memory/2026-08-16.md", Some(6), Some(9))]
    );
    assert_eq!(spans(comment), vec!["<!-- openclaw-memory-promotion:memory:memory/2026-08-16.md:6:9 -->"]);
    let heading = "## Promoted From Short-Term Memory (2026-06-02)\n";
    assert_eq!(spans(heading), vec!["## Promoted From Short-Term Memory (2026-06-02)"]);
    assert_eq!(inline_citations(heading), vec![]);
}

#[test]
fn source_tails() {
    let line = "- Alpha deployment uses green. Source: memory/2026-07-01.md#L1-L1 <!-- trigger: preference -->";
    assert_eq!(
        inline_citations(line),
        vec![cite("memory/2026-07-01.md#L1-L1", "memory/2026-07-01.md", Some(1), Some(1))]
    );
    assert_eq!(spans(line), vec!["Source: memory/2026-07-01.md#L1-L1", "<!-- trigger: preference -->"]);
    let two = "- cleanup rules Source: memory/2026-10-03.md, memory/2026-10-02-2114.md";
    assert_eq!(
        inline_citations(two),
        vec![
            cite("memory/2026-10-03.md", "memory/2026-10-03.md", None, None),
            cite("memory/2026-10-02-2114.md", "memory/2026-10-02-2114.md", None, None),
        ]
    );
    assert_eq!(spans(two), vec!["Source: memory/2026-10-03.md, memory/2026-10-02-2114.md"]);
    let paren = "- Vision is enabled (Source: memory/2026-03-15-model-optimization.md) for Kimi";
    assert_eq!(spans(paren), vec!["(Source: memory/2026-03-15-model-optimization.md)"]);
    let jsonl = "- Tests pass with pnpm. Source: 5b0e7c2a-41d3-4c1e-9f0a-2d6b8e3c7a15.jsonl:4";
    assert_eq!(
        inline_citations(jsonl),
        vec![cite(
            "5b0e7c2a-41d3-4c1e-9f0a-2d6b8e3c7a15.jsonl:4",
            "5b0e7c2a-41d3-4c1e-9f0a-2d6b8e3c7a15.jsonl",
            Some(4),
            Some(4)
        )]
    );
}

#[test]
fn plain_lines_have_no_structure() {
    for line in [
        "Run tests with `pnpm test`.",
        "Source: the user said so",
        "- [Testing](testing.md) — how tests run",
        "array[score] = 3",
    ] {
        assert_eq!(spans(line), Vec::<&str>::new(), "{line}");
        assert_eq!(inline_citations(line), vec![], "{line}");
    }
}
