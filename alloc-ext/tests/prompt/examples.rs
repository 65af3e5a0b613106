//! Tool examples (docs/seed.md §1.9, §5.8: tool find{paths: string[]}, intent field `i`).

use inband::Dialect;
use inband_alloc::examples::tool_examples;
use inband_alloc::render::Reason;
use inband_alloc::tools::Tool;
use serde_json::{json, Value};

use crate::common::parse;

fn find_tool(examples: Value) -> Tool {
    parse(&[json!({
        "name": "find",
        "parameters": {"type": "object", "properties": {"paths": {"type": "array", "items": {"type": "string"}}}, "required": ["paths"]},
        "examples": examples,
    })])
    .unwrap()
    .iter()
    .next()
    .unwrap()
    .clone()
}

#[test]
fn call_examples_in_the_xml_family_and_hermes() {
    let tool = find_tool(json!([{"caption": "Find files", "call": {"paths": ["src/**/*.ts"]}}]));
    let anthropic = tool_examples(&tool, Dialect::Anthropic, None).unwrap();
    assert_eq!(
        anthropic,
        "<examples>\n# Find files\n<example>\n<invoke name=\"find\">\n<parameter name=\"paths\">[\"src/**/*.ts\"]</parameter>\n</invoke>\n</example>\n</examples>"
    );
    assert_eq!(tool_examples(&tool, Dialect::Xml, None).unwrap(), anthropic);
    assert_eq!(
        tool_examples(&tool, Dialect::Hermes, None).unwrap(),
        "<examples>\n# Find files\n<example>\n<tool_call>\n{\"name\":\"find\",\"arguments\":{\"paths\":[\"src/**/*.ts\"]}}\n</tool_call>\n</example>\n</examples>"
    );
}

#[test]
fn harmony_and_gemini_examples_are_reduced() {
    let irc = parse(&[json!({
        "name": "irc",
        "parameters": {"type": "object", "properties": {"op": {"type": "string"}, "to": {"type": "string"}, "message": {"type": "string"}}},
        "examples": [{"call": {"op": "send", "to": "all", "message": "hi"}}],
    })])
    .unwrap()
    .iter()
    .next()
    .unwrap()
    .clone();
    let harmony = tool_examples(&irc, Dialect::Harmony, None).unwrap();
    assert_eq!(
        harmony,
        "<examples>\n<example>\n{\"op\":\"send\",\"to\":\"all\",\"message\":\"hi\"}\n</example>\n</examples>"
    );
    for token in ["<|start|>", "<|channel|>", "<|message|>", "<|call|>"] {
        assert!(!harmony.contains(token));
    }
    assert_eq!(
        tool_examples(&irc, Dialect::Gemini, None).unwrap(),
        "<examples>\n<example>\nirc(op=\"send\", to=\"all\", message=\"hi\")\n</example>\n</examples>"
    );
}

#[test]
fn compare_and_note_examples_and_none() {
    assert_eq!(
        tool_examples(&find_tool(json!([])), Dialect::Anthropic, None).unwrap(),
        ""
    );
    let tool = find_tool(json!([
        {"bad": {"paths": ["**/*.ts"]}, "good": {"paths": ["src/**/*.ts"]}},
        {"caption": "Globs  ", "note": "Quote them."},
        {"caption": "Short"},
    ]));
    assert_eq!(
        tool_examples(&tool, Dialect::Minimax, None).unwrap(),
        "<examples>\n\
         WRONG:\n<example>\n<invoke name=\"find\">\n<parameter name=\"paths\">[\"**/*.ts\"]</parameter>\n</invoke>\n</example>\n\
         RIGHT:\n<example>\n<invoke name=\"find\">\n<parameter name=\"paths\">[\"src/**/*.ts\"]</parameter>\n</invoke>\n</example>\n\
         # Globs\nQuote them.\n\
         # Short\n\
         </examples>"
    );
}

#[test]
fn the_intent_field_comes_first() {
    let tool = find_tool(json!([{"caption": "Find files", "call": {"paths": ["src/**/*.ts"]}}]));
    let with = tool_examples(&tool, Dialect::Anthropic, Some("i")).unwrap();
    assert!(with.contains(
        "<invoke name=\"find\">\n<parameter name=\"i\">\u{2026}</parameter>\n<parameter name=\"paths\">"
    ), "{with}");
    let without = tool_examples(&tool, Dialect::Anthropic, None).unwrap();
    assert!(!without.contains("<parameter name=\"i\""));
    // An intent the example sets keeps its value, in first place.
    let set = find_tool(json!([{"call": {"paths": ["a"], "i": "look"}}]));
    assert_eq!(
        tool_examples(&set, Dialect::Hermes, Some("i")).unwrap(),
        "<examples>\n<example>\n<tool_call>\n{\"name\":\"find\",\"arguments\":{\"i\":\"look\",\"paths\":[\"a\"]}}\n</tool_call>\n</example>\n</examples>"
    );
}

#[test]
fn an_example_the_dialect_cannot_write_is_an_error() {
    let tool = find_tool(json!([{"call": {"paths": ["a<|\"|>b"]}}]));
    let err = tool_examples(&tool, Dialect::Gemma, None).unwrap_err();
    assert_eq!(err.reason, Reason::QuoteTokenInString);
}
