//! The `anthropic` dialect (Claude legacy XML, docs/seed.md §2.4, docs/dialects.md §anthropic) as
//! amended by docs/dialects.md, pinned as exact event logs and completions: the canonical form,
//! the `string` attribute, rule 4 inside values, the closer named after its parameter
//! (corpus 059), and the repairs. Every input goes through the chunking harness.

use inband::{Dialect, Options};
use inband_alloc::assemble::Completion;
use serde_json::json;

use crate::harness;
use crate::harness::{call, calls, codes};

const DIALECT: Dialect = Dialect::Anthropic;

fn scan(input: &str) -> Vec<String> {
    harness::scan(DIALECT, Options::default(), input)
}

fn completion(input: &str) -> Completion {
    harness::completion(DIALECT, Options::default(), input)
}

/// A call around a value of the parameter `k`.
fn wrap(value: &str) -> String {
    format!("<function_calls>\n<invoke name=\"f\">\n<parameter name=\"k\">{value}</parameter>\n</invoke>\n</function_calls>")
}

/// Rule 4: a closer inside a value counts only when structure follows it; a `</` that
/// begins no closer is value text, whatever follows.
#[test]
fn closers_inside_values() {
    for (value, why) in [
        ("a</parameter> b", "text follows"),
        (
            "a</parameter></parameter>b",
            "a closer cannot follow a closer",
        ),
        ("a</parameter><parameterx", "an opener must begin a tag"),
        (
            "x</invoke> y",
            "the invoke closer needs structure after it too",
        ),
        (
            "</function_calls> done",
            "the wrapper closer is not a value closer",
        ),
        (
            "a </ b </p </par </k </kk> </k x",
            "partial and other closers",
        ),
        ("<div>x</div> </</parameter>x", "markup-like text"),
        (
            "line\n<parameterless",
            "a line-initial opener must begin a tag",
        ),
        (
            "</k> later",
            "a closer named after the key, followed by text",
        ),
    ] {
        assert_eq!(
            calls(&completion(&wrap(value))),
            [call("f", json!({ "k": value }))],
            "{why}"
        );
    }
}

/// Corpus 059: a value closed by `</content>` (its parameter's name) where the next
/// parameter follows: the closer and the whitespace after it are markup, with a diagnostic.
#[test]
fn closer_named_after_the_parameter() {
    let input = "<function_calls>\n<invoke name=\"remember\">\n<parameter name=\"content\">Notes.\nMore.</content>\n<parameter name=\"tags\">[\"a\"]</parameter>\n</invoke>\n</function_calls>";
    assert_eq!(
        scan(input)[8..16],
        [
            "P0:content:untyped",
            "V0:Verbatim\"Notes.\\nMore.\"",
            "D:mismatched_closer",
            "<ParamClose>",
            "P-0",
            "E\"\\n\"",
            "<ParamOpen>",
            "E\" name=\\\"tags\\\">\"",
        ]
    );
    let completion = completion(input);
    assert_eq!(
        calls(&completion),
        [call(
            "remember",
            json!({"content": "Notes.\nMore.", "tags": ["a"]})
        )]
    );
    assert_eq!(codes(&completion), ["mismatched_closer"]);
    // Split inside the closer, it is held whole; then confirmed by the invoke closer.
    let feeds = harness::per_feed(
        DIALECT,
        &[
            "<invoke name=\"w\"><parameter name=\"body\">x</bo",
            "dy",
            ">",
            " </invoke>",
        ],
    );
    assert_eq!(feeds[0].last().unwrap(), "V0:Verbatim\"x\"");
    assert!(feeds[1].is_empty() && feeds[2].is_empty());
    assert_eq!(
        feeds[3][..4],
        ["D:mismatched_closer", "<ParamClose>", "P-0", "E\" \""]
    );
}

