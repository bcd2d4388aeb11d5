//! Tests of `urls`.

use super::tokens::*;
use super::*;

/// A deterministic generator (splitmix64): test tokens are made up on the spot, never
/// written down.
struct Gen(u64);

impl Gen {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn token(&mut self, alphabet: &[u8], len: usize) -> String {
        (0..len).map(|_| char::from(alphabet[(self.next() % alphabet.len() as u64) as usize])).collect()
    }

    /// A base62 token holding each class at least once.
    fn base62(&mut self, len: usize) -> String {
        loop {
            let t = self.token(BASE62, len);
            if random_token(t.as_bytes()) || len < URL_TOKEN_MIN_LEN {
                return t;
            }
        }
    }
}

const BASE62: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
const BASE64URL: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
const HEX: &[u8] = b"0123456789abcdef";
const BASE36: &[u8] = b"abcdefghijklmnopqrstuvwxyz0123456789";

fn found(text: &str) -> Option<(String, &'static str)> {
    let b = text.find("://")?;
    capability_url(text, b, b + 3).map(|(r, k)| (text[r].to_string(), k.name()))
}

fn uuid(g: &mut Gen) -> String {
    let h = g.token(HEX, 32);
    format!("{}-{}-4{}-a{}-{}", &h[..8], &h[8..12], &h[13..16], &h[17..20], &h[20..])
}

#[test]
fn signed_urls_mask_from_the_first_secret_parameter_to_the_signature() {
    let mut g = Gen(1);
    let (key_id, sig) = (format!("AKIA{}", g.token(b"ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", 16)), g.token(HEX, 64));
    let s3 = format!(
        "https://bucket.s3.amazonaws.com/a/b.tar.gz?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential={key_id}%2F20260101%2Fus-east-1%2Fs3%2Faws4_request&X-Amz-Date=20260101T000000Z&X-Amz-Expires=3600&X-Amz-SignedHeaders=host&X-Amz-Signature={sig}"
    );
    let (span, kind) = found(&s3).unwrap();
    assert_eq!(kind, "signed-url");
    assert!(span.starts_with(&key_id) && span.ends_with(&sig), "{span}");
    let sas_sig = format!("{}%3D", g.token(BASE62, 43));
    let sas = format!(
        "https://acct.blob.core.windows.net/c/b.zip?sv=2022-11-02&se=2026-01-01T00%3A00%3A00Z&sr=b&sp=r&sig={sas_sig}"
    );
    assert_eq!(found(&sas), Some((sas_sig.clone(), "signed-url")));
    let cf = g.token(BASE64URL, 120).replace('-', "~");
    let cloudfront =
        format!("https://d1.cloudfront.net/v.mp4?Expires=1767225600&Signature={cf}&Key-Pair-Id=K2JCJMDEHXQW5F");
    assert_eq!(found(&cloudfront).map(|f| f.1), Some("signed-url"));
    let gcs = g.token(HEX, 64);
    let goog = format!(
        "https://storage.googleapis.com/b/o.bin?X-Goog-Algorithm=GOOG4-RSA-SHA256&X-Goog-Date=20260101T000000Z&X-Goog-Expires=900&X-Goog-Signature={gcs}"
    );
    assert_eq!(found(&goog), Some((gcs, "signed-url")));
    // A bare `sig` guards a public resource: no expiry rides with it.
    let books =
        format!("https://books.google.com/books?id=x&pg=PA1&ots=FBSfAPlA_z&sig={}&redir_esc=y", g.token(BASE64URL, 27));
    assert_eq!(found(&books), None);
}

#[test]
fn credential_parameters_by_the_last_word_of_their_name() {
    let mut g = Gen(2);
    for name in [
        "token",
        "access_token",
        "accessToken",
        "api_key",
        "apikey",
        "apiKey",
        "key",
        "auth",
        "client_secret",
        "X-Api-Key",
        "authkey",
    ] {
        let v = g.base62(32);
        let url = format!("https://api.example.com/v1/items?page=2&{name}={v}&sort=asc");
        assert_eq!(found(&url), Some((v, "credential")), "{url}");
    }
    for name in [
        "pageToken",
        "next_page_token",
        "public_key",
        "publishable_key",
        "idempotency_key",
        "sort_key",
        "keyword",
        "monkey",
        "list",
        "v",
        "si",
        "fbclid",
    ] {
        let url = format!("https://api.example.com/v1/items?{name}={}", g.base62(32));
        assert_eq!(found(&url), None, "{url}");
    }
    let code = g.base62(20);
    assert_eq!(
        found(&format!("https://app.example.com/oauth/callback?code={code}&state=9Xk2")),
        Some((code.clone(), "credential"))
    );
    assert_eq!(found(&format!("https://app.example.com/verify?code={code}")), None, "a code without state");
}

