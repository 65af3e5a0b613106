//! Hermes and qwen3 scanning behaviours: docs/seed.md §2.2, §2.9 and §5.1 as amended by
//! docs/dialects.md, pinned as exact event logs. Every input also goes through the chunking
//! harness, so each behaviour holds for every split.

use inband::{CallEnd, Dialect, Error, Options, Scanner, Sink};
use inband_alloc::assemble::{assemble, AssembleOptions, Completion};
use inband_alloc::events::{EventLog, OwnedEvent};

use crate::harness;

/// The Hermes completion of `input` fed whole, with deterministic ids.
fn hermes_completion(input: &[u8]) -> Completion {
    assemble(
        Dialect::Hermes,
        Options::default(),
        &AssembleOptions::seeded(1),
        [input],
    )
}

fn scan_with(dialect: Dialect, options: Options, input: &str) -> Vec<String> {
    harness::scan(dialect, options, input)
}

fn scan(input: &str) -> Vec<String> {
    let hermes = scan_with(Dialect::Hermes, Options::default(), input);
    assert_eq!(
        scan_with(Dialect::Qwen3, Options::default(), input),
        hermes,
        "qwen3 reads the hermes wire alike"
    );
    hermes
}

/// docs/seed.md §5.1 item 2: the canonical rendering of `read {path, count}` round-trips, fed one
/// byte at a time.
#[test]
fn rendered_call_round_trips_byte_by_byte() {
    let rendered = "<tool_call>\n{\"name\":\"read\",\"arguments\":{\"path\":\"src/a.ts\",\"count\":2}}\n</tool_call>";
    for dialect in [Dialect::Hermes, Dialect::Qwen3] {
        let completion = assemble(
            dialect,
            Options::default(),
            &AssembleOptions::seeded(3),
            rendered.as_bytes().chunks(1),
        );
        assert_eq!(completion.tool_calls.len(), 1);
        assert_eq!(completion.tool_calls[0].name, "read");
        assert_eq!(
            serde_json::to_string(&completion.tool_calls[0].arguments).unwrap(),
            r#"{"path":"src/a.ts","count":2}"#
        );
        assert_eq!(completion.content, "");
        assert!(completion.diagnostics.is_empty());
    }
}

/// docs/seed.md B4: hermes reported `re` as the name of `read` when the name was split.
#[test]
fn name_is_never_a_prefix_of_itself() {
    let mut log = EventLog::new();
    let mut scanner = Scanner::new(Dialect::Hermes, Options::default());
    for chunk in [
        "<tool_call>{\"name\":\"re",
        "ad\",\"arguments\":{}}</tool_call>",
    ] {
        scanner.feed(chunk.as_bytes(), &mut log).unwrap();
    }
    scanner.finish(&mut log).unwrap();
    let starts: Vec<_> = log
        .events
        .iter()
        .filter(|e| matches!(e, OwnedEvent::ToolStart { .. }))
        .collect();
    assert_eq!(starts.len(), 1);
    assert!(matches!(starts[0], OwnedEvent::ToolStart { name: Some(n), .. } if n == b"read"));
}

/// docs/seed.md B8: a closer inside a JSON string is argument text.
#[test]
fn closer_inside_a_string_is_argument_text() {
    let log = scan(
        "<tool_call>{\"name\": \"echo\", \"arguments\": {\"s\": \"</tool_call> {\"}}</tool_call>",
    );
    assert_eq!(log[4], "A0\"{\\\"s\\\": \\\"</tool_call> {\\\"}\"");
    assert_eq!(log.last().unwrap(), "X0:Complete");
}

#[test]
fn double_encoded_arguments_stream_raw_and_assemble_unwrapped() {
    let input =
        "<tool_call>{\"name\": \"read\", \"arguments\": \"{\\\"path\\\": \\\"a\\\"}\"}</tool_call>";
    let log = scan(input);
    assert_eq!(log[4], "D:double_encoded_arguments");
    assert_eq!(
        log[5],
        "A0\"\\\"{\\\\\\\"path\\\\\\\": \\\\\\\"a\\\\\\\"}\\\"\""
    );
    let completion = hermes_completion(input.as_bytes());
    assert_eq!(
        serde_json::to_string(&completion.tool_calls[0].arguments).unwrap(),
        r#"{"path":"a"}"#
    );
}

