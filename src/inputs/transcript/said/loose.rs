//! A JSON value borrowed from the line it was parsed from: the part of a transcript line
//! [`super::said_text`] reads, built without copying strings that need no unescaping and
//! without the map allocations of `serde_json::Value`.
//!
//! It reads the same way `Value` does, so that the said text is the same byte for byte:
//! an object's duplicate key means its last value, and an object's values are visited in
//! key order (`Value`'s map is sorted by key).

use std::borrow::Cow;
use std::fmt;

use serde::Deserialize;
use serde::de::{self, Deserializer, MapAccess, SeqAccess, Visitor};

use super::noise::strip_noise;
use crate::inputs::transcript::text::strip_escapes;

/// A parsed JSON value; numbers, booleans and null are kept only as "not text".
#[derive(Debug, PartialEq)]
pub(crate) enum Loose<'a> {
    /// Null, a boolean or a number: says nothing.
    Other,
    /// A string (borrowed when the line held it without escapes).
    Str(Cow<'a, str>),
    /// An array.
    Arr(Vec<Loose<'a>>),
    /// An object's entries in line order, duplicates included.
    Obj(Vec<(Cow<'a, str>, Loose<'a>)>),
}

impl<'a> Loose<'a> {
    /// The string, when this is one.
    pub(crate) fn as_str(&self) -> Option<&str> {
        match self {
            Loose::Str(s) => Some(s),
            _ => None,
        }
    }

    /// `self[key]` when this is an object holding `key` (its last value).
    pub(crate) fn get(&self, key: &str) -> Option<&Loose<'a>> {
        match self {
            Loose::Obj(entries) => entries.iter().rev().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    /// `self[key]` as a string, when it is one.
    pub(crate) fn get_str(&self, key: &str) -> Option<&str> {
        self.get(key)?.as_str()
    }

    /// An object's entries as `Value` would iterate them: sorted by key, one per key (its
    /// last value). `None` when this is not an object.
    pub(crate) fn entries(&self) -> Option<Vec<(&str, &Loose<'a>)>> {
        let Loose::Obj(entries) = self else { return None };
        let mut out: Vec<(&str, &Loose<'a>)> = entries.iter().map(|(k, v)| (k.as_ref(), v)).collect();
        // Stable: equal keys stay in line order, so the last of each run is the value.
        out.sort_by(|a, b| a.0.cmp(b.0));
        let mut deduped: Vec<(&str, &Loose<'a>)> = Vec::with_capacity(out.len());
        for e in out {
            match deduped.last_mut() {
                Some(last) if last.0 == e.0 => *last = e,
                _ => deduped.push(e),
            }
        }
        Some(deduped)
    }
}

/// A key or string that borrows from the input when it can.
struct Text<'a>(Cow<'a, str>);

impl<'de: 'a, 'a> Deserialize<'de> for Text<'a> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Text<'de>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a string")
            }
            fn visit_borrowed_str<E: de::Error>(self, s: &'de str) -> Result<Text<'de>, E> {
                Ok(Text(Cow::Borrowed(s)))
            }
            fn visit_str<E: de::Error>(self, s: &str) -> Result<Text<'de>, E> {
                Ok(Text(Cow::Owned(s.to_owned())))
            }
            fn visit_string<E: de::Error>(self, s: String) -> Result<Text<'de>, E> {
                Ok(Text(Cow::Owned(s)))
            }
        }
        d.deserialize_str(V)
    }
}

impl<'de: 'a, 'a> Deserialize<'de> for Loose<'a> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(LooseVisitor)
    }
}

struct LooseVisitor;

