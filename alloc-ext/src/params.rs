//! Arguments JSON text from parameters ([`Sink::tool_param`](inband::Sink::tool_param),
//! its value's pieces, [`Sink::tool_param_end`](inband::Sink::tool_param_end)), raw-text
//! or literal, grown as values arrive so that it can be streamed as it is. The typing
//! (docs/dialects.md rule 8, with the tool's schema when one is given) and duplicate rules are
//! documented with [`crate::assemble`]; literal values are converted by [`crate::literal`].

use inband::{ArgumentsNormalizer, Piece, ValueKind};
use serde_json::Value;

use crate::literal::LiteralValue;
use crate::tools::JsonTypes;

/// Something worth a diagnostic while building the text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ParamIssue {
    /// A key appeared a second time in the call; its value was left out.
    Duplicate,
    /// A value marked as JSON did not parse even after repair; kept as text.
    InvalidJson,
    /// A value whose schema does not admit strings did not parse as JSON even after
    /// repair; kept as text.
    UntypedValue,
    /// A value parsed as JSON of a type its schema does not admit; kept as text.
    TypeMismatch,
    /// A value marked as JSON, typed by its schema, or a literal value, became JSON only
    /// after repair (reported once per call).
    Repaired,
}

impl ParamIssue {
    pub(crate) fn code(self) -> &'static str {
        match self {
            ParamIssue::Duplicate => "duplicate_parameter",
            ParamIssue::InvalidJson => "invalid_json_value",
            ParamIssue::UntypedValue => "invalid_typed_value",
            ParamIssue::TypeMismatch => "schema_type_mismatch",
            ParamIssue::Repaired => "repaired_arguments",
        }
    }

    pub(crate) fn message(self) -> &'static str {
        match self {
            ParamIssue::Duplicate => {
                "a parameter appeared twice in a call; the first value was kept"
            }
            ParamIssue::InvalidJson => {
                "a parameter marked as JSON did not parse; kept as its exact text"
            }
            ParamIssue::UntypedValue => {
                "a parameter whose schema admits no string did not parse as JSON; kept as its exact text"
            }
            ParamIssue::TypeMismatch => {
                "a parameter's value is not of a type its schema admits; kept as its exact text"
            }
            ParamIssue::Repaired => {
                "the arguments were not valid JSON as written and were repaired"
            }
        }
    }
}

/// What the tool's schema says about a raw-text parameter (docs/dialects.md rule 8).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Schema {
    /// No tool, no schema, an unknown parameter, or a schema that constrains nothing.
    None,
    /// The JSON types the parameter's schema admits.
    Types(JsonTypes),
}

/// How the current value becomes JSON text.
#[derive(Debug)]
enum Mode {
    /// Exact text, streamed as a JSON string: DSML `string="true"`, or a string-only schema.
    Text,
    /// DSML `string="false"`: JSON with bounded repair, else the exact text.
    Json,
    /// No schema: strict JSON, else the exact text.
    Untyped,
    /// Typed by a schema that admits more than strings.
    Typed(JsonTypes),
    /// A Gemma or Python literal, converted as pieces arrive.
    Literal(LiteralValue),
}

/// The parameter whose value is arriving.
#[derive(Debug)]
struct Current {
    mode: Mode,
    /// A duplicate key: the value is left out.
    skip: bool,
}

/// One call's parameters so far. Its buffers are reused from parameter to parameter, and
/// from call to call ([`Params::reset`]): no allocation per parameter once they have grown.
#[derive(Debug, Default)]
pub(crate) struct Params {
    /// The keys so far, one after the other; each ends at its entry of `ends`.
    keys: Vec<u8>,
    ends: Vec<usize>,
    current: Option<Current>,
    /// The raw value of a buffered (JSON, untyped or typed) parameter, typed at its end.
    raw: Vec<u8>,
    /// A repair was reported for this call already.
    repaired: bool,
}

