//! CHANGES.md parser: `changes::parse` and the citation/span helpers never panic, and
//! every byte range they return slices its input on char boundaries.
#![no_main]

use dreamreview::inputs::changes::{citations_in, inline_citations, parse, reference_spans, snippets, structure_spans};
use libfuzzer_sys::fuzz_target;

fn check_spans(text: &str, spans: &[std::ops::Range<usize>]) {
    for r in spans {
        assert!(r.start <= r.end && r.end <= text.len(), "span {r:?} out of bounds in {text:?}");
        assert!(text.get(r.clone()).is_some(), "span {r:?} not on char boundaries in {text:?}");
    }
}

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let entries = parse(&text);
    let lines = text.split('\n').count();
    let mut last = 0;
    for (i, e) in entries.iter().enumerate() {
        assert_eq!(e.index, i + 1);
        assert!(e.line >= 1 && e.line <= lines, "entry line {} of {lines}", e.line);
        assert!(e.line >= last, "entries out of order");
        last = e.line;
        for c in &e.citations {
            if let (Some(s), Some(end)) = (c.start, c.end) {
                assert!(s <= end, "citation range {s}-{end} reversed: {c:?}");
            }
        }
        check_spans(&e.text, &reference_spans(&e.text));
        let _ = snippets(&e.text);
    }
    let _ = citations_in(&text);
    check_spans(&text, &reference_spans(&text));
    for line in text.split('\n') {
        check_spans(line, &structure_spans(line));
        let _ = inline_citations(line);
    }
});
