//! Capability URLs: a URL that grants access to whoever holds it, because its path, query
//! or fragment carries an unguessable token. Copied from tool output into a note it is a
//! leaked credential like any key. One row of the rule table (`capability-url`, on the
//! pre-filter's `://` hit, as `url-password`) reads each `http(s)`/`ws(s)` URL once, to
//! its end, and returns the span from its first secret part to its last with the kind of
//! the strongest part: `signed-url` > `webhook-url` > `share-link` > `capability-url` >
//! `credential`. The scheme, host and the rest of the path stay readable:
//! `https://bucket.s3.amazonaws.com/a.tar.gz?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=[signed-url …9c1e]`.
//!
//! # What is a secret part
//!
//! - **A query parameter named as a credential**, judged by its name's last word (names
//!   split at `-`, `_`, `.` and camelCase: `X-Amz-Security-Token` → `x`, `amz`, `security`,
//!   `token`): `token`, `key`, `secret`, `auth`, `credential(s)`, `password`, `passwd`,
//!   `pwd`, `passcode`, `passphrase`, `jwt`, and those words after a credential stem in
//!   one word (`apikey`, `accesstoken`, `authkey`, `clientsecret`, `oauth`). Not when a
//!   qualifier says it is no grant: `page`/`next`/`continuation`/`cursor`/`sync`
//!   (pagination tokens), `public`/`publishable`/`site` (public keys), `idempotency`,
//!   `sort`, `partition`, `cache`, `object`, `file` (record keys), `csrf`/`xsrf`. Kind
//!   `credential`, as the same `token=…` is outside a URL. Its value must look like a
//!   credential ([`is_credential_value`]: 12 characters or more, digits and letters mixed,
//!   not a placeholder such as `<your-token>`, `${TOKEN}`, `xxx`, `{token}`, `%s`).
//! - **A signature** (`signed-url`): a parameter whose last word is `signature`
//!   (`X-Amz-Signature`, `X-Goog-Signature`, CloudFront's `Signature`, Laravel's
//!   `signature`); `sig` and `hmac` only beside an expiry (`se`, `sv`, `sp`, `st`, `sr` of
//!   an Azure SAS, or a name ending in `expires`/`expiry`/`exp`/`ttl`/`deadline`): a bare
//!   `sig` also guards public resources against tampering (Google Books, ad redirects,
//!   image CDNs) and grants nothing. A signed URL's credential parameters
//!   (`X-Amz-Credential`, `X-Amz-Security-Token`) are masked with it.
//! - **A share key** (`share-link`): `share`, `rlkey` (Dropbox), `invite` parameters with a
//!   random value; an OAuth redirect's `code` when a `state` rides with it (kind
//!   `credential`: the code is exchanged for a token).
//! - **A webhook** (`webhook-url`): on a host whose first label is `hook(s)`/`webhook(s)`
//!   (`hooks.zapier.com`, `hook.eu1.make.com`) every path is an endpoint: the whole path is
//!   masked when it holds token material (a run of 6 digits, or 6 characters mixing digits
//!   and letters or cases). After a path segment `hook(s)`/`webhook…` (`/api/webhooks/`,
//!   n8n's `/webhook/<uuid>`), the opaque segments that follow (below). Slack, Discord and
//!   Teams webhooks keep their provider rows (`slack-webhook`), which win over this kind.
//! - **A share link** (`share-link`): the opaque segments after a share word in the path
//!   (`s`, `sh`, `share(d)`, `sharing`, `shared_invite`, `invite(s)`, `invitation(s)`,
//!   `joinchat`, `scl` (Dropbox), `download(s)`, `dl`); every opaque segment of a URL whose
//!   query says it was copied from a share dialog (`usp=sharing`, `usp=drive_link`, Google
//!   Drive and Docs); a secret gist's 20 or 32 hex id (`gist.github.com`, which cannot tell a
//!   secret gist from a public one: both are masked); any path on a file-sharing service's
//!   link shortener (`1drv.ms`, `we.tl`, `db.tt`).
//! - **A token word** (`capability-url`): the opaque segments after `token`, `key`,
//!   `apikey`, `secret`, `magic`/`magic-link`, `reset`, `reset-password`, `verify`,
//!   `verification`, `confirm`, `confirmation`, `activate`, `activation`, `unsubscribe`
//!   (emailed one-time links, IFTTT's `/with/key/<key>`).
//! - **A random path or fragment segment** (`capability-url`), with no other sign: a run of
//!   `[A-Za-z0-9_-]` of [`URL_TOKEN_MIN_LEN`] characters or more that mixes upper case,
//!   lower case and digits, changes character class at least once every 2.5 characters
//!   (random text does every ~1.6; `AbstractFactoryBean2` every ~4), has at most one `-`
//!   or `_` in 8 characters and mixes cases in its longest part between them (not a
//!   slug: `Mantle-Specification-21c261aa…`), has no `prefix_` of lower-case letters (a
//!   prefixed record id: Stripe's `pi_3N…`, `cus_…`), and is no placeholder or
//!   sequence (`AbCdEf…`, `a1b2c3…`). A fragment holding `=` is read as parameters instead
//!   (`#access_token=…` by name; an unnamed `#state=…` is not judged).
//!
//! An *opaque* segment (after a context word) is looser, since the word already says what
//! follows: a UUID, a hex run of 8 or more with a digit and a letter, a run of 8 or more
//! letters and digits mixing both with a class change every ~3 characters
//! (`bf5z2jw1pg07c9n`, not `resnet18`) or of 12 or more mixing both, or a random segment
//! as above.
//!
//! # What is not, and why
//!
//! - **Ids in ordinary app routes**, UUIDs included (`https://linear.app/acme/issue/ENG-123`,
//!   `https://app.example.com/projects/3f1c9a52-…/settings`): an id names a record the
//!   application still authorises the reader for; it is what a reader needs to find the
//!   record again, and flagging it would mask most links a note keeps. A UUID v4 has 122
//!   random bits, but that only makes it unguessable, not a grant: the same UUID after a
//!   share word (`/share/<uuid>`, ChatGPT's and n8n's links) is one, and is flagged there.
//!   Public ids of a token-like alphabet cluster at 20 to 22 characters (Firestore 20,
//!   nanoid 21, Spotify and Figma 22): the random-segment floor of 24 leaves them alone,
//!   at the cost of tokens of 128 bits or less that appear with no other sign in their URL.
//!   Ids longer than that are masked: a Google Docs id (44 characters) is, with or without
//!   `usp=sharing`, as nothing in a URL says whether the document is shared by link.
//! - Hex runs (git SHAs in GitHub commit, blob and tree URLs, digests, Notion's page ids),
//!   lower-case-only ids (Supabase project refs, cuids), slugs (`docs/how-to-…-2024`),
//!   numbers (issues, PRs), short ids (YouTube's `watch?v=`), and query values under other
//!   names (`?page=2&sort=asc`, `?q=…`, `?v=`, `?list=`, `?si=`, `?fbclid=`): a query value is
//!   judged by its name only.
//! - Loopback URLs (`localhost`, `*.localhost`, `127.*`, `[::1]`, `0.0.0.0`, `*.local`):
//!   their random path segments are build artefacts and dev routes (hashed bundles, HMR
//!   ids), not grants; only their credential parameters count (Jupyter's `?token=`).
//! - Placeholders: `<…>`, `{…}`, `${…}`, `%s`, `...`, `xxxx`, `YOUR_…`, `EXAMPLE`, one
//!   repeated character, alphabet and counting sequences (`abcdef123456`).
//!
//! Known misses: a URL without a scheme (`drive.google.com/…`), JSON-escaped slashes
//! (`https:\/\/…`), Telegram's `t.me/+<invite>`, tokens shorter than the floor with no sign.
//!
//! The scan stops at the next `://` (a new URL starts there, read on its own hit), so the
//! text is read once however many URLs it holds.

