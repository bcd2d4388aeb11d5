//! The detection table: one row per credential format (provider token, key shape, or a key
//! name whose value is a credential). Each row names the literal the pre-filter looks for,
//! the kind shown in masks, and how the text at a hit is validated. [`super::find`] builds
//! one Aho-Corasick automaton over every row's literal (ASCII case folded, so key names
//! match in any case); a provider prefix is then compared case-sensitively by its check.
//!
//! The provider formats follow what public secret scanners (gitleaks, GitHub secret
//! scanning) document for each provider; the table itself is ours. To add a format, add a
//! row: a [`Check::Token`] for `prefix + body` shapes, a [`Check::Custom`] validator for
//! the rest.

use std::ops::Range;

use super::assigned::{after_key, after_password_key, url_password};
use super::formats::{azure_devops_pat, azure_key, azure_sas, curl_user, kubernetes_secret, maxmind, putty_key};
use super::kind::SecretKind;
use super::pem::{pem_anchor, pem_begin, pem_end};
use super::shapes::{
    anthropic, azure_ad_secret, discord_bot, github_classic, jwt, mailchimp, openai, sendgrid, telegram_bot, two_part,
};
use super::shapes::{boundary_before, is_placeholder_body, is_word};
use super::spoken::after_password_word;

/// How a row validates the text around a pre-filter hit.
#[derive(Clone, Copy)]
pub(super) enum Check {
    /// The row's prefix (exact case), then `min..=max` bytes of `body` as one whole token:
    /// no word character right before the prefix or right after the body, and a body that
    /// is not a placeholder (`xxxx…`, `EXAMPLE`, one repeated character).
    Token { body: Charset, min: usize, max: usize, part: Part },
    /// A validator for shapes a prefix and a body cannot describe. It gets the text, the
    /// hit's start and end, and returns the secret's byte range.
    Custom(fn(&str, usize, usize) -> Option<Range<usize>>),
    /// A [`Check::Custom`] that also says what it found, for a row whose hits are of
    /// several kinds (a capability URL is a `signed-url`, a `webhook-url`…).
    Classified(Classifier),
    /// A validator that finds any number of secrets of the row's kind at one hit (the
    /// values of a Kubernetes Secret manifest).
    Spans(fn(&str, usize, usize) -> Vec<Range<usize>>),
}

/// A validator of a [`Check::Classified`] row: the text and the hit's start and end in,
/// the secret's byte range and kind out.
pub(super) type Classifier = fn(&str, usize, usize) -> Option<(Range<usize>, SecretKind)>;

/// Which part of a [`Check::Token`] match is the secret.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Part {
    /// Prefix and body: the prefix is part of the token (`npm_…`).
    Whole,
    /// The body only: the prefix is a public host and path (`hooks.slack.com/`).
    Body,
}

/// The characters a [`Check::Token`] body may hold.
#[derive(Clone, Copy)]
pub(super) enum Charset {
    /// `[A-Za-z0-9]`.
    Alnum,
    /// `[0-9a-fA-F]`.
    Hex,
    /// `[A-Z0-9]`.
    UpperAlnum,
    /// `[A-Za-z0-9_-]` (base64url).
    Key,
    /// `[A-Za-z0-9_.-]`.
    KeyDot,
    /// `[A-Za-z0-9+/=]` (base64).
    Base64,
    /// `[A-Za-z0-9_=-]`.
    KeyPad,
    /// The bech32 alphabet in upper case (`age` keys).
    Bech32Upper,
    /// A URL path: `[A-Za-z0-9_/@.-]`.
    UrlPath,
    /// `[A-Za-z0-9+/=_-]` (base64 and base64url mixed: Sentry's org tokens).
    Base64Url,
    /// `[A-Za-z0-9_.=-]`.
    KeyDotPad,
    /// `[A-Z0-9-]` (1Password secret keys).
    UpperDash,
    /// `[A-Za-z0-9+/=%]` (base64, URL-encoded in places: Twitter bearer tokens).
    Base64Pct,
}

