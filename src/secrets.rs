//! Credentials in text: detection and masking.
//!
//! [`find`] locates credentials by shape: provider keys with a fixed prefix (`sk-ant-`, `sk-`,
//! `AKIA`, `ghp_`/`github_pat_`, `xox?-`, `AIza`), JWTs, PEM private key blocks, and
//! high-entropy values assigned to a credential-like key (`token=`, `password:`, …), sent
//! as `Bearer …`, or embedded as the password of a URL (`postgres://app:pa55w0rd@db`).
//! [`mask`] replaces each one by `[<kind> …<last 4 chars>]`; every output path of dreamreview
//! calls it, so it is idempotent and costs one Aho-Corasick pass on text without secrets.
//!
//! Call both on whole texts (a note, a hunk's added lines joined with their terminators), not
//! line by line: a PEM block spans lines, and only its `BEGIN` line is recognisable alone.
//!
//! Deliberately NOT secrets: git SHAs, UUIDs, hex colours, npm integrity hashes
//! (`sha512-…`), base64 images (`data:image/png;base64,…`), `sk-learn`/`risk-…`/`task-…`
//! (no word boundary or no key-shaped body), the AWS documentation key is still reported
//! (`AKIAIOSFODNN7EXAMPLE` is indistinguishable from a pasted real one), and placeholders
//! (`<token>`, `xxxx…`, `***`, `${VAR}`, `$TOKEN`, `process.env.X`, `your-api-key-here`,
//! `[REDACTED]`, a masked `[kind …abcd]`).

use std::borrow::Cow;
use std::fmt;
use std::sync::OnceLock;

use aho_corasick::{AhoCorasick, AhoCorasickBuilder, MatchKind};
use serde::Serialize;

/// What kind of credential a [`Secret`] is. Serialised in kebab-case (`anthropic-key`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum SecretKind {
    /// Anthropic API key, `sk-ant-…`.
    AnthropicKey,
    /// OpenAI API key, `sk-…`, `sk-proj-…`.
    OpenaiKey,
    /// AWS access key id, `AKIA` + 16 upper-case letters or digits.
    AwsAccessKey,
    /// GitHub token, `ghp_`/`gho_`/`ghu_`/`ghs_`/`ghr_`/`github_pat_`.
    GithubToken,
    /// Slack token, `xoxa-`/`xoxb-`/`xoxp-`/`xoxr-`/`xoxs-`.
    SlackToken,
    /// Google API key, `AIza` + 35 characters.
    GoogleApiKey,
    /// JSON Web Token, `eyJ….eyJ….signature`.
    Jwt,
    /// A PEM private key block, `-----BEGIN … PRIVATE KEY-----` to its `-----END …-----`.
    PrivateKey,
    /// A high-entropy value after `token`/`secret`/`password`/`api_key`/`access_key`/… and
    /// `=` or `:`, after `Bearer `, or as the password of a URL (`scheme://user:pw@host`).
    Credential,
}

impl SecretKind {
    /// The kebab-case name used in masks and output (`anthropic-key`).
    pub fn name(self) -> &'static str {
        match self {
            SecretKind::AnthropicKey => "anthropic-key",
            SecretKind::OpenaiKey => "openai-key",
            SecretKind::AwsAccessKey => "aws-access-key",
            SecretKind::GithubToken => "github-token",
            SecretKind::SlackToken => "slack-token",
            SecretKind::GoogleApiKey => "google-api-key",
            SecretKind::Jwt => "jwt",
            SecretKind::PrivateKey => "private-key",
            SecretKind::Credential => "credential",
        }
    }
}

impl fmt::Display for SecretKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One credential found in a text: its kind and the byte range of the secret value itself
/// (for a PEM key, the whole block from `-----BEGIN` to the closing `-----` of its END line).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Secret {
    /// What kind of credential it is.
    pub kind: SecretKind,
    /// Byte offset of the first byte of the secret (always a char boundary).
    pub start: usize,
    /// Byte offset just past the secret (always a char boundary).
    pub end: usize,
}