#[test]
fn arguments_that_are_not_an_object_are_skipped() {
    let log = scan("<tool_call>{\"name\": \"f\", \"arguments\": 42}</tool_call>");
    assert_eq!(
        log[3..6],
        [
            "E\", \\\"arguments\\\": \"",
            "D:arguments_not_object",
            "E\"42}\""
        ]
    );
    let completion =
        hermes_completion(&b"<tool_call>{\"name\": \"f\", \"arguments\": 42}</tool_call>"[..]);
    assert_eq!(
        serde_json::to_string(&completion.tool_calls[0].arguments).unwrap(),
        "{}"
    );
}

/// Rule 2: bad structure is released as text with a diagnostic, never dropped.
#[test]
fn malformed_body_is_invalid_and_assembles_as_text() {
    let input = "<tool_call>not json</tool_call> after";
    assert_eq!(
        scan(input),
        [
            "<CallOpen>",
            "S0:",
            "D:malformed_call",
            "X0:Invalid",
            "T\"not json</tool_call> after\""
        ]
    );
    let completion = hermes_completion(input.as_bytes());
    assert_eq!(completion.content, input);
    assert!(completion.tool_calls.is_empty());
    assert_eq!(completion.diagnostics[0].code, "malformed_call");
}

/// Rule 9: names are trimmed, non-empty, without whitespace or markup.
#[test]
fn names_are_checked() {
    assert_eq!(
        scan("<tool_call>{\"name\": \" read \"}</tool_call>")[2],
        "S0:read"
    );
    let padded = format!(
        "<tool_call>{{\"name\": \"{}read\"}}</tool_call>",
        " ".repeat(200)
    );
    assert_eq!(scan(&padded)[2], "S0:read");
    for bad in ["", "a b", "<x>"] {
        let input = format!("<tool_call>{{\"name\": \"{bad}\"}}</tool_call>");
        let log = scan(&input);
        assert!(
            log.contains(&"D:invalid_name".to_owned()),
            "{bad:?}: {log:?}"
        );
        assert!(log.contains(&"X0:Invalid".to_owned()), "{bad:?}: {log:?}");
    }
    let long = format!(
        "<tool_call>{{\"name\": \"{}\"}}</tool_call>",
        "n".repeat(inband::MAX_NAME + 1)
    );
    assert!(scan(&long).contains(&"D:name_too_long".to_owned()));
    let missing = scan("<tool_call>{\"arguments\": {}}</tool_call>");
    assert!(missing.contains(&"D:missing_name".to_owned()));
    assert!(missing.contains(&"X0:Invalid".to_owned()));
}

/// Rule 5 and docs/seed.md §4.5: a result opener in content is a fabricated result; inside
/// arguments it is argument text.
#[test]
fn fabricated_result_only_in_content() {
    assert_eq!(
        scan("x<tool_response>y"),
        ["T\"x\"", "<ResultOpen>", "F", "T\"y\""]
    );
    let log = scan(
        "<tool_call>{\"name\": \"f\", \"arguments\": {\"a\": \"<tool_response>\"}}</tool_call>",
    );
    assert!(!log.contains(&"F".to_owned()));
    // A new user or tool turn (docs/dialects.md rule 5); the role must end its line.
    assert_eq!(scan("x<|im_start|>tool\n"), ["T\"x\"", "<ResultOpen>", "F"]);
    assert_eq!(
        scan("x<|im_start|>user\nhi"),
        ["T\"x\"", "<ResultOpen>", "F", "T\"hi\""]
    );
    assert_eq!(
        scan("x<|im_start|>userland"),
        ["T\"x<|im_start|>userland\""]
    );
    assert_eq!(
        scan("x<|im_start|>assistant\n"),
        ["T\"x<|im_start|>assistant\\n\""]
    );
}

