//! Parsing one transcript line as a JSON object, tolerating cut lines, plus small helpers
//! for reading loosely-shaped `serde_json::Value`s (every field may be missing or of the
//! wrong type: we never trust the shape).

use serde::de::DeserializeOwned;
use serde_json::Value;

use super::deep::{MAX_DEPTH, flatten_deep};
use super::partial::{close_json, content_start};

/// Parses `bytes` as a JSON object into `T`. Returns the value and whether the line had
/// to be closed first (it was cut: see [`super::partial`]). `None` when the line is not
/// a JSON object, or is too broken to read anything from.
///
/// `T` should accept any object (all fields optional, unknown fields ignored); a typed
/// parse that fails on a legal but odd object (duplicate keys) is retried through
/// `Value`. Bytes that are not UTF-8 (a mangled tool output, a line cut inside a
/// character) read as U+FFFD, so the rest of the line still says what it says. Values
/// nested too deeply for the parser read as `null` ([`super::deep`]).
pub(crate) fn parse_object<T: DeserializeOwned>(bytes: &[u8]) -> Option<(T, bool)> {
    read_object(bytes, &mut parse_exact::<T>)
}

/// Runs `read` on the JSON object `bytes` holds (after whitespace and a BOM), repairing
/// what a transcript line can get wrong, each only once the plain read failed (valid
/// lines pay for nothing): values nested too deeply for the parser read as `null`
/// ([`super::deep`]); bytes that are not UTF-8 read as U+FFFD; a line cut short is
/// closed ([`super::partial`]). Returns `read`'s result and whether the line was cut;
/// `None` when it is not an object or too broken to read. The one way every reader of
/// a line (rendering, said text) gets there.
pub(crate) fn read_object<R>(bytes: &[u8], read: &mut dyn FnMut(&[u8]) -> Option<R>) -> Option<(R, bool)> {
    let body = bytes.get(content_start(bytes)..)?;
    if body.first() != Some(&b'{') {
        return None;
    }
    if let Some(r) = read(body) {
        return Some((r, false));
    }
    if let Some(flat) = flatten_deep(body, MAX_DEPTH) {
        return read_object(&flat, read);
    }
    if std::str::from_utf8(body).is_err() {
        let lossy = String::from_utf8_lossy(body).into_owned();
        return read_object(lossy.as_bytes(), read);
    }
    let fixed = close_json(body)?;
    read(&fixed).map(|r| (r, true))
}

fn parse_exact<T: DeserializeOwned>(body: &[u8]) -> Option<T> {
    match serde_json::from_slice::<T>(body) {
        Ok(v) => Some(v),
        Err(e) if e.is_data() => {
            // Valid JSON the typed view rejected (e.g. a duplicate key): go through Value.
            let v: Value = serde_json::from_slice(body).ok()?;
            if v.is_object() { serde_json::from_value(v).ok() } else { None }
        }
        Err(_) => None,
    }
}

/// `v[key]` when `v` is an object holding `key`.
pub(crate) fn get<'a>(v: &'a Value, key: &str) -> Option<&'a Value> {
    v.as_object()?.get(key)
}

/// `v[key]` as a string, when it is one.
pub(crate) fn get_str<'a>(v: &'a Value, key: &str) -> Option<&'a str> {
    get(v, key)?.as_str()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn parses_whole_and_cut_objects() {
        let (v, cut) = parse_object::<Value>(br#"{"a":"b"}"#).unwrap();
        assert_eq!((v, cut), (json!({"a":"b"}), false));
        let (v, cut) = parse_object::<Value>(br#"{"a":"bc"#).unwrap();
        assert_eq!((v, cut), (json!({"a":"bc"}), true));
        assert!(parse_object::<Value>(b"[1]").is_none());
        assert!(parse_object::<Value>(b"42").is_none());
        assert!(parse_object::<Value>(b"\xff\xfe").is_none());
        // Invalid UTF-8 inside a string is read as U+FFFD, whole or cut.
        let (v, cut) = parse_object::<Value>(b"{\"a\":\"x\xffy\"}").unwrap();
        assert_eq!((v, cut), (json!({"a":"x\u{fffd}y"}), false));
        let (v, cut) = parse_object::<Value>(b"{\"a\":\"port 6379 \xe6\x97").unwrap();
        assert_eq!((v, cut), (json!({"a":"port 6379 \u{fffd}"}), true));
        let (v, _) = parse_object::<Value>(b"\xEF\xBB\xBF{\"a\":1}").unwrap();
        assert_eq!(v, json!({"a":1}));
    }
}
