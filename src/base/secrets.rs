//! Credentials in text: detection and masking.
//!
//! [`find`] locates credentials with the rule table (`src/base/secrets/rules.rs`, listed by
//! [`rule_table`]): one row per format — provider tokens with a fixed prefix (Anthropic,
//! OpenAI, AWS, GitHub, GitLab, Stripe, Hugging Face, npm, PyPI, SendGrid, Slack and Discord
//! webhooks, Twilio, Shopify, DigitalOcean, Doppler, Databricks, Azure, GCP service-account
//! keys, Telegram, Mailgun, `age` keys and ~150 more), JWTs, PEM private keys (whole, or a body without its BEGIN
//! line), PuTTY key files, the values of a Kubernetes `kind: Secret`, the password of `curl
//! -u`, and the value of a credential-like key (`token=`, `api_key:`; a random value),
//! of a password-named key (`DB_PASSWORD=hunter2`; any value), after `Bearer `, or as the
//! password of a URL (`postgres://app:hunter2@db`; any value), and capability URLs (a
//! presigned URL's signature, a webhook, a share link, a random token in a URL's path:
//! `src/base/secrets/urls.rs` says which and why). Besides the table, an AWS
//! secret access key is found beside its key id, and full-width base64 lines as a key body.
//! One Aho-Corasick automaton over the table's literals is the pre-filter: text without a
//! hit costs one pass (plus a line-length scan for bare key bodies).
//!
//! [`mask`] replaces each one by `[<kind> …<last 4 chars>]` (the tail only for values of
//! 12 characters or more; `[credential]` for a short password); every output path of
//! dreamreview calls it, so it is idempotent.
//!
//! Call both on whole texts (a note, a hunk's added lines joined with their terminators), not
//! line by line: a PEM block spans lines, and only its `BEGIN` line is recognisable alone.
//!
//! Deliberately NOT secrets: git SHAs, UUIDs, checksums (`sha256:…`, hex digests), hex
//! colours, npm integrity hashes (`sha512-…`), base64 images (`data:image/png;base64,…`),
//! `sk-learn`/`risk-…`/`task-…` (no word boundary or no key-shaped body), and placeholders
//! (`<token>`, `xxxx…`, `***`, `${VAR}`, `$TOKEN`, `process.env.X`, `your-api-key-here`,
//! anything spelling `EXAMPLE` such as AWS's documentation key `AKIAIOSFODNN7EXAMPLE`,
//! `changeme`, `password` as a password, an empty value, `[REDACTED]`, a masked
//! `[kind …abcd]`).

use std::borrow::Cow;
use std::fmt;
use std::sync::OnceLock;

use aho_corasick::{AhoCorasick, AhoCorasickBuilder, MatchKind};
use serde::{Serialize, Serializer};

mod assigned;
mod formats;
mod pem;
mod rules;
mod serialize;
mod shapes;
mod spread;
mod urls;

pub use assigned::shannon_entropy;
pub use serialize::Masked;
pub use urls::URL_TOKEN_MIN_LEN;