use std::ops::Range;

use super::kind::SecretKind;
use super::assigned::is_credential_value;
use super::shapes::{is_placeholder_body, names_a_placeholder};

/// The presigned or SAS URL's signature and credentials.
const SIGNED_URL: SecretKind = SecretKind::CapabilityUrl("signed-url");
/// A webhook endpoint.
const WEBHOOK_URL: SecretKind = SecretKind::CapabilityUrl("webhook-url");
/// A link that shares a file, folder, chat or workspace with whoever opens it.
const SHARE_LINK: SecretKind = SecretKind::CapabilityUrl("share-link");
/// A random token in a URL's path or fragment.
const CAPABILITY_URL: SecretKind = SecretKind::CapabilityUrl("capability-url");

/// Shortest random path or fragment segment that is a capability with no other sign in
/// its URL (see the module documentation: public ids of this alphabet stop at 22).
pub const URL_TOKEN_MIN_LEN: usize = 24;

/// Last words of a query parameter's name that make its value a credential.
const CREDENTIAL_WORDS: &[&str] = &[
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
const CREDENTIAL_STEMS: &[&str] = &[
    "api", "access", "auth", "secret", "private", "session", "app", "client", "bearer", "sas", "id", "refresh",
    "security", "master", "signing", "user", "bot", "service", "admin", "o",
];

/// Words before the last that make a credential-like name no grant: pagination cursors,
/// public keys, record keys, anti-forgery tokens.
const NOT_A_GRANT: &[&str] = &[
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
const SHARE_PARAMS: &[&str] = &["share", "sharekey", "rlkey", "invite", "invitecode"];

/// Azure SAS fields that ride with its `sig`: service version, expiry, permissions, start,
/// resource.
const SAS_FIELDS: &[&str] = &["se", "sv", "sp", "st", "sr"];

/// Last words of an expiry parameter (`X-Amz-Expires`, `exp`, `expiry`).
const EXPIRY_WORDS: &[&str] = &["expires", "expiry", "expiration", "expire", "exp", "ttl", "deadline"];

/// Path segments after which opaque segments share something.
const SHARE_WORDS: &[&str] = &[
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
const TOKEN_WORDS: &[&str] = &[
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
const SHARE_HOSTS: &[&str] = &["1drv.ms", "we.tl", "db.tt"];

/// Hosts of GitHub gists, whose hex ids are secret for a secret gist.
const GIST_HOSTS: &[&str] = &["gist.github.com", "gist.githubusercontent.com"];

/// The capability URL starting with the scheme that ends at the pre-filter's `://` hit
/// `s..e`: the span from its first secret part to its last, and its kind.
pub(super) fn capability_url(text: &str, s: usize, e: usize) -> Option<(Range<usize>, SecretKind)> {
    let b = text.as_bytes();
    if !http_scheme_before(b, s) {
        return None;
    }
    let url = Url::parse(b, e)?;
    let mut found = Found::default();
    let params: Vec<Param> = url.params(b).collect();
    query_secrets(b, &params, &mut found);
    if !url.is_loopback(b) {
        let shared = params.iter().any(|p| {
            p.class == Class::Other
                && b.get(p.name.clone()).is_some_and(|n| n.eq_ignore_ascii_case(b"usp"))
                && b.get(p.value.clone()).is_some_and(|v| {
                    [&b"sharing"[..], b"drive_link", b"share_link"].iter().any(|w| v.eq_ignore_ascii_case(w))
                })
        });
        path_secrets(b, &url, shared, &mut found);
        if url.fragment.len() >= URL_TOKEN_MIN_LEN && !url.fragment_has_params(b) {
            for piece in pieces(b, url.fragment.clone(), is_token_byte) {
                if random_token(b.get(piece.clone()).unwrap_or_default()) {
                    found.add(piece, CAPABILITY_URL);
                }
            }
        }
    }
    found.finish()
}

/// Length of the last run of token characters of a masked URL part: the part's tail is
/// shown only when that run is long enough to keep it secret (see `replace`).
pub(super) fn last_token_len(value: &str) -> usize {
    value.bytes().rev().take_while(|&c| is_token_byte(c) || matches!(c, b'%' | b'~')).count()
}

/// The secret parts of one URL, gathered into one span.
#[derive(Default)]
struct Found {
    span: Option<Range<usize>>,
    kind: Option<SecretKind>,
}

impl Found {
    fn add(&mut self, r: Range<usize>, kind: SecretKind) {
        if r.is_empty() {
            return;
        }
        self.span = Some(match self.span.take() {
            Some(s) => s.start.min(r.start)..s.end.max(r.end),
            None => r,
        });
        if self.kind.is_none_or(|k| strength(kind) > strength(k)) {
            self.kind = Some(kind);
        }
    }

    fn finish(self) -> Option<(Range<usize>, SecretKind)> {
        Some((self.span?, self.kind?))
    }
}

/// Which kind names a URL whose parts are of several.
fn strength(k: SecretKind) -> u8 {
    match k {
        SIGNED_URL => 4,
        WEBHOOK_URL => 3,
        SHARE_LINK => 2,
        CAPABILITY_URL => 1,
        _ => 0,
    }
}

/// `http://`, `https://`, `ws://` or `wss://` (any case) ends at `s`, as a whole word.
fn http_scheme_before(b: &[u8], s: usize) -> bool {
    [&b"https"[..], b"http", b"wss", b"ws"].iter().any(|scheme| {
        let n = scheme.len();
        s >= n
            && b.get(s - n..s).is_some_and(|w| w.eq_ignore_ascii_case(scheme))
            && (s == n
                || b.get(s - n - 1).is_none_or(|&c| !c.is_ascii_alphanumeric() && !matches!(c, b'+' | b'.' | b'-')))
    })
}

/// A URL's parts, as byte ranges of the text (empty when absent).
struct Url {
    host: Range<usize>,
    path: Range<usize>,
    query: Range<usize>,
    fragment: Range<usize>,
}

impl Url {
    /// The URL whose authority starts at `from` (just after `://`), read in one pass.
    fn parse(b: &[u8], from: usize) -> Option<Url> {
        // The first `/` of the path, `?` of the query and `#` of the fragment.
        let (mut slash, mut question, mut hash) = (None, None, None);
        let mut i = from;
        let mut open = 0usize;
        while let Some(&c) = b.get(i) {
            if !c.is_ascii_graphic() || matches!(c, b'"' | b'\'' | b'<' | b'>' | b'`' | b'\\' | b'^' | b'|') {
                break;
            }
            match c {
                b':' if b.get(i + 1..i + 3) == Some(b"//") => break,
                b'(' => open += 1,
                b')' if open == 0 => break,
                b')' => open -= 1,
                b'/' if slash.is_none() && question.is_none() && hash.is_none() => slash = Some(i),
                b'?' if question.is_none() && hash.is_none() => question = Some(i),
                b'#' if hash.is_none() => hash = Some(i),
                _ => {}
            }
            i += 1;
        }
        // Trailing punctuation is the sentence's.
        while i > from && b.get(i - 1).is_some_and(|c| b".,;:!?*".contains(c)) {
            i -= 1;
        }
        let end = i;
        let within = |p: Option<usize>| p.filter(|&p| p < end);
        let (slash, question, hash) = (within(slash), within(question), within(hash));
        let authority_end = [slash, question, hash].into_iter().flatten().min().unwrap_or(end);
        let authority = b.get(from..authority_end)?;
        let host_start = from + authority.iter().rposition(|&c| c == b'@').map_or(0, |i| i + 1);
        let host = b.get(host_start..authority_end)?;
        let host_len = if host.first() == Some(&b'[') {
            host.iter().position(|&c| c == b']').map_or(host.len(), |i| i + 1)
        } else {
            host.iter().position(|&c| c == b':').unwrap_or(host.len())
        };
        if host_len == 0 {
            return None;
        }
        let path_end = question.or(hash).unwrap_or(end).max(authority_end);
        let query = match question {
            Some(q) => q + 1..hash.unwrap_or(end),
            None => path_end..path_end,
        };
        let fragment = hash.map_or(end..end, |h| h + 1..end);
        Some(Url { host: host_start..host_start + host_len, path: authority_end..path_end, query, fragment })
    }

    fn host<'a>(&self, b: &'a [u8]) -> &'a [u8] {
        b.get(self.host.clone()).unwrap_or_default()
    }

    /// `localhost` and other loopback or link-local names.
    fn is_loopback(&self, b: &[u8]) -> bool {
        let h = self.host(b);
        let ends_with =
            |suffix: &[u8]| h.len() >= suffix.len() && h[h.len() - suffix.len()..].eq_ignore_ascii_case(suffix);
        h.eq_ignore_ascii_case(b"localhost")
            || ends_with(b".localhost")
            || ends_with(b".local")
            || h.starts_with(b"127.")
            || h == b"0.0.0.0"
            || h == b"[::1]"
    }

    /// Whether the host is one of `hosts` (any case).
    fn host_is(&self, b: &[u8], hosts: &[&str]) -> bool {
        hosts.iter().any(|h| h.as_bytes().eq_ignore_ascii_case(self.host(b)))
    }

    /// Whether the fragment is `name=value` pairs (`#access_token=…&state=…`).
    fn fragment_has_params(&self, b: &[u8]) -> bool {
        b.get(self.fragment.clone()).is_some_and(|f| f.contains(&b'='))
    }

    /// The query's parameters, then the fragment's when it holds `=`.
    fn params<'a>(&'a self, b: &'a [u8]) -> impl Iterator<Item = Param> + 'a {
        let fragment = if self.fragment_has_params(b) { self.fragment.clone() } else { 0..0 };
        [self.query.clone(), fragment].into_iter().flat_map(move |r| split(b, r, b'&')).filter_map(move |pair| {
            let p = b.get(pair.clone())?;
            let eq = p.iter().position(|&c| c == b'=')?;
            let name = pair.start..pair.start + eq;
            let value = pair.start + eq + 1..pair.end;
            Some(Param { class: classify(b.get(name.clone())?), name, value })
        })
    }
}

/// The non-empty pieces of `r` between `sep` bytes.
fn split(b: &[u8], r: Range<usize>, sep: u8) -> impl Iterator<Item = Range<usize>> + '_ {
    let mut at = r.start;
    std::iter::from_fn(move || {
        while at < r.end {
            let start = at;
            let end = b.get(start..r.end)?.iter().position(|&c| c == sep).map_or(r.end, |i| start + i);
            at = end + 1;
            if end > start {
                return Some(start..end);
            }
        }
        None
    })
}

/// The maximal runs of bytes satisfying `keep` in `r`.
fn pieces<F: Fn(u8) -> bool>(b: &[u8], r: Range<usize>, keep: F) -> impl Iterator<Item = Range<usize>> + use<'_, F> {
    let mut at = r.start;
    std::iter::from_fn(move || {
        while at < r.end && !b.get(at).is_some_and(|&c| keep(c)) {
            at += 1;
        }
        if at >= r.end {
            return None;
        }
        let start = at;
        while at < r.end && b.get(at).is_some_and(|&c| keep(c)) {
            at += 1;
        }
        Some(start..at)
    })
}

