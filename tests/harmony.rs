//! Harmony (gpt-oss) scanning behaviours: docs/seed.md §2.8 and §5 as amended by
//! docs/dialects.md, docs/dialects.md §harmony and corpus 042/044/046. The cases that are an
//! input and its exact event log or completion are in tests/cases/harmony.md; here are the
//! rest: logs checked from an offset, tool lists, OpenAI deltas, generated inputs and
//! properties. Every input also goes through the chunking harness, so each behaviour holds
//! for every split.

use inband::{Dialect, Options, Scanner};
use inband_alloc::assemble::{assemble, AssembleOptions, Completion, ToolCall};
use inband_alloc::stream::{ChunkDelta, DeltaStream};
use proptest::prelude::*;

use crate::harness;
use crate::harness::codes;

fn scan_with(options: Options, input: &str) -> Vec<String> {
    harness::scan(Dialect::Harmony, options, input)
}

fn scan(input: &str) -> Vec<String> {
    scan_with(Options::default(), input)
}

/// The completion of `input` fed whole, with deterministic ids and the given tool list.
fn completion_with(input: &str, tools: Option<&[&str]>) -> Completion {
    let mut options = AssembleOptions::seeded(1);
    options.tools = tools.map(|tools| tools.iter().map(|t| (*t).to_owned()).collect());
    assemble(
        Dialect::Harmony,
        Options::default(),
        &options,
        [input.as_bytes()],
    )
}

fn completion(input: &str) -> Completion {
    completion_with(input, None)
}

fn arguments(call: &ToolCall) -> String {
    serde_json::to_string(&call.arguments).unwrap()
}

/// The OpenAI deltas of `input` fed in `size`-byte chunks, and the finish reason.
fn deltas(input: &str, size: usize, tools: Option<&[&str]>) -> (Vec<ChunkDelta>, &'static str) {
    let mut options = AssembleOptions::seeded(1);
    options.tools = tools.map(|tools| tools.iter().map(|t| (*t).to_owned()).collect());
    let mut scanner = Scanner::new(Dialect::Harmony, Options::default());
    let mut stream = DeltaStream::new(Dialect::Harmony, &options);
    let mut out = Vec::new();
    for chunk in input.as_bytes().chunks(size) {
        scanner.feed(chunk, &mut stream).unwrap();
        out.push(stream.take_delta());
    }
    scanner.finish(&mut stream).unwrap();
    let (last, reason, _) = stream.finish();
    out.push(last);
    (out, reason)
}

/// The content, reasoning and argument text of `deltas`, each joined in order.
fn joined(deltas: &[ChunkDelta]) -> (String, String, String) {
    let content = deltas.iter().map(|d| d.content.as_str()).collect();
    let reasoning = deltas
        .iter()
        .map(|d| d.reasoning_content.as_str())
        .collect();
    let args = deltas
        .iter()
        .flat_map(|d| &d.tool_calls)
        .map(|c| c.arguments.as_str())
        .collect();
    (content, reasoning, args)
}

/// A gpt-oss turn as the model writes it after a prompt ending in `<|start|>assistant`:
/// reasoning, a visible preamble, then the call.
const TURN: &str = "<|channel|>analysis<|message|>Need the weather.<|end|>\
<|start|>assistant<|channel|>commentary<|message|>Checking the forecast.<|end|>\
<|start|>assistant<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>{\"city\":\"Paris\"}<|call|>";

