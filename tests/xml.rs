//! The `xml` dialect (the markup family, plain and DSML tagsets): docs/seed.md §2.4, §2.5,
//! §2.7 and the xml/DSML lines of §5.1 and §5.12, as amended by docs/dialects.md. The cases
//! that are an input and its exact event log or completion are in tests/cases/xml.md; here
//! are the rest: logs checked from an offset, per-feed logs (look-ahead across chunk
//! boundaries, rule 4, pinned at chosen splits), spans, the deepseek comparison, deltas,
//! limits, allocation, generated inputs and properties. Every input goes through the
//! chunking harness, so each behaviour holds for every split.

use inband::{CallEnd, Dialect, Options, Scanner};
use inband_alloc::assemble::{AssembleOptions, Completion};
use inband_alloc::events::EventLog;
use inband_alloc::stream::DeltaStream;
use proptest::prelude::*;
use serde_json::{json, Value};

use crate::harness;
use crate::harness::{call, calls, codes, render};

const DIALECT: Dialect = Dialect::Xml;

fn scan(input: &str) -> Vec<String> {
    harness::scan(DIALECT, Options::default(), input)
}

fn completion(input: &str) -> Completion {
    harness::completion(DIALECT, Options::default(), input)
}

/// docs/seed.md §2.5 (g): the xml dialect keeps DeepSeek's DSML tagset, and it is the `deepseek`
/// dialect's own (one table, one machine): a DSML block gives the same events in both.
#[test]
fn dsml_reads_the_same_as_in_deepseek() {
    let invoke = "<｜DSML｜invoke name=\"f\">\n<｜DSML｜parameter name=\"k\" string=\"true\">a </｜DSML｜parameter> 城</｜DSML｜parameter>\n<｜DSML｜parameter name=\"n\" string=\"false\">[1]</｜DSML｜parameter>\n</｜DSML｜invoke>";
    for input in [
        format!("Prose.\n\n<｜DSML｜function_calls>\n{invoke}\n</｜DSML｜function_calls>"),
        format!(
            "<|DSML|tool_calls>{}</|DSML|tool_calls>",
            invoke.replace('｜', "|")
        ),
        format!("<think>p <｜DSML｜tool_calls>{invoke}</｜DSML｜tool_calls></think>x"),
        format!("<think><｜DSML｜tool_calls>{invoke}"),
        format!("<｜DSML｜tool_calls>{}<｜end▁of▁sentence｜>", &invoke[..60]),
        "<｜DSML｜tool_calls> prose".to_owned(),
    ] {
        let deepseek = render(&harness::check(
            Dialect::Deepseek,
            Options::default(),
            input.as_bytes(),
        ));
        assert_eq!(scan(&input), deepseek, "{input}");
    }
}

