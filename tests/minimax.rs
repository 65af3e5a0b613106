//! The `minimax` dialect (MiniMax-M2, docs/seed.md §2.6, docs/dialects.md §minimax) as amended
//! by docs/dialects.md, pinned as exact event logs and completions: parallel invokes (corpus 039),
//! the wrapper closer inside a value (corpus 040), the prefix-less wrapper alias (rule 13),
//! and reasoning. Every input goes through the chunking harness.

use inband::{Dialect, Options};
use inband_alloc::assemble::{assemble, AssembleOptions, Completion};
use serde_json::json;

use crate::harness;
use crate::harness::{call, calls, codes};

const DIALECT: Dialect = Dialect::Minimax;

fn completion(input: &str) -> Completion {
    harness::completion(DIALECT, Options::default(), input)
}

/// Corpus 040 and rule 4: the wrapper closer (either spelling) inside a value is text.
#[test]
fn wrapper_closer_inside_a_value() {
    for value in [
        "Québec </minimax:tool_call> centre",
        "a </tool_call>\n</invoke> b",
        "x</parameter> y",
    ] {
        let input = format!("<minimax:tool_call><invoke name=\"w\"><parameter name=\"k\">{value}</parameter></invoke></minimax:tool_call>");
        assert_eq!(
            calls(&completion(&input)),
            [call("w", json!({ "k": value }))]
        );
    }
}

/// Rules 6 and 7 and docs/dialects.md rule 6: the template opens `<think>`; a call drafted in
/// reasoning that closes is reasoning; MiniMax's end of turn leaking is removed.
#[test]
fn reasoning_and_stop_token() {
    let mut options = Options::default();
    options.starts_in_reasoning = true;
    let log = harness::scan(DIALECT,
        options,
        "Plan.\n</think>\n\n<minimax:tool_call>\n<invoke name=\"f\"></invoke>\n</minimax:tool_call>[e~[",
    );
    assert_eq!(log[..4], ["R+", "R\"Plan.\\n\"", "<ReasoningClose>", "R-"]);
    // The end of turn at the end of the stream is the normal stop: no diagnostic.
    assert_eq!(log[log.len() - 2..], ["<SectionClose>", "<Stop>"]);
    let draft = completion("<think>maybe <minimax:tool_call><invoke name=\"f\"></invoke></minimax:tool_call></think>No.");
    assert!(draft.tool_calls.is_empty());
    assert_eq!(draft.content, "No.");
}

/// Values are exact, non-ASCII split anywhere; a cut-off call is incomplete.
#[test]
fn exact_values_and_cut_off_calls() {
    let value = "a < b && c > d 'q' \"dq\" &lt;\n\té城堡🦀 \\ </";
    let input = format!("<minimax:tool_call><invoke name=\"f\"><parameter name=\"k\">{value}</parameter></invoke></minimax:tool_call>");
    assert_eq!(
        calls(&completion(&input)),
        [call("f", json!({ "k": value }))]
    );
    let cut = completion("<minimax:tool_call>\n<invoke name=\"f\">\n<parameter name=\"k\">x</para");
    assert!(cut.tool_calls.is_empty());
    assert_eq!(cut.incomplete_calls.len(), 1);
    assert_eq!(cut.content, "");
}

/// The bundled transcript.
#[test]
fn transcript() {
    let input = include_str!("data/transcripts/minimax-weather-in-two-cities.txt");
    let mut options = Options::default();
    options.starts_in_reasoning = true;
    harness::check(DIALECT, options, input.as_bytes());
    let completion = assemble(
        DIALECT,
        options,
        &AssembleOptions::seeded(1),
        [input.as_bytes()],
    );
    assert_eq!(
        calls(&completion),
        [
            call("get_weather", json!({"city": "Québec", "units": "metric"})),
            call("get_weather", json!({"city": "東京", "units": "metric"})),
        ]
    );
    assert_eq!(
        completion.reasoning.as_deref().map(str::trim),
        Some("Two cities: call the tool twice, in parallel.")
    );
    assert_eq!(completion.content, "Checking both cities.");
    assert!(completion.diagnostics.is_empty());
}

/// A `</invoke>` inside a value followed by a line-initial `<parameter`: the closer is value
/// text (a parameter cannot follow an invoke closer), and the line-initial opener still ends
/// the value whose `</parameter>` is missing; spaces and tabs before the newline too.
#[test]
fn line_initial_parameter_after_a_rejected_closer() {
    for blank in ["\n", " \t\n", "\n\n"] {
        let input = format!("<minimax:tool_call>\n<invoke name=\"f\">\n<parameter name=\"a\">x</invoke>{blank}<parameter name=\"b\">y</parameter>\n</invoke>\n</minimax:tool_call>");
        let completion = completion(&input);
        let a = format!("x</invoke>{}", &blank[..blank.len() - 1]);
        assert_eq!(
            calls(&completion),
            [call("f", json!({"a": a, "b": "y"}))],
            "{blank:?}"
        );
        assert_eq!(codes(&completion), ["unclosed_parameter"]);
    }
}
