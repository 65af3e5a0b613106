//! Gemma 4 scanning behaviours: docs/seed.md §2.11 and §5.2 (items 12–18), §5.3, as
//! amended by docs/dialects.md and docs/dialects.md §gemma, pinned as exact values. Every input
//! also goes through the chunking harness, so each behaviour holds for every split.

use inband::{CallEnd, Dialect, Options};
use inband_alloc::assemble::{AssembleOptions, Completion};
use inband_alloc::stream::DeltaStream;
use serde_json::{json, Value};

use crate::harness;

fn scan_with(options: Options, input: &str) -> Vec<String> {
    harness::scan(Dialect::Gemma, options, input)
}

fn scan(input: &str) -> Vec<String> {
    scan_with(Options::default(), input)
}

/// The completion of `input`, the same whole and one byte at a time, after the chunking
/// harness has checked the events.
fn complete(input: &str) -> Completion {
    harness::completion_bytewise(
        Dialect::Gemma,
        Options::default(),
        &AssembleOptions::seeded(5),
        input,
    )
}

/// The complete calls of `input` as (name, arguments).
fn calls(input: &str) -> Vec<(String, Value)> {
    harness::calls(&complete(input))
}

fn one(name: &str, arguments: Value) -> Vec<(String, Value)> {
    vec![(name.to_owned(), arguments)]
}

