//! Settings: a key given a value (`DEBUG = False`, `pool_size: 12`, `"strict": true`,
//! `REDIS_URL=redis://cache:6379`, `timeout_secs = 30`). A note that writes a setting the
//! cited lines give another value (`DEBUG = True` where the file read says `DEBUG = False`)
//! has bound the value to the wrong key (see `provenance::assigned`).
//!
//! A key is an identifier a setting has: with `_`, `.` or `-` inside, in ALL CAPS (two
//! letters or more), or camelCase — not a plain word (`Note: this…`, `gate: 80%`). Values are
//! compared without quotes and trailing punctuation, booleans and words case aside.

use std::sync::LazyLock;

use regex::Regex;

/// `key = value`, `key: value`, `key == value`, `"key": value`, `KEY=value`.
static SETTING: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#"(?:^|[^A-Za-z0-9_.\-])["'`]?([A-Za-z_][A-Za-z0-9_.\-]{1,63})["'`]?\s*(==|=|:)\s*["'`]?([^\s,;"'`)\]}。、，；：）」]+)"#)
        .expect("the setting pattern is valid")
});

/// A setting written in a text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setting {
    /// The key, as written.
    pub key: String,
    /// The value, comparable (see [`comparable`]).
    pub value: String,
    /// Where the key starts in the text.
    pub at: usize,
}

/// The settings a text writes (keys that look like a setting's, see the module doc).
pub fn settings(text: &str) -> Vec<Setting> {
    if !text.contains(['=', ':']) {
        return Vec::new();
    }
    SETTING
        .captures_iter(text)
        .filter_map(|c| {
            let key = c.get(1)?;
            let sep = c.get(2)?;
            let colon = sep.as_str() == ":";
            // `key: value` has a space after its colon; `checkout.spec.ts:48` is a place.
            if colon && !text[sep.end()..].starts_with(char::is_whitespace) {
                return None;
            }
            let value = comparable(c.get(3)?.as_str());
            let ok = is_key(key.as_str(), colon) && !value.is_empty() && !value.starts_with("//");
            ok.then(|| Setting { key: key.as_str().to_string(), value, at: key.start() })
        })
        .collect()
}

/// True when a word looks like a setting's key, not a plain word. Before a colon, an
/// ALL-CAPS word is a label of prose (`NOTE:`, `CI:`, `API:`) unless it has `_` in it.
fn is_key(key: &str, colon: bool) -> bool {
    let letters = key.chars().filter(|c| c.is_ascii_alphabetic()).count();
    let inner = key.trim_matches(|c: char| matches!(c, '_' | '.' | '-'));
    let joined = inner.contains(['_', '.', '-']);
    let caps = letters >= 2 && key.chars().all(|c| !c.is_ascii_lowercase()) && !colon;
    let camel =
        key.chars().next().is_some_and(|c| c.is_ascii_lowercase()) && key.chars().any(|c| c.is_ascii_uppercase());
    // A URL's scheme or a host's port is no key (`https://…`, `localhost:5433`).
    let scheme = matches!(key.to_ascii_lowercase().as_str(), "http" | "https" | "localhost");
    letters >= 2 && (joined || caps || camel) && !scheme && !key.contains("..")
}

/// A value as compared: without quotes and trailing punctuation, lowercase.
fn comparable(value: &str) -> String {
    value.trim_matches(|c: char| matches!(c, '"' | '\'' | '`')).trim_end_matches(['.', ',', ';', ':']).to_lowercase()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pairs(text: &str) -> Vec<(String, String)> {
        // (where each starts is checked by the judge's tests)
        settings(text).into_iter().map(|s| (s.key, s.value)).collect()
    }

    #[test]
    fn settings_of_config_files_env_and_notes() {
        let s = |k: &str, v: &str| (k.to_string(), v.to_string());
        assert_eq!(pairs("DEBUG = False"), [s("DEBUG", "false")]);
        assert_eq!(
            pairs("settings/prod.py has DEBUG = True and SECURE_SSL_REDIRECT = True."),
            [s("DEBUG", "true"), s("SECURE_SSL_REDIRECT", "true")]
        );
        assert_eq!(pairs(r#"  "strictNullChecks": true,"#), [s("strictNullChecks", "true")]);
        assert_eq!(pairs("     3→timeout_secs = 30"), [s("timeout_secs", "30")]);
        assert_eq!(pairs("REDIS_URL=redis://cache:6379"), [s("REDIS_URL", "redis://cache:6379")]);
        assert_eq!(pairs("pool_size: 12"), [s("pool_size", "12")]);
        assert!(pairs("fails at e2e/checkout.spec.ts:48 and Cargo.lock:212:1").is_empty());
        assert_eq!(pairs("需设置 AUTO_MIGRATE=1。"), [s("AUTO_MIGRATE", "1")]);
        // Plain words, URLs and hosts are no settings.
        assert!(pairs("Note: this is the gate: 80%").is_empty());
        assert!(pairs("see https://example.com and localhost:5433").is_empty());
        assert!(pairs("Coverage gate: 80% for lib/").is_empty());
        assert!(pairs("CI: GitHub Actions; NOTE: flaky").is_empty());
    }
}
