//! Masking while serializing: [`Masked`] wraps any `Serialize` value so that every string
//! it writes (values and map keys, at any depth) goes through [`super::mask`] on its way
//! to the serializer. Output is streamed: no `serde_json::Value` copy of a large report is
//! built just to mask it (a 50,000-hunk `check --json` held ~600 MiB that way).

use super::masking::Shown;
use serde::ser::{self, Serialize, Serializer};

/// The name under which a settled [`Shown`] text reaches [`Masking`]: written unsearched.
const SETTLED: &str = "$dreamreview::secrets::settled";

/// A masked text is written as its string; inside [`Masked`], a settled one is not searched
/// again (the answer is known: [`super::mask`] returns it unchanged).
impl Serialize for Shown {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        if self.settled() {
            serializer.serialize_newtype_struct(SETTLED, self.as_str())
        } else {
            serializer.serialize_str(self.as_str())
        }
    }
}

/// `T` serialized with every string masked.
pub struct Masked<'a, T: ?Sized>(pub &'a T);

impl<T: Serialize + ?Sized> Serialize for Masked<'_, T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(Masking(serializer))
    }
}

/// A serializer that masks strings and hands everything else to `S`.
struct Masking<S>(S);

/// A compound serializer (sequence, map, struct…) whose elements are masked in turn.
struct Each<C>(C);

macro_rules! forward {
    ($($name:ident($($arg:ident: $ty:ty),*);)*) => {
        $(fn $name(self, $($arg: $ty),*) -> Result<S::Ok, S::Error> { self.0.$name($($arg),*) })*
    };
}

impl<S: Serializer> Serializer for Masking<S> {
    type Ok = S::Ok;
    type Error = S::Error;
    type SerializeSeq = Each<S::SerializeSeq>;
    type SerializeTuple = Each<S::SerializeTuple>;
    type SerializeTupleStruct = Each<S::SerializeTupleStruct>;
    type SerializeTupleVariant = Each<S::SerializeTupleVariant>;
    type SerializeMap = Each<S::SerializeMap>;
    type SerializeStruct = Each<S::SerializeStruct>;
    type SerializeStructVariant = Each<S::SerializeStructVariant>;

