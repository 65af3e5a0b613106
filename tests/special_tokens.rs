//! Kimi and DeepSeek (the special-token family): docs/seed.md §2.3, §2.7 and §5 as
//! amended by docs/dialects.md, docs/dialects.md §deepseek, §kimi, pinned as exact event logs
//! and completions. Every input also goes through the chunking harness, so each behaviour
//! holds for every split (including inside `｜`, `▁` and CJK code points).

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

fn scan_with(dialect: Dialect, options: Options, input: &str) -> Vec<String> {
    harness::scan(dialect, options, input)
}

fn kimi(input: &str) -> Vec<String> {
    scan_with(Dialect::Kimi, Options::default(), &kimi_tokens(input))
}

fn deepseek(input: &str) -> Vec<String> {
    scan_with(
        Dialect::Deepseek,
        Options::default(),
        &deepseek_tokens(input),
    )
}

fn in_reasoning() -> Options {
    let mut options = Options::default();
    options.starts_in_reasoning = true;
    options
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

fn dsml(input: &str) -> Vec<String> {
    scan_with(Dialect::Deepseek, Options::default(), &dsml_tokens(input))
}

/// The completion of `input` (abbreviated as in [`dsml_tokens`]): the same whole, at every
/// two-way split and byte by byte; its events pass the harness.
fn dsml_completion_with(options: Options, input: &str) -> Completion {
    let input = dsml_tokens(input);
    let bytes = input.as_bytes();
    harness::check(Dialect::Deepseek, options, bytes);
    let run = |chunks: Vec<&[u8]>| {
        assemble(
            Dialect::Deepseek,
            options,
            &AssembleOptions::seeded(1),
            chunks,
        )
    };
    let whole = run(vec![bytes]);
    for k in 0..=bytes.len() {
        assert_eq!(run(vec![&bytes[..k], &bytes[k..]]), whole, "split at {k}");
    }
    assert_eq!(run(bytes.chunks(1).collect()), whole, "byte by byte");
    whole
}

fn dsml_completion(input: &str) -> Completion {
    dsml_completion_with(Options::default(), input)
}

/// `(name, arguments as compact JSON)` of each complete call (ids are minted).
fn named_calls(completion: &Completion) -> Vec<(String, String)> {
    calls(completion)
        .into_iter()
        .map(|(_, name, arguments)| (name, arguments))
        .collect()
}

fn named(name: &str, arguments: &str) -> (String, String) {
    (name.to_owned(), arguments.to_owned())
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
/// last `:`, without `functions.`, and may hold `-` and `.` (docs/dialects.md §kimi).
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
    let completion = kimi_completion(input);
    assert_eq!(
        calls(&completion),
        [
            (
                "functions.TodoWrite:3".into(),
                "TodoWrite".into(),
                "{}".into()
            ),
            ("write:1".into(), "write".into(), "{}".into()),
            ("functions.a.b-c:7".into(), "a.b-c".into(), "{}".into()),
            (
                "functions.mcp:fs:read:12".into(),
                "mcp:fs:read".into(),
                "{}".into()
            ),
        ]
    );
}

/// Rule 9: names are trimmed and must not contain whitespace, Unicode whitespace (NO-BREAK
/// SPACE, IDEOGRAPHIC SPACE, LINE SEPARATOR) included; a leading one does not hide Kimi's
/// `functions.` prefix.
#[test]
fn unicode_whitespace_in_names() {
    let completion = kimi_completion("[S][C]\u{a0}functions.read:0\u{a0}[A]{}[/C][/S]");
    assert_eq!(named_calls(&completion), [named("read", "{}")]);
    assert_eq!(completion.tool_calls[0].id, "functions.read:0");
    let completion = kimi_completion("[S][C]functions.read\u{3000}:0[A]{}[/C][/S]");
    assert_eq!(named_calls(&completion), []);
    assert!(
        codes(&completion).contains(&"invalid_name"),
        "{:?}",
        completion.diagnostics
    );
    let completion = deepseek_completion("[S][C]get\u{a0}weather[SEP]{}[/C][/S]");
    assert_eq!(named_calls(&completion), []);
    assert!(
        codes(&completion).contains(&"invalid_name"),
        "{:?}",
        completion.diagnostics
    );
    let completion = deepseek_completion("[S][C]get_weather\u{2028}[SEP]{}[/C][/S]");
    assert_eq!(named_calls(&completion), [named("get_weather", "{}")]);
    // The V3 form's name line, and its keyword.
    let completion = deepseek_completion(
        "[S][C]function\u{a0}[SEP]\u{3000}read\u{a0}\n```json\n{}\n```[/C][/S]",
    );
    assert_eq!(named_calls(&completion), [named("read", "{}")]);
}

/// A section that never closes keeps its complete calls; the one the stream cut off is
/// incomplete (rule 3, corpus README).
#[test]
fn kimi_unclosed_section() {
    let input = "[S][C]functions.f:0[A]{\"a\": 1}[/C][C]functions.g:1[A]{\"b\": ";
    assert_eq!(
        kimi(input),
        [
            "<SectionOpen>",
            "<CallOpen>",
            "S0:f",
            "I0:functions.f:0",
            r#"E"functions.f:0""#,
            "<ArgsOpen>",
            r#"A0"{\"a\": 1}""#,
            "<CallClose>",
            "X0:Complete",
            "<CallOpen>",
            "S1:g",
            "I1:functions.g:1",
            r#"E"functions.g:1""#,
            "<ArgsOpen>",
            r#"A1"{\"b\": ""#,
            "D:truncated_call",
            "X1:Incomplete",
            "D:unclosed_section",
        ]
    );
    let completion = kimi_completion(input);
    assert_eq!(
        calls(&completion),
        [("functions.f:0".into(), "f".into(), r#"{"a":1}"#.into())]
    );
    assert_eq!(completion.incomplete_calls.len(), 1);
    assert_eq!(completion.incomplete_calls[0].id, "functions.g:1");
    assert_eq!(completion.content, "");
}

/// Rule 3: the call's structure closes at its closer; rule 2: bytes between its complete
/// JSON and its closer (an extra `}`) are text, with one diagnostic, and the call goes on
/// to its closer (no false missing closer, stray tokens or unclosed section).
#[test]
fn kimi_extra_brace_before_the_closer() {
    let input = r#"[S][C]functions.f:0[A]{"a":1}}[/C][C]functions.g:1[A]{}[/C][/S]"#;
    let completion = kimi_completion(input);
    assert_eq!(
        named_calls(&completion),
        [named("f", r#"{"a":1}"#), named("g", "{}")]
    );
    assert_eq!(completion.content, "}");
    assert_no_false_alarms(&completion);
    assert_eq!(codes(&completion), ["trailing_text"]);
    // Whitespace before the text is the call's; after it, text.
    assert_eq!(
        kimi(r#"[S][C]functions.f:0[A]{"a":1} x } [/C][/S]"#)[6..],
        [
            r#"A0"{\"a\":1}""#,
            r#"E" ""#,
            "D:trailing_text",
            r#"T"x } ""#,
            "<CallClose>",
            "X0:Complete",
            "<SectionClose>",
        ]
    );
    // A token other than the closer still ends the call without it.
    assert_eq!(
        kimi("[S][C]functions.f:0[A]{}}<|im_end|>")[6..],
        [
            r#"A0"{}""#,
            "D:trailing_text",
            r#"T"}""#,
            "D:missing_closer",
            "X0:Complete",
            "<Stop>",
            "D:unclosed_section",
        ]
    );
}

/// Rule 7: a section inside reasoning that later closes is a draft (demoted); its bytes are
/// reasoning text again.
#[test]
fn kimi_call_in_closed_reasoning_is_demoted() {
    let input = "<think>a[S][C]functions.f:0[A]{}[/C][/S]b</think>c";
    assert_eq!(
        kimi(input),
        [
            "<ReasoningOpen>",
            "R+",
            r#"R"a""#,
            "<SectionOpen>",
            "<CallOpen>",
            "S0?:f",
            "I0:functions.f:0",
            r#"E"functions.f:0""#,
            "<ArgsOpen>",
            r#"A0"{}""#,
            "<CallClose>",
            "<SectionClose>",
            r#"R"b""#,
            "<ReasoningClose>",
            "X0:Demoted",
            "R-",
            r#"T"c""#,
        ]
    );
    let completion = kimi_completion(input);
    assert!(completion.tool_calls.is_empty());
    assert_eq!(completion.content, "c");
    assert_eq!(
        completion.reasoning.as_deref(),
        Some("a<|tool_calls_section_begin|><|tool_call_begin|>functions.f:0<|tool_call_argument_begin|>{}<|tool_call_end|><|tool_calls_section_end|>b")
    );
    // The reasoning closes inside the section: the section ends with it.
    assert_eq!(
        kimi("<think>a[S][C]functions.f:0[A]{}[/C]</think>b")[10..],
        [
            "<CallClose>",
            "D:unclosed_section",
            "<ReasoningClose>",
            "X0:Demoted",
            "R-",
            r#"T"b""#,
        ]
    );
}

/// Rule 7: a call inside a reasoning block that later closes is reasoning, even when a stop
/// token cut it off; rule 2: its bytes are reported (as reasoning), not lost. When the
/// stream ends first, it is an incomplete call.
#[test]
fn truncated_draft_in_reasoning_that_closes_is_reasoning() {
    let completion =
        kimi_completion(r#"<think>x[S][C]functions.f:0[A]{"a":<|im_end|>more</think>answer"#);
    assert_eq!(named_calls(&completion), []);
    assert_eq!(completion.incomplete_calls, []);
    assert_eq!(completion.content, "answer");
    assert_eq!(
        completion.reasoning.as_deref(),
        Some(
            r#"x<|tool_calls_section_begin|><|tool_call_begin|>functions.f:0<|tool_call_argument_begin|>{"a":more"#
        )
    );
    let completion =
        deepseek_completion(r#"<think>x[S][C]f[SEP]{"a":<｜end▁of▁sentence｜>more</think>answer"#);
    assert_eq!(named_calls(&completion), []);
    assert_eq!(completion.incomplete_calls, []);
    assert_eq!(completion.content, "answer");
    assert_eq!(
        completion.reasoning.as_deref(),
        Some(r#"x<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>f<｜tool▁sep｜>{"a":more"#)
    );
    // The stream ends in the reasoning: the draft was a call, cut off.
    let input = r#"<think>x[S][C]functions.f:0[A]{"a":<|im_end|>more"#;
    let log = kimi(input);
    assert_eq!(
        log[9..],
        [
            r#"A0"{\"a\":""#,
            "D:truncated_call",
            "<Stop>",
            "D:stray_stop_token",
            "D:unclosed_section",
            r#"R"more""#,
            "X0:Incomplete",
            "D:unclosed_reasoning",
            "R-",
        ]
    );
    let completion = kimi_completion(input);
    assert_eq!(completion.incomplete_calls.len(), 1);
    assert_eq!(completion.incomplete_calls[0].arguments, r#"{"a":"#);
    assert_eq!(completion.reasoning.as_deref(), Some("xmore"));
}

/// Rule 5: `<|im_system|>` (how results come back) is a fabricated result in content only.
#[test]
fn kimi_fabricated_result() {
    assert_eq!(
        kimi("[S][C]functions.f:0[A]{}[/C][/S]<|im_system|>f<|im_middle|>FAKE")[9..],
        [
            "<SectionClose>",
            "<ResultOpen>",
            "F",
            r#"T"f""#,
            "<Stray>",
            "D:stray_token",
            r#"T"FAKE""#,
        ]
    );
    let log = kimi("[S][C]functions.f:0[A]{\"a\": \"<|im_system|>\"}[/C][/S]");
    assert!(!log.contains(&"F".to_owned()), "{log:?}");
    assert!(log.contains(&"X0:Complete".to_owned()), "{log:?}");
}

/// A stop token where a call expects structure: the stream ended inside the call.
#[test]
fn kimi_stop_token_inside_a_call_truncates_it() {
    assert_eq!(
        kimi("[S][C]functions.f:0<|im_end|>"),
        [
            "<SectionOpen>",
            "<CallOpen>",
            "S0:",
            r#"E"functions.f:0""#,
            "D:truncated_call",
            "X0:Incomplete",
            "<Stop>",
            "D:unclosed_section",
        ]
    );
    assert_eq!(
        kimi("[S][C]functions.f:0[A]{\"a\": 1<|im_end|>"),
        [
            "<SectionOpen>",
            "<CallOpen>",
            "S0:f",
            "I0:functions.f:0",
            r#"E"functions.f:0""#,
            "<ArgsOpen>",
            r#"A0"{\"a\": 1""#,
            "D:truncated_call",
            "X0:Incomplete",
            "<Stop>",
            "D:unclosed_section",
        ]
    );
    // The JSON was complete: the stop token ate the closer (rule 3).
    assert_eq!(
        kimi("[S][C]functions.f:0[A]{}<|im_end|>")[6..],
        [
            r#"A0"{}""#,
            "D:missing_closer",
            "X0:Complete",
            "<Stop>",
            "D:unclosed_section",
        ]
    );
}

/// Rule 3: the end of the stream inside a header or the arguments leaves the call
/// incomplete; a delimiter cut off there is the call's markup, not text.
#[test]
fn kimi_end_of_stream_inside_a_call() {
    assert_eq!(
        kimi("[S][C]functions.f:0<|tool_call_argu"),
        [
            "<SectionOpen>",
            "<CallOpen>",
            "S0:",
            r#"E"functions.f:0<|tool_call_argu""#,
            "D:truncated_call",
            "X0:Incomplete",
            "D:unclosed_section",
        ]
    );
    assert_eq!(
        kimi("[C]functions.f:0[A]{\"a\": \"x"),
        [
            "<CallOpen>",
            "D:missing_section",
            "S0:f",
            "I0:functions.f:0",
            r#"E"functions.f:0""#,
            "<ArgsOpen>",
            r#"A0"{\"a\": \"x""#,
            "D:truncated_call",
            "X0:Incomplete",
        ]
    );
    let completion = kimi_completion("ok [C]functions.f:0[A]{\"a\": \"x");
    assert!(completion.tool_calls.is_empty());
    assert_eq!(completion.content, "ok");
    assert_eq!(completion.incomplete_calls[0].name.as_deref(), Some("f"));
    assert_eq!(completion.incomplete_calls[0].arguments, r#"{"a": "x"#);
}

/// Rule 9: names are checked; a header too long to be one breaks the call. An invalid call
/// is still read to its closer (its arguments are arguments, rules 2 and 4), then ends as
/// invalid, and its section goes on.
#[test]
fn kimi_invalid_headers() {
    assert_eq!(
        kimi("[S][C]bad name:0[A]{}[/C][/S]"),
        [
            "<SectionOpen>",
            "<CallOpen>",
            "S0:",
            r#"E"bad name:0""#,
            "<ArgsOpen>",
            "D:invalid_name",
            r#"E"{}""#,
            "<CallClose>",
            "X0:Invalid",
            "<SectionClose>",
        ]
    );
    for bad in ["", "functions.:0", ":3", "a\"b:0"] {
        let log = kimi(&format!("[C]{bad}[A]{{}}[/C]"));
        assert!(
            log.contains(&"D:invalid_name".to_owned()),
            "{bad:?}: {log:?}"
        );
    }
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

/// An invalid call is one call of its section: the section goes on, its closer is its
/// closer, and the next call is in it (no unclosed section, no call "without its section").
#[test]
fn kimi_invalid_call_keeps_its_section() {
    let completion = kimi_completion("[S][C]bad name:0[A]{}[/C][C]functions.ok:1[A]{}[/C][/S]");
    assert_eq!(named_calls(&completion), [named("ok", "{}")]);
    assert_eq!(completion.tool_calls[0].id, "functions.ok:1");
    assert_eq!(completion.content, "bad name:0{}");
    assert_eq!(
        codes(&completion),
        ["stray_token", "invalid_name", "stray_token", "stray_token"]
    );
}

/// The same through the too-long header: the call breaks before its separator, and the
/// rest of the header, the separator and the arguments are still the call's.
#[test]
fn kimi_too_long_header_does_not_turn_argument_strings_into_calls() {
    let name = "x".repeat(200);
    let input =
        format!(r#"[S][C]functions.{name}:0[A]{{"note":"[C]functions.rm:9[A]{{}}[/C]"}}[/C][/S]"#);
    let completion = kimi_completion(&input);
    assert_eq!(named_calls(&completion), []);
    assert_eq!(
        completion.content,
        kimi_tokens(&format!(
            r#"functions.{name}:0{{"note":"[C]functions.rm:9[A]{{}}[/C]"}}"#
        ))
    );
    assert_eq!(
        codes(&completion),
        ["stray_token", "name_too_long", "stray_token", "stray_token"]
    );
}

/// Every way a call breaks before its closer reads it on to the closer: JSON that is not
/// JSON (a `<` that begins no token, a closing bracket with nothing open), arguments over
/// the limit, a call over the limit on calls. A closer inside a string stays argument text
/// in each, and the call ends as invalid at its own closer.
#[test]
fn kimi_broken_calls_are_read_to_their_closer() {
    assert_eq!(
        kimi(r#"[S][C]functions.f:0[A]{"a": <x>, "s": "[/C]"}[/C][/S]"#),
        [
            "<SectionOpen>",
            "<CallOpen>",
            "S0:f",
            "I0:functions.f:0",
            r#"E"functions.f:0""#,
            "<ArgsOpen>",
            r#"A0"{\"a\": ""#,
            "D:malformed_call",
            r#"E"<x>, \"s\": \"<|tool_call_end|>\"}""#,
            "<CallClose>",
            "X0:Invalid",
            "<SectionClose>",
        ]
    );
    assert_eq!(
        kimi(r#"[S][C]functions.f:0[A]}{"s": "[/C]"}[/C][/S]"#)[6..],
        [
            "D:malformed_call",
            r#"E"}{\"s\": \"<|tool_call_end|>\"}""#,
            "<CallClose>",
            "X0:Invalid",
            "<SectionClose>",
        ]
    );
    let mut options = Options::default();
    options.max_argument_bytes = 8;
    let input = kimi_tokens(r#"[S][C]functions.f:0[A]{"a": "123456789[/C]"}[/C][/S]"#);
    assert_eq!(
        scan_with(Dialect::Kimi, options, &input)[6..],
        [
            r#"A0"{\"a\": \"1""#,
            "D:arguments_too_long",
            r#"E"23456789<|tool_call_end|>\"}""#,
            "<CallClose>",
            "X0:Invalid",
            "<SectionClose>",
        ]
    );
    let completion = completion_with(Dialect::Kimi, options, &input);
    assert_eq!(
        completion.content,
        r#"functions.f:0{"a": "123456789<|tool_call_end|>"}"#
    );
    // A call over the limit on calls: read to its closer, so what its strings hold is
    // never a call either.
    let mut options = Options::default();
    options.max_calls = 1;
    let input = kimi_tokens(
        r#"[S][C]functions.f:0[A]{}[/C][C]functions.g:1[A]{"s": "[C]functions.h:2[A]{}[/C]"}[/C][/S]"#,
    );
    assert_eq!(
        scan_with(Dialect::Kimi, options, &input)[9..],
        [
            "<CallOpen>",
            "S1:",
            "D:too_many_calls",
            r#"E"functions.g:1""#,
            "<ArgsOpen>",
            r#"E"{\"s\": \"<|tool_call_begin|>functions.h:2<|tool_call_argument_begin|>{}<|tool_call_end|>\"}""#,
            "<CallClose>",
            "X1:Invalid",
            "<SectionClose>",
        ]
    );
    let completion = completion_with(Dialect::Kimi, options, &input);
    assert_eq!(named_calls(&completion), [named("f", "{}")]);
}

/// A broken call that a stop token or the end of the stream cuts off is not a call that
/// was cut off (never incomplete): it ends as invalid and its bytes are text.
#[test]
fn kimi_broken_call_cut_off() {
    assert_eq!(
        kimi(r#"[S][C]bad name:0[A]{"a": 1<|im_end|>"#)[6..],
        [
            r#"E"{\"a\": 1""#,
            "X0:Invalid",
            "<Stop>",
            "D:unclosed_section",
        ]
    );
    let completion = kimi_completion(r#"[S][C]bad name:0[A]{"a": "x"#);
    assert!(completion.incomplete_calls.is_empty());
    assert_eq!(completion.content, r#"bad name:0{"a": "x"#);
    assert_eq!(
        codes(&completion),
        [
            "stray_token",
            "invalid_name",
            "stray_token",
            "unclosed_section"
        ]
    );
}

/// Non-ASCII arguments stream as they are, whatever the split (the harness splits inside
/// every code point).
#[test]
fn kimi_non_ascii_arguments() {
    let input = "[S][C]functions.note:0[A]{\"text\": \"São Jorge — 城堡 🦀\"}[/C][/S]";
    assert_eq!(kimi(input)[6], r#"A0"{\"text\": \"São Jorge — 城堡 🦀\"}""#);
    assert_eq!(
        calls(&kimi_completion(input))[0].2,
        r#"{"text":"São Jorge — 城堡 🦀"}"#
    );
}

// ---------------------------------------------------------------------------------------
// DeepSeek

/// docs/seed.md §2.7 (g), verified example: the V3 / R1 form, two calls with a newline between;
/// the second name line ends in CRLF.
#[test]
fn deepseek_v3_fenced_form() {
    let input = "[S][C]function[SEP]read\n```json\n{\"path\":\"a\"}\n```[/C]\n[C]function[SEP]write\r\n```json\n{\"path\":\"b\"}\n```[/C][/S]";
    assert_eq!(
        deepseek(input),
        [
            "<SectionOpen>",
            "<CallOpen>",
            "S0:read",
            r#"E"function""#,
            "<ArgsOpen>",
            r#"E"read\n```json\n""#,
            r#"A0"{\"path\":\"a\"}""#,
            r#"E"\n```""#,
            "<CallClose>",
            "X0:Complete",
            r#"E"\n""#,
            "<CallOpen>",
            "S1:write",
            r#"E"function""#,
            "<ArgsOpen>",
            r#"E"write\r\n```json\n""#,
            r#"A1"{\"path\":\"b\"}""#,
            r#"E"\n```""#,
            "<CallClose>",
            "X1:Complete",
            "<SectionClose>",
        ]
    );
    let completion = deepseek_completion(input);
    let names: Vec<String> = calls(&completion).into_iter().map(|c| c.1).collect();
    assert_eq!(names, ["read", "write"]);
    assert_eq!(calls(&completion)[1].2, r#"{"path":"b"}"#);
    assert!(
        completion.diagnostics.is_empty(),
        "{:?}",
        completion.diagnostics
    );
    assert!(completion.tool_calls[0].id.starts_with("call_"));
}

/// Rule 13: code fences around a JSON body are accepted; where the info string ends is
/// unambiguous at `{`, `[` or `"`.
#[test]
fn deepseek_v3_fence_without_newline_after_the_info_string() {
    for input in [
        "[S][C]function[SEP]read\n```json{\"a\":1}```[/C][/S]",
        "[S][C]function[SEP]read\n```json {\"a\":1}\n```[/C][/S]",
    ] {
        let completion = deepseek_completion(input);
        assert_eq!(
            named_calls(&completion),
            [named("read", r#"{"a":1}"#)],
            "{input}"
        );
        assert_eq!(completion.content, "", "{input}");
        assert_no_false_alarms(&completion);
    }
    assert_eq!(
        deepseek("[S][C]function[SEP]read\n```json{\"a\":1}```[/C][/S]")[5..8],
        [r#"E"read\n```json""#, r#"A0"{\"a\":1}""#, r#"E"```""#]
    );
}

/// Rule 13: `~~~` fences are fences too, in either form.
#[test]
fn deepseek_tilde_fences() {
    let completion =
        deepseek_completion("[S][C]function[SEP]read\n~~~json\n{\"a\":1}\n~~~[/C][/S]");
    assert_eq!(named_calls(&completion), [named("read", r#"{"a":1}"#)]);
    assert!(
        completion.diagnostics.is_empty(),
        "{:?}",
        completion.diagnostics
    );
    let completion = deepseek_completion("[S][C]read[SEP]~~~json\n{\"a\":1}\n~~~[/C][/S]");
    assert_eq!(named_calls(&completion), [named("read", r#"{"a":1}"#)]);
    assert_eq!(codes(&completion), ["code_fence"]);
    let completion = deepseek_completion("[S][C]function[SEP]now~~~json\n~~~[/C][/S]");
    assert_eq!(named_calls(&completion), [named("now", "{}")]);
}

/// A tool named `function` in the V3.1 form: what follows the separator decides, JSON (not
/// a name's line) means the keyword was the name.
#[test]
fn deepseek_v31_call_named_function() {
    assert_eq!(
        deepseek("[S][C]function[SEP]{\"a\": 1}[/C][/S]"),
        [
            "<SectionOpen>",
            "<CallOpen>",
            "S0:function",
            r#"E"function""#,
            "<ArgsOpen>",
            r#"A0"{\"a\": 1}""#,
            "<CallClose>",
            "X0:Complete",
            "<SectionClose>",
        ]
    );
    for input in [
        "[S][C]function [SEP] \n {\"a\": 1}[/C][/S]",
        "[S][C]function[SEP]\"{\\\"a\\\": 1}\"[/C][/S]",
    ] {
        let completion = deepseek_completion(input);
        assert_eq!(
            named_calls(&completion),
            [named("function", r#"{"a":1}"#)],
            "{input}"
        );
    }
    // A name's line still makes it the V3 form.
    let completion = deepseek_completion("[S][C]function[SEP]\nfunction\n```json\n{}\n```[/C][/S]");
    assert_eq!(named_calls(&completion), [named("function", "{}")]);
    assert!(
        completion.diagnostics.is_empty(),
        "{:?}",
        completion.diagnostics
    );
}

/// docs/dialects.md §deepseek: the five section opener spellings; four are aliases.
#[test]
fn deepseek_section_opener_spellings() {
    for opener in [
        "<｜tool_calls_begin｜>",
        "<｜tool calls begin｜>",
        "<｜tool\\_calls\\_begin｜>",
        "<｜tool▁calls｜>",
    ] {
        let log = deepseek(&format!("{opener}[C]f[SEP]{{}}[/C][/S]"));
        assert_eq!(
            log[..3],
            ["<SectionOpen>", "D:delimiter_alias", "<CallOpen>"],
            "{opener}"
        );
        assert_eq!(
            log[log.len() - 2..],
            ["X0:Complete", "<SectionClose>"],
            "{opener}"
        );
    }
    assert!(!deepseek("[S][C]f[SEP]{}[/C][/S]").contains(&"D:delimiter_alias".to_owned()));
}

/// docs/dialects.md §deepseek: the per-call opener may be missing right after the section opener,
/// in either form.
#[test]
fn deepseek_missing_per_call_opener() {
    assert_eq!(
        deepseek("[S]get_weather[SEP]{}[/C][/S]"),
        [
            "<SectionOpen>",
            "D:missing_call_open",
            "S0:get_weather",
            r#"E"get_weather""#,
            "<ArgsOpen>",
            r#"A0"{}""#,
            "<CallClose>",
            "X0:Complete",
            "<SectionClose>",
        ]
    );
    let input = "[S]\nfunction[SEP]read\n```json\n{}\n```[/C][/S]";
    assert_eq!(
        deepseek(input),
        [
            "<SectionOpen>",
            r#"E"\n""#,
            "D:missing_call_open",
            "S0:read",
            r#"E"function""#,
            "<ArgsOpen>",
            r#"E"read\n```json\n""#,
            r#"A0"{}""#,
            r#"E"\n```""#,
            "<CallClose>",
            "X0:Complete",
            "<SectionClose>",
        ]
    );
    // Elsewhere in a section, text is text: the section ended.
    assert_eq!(
        deepseek("[S][C]f[SEP]{}[/C]g[SEP]{}")[8..],
        [
            "D:unclosed_section",
            r#"T"g""#,
            "<Stray>",
            "D:stray_token",
            r#"T"{}""#,
        ]
    );
}

#[test]
fn deepseek_invalid_name_does_not_turn_argument_strings_into_calls() {
    let completion =
        deepseek_completion(r#"[S][C]bad name[SEP]{"note":"[C]rm[SEP]{}[/C]"}[/C][/S]"#);
    assert_eq!(named_calls(&completion), []);
    assert_eq!(
        completion.content,
        deepseek_tokens(r#"bad name{"note":"[C]rm[SEP]{}[/C]"}"#)
    );
    assert_eq!(
        codes(&completion),
        ["stray_token", "invalid_name", "stray_token", "stray_token"]
    );
}

/// The V3 / R1 fenced form: the name line is checked after the separator, and the call is
/// read on through its fence to its closer.
#[test]
fn deepseek_v3_invalid_name_does_not_turn_argument_strings_into_calls() {
    let input =
        "[S][C]function[SEP]bad name\n```json\n{\"note\":\"[C]rm[SEP]{}[/C]\"}\n```[/C][/S]";
    let completion = deepseek_completion(input);
    assert_eq!(named_calls(&completion), []);
    assert_eq!(
        completion.content,
        deepseek_tokens("functionbad name\n```json\n{\"note\":\"[C]rm[SEP]{}[/C]\"}\n```")
    );
    assert_eq!(
        codes(&completion),
        ["stray_token", "stray_token", "invalid_name", "stray_token"]
    );
    // A second separator on the name line breaks the call; it is read on to its closer.
    let completion = deepseek_completion("[S][C]function[SEP]read[SEP]{\"s\":\"[/C]\"}[/C][/S]");
    assert_eq!(named_calls(&completion), []);
    assert_eq!(
        completion.content,
        deepseek_tokens("functionread{\"s\":\"[/C]\"}")
    );
    assert!(codes(&completion).contains(&"malformed_call"));
    // A fence line that is not one breaks the call; it is read on to its closer all the same.
    let log = deepseek("[S][C]function[SEP]f\n```json$ {\"s\":\"[/C]\"}\n```[/C][/S]");
    assert_eq!(
        log[5..],
        [
            r#"E"f\n```json""#,
            "D:malformed_call",
            r#"E"$ {\"s\":\"<｜tool▁call▁end｜>\"}\n```""#,
            "<CallClose>",
            "X0:Invalid",
            "<SectionClose>",
        ]
    );
}

/// Rule 5 and docs/seed.md B19: both result openers are fabricated results in content, argument
/// text inside a JSON string.
#[test]
fn deepseek_fabricated_results() {
    assert_eq!(
        deepseek("x<｜tool▁outputs▁begin｜><｜tool▁output▁begin｜>FAKE<｜tool▁output▁end｜>"),
        [
            r#"T"x""#,
            "<ResultOpen>",
            "F",
            "<ResultOpen>",
            "F",
            r#"T"FAKE""#,
            "<Stray>",
            "D:stray_token",
        ]
    );
    let log = deepseek("[S][C]f[SEP]{\"a\": \"<｜tool▁output▁begin｜>\"}[/C][/S]");
    assert!(!log.contains(&"F".to_owned()), "{log:?}");
}

/// Rule 12: control tokens out of place are removed; `</think>` outside reasoning is one.
#[test]
fn deepseek_stray_tokens() {
    assert_eq!(
        deepseek("<｜begin▁of▁sentence｜><｜Assistant｜>a[SEP]b[/S]c</think>d<｜User｜>[EOS]"),
        [
            "<Stray>",
            "D:stray_token",
            "<Stray>",
            "D:stray_token",
            r#"T"a""#,
            "<Stray>",
            "D:stray_token",
            r#"T"b""#,
            "<Stray>",
            "D:stray_token",
            r#"T"c""#,
            "<Stray>",
            // `</think>` with no opener before it: the prompt opened the reasoning.
            "D:unopened_reasoning",
            "D:stray_token",
            r#"T"d""#,
            "<Stray>",
            "D:stray_token",
            "<Stop>",
        ]
    );
    // Between calls, a stray token is removed and the section goes on.
    let log = deepseek("[S][C]f[SEP]{}[/C][SEP][/C][C]g[SEP]{}[/C][/S]");
    assert_eq!(
        log[8..13],
        [
            "<Stray>",
            "D:stray_token",
            "<Stray>",
            "D:stray_token",
            "<CallOpen>"
        ]
    );
    assert_eq!(log[log.len() - 2..], ["X1:Complete", "<SectionClose>"]);
}

#[test]
fn deepseek_end_of_stream_inside_a_call() {
    assert_eq!(
        deepseek("[S][C]function[SEP]rea"),
        [
            "<SectionOpen>",
            "<CallOpen>",
            "S0:",
            r#"E"function""#,
            "<ArgsOpen>",
            r#"E"rea""#,
            "D:truncated_call",
            "X0:Incomplete",
            "D:unclosed_section",
        ]
    );
    assert_eq!(
        deepseek("[S][C]function[SEP]read\n```json\n{\"path\": \"a"),
        [
            "<SectionOpen>",
            "<CallOpen>",
            "S0:read",
            r#"E"function""#,
            "<ArgsOpen>",
            r#"E"read\n```json\n""#,
            r#"A0"{\"path\": \"a""#,
            "D:truncated_call",
            "X0:Incomplete",
            "D:unclosed_section",
        ]
    );
    // The JSON was complete and only the closing fence and closer are missing.
    assert_eq!(
        deepseek("[S][C]function[SEP]read\n```json\n{}\n``")[6..],
        [
            r#"A0"{}""#,
            r#"E"\n``""#,
            "D:missing_closer",
            "X0:Complete",
            "D:unclosed_section",
        ]
    );
}

#[test]
fn deepseek_extra_brace_before_the_closer() {
    let completion = deepseek_completion(r#"[S][C]f[SEP]{"a":1}}[/C][C]g[SEP]{}[/C][/S]"#);
    assert_eq!(
        named_calls(&completion),
        [named("f", r#"{"a":1}"#), named("g", "{}")]
    );
    assert_eq!(completion.content, "}");
    assert_no_false_alarms(&completion);
    // In the fenced form, after the closing fence.
    let completion =
        deepseek_completion("[S][C]function[SEP]f\n```json\n{\"a\":1}\n```}\n[/C][/S]");
    assert_eq!(named_calls(&completion), [named("f", r#"{"a":1}"#)]);
    assert_eq!(completion.content, "}");
    assert_eq!(codes(&completion), ["trailing_text"]);
}

// ---------------------------------------------------------------------------------------
// DeepSeek V3.2 / V4: the DSML envelope (markup, read by the embedded markup machine)

/// docs/dialects.md §deepseek: V3.2's block after the reasoning part's blank line; a raw-text and a
/// JSON parameter, values as argument deltas.
#[test]
fn deepseek_dsml_v32_block() {
    let input = "Let me check.\n\n<:function_calls>\n<:invoke name=\"get_weather\">\n<:parameter name=\"city\" string=\"true\">Paris</:parameter>\n<:parameter name=\"days\" string=\"false\">3</:parameter>\n</:invoke>\n</:function_calls>";
    assert_eq!(
        dsml(input),
        [
            r#"T"Let me check.\n\n""#,
            "<MarkupOpen>",
            r#"E"\n""#,
            "<CallOpen>",
            r#"E" name=\"get_weather\">""#,
            "S0:get_weather",
            r#"E"\n""#,
            "<ParamOpen>",
            r#"E" name=\"city\" string=\"true\">""#,
            "P0:city:text",
            r#"V0:Verbatim"Paris""#,
            "<ParamClose>",
            "P-0",
            r#"E"\n""#,
            "<ParamOpen>",
            r#"E" name=\"days\" string=\"false\">""#,
            "P0:days:json",
            r#"V0:Verbatim"3""#,
            "<ParamClose>",
            "P-0",
            r#"E"\n""#,
            "<CallClose>",
            "X0:Complete",
            r#"E"\n""#,
            "<SectionClose>",
        ]
    );
    let completion = dsml_completion(input);
    assert_eq!(
        named_calls(&completion),
        [named("get_weather", r#"{"city":"Paris","days":3}"#)]
    );
    assert_eq!(completion.content, "Let me check.");
    assert_eq!(completion.reasoning, None);
    assert!(completion.diagnostics.is_empty());
    // docs/dialects.md §deepseek: V4 renames the block; nothing else changes.
    let v4 = input.replace("function_calls", "tool_calls");
    assert_eq!(dsml(&v4), dsml(input));
    assert_eq!(dsml_completion(&v4), completion);
}

/// docs/seed.md §2.7: the ASCII-pipe spelling of every tag, in both block names.
#[test]
fn deepseek_dsml_ascii_pipes() {
    let input = "<|DSML|tool_calls><|DSML|invoke name=\"bash\"><|DSML|parameter name=\"cmd\" string=\"true\">ls -la</|DSML|parameter></|DSML|invoke></|DSML|tool_calls>";
    assert_eq!(
        dsml(input),
        [
            "<MarkupOpen>",
            "<CallOpen>",
            r#"E" name=\"bash\">""#,
            "S0:bash",
            "<ParamOpen>",
            r#"E" name=\"cmd\" string=\"true\">""#,
            "P0:cmd:text",
            r#"V0:Verbatim"ls -la""#,
            "<ParamClose>",
            "P-0",
            "<CallClose>",
            "X0:Complete",
            "<SectionClose>",
        ]
    );
    let expected = [named("bash", r#"{"cmd":"ls -la"}"#)];
    assert_eq!(named_calls(&dsml_completion(input)), expected);
    let v32 = input.replace("tool_calls", "function_calls");
    assert_eq!(named_calls(&dsml_completion(&v32)), expected);
}

/// One response, every form, one numbering: a token section, a DSML block, a bare token
/// call; the limit on calls counts them all.
#[test]
fn deepseek_token_calls_and_a_dsml_block_in_one_response() {
    let input = "[S][C]f[SEP]{\"a\": 1}[/C][/S]\n<:tool_calls><:invoke name=\"g\"><:parameter name=\"b\" string=\"false\">2</:parameter></:invoke><:invoke name=\"h\"></:invoke></:tool_calls>[C]i[SEP]{}[/C]";
    assert_eq!(
        dsml(input),
        [
            "<SectionOpen>",
            "<CallOpen>",
            "S0:f",
            r#"E"f""#,
            "<ArgsOpen>",
            r#"A0"{\"a\": 1}""#,
            "<CallClose>",
            "X0:Complete",
            "<SectionClose>",
            r#"T"\n""#,
            "<MarkupOpen>",
            "<CallOpen>",
            r#"E" name=\"g\">""#,
            "S1:g",
            "<ParamOpen>",
            r#"E" name=\"b\" string=\"false\">""#,
            "P1:b:json",
            r#"V1:Verbatim"2""#,
            "<ParamClose>",
            "P-1",
            "<CallClose>",
            "X1:Complete",
            "<CallOpen>",
            r#"E" name=\"h\">""#,
            "S2:h",
            "<CallClose>",
            "X2:Complete",
            "<SectionClose>",
            "<CallOpen>",
            "D:missing_section",
            "S3:i",
            r#"E"i""#,
            "<ArgsOpen>",
            r#"A3"{}""#,
            "<CallClose>",
            "X3:Complete",
        ]
    );
    let completion = dsml_completion(input);
    assert_eq!(
        named_calls(&completion),
        [
            named("f", r#"{"a":1}"#),
            named("g", r#"{"b":2}"#),
            named("h", "{}"),
            named("i", "{}"),
        ]
    );
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
        named_calls(&limited),
        [named("f", r#"{"a":1}"#), named("g", r#"{"b":2}"#)]
    );
    assert_eq!(
        codes(&limited)
            .iter()
            .filter(|&&c| c == "too_many_calls")
            .count(),
        2
    );
}

/// Rule 7: a DSML block inside reasoning that closes is a draft (demoted, its bytes are
/// reasoning); inside reasoning that never closes, it is a call.
#[test]
fn deepseek_dsml_inside_reasoning() {
    let block = "<:function_calls><:invoke name=\"f\"><:parameter name=\"k\" string=\"true\">v</:parameter></:invoke></:function_calls>";
    let body = [
        "<MarkupOpen>",
        "<CallOpen>",
        r#"E" name=\"f\">""#,
        "S0?:f",
        "<ParamOpen>",
        r#"E" name=\"k\" string=\"true\">""#,
        "P0:k:text",
        r#"V0:Verbatim"v""#,
        "<ParamClose>",
        "P-0",
        "<CallClose>",
        "<SectionClose>",
    ];
    let closed = format!("<think>plan {block}</think>done");
    let mut expected = vec!["<ReasoningOpen>", "R+", r#"R"plan ""#];
    expected.extend(body);
    expected.extend(["<ReasoningClose>", "X0:Demoted", "R-", r#"T"done""#]);
    assert_eq!(dsml(&closed), expected);
    let completion = dsml_completion(&closed);
    assert!(completion.tool_calls.is_empty());
    assert_eq!(completion.content, "done");
    // The demoted call's own bytes are reasoning again; the block's wrapper is not part of
    // the call (as a token section's tokens are not, above).
    assert_eq!(
        completion.reasoning.as_deref(),
        Some(
            "plan <｜DSML｜function_calls><｜DSML｜invoke name=\"f\"><｜DSML｜parameter name=\"k\" string=\"true\">v</｜DSML｜parameter></｜DSML｜invoke></｜DSML｜function_calls>"
        )
    );

    let unclosed = format!("<think>plan {block}");
    let mut expected = vec!["<ReasoningOpen>", "R+", r#"R"plan ""#];
    expected.extend(body);
    expected.extend(["X0:Complete", "D:unclosed_reasoning", "R-"]);
    assert_eq!(dsml(&unclosed), expected);
    let completion = dsml_completion(&unclosed);
    assert_eq!(named_calls(&completion), [named("f", r#"{"k":"v"}"#)]);
    assert_eq!(completion.reasoning.as_deref(), Some("plan"));
    // The same when the prompt opened the reasoning (docs/dialects.md §deepseek: V3.2 calls from
    // thinking mode).
    let log = scan_with(
        Dialect::Deepseek,
        in_reasoning(),
        &dsml_tokens(&format!("plan {block}")),
    );
    assert_eq!(log[..2], ["R+", r#"R"plan ""#]);
    assert_eq!(
        log[log.len() - 3..],
        ["X0:Complete", "D:unclosed_reasoning", "R-"]
    );
}

/// Rule 3: a block cut off by the end of the stream leaves its call incomplete (never
/// executable, never content); the complete calls before it are kept.
#[test]
fn deepseek_dsml_cut_off_by_the_end_of_the_stream() {
    let input = "<:function_calls><:invoke name=\"a\"></:invoke><:invoke name=\"f\"><:parameter name=\"k\" string=\"true\">abc";
    assert_eq!(
        dsml(input),
        [
            "<MarkupOpen>",
            "<CallOpen>",
            r#"E" name=\"a\">""#,
            "S0:a",
            "<CallClose>",
            "X0:Complete",
            "<CallOpen>",
            r#"E" name=\"f\">""#,
            "S1:f",
            "<ParamOpen>",
            r#"E" name=\"k\" string=\"true\">""#,
            "P1:k:text",
            r#"V1:Verbatim"abc""#,
            "D:truncated_call",
            "X1:Incomplete",
            "D:unclosed_section",
        ]
    );
    let completion = dsml_completion(input);
    assert_eq!(named_calls(&completion), [named("a", "{}")]);
    assert_eq!(completion.content, "");
    assert_eq!(completion.incomplete_calls.len(), 1);
    assert_eq!(completion.incomplete_calls[0].name.as_deref(), Some("f"));
    // Cut inside a tag: the call's own bytes.
    assert_eq!(
        dsml("<:function_calls><:invoke name=\"f\"><:param"),
        [
            "<MarkupOpen>",
            "<CallOpen>",
            r#"E" name=\"f\">""#,
            "S0:f",
            r#"E"<｜DSML｜param""#,
            "D:truncated_call",
            "X0:Incomplete",
            "D:unclosed_section",
        ]
    );
}

/// Rule 12 and docs/seed.md §2.7 (g): `</think>` outside reasoning is a stray DeepSeek token,
/// removed with a diagnostic. It is one when it ends a DSML block too, as it is after a
/// token section: it used to come out as content there (`</think>after`, no diagnostic).
#[test]
fn deepseek_dsml_block_ended_by_a_stray_reasoning_closer() {
    let input = "<:function_calls>\n<:invoke name=\"f\">\n<:parameter name=\"k\" string=\"true\">v</:parameter>\n</:invoke>\n</think>after";
    assert_eq!(
        dsml(input),
        [
            "<MarkupOpen>",
            r#"E"\n""#,
            "<CallOpen>",
            r#"E" name=\"f\">""#,
            "S0:f",
            r#"E"\n""#,
            "<ParamOpen>",
            r#"E" name=\"k\" string=\"true\">""#,
            "P0:k:text",
            r#"V0:Verbatim"v""#,
            "<ParamClose>",
            "P-0",
            r#"E"\n""#,
            "<CallClose>",
            "X0:Complete",
            r#"E"\n""#,
            "D:unclosed_section",
            "<Stray>",
            "D:unopened_reasoning",
            "D:stray_token",
            r#"T"after""#,
        ]
    );
    let completion = dsml_completion(input);
    assert_eq!(named_calls(&completion), [named("f", r#"{"k":"v"}"#)]);
    assert_eq!(completion.content, "after");
    assert_eq!(completion.reasoning, None);
    assert_eq!(
        codes(&completion),
        ["unclosed_section", "unopened_reasoning", "stray_token"]
    );
    // The same after a token section, for comparison.
    assert_eq!(
        deepseek("[S][C]f[SEP]{}[/C]</think>after")[8..],
        [
            "D:unclosed_section",
            "<Stray>",
            "D:unopened_reasoning",
            "D:stray_token",
            r#"T"after""#
        ]
    );
    // A block opener that the closer follows is text (rule 4); the closer is still stray.
    assert_eq!(
        dsml("<:tool_calls></think>b"),
        [
            r#"T"<｜DSML｜tool_calls>""#,
            "<Stray>",
            "D:unopened_reasoning",
            "D:stray_token",
            r#"T"b""#
        ]
    );
    // Inside reasoning it closes the reasoning, and the block in it is a draft.
    let completion =
        dsml_completion("<think>a <:tool_calls><:invoke name=\"f\"></:invoke></think>b");
    assert!(completion.tool_calls.is_empty());
    assert_eq!(completion.content, "b");
    assert_eq!(
        completion.reasoning.as_deref(),
        Some("a <｜DSML｜tool_calls><｜DSML｜invoke name=\"f\"></｜DSML｜invoke>")
    );
}

// ---------------------------------------------------------------------------------------
// docs/seed.md §5 behaviours, as amended by docs/dialects.md

/// docs/seed.md §5.1 item 2: the canonical rendering of `read {path, count}` fed byte by byte.
#[test]
fn rendered_calls_round_trip_byte_by_byte() {
    for (dialect, rendered) in [
        (
            Dialect::Kimi,
            kimi_tokens(r#"[S][C]functions.read:0[A]{"path":"src/a.ts","count":2}[/C][/S]"#),
        ),
        (
            Dialect::Deepseek,
            deepseek_tokens(r#"[S][C]read[SEP]{"path":"src/a.ts","count":2}[/C][/S]"#),
        ),
    ] {
        let completion = completion_with(dialect, Options::default(), &rendered);
        assert_eq!(calls(&completion).len(), 1, "{dialect}");
        assert_eq!(completion.tool_calls[0].name, "read");
        assert_eq!(calls(&completion)[0].2, r#"{"path":"src/a.ts","count":2}"#);
        assert_eq!(completion.content, "");
        assert!(completion.diagnostics.is_empty(), "{dialect}");
    }
}

/// Rule 12: a call's delimiters that are special tokens never reach the text, not even when
/// the call's bytes are given back (an invalid call, arguments that are not an object, an
/// invalid draft in reasoning): each is removed with a `stray_token` diagnostic. Tokens in
/// its JSON strings are argument text and stay; DSML tags and Hermes's `<tool_call>` are
/// not special tokens and stay too.
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

    // Arguments that are a string, not an object: a complete call that is text after all.
    let completion = deepseek_completion(r#"[S][C]f[SEP]"hello"[/C][/S]"#);
    assert_eq!(completion.content, r#"f"hello""#);
    assert_eq!(
        codes(&completion),
        [
            "stray_token",
            "stray_token",
            "double_encoded_arguments",
            "invalid_arguments",
            "stray_token"
        ]
    );
    // The diagnostic says what happened, not that the string held JSON.
    let message = completion.diagnostics[2].message;
    assert!(message.contains("instead of an object"), "{message}");
    // An invalid call drafted in reasoning: reasoning text, its tokens removed.
    let completion =
        kimi_completion("<think>x[S][C]bad name:0[A]{\"a\": \"[/C]\"}[/C][/S]y</think>z");
    assert_eq!(
        completion.reasoning.as_deref(),
        Some("xbad name:0{\"a\": \"<|tool_call_end|>\"}y")
    );
    assert_eq!(completion.content, "z");
    // The section's opener is one of the removed tokens.
    assert_eq!(
        codes(&completion),
        [
            "stray_token",
            "stray_token",
            "invalid_name",
            "stray_token",
            "stray_token"
        ]
    );
    // DSML markup is text the tokenizer splits: an invalid invoke keeps it.
    let completion = dsml_completion(
        "<:function_calls><:invoke name=\"a b\"><:parameter name=\"k\" string=\"true\">v</:parameter></:invoke></:function_calls>",
    );
    assert!(
        completion.content.starts_with(&dsml_tokens(
            "<:invoke name=\"a b\"><:parameter name=\"k\" string=\"true\">v</:parameter></:invoke>"
        )),
        "{}",
        completion.content
    );
    assert!(!codes(&completion).contains(&"stray_token"));
    // Hermes's tags are plain text: given back as written.
    let input = "<tool_call>{\"name\": \"f\", \"arguments\": \"x\"}</tool_call>";
    let completion = completion_with(Dialect::Hermes, Options::default(), input);
    assert_eq!(completion.content, input);
    assert_eq!(
        codes(&completion),
        ["double_encoded_arguments", "invalid_arguments"]
    );
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

/// docs/seed.md §5.3 items 19–22 (kimi); item 23 (`parseThinking: false`) has no counterpart:
/// every dialect recognises reasoning (docs/dialects.md rule 6).
#[test]
fn kimi_reasoning_and_calls() {
    let completion = kimi_completion("<think>reasoning</think>The answer.");
    assert_eq!(completion.reasoning.as_deref(), Some("reasoning"));
    assert_eq!(completion.content, "The answer.");
    let completion = kimi_completion("<think>\nreasoning\n</think>");
    assert_eq!(completion.reasoning.as_deref(), Some("reasoning"));
    let section = "[S][C]functions.foo:0[A]{\"x\":1}[/C][/S]";
    for thinking in ["plan", "step one"] {
        let completion = kimi_completion(&format!("<think>{thinking}</think>{section}"));
        assert_eq!(completion.reasoning.as_deref(), Some(thinking));
        assert_eq!(
            calls(&completion),
            [("functions.foo:0".into(), "foo".into(), r#"{"x":1}"#.into())]
        );
    }
}

/// docs/seed.md §5.3 items 24–33 (rendered reasoning stays out of the content) and 34–39 (an
/// unterminated block at the end: exactly its text, one start, one end).
#[test]
fn reasoning_blocks_for_both_dialects() {
    for dialect in [Dialect::Kimi, Dialect::Deepseek] {
        let completion = completion_with(
            dialect,
            Options::default(),
            "<think>\nprivate chain of thought\n</think>\n\nvisible",
        );
        assert_eq!(
            completion.reasoning.as_deref(),
            Some("private chain of thought")
        );
        assert_eq!(completion.content, "visible");
        let log = scan_with(dialect, Options::default(), "<think>partial");
        assert_eq!(
            log,
            [
                "<ReasoningOpen>",
                "R+",
                r#"R"partial""#,
                "D:unclosed_reasoning",
                "R-"
            ],
            "{dialect}"
        );
    }
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
