//! Arguments JSON text from parameters ([`Sink::tool_param`](inband::Sink::tool_param),
//! its value's pieces, [`Sink::tool_param_end`](inband::Sink::tool_param_end)), raw-text
//! or literal, grown as values arrive so that it can be streamed as it is. The typing and
//! duplicate rules are documented with [`crate::assemble`]; literal values are converted by
//! [`crate::literal`].

use inband::{ArgumentsNormalizer, Piece, ValueKind};

use crate::literal::LiteralValue;

/// Something worth a diagnostic while building the text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ParamIssue {
    /// A key appeared a second time in the call; its value was left out.
    Duplicate,
    /// A value marked as JSON did not parse even after repair; kept as text.
    InvalidJson,
    /// A value marked as JSON, or a literal value, became JSON only after repair (reported
    /// once per call).
    Repaired,
}

impl ParamIssue {
    pub(crate) fn code(self) -> &'static str {
        match self {
            ParamIssue::Duplicate => "duplicate_parameter",
            ParamIssue::InvalidJson => "invalid_json_value",
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
            ParamIssue::Repaired => {
                "the arguments were not valid JSON as written and were repaired"
            }
        }
    }
}

/// The parameter whose value is arriving.
#[derive(Debug)]
struct Current {
    kind: ValueKind,
    /// A duplicate key: the value is left out.
    skip: bool,
    /// The raw value of a JSON or untyped parameter, typed at its end.
    raw: Vec<u8>,
    /// The converter of a literal (Gemma, Python) value, which writes as pieces arrive.
    literal: Option<LiteralValue>,
}

/// One call's parameters so far.
#[derive(Debug, Default)]
pub(crate) struct Params {
    keys: Vec<Vec<u8>>,
    current: Option<Current>,
    /// A repair was reported for this call already.
    repaired: bool,
}

impl Params {
    /// A parameter begins; appends `{"key":` (or `,"key":`) and, for text, the opening
    /// quote to `out`.
    pub(crate) fn begin(
        &mut self,
        key: &[u8],
        kind: ValueKind,
        out: &mut Vec<u8>,
    ) -> Option<ParamIssue> {
        if self.keys.iter().any(|k| k == key) {
            self.current = Some(Current {
                kind,
                skip: true,
                raw: Vec::new(),
                literal: None,
            });
            return Some(ParamIssue::Duplicate);
        }
        out.push(if self.keys.is_empty() { b'{' } else { b',' });
        push_string(key, out);
        out.push(b':');
        if kind == ValueKind::Text {
            out.push(b'"');
        }
        self.keys.push(key.to_vec());
        self.current = Some(Current {
            kind,
            skip: false,
            raw: Vec::new(),
            literal: kind.is_literal().then(|| LiteralValue::new(kind)),
        });
        None
    }

    /// A fragment of the current value. The piece matters only to a literal value: a
    /// raw-text value's fragments are all [`Piece::Verbatim`].
    pub(crate) fn value(&mut self, piece: Piece, bytes: &[u8], out: &mut Vec<u8>) {
        let Some(current) = self.current.as_mut().filter(|current| !current.skip) else {
            return;
        };
        match (&mut current.literal, current.kind) {
            (Some(literal), _) => literal.value(piece, bytes, out),
            (None, ValueKind::Text) => push_escaped(bytes, out),
            (None, _) => current.raw.extend_from_slice(bytes),
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
        if let Some(literal) = &mut current.literal {
            literal.end(out);
            return literal.repaired().then_some(ParamIssue::Repaired);
        }
        let raw = &current.raw;
        match current.kind {
            ValueKind::Text => {
                out.push(b'"');
                None
            }
            ValueKind::Json => match repaired_json(raw) {
                Some((json, repaired)) => {
                    out.extend_from_slice(&json);
                    repaired.then_some(ParamIssue::Repaired)
                }
                None => {
                    out.push(b'"');
                    push_escaped(raw, out);
                    out.push(b'"');
                    Some(ParamIssue::InvalidJson)
                }
            },
            _ => {
                match strict_json(raw) {
                    Some(json) => out.extend_from_slice(json),
                    None => {
                        out.push(b'"');
                        push_escaped(raw, out);
                        out.push(b'"');
                    }
                }
                None
            }
        }
    }

    /// The call completed: closes the object.
    pub(crate) fn close(&self, out: &mut Vec<u8>) {
        if self.keys.is_empty() {
            out.extend_from_slice(b"{}");
        } else {
            out.push(b'}');
        }
    }
}

/// `raw` without surrounding whitespace when it is one strict JSON value.
fn strict_json(raw: &[u8]) -> Option<&[u8]> {
    let trimmed = raw.trim_ascii();
    if trimmed.is_empty() || std::str::from_utf8(trimmed).is_err() {
        return None;
    }
    let mut copy = trimmed.to_vec();
    simd_json::to_owned_value(&mut copy).ok()?;
    Some(trimmed)
}

/// `raw` as one JSON value after the normaliser's bounded repair (Python literals, single
/// quotes, invalid escapes, trailing commas), trimmed, and whether it needed repair.
fn repaired_json(raw: &[u8]) -> Option<(Vec<u8>, bool)> {
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
    let mut parse = String::from_utf8_lossy(&text).into_owned().into_bytes();
    match simd_json::to_owned_value(&mut parse) {
        Ok(simd_json::OwnedValue::Array(items)) if items.len() == 1 => {}
        _ => return None,
    }
    let inner = text.get(1..text.len() - 1)?.trim_ascii().to_vec();
    Some((inner, normalizer.repaired()))
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
    let mut run = 0;
    for (i, &b) in bytes.iter().enumerate() {
        let escape: &[u8] = match b {
            b'"' => b"\\\"",
            b'\\' => b"\\\\",
            b'\n' => b"\\n",
            b'\r' => b"\\r",
            b'\t' => b"\\t",
            0x08 => b"\\b",
            0x0C => b"\\f",
            0..=0x1F => {
                out.extend_from_slice(&bytes[run..i]);
                const HEX: &[u8; 16] = b"0123456789abcdef";
                out.extend_from_slice(&[
                    b'\\',
                    b'u',
                    b'0',
                    b'0',
                    HEX[usize::from(b >> 4)],
                    HEX[usize::from(b & 15)],
                ]);
                run = i + 1;
                continue;
            }
            _ => continue,
        };
        out.extend_from_slice(&bytes[run..i]);
        out.extend_from_slice(escape);
        run = i + 1;
    }
    out.extend_from_slice(&bytes[run..]);
}

#[cfg(test)]
mod tests {
    use super::{ParamIssue, Params};
    use inband::{Piece, ValueKind};

    fn build(params: &[(&str, ValueKind, &[&str])]) -> (String, Vec<ParamIssue>) {
        let mut p = Params::default();
        let mut out = Vec::new();
        let mut issues = Vec::new();
        for (key, kind, pieces) in params {
            issues.extend(p.begin(key.as_bytes(), *kind, &mut out));
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
            issues.extend(p.begin(key.as_bytes(), ValueKind::Python, &mut out));
            for (piece, text) in pieces {
                p.value(*piece, text.as_bytes(), &mut out);
            }
            issues.extend(p.end(&mut out));
        }
        p.close(&mut out);
        assert_eq!(String::from_utf8(out).unwrap(), r#"{"a":"foo","b":["x"]}"#);
        assert_eq!(issues, [ParamIssue::Repaired, ParamIssue::Duplicate]);
    }
}