/// docs/seed.md §5.1 item 3, xml and DSML: values stream as they arrive; a partial closer is held
/// (no end, no closer text in the value); the call ends after the last value.
#[test]
fn seed_streaming_deltas_per_feed() {
    let plain = [
        "<function_calls>\n<invoke name=\"read\"><parameter name=\"path\">",
        "src/",
        "a.ts</para",
        "meter><parameter name=\"count\" string=\"false\">",
        "2</para",
        "meter></invoke>\n</function_calls>",
    ];
    assert_eq!(
        harness::per_feed(DIALECT, &plain),
        [
            vec![
                "<SectionOpen>",
                "E\"\\n\"",
                "<CallOpen>",
                "E\" name=\\\"read\\\">\"",
                "S0:read",
                "<ParamOpen>",
                "E\" name=\\\"path\\\">\"",
                "P0:path:untyped",
            ],
            vec!["V0:Verbatim\"src/\""],
            vec!["V0:Verbatim\"a.ts\""],
            vec![
                "<ParamClose>",
                "P-0",
                "<ParamOpen>",
                "E\" name=\\\"count\\\" string=\\\"false\\\">\"",
                "P0:count:json",
            ],
            vec!["V0:Verbatim\"2\""],
            vec![
                "<ParamClose>",
                "P-0",
                "<CallClose>",
                "X0:Complete",
                "E\"\\n\"",
                "<SectionClose>",
            ],
        ]
    );
    let dsml = [
        "<｜DSML｜tool_calls>\n<｜DSML｜invoke name=\"read\"><｜DSML｜parameter name=\"path\" string=\"true\">",
        "src/",
        "a.ts</｜DSML｜para",
        "meter><｜DSML｜parameter name=\"count\" string=\"false\">",
        "2</｜DSML｜para",
        "meter></｜DSML｜invoke>\n</｜DSML｜tool_calls>",
    ];
    let feeds = harness::per_feed(DIALECT, &dsml);
    assert_eq!(feeds[1], ["V0:Verbatim\"src/\""]);
    assert_eq!(feeds[2], ["V0:Verbatim\"a.ts\""]);
    assert_eq!(feeds[4], ["V0:Verbatim\"2\""]);
    assert_eq!(feeds[5][3], "X0:Complete");
    for chunks in [&plain[..], &dsml[..]] {
        let completion = harness::assembled(
            DIALECT,
            Options::default(),
            chunks.iter().map(|c| c.as_bytes()),
        );
        assert_eq!(
            calls(&completion),
            [call("read", json!({"path": "src/a.ts", "count": 2}))]
        );
    }
}

/// docs/seed.md §5.1 item 4: the bytes from the invoke opener through its closer, reported as the
/// call's markup and values, are the invoke as written (wrapper excluded).
#[test]
fn seed_invoke_bytes_are_the_call_block() {
    for (input, block) in [
        (
            "<function_calls>\n<invoke name=\"read\"><parameter name=\"path\" string=\"true\">src/a.ts</parameter></invoke>\n</function_calls>",
            "<invoke name=\"read\"><parameter name=\"path\" string=\"true\">src/a.ts</parameter></invoke>",
        ),
        (
            "<｜DSML｜tool_calls>\n<｜DSML｜invoke name=\"read\">\n <｜DSML｜parameter name=\"path\" string=\"true\">src/a.ts</｜DSML｜parameter>\n</｜DSML｜invoke>\n</｜DSML｜tool_calls>",
            "<｜DSML｜invoke name=\"read\">\n <｜DSML｜parameter name=\"path\" string=\"true\">src/a.ts</｜DSML｜parameter>\n</｜DSML｜invoke>",
        ),
    ] {
        let log = harness::check(Dialect::Xml, Options::default(), input.as_bytes());
        let from = input.find(block).unwrap() as u64;
        let to = from + block.len() as u64;
        let bytes: Vec<u8> = log
            .events
            .iter()
            .filter(|e| e.span().start >= from && e.span().end <= to)
            .filter_map(|e| e.payload())
            .flatten()
            .copied()
            .collect();
        assert_eq!(String::from_utf8(bytes).unwrap(), block);
    }
}

/// docs/seed.md §5.1 item 8, rule 5: a result block after a call is a fabricated result (a
/// consumer stops there); inside a value it is value text (docs/seed.md B2).
#[test]
fn fabricated_results() {
    let input = "<invoke name=\"read\"><parameter name=\"path\">rubygems.ts:85-93</parameter></invoke>\n<function_results>\n<result>x</result>\n</function_results>\n<invoke name=\"edit\"><parameter name=\"input\">fake</parameter></invoke>";
    let log = scan(input);
    let fabricated = log.iter().position(|e| e == "F").unwrap();
    assert_eq!(
        &log[fabricated - 3..=fabricated],
        ["X0:Complete", "T\"\\n\"", "<ResultOpen>", "F"]
    );
    assert!(log[fabricated..].contains(&"S1:edit".to_owned()));
    assert_eq!(
        calls(&completion(input))[0],
        call("read", json!({"path": "rubygems.ts:85-93"}))
    );
    let inside = "<invoke name=\"write\"><parameter name=\"content\">doc mentions <function_results> and <tool_response> here</parameter></invoke>";
    assert!(!scan(inside).contains(&"F".to_owned()));
    assert_eq!(
        calls(&completion(inside)),
        [call(
            "write",
            json!({"content": "doc mentions <function_results> and <tool_response> here"})
        )]
    );
}

