//! Kimi and DeepSeek (the special-token family): docs/seed.md §2.3, §2.7 and §5 as
//! amended by docs/dialects.md, docs/dialects.md §deepseek, §kimi. The inputs that are
//! pinned as an exact event log or a completion are case files (`tests/cases/
//! special_tokens.md`, `deepseek.md`, `dsml.md`); what stays here is what a case cannot
//! say: filtered logs, events a log must not hold, incomplete calls' ids and arguments,
//! minted ids, generated inputs, deltas, allocations and the token soup. Every input also
//! goes through the chunking harness.

use inband::{CallEnd, Dialect, Options, Role, Scanner, Sink, Span};
use inband_alloc::assemble::{assemble, AssembleOptions, Completion};
use inband_alloc::events::{EventLog, OwnedEvent};
use inband_alloc::stream::DeltaStream;
use proptest::prelude::*;

use crate::harness;
use crate::harness::codes;

/// Kimi's tokens, abbreviated in test inputs as `[S]` `[/S]` `[C]` `[A]` `[/C]`.
fn kimi_tokens(input: &str) -> String {
    input
        .replace("[S]", "<|tool_calls_section_begin|>")
        .replace("[/S]", "<|tool_calls_section_end|>")
        .replace("[C]", "<|tool_call_begin|>")
        .replace("[A]", "<|tool_call_argument_begin|>")
        .replace("[/C]", "<|tool_call_end|>")
}

/// DeepSeek's tokens, abbreviated as `[S]` `[/S]` `[C]` `[SEP]` `[/C]` `[EOS]`.
fn deepseek_tokens(input: &str) -> String {
    input
        .replace("[S]", "<｜tool▁calls▁begin｜>")
        .replace("[/S]", "<｜tool▁calls▁end｜>")
        .replace("[C]", "<｜tool▁call▁begin｜>")
        .replace("[SEP]", "<｜tool▁sep｜>")
        .replace("[/C]", "<｜tool▁call▁end｜>")
        .replace("[EOS]", "<｜end▁of▁sentence｜>")
}

fn kimi(input: &str) -> Vec<String> {
    harness::scan(Dialect::Kimi, Options::default(), &kimi_tokens(input))
}

fn deepseek(input: &str) -> Vec<String> {
    harness::scan(
        Dialect::Deepseek,
        Options::default(),
        &deepseek_tokens(input),
    )
}

/// The completion of `input` (tokens already expanded), fed whole; byte by byte must agree,
/// and the events pass the chunking harness.
fn completion_with(dialect: Dialect, options: Options, input: &str) -> Completion {
    harness::completion_bytewise(dialect, options, &AssembleOptions::seeded(1), input)
}

fn kimi_completion(input: &str) -> Completion {
    completion_with(Dialect::Kimi, Options::default(), &kimi_tokens(input))
}

fn deepseek_completion(input: &str) -> Completion {
    completion_with(
        Dialect::Deepseek,
        Options::default(),
        &deepseek_tokens(input),
    )
}

/// DeepSeek's tokens as in [`deepseek_tokens`], and DSML tags abbreviated: `<:` is
/// `<｜DSML｜`, `</:` is `</｜DSML｜`.
fn dsml_tokens(input: &str) -> String {
    deepseek_tokens(
        &input
            .replace("</:", "</｜DSML｜")
            .replace("<:", "<｜DSML｜"),
    )
}

/// The completion of `input` (abbreviated as in [`dsml_tokens`]): the same whole, at every
/// two-way split and byte by byte; its events pass the harness.
fn dsml_completion_with(options: Options, input: &str) -> Completion {
    harness::completion(Dialect::Deepseek, options, &dsml_tokens(input))
}

fn dsml_completion(input: &str) -> Completion {
    dsml_completion_with(Options::default(), input)
}

/// `(id, name, arguments as compact JSON)` of each complete call.
fn calls(completion: &Completion) -> Vec<(String, String, String)> {
    completion
        .tool_calls
        .iter()
        .map(|c| {
            let arguments = serde_json::to_string(&c.arguments).unwrap();
            (c.id.clone(), c.name.clone(), arguments)
        })
        .collect()
}

