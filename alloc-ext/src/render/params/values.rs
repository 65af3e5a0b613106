//! A value's text in a parameter tag: the raw text or compact JSON the assembler reads back
//! (docs/dialects.md rule 8), and the JSON type word Kimi K3's tags name it by.

use inband::{Piece, ValueKind};
use serde_json::{Map, Value};

use super::super::error::{Reason, RenderError};
use super::super::json::compact;
use crate::params::{Params, Schema};

/// A value's text, the first that the assembler, typing the parameter as `schema` says
/// (docs/dialects.md rule 8), reads back as `value`: a string's raw text, else the value's
/// compact JSON (a string quoted). Refused when neither does: a string a schema without
/// strings would read as another value, a value of a type a string-only schema turns into
/// a string.
pub(super) fn value_text(value: &Value, schema: Schema) -> Result<String, RenderError> {
    let raw = match value {
        Value::String(s) => Some(s.clone()),
        _ => None,
    };
    raw.into_iter()
        .chain([compact(value)])
        .find(|text| reads_back(text, schema, value))
        .ok_or_else(|| RenderError::new(Reason::TypedDifferently))
}

/// Whether the assembler's own typing of a raw-text value (crate::params) turns `text`
/// into `value`.
fn reads_back(text: &str, schema: Schema, value: &Value) -> bool {
    let mut params = Params::default();
    let mut out = Vec::new();
    params.begin(b"v", ValueKind::Untyped, schema, &mut out);
    params.value(Piece::Verbatim, text.as_bytes(), &mut out);
    params.end(&mut out);
    params.close(&mut out);
    // The value's depth was checked (MAX_ARGUMENT_DEPTH), within serde_json's recursion
    // limit, which is the assembler's own.
    let mut reader = serde_json::Deserializer::from_slice(&out);
    serde::Deserialize::deserialize(&mut reader)
        .is_ok_and(|read: Map<String, Value>| read.get("v") == Some(value))
}

/// The JSON type word of a value, as Kimi K3's `type` attribute names it (SGLang's
/// `_JSON_TO_XTML_TYPE`: integers are `number`).
pub(super) fn json_type(value: &Value) -> &'static str {
    match value {
        Value::String(_) => "string",
        Value::Number(_) => "number",
        Value::Bool(_) => "boolean",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
        Value::Null => "null",
    }
}
