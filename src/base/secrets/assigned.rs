//! Credentials recognised by context: a value assigned to a credential-like key
//! (`token: …`, `API_KEY=…`), a `Bearer` token, the password of a URL. A value after a
//! general key must look random (digits and letters mixed, entropy of at least
//! [`CREDENTIAL_MIN_ENTROPY`](super::CREDENTIAL_MIN_ENTROPY)); the value of a
//! password-named key (`DB_PASSWORD=hunter2`, `password: "correct horse"`) and the password
//! of a URL are credentials whatever their entropy. None of them is a placeholder
//! (`<password>`, `xxxx`, `${PW}`, `changeme`, `EXAMPLE`, an empty value) or a reference to
//! a secret kept elsewhere (`process.env.X`, `$TOKEN`, `vault:…`).

use std::ops::Range;

use super::shapes::{has_digit_and_letter, is_placeholder_body, is_word, run_end};
use super::thresholds::{CREDENTIAL_MIN_ENTROPY, CREDENTIAL_MIN_LEN};

/// Whole values that only name the thing they stand for (case-insensitive).
const PLACEHOLDER_WORDS: &[&str] = &[
    "password",
    "passwd",
    "pass",
    "pwd",
    "pw",
    "passphrase",
    "secret",
    "token",
    "key",
    "changeme",
    "change_me",
    "changeit",
    "example",
    "placeholder",
    "redacted",
    "hidden",
    "masked",
    "none",
    "null",
    "nil",
    "undefined",
    "empty",
    "blank",
    "true",
    "false",
    "yes",
    "no",
    "on",
    "off",
    "required",
    "optional",
    "todo",
    "tbd",
    "n/a",
    "na",
    "string",
    "str",
    "text",
    "value",
    "foo",
    "bar",
    "user",
    "username",
];

/// Pieces that mark a value as a placeholder or a reference wherever they appear in it.
const PLACEHOLDER_PARTS: &[&str] = &[
    "your",
    "example",
    "placeholder",
    "redacted",
    "changeme",
    "xxxx",
    "****",
    "...",
    "…",
    "${",
    "{{",
    "<",
    ">",
    "env.",
    "environ",
    "getenv",
    "secrets.",
    "vault:",
    "op://",
    "://",
];

/// An opaque token after `Bearer ` (`Authorization: Bearer 3f9a…`); JWTs are found as such.
pub(super) fn bearer(text: &str, _: usize, e: usize) -> Option<Range<usize>> {
    let b = text.as_bytes();
    let start = run_end(b, e, |c| c == b' ');
    if start == e {
        return None;
    }
    let end = run_end(b, start, is_value_char);
    let value = b.get(start..end)?;
    is_credential_value(value).then_some(start..end)
}

/// The credentials of HTTP basic authentication (`Authorization: Basic dXNlcjpwdw==`): a
/// base64 value after `Basic ` that decodes to printable `user:password`. What it decodes
/// to is the evidence, so prose (`basic usage`, `Basic setup`) never passes.
pub(super) fn basic_auth(text: &str, s: usize, e: usize) -> Option<Range<usize>> {
    use base64::Engine;
    use base64::engine::general_purpose::{STANDARD, STANDARD_NO_PAD};
    let b = text.as_bytes();
    if s > 0 && b.get(s - 1).is_some_and(|&c| is_word(c)) {
        return None;
    }
    let start = run_end(b, e, |c| c == b' ' || c == b'\t');
    if start == e {
        return None;
    }
    let body_end = run_end(b, start, |c| c.is_ascii_alphanumeric() || c == b'+' || c == b'/');
    let end = run_end(b, body_end, |c| c == b'=').min(body_end + 2);
    if end - start < 8 || b.get(end).is_some_and(|&c| is_word(c)) {
        return None;
    }
    let value = b.get(start..end)?;
    let decoded = STANDARD.decode(value).or_else(|_| STANDARD_NO_PAD.decode(value)).ok()?;
    let pair = std::str::from_utf8(&decoded).ok()?;
    let credentials = pair.split_once(':').is_some_and(|(user, pw)| !user.is_empty() && !pw.is_empty());
    (credentials && !pair.chars().any(char::is_control)).then_some(start..end)
}