#[test]
fn duplicate_keys_are_skipped() {
    let log = scan("<tool_call>{\"name\": \"f\", \"name\": \"g\", \"arguments\": {}, \"arguments\": {\"x\": 1}}</tool_call>");
    assert_eq!(log.iter().filter(|e| *e == "D:duplicate_key").count(), 2);
    assert!(log.contains(&"A0\"{}\"".to_owned()));
    assert_eq!(log.last().unwrap(), "X0:Complete");
}

#[test]
fn many_calls_in_one_chunk_all_count() {
    let one = "<tool_call>{\"name\": \"f\", \"arguments\": {\"i\": 1}}</tool_call>\n";
    let input = one.repeat(20);
    let log = harness::check(Dialect::Hermes, Options::default(), input.as_bytes());
    assert_eq!(harness::ends(&log), vec![CallEnd::Complete; 20]);
}

#[test]
fn feed_after_finish_is_an_error_until_reset() {
    struct Nothing;
    impl Sink for Nothing {}
    let mut scanner = Scanner::new(Dialect::Qwen3, Options::default());
    scanner.feed(b"<tool", &mut Nothing).unwrap();
    scanner.finish(&mut Nothing).unwrap();
    assert_eq!(scanner.feed(b"x", &mut Nothing), Err(Error::Finished));
    assert_eq!(scanner.finish(&mut Nothing), Err(Error::Finished));
    scanner.reset();
    assert_eq!(scanner.offset(), 0);
    let mut log = EventLog::new();
    scanner.feed(b"_call>", &mut log).unwrap();
    scanner.finish(&mut log).unwrap();
    assert_eq!(harness::render(&log), ["T\"_call>\""]);
}

#[test]
fn scanner_is_small_send_and_sync() {
    fn assert_traits<T: Send + Sync + std::panic::UnwindSafe>() {}
    assert_traits::<Scanner>();
    assert!(
        std::mem::size_of::<Scanner>() <= 456,
        "{}",
        std::mem::size_of::<Scanner>()
    );
}

/// Rule 13 and docs/dialects.md §hermes, §qwen3: a Markdown fence around the JSON body is accepted.
#[test]
fn code_fence_around_the_body() {
    assert_eq!(
        scan("<tool_call>\n```json\n{\"name\": \"f\", \"arguments\": {}}\n```\n</tool_call>"),
        [
            "<CallOpen>",
            "E\"\\n\"",
            "D:code_fence",
            "E\"```json\\n{\\\"name\\\": \\\"f\\\"\"",
            "S0:f",
            "E\", \\\"arguments\\\": \"",
            "A0\"{}\"",
            "E\"}\\n```\\n\"",
            "<CallClose>",
            "X0:Complete",
        ]
    );
    let log = scan("<tool_call>```python\nprint(1)\n```</tool_call>");
    assert_eq!(
        log[..5],
        [
            "<CallOpen>",
            "D:code_fence",
            "E\"```python\\n\"",
            "S0:",
            "D:malformed_call"
        ]
    );
    let log = scan(&format!(
        "<tool_call>{}json\n{{}}</tool_call>",
        "`".repeat(40)
    ));
    assert!(log.contains(&"D:malformed_call".to_owned()), "{log:?}");
}

/// Rule 7: a stop token inside a call drafted in reasoning leaves it a draft (the frame
/// every family shares): reasoning when the block closes later, its bytes kept; an
/// incomplete call when the stream ends first.
#[test]
fn stop_token_inside_a_draft_leaves_it_a_draft() {
    let input =
        "<think>x<tool_call>{\"name\": \"f\", \"arguments\": {\"a\": <|im_end|>more</think>answer";
    let log = scan(input);
    assert_eq!(
        log[log.len() - 8..],
        [
            "D:truncated_call",
            "<Stop>",
            "D:stray_stop_token",
            "R\"more\"",
            "<ReasoningClose>",
            "X0:Demoted",
            "R-",
            "T\"answer\"",
        ]
    );
    let completion = hermes_completion(input.as_bytes());
    assert!(completion.tool_calls.is_empty());
    assert!(completion.incomplete_calls.is_empty());
    assert_eq!(completion.content, "answer");
    assert_eq!(
        completion.reasoning.as_deref(),
        Some("x<tool_call>{\"name\": \"f\", \"arguments\": {\"a\": more")
    );
    let input = "<think>x<tool_call>{\"name\": \"f\", \"arguments\": {\"a\": <|im_end|>more";
    let log = scan(input);
    assert_eq!(
        log[log.len() - 4..],
        ["R\"more\"", "X0:Incomplete", "D:unclosed_reasoning", "R-"]
    );
    let completion = hermes_completion(input.as_bytes());
    assert_eq!(completion.incomplete_calls.len(), 1);
    assert_eq!(completion.reasoning.as_deref(), Some("xmore"));
}

