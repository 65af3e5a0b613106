//! JSON Schema typing of tool parameters: the set of JSON types a parameter's schema
//! admits, following `$ref`, `anyOf`, `oneOf`, `allOf`, `enum`, `const` and `nullable`
//! (docs/dialects.md rule 8).

use serde_json::Value;

/// How deep `$ref`, `anyOf`, `oneOf` and `allOf` are followed: a cyclic or absurdly nested
/// schema constrains nothing past it.
const MAX_DEPTH: u8 = 8;

/// A set of JSON Schema types: `string`, `number`, `integer`, `boolean`, `null`, `object`,
/// `array`. `number` includes `integer`; `integer` admits any number with an integral value
/// (`140.0` included, as JSON Schema does).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct JsonTypes(u8);

impl JsonTypes {
    /// No type: nothing is admitted.
    pub const NONE: JsonTypes = JsonTypes(0);
    /// `string`.
    pub const STRING: JsonTypes = JsonTypes(1);
    /// `integer`: numbers with an integral value.
    pub const INTEGER: JsonTypes = JsonTypes(2);
    /// `number`: every number (includes [`JsonTypes::INTEGER`]).
    pub const NUMBER: JsonTypes = JsonTypes(2 | 4);
    /// `boolean`.
    pub const BOOLEAN: JsonTypes = JsonTypes(8);
    /// `null`.
    pub const NULL: JsonTypes = JsonTypes(16);
    /// `object`.
    pub const OBJECT: JsonTypes = JsonTypes(32);
    /// `array`.
    pub const ARRAY: JsonTypes = JsonTypes(64);
    /// Every type.
    pub const ANY: JsonTypes = JsonTypes(127);

    /// The type named `name` in a schema's `type`; `None` for another word.
    pub fn from_name(name: &str) -> Option<JsonTypes> {
        Some(match name {
            "string" => Self::STRING,
            "integer" => Self::INTEGER,
            "number" => Self::NUMBER,
            "boolean" => Self::BOOLEAN,
            "null" => Self::NULL,
            "object" => Self::OBJECT,
            "array" => Self::ARRAY,
            _ => return None,
        })
    }

    /// The narrowest type of a JSON value (as the assembler parses one, or a schema's
    /// `enum`/`const` entry): an integral number is [`JsonTypes::INTEGER`] (`5`, `140.0`,
    /// `1e3`, `123456789012345678901234567890`: decided on the number's text, exactly), a
    /// fractional one the part of [`JsonTypes::NUMBER`] that `INTEGER` leaves out.
    pub fn of_value(value: &Value) -> JsonTypes {
        match value {
            Value::String(_) => Self::STRING,
            Value::Array(_) => Self::ARRAY,
            Value::Object(_) => Self::OBJECT,
            Value::Null => Self::NULL,
            Value::Bool(_) => Self::BOOLEAN,
            Value::Number(n) if crate::json::is_integral(&n.to_string()) => Self::INTEGER,
            Value::Number(_) => JsonTypes(4),
        }
    }

    /// The types `schema` admits, reading `$ref` (local JSON pointers into `root`, the
    /// tool's parameters schema: `#/$defs/…`, `#/definitions/…`), `type` (a name or a list),
    /// `enum` and `const` (the types of their values, when there is no `type`), `nullable`,
    /// `anyOf`/`oneOf` (the union of the branches) and `allOf` (the intersection).
    /// `None` when nothing constrains the value (`{}`, `true`, a schema of only
    /// `description`, an unresolvable `$ref`).
    pub fn of(schema: &Value, root: &Value) -> Option<JsonTypes> {
        collect(schema, root, 0)
    }

    /// Whether every type of `other` is in `self`.
    pub fn contains(self, other: JsonTypes) -> bool {
        self.0 & other.0 == other.0
    }

    /// Whether some type of `other` is in `self`.
    pub fn intersects(self, other: JsonTypes) -> bool {
        self.0 & other.0 != 0
    }

    /// Whether `value`'s type is admitted.
    pub fn admits(self, value: &Value) -> bool {
        self.contains(Self::of_value(value))
    }

    /// The types in both.
    pub fn intersection(self, other: JsonTypes) -> JsonTypes {
        JsonTypes(self.0 & other.0)
    }

    /// The types in either.
    pub fn union(self, other: JsonTypes) -> JsonTypes {
        JsonTypes(self.0 | other.0)
    }
}

/// Follows `schema`'s `$ref` chain, if any, to the schema it names.
pub(super) fn resolve<'a>(schema: &'a Value, root: &'a Value, depth: u8) -> Option<&'a Value> {
    match schema.get("$ref").and_then(Value::as_str) {
        Some(reference) if depth < MAX_DEPTH => resolve(pointer(root, reference)?, root, depth + 1),
        Some(_) => None,
        None => Some(schema),
    }
}

/// The value at a local reference `#/a/b` (JSON pointer, `~0` and `~1` unescaped) in
/// `root`; only references into the schema itself are followed.
fn pointer<'a>(root: &'a Value, reference: &str) -> Option<&'a Value> {
    let path = reference.strip_prefix('#')?;
    if path.is_empty() {
        return Some(root);
    }
    root.pointer(path)
}

fn collect(schema: &Value, root: &Value, depth: u8) -> Option<JsonTypes> {
    if depth > MAX_DEPTH {
        return None;
    }
    let map = match schema {
        Value::Object(map) => map,
        Value::Bool(false) => return Some(JsonTypes::NONE),
        _ => return None,
    };
    let mut types: Option<JsonTypes> = None;
    let narrow = |types: &mut Option<JsonTypes>, by: Option<JsonTypes>| {
        if let Some(by) = by {
            *types = Some(types.map_or(by, |t| t.intersection(by)));
        }
    };
    if let Some(kind) = map.get("type") {
        let named = match kind {
            Value::String(name) => JsonTypes::from_name(name),
            Value::Array(names) => Some(
                names
                    .iter()
                    .filter_map(|n| n.as_str().and_then(JsonTypes::from_name))
                    .fold(JsonTypes::NONE, JsonTypes::union),
            ),
            _ => None,
        };
        narrow(&mut types, named);
    } else if let Some(Value::Array(values)) = map.get("enum") {
        let of_values = values
            .iter()
            .map(JsonTypes::of_value)
            .fold(JsonTypes::NONE, JsonTypes::union);
        narrow(&mut types, Some(of_values));
    } else if let Some(value) = map.get("const") {
        narrow(&mut types, Some(JsonTypes::of_value(value)));
    }
    if let (Some(t), Some(true)) = (types, map.get("nullable").and_then(Value::as_bool)) {
        types = Some(t.union(JsonTypes::NULL));
    }
    for key in ["anyOf", "oneOf"] {
        if let Some(Value::Array(branches)) = map.get(key) {
            // One unconstrained branch leaves the union unconstrained.
            let union = branches.iter().try_fold(JsonTypes::NONE, |acc, branch| {
                collect(branch, root, depth + 1).map(|t| acc.union(t))
            });
            narrow(&mut types, union);
        }
    }
    if let Some(Value::Array(branches)) = map.get("allOf") {
        for branch in branches {
            narrow(&mut types, collect(branch, root, depth + 1));
        }
    }
    if let Some(reference) = map.get("$ref").and_then(Value::as_str) {
        let target = pointer(root, reference).and_then(|s| collect(s, root, depth + 1));
        narrow(&mut types, target);
    }
    types
}
