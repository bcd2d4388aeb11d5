//! Integration tests for `dreamreview::secrets`: each kind found and masked, no false
//! positives on realistic notes, and fuzz-like properties.

use dreamreview::secrets::{self, Secret, SecretKind};
use proptest::prelude::*;

const ANTHROPIC: &str = "sk-ant-api03-Xq7vR2mK9pL4tW8zN3bC6dF1gH5jY0sA-Qe2Rt9Uy4Io7Pa3Sd6Fg8Hj1Kl5Zx0Cv9f3a";
const OPENAI: &str = "sk-4i0B3JrTAwR4y9ojfljoQoaF1LlqsajAIxNKu8iS2G8NPRVd";
const OPENAI_PROJ: &str =
    "sk-proj-6YYZYn9ZhyiA4uoRgnatmUdjAWtGSU8po-799NksnRH9ucAUsdMlHUvTCQCyEZDz_TddJ8HyS5SUkCnD8zRA9a9SkpXz9w3QlY7Z";
const AWS: &str = "AKIA2E0A8F3B244C9986";
const GITHUB: &str = "ghp_u8jzPde0IgxLd6GncfBAepfJBd0Kh8oOOL8d";
const GITHUB_PAT: &str =
    "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";
const SLACK: &str = "xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx";
const GOOGLE: &str = "AIzaORS_6ilI8ihN5KXSc7Tvo_hBKqFYY_kv5ZJ";
const JWT: &str = "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c";
const PEM: &str = "-----BEGIN OPENSSH PRIVATE KEY-----\nAvM3XEm74E6bblGuP8oquq3SwZC/rRcMpdu8bGao9HgpRkCXzxAlqs1sxXVqlB/z\ngdBUYqpGMiya+Z5xP4NSfaUhB72Ujx+EeOSdyNFccw2jUWji9UrpuPToRHEyYv34\nVBdLJ2/EdDg2hR0L==\n-----END OPENSSH PRIVATE KEY-----";

fn found(text: &str) -> Vec<(SecretKind, String)> {
    secrets::find(text).into_iter().map(|s| (s.kind, text[s.start..s.end].to_string())).collect()
}

#[test]
fn each_kind_is_found_with_its_exact_range() {
    let cases: &[(&str, SecretKind, &str, &str)] = &[
        (ANTHROPIC, SecretKind::AnthropicKey, "key: ", "\n"),
        (OPENAI, SecretKind::OpenaiKey, "OPENAI_API_KEY=", "\n"),
        (OPENAI_PROJ, SecretKind::OpenaiKey, "use ", " now"),
        (AWS, SecretKind::AwsAccessKey, "aws id ", "."),
        (GITHUB, SecretKind::GithubToken, "remote: https://", "@github.com/x"),
        (GITHUB_PAT, SecretKind::GithubToken, "`", "`"),
        (SLACK, SecretKind::SlackToken, "SLACK=", ""),
        (GOOGLE, SecretKind::GoogleApiKey, "maps?key=", "&z=3"),
        (JWT, SecretKind::Jwt, "Authorization: Bearer ", "\n"),
        (PEM, SecretKind::PrivateKey, "id_ed25519:\n", "\nafter\n"),
        ("S3cr3tP@ssw0rd!", SecretKind::Credential, "password: ", "\n"),
        ("hunter2hunter2xyz", SecretKind::Credential, "DB_PASSWORD=", ""),
        ("a3f9c2e81b7d04f6e2a1", SecretKind::Credential, "\"api_key\": \"", "\","),
        ("9f8e7d6c5b4a3f2e1d0c", SecretKind::Credential, "client_secret: '", "'"),
        ("Zk29xQ8wL3mN7vB2", SecretKind::Credential, "**Access key**: ", ""),
        ("Zk29xQ8wL3mN7vB2", SecretKind::Credential, "access_key := ", ""),
        ("Zk29xQ8wL3mN7vB2", SecretKind::Credential, "passwd=", "."),
        ("Zk29xQ8wL3mN7vB2", SecretKind::Credential, "トークン token: ", "（本番）"),
    ];
    for (secret, kind, before, after) in cases {
        let text = format!("{before}{secret}{after}");
        assert_eq!(
            secrets::find(&text),
            vec![Secret { kind: *kind, start: before.len(), end: before.len() + secret.len() }],
            "{text}"
        );
    }
}