/// docs/seed.md §5.12 items 2–5 and 8: a DSML envelope leaked into text gives the same
/// completion in 7-byte chunks (its calls and content are in tests/cases/xml.md), and in
/// token-sized pieces.
#[test]
fn seed_dsml_leak() {
    let leak = "<｜DSML｜tool_calls>\n<｜DSML｜invoke name=\"bash\">\n<｜DSML｜parameter name=\"i\" string=\"true\">inspect</｜DSML｜parameter>\n<｜DSML｜parameter name=\"command\" string=\"true\">docker ps -a | grep \"web\" && rpm -qa 'x*' 2>/dev/null</｜DSML｜parameter>\n<｜DSML｜parameter name=\"timeout\" string=\"false\">15</｜DSML｜parameter>\n</｜DSML｜invoke>\n</｜DSML｜tool_calls>";
    let whole = completion(leak);
    let sevens: Vec<&[u8]> = leak.as_bytes().chunks(7).collect();
    assert_eq!(
        harness::assembled(DIALECT, Options::default(), sevens),
        whole
    );
    // Item 8: token-sized pieces, a parameter without `string`.
    let pieces = [
        "run ",
        "<｜DSML｜tool",
        "_calls>",
        "<｜DSML｜invoke name=\"f\"><｜DSML｜parameter name=\"p\">v</｜DSML｜parameter></｜DSML｜invoke></｜DSML｜tool_calls>",
    ];
    let feeds = harness::per_feed(DIALECT, &pieces);
    assert_eq!(feeds[0], ["T\"run \""]);
    assert!(feeds[1].is_empty() && feeds[2].is_empty());
    let completion = harness::assembled(
        DIALECT,
        Options::default(),
        pieces.iter().map(|p| p.as_bytes()),
    );
    assert_eq!(calls(&completion), [call("f", json!({"p": "v"}))]);
    assert_eq!(completion.content, "run");
}

/// docs/seed.md B15: an over-long tag is text with a diagnostic, nothing lost (B16's
/// self-closing tags are in tests/cases/xml.md).
#[test]
fn over_long_tags() {
    let long = format!("<invoke name=\"{}\"></invoke> after", "n".repeat(130));
    let log = scan(&long);
    assert_eq!(log.len(), 3);
    assert_eq!(log[1], "D:tag_too_long");
    let text = completion(&long);
    assert_eq!(text.content, long);
    assert!(text.tool_calls.is_empty());
    // Inside a call, an over-long parameter tag breaks the call: its bytes go back to text.
    let long_param = format!(
        "<invoke name=\"f\"><parameter name=\"k\" note=\"{}\">v</parameter></invoke>",
        "x".repeat(120)
    );
    let broken = completion(&long_param);
    assert!(broken.tool_calls.is_empty());
    assert_eq!(broken.content, long_param);
    assert_eq!(codes(&broken), ["tag_too_long"]);
}

/// Rule 4: a closer inside a value counts only when structure follows it (the closers
/// followed by text, and the whitespace limit, are in tests/cases/xml.md). Followed by
/// whitespace and the next parameter: a closer, the whitespace is markup.
#[test]
fn closer_before_whitespace_and_a_parameter() {
    assert_eq!(
        scan("<invoke name=\"w\"><parameter name=\"c\">x</parameter>\n\n<parameter name=\"d\">y</parameter></invoke>")[6..11],
        ["V0:Verbatim\"x\"", "<ParamClose>", "P-0", "E\"\\n\\n\"", "<ParamOpen>"]
    );
}

