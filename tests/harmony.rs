//! Harmony (gpt-oss) scanning behaviours: docs/seed.md §2.8 and §5 as amended by
//! docs/dialects.md, docs/dialects.md §harmony and corpus 042/044/046, pinned as exact event logs
//! (see `harness::render` for the notation) and completions. Every input also goes
//! through the chunking harness, so each behaviour holds for every split.

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

#[test]
fn a_full_turn_reasoning_preamble_and_call() {
    assert_eq!(
        scan(TURN),
        [
            "<Channel>",
            "E\"analysis\"",
            "<MessageBody>",
            "R+",
            "R\"Need the weather.\"",
            "<MessageEnd>",
            "R-",
            "<MessageStart>",
            "E\"assistant\"",
            "<Channel>",
            "E\"commentary\"",
            "<MessageBody>",
            "T\"Checking the forecast.\"",
            "<MessageEnd>",
            "<MessageStart>",
            "E\"assistant\"",
            "<Channel>",
            "E\"commentary to=functions.get_weather \"",
            "<Constrain>",
            "E\"json\"",
            "<MessageBody>",
            "S0:get_weather",
            "A0\"{\\\"city\\\":\\\"Paris\\\"}\"",
            "X0:Complete",
            "<CallClose>",
        ]
    );
    let completion = completion(TURN);
    assert_eq!(completion.content, "Checking the forecast.");
    assert_eq!(completion.reasoning.as_deref(), Some("Need the weather."));
    assert_eq!(completion.tool_calls.len(), 1);
    assert_eq!(completion.tool_calls[0].name, "get_weather");
    assert_eq!(arguments(&completion.tool_calls[0]), r#"{"city":"Paris"}"#);
    assert!(completion.diagnostics.is_empty());
}

/// `<|constrain|>json`, a bare `json`, or no content type: the same call.
#[test]
fn content_type_with_or_without_constrain() {
    let expected = |header: &str| {
        vec![
            "<Channel>".to_owned(),
            format!("E{header:?}"),
            "<MessageBody>".to_owned(),
            "S0:f".to_owned(),
            "A0\"{}\"".to_owned(),
            "X0:Complete".to_owned(),
            "<CallClose>".to_owned(),
        ]
    };
    assert_eq!(
        scan("<|channel|>commentary to=functions.f json<|message|>{}<|call|>"),
        expected("commentary to=functions.f json")
    );
    assert_eq!(
        scan("<|channel|>commentary to=functions.f<|message|>{}<|call|>"),
        expected("commentary to=functions.f")
    );
    assert_eq!(
        scan("<|channel|>commentary to=functions.f <|constrain|>json<|message|>{}<|call|>"),
        [
            "<Channel>",
            "E\"commentary to=functions.f \"",
            "<Constrain>",
            "E\"json\"",
            "<MessageBody>",
            "S0:f",
            "A0\"{}\"",
            "X0:Complete",
            "<CallClose>",
        ]
    );
}

/// Corpus 044: a repeated `<|channel|>` ends the recipient and is reported.
#[test]
fn duplicate_channel_does_not_leak_into_the_name() {
    let input = "<|start|>assistant<|channel|>commentary to=functions.update_cart<|channel|>commentary <|constrain|>json<|message|>{\"qty\":2}<|call|>";
    assert_eq!(
        scan(input),
        [
            "<MessageStart>",
            "E\"assistant\"",
            "<Channel>",
            "E\"commentary to=functions.update_cart\"",
            "<Channel>",
            "D:duplicate_channel",
            "E\"commentary \"",
            "<Constrain>",
            "E\"json\"",
            "<MessageBody>",
            "S0:update_cart",
            "A0\"{\\\"qty\\\":2}\"",
            "X0:Complete",
            "<CallClose>",
        ]
    );
    assert_eq!(completion(input).tool_calls[0].name, "update_cart");
}

/// Corpus 046: the scanner reports `shelljson` as written; the tool list repairs it.
#[test]
fn glued_recipient_with_and_without_tools() {
    let input = "<|channel|>commentary to=functions.shelljson<|message|>{\"cmd\":[\"ls\"]}<|call|>";
    assert_eq!(
        scan(input),
        [
            "<Channel>",
            "E\"commentary to=functions.shelljson\"",
            "<MessageBody>",
            "S0:shelljson",
            "A0\"{\\\"cmd\\\":[\\\"ls\\\"]}\"",
            "X0:Complete",
            "<CallClose>",
        ]
    );
    let without = completion(input);
    assert_eq!(without.tool_calls[0].name, "shelljson");
    assert!(without.diagnostics.is_empty());
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

/// Rule 3: servers strip `<|call|>`; a complete JSON body is a complete call.
#[test]
fn missing_call_token_at_the_end_is_complete() {
    let input = "<|channel|>commentary to=functions.read<|message|>{\"path\":\"a\"}";
    assert_eq!(
        scan(input),
        [
            "<Channel>",
            "E\"commentary to=functions.read\"",
            "<MessageBody>",
            "S0:read",
            "A0\"{\\\"path\\\":\\\"a\\\"}\"",
            "D:missing_closer",
            "X0:Complete",
        ]
    );
    assert_eq!(
        arguments(&completion(input).tool_calls[0]),
        r#"{"path":"a"}"#
    );
    // Whitespace and the start of the token the stream cut off are markup; the token is
    // the message's end, after the call's.
    assert_eq!(
        scan("<|channel|>commentary to=functions.read<|message|>{}\n<|ca"),
        [
            "<Channel>",
            "E\"commentary to=functions.read\"",
            "<MessageBody>",
            "S0:read",
            "A0\"{}\"",
            "E\"\\n\"",
            "D:missing_closer",
            "X0:Complete",
            "E\"<|ca\"",
        ]
    );
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
    assert_eq!(
        scan("<|channel|>commentary to=functions.f<|message|> "),
        [
            "<Channel>",
            "E\"commentary to=functions.f\"",
            "<MessageBody>",
            "S0:f",
            "E\" \"",
            "D:truncated_call",
            "X0:Incomplete",
        ]
    );
}

/// docs/seed.md §2.8 (h) and §5.1 item 9: a message authored by a tool is the model inventing a
/// result; its body is text, as after a Hermes `<tool_response>`.
#[test]
fn fabricated_tool_result() {
    let input = "<|channel|>commentary to=functions.read<|message|>{\"path\":\"a\"}<|call|>\
<|start|>functions.read to=assistant<|channel|>commentary<|message|>FILE<|end|>";
    assert_eq!(
        scan(input),
        [
            "<Channel>",
            "E\"commentary to=functions.read\"",
            "<MessageBody>",
            "S0:read",
            "A0\"{\\\"path\\\":\\\"a\\\"}\"",
            "X0:Complete",
            "<CallClose>",
            "<MessageStart>",
            "E\"functions.read\"",
            "F",
            "E\" to=assistant\"",
            "<Channel>",
            "E\"commentary\"",
            "<MessageBody>",
            "T\"FILE\"",
            "<MessageEnd>",
        ]
    );
    let completion = completion(input);
    assert_eq!(completion.tool_calls.len(), 1);
    assert_eq!(codes(&completion), ["fabricated_result"]);
    // Any author but the assistant, recipient or not.
    assert_eq!(
        scan("<|start|>user to=functions.f<|message|>{}<|end|>"),
        [
            "<MessageStart>",
            "E\"user\"",
            "F",
            "E\" to=functions.f\"",
            "<MessageBody>",
            "T\"{}\"",
            "<MessageEnd>",
        ]
    );
    // The author word is known when it ends, even at the end of the stream.
    assert_eq!(
        scan("<|start|>functions.rea"),
        [
            "<MessageStart>",
            "E\"functions.rea\"",
            "F",
            "D:unclosed_header"
        ]
    );
}

/// docs/dialects.md §harmony: gpt-oss calls built-in tools on `analysis`. A recipient makes a call
/// on any channel; other namespaces keep their name (docs/seed.md §2.8); a body that is not JSON
/// (the `python` tool's code) is not a call, and on `analysis` it is reasoning.
#[test]
fn calls_on_analysis() {
    assert_eq!(
        scan("<|channel|>analysis to=functions.lookup<|message|>{\"q\":1}<|call|>"),
        [
            "<Channel>",
            "E\"analysis to=functions.lookup\"",
            "<MessageBody>",
            "S0:lookup",
            "A0\"{\\\"q\\\":1}\"",
            "X0:Complete",
            "<CallClose>",
        ]
    );
    assert_eq!(
        scan("<|start|>assistant<|channel|>analysis to=browser.search code<|message|>{\"query\":\"pi\"}<|call|>")[4..6],
        ["<MessageBody>", "S0:browser.search"]
    );
    let python = "<|channel|>analysis to=python code<|message|>print(1)<|call|>";
    assert_eq!(
        scan(python),
        [
            "<Channel>",
            "E\"analysis to=python code\"",
            "<MessageBody>",
            "S0:python",
            "R+",
            "D:malformed_call",
            "X0:Invalid",
            "R\"print(1)\"",
            "<CallClose>",
            "R-",
        ]
    );
    // The code is the channel's: reasoning, never content.
    let code = completion(python);
    assert_eq!(code.content, "");
    assert_eq!(code.reasoning.as_deref(), Some("print(1)"));
    let with_tools = completion_with(
        "<|channel|>analysis to=browser.search<|message|>{}<|call|>",
        Some(&["read"]),
    );
    assert_eq!(with_tools.tool_calls[0].name, "browser.search");
    assert_eq!(codes(&with_tools), ["unknown_tool"]);
    // `to=assistant` addresses the assistant: not a call.
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

/// Bytes pass through untouched whatever the split, inside code points included.
#[test]
fn non_ascii_bodies_split_inside_code_points() {
    let input = "<|channel|>analysis<|message|>Café — 城堡 🦀<|end|>\
<|start|>assistant<|channel|>commentary to=functions.note<|message|>{\"text\":\"São Jorge — 城堡 🦀\"}<|call|>\
<|start|>assistant<|channel|>final<|message|>Até já 🦀<|return|>";
    assert_eq!(
        scan(input),
        [
            "<Channel>",
            "E\"analysis\"",
            "<MessageBody>",
            "R+",
            "R\"Café — 城堡 🦀\"",
            "<MessageEnd>",
            "R-",
            "<MessageStart>",
            "E\"assistant\"",
            "<Channel>",
            "E\"commentary to=functions.note\"",
            "<MessageBody>",
            "S0:note",
            "A0\"{\\\"text\\\":\\\"São Jorge — 城堡 🦀\\\"}\"",
            "X0:Complete",
            "<CallClose>",
            "<MessageStart>",
            "E\"assistant\"",
            "<Channel>",
            "E\"final\"",
            "<MessageBody>",
            "T\"Até já 🦀\"",
            "<MessageEnd>",
        ]
    );
    let whole = completion(input);
    assert_eq!(whole.reasoning.as_deref(), Some("Café — 城堡 🦀"));
    assert_eq!(whole.content, "Até já 🦀");
    assert_eq!(
        arguments(&whole.tool_calls[0]),
        r#"{"text":"São Jorge — 城堡 🦀"}"#
    );
    assert!(whole.diagnostics.is_empty());
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

/// docs/seed.md §5.3 items 24–39 (harmony was not covered: docs/seed.md B3): reasoning renders as an
/// analysis message, and an unterminated one has exactly one start and one end.
#[test]
fn seed_reasoning_rendering_and_unterminated_reasoning() {
    let rendered =
        "<|start|>assistant<|channel|>analysis<|message|>private chain of thought<|end|>";
    let completion = completion(rendered);
    assert_eq!(
        completion.reasoning.as_deref(),
        Some("private chain of thought")
    );
    assert_eq!(completion.content, "");
    assert_eq!(
        scan("<|channel|>analysis<|message|>partial"),
        [
            "<Channel>",
            "E\"analysis\"",
            "<MessageBody>",
            "R+",
            "R\"partial\"",
            "D:unclosed_reasoning",
            "R-",
        ]
    );
    // docs/seed.md B3's example: the held `<|` is reasoning, and the block still ends.
    assert_eq!(
        scan("<|channel|>analysis<|message|>thinking here<|")[3..],
        ["R+", "R\"thinking here<|\"", "D:unclosed_reasoning", "R-"]
    );
}

/// docs/seed.md §5.6 item 1, the assistant side of the rendered transcript, scanned back.
#[test]
fn seed_transcript_assistant_turn() {
    let input = "<|start|>assistant<|channel|>analysis<|message|>I should search.<|end|>\
<|start|>assistant<|channel|>final<|message|>Searching.<|end|>\
<|start|>assistant<|channel|>commentary to=functions.search<|message|>{\"query\":\"pi\"}<|call|>";
    let completion = completion(input);
    assert_eq!(completion.reasoning.as_deref(), Some("I should search."));
    assert_eq!(completion.content, "Searching.");
    assert_eq!(completion.tool_calls[0].name, "search");
    assert_eq!(arguments(&completion.tool_calls[0]), r#"{"query":"pi"}"#);
    harness::check(Dialect::Harmony, Options::default(), input.as_bytes());
}

/// docs/seed.md B11: a body that is not JSON is not a call with `{}`; it is text.
#[test]
fn body_that_is_not_json_is_text() {
    let input = "<|channel|>commentary to=functions.read<|message|>not json<|call|>after";
    assert_eq!(
        scan(input),
        [
            "<Channel>",
            "E\"commentary to=functions.read\"",
            "<MessageBody>",
            "S0:read",
            "D:malformed_call",
            "X0:Invalid",
            "T\"not json\"",
            "<CallClose>",
            "T\"after\"",
        ]
    );
    let completion = completion(input);
    assert!(completion.tool_calls.is_empty());
    assert_eq!(completion.content, "not jsonafter");
    // Broken mid-value: the arguments so far go back into the content, tokens do not.
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

/// The completion of `input` fed whole with `options`, with deterministic ids.
fn completion_options(options: Options, input: &str) -> Completion {
    harness::assembled(Dialect::Harmony, options, [input.as_bytes()])
}

fn in_reasoning() -> Options {
    let mut options = Options::default();
    options.starts_in_reasoning = true;
    options
}

/// Review: a body whose JSON closes but does not parse as an object (a string that holds
/// no object, a bad literal) is given back as text; `<|call|>` is a special token and
/// never came with it (it did: content was `"str"<|call|>`). The call ends before its
/// token, so the token is the message's end and not the call's text.
#[test]
fn arguments_that_do_not_parse_give_back_the_body_not_the_token() {
    let input = "<|channel|>commentary to=functions.f<|message|>\"str\"<|call|>";
    assert_eq!(
        scan(input),
        [
            "<Channel>",
            "E\"commentary to=functions.f\"",
            "<MessageBody>",
            "S0:f",
            "D:double_encoded_arguments",
            "A0\"\\\"str\\\"\"",
            "X0:Complete",
            "<CallClose>",
        ]
    );
    let got = completion(input);
    assert_eq!(got.content, "\"str\"");
    assert!(got.tool_calls.is_empty());
    assert_eq!(
        codes(&got),
        ["double_encoded_arguments", "invalid_arguments"]
    );
    let literal = "<|channel|>commentary to=functions.f<|message|>{\"a\": tru}<|call|>";
    harness::check(Dialect::Harmony, Options::default(), literal.as_bytes());
    let got = completion(literal);
    assert_eq!(got.content, "{\"a\": tru}");
    assert_eq!(codes(&got), ["invalid_arguments"]);
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

/// Review: with `starts_in_reasoning` (the prompt opened an analysis message), the model
/// writing its own `<|channel|>analysis<|message|>` was reported as `unclosed_message` and
/// split the reasoning in two blocks. Before a byte of the reasoning, a header is the
/// optional opener: one block if it is analysis, else the block closes empty, without a
/// diagnostic.
#[test]
fn starts_in_reasoning_with_the_models_own_header() {
    let input = "<|channel|>analysis<|message|>Need a tool.<|end|>\
<|start|>assistant<|channel|>commentary to=functions.f<|message|>{}<|call|>";
    assert_eq!(
        scan_with(in_reasoning(), input),
        [
            "R+",
            "<Channel>",
            "E\"analysis\"",
            "<MessageBody>",
            "R\"Need a tool.\"",
            "<MessageEnd>",
            "R-",
            "<MessageStart>",
            "E\"assistant\"",
            "<Channel>",
            "E\"commentary to=functions.f\"",
            "<MessageBody>",
            "S0:f",
            "A0\"{}\"",
            "X0:Complete",
            "<CallClose>",
        ]
    );
    let got = completion_options(in_reasoning(), input);
    assert_eq!(got.reasoning.as_deref(), Some("Need a tool."));
    assert_eq!(got.tool_calls.len(), 1);
    assert!(got.diagnostics.is_empty());
    assert_eq!(
        scan_with(
            in_reasoning(),
            "<|start|>assistant<|channel|>analysis<|message|>x<|end|>"
        ),
        [
            "R+",
            "<MessageStart>",
            "E\"assistant\"",
            "<Channel>",
            "E\"analysis\"",
            "<MessageBody>",
            "R\"x\"",
            "<MessageEnd>",
            "R-",
        ]
    );
    // Whitespace is not yet reasoning that the header would cut off.
    assert_eq!(
        scan_with(in_reasoning(), "\n<|channel|>analysis<|message|>x"),
        [
            "R+",
            "R\"\\n\"",
            "<Channel>",
            "E\"analysis\"",
            "<MessageBody>",
            "R\"x\"",
            "D:unclosed_reasoning",
            "R-",
        ]
    );
    // The model skipped the reasoning: the block closes empty at the next body.
    let skipped = "<|channel|>final<|message|>ok";
    assert_eq!(
        scan_with(in_reasoning(), skipped),
        [
            "R+",
            "<Channel>",
            "E\"final\"",
            "<MessageBody>",
            "R-",
            "T\"ok\"",
        ]
    );
    let got = completion_options(in_reasoning(), skipped);
    assert_eq!(got.content, "ok");
    assert_eq!(got.reasoning.as_deref(), Some(""));
    assert!(got.diagnostics.is_empty());
    // A header that gets no body closes the block with it.
    assert_eq!(
        scan_with(in_reasoning(), "<|channel|>final<|end|>after"),
        [
            "R+",
            "<Channel>",
            "E\"final\"",
            "<MessageEnd>",
            "D:unclosed_header",
            "R-",
            "T\"after\"",
        ]
    );
    // Once reasoning was written, a header without `<|end|>` before it is reported.
    assert_eq!(
        scan_with(in_reasoning(), "plan<|channel|>final<|message|>ok"),
        [
            "R+",
            "R\"plan\"",
            "<Channel>",
            "D:unclosed_message",
            "R-",
            "E\"final\"",
            "<MessageBody>",
            "T\"ok\"",
        ]
    );
}

/// Review: the body of an `analysis` message is the model's chain of thought; when it
/// turned out not to be a call (not JSON, broken JSON, text after the JSON, a bad
/// recipient), it went to the content. It is reasoning, arguments given back included.
#[test]
fn analysis_bodies_that_are_not_calls_are_reasoning() {
    let not_json = "<|channel|>analysis to=functions.f<|message|>think<|end|>";
    assert_eq!(
        scan(not_json),
        [
            "<Channel>",
            "E\"analysis to=functions.f\"",
            "<MessageBody>",
            "S0:f",
            "R+",
            "D:malformed_call",
            "X0:Invalid",
            "R\"think\"",
            "<MessageEnd>",
            "R-",
        ]
    );
    let got = completion(not_json);
    assert_eq!(got.content, "");
    assert_eq!(got.reasoning.as_deref(), Some("think"));
    assert_eq!(codes(&got), ["malformed_call"]);

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

    let bad_name = "<|channel|>analysis to=<|message|>{}<|end|>";
    assert_eq!(
        scan(bad_name),
        [
            "<Channel>",
            "E\"analysis to=\"",
            "<MessageBody>",
            "R+",
            "S0:",
            "D:invalid_name",
            "X0:Invalid",
            "R\"{}\"",
            "<MessageEnd>",
            "R-",
        ]
    );
    let got = completion(bad_name);
    assert_eq!(got.content, "");
    assert_eq!(got.reasoning.as_deref(), Some("{}"));

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
