//! Parsing argument JSON into [`serde_json::Value`], the one parser of this crate.
//!
//! Numbers keep the model's text (serde_json's `arbitrary_precision`), so nothing is
//! rounded and `1e999` is a number, not an error (serde_json writes an exponent in one
//! form: `1E5` is kept as `1e+5`, its digits unchanged). Nesting deeper than 127 levels is
//! refused, so a hostile value cannot exhaust the stack.

use std::io;

use serde_json::{Number, Value};

mod valid;

use valid::Verdict;

/// The deepest nesting of arrays and objects [`parse`] accepts: serde_json's recursion
/// limit (128) less the level its own bookkeeping takes.
pub(crate) const MAX_DEPTH: usize = 127;

/// `text` as one JSON value, or `None` when it is not strict JSON (surrounding whitespace
/// allowed), is not UTF-8, or nests arrays and objects deeper than 127 levels
/// (serde_json's recursion limit, which keeps parsing, serialising and dropping a value
/// within any thread's stack; a call whose arguments nest deeper is text, with an
/// `invalid_arguments` diagnostic).
pub(crate) fn parse(text: &[u8]) -> Option<Value> {
    serde_json::from_slice(text).ok()
}

/// Whether [`parse`] gives a JSON object for `text`, checked without building it or
/// allocating ([`valid::check`]; the parser itself only where the check cannot tell).
pub(crate) fn is_object(text: &[u8]) -> bool {
    match valid::check(text) {
        Verdict::Object => true,
        Verdict::Other | Verdict::Invalid => false,
        Verdict::Unsure => matches!(parse(text), Some(Value::Object(_))),
    }
}

/// Whether [`parse`] reads `text` as one JSON value, checked as [`is_object`].
pub(crate) fn is_value(text: &[u8]) -> bool {
    match valid::check(text) {
        Verdict::Object | Verdict::Other => true,
        Verdict::Invalid => false,
        Verdict::Unsure => parse(text).is_some(),
    }
}

/// Whether `text` is exactly one JSON number (RFC 8259: `-?(0|[1-9][0-9]*)(\.[0-9]+)?
/// ([eE][+-]?[0-9]+)?`).
pub(crate) fn is_number(text: &str) -> bool {
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    let unsigned = text.strip_prefix('-').unwrap_or(text);
    let (mantissa, exponent) = match unsigned.find(['e', 'E']) {
        Some(k) => (&unsigned[..k], Some(&unsigned[k + 1..])),
        None => (unsigned, None),
    };
    let (int, frac) = match mantissa.split_once('.') {
        Some((int, frac)) => (int, Some(frac)),
        None => (mantissa, None),
    };
    digits(int)
        && (int == "0" || !int.starts_with('0'))
        && frac.is_none_or(digits)
        && exponent.is_none_or(|e| digits(e.strip_prefix(['+', '-']).unwrap_or(e)))
}

/// Whether a JSON number's text (as serde_json keeps it) has an integral value, exactly:
/// `140.0`, `1e3` and `123456789012345678901234567890` are integral, `1.5` and `1e-3` are
/// not (JSON Schema's `integer`). Decided on the digits, never through f64.
pub(crate) fn is_integral(number: &str) -> bool {
    let unsigned = number.strip_prefix('-').unwrap_or(number);
    let (mantissa, exponent) = match unsigned.find(['e', 'E']) {
        Some(k) => (&unsigned[..k], &unsigned[k + 1..]),
        None => (unsigned, "0"),
    };
    let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let frac = frac.trim_end_matches('0');
    if frac.is_empty() {
        // The digits before the point are an integer; a negative exponent must not cut
        // into its non-zero digits.
        let int_zeros = int.len() - int.trim_end_matches('0').len();
        return match exponent.strip_prefix('-') {
            Some(neg) => int.bytes().all(|b| b == b'0') || fits(neg, int_zeros),
            None => true,
        };
    }
    // A fraction: only a positive exponent at least as long as its digits makes it whole.
    match exponent.strip_prefix('-') {
        Some(_) => false,
        None => !fits_below(exponent.strip_prefix('+').unwrap_or(exponent), frac.len()),
    }
}

/// Whether the decimal `digits` are at most `limit`.
fn fits(digits: &str, limit: usize) -> bool {
    let digits = digits.trim_start_matches('0');
    digits.len() <= 20 && digits.parse::<u128>().is_ok_and(|n| n <= limit as u128)
        || digits.is_empty()
}

/// Whether the decimal `digits` are below `limit`.
fn fits_below(digits: &str, limit: usize) -> bool {
    let digits = digits.trim_start_matches('0');
    digits.is_empty() && limit > 0
        || digits.len() <= 20 && digits.parse::<u128>().is_ok_and(|n| n < limit as u128)
}

/// The compact JSON text of `value`, parsed from the JSON text `text`, with each number
/// written as `text` writes it (`1E5`, `1e999`: serde_json alone would write `1e+5`,
/// `1e+999`). Numbers are matched in order, which holds because objects keep their key
/// order and never repeat a key; a number that does not match is written as serde_json
/// writes it.
pub(crate) fn compact_as_written(value: &Value, text: &str) -> String {
    let mut out = Vec::new();
    let formatter = AsWritten {
        numbers: numbers(text).into_iter(),
    };
    let mut serializer = serde_json::Serializer::with_formatter(&mut out, formatter);
    // Writing a `Value` to a `Vec` cannot fail, and its text is UTF-8.
    if serde::Serialize::serialize(value, &mut serializer).is_err() {
        return value.to_string();
    }
    String::from_utf8(out).unwrap_or_else(|_| value.to_string())
}

