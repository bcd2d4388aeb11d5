//! PEM private keys: a whole block from its `BEGIN … PRIVATE KEY` line, a body without
//! its BEGIN line (the base64 lines above an `END … PRIVATE KEY` line, a body that starts
//! with the DER encoding of a private key, or lines of full-width base64), JSON-escaped
//! (`\n`) or not.

use std::ops::Range;

use super::shapes::run_end;

/// Parses `-----BEGIN <label>-----` at `s`; returns the label and the end of the marker.
fn pem_marker(text: &str, s: usize, word: &str) -> Option<(String, usize)> {
    let rest = text.get(s..)?;
    let after = rest.strip_prefix("-----")?.strip_prefix(word)?;
    let close = after.find("-----")?;
    let label = after.get(..close)?;
    if label.len() > 40 || !label.bytes().all(|c| c.is_ascii_uppercase() || c == b' ') {
        return None;
    }
    let end = s + 5 + word.len() + close + 5;
    Some((label.trim().to_string(), end))
}

/// A PEM private key block starting at `s` (the `-----BEGIN` marker).
pub(super) fn pem_begin(text: &str, s: usize, _: usize) -> Option<Range<usize>> {
    let (label, header_end) = pem_marker(text, s, "BEGIN ")?;
    if !label.contains("PRIVATE KEY") {
        return None;
    }
    let secret = |end| Some(s..end);
    let rest = text.get(header_end..)?;
    if let Some(off) = rest.find("-----END ") {
        let end_at = header_end + off;
        if let Some((end_label, end)) = pem_marker(text, end_at, "END ")
            && end_label.contains("PRIVATE KEY")
        {
            let body = text.get(header_end..end_at).unwrap_or("");
            let body_chars = body
                .replace("\\n", "")
                .bytes()
                .filter(|c| c.is_ascii_alphanumeric() || *c == b'+' || *c == b'/')
                .count();
            // A documentation skeleton (`BEGIN … \n...\n END …`) holds no key.
            return if body_chars >= 16 { secret(end) } else { None };
        }
    }
    // Unterminated (truncated paste, or one line of a diff): the header plus the base64
    // that follows it, on the header line (JSON-escaped `\\n`) and on the next lines.
    let mut lines = rest.split_inclusive('\n');
    let first = lines.next().unwrap_or("");
    let first_content = first.trim_end_matches(['\n', '\r']);
    let mut end = header_end;
    if first_content.starts_with("\\n") {
        end += run_end(first_content.as_bytes(), 0, |c| {
            c.is_ascii_alphanumeric() || matches!(c, b'+' | b'/' | b'=' | b'\\')
        });
        return secret(end);
    }
    if !first_content.trim().is_empty() {
        return secret(end);
    }
    let mut pos = header_end + first.len();
    for line in lines {
        let content = line.trim_end_matches(['\n', '\r']);
        let trimmed = content.trim();
        let base64 = !trimmed.is_empty()
            && trimmed.bytes().all(|c| c.is_ascii_alphanumeric() || matches!(c, b'+' | b'/' | b'='));
        if !base64 {
            break;
        }
        end = pos + content.len();
        pos += line.len();
    }
    secret(end)
}

/// Whether `c` is a base64 character (padding included).
fn is_base64(c: u8) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, b'+' | b'/' | b'=')
}

/// Whether a line (terminator and surrounding blanks trimmed) is a non-empty base64 run.
fn is_base64_line(line: &str) -> bool {
    let t = line.trim();
    !t.is_empty() && t.bytes().all(is_base64)
}