/// The password of a URL with credentials (`postgres://app:hunter2@db:5432/x`): a
/// credential whatever its entropy, unless it is a placeholder (`user:password@`,
/// `:xxxx@`, `:${PW}@`, `:<password>@`, `:changeme@`).
pub(super) fn url_password(text: &str, _: usize, e: usize) -> Option<Range<usize>> {
    let b = text.as_bytes();
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
    let pw = std::str::from_utf8(b.get(start..stop)?).ok()?;
    let format_directive = pw.starts_with("%s") || pw.starts_with("%(");
    if pw.is_empty() || matches!(pw.as_bytes()[0], b'$' | b'*') || format_directive || is_placeholder_value(pw) {
        return None;
    }
    Some(start..stop)
}

/// A value assigned to a credential key whose name ends at `e` (`token`, `db_secret`…),
/// when it looks random.
pub(super) fn after_key(text: &str, _: usize, e: usize) -> Option<Range<usize>> {
    let b = text.as_bytes();
    let start = value_start(b, e).map(|(start, _)| start).or_else(|| said_value_start(b, e))?;
    let mut end = query_value_end(b, start, run_end(b, start, is_value_char));
    while end > start && b.get(end - 1) == Some(&b'.') {
        end -= 1;
    }
    let value = b.get(start..end)?;
    if !is_credential_value(value) {
        return None;
    }
    // The value must stand alone: not glued to a placeholder such as `${VAR}`.
    if b.get(end).is_some_and(|&c| matches!(c, b'{' | b'(' | b'[' | b'<')) {
        return None;
    }
    Some(start..end)
}

/// The value of a password-named key (`password`, `DB_PASSWD`, `passphrase`, `pwd`,
/// `smtp_pass`) whose name spans `s..e`: a random value as after any credential key, or
/// any other value that is the whole setting (`DB_PASSWORD=hunter2`, `password: "correct
/// horse"`, `pass=x9&user=…`) and not a placeholder. A value followed by more words is
/// prose (`password: the one in 1Password`), not a setting.
pub(super) fn after_password_key(text: &str, s: usize, e: usize) -> Option<Range<usize>> {
    let b = text.as_bytes();
    // Short names stand alone or end a name: `PWD`, `db_pass`; never `bypass`, `compass`.
    if e - s <= 4 && s > 0 && b.get(s - 1).is_some_and(u8::is_ascii_alphabetic) {
        return None;
    }
    if let Some(r) = after_key(text, s, e) {
        return Some(r);
    }
    let (start, quote) = value_start(b, e)?;
    let end = match quote {
        Some(q) => start + b.get(start..)?.iter().take(200).position(|&c| c == q || c == b'\n')?,
        None => {
            let end = query_value_end(b, start, run_end(b, start, is_value_char));
            if !ends_the_setting(b, end) {
                return None;
            }
            end
        }
    };
    if quote.is_some() && b.get(end) != quote.as_ref() {
        return None;
    }
    let value = std::str::from_utf8(b.get(start..end)?).ok()?;
    is_password_value(value).then_some(start..end)
}

/// Where the value after a key name ending at `e` starts (after its closing quote or
/// emphasis, `:`/`=`/`:=`, blanks and an opening quote), and that opening quote.
fn value_start(b: &[u8], e: usize) -> Option<(usize, Option<u8>)> {
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
    let quote = b.get(i).copied().filter(|c| matches!(c, b'"' | b'\'' | b'`'));
    Some((i + usize::from(quote.is_some()), quote))
}

/// Words that join a key named in prose to its value: `the secret token is …`, `the API
/// key was …`, `my access key: now …`.
const LINKING_WORDS: &[&str] = &["is", "was", "are", "were", "becomes", "became", "reads", "now", "to"];

