//! Capability URLs as secrets (`src/base/secrets/urls.rs`): generated capability URLs are
//! found with their kind and masked with their host left readable; generated ordinary URLs
//! are not; and end to end, a presigned S3 URL and a Slack webhook copied from a
//! transcript's tool output into a note get `secret` flags and are masked in `check` and
//! `check --json`. Every token is generated (a proptest strategy or a seeded generator):
//! none is written down.

use crate::common::*;
use dreamreview::base::secrets;
use proptest::prelude::*;
use serde_json::json;

/// Letters without vowels or `x`, so no generated token spells a placeholder word
/// (`your`, `example`, `xxxx`).
const UPPER: &[u8] = b"BCDFGHJKLMNPQRSTVWYZ";
const LOWER: &[u8] = b"bcdfghjklmnpqrstvwyz";
const DIGIT: &[u8] = b"0123456789";
const HEX: &[u8] = b"0123456789abcdef";

fn from(alphabet: &'static [u8]) -> impl Strategy<Value = char> {
    proptest::sample::select(alphabet).prop_map(char::from)
}

/// A random token of `triples` × 3 characters: each triple an upper-case letter, a
/// lower-case letter and a digit in a random order, as a random base62 token mixes them.
fn token(triples: std::ops::Range<usize>) -> impl Strategy<Value = String> {
    proptest::collection::vec((from(UPPER), from(LOWER), from(DIGIT), 0..6usize), triples).prop_map(|ts| {
        ts.into_iter()
            .flat_map(|(u, l, d, order)| {
                let t = [[u, l, d], [u, d, l], [l, u, d], [l, d, u], [d, u, l], [d, l, u]];
                t[order]
            })
            .collect()
    })
}

/// `len` characters of `alphabet`, holding at least one letter and one digit; a short one
/// (12 or fewer) also with no character three times and no character followed one or two
/// places on by the next one (`ab`, `a1b`): a random token, never one of the placeholders
/// and sequences the rules ignore on purpose (`aaaa`, `abcdef123456`), which a long random
/// token is not but by a chance too small to draw.
fn mixed(alphabet: &'static [u8], len: usize) -> impl Strategy<Value = String> {
    proptest::collection::vec(from(alphabet), len).prop_map(|cs| cs.into_iter().collect::<String>()).prop_filter(
        "a random token",
        |s| {
            let b = s.as_bytes();
            let steps = (0..b.len()).any(|i| {
                let next = b[i].wrapping_add(1);
                b.get(i + 1) == Some(&next) || b.get(i + 2) == Some(&next)
            });
            let repeats = b.iter().any(|c| b.iter().filter(|d| *d == c).count() > 2);
            b.iter().any(u8::is_ascii_digit)
                && b.iter().any(u8::is_ascii_alphabetic)
                && (b.len() > 12 || !steps && !repeats)
        },
    )
}

const BASE36: &[u8] = b"bcdfghjklmnpqrstvwyz0123456789";
const UPPER_DIGITS: &[u8] = b"BCDFGHJKLMNPQRSTVWYZ234567";

