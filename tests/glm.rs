//! The `glm` dialect: docs/seed.md §2.1 and the GLM lines of §5.1, as amended by
//! docs/dialects.md. The cases that are an input and its exact event log or completion are
//! in tests/cases/glm.md; here are the rest: tool lists and schemas, per-feed logs (the
//! look-ahead across chunk boundaries, rule 4, pinned at chosen splits), streaming, the
//! bundled transcript, generated inputs and properties. Every input goes through the
//! chunking harness, so each behaviour holds for every split.

use inband::{Dialect, Options, Piece, Scanner, Sink, Span};
use inband_alloc::assemble::{assemble, AssembleOptions, Completion};
use inband_alloc::events::EventLog;
use proptest::prelude::*;
use serde_json::{json, Value};

use crate::harness;
use crate::harness::{call, calls, codes};

const DIALECT: Dialect = Dialect::Glm;

fn scan(input: &str) -> Vec<String> {
    harness::scan(DIALECT, Options::default(), input)
}

fn completion(input: &str) -> Completion {
    harness::completion(DIALECT, Options::default(), input)
}

/// Rule 9 (docs/seed.md B7): a block whose name is not one is text, with a diagnostic; no call
/// (the other names that are not one are in tests/cases/glm.md): a name over the limit.
#[test]
fn a_name_over_the_limit_is_text() {
    let long = format!("<tool_call>{}", "n".repeat(200));
    let completion = completion(&long);
    assert_eq!(completion.content, long);
    assert_eq!(codes(&completion), ["name_too_long"]);
    assert!(completion.tool_calls.is_empty());
}

/// Corpus 018: the key's opener is missing after the name. The core cannot tell the name
/// from the key: it reports the glued name with an empty first key, announced by the
/// diagnostic. The assembler splits it at a declared tool name; without one (no tool list,
/// or no declared name the glued name begins with) the block is text, and a stream never
/// shows it as a call.
#[test]
fn missing_key_opener_is_split_by_the_tool_list() {
    let input =
        "<tool_call>run_shellcommand</arg_key><arg_value>echo ready</arg_value></tool_call>";
    assert_eq!(
        scan(input),
        [
            "D:missing_key_open",
            "<CallOpen>",
            "E\"run_shellcommand\"",
            "S0:run_shellcommand",
            "E\"</arg_key><arg_value>\"",
            "P0::untyped",
            "V0:Verbatim\"echo ready\"",
            "<ParamClose>",
            "P-0",
            "<CallClose>",
            "X0:Complete",
        ]
    );
    let completion = completion(input);
    assert!(completion.tool_calls.is_empty());
    assert_eq!(completion.content, input);
    let codes: Vec<&str> = completion.diagnostics.iter().map(|d| d.code).collect();
    assert_eq!(codes, ["missing_key_open"]);

    let with_tools = |names: &[&str]| {
        let mut options = AssembleOptions::seeded(1);
        options.tools = Some(inband_alloc::tools::ToolSet::from_names(
            names.iter().copied(),
        ));
        assemble(
            Dialect::Glm,
            Options::default(),
            &options,
            [input.as_bytes()],
        )
    };
    // The longest declared name the glued one begins with.
    let split = with_tools(&["run", "run_shell", "read"]);
    assert_eq!(split.content, "");
    assert_eq!(
        calls(&split),
        [call("run_shell", json!({ "command": "echo ready" }))]
    );
    let codes: Vec<&str> = split.diagnostics.iter().map(|d| d.code).collect();
    assert_eq!(codes, ["missing_key_open", "split_glued_name"]);
    // A declared name equal to the glued one leaves no key: not a split.
    let whole = with_tools(&["run_shellcommand"]);
    assert!(whole.tool_calls.is_empty());
    assert_eq!(whole.content, input);

    // Streamed without a tool list: never exposed as a call, given back as content.
    let mut scanner = Scanner::new(Dialect::Glm, Options::default());
    let mut stream =
        inband_alloc::stream::DeltaStream::new(Dialect::Glm, &AssembleOptions::seeded(1));
    let mut content = String::new();
    for chunk in input.as_bytes().chunks(5) {
        scanner.feed(chunk, &mut stream).unwrap();
        let delta = stream.take_delta();
        assert!(delta.tool_calls.is_empty());
        content.push_str(&delta.content);
    }
    scanner.finish(&mut stream).unwrap();
    let (delta, reason, _) = stream.finish();
    assert!(delta.tool_calls.is_empty());
    content.push_str(&delta.content);
    assert_eq!((content.as_str(), reason), (input, "stop"));
}