/// Rule 4 across chunk boundaries: the look-ahead is held, never released early.
#[test]
fn look_ahead_split_across_chunks() {
    let chunks = [
        "<invoke name=\"w\"><parameter name=\"c\">a</para",
        "meter>  ",
        "\n ",
        "</inv",
        "oke>",
    ];
    let feeds = harness::per_feed(DIALECT, &chunks);
    assert_eq!(feeds[0].last().unwrap(), "V0:Verbatim\"a\"");
    assert!(feeds[1].is_empty() && feeds[2].is_empty() && feeds[3].is_empty());
    assert_eq!(
        feeds[4],
        [
            "<ParamClose>",
            "P-0",
            "E\"  \\n \"",
            "<CallClose>",
            "X0:Complete"
        ]
    );
    let rejected = [
        "<invoke name=\"w\"><parameter name=\"c\">a</parameter>",
        " \n",
        "</inv",
        "alid></parameter></invoke>",
    ];
    let feeds = harness::per_feed(DIALECT, &rejected);
    assert!(feeds[1].is_empty() && feeds[2].is_empty());
    assert_eq!(feeds[3][0], "V0:Verbatim\"</parameter> \\n</invalid>\"");
    let tag_byte = [
        "<invoke name=\"w\"><parameter name=\"c\">a</parameter><parameter",
        " name=\"d\">b</parameter></invoke>",
    ];
    let feeds = harness::per_feed(DIALECT, &tag_byte);
    assert_eq!(feeds[0].last().unwrap(), "V0:Verbatim\"a\"");
    assert_eq!(feeds[1][..3], ["<ParamClose>", "P-0", "<ParamOpen>"]);
}

/// Values are the model's bytes exactly: markup-like text, entities, quotes, newlines,
/// non-ASCII (split anywhere by the harness).
#[test]
fn value_bytes_are_exact() {
    let value = "a < b && c > d <div>x</div> 'q' \"dq\" &lt;\n\tline2\r\né城堡🦀 \\ </";
    let input = format!(
        "<invoke name=\"f\"><parameter name=\"k\" string=\"true\">{value}</parameter></invoke>"
    );
    let log = scan(&input);
    assert_eq!(log[6], format!("V0:Verbatim{:?}", value));
    assert_eq!(
        calls(&completion(&input)),
        [call("f", json!({ "k": value }))]
    );
}

/// Rule 3: the end of the stream inside a call leaves it incomplete, never complete, and
/// its markup is not content (the unwrapped cases are in tests/cases/xml.md); in a
/// section, the section is reported unclosed after it.
#[test]
fn end_of_stream_inside_a_wrapped_call() {
    assert_eq!(
        scan("<tool_calls><invoke name=\"w\"")[1..],
        [
            "<CallOpen>",
            "E\" name=\\\"w\\\"\"",
            "S0:",
            "D:truncated_call",
            "X0:Incomplete",
            "D:unclosed_section"
        ]
    );
}

/// Rule 6 and 7 (reasoning and calls drafted in it are in tests/cases/xml.md): a section
/// left open by the reasoning closer ends there.
#[test]
fn reasoning_closer_ends_an_open_section() {
    let log = scan("<think><tool_calls><invoke name=\"f\"></invoke></think>x");
    assert_eq!(
        log[7..],
        [
            "D:unclosed_section",
            "<ReasoningClose>",
            "X0:Demoted",
            "R-",
            "T\"x\""
        ]
    );
}

/// Rule 2 and 9: structure that breaks is released as text with a diagnostic (the other
/// breaks are in tests/cases/xml.md): a malformed parameter tag breaks its call.
#[test]
fn malformed_parameter_tag_breaks_the_call() {
    assert_eq!(
        scan("<invoke name=\"a\"><parameter name=k<b>x</parameter></invoke>")[3..7],
        [
            "E\"<parameter name=k\"",
            "D:malformed_tag",
            "X0:Invalid",
            "T\"<b>x</parameter></invoke>\""
        ]
    );
}

