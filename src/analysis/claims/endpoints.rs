//! Host and port forms (`localhost:3000`, `127.0.0.1:8080`, `redis:6379`, `[::1]:8443`,
//! `:8443`) and literal numbers in another base (`0x1F40`, `0o755`, `0b1010`): recognising
//! them in a note line and finding them in a source text.
//!
//! A port is one claim however it is written: `port 8443`, `ポート 8443`, `:8443` and
//! `name:8443` all say the port number, the last also its host. The loopback host has
//! several spellings (`localhost`, `127.0.0.1`, `::1`): each states the others.

use std::ops::Range;
use std::sync::LazyLock;

use regex::Regex;

use super::text::{char_at, char_before, is_word_char};
use super::words::EXTENSIONS;

/// A host and port found in a line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct FoundPort {
    /// Byte range of `host:port` (or `:port`).
    pub range: Range<usize>,
    /// The host, normalised (see [`normalise_host`]).
    pub host: Option<String>,
    /// The port's digits.
    pub port: String,
}

static HOST_PORT: LazyLock<Option<Regex>> = LazyLock::new(|| {
    Regex::new(
        r"(?P<host>\[[0-9A-Fa-f:.]+\]|(?:\d{1,3}\.){3}\d{1,3}|[A-Za-z][A-Za-z0-9_-]*(?:\.[A-Za-z0-9][A-Za-z0-9_-]*)*)?:(?P<port>\d{1,5})",
    )
    .ok()
});

/// Spellings of the loopback host, lowercase; [`normalise_host`] maps each to the first.
const LOOPBACK: &[&str] = &["localhost", "127.0.0.1", "::1", "[::1]"];

/// The comparable form of a host: lowercase, every loopback spelling `localhost`.
pub(crate) fn normalise_host(host: &str) -> String {
    let lower = host.to_ascii_lowercase();
    if LOOPBACK.contains(&lower.as_str()) { LOOPBACK[0].to_string() } else { lower }
}

/// Every `host:port` and `:port` in a note line.
pub(crate) fn host_ports(line: &str) -> Vec<FoundPort> {
    find(line, false)
}

/// Every `host:port` and `:port` in `line`; with `in_url`, also the hosts of URLs and
/// e-mail-like forms (`redis://cache:6379`, `git@host:22`), for reading a source text.
fn find(line: &str, in_url: bool) -> Vec<FoundPort> {
    let Some(re) = &*HOST_PORT else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for c in re.captures_iter(line) {
        let (Some(m), Some(p)) = (c.get(0), c.name("port")) else { continue };
        let host = c.name("host").map(|h| h.as_str());
        // Left: a clean break (not inside a URL, an e-mail, a word or a longer token).
        let before = char_before(line, m.start());
        let left_ok = match host {
            Some(_) => before.is_none_or(|b| {
                !is_word_char(b) && !matches!(b, '.' | ':' | '-' | '_' | '\\') && (in_url || !matches!(b, '/' | '@'))
            }),
            None => before.is_none_or(|b| b.is_whitespace() || matches!(b, '(' | '[' | '`' | '"' | '\'' | '=' | ',')),
        };
        // Right: the port ends there (not `31b-cloud`, `12:30:45`, `1:2.5`).
        let after = char_at(line, m.end());
        let after2 = char_at(line, m.end() + 1);
        let glued = after.is_some_and(|a| is_word_char(a) || a == '_');
        let continues = matches!(after, Some('.' | ':' | ',' | '-')) && after2.is_some_and(|a| a.is_ascii_digit());
        let right_ok = !glued && !continues;
        let port = p.as_str();
        let port_ok = !port.starts_with('0') && port.parse::<u32>().is_ok_and(|n| (1..=65535).contains(&n));
        if !(left_ok && right_ok && port_ok) {
            continue;
        }
        let host_ok = port.len() >= 2 && host.is_none_or(plausible_host);
        if host_ok {
            out.push(FoundPort { range: m.range(), host: host.map(normalise_host), port: port.to_string() });
        }
    }
    out
}

/// A host name, IP address or bracketed IPv6 address, not a file name (`main.rs:12` is a
/// line reference) nor a capitalised label (`TTL:30`, `Phase:2`).
fn plausible_host(h: &str) -> bool {
    if h.starts_with('[') {
        return true;
    }
    if h.bytes().all(|b| b.is_ascii_digit() || b == b'.') {
        return h.split('.').all(|o| o.parse::<u8>().is_ok());
    }
    let last = h.rsplit('.').next().unwrap_or("");
    let dotted = h.contains('.');
    let file = dotted && EXTENSIONS.contains(&last.to_ascii_lowercase().as_str());
    let lowercase = h.chars().all(|c| !c.is_ascii_uppercase());
    !file && (dotted || lowercase)
}

/// True when `text` states port `port` of `host`: a `host:port` form (URLs included) with
/// that host; or, when the text binds the port to no host at all (`port 3000`), the host
/// named anywhere in it (`on localhost, port 3000`). `cache:6379` does not state
/// `redis:6379`, even in `redis://cache:6379`.
pub(crate) fn host_port_occurs(host: &str, port: &str, text: &str, lower: &str) -> bool {
    let bound: Vec<FoundPort> = find(text, true).into_iter().filter(|f| f.port == port).collect();
    if bound.iter().any(|f| f.host.as_deref() == Some(host)) {
        return true;
    }
    let to_other = bound.iter().any(|f| f.host.is_some());
    !to_other && super::numbers::number_occurs(port, text) && host_occurs(host, lower)
}

