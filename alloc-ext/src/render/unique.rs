//! A call's arguments read from the caller's JSON without a repeated key.
//!
//! serde_json's `Value` keeps the last value of a repeated key, Python's `json` too, while
//! the decoder keeps the first (README, "Argument rules"): a call given to the renderer as
//! `{"path": "/tmp/safe", "path": "/"}` would be written with `/`, a value the agent that
//! stored the call may not have run. Such arguments are refused instead, naming the key, so
//! what the renderer writes is the one reading every JSON reader agrees on.

use std::fmt;

use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Number, Value};

/// The key under which serde_json (with `arbitrary_precision`) hands a number's text to a
/// visitor, as a map of one entry.
const NUMBER_TOKEN: &str = "$serde_json::private::Number";

/// A JSON value in which no object repeats a key (else deserializing it fails, naming the
/// key); numbers keep their text.
pub(crate) struct Unique(pub(crate) Value);

impl<'de> Deserialize<'de> for Unique {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(UniqueVisitor).map(Unique)
    }
}

struct UniqueVisitor;

impl<'de> Visitor<'de> for UniqueVisitor {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_bool<E: de::Error>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Value, E> {
        Ok(Value::Number(v.into()))
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Value, E> {
        Ok(Value::Number(v.into()))
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Value, E> {
        Number::from_f64(v)
            .map(Value::Number)
            .ok_or_else(|| E::custom("a number that is not finite"))
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.to_owned()))
    }

    fn visit_string<E: de::Error>(self, v: String) -> Result<Value, E> {
        Ok(Value::String(v))
    }

    fn visit_unit<E: de::Error>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_none<E: de::Error>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<Value, D::Error> {
        Unique::deserialize(deserializer).map(|u| u.0)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::new();
        while let Some(Unique(item)) = seq.next_element()? {
            items.push(item);
        }
        Ok(Value::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut access: A) -> Result<Value, A::Error> {
        let mut map = Map::new();
        while let Some(key) = access.next_key::<String>()? {
            if map.is_empty() && key == NUMBER_TOKEN {
                let text: String = access.next_value()?;
                return serde_json::from_str::<Number>(&text)
                    .map(Value::Number)
                    .map_err(de::Error::custom);
            }
            let Unique(value) = access.next_value()?;
            if map.contains_key(&key) {
                return Err(de::Error::custom(format_args!(
                    "the key {key:?} appears twice in an object (JSON readers disagree on \
                     which value counts)"
                )));
            }
            map.insert(key, value);
        }
        Ok(Value::Object(map))
    }
}