/// Limits end calls as invalid on the same byte whatever the chunking.
#[test]
fn limits_end_calls_as_invalid() {
    let mut options = Options::default();
    options.max_argument_bytes = 8;
    let log = harness::scan(
        DIALECT,
        options,
        "<invoke name=\"f\"><parameter name=\"k\">0123456789</parameter></invoke>",
    );
    assert_eq!(
        log[6..],
        [
            "V0:Verbatim\"01234567\"",
            "D:arguments_too_long",
            "X0:Invalid",
            "T\"89</parameter></invoke>\""
        ]
    );
    // The limit counts a rejected closer, and a closer held at the limit.
    for input in [
        "<invoke name=\"f\"><parameter name=\"k\">01</parameter>x</parameter></invoke>",
        "<invoke name=\"f\"><parameter name=\"k\">0123</parameter>  </parameter></invoke>",
        "<invoke name=\"f\"><parameter name=\"k\">012</parameter></invoke>",
    ] {
        let log = harness::check(Dialect::Xml, options, input.as_bytes());
        let ends = harness::ends(&log);
        assert!(
            ends == [CallEnd::Invalid] || ends == [CallEnd::Complete],
            "{input}"
        );
    }
    let mut options = Options::default();
    options.max_calls = 1;
    let log = harness::scan(
        DIALECT,
        options,
        "<invoke name=\"a\"></invoke><invoke name=\"b\"></invoke>",
    );
    assert_eq!(
        log[5..],
        [
            "<CallOpen>",
            "E\" name=\\\"b\\\">\"",
            "S1:",
            "D:too_many_calls",
            "X1:Invalid",
            "T\"</invoke>\""
        ]
    );
}

/// OpenAI deltas: text values stream, typed values go out once whole, and the fragments of
/// every chunking concatenate to exactly the arguments' JSON text.
#[test]
fn openai_deltas_concatenate_to_the_arguments() {
    let input = "Sure.\n<tool_calls>\n<invoke name=\"write\">\n<parameter name=\"path\" string=\"true\">src/é.rs</parameter>\n<parameter name=\"body\" string=\"true\">fn main() {\n\tprintln!(\"</parameter>\");\n}</parameter>\n<parameter name=\"mode\" string=\"false\">{'x': 1,}</parameter>\n<parameter name=\"n\">3</parameter>\n</invoke>\n<invoke name=\"noop\"></invoke>\n</tool_calls>";
    let expected = [
        r#"{"path":"src/é.rs","body":"fn main() {\n\tprintln!(\"</parameter>\");\n}","mode":{"x": 1},"n":3}"#,
        "{}",
    ];
    let bytes = input.as_bytes();
    harness::check(Dialect::Xml, Options::default(), bytes);
    let mut chunkings: Vec<Vec<&[u8]>> = (1..=16).map(|n| bytes.chunks(n).collect()).collect();
    chunkings.extend((0..=bytes.len()).map(|k| vec![&bytes[..k], &bytes[k..]]));
    for chunks in chunkings {
        let mut scanner = Scanner::new(Dialect::Xml, Options::default());
        let mut stream = DeltaStream::new(Dialect::Xml, &AssembleOptions::seeded(1));
        let mut arguments = vec![String::new(), String::new()];
        let mut partial = Vec::new();
        for chunk in &chunks {
            scanner.feed(chunk, &mut stream).unwrap();
            for call in stream.take_delta().tool_calls {
                arguments[call.index as usize].push_str(&call.arguments);
            }
            partial.push(arguments[0].clone());
        }
        scanner.finish(&mut stream).unwrap();
        let (delta, reason, completion) = stream.finish();
        for call in delta.tool_calls {
            arguments[call.index as usize].push_str(&call.arguments);
        }
        assert_eq!(arguments, expected, "{} chunks", chunks.len());
        assert_eq!(reason, "tool_calls");
        for (call, text) in completion.tool_calls.iter().zip(&arguments) {
            let parsed: Value = serde_json::from_str(text).unwrap();
            let final_: Value =
                serde_json::from_str(&serde_json::to_string(&call.arguments).unwrap()).unwrap();
            assert_eq!(parsed, final_);
        }
        // The body streamed before the call closed.
        if chunks.len() > 20 {
            assert!(partial
                .iter()
                .any(|p| p.contains("fn main") && !p.ends_with('}')));
        }
    }
}