impl Params {
    /// Back to a new call's state, its buffers kept; false when they are larger than
    /// `small` bytes (not worth keeping for another call).
    pub(crate) fn reset(&mut self, small: usize) -> bool {
        self.keys.clear();
        self.ends.clear();
        self.raw.clear();
        self.current = None;
        self.repaired = false;
        self.keys.capacity() <= small
            && self.raw.capacity() <= small
            && self.ends.capacity() * std::mem::size_of::<usize>() <= small
    }

    /// Whether `key` was a parameter of this call already.
    fn has_key(&self, key: &[u8]) -> bool {
        let mut start = 0;
        self.ends.iter().any(|&end| {
            let same = self.keys[start..end] == *key;
            start = end;
            same
        })
    }

    /// A parameter begins; appends `{"key":` (or `,"key":`) and, for a value that streams
    /// as text, the opening quote to `out`. `schema` is what the tool's schema says about
    /// the parameter; it matters only to a [`ValueKind::Untyped`] value.
    pub(crate) fn begin(
        &mut self,
        key: &[u8],
        kind: ValueKind,
        schema: Schema,
        out: &mut Vec<u8>,
    ) -> Option<ParamIssue> {
        let mode = match (kind, schema) {
            (ValueKind::Text, _) => Mode::Text,
            (ValueKind::Json, _) => Mode::Json,
            _ if kind.is_literal() => Mode::Literal(LiteralValue::new(kind)),
            (_, Schema::Types(JsonTypes::STRING)) => Mode::Text,
            (_, Schema::Types(types)) => Mode::Typed(types),
            (_, Schema::None) => Mode::Untyped,
        };
        self.raw.clear();
        if self.has_key(key) {
            self.current = Some(Current { mode, skip: true });
            return Some(ParamIssue::Duplicate);
        }
        out.push(if self.ends.is_empty() { b'{' } else { b',' });
        push_string(key, out);
        out.push(b':');
        if matches!(mode, Mode::Text) {
            out.push(b'"');
        }
        self.keys.extend_from_slice(key);
        self.ends.push(self.keys.len());
        self.current = Some(Current { mode, skip: false });
        None
    }

    /// A fragment of the current value. The piece matters only to a literal value: a
    /// raw-text value's fragments are all [`Piece::Verbatim`].
    pub(crate) fn value(&mut self, piece: Piece, bytes: &[u8], out: &mut Vec<u8>) {
        let Some(current) = self.current.as_mut().filter(|current| !current.skip) else {
            return;
        };
        match &mut current.mode {
            Mode::Literal(literal) => literal.value(piece, bytes, out),
            Mode::Text => push_escaped(bytes, out),
            Mode::Json | Mode::Untyped | Mode::Typed(_) => self.raw.extend_from_slice(bytes),
        }
    }

    /// The current value is complete: appends the rest of its JSON text.
    pub(crate) fn end(&mut self, out: &mut Vec<u8>) -> Option<ParamIssue> {
        let issue = self.end_value(out);
        if issue == Some(ParamIssue::Repaired) {
            if self.repaired {
                return None;
            }
            self.repaired = true;
        }
        issue
    }

    fn end_value(&mut self, out: &mut Vec<u8>) -> Option<ParamIssue> {
        let mut current = self.current.take()?;
        if current.skip {
            return None;
        }
        let raw = &self.raw;
        match &mut current.mode {
            Mode::Literal(literal) => {
                literal.end(out);
                literal.repaired().then_some(ParamIssue::Repaired)
            }
            Mode::Text => {
                out.push(b'"');
                None
            }
            Mode::Json => match repaired_json(raw) {
                Some(json) => {
                    out.extend_from_slice(&json.text);
                    json.repaired.then_some(ParamIssue::Repaired)
                }
                None => {
                    push_string(raw, out);
                    Some(ParamIssue::InvalidJson)
                }
            },
            Mode::Untyped => {
                match strict_json(raw) {
                    Some(json) => out.extend_from_slice(json),
                    None => push_string(raw, out),
                }
                None
            }
            Mode::Typed(types) => typed(raw, *types, out),
        }
    }