/// What kind of credential a [`Secret`] is, shown in its mask (`[stripe-key …abcd]`) and
/// serialised as that name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum SecretKind {
    /// Anthropic API key, `sk-ant-…`.
    AnthropicKey,
    /// OpenAI API key, `sk-…`, `sk-proj-…`.
    OpenaiKey,
    /// AWS access key id, `AKIA`/`ASIA`/`ABIA`/`ACCA` + 16 upper-case letters or digits.
    AwsAccessKey,
    /// AWS secret access key (40 base64 characters) written beside its access key id.
    AwsSecretKey,
    /// GitHub token, `ghp_`/`gho_`/`ghu_`/`ghs_`/`ghr_`/`github_pat_`.
    GithubToken,
    /// Slack token, `xoxa-`/`xoxb-`/`xoxp-`/`xoxr-`/`xoxs-`, `xapp-`, `xoxe-`.
    SlackToken,
    /// Google API key, `AIza` + 35 characters.
    GoogleApiKey,
    /// JSON Web Token, `eyJ….eyJ….signature`.
    Jwt,
    /// A PEM private key: a block from `-----BEGIN … PRIVATE KEY-----` to its END line, or
    /// a key body without its BEGIN line.
    PrivateKey,
    /// Another provider's token, named by its row in the rule table (`stripe-key`,
    /// `gitlab-token`, `slack-webhook`).
    Provider(&'static str),
    /// A URL that grants access to whoever holds it, named by what it is: `signed-url`
    /// (a presigned or SAS URL's signature and credentials), `webhook-url`, `share-link`,
    /// or `capability-url` (a random token in its path or fragment). Found by
    /// `src/base/secrets/urls.rs`. A provider's kind found on the same span wins over it
    /// (`slack-webhook`); it wins over one it strictly contains (a presigned URL's
    /// `aws-access-key` id).
    CapabilityUrl(&'static str),
    /// A value after `token`/`secret`/`password`/`api_key`/`access_key`/… and `=` or `:`,
    /// after `Bearer `, or the password of a URL (`scheme://user:pw@host`).
    Credential,
}

impl SecretKind {
    /// The kebab-case name used in masks and output (`anthropic-key`, `stripe-key`).
    pub fn name(self) -> &'static str {
        match self {
            SecretKind::AnthropicKey => "anthropic-key",
            SecretKind::OpenaiKey => "openai-key",
            SecretKind::AwsAccessKey => "aws-access-key",
            SecretKind::AwsSecretKey => "aws-secret-key",
            SecretKind::GithubToken => "github-token",
            SecretKind::SlackToken => "slack-token",
            SecretKind::GoogleApiKey => "google-api-key",
            SecretKind::Jwt => "jwt",
            SecretKind::PrivateKey => "private-key",
            SecretKind::Provider(name) | SecretKind::CapabilityUrl(name) => name,
            SecretKind::Credential => "credential",
        }
    }
}

impl fmt::Display for SecretKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl Serialize for SecretKind {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
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

impl Secret {
    /// This secret of `text` (the text it was found in) as it may be shown:
    /// `[<kind> …<last 4 chars>]`. Masking the value alone with [`mask`] is not enough: a
    /// value found by its key (`password: …`) is no credential without that key.
    pub fn masked(&self, text: &str) -> String {
        label(text, self, 0)
    }
}

/// Minimum Shannon entropy, in bits per character, of a value assigned to a credential key.
///
/// The key (`password:`, `token=`) is already most of the evidence; entropy only has to
/// reject degenerate values (`aaaaaaaa1111`, `abababab1212`). 2.5 bits keeps over 95% of
/// random 12-character hex tokens and over 99% of anything longer or base62, while the
/// structural rules (digit and letter, no identifiers, no placeholders) reject prose.
pub const CREDENTIAL_MIN_ENTROPY: f64 = 2.5;

/// Minimum length of a random value assigned to a credential key.
pub const CREDENTIAL_MIN_LEN: usize = 12;

/// Shortest secret whose mask shows its last 4 characters (`[credential …ter2]` would
/// give away most of `hunter2`).
pub const SHOWN_TAIL_MIN_LEN: usize = 12;

/// The pre-filter: one automaton over every rule's literal, ASCII case folded. A DFA: it
/// costs some memory once, and scans clean text faster than the default (measured: 2 MB of
/// notes full of near-misses such as `token: none`, 122 ms for `find` + `mask` in a debug
/// build, against 143 ms for the 30 literals before the table).
fn prefilter() -> Option<&'static AhoCorasick> {
    static AC: OnceLock<Option<AhoCorasick>> = OnceLock::new();
    AC.get_or_init(|| {
        AhoCorasickBuilder::new()
            .kind(Some(aho_corasick::AhoCorasickKind::DFA))
            .ascii_case_insensitive(true)
            .match_kind(MatchKind::Standard)
            .build(rules::RULES.iter().map(|r| r.prefix))
            .ok()
    })
    .as_ref()
}

/// The rule table as (row id, literal prefix, kind name), for documentation and tests.
pub fn rule_table() -> impl Iterator<Item = (&'static str, &'static str, &'static str)> {
    rules::RULES.iter().map(|r| (r.id, r.prefix, r.kind.name()))
}

