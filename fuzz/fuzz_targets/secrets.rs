//! Secrets engine: `secrets::find`, `mask`, `mask_lines` and `line_spans` never panic;
//! spans are in bounds, on char boundaries, sorted and non-overlapping; masking leaves no
//! secret behind and is idempotent; a secret's value (when it occurs once) never survives
//! masking, whole or line by line.
#![no_main]

use dreamreview::base::secrets::{find, line_spans, mask, mask_lines};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let found = find(&text);
    let mut last_end = 0;
    for s in &found {
        assert!(s.start < s.end && s.end <= text.len(), "span out of bounds: {s:?}");
        assert!(text.is_char_boundary(s.start) && text.is_char_boundary(s.end), "span off a char boundary: {s:?}");
        assert!(s.start >= last_end, "overlapping or unsorted spans: {found:?}");
        last_end = s.end;
    }
    let masked = mask(&text);
    assert_eq!(find(&masked), vec![], "a secret survives masking: {masked:?}");
    assert_eq!(mask(&masked), masked, "mask is not idempotent on {text:?}");
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    let by_line = mask_lines(&lines);
    assert_eq!(by_line.len(), lines.len());
    let shown = by_line.concat();
    for s in &found {
        let value = &text[s.start..s.end];
        // A short value may also be a word elsewhere, or part of a mask's label.
        if value.len() >= 12 && text.matches(value).count() == 1 {
            assert!(!masked.contains(value), "{value:?} printed by mask: {masked:?}");
            assert!(!shown.contains(value), "{value:?} printed by mask_lines: {shown:?}");
        }
    }
    for (line, spans) in lines.iter().zip(line_spans(&lines)) {
        for (r, _) in spans {
            assert!(r.start <= r.end && r.end <= line.len(), "line span out of bounds");
            assert!(line.is_char_boundary(r.start) && line.is_char_boundary(r.end), "line span off a char boundary");
        }
    }
});