/// A byte of a base64url token.
fn is_token_byte(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'-' || c == b'_'
}

/// One `name=value` of a query or fragment.
struct Param {
    class: Class,
    name: Range<usize>,
    value: Range<usize>,
}

/// What a parameter's name says of its value.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Class {
    /// `X-Amz-Signature`, `Signature`: a signed URL's signature.
    Signature,
    /// `sig`, `hmac`: a signature when an expiry rides with it.
    ShortSignature,
    /// `X-Amz-Expires`, `se`, `sv`…: marks a time-limited signed URL.
    Expiry,
    /// `token`, `api_key`, `X-Amz-Credential`…
    Credential,
    /// `rlkey`, `share`, `invite`.
    Share,
    /// OAuth's `code`, a credential beside `state`.
    Code,
    /// OAuth's `state`.
    State,
    Other,
}

/// The words of a parameter's name, lower case: split at `-`, `_`, `.` and where a lower
/// case letter or digit meets an upper case one (`X-Amz-Security-Token`, `accessToken`).
/// Held on the stack (names are short; a longer one is no credential's): the letters in
/// `text`, and each word's end in `ends`.
struct NameWords {
    text: [u8; 64],
    ends: [u8; 16],
    count: usize,
}

impl NameWords {
    fn of(name: &[u8]) -> Option<NameWords> {
        let mut w = NameWords { text: [0; 64], ends: [0; 16], count: 0 };
        let mut len = 0usize;
        let mut prev: Option<u8> = None;
        let cut = |w: &mut NameWords, len: usize| {
            let start = if w.count == 0 { 0 } else { usize::from(w.ends[w.count - 1]) };
            if len > start && w.count < w.ends.len() {
                w.ends[w.count] = len as u8;
                w.count += 1;
            }
        };
        for &c in name {
            if matches!(c, b'-' | b'_' | b'.') {
                cut(&mut w, len);
            } else {
                if c.is_ascii_uppercase() && prev.is_some_and(|p| p.is_ascii_lowercase() || p.is_ascii_digit()) {
                    cut(&mut w, len);
                }
                *w.text.get_mut(len)? = c.to_ascii_lowercase();
                len += 1;
            }
            prev = Some(c);
        }
        cut(&mut w, len);
        (w.count > 0 && w.count < w.ends.len()).then_some(w)
    }

