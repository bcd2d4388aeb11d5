//! Credential coverage measured against the public rule lists: a table of provider formats
//! as facts (provider, the label dreamreview masks it under, and the shape as a regular
//! expression: prefix, alphabet, length), each row naming where the shape is documented.
//! For every row, sample values are generated from the shape (proptest's `string_regex`, a
//! fixed seed: no real-looking token is written down here) and `secrets::find` must find
//! each one, written in the row's context, under the row's label, and `secrets::mask` must
//! hide it. Formats left out on purpose are listed in [`SKIPPED`] with the reason.
//!
//! Sources, read for the formats only (no rule text is copied):
//! - **gitleaks** `config/gitleaks.toml` (MIT): every rule whose token has a fixed prefix or
//!   a fixed shape is a row here; the rules that find a generic value only beside the
//!   provider's name are in [`SKIPPED`].
//! - **Kingfisher** `data/rules/*.yml` (Apache-2.0) and vendor documentation, for formats
//!   gitleaks lacks (Bedrock, Tavily, Pinecone, Tailscale, HubSpot private-app tokens,
//!   Azure DevOps PATs, OpenRouter…), as each row says.
//!
//! `cargo test --test suite secrets_coverage -- --nocapture` prints the count covered.

use dreamreview::base::secrets;
use proptest::strategy::{Strategy, ValueTree};
use proptest::string::string_regex;
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};

/// One credential format.
struct Format {
    /// The provider and token, as the public rule lists name it.
    id: &'static str,
    /// The kind dreamreview must mask it under (`[<label> …abcd]`).
    label: &'static str,
    /// The secret's shape. ASCII classes only (`\w` would generate any Unicode letter).
    shape: &'static str,
    /// The text the value is written in (`{}` is the value).
    context: &'static str,
    /// Where the shape is documented.
    source: &'static str,
}

const fn f(id: &'static str, label: &'static str, shape: &'static str, source: &'static str) -> Format {
    Format { id, label, shape, context: "see {} here\n", source }
}

const fn c(
    id: &'static str,
    label: &'static str,
    shape: &'static str,
    context: &'static str,
    source: &'static str,
) -> Format {
    Format { id, label, shape, context, source }
}

const GL: &str = "gitleaks config/gitleaks.toml";
const KF: &str = "Kingfisher data/rules";