/// A capability URL built around generated tokens: (the URL, its kind, its secret tokens).
fn capability() -> impl Strategy<Value = (String, &'static str, Vec<String>)> {
    prop_oneof![
        (mixed(UPPER_DIGITS, 16), mixed(HEX, 64)).prop_map(|(id, sig)| (
            format!(
                "https://acme-builds.s3.amazonaws.com/app.tar.gz?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=AKIA{id}%2F20260301%2Fus-east-1%2Fs3%2Faws4_request&X-Amz-Date=20260301T101500Z&X-Amz-Expires=3600&X-Amz-SignedHeaders=host&X-Amz-Signature={sig}"
            ),
            "signed-url",
            vec![sig],
        )),
        token(14..15).prop_map(|sig| (
            format!("https://acme.blob.core.windows.net/backups/db.gz?sv=2022-11-02&se=2026-03-02T00%3A00%3A00Z&sr=b&sp=r&sig={sig}%3D"),
            "signed-url",
            vec![sig],
        )),
        mixed(HEX, 64).prop_map(|sig| (
            format!("https://storage.googleapis.com/acme/o.bin?X-Goog-Algorithm=GOOG4-RSA-SHA256&X-Goog-Expires=900&X-Goog-Signature={sig}"),
            "signed-url",
            vec![sig],
        )),
        (mixed(UPPER_DIGITS, 9), mixed(UPPER_DIGITS, 10), token(8..9)).prop_map(|(t, b, s)| (
            format!("https://hooks.slack.com/services/T{t}/B{b}/{s}"),
            "slack-webhook",
            vec![s],
        )),
        ("[1-9][0-9]{17}", token(20..23)).prop_map(|(id, t)| (
            format!("https://discord.com/api/webhooks/{id}/{t}"),
            "discord-webhook",
            vec![t],
        )),
        ("[1-9][0-9]{6,7}", mixed(BASE36, 7)).prop_map(|(id, t)| (
            format!("https://hooks.zapier.com/hooks/catch/{id}/{t}/"),
            "webhook-url",
            vec![t],
        )),
        token(8..12).prop_map(|t| (format!("https://ci.acme.dev/api/webhooks/{t}"), "webhook-url", vec![t])),
        mixed(BASE36, 15).prop_map(|t| (format!("https://www.dropbox.com/s/{t}/report.pdf?dl=0"), "share-link", vec![t])),
        token(11..12).prop_map(|t| (
            format!("https://drive.google.com/file/d/1{t}/view?usp=sharing"),
            "share-link",
            vec![t],
        )),
        mixed(HEX, 32).prop_map(|t| (format!("https://gist.github.com/octocat/{t}"), "share-link", vec![t])),
        token(6..7).prop_map(|t| (format!("https://1drv.ms/u/s!{t}"), "share-link", vec![t])),
        token(5..16).prop_map(|t| (format!("https://api.acme.dev/v2/export?format=csv&access_token={t}"), "credential", vec![t])),
        token(8..22).prop_map(|t| (format!("https://files.acme.dev/d/{t}/report.pdf"), "capability-url", vec![t])),
        token(7..12).prop_map(|t| (format!("https://app.acme.dev/reset-password/{t}"), "capability-url", vec![t])),
    ]
}

const WORDS: &[&str] = &[
    "install",
    "guide",
    "release",
    "notes",
    "config",
    "api",
    "reference",
    "migration",
    "cache",
    "deploy",
    "rust",
    "async",
    "tokio",
    "server",
    "client",
    "parser",
    "error",
    "handling",
    "v2",
    "2024",
    "q3",
    "overview",
];

fn slug(n: std::ops::Range<usize>) -> impl Strategy<Value = String> {
    proptest::collection::vec(proptest::sample::select(WORDS), n).prop_map(|w| w.join("-"))
}

fn uuid() -> impl Strategy<Value = String> {
    mixed(HEX, 32).prop_map(|h| format!("{}-{}-4{}-a{}-{}", &h[..8], &h[8..12], &h[13..16], &h[17..20], &h[20..]))
}

