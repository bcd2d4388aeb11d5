//! Text a terminal would show differently from its bytes: carriage-return overwrites, and
//! lines that are JSON strings, unescaped.

use super::lines::lines_of;
use crate::inputs::transcript::text::strip_escapes;
use memchr::{memchr, memmem};

/// Each line said as the terminal shows it: a line overwritten with `\r` is its last
/// segment holding something; `\r` before a line end is part of the line end.
pub(super) fn overwritten(text: &[u8]) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(text.len());
    let mut changed = false;
    for (k, line) in lines_of(text).into_iter().enumerate() {
        if k > 0 {
            out.push(b'\n');
        }
        let mut line = line;
        while let Some(l) = line.strip_suffix(b"\r") {
            line = l;
            changed = true;
        }
        if memchr(b'\r', line).is_some() {
            changed = true;
            let shown = line.rsplit(|&b| b == b'\r').find(|s| s.iter().any(|b| !b.is_ascii_whitespace()));
            out.extend_from_slice(shown.unwrap_or(&[]));
        } else {
            out.extend_from_slice(line);
        }
    }
    changed.then_some(out)
}

// JSON-encoded text -----------------------------------------------------------------------

/// Whether a line is plainly JSON-encoded text: an escaped quote opening a string right
/// after `{` or `[` (spaces allowed), and one closing a string right before `:`, `,`, `]`
/// or `}`.
pub(super) fn json_encoded(line: &[u8]) -> bool {
    let finder = memmem::find_iter(line, b"\\\"");
    let mut opens = false;
    let mut closes = false;
    for at in finder {
        let before = line.get(..at).unwrap_or(&[]);
        let prev = before.iter().rev().find(|b| **b != b' ').copied();
        opens |= matches!(prev, Some(b'{' | b'['));
        let after = line.get(at + 2..).unwrap_or(&[]);
        let next = after.iter().find(|b| **b != b' ').copied();
        closes |= matches!(next, Some(b':' | b',' | b']' | b'}'));
        if opens && closes {
            return true;
        }
    }
    false
}

pub(super) fn unescape_json_lines(text: &[u8]) -> Option<Vec<u8>> {
    let lines = lines_of(text);
    let encoded: Vec<bool> = lines.iter().map(|l| json_encoded(l)).collect();
    if !encoded.contains(&true) {
        return None;
    }
    let mut out = Vec::with_capacity(text.len());
    for (k, (line, enc)) in lines.into_iter().zip(encoded).enumerate() {
        if k > 0 {
            out.push(b'\n');
        }
        if enc {
            unescape(line, &mut out);
        } else {
            out.extend_from_slice(line);
        }
    }
    if memchr(0x1b, &out).is_some() {
        // `\u001b` decoded: a terminal escape, removed as everywhere in said text.
        let s = String::from_utf8_lossy(&out);
        return Some(strip_escapes(&s).into_owned().into_bytes());
    }
    Some(out)
}

/// Appends `line` with its JSON escapes decoded; an escape JSON does not have stays as it is.
pub(super) fn unescape(line: &[u8], out: &mut Vec<u8>) {
    let mut i = 0;
    while i < line.len() {
        let plain = memchr(b'\\', line.get(i..).unwrap_or(&[])).map_or(line.len(), |k| i + k);
        out.extend_from_slice(line.get(i..plain).unwrap_or(&[]));
        i = plain;
        if i >= line.len() {
            break;
        }
        let simple = match line.get(i + 1) {
            Some(b'"') => Some(b'"'),
            Some(b'\\') => Some(b'\\'),
            Some(b'/') => Some(b'/'),
            Some(b'n') => Some(b'\n'),
            Some(b't') => Some(b'\t'),
            Some(b'r') => Some(b'\r'),
            Some(b'b') => Some(0x08),
            Some(b'f') => Some(0x0c),
            _ => None,
        };
        if let Some(c) = simple {
            out.push(c);
            i += 2;
            continue;
        }
        if line.get(i + 1) == Some(&b'u')
            && let Some(u) = hex4(line, i + 2)
        {
            i += 6;
            let c = if (0xD800..0xDC00).contains(&u) {
                match (line.get(i), line.get(i + 1), hex4(line, i + 2)) {
                    (Some(b'\\'), Some(b'u'), Some(lo)) if (0xDC00..0xE000).contains(&lo) => {
                        i += 6;
                        char::from_u32(0x10000 + ((u - 0xD800) << 10) + (lo - 0xDC00))
                    }
                    _ => None,
                }
            } else {
                char::from_u32(u)
            };
            let mut buf = [0u8; 4];
            out.extend_from_slice(c.unwrap_or(char::REPLACEMENT_CHARACTER).encode_utf8(&mut buf).as_bytes());
            continue;
        }
        out.push(b'\\');
        i += 1;
    }
}

pub(super) fn hex4(s: &[u8], at: usize) -> Option<u32> {
    let h = s.get(at..at + 4)?;
    if !h.iter().all(u8::is_ascii_hexdigit) {
        return None;
    }
    u32::from_str_radix(std::str::from_utf8(h).ok()?, 16).ok()
}