impl Charset {
    /// Whether `c` belongs to the set.
    pub(super) fn has(self, c: u8) -> bool {
        match self {
            Charset::Alnum => c.is_ascii_alphanumeric(),
            Charset::Hex => c.is_ascii_hexdigit(),
            Charset::UpperAlnum => c.is_ascii_uppercase() || c.is_ascii_digit(),
            Charset::Key => c.is_ascii_alphanumeric() || c == b'_' || c == b'-',
            Charset::KeyDot => c.is_ascii_alphanumeric() || matches!(c, b'_' | b'-' | b'.'),
            Charset::Base64 => c.is_ascii_alphanumeric() || matches!(c, b'+' | b'/' | b'='),
            Charset::KeyPad => c.is_ascii_alphanumeric() || matches!(c, b'_' | b'-' | b'='),
            Charset::Bech32Upper => b"QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L".contains(&c),
            Charset::UrlPath => c.is_ascii_alphanumeric() || matches!(c, b'_' | b'-' | b'/' | b'@' | b'.'),
            Charset::Base64Url => c.is_ascii_alphanumeric() || matches!(c, b'+' | b'/' | b'=' | b'_' | b'-'),
            Charset::KeyDotPad => c.is_ascii_alphanumeric() || matches!(c, b'_' | b'-' | b'.' | b'='),
            Charset::UpperDash => c.is_ascii_uppercase() || c.is_ascii_digit() || c == b'-',
            Charset::Base64Pct => c.is_ascii_alphanumeric() || matches!(c, b'+' | b'/' | b'=' | b'%'),
        }
    }
}

/// One detection rule.
#[derive(Clone, Copy)]
pub(super) struct Rule {
    /// Unique id of the row (`stripe-secret-key`), for tests and documentation.
    pub id: &'static str,
    /// The literal the pre-filter finds (ASCII case-insensitively).
    pub prefix: &'static str,
    /// What the secret is called in masks and flags.
    pub kind: SecretKind,
    /// How a hit is validated.
    pub check: Check,
}

/// A row for `prefix` + a body of `min..=max` characters of `body`, the whole token secret.
const fn token(
    id: &'static str,
    prefix: &'static str,
    kind: SecretKind,
    body: Charset,
    min: usize,
    max: usize,
) -> Rule {
    Rule { id, prefix, kind, check: Check::Token { body, min, max, part: Part::Whole } }
}

/// A [`token`] row whose kind is a provider's (`stripe-key`).
const fn provider(
    id: &'static str,
    prefix: &'static str,
    name: &'static str,
    body: Charset,
    min: usize,
    max: usize,
) -> Rule {
    token(id, prefix, SecretKind::Provider(name), body, min, max)
}

/// A row for a secret URL path after a public host (`hooks.slack.com/` + `services/…`).
const fn url(id: &'static str, prefix: &'static str, name: &'static str, min: usize) -> Rule {
    let check = Check::Token { body: Charset::UrlPath, min, max: usize::MAX, part: Part::Body };
    Rule { id, prefix, kind: SecretKind::Provider(name), check }
}

/// A row validated by a function of [`super::shapes`], [`super::pem`] or [`super::assigned`].
const fn custom(
    id: &'static str,
    prefix: &'static str,
    kind: SecretKind,
    f: fn(&str, usize, usize) -> Option<Range<usize>>,
) -> Rule {
    Rule { id, prefix, kind, check: Check::Custom(f) }
}

/// A row for a secret value after a literal that is not part of it (`_gitlab_session=`).
const fn value_after(
    id: &'static str,
    prefix: &'static str,
    name: &'static str,
    body: Charset,
    min: usize,
    max: usize,
) -> Rule {
    Rule { id, prefix, kind: SecretKind::Provider(name), check: Check::Token { body, min, max, part: Part::Body } }
}

/// A row whose validator finds any number of secrets at one hit.
const fn spans(
    id: &'static str,
    prefix: &'static str,
    name: &'static str,
    f: fn(&str, usize, usize) -> Vec<Range<usize>>,
) -> Rule {
    Rule { id, prefix, kind: SecretKind::Provider(name), check: Check::Spans(f) }
}

/// A row validated by a function that names the kind of each secret it finds.
const fn classified(id: &'static str, prefix: &'static str, kind: SecretKind, f: Classifier) -> Rule {
    Rule { id, prefix, kind, check: Check::Classified(f) }
}