#[test]
fn each_kind_is_masked_with_its_last_four_chars() {
    let cases: &[(&str, &str)] = &[
        (ANTHROPIC, "[anthropic-key …9f3a]"),
        (OPENAI, "[openai-key …PRVd]"),
        (OPENAI_PROJ, "[openai-key …lY7Z]"),
        (AWS, "[aws-access-key …9986]"),
        (GITHUB, "[github-token …OL8d]"),
        (GITHUB_PAT, "[github-token …eWJK]"),
        (SLACK, "[slack-token …UvWx]"),
        (GOOGLE, "[google-api-key …v5ZJ]"),
        (JWT, "[jwt …sw5c]"),
        (PEM, "[private-key …hR0L]"),
    ];
    for (secret, masked) in cases {
        let text = format!("before {secret} after\n");
        let out = secrets::mask(&text);
        assert_eq!(out, format!("before {masked} after\n"));
        assert!(!out.contains(secret));
        assert_eq!(secrets::mask(&out), out, "idempotent");
    }
    assert_eq!(
        secrets::mask("password: S3cr3tP@ssw0rd!\r\nnext"),
        "password: [credential …rd!]\r\nnext".replace("…rd!", "…0rd!")
    );
}

#[test]
fn pem_block_in_a_note_masks_whole_block_and_keeps_terminators() {
    let note = format!("# Keys\r\n\r\n{PEM}\r\n\r\nDone.\r\n").replace('\n', "\r\n").replace("\r\r\n", "\r\n");
    let out = secrets::mask(&note);
    assert_eq!(out, "# Keys\r\n\r\n[private-key …hR0L]\r\n\r\nDone.\r\n");
}

