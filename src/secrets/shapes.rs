//! Credentials recognised by their shape: provider keys with a fixed prefix, JWTs and PEM
//! private key blocks. Each validator gets the trigger's position and returns the secret's
//! exact byte range, or `None` when the text only looks like one (no word boundary,
//! placeholder body, kebab-case prose).

use super::{Secret, SecretKind};

pub(super) fn is_word(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

pub(super) fn is_key_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_' || c == b'-'
}

/// True when the byte before `s` cannot continue a token (start, punctuation, non-ASCII).
pub(super) fn boundary_before(b: &[u8], s: usize, token: fn(u8) -> bool) -> bool {
    s == 0 || b.get(s - 1).is_none_or(|&c| !token(c))
}

/// End of the run of bytes satisfying `pred` starting at `from`.
pub(super) fn run_end(b: &[u8], from: usize, pred: fn(u8) -> bool) -> usize {
    let mut i = from;
    while b.get(i).is_some_and(|&c| pred(c)) {
        i += 1;
    }
    i
}

/// A body of placeholder characters: mostly one repeated character (`xxxx`, `****`, `0000`).
pub(super) fn is_placeholder_body(body: &[u8]) -> bool {
    let alnum: Vec<u8> = body.iter().copied().filter(|c| c.is_ascii_alphanumeric()).collect();
    if alnum.len() < 8 {
        return true;
    }
    let mut counts = [0usize; 256];
    for &c in &alnum {
        counts[usize::from(c.to_ascii_lowercase())] += 1;
    }
    let max = counts.iter().copied().max().unwrap_or(0);
    max * 2 >= alnum.len() || longest_repeat(&alnum) >= 6
}

fn longest_repeat(b: &[u8]) -> usize {
    let mut best = 0;
    let mut run = 0;
    let mut prev = None;
    for &c in b {
        let c = c.to_ascii_lowercase();
        run = if Some(c) == prev { run + 1 } else { 1 };
        prev = Some(c);
        best = best.max(run);
    }
    best
}

pub(super) fn has_digit_and_letter(b: &[u8]) -> bool {
    b.iter().any(u8::is_ascii_digit) && b.iter().any(u8::is_ascii_alphabetic)
}

/// `sk-ant-…` (Anthropic) or `sk-…`/`sk-proj-…` (OpenAI).
pub(super) fn sk_key(b: &[u8], s: usize) -> Option<Secret> {
    if b.get(s..s + 3) != Some(b"sk-") || !boundary_before(b, s, is_key_char) {
        return None;
    }
    let end = run_end(b, s + 3, is_key_char);
    let body = b.get(s + 3..end)?;
    if body.len() < 20 || !has_digit_and_letter(body) || is_placeholder_body(body) {
        return None;
    }
    let kind = if body.starts_with(b"ant-") {
        SecretKind::AnthropicKey
    } else {
        // Kebab-case prose (`sk-learn-0-24-release-notes`) has no long random run.
        let longest = body.split(|&c| c == b'-' || c == b'_').map(<[u8]>::len).max().unwrap_or(0);
        if longest < 16 {
            return None;
        }
        SecretKind::OpenaiKey
    };
    Some(Secret { kind, start: s, end })
}

/// `AKIA` + exactly 16 upper-case letters or digits, as a whole word.
pub(super) fn aws_key(b: &[u8], s: usize) -> Option<Secret> {
    if b.get(s..s + 4) != Some(b"AKIA") || !boundary_before(b, s, is_word) {
        return None;
    }
    let end = run_end(b, s + 4, |c| c.is_ascii_uppercase() || c.is_ascii_digit());
    let body = b.get(s + 4..end)?;
    if body.len() != 16 || b.get(end).is_some_and(|&c| is_word(c)) || is_placeholder_body(body) {
        return None;
    }
    Some(Secret { kind: SecretKind::AwsAccessKey, start: s, end })
}