/// Where the value after a key named in a sentence starts: right after the name when that
/// word is random, or up to three more words after
/// the name (`token for the relay is`), the last a linking word ([`LINKING_WORDS`]), then
/// one blank. Only a random value is taken there ([`after_key`] checks it), so prose such as
/// `the token is stored in the vault` is no credential.
fn said_value_start(b: &[u8], e: usize) -> Option<usize> {
    // The value right after the name (`API token 7~Qm3x…`, `the token ghx9…`), past blanks,
    // the name's closing quote or backtick and an opening bracket or quote
    // (`OKTA_API_TOKEN`(`00Tq7v…`)): taken only when it is random, as any value here.
    let start = run_end(b, e, |c| matches!(c, b' ' | b'`' | b'"' | b'\'' | b'(' | b'['));
    if start > e && start - e <= 4 && b.get(start).is_some_and(u8::is_ascii_alphanumeric) {
        let end =
            run_end(b, start, |c| c.is_ascii_alphanumeric() || matches!(c, b'~' | b'_' | b'-' | b'+' | b'/' | b'='));
        let word = b.get(start..end)?;
        // With no `:`, `=` or linking word, only a long run of token characters standing
        // alone is a value (not `secret database.md#1:`).
        let closes = |c: u8| c.is_ascii_whitespace() || matches!(c, b',' | b';' | b')' | b']' | b'`' | b'"' | b'\'');
        let alone = b.get(end).is_none_or(|&c| closes(c))
            || b.get(end) == Some(&b'.') && b.get(end + 1).is_none_or(u8::is_ascii_whitespace);
        if word.len() >= 20 && alone && is_credential_value(word) {
            return Some(start);
        }
    }
    let mut i = e;
    for _ in 0..4 {
        if b.get(i) != Some(&b' ') {
            return None;
        }
        let word_end = run_end(b, i + 1, |c| c.is_ascii_alphabetic());
        let word = std::str::from_utf8(b.get(i + 1..word_end)?).ok()?;
        if word.is_empty() {
            return None;
        }
        i = word_end;
        if is_linking(word) && b.get(i) == Some(&b' ') {
            // More linking words may follow: `is now`, `was set to`.
            let mut start = i + 1;
            loop {
                let next_end = run_end(b, start, |c| c.is_ascii_alphabetic());
                let next = std::str::from_utf8(b.get(start..next_end)?).ok()?;
                if !(is_linking(next) || next.eq_ignore_ascii_case("set")) || b.get(next_end) != Some(&b' ') {
                    return Some(start);
                }
                start = next_end + 1;
            }
        }
    }
    None
}

fn is_linking(word: &str) -> bool {
    LINKING_WORDS.iter().any(|w| w.eq_ignore_ascii_case(word))
}

/// The end of a value at `start..end` that is a URL query parameter: it stops before the
/// next `&name=` (`password=hunter2&ssl=true`, `…&X-Amz-SignedHeaders=host`); a lone `&`
/// stays part of the value.
fn query_value_end(b: &[u8], start: usize, end: usize) -> usize {
    let mut i = start;
    while i < end {
        if b.get(i) == Some(&b'&') {
            let name_end = run_end(b, i + 1, |c| is_word(c) || c == b'-' || c == b'.');
            if name_end > i + 1 && name_end < end && b.get(name_end) == Some(&b'=') {
                return i;
            }
        }
        i += 1;
    }
    end
}

/// Whether an unquoted value ending at `end` is the whole setting: the line, field or
/// query parameter ends there (a trailing comment aside).
fn ends_the_setting(b: &[u8], end: usize) -> bool {
    let rest = b.get(end..).unwrap_or_default();
    let line = rest.split(|&c| c == b'\n').next().unwrap_or_default();
    match line.first() {
        None | Some(b'\r' | b',' | b';' | b'&' | b')' | b'}' | b']' | b'|') => true,
        Some(b' ' | b'\t') => {
            let after = String::from_utf8_lossy(line);
            let after = after.trim();
            after.is_empty() || after.starts_with('#') || after.starts_with("//")
        }
        _ => false,
    }
}

