//! Lines nested too deeply for the JSON parser.
//!
//! serde_json refuses nesting deeper than 128 containers, so one deep value anywhere on
//! a line (an MCP tool's JSON AST, a recursive data structure in a tool input) would make
//! the whole line unreadable: shown raw, thinking included, and saying nothing. Instead,
//! every container nested deeper than a limit is replaced by `null` with a byte-level
//! walk (no parse, no recursion), and the rest of the line is read normally. Strings and
//! containers are skipped with the envelope walk's scanners ([`super::unsaid`]).

use super::unsaid::{container_end, string_end};

/// Containers deeper than this are replaced by `null` (well below serde_json's 128, so
/// the typed views built on top never reach it either).
pub(crate) const MAX_DEPTH: usize = 64;

/// `bytes` with every array or object nested deeper than `max` replaced by `null`; `None`
/// when nothing is that deep (the common case: the caller keeps the original). Strings
/// (and the brackets inside them) are skipped correctly; a container cut short by the
/// end of the line is dropped to the end, so a cut line stays a cut line.
pub(crate) fn flatten_deep(bytes: &[u8], max: usize) -> Option<Vec<u8>> {
    let mut out: Option<Vec<u8>> = None;
    let mut depth = 0usize;
    let mut copied = 0usize; // bytes[..copied] are already in `out`
    let mut i = 0usize;
    while let Some(&b) = bytes.get(i) {
        match b {
            b'"' => {
                i = string_end(bytes, i + 1).map_or(bytes.len(), |e| e + 1);
                continue;
            }
            b'{' | b'[' if depth == max => {
                let close = if b == b'{' { b'}' } else { b']' };
                let end = container_end(bytes, i, b, close);
                let o = out.get_or_insert_with(|| Vec::with_capacity(bytes.len()));
                o.extend_from_slice(bytes.get(copied..i).unwrap_or(&[]));
                o.extend_from_slice(b"null");
                copied = end;
                i = end;
                continue;
            }
            b'{' | b'[' => depth += 1,
            b'}' | b']' => depth = depth.saturating_sub(1),
            _ => {}
        }
        i += 1;
    }
    let mut o = out?;
    o.extend_from_slice(bytes.get(copied..).unwrap_or(&[]));
    Some(o)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn flat(s: &str, max: usize) -> Option<String> {
        flatten_deep(s.as_bytes(), max).map(|v| String::from_utf8(v).unwrap())
    }

    #[test]
    fn replaces_only_what_is_too_deep() {
        assert_eq!(flat(r#"{"a":[1,[2]]}"#, 3), None);
        assert_eq!(flat(r#"{"a":[1,[2,{"b":"]"}]],"c":"x"}"#, 2).as_deref(), Some(r#"{"a":[1,null],"c":"x"}"#));
        assert_eq!(flat(r#"{"a":"[[[[","b":[[1]]}"#, 2).as_deref(), Some(r#"{"a":"[[[[","b":[null]}"#));
        // Escaped quotes inside strings do not end them.
        assert_eq!(flat(r#"{"a":"\"[","b":{"c":{}}}"#, 2).as_deref(), Some(r#"{"a":"\"[","b":{"c":null}}"#));
    }

    #[test]
    fn a_cut_deep_value_runs_to_the_end() {
        assert_eq!(flat(r#"{"a":"ok","b":[[[[1,"#, 2).as_deref(), Some(r#"{"a":"ok","b":[null"#));
    }

    #[test]
    fn deep_lines_parse_after_flattening() {
        let deep = format!(r#"{{"t":"x","v":{}1{}}}"#, "[".repeat(500), "]".repeat(500));
        assert!(serde_json::from_str::<serde_json::Value>(&deep).is_err());
        let f = flatten_deep(deep.as_bytes(), MAX_DEPTH).unwrap();
        let v: serde_json::Value = serde_json::from_slice(&f).unwrap();
        assert_eq!(v["t"], "x");
    }
}
