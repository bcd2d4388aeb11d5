//! CHANGES.md parsing and inline sources never panic, whatever the input.

use dreamreview::inputs::changes::{inline_citations, parse, structure_spans};
use proptest::prelude::*;

/// Tokens that reach the interesting code paths, mixed with arbitrary text.
fn tricky() -> impl Strategy<Value = String> {
    let token = prop_oneof![
        Just("- ".to_string()),
        Just("  ".to_string()),
        Just("\n".to_string()),
        Just("\r".to_string()),
        Just("\r\n".to_string()),
        Just("1. ".to_string()),
        Just("# ".to_string()),
        Just("**".to_string()),
        Just("`".to_string()),
        Just("```".to_string()),
        Just("<!--".to_string()),
        Just("-->".to_string()),
        Just("|".to_string()),
        Just("---".to_string()),
        Just("abc.jsonl".to_string()),
        Just(".jsonl".to_string()),
        Just("memory/2026-06-02.md".to_string()),
        Just("testing.md".to_string()),
        Just(".md".to_string()),
        Just("5b0e7c2a-41d3-4c1e-9f0a-2d6b8e3c7a15".to_string()),
        Just(":".to_string()),
        Just("#L".to_string()),
        Just("L".to_string()),
        Just("line ".to_string()),
        Just("lines ".to_string()),
        Just("3".to_string()),
        Just("99999999999999999999999".to_string()),
        Just("-".to_string()),
        Just("–".to_string()),
        Just(", ".to_string()),
        Just("行目".to_string()),
        Just("第".to_string()),
        Just("번째 줄".to_string()),
        Just("の".to_string()),
        Just("（".to_string()),
        Just("）".to_string()),
        Just("\"".to_string()),
        Just("'".to_string()),
        Just("「".to_string()),
        Just("」".to_string()),
        Just("Source: ".to_string()),
        Just("[score=0.8 source=".to_string()),
        Just("]".to_string()),
        Just("openclaw-memory-promotion:".to_string()),
        Just("e\u{301}".to_string()),
        Just("日本語".to_string()),
        Just("한국어".to_string()),
        "\\PC{0,4}",
    ];
    prop::collection::vec(token, 0..40).prop_map(|v| v.concat())
}

fn check_spans(line: &str) {
    for r in structure_spans(line) {
        assert!(r.start <= r.end && r.end <= line.len());
        assert!(line.is_char_boundary(r.start) && line.is_char_boundary(r.end));
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 600, rng_seed: proptest::test_runner::RngSeed::Fixed(1), ..ProptestConfig::default() })]

    #[test]
    fn parse_never_panics(text in "\\PC*") {
        let entries = parse(&text);
        for (i, e) in entries.iter().enumerate() {
            prop_assert_eq!(e.index, i + 1);
            prop_assert!(e.line >= 1);
        }
    }

    #[test]
    fn parse_tricky_never_panics(text in tricky()) {
        let entries = parse(&text);
        for e in &entries {
            for c in &e.citations {
                if let (Some(a), Some(b)) = (c.start, c.end) {
                    prop_assert!(a <= b);
                }
            }
        }
    }

    #[test]
    fn inline_never_panics(line in tricky()) {
        let _ = inline_citations(&line);
        check_spans(&line);
    }

    #[test]
    fn inline_arbitrary_never_panics(line in "\\PC*") {
        let _ = inline_citations(&line);
        check_spans(&line);
    }
}

/// Found by the fuzzer: a full-width parenthesis around a `Source:` tail.
#[test]
fn fullwidth_paren_regression() {
    check_spans("（Source: 3abc.jsonl）");
}