/// Diagnostics that say the structure was broken where it was not.
fn assert_no_false_alarms(completion: &Completion) {
    for code in [
        "missing_closer",
        "unclosed_section",
        "stray_token",
        "missing_section",
        "malformed_call",
    ] {
        assert!(
            !codes(completion).contains(&code),
            "unexpected {code}: {:?}",
            completion.diagnostics
        );
    }
}

// ---------------------------------------------------------------------------------------
// Kimi

/// Rule 10: the model's `functions.NAME:IDX` is the id; the name is what is before the
/// last `:`, without `functions.`, and may hold `-` and `.` (docs/dialects.md §kimi). The
/// start and id events, and no others; the completion is a case.
#[test]
fn kimi_ids_are_the_models_and_names_come_from_them() {
    let input = "[S][C]functions.TodoWrite:3[A]{}[/C][C]write:1[A]{}[/C][C]functions.a.b-c:7[A]{}[/C][C]functions.mcp:fs:read:12[A]{}[/C][/S]";
    let log = kimi(input);
    let starts: Vec<&String> = log
        .iter()
        .filter(|e| e.starts_with('S') || e.starts_with('I'))
        .collect();
    assert_eq!(
        starts,
        [
            "S0:TodoWrite",
            "I0:functions.TodoWrite:3",
            "S1:write",
            "I1:write:1",
            "S2:a.b-c",
            "I2:functions.a.b-c:7",
            "S3:mcp:fs:read",
            "I3:functions.mcp:fs:read:12",
        ]
    );
}

/// A section that never closes: the call the stream cut off is incomplete and keeps its
/// id (rule 3, corpus README); the log and the completion are a case.
#[test]
fn kimi_unclosed_section() {
    let input = "[S][C]functions.f:0[A]{\"a\": 1}[/C][C]functions.g:1[A]{\"b\": ";
    let completion = kimi_completion(input);
    assert_eq!(completion.incomplete_calls[0].id, "functions.g:1");
}