/// Minimum Shannon entropy, in bits per character, of a value assigned to a credential key.
///
/// The key (`password:`, `token=`) is already most of the evidence; entropy only has to
/// reject degenerate values (`aaaaaaaa1111`, `abababab1212`). 2.5 bits keeps over 95% of
/// random 12-character hex tokens and over 99% of anything longer or base62, while the
/// structural rules (digit and letter, no identifiers, no placeholders) reject prose.
pub const CREDENTIAL_MIN_ENTROPY: f64 = 2.5;

/// Minimum length of a value assigned to a credential key.
pub const CREDENTIAL_MIN_LEN: usize = 12;

/// The literal trigger strings, matched ASCII-case-insensitively; each has a validator.
const TRIGGERS: &[&str] = &[
    "sk-",
    "akia",
    "ghp_",
    "gho_",
    "ghu_",
    "ghs_",
    "ghr_",
    "github_pat_",
    "xox",
    "aiza",
    "eyj",
    "-----begin",
    "token",
    "secret",
    "password",
    "passwd",
    "api_key",
    "api-key",
    "apikey",
    "api key",
    "access_key",
    "access-key",
    "accesskey",
    "access key",
    "secret_key",
    "secret-key",
    "secretkey",
    "secret key",
    "bearer",
    "://",
];

fn triggers() -> Option<&'static AhoCorasick> {
    static AC: OnceLock<Option<AhoCorasick>> = OnceLock::new();
    AC.get_or_init(|| {
        AhoCorasickBuilder::new()
            .ascii_case_insensitive(true)
            .match_kind(MatchKind::Standard)
            .build(TRIGGERS)
            .ok()
    })
    .as_ref()
}

/// Every credential in `text`, sorted by position, non-overlapping.
pub fn find(text: &str) -> Vec<Secret> {
    let Some(ac) = triggers() else {
        return Vec::new();
    };
    let b = text.as_bytes();
    let mut specific: Vec<Secret> = Vec::new();
    let mut credential: Vec<Secret> = Vec::new();
    for m in ac.find_overlapping_iter(text) {
        let (s, e) = (m.start(), m.end());
        let found = match TRIGGERS.get(m.pattern().as_usize()).copied() {
            Some("sk-") => sk_key(b, s),
            Some("akia") => aws_key(b, s),
            Some("ghp_" | "gho_" | "ghu_" | "ghs_" | "ghr_") => github_classic(b, s),
            Some("github_pat_") => github_fine(b, s),
            Some("xox") => slack(b, s),
            Some("aiza") => google(b, s),
            Some("eyj") => jwt(b, s),
            Some("-----begin") => pem(text, s),
            Some("bearer") => {
                if let Some(sec) = bearer(b, e) {
                    credential.push(sec);
                }
                None
            }
            Some("://") => {
                if let Some(sec) = url_password(b, e) {
                    credential.push(sec);
                }
                None
            }
            Some(_) => {
                if let Some(sec) = assigned(b, e) {
                    credential.push(sec);
                }
                None
            }
            None => None,
        };
        if let Some(sec) = found {
            specific.push(sec);
        }
    }
    merge(specific, credential)
}

/// Merges overlapping findings into one range; a specific kind wins over `credential`.
fn merge(mut specific: Vec<Secret>, credential: Vec<Secret>) -> Vec<Secret> {
    specific.extend(credential);
    if specific.is_empty() {
        return specific;
    }
    let rank = |k: SecretKind| u8::from(k == SecretKind::Credential);
    specific.sort_by_key(|s| (s.start, rank(s.kind), std::cmp::Reverse(s.end)));
    let mut out: Vec<Secret> = Vec::with_capacity(specific.len());
    for s in specific {
        match out.last_mut() {
            Some(last) if s.start < last.end => {
                last.end = last.end.max(s.end);
                if last.kind == SecretKind::Credential && s.kind != SecretKind::Credential {
                    last.kind = s.kind;
                }
            }
            _ => out.push(s),
        }
    }
    out
}

/// `text` with every secret replaced by `[<kind> …<last 4 chars>]`. Borrowed when there is
/// nothing to mask. Idempotent: masking a masked text changes nothing.
pub fn mask(text: &str) -> Cow<'_, str> {
    let mut secrets = find(text);
    if secrets.is_empty() {
        return Cow::Borrowed(text);
    }
    let mut current = replace(text, &secrets);
    // A replacement can, in theory, expose a neighbour; a few passes reach a fixed point.
    for _ in 0..4 {
        secrets = find(&current);
        if secrets.is_empty() {
            break;
        }
        current = replace(&current, &secrets);
    }
    Cow::Owned(current)
}

