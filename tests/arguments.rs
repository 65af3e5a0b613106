//! Issue 11, arguments: every consumer reads a call's arguments the same. A repeated key
//! keeps its first value, at every level, in the parsed arguments, in the streamed
//! `function.arguments` fragments (which never hold the later key) and with a diagnostic;
//! a number is the model's text, whatever its size. Each dialect family, whole and at every
//! chunking.

use inband::{Dialect, Options, Scanner};
use inband_alloc::assemble::{AssembleOptions, Completion};
use inband_alloc::stream::DeltaStream;
use serde_json::Value;

use crate::harness;

/// The concatenated `function.arguments` fragments of each call of `input`, checked to be
/// the same for every chunk size (1 byte to the whole input), with the stream's completion.
fn streamed(dialect: Dialect, input: &str) -> (Vec<String>, Completion) {
    let bytes = input.as_bytes();
    let run = |size: usize| {
        let mut scanner = Scanner::new(dialect, Options::default());
        let mut stream = DeltaStream::new(dialect, &AssembleOptions::seeded(1));
        let mut calls: Vec<String> = Vec::new();
        let add = |calls: &mut Vec<String>, delta: inband_alloc::stream::ChunkDelta| {
            for call in delta.tool_calls {
                let index = call.index as usize;
                if calls.len() <= index {
                    calls.resize(index + 1, String::new());
                }
                calls[index].push_str(&call.arguments);
            }
        };
        for chunk in bytes.chunks(size) {
            scanner.feed(chunk, &mut stream).unwrap();
            add(&mut calls, stream.take_delta());
        }
        scanner.finish(&mut stream).unwrap();
        let (delta, _, completion) = stream.finish();
        add(&mut calls, delta);
        (calls, completion)
    };
    let whole = run(bytes.len().max(1));
    for size in 1..bytes.len() {
        assert_eq!(run(size), whole, "chunks of {size}");
    }
    whole
}

/// Checks one call of `dialect`: its streamed arguments are exactly `fragments`, its parsed
/// arguments serialise to `parsed` and equal the parse of the fragments, and its
/// diagnostics are `codes`; the completion is the same at every two-way split and byte by
/// byte.
fn one_call(dialect: Dialect, input: &str, fragments: &str, parsed: &str, codes: &[&str]) {
    let completion = harness::completion(dialect, Options::default(), input);
    let (calls, streamed_completion) = streamed(dialect, input);
    assert_eq!(streamed_completion, completion, "{dialect:?}");
    assert_eq!(calls, [fragments], "{dialect:?}: {input}");
    assert_eq!(
        completion.tool_calls.len(),
        1,
        "{dialect:?}: {completion:?}"
    );
    let arguments = &completion.tool_calls[0].arguments;
    assert_eq!(
        serde_json::to_string(arguments).unwrap(),
        parsed,
        "{dialect:?}"
    );
    assert_eq!(
        &serde_json::from_str::<Value>(fragments).unwrap(),
        arguments,
        "{dialect:?}"
    );
    assert_eq!(harness::codes(&completion), codes, "{dialect:?}");
}