impl<'de> Visitor<'de> for LooseVisitor {
    type Value = Loose<'de>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_bool<E: de::Error>(self, _: bool) -> Result<Loose<'de>, E> {
        Ok(Loose::Other)
    }
    fn visit_i64<E: de::Error>(self, _: i64) -> Result<Loose<'de>, E> {
        Ok(Loose::Other)
    }
    fn visit_u64<E: de::Error>(self, _: u64) -> Result<Loose<'de>, E> {
        Ok(Loose::Other)
    }
    fn visit_f64<E: de::Error>(self, _: f64) -> Result<Loose<'de>, E> {
        Ok(Loose::Other)
    }
    fn visit_unit<E: de::Error>(self) -> Result<Loose<'de>, E> {
        Ok(Loose::Other)
    }
    fn visit_none<E: de::Error>(self) -> Result<Loose<'de>, E> {
        Ok(Loose::Other)
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Loose<'de>, D::Error> {
        Loose::deserialize(d)
    }
    fn visit_borrowed_str<E: de::Error>(self, s: &'de str) -> Result<Loose<'de>, E> {
        Ok(Loose::Str(Cow::Borrowed(s)))
    }
    fn visit_str<E: de::Error>(self, s: &str) -> Result<Loose<'de>, E> {
        Ok(Loose::Str(Cow::Owned(s.to_owned())))
    }
    fn visit_string<E: de::Error>(self, s: String) -> Result<Loose<'de>, E> {
        Ok(Loose::Str(Cow::Owned(s)))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Loose<'de>, A::Error> {
        let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(64));
        while let Some(v) = seq.next_element::<Loose<'de>>()? {
            items.push(v);
        }
        Ok(Loose::Arr(items))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Loose<'de>, A::Error> {
        let mut entries = Vec::with_capacity(map.size_hint().unwrap_or(0).min(64));
        while let Some((k, v)) = map.next_entry::<Text<'de>, Loose<'de>>()? {
            entries.push((k.0, v));
        }
        Ok(Loose::Obj(entries))
    }
}

/// Appends every string value inside `v` (recursively, not keys) to `out`, one part per
/// string, skipping the values of `skip_keys` at any depth; objects in key order.
pub(crate) fn push_strings(v: &Loose<'_>, skip_keys: &[&str], out: &mut String) {
    // Iterative, so that adversarial nesting cannot overflow the stack.
    let mut stack: Vec<&Loose<'_>> = vec![v];
    while let Some(v) = stack.pop() {
        match v {
            Loose::Str(s) => push_part(out, s),
            Loose::Arr(items) => stack.extend(items.iter().rev()),
            Loose::Obj(_) => {
                let entries = v.entries().unwrap_or_default();
                stack.extend(entries.into_iter().rev().filter(|(k, _)| !skip_keys.contains(k)).map(|(_, v)| v));
            }
            Loose::Other => {}
        }
    }
}

/// Appends `s` to `out` as a new part (parts are separated by a newline), without its
/// terminal escape sequences and what tools add to text ([`super::noise`]); blank parts
/// are left out.
pub(crate) fn push_part(out: &mut String, s: &str) {
    let s = strip_escapes(s);
    let s = strip_noise(&s);
    if s.trim().is_empty() {
        return;
    }
    if !out.is_empty() {
        out.push('\n');
    }
    out.push_str(&s);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(s: &str) -> Loose<'_> {
        serde_json::from_str(s).unwrap()
    }

    #[test]
    fn borrows_plain_strings_and_unescapes_others() {
        let v = parse(r#"{"a":"plain","b":"two\nlines","c":[1,null,true,"x"]}"#);
        assert!(matches!(v.get("a"), Some(Loose::Str(Cow::Borrowed("plain")))));
        assert_eq!(v.get_str("b"), Some("two\nlines"));
        assert!(matches!(v.get("b"), Some(Loose::Str(Cow::Owned(_)))));
        assert_eq!(v.get("c"), Some(&Loose::Arr(vec![Loose::Other, Loose::Other, Loose::Other, parse(r#""x""#)])));
        assert_eq!(v.get("zz"), None);
    }

    #[test]
    fn reads_like_value_sorted_keys_last_duplicate() {
        let v = parse(r#"{"b":"1","a":"2","b":"3","id":"x","c":{"z":"4","y":"5"}}"#);
        assert_eq!(v.get_str("b"), Some("3"));
        let mut out = String::new();
        push_strings(&v, &["id"], &mut out);
        assert_eq!(out, "2\n3\n5\n4");
    }
}
