//! Closing a JSON object that was cut short, so that its beginning can still be read.
//!
//! A transcript line can be cut in two ways: dreamreview caps how much of a huge line it
//! reads ([`super::MAX_LINE_BYTES`]), and a session killed mid-write leaves a last line
//! without its end. Both still start with a readable envelope (`type`, `message.role`,
//! the first part of the content), so instead of showing raw JSON we close the text: cut
//! it back to the last point where every open string, array and object can be closed,
//! and append the closers. The result is then parsed normally; this module only deals
//! with bytes and never panics.

use memchr::memchr2;

/// Returns a closed version of `bytes` when it is a JSON object cut short (after optional
/// whitespace and UTF-8 BOM): the longest prefix that can be completed by closing what is
/// open, plus those closers. A string value cut mid-way keeps its beginning. `None` when
/// it is not an object, or is broken anywhere but at its end (a bad character in the
/// middle, junk after the object): that is not a cut line, it stays raw.
pub(crate) fn close_json(bytes: &[u8]) -> Option<Vec<u8>> {
    let n = bytes.len();
    let mut i = skip_bom_ws(bytes, 0);
    if bytes.get(i) != Some(&b'{') {
        return None;
    }
    let mut closers: Vec<u8> = Vec::new();
    let mut exp = Expect::Value;
    // bytes[..good] + closers is valid JSON. Between the last good point and the end no
    // container is opened or closed (each would make a new good point), so `closers`
    // at the end is also the stack at `good`.
    let mut good: Option<usize> = None;

    let complete = |end: usize| -> Option<Vec<u8>> {
        let rest = bytes.get(end..).unwrap_or(&[]);
        skip_ws(rest, 0).ge(&rest.len()).then(|| bytes.get(..end).unwrap_or(bytes).to_vec())
    };
    let finish = |cut: usize, in_string: bool, closers: &[u8]| -> Vec<u8> {
        let mut out = Vec::with_capacity(cut + closers.len() + 1);
        out.extend_from_slice(bytes.get(..cut).unwrap_or(bytes));
        if in_string {
            out.push(b'"');
        }
        out.extend(closers.iter().rev());
        out
    };

    loop {
        i = skip_ws(bytes, i);
        let Some(&c) = bytes.get(i) else { break };
        // Closing the innermost container, where the grammar allows it (`[]`, `{}`, or
        // after a value).
        let may_close = matches!(exp, Expect::ValueOrEnd | Expect::KeyOrEnd | Expect::CommaOrEnd);
        if may_close && closers.last() == Some(&c) {
            closers.pop();
            i += 1;
            if closers.is_empty() {
                return complete(i);
            }
            exp = Expect::CommaOrEnd;
            good = Some(i);
            continue;
        }
        match exp {
            Expect::Value | Expect::ValueOrEnd => {
                match c {
                    b'{' => {
                        closers.push(b'}');
                        i += 1;
                        exp = Expect::KeyOrEnd;
                        good = Some(i);
                    }
                    b'[' => {
                        closers.push(b']');
                        i += 1;
                        exp = Expect::ValueOrEnd;
                        good = Some(i);
                    }
                    b'"' => match scan_string(bytes, i + 1) {
                        Str::Complete(end) => {
                            i = end;
                            exp = Expect::CommaOrEnd;
                            good = Some(i);
                        }
                        Str::Cut(cut) => return Some(finish(cut, true, &closers)),
                    },
                    _ => {
                        let end = scalar_end(bytes, i);
                        if end == i {
                            return None;
                        }
                        if end >= n {
                            // A number or literal the cut may have shortened.
                            break;
                        }
                        i = end;
                        exp = Expect::CommaOrEnd;
                        good = Some(i);
                    }
                }
            }
            Expect::KeyOrEnd | Expect::Key => {
                if c != b'"' {
                    return None;
                }
                match scan_string(bytes, i + 1) {
                    Str::Complete(end) => {
                        i = end;
                        exp = Expect::Colon;
                    }
                    Str::Cut(_) => break,
                }
            }
            Expect::Colon => {
                if c != b':' {
                    return None;
                }
                i += 1;
                exp = Expect::Value;
            }
            Expect::CommaOrEnd => {
                let top = closers.last().copied();
                if c != b',' {
                    return None;
                }
                i += 1;
                exp = if top == Some(b'}') { Expect::Key } else { Expect::Value };
            }
        }
    }
    good.map(|g| finish(g, false, &closers))
}