/// Corpus 018 with schemas: the glued name splits where the rest is a parameter the tool
/// declares, before the longest declared prefix; a glued name that is itself a declared
/// tool and leaves no declared key is not split (its key is missing, not glued), so the
/// block is text.
#[test]
fn a_glued_name_splits_at_a_declared_parameter() {
    let tools = r#"[
        {"type": "function", "function": {"name": "run", "parameters": {"type": "object", "properties": {"command": {"type": "string"}}}}},
        {"type": "function", "function": {"name": "runc", "parameters": {"type": "object", "properties": {"args": {"type": "string"}}}}},
        {"type": "function", "function": {"name": "run_shell", "parameters": {"type": "object", "properties": {"command": {"type": "string"}}}}}
    ]"#;
    let mut options = AssembleOptions::seeded(1);
    options.tools = Some(inband_alloc::tools::ToolSet::from_json(tools.as_bytes()).unwrap());
    let assembled = |input: &str| {
        assemble(
            Dialect::Glm,
            Options::default(),
            &options,
            [input.as_bytes()],
        )
    };
    let glued = |name: &str| {
        format!("<tool_call>{name}</arg_key><arg_value>echo ready</arg_value></tool_call>")
    };
    // `runc` is the longest declared prefix, but `ommand` is not its parameter.
    let split = assembled(&glued("runcommand"));
    assert_eq!(
        calls(&split),
        [call("run", json!({ "command": "echo ready" }))]
    );
    assert_eq!(codes(&split), ["missing_key_open", "split_glued_name"]);
    let longest = assembled(&glued("run_shellcommand"));
    assert_eq!(
        calls(&longest),
        [call("run_shell", json!({ "command": "echo ready" }))]
    );
    // `run_shell` is declared: `run` + `_shell` would be a call with an undeclared key.
    let input = glued("run_shell");
    let whole = assembled(&input);
    assert!(whole.tool_calls.is_empty());
    assert_eq!(whole.content, input);
    assert_eq!(codes(&whole), ["missing_key_open"]);
}

/// Rule 4 across chunk boundaries: a partial closer is held, the whitespace after a whole
/// one too, until the next byte decides; value text streams as it arrives.
#[test]
fn look_ahead_across_chunks() {
    assert_eq!(
        harness::per_feed(
            DIALECT,
            &[
                "<tool_call>read<arg_key>path</arg_key><arg_value>",
                "src/",
                "a.ts</arg_va",
                "lue>",
                " \n",
                "<arg_key>count</arg_key><arg_value>2</arg_value>",
                "</tool_call>",
            ]
        ),
        [
            vec![
                "<CallOpen>",
                "E\"read\"",
                "S0:read",
                "<ParamOpen>",
                "E\"path</arg_key><arg_value>\"",
                "P0:path:untyped",
            ],
            vec!["V0:Verbatim\"src/\""],
            vec!["V0:Verbatim\"a.ts\""],
            vec![],
            vec![],
            vec![
                "<ParamClose>",
                "P-0",
                "E\" \\n\"",
                "<ParamOpen>",
                "E\"count</arg_key><arg_value>\"",
                "P0:count:untyped",
                "V0:Verbatim\"2\"",
            ],
            vec!["<ParamClose>", "P-0", "<CallClose>", "X0:Complete"],
        ]
    );
    assert_eq!(
        harness::per_feed(
            DIALECT,
            &[
                "<tool_call>f<arg_key>k</arg_key><arg_value>a</arg_value>",
                " ",
                "b</arg_value></tool_call>",
            ]
        ),
        [
            vec![
                "<CallOpen>",
                "E\"f\"",
                "S0:f",
                "<ParamOpen>",
                "E\"k</arg_key><arg_value>\"",
                "P0:k:untyped",
                "V0:Verbatim\"a\"",
            ],
            vec![],
            vec![
                "V0:Verbatim\"</arg_value> b\"",
                "<ParamClose>",
                "P-0",
                "<CallClose>",
                "X0:Complete",
            ],
        ]
    );
    // Whitespace at a value's end waits for the next byte: the heal's framing, or value.
    assert_eq!(
        harness::per_feed(
            DIALECT,
            &[
                "<tool_call>f<arg_key>k</arg_key><arg_value>a \n",
                "b\n",
                "<arg_key>j</arg_key><arg_value>c</arg_value></tool_call>",
            ]
        ),
        [
            vec![
                "<CallOpen>",
                "E\"f\"",
                "S0:f",
                "<ParamOpen>",
                "E\"k</arg_key><arg_value>\"",
                "P0:k:untyped",
                "V0:Verbatim\"a\"",
            ],
            vec!["V0:Verbatim\" \\nb\""],
            vec![
                "E\"\\n\"",
                "P-0",
                "D:unclosed_value",
                "<ParamOpen>",
                "E\"j</arg_key><arg_value>\"",
                "P0:j:untyped",
                "V0:Verbatim\"c\"",
                "<ParamClose>",
                "P-0",
                "<CallClose>",
                "X0:Complete",
            ],
        ]
    );
}