/// Every format with a fixed prefix or shape in the sources above.
const FORMATS: &[Format] = &[
    // AI providers.
    f("anthropic-api-key", "anthropic-key", "sk-ant-api03-[A-Za-z0-9_-]{93}AA", GL),
    f("anthropic-admin-api-key", "anthropic-key", "sk-ant-admin01-[A-Za-z0-9_-]{93}AA", GL),
    f("openai-api-key-legacy", "openai-key", "sk-[A-Za-z0-9]{20}T3BlbkFJ[A-Za-z0-9]{20}", GL),
    f("openai-project-key", "openai-key", "sk-(proj|svcacct|admin)-[A-Za-z0-9]{58}T3BlbkFJ[A-Za-z0-9]{58}", GL),
    f("openrouter-api-key", "openrouter-key", "sk-or-v1-[a-f0-9]{64}", "OpenRouter docs; Kingfisher openrouter"),
    f("huggingface-access-token", "huggingface-token", "hf_[A-Za-z]{34}", GL),
    f("huggingface-organization-api-token", "huggingface-token", "api_org_[A-Za-z]{34}", GL),
    f("groq-api-key", "groq-key", "gsk_[A-Za-z0-9]{52}", KF),
    f("perplexity-api-key", "perplexity-key", "pplx-[A-Za-z0-9]{48}", GL),
    f("replicate-api-token", "replicate-token", "r8_[A-Za-z0-9]{37}", KF),
    f("xai-api-key", "xai-key", "xai-[A-Za-z0-9]{80}", KF),
    f("langsmith-api-key", "langsmith-key", "lsv2_(pt|sk)_[a-f0-9]{32}_[a-f0-9]{10}", KF),
    f("tavily-api-key", "tavily-key", "tvly-(dev-|prod-)?[A-Za-z0-9]{32}", "Tavily docs; Kingfisher tavily"),
    f(
        "pinecone-api-key",
        "pinecone-key",
        "pcsk_[A-Za-z0-9]{5,6}_[A-Za-z0-9]{60,70}",
        "Pinecone docs; Kingfisher pinecone",
    ),
    f(
        "aws-bedrock-long-term-key",
        "aws-bedrock-key",
        "ABSKQmVkcm9ja0FQSUtleS[A-Za-z0-9+/]{100,120}={0,2}",
        "AWS Bedrock API keys docs (base64 of `BedrockAPIKey-`); Kingfisher aws",
    ),
    f(
        "aws-bedrock-short-term-key",
        "aws-bedrock-key",
        "bedrock-api-key-[A-Za-z0-9+/]{200,300}={0,2}",
        "AWS Bedrock API keys docs (aws-bedrock-token-generator)",
    ),
    // Cloud providers.
    f("aws-access-token", "aws-access-key", "(AKIA|ASIA|ABIA|ACCA)[A-Z2-7]{16}", GL),
    f("aws-access-token-a3t", "aws-access-key", "A3T[A-Z0-9][A-Z2-7]{16}", GL),
    f("gcp-api-key", "google-api-key", "AIza[A-Za-z0-9_-]{35}", GL),
    f("gcp-oauth-client-secret", "gcp-client-secret", "GOCSPX-[A-Za-z0-9_-]{28}", KF),
    f("gcp-oauth-access-token", "gcp-access-token", "ya29\\.[A-Za-z0-9_-]{60,200}", KF),
    c(
        "gcp-service-account-private-key-id",
        "gcp-private-key-id",
        "[a-f0-9]{40}",
        "\"private_key_id\": \"{}\",\n",
        "Google Cloud service-account key file",
    ),
    f("azure-ad-client-secret", "azure-client-secret", "[a-zA-Z0-9]{3}[0-9]Q~[a-zA-Z0-9_~.-]{31,34}", GL),
    c(
        "azure-storage-account-key",
        "azure-key",
        "[A-Za-z0-9+/]{86}==",
        "DefaultEndpointsProtocol=https;AccountName=acct;AccountKey={};EndpointSuffix=core.windows.net\n",
        "Azure Storage connection strings; Kingfisher azurestorage",
    ),
    c(
        "azure-sas-url",
        "signed-url",
        "[A-Za-z0-9]{42}%3D",
        "https://acct.blob.core.windows.net/c/b.zip?sv=2022-11-02&se=2026-01-01&sr=b&sp=r&sig={}\n",
        "Azure SAS docs",
    ),
    c(
        "azure-sas-token",
        "azure-sas",
        "[A-Za-z0-9]{42}%3D",
        "SharedAccessSignature=sv=2022-11-02&ss=b&srt=sco&sp=rl&se=2026-12-31T00:00:00Z&spr=https&sig={}\n",
        "Azure SAS docs (a SAS token outside a URL)",
    ),
    f(
        "azure-devops-pat",
        "azure-devops-token",
        "[A-Za-z0-9]{52}JQQJ[0-9]{2}[A-Za-z0-9]{18}AZDO[A-Za-z0-9]{4}",
        "Azure DevOps PAT format (84 characters, `AZDO` signature); Kingfisher azuredevops",
    ),
    f("digitalocean-pat", "digitalocean-token", "do[por]_v1_[a-f0-9]{64}", GL),
    f("alibaba-access-key-id", "alibaba-key", "LTAI[A-Za-z0-9]{20}", GL),
    f("heroku-api-key-v2", "heroku-key", "HRKU-AA[0-9a-zA-Z_-]{58}", GL),
    f("flyio-access-token", "flyio-token", "fo1_[A-Za-z0-9_-]{43}", GL),
    f("flyio-macaroon", "flyio-token", "fm(1a|1r|2)_[A-Za-z0-9+/]{100,150}={0,3}", GL),
    f("netlify-pat", "netlify-token", "nfp_[A-Za-z0-9]{36}", KF),
    f("supabase-pat", "supabase-token", "sbp_[a-f0-9]{40}", KF),
    f("supabase-secret-key", "supabase-token", "sb_secret_[A-Za-z0-9_-]{31}", "Supabase API keys docs"),
    f("vault-service-token", "vault-token", "hvs\\.[A-Za-z0-9_-]{90,120}", GL),
    f("vault-batch-token", "vault-token", "hvb\\.[A-Za-z0-9_-]{138,300}", GL),
    f("hashicorp-tf-api-token", "terraform-token", "[A-Za-z0-9]{14}\\.atlasv1\\.[A-Za-z0-9_-]{60,70}", GL),
    f("pulumi-api-token", "pulumi-token", "pul-[a-f0-9]{40}", GL),
    f("databricks-api-token", "databricks-token", "dapi[a-f0-9]{32}(-[0-9])?", GL),
    f("doppler-api-token", "doppler-token", "dp\\.(pt|st|sa|ct|scim|audit)\\.[A-Za-z0-9]{43}", GL),
    f("planetscale-api-token", "planetscale-token", "pscale_(tkn|pw|oauth)_[A-Za-z0-9_=.-]{32,64}", GL),
    f("dynatrace-api-token", "dynatrace-token", "dt0c01\\.[A-Za-z0-9]{24}\\.[A-Za-z0-9]{64}", GL),
    f("cloudflare-origin-ca-key", "cloudflare-origin-ca-key", "v1\\.0-[a-f0-9]{24}-[a-f0-9]{146}", GL),
    f("openshift-user-token", "openshift-token", "sha256~[A-Za-z0-9_-]{43}", GL),
    f(
        "tailscale-key",
        "tailscale-key",
        "tskey-(api|auth|client|webhook|scim)-[A-Za-z0-9]{8,16}-[A-Za-z0-9]{30,40}",
        "Tailscale API keys docs; Kingfisher tailscale",
    ),
    f("clickhouse-cloud-api-secret-key", "clickhouse-key", "4b1d[A-Za-z0-9]{38}", GL),
    f("harness-api-key", "harness-token", "(pat|sat)\\.[A-Za-z0-9_-]{22}\\.[A-Za-z0-9]{24}\\.[A-Za-z0-9]{20}", GL),
    f("defined-networking-api-token", "defined-networking-token", "dnkey-[a-z0-9_-]{26}-[a-z0-9_-]{52}", GL),
    f("settlemint-token", "settlemint-token", "sm_(aat|pat|sat)_[A-Za-z0-9]{16}", GL),
    f("maxmind-license-key", "maxmind-key", "[A-Za-z0-9]{6}_[A-Za-z0-9]{29}_mmk", GL),
    f("intra42-client-secret", "intra42-secret", "s-s4t2(ud|af)-[a-f0-9]{64}", GL),
    // Code hosting, packages and CI.
    f("github-pat", "github-token", "gh[pousr]_[A-Za-z0-9]{36}", GL),
    f("github-fine-grained-pat", "github-token", "github_pat_[A-Za-z0-9_]{82}", GL),
    f("gitlab-pat", "gitlab-token", "glpat-[A-Za-z0-9_-]{20}", GL),
    f("gitlab-pat-routable", "gitlab-token", "glpat-[A-Za-z0-9_-]{27,60}\\.[0-9a-z]{9}", GL),
    f("gitlab-deploy-token", "gitlab-token", "gldt-[A-Za-z0-9_-]{20}", GL),
    f("gitlab-runner-authentication-token", "gitlab-token", "glrt-[A-Za-z0-9_-]{20}", GL),
    f("gitlab-runner-token-routable", "gitlab-token", "glrt-t[0-9]_[A-Za-z0-9_-]{27,60}\\.[0-9a-z]{9}", GL),
    f("gitlab-ptt", "gitlab-token", "glptt-[0-9a-f]{40}", GL),
    f("gitlab-cicd-job-token", "gitlab-token", "glcbt-[0-9a-zA-Z]{1,5}_[0-9a-zA-Z_-]{20}", GL),
    f("gitlab-feed-token", "gitlab-token", "glft-[A-Za-z0-9_-]{20}", GL),
    f("gitlab-feature-flag-client-token", "gitlab-token", "glffct-[A-Za-z0-9_-]{20}", GL),
    f("gitlab-incoming-mail-token", "gitlab-token", "glimt-[A-Za-z0-9_-]{25}", GL),
    f("gitlab-kubernetes-agent-token", "gitlab-token", "glagent-[A-Za-z0-9_-]{50}", GL),
    f("gitlab-oauth-app-secret", "gitlab-token", "gloas-[A-Za-z0-9_-]{64}", GL),
    f("gitlab-scim-token", "gitlab-token", "glsoat-[A-Za-z0-9_-]{20}", GL),
    f("gitlab-rrt", "gitlab-token", "GR1348941[A-Za-z0-9_-]{20}", GL),
    c("gitlab-session-cookie", "gitlab-token", "[0-9a-z]{32}", "Cookie: _gitlab_session={}\n", GL),
    f("npm-access-token", "npm-token", "npm_[A-Za-z0-9]{36}", GL),
    f("pypi-upload-token", "pypi-token", "pypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{50,200}", GL),
    f("rubygems-api-token", "rubygems-key", "rubygems_[a-f0-9]{48}", GL),
    f("clojars-api-token", "clojars-token", "CLOJARS_[a-z0-9]{60}", GL),
    f("packagist-token", "packagist-token", "packagist_(ort|uut)_[a-f0-9]{68}", KF),
    f("docker-hub-pat", "docker-token", "dckr_pat_[A-Za-z0-9_-]{27}", KF),
    f("artifactory-api-key", "jfrog-key", "AKCp[A-Za-z0-9]{69}", GL),
    f("artifactory-reference-token", "jfrog-key", "cmVmdGtu[A-Za-z0-9]{56}", GL),
    f("buildkite-token", "buildkite-token", "bkua_[a-f0-9]{40}", KF),
    f("circleci-pat", "circleci-token", "CCIPAT_[A-Za-z0-9]{22}_[a-f0-9]{40}", KF),
    f("sourcegraph-access-token", "sourcegraph-token", "sgp_([a-f0-9]{16}_|local_)?[a-f0-9]{40}", GL),
    f("octopus-deploy-api-key", "octopus-key", "API-[A-Z0-9]{26}", GL),
    f("atlassian-api-token", "atlassian-token", "ATATT3[A-Za-z0-9_=-]{186}", GL),
    f(
        "sentry-org-token",
        "sentry-token",
        "sntrys_eyJpYXQiO[A-Za-z0-9+/]{10,100}LCJyZWdpb25fdXJs[A-Za-z0-9+/]{10,100}_[A-Za-z0-9+/]{43}",
        GL,
    ),
    f("sentry-user-token", "sentry-token", "sntryu_[a-f0-9]{64}", GL),
    f("grafana-api-key", "grafana-token", "eyJrIjoi[A-Za-z0-9]{70,100}={0,2}", GL),
    f("grafana-cloud-api-token", "grafana-token", "glc_[A-Za-z0-9+/]{32,60}={0,2}", GL),
    f("grafana-service-account-token", "grafana-token", "glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}", GL),
    f("new-relic-user-api-key", "new-relic-key", "NRAK-[A-Z0-9]{27}", GL),
    f("new-relic-insert-key", "new-relic-key", "NRII-[a-z0-9-]{32}", GL),
    f("new-relic-browser-api-token", "new-relic-key", "NRJS-[a-f0-9]{19}", GL),
    f("postman-api-token", "postman-key", "PMAK-[a-f0-9]{24}-[a-f0-9]{34}", GL),
    f("linear-api-key", "linear-key", "lin_api_[A-Za-z0-9]{40}", GL),
    f("figma-pat", "figma-token", "figd_[A-Za-z0-9_-]{40}", KF),
    f("prefect-api-token", "prefect-key", "pnu_[A-Za-z0-9]{36}", GL),
    f("readme-api-token", "readme-key", "rdme_[a-z0-9]{70}", GL),
    f("notion-api-token", "notion-token", "ntn_[0-9]{11}[A-Za-z0-9]{35}", GL),
    f("1password-service-account-token", "1password-token", "ops_eyJ[A-Za-z0-9+/]{250,300}={0,3}", GL),
    f(
        "1password-secret-key",
        "1password-secret-key",
        "A3-[A-Z0-9]{6}-([A-Z0-9]{11}|[A-Z0-9]{6}-[A-Z0-9]{5})-[A-Z0-9]{5}-[A-Z0-9]{5}-[A-Z0-9]{5}",
        GL,
    ),
    f("typeform-api-token", "typeform-token", "tfp_[A-Za-z0-9_.=-]{59}", GL),
    f("frameio-api-token", "frameio-token", "fio-u-[A-Za-z0-9_=-]{64}", GL),
    f("infracost-api-token", "infracost-key", "ico-[A-Za-z0-9]{32}", GL),
    f("scalingo-api-token", "scalingo-token", "tk-us-[A-Za-z0-9_-]{48}", GL),
    f("easypost-api-token", "easypost-key", "EZ(AK|TK)[A-Za-z0-9]{54}", GL),
    f("adobe-client-secret", "adobe-secret", "p8e-[A-Za-z0-9]{32}", GL),
    f(
        "hubspot-private-app-token",
        "hubspot-token",
        "pat-(na|eu)1-[a-f0-9]{8}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{12}",
        KF,
    ),
    f("dropbox-short-lived-api-token", "dropbox-token", "sl\\.[A-Za-z0-9_=-]{135}", GL),
    // Payments and commerce.
    f("stripe-access-token", "stripe-key", "(sk|rk)_(test|live|prod)_[A-Za-z0-9]{24,99}", GL),
    f("stripe-webhook-secret", "stripe-key", "whsec_[A-Za-z0-9]{32}", KF),
    f("shopify-token", "shopify-token", "shp(at|ca|pa|ss)_[a-fA-F0-9]{32}", GL),
    f("square-access-token", "square-token", "(sq0atp-[A-Za-z0-9_-]{22}|EAAA[A-Za-z0-9_-]{60})", GL),
    f("square-oauth-secret", "square-token", "sq0csp-[A-Za-z0-9_-]{43}", KF),
    f("shippo-api-token", "shippo-token", "shippo_(live|test)_[a-fA-F0-9]{40}", GL),
    f("flutterwave-secret-key", "flutterwave-key", "FLWSECK_TEST-[a-h0-9]{32}-X", GL),
    f("flutterwave-encryption-key", "flutterwave-key", "FLWSECK_TEST[a-h0-9]{12}", GL),
    f("duffel-api-token", "duffel-token", "duffel_(test|live)_[A-Za-z0-9_=-]{43}", GL),
    f(
        "plaid-access-token",
        "plaid-token",
        "access-(sandbox|development|production)-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}",
        GL,
    ),
    f("facebook-page-access-token", "facebook-token", "EAA[MC][A-Za-z0-9]{100,140}", GL),
    // Messaging, mail and chat.
    f("slack-bot-token", "slack-token", "xoxb-[0-9]{10,13}-[0-9]{10,13}-[A-Za-z0-9]{24}", GL),
    f("slack-legacy-bot-token", "slack-token", "xoxb-[0-9]{8,14}-[A-Za-z0-9]{18,26}", GL),
    f("slack-user-token", "slack-token", "xox[pe](-[0-9]{10,13}){3}-[a-zA-Z0-9]{28,34}", GL),
    f("slack-legacy-token", "slack-token", "xox[os]-[0-9]{6,12}-[0-9]{6,12}-[0-9]{6,12}-[a-f0-9]{20,40}", GL),
    f("slack-legacy-workspace-token", "slack-token", "xox[ar]-([0-9]-)?[0-9a-zA-Z]{20,48}", GL),
    f("slack-app-token", "slack-token", "xapp-[0-9]-[A-Z0-9]{9,11}-[0-9]{10,13}-[a-z0-9]{64}", GL),
    f("slack-config-access-token", "slack-token", "xoxe\\.xox[bp]-[0-9]-[A-Z0-9]{163,166}", GL),
    f("slack-config-refresh-token", "slack-token", "xoxe-[0-9]-[A-Z0-9]{146}", GL),
    c(
        "slack-webhook-url",
        "slack-webhook",
        "(services|workflows|triggers)/T[A-Z0-9]{8,10}/B[A-Z0-9]{8,10}/[A-Za-z0-9]{24}",
        "post to https://hooks.slack.com/{}\n",
        GL,
    ),
    c(
        "discord-webhook-url",
        "discord-webhook",
        "[0-9]{17,19}/[A-Za-z0-9_-]{68}",
        "https://discord.com/api/webhooks/{}\n",
        "Discord webhook docs",
    ),
    c(
        "microsoft-teams-webhook",
        "teams-webhook",
        "[a-f0-9]{8}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{12}@[a-f0-9]{8}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{12}/IncomingWebhook/[a-f0-9]{32}/[a-f0-9]{8}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{12}",
        "https://acme.webhook.office.com/webhookb2/{}\n",
        GL,
    ),
    c(
        "discord-bot-token",
        "discord-token",
        "M[A-Za-z][A-Za-z0-9_-]{22,24}\\.[A-Za-z0-9_-]{6}\\.[A-Za-z0-9_-]{27,38}",
        "DISCORD_BOT={}\n",
        "Discord developer docs; Kingfisher discord",
    ),
    f("telegram-bot-api-token", "telegram-bot-token", "[1-9][0-9]{7,9}:AA[A-Za-z0-9_-]{33}", GL),
    f("sendgrid-api-token", "sendgrid-key", "SG\\.[A-Za-z0-9_-]{22}\\.[A-Za-z0-9_-]{43}", GL),
    f("twilio-api-key", "twilio-key", "SK[0-9a-fA-F]{32}", GL),
    f("mailgun-private-api-token", "mailgun-key", "(key|pubkey)-[a-f0-9]{32}", GL),
    f("mailchimp-api-key", "mailchimp-key", "[a-f0-9]{32}-us[0-9]{1,2}", GL),
    f("sendinblue-api-token", "brevo-key", "xkeysib-[a-f0-9]{64}-[A-Za-z0-9]{16}", GL),
    f("brevo-smtp-key", "brevo-key", "xsmtpsib-[a-f0-9]{64}-[A-Za-z0-9]{16}", "Brevo SMTP keys; Kingfisher brevo"),
    f("twitter-bearer-token", "twitter-token", "A{22}[A-Za-z0-9%]{80,100}", GL),
    f(
        "mapbox-secret-token",
        "mapbox-token",
        "(sk|tk)\\.eyJ[A-Za-z0-9_-]{50,80}\\.[A-Za-z0-9_-]{22}",
        "Mapbox access token docs",
    ),
    // Keys and token formats.
    f("jwt", "jwt", "eyJ[A-Za-z0-9_-]{17,40}\\.eyJ[A-Za-z0-9_-]{17,100}\\.[A-Za-z0-9_-]{20,60}", GL),
    f("jwt-base64", "jwt", "ZXlKaGJHY2lPaU[A-Za-z0-9+/]{60,120}={0,2}", GL),
    f(
        "private-key",
        "private-key",
        "-----BEGIN (RSA |EC |DSA |OPENSSH |ENCRYPTED )?PRIVATE KEY-----\n([A-Za-z0-9+/]{64}\n){3,8}[A-Za-z0-9+/]{8,60}={0,2}\n-----END (RSA |EC |DSA |OPENSSH |ENCRYPTED )?PRIVATE KEY-----",
        GL,
    ),
    c(
        "putty-private-key",
        "private-key",
        "([A-Za-z0-9+/]{64}\n){2,6}[A-Za-z0-9+/]{8,60}={0,2}",
        "PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nComment: deploy\nPublic-Lines: 2\nAAAAC3NzaC1lZDI1NTE5AAAAIHt0c3QgcHVibGljIGtleQ\nAAAA\nPrivate-Lines: 3\n{}\nPrivate-MAC: 0b1d\n",
        GL,
    ),
    f("age-secret-key", "age-secret-key", "AGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}", GL),
    c(
        "kubernetes-secret-yaml",
        "kubernetes-secret",
        "[A-Za-z0-9+/]{12,60}={0,2}",
        "apiVersion: v1\nkind: Secret\nmetadata:\n  name: db\ntype: Opaque\ndata:\n  password: {}\n",
        GL,
    ),
    c(
        "kubernetes-secret-yaml-data-first",
        "kubernetes-secret",
        "[A-Za-z0-9+/]{12,60}={0,2}",
        "apiVersion: v1\ndata:\n  api-token: \"{}\"\nkind: Secret\nmetadata:\n  name: api\n",
        GL,
    ),
    c(
        "kubernetes-secret-string-data",
        "kubernetes-secret",
        "[A-Za-z0-9]{6,30}",
        "kind: Secret\nstringData:\n  username: admin\n  pass: {}\n",
        "Kubernetes Secret docs (`stringData`)",
    ),
    // Credentials by context.
    c("curl-auth-user", "credential", "[A-Za-z0-9]{6,20}", "curl -u deploy:{} https://api.internal/v1\n", GL),
    c(
        "curl-auth-user-long",
        "credential",
        "[A-Za-z0-9]{6,20}",
        "curl -s --user 'deploy:{}' https://api.internal\n",
        GL,
    ),
    c(
        "curl-auth-header",
        "credential",
        "[A-Za-z0-9]{32,40}",
        "curl -H \"Authorization: Bearer {}\" https://api.internal\n",
        GL,
    ),
    c("curl-api-key-header", "credential", "[A-Za-z0-9]{32,40}", "curl -H 'X-Api-Key: {}' https://api.internal\n", GL),
    c("url-password", "credential", "[A-Za-z0-9]{8,20}", "postgres://app:{}@db.internal:5432/app\n", GL),
    c(
        "sidekiq-sensitive-url",
        "credential",
        "[a-f0-9]{8}",
        "source \"https://0a1b2c3d:{}@gems.contribsys.com/\"\n",
        GL,
    ),
    c("generic-key-token", "credential", "[A-Za-z0-9]{24,40}", "API_TOKEN={}\n", GL),
    c("generic-key-secret", "credential", "[A-Za-z0-9]{24,40}", "client_secret: {}\n", GL),
    c("generic-key-api-key", "credential", "[A-Za-z0-9]{24,40}", "\"apiKey\": \"{}\"\n", GL),
    c("generic-key-access-key", "credential", "[A-Za-z0-9]{24,40}", "ACCESS_KEY={}\n", GL),
    c("generic-key-auth", "credential", "[A-Za-z0-9]{24,40}", "auth: {}\n", GL),
    c("generic-key-auth-token", "credential", "[A-Za-z0-9]{24,40}", "SERVICE_AUTH={}\n", GL),
    c("generic-key-credential", "credential", "[A-Za-z0-9]{24,40}", "credential = \"{}\"\n", GL),
    c("generic-key-credentials", "credential", "[A-Za-z0-9]{24,40}", "DB_CREDENTIALS={}\n", GL),
    c("generic-key-creds", "credential", "[A-Za-z0-9]{24,40}", "creds: {}\n", GL),
    c("generic-key-cookie", "credential", "[A-Za-z0-9]{24,40}", "Cookie: sessionid={}\n", "HTTP Cookie header"),
    c("generic-key-set-cookie", "credential", "[A-Za-z0-9]{24,40}", "cookie=\"{}\"\n", "HTTP Cookie header"),
    c("generic-key-password", "credential", "[A-Za-z0-9]{6,20}", "DB_PASSWORD={}\n", GL),
    c("hashicorp-tf-password", "credential", "[A-Za-z0-9]{8,20}", "  administrator_login_password = \"{}\"\n", GL),
    c("bearer-token", "credential", "[A-Za-z0-9]{32,40}", "Authorization: Bearer {}\n", "RFC 6750"),
];