/// What the scanner expects next.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Expect {
    /// A value (after `:` or `,` in an array).
    Value,
    /// A value or `]` (right after `[`).
    ValueOrEnd,
    /// A key or `}` (right after `{`).
    KeyOrEnd,
    /// A key (after `,` in an object).
    Key,
    /// The `:` after a key.
    Colon,
    /// `,` or the closer of the innermost container.
    CommaOrEnd,
}

/// How a string starting at some offset ends.
enum Str {
    /// Closed; the offset just after the closing quote.
    Complete(usize),
    /// The input ends inside it; the offset where a closing quote can be put (before any
    /// partial escape or partial UTF-8 character).
    Cut(usize),
}

/// Scans a string body starting at `from` (just after the opening quote).
fn scan_string(bytes: &[u8], from: usize) -> Str {
    let n = bytes.len();
    let mut j = from;
    loop {
        let Some(rest) = bytes.get(j..) else {
            return Str::Cut(utf8_backoff(bytes, from, n));
        };
        let Some(k) = memchr2(b'"', b'\\', rest) else {
            return Str::Cut(utf8_backoff(bytes, from, n));
        };
        let at = j + k;
        if bytes.get(at) == Some(&b'"') {
            return Str::Complete(at + 1);
        }
        // A backslash escape.
        match bytes.get(at + 1) {
            None => return Str::Cut(at),
            Some(b'u') => {
                if at + 6 > n {
                    return Str::Cut(at);
                }
                let high = bytes
                    .get(at + 2..at + 6)
                    .and_then(|h| std::str::from_utf8(h).ok())
                    .and_then(|h| u16::from_str_radix(h, 16).ok())
                    .is_some_and(|v| (0xD800..0xDC00).contains(&v));
                if high && at + 12 > n {
                    // A leading surrogate without its pair would not parse.
                    return Str::Cut(at);
                }
                j = at + 6;
            }
            Some(_) => j = at + 2,
        }
    }
}

/// Moves `end` back so that `bytes[from..end]` does not end inside a UTF-8 sequence.
fn utf8_backoff(bytes: &[u8], from: usize, end: usize) -> usize {
    let lo = end.saturating_sub(4).max(from);
    let mut k = end;
    while k > lo {
        k -= 1;
        let Some(&b) = bytes.get(k) else { return end };
        if b & 0xC0 != 0x80 {
            let width = match b {
                0xF0..=0xFF => 4,
                0xE0..=0xEF => 3,
                0xC0..=0xDF => 2,
                _ => 1,
            };
            return if k + width > end { k } else { end };
        }
    }
    end
}

/// End of a number or literal starting at `i`.
fn scalar_end(bytes: &[u8], i: usize) -> usize {
    let mut j = i;
    while let Some(&b) = bytes.get(j) {
        if b.is_ascii_alphanumeric() || matches!(b, b'+' | b'-' | b'.') {
            j += 1;
        } else {
            break;
        }
    }
    j
}

/// The first index at or after `i` that is not JSON whitespace.
pub(super) fn skip_ws(bytes: &[u8], mut i: usize) -> usize {
    while let Some(b' ' | b'\t' | b'\n' | b'\r') = bytes.get(i) {
        i += 1;
    }
    i
}