#[test]
fn webhooks_by_host_and_by_path() {
    let mut g = Gen(3);
    let zap = format!("{}/{}", g.token(b"0123456789", 8), g.token(BASE36, 7));
    let url = format!("https://hooks.zapier.com/hooks/catch/{zap}/");
    assert_eq!(found(&url), Some((format!("hooks/catch/{zap}"), "webhook-url")));
    let make = g.token(BASE36, 32);
    assert_eq!(found(&format!("https://hook.eu1.make.com/{make}")), Some((make, "webhook-url")));
    let id = uuid(&mut g);
    assert_eq!(found(&format!("https://n8n.example.com/webhook/{id}/chat")), Some((id, "webhook-url")));
    let t = g.base62(24);
    assert_eq!(found(&format!("https://ci.example.com/api/webhooks/{t}")), Some((t, "webhook-url")));
    for doc in [
        "https://hooks.slack.com/services/REAL/REAL/REAL",
        "https://hooks.slack.com/services/T00/B00/XXXXXX",
        "https://hooks.zapier.com/hooks/catch/YOUR_WEBHOOK_ID/",
        "https://hooks.zapier.com/hooks/catch/...",
        "https://docs.github.com/en/webhooks/using-webhooks/creating-webhooks",
        "https://github.com/acme/shop/settings/hooks/412345678",
        "https://dashboard.stripe.com/test/webhooks/create?endpoint_location=local",
        "https://your-n8n.url/webhook/path?city=Berlin",
    ] {
        assert_eq!(found(doc), None, "{doc}");
    }
}

#[test]
fn share_links() {
    let mut g = Gen(4);
    let s = g.token(BASE36, 15);
    assert_eq!(found(&format!("https://www.dropbox.com/s/{s}/report.pdf?dl=0")), Some((s, "share-link")));
    let (fi, rl) = (g.token(BASE36, 21), g.token(BASE36, 25));
    let scl = format!("https://www.dropbox.com/scl/fi/{fi}/report.pdf?rlkey={rl}&dl=0");
    assert_eq!(found(&scl), Some((format!("{fi}/report.pdf?rlkey={rl}"), "share-link")));
    let drive = g.token(BASE64URL, 33);
    let with_usp = format!("https://drive.google.com/file/d/1{drive}/view?usp=sharing");
    assert_eq!(found(&with_usp), Some((format!("1{drive}"), "share-link")));
    let gist = g.token(HEX, 32);
    assert_eq!(found(&format!("https://gist.github.com/octocat/{gist}")), Some((gist, "share-link")));
    let chat = uuid(&mut g);
    assert_eq!(found(&format!("https://chatgpt.com/share/{chat}")), Some((chat, "share-link")));
    let invite = format!("zt-{}-{}", g.token(BASE36, 9), g.token(BASE64URL, 22));
    assert_eq!(
        found(&format!("https://join.slack.com/t/acme/shared_invite/{invite}")).map(|f| f.1),
        Some("share-link")
    );
    let onedrive = format!("s!{}", g.base62(18));
    assert_eq!(found(&format!("https://1drv.ms/u/{onedrive}")).map(|f| f.1), Some("share-link"));
    let wt = format!("{}{}", g.token(HEX, 32), "20260101");
    assert_eq!(
        found(&format!("https://wetransfer.com/downloads/{wt}/{}", g.token(HEX, 6))).map(|f| f.1),
        Some("share-link")
    );
}

