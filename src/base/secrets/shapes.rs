//! Credentials recognised by their shape, for the rows of the rule table
//! ([`super::rules`]) that a prefix and a body cannot describe: OpenAI and Anthropic keys,
//! JWTs, SendGrid, Telegram, Discord, Azure AD secrets, and an AWS secret access key found
//! beside its key id. Each validator gets the text and the pre-filter hit and returns the
//! secret's exact byte range, or `None` when the text only looks like one (no word
//! boundary, placeholder body, kebab-case prose). Also the byte-class helpers every rule
//! shares.

use std::ops::Range;

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

/// A body that spells out that it is a placeholder: `EXAMPLE`, `example`, `your…`, `xxxx`.
pub(super) fn names_a_placeholder(body: &[u8]) -> bool {
    let lower = body.to_ascii_lowercase();
    ["example", "xxxx", "your", "placeholder", "redacted"]
        .iter()
        .any(|w| lower.windows(w.len()).any(|x| x == w.as_bytes()))
}

pub(super) fn has_digit_and_letter(b: &[u8]) -> bool {
    b.iter().any(u8::is_ascii_digit) && b.iter().any(u8::is_ascii_alphabetic)
}

/// `sk-ant-…`: an Anthropic key (`sk-ant-api03-…`, `sk-ant-admin01-…`).
pub(super) fn anthropic(text: &str, s: usize, _: usize) -> Option<Range<usize>> {
    sk_body(text.as_bytes(), s).filter(|r| text.as_bytes().get(s + 3..s + 7) == Some(b"ant-") && r.len() > 7)
}

/// `sk-…`, `sk-proj-…`, `sk-svcacct-…`: an OpenAI key (never `sk-ant-`, Anthropic's).
pub(super) fn openai(text: &str, s: usize, _: usize) -> Option<Range<usize>> {
    let b = text.as_bytes();
    // Anthropic's, and OpenRouter's (`sk-or-v1-`, its own row).
    if b.get(s + 3..s + 7) == Some(b"ant-") || b.get(s + 3..s + 9) == Some(b"or-v1-") {
        return None;
    }
    let r = sk_body(b, s)?;
    // Kebab-case prose (`sk-learn-0-24-release-notes`) has no long random run.
    let body = b.get(s + 3..r.end)?;
    let longest = body.split(|&c| c == b'-' || c == b'_').map(<[u8]>::len).max().unwrap_or(0);
    (longest >= 16).then_some(r)
}

/// The whole `sk-<key chars>` token at `s`, when its body looks like a key.
fn sk_body(b: &[u8], s: usize) -> Option<Range<usize>> {
    if b.get(s..s + 3) != Some(b"sk-") || !boundary_before(b, s, is_key_char) {
        return None;
    }
    let end = run_end(b, s + 3, is_key_char);
    let body = b.get(s + 3..end)?;
    if body.len() < 20 || !has_digit_and_letter(body) || is_placeholder_body(body) || names_a_placeholder(body) {
        return None;
    }
    Some(s..end)
}

/// `ghp_`/`gho_`/`ghu_`/`ghs_`/`ghr_` + 30 or more letters and digits (36 in practice).
pub(super) fn github_classic(text: &str, s: usize, _: usize) -> Option<Range<usize>> {
    let b = text.as_bytes();
    let prefix = b.get(s..s + 4)?;
    if !prefix.starts_with(b"gh") || !boundary_before(b, s, is_word) {
        return None;
    }
    let end = run_end(b, s + 4, |c| c.is_ascii_alphanumeric());
    let body = b.get(s + 4..end)?;
    if body.len() < 30 || b.get(end) == Some(&b'_') || is_placeholder_body(body) || names_a_placeholder(body) {
        return None;
    }
    Some(s..end)
}