/// Feeding markup allocates nothing in the core.
#[test]
fn feeding_allocates_nothing() {
    use inband::{Piece, Sink, Span};
    struct Count(u64);
    impl Sink for Count {
        fn tool_value(&mut self, _: Span, _: u32, _: Piece, value: &[u8]) {
            self.0 += value.len() as u64;
        }
    }
    let call = "<invoke name=\"write\"><parameter name=\"body\" string=\"true\">x </parameter> y</parameter>\n<parameter name=\"n\">1</parameter></invoke>\n";
    let input = format!("<think>p</think>Prose <invo. <｜DSML｜tool_calls>{}</｜DSML｜tool_calls><tool_calls>{}</tool_calls>", call.replace('<', "<｜DSML｜").replace("<｜DSML｜/", "</｜DSML｜").repeat(20), call.repeat(20));
    for size in [1, 3, 7, input.len()] {
        let mut scanner = Scanner::new(Dialect::Xml, Options::default());
        let mut count = Count(0);
        let before = crate::alloc::allocations();
        for chunk in input.as_bytes().chunks(size) {
            scanner.feed(chunk, &mut count).unwrap();
        }
        scanner.finish(&mut count).unwrap();
        assert_eq!(
            crate::alloc::allocations() - before,
            0,
            "{size}-byte chunks"
        );
        let values = "x </parameter> y1".len() + "x </｜DSML｜parameter> y1".len();
        assert_eq!(count.0, 20 * values as u64);
    }
}

/// A rendered argument value: text (raw, `string="true"`) or JSON (`string="false"`).
#[derive(Debug, Clone)]
enum Arg {
    Text(String),
    Json(Value),
}

/// Pieces of text values: markup-like text, entities, quotes, newlines, non-ASCII, and the
/// dialect's own closers followed by something that cannot continue the structure.
const TEXT_PIECES: &[&str] = &[
    "a",
    " ",
    "\n",
    "\t",
    "<",
    ">",
    "&",
    "&amp;",
    "\"",
    "'",
    "é",
    "城堡",
    "🦀",
    "\\",
    "{",
    "}",
    "</parameter>x",
    "</invoke>y",
    "</tool_calls>",
    "</function_calls>",
    "<parameter name=\"z\">",
    "<invoke name=\"q\">",
    "</｜DSML｜parameter>x",
    "<think>",
    "</",
    "<p",
    "=\"",
];

fn arg() -> impl Strategy<Value = Arg> {
    // A parameter tag at the start of a line ends a value (the missing-closer repair), so
    // no canonical value holds one.
    let text = prop::collection::vec(prop::sample::select(TEXT_PIECES), 0..8)
        .prop_map(|p| p.concat())
        .prop_filter("no line-initial parameter tag", |t| {
            !t.contains("\n<parameter")
        })
        .prop_map(Arg::Text);
    let json = prop_oneof![
        any::<i32>().prop_map(|n| json!(n)),
        any::<bool>().prop_map(|b| json!(b)),
        Just(json!(null)),
        prop::sample::select(TEXT_PIECES).prop_map(|s| json!([s, 1])),
        prop::sample::select(TEXT_PIECES).prop_map(|s| json!({"k": s})),
    ]
    .prop_map(Arg::Json);
    prop_oneof![text, json]
}

