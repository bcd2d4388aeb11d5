//! Integration tests for `dreamreview::base::secrets`: each kind found and masked, no false
//! positives on realistic notes, and fuzz-like properties.

use dreamreview::base::secrets::{self, Secret, SecretKind};
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
        "https://user:password@example.com",
        "https://user:pass@host/x",
        "https://user:xxxx@host/x",
        "https://user:<password>@host/x",
        "https://user:${PW}@host/x",
        "https://user:changeme@host/x",
        "redis://:${REDIS_PASSWORD}@cache:6379",
        "a bearer token is sent with every request",
        "https://example.com/path?q=1#frag and git@github.com:org/repo.git",
    ] {
        assert_eq!(found(t), vec![], "{t}");
    }
}

#[test]
fn secrets_each_provider_row_is_found_with_its_kind() {
    let cases: &[(&str, &str)] = &[
        ("sk_live_j59pjomke57foiu94c0D1lNQgtYk", "stripe-key"),
        ("rk_live_3IMJ9PvMJ11Uqz6DNLLgGxJCbUUr", "stripe-key"),
        ("sk_test_3IMJ9PvMJ11Uqz6DNLLgGxJCbUUr", "stripe-key"),
        ("glpat-t93l4BczNvltFhjG9yO7", "gitlab-token"),
        ("gldt-t93l4BczNvltFhjG9yO7", "gitlab-token"),
        ("glrt-t93l4BczNvltFhjG9yO7", "gitlab-token"),
        ("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", "huggingface-token"),
        ("npm_HmvguTEKhCpqHKCn8TSCpqglNnhF6bQmBVeR", "npm-token"),
        ("pypi-AgEIcHlwaS5vcmclPR9_RrxEmlKi_Mf549e3y3FEYVFPqTLkCVeHcKMTXsHH-hkz0nQQG9WJ05X", "pypi-token"),
        ("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", "sendgrid-key"),
        ("SK8dee1dcce841f4a5b5ad3cf5360ba92d", "twilio-key"),
        ("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", "shopify-token"),
        ("dop_v1_b0d74b87c3b5ce2126e3ca3947c17988120875edcb0c450e17472dc930f7ccff", "digitalocean-token"),
        ("dp.pt.jUWiy77hnsqDUgECXNVGxLs7iUpM7DPJYaW0NEvlQEt", "doppler-token"),
        ("dapib3e236a3305ae95cdff4fbccfe78db0d", "databricks-token"),
        ("XIM8Q~rjz16A8eXXJg5tfiL8vA7orfo1hXLnqe3y", "azure-client-secret"),
        ("7300227639:AA4QttZQ_dKKfR9BEo8Ijf_L-LPSX6if6El", "telegram-bot-token"),
        ("key-60328c5fc273853c40f834c155547195", "mailgun-key"),
        ("AGE-SECRET-KEY-1NDURPSTUM0WHNZ0EW3YSR8RD8TE02Z6DCJCY5LG70R7E03D2UEKXF3DW6K", "age-secret-key"),
        ("ASIAPAMKHZ7RG24O8UG2", "aws-access-key"),
    ];
    for (secret, kind) in cases {
        let text = format!("see {secret} here\n");
        let got: Vec<(String, String)> = secrets::find(&text)
            .into_iter()
            .map(|s| (s.kind.name().to_string(), text[s.start..s.end].to_string()))
            .collect();
        assert_eq!(got, vec![(kind.to_string(), secret.to_string())], "{text}");
        let masked = secrets::mask(&text);
        assert!(masked.starts_with(&format!("see [{kind} …")), "{masked}");
        assert_eq!(secrets::mask(&masked), masked, "idempotent");
    }
    let discord = "DISCORD_BOT: MTcP9kocYWL3yvgcPzlf718bal.idF5yv.rsAVZSEzia18ZDLLtxzVMoiE7CfpzNN3HLr4_w\n";
    assert_eq!(secrets::mask(discord), "DISCORD_BOT: [discord-token …r4_w]\n");
    // The rule table is public data: every row has an id, a prefix and a kind.
    assert!(secrets::rule_table().count() >= 100);
}

#[test]
fn secrets_webhook_urls_mask_their_secret_path() {
    let text = "post to https://hooks.slack.com/services/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.";
    assert_eq!(secrets::mask(text), "post to https://hooks.slack.com/[slack-webhook …3uI1].");
    let discord = "https://discord.com/api/webhooks/123456789012345678/AbCdEfGhIjKlMnOpQrStUvWxYz0123456789abcdefGHIJKLmnopqrstuvwxyz01";
    assert!(!secrets::mask(discord).contains("AbCdEf"), "{}", secrets::mask(discord));
}