    /// Word `i` from the end (0: the last).
    fn back(&self, i: usize) -> Option<&[u8]> {
        let k = self.count.checked_sub(i + 1)?;
        let start = if k == 0 { 0 } else { usize::from(self.ends[k - 1]) };
        self.text.get(start..usize::from(self.ends[k]))
    }

    /// The words run together (`X-Amz-Expires` → `xamzexpires`, `rl_key` → `rlkey`).
    fn whole(&self) -> &[u8] {
        self.text.get(..usize::from(self.ends[self.count - 1])).unwrap_or_default()
    }
}

fn one_of(word: &[u8], list: &[&str]) -> bool {
    list.iter().any(|w| w.as_bytes() == word)
}

fn classify(name: &[u8]) -> Class {
    if name.len() > 64 || !name.iter().all(|&c| c.is_ascii_alphanumeric() || matches!(c, b'-' | b'_' | b'.')) {
        return Class::Other;
    }
    let Some(words) = NameWords::of(name) else {
        return Class::Other;
    };
    let (Some(last), whole) = (words.back(0), words.whole()) else {
        return Class::Other;
    };
    if last == b"signature" {
        return Class::Signature;
    }
    if last == b"sig" || last == b"hmac" {
        return Class::ShortSignature;
    }
    if one_of(last, EXPIRY_WORDS) || one_of(whole, SAS_FIELDS) {
        return Class::Expiry;
    }
    if one_of(whole, SHARE_PARAMS) {
        return Class::Share;
    }
    match whole {
        b"code" => return Class::Code,
        b"state" => return Class::State,
        _ => {}
    }
    let credential = one_of(last, CREDENTIAL_WORDS)
        || CREDENTIAL_WORDS
            .iter()
            .any(|w| last.strip_suffix(w.as_bytes()).is_some_and(|stem| one_of(stem, CREDENTIAL_STEMS)));
    if credential && !words.back(1).is_some_and(|q| one_of(q, NOT_A_GRANT)) {
        return Class::Credential;
    }
    Class::Other
}