/// `xoxa-`/`xoxb-`/`xoxp-`/`xoxr-`/`xoxs-` + 10 or more characters including a digit.
pub(super) fn slack(text: &str, s: usize, _: usize) -> Option<Range<usize>> {
    let b = text.as_bytes();
    let head = b.get(s..s + 5)?;
    if !head.starts_with(b"xox")
        || !matches!(head.get(3), Some(b'a' | b'b' | b'o' | b'p' | b'r' | b's'))
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
    Some(s..end)
}

/// `eyJ<header>.eyJ<payload>.<signature>`, base64url segments.
pub(super) fn jwt(text: &str, s: usize, _: usize) -> Option<Range<usize>> {
    let b = text.as_bytes();
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
    Some(s..sig_end)
}

/// Dot-separated base64url segments starting at `from`, each of a length in its range;
/// returns the end of the last one. The next byte must not continue a token.
fn segments(b: &[u8], from: usize, lens: &[(usize, usize)]) -> Option<usize> {
    let mut at = from;
    for (i, &(min, max)) in lens.iter().enumerate() {
        if i > 0 {
            if b.get(at) != Some(&b'.') {
                return None;
            }
            at += 1;
        }
        let end = run_end(b, at, is_key_char);
        // Short segments (a timestamp) are too short to judge as placeholders.
        if !(min..=max).contains(&(end - at)) || (end - at >= 8 && is_placeholder_body(b.get(at..end)?)) {
            return None;
        }
        at = end;
    }
    (!b.get(at).is_some_and(|&c| is_key_char(c))).then_some(at)
}

/// SendGrid: `SG.` + 22 base64url characters + `.` + 43.
pub(super) fn sendgrid(text: &str, s: usize, e: usize) -> Option<Range<usize>> {
    let b = text.as_bytes();
    if b.get(s..e) != Some(b"SG.") || !boundary_before(b, s, is_key_char) {
        return None;
    }
    let end = segments(b, e, &[(22, 22), (43, 43)])?;
    Some(s..end)
}

/// Discord bot token, looked for in the 200 bytes after the word `discord` (its shape alone,
/// three dotted base64url runs, is too common to look for everywhere): the base64 of the
/// bot's numeric id (so `MT`…`OT`), `.`, a 6-7 character timestamp, `.`, a 27-40
/// character HMAC.
pub(super) fn discord_bot(text: &str, _: usize, e: usize) -> Option<Range<usize>> {
    let b = text.as_bytes();
    let window = e..(e + 200).min(b.len());
    window.into_iter().find_map(|i| discord_token_at(b, i))
}

/// A Discord bot token starting exactly at `s`.
fn discord_token_at(b: &[u8], s: usize) -> Option<Range<usize>> {
    let head = b.get(s..s + 2)?;
    if !matches!(head.first(), Some(b'M' | b'N' | b'O')) || !head.get(1).is_some_and(u8::is_ascii_alphabetic) {
        return None;
    }
    if !boundary_before(b, s, is_key_char) {
        return None;
    }
    let end = segments(b, s, &[(23, 28), (6, 7), (27, 40)])?;
    let token = b.get(s..end)?;
    has_digit_and_letter(token).then_some(s..end)
}

/// Telegram bot token: the bot's numeric id (8-10 digits), `:`, then `AA` and 33 more
/// base64url characters. The hit is the `:AA`.
pub(super) fn telegram_bot(text: &str, s: usize, _: usize) -> Option<Range<usize>> {
    let b = text.as_bytes();
    if b.get(s..s + 3) != Some(b":AA") {
        return None;
    }
    let mut start = s;
    while start > 0 && b.get(start - 1).is_some_and(u8::is_ascii_digit) {
        start -= 1;
    }
    if !(8..=10).contains(&(s - start)) || !boundary_before(b, start, is_word) {
        return None;
    }
    let end = run_end(b, s + 1, is_key_char);
    let secret = b.get(s + 1..end)?;
    (secret.len() == 35 && !is_placeholder_body(secret)).then_some(start..end)
}

