//! Names, keys and nesting as long and as deep as each dialect's scanner reads them, and
//! refused one step beyond.

use inband::Dialect;
use inband_alloc::render::{Call, Reason, Renderer};
use serde_json::{json, Value};

use crate::common::{calls_of, object, scan};

/// The refusal of `call` in `dialect`: (index, name, argument, reason).
fn refusal(dialect: Dialect, call: Call) -> (usize, Option<String>, Option<String>, Reason) {
    let error = Renderer::new(dialect).calls(&[call]).unwrap_err();
    (error.index, error.name, error.argument, error.reason)
}

/// Renders `call` in `dialect` and checks that it scans back as itself, whole and at every
/// byte, with nothing else.
fn round_trips(dialect: Dialect, call: Call) -> String {
    let rendered = Renderer::new(dialect)
        .calls(std::slice::from_ref(&call))
        .unwrap();
    let every_byte: Vec<usize> = (0..rendered.len()).collect();
    for cuts in [&[][..], &every_byte[..]] {
        let completion = scan(dialect, &rendered, cuts);
        assert_eq!(
            calls_of(&completion),
            vec![(call.name.clone(), Value::Object(call.arguments.clone()))],
            "{dialect}: {rendered}"
        );
        assert_eq!(completion.content, "", "{dialect}: {rendered}");
        assert_eq!(completion.diagnostics, vec![], "{dialect}: {rendered}");
    }
    rendered
}

/// Gemma's scanner ends a name at `{ } [ ] ( ) , =` (core/dialect/gemma/call.rs `name_byte`) but
/// reads `:` in it.
#[test]
fn gemma_names_are_refused_exactly_where_the_scanner_ends_them() {
    for name in ["f[", "f]", "]", "f=", "[e~[", "f{", "f(", "f,"] {
        assert_eq!(
            refusal(Dialect::Gemma, Call::new(name, object(json!({"a": 1})))),
            (
                0,
                Some(name.to_owned()),
                None,
                Reason::InvalidName("without { } [ ] ( ) , = in Gemma")
            ),
            "{name}"
        );
    }
    assert_eq!(
        round_trips(
            Dialect::Gemma,
            Call::new("ns:read", object(json!({"a": 1})))
        ),
        "<|tool_call>call:ns:read{a:1}<tool_call|>"
    );
}

/// The literal scanners read 64 levels of lists and objects in a value; a 65th is refused,
/// naming the first container beyond the limit.
#[test]
fn literal_values_nest_as_deep_as_their_scanners_read() {
    let nested = |levels: usize, list: bool| {
        let mut value = json!(1);
        for _ in 0..levels {
            value = if list {
                json!([value])
            } else {
                json!({ "a": value })
            };
        }
        Call::new("f", object(json!({ "k": value })))
    };
    for dialect in [Dialect::Gemma, Dialect::Gemini] {
        for list in [true, false] {
            round_trips(dialect, nested(64, list));
            let step = if list { "/0" } else { "/a" };
            assert_eq!(
                refusal(dialect, nested(65, list)),
                (
                    0,
                    Some("f".to_owned()),
                    Some(format!("/k{}", step.repeat(64))),
                    Reason::TooDeep(64)
                ),
                "{dialect}"
            );
        }
    }
}

/// Names and keys as long as each dialect's scanner reads them, and refused one byte
/// longer: the tag lexer keeps `inband::MAX_TAG` bytes after `<invoke`/`<parameter`
/// (` name="…">`) and after `<function=`/`<parameter=` (`…>`); Gemini's callee
/// `default_api.NAME` and Gemma's and Gemini's keys are words of `inband::MAX_NAME` bytes.
#[test]
fn names_and_keys_as_long_as_the_scanners_read() {
    assert_eq!(inband::MAX_TAG, 128);
    assert_eq!(inband::MAX_NAME, 128);
    let attribute =
        "at most 119 bytes: the tag ` name=\"…\">` after <invoke or <parameter holds at most 128";
    let equals =
        "at most 127 bytes: the tag `…>` after <function= or <parameter= holds at most 128";
    let cases: &[(Dialect, usize, usize, &str, &str)] = &[
        // dialect, longest name, longest key, why a longer name, why a longer key
        (Dialect::Xml, 119, 119, attribute, attribute),
        (Dialect::Anthropic, 119, 119, attribute, attribute),
        (Dialect::Minimax, 119, 119, attribute, attribute),
        (Dialect::Qwen3Coder, 127, 127, equals, equals),
        (
            Dialect::Gemini,
            116,
            128,
            "at most 116 bytes: the callee `default_api.NAME` holds at most 128",
            "a Python identifier of at most 128 bytes: [A-Za-z_][A-Za-z0-9_]*",
        ),
        (Dialect::Gemma, 128, 128, "", "at most 128 bytes"),
    ];
    for &(dialect, name_len, key_len, name_why, key_why) in cases {
        let name = "n".repeat(name_len);
        let key = "k".repeat(key_len);
        round_trips(dialect, Call::new(name.clone(), object(json!({"k": 1}))));
        round_trips(dialect, Call::new("f", object(json!({ key.clone(): 1 }))));
        if !name_why.is_empty() {
            let longer = format!("{name}n");
            assert_eq!(
                refusal(dialect, Call::new(longer.clone(), object(json!({"k": 1})))),
                (0, Some(longer), None, Reason::InvalidName(name_why)),
                "{dialect}"
            );
        }
        let longer = format!("{key}k");
        assert_eq!(
            refusal(
                dialect,
                Call::new("f", object(json!({ longer.clone(): 1 })))
            ),
            (
                0,
                Some("f".to_owned()),
                Some(format!("/{longer}")),
                Reason::InvalidKey(key_why)
            ),
            "{dialect}"
        );
    }
}