/// A PEM private key body without its BEGIN line: the base64 above an
/// `-----END … PRIVATE KEY-----` marker at `s`, to the end of that marker.
pub(super) fn pem_end(text: &str, s: usize, _: usize) -> Option<Range<usize>> {
    let (label, end) = pem_marker(text, s, "END ")?;
    if !label.contains("PRIVATE KEY") {
        return None;
    }
    let b = text.as_bytes();
    let before = text.get(..s)?;
    // JSON-escaped: `…base64\\n-----END …`, all on one line.
    if before.ends_with("\\n") {
        let mut start = s;
        while start > 0 && b.get(start - 1).is_some_and(|&c| is_base64(c) || c == b'\\') {
            start -= 1;
        }
        let body = text.get(start..s)?.replace("\\n", "");
        return (body.len() >= 16).then_some(start..end);
    }
    // Line by line: the END marker opens its line, base64 lines above it.
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    if !before.get(line_start..)?.trim().is_empty() {
        return None;
    }
    let mut start = None;
    let mut body = 0;
    let mut cursor = line_start;
    while cursor > 0 {
        let above = text.get(..cursor - 1)?;
        let from = above.rfind('\n').map_or(0, |i| i + 1);
        let line = above.get(from..)?;
        if !is_base64_line(line) {
            break;
        }
        body += line.trim().len();
        start = Some(from + (line.len() - line.trim_start().len()));
        cursor = from;
    }
    (body >= 16).then_some(start?..end)
}

/// A key body recognised by the DER encoding it starts with (`MIIEvQIBADAN…` for PKCS#8
/// RSA, `b3BlbnNzaC1rZXktdjE` for OpenSSH…), at `s`: the base64 that follows, across
/// line breaks (and `\n` escapes) while lines stay base64.
pub(super) fn pem_anchor(text: &str, s: usize, _: usize) -> Option<Range<usize>> {
    let b = text.as_bytes();
    if s > 0 && b.get(s - 1).is_some_and(|&c| is_base64(c)) && !text.get(..s)?.ends_with("\\n") {
        return None;
    }
    let mut end = s;
    loop {
        end = run_end(b, end, is_base64);
        if text.get(end..)?.starts_with("\\n") && b.get(end + 2).is_some_and(|&c| is_base64(c)) {
            end += 2;
            continue;
        }
        let rest = text.get(end..)?;
        let skip = if rest.starts_with("\r\n") {
            2
        } else if rest.starts_with('\n') {
            1
        } else {
            0
        };
        let next = rest.get(skip..).and_then(|r| r.split('\n').next()).unwrap_or("").trim_end_matches('\r');
        if skip == 0 || next.is_empty() || !next.bytes().all(is_base64) {
            break;
        }
        end += skip;
    }
    (end - s >= 40).then_some(s..end)
}

/// Lengths of the lines of a PEM body (64) and of an OpenSSH key (70).
const BODY_WIDTHS: [usize; 2] = [64, 70];

/// Runs of two or more full-width base64 lines (a key body pasted without its BEGIN and
/// END lines, or a diff hunk showing only its middle), with the shorter last line that
/// may follow. A full-width line mixes upper case, lower case and digits, so a list of
/// SHA-256 checksums (lower-case hex) is not one.
pub(super) fn bare_bodies(text: &str) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    let mut run: Option<(usize, usize, usize)> = None; // (start, end, full lines)
    let mut pos = 0;
    for line in text.split_inclusive('\n') {
        let line_start = pos;
        pos += line.len();
        // Most lines are too short or too long to be one: decided on their length alone.
        if run.is_none() && !(64..=160).contains(&line.len()) {
            continue;
        }
        let content = line.trim_end_matches(['\n', '\r']);
        let lead = content.len() - content.trim_start().len();
        let t = content.trim();
        let (start, end) = (line_start + lead, line_start + lead + t.len());
        if is_full_width(t) {
            run = Some(match run {
                Some((s, _, n)) => (s, end, n + 1),
                None => (start, end, 1),
            });
            continue;
        }
        if let Some((s, e, n)) = run.take()
            && n >= 2
        {
            let last = !t.is_empty() && t.len() < 70 && t.bytes().all(is_base64);
            out.push(s..if last { end } else { e });
        }
    }
    if let Some((s, e, n)) = run
        && n >= 2
    {
        out.push(s..e);
    }
    out
}

/// A full-width line of a key body.
fn is_full_width(t: &str) -> bool {
    BODY_WIDTHS.contains(&t.len())
        && t.bytes().all(|c| c.is_ascii_alphanumeric() || c == b'+' || c == b'/')
        && t.bytes().any(|c| c.is_ascii_uppercase())
        && t.bytes().any(|c| c.is_ascii_lowercase())
        && t.bytes().any(|c| c.is_ascii_digit())
}
