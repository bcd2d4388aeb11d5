//! Where a JSONL line certainly says nothing: the values of its top-level keys that
//! [`super::said_text`] never reads (`cwd`, `timestamp`, `uuid`, `version`,
//! `toolUseResult`, …).
//!
//! The scanner uses this to drop raw matches inside the envelope before parsing the line
//! at all, which matters when a needle occurs in the envelope of nearly every line (a
//! date in every `timestamp`, a project name in every `cwd`). It is exact, not a
//! heuristic: `said_text` reads only [`SAID_TOP_LEVEL`] keys, so bytes inside any other
//! top-level value can never be said. The walk is byte-level and allocation-free apart
//! from the returned spans; when the line is not a JSON object it gives up (`None`) and
//! nothing is dropped.

use std::ops::Range;

use memchr::{memchr2, memchr3};

use super::partial::{content_start, skip_ws};

/// The only top-level keys whose values `said_text` reads (`type` is read to dispatch,
/// but never said).
pub(crate) const SAID_TOP_LEVEL: &[&[u8]] = &[b"message", b"content", b"summary", b"data", b"attachment"];

/// Byte ranges of `line` holding the values of top-level keys not in
/// [`SAID_TOP_LEVEL`], in order. A line cut short gives the spans found so far (the last
/// one running to the end when the cut falls inside it). `None` when the line is not a
/// JSON object or is malformed before its end.
pub(crate) fn unsaid_spans(line: &[u8]) -> Option<Vec<Range<usize>>> {
    let n = line.len();
    let mut i = content_start(line);
    if line.get(i) != Some(&b'{') {
        return None;
    }
    i += 1;
    let mut spans = Vec::new();
    loop {
        i = skip_ws(line, i);
        match line.get(i) {
            None | Some(b'}') => return Some(spans),
            Some(b'"') => {}
            Some(_) => return None,
        }
        let key_start = i + 1;
        let Some(key_end) = string_end(line, key_start) else {
            return Some(spans);
        };
        let key = line.get(key_start..key_end).unwrap_or(&[]);
        i = skip_ws(line, key_end + 1);
        match line.get(i) {
            None => return Some(spans),
            Some(b':') => i = skip_ws(line, i + 1),
            Some(_) => return None,
        }
        if i >= n {
            return Some(spans);
        }
        let end = value_end(line, i)?;
        if !SAID_TOP_LEVEL.contains(&key) {
            spans.push(i..end);
        }
        i = skip_ws(line, end);
        match line.get(i) {
            Some(b',') => i += 1,
            None | Some(b'}') => return Some(spans),
            Some(_) => return None,
        }
    }
}

/// The span of the (sorted) `spans` that `start..end` lies inside, if any.
pub(crate) fn containing(spans: &[Range<usize>], start: usize, end: usize) -> Option<&Range<usize>> {
    let i = spans.partition_point(|s| s.end < end);
    spans.get(i).filter(|s| s.start <= start && end <= s.end)
}

/// End (exclusive) of the value starting at `i` (the line's end when it is cut inside).
fn value_end(line: &[u8], i: usize) -> Option<usize> {
    let n = line.len();
    match line.get(i)? {
        b'"' => Some(string_end(line, i + 1).map_or(n, |e| e + 1)),
        b'{' => Some(container_end(line, i, b'{', b'}')),
        b'[' => Some(container_end(line, i, b'[', b']')),
        _ => {
            let mut j = i;
            while let Some(&b) = line.get(j) {
                if matches!(b, b',' | b'}' | b']' | b' ' | b'\t' | b'\r' | b'\n') {
                    break;
                }
                j += 1;
            }
            (j > i).then_some(j)
        }
    }
}

/// Index of the closing quote of the string whose body starts at `from`, or `None` when
/// the line ends first.
pub(super) fn string_end(line: &[u8], from: usize) -> Option<usize> {
    let mut j = from;
    loop {
        let rest = line.get(j..)?;
        let k = memchr2(b'"', b'\\', rest)?;
        let at = j + k;
        if line.get(at) == Some(&b'"') {
            return Some(at);
        }
        j = at + 2;
    }
}

