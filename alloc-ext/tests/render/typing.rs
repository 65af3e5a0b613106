//! Raw-text values and the tools' schemas: a string is written raw exactly where the
//! assembler, given the same tools, reads it back as that string (rule 8).

use inband::{Dialect, Options};
use inband_alloc::assemble::{assemble, AssembleOptions};
use inband_alloc::render::{Call, Reason, Renderer};
use inband_alloc::tools::ToolSet;
use serde_json::{json, Value};

use crate::common::{calls_of, object};

/// Raw-text values: a string that reads as JSON is written as a JSON string unless the
/// schema says the parameter is a string; values are never entity-escaped.
#[test]
fn raw_text_typing() {
    let call = Call::new("f", object(json!({"s": "7", "t": "a & b", "n": 7})));
    let xml = Renderer::new(Dialect::Xml);
    assert_eq!(
        xml.call(&call).unwrap(),
        "<invoke name=\"f\">\n<parameter name=\"s\">\"7\"</parameter>\n<parameter name=\"t\">a & b</parameter>\n<parameter name=\"n\">7</parameter>\n</invoke>"
    );
    let tools = ToolSet::from_json(
        br#"[{"type": "function", "function": {"name": "f", "parameters":
            {"type": "object", "properties": {"s": {"type": "string"}}}}}]"#,
    )
    .unwrap();
    assert_eq!(
        xml.with_tools(&tools).call(&call).unwrap(),
        "<invoke name=\"f\">\n<parameter name=\"s\">7</parameter>\n<parameter name=\"t\">a & b</parameter>\n<parameter name=\"n\">7</parameter>\n</invoke>"
    );
}

/// With tools, a string value is written raw exactly where the assembler, given the same
/// tools, reads the value as raw text (its rule-8 typing: `$ref`, `anyOf`, `["string"]`,
/// `additionalProperties` resolved alike), in every raw-text dialect.
#[test]
fn raw_text_typing_agrees_with_the_assembler() {
    let tools = ToolSet::from_json(
        br##"[{"type": "function", "function": {"name": "f", "parameters": {
            "type": "object",
            "$defs": {"path": {"type": "string"}},
            "properties": {
                "r": {"$ref": "#/$defs/path"},
                "a": {"anyOf": [{"type": "string"}, {"type": "string", "maxLength": 3}]},
                "l": {"type": ["string"]},
                "u": {"type": ["string", "integer"]},
                "n": {"type": "integer"}
            },
            "additionalProperties": {"type": "string"}
        }}}]"##,
    )
    .unwrap();
    let arguments = object(json!({
        "r": "7", "a": "[1]", "l": "true", "u": "8", "n": 9, "extra": "null"
    }));
    let call = Call::new("f", arguments.clone());
    for dialect in [
        Dialect::Xml,
        Dialect::Anthropic,
        Dialect::Minimax,
        Dialect::Qwen3Coder,
        Dialect::Glm,
    ] {
        let rendered = Renderer::new(dialect)
            .with_tools(&tools)
            .call(&call)
            .unwrap();
        for raw in ["7", "[1]", "true", "null"] {
            assert!(
                !rendered.contains(&format!("\"{raw}\"")),
                "{dialect}: {rendered}"
            );
        }
        assert!(rendered.contains("\"8\""), "{dialect}: {rendered}");
        let mut options = AssembleOptions::seeded(1);
        options.tools = Some(tools.clone());
        let completion = assemble(
            dialect,
            Options::default(),
            &options,
            rendered.as_bytes().chunks(5),
        );
        assert_eq!(
            calls_of(&completion),
            [("f".to_owned(), Value::Object(arguments.clone()))],
            "{dialect}: {rendered}"
        );
    }
}

/// With tools, a value is written as the first text the assembler, given the same tools,
/// reads back as that value; one no text of which reads back is refused, naming the
/// argument: `"5"` for an `integer` parameter (raw it reads as 5, quoted it is not an
/// integer), `"null"` for `integer|null`, `5` for a string-only one. A string that a union
/// with `string` would read as something else raw (`"True"` for `boolean|string`, `"null"`
/// for `string|null`) is written quoted, which the union reads back as the string.
#[test]
fn strings_the_schema_types_differently() {
    let tools = ToolSet::from_json(
        br#"[{"type": "function", "function": {"name": "f", "parameters": {
            "type": "object",
            "properties": {
                "i": {"type": "integer"},
                "z": {"type": ["integer", "null"]},
                "s": {"type": "string"},
                "b": {"type": ["boolean", "string"]},
                "n": {"anyOf": [{"type": "string"}, {"type": "null"}]}
            }
        }}}]"#,
    )
    .unwrap();
    let read = |dialect: Dialect, text: &str| {
        let mut options = AssembleOptions::seeded(1);
        options.tools = Some(tools.clone());
        let completion = assemble(
            dialect,
            Options::default(),
            &options,
            text.as_bytes().chunks(3),
        );
        calls_of(&completion)
    };
    for dialect in [
        Dialect::Xml,
        Dialect::Anthropic,
        Dialect::Minimax,
        Dialect::Qwen3Coder,
        Dialect::Glm,
    ] {
        let with_tools = Renderer::new(dialect).with_tools(&tools);
        for (key, value, other) in [
            ("i", json!("5"), json!(5)),
            ("i", json!("-2"), json!(-2)),
            ("z", json!("null"), Value::Null),
            ("s", json!(5), json!("5")),
            ("s", json!(true), json!("true")),
        ] {
            let arguments = object(json!({ "a": 1, key: value.clone() }));
            let call = Call::new("f", arguments.clone());
            let error = with_tools.call(&call).unwrap_err();
            assert_eq!(error.reason, Reason::TypedDifferently, "{dialect}: {key}");
            assert_eq!(error.argument.as_deref(), Some(format!("/{key}").as_str()));
            assert_eq!(
                error.to_string(),
                format!("item 0 (\"f\"), argument \"/{key}\": the tool's schema types this parameter so that no raw text of the value reads back as it (rule 8)")
            );
            // Written anyway, as its raw text or its JSON (what the untyped renderer
            // writes for it and for `other`), the assembler reads another value.
            for written in [&value, &other] {
                let unchecked = Renderer::new(dialect)
                    .call(&Call::new("f", object(json!({ "a": 1, key: written }))))
                    .unwrap();
                let back = read(dialect, &unchecked);
                assert_eq!(back.len(), 1, "{dialect}: {unchecked}");
                assert_ne!(
                    back[0].1,
                    Value::Object(arguments.clone()),
                    "{dialect}: {unchecked}"
                );
            }
        }
        let arguments = object(json!({
            "b": "True", "n": "null", "i": 7, "z": null, "s": "5", "a": "true"
        }));
        let rendered = with_tools.call(&Call::new("f", arguments.clone())).unwrap();
        for quoted in ["\"True\"", "\"null\"", "\"true\""] {
            assert!(rendered.contains(quoted), "{dialect}: {rendered}");
        }
        assert!(!rendered.contains("\"5\""), "{dialect}: {rendered}");
        assert_eq!(
            read(dialect, &rendered),
            [("f".to_owned(), Value::Object(arguments))],
            "{dialect}: {rendered}"
        );
    }
}