/// Every credential in `text`, sorted by position, non-overlapping: what the rules
/// recognise, a credential cut over two lines (as one span, its line break included), and
/// every other place the value of one is written again.
pub fn find(text: &str) -> Vec<Secret> {
    let mut found = recognised(text);
    // Two lines read as one only where a rule's literal is there to start a credential
    // (one automaton pass over the joined lines, most of them prose).
    let hit = |joined: &str| prefilter().is_some_and(|ac| ac.is_match(joined));
    found.extend(spread::across_breaks(text, |joined| if hit(joined) { recognised(joined) } else { Vec::new() }));
    let merged = merge(found);
    let again = spread::repeats(text, &merged);
    if again.is_empty() {
        return merged;
    }
    merge(merged.into_iter().chain(again).collect())
}

/// What the rules recognise in `text`, unmerged.
fn recognised(text: &str) -> Vec<Secret> {
    let mut found = by_rules(text);
    found.extend(pem::bare_bodies(text).into_iter().map(|r| Secret {
        kind: SecretKind::PrivateKey,
        start: r.start,
        end: r.end,
    }));
    let ids: Vec<std::ops::Range<usize>> =
        found.iter().filter(|s| s.kind == SecretKind::AwsAccessKey).map(|s| s.start..s.end).collect();
    for id in ids {
        if let Some(r) = shapes::aws_secret_near(text, id) {
            found.push(Secret { kind: SecretKind::AwsSecretKey, start: r.start, end: r.end });
        }
    }
    found.retain(|s| s.start < s.end && text.is_char_boundary(s.start) && text.is_char_boundary(s.end));
    found
}

/// What the rule table finds: each pre-filter hit validated by its row.
fn by_rules(text: &str) -> Vec<Secret> {
    let Some(ac) = prefilter() else {
        return Vec::new();
    };
    let mut hits = Vec::new();
    for m in ac.find_overlapping_iter(text) {
        if let Some(rule) = rules::RULES.get(m.pattern().as_usize()) {
            rule.each_match(text, m.start(), m.end(), &mut hits);
        }
    }
    hits.into_iter().map(|(r, kind)| Secret { kind, start: r.start, end: r.end }).collect()
}