/// Rule 13: the closer where only the body's last brace is missing completes the call;
/// anywhere else inside the body it breaks the call.
#[test]
fn closer_inside_a_body() {
    let log = scan("<tool_call>{\"name\": \"f\", \"arguments\": {\"a\": 1}</tool_call>");
    assert_eq!(log[5..], ["<CallClose>", "D:unclosed_body", "X0:Complete"]);
    let log = scan("<tool_call>{\"name\": \"f\", \"arguments\": {\"a\": 1</tool_call>x");
    assert_eq!(
        log[4..],
        [
            "A0\"{\\\"a\\\": 1\"",
            "<CallClose>",
            "D:malformed_call",
            "X0:Invalid",
            "T\"x\""
        ]
    );
}

#[test]
fn new_opener_or_reasoning_closer_inside_a_body_breaks_the_call() {
    let log = scan("<tool_call>{\"name\": \"f\", <tool_call>{\"name\": \"g\"}</tool_call>");
    assert_eq!(
        log[3..7],
        ["E\", \"", "D:malformed_call", "X0:Invalid", "<CallOpen>"]
    );
    assert_eq!(log.last().unwrap(), "X1:Complete");
    assert_eq!(
        scan("<think><tool_call>{\"name\": \"f\", </think>answer"),
        [
            "<ReasoningOpen>",
            "R+",
            "<CallOpen>",
            "E\"{\\\"name\\\": \\\"f\\\"\"",
            "S0?:f",
            "E\", \"",
            "D:malformed_call",
            "X0:Invalid",
            "<ReasoningClose>",
            "R-",
            "T\"answer\"",
        ]
    );
    let log = scan("<tool_call>{\"name\": \"f\", </think>x");
    assert_eq!(
        log[3..],
        [
            "E\", \"",
            "D:malformed_call",
            "X0:Invalid",
            "T\"</think>\"",
            "D:unopened_reasoning",
            "T\"x\""
        ]
    );
}

#[test]
fn other_markup_inside_a_body_breaks_the_call_and_is_text() {
    let input = "<tool_call>{\"name\": \"f\", \"arguments\": {\"a\": 1}<b>bold</b>";
    let log = scan(input);
    assert_eq!(
        log[5..],
        ["D:malformed_call", "X0:Invalid", "T\"<b>bold</b>\""]
    );
    let completion = hermes_completion(input.as_bytes());
    assert_eq!(completion.content, input);
}

#[test]
fn other_keys_are_skipped_with_a_diagnostic() {
    let log = scan("<tool_call>{\"name\": \"f\", \"args\": {\"a\": 1}}</tool_call>");
    assert_eq!(
        log[3..6],
        [
            "E\", \\\"args\\\": \"",
            "D:ignored_key",
            "E\"{\\\"a\\\": 1}}\""
        ]
    );
    assert_eq!(log.last().unwrap(), "X0:Complete");
}

/// Fence lines as models write them: CRLF, trailing blanks, other info strings.
#[test]
fn code_fence_variants() {
    for fence in [
        "```json\r\n",
        "```json \n",
        "``` json\t\n",
        "```tool_call\n",
    ] {
        let input = format!(
            "<tool_call>\n{fence}{{\"name\": \"f\", \"arguments\": {{}}}}\n```\n</tool_call>"
        );
        let log = scan(&input);
        assert_eq!(log.last().unwrap(), "X0:Complete", "{fence:?}: {log:?}");
    }
}