/// The secret parameters of a query and fragment.
fn query_secrets(b: &[u8], params: &[Param], found: &mut Found) {
    let has = |class: Class| params.iter().any(|p| p.class == class);
    let signed = has(Class::Signature) || (has(Class::ShortSignature) && has(Class::Expiry));
    for p in params {
        let kind = match p.class {
            Class::Signature | Class::ShortSignature if signed => SIGNED_URL,
            Class::Credential if signed => SIGNED_URL,
            Class::Credential => SecretKind::Credential,
            Class::Share => SHARE_LINK,
            Class::Code if has(Class::State) => SecretKind::Credential,
            _ => continue,
        };
        if b.get(p.value.clone()).is_some_and(secret_value) {
            found.add(p.value.clone(), kind);
        }
    }
}

/// A parameter's value that is a credential, not a placeholder or template.
fn secret_value(v: &[u8]) -> bool {
    let template = v.iter().any(|c| b"{}<>[]*".contains(c)) || v.windows(2).any(|w| w == b"%s" || w == b"%d");
    !template && is_credential_value(v) && !sequence(v)
}

/// The secret parts of a URL's path.
fn path_secrets(b: &[u8], url: &Url, shared: bool, found: &mut Found) {
    if url.path.len() < 2 {
        return;
    }
    let first_label = url.host(b).split(|&c| c == b'.').next().unwrap_or_default();
    let segments = || split(b, url.path.clone(), b'/');
    let body = || {
        let mut r = url.path.clone();
        r.start += 1;
        while r.end > r.start && b.get(r.end - 1) == Some(&b'/') {
            r.end -= 1;
        }
        r
    };
    if [&b"hook"[..], b"hooks", b"webhook", b"webhooks"].iter().any(|l| l.eq_ignore_ascii_case(first_label))
        && !segments().any(|s| placeholder_segment(b.get(s).unwrap_or_default()))
        && segments().any(|s| webhook_material(b.get(s).unwrap_or_default()))
    {
        found.add(body(), WEBHOOK_URL);
    }
    if url.host_is(b, SHARE_HOSTS)
        && segments().any(|s| b.get(s).is_some_and(|s| !placeholder_segment(s) && webhook_material(s)))
    {
        found.add(body(), SHARE_LINK);
    }
    if url.host_is(b, GIST_HOSTS) {
        for s in segments() {
            let seg = b.get(s.clone()).unwrap_or_default();
            if matches!(seg.len(), 20 | 32) && seg.iter().all(u8::is_ascii_hexdigit) && !is_placeholder_body(seg) {
                found.add(s, SHARE_LINK);
            }
        }
    }
    let mut context = shared.then_some(SHARE_LINK);
    for s in segments() {
        let seg = b.get(s.clone()).unwrap_or_default();
        if let Some(kind) = marker(seg) {
            context = Some(kind);
            continue;
        }
        if let Some(kind) = context
            && opaque(seg)
        {
            found.add(s, kind);
            continue;
        }
        // A shorter segment cannot hold a random token: most do not, and are not read again.
        if seg.len() < URL_TOKEN_MIN_LEN {
            continue;
        }
        for piece in pieces(b, s, is_token_byte) {
            if random_token(b.get(piece.clone()).unwrap_or_default()) {
                found.add(piece, CAPABILITY_URL);
            }
        }
    }
}