/// The number tokens of the JSON text `text`, in order.
fn numbers(text: &str) -> Vec<&str> {
    let bytes = text.as_bytes();
    let mut found = Vec::new();
    let (mut i, mut in_string, mut escaped) = (0, false, false);
    while i < bytes.len() {
        let b = bytes[i];
        if in_string {
            match b {
                _ if escaped => escaped = false,
                b'\\' => escaped = true,
                b'"' => in_string = false,
                _ => {}
            }
        } else if b == b'"' {
            in_string = true;
        } else if b == b'-' || b.is_ascii_digit() {
            let start = i;
            while i < bytes.len()
                && matches!(bytes[i], b'0'..=b'9' | b'-' | b'+' | b'.' | b'e' | b'E')
            {
                i += 1;
            }
            found.push(&text[start..i]);
            continue;
        }
        i += 1;
    }
    found
}

/// A compact formatter that writes numbers as the model wrote them.
struct AsWritten<'a> {
    numbers: std::vec::IntoIter<&'a str>,
}

impl serde_json::ser::Formatter for AsWritten<'_> {
    fn write_number_str<W>(&mut self, writer: &mut W, value: &str) -> io::Result<()>
    where
        W: ?Sized + io::Write,
    {
        let written = self.numbers.next().filter(|number| {
            number
                .parse::<Number>()
                .is_ok_and(|parsed| parsed.to_string() == value)
        });
        writer.write_all(written.unwrap_or(value).as_bytes())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_object_check_agrees_with_the_parse() {
        let deep = |n: usize| format!("{{\"a\":{}1{}}}", "[".repeat(n), "]".repeat(n));
        let cases = [
            "{}".to_owned(),
            " \n{\"a\": 1e999, \"b\": [true, null, -0.5E+3], \"c\": {\"d\": \"x\\n\"}} ".to_owned(),
            "{\"a\": 1, \"a\": 2}".to_owned(),
            "[1]".to_owned(),
            "\"x\"".to_owned(),
            "{\"a\": 1} x".to_owned(),
            "{\"a\": 01}".to_owned(),
            "{\"a\": \"\\ud800\"}".to_owned(),
            "{\"a\": \"\u{1}\"}".to_owned(),
            "{\"a\": NaN}".to_owned(),
            "{\"$serde_json::private::Number\": \"1\"}".to_owned(),
            "{\"\\u0024serde_json::private::Number\": \"x\"}".to_owned(),
            "{\"$serde_json::private::RawValue\": \"{}\"}".to_owned(),
            "\u{c}{}".to_owned(),
            deep(125),
            deep(126),
            deep(127),
            deep(200),
        ];
        for text in &cases {
            let parsed = matches!(parse(text.as_bytes()), Some(Value::Object(_)));
            assert_eq!(is_object(text.as_bytes()), parsed, "{text}");
        }
        let values = [
            "1",
            " -0.5e3 ",
            "\"x\"",
            "true",
            "null",
            "[1, {\"a\": []}]",
            "1 2",
            "01",
            "tru",
            "x",
            "",
            "\u{c}1",
            "NaN",
            "\"\\u00e9\"",
            "{\"$serde_json::private::Number\": \"x\"}",
        ];
        for text in cases.iter().map(String::as_str).chain(values) {
            assert_eq!(
                is_value(text.as_bytes()),
                parse(text.as_bytes()).is_some(),
                "{text:?}"
            );
        }
        assert!(is_object(deep(125).as_bytes()));
        assert!(!is_object(deep(200).as_bytes()));
    }

    #[test]
    fn numbers_keep_their_text() {
        let value =
            parse(br#"{"a": 123456789012345678901234567890, "b": 1e999, "c": 0.10}"#).unwrap();
        assert_eq!(
            serde_json::to_string(&value).unwrap(),
            r#"{"a":123456789012345678901234567890,"b":1e+999,"c":0.10}"#
        );
    }

    #[test]
    fn depth_is_limited() {
        let nested = |n: usize| format!("{}{}", "[".repeat(n), "]".repeat(n));
        assert!(parse(nested(MAX_DEPTH).as_bytes()).is_some());
        assert!(parse(nested(MAX_DEPTH + 1).as_bytes()).is_none());
        assert!(parse(b"{} x").is_none());
    }

    #[test]
    fn numbers_are_written_as_written() {
        let text = r#"{"a": [1E5, -0.50], "s": "1e5 \" 2", "b": {"c": 1e999, "d": 7}}"#;
        let value = parse(text.as_bytes()).unwrap();
        assert_eq!(
            compact_as_written(&value, text),
            r#"{"a":[1E5,-0.50],"s":"1e5 \" 2","b":{"c":1e999,"d":7}}"#
        );
        // A number that does not match (text of another value) is serde_json's.
        assert_eq!(compact_as_written(&value, "[2E5]"), value.to_string());
    }

    #[test]
    fn json_numbers() {
        for (text, number) in [
            ("0", true),
            ("-0.5e+7", true),
            ("1E5", true),
            ("007", false),
            ("+3", false),
            ("1.", false),
            (".5", false),
            ("1e", false),
            ("-", false),
            ("1_0", false),
        ] {
            assert_eq!(is_number(text), number, "{text}");
        }
    }

    #[test]
    fn integral_numbers() {
        for (number, integral) in [
            ("5", true),
            ("-3", true),
            ("140.0", true),
            ("1e3", true),
            ("1.5e1", true),
            ("1.25e1", false),
            ("1.5", false),
            ("1e-3", false),
            ("100e-2", true),
            ("100e-3", false),
            ("0.0e-5", true),
            ("123456789012345678901234567890", true),
            ("1e999", true),
            ("1.5e999", true),
            ("1e-999", false),
            ("0e-999", true),
        ] {
            assert_eq!(is_integral(number), integral, "{number}");
        }
    }
}