    /// The stream ended inside the current value (the call is incomplete): appends the
    /// value as far as it was written, adding nothing the model did not write (no closing
    /// quote or bracket, no `""` for an empty value). A string value has streamed already
    /// (`"x`); a value marked as JSON, or typed by a schema that admits no string, is its
    /// text so far without leading whitespace (`[1, 2`); an untyped value, or one whose
    /// schema admits strings among other types, is an unterminated JSON string of its exact
    /// text (`"x`, `"12`: its type needs the whole value); a literal value is converted as
    /// far as [`LiteralValue::cut`] says.
    pub(crate) fn cut(&mut self, out: &mut Vec<u8>) {
        let Some(mut current) = self.current.take().filter(|current| !current.skip) else {
            return;
        };
        let raw = &self.raw;
        match &mut current.mode {
            Mode::Text => {}
            Mode::Literal(literal) => literal.cut(out),
            Mode::Json => out.extend_from_slice(raw.trim_ascii_start()),
            Mode::Typed(types) if !types.contains(JsonTypes::STRING) => {
                out.extend_from_slice(raw.trim_ascii_start());
            }
            Mode::Untyped | Mode::Typed(_) => {
                out.push(b'"');
                push_escaped(raw, out);
            }
        }
    }

    /// The call completed: closes the object.
    pub(crate) fn close(&self, out: &mut Vec<u8>) {
        if self.ends.is_empty() {
            out.extend_from_slice(b"{}");
        } else {
            out.push(b'}');
        }
    }
}

/// Appends the JSON text of `raw`, typed by a schema that admits `types` (not only
/// strings): its JSON value (trimmed, after bounded repair) when its type is admitted;
/// else the exact text as a string, silently when strings are admitted (a union such as
/// `["string", "integer"]`), with a diagnostic when not. In such a union a repair counts
/// only when it gives a value that is not a string (`True` is `true` for `string|boolean`,
/// but `'x'` stays the exact text `'x'`, which the union admits as it is).
fn typed(raw: &[u8], types: JsonTypes, out: &mut Vec<u8>) -> Option<ParamIssue> {
    let strings = types.contains(JsonTypes::STRING);
    let Some(json) = repaired_json(raw) else {
        push_string(raw, out);
        return (!strings).then_some(ParamIssue::UntypedValue);
    };
    let repaired_string = json.repaired && matches!(json.value, Value::String(_));
    if types.admits(&json.value) && !(strings && repaired_string) {
        out.extend_from_slice(&json.text);
        return json.repaired.then_some(ParamIssue::Repaired);
    }
    push_string(raw, out);
    (!strings).then_some(ParamIssue::TypeMismatch)
}

/// `raw` without surrounding whitespace when it is one strict JSON value.
fn strict_json(raw: &[u8]) -> Option<&[u8]> {
    let trimmed = raw.trim_ascii();
    if trimmed.is_empty() || std::str::from_utf8(trimmed).is_err() {
        return None;
    }
    // Checked, not built: nothing allocated for a valid value.
    crate::json::is_value(trimmed).then_some(trimmed)
}

/// One raw value read as JSON.
struct Repaired {
    /// Its JSON text, trimmed.
    text: Vec<u8>,
    /// Its value.
    value: Value,
    /// Whether the text needed repair.
    repaired: bool,
}

/// `raw` as one JSON value after the normaliser's bounded repair (Python literals, single
/// quotes, invalid escapes, trailing commas), trimmed.
fn repaired_json(raw: &[u8]) -> Option<Repaired> {
    let trimmed = raw.trim_ascii();
    if trimmed.is_empty() {
        return None;
    }
    // In brackets the normaliser sees one array element: a value that is itself a string
    // is not taken for double-encoded arguments, and a trailing comma is dropped.
    let mut normalizer = ArgumentsNormalizer::new();
    let mut text = Vec::with_capacity(trimmed.len() + 2);
    for piece in [&b"["[..], trimmed, b"]"] {
        normalizer.feed(piece, &mut |bytes| text.extend_from_slice(bytes));
    }
    normalizer.finish(&mut |bytes| text.extend_from_slice(bytes));
    let parse = String::from_utf8_lossy(&text);
    let value = match crate::json::parse(parse.as_bytes()) {
        Some(Value::Array(mut items)) if items.len() == 1 => items.pop()?,
        _ => return None,
    };
    let text = text.get(1..text.len() - 1)?.trim_ascii().to_vec();
    Some(Repaired {
        text,
        value,
        repaired: normalizer.repaired(),
    })
}