/// Rule 7: when the stream ends in the reasoning, a draft that a stop token cut off was a
/// call, cut off, with its arguments so far (the log and the completions are cases).
#[test]
fn truncated_draft_in_reasoning_that_closes_is_reasoning() {
    let completion = kimi_completion(r#"<think>x[S][C]functions.f:0[A]{"a":<|im_end|>more"#);
    assert_eq!(completion.incomplete_calls[0].arguments, r#"{"a":"#);
}

/// Rule 3: the call the end of the stream cut off is incomplete, with its name and the
/// arguments so far (the logs are cases).
#[test]
fn kimi_end_of_stream_inside_a_call() {
    let completion = kimi_completion("ok [C]functions.f:0[A]{\"a\": \"x");
    assert_eq!(completion.incomplete_calls[0].name.as_deref(), Some("f"));
    assert_eq!(completion.incomplete_calls[0].arguments, r#"{"a": "x"#);
}

/// Rule 9: a header too long to be a name breaks the call; the longest name still fits
/// (the other invalid headers are cases).
#[test]
fn kimi_invalid_headers() {
    let long = format!(
        "[C]functions.{}:0[A]{{}}[/C]",
        "n".repeat(inband::MAX_NAME + 40)
    );
    let log = kimi(&long);
    assert!(log.contains(&"D:name_too_long".to_owned()), "{log:?}");
    assert!(log.contains(&"X0:Invalid".to_owned()), "{log:?}");
    // The longest name still fits with its prefix and index.
    let longest = format!(
        "[C]functions.{}:12345[A]{{}}[/C]",
        "n".repeat(inband::MAX_NAME)
    );
    assert!(kimi(&longest).contains(&"X0:Complete".to_owned()));
}

/// The same through the too-long header: the call breaks before its separator, and the
/// rest of the header, the separator and the arguments are still the call's.
#[test]
fn kimi_too_long_header_does_not_turn_argument_strings_into_calls() {
    let name = "x".repeat(200);
    let input =
        format!(r#"[S][C]functions.{name}:0[A]{{"note":"[C]functions.rm:9[A]{{}}[/C]"}}[/C][/S]"#);
    let completion = kimi_completion(&input);
    assert!(completion.tool_calls.is_empty());
    assert_eq!(
        completion.content,
        kimi_tokens(&format!(
            r#"functions.{name}:0{{"note":"[C]functions.rm:9[A]{{}}[/C]"}}"#
        ))
    );
    assert_eq!(
        codes(&completion),
        [
            "stray_token",
            "stray_token",
            "name_too_long",
            "stray_token",
            "stray_token"
        ]
    );
}

// ---------------------------------------------------------------------------------------
// DeepSeek

/// docs/seed.md §2.7 (g), verified example: the V3 / R1 form's calls, and their minted ids
/// (the log is a case).
#[test]
fn deepseek_v3_fenced_form() {
    let input = "[S][C]function[SEP]read\n```json\n{\"path\":\"a\"}\n```[/C]\n[C]function[SEP]write\r\n```json\n{\"path\":\"b\"}\n```[/C][/S]";
    let completion = deepseek_completion(input);
    let names: Vec<String> = calls(&completion).into_iter().map(|c| c.1).collect();
    assert_eq!(names, ["read", "write"]);
    assert_eq!(calls(&completion)[1].2, r#"{"path":"b"}"#);
    assert!(completion.tool_calls[0].id.starts_with("call_"));
}

/// docs/dialects.md §deepseek: the canonical section opener is no alias (the four aliases
/// are cases).
#[test]
fn deepseek_section_opener_spellings() {
    assert!(!deepseek("[S][C]f[SEP]{}[/C][/S]").contains(&"D:delimiter_alias".to_owned()));
}

/// Rule 5 and docs/seed.md B19: a result opener inside a JSON string is argument text, no
/// fabricated result (the one in content is a case).
#[test]
fn deepseek_fabricated_results() {
    let log = deepseek("[S][C]f[SEP]{\"a\": \"<｜tool▁output▁begin｜>\"}[/C][/S]");
    assert!(!log.contains(&"F".to_owned()), "{log:?}");
}

/// An extra brace before the closer raises no false alarm (the completions are cases).
#[test]
fn deepseek_extra_brace_before_the_closer() {
    let completion = deepseek_completion(r#"[S][C]f[SEP]{"a":1}}[/C][C]g[SEP]{}[/C][/S]"#);
    assert_no_false_alarms(&completion);
}

// ---------------------------------------------------------------------------------------
// DeepSeek V3.2 / V4: the DSML envelope (markup, read by the embedded markup machine)

/// docs/dialects.md §deepseek: V4 renames the block; nothing else changes, the completion
/// included (both logs are cases).
#[test]
fn deepseek_dsml_v32_block() {
    let input = "Let me check.\n\n<:function_calls>\n<:invoke name=\"get_weather\">\n<:parameter name=\"city\" string=\"true\">Paris</:parameter>\n<:parameter name=\"days\" string=\"false\">3</:parameter>\n</:invoke>\n</:function_calls>";
    let v4 = input.replace("function_calls", "tool_calls");
    assert_eq!(dsml_completion(&v4), dsml_completion(input));
}

/// One response, every form, one numbering: the ids are distinct across forms, and the
/// limit on calls counts them all, once for each call over it (the log and calls are
/// cases).
#[test]
fn deepseek_token_calls_and_a_dsml_block_in_one_response() {
    let input = "[S][C]f[SEP]{\"a\": 1}[/C][/S]\n<:tool_calls><:invoke name=\"g\"><:parameter name=\"b\" string=\"false\">2</:parameter></:invoke><:invoke name=\"h\"></:invoke></:tool_calls>[C]i[SEP]{}[/C]";
    let completion = dsml_completion(input);
    let ids: std::collections::HashSet<&str> = completion
        .tool_calls
        .iter()
        .map(|c| c.id.as_str())
        .collect();
    assert_eq!(ids.len(), 4, "ids are distinct across forms");
    let mut options = Options::default();
    options.max_calls = 2;
    let limited = dsml_completion_with(options, input);
    assert_eq!(
        codes(&limited)
            .iter()
            .filter(|&&c| c == "too_many_calls")
            .count(),
        2
    );
}

/// Rule 3: the call a block cut off by the end of the stream is incomplete, with its name
/// (the logs and the completion are cases).
#[test]
fn deepseek_dsml_cut_off_by_the_end_of_the_stream() {
    let completion = dsml_completion("<:function_calls><:invoke name=\"a\"></:invoke><:invoke name=\"f\"><:parameter name=\"k\" string=\"true\">abc");
    assert_eq!(completion.incomplete_calls[0].name.as_deref(), Some("f"));
}

// ---------------------------------------------------------------------------------------
// docs/seed.md §5 behaviours, as amended by docs/dialects.md

/// Rule 12: a call's delimiters that are special tokens never reach the text, not even when
/// the call's bytes are given back; DSML tags and Hermes's `<tool_call>` are not special
/// tokens and stay (the completions are cases).
#[test]
fn special_tokens_of_a_broken_call_are_not_given_back() {
    for dialect in [Dialect::Kimi, Dialect::Deepseek, Dialect::Harmony] {
        assert!(dialect.special_tokens(), "{dialect}");
    }
    for dialect in [Dialect::Hermes, Dialect::Qwen3, Dialect::Xml] {
        assert!(!dialect.special_tokens(), "{dialect}");
        assert!(!dialect.is_special_token(b"<|im_end|>"), "{dialect}");
    }
    for token in ["<|tool_call_begin|>", "<|tool_call_end|>", "<|im_end|>"] {
        assert!(Dialect::Kimi.is_special_token(token.as_bytes()), "{token}");
    }
    for token in ["<｜tool▁sep｜>", "<｜tool▁call▁end｜>", "<|EOT|>"] {
        assert!(
            Dialect::Deepseek.is_special_token(token.as_bytes()),
            "{token}"
        );
    }
    for tag in [
        "<｜DSML｜invoke",
        "</｜DSML｜invoke>",
        "<｜DSML｜function_calls>",
        "<|DSML|tool_calls>",
        "<think>",
        "</think>",
        "<｜a|>",
    ] {
        assert!(!Dialect::Deepseek.is_special_token(tag.as_bytes()), "{tag}");
    }
    assert!(Dialect::Harmony.is_special_token(b"<|call|>"));
    // Mistral's control tokens are bracketed capitals.
    for token in [
        "[TOOL_CALLS]",
        "[ARGS]",
        "[CALL_ID]",
        "[/THINK]",
        "[TOOL_RESULTS]",
    ] {
        assert!(
            Dialect::Mistral.is_special_token(token.as_bytes()),
            "{token}"
        );
    }
    for tag in [
        "<think>",
        "[]",
        "[/]",
        "[tool_calls]",
        "[A B]",
        "[TOOL_CALLS",
    ] {
        assert!(!Dialect::Mistral.is_special_token(tag.as_bytes()), "{tag}");
    }
    assert!(!Dialect::Hermes.is_special_token(b"[TOOL_CALLS]"));

    // Arguments that are a string, not an object: the diagnostic says what happened, not
    // that the string held JSON.
    let completion = deepseek_completion(r#"[S][C]f[SEP]"hello"[/C][/S]"#);
    let message = completion.diagnostics[3].message;
    assert!(message.contains("instead of an object"), "{message}");
    // DSML markup is text the tokenizer splits: an invalid invoke keeps it, and its
    // section's opener.
    let completion = dsml_completion(
        "<:function_calls><:invoke name=\"a b\"><:parameter name=\"k\" string=\"true\">v</:parameter></:invoke></:function_calls>",
    );
    assert!(
        completion.content.starts_with(&dsml_tokens(
            "<:function_calls><:invoke name=\"a b\"><:parameter name=\"k\" string=\"true\">v</:parameter></:invoke>"
        )),
        "{}",
        completion.content
    );
    assert!(!codes(&completion).contains(&"stray_token"));
}

/// Rule 12 when streaming: the content deltas of an invalid call hold no special token.
#[test]
fn streamed_content_of_an_invalid_call_holds_no_special_token() {
    let input = kimi_tokens("Hi [S][C]bad name:0[A]{\"a\": 1}[/C][C]functions.ok:1[A]{}[/C][/S]");
    let bytes = input.as_bytes();
    harness::check(Dialect::Kimi, Options::default(), bytes);
    for size in [1, 3, 7, bytes.len()] {
        let mut scanner = Scanner::new(Dialect::Kimi, Options::default());
        let mut stream = DeltaStream::new(Dialect::Kimi, &AssembleOptions::seeded(1));
        let mut content = String::new();
        let mut names = Vec::new();
        for chunk in bytes.chunks(size) {
            scanner.feed(chunk, &mut stream).unwrap();
            let delta = stream.take_delta();
            content.push_str(&delta.content);
            names.extend(delta.tool_calls.into_iter().filter_map(|c| c.name));
        }
        scanner.finish(&mut stream).unwrap();
        let (delta, finish_reason, _) = stream.finish();
        content.push_str(&delta.content);
        names.extend(delta.tool_calls.into_iter().filter_map(|c| c.name));
        assert_eq!(content, "Hi bad name:0{\"a\": 1}", "{size}-byte chunks");
        assert_eq!(names, ["ok"], "{size}-byte chunks");
        assert_eq!(finish_reason, "tool_calls");
    }
}

/// docs/seed.md §5.1 item 4: the call's own bytes (the seed's rawBlock, section tokens excluded)
/// are exactly its markup and argument events, fed byte by byte.
#[test]
fn a_calls_bytes_are_its_raw_block() {
    let input = kimi_tokens("[S][C]functions.read:0[A]  {\"path\":\"src/a.ts\"}\n[/C][/S]");
    let log = EventLog::scan(
        Dialect::Kimi,
        Options::default(),
        input.as_bytes().chunks(1),
    );
    let mut raw = Vec::new();
    let mut inside = false;
    for event in &log.events {
        match event {
            OwnedEvent::Markup {
                kind: inband::Markup::Delimiter(Role::CallOpen),
                ..
            } => inside = true,
            OwnedEvent::ToolEnd { end, .. } => {
                assert_eq!(*end, CallEnd::Complete);
                inside = false;
            }
            _ => {}
        }
        if inside {
            raw.extend_from_slice(event.payload().unwrap_or_default());
        }
    }
    assert_eq!(
        String::from_utf8(raw).unwrap(),
        kimi_tokens("[C]functions.read:0[A]  {\"path\":\"src/a.ts\"}\n[/C]")
    );
}

#[test]
fn many_calls_in_one_chunk_all_count() {
    let one = "[C]functions.f:0[A]{\"i\": 1}[/C]";
    let input = kimi_tokens(&format!("[S]{}[/S]", one.repeat(20)));
    let log = harness::check(Dialect::Kimi, Options::default(), input.as_bytes());
    assert_eq!(harness::ends(&log), vec![CallEnd::Complete; 20]);
}

/// Counts complete calls without allocating.
#[derive(Default)]
struct Completes(u32);

impl Sink for Completes {
    fn tool_end(&mut self, _: Span, _: u32, end: CallEnd) {
        self.0 += u32::from(end == CallEnd::Complete);
    }
}

/// Every phase of the family (text, reasoning, sections, headers, fences, arguments, held
/// delimiters, broken calls handed back, DSML blocks) runs without allocating.
#[test]
fn feeding_allocates_nothing() {
    let kimi_call = "[C]functions.write:0[A]{\"path\": \"a.rs\", \"body\": \"[/C] 城\"}[/C]";
    let kimi_input = kimi_tokens(&format!(
        "<think>plan <|tool_ca it</think>Prose < [/C] [S]{}[C]x[/C][/S]",
        kimi_call.repeat(30)
    ));
    let deepseek_call = "[C]function[SEP]read\n```json\n{\"p\": \"[/C]\"}\n```[/C]\n";
    let dsml_invoke = "<:invoke name=\"w\">\n<:parameter name=\"p\" string=\"true\">a </:parameter> 城</:parameter>\n<:parameter name=\"n\" string=\"false\">[1]</:parameter>\n</:invoke>\n";
    let deepseek_input = dsml_tokens(&format!(
        "<think>x</think>[S]{}[C]f[SEP]{{}}[/C][/S]\n<:function_calls>\n{}</:function_calls>[EOS]",
        deepseek_call.repeat(30),
        dsml_invoke.repeat(10)
    ));
    // Kimi's last call lacks its argument opener: invalid.
    for (dialect, input, complete) in [
        (Dialect::Kimi, kimi_input, 30),
        (Dialect::Deepseek, deepseek_input, 41),
    ] {
        let input = input.as_bytes();
        for size in [1, 3, 4, 16, input.len()] {
            let mut scanner = Scanner::new(dialect, Options::default());
            let mut completes = Completes::default();
            let before = crate::alloc::allocations();
            for chunk in input.chunks(size) {
                scanner.feed(chunk, &mut completes).unwrap();
            }
            scanner.finish(&mut completes).unwrap();
            assert_eq!(
                crate::alloc::allocations() - before,
                0,
                "{dialect}, {size}-byte chunks"
            );
            assert_eq!(completes.0, complete, "{dialect}");
        }
    }
}

/// Kimi and DeepSeek tokens, DSML tags, JSON fragments and prose: the pieces real outputs
/// are made of.
const PIECES: &[&str] = &[
    "<|tool_calls_section_begin|>",
    "<|tool_call_section_begin|>",
    "<|tool_calls_section_end|>",
    "<|tool_call_begin|>",
    "<|tool_call_argument_begin|>",
    "<|tool_call_end|>",
    "<|im_end|>",
    "<|im_system|>",
    "<|tool_call_",
    "functions.read:0",
    "<｜tool▁calls▁begin｜>",
    "<｜tool▁calls｜>",
    "<｜tool▁calls▁end｜>",
    "<｜tool▁call▁begin｜>",
    "<｜tool▁sep｜>",
    "<｜tool▁call▁end｜>",
    "<｜end▁of▁sentence｜>",
    "<｜tool▁output▁begin｜>",
    "<｜tool▁ca",
    "<｜DSML｜function_calls>",
    "<|DSML|tool_calls>",
    "</｜DSML｜function_calls>",
    "<｜DSML｜invoke name=\"f\">",
    "</｜DSML｜invoke>",
    "<｜DSML｜parameter name=\"k\" string=\"true\">",
    "<｜DSML｜parameter name=\"n\" string=\"false\">",
    "</｜DSML｜parameter>",
    "<｜DSML｜",
    "function",
    "get_weather",
    "```json\n",
    "```",
    "<think>",
    "</think>",
    "{\"path\": \"a\\\"b\"}",
    "{\"a\": [1, {\"b\": \"}\"}]}",
    "\"{\\\"x\\\": 1}\"",
    "{",
    "}",
    "\"",
    "\\",
    "<",
    "\n",
    " ",
    "prose ",
    "城堡",
    "🦀",
    "bad name",
    "}}",
    "~~~",
    "\u{a0}",
    "<x>",
];

proptest! {
    #[test]
    fn random_token_soup_gives_the_same_events_in_any_chunking(
        pieces in prop::collection::vec(prop::sample::select(PIECES), 0..24),
        sizes in prop::collection::vec(1usize..9, 1..8),
        deepseek in any::<bool>(),
        starts_in_reasoning in any::<bool>(),
    ) {
        let input = pieces.concat().into_bytes();
        let dialect = if deepseek { Dialect::Deepseek } else { Dialect::Kimi };
        let mut options = Options::default();
        options.starts_in_reasoning = starts_in_reasoning;
        let whole = EventLog::scan(dialect, options, [&input[..]]);
        harness::check_log(&whole, &input);
        let chunks = harness::chunked(&input, &sizes);
        prop_assert_eq!(EventLog::scan(dialect, options, chunks.clone()), whole);
        // The completion too, special tokens of broken calls removed alike.
        let assemble = |chunks: Vec<&[u8]>| {
            assemble(dialect, options, &AssembleOptions::seeded(1), chunks)
        };
        prop_assert_eq!(assemble(chunks), assemble(vec![&input[..]]));
    }
}
