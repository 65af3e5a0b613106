//! Calls cut off by the end of the stream whose arguments come as parameters: the
//! incomplete call's argument text ends with the value being written, as far as it was
//! written (raw-text values in xml and glm, untyped, typed by a schema or marked by DSML;
//! literal values in gemma and gemini), the same at every chunking, and the same as the
//! call's concatenated `function.arguments` fragments of a delta stream.

use inband::{Dialect, Options, Scanner};
use inband_alloc::assemble::{assemble, AssembleOptions};
use inband_alloc::stream::{DeltaStream, Retain};
use inband_alloc::tools::ToolSet;

/// The concatenated argument fragments of the one call a stream fed `chunks` sent (`None`
/// when it was cut off before it was sent), and its completion's incomplete call's
/// argument text.
fn streamed(
    dialect: Dialect,
    options: &AssembleOptions,
    retain: Retain,
    chunks: &[&[u8]],
) -> (Option<String>, String) {
    let mut scanner = Scanner::new(dialect, Options::default());
    let mut stream = DeltaStream::retaining(dialect, options, retain);
    let mut sent: Option<String> = None;
    let mut add = |calls: Vec<inband_alloc::stream::ToolCallDelta>| {
        for call in calls {
            sent.get_or_insert_default().push_str(&call.arguments);
        }
    };
    for chunk in chunks {
        scanner.feed(chunk, &mut stream).unwrap();
        add(stream.take_delta().tool_calls);
    }
    scanner.finish(&mut stream).unwrap();
    let (last, _, completion) = stream.finish();
    add(last.tool_calls);
    assert_eq!(completion.incomplete_calls.len(), 1, "{completion:?}");
    (sent, completion.incomplete_calls[0].arguments.clone())
}

/// The one incomplete call's argument text for `input`, checked to be the same fed whole,
/// in chunks of every size, and split in two at every byte.
fn cut(dialect: Dialect, tools: Option<&str>, input: &str) -> String {
    let mut options = AssembleOptions::seeded(5);
    options.tools = tools.map(|t| ToolSet::from_json(t.as_bytes()).unwrap());
    let bytes = input.as_bytes();
    let arguments = |chunks: Vec<&[u8]>| {
        let completion = assemble(dialect, Options::default(), &options, chunks);
        assert!(completion.tool_calls.is_empty(), "{completion:?}");
        assert_eq!(completion.incomplete_calls.len(), 1, "{completion:?}");
        completion.incomplete_calls[0].arguments.clone()
    };
    let whole = arguments(vec![bytes]);
    for size in 1..=bytes.len() {
        let chunks: Vec<&[u8]> = bytes.chunks(size).collect();
        for retain in [Retain::Completion, Retain::Unsent] {
            let (sent, incomplete) = streamed(dialect, &options, retain, &chunks);
            assert_eq!(
                (sent.as_ref().unwrap_or(&whole), &incomplete),
                (&whole, &whole),
                "{dialect} {retain:?} stream in chunks of {size}: {input:?}"
            );
        }
    }
    for size in 1..bytes.len() {
        assert_eq!(
            arguments(bytes.chunks(size).collect()),
            whole,
            "{dialect} chunks of {size}: {input:?}"
        );
    }
    for at in 1..bytes.len() {
        let (a, b) = bytes.split_at(at);
        assert_eq!(
            arguments(vec![a, b]),
            whole,
            "{dialect} split at {at}: {input:?}"
        );
    }
    whole
}

#[test]
fn xml_untyped_values_are_unterminated_strings() {
    let xml = |input: &str| cut(Dialect::Xml, None, input);
    assert_eq!(
        xml(r#"<invoke name="f"><parameter name="a">x"#),
        r#"{"a":"x"#
    );
    assert_eq!(
        xml(
            "<invoke name=\"f\"><parameter name=\"a\">1</parameter><parameter name=\"b\">[1, \"q\n"
        ),
        // The last line break could begin a `\n<parameter` line: held as a delimiter's
        // start, it is the call's markup when the stream ends there.
        r#"{"a":1,"b":"[1, \"q"#
    );
    assert_eq!(
        xml(r#"<invoke name="f"><parameter name="a">12"#),
        r#"{"a":"12"#
    );
    assert_eq!(xml(r#"<invoke name="f"><parameter name="a">"#), r#"{"a":""#);
}

/// One tool, `t`, with a parameter per typing rule.
const TOOLS: &str = r#"[{"name": "t", "parameters": {"type": "object", "properties": {
    "s": {"type": "string"},
    "n": {"type": "integer"},
    "l": {"type": "array"},
    "u": {"type": ["string", "integer"]}
}}}]"#;