    forward! {
        serialize_bool(v: bool);
        serialize_i8(v: i8);
        serialize_i16(v: i16);
        serialize_i32(v: i32);
        serialize_i64(v: i64);
        serialize_i128(v: i128);
        serialize_u8(v: u8);
        serialize_u16(v: u16);
        serialize_u32(v: u32);
        serialize_u64(v: u64);
        serialize_u128(v: u128);
        serialize_f32(v: f32);
        serialize_f64(v: f64);
        serialize_bytes(v: &[u8]);
        serialize_none();
        serialize_unit();
        serialize_unit_struct(name: &'static str);
        serialize_unit_variant(name: &'static str, index: u32, variant: &'static str);
    }

    fn serialize_char(self, v: char) -> Result<S::Ok, S::Error> {
        self.serialize_str(v.encode_utf8(&mut [0; 4]))
    }

    fn serialize_str(self, v: &str) -> Result<S::Ok, S::Error> {
        self.0.serialize_str(&super::masking::mask(v))
    }

    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<S::Ok, S::Error> {
        self.0.serialize_some(&Masked(value))
    }

    fn serialize_newtype_struct<T: Serialize + ?Sized>(self, name: &'static str, value: &T) -> Result<S::Ok, S::Error> {
        if name == SETTLED {
            // A [`Shown`] text with no credential left: masking it would return it as is.
            return value.serialize(self.0);
        }
        self.0.serialize_newtype_struct(name, &Masked(value))
    }

    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<S::Ok, S::Error> {
        self.0.serialize_newtype_variant(name, index, variant, &Masked(value))
    }

    fn serialize_seq(self, len: Option<usize>) -> Result<Self::SerializeSeq, S::Error> {
        self.0.serialize_seq(len).map(Each)
    }

    fn serialize_tuple(self, len: usize) -> Result<Self::SerializeTuple, S::Error> {
        self.0.serialize_tuple(len).map(Each)
    }

    fn serialize_tuple_struct(self, name: &'static str, len: usize) -> Result<Self::SerializeTupleStruct, S::Error> {
        self.0.serialize_tuple_struct(name, len).map(Each)
    }

    fn serialize_tuple_variant(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Self::SerializeTupleVariant, S::Error> {
        self.0.serialize_tuple_variant(name, index, variant, len).map(Each)
    }

    fn serialize_map(self, len: Option<usize>) -> Result<Self::SerializeMap, S::Error> {
        self.0.serialize_map(len).map(Each)
    }

    fn serialize_struct(self, name: &'static str, len: usize) -> Result<Self::SerializeStruct, S::Error> {
        self.0.serialize_struct(name, len).map(Each)
    }

    fn serialize_struct_variant(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Self::SerializeStructVariant, S::Error> {
        self.0.serialize_struct_variant(name, index, variant, len).map(Each)
    }

    fn is_human_readable(&self) -> bool {
        self.0.is_human_readable()
    }
}

macro_rules! each {
    ($trait:ident, $method:ident) => {
        impl<C: ser::$trait> ser::$trait for Each<C> {
            type Ok = C::Ok;
            type Error = C::Error;
            fn $method<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), C::Error> {
                self.0.$method(&Masked(value))
            }
            fn end(self) -> Result<C::Ok, C::Error> {
                self.0.end()
            }
        }
    };
}

each!(SerializeSeq, serialize_element);
each!(SerializeTuple, serialize_element);
each!(SerializeTupleStruct, serialize_field);
each!(SerializeTupleVariant, serialize_field);

impl<C: ser::SerializeMap> ser::SerializeMap for Each<C> {
    type Ok = C::Ok;
    type Error = C::Error;
    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), C::Error> {
        self.0.serialize_key(&Masked(key))
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), C::Error> {
        self.0.serialize_value(&Masked(value))
    }
    fn end(self) -> Result<C::Ok, C::Error> {
        self.0.end()
    }
}

macro_rules! each_field {
    ($trait:ident) => {
        impl<C: ser::$trait> ser::$trait for Each<C> {
            type Ok = C::Ok;
            type Error = C::Error;
            fn serialize_field<T: Serialize + ?Sized>(&mut self, key: &'static str, value: &T) -> Result<(), C::Error> {
                self.0.serialize_field(key, &Masked(value))
            }
            fn skip_field(&mut self, key: &'static str) -> Result<(), C::Error> {
                self.0.skip_field(key)
            }
            fn end(self) -> Result<C::Ok, C::Error> {
                self.0.end()
            }
        }
    };
}

each_field!(SerializeStruct);
each_field!(SerializeStructVariant);

#[cfg(test)]
mod tests {
    use super::Masked;
    use std::collections::BTreeMap;

    const KEY: &str = "sk-ant-api03-Xq7vR2mK9pL4tW8zN3bC6dF1gH5jY0sA-Qe2Rt9Uy4Io7Pa3Sd6Fg8Hj1Kl5Zx0Cv9f3a";

    #[derive(serde::Serialize)]
    struct Inner {
        text: String,
        maybe: Option<String>,
        list: Vec<(u32, String)>,
        by_name: BTreeMap<String, String>,
    }

    #[derive(serde::Serialize)]
    enum Kind {
        Wrapped(String),
        Fields { said: String },
    }

    #[test]
    fn every_string_at_every_depth_is_masked_and_the_rest_is_unchanged() {
        let value = (
            Inner {
                text: format!("token {KEY}"),
                maybe: Some(KEY.to_string()),
                list: vec![(7, KEY.to_string())],
                by_name: [(KEY.to_string(), KEY.to_string())].into(),
            },
            vec![Kind::Wrapped(KEY.to_string()), Kind::Fields { said: KEY.to_string() }],
            'x',
            42u64,
            "plain words",
        );
        let streamed = serde_json::to_string(&Masked(&value)).unwrap();
        assert!(!streamed.contains("Xq7vR2mK9pL4"), "{streamed}");
        let mut tree = serde_json::to_value(&value).unwrap();
        mask_tree(&mut tree);
        let reread: serde_json::Value = serde_json::from_str(&streamed).unwrap();
        assert_eq!(reread, tree, "the same as masking a value tree");
        assert!(streamed.contains("plain words") && streamed.contains("42") && streamed.contains("\"x\""));
    }

    fn mask_tree(v: &mut serde_json::Value) {
        match v {
            serde_json::Value::String(s) => *s = crate::base::secrets::mask(s).into_owned(),
            serde_json::Value::Array(items) => items.iter_mut().for_each(mask_tree),
            serde_json::Value::Object(fields) => {
                let old = std::mem::take(fields);
                for (k, mut v) in old {
                    mask_tree(&mut v);
                    fields.insert(crate::base::secrets::mask(&k).into_owned(), v);
                }
            }
            _ => {}
        }
    }
}