fn replace(text: &str, secrets: &[Secret]) -> String {
    let mut out = String::with_capacity(text.len());
    let mut pos = 0;
    for s in secrets {
        let (Some(before), Some(value)) = (text.get(pos..s.start), text.get(s.start..s.end)) else {
            continue;
        };
        out.push_str(before);
        out.push('[');
        out.push_str(s.kind.name());
        let tail = if s.kind == SecretKind::PrivateKey {
            pem_tail(value)
        } else {
            last_chars(value, 4)
        };
        if !tail.is_empty() {
            out.push_str(" …");
            out.push_str(&tail);
        }
        out.push(']');
        pos = s.end;
    }
    out.push_str(text.get(pos..).unwrap_or(""));
    out
}

fn last_chars(s: &str, n: usize) -> String {
    let chars: Vec<char> = s.chars().collect();
    chars[chars.len().saturating_sub(n)..].iter().collect()
}

/// The last 4 base64 characters of a PEM block's body (padding and escaped newlines skipped).
fn pem_tail(block: &str) -> String {
    let body_start = block.find("-----\n").map(|i| i + 6);
    let body_start = body_start
        .or_else(|| block.find("-----\\n").map(|i| i + 7))
        .or_else(|| {
            block
                .get(10..)
                .and_then(|r| r.find("-----"))
                .map(|i| i + 15)
        })
        .unwrap_or(block.len());
    let body_end = block.rfind("-----END").unwrap_or(block.len());
    let body = block
        .get(body_start..body_end.max(body_start))
        .unwrap_or("");
    let mut chars: Vec<char> = Vec::new();
    let mut it = body.chars().peekable();
    while let Some(c) = it.next() {
        if c == '\\' && matches!(it.peek(), Some('n' | 'r')) {
            it.next();
            continue;
        }
        if c.is_ascii_alphanumeric() || c == '+' || c == '/' {
            chars.push(c);
        }
    }
    chars[chars.len().saturating_sub(4)..].iter().collect()
}

fn is_word(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

fn is_key_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_' || c == b'-'
}

/// True when the byte before `s` cannot continue a token (start, punctuation, non-ASCII).
fn boundary_before(b: &[u8], s: usize, token: fn(u8) -> bool) -> bool {
    s == 0 || b.get(s - 1).is_none_or(|&c| !token(c))
}

/// End of the run of bytes satisfying `pred` starting at `from`.
fn run_end(b: &[u8], from: usize, pred: fn(u8) -> bool) -> usize {
    let mut i = from;
    while b.get(i).is_some_and(|&c| pred(c)) {
        i += 1;
    }
    i
}

/// A body of placeholder characters: mostly one repeated character (`xxxx`, `****`, `0000`).
fn is_placeholder_body(body: &[u8]) -> bool {
    let alnum: Vec<u8> = body
        .iter()
        .copied()
        .filter(|c| c.is_ascii_alphanumeric())
        .collect();
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

fn has_digit_and_letter(b: &[u8]) -> bool {
    b.iter().any(u8::is_ascii_digit) && b.iter().any(u8::is_ascii_alphabetic)
}

/// `sk-ant-…` (Anthropic) or `sk-…`/`sk-proj-…` (OpenAI).
fn sk_key(b: &[u8], s: usize) -> Option<Secret> {
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
        let longest = body
            .split(|&c| c == b'-' || c == b'_')
            .map(<[u8]>::len)
            .max()
            .unwrap_or(0);
        if longest < 16 {
            return None;
        }
        SecretKind::OpenaiKey
    };
    Some(Secret {
        kind,
        start: s,
        end,
    })
}

/// `AKIA` + exactly 16 upper-case letters or digits, as a whole word.
fn aws_key(b: &[u8], s: usize) -> Option<Secret> {
    if b.get(s..s + 4) != Some(b"AKIA") || !boundary_before(b, s, is_word) {
        return None;
    }
    let end = run_end(b, s + 4, |c| c.is_ascii_uppercase() || c.is_ascii_digit());
    let body = b.get(s + 4..end)?;
    if body.len() != 16 || b.get(end).is_some_and(|&c| is_word(c)) || is_placeholder_body(body) {
        return None;
    }
    Some(Secret {
        kind: SecretKind::AwsAccessKey,
        start: s,
        end,
    })
}