fn skip_bom_ws(bytes: &[u8], i: usize) -> usize {
    let i = skip_ws(bytes, i);
    if bytes.get(i..i + 3) == Some(b"\xEF\xBB\xBF") { skip_ws(bytes, i + 3) } else { i }
}

/// Offset of the first byte after any leading whitespace and UTF-8 BOM.
pub(crate) fn content_start(bytes: &[u8]) -> usize {
    skip_bom_ws(bytes, 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn closed(s: &str) -> Option<String> {
        close_json(s.as_bytes()).map(|v| String::from_utf8_lossy(&v).into_owned())
    }

    #[test]
    fn closes_cut_objects() {
        assert_eq!(closed(r#"{"a":"hel"#).as_deref(), Some(r#"{"a":"hel"}"#));
        assert_eq!(closed(r#"{"a":1,"b":[1,2"#).as_deref(), Some(r#"{"a":1,"b":[1]}"#));
        assert_eq!(closed(r#"{"a":1,"b":[1,2,"#).as_deref(), Some(r#"{"a":1,"b":[1,2]}"#));
        assert_eq!(closed(r#"{"a":{"x":"y"},"#).as_deref(), Some(r#"{"a":{"x":"y"}}"#));
        assert_eq!(closed(r#"{"a":"#).as_deref(), Some("{}"));
        assert_eq!(closed(r#"{"ke"#).as_deref(), Some("{}"));
        assert_eq!(closed(r#"{"a":["x","y"#).as_deref(), Some(r#"{"a":["x","y"]}"#));
        assert_eq!(closed(r#"{"a":tru"#).as_deref(), Some("{}"));
    }

    #[test]
    fn broken_in_the_middle_is_not_closed() {
        assert_eq!(closed(r#"{"a":1} junk"#), None);
        assert_eq!(closed(r#"{"a":1}{"b":2}"#), None);
        assert_eq!(closed(r#"{"type":"user", oops}"#), None);
        assert_eq!(closed(r#"{"a" 1"#), None);
        assert_eq!(closed(r#"{"a":1 2"#), None);
        assert_eq!(closed(r#"{"a":]"#), None);
        assert_eq!(closed(r#"  {"a":[]}  "#).as_deref(), Some(r#"  {"a":[]}"#));
    }

    #[test]
    fn cuts_before_partial_escapes_and_characters() {
        assert_eq!(closed(r#"{"a":"x\"#).as_deref(), Some(r#"{"a":"x"}"#));
        assert_eq!(closed(r#"{"a":"x\u12"#).as_deref(), Some(r#"{"a":"x"}"#));
        assert_eq!(closed(r#"{"a":"x\ud83d"#).as_deref(), Some(r#"{"a":"x"}"#));
        assert_eq!(closed(r#"{"a":"x\n"#).as_deref(), Some(r#"{"a":"x\n"}"#));
        // "日本" cut inside the second character.
        let mut b = br#"{"a":"x"#.to_vec();
        b.extend_from_slice("日本".as_bytes());
        b.truncate(b.len() - 1);
        let out = close_json(&b).map(String::from_utf8);
        assert_eq!(out, Some(Ok(r#"{"a":"x日"}"#.to_string())));
    }

    #[test]
    fn rejects_non_objects() {
        assert_eq!(closed("[1,2"), None);
        assert_eq!(closed("hello"), None);
        assert_eq!(closed(""), None);
        assert_eq!(closed("{"), Some("{}".to_string()));
    }

    #[test]
    fn closed_output_parses() {
        let line = r#"{"type":"user","message":{"role":"user","content":[{"type":"text","text":"hello wor"#;
        for cut in 0..=line.len() {
            if let Some(out) = close_json(&line.as_bytes()[..cut]) {
                let parsed: Result<serde_json::Value, _> = serde_json::from_slice(&out);
                assert!(parsed.is_ok(), "cut {cut}: {}", String::from_utf8_lossy(&out));
            }
        }
    }
}