#[test]
fn pem_json_escaped_on_one_line() {
    let line = format!(r#"{{"content":"{}"}}"#, PEM.replace('\n', "\\n"));
    assert_eq!(secrets::mask(&line), r#"{"content":"[private-key …hR0L]"}"#);
}

#[test]
fn pem_without_end_covers_the_base64_lines_that_follow() {
    let text = "-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEAx4UbaDzY\nQk29xQ8wL3mN7vB2\n\nprose after\n";
    assert_eq!(
        found(text),
        vec![(
            SecretKind::PrivateKey,
            "-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEAx4UbaDzY\nQk29xQ8wL3mN7vB2".to_string()
        )]
    );
    assert_eq!(secrets::mask(text), "[private-key …7vB2]\n\nprose after\n");
    // A lone header line (one line of a diff) is still a pasted key.
    assert_eq!(secrets::mask("+-----BEGIN EC PRIVATE KEY-----\n"), "+[private-key]\n");
    // Public keys and certificates are not secrets.
    assert_eq!(found("-----BEGIN PUBLIC KEY-----\nMIIBIjANBgkqhkiG9w0BAQEFAAOC\n-----END PUBLIC KEY-----"), vec![]);
}

#[test]
fn key_inside_a_credential_assignment_keeps_its_specific_kind() {
    let text = format!("token={ANTHROPIC}");
    assert_eq!(found(&text), vec![(SecretKind::AnthropicKey, ANTHROPIC.to_string())]);
    assert_eq!(secrets::mask(&text), "token=[anthropic-key …9f3a]");
}

#[test]
fn cjk_neighbours_are_word_boundaries_and_offsets_are_char_boundaries() {
    let text = format!("キーは{ANTHROPIC}です。토큰 {GITHUB}입니다");
    let got = secrets::find(&text);
    assert_eq!(got.len(), 2);
    for s in &got {
        assert!(text.is_char_boundary(s.start) && text.is_char_boundary(s.end));
    }
    assert_eq!(secrets::mask(&text), "キーは[anthropic-key …9f3a]です。토큰 [github-token …OL8d]입니다");
}

#[test]
fn realistic_clean_notes_have_no_secrets() {
    let corpus = include_str!("fixtures/audit/secrets/clean_notes.md");
    assert_eq!(found(corpus), vec![]);
    assert!(matches!(secrets::mask(corpus), std::borrow::Cow::Borrowed(_)));
}

#[test]
fn placeholders_are_not_secrets() {
    for t in [
        "password: <password>",
        "token: xxxxxxxxxxxxxxxxxxxx",
        "secret: ************",
        "api_key: your-api-key-here",
        "token: [REDACTED]",
        "token=${GITHUB_TOKEN_VALUE}",
        "apikey=$TOKEN_FOR_PROD_2026",
        "password: process.env.DB_PASSWORD",
        "password: the one in 1Password",
        "AKIAXXXXXXXXXXXXXXXX",
        "sk-ant-api03-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
        "token: [credential …ab12]",
        "postgres://postgres:postgres@localhost:5432/dev",
        "https://user:password123@example.com",
        "redis://:${REDIS_PASSWORD}@cache:6379",
        "a bearer token is sent with every request",
        "https://example.com/path?q=1#frag and git@github.com:org/repo.git",
    ] {
        assert_eq!(found(t), vec![], "{t}");
    }
}

const POOL: &[&str] = &[
    ANTHROPIC,
    OPENAI,
    OPENAI_PROJ,
    AWS,
    GITHUB,
    GITHUB_PAT,
    SLACK,
    GOOGLE,
    JWT,
    PEM,
    "password: S3cr3tP@ssw0rd!",
    "token=a3f9c2e81b7d04f6e2a1",
    "sk-learn",
    "risk-",
    "キー",
    "토큰",
    "\n",
    "\r\n",
    " ",
    "-----BEGIN RSA PRIVATE KEY-----",
    "-----END RSA PRIVATE KEY-----",
    "eyJ",
    ".",
    "=",
    ":",
    "\"",
    "`",
    "token",
    "AKIA",
    "xoxb-",
    "ghp_",
    "postgres://app:pa55w0rdX9@db",
    "Bearer ",
    "://",
    "@",
    "[",
    "]",
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn find_and_mask_never_panic_on_any_string(s in any::<String>()) {
        for sec in secrets::find(&s) {
            prop_assert!(sec.start < sec.end && sec.end <= s.len());
            prop_assert!(s.is_char_boundary(sec.start) && s.is_char_boundary(sec.end));
        }
        let m = secrets::mask(&s);
        prop_assert_eq!(secrets::find(&m), vec![]);
    }

    #[test]
    fn mask_of_fragments_is_idempotent_and_hides_every_secret(
        parts in proptest::collection::vec(0..POOL.len(), 0..12),
        seps in proptest::collection::vec(prop_oneof![Just(""), Just(" "), Just("\n")], 12),
    ) {
        let mut text = String::new();
        for (i, p) in parts.iter().enumerate() {
            text.push_str(POOL[*p]);
            text.push_str(seps[i]);
        }
        let once = secrets::mask(&text).into_owned();
        prop_assert_eq!(secrets::mask(&once), once.clone());
        prop_assert_eq!(secrets::find(&once), vec![]);
        // Separated by whitespace, every full secret disappears from the output.
        let spaced: String = parts.iter().map(|p| format!("{} ", POOL[*p])).collect();
        let masked = secrets::mask(&spaced);
        for sec in secrets::find(&spaced) {
            let value = &spaced[sec.start..sec.end];
            if sec.kind == SecretKind::PrivateKey && !value.contains('\n') {
                // A lone header may also stand, unmasked, inside a key-less skeleton block.
                continue;
            }
            prop_assert!(!masked.contains(value), "{} in {}", value, masked);
        }
        // Independently of `find`: every real secret of the pool (indexes 0..=11), spaced
        // apart, is absent from the output.
        for p in parts.iter().filter(|p| **p <= 11) {
            prop_assert!(!masked.contains(POOL[*p]), "{} printed in {}", POOL[*p], masked);
        }
    }
}