/// Appends `bytes` as a JSON string, quotes included.
pub(crate) fn push_string(bytes: &[u8], out: &mut Vec<u8>) {
    out.push(b'"');
    push_escaped(bytes, out);
    out.push(b'"');
}

/// Appends `bytes` escaped for the inside of a JSON string: quotes, backslashes and
/// control bytes; everything else (UTF-8 included, whole or split) as it is.
pub(crate) fn push_escaped(bytes: &[u8], out: &mut Vec<u8>) {
    crate::stream::escape::push_escaped(bytes, out);
}

#[cfg(test)]
mod tests {
    use super::{ParamIssue, Params, Schema};
    use crate::tools::JsonTypes;
    use inband::{Piece, ValueKind};

    fn build(params: &[(&str, ValueKind, &[&str])]) -> (String, Vec<ParamIssue>) {
        let mut p = Params::default();
        let mut out = Vec::new();
        let mut issues = Vec::new();
        for (key, kind, pieces) in params {
            issues.extend(p.begin(key.as_bytes(), *kind, Schema::None, &mut out));
            for piece in *pieces {
                p.value(Piece::Verbatim, piece.as_bytes(), &mut out);
            }
            issues.extend(p.end(&mut out));
        }
        p.close(&mut out);
        (String::from_utf8(out).unwrap(), issues)
    }

    #[test]
    fn each_kind() {
        use ValueKind::*;
        assert_eq!(build(&[]).0, "{}");
        assert_eq!(
            build(&[
                ("path", Text, &["src/", "a \"b\"\\\n\u{1}"]),
                ("count", Json, &[" 2 "]),
                ("n", Untyped, &["-7"]),
                ("s", Untyped, &["5 apples"]),
                ("q", Untyped, &["\"quoted\""]),
                ("e", Untyped, &[""]),
            ]),
            (
                r#"{"path":"src/a \"b\"\\\n\u0001","count":2,"n":-7,"s":"5 apples","q":"quoted","e":""}"#
                    .into(),
                vec![]
            )
        );
    }