/// docs/seed.md §5.2 item 15: every value type.
#[test]
fn value_types() {
    assert_eq!(
        calls("<|tool_call>call:f{b:true,z:null,n:3,arr:[<|\"|>a<|\"|>,<|\"|>b<|\"|>],obj:{k:<|\"|>v<|\"|>}}<tool_call|>"),
        one("f", json!({"b": true, "z": null, "n": 3, "arr": ["a", "b"], "obj": {"k": "v"}}))
    );
    assert_eq!(
        calls("<|tool_call>call:f{x:-1.5e3,y:[],z:{},w:[[1,[2]],{a:{b:false}}],e:<|\"|><|\"|>}<tool_call|>"),
        // The number as written (serde_json keeps its digits; its exponent as `e+3`).
        one("f", serde_json::from_str(r#"{"x": -1.5e3, "y": [], "z": {}, "w": [[1, [2]], {"a": {"b": false}}], "e": ""}"#).unwrap())
    );
}

/// docs/seed.md §5.2 items 16 and 18: consecutive blocks are consecutive calls; the seed's
/// rendering of two calls scans back.
#[test]
fn consecutive_calls() {
    let rendered = "<|tool_call>call:read{path:<|\"|>a<|\"|>}<tool_call|><|tool_call>call:write{path:<|\"|>b<|\"|>,content:<|\"|>c<|\"|>}<tool_call|>";
    assert_eq!(
        calls(rendered),
        vec![
            ("read".to_owned(), json!({"path": "a"})),
            ("write".to_owned(), json!({"path": "b", "content": "c"})),
        ]
    );
    assert_eq!(complete(rendered).content, "");
}

/// docs/seed.md §5.2 item 17, and prose around a call.
#[test]
fn prose_around_a_call() {
    let completion = complete(
        "Let me read it.\n<|tool_call>call:read{path:<|\"|>a.ts<|\"|>,count:7}<tool_call|>\nDone.",
    );
    assert_eq!(completion.content, "Let me read it.\n\nDone.");
    assert_eq!(completion.tool_calls[0].name, "read");
    assert!(completion.diagnostics.is_empty());
}

/// Rule 7: a call inside reasoning that closes is a draft; inside reasoning that never
/// closes, a call.
#[test]
fn calls_inside_reasoning() {
    let call = "<|tool_call>call:f{a:1}<tool_call|>";
    let demoted = complete(&format!("<|channel>thought\nmaybe {call} no<channel|>ok"));
    assert!(demoted.tool_calls.is_empty());
    assert_eq!(
        demoted.reasoning.as_deref(),
        Some(&*format!("maybe {call} no"))
    );
    assert_eq!(demoted.content, "ok");
    let kept = complete(&format!("<|channel>thought\nnow {call}"));
    assert_eq!(kept.tool_calls.len(), 1);
    assert_eq!(kept.reasoning.as_deref(), Some("now"));
}

/// docs/dialects.md §gemma and corpus 047: a `<|"|>` closes a string only before `,` `}` `]`.
#[test]
fn interior_quote_tokens_are_literal_quotes() {
    assert_eq!(
        scan("<|tool_call>call:f{s:<|\"|>a<|\"|>b<|\"|> ,t:1}<tool_call|>")[4..],
        [
            "P0:s:gemma",
            "V0:StringOpen\"<|\\\"|>\"",
            "V0:Raw\"a\"",
            "V0:LiteralQuote\"<|\\\"|>\"",
            "V0:Raw\"b\"",
            "V0:StringClose\"<|\\\"|>\"",
            "E\" \"",
            "P-0",
            "E\",t:\"",
            "P0:t:gemma",
            "V0:Bare\"1\"",
            "P-0",
            "E\"}\"",
            "<CallClose>",
            "X0:Complete",
        ]
    );
    assert_eq!(
        calls("<|tool_call>call:f{s:<|\"|>say <|\"|>hi<|\"|> now<|\"|>,l:[<|\"|>x<|\"|>\n ]}<tool_call|>"),
        one("f", json!({"s": "say \"hi\" now", "l": ["x"]}))
    );
    // `)` closes only in the parenthesized form.
    assert_eq!(
        calls("<|tool_call>call:f{s:<|\"|>f(<|\"|>x<|\"|>)<|\"|>}<tool_call|>"),
        one("f", json!({"s": "f(\"x\")"}))
    );
}

/// The look-ahead is bounded: after more than `MAX_LOOKAHEAD` bytes of whitespace the
/// quote token is a literal quote, and the whitespace string text.
#[test]
fn look_ahead_is_bounded() {
    let near = " ".repeat(inband::MAX_LOOKAHEAD);
    assert_eq!(
        calls(&format!(
            "<|tool_call>call:f{{s:<|\"|>a<|\"|>{near}}}<tool_call|>"
        )),
        one("f", json!({"s": "a"}))
    );
    let far = " ".repeat(inband::MAX_LOOKAHEAD + 1);
    let completion = complete(&format!(
        "<|tool_call>call:f{{s:<|\"|>a<|\"|>{far}b<|\"|>}}<tool_call|>"
    ));
    let text = serde_json::to_string(&completion.tool_calls[0].arguments).unwrap();
    let arguments: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(arguments, json!({"s": format!("a\"{far}b")}));
}

/// Corpus 049: strings in JSON or Python quotes, and quoted keys, with a diagnostic.
#[test]
fn json_and_python_quotes() {
    let input =
        "<|tool_call>call:f{a:[\"x\\\"y\",'z'],\"k\":{\"m\": \"n\\u00e9\"},p:'q'}<tool_call|>";
    let completion = complete(input);
    assert_eq!(
        calls(input),
        one("f", json!({"a": ["x\"y", "z"], "k": {"m": "né"}, "p": "q"}))
    );
    let codes: Vec<&str> = completion.diagnostics.iter().map(|d| d.code).collect();
    assert_eq!(codes, ["quoted_string"]);
}

/// Bare words that are not numbers or keywords are kept as strings (docs/seed.md §2.11 (c)),
/// with a `repaired_arguments` diagnostic.
#[test]
fn bare_words() {
    let input = "<|tool_call>call:f{a:foo bar ,b:[x y,None],c:1_000,d:0x10}<tool_call|>";
    assert_eq!(
        calls(input),
        one(
            "f",
            json!({"a": "foo bar", "b": ["x y", null], "c": 1000, "d": 16})
        )
    );
    let codes: Vec<&str> = complete(input).diagnostics.iter().map(|d| d.code).collect();
    assert_eq!(codes, ["repaired_arguments"]);
}

/// Rule 3 and rule 13: a missing closer after a complete body, or a missing last brace
/// before the closer, is recovered with a diagnostic; a call cut off is incomplete.
#[test]
fn missing_structure() {
    assert_eq!(
        scan("<|tool_call>call:f{a:1}\nok"),
        [
            "<CallOpen>",
            "E\"call:f\"",
            "S0:f",
            "E\"{a:\"",
            "P0:a:gemma",
            "V0:Bare\"1\"",
            "P-0",
            "E\"}\\n\"",
            "D:missing_closer",
            "X0:Complete",
            "T\"ok\"",
        ]
    );
    let log = scan("<|tool_call>call:f{a:<|\"|>x<|\"|><tool_call|>");
    // The string never closed: `<` does not close it.
    assert_eq!(log.last().unwrap(), "X0:Incomplete");
    assert_eq!(
        scan("<|tool_call>call:f{a:1<tool_call|>")[6..],
        ["P-0", "<CallClose>", "D:unclosed_body", "X0:Complete"]
    );
    let truncated = complete("<|tool_call>call:write{path:<|\"|>a.t");
    assert!(truncated.tool_calls.is_empty());
    assert_eq!(truncated.content, "");
    assert_eq!(truncated.incomplete_calls[0].arguments, "{\"path\":\"a.t");
    let harness = harness::check(
        Dialect::Gemma,
        Options::default(),
        b"<|tool_call>call:f{a:<|\"|>x<|\"|>",
    );
    assert_eq!(harness::ends(&harness), [CallEnd::Incomplete]);
}

/// Rule 2: structure that breaks is released as text with a diagnostic.
#[test]
fn broken_calls_are_text() {
    for (input, code) in [
        (
            "<|tool_call>read{path:1}<tool_call|>after",
            "malformed_call",
        ),
        (
            "<|tool_call>call:my tool{a:1}<tool_call|>after",
            "invalid_name",
        ),
        ("<|tool_call>call:f{a 1}<tool_call|>after", "malformed_call"),
        (
            "<|tool_call>call:f{a:1 <|\"|>x<|\"|>}<tool_call|>after",
            "malformed_call",
        ),
    ] {
        let completion = complete(input);
        assert!(completion.tool_calls.is_empty(), "{input}");
        assert!(
            completion.content.ends_with("after"),
            "{input}: {:?}",
            completion.content
        );
        assert!(completion.content.starts_with("<|tool_call>"), "{input}");
        assert_eq!(completion.diagnostics[0].code, code, "{input}");
    }
}

/// Rules 5 and 12: a result opener is a fabricated result only in content; stray special
/// tokens are removed; stop tokens end a call.
#[test]
fn tokens_outside_calls() {
    assert_eq!(
        scan("a<|tool_response>b"),
        ["T\"a\"", "<ResultOpen>", "F", "T\"b\""]
    );
    assert!(
        !scan("<|tool_call>call:f{a:<|\"|><|tool_response><|\"|>}<tool_call|>")
            .contains(&"F".to_owned())
    );
    assert_eq!(
        scan("a<tool_call|>b<turn|>"),
        ["T\"a\"", "<Stray>", "D:stray_token", "T\"b\"", "<Stop>",]
    );
    let log = scan("<|tool_call>call:f{a:1,<turn|>");
    assert_eq!(
        log[log.len() - 3..],
        ["D:truncated_call", "X0:Incomplete", "<Stop>"]
    );
}

/// Limits: the argument budget ends the call on the same byte whatever the chunking.
#[test]
fn limits() {
    let mut options = Options::default();
    options.max_argument_bytes = 20;
    let log = scan_with(
        options,
        "<|tool_call>call:f{a:<|\"|>0123456789<|\"|>}<tool_call|>",
    );
    assert!(log.contains(&"D:arguments_too_long".to_owned()), "{log:?}");
    assert!(log.contains(&"X0:Invalid".to_owned()));
    options.max_argument_bytes = 0;
    scan_with(options, "<|tool_call>call:f{}<tool_call|><|tool_call>");
    options.max_calls = 1;
    options.max_argument_bytes = 1 << 20;
    let log = scan_with(
        options,
        "<|tool_call>call:f{}<tool_call|><|tool_call>call:g{}<tool_call|>",
    );
    assert!(log.contains(&"D:too_many_calls".to_owned()), "{log:?}");
}

/// A client sees argument deltas whose concatenation is the final JSON, from the name on.
#[test]
fn arguments_stream_as_json() {
    let input = "<|tool_call>call:write{path:<|\"|>a.md<|\"|>,content:<|\"|>line 1\nline \"2\"<|\"|>,n:[1,2]}<tool_call|>";
    harness::check(Dialect::Gemma, Options::default(), input.as_bytes());
    for size in [1, 3, 7, input.len()] {
        let mut scanner = inband::Scanner::new(Dialect::Gemma, Options::default());
        let mut stream = DeltaStream::new(Dialect::Gemma, &AssembleOptions::seeded(1));
        let mut arguments = String::new();
        let mut deltas = 0;
        for chunk in input.as_bytes().chunks(size) {
            scanner.feed(chunk, &mut stream).unwrap();
            for call in stream.take_delta().tool_calls {
                arguments.push_str(&call.arguments);
                deltas += 1;
            }
        }
        scanner.finish(&mut stream).unwrap();
        let (last, reason, completion) = stream.finish();
        for call in last.tool_calls {
            arguments.push_str(&call.arguments);
        }
        assert_eq!(reason, "tool_calls");
        assert_eq!(
            arguments,
            r#"{"path":"a.md","content":"line 1\nline \"2\"","n":[1,2]}"#
        );
        let parsed: Value = serde_json::from_str(&arguments).unwrap();
        let text = serde_json::to_string(&completion.tool_calls[0].arguments).unwrap();
        assert_eq!(parsed, serde_json::from_str::<Value>(&text).unwrap());
        if size == 1 {
            assert!(deltas > 10, "arguments stream: {deltas} deltas");
        }
    }
}

/// Drift (docs/dialects.md rule 13): Gemma 3's Python calls in a ```` ```tool_code ```` fence are
/// read as the `gemini` dialect reads them, with a diagnostic.
#[test]
fn gemma3_tool_code_block() {
    let input =
        "I will look.\n```tool_code\nprint(default_api.read(path=\"a.ts\", count=2))\n```\nok";
    let completion = complete(input);
    assert_eq!(completion.content, "I will look.\n\nok");
    assert_eq!(
        calls(input),
        one("read", json!({"path": "a.ts", "count": 2}))
    );
    let codes: Vec<&str> = completion.diagnostics.iter().map(|d| d.code).collect();
    assert_eq!(codes, ["tool_code_block"]);
    // Ordinary code in such a fence stays text.
    let code = "```tool_code\nimport os\n```";
    assert_eq!(complete(code).content, code);
    // A call cut off inside the block is incomplete.
    let log = harness::check(Dialect::Gemma, Options::default(), b"```tool_code\nf(a='x");
    assert_eq!(harness::ends(&log), [CallEnd::Incomplete]);
}

/// docs/seed.md §5.3 items 2–4 and 36: reasoning then calls; the seed's rendering of reasoning; an
/// unclosed block ends with the stream.
#[test]
fn reasoning_and_calls() {
    let completion = complete("<|channel>thought\nreasoning<channel|>reply");
    assert_eq!(completion.reasoning.as_deref(), Some("reasoning"));
    assert_eq!(completion.content, "reply");
    let completion = complete(
        "<|channel>thought\nstep one\n<channel|><|tool_call>call:foo{x:1}<tool_call|>done",
    );
    assert_eq!(completion.reasoning.as_deref(), Some("step one"));
    assert_eq!(completion.content, "done");
    assert_eq!(completion.tool_calls[0].name, "foo");
    assert_eq!(
        scan("<|channel>thought\npartial")[2..],
        ["R\"partial\"", "D:unclosed_reasoning", "R-"]
    );
}

/// Found by review: inside a value, lists and objects were checked only for depth, so an
/// object key without its value (`{b}`, `{b:}`), a `:` after a list's string element,
/// a `,` after a key, a closer of the other kind, or a list or object as a key made a
/// "complete" call whose arguments were not JSON (and `{c:1 d:2}` one whose `:` after a
/// value broke them). Such a value now breaks the call where it goes wrong, as at the top
/// level; the text comes back whole. A `:` ends a bare word only at an object's key, so a
/// bare value keeps it, as at the top level (`{c:1 d:2}` is `{"c":"1 d:2"}`).
#[test]
fn nested_structure_is_checked() {
    let deep = format!("{}1{}", "[".repeat(65), "]".repeat(65));
    for value in [
        "{b}",
        "{b:}",
        "[\"x\":2]",
        "{b,c:1}",
        "[1}",
        "{b:1]",
        "{[1]:2}",
        "{{b:1}:2}",
        "[1,,2]",
        &deep,
    ] {
        let input = format!("<|tool_call>call:f{{a:{value},n:1}}<tool_call|>after");
        let completion = complete(&input);
        assert!(completion.tool_calls.is_empty(), "{value}");
        // The closer, a special token, is removed from the text (rule 12).
        assert_eq!(
            completion.content,
            input.replace("<tool_call|>", ""),
            "{value}"
        );
        let codes: Vec<&str> = completion
            .diagnostics
            .iter()
            .map(|d| d.code)
            .filter(|&code| code != "quoted_string")
            .collect();
        assert_eq!(codes, ["malformed_call", "stray_token"], "{value}");
    }
    assert_eq!(
        scan("<|tool_call>call:f{a:{b}}<tool_call|>")[..9],
        [
            "<CallOpen>",
            "E\"call:f\"",
            "S0:f",
            "E\"{a:\"",
            "P0:a:gemma",
            "V0:Punct\"{\"",
            "V0:Bare\"b\"",
            "D:malformed_call",
            "X0:Invalid",
        ]
    );
    // What stays well-formed: trailing commas, words joined by spaces, nesting to 64.
    let deep = format!("{}1{}", "[".repeat(64), "]".repeat(64));
    let input = format!(
        "<|tool_call>call:f{{a:{{b:1,}},c:[1,],d:{{e f:1}},g:[{{h:[]}},{{}}],i:{deep}}}<tool_call|>"
    );
    let arguments = calls(&input);
    assert_eq!(arguments[0].1["g"], json!([{"h": []}, {}]),);
    assert_eq!(
        arguments[0].1.as_object().unwrap().len(),
        5,
        "{arguments:?}"
    );
    assert_eq!(arguments[0].1["a"], json!({"b": 1}));
    assert_eq!(arguments[0].1["c"], json!([1]));
    assert_eq!(arguments[0].1["d"], json!({"e f": 1}));
    assert_eq!(
        calls("<|tool_call>call:f{a:{c:1 d:2},b:[x:y,1:2],c:x:y}<tool_call|>"),
        one(
            "f",
            json!({"a": {"c": "1 d:2"}, "b": ["x:y", "1:2"], "c": "x:y"})
        )
    );
}