/// `ghp_`/`gho_`/`ghu_`/`ghs_`/`ghr_` + 30 or more letters and digits (36 in practice).
pub(super) fn github_classic(b: &[u8], s: usize) -> Option<Secret> {
    let prefix = b.get(s..s + 4)?;
    if !prefix.starts_with(b"gh") || !boundary_before(b, s, is_word) {
        return None;
    }
    let end = run_end(b, s + 4, |c| c.is_ascii_alphanumeric());
    let body = b.get(s + 4..end)?;
    if body.len() < 30 || b.get(end) == Some(&b'_') || is_placeholder_body(body) {
        return None;
    }
    Some(Secret { kind: SecretKind::GithubToken, start: s, end })
}

/// `github_pat_` + 40 or more letters, digits and underscores (82 in practice).
pub(super) fn github_fine(b: &[u8], s: usize) -> Option<Secret> {
    if b.get(s..s + 11) != Some(b"github_pat_") || !boundary_before(b, s, is_word) {
        return None;
    }
    let end = run_end(b, s + 11, is_word);
    let body = b.get(s + 11..end)?;
    if body.len() < 40 || is_placeholder_body(body) {
        return None;
    }
    Some(Secret { kind: SecretKind::GithubToken, start: s, end })
}

/// `xoxa-`/`xoxb-`/`xoxp-`/`xoxr-`/`xoxs-` + 10 or more characters including a digit.
pub(super) fn slack(b: &[u8], s: usize) -> Option<Secret> {
    let head = b.get(s..s + 5)?;
    if !head.starts_with(b"xox")
        || !matches!(head.get(3), Some(b'a' | b'b' | b'p' | b'r' | b's'))
        || head.get(4) != Some(&b'-')
        || !boundary_before(b, s, is_word)
    {
        return None;
    }
    let end = run_end(b, s + 5, |c| c.is_ascii_alphanumeric() || c == b'-');
    let body = b.get(s + 5..end)?;
    if body.len() < 10 || !body.iter().any(u8::is_ascii_digit) || is_placeholder_body(body) {
        return None;
    }
    Some(Secret { kind: SecretKind::SlackToken, start: s, end })
}

/// `AIza` + 35 characters of `[A-Za-z0-9_-]`.
pub(super) fn google(b: &[u8], s: usize) -> Option<Secret> {
    if b.get(s..s + 4) != Some(b"AIza") || !boundary_before(b, s, is_key_char) {
        return None;
    }
    let end = run_end(b, s + 4, is_key_char);
    let body = b.get(s + 4..end)?;
    if body.len() < 35 || is_placeholder_body(body) {
        return None;
    }
    Some(Secret { kind: SecretKind::GoogleApiKey, start: s, end })
}

/// `eyJ<header>.eyJ<payload>.<signature>`, base64url segments.
pub(super) fn jwt(b: &[u8], s: usize) -> Option<Secret> {
    if b.get(s..s + 3) != Some(b"eyJ") || !boundary_before(b, s, is_key_char) {
        return None;
    }
    let h_end = run_end(b, s, is_key_char);
    if h_end - s < 10 || b.get(h_end) != Some(&b'.') {
        return None;
    }
    let p = h_end + 1;
    if b.get(p..p + 3) != Some(b"eyJ") {
        return None;
    }
    let p_end = run_end(b, p, is_key_char);
    if p_end - p < 10 || b.get(p_end) != Some(&b'.') {
        return None;
    }
    let sig_end = run_end(b, p_end + 1, is_key_char);
    if sig_end - (p_end + 1) < 8 {
        return None;
    }
    Some(Secret { kind: SecretKind::Jwt, start: s, end: sig_end })
}

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
pub(super) fn pem(text: &str, s: usize) -> Option<Secret> {
    let (label, header_end) = pem_marker(text, s, "BEGIN ")?;
    if !label.contains("PRIVATE KEY") {
        return None;
    }
    let secret = |end| Some(Secret { kind: SecretKind::PrivateKey, start: s, end });
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