/// The formats of the sources left out, with the reason.
const SKIPPED: &[(&str, &str)] = &[
    (
        "adafruit, adobe-client-id, airtable, algolia, alibaba-secret-key, asana (2), beamer, bitbucket (2), \
         bittrex (2), cisco-meraki, cloudflare-api-key, cloudflare-global-api-key, codecov, cohere, coinbase, \
         confluent (2), contentful, datadog, discord-api-token, discord-client-id, discord-client-secret, droneci, \
         dropbox-api-token, dropbox-long-lived-api-token, etsy, facebook-secret, fastly, finicity (2), finnhub, \
         flickr, freshbooks, gitter, gocardless, heroku-api-key (UUID), hubspot-api-key (UUID), intercom, jfrog (2), \
         kraken, kucoin (2), launchdarkly, linear-client-secret, linkedin (2), lob (2), mailgun-signing-key, \
         mattermost, messagebird (2), netlify-access-token, new-relic-user-api-id, nytimes, okta, plaid-client-id, \
         plaid-secret-key, privateai, rapidapi, sendbird (2), sentry-access-token, sidekiq-secret, snyk, sonar, \
         squarespace, sumologic (2), telegram (keyword form), travisci, twitch, twitter (4), yandex (3), zendesk",
        "no fixed prefix or shape: a value of a generic alphabet (hex, base62, a UUID) that the lists find only \
         beside the provider's name. dreamreview masks such a value as `credential` when it is assigned to a \
         credential-like key name (`DATADOG_API_KEY=…`, `okta_token: …`), not under the provider's label",
    ),
    ("generic-api-key", "the key-name rule itself: the `generic-key-*` rows above"),
    ("pkcs12-file", "a rule on binary file names; notes are text"),
    (
        "vault-service-token legacy `s.` + 24",
        "`s.` + 24 letters and digits is too common a shape (paths, minified names)",
    ),
    ("sourcegraph bare 40 hex, azure-devops legacy 52 base32", "the shape of a git SHA or a random id: no prefix"),
    ("facebook-access-token `<15 digits>|<token>`", "no literal to anchor on; found as `credential` after a key name"),
    ("authress-service-client-access-key", "its prefixes (`sc_`, `ext_`) are common identifiers"),
    ("freemius-secret-key", "PHP `'secret_key' => 'sk_…'`: `=>` is also an arrow function; not a key assignment"),
    ("nuget-config-password", "an XML attribute (`<add key=\"ClearTextPassword\" value=…>`), config files only"),
    ("mapbox public `pk.eyJ`, flutterwave-public-key, stripe `pk_`, lob-pub", "public by design: not secrets"),
    ("AWS AGPA/AIDA/AROA/AIPA/ANPA/ANVA ids (Kingfisher)", "identifiers of IAM principals, not credentials"),
    ("DeepSeek `sk-` + 32 hex (Kingfisher)", "indistinguishable from an OpenAI key: masked as `openai-key`"),
];

