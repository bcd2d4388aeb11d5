//! Claim extractor: `claims::extract`, `needles` and `occurs_in` never panic; claim ranges
//! slice the line to the claim's text; needles are a superset filter of `occurs_in`; and
//! every claim is stated by its own line (a line copied verbatim is never unsourced).
#![no_main]

use dreamreview::claims::{ClaimKind, extract, needles, occurs_in, relative_phrases};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    // First line: the note line; the rest: a source text to match against.
    let (line, source) = text.split_once('\n').unwrap_or((&text, ""));
    let claims = extract(line);
    let mut last_end = 0;
    for c in &claims {
        assert!(c.start < c.end, "empty claim {c:?}");
        assert!(c.start >= last_end, "overlapping claims in {line:?}: {claims:?}");
        assert_eq!(line.get(c.start..c.end), Some(c.text.as_str()));
        last_end = c.end;
        // Links are structure the caller skips, not facts to source.
        if c.kind != ClaimKind::Link {
            assert!(occurs_in(c, line), "claim not stated by its own line: {c:?} in {line:?}");
        }
        let keys = needles(c);
        for (t, lower) in [(line, line.to_lowercase()), (source, source.to_lowercase())] {
            if occurs_in(c, t) {
                assert!(keys.iter().any(|n| lower.contains(n.as_str())), "occurs without a needle: {c:?} in {t:?}");
            }
        }
    }
    for r in relative_phrases(line) {
        assert_eq!(line.get(r.start..r.end), Some(r.phrase.as_str()));
    }
});