/// An ordinary URL a note keeps: commits, issues, docs, registries, videos, app routes with
/// ids, search and paging, local servers, placeholders.
fn ordinary() -> impl Strategy<Value = String> {
    prop_oneof![
        (slug(1..3), slug(1..3), mixed(HEX, 40), prop::sample::select(&["commit", "blob", "tree"][..]))
            .prop_map(|(o, r, sha, k)| format!("https://github.com/{o}/{r}/{k}/{sha}")),
        (slug(1..3), slug(1..3), mixed(HEX, 40))
            .prop_map(|(o, r, sha)| format!("https://github.com/{o}/{r}/blob/{sha}/src/lib.rs#L12-L40")),
        (slug(1..3), slug(1..3), 1u32..99_999, prop::sample::select(&["issues", "pull"][..]))
            .prop_map(|(o, r, n, k)| format!("https://github.com/{o}/{r}/{k}/{n}")),
        (slug(2..8), slug(1..3)).prop_map(|(s, t)| format!("https://docs.acme.dev/{t}/{s}#{s}")),
        slug(1..3).prop_map(|n| format!("https://crates.io/crates/{n}")),
        slug(1..3).prop_map(|n| format!("https://www.npmjs.com/package/@acme/{n}")),
        (slug(1..3), 0u32..20, 0u32..40).prop_map(|(n, a, b)| format!("https://pypi.org/project/{n}/{a}.{b}.0/")),
        "[A-Za-z0-9_-]{11}".prop_map(|v| format!("https://www.youtube.com/watch?v={v}&t=42s")),
        ("[A-Z]{2,4}", 1u32..9_999, slug(2..6))
            .prop_map(|(k, n, s)| format!("https://linear.app/acme/issue/{k}-{n}/{s}")),
        uuid().prop_map(|u| format!("https://app.acme.dev/projects/{u}/settings")),
        uuid().prop_map(|u| format!("https://console.acme.dev/orgs/{u}")),
        "[A-Za-z0-9]{20,22}".prop_map(|id| format!("https://open.spotify.com/track/{id}")),
        (1u32..50, prop::sample::select(&["asc", "desc"][..]))
            .prop_map(|(p, o)| format!("https://acme.dev/items?page={p}&sort={o}")),
        slug(1..5).prop_map(|q| format!("https://www.google.com/search?q={}", q.replace('-', "+"))),
        (1024u32..65_535, token(8..16)).prop_map(|(p, t)| format!("http://localhost:{p}/_next/static/{t}/page.js")),
        prop::sample::select(&["<your-token>", "${TOKEN}", "xxx", "{token}", "YOUR_TOKEN_HERE", "..."][..])
            .prop_map(|t| format!("https://api.acme.dev/v1/data?token={t}")),
        prop::sample::select(&["T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX", "...", "REAL/REAL/REAL"][..])
            .prop_map(|p| format!("https://hooks.slack.com/services/{p}")),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, rng_seed: proptest::test_runner::RngSeed::Fixed(1), ..ProptestConfig::default() })]

    #[test]
    fn secrets_urls_generated_capability_urls_are_found_and_masked((url, kind, tokens) in capability()) {
        let text = format!("Per the tool output, {url} is where it lives.\n");
        let found = secrets::find(&text);
        prop_assert_eq!(found.len(), 1, "{:?} in {}", found, text);
        prop_assert_eq!(found[0].kind.name(), kind, "{}", text);
        let masked = secrets::mask(&text).into_owned();
        for t in &tokens {
            prop_assert!(!masked.contains(t.as_str()), "{} left in {}", t, masked);
        }
        let host = url.split('/').nth(2).unwrap();
        prop_assert!(masked.contains(&format!("https://{host}/")), "host kept readable: {}", masked);
        prop_assert!(masked.contains(&format!("[{kind}")), "{}", masked);
        prop_assert_eq!(secrets::mask(&masked), masked.clone(), "idempotent");
        prop_assert_eq!(secrets::find(&masked), vec![]);
    }

    #[test]
    fn secrets_urls_generated_ordinary_urls_are_not_secrets(url in ordinary(), wrap in 0..4usize) {
        let text = match wrap {
            0 => format!("See {url}."),
            1 => format!("- [the page]({url}) for details"),
            2 => format!("<{url}>"),
            _ => format!("\"url\": \"{url}\","),
        };
        prop_assert_eq!(secrets::find(&text), vec![], "{}", text);
    }
}

/// A deterministic generator (splitmix64) for the end-to-end test's tokens.
struct Gen(u64);

impl Gen {
    fn token(&mut self, alphabet: &[u8], len: usize) -> String {
        (0..len)
            .map(|_| {
                self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
                let mut z = self.0;
                z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
                z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
                z ^= z >> 31;
                char::from(alphabet[(z % alphabet.len() as u64) as usize])
            })
            .collect()
    }
}

const SESSION: &str = "3c9d1e7a-52f0-4b8e-a1d6-0e4f7b2c9a83";