#[test]
fn random_path_and_fragment_segments() {
    let mut g = Gen(5);
    let t = g.base62(32);
    assert_eq!(found(&format!("https://files.example.com/d/{t}/report.pdf")), Some((t.clone(), "capability-url")));
    let reset = g.base62(20);
    assert_eq!(found(&format!("https://app.example.com/reset/{reset}")), Some((reset, "capability-url")));
    let key = g.token(BASE64URL, 43);
    let mega = format!("https://mega.nz/file/{}#{key}", g.token(BASE62, 8));
    if random_token(key.as_bytes()) {
        assert_eq!(found(&mega), Some((key, "capability-url")));
    }
    // Loopback: a random segment is a build artefact; a credential parameter still counts.
    assert_eq!(found(&format!("http://localhost:3000/_next/static/{t}/page.js")), None);
    let jupyter = g.token(HEX, 48);
    assert_eq!(found(&format!("http://127.0.0.1:8888/lab?token={jupyter}")), Some((jupyter, "credential")));
}

#[test]
fn ordinary_urls_are_not_capabilities() {
    let mut g = Gen(6);
    let sha = g.token(HEX, 40);
    let id = uuid(&mut g);
    for url in [
        format!("https://github.com/rust-lang/rust/commit/{sha}"),
        format!("https://github.com/rust-lang/rust/blob/{sha}/src/main.rs#L10-L20"),
        format!("https://github.com/rust-lang/rust/tree/{sha}/library"),
        "https://github.com/rust-lang/rust/issues/12345".into(),
        "https://github.com/rust-lang/rust/pull/12345#issuecomment-1234567890".into(),
        "https://docs.rs/aho-corasick/latest/aho_corasick/struct.AhoCorasickBuilder.html".into(),
        "https://developer.mozilla.org/en-US/docs/Web/HTTP/Headers/Content-Security-Policy".into(),
        "https://stackoverflow.com/questions/39397548/how-to-give-non-root-user-in-docker-container-access".into(),
        "https://crates.io/crates/aho-corasick".into(),
        "https://www.npmjs.com/package/@types/node".into(),
        "https://pypi.org/project/requests/2.31.0/".into(),
        format!("https://www.youtube.com/watch?v={}", g.token(BASE64URL, 11)),
        "https://linear.app/acme/issue/ENG-123/make-the-importer-resumable".into(),
        format!("https://app.example.com/projects/{id}/settings"),
        format!("https://app.example.com/projects/{id}"),
        "https://example.com/search?page=2&sort=asc".into(),
        "https://www.google.com/search?q=rust+aho+corasick".into(),
        "http://localhost:3000/api/v1/users?token=abc".into(),
        "https://api.example.com/v1/data?token=<your-token>".into(),
        "https://api.example.com/v1/data?token=${TOKEN}".into(),
        "https://api.example.com/v1/data?token=xxx".into(),
        "https://api.example.com/v1/data?token={token}".into(),
        "https://api.example.com/v1/data?token=abcdef123456".into(),
        format!("https://open.spotify.com/track/{}", g.token(BASE62, 22)),
        format!("https://www.figma.com/design/{}/Moji?node-id=3104-4642", g.token(BASE62, 22)),
        format!("https://www.notion.so/Spec-{}", g.token(HEX, 32)),
        format!("https://www.notion.so/Mantle-Specification-{}", g.token(HEX, 32)),
        format!("https://www.notion.so/Roadmap-{}?pvs=4", g.token(HEX, 32)),
        format!("https://supabase.com/dashboard/project/{}/sql/new", g.token(b"abcdefghijklmnopqrstuvwxyz", 20)),
        format!("https://dashboard.stripe.com/payments/pi_{}", g.token(BASE62, 24)),
        format!("https://www.loom.com/share/{}", "abcdef123456"),
        "https://marketplace.visualstudio.com/items?itemName=ms-vscode-remote.remote-ssh".into(),
        "https://en.wikipedia.org/wiki/Box%E2%80%93Muller_transform".into(),
        "https://img.shields.io/badge/license-MIT-green.svg?style=flat-square".into(),
    ] {
        assert_eq!(found(&url), None, "{url}");
    }
}