/// Samples generated per format.
const SAMPLES: usize = 24;

/// The samples of `shape`, from a fixed seed.
fn samples(shape: &str) -> Vec<String> {
    let strategy = string_regex(shape).unwrap_or_else(|e| panic!("{shape}: {e}"));
    let rng = TestRng::deterministic_rng(RngAlgorithm::ChaCha);
    let mut runner = TestRunner::new_with_rng(Config::default(), rng);
    (0..SAMPLES).map(|_| strategy.new_tree(&mut runner).expect("sample").current()).collect()
}

/// What is wrong with how `value`, written in `context`, is found and masked.
fn fault(format: &Format, value: &str) -> Option<String> {
    let text = format.context.replacen("{}", value, 1);
    let start = format.context.find("{}").expect("{} in context");
    let end = start + value.len();
    let found = secrets::find(&text);
    let covering = found.iter().find(|s| s.start <= start && s.end >= end);
    match covering {
        None => {
            let partial: Vec<String> = found
                .iter()
                .filter(|s| s.start < end && s.end > start)
                .map(|s| format!("{} {}..{}", s.kind.name(), s.start - start.min(s.start), s.end))
                .collect();
            return Some(format!(
                "not found{}",
                if partial.is_empty() { String::new() } else { format!(" whole (partly: {})", partial.join(", ")) }
            ));
        }
        Some(s) if s.kind.name() != format.label => return Some(format!("masked as `{}`", s.kind.name())),
        Some(_) => {}
    }
    let masked = secrets::mask(&text);
    let tail = value.get(value.len().saturating_sub(16)..).unwrap_or(value);
    (value.len() >= 16 && masked.contains(tail)).then(|| format!("mask shows it: {masked}"))
}