#[test]
fn secrets_urls_a_presigned_url_and_a_webhook_copied_from_tool_output_are_flagged_and_masked() {
    let mut g = Gen(0x5EC2E7);
    let key_id = format!("AKIA{}", g.token(UPPER_DIGITS, 16));
    let signature = g.token(HEX, 64);
    let (team, channel, hook) =
        (g.token(UPPER_DIGITS, 9), g.token(UPPER_DIGITS, 10), g.token(b"BCDFGHbcdfgh0123456789", 24));
    let presigned = format!(
        "https://acme-builds.s3.amazonaws.com/releases/app-2.4.1.tar.gz?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential={key_id}%2F20260301%2Fus-east-1%2Fs3%2Faws4_request&X-Amz-Date=20260301T101500Z&X-Amz-Expires=604800&X-Amz-SignedHeaders=host&X-Amz-Signature={signature}"
    );
    let webhook = format!("https://hooks.slack.com/services/T{team}/B{channel}/{hook}");
    // A share link no session shows: an unsourced claim too, shown masked.
    let share_id = g.token(b"bcdfghjklmnpqrstvwz0123456789", 15);
    let share = format!("https://www.dropbox.com/s/{share_id}/qa-checklist.pdf?dl=0");
    let fm = "---\nname: release\ndescription: How releases are shipped\ntype: project\n---\n\n";
    let live = format!("{fm}Releases are built by CI.\n");
    let proposed =
        format!("{live}Download link for QA: {presigned}\nRelease alerts post to {webhook}\nQA checklist: {share}\n");
    let (_g, dream, memory) = dream_fixture(
        &[("release.md", &live)],
        &[("release.md", &proposed)],
        &format!("- memory/release.md: recorded the QA download link and the alerts webhook ({SESSION}.jsonl:2)\n"),
    );
    // The session: a question, then the tool output the dream copied both URLs from.
    let ask = json!({
        "type": "user", "sessionId": SESSION, "uuid": "3c9d1e7a-0001", "timestamp": "2026-03-01T10:15:00.000Z",
        "message": {"role": "user", "content": "Presign the release tarball for QA and show me the alerts config."}
    });
    let output = json!({
        "type": "user", "sessionId": SESSION, "uuid": "3c9d1e7a-0002", "timestamp": "2026-03-01T10:15:09.000Z",
        "message": {"role": "user", "content": [{"tool_use_id": "toolu_01Presign", "type": "tool_result",
            "content": format!("$ aws s3 presign s3://acme-builds/releases/app-2.4.1.tar.gz --expires-in 604800\n{presigned}\n$ grep SLACK .env\nSLACK_ALERTS_WEBHOOK={webhook}\n"),
            "is_error": false}]}
    });
    write(&memory.parent().unwrap().join(format!("{SESSION}.jsonl")), &format!("{ask}\n{output}\n"));

    let raw = [signature.as_str(), hook.as_str(), share_id.as_str()];
    let (code, v) = check_json(&dream, &["--memory", memory.to_str().unwrap()]);
    assert_eq!(code, 1, "secret flags are errors");
    let secrets: Vec<FlagRow> = flag_rows(&v).into_iter().filter(|r| r.1 == "secret").collect();
    let claims: Vec<&str> = secrets.iter().map(|r| r.3.as_str()).collect();
    assert_eq!(secrets.len(), 3, "{secrets:?}");
    assert!(secrets.iter().all(|r| r.2 == "error"), "{secrets:?}");
    assert!(
        claims.iter().any(|c| c.starts_with("[signed-url …") && c.ends_with(&format!("{}]", &signature[60..]))),
        "{claims:?}"
    );
    assert!(claims.iter().any(|c| c.starts_with("[slack-webhook …")), "{claims:?}");
    assert!(claims.iter().any(|c| c.starts_with("[share-link")), "{claims:?}");
    // The share link's URL is a claim no transcript states: its flag shows the URL with
    // only the secret masked.
    let unsourced: Vec<String> = flag_rows(&v).into_iter().filter(|r| r.1 == "unsourced-claim").map(|r| r.3).collect();
    assert!(
        unsourced
            .iter()
            .any(|c| c.starts_with("https://www.dropbox.com/s/[share-link") && c.contains("]/qa-checklist.pdf")),
        "{unsourced:?}"
    );
    let json_text = v.to_string();
    let text = run(dream.parent().unwrap(), &["check", dream.to_str().unwrap(), "--memory", memory.to_str().unwrap()]);
    assert_eq!(text.code, 1, "{}", text.both());
    for (what, out) in
        [("check --json", json_text.as_str()), ("check", text.stdout.as_str()), ("check stderr", text.stderr.as_str())]
    {
        for secret in raw {
            assert!(!out.contains(secret), "{what} printed a secret:\n{out}");
        }
    }
    // Masked, the URLs stay readable: the host, the path and the parameters before the
    // first secret one.
    for out in [json_text.as_str(), text.stdout.as_str()] {
        assert!(
            out.contains("https://acme-builds.s3.amazonaws.com/releases/app-2.4.1.tar.gz?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=[signed-url …"),
            "{out}"
        );
        assert!(out.contains("https://hooks.slack.com/[slack-webhook …"), "{out}");
    }
    let kinds: Vec<&str> = secrets::find(&presigned).iter().map(|s| s.kind.name()).collect();
    assert_eq!(kinds, ["signed-url"], "the signature, not the key id, names the span");
}