/// Merges overlapping findings into one range. A specific kind wins over `credential`,
/// and over a capability URL's of the same span (`slack-webhook` over `webhook-url`); a
/// capability URL wins over a specific kind it strictly contains (a presigned URL's
/// `signed-url` over the `aws-access-key` id in its `X-Amz-Credential`).
fn merge(mut specific: Vec<Secret>) -> Vec<Secret> {
    if specific.is_empty() {
        return specific;
    }
    let rank = |k: SecretKind| match k {
        SecretKind::Credential => 2u8,
        SecretKind::CapabilityUrl(_) => 1,
        _ => 0,
    };
    let len = |s: &Secret| s.end - s.start;
    // Whether `new`'s kind names the merged range rather than that of `kept`.
    let names = |new: &Secret, kept: &Secret| match (new.kind, kept.kind) {
        (SecretKind::CapabilityUrl(_), k) if rank(k) == 0 => len(new) > len(kept),
        (k, SecretKind::CapabilityUrl(_)) if rank(k) == 0 => len(new) >= len(kept),
        (a, b) => rank(a) < rank(b),
    };
    specific.sort_by_key(|s| (s.start, rank(s.kind), std::cmp::Reverse(s.end)));
    // Each merged range, with the finding whose kind names it.
    let mut out: Vec<(Secret, Secret)> = Vec::with_capacity(specific.len());
    for s in specific {
        match out.last_mut() {
            Some((last, namer)) if s.start < last.end => {
                last.end = last.end.max(s.end);
                if names(&s, namer) {
                    *namer = s;
                    last.kind = s.kind;
                }
            }
            _ => out.push((s, s)),
        }
    }
    out.into_iter().map(|(merged, _)| merged).collect()
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

/// Consecutive `lines` of one text (terminators kept), each masked as part of the whole:
/// a secret spanning lines (a PEM private key block) shows its mask on its first line and
/// `[… <kind>]` on the lines it continues over, so no line prints a piece of it. For
/// callers that show a text line by line (a hunk in `check`, the diff pane).
pub fn mask_lines<S: AsRef<str>>(lines: &[S]) -> Vec<String> {
    let (joined, secrets) = find_in_lines(lines);
    masked_in(lines, &joined, &secrets)
}

/// [`mask_lines`] and [`line_spans`] of the same lines, the credentials found once.
pub fn mask_lines_with_spans<S: AsRef<str>>(lines: &[S]) -> Vec<(String, LineSpans)> {
    let (joined, secrets) = find_in_lines(lines);
    masked_in(lines, &joined, &secrets).into_iter().zip(spans_in(lines, &joined, &secrets)).collect()
}

/// The byte ranges of a line a credential covers, each with what masking shows there.
pub type LineSpans = Vec<(std::ops::Range<usize>, String)>;

/// [`mask_lines`] of `lines`, whose text joined is `joined` and holds `secrets`.
fn masked_in<S: AsRef<str>>(lines: &[S], joined: &str, secrets: &[Secret]) -> Vec<String> {
    let mut out = Vec::with_capacity(lines.len());
    let mut start = 0;
    for line in lines {
        let line = line.as_ref();
        let end = start + line.len();
        let body_end = start + crate::base::text::strip_terminator(line).len();
        let mut masked = String::with_capacity(line.len());
        let mut pos = start;
        for s in secrets.iter().filter(|s| s.start < body_end && s.end > start) {
            let (a, b) = (s.start.max(start), s.end.min(body_end));
            masked.push_str(joined.get(pos..a).unwrap_or(""));
            masked.push_str(&label(joined, s, start));
            pos = b;
        }
        masked.push_str(joined.get(pos..end).unwrap_or(""));
        out.push(mask(&masked).into_owned());
        start = end;
    }
    out
}

/// Per line of consecutive `lines` (terminators kept), the byte ranges within it that a
/// credential covers, each with what [`mask_lines`] shows there (`[anthropic-key …Z9AA]`,
/// or `[… private-key]` on the lines a secret continues over), the lines read as one text.
pub fn line_spans<S: AsRef<str>>(lines: &[S]) -> Vec<LineSpans> {
    let (joined, secrets) = find_in_lines(lines);
    spans_in(lines, &joined, &secrets)
}

/// [`line_spans`] of `lines`, whose text joined is `joined` and holds `secrets`.
fn spans_in<S: AsRef<str>>(lines: &[S], joined: &str, secrets: &[Secret]) -> Vec<LineSpans> {
    let mut start = 0;
    let mut out = Vec::with_capacity(lines.len());
    for line in lines {
        let end = start + line.as_ref().len();
        let spans = secrets.iter().filter(|s| s.start < end && s.end > start);
        out.push(
            spans.map(|s| (s.start.max(start) - start..s.end.min(end) - start, label(joined, s, start))).collect(),
        );
        start = end;
    }
    out
}

/// What masking shows for secret `s` of `text` on a line starting at `line_start`.
fn label(text: &str, s: &Secret, line_start: usize) -> String {
    if s.start >= line_start {
        let value = text.get(s.start..s.end).unwrap_or("");
        replace(value, &[Secret { kind: s.kind, start: 0, end: value.len() }])
    } else {
        format!("[… {}]", s.kind.name())
    }
}

/// `lines` joined, and the credentials in that text.
fn find_in_lines<S: AsRef<str>>(lines: &[S]) -> (String, Vec<Secret>) {
    let joined: String = lines.iter().map(AsRef::as_ref).collect();
    let secrets = find(&joined);
    (joined, secrets)
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
        let tail = match s.kind {
            SecretKind::PrivateKey => pem_tail(value),
            // A URL's masked part may end in a short token (`…/catch/2085782/otichcc`):
            // its last 4 characters would be most of that token.
            SecretKind::CapabilityUrl(_) if urls::last_token_len(value) < SHOWN_TAIL_MIN_LEN => String::new(),
            _ if value.chars().count() >= SHOWN_TAIL_MIN_LEN => last_chars(value, 4),
            // The last 4 characters of a short password are most of it.
            _ => String::new(),
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

/// The last 4 base64 characters of a PEM block's body (padding and escaped newlines skipped);
/// a body found without its BEGIN line starts at once.
fn pem_tail(block: &str) -> String {
    let body_start = if block.starts_with("-----") { block.find("-----\n").map(|i| i + 6) } else { Some(0) };
    let body_start = body_start
        .or_else(|| block.find("-----\\n").map(|i| i + 7))
        .or_else(|| block.get(10..).and_then(|r| r.find("-----")).map(|i| i + 15))
        .unwrap_or(block.len());
    let body_end = block.rfind("-----END").unwrap_or(block.len());
    let body = block.get(body_start..body_end.max(body_start)).unwrap_or("");
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

#[cfg(test)]
mod tests {
    use super::*;

    const ANT: &str = "sk-ant-api03-Xq7vR2mK9pL4tW8zN3bC6dF1gH5jY0sA-Qe2Rt9Uy4Io7Pa3Sd6Fg8Hj1Kl5Zx0Cv9f3a";

    fn kinds(text: &str) -> Vec<(SecretKind, &str)> {
        find(text).into_iter().map(|s| (s.kind, &text[s.start..s.end])).collect()
    }

    #[test]
    fn anthropic_key_found_and_masked() {
        let text = format!("export ANTHROPIC_API_KEY={ANT}\n");
        assert_eq!(kinds(&text), vec![(SecretKind::AnthropicKey, ANT)]);
        assert_eq!(mask(&text), "export ANTHROPIC_API_KEY=[anthropic-key …9f3a]\n");
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
    fn lines_of_a_pem_block_never_show_a_piece_of_it() {
        let body = "AvM3XEm74E6bblGuP8oquq3SwZC/rRcMpdu8bGao9HgpRkCXzxAlqs1sxXVqlB/z";
        let lines = [
            "Deploy key:\n".to_string(),
            "-----BEGIN OPENSSH PRIVATE KEY-----\n".to_string(),
            format!("{body}\n"),
            "VBdLJ2/EdDg2hR0L==\n".to_string(),
            "-----END OPENSSH PRIVATE KEY-----\n".to_string(),
            "token sk-ant-api03-Zq8VbN2xLk4TfR7mWc1YhJ5sPd9GuE3aKo6Ni0Bx-7tQ2wZ9AA done".to_string(),
        ];
        let masked = mask_lines(&lines);
        // Line by line, only the BEGIN line would be recognised: the body would print.
        assert_eq!(mask(&lines[2]), lines[2]);
        assert_eq!(masked[0], "Deploy key:\n");
        assert!(masked[1].starts_with("[private-key") && masked[1].ends_with("]\n"), "{}", masked[1]);
        assert_eq!(masked[2..5], ["[… private-key]\n", "[… private-key]\n", "[… private-key]\n"]);
        assert_eq!(masked[5], "token [anthropic-key …Z9AA] done");
        assert!(!masked.concat().contains("bblGuP8"));
    }

    #[test]
    fn merged_findings_are_named_by_the_one_that_covers_them() {
        let s = |kind, start, end| Secret { kind, start, end };
        let url = SecretKind::CapabilityUrl("signed-url");
        let webhook = SecretKind::CapabilityUrl("webhook-url");
        let slack = SecretKind::Provider("slack-webhook");
        // A signed URL's span holds an AWS key id: the URL names it.
        let merged = merge(vec![s(SecretKind::AwsAccessKey, 10, 30), s(url, 10, 90)]);
        assert_eq!(merged, vec![s(url, 10, 90)]);
        // The same span found by a provider's row and as a webhook: the provider names it.
        assert_eq!(merge(vec![s(webhook, 5, 50), s(slack, 5, 50)]), vec![s(slack, 5, 50)]);
        // `credential` names nothing another kind covers.
        assert_eq!(merge(vec![s(SecretKind::Credential, 5, 60), s(url, 5, 50)]), vec![s(url, 5, 60)]);
        assert_eq!(
            merge(vec![s(SecretKind::Credential, 0, 9), s(SecretKind::Jwt, 0, 9)]),
            vec![s(SecretKind::Jwt, 0, 9)]
        );
    }

    #[test]
    fn pem_tail_skips_padding_and_escapes() {
        let block = "-----BEGIN RSA PRIVATE KEY-----\\nMIIEabcdWXYZ==\\n-----END RSA PRIVATE KEY-----";
        assert_eq!(pem_tail(block), "WXYZ");
    }
}
