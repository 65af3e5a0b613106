//! The `qwen3-coder` dialect (Qwen3-Coder, Qwen3.5 / Qwen3.6, Step-3.5; docs/dialects.md §qwen3-coder,
//! beyond the seed), pinned as exact event logs and completions: the equals-form tags, the
//! template's framing newlines, the repairs real models need (corpus 022, 024, 027), and
//! rule 4 across chunk boundaries. Every input goes through the chunking harness.

use inband::{Dialect, Options, Scanner};
use inband_alloc::assemble::Completion;
use inband_alloc::events::EventLog;
use serde_json::json;

use crate::harness;
use crate::harness::{call, calls, codes};

const DIALECT: Dialect = Dialect::Qwen3Coder;

fn scan(input: &str) -> Vec<String> {
    harness::scan(DIALECT, Options::default(), input)
}

fn completion(input: &str) -> Completion {
    harness::completion(DIALECT, Options::default(), input)
}

/// A call as the template writes it, around a value of the parameter `k`.
fn wrap(value: &str) -> String {
    format!("<tool_call>\n<function=f>\n<parameter=k>\n{value}\n</parameter>\n</function>\n</tool_call>")
}

/// Exactly one leading and one trailing newline are framing; more are value text, and a
/// value written without them is whole.
#[test]
fn framing_newlines() {
    for (value, expected) in [
        ("\nx\n", "x"),
        ("\n\nx\n\n", "\nx\n"),
        ("x", "x"),
        ("\nx", "x"),
        ("x\n", "x"),
        ("\n\n", ""),
        ("\n", ""),
        ("", ""),
        ("\r\nx\r\n", "\r\nx\r"),
    ] {
        let input = format!("<tool_call>\n<function=f>\n<parameter=k>{value}</parameter>\n</function>\n</tool_call>");
        assert_eq!(
            calls(&completion(&input)),
            [call("f", json!({ "k": expected }))],
            "{value:?}"
        );
    }
}

/// Corpus 022: a whole `<tool_call>` example inside a value is value text (rule 4).
#[test]
fn tool_call_tags_inside_a_value() {
    let value = "Observed:\n<tool_call>\n{\"name\":\"bash\"}\n</tool_call>\n<function=x>\nEnd.";
    assert_eq!(
        calls(&completion(&wrap(value))),
        [call("f", json!({ "k": value }))]
    );
}

/// Rule 4: a closer inside a value counts only when structure follows it.
#[test]
fn closers_inside_values() {
    for (value, why) in [
        ("a</parameter> b", "text follows"),
        (
            "a</parameter></parameter>b",
            "a closer cannot follow a closer",
        ),
        ("a</parameter><parameter", "an opener must begin a tag"),
        (
            "a</parameter>\n<parameter=>",
            "…the equals form needs a name byte",
        ),
        (
            "x\n</function> y",
            "the call closer needs structure after it too",
        ),
        ("x</function>\n</tool_call>", "and must start a line"),
        ("y <parameter=z>\nw", "a mid-line opener is value text"),
        (
            "</tool_call> done",
            "the section closer is not a value closer",
        ),
    ] {
        assert_eq!(
            calls(&completion(&wrap(value))),
            [call("f", json!({ "k": value }))],
            "{why}"
        );
    }
    // Followed by whitespace and the next parameter, the closer counts.
    let input = "<tool_call>\n<function=f>\n<parameter=a>\nx\n</parameter>  \n\t<parameter=b>\ny\n</parameter>\n</function>\n</tool_call>";
    assert_eq!(
        calls(&completion(input)),
        [call("f", json!({"a": "x", "b": "y"}))]
    );
}

/// Rule 4 across chunk boundaries: a split inside `\n</parameter>` holds the newline and
/// the closer, never released early, and the look-ahead after it.
#[test]
fn splits_inside_the_value_closer() {
    let feeds = harness::per_feed(
        DIALECT,
        &[
            "<tool_call>\n<function=f>\n<parameter=k>\nab\n",
            "</para",
            "meter>\n",
            "</function>\n</tool_call>",
        ],
    );
    assert_eq!(feeds[0][feeds[0].len() - 1], "V0:Verbatim\"ab\"");
    assert!(feeds[1].is_empty() && feeds[2].is_empty(), "{feeds:?}");
    assert_eq!(
        feeds[3][..5],
        ["E\"\\n\"", "<ParamClose>", "P-0", "E\"\\n\"", "<CallClose>"]
    );
    // Rejected: the held newline and closer are value text, in order.
    let feeds = harness::per_feed(
        DIALECT,
        &[
            "<tool_call>\n<function=f>\n<parameter=k>\nab\n",
            "</parameter>",
            " x\n</parameter>\n</function>\n</tool_call>",
        ],
    );
    assert!(feeds[1].is_empty());
    assert_eq!(
        feeds[2][..3],
        [
            "V0:Verbatim\"\\n</parameter> x\"",
            "E\"\\n\"",
            "<ParamClose>"
        ]
    );
}