#[test]
fn secrets_coverage_every_listed_format_is_masked_under_its_providers_label() {
    let mut faults = Vec::new();
    let mut covered = 0;
    for format in FORMATS {
        assert!(!format.source.is_empty());
        let first = samples(format.shape).into_iter().find_map(|v| fault(format, &v).map(|why| (v, why)));
        match first {
            None => covered += 1,
            Some((value, why)) => {
                faults.push(format!("{} ({}): {why}\n    sample: {value:?}", format.id, format.label))
            }
        }
    }
    let skipped: usize = SKIPPED.iter().map(|(names, _)| names.split(", ").count()).sum();
    println!(
        "credential coverage: {covered} of {} formats masked under their label ({} failing); {skipped} formats skipped on purpose",
        FORMATS.len(),
        faults.len()
    );
    assert!(faults.is_empty(), "{} formats not covered:\n{}", faults.len(), faults.join("\n"));
}

#[test]
fn secrets_coverage_table_ids_are_unique() {
    let mut ids: Vec<&str> = FORMATS.iter().map(|f| f.id).collect();
    ids.sort_unstable();
    let n = ids.len();
    ids.dedup();
    assert_eq!(ids.len(), n);
}

/// The masker runs on prose notes too: the words, identifiers and hashes next to the new
/// shapes are not credentials.
#[test]
fn secrets_coverage_prose_identifiers_and_hashes_are_not_masked() {
    let clean = [
        "The auth flow uses OAuth 2; see authentication.md. author: Jane Doe",
        "auth: true\nauth: required\nauth=basic\nauth: none\nSERVICE_AUTH=${SERVICE_AUTH}",
        "credentials are kept in the vault; creds: see 1Password; credential: the deploy key",
        "credentials: ~/.aws/credentials\nDB_CREDENTIALS=prod-db-credentials-2026",
        "cookie consent banner, cookie: session cookie\nCookie: theme=dark; lang=en",
        "authToken, getCredentials(), cookieJar, auth_provider_x509_cert_url, credentials.json",
        "Authorization: Basic realm=\"api\" was rejected",
        "commit 3f786850e387550fdab836ed7e6dc881de23001b and 4b1d0e7c2a41d3e9b8f7a6c5d4e3f2a1b0c9d8e7",
        "sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
        "id 550e8400-e29b-41d4-a716-446655440000, pat-na1- is HubSpot's prefix, so is pat-eu1-",
        "sha256~ is OpenShift's token prefix; v1.0-beta shipped; A3-paper prints; tvly- and pcsk_ keys",
        "the xkeysib- and sk.eyJ prefixes, ABSK keys, tskey-auth- keys, dnkey- tokens, sm_pat_ tokens",
        "kind: Secret\nmetadata:\n  name: db\ntype: Opaque\n",
        "kind: SecretStore\ndata:\n  region: eu-west-1\n  provider: QWxhZGRpbjpvcGVuIHNlc2FtZQ==\n",
        "kind: Secret\ndata:\n  password: \"{{ .Values.password }}\"\n  token: ${TOKEN}\n  empty: \"\"\n",
        "curl -u admin https://api.internal\ncurl -u $USER:$TOKEN https://x\ncurl -u user:password https://x",
        "curl --user \"${API_USER}:${API_PASS}\" https://x\ncurl -u \"$(cat user):$(cat pw)\" https://x",
        "curl -sS https://example.com -o out.json -u",
        "PuTTY-User-Key-File-3 is the first line of a .ppk file; Private-Lines: counts its key lines",
        "the query had sig= and sv= parameters; sig=short&sv=2022",
        "Pat. No. 5,123,456; sat. 10:00; sl. 3 of the deck; EAAA is not a word",
        "npm integrity sha512-z4PhNX7vuL3xVChQ1m2AB9Yg5AULVxXcg/SpIdNs6c5H0NE8XYXysP+DGNKHfuwvY7kxvUR",
        "A full-width rule: ════════════ and an emoji ⚠️ and 漢字のメモ",
    ];
    for text in clean {
        let found: Vec<String> =
            secrets::find(text).iter().map(|s| format!("{} {:?}", s.kind.name(), &text[s.start..s.end])).collect();
        assert!(found.is_empty(), "{text:?}: {found:?}");
    }
}