/// The issue's example: serde_json and Python would run `rm /`, Rust's lookups `rm
/// /tmp/safe`. Every JSON dialect now gives only the first value.
#[test]
fn a_repeated_key_keeps_its_first_value_in_every_json_dialect() {
    let json = r#"{"path": "/tmp/safe", "path": "/"}"#;
    let kept = r#"{"path": "/tmp/safe"}"#;
    let hermes = format!(r#"<tool_call>{{"name": "rm", "arguments": {json}}}</tool_call>"#);
    let harmony = format!(
        "<|start|>assistant<|channel|>commentary to=functions.rm <|constrain|>json<|message|>{json}<|call|>"
    );
    let kimi = format!(
        "<|tool_calls_section_begin|><|tool_call_begin|>functions.rm:0<|tool_call_argument_begin|>{json}<|tool_call_end|><|tool_calls_section_end|>"
    );
    let deepseek = format!(
        "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>rm<｜tool▁sep｜>{json}<｜tool▁call▁end｜><｜tool▁calls▁end｜>"
    );
    for (dialect, input) in [
        (Dialect::Hermes, &hermes),
        (Dialect::Qwen3, &hermes),
        (Dialect::Harmony, &harmony),
        (Dialect::Kimi, &kimi),
        (Dialect::Deepseek, &deepseek),
    ] {
        one_call(
            dialect,
            input,
            kept,
            r#"{"path":"/tmp/safe"}"#,
            &["duplicate_parameter"],
        );
    }
}

/// Keys are compared as JSON reads them (`"p\u0061th"` is `"path"`), in nested objects
/// too (`duplicate_key`), and a left-out member takes its comma, value and nested objects
/// with it, wherever it stands.
#[test]
fn repeated_keys_at_every_level() {
    let input = r#"<tool_call>{"name": "f", "arguments": {"p\u0061th": "a", "o": {"k": 1, "k": {"x": [2]}, "j": "}"}, "path": "b", "l": [{"k": 1, "k": 2}]}}</tool_call>"#;
    one_call(
        Dialect::Qwen3,
        input,
        r#"{"p\u0061th": "a", "o": {"k": 1, "j": "}"}, "l": [{"k": 1}]}"#,
        r#"{"path":"a","o":{"k":1,"j":"}"},"l":[{"k":1}]}"#,
        // One diagnostic per left-out key, spanning the call (the same at every chunking):
        // the call's parameters first, then nested keys.
        &["duplicate_parameter", "duplicate_key", "duplicate_key"],
    );
}

/// The raw-text dialects already kept the first value of a repeated parameter; a value
/// that is JSON keeps the first value of its own repeated keys too.
#[test]
fn raw_text_parameters_repeat_like_json_keys() {
    let glm = "<tool_call>rm<arg_key>path</arg_key><arg_value>/tmp/safe</arg_value><arg_key>path</arg_key><arg_value>/</arg_value><arg_key>o</arg_key><arg_value>{\"k\": 1, \"k\": 2}</arg_value></tool_call>";
    let xml = "<invoke name=\"rm\"><parameter name=\"path\">/tmp/safe</parameter><parameter name=\"path\">/</parameter><parameter name=\"o\">{\"k\": 1, \"k\": 2}</parameter></invoke>";
    let coder = "<tool_call>\n<function=rm>\n<parameter=path>\n/tmp/safe\n</parameter>\n<parameter=path>\n/\n</parameter>\n<parameter=o>\n{\"k\": 1, \"k\": 2}\n</parameter>\n</function>\n</tool_call>";
    for (dialect, input) in [
        (Dialect::Glm, glm),
        (Dialect::Xml, xml),
        (Dialect::Qwen3Coder, coder),
    ] {
        one_call(
            dialect,
            input,
            r#"{"path":"/tmp/safe","o":{"k": 1}}"#,
            r#"{"path":"/tmp/safe","o":{"k":1}}"#,
            // The parameter's diagnostic spans its tag, the nested key's the whole call.
            &["duplicate_key", "duplicate_parameter"],
        );
    }
}

/// The literal dialects: a repeated keyword argument or dict key keeps its first value.
#[test]
fn literal_parameters_and_dict_keys_repeat_like_json_keys() {
    one_call(
        Dialect::Gemma,
        "<|tool_call>call:rm{path:<|\"|>/tmp/safe<|\"|>,path:<|\"|>/<|\"|>,o:{k:1,k:2}}<tool_call|>",
        r#"{"path":"/tmp/safe","o":{"k":1}}"#,
        r#"{"path":"/tmp/safe","o":{"k":1}}"#,
        &["duplicate_key", "duplicate_parameter"],
    );
    one_call(
        Dialect::Gemini,
        "```tool_code\nrm(path='/tmp/safe', path='/', o={'k': 1, 'k': 2})\n```",
        r#"{"path":"/tmp/safe","o":{"k":1}}"#,
        r#"{"path":"/tmp/safe","o":{"k":1}}"#,
        &["duplicate_key", "duplicate_parameter"],
    );
}

/// Leaving a repeated member out does not repair arguments that are not JSON: its value
/// must be one JSON value, else the call is text, as it would be without the filter.
#[test]
fn a_left_out_value_that_is_not_json_breaks_the_call() {
    let input = r#"<tool_call>{"name": "rm", "arguments": {"path": "/tmp/safe", "path": "/" "x"}}</tool_call>"#;
    let completion = harness::completion(Dialect::Qwen3, Options::default(), input);
    assert!(completion.tool_calls.is_empty(), "{completion:?}");
    assert_eq!(completion.content, input);
    assert_eq!(harness::codes(&completion), ["invalid_arguments"]);
}

/// A call cut off by the end of the stream keeps the first value too.
#[test]
fn a_cut_off_call_leaves_repeated_keys_out() {
    let input =
        r#"<tool_call>{"name": "rm", "arguments": {"path": "/tmp/safe", "path": "/", "x": 1"#;
    let completion = harness::completion(Dialect::Qwen3, Options::default(), input);
    assert_eq!(completion.incomplete_calls.len(), 1);
    assert_eq!(
        completion.incomplete_calls[0].arguments,
        r#"{"path": "/tmp/safe", "x": 1"#
    );
    assert_eq!(
        harness::codes(&completion),
        ["duplicate_parameter", "truncated_call"]
    );
}

/// Numbers beyond 64 bits, long decimals and exponents beyond f64 are the model's text in
/// the streamed arguments and keep their digits in the parsed ones (serde_json writes an
/// exponent as `e+N`); `1e999` is a number, not a reason to turn the call into text.
#[test]
fn numbers_are_kept_as_written_in_every_json_dialect() {
    let json = r#"{"big": 123456789012345678901234567890, "pi": 3.14159265358979323846264338327950288, "huge": 1e999, "tiny": -2.5E-400}"#;
    let parsed = r#"{"big":123456789012345678901234567890,"pi":3.14159265358979323846264338327950288,"huge":1e+999,"tiny":-2.5e-400}"#;
    let hermes = format!(r#"<tool_call>{{"name": "f", "arguments": {json}}}</tool_call>"#);
    let harmony = format!(
        "<|start|>assistant<|channel|>commentary to=functions.f <|constrain|>json<|message|>{json}<|call|>"
    );
    let kimi = format!(
        "<|tool_calls_section_begin|><|tool_call_begin|>functions.f:0<|tool_call_argument_begin|>{json}<|tool_call_end|><|tool_calls_section_end|>"
    );
    let deepseek = format!(
        "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>f<｜tool▁sep｜>{json}<｜tool▁call▁end｜><｜tool▁calls▁end｜>"
    );
    for (dialect, input) in [
        (Dialect::Hermes, &hermes),
        (Dialect::Harmony, &harmony),
        (Dialect::Kimi, &kimi),
        (Dialect::Deepseek, &deepseek),
    ] {
        one_call(dialect, input, json, parsed, &[]);
    }
}

/// Raw-text values typed as JSON (no schema: strict JSON) keep their number text.
#[test]
fn raw_text_numbers_are_kept_as_written() {
    let glm = "<tool_call>f<arg_key>big</arg_key><arg_value>123456789012345678901234567890</arg_value><arg_key>huge</arg_key><arg_value> 1e999 </arg_value></tool_call>";
    let xml = "<invoke name=\"f\"><parameter name=\"big\">123456789012345678901234567890</parameter><parameter name=\"huge\"> 1e999 </parameter></invoke>";
    for (dialect, input) in [(Dialect::Glm, glm), (Dialect::Xml, xml)] {
        one_call(
            dialect,
            input,
            r#"{"big":123456789012345678901234567890,"huge":1e999}"#,
            r#"{"big":123456789012345678901234567890,"huge":1e+999}"#,
            &[],
        );
    }
}

/// Literal numbers: a JSON number is written as it is; other Python numbers as the same
/// value in JSON, every digit kept.
#[test]
fn literal_numbers_are_kept_as_written() {
    one_call(
        Dialect::Gemma,
        "<|tool_call>call:f{big:123456789012345678901234567890,e:1E5,huge:1e999}<tool_call|>",
        r#"{"big":123456789012345678901234567890,"e":1E5,"huge":1e999}"#,
        r#"{"big":123456789012345678901234567890,"e":1e+5,"huge":1e+999}"#,
        &[],
    );
    one_call(
        Dialect::Gemini,
        "```tool_code\nf(big=123456789012345678901234567890, u=1_000_000_000_000_000_000_000, x=0x1F, d=0.10000000000000000000001)\n```",
        r#"{"big":123456789012345678901234567890,"u":1000000000000000000000,"x":31,"d":0.10000000000000000000001}"#,
        r#"{"big":123456789012345678901234567890,"u":1000000000000000000000,"x":31,"d":0.10000000000000000000001}"#,
        &[],
    );
}

/// Raw-text values typed by the tools' schemas: an `integer` admits an integral number of
/// any size (decided on its digits, not through f64), a `number` any number; both keep
/// the model's text.
#[test]
fn schema_typed_numbers_are_kept_as_written() {
    let tools = inband_alloc::tools::ToolSet::from_json(
        br#"[{"type": "function", "function": {"name": "f", "parameters": {"type": "object",
            "properties": {"i": {"type": "integer"}, "j": {"type": "integer"},
            "x": {"type": "number"}, "s": {"type": ["string", "integer"]}}}}}]"#,
    )
    .unwrap();
    let mut options = AssembleOptions::seeded(1);
    options.tools = Some(tools);
    let input = "<invoke name=\"f\"><parameter name=\"i\">123456789012345678901234567890</parameter><parameter name=\"j\">1.5E999</parameter><parameter name=\"x\">1e-999</parameter><parameter name=\"s\">2.50</parameter></invoke>";
    let completion =
        harness::completion_bytewise(Dialect::Xml, Options::default(), &options, input);
    assert_eq!(harness::codes(&completion), Vec::<&str>::new());
    let call = &completion.tool_calls[0];
    assert_eq!(
        call.arguments_text(),
        r#"{"i":123456789012345678901234567890,"j":1.5E999,"x":1e-999,"s":"2.50"}"#
    );
    assert_eq!(
        serde_json::to_string(call).unwrap(),
        r#"{"id":"call_rmjUd34YhLQsNcI4JR8qpsfW","name":"f","arguments":{"i":123456789012345678901234567890,"j":1.5E999,"x":1e-999,"s":"2.50"}}"#
    );
}