/// The kind of the segments that follow a path segment naming what they are.
fn marker(seg: &[u8]) -> Option<SecretKind> {
    // Every word is 2 to 16 bytes (`s` 1) and starts with a letter: most segments are not one.
    if seg.len() > 16 || !seg.first().is_some_and(u8::is_ascii_alphabetic) {
        return None;
    }
    let mut buf = [0u8; 16];
    let mut len = 0;
    for &c in seg.iter().filter(|c| !matches!(c, b'-' | b'_')) {
        *buf.get_mut(len)? = c.to_ascii_lowercase();
        len += 1;
    }
    match buf.get(..len)? {
        b"hook" | b"hooks" => Some(WEBHOOK_URL),
        w if w.starts_with(b"webhook") => Some(WEBHOOK_URL),
        w if one_of(w, SHARE_WORDS) => Some(SHARE_LINK),
        w if one_of(w, TOKEN_WORDS) => Some(CAPABILITY_URL),
        _ => None,
    }
}

/// A segment that stands for a value in documentation (`...`, `XXX`, `YOUR_ID`, `{id}`,
/// `<token>`, `:id`).
fn placeholder_segment(seg: &[u8]) -> bool {
    seg.iter().any(|c| b"{}<>$:*".contains(c))
        || seg.windows(3).any(|w| w == b"...")
        || names_a_placeholder(seg)
        || seg.windows(3).any(|w| w.eq_ignore_ascii_case(b"xxx"))
}