#[test]
fn a_url_ends_where_prose_resumes() {
    let mut g = Gen(7);
    let t = g.base62(30);
    for (text, want) in [
        (format!("see (https://x.io/d/{t}), then"), t.clone()),
        (format!("[doc](https://x.io/d/{t})."), t.clone()),
        (format!("<https://x.io/d/{t}>"), t.clone()),
        (format!("\"https://x.io/d/{t}\","), t.clone()),
        (format!("https://x.io/d/{t}です"), t.clone()),
    ] {
        assert_eq!(found(&text).map(|f| f.0), Some(want), "{text}");
    }
    // A URL inside another's query is read on its own hit.
    let inner = format!("https://a.io/r?u=https://x.io/d/{t}");
    assert_eq!(found(&inner), None);
    let second = inner.rfind("://").unwrap();
    assert_eq!(capability_url(&inner, second, second + 3).map(|(r, _)| inner[r].to_string()), Some(t));
    assert_eq!(found("ftp://x.io/d/AbCdEfGhIjKlMnOpQrStUv12"), None, "not http");
}

#[test]
fn random_tokens_of_the_floor_are_found_and_shorter_ids_are_not() {
    // Of random base62 tokens, the share this rule finds (measured, not assumed).
    let mut g = Gen(8);
    let rate = |g: &mut Gen, alphabet: &[u8], len: usize| {
        (0..2000).filter(|_| random_token(g.token(alphabet, len).as_bytes())).count() as f64 / 2000.0
    };
    assert!(rate(&mut g, BASE62, 24) > 0.95);
    assert!(rate(&mut g, BASE62, 32) > 0.98);
    assert!(rate(&mut g, BASE64URL, 43) > 0.98);
    assert_eq!(rate(&mut g, BASE62, 22), 0.0);
    assert_eq!(rate(&mut g, HEX, 40), 0.0);
    assert_eq!(rate(&mut g, BASE36, 32), 0.0);
    for word in [
        "AbstractSingletonProxyFactoryBean2",
        "HttpServerConfigV2BuilderFactory",
        "Quarterly-Report-2024-Q3-Final-Version",
    ] {
        assert!(!random_token(word.as_bytes()), "{word}");
    }
}

#[test]
fn masked_urls_are_found_no_more() {
    let mut g = Gen(9);
    let zap = format!("{}/{}", g.token(b"0123456789", 8), g.token(BASE36, 7));
    for text in [
        format!("https://hooks.zapier.com/hooks/catch/{zap}/"),
        format!("https://files.example.com/d/{}/report.pdf", g.base62(32)),
        format!("https://x.blob.core.windows.net/c?sv=2022-11-02&se=2026&sig={}%3D", g.token(BASE62, 43)),
    ] {
        let masked = crate::base::secrets::mask(&text).into_owned();
        assert_ne!(masked, text);
        assert_eq!(crate::base::secrets::find(&masked), vec![], "{masked}");
    }
    // A short token's tail is not shown: 4 of its 7 characters would be most of it.
    let masked = crate::base::secrets::mask(&format!("https://hooks.zapier.com/hooks/catch/{zap}/")).into_owned();
    assert_eq!(masked, "https://hooks.zapier.com/[webhook-url]/");
}

#[test]
fn names_split_into_words_at_separators_and_camel_case() {
    let words = |name: &[u8]| {
        let w = NameWords::of(name).unwrap();
        (0..w.count).rev().map(|i| String::from_utf8(w.back(i).unwrap().to_vec()).unwrap()).collect::<Vec<_>>()
    };
    assert_eq!(words(b"X-Amz-Security-Token"), ["x", "amz", "security", "token"]);
    assert_eq!(words(b"accessToken"), ["access", "token"]);
    assert_eq!(words(b"AWSAccessKeyId"), ["awsaccess", "key", "id"]);
    assert_eq!(NameWords::of(b"X-Amz-Expires").unwrap().whole(), b"xamzexpires");
    assert!(classify(b"X-Amz-Credential") == Class::Credential);
    assert!(classify(b"Key-Pair-Id") == Class::Other);
    assert!(classify(b"X-Amz-Expires") == Class::Expiry);
    assert!(classify(b"sig") == Class::ShortSignature);
    assert!(sequence(b"a1b2c3d4e5f6g7h8") && sequence(b"abcdef123456") && !sequence(b"Zq8VbN2xLk4TfR7m"));
}
