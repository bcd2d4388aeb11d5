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
//! password of a URL (`postgres://app:hunter2@db`; any value), a password said in prose in
//! any of 20 languages (`パスワード Qw7#tR2m!kP9`, `비밀번호는 …`; a password's shape, see
//! `src/base/secrets/spoken.rs`), and capability URLs (a
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

mod assigned;
mod finding;
mod formats;
pub mod kind;
mod masking;
mod pem;
mod rules;
mod serialize;
mod shapes;
mod spoken;
mod spread;
pub mod thresholds;
mod urls;

pub use assigned::shannon_entropy;
pub use finding::{find, rule_table};
pub use kind::{Secret, SecretKind};
pub use masking::{LineSpans, Shown, ShownLine, line_spans, mask, mask_lines, mask_some_lines};
pub use serialize::Masked;
pub use thresholds::{CREDENTIAL_MIN_ENTROPY, CREDENTIAL_MIN_LEN, SHOWN_TAIL_MIN_LEN};
pub use urls::URL_TOKEN_MIN_LEN;

#[cfg(test)]
mod tests {
    use super::finding::*;
    use super::masking::*;
    use super::*;
    use std::borrow::Cow;

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
    fn some_lines_are_masked_as_all_lines_are_and_a_settled_line_is_written_unchanged() {
        let body = "AvM3XEm74E6bblGuP8oquq3SwZC/rRcMpdu8bGao9HgpRkCXzxAlqs1sxXVqlB/z";
        let lines = [
            "Deploy key:\n".to_string(),
            "-----BEGIN OPENSSH PRIVATE KEY-----\n".to_string(),
            format!("{body}\n"),
            "-----END OPENSSH PRIVATE KEY-----\n".to_string(),
            format!("token {ANT} and {ANT}\n"),
            "plain words".to_string(),
        ];
        let (all, spans) = (mask_lines(&lines), line_spans(&lines));
        let some = mask_some_lines(&lines, |i| i != 3);
        assert!(some[3].is_none(), "a line not asked for is not masked");
        for (i, line) in some.iter().enumerate().filter(|(i, _)| *i != 3) {
            let line = line.as_ref().expect("asked for");
            assert_eq!(line.shown.as_str(), all[i], "line {i}");
            assert_eq!(line.spans, spans[i], "line {i}");
            // Each is a fixed point of `mask`, and known to be.
            assert!(line.shown.settled(), "line {i}");
            assert_eq!(mask(line.shown.as_str()), line.shown.as_str());
        }
        // Written inside `Masked`, a settled text is what masking its string would write.
        let shown: Vec<Shown> = lines.iter().map(|l| Shown::of(l)).collect();
        let as_text = serde_json::to_string(&Masked(&lines)).unwrap();
        assert_eq!(serde_json::to_string(&Masked(&shown)).unwrap(), as_text);
        assert!(!as_text.contains("Xq7vR2mK9pL4"), "{as_text}");
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