/// `ghp_`/`gho_`/`ghu_`/`ghs_`/`ghr_` + 30 or more letters and digits (36 in practice).
fn github_classic(b: &[u8], s: usize) -> Option<Secret> {
    let prefix = b.get(s..s + 4)?;
    if !prefix.starts_with(b"gh") || !boundary_before(b, s, is_word) {
        return None;
    }
    let end = run_end(b, s + 4, |c| c.is_ascii_alphanumeric());
    let body = b.get(s + 4..end)?;
    if body.len() < 30 || b.get(end) == Some(&b'_') || is_placeholder_body(body) {
        return None;
    }
    Some(Secret {
        kind: SecretKind::GithubToken,
        start: s,
        end,
    })
}

/// `github_pat_` + 40 or more letters, digits and underscores (82 in practice).
fn github_fine(b: &[u8], s: usize) -> Option<Secret> {
    if b.get(s..s + 11) != Some(b"github_pat_") || !boundary_before(b, s, is_word) {
        return None;
    }
    let end = run_end(b, s + 11, is_word);
    let body = b.get(s + 11..end)?;
    if body.len() < 40 || is_placeholder_body(body) {
        return None;
    }
    Some(Secret {
        kind: SecretKind::GithubToken,
        start: s,
        end,
    })
}

/// `xoxa-`/`xoxb-`/`xoxp-`/`xoxr-`/`xoxs-` + 10 or more characters including a digit.
fn slack(b: &[u8], s: usize) -> Option<Secret> {
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
    Some(Secret {
        kind: SecretKind::SlackToken,
        start: s,
        end,
    })
}

/// `AIza` + 35 characters of `[A-Za-z0-9_-]`.
fn google(b: &[u8], s: usize) -> Option<Secret> {
    if b.get(s..s + 4) != Some(b"AIza") || !boundary_before(b, s, is_key_char) {
        return None;
    }
    let end = run_end(b, s + 4, is_key_char);
    let body = b.get(s + 4..end)?;
    if body.len() < 35 || is_placeholder_body(body) {
        return None;
    }
    Some(Secret {
        kind: SecretKind::GoogleApiKey,
        start: s,
        end,
    })
}

/// `eyJ<header>.eyJ<payload>.<signature>`, base64url segments.
fn jwt(b: &[u8], s: usize) -> Option<Secret> {
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
    Some(Secret {
        kind: SecretKind::Jwt,
        start: s,
        end: sig_end,
    })
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
fn pem(text: &str, s: usize) -> Option<Secret> {
    let (label, header_end) = pem_marker(text, s, "BEGIN ")?;
    if !label.contains("PRIVATE KEY") {
        return None;
    }
    let secret = |end| {
        Some(Secret {
            kind: SecretKind::PrivateKey,
            start: s,
            end,
        })
    };
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
            && trimmed
                .bytes()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'+' | b'/' | b'='));
        if !base64 {
            break;
        }
        end = pos + content.len();
        pos += line.len();
    }
    secret(end)
}

/// An opaque token after `Bearer ` (`Authorization: Bearer 3f9a…`); JWTs are found as such.
fn bearer(b: &[u8], e: usize) -> Option<Secret> {
    let start = run_end(b, e, |c| c == b' ');
    if start == e {
        return None;
    }
    let end = run_end(b, start, is_value_char);
    let value = b.get(start..end)?;
    is_credential_value(value).then_some(Secret {
        kind: SecretKind::Credential,
        start,
        end,
    })
}

