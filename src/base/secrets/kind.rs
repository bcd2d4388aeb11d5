//! What a credential found in a text is: its kind (shown in its mask) and where it is.

use serde::{Serialize, Serializer};
use std::fmt;

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