/// Corpus 046: the scanner reports `shelljson` as written (tests/cases/harmony.md); the tool
/// list repairs it.
#[test]
fn glued_recipient_and_the_tool_list() {
    let input = "<|channel|>commentary to=functions.shelljson<|message|>{\"cmd\":[\"ls\"]}<|call|>";
    let with = completion_with(input, Some(&["shell"]));
    assert_eq!(with.tool_calls[0].name, "shell");
    assert_eq!(arguments(&with.tool_calls[0]), r#"{"cmd":["ls"]}"#);
    assert_eq!(codes(&with), ["glued_content_type"]);
    assert_eq!(with.diagnostics[0].span, [35, 44], "the name as written");
    // A tool really called `shelljson` keeps its name; an undeclared stem is no repair.
    let declared = completion_with(input, Some(&["shell", "shelljson"]));
    assert_eq!(declared.tool_calls[0].name, "shelljson");
    assert!(declared.diagnostics.is_empty());
    let unknown = completion_with(input, Some(&["read"]));
    assert_eq!(unknown.tool_calls[0].name, "shelljson");
    assert_eq!(codes(&unknown), ["unknown_tool"]);
    // Clients see the repaired name from the call's first delta on.
    for size in [1, 7, input.len()] {
        let (deltas, reason) = deltas(input, size, Some(&["shell"]));
        let names: Vec<&str> = deltas
            .iter()
            .flat_map(|d| &d.tool_calls)
            .filter_map(|c| c.name.as_deref())
            .collect();
        assert_eq!(names, ["shell"], "{size}-byte chunks");
        assert_eq!(reason, "tool_calls");
    }
}

/// Rule 3 and docs/seed.md B1/B3: a body the stream cut off is incomplete, never executable.
#[test]
fn cut_off_body_is_incomplete() {
    let input = "<|channel|>commentary to=functions.write<|message|>{\"path\":\"a\",\"text\":\"hel";
    assert_eq!(
        scan(input),
        [
            "<Channel>",
            "E\"commentary to=functions.write\"",
            "<MessageBody>",
            "S0:write",
            "A0\"{\\\"path\\\":\\\"a\\\",\\\"text\\\":\\\"hel\"",
            "D:truncated_call",
            "X0:Incomplete",
        ]
    );
    let completion = completion(input);
    assert!(completion.tool_calls.is_empty());
    assert_eq!(completion.incomplete_calls.len(), 1);
    assert_eq!(
        completion.incomplete_calls[0].name.as_deref(),
        Some("write")
    );
    assert_eq!(completion.content, "", "its markup is not content");
}

/// docs/dialects.md §harmony: gpt-oss calls built-in tools on `analysis` (the plain cases are in
/// tests/cases/harmony.md). Other namespaces keep their name (docs/seed.md §2.8), even when
/// the tool list does not declare it; `to=assistant` addresses the assistant: not a call.
#[test]
fn calls_on_analysis() {
    assert_eq!(
        scan("<|start|>assistant<|channel|>analysis to=browser.search code<|message|>{\"query\":\"pi\"}<|call|>")[4..6],
        ["<MessageBody>", "S0:browser.search"]
    );
    let with_tools = completion_with(
        "<|channel|>analysis to=browser.search<|message|>{}<|call|>",
        Some(&["read"]),
    );
    assert_eq!(with_tools.tool_calls[0].name, "browser.search");
    assert_eq!(codes(&with_tools), ["unknown_tool"]);
    assert_eq!(
        scan("<|channel|>commentary to=assistant<|message|>hi<|end|>")[2..],
        ["<MessageBody>", "T\"hi\"", "<MessageEnd>"]
    );
}

/// A header that never reaches `<|message|>` must not swallow the response.
#[test]
fn over_long_header() {
    let junk = "word ".repeat(60);
    let input = format!("<|channel|>final to=functions.f {junk}<|message|>hi<|end|>");
    let log = scan(&input);
    let header = format!("final to=functions.f {junk}");
    assert_eq!(
        log,
        [
            "<Channel>".to_owned(),
            format!("E{:?}", &header[..256]),
            "D:header_too_long".to_owned(),
            format!("T{:?}", &header[256..]),
            "<MessageBody>".to_owned(),
            "T\"hi\"".to_owned(),
            "<MessageEnd>".to_owned(),
        ]
    );
    let completion = completion(&input);
    assert!(completion.tool_calls.is_empty());
    assert_eq!(completion.content, format!("{}hi", &header[256..]).trim());
    // A name over the limit is an invalid call; its body is text.
    let long = format!(
        "<|channel|>commentary to=functions.{}<|message|>{{}}<|call|>",
        "n".repeat(inband::MAX_NAME + 1)
    );
    assert_eq!(
        scan(&long)[3..],
        [
            "S0:",
            "D:name_too_long",
            "X0:Invalid",
            "T\"{}\"",
            "<CallClose>"
        ]
    );
    let at_limit = format!(
        "<|channel|>commentary to=functions.{}<|message|>{{}}<|call|>",
        "n".repeat(inband::MAX_NAME)
    );
    assert_eq!(scan(&at_limit)[5], "X0:Complete");
}

/// The OpenAI deltas of non-ASCII bodies fed in chunks that split code points (the log and
/// completion are in tests/cases/harmony.md): the bytes pass through untouched.
#[test]
fn non_ascii_deltas_split_inside_code_points() {
    let input = "<|channel|>analysis<|message|>Café — 城堡 🦀<|end|>\
<|start|>assistant<|channel|>commentary to=functions.note<|message|>{\"text\":\"São Jorge — 城堡 🦀\"}<|call|>\
<|start|>assistant<|channel|>final<|message|>Até já 🦀<|return|>";
    for size in [1, 2, 3] {
        let (deltas, reason) = deltas(input, size, None);
        let (content, reasoning, args) = joined(&deltas);
        assert_eq!(content, "Até já 🦀", "{size}");
        assert_eq!(reasoning, "Café — 城堡 🦀", "{size}");
        assert_eq!(args, "{\"text\":\"São Jorge — 城堡 🦀\"}", "{size}");
        assert_eq!(reason, "tool_calls");
    }
}

/// docs/seed.md §5.1 items 2, 4 and 5: the canonical call round-trips fed one byte at a time, and
/// its bytes are all the call's (the seed's `rawBlock` equals the input).
#[test]
fn seed_rendered_call_round_trips_and_is_all_call() {
    let rendered = "<|start|>assistant<|channel|>commentary to=functions.read<|message|>{\"path\":\"src/a.ts\",\"count\":2}<|call|>";
    let completion = assemble(
        Dialect::Harmony,
        Options::default(),
        &AssembleOptions::seeded(3),
        rendered.as_bytes().chunks(1),
    );
    assert_eq!(completion.tool_calls.len(), 1);
    assert_eq!(completion.tool_calls[0].name, "read");
    assert_eq!(
        arguments(&completion.tool_calls[0]),
        r#"{"path":"src/a.ts","count":2}"#
    );
    assert_eq!(completion.content, "");
    assert_eq!(completion.reasoning, None);
    assert!(completion.diagnostics.is_empty());
    let log = scan(rendered);
    assert!(
        log.iter()
            .all(|e| !e.starts_with("T") && !e.starts_with("R")),
        "{log:?}"
    );
}

/// docs/seed.md B3's example (reasoning rendering and an unterminated block are in
/// tests/cases/harmony.md): the held `<|` is reasoning, and the block still ends.
#[test]
fn seed_held_token_start_in_unterminated_reasoning() {
    assert_eq!(
        scan("<|channel|>analysis<|message|>thinking here<|")[3..],
        ["R+", "R\"thinking here<|\"", "D:unclosed_reasoning", "R-"]
    );
}

/// docs/seed.md B11 (a body that is not JSON at all is in tests/cases/harmony.md): broken
/// mid-value, the arguments so far go back into the content, tokens do not.
#[test]
fn body_broken_mid_value_is_text() {
    let input = "<|channel|>commentary to=functions.f<|message|>{\"a\": 1 <b>x</b><|call|>";
    assert_eq!(
        scan(input)[3..],
        [
            "S0:f",
            "A0\"{\\\"a\\\": 1 \"",
            "D:malformed_call",
            "X0:Invalid",
            "T\"<b>x</b>\"",
            "<CallClose>",
        ]
    );
    assert_eq!(completion_with(input, None).content, "{\"a\": 1 <b>x</b>");
    // A token inside the value breaks it too; the token then acts on the message.
    assert_eq!(
        scan("<|channel|>commentary to=functions.f<|message|>{\"a\": 1<|end|>x")[4..],
        [
            "A0\"{\\\"a\\\": 1\"",
            "D:malformed_call",
            "X0:Invalid",
            "<MessageEnd>",
            "T\"x\""
        ]
    );
}

/// A special token inside a JSON string is argument text.
#[test]
fn tokens_inside_json_strings_are_arguments() {
    let input =
        "<|channel|>commentary to=functions.echo<|message|>{\"s\":\"<|call|> <|end|>\"}<|call|>";
    assert_eq!(
        scan(input)[3..],
        [
            "S0:echo",
            "A0\"{\\\"s\\\":\\\"<|call|> <|end|>\\\"}\"",
            "X0:Complete",
            "<CallClose>"
        ]
    );
}

/// Rule 13: what follows a complete body other than `<|call|>` ends the call without its
/// closer; an empty body is a call without arguments.
#[test]
fn after_the_arguments() {
    assert_eq!(
        scan("<|channel|>commentary to=functions.f<|message|>{} trailing<|call|>")[4..],
        [
            "A0\"{}\"",
            "E\" \"",
            "D:missing_closer",
            "X0:Complete",
            "T\"trailing\"",
            "<CallClose>"
        ]
    );
    assert_eq!(
        scan("<|channel|>commentary to=functions.f<|message|>{}<|end|>")[4..],
        [
            "A0\"{}\"",
            "D:missing_closer",
            "X0:Complete",
            "<MessageEnd>"
        ]
    );
    assert_eq!(
        scan("<|channel|>commentary to=functions.f<|message|><|call|>")[2..],
        ["<MessageBody>", "S0:f", "X0:Complete", "<CallClose>"]
    );
    assert_eq!(
        arguments(
            &completion("<|channel|>commentary to=functions.f<|message|><|call|>").tool_calls[0]
        ),
        "{}"
    );
}

#[test]
fn limits_end_calls_as_invalid() {
    let mut options = Options::default();
    options.max_calls = 1;
    options.max_argument_bytes = 8;
    assert_eq!(
        scan_with(
            options,
            "<|channel|>commentary to=functions.f<|message|>{}<|call|><|start|>assistant<|channel|>commentary to=functions.g<|message|>{}<|call|>"
        )[11..],
        [
            "<MessageBody>",
            "S1:",
            "D:too_many_calls",
            "X1:Invalid",
            "T\"{}\"",
            "<CallClose>"
        ]
    );
    assert_eq!(
        scan_with(
            options,
            "<|channel|>commentary to=functions.f<|message|>{\"a\": \"123456789\"}<|call|>"
        )[3..],
        [
            "S0:f",
            "A0\"{\\\"a\\\": \\\"1\"",
            "D:arguments_too_long",
            "X0:Invalid",
            "T\"23456789\\\"}\"",
            "<CallClose>"
        ]
    );
}

/// Rule 9: a recipient that cannot be a name is an invalid call.
#[test]
fn recipients_are_checked() {
    for bad in ["to=", "to=functions.", "to=functions.a\"b"] {
        let log = scan(&format!(
            "<|channel|>commentary {bad}<|message|>{{}}<|call|>"
        ));
        assert_eq!(
            log[3..6],
            ["S0:", "D:invalid_name", "X0:Invalid"],
            "{bad}: {log:?}"
        );
    }
    // A recipient ends at `<` (corpus 044), and a near miss of the namespace is a name.
    assert_eq!(
        scan("<|channel|>commentary to=functions.f<b> <|message|>{}<|call|>")[3],
        "S0:f"
    );
    assert_eq!(
        scan("<|channel|>commentary to=functionsx.f<|message|>{}<|call|>")[3],
        "S0:functionsx.f"
    );
    assert_eq!(
        scan("<|channel|>commentary to=fun<|message|>{}<|call|>")[3],
        "S0:fun"
    );
}

/// The OpenAI deltas of a whole turn, in token-sized chunks.
#[test]
fn openai_deltas_of_a_turn() {
    for size in [1, 4, 16, TURN.len()] {
        let (deltas, reason) = deltas(TURN, size, None);
        let (content, reasoning, _) = joined(&deltas);
        let calls: Vec<_> = deltas.iter().flat_map(|d| &d.tool_calls).collect();
        assert_eq!(content, "Checking the forecast.", "{size}");
        assert_eq!(reasoning, "Need the weather.", "{size}");
        assert_eq!(calls[0].name.as_deref(), Some("get_weather"));
        let args: String = calls.iter().map(|c| c.arguments.as_str()).collect();
        assert_eq!(args, r#"{"city":"Paris"}"#);
        assert_eq!(reason, "tool_calls");
    }
}

const PIECES: &[&str] = &[
    "<|start|>",
    "<|channel|>",
    "<|message|>",
    "<|constrain|>",
    "<|end|>",
    "<|call|>",
    "<|return|>",
    "<|sta",
    "<|",
    "<",
    "assistant",
    "functions.read to=assistant",
    "analysis",
    "commentary",
    "final",
    " to=functions.f",
    "to=browser.search",
    " json",
    "json",
    "{\"a\": \"<|call|>\"}",
    "{\"b\": [1, {\"c\": \"}\"}]}",
    "\"{\\\"x\\\": 1}\"",
    "{",
    "}",
    "\"",
    "\\",
    " ",
    "\n",
    "prose ",
    "é",
    "城堡",
    "🦀",
];

fn input() -> impl Strategy<Value = Vec<u8>> {
    prop::collection::vec(prop::sample::select(PIECES), 0..24)
        .prop_map(|pieces| pieces.concat().into_bytes())
}

proptest! {
    /// Inputs made of Harmony's own pieces, in random chunkings: the same events as the
    /// whole feed, every byte accounted for.
    #[test]
    fn random_chunkings_give_the_same_events(
        input in input(),
        sizes in prop::collection::vec(1usize..9, 1..8),
        starts_in_reasoning in any::<bool>(),
    ) {
        let mut options = Options::default();
        options.starts_in_reasoning = starts_in_reasoning;
        let (whole, chunked) = harness::whole_and_chunked(Dialect::Harmony, options, &input, &sizes);
        prop_assert_eq!(chunked, whole);
    }

    #[test]
    fn arbitrary_bytes_never_break_the_invariants(
        input in prop::collection::vec(any::<u8>(), 0..256),
        size in 1usize..7,
    ) {
        let (whole, chunked) = harness::whole_and_chunked(Dialect::Harmony, Options::default(), &input, &[size]);
        prop_assert_eq!(chunked, whole);
    }
}

/// Review: a body whose JSON closes but does not parse as an object (a string that holds
/// no object, a bad literal) is given back as text; `<|call|>` is a special token and
/// never came with it (it did: content was `"str"<|call|>`). The call ends before its
/// token, so the token is the message's end and not the call's text (the whole feeds are
/// in tests/cases/harmony.md; here a cut-off token and the deltas).
#[test]
fn arguments_that_do_not_parse_give_back_the_body_not_the_token() {
    let input = "<|channel|>commentary to=functions.f<|message|>\"str\"<|call|>";
    // The start of the token the stream cut off is not given back either.
    let cut = "<|channel|>commentary to=functions.f<|message|>{\"a\": tru} <|ca";
    assert_eq!(
        scan(cut)[4..],
        [
            "A0\"{\\\"a\\\": tru}\"",
            "E\" \"",
            "D:missing_closer",
            "X0:Complete",
            "E\"<|ca\"",
        ]
    );
    let got = completion(cut);
    assert_eq!(got.content, "{\"a\": tru}");
    assert_eq!(codes(&got), ["missing_closer", "invalid_arguments"]);
    // Clients never see the token, streamed or not.
    for size in [1, 3, 8, input.len()] {
        let (deltas, reason) = deltas(input, size, None);
        let content: String = deltas.iter().map(|d| d.content.as_str()).collect();
        assert!(!content.contains("<|"), "{size}-byte chunks: {content:?}");
        assert_eq!(reason, "stop", "{size}-byte chunks");
    }
    let (whole, _) = deltas(input, input.len(), None);
    assert_eq!(whole[0].content, "\"str\"");
}

/// Review: the body of an `analysis` message is the model's chain of thought; when it
/// turned out not to be a call (not JSON, broken JSON, text after the JSON, a bad
/// recipient), it went to the content. It is reasoning, arguments given back included
/// (not JSON and a bad recipient are in tests/cases/harmony.md).
#[test]
fn analysis_bodies_that_are_not_calls_are_reasoning() {
    let broken = "<|channel|>analysis to=functions.f<|message|>{\"a\": 1 <b>x</b><|call|>";
    assert_eq!(
        scan(broken)[3..],
        [
            "S0:f",
            "A0\"{\\\"a\\\": 1 \"",
            "R+",
            "D:malformed_call",
            "X0:Invalid",
            "R\"<b>x</b>\"",
            "<CallClose>",
            "R-",
        ]
    );
    let got = completion(broken);
    assert_eq!(got.content, "");
    assert_eq!(got.reasoning.as_deref(), Some("{\"a\": 1 <b>x</b>"));
    // Streamed: a call shown to the client is not repeated as reasoning either; held
    // back whole, its arguments are reasoning.
    for size in [1, 4, broken.len()] {
        let (deltas, reason) = deltas(broken, size, None);
        let (content, reasoning, args) = joined(&deltas);
        assert_eq!(content, "", "{size}");
        assert_eq!(format!("{args}{reasoning}"), "{\"a\": 1 <b>x</b>", "{size}");
        assert_eq!(reason, "stop");
    }
    let (whole, _) = deltas(broken, broken.len(), None);
    assert!(whole.iter().all(|d| d.tool_calls.is_empty()));

    let trailing = "<|channel|>analysis to=functions.f<|message|>{\"a\":1} more<|call|>";
    assert_eq!(
        scan(trailing)[3..],
        [
            "S0:f",
            "A0\"{\\\"a\\\":1}\"",
            "E\" \"",
            "D:missing_closer",
            "X0:Complete",
            "R+",
            "R\"more\"",
            "<CallClose>",
            "R-",
        ]
    );
    let got = completion(trailing);
    assert_eq!(got.tool_calls.len(), 1);
    assert_eq!(got.content, "");
    assert_eq!(got.reasoning.as_deref(), Some("more"));

    let stray = "<|channel|>analysis to=functions.f<|message|>{\"a\":1}<|constrain|>more<|end|>";
    assert_eq!(
        scan(stray)[4..],
        [
            "A0\"{\\\"a\\\":1}\"",
            "D:missing_closer",
            "X0:Complete",
            "<Stray>",
            "D:stray_token",
            "R+",
            "R\"more\"",
            "<MessageEnd>",
            "R-",
        ]
    );
    assert_eq!(completion(stray).reasoning.as_deref(), Some("more"));

    // A call the limit refuses: its body is reasoning too.
    let mut options = Options::default();
    options.max_calls = 0;
    assert_eq!(
        scan_with(
            options,
            "<|channel|>analysis to=functions.f<|message|>{}<|call|>"
        )[3..],
        [
            "S0:",
            "D:too_many_calls",
            "X0:Invalid",
            "R+",
            "R\"{}\"",
            "<CallClose>",
            "R-",
        ]
    );
}

/// Review: past the header cap the header is text, and a `<|channel|>` there was more of
/// it: the next message's header reached the content and its call was lost. The token
/// begins a new header, as in a body.
#[test]
fn channel_after_an_over_long_header_begins_the_next_message() {
    let author = "assistant ".repeat(30);
    let input =
        format!("<|start|>{author}<|channel|>commentary to=functions.f<|message|>{{}}<|call|>");
    assert_eq!(
        scan(&input),
        [
            "<MessageStart>".to_owned(),
            format!("E{:?}", &author[..256]),
            "D:header_too_long".to_owned(),
            format!("T{:?}", &author[256..]),
            "<Channel>".to_owned(),
            "D:unclosed_header".to_owned(),
            "E\"commentary to=functions.f\"".to_owned(),
            "<MessageBody>".to_owned(),
            "S0:f".to_owned(),
            "A0\"{}\"".to_owned(),
            "X0:Complete".to_owned(),
            "<CallClose>".to_owned(),
        ]
    );
    let got = completion(&input);
    assert_eq!(got.tool_calls.len(), 1);
    assert_eq!(got.content, author[256..].trim());
    assert_eq!(codes(&got), ["header_too_long", "unclosed_header"]);
}