/// Rules 6, 7 and 5: `<thinking>` reasoning with a drafted call; a result block after the
/// calls is fabricated, inside a value it is text.
#[test]
fn reasoning_and_fabricated_results() {
    let log = scan("<thinking>plan <invoke name=\"f\"></invoke></thinking>done");
    assert_eq!(
        log,
        [
            "<ReasoningOpen>",
            "R+",
            "R\"plan \"",
            "<CallOpen>",
            "E\" name=\\\"f\\\">\"",
            "D:missing_section",
            "S0?:f",
            "<CallClose>",
            "<ReasoningClose>",
            "X0:Demoted",
            "R-",
            "T\"done\"",
        ]
    );
    let fabricated = scan("<function_calls><invoke name=\"f\"><parameter name=\"k\">see <function_results></parameter></invoke></function_calls>\n<function_results>");
    assert_eq!(fabricated.iter().filter(|e| *e == "F").count(), 1);
    assert!(fabricated.contains(&"V0:Verbatim\"see <function_results>\"".to_owned()));
}

/// Values are the model's bytes exactly, non-ASCII split anywhere; a huge value streams.
#[test]
fn value_bytes_are_exact() {
    let value = "a < b && c > d <div>x</div> 'q' \"dq\" &lt;\n\tline2\r\né城堡🦀 \\ </";
    assert_eq!(
        calls(&completion(&wrap(value))),
        [call("f", json!({ "k": value }))]
    );
    let huge = "é城堡🦀 </parameter> </k x\n".repeat(20_000);
    let input = wrap(&huge);
    let whole = harness::assembled(DIALECT, Options::default(), [input.as_bytes()]);
    assert_eq!(calls(&whole), [call("f", json!({ "k": huge }))]);
    assert_eq!(
        harness::assembled(DIALECT, Options::default(), input.as_bytes().chunks(5)),
        whole
    );
}

/// Rule 3: the end of the stream inside a call leaves it incomplete.
#[test]
fn cut_off_calls_are_incomplete() {
    for input in [
        "<function_calls><invoke name=\"f\"><parameter name=\"k\">x",
        "<function_calls><invoke name=\"f\"><parameter name=\"k\">x</par",
        "<function_calls><invoke name=\"f\"><parameter name=\"k\">x</k",
        "<function_calls><invoke name=\"f\"><parameter name=\"k\">x\n<parameter",
    ] {
        let log = scan(input);
        let end = log.iter().position(|e| e == "X0:Incomplete");
        assert!(
            end.is_some_and(|k| log[k - 1] == "D:truncated_call"),
            "{input:?}: {log:?}"
        );
        let cut = completion(input);
        assert!(cut.tool_calls.is_empty());
        assert_eq!(cut.content, "");
    }
}

/// The bundled transcript.
#[test]
fn transcript() {
    let input = include_str!("data/transcripts/anthropic-search-and-write.txt");
    let completion = completion(input);
    assert_eq!(
        calls(&completion),
        [
            call("search", json!({"query": "pi digits", "limit": 3})),
            call(
                "write",
                json!({"path": "notes/pi.md", "content": "# Pi\n3.14159 < 22/7 & \"close\"\nEnd with </parameter> text."})
            ),
        ]
    );
    assert_eq!(
        completion.reasoning.as_deref(),
        Some("I should search, then save.")
    );
    assert_eq!(completion.content, "Searching and saving.");
    assert!(completion.diagnostics.is_empty());
}

/// A line-initial `<parameter` after a rejected candidate closer and its whitespace still
/// ends the open value (rule 4, corpus 059): the newline is not lost to the look-ahead.
#[test]
fn line_initial_parameter_after_a_rejected_closer() {
    let input = "<function_calls>\n<invoke name=\"f\">\n<parameter name=\"a\">x</invoke>\n<parameter name=\"b\">y</parameter>\n</invoke>\n</function_calls>";
    let completion = completion(input);
    assert_eq!(
        calls(&completion),
        [call("f", json!({"a": "x</invoke>", "b": "y"}))]
    );
    assert_eq!(codes(&completion), ["unclosed_parameter"]);
    let log = scan(input);
    let at = log
        .iter()
        .position(|e| e == "D:unclosed_parameter")
        .unwrap();
    assert_eq!(
        log[at - 2..at + 3],
        [
            "V0:Verbatim\"x</invoke>\"",
            "P-0",
            "D:unclosed_parameter",
            "<ParamOpen>",
            "E\" name=\\\"b\\\">\"",
        ]
    );
}