/// The canonical rendering of a call in one of the tagsets (a DSML invoke is only ever
/// inside its section, docs/seed.md §2.7 g).
fn render_call(name: &str, args: &[(String, Arg)], dsml: bool, wrapped: bool) -> String {
    let t = if dsml { "｜DSML｜" } else { "" };
    let wrapped = wrapped || dsml;
    let mut out = String::new();
    if wrapped {
        out.push_str(&format!("<{t}tool_calls>\n"));
    }
    out.push_str(&format!("<{t}invoke name=\"{name}\">\n"));
    for (key, arg) in args {
        let (kind, value) = match arg {
            Arg::Text(text) => ("true", text.clone()),
            Arg::Json(value) => ("false", value.to_string()),
        };
        out.push_str(&format!(
            "<{t}parameter name=\"{key}\" string=\"{kind}\">{value}</{t}parameter>\n"
        ));
    }
    out.push_str(&format!("</{t}invoke>"));
    if wrapped {
        out.push_str(&format!("\n</{t}tool_calls>"));
    }
    out
}

proptest! {
    /// Random argument maps, rendered canonically, scan back to the same arguments at
    /// random chunkings.
    #[test]
    fn rendered_arguments_round_trip(
        args in prop::collection::btree_map("[a-z_]{1,8}", arg(), 0..5),
        dsml in any::<bool>(),
        wrapped in any::<bool>(),
        sizes in prop::collection::vec(1usize..12, 1..6),
    ) {
        let args: Vec<(String, Arg)> = args.into_iter().collect();
        let rendered = render_call("tool", &args, dsml, wrapped);
        let expected: serde_json::Map<String, Value> = args
            .iter()
            .map(|(k, a)| (k.clone(), match a { Arg::Text(t) => json!(t), Arg::Json(v) => v.clone() }))
            .collect();
        let bytes = rendered.as_bytes();
        let chunks = harness::chunked(bytes, &sizes);
        let completion = harness::assembled(DIALECT, Options::default(), chunks);
        prop_assert_eq!(calls(&completion), vec![call("tool", Value::Object(expected))]);
        prop_assert_eq!(completion.content, "");
        let whole = EventLog::scan(Dialect::Xml, Options::default(), [bytes]);
        harness::check_log(&whole, bytes);
    }

    /// Markup pieces in any order never break chunk invariance or tiling.
    #[test]
    fn random_markup_chunkings_give_the_same_events(
        pieces in prop::collection::vec(prop::sample::select(MARKUP_PIECES), 0..24),
        sizes in prop::collection::vec(1usize..9, 1..8),
        starts_in_reasoning in any::<bool>(),
    ) {
        let input = pieces.concat().into_bytes();
        let mut options = Options::default();
        options.starts_in_reasoning = starts_in_reasoning;
        let (whole, chunked) = harness::whole_and_chunked(Dialect::Xml, options, &input, &sizes);
        prop_assert_eq!(chunked, whole);
    }

    /// Bytes from the markup's own alphabet, in any chunking: no panic, same events, tiling.
    #[test]
    fn markup_alphabet_bytes_never_break_the_invariants(
        input in prop::collection::vec(prop::sample::select(&b"<>/\"'= \nainvokeparmtsg_clDSML|"[..]), 0..200),
        size in 1usize..7,
    ) {
        let (whole, chunked) = harness::whole_and_chunked(Dialect::Xml, Options::default(), &input, &[size]);
        prop_assert_eq!(chunked, whole);
    }
}

const MARKUP_PIECES: &[&str] = &[
    "<tool_calls>",
    "</tool_calls>",
    "<function_calls>",
    "<invoke",
    "<invoke name=\"f\">",
    "</invoke>",
    "<parameter name=\"k\">",
    "<parameter name='k' string=\"false\">",
    "<parameter",
    "</parameter>",
    "</para",
    " name=\"x\"",
    "/>",
    ">",
    "<",
    "\"",
    "'",
    " ",
    "\n",
    "x",
    "é",
    "1",
    "<think>",
    "</think>",
    "<｜DSML｜tool_calls>",
    "</｜DSML｜tool_calls>",
    "<｜DSML｜invoke name=\"f\">",
    "</｜DSML｜invoke>",
    "<｜DSML｜parameter name=\"k\">",
    "</｜DSML｜parameter>",
    "<|DSML|invoke",
    "<｜end▁of▁sentence｜>",
    "<function_results>",
];