/// Corpus 024 and docs/dialects.md §qwen3-coder: a missing `</parameter>` is ended by a line-initial
/// `<parameter=` or `</function>`, with a diagnostic; the newline before them is framing.
#[test]
fn missing_parameter_closer() {
    let input = "<tool_call>\n<function=edit>\n<parameter=path>\nsrc/app.ts\n<parameter=new>\nconst a = 2;\n</function>\n</tool_call>";
    assert_eq!(
        scan(input)[8..],
        [
            "P0:path:untyped",
            "E\"\\n\"",
            "V0:Verbatim\"src/app.ts\"",
            "P-0",
            "D:unclosed_parameter",
            "<ParamOpen>",
            "E\"new>\"",
            "P0:new:untyped",
            "E\"\\n\"",
            "V0:Verbatim\"const a = 2;\"",
            "P-0",
            "D:unclosed_parameter",
            "<CallClose>",
            "X0:Complete",
            "E\"\\n\"",
            "<SectionClose>",
        ]
    );
    let repaired = completion(input);
    assert_eq!(
        calls(&repaired),
        [call(
            "edit",
            json!({"path": "src/app.ts", "new": "const a = 2;"})
        )]
    );
    assert_eq!(
        codes(&repaired),
        ["unclosed_parameter", "unclosed_parameter"]
    );
    // A line-initial opener that begins no tag is value text.
    let value = "a\n<parameter=\nb";
    assert_eq!(
        calls(&completion(&wrap(value))),
        [call("f", json!({ "k": value }))]
    );
}

/// The equals form is bounded and never decoded: an over-long name is text with a
/// diagnostic; a name is the bytes up to `>`, checked by rule 9.
#[test]
fn equals_tags_are_bounded() {
    let long = format!(
        "<tool_call>\n<function={}>\n</function>\n</tool_call>",
        "n".repeat(200)
    );
    let too_long = completion(&long);
    assert!(too_long.tool_calls.is_empty());
    assert!(codes(&too_long).contains(&"tag_too_long"));
    assert!(too_long.content.contains(&"n".repeat(200)));
    let spaced = harness::assembled(
        DIALECT,
        Options::default(),
        ["<function=a b>\n</function>".as_bytes()],
    );
    assert!(spaced.tool_calls.is_empty());
    assert_eq!(spaced.content, "<function=a b>\n</function>");
    let entity = completion("<function=a&amp;b>\n<parameter=k&lt;>\nv\n</parameter>\n</function>");
    assert_eq!(calls(&entity), [call("a&amp;b", json!({"k&lt;": "v"}))]);
}

/// Values are the model's bytes exactly: non-ASCII split anywhere, and a huge value streams
/// without holding more than a closer.
#[test]
fn value_bytes_are_exact_and_huge_values_stream() {
    let value = "a < b && c > d <div>x</div> 'q' \"dq\" &lt;\n\tline2\r\né城堡🦀 \\ </";
    assert_eq!(
        calls(&completion(&wrap(value))),
        [call("f", json!({ "k": value }))]
    );
    let huge = "é城堡🦀 </parameter> x\n".repeat(20_000);
    let input = wrap(&huge);
    let bytes = input.as_bytes();
    let whole = harness::assembled(DIALECT, Options::default(), [bytes]);
    assert_eq!(calls(&whole), [call("f", json!({ "k": huge }))]);
    assert_eq!(
        harness::assembled(DIALECT, Options::default(), bytes.chunks(7)),
        whole
    );
    let mut scanner = Scanner::new(DIALECT, Options::default());
    let mut log = EventLog::new();
    let mut streamed = 0;
    for chunk in bytes.chunks(4096) {
        scanner.feed(chunk, &mut log).unwrap();
        let value: usize = log
            .events
            .iter()
            .filter_map(|e| match e {
                inband_alloc::events::OwnedEvent::ToolValue { bytes, .. } => Some(bytes.len()),
                _ => None,
            })
            .sum();
        assert!(value >= streamed, "values stream");
        streamed = value;
    }
    assert!(streamed + 4096 >= huge.len(), "{streamed}");
}