/// JSON escapes in names decode (models trained on `json.dumps` output escape non-ASCII).
#[test]
fn escaped_names_decode() {
    assert_eq!(
        scan("<tool_call>{\"name\": \"caf\\u00e9\"}</tool_call>")[2],
        "S0:café"
    );
    assert_eq!(
        scan("<tool_call>{\"name\": \"\\ud83e\\udd80\"}</tool_call>")[2],
        "S0:🦀"
    );
    assert_eq!(
        scan("<tool_call>{\"name\": \"a\\/b\"}</tool_call>")[2],
        "S0:a/b"
    );
    for bad in ["a\\nb", "a\\\"b", "\\ud83e", "\\u12"] {
        let log = scan(&format!("<tool_call>{{\"name\": \"{bad}\"}}</tool_call>"));
        assert!(
            log.contains(&"D:invalid_name".to_owned()),
            "{bad:?}: {log:?}"
        );
    }
    let not_utf8 = b"<tool_call>{\"name\": \"f\xc3(\"}</tool_call>";
    let log = harness::render(&harness::check(
        Dialect::Hermes,
        Options::default(),
        not_utf8,
    ));
    assert!(log.contains(&"D:invalid_name".to_owned()), "{log:?}");
}

/// Rule 13: repairs are accepted and reported.
#[test]
fn repaired_arguments_are_reported() {
    let codes = |input: &str| {
        let completion = assemble(
            Dialect::Hermes,
            Options::default(),
            &AssembleOptions::seeded(1),
            input.as_bytes().chunks(3),
        );
        assert_eq!(completion.tool_calls.len(), 1, "{input}");
        completion
            .diagnostics
            .iter()
            .map(|d| d.code)
            .collect::<Vec<_>>()
    };
    for repaired in [
        "{\"a\": True}",
        "{\"a\": 1,}",
        "{\"p\": \"C:\\Work\"}",
        "{'a': 'b'}",
        "{\"s\": \"line\nbreak\"}",
        "{\"e\": \"\\ud83d\"}",
    ] {
        let input =
            format!("<tool_call>{{\"name\": \"f\", \"arguments\": {repaired}}}</tool_call>");
        assert_eq!(codes(&input), ["repaired_arguments"], "{repaired}");
    }
    assert!(codes(
        "<tool_call>{\"name\": \"f\", \"arguments\": {\"a\": [true, \"\\n\"]}}</tool_call>"
    )
    .is_empty());
}

/// An unterminated name must not swallow the rest of the response.
#[test]
fn unterminated_name_does_not_swallow_the_response() {
    let input = "<tool_call>{\"name\": \"get_weather}</tool_call>\nThe answer is 42.";
    let log = scan(input);
    assert_eq!(
        log,
        [
            "<CallOpen>",
            "E\"{\\\"name\\\": \\\"get_weather}\"",
            "<CallClose>",
            "S0:",
            "D:malformed_call",
            "X0:Invalid",
            "T\"\\nThe answer is 42.\"",
        ]
    );
    let completion = hermes_completion(input.as_bytes());
    assert_eq!(completion.content, input);
    let log = scan("<tool_call>{\"name\": \"get\nweather\"}</tool_call>");
    assert!(log.contains(&"D:invalid_name".to_owned()), "{log:?}");
    let log = scan(&format!("<tool_call>{{\"name\": \"{}", "n".repeat(300)));
    assert!(log.contains(&"D:name_too_long".to_owned()), "{log:?}");
    assert!(
        log.last().unwrap().starts_with("T\""),
        "the rest is text: {log:?}"
    );
}