/// After a context word: a UUID, or a piece with random letters and digits.
fn opaque(seg: &[u8]) -> bool {
    if placeholder_segment(seg) {
        return false;
    }
    if is_uuid(seg) {
        let hex: Vec<u8> = seg.iter().copied().filter(|&c| c != b'-').collect();
        return !is_placeholder_body(&hex) && !sequence(&hex);
    }
    let alnum = |c: u8| c.is_ascii_alphanumeric();
    let r = 0..seg.len();
    pieces(seg, r.clone(), alnum).any(|p| random_piece(seg.get(p).unwrap_or_default()))
        || pieces(seg, r, is_token_byte).any(|p| random_token(seg.get(p).unwrap_or_default()))
}

/// On a webhook host: a run of 6 digits (an account id), or 6 letters and digits mixing
/// classes (`ul50ccv`), that is no placeholder.
fn webhook_material(seg: &[u8]) -> bool {
    let alnum = |c: u8| c.is_ascii_alphanumeric();
    pieces(seg, 0..seg.len(), alnum).any(|p| {
        let p = seg.get(p).unwrap_or_default();
        let digits = p.iter().filter(|c| c.is_ascii_digit()).count();
        let mixed = (digits > 0 && digits < p.len())
            || (p.iter().any(u8::is_ascii_uppercase) && p.iter().any(u8::is_ascii_lowercase));
        p.len() >= 6 && (digits == p.len() || mixed) && !short_placeholder(p)
    })
}

/// One character for half the piece, or a run of 4 or more, or a sequence (`000000`,
/// `123456`, `aaaa42`).
fn short_placeholder(p: &[u8]) -> bool {
    let mut counts = [0usize; 256];
    for &c in p {
        counts[usize::from(c.to_ascii_lowercase())] += 1;
    }
    let max = counts.iter().copied().max().unwrap_or(0);
    let run = p.windows(4).any(|w| w.iter().all(|c| c.eq_ignore_ascii_case(&w[0])));
    max * 2 > p.len() || run || sequence(p)
}