/// The password of a URL with credentials (`postgres://app:pa55w0rd@db:5432/x`), judged like
/// an assigned value but from 8 characters; `postgres:postgres@` and `user:pass@` are not.
fn url_password(b: &[u8], e: usize) -> Option<Secret> {
    let end = run_end(b, e, |c| {
        c.is_ascii_graphic()
            && !matches!(
                c,
                b'/' | b'?'
                    | b'#'
                    | b'"'
                    | b'\''
                    | b'`'
                    | b'<'
                    | b'>'
                    | b'('
                    | b')'
                    | b'['
                    | b']'
                    | b'{'
                    | b'}'
                    | b'|'
                    | b','
            )
    });
    let authority = b.get(e..end)?;
    let at = authority.iter().rposition(|&c| c == b'@')?;
    let colon = authority.get(..at)?.iter().position(|&c| c == b':')?;
    let (start, stop) = (e + colon + 1, e + at);
    let pw = b.get(start..stop)?;
    let lower = pw.to_ascii_lowercase();
    let looks_placeholder = pw.len() < 8
        || matches!(pw.first(), Some(b'$' | b'%' | b'*'))
        || [
            &b"pass"[..],
            b"secret",
            b"xxxx",
            b"your",
            b"example",
            b"changeme",
        ]
        .iter()
        .any(|w| lower.windows(w.len()).any(|x| x == *w));
    if looks_placeholder || !has_digit_and_letter(pw) || is_placeholder_body(pw) {
        return None;
    }
    (shannon_entropy(pw) >= CREDENTIAL_MIN_ENTROPY).then_some(Secret {
        kind: SecretKind::Credential,
        start,
        end: stop,
    })
}

/// A value assigned to a credential key whose name ends at `e` (`token`, `db_password`…).
fn assigned(b: &[u8], e: usize) -> Option<Secret> {
    let mut i = e;
    // Closing quote or emphasis of the key: `"password":`, `**Token**:`.
    let mut n = 0;
    while n < 3 && matches!(b.get(i), Some(b'"' | b'\'' | b'*' | b'`')) {
        i += 1;
        n += 1;
    }
    i = run_end(b, i, |c| c == b' ' || c == b'\t');
    match (b.get(i), b.get(i + 1)) {
        (Some(b':'), Some(b'=')) => i += 2,
        (Some(b'='), Some(b'=' | b'>' | b'~')) => return None,
        (Some(b':' | b'='), _) => i += 1,
        _ => return None,
    }
    i = run_end(b, i, |c| c == b' ' || c == b'\t');
    if matches!(b.get(i), Some(b'"' | b'\'' | b'`')) {
        i += 1;
    }
    let start = i;
    let mut end = run_end(b, start, is_value_char);
    while end > start && b.get(end - 1) == Some(&b'.') {
        end -= 1;
    }
    let value = b.get(start..end)?;
    if !is_credential_value(value) {
        return None;
    }
    // The value must stand alone: not glued to a placeholder such as `${VAR}`.
    if b.get(end)
        .is_some_and(|&c| matches!(c, b'{' | b'(' | b'[' | b'<'))
    {
        return None;
    }
    Some(Secret {
        kind: SecretKind::Credential,
        start,
        end,
    })
}

fn is_value_char(c: u8) -> bool {
    c.is_ascii_graphic()
        && !matches!(
            c,
            b'"' | b'\''
                | b'`'
                | b','
                | b';'
                | b'<'
                | b'>'
                | b'('
                | b')'
                | b'['
                | b']'
                | b'{'
                | b'}'
                | b'|'
        )
}

/// Whether an assigned value looks like a real credential rather than a placeholder,
/// a reference to one (`process.env.X`, `$TOKEN`, `settings.API_KEY`) or a word.
fn is_credential_value(v: &[u8]) -> bool {
    if v.len() < CREDENTIAL_MIN_LEN {
        return false;
    }
    let Ok(s) = std::str::from_utf8(v) else {
        return false;
    };
    let lower = s.to_ascii_lowercase();
    if matches!(
        v.first(),
        Some(b'$' | b'%' | b'/' | b'~' | b'.' | b'*' | b'#' | b'@' | b'&')
    ) || lower.contains("://")
        || [
            "your",
            "example",
            "placeholder",
            "redacted",
            "changeme",
            "xxxx",
            "****",
            "...",
        ]
        .iter()
        .any(|w| lower.contains(w))
        || ["env.", "environ", "getenv", "secrets.", "vault:", "op://"]
            .iter()
            .any(|w| lower.contains(w))
    {
        return false;
    }
    if is_identifier_path(s) || is_env_name(s) {
        return false;
    }
    // Random tokens mix digits and letters inside one segment; names such as
    // `prod-db-credentials-2026` keep them apart.
    let mixed_segment = v
        .split(|c| matches!(c, b'-' | b'_' | b'.' | b':' | b'/' | b'+' | b'='))
        .any(has_digit_and_letter);
    if !mixed_segment || is_placeholder_body(v) {
        return false;
    }
    shannon_entropy(v) >= CREDENTIAL_MIN_ENTROPY
}

