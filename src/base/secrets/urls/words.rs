//! The words and hosts that tell what a URL's parts are: credential and share words of a
//! query parameter's name, expiry and token words, share and gist hosts, and how long a
//! random segment must be to count alone.

/// Shortest random path or fragment segment that is a capability with no other sign in
/// its URL (see the module documentation: public ids of this alphabet stop at 22).
pub const URL_TOKEN_MIN_LEN: usize = 24;

/// Last words of a query parameter's name that make its value a credential.
pub(super) const CREDENTIAL_WORDS: &[&str] = &[
    "token",
    "key",
    "secret",
    "auth",
    "credential",
    "credentials",
    "password",
    "passwd",
    "pwd",
    "passcode",
    "passphrase",
    "jwt",
];

/// Stems that make a one-word name a credential with one of [`CREDENTIAL_WORDS`]
/// (`apikey`, `accesstoken`, `clientsecret`, `oauth`).
pub(super) const CREDENTIAL_STEMS: &[&str] = &[
    "api", "access", "auth", "secret", "private", "session", "app", "client", "bearer", "sas", "id", "refresh",
    "security", "master", "signing", "user", "bot", "service", "admin", "o",
];

/// Words before the last that make a credential-like name no grant: pagination cursors,
/// public keys, record keys, anti-forgery tokens.
pub(super) const NOT_A_GRANT: &[&str] = &[
    "page",
    "next",
    "prev",
    "previous",
    "continuation",
    "cursor",
    "sync",
    "resume",
    "public",
    "publishable",
    "site",
    "idempotency",
    "sort",
    "partition",
    "primary",
    "foreign",
    "cache",
    "object",
    "file",
    "event",
    "csrf",
    "xsrf",
];

/// Whole names of parameters that share a resource (`?rlkey=`, Dropbox's link key).
pub(super) const SHARE_PARAMS: &[&str] = &["share", "sharekey", "rlkey", "invite", "invitecode"];

/// Azure SAS fields that ride with its `sig`: service version, expiry, permissions, start,
/// resource.
pub(super) const SAS_FIELDS: &[&str] = &["se", "sv", "sp", "st", "sr"];

/// Last words of an expiry parameter (`X-Amz-Expires`, `exp`, `expiry`).
pub(super) const EXPIRY_WORDS: &[&str] = &["expires", "expiry", "expiration", "expire", "exp", "ttl", "deadline"];

/// Path segments after which opaque segments share something.
pub(super) const SHARE_WORDS: &[&str] = &[
    "s",
    "sh",
    "share",
    "shared",
    "sharing",
    "shares",
    "sharedinvite",
    "invite",
    "invites",
    "invitation",
    "invitations",
    "joinchat",
    "scl",
    "download",
    "downloads",
    "dl",
];

/// Path segments after which opaque segments are bearer tokens (emailed one-time links,
/// keys in a path).
pub(super) const TOKEN_WORDS: &[&str] = &[
    "token",
    "key",
    "apikey",
    "secret",
    "magic",
    "magiclink",
    "reset",
    "resetpassword",
    "passwordreset",
    "verify",
    "verification",
    "confirm",
    "confirmation",
    "activate",
    "activation",
    "unsubscribe",
];

/// Link shorteners of file-sharing services: every path is a share link.
pub(super) const SHARE_HOSTS: &[&str] = &["1drv.ms", "we.tl", "db.tt"];

/// Hosts of GitHub gists, whose hex ids are secret for a secret gist.
pub(super) const GIST_HOSTS: &[&str] = &["gist.github.com", "gist.githubusercontent.com"];