/// `Authorization: Basic <base64 of user:password>` (gitleaks `curl-auth-header`'s Basic
/// form): generated pairs, encoded, are masked as `credential`, alone and in a curl header.
#[test]
fn secrets_coverage_basic_auth_values_are_masked() {
    use base64::Engine;
    for pair in samples("[a-z]{3,10}:[A-Za-z0-9]{8,20}") {
        let value = base64::engine::general_purpose::STANDARD.encode(&pair);
        for context in ["Authorization: Basic {}\n", "curl -H \"Authorization: Basic {}\" https://api.internal\n"] {
            let format = Format { id: "basic-auth", label: "credential", shape: "", context, source: GL };
            assert_eq!(fault(&format, &value), None, "{context} {value}");
        }
    }
}

/// The reason most of [`SKIPPED`] gives, checked: a keyword format's value (its gitleaks
/// alphabet and length) assigned to the provider's usual credential-named variable is
/// masked, as `credential`.
#[test]
fn secrets_coverage_keyword_formats_are_masked_as_credential_after_a_key_name() {
    let rows: &[(&str, &str, &str)] = &[
        ("datadog-access-token", "[a-z0-9]{40}", "DATADOG_API_KEY={}\n"),
        ("algolia-api-key", "[a-z0-9]{32}", "ALGOLIA_API_KEY: {}\n"),
        ("okta-access-token", "00[A-Za-z0-9_-]{40}", "OKTA_API_TOKEN=\"{}\"\n"),
        ("cloudflare-api-key", "[a-z0-9_-]{40}", "cloudflare_api_token = \"{}\"\n"),
        ("heroku-api-key", "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", "HEROKU_API_KEY={}\n"),
        ("twitter-api-secret", "[a-z0-9]{50}", "TWITTER_API_SECRET={}\n"),
        ("bitbucket-client-secret", "[a-z0-9_-]{64}", "bitbucket_client_secret: {}\n"),
        ("contentful-delivery-api-token", "[a-z0-9_-]{43}", "CONTENTFUL_ACCESS_TOKEN={}\n"),
        ("sumologic-access-token", "[a-z0-9]{64}", "SUMO_ACCESS_KEY={}\n"),
        // proptest picks among a class's ranges evenly, so `[a-z0-9_-]` is half `_` and `-`:
        // one 32-character sample has no run mixing letters and digits, which is no random
        // token (and is left alone by design). Its letters and digits only, here.
        ("discord-client-secret", "[a-z0-9]{32}", "DISCORD_CLIENT_SECRET={}\n"),
    ];
    let mut faults = Vec::new();
    for &(id, shape, context) in rows {
        let format = Format { id, label: "credential", shape, context, source: GL };
        if let Some((v, why)) = samples(shape).into_iter().find_map(|v| fault(&format, &v).map(|w| (v, w))) {
            faults.push(format!("{id}: {why} ({v})"));
        }
    }
    assert!(faults.is_empty(), "{faults:#?}");
}