/// True when `lower` (a lowercased text) names the host: as a word, or for the loopback
/// host any of its spellings.
pub(super) fn host_occurs(host: &str, lower: &str) -> bool {
    let spellings: &[&str] = if host == LOOPBACK[0] { LOOPBACK } else { &[host] };
    spellings.iter().any(|s| super::occurs::word_occurs(s, lower))
}

/// The needles of a host: its spellings.
pub(crate) fn host_needles(host: &str) -> Vec<String> {
    if host == LOOPBACK[0] {
        // `[::1]` contains `::1`.
        LOOPBACK.iter().take(3).map(|s| s.to_string()).collect()
    } else {
        vec![host.to_string()]
    }
}

static LITERAL: LazyLock<Option<Regex>> =
    LazyLock::new(|| Regex::new(r"0(?:[xX][0-9A-Fa-f]+|[oO][0-7]+|[bB][01]+)").ok());

/// Literal numbers in another base in `text`: (range, canonical value: lowercase prefix
/// and digits without leading zeros, `0x1F40` → `0x1f40`, `0x0010` → `0x10`).
pub(crate) fn literals(text: &str) -> Vec<(Range<usize>, String)> {
    let Some(re) = &*LITERAL else {
        return Vec::new();
    };
    re.find_iter(text)
        .filter(|m| {
            let before = char_before(text, m.start());
            let after = char_at(text, m.end());
            !before.is_some_and(|b| is_word_char(b) || matches!(b, '.' | '_' | '-'))
                && !after.is_some_and(|a| is_word_char(a) || a == '_' || a == '.')
        })
        .map(|m| (m.range(), canonical_literal(m.as_str())))
        .collect()
}

fn canonical_literal(s: &str) -> String {
    let lower = s.to_ascii_lowercase();
    let (prefix, digits) = lower.split_at(2.min(lower.len()));
    let digits = digits.trim_start_matches('0');
    format!("{prefix}{}", if digits.is_empty() { "0" } else { digits })
}

/// True when `value` is a canonical literal ([`literals`]).
pub(crate) fn is_literal(value: &str) -> bool {
    value.starts_with("0x") || value.starts_with("0o") || value.starts_with("0b")
}

/// The needle of a canonical literal: its digits (every spelling of it contains them).
pub(crate) fn literal_needle(value: &str) -> String {
    value.get(2..).unwrap_or("").to_string()
}

/// True when `text` holds a literal equal to `value` (canonical).
pub(crate) fn literal_occurs(value: &str, text: &str) -> bool {
    literals(text).iter().any(|(_, v)| v == value)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(line: &str) -> Vec<(&str, Option<String>, String)> {
        host_ports(line).into_iter().map(|f| (&line[f.range], f.host, f.port)).collect()
    }

    #[test]
    fn hosts_and_ports() {
        let p = |t, h: Option<&str>, n: &str| (t, h.map(str::to_string), n.to_string());
        assert_eq!(found("serve on localhost:3000 now"), vec![p("localhost:3000", Some("localhost"), "3000")]);
        assert_eq!(found("bind 127.0.0.1:8080."), vec![p("127.0.0.1:8080", Some("localhost"), "8080")]);
        assert_eq!(
            found("redis:6379 and :8443"),
            vec![p("redis:6379", Some("redis"), "6379"), p(":8443", None, "8443")]
        );
        assert_eq!(found("api.example.com:8443"), vec![p("api.example.com:8443", Some("api.example.com"), "8443")]);
        assert_eq!(found("[::1]:5432"), vec![p("[::1]:5432", Some("localhost"), "5432")]);
        for none in [
            "at 09:14 today",
            "ratio 16:9",
            "gemma4:31b-cloud",
            "see src/main.rs:12",
            "main.rs:12",
            "https://x.dev:8443/a",
            "TTL:30",
            "retries:3",
            "12:30:45",
            "port:0",
            "x:99999",
        ] {
            assert_eq!(found(none), vec![], "{none}");
        }
    }

    #[test]
    fn a_port_bound_to_another_host_is_not_the_claim() {
        let says = |h: &str, p: &str, t: &str| host_port_occurs(h, p, t, &t.to_lowercase());
        assert!(says("redis", "6379", "REDIS_URL=redis://redis:6379/0"));
        assert!(!says("redis", "6379", "REDIS_URL=redis://cache:6379/0"));
        assert!(says("localhost", "3000", "Local: http://127.0.0.1:3000/"));
        assert!(says("localhost", "3000", "on localhost, port 3000"));
        assert!(!says("localhost", "3000", "on localhost, port 3001"));
    }

    #[test]
    fn loopback_spellings_state_each_other() {
        assert!(host_occurs("localhost", "listening on 127.0.0.1:3000"));
        assert!(host_occurs("localhost", "curl [::1]:3000"));
        assert!(!host_occurs("localhost", "listening on 10.0.0.1:3000"));
        assert!(host_occurs("redis", "redis-server on redis:6379"));
        assert!(!host_occurs("redis", "predis:6379"));
    }

    #[test]
    fn literal_numbers() {
        let l = |t: &str| literals(t).into_iter().map(|(_, v)| v).collect::<Vec<_>>();
        assert_eq!(l("mask 0x1F40, mode 0o755, flags 0b0101"), ["0x1f40", "0o755", "0b101"]);
        assert_eq!(l("0x0000"), ["0x0"]);
        assert_eq!(l("a0x12 0x12g 0x"), Vec::<String>::new());
        assert!(literal_occurs("0x1f40", "value=0x00001F40"));
        assert!(!literal_occurs("0x1f40", "0x1f41"));
        assert!("value=0x00001f40".contains(&literal_needle("0x1f40")));
    }
}