/// Rules 6 and 7: `<think>` reasoning; a call drafted inside a block that closes is
/// reasoning, one in a block that never closes is a call.
#[test]
fn reasoning_and_drafts() {
    let draft = completion(
        "<think>\nmaybe <tool_call>\n<function=f>\n</function>\n</tool_call>\n</think>\nNo call.",
    );
    assert!(draft.tool_calls.is_empty());
    assert_eq!(draft.content, "No call.");
    let mut options = Options::default();
    options.starts_in_reasoning = true;
    let log = harness::scan(
        DIALECT,
        options,
        "plan\n</think>\n\n<tool_call>\n<function=f>\n</function>\n</tool_call>",
    );
    assert_eq!(log[..4], ["R+", "R\"plan\\n\"", "<ReasoningClose>", "R-"]);
    assert_eq!(log[log.len() - 2..], ["E\"\\n\"", "<SectionClose>"]);
}

/// Rule 3: the end of the stream inside a call leaves it incomplete; a stop token inside a
/// value ends the stream there.
#[test]
fn cut_off_calls_are_incomplete() {
    for input in [
        "<tool_call>\n<function=f>\n<parameter=k>\nx\n",
        "<tool_call>\n<function=f>\n<parameter=k>\nx\n</param",
        "<tool_call>\n<function=f>\n<parameter=k>\nx\n<parameter=",
        "<tool_call>\n<function=f",
        "<tool_call>\n<function=f>\n<parameter=k>\nx<|im_end|>",
    ] {
        let log = scan(input);
        let end = log.iter().position(|e| e == "X0:Incomplete");
        assert!(
            end.is_some_and(|k| log[k - 1] == "D:truncated_call"),
            "{input:?}: {log:?}"
        );
        let completion = completion(input);
        assert!(completion.tool_calls.is_empty());
        assert_eq!(completion.incomplete_calls.len(), 1);
        assert_eq!(completion.content, "");
    }
}

/// The bundled transcript: prose, two calls, a value holding the dialect's own tags.
#[test]
fn transcript() {
    let input = include_str!("data/transcripts/qwen3-coder-edit-and-test.txt");
    let completion = completion(input);
    assert_eq!(
        calls(&completion),
        [
            call(
                "edit_file",
                json!({
                    "path": "src/parse.rs",
                    "old": "fn parse(s: &str) -> Tag {",
                    "new": "/// Reads `<tool_call>\\n<function=NAME>` (no `</tool_call>` needed).\nfn parse(s: &str) -> Tag {"
                })
            ),
            call(
                "run",
                json!({"command": "cargo test -p parse", "timeout": 120})
            ),
        ]
    );
    assert_eq!(
        completion.content,
        "I'll document the parser first, then run its tests."
    );
    assert!(completion.diagnostics.is_empty());
}

/// An invoke closer between the calls of a section closes nothing (a model closing twice):
/// consumed with `stray_closer`, the section goes on (a fresh-eyes find: the rest became
/// text with `unclosed_section`). The same in the invoke/parameter dialects.
#[test]
fn doubled_invoke_closer_in_a_section() {
    let input = "<tool_call>\n<function=shell>\n<parameter=cmd>\nls\n</parameter>\n</function>\n</function>\n</tool_call>";
    let doubled = completion(input);
    assert_eq!(calls(&doubled), [call("shell", json!({"cmd": "ls"}))]);
    assert_eq!(doubled.content, "");
    assert_eq!(codes(&doubled), ["stray_closer"]);
    let anthropic = "<function_calls>\n<invoke name=\"shell\">\n<parameter name=\"cmd\">ls</parameter>\n</invoke>\n</invoke>\n</function_calls>";
    let doubled = harness::completion(Dialect::Anthropic, Options::default(), anthropic);
    assert_eq!(calls(&doubled), [call("shell", json!({"cmd": "ls"}))]);
    assert_eq!(doubled.content, "");
    assert_eq!(codes(&doubled), ["stray_closer"]);
}