/// `config.auth.token`, `settings.OPENAI_API_KEY`: a dotted code reference.
fn is_identifier_path(s: &str) -> bool {
    s.contains('.')
        && s.split('.').all(|part| {
            part.bytes()
                .next()
                .is_some_and(|c| c.is_ascii_alphabetic() || c == b'_')
                && part.bytes().all(is_word)
        })
}

/// `GITHUB_TOKEN`, `OPENAI_API_KEY`: the name of an environment variable.
fn is_env_name(s: &str) -> bool {
    s.contains('_')
        && s.bytes().next().is_some_and(|c| c.is_ascii_uppercase())
        && s.bytes()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == b'_')
}

/// Shannon entropy of the byte distribution of `v`, in bits per byte.
pub fn shannon_entropy(v: &[u8]) -> f64 {
    if v.is_empty() {
        return 0.0;
    }
    let mut counts = [0usize; 256];
    for &c in v {
        counts[usize::from(c)] += 1;
    }
    let n = v.len() as f64;
    counts
        .iter()
        .filter(|&&c| c > 0)
        .map(|&c| {
            let p = c as f64 / n;
            -p * p.log2()
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    const ANT: &str =
        "sk-ant-api03-Xq7vR2mK9pL4tW8zN3bC6dF1gH5jY0sA-Qe2Rt9Uy4Io7Pa3Sd6Fg8Hj1Kl5Zx0Cv9f3a";

    fn kinds(text: &str) -> Vec<(SecretKind, &str)> {
        find(text)
            .into_iter()
            .map(|s| (s.kind, &text[s.start..s.end]))
            .collect()
    }

    #[test]
    fn anthropic_key_found_and_masked() {
        let text = format!("export ANTHROPIC_API_KEY={ANT}\n");
        assert_eq!(kinds(&text), vec![(SecretKind::AnthropicKey, ANT)]);
        assert_eq!(
            mask(&text),
            "export ANTHROPIC_API_KEY=[anthropic-key …9f3a]\n"
        );
    }

    #[test]
    fn word_boundaries_before_sk() {
        for t in [
            "risk-assessment-for-the-2026-roadmap-q3-planning",
            "task-1234567890abcdefghijklmnop",
            "desk-Ab3dEf6hIj9kLm2nOp5qRs8tUv",
            "pip install scikit-learn; import sk-learn",
        ] {
            assert_eq!(find(t), vec![], "{t}");
        }
    }

    #[test]
    fn mask_is_borrowed_without_secrets() {
        assert!(matches!(mask("plain note, token: none"), Cow::Borrowed(_)));
    }

    #[test]
    fn entropy_of_known_values() {
        assert_eq!(shannon_entropy(b"aaaa"), 0.0);
        assert!((shannon_entropy(b"abcd") - 2.0).abs() < 1e-9);
    }

    #[test]
    fn credential_rules() {
        assert!(is_credential_value(b"S3cr3tP@ssw0rd"));
        assert!(is_credential_value(b"a3f9c2e81b7d04f6"));
        assert!(!is_credential_value(b"correct-horse-battery"));
        assert!(!is_credential_value(b"settings.OPENAI_KEY1"));
        assert!(!is_credential_value(b"GITHUB_TOKEN_2"));
        assert!(!is_credential_value(b"aaaaaaaaaaaa1"));
        assert!(!is_credential_value(b"your-api-key-here-123"));
        assert!(!is_credential_value(b"prod-db-credentials-2026"));
    }

    #[test]
    fn pem_tail_skips_padding_and_escapes() {
        let block =
            "-----BEGIN RSA PRIVATE KEY-----\\nMIIEabcdWXYZ==\\n-----END RSA PRIVATE KEY-----";
        assert_eq!(pem_tail(block), "WXYZ");
    }
}
