//! Passwords named in prose, in any language the product reads: `パスワード Qw7#tR2m!kP9`,
//! `비밀번호는 Zx9!pLm2Qr`, `密码：A7f#k2Lm9q`, `contraseña: …`, `pass Qw7#tR2m!kP9`. Written
//! that way (no `=`, often no `:`), the value is taken only when it has a password's
//! shape: 8 to 64 printable ASCII characters, at least three of lower case, upper case,
//! digits and symbols, digits and letters both, and no placeholder, identifier, path or
//! reference to where the password is kept (`1Password「入稿FTP」`, `$FTP_PASS`, `op://…`).

use std::ops::Range;

use super::assigned::is_placeholder_value;
use super::shapes::run_end;

/// What may stand between the word and its value: blanks, `:`/`：`, a topic or
/// linking particle (は, が, 는, 은, 이, 가, 是, 为, 為, `is`), an opening quote.
const JOINERS: &[&str] =
    &[":", "：", "=", "は", "が", "는", "은", "이", "가", "是", "为", "為", "is", "was", "「", "『", "\"", "'", "`"];

/// References to where a password is kept, not the password (lowercase).
const KEPT_IN: &[&str] =
    &["1password", "bitwarden", "lastpass", "keepass", "keychain", "vault", "op://", "env", "secret", "${", "$("];

/// The password after a password word spanning `s..e` of `text`, said in prose.
pub(super) fn after_password_word(text: &str, s: usize, e: usize) -> Option<Range<usize>> {
    let b = text.as_bytes();
    // A Latin word stands alone: not `bypass`, `compass`, `passwords`…
    let latin = text.get(s..e)?.is_ascii();
    if latin && (s > 0 && b[s - 1].is_ascii_alphanumeric() || b.get(e).is_some_and(u8::is_ascii_alphanumeric)) {
        return None;
    }
    // A setting (`password=…`, `password: …`) is the assignment rules' to read.
    let next = text.get(e..)?.trim_start_matches([' ', '\t']);
    let english =
        ["password", "passwd", "passphrase", "pass", "pwd"].iter().any(|w| w.eq_ignore_ascii_case(&text[s..e]));
    if next.starts_with('=') || english && next.starts_with(':') {
        return None;
    }
    let start = value_start(text, e)?;
    let end = run_end(b, start, |c| {
        c.is_ascii_graphic()
            && !matches!(c, b'"' | b'\'' | b'`' | b',' | b';' | b'(' | b')' | b'[' | b']' | b'<' | b'>')
    });
    // A sentence's full stop is no part of it.
    let end = if end > start + 1 && b[end - 1] == b'.' { end - 1 } else { end };
    let value = text.get(start..end)?;
    strong(value).then_some(start..end)
}

/// Where the value starts after the word ending at `e`: past blanks and at most two joiners.
fn value_start(text: &str, e: usize) -> Option<usize> {
    let mut i = e;
    for _ in 0..3 {
        let rest = text.get(i..)?;
        let trimmed = rest.trim_start_matches([' ', '\t', '\u{3000}']);
        i += rest.len() - trimmed.len();
        match JOINERS.iter().find(|j| trimmed.starts_with(**j)) {
            Some(j) if j.is_ascii() && j.chars().all(char::is_alphabetic) => {
                // `is`/`was` as whole words only.
                let after = trimmed[j.len()..].chars().next();
                if after.is_some_and(char::is_alphanumeric) {
                    break;
                }
                i += j.len();
            }
            Some(j) => i += j.len(),
            None => break,
        }
    }
    let rest = text.get(i..)?;
    let trimmed = rest.trim_start_matches([' ', '\t', '\u{3000}']);
    let start = i + rest.len() - trimmed.len();
    (start > e).then_some(start)
}

/// True when `v` has the shape of a password (see the module doc).
fn strong(v: &str) -> bool {
    let n = v.len();
    if !(8..=64).contains(&n) || !v.is_ascii() || is_placeholder_value(v) {
        return false;
    }
    let lower = v.to_ascii_lowercase();
    if KEPT_IN.iter().any(|k| lower.contains(k)) || v.contains('/') {
        return false;
    }
    let has = |f: fn(&u8) -> bool| v.as_bytes().iter().any(f);
    let (lo, up, digit) = (has(u8::is_ascii_lowercase), has(u8::is_ascii_uppercase), has(u8::is_ascii_digit));
    let symbol = has(|c| c.is_ascii_punctuation() && !matches!(c, b'_' | b'-' | b'.'));
    let classes = [lo, up, digit, symbol].iter().filter(|&&x| x).count();
    classes >= 3 && digit && (lo || up)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(text: &str, word: &str) -> Option<&'static str> {
        let s = text.find(word)?;
        let r = after_password_word(text, s, s + word.len())?;
        Some(Box::leak(text[r].to_string().into_boxed_str()))
    }

    #[test]
    fn a_password_said_in_prose_in_each_language() {
        assert_eq!(found("ユーザー acme_nyuko、パスワード Qw7#tR2m!kP9）。", "パスワード"), Some("Qw7#tR2m!kP9"));
        assert_eq!(found("パスワードは「Zx9!pLm2Qr」です", "パスワード"), Some("Zx9!pLm2Qr"));
        assert_eq!(found("관리자 비밀번호는 Zx9!pLm2Qr 입니다", "비밀번호"), Some("Zx9!pLm2Qr"));
        assert_eq!(found("数据库密码：A7f#k2Lm9q，别外传", "密码"), Some("A7f#k2Lm9q"));
        assert_eq!(found("la contraseña: Rt5$mQ2x9L.", "contraseña"), Some("Rt5$mQ2x9L"));
        assert_eq!(found("user acme_nyuko / pass Qw7#tR2m!kP9", "pass"), Some("Qw7#tR2m!kP9"));
        // Settings are the assignment rules' to read.
        assert_eq!(found("jdbc:mysql://db/x?user=app&password=hunter2&ssl=true", "password"), None);
    }

    #[test]
    fn where_a_password_is_kept_or_a_word_is_no_password() {
        for (text, word) in [
            ("パスワードは1Password「入稿FTP（光陽印刷）」", "パスワード"),
            ("パスワードは環境変数 NYUKO_FTP_PASS から読む", "パスワード"),
            ("비밀번호는 $DB_PASSWORD 에서 읽는다", "비밀번호"),
            ("密码存在 Vault 的 secret/db 里", "密码"),
            ("the bypass Qw7#tR2m!kP9", "pass"),
            ("pass the tests", "pass"),
            ("パスワード changeme123", "パスワード"),
            ("パスワード Abcdefgh", "パスワード"),
        ] {
            assert_eq!(found(text, word), None, "{text}");
        }
    }
}