/// Azure AD (Entra ID) client secret: 3 characters, a digit, `Q~`, then 31-34 more of
/// `[A-Za-z0-9_~.-]`. The hit is the `Q~`.
pub(super) fn azure_ad_secret(text: &str, s: usize, _: usize) -> Option<Range<usize>> {
    let b = text.as_bytes();
    let secret_char = |c: u8| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'~' | b'.' | b'-');
    if b.get(s..s + 2) != Some(b"Q~") || s < 4 || !b.get(s - 1).is_some_and(u8::is_ascii_digit) {
        return None;
    }
    let start = s - 4;
    let head = b.get(start..s - 1)?;
    if !head.iter().all(|&c| secret_char(c) && c != b'-') || !boundary_before(b, start, secret_char) {
        return None;
    }
    let end = run_end(b, s + 2, secret_char);
    let tail = b.get(s + 2..end)?;
    ((31..=34).contains(&tail.len()) && !is_placeholder_body(tail)).then_some(start..end)
}

/// Mailchimp API key: 32 hex digits, `-us`, the 1-2 digit data centre. The hit is `-us`.
pub(super) fn mailchimp(text: &str, s: usize, _: usize) -> Option<Range<usize>> {
    let b = text.as_bytes();
    if b.get(s..s + 3) != Some(b"-us") || s < 32 {
        return None;
    }
    let start = s - 32;
    let hex = b.get(start..s)?;
    if !hex.iter().all(u8::is_ascii_hexdigit) || !boundary_before(b, start, is_word) || is_placeholder_body(hex) {
        return None;
    }
    let end = run_end(b, s + 3, |c| c.is_ascii_digit());
    let glued = b.get(end).is_some_and(|&c| is_word(c));
    ((1..=2).contains(&(end - s - 3)) && !glued).then_some(start..end)
}

/// Terraform Cloud / HCP token: 14 letters and digits, `.atlasv1.`, 60-70 base64url
/// characters. The hit is `.atlasv1.`.
pub(super) fn two_part(text: &str, s: usize, e: usize) -> Option<Range<usize>> {
    let b = text.as_bytes();
    let start = s.checked_sub(14)?;
    let head = b.get(start..s)?;
    if !head.iter().all(u8::is_ascii_alphanumeric) || !boundary_before(b, start, is_key_char) {
        return None;
    }
    let end = run_end(b, e, is_key_char);
    let tail = b.get(e..end)?;
    ((60..=70).contains(&tail.len()) && !is_placeholder_body(tail)).then_some(start..end)
}

/// An AWS secret access key written near its access key id (`id` is that id's range):
/// a whole 40-character base64 token on the same line or within the two lines around it,
/// mixing upper case, lower case and digits (so never a git SHA, which is lower-case hex).
pub(super) fn aws_secret_near(text: &str, id: Range<usize>) -> Option<Range<usize>> {
    let b = text.as_bytes();
    let mut from = id.start;
    for _ in 0..3 {
        from = b.get(..from.saturating_sub(1))?.iter().rposition(|&c| c == b'\n').map_or(0, |i| i + 1);
        if from == 0 {
            break;
        }
    }
    let mut to = id.end;
    for _ in 0..3 {
        to = b.get(to..).and_then(|r| r.iter().position(|&c| c == b'\n')).map_or(b.len(), |i| to + i + 1);
    }
    let base64 = |c: u8| c.is_ascii_alphanumeric() || c == b'+' || c == b'/';
    let mut i = from;
    while i < to {
        if !b.get(i).is_some_and(|&c| base64(c)) {
            i += 1;
            continue;
        }
        let end = run_end(b, i, base64);
        let token = b.get(i..end)?;
        let mixed = token.iter().any(u8::is_ascii_uppercase)
            && token.iter().any(u8::is_ascii_lowercase)
            && token.iter().any(u8::is_ascii_digit);
        if token.len() == 40 && i != id.start && mixed && !is_placeholder_body(token) && !names_a_placeholder(token) {
            return Some(i..end);
        }
        i = end.max(i + 1);
    }
    None
}