/// A credential-like key name (`token`, `api_key`) whose random value is a credential.
const fn key_name(prefix: &'static str) -> Rule {
    custom("assigned-credential", prefix, SecretKind::Credential, after_key)
}

/// A password-named key (`password`, `pwd`) whose value is a credential whatever its entropy.
const fn password_name(prefix: &'static str) -> Rule {
    custom("assigned-password", prefix, SecretKind::Credential, after_password_key)
}

/// A password word whose value, said in prose, has a password's shape.
const fn spoken(prefix: &'static str) -> Rule {
    custom("assigned-password-said", prefix, SecretKind::Credential, after_password_word)
}

/// No upper bound on a body's length.
const MAX: usize = usize::MAX;
use Charset::*;
use SecretKind as K;

/// Every detection rule. Order does not matter: overlapping findings are merged, and a
/// provider kind wins over `credential`.
pub(super) const RULES: &[Rule] = &[
    // AI providers.
    custom("anthropic-key", "sk-ant-", K::AnthropicKey, anthropic),
    custom("openai-key", "sk-", K::OpenaiKey, openai),
    provider("huggingface-token", "hf_", "huggingface-token", Alnum, 30, 40),
    provider("huggingface-org-token", "api_org_", "huggingface-token", Alnum, 30, 40),
    provider("groq-key", "gsk_", "groq-key", Alnum, 48, 56),
    provider("perplexity-key", "pplx-", "perplexity-key", Alnum, 40, 56),
    provider("replicate-token", "r8_", "replicate-token", Alnum, 36, 40),
    provider("xai-key", "xai-", "xai-key", Alnum, 70, 90),
    provider("langsmith-key", "lsv2_", "langsmith-key", Key, 40, 60),
    provider("openrouter-key", "sk-or-v1-", "openrouter-key", Hex, 64, 64),
    provider("tavily-key", "tvly-", "tavily-key", Key, 32, 37),
    provider("pinecone-key", "pcsk_", "pinecone-key", Key, 60, 80),
    // `ABSK` + the base64 of `BedrockAPIKey-`; a short-term key is a presigned URL in base64.
    provider("aws-bedrock-key", "ABSKQmVkcm9ja0FQSUtleS", "aws-bedrock-key", Base64, 100, MAX),
    provider("aws-bedrock-short-term-key", "bedrock-api-key-", "aws-bedrock-key", Base64, 200, MAX),
    // Cloud providers.
    token("aws-access-key-id", "AKIA", K::AwsAccessKey, UpperAlnum, 16, 16),
    token("aws-temporary-key-id", "ASIA", K::AwsAccessKey, UpperAlnum, 16, 16),
    token("aws-bearer-key-id", "ABIA", K::AwsAccessKey, UpperAlnum, 16, 16),
    token("aws-context-key-id", "ACCA", K::AwsAccessKey, UpperAlnum, 16, 16),
    token("aws-a3t-key-id", "A3T", K::AwsAccessKey, UpperAlnum, 17, 17),
    key_name("aws_secret_access_key"),
    key_name("secretaccesskey"),
    token("google-api-key", "AIza", K::GoogleApiKey, Key, 35, 35),
    provider("gcp-oauth-client-secret", "GOCSPX-", "gcp-client-secret", Key, 28, 28),
    provider("gcp-oauth-access-token", "ya29.", "gcp-access-token", KeyDot, 30, MAX),
    custom("gcp-private-key-id", "private_key_id", K::Provider("gcp-private-key-id"), after_key),
    key_name("private_key"),
    custom("azure-ad-client-secret", "Q~", K::Provider("azure-client-secret"), azure_ad_secret),
    custom("azure-storage-account-key", "accountkey", K::Provider("azure-key"), azure_key),
    custom("azure-shared-access-key", "sharedaccesskey", K::Provider("azure-key"), azure_key),
    custom("azure-sas-token", "sig=", K::Provider("azure-sas"), azure_sas),
    custom("azure-devops-pat", "AZDO", K::Provider("azure-devops-token"), azure_devops_pat),
    provider("cloudflare-origin-ca-key", "v1.0-", "cloudflare-origin-ca-key", Key, 171, 171),
    provider("openshift-user-token", "sha256~", "openshift-token", Key, 43, 43),
    provider("tailscale-key", "tskey-", "tailscale-key", Key, 30, MAX),
    provider("clickhouse-cloud-key", "4b1d", "clickhouse-key", Alnum, 38, 38),
    provider("harness-pat", "pat.", "harness-token", KeyDot, 68, 68),
    provider("harness-sat", "sat.", "harness-token", KeyDot, 68, 68),
    provider("defined-networking-token", "dnkey-", "defined-networking-token", KeyPad, 79, 79),
    provider("settlemint-application-token", "sm_aat_", "settlemint-token", Alnum, 16, 16),
    provider("settlemint-personal-token", "sm_pat_", "settlemint-token", Alnum, 16, 16),
    provider("settlemint-service-token", "sm_sat_", "settlemint-token", Alnum, 16, 16),
    custom("maxmind-license-key", "_mmk", K::Provider("maxmind-key"), maxmind),
    provider("intra42-secret-ud", "s-s4t2ud-", "intra42-secret", Hex, 64, 64),
    provider("intra42-secret-af", "s-s4t2af-", "intra42-secret", Hex, 64, 64),
    provider("digitalocean-pat", "dop_v1_", "digitalocean-token", Hex, 64, 64),
    provider("digitalocean-oauth", "doo_v1_", "digitalocean-token", Hex, 64, 64),
    provider("digitalocean-refresh", "dor_v1_", "digitalocean-token", Hex, 64, 64),
    provider("alibaba-access-key-id", "LTAI", "alibaba-key", Alnum, 20, 20),
    provider("yandex-api-key", "AQVN", "yandex-key", Key, 35, 38),
    provider("heroku-api-key", "HRKU-", "heroku-key", Key, 60, 60),
    provider("flyio-token", "fo1_", "flyio-token", Key, 43, 43),
    provider("flyio-macaroon", "fm2_", "flyio-token", Base64, 100, MAX),
    provider("flyio-macaroon-v1", "fm1r_", "flyio-token", Base64, 100, MAX),
    provider("flyio-macaroon-v1a", "fm1a_", "flyio-token", Base64, 100, MAX),
    provider("netlify-pat", "nfp_", "netlify-token", Alnum, 36, 40),
    provider("supabase-pat", "sbp_", "supabase-token", Hex, 40, 40),
    provider("supabase-secret-key", "sb_secret_", "supabase-token", Key, 30, MAX),
    provider("hashicorp-vault-service", "hvs.", "vault-token", Key, 90, MAX),
    provider("hashicorp-vault-batch", "hvb.", "vault-token", Key, 130, MAX),
    custom("terraform-cloud-token", ".atlasv1.", K::Provider("terraform-token"), two_part),
    provider("pulumi-token", "pul-", "pulumi-token", Hex, 40, 40),
    provider("databricks-token", "dapi", "databricks-token", Key, 32, 34),
    provider("doppler-personal", "dp.pt.", "doppler-token", Alnum, 40, 44),
    provider("doppler-service", "dp.st.", "doppler-token", KeyDot, 40, MAX),
    provider("doppler-service-account", "dp.sa.", "doppler-token", Alnum, 40, 44),
    provider("doppler-cli", "dp.ct.", "doppler-token", Alnum, 40, 44),
    provider("doppler-scim", "dp.scim.", "doppler-token", Alnum, 40, 44),
    provider("doppler-audit", "dp.audit.", "doppler-token", Alnum, 40, 44),
    provider("planetscale-token", "pscale_tkn_", "planetscale-token", KeyDotPad, 32, 64),
    provider("planetscale-password", "pscale_pw_", "planetscale-token", KeyDotPad, 32, 64),
    provider("planetscale-oauth", "pscale_oauth_", "planetscale-token", KeyDotPad, 32, 64),
    provider("dynatrace-token", "dt0c01.", "dynatrace-token", KeyDot, 80, 100),
    // Code hosting, packages and CI.
    custom("github-pat", "ghp_", K::GithubToken, github_classic),
    custom("github-oauth", "gho_", K::GithubToken, github_classic),
    custom("github-user-to-server", "ghu_", K::GithubToken, github_classic),
    custom("github-server-to-server", "ghs_", K::GithubToken, github_classic),
    custom("github-refresh", "ghr_", K::GithubToken, github_classic),
    token("github-fine-grained-pat", "github_pat_", K::GithubToken, Key, 40, MAX),
    provider("gitlab-pat", "glpat-", "gitlab-token", KeyDot, 20, MAX),
    provider("gitlab-deploy-token", "gldt-", "gitlab-token", Key, 20, MAX),
    provider("gitlab-runner-token", "glrt-", "gitlab-token", KeyDot, 20, MAX),
    provider("gitlab-pipeline-trigger", "glptt-", "gitlab-token", Hex, 40, 40),
    provider("gitlab-ci-build-token", "glcbt-", "gitlab-token", Key, 20, MAX),
    provider("gitlab-feed-token", "glft-", "gitlab-token", Key, 20, MAX),
    provider("gitlab-feature-flag-client-token", "glffct-", "gitlab-token", Key, 20, MAX),
    value_after("gitlab-session-cookie", "_gitlab_session=", "gitlab-token", Alnum, 32, 32),
    provider("gitlab-incoming-mail", "glimt-", "gitlab-token", Key, 25, MAX),
    provider("gitlab-oauth-secret", "gloas-", "gitlab-token", Key, 64, 64),
    provider("gitlab-scim-token", "glsoat-", "gitlab-token", Key, 20, MAX),
    provider("gitlab-agent-token", "glagent-", "gitlab-token", Key, 50, MAX),
    provider("gitlab-runner-registration", "GR1348941", "gitlab-token", Key, 20, MAX),
    provider("npm-token", "npm_", "npm-token", Alnum, 36, 36),
    provider("pypi-token", "pypi-AgE", "pypi-token", Key, 50, MAX),
    provider("rubygems-key", "rubygems_", "rubygems-key", Hex, 48, 48),
    provider("clojars-token", "CLOJARS_", "clojars-token", Alnum, 60, 60),
    provider("packagist-org-token", "packagist_ort_", "packagist-token", Hex, 68, 68),
    provider("packagist-user-token", "packagist_uut_", "packagist-token", Hex, 68, 68),
    provider("docker-hub-pat", "dckr_pat_", "docker-token", Key, 27, MAX),
    provider("docker-hub-oat", "dckr_oat_", "docker-token", Key, 32, MAX),
    provider("jfrog-api-key", "AKCp", "jfrog-key", Alnum, 69, 69),
    provider("jfrog-reference-token", "cmVmdGtu", "jfrog-key", Key, 56, 64),
    provider("buildkite-token", "bkua_", "buildkite-token", Hex, 40, 40),
    provider("circleci-pat", "CCIPAT_", "circleci-token", Key, 20, MAX),
    provider("sourcegraph-token", "sgp_", "sourcegraph-token", Key, 40, MAX),
    provider("octopus-deploy-key", "API-", "octopus-key", UpperAlnum, 26, 26),
    provider("atlassian-api-token", "ATATT3", "atlassian-token", KeyPad, 180, MAX),
    provider("sentry-org-token", "sntrys_", "sentry-token", Base64Url, 60, MAX),
    provider("sentry-user-token", "sntryu_", "sentry-token", Hex, 64, 64),
    provider("grafana-cloud-token", "glc_", "grafana-token", Base64, 32, MAX),
    provider("grafana-service-account", "glsa_", "grafana-token", Key, 40, 41),
    // The base64 of `{"k":"`.
    provider("grafana-api-key", "eyJrIjoi", "grafana-token", Base64, 70, 400),
    provider("new-relic-user-key", "NRAK-", "new-relic-key", UpperAlnum, 27, 27),
    provider("new-relic-insert-key", "NRII-", "new-relic-key", Key, 32, 32),
    provider("new-relic-browser-key", "NRJS-", "new-relic-key", Hex, 19, 19),
    provider("postman-key", "PMAK-", "postman-key", Key, 59, 59),
    provider("linear-key", "lin_api_", "linear-key", Alnum, 40, 40),
    provider("figma-token", "figd_", "figma-token", Key, 40, MAX),
    provider("prefect-key", "pnu_", "prefect-key", Alnum, 36, 36),
    provider("readme-key", "rdme_", "readme-key", Alnum, 70, 70),
    provider("notion-token", "ntn_", "notion-token", Alnum, 46, 46),
    provider("onepassword-service-account", "ops_eyJ", "1password-token", Base64, 250, MAX),
    provider("onepassword-secret-key", "A3-", "1password-secret-key", UpperDash, 36, 37),
    provider("hubspot-private-app-na", "pat-na1-", "hubspot-token", Key, 36, 36),
    provider("hubspot-private-app-eu", "pat-eu1-", "hubspot-token", Key, 36, 36),
    provider("dropbox-short-lived-token", "sl.", "dropbox-token", KeyDotPad, 130, MAX),
    provider("typeform-token", "tfp_", "typeform-token", KeyDotPad, 59, 59),
    provider("frameio-token", "fio-u-", "frameio-token", KeyPad, 64, 64),
    provider("infracost-key", "ico-", "infracost-key", Alnum, 32, 32),
    provider("scalingo-token", "tk-us-", "scalingo-token", Key, 48, 48),
    provider("easypost-key", "EZAK", "easypost-key", Alnum, 54, 54),
    provider("easypost-test-key", "EZTK", "easypost-key", Alnum, 54, 54),
    provider("adobe-client-secret", "p8e-", "adobe-secret", Alnum, 32, 32),
    // Payments and commerce.
    provider("stripe-secret-key", "sk_live_", "stripe-key", Alnum, 20, 247),
    provider("stripe-test-key", "sk_test_", "stripe-key", Alnum, 20, 247),
    provider("stripe-restricted-key", "rk_live_", "stripe-key", Alnum, 20, 247),
    provider("stripe-restricted-test-key", "rk_test_", "stripe-key", Alnum, 20, 247),
    provider("stripe-prod-key", "sk_prod_", "stripe-key", Alnum, 20, 247),
    provider("stripe-restricted-prod-key", "rk_prod_", "stripe-key", Alnum, 20, 247),
    provider("stripe-webhook-secret", "whsec_", "stripe-key", Alnum, 32, 64),
    provider("shopify-access-token", "shpat_", "shopify-token", Hex, 32, 32),
    provider("shopify-custom-app-token", "shpca_", "shopify-token", Hex, 32, 32),
    provider("shopify-private-app-token", "shppa_", "shopify-token", Hex, 32, 32),
    provider("shopify-shared-secret", "shpss_", "shopify-token", Hex, 32, 32),
    provider("square-access-token", "sq0atp-", "square-token", Key, 22, 22),
    provider("square-oauth-secret", "sq0csp-", "square-token", Key, 43, 43),
    provider("square-access-token-eaaa", "EAAA", "square-token", Key, 60, 60),
    provider("facebook-page-token-m", "EAAM", "facebook-token", Alnum, 100, MAX),
    provider("facebook-page-token-c", "EAAC", "facebook-token", Alnum, 100, MAX),
    provider("shippo-token", "shippo_live_", "shippo-token", Hex, 40, 40),
    provider("shippo-test-token", "shippo_test_", "shippo-token", Hex, 40, 40),
    provider("flutterwave-secret", "FLWSECK-", "flutterwave-key", Key, 32, 40),
    provider("flutterwave-test-secret", "FLWSECK_TEST-", "flutterwave-key", Key, 32, 40),
    provider("flutterwave-encryption-key", "FLWSECK_TEST", "flutterwave-key", Alnum, 12, 12),
    provider("duffel-live-token", "duffel_live_", "duffel-token", KeyPad, 43, 43),
    provider("duffel-test-token", "duffel_test_", "duffel-token", KeyPad, 43, 43),
    provider("plaid-production-token", "access-production-", "plaid-token", Key, 36, 36),
    provider("plaid-development-token", "access-development-", "plaid-token", Key, 36, 36),
    provider("plaid-sandbox-token", "access-sandbox-", "plaid-token", Key, 36, 36),
    // Messaging, mail and chat.
    custom("slack-token", "xox", K::SlackToken, super::shapes::slack),
    provider("slack-config-token", "xoxe.xox", "slack-token", Key, 20, MAX),
    provider("slack-refresh-token", "xoxe-", "slack-token", Key, 20, MAX),
    provider("slack-app-token", "xapp-", "slack-token", Key, 20, MAX),
    url("slack-webhook", "hooks.slack.com/", "slack-webhook", 30),
    url("discord-webhook", "discord.com/api/webhooks/", "discord-webhook", 40),
    url("discordapp-webhook", "discordapp.com/api/webhooks/", "discord-webhook", 40),
    url("teams-webhook", "webhook.office.com/webhookb2/", "teams-webhook", 40),
    custom("discord-bot-token", "discord", K::Provider("discord-token"), discord_bot),
    custom("telegram-bot-token", ":AA", K::Provider("telegram-bot-token"), telegram_bot),
    custom("sendgrid-key", "SG.", K::Provider("sendgrid-key"), sendgrid),
    provider("twilio-api-key", "SK", "twilio-key", Hex, 32, 32),
    provider("mailgun-private-key", "key-", "mailgun-key", Hex, 32, 32),
    provider("mailgun-public-key", "pubkey-", "mailgun-key", Hex, 32, 32),
    custom("mailchimp-key", "-us", K::Provider("mailchimp-key"), mailchimp),
    provider("brevo-api-key", "xkeysib-", "brevo-key", Key, 81, 81),
    provider("brevo-smtp-key", "xsmtpsib-", "brevo-key", Key, 81, 81),
    provider("twitter-bearer-token", "AAAAAAAAAAAAAAAAAAAAA", "twitter-token", Base64Pct, 80, MAX),
    provider("mapbox-secret-token", "sk.eyJ", "mapbox-token", KeyDot, 60, MAX),
    provider("mapbox-temporary-token", "tk.eyJ", "mapbox-token", KeyDot, 60, MAX),
    // Keys and token formats.
    custom("jwt", "eyJ", K::Jwt, jwt),
    // The base64 of a JWT (`eyJhbGciOi` encoded again).
    token("jwt-base64", "ZXlKaGJHY2lPaU", K::Jwt, Base64, 40, MAX),
    custom("pem-private-key", "-----BEGIN", K::PrivateKey, pem_begin),
    custom("pem-private-key-end", "-----END", K::PrivateKey, pem_end),
    custom("openssh-key-body", "b3BlbnNzaC1rZXktdjE", K::PrivateKey, pem_anchor),
    custom("rsa-pkcs1-body-2048", "MIIEpAIBAAKCAQEA", K::PrivateKey, pem_anchor),
    custom("rsa-pkcs1-body-2048b", "MIIEowIBAAKCAQEA", K::PrivateKey, pem_anchor),
    custom("rsa-pkcs1-body-4096", "MIIJKAIBAAKCAgEA", K::PrivateKey, pem_anchor),
    custom("rsa-pkcs1-body-4096b", "MIIJKQIBAAKCAgEA", K::PrivateKey, pem_anchor),
    custom("pkcs8-rsa-body-2048", "MIIEvQIBADAN", K::PrivateKey, pem_anchor),
    custom("pkcs8-rsa-body-2048b", "MIIEvgIBADAN", K::PrivateKey, pem_anchor),
    custom("pkcs8-rsa-body-4096", "MIIJQwIBADAN", K::PrivateKey, pem_anchor),
    custom("pkcs8-rsa-body-4096b", "MIIJQgIBADAN", K::PrivateKey, pem_anchor),
    custom("ec-private-key-body", "MHcCAQEEI", K::PrivateKey, pem_anchor),
    custom("pkcs8-ec-body", "MIGHAgEAMBMGByqGSM49", K::PrivateKey, pem_anchor),
    custom("pkcs8-ed25519-body", "MC4CAQAwBQYDK2Vw", K::PrivateKey, pem_anchor),
    provider("age-secret-key", "AGE-SECRET-KEY-1", "age-secret-key", Bech32Upper, 58, 58),
    custom("putty-private-key", "PuTTY-User-Key-File-", K::PrivateKey, putty_key),
    spans("kubernetes-secret", "kind: secret", "kubernetes-secret", kubernetes_secret),
    // Credentials by context: a key name and its value, a bearer token, a URL password.
    custom("url-password", "://", K::Credential, url_password),
    classified("capability-url", "://", K::CapabilityUrl("capability-url"), super::urls::capability_url),
    custom("bearer-token", "bearer", K::Credential, super::assigned::bearer),
    custom("basic-auth", "basic", K::Credential, super::assigned::basic_auth),
    custom("curl-user", "curl", K::Credential, curl_user),
    key_name("token"),
    key_name("secret"),
    key_name("api_key"),
    key_name("api-key"),
    key_name("apikey"),
    key_name("api key"),
    key_name("access_key"),
    key_name("access-key"),
    key_name("accesskey"),
    key_name("access key"),
    key_name("secret_key"),
    key_name("secret-key"),
    key_name("secretkey"),
    key_name("secret key"),
    key_name("auth"),
    key_name("authorization"),
    key_name("credential"),
    key_name("credentials"),
    key_name("creds"),
    key_name("cookie"),
    password_name("password"),
    password_name("passwd"),
    password_name("passphrase"),
    password_name("pwd"),
    password_name("pass"),
    // A password said in prose, in any language (`パスワード Qw7#tR2m!kP9`).
    spoken("password"),
    spoken("passwd"),
    spoken("passphrase"),
    spoken("pass"),
    spoken("pwd"),
    spoken("パスワード"),
    spoken("暗証番号"),
    spoken("비밀번호"),
    spoken("패스워드"),
    spoken("密码"),
    spoken("密碼"),
    spoken("口令"),
    spoken("contraseña"),
    spoken("mot de passe"),
    spoken("passwort"),
    spoken("kennwort"),
    spoken("senha"),
    spoken("пароль"),
    spoken("wachtwoord"),
    spoken("lösenord"),
    spoken("hasło"),
    spoken("heslo"),
    spoken("salasana"),
    spoken("passord"),
    spoken("adgangskode"),
];

