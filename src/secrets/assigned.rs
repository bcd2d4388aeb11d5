//! Credentials recognised by context: a value assigned to a credential-like key
//! (`password: …`, `API_KEY=…`), a `Bearer` token, the password of a URL. The value must
//! look random (digits and letters mixed, entropy of at least
//! [`CREDENTIAL_MIN_ENTROPY`](super::CREDENTIAL_MIN_ENTROPY)) and be neither a placeholder
//! nor a reference to a secret kept elsewhere.

use super::shapes::{has_digit_and_letter, is_placeholder_body, is_word, run_end};
use super::{CREDENTIAL_MIN_ENTROPY, CREDENTIAL_MIN_LEN, Secret, SecretKind};

/// An opaque token after `Bearer ` (`Authorization: Bearer 3f9a…`); JWTs are found as such.
pub(super) fn bearer(b: &[u8], e: usize) -> Option<Secret> {
    let start = run_end(b, e, |c| c == b' ');
    if start == e {
        return None;
    }
    let end = run_end(b, start, is_value_char);
    let value = b.get(start..end)?;
    is_credential_value(value).then_some(Secret { kind: SecretKind::Credential, start, end })
}

/// The password of a URL with credentials (`postgres://app:pa55w0rd@db:5432/x`), judged like
/// an assigned value but from 8 characters; `postgres:postgres@` and `user:pass@` are not.
pub(super) fn url_password(b: &[u8], e: usize) -> Option<Secret> {
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
        || [&b"pass"[..], b"secret", b"xxxx", b"your", b"example", b"changeme"]
            .iter()
            .any(|w| lower.windows(w.len()).any(|x| x == *w));
    if looks_placeholder || !has_digit_and_letter(pw) || is_placeholder_body(pw) {
        return None;
    }
    (shannon_entropy(pw) >= CREDENTIAL_MIN_ENTROPY).then_some(Secret { kind: SecretKind::Credential, start, end: stop })
}

/// A value assigned to a credential key whose name ends at `e` (`token`, `db_password`…).
pub(super) fn assigned(b: &[u8], e: usize) -> Option<Secret> {
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
    if b.get(end).is_some_and(|&c| matches!(c, b'{' | b'(' | b'[' | b'<')) {
        return None;
    }
    Some(Secret { kind: SecretKind::Credential, start, end })
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