/// Fragments of the shapes the new validators read (their anchors, separators, a line
/// break inside a manifest or key file), in any order: `find` and `mask` never panic, every
/// range is on char boundaries, and masking reaches a fixed point.
mod fragments {
    use dreamreview::base::secrets;
    use proptest::prelude::*;

    const POOL: &[&str] = &[
        "kind: Secret\n",
        "kind: secret",
        "data:\n",
        "stringData:\n",
        "  a: QUJDREVGR0hJSktM\n",
        "  b: |\n",
        "    bGluZTE=\n",
        "\n---\n",
        "PuTTY-User-Key-File-3: ssh-rsa\n",
        "Private-Lines: 2\n",
        "Private-Lines: 99999999999999999999\n",
        "QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVo=\n",
        "curl ",
        " -u ",
        " --user=",
        "deploy:Zk29xQ8wL3mN7vB2",
        "'",
        "\\\n",
        "sig=",
        "sv=2022&",
        "%3D",
        "JQQJ",
        "AZDO",
        "_mmk",
        "AccountKey=",
        "é",
        "漢",
        " ",
        "\n",
    ];

    proptest! {
        #![proptest_config(ProptestConfig { cases: 512, rng_seed: proptest::test_runner::RngSeed::Fixed(7), ..ProptestConfig::default() })]

        #[test]
        fn secrets_coverage_new_validators_never_panic(parts in proptest::collection::vec(0..POOL.len(), 0..24)) {
            let text: String = parts.iter().map(|&p| POOL[p]).collect();
            for s in secrets::find(&text) {
                prop_assert!(s.start < s.end && s.end <= text.len());
                prop_assert!(text.is_char_boundary(s.start) && text.is_char_boundary(s.end));
            }
            let once = secrets::mask(&text).into_owned();
            prop_assert_eq!(secrets::mask(&once), once.clone());
        }
    }
}