/// docs/seed.md §5.1 item 11: a string value streams as deltas whose concatenation is the value.
#[test]
fn string_values_stream_exactly() {
    let value = "line1\nconst x = `a`;";
    let input = format!(
        "<tool_call>write\n<arg_key>path</arg_key>\n<arg_value>out.ts</arg_value>\n<arg_key>content</arg_key>\n<arg_value>{value}</arg_value>\n</tool_call>"
    );
    let mut scanner = Scanner::new(Dialect::Glm, Options::default());
    let mut log = EventLog::new();
    for c in input.chars() {
        scanner.feed(c.to_string().as_bytes(), &mut log).unwrap();
    }
    scanner.finish(&mut log).unwrap();
    let mut key = String::new();
    let mut content = Vec::new();
    for event in &log.events {
        match event {
            inband_alloc::events::OwnedEvent::ToolParam { key: k, .. } => {
                key = String::from_utf8(k.clone()).unwrap();
            }
            inband_alloc::events::OwnedEvent::ToolValue { bytes, .. } if key == "content" => {
                content.extend_from_slice(bytes);
            }
            _ => {}
        }
    }
    assert_eq!(String::from_utf8(content).unwrap(), value);
    assert_eq!(
        calls(&completion(&input)),
        [call("write", json!({"path": "out.ts", "content": value}))]
    );
}

/// Counts value bytes per feed.
#[derive(Default)]
struct ValueBytes {
    bytes: usize,
    events: usize,
}

impl Sink for ValueBytes {
    fn tool_value(&mut self, _: Span, _: u32, piece: Piece, bytes: &[u8]) {
        assert_eq!(piece, Piece::Verbatim);
        self.bytes += bytes.len();
        self.events += 1;
    }
}

/// A huge value streams from the core without buffering: each feed's bytes go out in that
/// feed, as one event.
#[test]
fn huge_values_stream() {
    let mut scanner = Scanner::new(Dialect::Glm, Options::default());
    let mut sink = ValueBytes::default();
    scanner
        .feed(
            b"<tool_call>write<arg_key>content</arg_key><arg_value>",
            &mut sink,
        )
        .unwrap();
    let piece = "abc <é> & \"q\" 城\n".repeat(200);
    for _ in 0..1024 {
        let before = (sink.bytes, sink.events);
        let chunk = format!("{piece}.");
        scanner.feed(chunk.as_bytes(), &mut sink).unwrap();
        assert_eq!(sink.bytes - before.0, chunk.len());
        assert!(sink.events - before.1 <= 400);
    }
    scanner
        .feed(b"</arg_value></tool_call>", &mut sink)
        .unwrap();
    scanner.finish(&mut sink).unwrap();
    assert_eq!(sink.bytes, (piece.len() + 1) * 1024);
    let value = format!("{piece}.").repeat(64);
    let input =
        format!("<tool_call>w<arg_key>c</arg_key><arg_value>{value}</arg_value></tool_call>");
    let completion = harness::assembled(DIALECT, Options::default(), input.as_bytes().chunks(4096));
    assert_eq!(calls(&completion), [call("w", json!({ "c": value }))]);
}

/// The bundled transcript (`tests/data/transcripts/glm-read-and-grep.txt`, GLM-4.6 style): reasoning,
/// prose, two calls, one with the value closer inside a value.
#[test]
fn bundled_transcript() {
    let input = include_str!("data/transcripts/glm-read-and-grep.txt");
    let completion = completion(input);
    assert_eq!(
        calls(&completion),
        [
            call("read", json!({"path": "src/parse.rs", "lines": [1, 40]})),
            call(
                "grep",
                json!({
                    "pattern": "if tag == \"</arg_value>\" { close(); }",
                    "paths": ["src", "tests"],
                    "note": "matches & counts, \"quoted\", 城堡 é"
                })
            ),
        ]
    );
    assert_eq!(
        completion.content,
        "I will read the parser and search for the closing tags it matches."
    );
    assert!(completion.reasoning.unwrap().starts_with("The user wants"));
    assert!(completion.diagnostics.is_empty());
}