/// A call drafted inside reasoning and cut by a stop token inside a value stays a draft
/// until its reasoning decides (rule 7); its parameter ends at the stop token, so a later
/// call's parameters never overlap it (a fuzz find, gemma's `call:f(a=<eos>`; the same in
/// every family with parameters).
#[test]
fn a_draft_cut_inside_a_value_ends_its_parameter() {
    let cases: &[(Dialect, &str)] = &[
        (Dialect::Gemma, "<|tool_call>call:f(a=<eos><|tool_call>call:g(b="),
        (Dialect::Gemma, "<|tool_call>call:f{a:1<eos><|tool_call>call:g{b:2"),
        (
            Dialect::Deepseek,
            "<｜DSML｜function_calls><｜DSML｜invoke name=\"f\"><｜DSML｜parameter name=\"a\" string=\"true\">x<｜end▁of▁sentence｜><｜DSML｜function_calls><｜DSML｜invoke name=\"g\"><｜DSML｜parameter name=\"b\" string=\"true\">y",
        ),
        (
            Dialect::Glm,
            "<tool_call>f<arg_key>a</arg_key><arg_value>x<|user|><tool_call>g<arg_key>b</arg_key><arg_value>y",
        ),
        (
            Dialect::Qwen3Coder,
            "<tool_call>\n<function=f>\n<parameter=a>\nx<|im_end|><tool_call>\n<function=g>\n<parameter=b>\ny",
        ),
    ];
    let mut options = Options::default();
    options.starts_in_reasoning = true;
    for (dialect, input) in cases {
        let log = harness::check(*dialect, options, input.as_bytes());
        let params: Vec<String> = harness::render(&log)
            .into_iter()
            .filter(|e| e.starts_with("P"))
            .collect();
        assert_eq!(params.len(), 3, "{dialect}: {params:?}");
        assert!(params[0].starts_with("P0:a:"), "{dialect}: {params:?}");
        assert_eq!(params[1], "P-0", "{dialect}");
        assert!(params[2].starts_with("P1:b:"), "{dialect}: {params:?}");
    }
}

/// `stop_at_fabricated_result` ends the response where the model began writing a tool
/// result: nothing from the result's opener on is content or a call (docs/seed.md §5.1
/// item 8 in anthropic, §5.4 in glm); without it everything is reported after the
/// diagnostic.
#[test]
fn a_fabricated_result_can_end_the_response() {
    let cases: &[(Dialect, &str, &str)] = &[
        (
            Dialect::Anthropic,
            "<invoke name=\"read\"><parameter name=\"path\">rubygems.ts:85-93</parameter></invoke>\n<function_results>\n<result>\n<tool_name>read</tool_name>\n<stdout>[rubygems.ts#A1B2]</stdout>\n</result>\n</function_results>\n<invoke name=\"edit\"><parameter name=\"input\">[rubygems.ts#A1B2]\nSWAP 89..89:\n+ fake</parameter></invoke>",
            "read",
        ),
        (
            Dialect::Glm,
            "<tool_call>echo\n<arg_key>msg</arg_key>\n<arg_value>hi</arg_value>\n</tool_call>\n<tool_response>\nFAKE RESULT\n</tool_response>\n<tool_call>echo\n<arg_key>msg</arg_key>\n<arg_value>again</arg_value>\n</tool_call>",
            "echo",
        ),
        (
            Dialect::Hermes,
            "<tool_call>\n{\"name\": \"echo\", \"arguments\": {}}\n</tool_call>\n<tool_response>\nFAKE RESULT\n</tool_response>\nSo the answer is 42.",
            "echo",
        ),
    ];
    let mut stop = AssembleOptions::seeded(1);
    stop.stop_at_fabricated_result = true;
    for (dialect, input, first) in cases {
        let stopped = harness::completion_bytewise(*dialect, Options::default(), &stop, input);
        let bytes = input.as_bytes();
        for k in 0..=bytes.len() {
            let split = assemble(
                *dialect,
                Options::default(),
                &stop,
                [&bytes[..k], &bytes[k..]],
            );
            assert_eq!(split, stopped, "{dialect}: split at {k}");
        }
        let names: Vec<String> = stopped.tool_calls.iter().map(|c| c.name.clone()).collect();
        assert_eq!(names, [*first], "{dialect}");
        assert_eq!(stopped.content, "", "{dialect}");
        assert!(stopped.incomplete_calls.is_empty(), "{dialect}");
        assert_eq!(
            harness::codes(&stopped).last(),
            Some(&"fabricated_result"),
            "{dialect}"
        );
        // Without the option the rest is reported.
        let all = harness::completion(*dialect, Options::default(), input);
        assert!(
            all.content.contains("FAKE RESULT") || all.tool_calls.len() == 2,
            "{dialect}"
        );
    }
}