/// `8-4-4-4-12` hex digits.
fn is_uuid(seg: &[u8]) -> bool {
    seg.len() == 36
        && seg
            .iter()
            .enumerate()
            .all(|(i, c)| if matches!(i, 8 | 13 | 18 | 23) { *c == b'-' } else { c.is_ascii_hexdigit() })
}

/// A piece of letters and digits of 8 or more that looks random: hex with a digit and a
/// letter, or both mixed with a class change every ~3 characters, or 12 or more mixing
/// both (`qxdvoxxcexsvn43`: a random lower-case id may hold few digits).
fn random_piece(p: &[u8]) -> bool {
    let hex = p.iter().all(u8::is_ascii_hexdigit);
    let runs = class_runs(p);
    p.len() >= 8
        && p.iter().any(u8::is_ascii_digit)
        && p.iter().any(u8::is_ascii_alphabetic)
        && (hex || runs * 10 >= p.len() * 3 || p.len() >= 12)
        && !is_placeholder_body(p)
        && !sequence(p)
}

/// A random token with no other sign: see the module documentation.
fn random_token(p: &[u8]) -> bool {
    if p.len() < URL_TOKEN_MIN_LEN {
        return false;
    }
    let separators = p.iter().filter(|c| matches!(c, b'-' | b'_')).count();
    let alnum = p.len() - separators;
    let prefixed = p
        .iter()
        .position(|&c| c == b'_')
        .is_some_and(|i| (2..=8).contains(&i) && p.get(..i).is_some_and(|w| w.iter().all(u8::is_ascii_lowercase)));
    separators * 8 <= p.len()
        && !prefixed
        && longest_part_mixes_cases(p)
        && p.iter().any(u8::is_ascii_uppercase)
        && p.iter().any(u8::is_ascii_lowercase)
        && p.iter().any(u8::is_ascii_digit)
        && class_runs(p) * 10 >= alnum * 4
        && !is_placeholder_body(p)
        && !names_a_placeholder(p)
        && !sequence(p)
}

/// The longest part of `p` between `-` and `_` holds both cases: a random token's does,
/// while a slug's random-looking tail is a lower-case id (`Plan-3f1c9a52…`, Notion's
/// `Mantle-Specification-21c261aa…`) whose upper case comes from the words before it.
fn longest_part_mixes_cases(p: &[u8]) -> bool {
    p.split(|&c| matches!(c, b'-' | b'_'))
        .max_by_key(|part| part.len())
        .is_some_and(|part| part.iter().any(u8::is_ascii_uppercase) && part.iter().any(u8::is_ascii_lowercase))
}

/// Runs of one character class (upper case, lower case, digit) among the letters and
/// digits of `p`; `-` and `_` end a run without starting one.
fn class_runs(p: &[u8]) -> usize {
    let class = |c: u8| {
        if c.is_ascii_uppercase() {
            1
        } else if c.is_ascii_lowercase() {
            2
        } else {
            3
        }
    };
    let mut runs = 0;
    let mut prev = 0;
    for &c in p {
        if !c.is_ascii_alphanumeric() {
            prev = 0;
            continue;
        }
        let k = class(c);
        if k != prev {
            runs += 1;
        }
        prev = k;
    }
    runs
}

/// An alphabet or counting sequence, possibly interleaved (`abcdef123456`, `a1b2c3d4`,
/// `AbCdEfGh`): half its characters are followed, one or two places on, by the next one.
fn sequence(p: &[u8]) -> bool {
    let lower: Vec<u8> = p.iter().map(u8::to_ascii_lowercase).filter(u8::is_ascii_alphanumeric).collect();
    if lower.len() < 6 {
        return false;
    }
    let next =
        |i: usize, d: usize| lower.get(i + d).is_some_and(|&c| lower.get(i).is_some_and(|&a| c == a.wrapping_add(1)));
    let stepping = (0..lower.len()).filter(|&i| next(i, 1) || next(i, 2)).count();
    stepping * 2 >= lower.len()
}

#[cfg(test)]
mod tests {
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
        let books = format!(
            "https://books.google.com/books?id=x&pg=PA1&ots=FBSfAPlA_z&sig={}&redir_esc=y",
            g.token(BASE64URL, 27)
        );
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
}