impl Rule {
    /// The byte range and kind of the secret this row finds at the pre-filter hit
    /// `start..end`.
    pub(super) fn matches(&self, text: &str, start: usize, end: usize) -> Option<(Range<usize>, SecretKind)> {
        match self.check {
            Check::Custom(f) => f(text, start, end).map(|r| (r, self.kind)),
            Check::Classified(f) => f(text, start, end),
            // Found by [`Rule::each_match`].
            Check::Spans(_) => None,
            Check::Token { body, min, max, part } => {
                self.token_at(text, start, body, min..=max, part).map(|r| (r, self.kind))
            }
        }
    }

    /// Every secret this row finds at the pre-filter hit `start..end`: what
    /// [`Rule::matches`] finds, or each of a [`Check::Spans`] row's.
    pub(super) fn each_match(&self, text: &str, start: usize, end: usize, out: &mut Vec<(Range<usize>, SecretKind)>) {
        match self.check {
            Check::Spans(f) => out.extend(f(text, start, end).into_iter().map(|r| (r, self.kind))),
            _ => out.extend(self.matches(text, start, end)),
        }
    }

    /// A [`Check::Token`]: exact prefix, whole-token body of an allowed length, no placeholder.
    fn token_at(
        &self,
        text: &str,
        start: usize,
        chars: Charset,
        len: std::ops::RangeInclusive<usize>,
        part: Part,
    ) -> Option<Range<usize>> {
        let b = text.as_bytes();
        let body_start = start + self.prefix.len();
        if b.get(start..body_start) != Some(self.prefix.as_bytes()) {
            return None;
        }
        let starts_with_word = self.prefix.bytes().next().is_some_and(is_word);
        if part == Part::Whole && starts_with_word && !boundary_before(b, start, is_word) {
            return None;
        }
        let mut body_end = body_start;
        while b.get(body_end).is_some_and(|&c| chars.has(c)) {
            body_end += 1;
        }
        // A URL path may end a sentence: the final dot is prose.
        while part == Part::Body && body_end > body_start && b.get(body_end - 1) == Some(&b'.') {
            body_end -= 1;
        }
        let body = b.get(body_start..body_end)?;
        let glued = b.get(body_end).is_some_and(|&c| is_word(c));
        if !len.contains(&body.len()) || glued || is_placeholder_body(body) || super::shapes::names_a_placeholder(body)
        {
            return None;
        }
        Some(match part {
            Part::Whole => start..body_end,
            Part::Body => body_start..body_end,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_unique_and_prefixes_non_empty() {
        let mut ids: Vec<&str> = RULES.iter().map(|r| r.id).filter(|id| !id.starts_with("assigned-")).collect();
        let n = ids.len();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), n, "duplicate rule id");
        assert!(RULES.iter().all(|r| !r.prefix.is_empty()));
    }
}