#[test]
fn secrets_gcp_service_account_key_fields() {
    let json = r#"{"type": "service_account", "private_key_id": "d922e863a072bfcc6ce7fbbd5273656f0f1ad35a", "private_key": "-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC+berGFlly6Ek2X83aT4iXujHBpJmNnOL\n-----END PRIVATE KEY-----\n"}"#;
    let masked = secrets::mask(json);
    assert!(!masked.contains("d922e863a072"), "{masked}");
    assert!(!masked.contains("MIIEvQIBADAN"), "{masked}");
    assert!(masked.contains(r#""private_key_id": "[gcp-private-key-id …d35a]""#), "{masked}");
}

#[test]
fn secrets_aws_secret_key_beside_its_id() {
    for text in [
        "AKIAPAMKHZ7RG24O8UG2 UcxeX1auGRyvr2GhlShhmeZV/R2gMwNRxovC14Hq",
        "id: AKIAPAMKHZ7RG24O8UG2\nkey: UcxeX1auGRyvr2GhlShhmeZV/R2gMwNRxovC14Hq\n",
        "AKIAPAMKHZ7RG24O8UG2,UcxeX1auGRyvr2GhlShhmeZV/R2gMwNRxovC14Hq",
    ] {
        let kinds: Vec<&str> = secrets::find(text).iter().map(|s| s.kind.name()).collect();
        assert_eq!(kinds, vec!["aws-access-key", "aws-secret-key"], "{text}");
    }
    let text = "aws_secret_access_key = UcxeX1auGRyvr2GhlShhmeZV/R2gMwNRxovC14Hq\n";
    assert!(!secrets::mask(text).contains("UcxeX1au"));
    // A git SHA beside a key id is no secret key.
    assert_eq!(found("AKIAPAMKHZ7RG24O8UG2 at 3f786850e387550fdab836ed7e6dc881de23001b").len(), 1);
}

#[test]
fn secrets_url_passwords_are_credentials_whatever_their_entropy() {
    for (text, pw) in [
        ("postgres://shop:correcthorse@db.internal:5432/shop", "correcthorse"),
        ("redis://:hunter2@cache:6379", "hunter2"),
        ("https://user:password123@example.com", "password123"),
        ("postgres://postgres:postgres@localhost:5432/dev", "postgres"),
        ("amqp://guest:Tr0ub4dor&3@mq/vhost", "Tr0ub4dor&3"),
    ] {
        assert_eq!(found(text), vec![(SecretKind::Credential, pw.to_string())], "{text}");
        assert!(!secrets::mask(text).contains(&format!(":{pw}@")), "{text}");
    }
    assert_eq!(secrets::mask("redis://:hunter2@cache:6379"), "redis://:[credential]@cache:6379");
}

#[test]
fn secrets_password_named_keys_flag_low_entropy_values() {
    for (text, pw) in [
        ("DB_PASSWORD=hunter2", "hunter2"),
        ("password: correcthorse", "correcthorse"),
        ("  \"password\": \"correct horse battery\",", "correct horse battery"),
        ("smtp_pass = letmein99 # dev only", "letmein99"),
        ("PWD=s3cret!", "s3cret!"),
        ("jdbc:mysql://db/x?user=app&password=hunter2&ssl=true", "hunter2"),
        ("**Password**: sunshine", "sunshine"),
        ("passphrase: 'open sesame'", "open sesame"),
    ] {
        assert_eq!(found(text), vec![(SecretKind::Credential, pw.to_string())], "{text}");
    }
}

#[test]
fn secrets_password_placeholders_and_prose_are_not_flagged() {
    for t in [
        "DB_PASSWORD=<YOUR_PASSWORD>",
        "DB_PASSWORD=${DB_PASSWORD}",
        "DB_PASSWORD=$DB_PASSWORD",
        "password: xxxx",
        "password: xxxxxxxx",
        "password: changeme",
        "password: EXAMPLE",
        "password: example-password",
        "password: your_password_here",
        "password:",
        "password: \"\"",
        "password: ''",
        "password: ********",
        "password: null",
        "password: required",
        "password: the one in 1Password",
        "Password: reset it from the admin console",
        "password_min_length: 12",
        "bypass: enabled",
        "compass: north",
        "password = getpass.getpass()",
        "password = os.environ[\"DB_PASSWORD\"]",
        "password: process.env.DB_PASSWORD",
        "password = user_password",
        "pwd: /home/dev/shop",
        "sk_live_EXAMPLEKEY0123456789abcdef",
        "AKIAIOSFODNN7EXAMPLE",
    ] {
        assert_eq!(found(t), vec![], "{t}");
    }
}

#[test]
fn secrets_shas_uuids_and_checksums_are_not_secrets() {
    let text = "commit 3f786850e387550fdab836ed7e6dc881de23001b (HEAD)\n\
                id 550e8400-e29b-41d4-a716-446655440000\n\
                sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855\n\
                e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855  a.tar.gz\n\
                9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08\n\
                2c26b46b68ffc68ff99b453c1d30413413422d706483bfa0f98a5e886266e7ae\n\
                60303ae22b998861bce3b28f33eec1be758a213c86c93c076dbe9f558c11c752\n\
                md5 d41d8cd98f00b204e9800998ecf8427e, sha1 da39a3ee5e6b4b0d3255bfef95601890afd80709\n\
                integrity sha512-z4PhNX7vuL3xVChQ1m2AB9Yg5AULVxXcg/SpIdNs6c5H0NE8XYXysP+DGNKHfuwvY7kxvUR\n";
    assert_eq!(found(text), vec![]);
}

#[test]
fn secrets_pem_body_without_its_begin_line() {
    let body = "jFBPQBouywU+S7PWD/hZsGLZBl3CUCYmFWm34UPPhRfkde1BqHAZGigy5TLaFfSX\n\
                3hD+qgR2k/dhLHEWRfkAYtPo+aK3lbpMeUU3B9w/Q+0lMUA9wrnFZlPLQuEZpPQh\n\
                1SigvyeROnphcwvRErpWG18ePYq6Aq\n";
    // Above its END line.
    let text = format!("key:\n{body}-----END RSA PRIVATE KEY-----\nafter\n");
    assert_eq!(secrets::mask(&text), "key:\n[private-key …q6Aq]\nafter\n");
    // JSON-escaped, above its END marker.
    let json = format!(r#"{{"k": "{}-----END PRIVATE KEY-----"}}"#, body.replace('\n', "\\n"));
    assert_eq!(secrets::mask(&json), r#"{"k": "[private-key …q6Aq]"}"#);
    // Neither BEGIN nor END: full-width base64 lines.
    let middle = format!("the middle of the key:\n{body}done\n");
    assert_eq!(secrets::mask(&middle), "the middle of the key:\n[private-key …q6Aq]\ndone\n");
    // A body that starts with a private key's DER encoding.
    let der = "MIIEvQIBADANBgkqhkiG9w0BAQEFAASC+berGFlly6Ek2X83aT4iXujHBpJmNnOL";
    assert_eq!(secrets::mask(&format!("{der}\n")), "[private-key …NnOL]\n");
    // Line by line, as a diff shows it, no line prints a piece of it.
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    let masked = secrets::mask_lines(&lines).concat();
    assert!(!masked.contains("jFBPQB") && !masked.contains("3hD+qg") && !masked.contains("1Sigvy"), "{masked}");
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
    "https://",
    "hooks.zapier.com/hooks/catch/",
    "x.io/s/",
    "/webhooks/",
    "?usp=sharing",
    "&sig=",
    "?se=2026&sv=1",
    "X-Amz-Signature=",
    "?access_token=",
    "26268853/",
    "/",
];

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, rng_seed: proptest::test_runner::RngSeed::Fixed(1), ..ProptestConfig::default() })]

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

/// Tokens of shapes the rule table knows, each recognised alone.
const KNOWN: &[&str] = &[ANTHROPIC, OPENAI, OPENAI_PROJ, AWS, GITHUB, GITHUB_PAT, SLACK, GOOGLE, JWT];

#[test]
fn secrets_mask_covers_every_value_find_returns_wherever_it_is_written_again() {
    // Found by a proptest: the value after `Bearer ` is a credential; written again alone
    // it was printed in clear.
    let text = "Bearer  ?se=2026&sv=1 ?se=2026&sv=1 ";
    assert_eq!(secrets::mask(text), "Bearer  [credential …sv=1] [credential …sv=1] ");
    for (context, value) in [
        ("DB_PASSWORD=hunter2x", "hunter2x"),
        ("postgres://app:correcthorse@db/x", "correcthorse"),
        (&format!("key: {GITHUB}") as &str, GITHUB),
    ] {
        let text = format!("{context}\nlater, in prose: {value} again.\n");
        let masked = secrets::mask(&text);
        assert!(!masked.contains(value), "{masked}");
        for s in secrets::find(&text) {
            assert!(!masked.contains(&text[s.start..s.end]), "{:?} in {masked}", &text[s.start..s.end]);
        }
    }
    // A short password is masked again only as a whole word.
    let masked = secrets::mask("pass=x9Kq; then x9Kq and x9Kqz\n");
    assert_eq!(masked, "pass=[credential]; then [credential] and x9Kqz\n");
}

#[test]
fn secrets_basic_auth_is_found_by_what_it_decodes_to() {
    let value = "ZGVwbG95OjlObEN6cEZySzU2SkNtNmFieQ=="; // deploy:9NlCzpFrK56JCm6aby
    for text in [
        format!("Authorization: Basic {value}"),
        format!("curl -H 'authorization: basic {value}' https://x"),
        "Basic dXNlcjpwdw".to_string(),
    ] {
        let found = found(&text);
        assert_eq!(found.len(), 1, "{text}: {found:?}");
        assert_eq!(found[0].0, SecretKind::Credential);
        assert!(found[0].1 == value || found[0].1 == "dXNlcjpwdw", "{text}: {found:?}");
    }
    // Prose after `basic`, and base64 that is no `user:password`.
    for text in ["Basic usage is simple", "basic understanding", "Basic SGVsbG8gd29ybGQh", "isBasic dXNlcjpwdw=="] {
        assert_eq!(found(text), vec![], "{text}");
    }
}

#[test]
fn secrets_a_key_named_in_a_sentence_gives_its_random_value() {
    let value = "Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5MA";
    for text in [
        format!("the secret token is {value} for the relay"),
        format!("After the rotation the API key was {value}."),
        format!("our access key for staging is now {value}"),
        // The value right after the name.
        format!("Canvas sync: API token {value}, kept in .env"),
        format!("- the token 7~{value} (course 48213)"),
        format!("- 그룹 동기화는 `OKTA_API_TOKEN`(`{value}`)으로 호출"),
    ] {
        let masked = secrets::mask(&text);
        assert!(!masked.contains(value), "{masked}");
        assert!(masked.contains("[credential …"), "{masked}");
    }
    for text in [
        "the token is stored in the vault",
        "the secret is that nobody reads the docs",
        "the token is refreshed every 3600s by cron",
        "the api key is 2026-11-01-rotated",
        "the token 2026-11-01-rotated is gone",
        "api key rotation on the 1st",
        "⚑ error secret database.md#1: an added line holds a credential",
        "the token abc123 expired",
    ] {
        assert_eq!(found(text), vec![], "{text}");
    }
}

#[test]
fn secrets_a_token_cut_over_two_lines_is_masked_on_both() {
    for token in KNOWN {
        for cut in 1..token.len() - 4 {
            if !token.is_char_boundary(cut) {
                continue;
            }
            let (a, b) = token.split_at(cut);
            let text = format!("The backup key is\n{a}\n{b}\nend\n");
            let masked = secrets::mask(&text);
            assert!(!masked.contains(b), "{cut}: {b} in {masked}");
            if a.len() >= 12 {
                assert!(!masked.contains(a), "{cut}: {a} in {masked}");
            }
            // Line by line (the diff pane, `check`), no line shows a piece either.
            let lines: Vec<String> = text.split_inclusive('\n').map(str::to_string).collect();
            let shown = secrets::mask_lines(&lines).concat();
            assert!(!shown.contains(b), "{cut}: {b} in {shown}");
        }
    }
    // Wrapped prose is not joined into a secret.
    assert_eq!(found("the deploy uses\nthe staging token\nfrom the vault\n"), vec![]);
}

#[test]
fn secrets_a_password_said_in_prose_is_masked_in_every_language() {
    for (text, password) in [
        ("- 入稿FTP（ユーザー acme_nyuko、パスワード Qw7#tR2m!kP9）", "Qw7#tR2m!kP9"),
        ("- 공유기 관리자 비밀번호는 Zx9!pLm2Qr 이다", "Zx9!pLm2Qr"),
        ("- 测试库密码：A7f#k2Lm9q，别外传", "A7f#k2Lm9q"),
        ("- Le mot de passe: Rt5$mQ2x9L pour le NAS", "Rt5$mQ2x9L"),
        ("- SFTP user etl_upload, password Hq4!vN8s2Wz", "Hq4!vN8s2Wz"),
    ] {
        let masked = secrets::mask(text);
        assert!(!masked.contains(password), "{text} → {masked}");
    }
    // Where a password is kept, and words, are no password.
    for text in [
        "- パスワードは1Password「入稿FTP（光陽印刷）」に保存",
        "- 비밀번호는 $ROUTER_PASS 환경 변수에서 읽는다",
        "- password rotation runs every 90 days",
        "- the tests pass CI4821a on main",
    ] {
        assert_eq!(secrets::mask(text), text);
    }
}
