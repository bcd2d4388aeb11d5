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

mod pieces;
mod tokens;
mod words;

pub use words::URL_TOKEN_MIN_LEN;

use super::assigned::is_credential_value;
use super::kind::SecretKind;
use super::shapes::is_placeholder_body;
use pieces::{is_token_byte, pieces, split};
use tokens::{opaque, placeholder_segment, random_token, sequence, webhook_material};
use words::{
    CREDENTIAL_STEMS, CREDENTIAL_WORDS, EXPIRY_WORDS, GIST_HOSTS, NOT_A_GRANT, SAS_FIELDS, SHARE_HOSTS, SHARE_PARAMS,
    SHARE_WORDS, TOKEN_WORDS,
};

/// The presigned or SAS URL's signature and credentials.
const SIGNED_URL: SecretKind = SecretKind::CapabilityUrl("signed-url");
/// A webhook endpoint.
const WEBHOOK_URL: SecretKind = SecretKind::CapabilityUrl("webhook-url");
/// A link that shares a file, folder, chat or workspace with whoever opens it.
const SHARE_LINK: SecretKind = SecretKind::CapabilityUrl("share-link");
/// A random token in a URL's path or fragment.
const CAPABILITY_URL: SecretKind = SecretKind::CapabilityUrl("capability-url");

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

#[cfg(test)]
mod tests;
