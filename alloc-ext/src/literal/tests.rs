use super::*;
use crate::params::{Params, Schema};

/// The JSON text of a call's arguments given as literal parameters.
fn convert(kind: ValueKind, params: &[(&str, &[(Piece, &str)])]) -> String {
    let mut all = Params::default();
    let mut out = Vec::new();
    for (key, pieces) in params {
        all.begin(key.as_bytes(), kind, Schema::None, &mut out);
        for (piece, text) in *pieces {
            all.value(*piece, text.as_bytes(), &mut out);
        }
        all.end(&mut out);
    }
    all.close(&mut out);
    String::from_utf8(out).unwrap()
}

use Piece::*;

#[test]
fn numbers() {
    for (python, json) in [
        ("1_000", Some("1000")),
        ("0x1F", Some("31")),
        ("-0o17", Some("-15")),
        ("1.", Some("1.0")),
        (".5", Some("0.5")),
        ("+3", Some("3")),
        ("1e5", Some("1e5")),
        ("1.5E-3", Some("1.5E-3")),
        ("1.5E+3", Some("1.5E+3")),
        ("+1.5E-3", Some("1.5e-3")),
        ("007", Some("7")),
        ("18446744073709551615", Some("18446744073709551615")),
        ("-9223372036854775808", Some("-9223372036854775808")),
        (
            "123456789012345678901234567890",
            Some("123456789012345678901234567890"),
        ),
        (
            "-0.100000000000000000000000000001",
            Some("-0.100000000000000000000000000001"),
        ),
        (
            "1_0000000000_0000000000_0000000000",
            Some("1000000000000000000000000000000"),
        ),
        ("1e400", Some("1e400")),
        (&"9".repeat(400), Some(&"9".repeat(400))),
        ("0x1_0000_0000_0000_0000_0000_0000_0000_0000", None),
        ("1_", None),
        ("1.2.3", None),
        ("e5", None),
        (".", None),
        ("1e", None),
        ("nan", None),
    ] {
        assert_eq!(json_number(python.as_bytes()).as_deref(), json, "{python}");
    }
}

#[test]
fn gemma_values() {
    assert_eq!(
        convert(
            ValueKind::Gemma,
            &[
                (
                    "s",
                    &[
                        (StringOpen, "<|\"|>"),
                        (Raw, "a\\b\n"),
                        (LiteralQuote, "<|\"|><|\"|>"),
                        (StringClose, "<|\"|>")
                    ]
                ),
                ("n", &[(Bare, "2"), (Space, " ")]),
                (
                    "l",
                    &[
                        (Punct, "["),
                        (StringOpen, "\""),
                        (Escaped, "x\\\"\\/"),
                        (StringClose, "\""),
                        (Punct, ","),
                        (Bare, "true"),
                        (Punct, ",]")
                    ]
                ),
                (
                    "o",
                    &[
                        (Punct, "{"),
                        (Bare, "k"),
                        (Punct, ":"),
                        (Bare, "foo"),
                        (Space, " "),
                        (Bare, "bar"),
                        (Punct, "}")
                    ]
                ),
            ]
        ),
        r#"{"s":"a\\b\n\"\"","n":2,"l":["x\"/",true],"o":{"k":"foo bar"}}"#
    );
}

#[test]
fn python_values() {
    assert_eq!(
        convert(
            ValueKind::Python,
            &[
                ("a", &[(StringOpen, "'"), (Escaped, "\\x41\\101\\u00e9\\U0001F600\\d\\\n!"), (StringClose, "'")]),
                ("b", &[(StringOpen, "\""), (Escaped, "\\ud83d\\ude00\\ud83d"), (StringClose, "\""), (Space, " "), (StringOpen, "'"), (Escaped, "x"), (StringClose, "'")]),
                ("c", &[(Punct, "("), (Bare, "1"), (Punct, ","), (Space, " "), (Bare, "None"), (Punct, ")")]),
                ("d", &[(Punct, "{"), (Bare, "1"), (Punct, ":"), (Space, " "), (Bare, "False"), (Punct, "}")]),
                ("e", &[(Bare, "b"), (Punct, "("), (Bare, "y=1"), (Punct, ")")]),
                ("f", &[(Punct, "["), (Bare, "f"), (Punct, "("), (StringOpen, "'"), (Escaped, ")"), (StringClose, "'"), (Punct, ")]")]),
            ]
        ),
        "{\"a\":\"AAé😀\\\\d!\",\"b\":\"😀\u{FFFD}x\",\"c\":[1,null],\"d\":{\"1\":false},\"e\":\"b(y=1)\",\"f\":[\"f(')')\"]}"
    );
}

#[test]
fn escapes_split_anywhere() {
    let text = "\\x41\\u00e9\\U0001F600\\n\\q";
    for cut in 0..=text.len() {
        let mut json = LiteralValue::new(ValueKind::Python);
        let mut out = Vec::new();
        json.value(StringOpen, b"'", &mut out);
        json.value(Escaped, &text.as_bytes()[..cut], &mut out);
        json.value(Escaped, &text.as_bytes()[cut..], &mut out);
        json.value(StringClose, b"'", &mut out);
        json.end(&mut out);
        assert_eq!(String::from_utf8(out).unwrap(), "\"Aé😀\\n\\\\q\"", "{cut}");
    }
}

#[test]
fn empty_call_and_empty_value() {
    assert_eq!(convert(ValueKind::Gemma, &[]), "{}");
    assert_eq!(convert(ValueKind::Gemma, &[("k", &[])]), "{\"k\":\"\"}");
}
