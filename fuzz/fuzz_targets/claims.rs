//! Claim extractor: `claims::extract`, `needles` and `occurs_in` never panic; claim ranges
//! slice the line to the claim's text; needles are a superset filter of `occurs_in`; and
//! every claim is stated by its own line (a line copied verbatim is never unsourced).
//! Per class (issue 14): a port is 1-65535 and a host, when there is one, is non-empty
//! lowercase; a number without a unit is a canonical literal (`0x1f40`) or a bare number
//! of three digits or more; a glued unit is ASCII letters.
#![no_main]

use dreamreview::analysis::claims::{
    ClaimKind, ClaimValue, contradiction, extract, needles, negated, occurs_in, relative_phrases, shares_content,
    statements,
};
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
        match &c.value {
            ClaimValue::Port { host, port } => {
                assert!(port.parse::<u32>().is_ok_and(|p| (1..=65535).contains(&p)), "port {c:?}");
                if let Some(h) = host {
                    assert!(!h.is_empty() && !h.chars().any(|ch| ch.is_ascii_uppercase()), "host {c:?}");
                }
            }
            // A value that is a claim by its label (`retries 3`, `exit code 7`) may be short,
            // and so may a decimal (`boost 3.5`): a figure that precise is a claim of its own.
            ClaimValue::Number { value, unit: None } if c.subject.as_ref().is_none_or(|s| !s.required) => {
                let literal = ["0x", "0o", "0b"].iter().any(|p| value.starts_with(p));
                let digits = value.trim_start_matches(['0', '.']).chars().filter(char::is_ascii_digit).count();
                assert!(literal || digits >= 3 || value.contains('.'), "bare number {c:?}");
            }
            ClaimValue::Number { unit: Some(u), .. } => assert!(!u.is_empty(), "empty unit {c:?}"),
            _ => {}
        }
        // What contradicts a claim bound to its subject lies inside the source.
        if let Some(r) = contradiction(c, source) {
            assert!(source.get(r).is_some(), "contradiction out of bounds: {c:?}");
        }
        let keys = needles(c);
        for (t, lower) in [(line, line.to_lowercase()), (source, source.to_lowercase())] {
            if occurs_in(c, t) {
                assert!(keys.iter().any(|n| lower.contains(n.as_str())), "occurs without a needle: {c:?} in {t:?}");
            }
        }
    }
    // Sentences in bounds, in order; negation and shared content never panic.
    let mut last = 0;
    for st in statements(source) {
        assert!(st.range.start >= last && source.get(st.range.clone()).is_some(), "statement {st:?}");
        last = st.range.end;
    }
    let _ = (negated(line), shares_content(line, source));
    for r in relative_phrases(line) {
        assert_eq!(line.get(r.start..r.end), Some(r.phrase.as_str()));
    }
});