/// End (exclusive) of the container opened at `i`, counting only its own bracket kind
/// (the other kind balances on its own in valid JSON) and skipping strings.
pub(super) fn container_end(line: &[u8], i: usize, open: u8, close: u8) -> usize {
    let n = line.len();
    let mut depth = 0usize;
    let mut j = i;
    while let Some(rest) = line.get(j..) {
        let Some(k) = memchr3(b'"', open, close, rest) else {
            return n;
        };
        let at = j + k;
        match line.get(at) {
            Some(b'"') => match string_end(line, at + 1) {
                Some(e) => j = e + 1,
                None => return n,
            },
            Some(&b) if b == open => {
                depth += 1;
                j = at + 1;
            }
            _ => {
                depth = depth.saturating_sub(1);
                j = at + 1;
                if depth == 0 {
                    return j;
                }
            }
        }
    }
    n
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::inputs::transcript::said_text;

    fn inside(spans: &[Range<usize>], start: usize, end: usize) -> bool {
        containing(spans, start, end).is_some()
    }

    fn unsaid(line: &str) -> Option<Vec<&str>> {
        let spans = unsaid_spans(line.as_bytes())?;
        Some(spans.into_iter().map(|r| &line[r]).collect())
    }

    #[test]
    fn marks_envelope_values_only() {
        let line = r#"{"cwd":"/home/dev/shop", "type":"user","message":{"content":"x","id":"m"},"n":12,"toolUseResult":{"stdout":"a}\"b"},"todos":[[1],{"a":"]"}],"timestamp":"2026-11-01T09:14:03Z"}"#;
        assert_eq!(
            unsaid(line),
            Some(vec![
                r#""/home/dev/shop""#,
                r#""user""#,
                "12",
                r#"{"stdout":"a}\"b"}"#,
                r#"[[1],{"a":"]"}]"#,
                r#""2026-11-01T09:14:03Z""#,
            ])
        );
    }

    #[test]
    fn cut_and_broken_lines() {
        assert_eq!(unsaid(r#"{"cwd":"/ho"#), Some(vec![r#""/ho"#]));
        assert_eq!(unsaid(r#"{"message":{"content":"we mo"#), Some(vec![]));
        assert_eq!(unsaid(r#"{"a":1,"#), Some(vec!["1"]));
        assert_eq!(unsaid("[1]"), None);
        assert_eq!(unsaid("plain"), None);
        assert_eq!(unsaid(r#"{"a" 1}"#), None);
    }

    #[test]
    fn inside_sorted_spans() {
        let spans = [2..5, 9..20];

        assert!(inside(&spans, 2, 5));
        assert!(inside(&spans, 10, 12));
        assert!(!inside(&spans, 4, 6));
        assert!(!inside(&spans, 0, 1));
        assert!(!inside(&spans, 19, 21));
        assert!(!inside(&[], 0, 1));
    }

    #[test]
    fn agrees_with_said_text() {
        // Every byte said_text can say lies outside the spans.
        let line = r#"{"type":"user","summary":"S1","content":"C1","data":{"type":"bash_progress","output":"D1"},"attachment":{"type":"queued_command","prompt":"A1"},"message":{"content":"M1"},"cwd":"E1","uuid":"E2"}"#;
        let spans = unsaid_spans(line.as_bytes()).unwrap();
        for word in ["S1", "C1", "D1", "A1", "M1"] {
            let at = line.find(word).unwrap();
            assert!(!inside(&spans, at, at + 2), "{word}");
        }
        for word in ["E1", "E2"] {
            let at = line.find(word).unwrap();
            assert!(inside(&spans, at, at + 2), "{word}");
            assert!(!said_text(line.as_bytes()).contains(word));
        }
    }
}