/// Pieces of string values: the dialect's own tags (each followed by text, so that the
/// canonical form stays unambiguous, docs/seed.md §2.1 (i)), markup, quotes, non-ASCII.
const TEXT_PIECES: &[&str] = &[
    "a",
    "path/to file",
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
    "</arg_value>x",
    "</tool_call>y",
    "</arg_key>z",
    "<arg_key>",
    "<arg_key>k</arg_key>w",
    "<tool_call>",
    "<think>",
    "</",
    "<|",
];

/// A string value or a JSON one.
#[derive(Debug, Clone)]
enum Arg {
    Text(String),
    Json(Value),
}

fn arg() -> impl Strategy<Value = Arg> {
    // A string that parses as JSON would be typed without a schema (rule 8).
    let text = prop::collection::vec(prop::sample::select(TEXT_PIECES), 0..8)
        .prop_map(|p| p.concat())
        .prop_filter("not JSON", |s| {
            serde_json::from_str::<Value>(s.trim()).is_err()
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

/// The canonical rendering (docs/seed.md §2.1 (a), (c)): string values raw, others compact JSON;
/// one tag a line (GLM-4.5/4.6) or none (GLM-4.7/5).
fn render_call(name: &str, args: &[(String, Arg)], lines: bool) -> String {
    let nl = if lines { "\n" } else { "" };
    let mut out = format!("<tool_call>{name}");
    for (key, arg) in args {
        let value = match arg {
            Arg::Text(text) => text.clone(),
            Arg::Json(value) => value.to_string(),
        };
        out.push_str(&format!(
            "{nl}<arg_key>{key}</arg_key>{nl}<arg_value>{value}</arg_value>"
        ));
    }
    out.push_str(&format!("{nl}</tool_call>"));
    out
}

proptest! {
    /// Random argument maps, rendered canonically, scan back to the same arguments at
    /// random chunkings.
    #[test]
    fn rendered_arguments_round_trip(
        args in prop::collection::btree_map("[a-z_]{1,8}", arg(), 0..5),
        lines in any::<bool>(),
        sizes in prop::collection::vec(1usize..12, 1..6),
    ) {
        let args: Vec<(String, Arg)> = args.into_iter().collect();
        let rendered = render_call("tool", &args, lines);
        let expected: serde_json::Map<String, Value> = args
            .iter()
            .map(|(k, a)| (k.clone(), match a { Arg::Text(t) => json!(t), Arg::Json(v) => v.clone() }))
            .collect();
        let bytes = rendered.as_bytes();
        let chunks = harness::chunked(bytes, &sizes);
        let completion = harness::assembled(DIALECT, Options::default(), chunks);
        prop_assert_eq!(calls(&completion), vec![call("tool", Value::Object(expected))]);
        prop_assert_eq!(completion.content, "");
        prop_assert!(completion.diagnostics.is_empty(), "{:?}", completion.diagnostics);
        let whole = EventLog::scan(Dialect::Glm, Options::default(), [bytes]);
        harness::check_log(&whole, bytes);
    }

    /// Markup pieces in any order never break chunk invariance or tiling.
    #[test]
    fn random_markup_chunkings_give_the_same_events(
        pieces in prop::collection::vec(prop::sample::select(MARKUP_PIECES), 0..24),
        sizes in prop::collection::vec(1usize..9, 1..8),
        starts_in_reasoning in any::<bool>(),
        max_argument_bytes in prop::sample::select(&[64 << 20, 0, 3, 16][..]),
    ) {
        let input = pieces.concat().into_bytes();
        let mut options = Options::default();
        options.starts_in_reasoning = starts_in_reasoning;
        options.max_argument_bytes = max_argument_bytes;
        let (whole, chunked) = harness::whole_and_chunked(Dialect::Glm, options, &input, &sizes);
        prop_assert_eq!(chunked, whole);
    }

    /// Bytes from the dialect's own alphabet, in any chunking: no panic, same events,
    /// tiling.
    #[test]
    fn alphabet_bytes_never_break_the_invariants(
        input in prop::collection::vec(prop::sample::select(&b"<>/_ \nargkeyvlutoc|fhin"[..]), 0..300),
        size in 1usize..7,
    ) {
        let (whole, chunked) = harness::whole_and_chunked(Dialect::Glm, Options::default(), &input, &[size]);
        prop_assert_eq!(chunked, whole);
    }
}

const MARKUP_PIECES: &[&str] = &[
    "<tool_call>",
    "</tool_call>",
    "<arg_key>",
    "</arg_key>",
    "<arg_value>",
    "</arg_value>",
    "<arg_",
    "</arg_va",
    "f",
    "k",
    "<",
    " ",
    "\n",
    "x",
    "é",
    "1",
    "<think>",
    "</think>",
    "<|observation|>",
    "<tool_response>",
];
