//! JSONL line renderer: `render_jsonl` (with and without a limit), `render_note` and
//! `said_text` never panic on arbitrary bytes, and the rendered text is one bounded line.
#![no_main]

use dreamreview::inputs::transcript::{render_jsonl, render_jsonl_with_limit, render_note, said_text};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let r = render_jsonl(data, 7);
    assert_eq!(r.number, 7);
    assert!(!r.text.contains(['\n', '\r']), "rendered text spans lines: {:?}", r.text);
    assert!(r.text.chars().count() <= 600 + 8, "rendered text not cut: {} chars", r.text.chars().count());
    let _ = r.display();
    // A small limit, derived from the input so it varies.
    let limit = data.first().map(|b| usize::from(*b % 40)).unwrap_or(0);
    let r = render_jsonl_with_limit(data, 1, limit);
    assert!(!r.text.contains(['\n', '\r']), "rendered text spans lines: {:?}", r.text);
    assert!(r.text.chars().count() <= limit + 8, "limit {limit} not kept: {:?}", r.text);
    let n = render_note(data, 1, None);
    assert!(!n.text.contains(['\n', '\r']));
    let _ = said_text(data);
});