    #[test]
    fn json_values_are_repaired_or_kept_as_text() {
        use ValueKind::*;
        assert_eq!(
            build(&[("a", Json, &["{'x': True,}"])]),
            (r#"{"a":{"x": true}}"#.into(), vec![ParamIssue::Repaired])
        );
        assert_eq!(
            build(&[("a", Json, &["\"str\""])]),
            (r#"{"a":"str"}"#.into(), vec![])
        );
        assert_eq!(
            build(&[
                ("a", Json, &["{oops"]),
                ("b", Json, &["  "]),
                ("c", Json, &["1, 2"])
            ]),
            (
                r#"{"a":"{oops","b":"  ","c":"1, 2"}"#.into(),
                vec![ParamIssue::InvalidJson; 3]
            )
        );
        assert_eq!(build(&[("a", Untyped, &["True"])]).0, r#"{"a":"True"}"#);
    }

    #[test]
    fn first_duplicate_wins() {
        use ValueKind::*;
        assert_eq!(
            build(&[
                ("k", Text, &["one"]),
                ("k", Text, &["two"]),
                ("j", Untyped, &["3"])
            ]),
            (r#"{"k":"one","j":3}"#.into(), vec![ParamIssue::Duplicate])
        );
    }

    /// Literal values go through the same keys, duplicate rule and once-per-call repair
    /// report as raw-text ones.
    #[test]
    fn literal_values_share_the_rules() {
        let mut p = Params::default();
        let mut out = Vec::new();
        let mut issues = Vec::new();
        let params: [(&str, &[(Piece, &str)]); 3] = [
            ("a", &[(Piece::Bare, "foo")]),
            ("a", &[(Piece::Bare, "2")]),
            (
                "b",
                &[(Piece::Punct, "["), (Piece::Bare, "x"), (Piece::Punct, "]")],
            ),
        ];
        for (key, pieces) in params {
            issues.extend(p.begin(key.as_bytes(), ValueKind::Python, Schema::None, &mut out));
            for (piece, text) in pieces {
                p.value(*piece, text.as_bytes(), &mut out);
            }
            issues.extend(p.end(&mut out));
        }
        p.close(&mut out);
        assert_eq!(String::from_utf8(out).unwrap(), r#"{"a":"foo","b":["x"]}"#);
        assert_eq!(issues, [ParamIssue::Repaired, ParamIssue::Duplicate]);
    }

    /// One untyped value typed by a schema admitting `types`: its JSON text and issue.
    fn typed(types: JsonTypes, raw: &str) -> (String, Option<ParamIssue>) {
        let mut p = Params::default();
        let mut out = Vec::new();
        assert_eq!(
            p.begin(b"k", ValueKind::Untyped, Schema::Types(types), &mut out),
            None
        );
        let prefix = br#"{"k":"#.len();
        p.value(Piece::Verbatim, raw.as_bytes(), &mut out);
        let issue = p.end(&mut out);
        (String::from_utf8(out[prefix..].to_vec()).unwrap(), issue)
    }

    #[test]
    fn schema_typing() {
        use JsonTypes as T;
        let none = |text: &str| (text.to_owned(), None);
        let with = |text: &str, issue| (text.to_owned(), Some(issue));
        // String-only: exact text, streamed.
        assert_eq!(typed(T::STRING, " 5 "), none(r#"" 5 ""#));
        assert_eq!(typed(T::STRING, "null"), none(r#""null""#));
        // Not admitting strings: trimmed JSON, repaired, else the exact text.
        assert_eq!(
            typed(T::INTEGER, " 5 apples\n"),
            with(r#"" 5 apples\n""#, ParamIssue::UntypedValue)
        );
        assert_eq!(typed(T::INTEGER, "\n 5\t"), none("5"));
        assert_eq!(typed(T::INTEGER, "140.0"), none("140.0"));
        assert_eq!(
            typed(T::INTEGER, "1.5"),
            with(r#""1.5""#, ParamIssue::TypeMismatch)
        );
        assert_eq!(typed(T::NUMBER, "1.5"), none("1.5"));
        assert_eq!(
            typed(T::BOOLEAN, "True"),
            with("true", ParamIssue::Repaired)
        );
        assert_eq!(
            typed(T::ARRAY, "['a', None,]"),
            with(r#"["a", null]"#, ParamIssue::Repaired)
        );
        assert_eq!(
            typed(T::BOOLEAN, "yes"),
            with(r#""yes""#, ParamIssue::UntypedValue)
        );
        assert_eq!(
            typed(T::INTEGER, ""),
            with(r#""""#, ParamIssue::UntypedValue)
        );
        assert_eq!(
            typed(T::INTEGER, r#""5""#),
            with(r#""\"5\"""#, ParamIssue::TypeMismatch)
        );
        assert_eq!(typed(T::NULL.union(T::INTEGER), "null"), none("null"));
        // Unions admitting strings.
        let string_or_int = T::STRING.union(T::INTEGER);
        assert_eq!(typed(string_or_int, " 7 "), none("7"));
        assert_eq!(typed(string_or_int, "null"), none(r#""null""#));
        assert_eq!(typed(string_or_int, "abc"), none(r#""abc""#));
        assert_eq!(typed(string_or_int, "'q'"), none(r#""'q'""#));
        assert_eq!(typed(string_or_int, r#""q""#), none(r#""q""#));
        assert_eq!(typed(string_or_int, "[1]"), none(r#""[1]""#));
        assert_eq!(
            typed(T::STRING.union(T::BOOLEAN), "True"),
            with("true", ParamIssue::Repaired)
        );
        assert_eq!(typed(T::STRING.union(T::NULL), "null"), none("null"));
    }
}