#[test]
fn xml_values_typed_by_the_schema_or_dsml() {
    let xml = |input: &str| cut(Dialect::Xml, Some(TOOLS), input);
    let invoke =
        |param: &str, value: &str| format!(r#"<invoke name="t"><parameter name="{param}">{value}"#);
    // A string streams; a value admitting no string is its text; a union with strings
    // is an unterminated string.
    assert_eq!(xml(&invoke("s", " a b")), r#"{"s":" a b"#);
    assert_eq!(xml(&invoke("n", "\n 12")), r#"{"n":12"#);
    assert_eq!(xml(&invoke("l", " [1, 2")), r#"{"l":[1, 2"#);
    assert_eq!(xml(&invoke("u", "7")), r#"{"u":"7"#);
    // DSML marks override the schema.
    assert_eq!(
        xml("<｜DSML｜function_calls><｜DSML｜invoke name=\"t\"><｜DSML｜parameter name=\"s\" string=\"false\"> {\"k\": [1"),
        r#"{"s":{"k": [1"#
    );
    assert_eq!(
        xml("<｜DSML｜function_calls><｜DSML｜invoke name=\"t\"><｜DSML｜parameter name=\"n\" string=\"true\">1 2"),
        r#"{"n":"1 2"#
    );
}

#[test]
fn glm_values_keep_what_was_written() {
    let glm = |input: &str| cut(Dialect::Glm, None, input);
    assert_eq!(
        glm("<tool_call>f<arg_key>a</arg_key><arg_value>x\ny"),
        r#"{"a":"x\ny"#
    );
    assert_eq!(
        glm("<tool_call>f\n<arg_key>a</arg_key>\n<arg_value>1</arg_value>\n<arg_key>b</arg_key>\n<arg_value>{\"k\":"),
        r#"{"a":1,"b":"{\"k\":"#
    );
    // The start of a closer the stream never finished is value text.
    assert_eq!(
        glm("<tool_call>f<arg_key>a</arg_key><arg_value>x</arg_v"),
        r#"{"a":"x</arg_v"#
    );
}

#[test]
fn gemma_literals_as_far_as_they_went() {
    let gemma = |value: &str| {
        cut(
            Dialect::Gemma,
            None,
            &format!("<|tool_call>call:f{{{value}"),
        )
    };
    assert_eq!(gemma("a:<|\"|>x y"), r#"{"a":"x y"#);
    assert_eq!(gemma("a:12"), r#"{"a":12"#);
    assert_eq!(gemma("a:true"), r#"{"a":true"#);
    assert_eq!(gemma("a:Tru"), r#"{"a":"Tru"#);
    assert_eq!(gemma("a:[1,2"), r#"{"a":[1,2"#);
    assert_eq!(gemma("a:[1,"), r#"{"a":[1,"#);
    assert_eq!(gemma("a:{k"), r#"{"a":{"k"#);
    assert_eq!(gemma("a:{k:<|\"|>v<|\"|>"), r#"{"a":{"k":"v""#);
    assert_eq!(gemma("n:1,a:[<|\"|>x"), r#"{"n":1,"a":["x"#);
}

#[test]
fn gemini_literals_as_far_as_they_went() {
    let gemini = |args: &str| cut(Dialect::Gemini, None, &format!("```tool_code\nf({args}"));
    assert_eq!(gemini(r#"a="x\n y"#), r#"{"a":"x\n y"#);
    assert_eq!(gemini("a=12"), r#"{"a":12"#);
    assert_eq!(gemini("a=0x1F"), r#"{"a":31"#);
    assert_eq!(gemini("a=None"), r#"{"a":null"#);
    assert_eq!(gemini("a=Tru"), r#"{"a":"Tru"#);
    // A closed string stays closed; adjacent strings are one.
    assert_eq!(gemini(r#"a="x" "#), r#"{"a":"x""#);
    assert_eq!(gemini(r#"a="x" "y"#), r#"{"a":"xy"#);
    // An escape cut off is its text.
    assert_eq!(gemini(r#"a="\u12"#), r#"{"a":"\\u12"#);
    // A call written as a value is the string of its text; `(` undecided is grouping.
    assert_eq!(gemini("a=g(1"), r#"{"a":"g(1"#);
    assert_eq!(gemini("a=(1"), r#"{"a":1"#);
    assert_eq!(gemini("a=(1, 2"), r#"{"a":[1,2"#);
    assert_eq!(gemini("a=[1, "), r#"{"a":[1,"#);
    assert_eq!(gemini("a={'k': 1.5"), r#"{"a":{"k":1.5"#);
}

/// JSON arguments cut off inside a key, an escape or a repeated member: the key filter's
/// and the normaliser's held bytes end the text, streamed and assembled alike.
#[test]
fn json_arguments_cut_inside_a_key_or_an_escape() {
    let qwen3 = |args: &str| {
        cut(
            Dialect::Qwen3,
            None,
            &format!("<tool_call>{{\"name\": \"rm\", \"arguments\": {args}"),
        )
    };
    assert_eq!(
        qwen3(r#"{"path": "/tmp/safe", "pa"#),
        r#"{"path": "/tmp/safe", "pa"#
    );
    assert_eq!(qwen3(r#"{"path": "C:\"#), r#"{"path": "C:\\"#);
    // A repeated key is left out even when the stream ends in its value.
    assert_eq!(
        qwen3(r#"{"path": "/tmp/safe", "path": "/"#),
        r#"{"path": "/tmp/safe""#
    );
    assert_eq!(
        cut(
            Dialect::Kimi,
            None,
            "<|tool_calls_section_begin|><|tool_call_begin|>functions.rm:0<|tool_call_argument_begin|>{\"a\": {\"k\": 1, \"k"
        ),
        r#"{"a": {"k": 1, "k"#
    );
}

/// A call cut off by a stop token before the stream ends (qwen3-coder's `<|im_end|>` in a
/// value) has its argument text ended there: the stream sends the held value with the
/// call's last delta, as `incomplete_calls` has it (found by the `arguments` fuzz target).
#[test]
fn a_call_cut_off_by_a_stop_token_sends_its_held_value() {
    assert_eq!(
        cut(
            Dialect::Qwen3Coder,
            Some(TOOLS),
            "<tool_call>\n<function=t>\n<parameter=s>\nab\n</parameter>\n<parameter=n>\n1e999<|im_end|>more"
        ),
        "{\"s\":\"ab\",\"n\":1e999"
    );
}