/// Whether the value of a password-named key is a password rather than a placeholder,
/// a reference to one, or a code identifier.
fn is_password_value(v: &str) -> bool {
    let t = v.trim();
    if t.chars().count() < 4 || t.len() > 200 {
        return false;
    }
    if matches!(t.as_bytes().first(), Some(b'$' | b'%' | b'{' | b'!' | b'~' | b'*' | b'/' | b'&' | b'@' | b'|' | b'>'))
    {
        return false;
    }
    let mut distinct: Vec<char> = t.chars().collect();
    distinct.sort_unstable();
    distinct.dedup();
    if distinct.len() < 3 || is_placeholder_value(t) {
        return false;
    }
    let snake = t.contains('_') && t.bytes().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == b'_');
    !(snake || is_identifier_path(t) || is_env_name(t))
}

/// A whole placeholder word (`password`, `changeme`, `<PASSWORD>`) or a value holding a
/// placeholder part (`your-password`, `xxxx`, `${PW}`, `EXAMPLE`).
pub(super) fn is_placeholder_value(v: &str) -> bool {
    let lower = v.to_ascii_lowercase();
    let word = lower.trim_matches(|c: char| matches!(c, '<' | '>' | '[' | ']' | '_' | '-'));
    PLACEHOLDER_WORDS.contains(&word)
        || PLACEHOLDER_PARTS.iter().any(|p| lower.contains(p))
        || v.chars().all(|c| v.starts_with(c))
}

fn is_value_char(c: u8) -> bool {
    c.is_ascii_graphic()
        && !matches!(
            c,
            b'"' | b'\'' | b'`' | b',' | b';' | b'<' | b'>' | b'(' | b')' | b'[' | b']' | b'{' | b'}' | b'|'
        )
}

/// Whether an assigned value looks like a real credential rather than a placeholder,
/// a reference to one (`process.env.X`, `$TOKEN`, `settings.API_KEY`) or a word.
pub(super) fn is_credential_value(v: &[u8]) -> bool {
    if v.len() < CREDENTIAL_MIN_LEN {
        return false;
    }
    let Ok(s) = std::str::from_utf8(v) else {
        return false;
    };
    let lower = s.to_ascii_lowercase();
    if matches!(v.first(), Some(b'$' | b'%' | b'/' | b'~' | b'.' | b'*' | b'#' | b'@' | b'&'))
        || lower.contains("://")
        || ["your", "example", "placeholder", "redacted", "changeme", "xxxx", "****", "..."]
            .iter()
            .any(|w| lower.contains(w))
        || ["env.", "environ", "getenv", "secrets.", "vault:", "op://"].iter().any(|w| lower.contains(w))
    {
        return false;
    }
    if is_identifier_path(s) || is_env_name(s) {
        return false;
    }
    // Random tokens mix digits and letters inside one segment; names such as
    // `prod-db-credentials-2026` keep them apart.
    let mixed_segment =
        v.split(|c| matches!(c, b'-' | b'_' | b'.' | b':' | b'/' | b'+' | b'=')).any(has_digit_and_letter);
    if !mixed_segment || is_placeholder_body(v) {
        return false;
    }
    shannon_entropy(v) >= CREDENTIAL_MIN_ENTROPY
}

/// `config.auth.token`, `settings.OPENAI_API_KEY`: a dotted code reference.
fn is_identifier_path(s: &str) -> bool {
    s.contains('.')
        && s.split('.').all(|part| {
            part.bytes().next().is_some_and(|c| c.is_ascii_alphabetic() || c == b'_') && part.bytes().all(is_word)
        })
}

/// `GITHUB_TOKEN`, `OPENAI_API_KEY`: the name of an environment variable.
fn is_env_name(s: &str) -> bool {
    s.contains('_')
        && s.bytes().next().is_some_and(|c| c.is_ascii_uppercase())
        && s.bytes().all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == b'_')
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
}
