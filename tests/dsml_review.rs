//! Review of DeepSeek's DSML form (`deepseek`) and the generic `xml` dialect from the
//! outside: faults whose fix lies outside the markup family's code (`core/dialect/markup.rs`,
//! `core/lex/tag.rs`, `alloc-ext/src/params.rs`), pinned as failing tests. Each test says
//! what the input is, what comes out, what should, and where the fix goes.

use inband::{Dialect, Options};
use inband_alloc::assemble::{assemble, AssembleOptions, Completion};

use crate::conformance::render;
use crate::harness;

/// The completion of `input`, checked to be the same whole and byte by byte (its events
/// pass the chunking harness).
fn completion(dialect: Dialect, input: &str) -> Completion {
    let bytes = input.as_bytes();
    harness::check(dialect, Options::default(), bytes);
    let run = |chunks: Vec<&[u8]>| {
        assemble(
            dialect,
            Options::default(),
            &AssembleOptions::seeded(1),
            chunks,
        )
    };
    let whole = run(vec![bytes]);
    assert_eq!(run(bytes.chunks(1).collect()), whole, "byte by byte");
    whole
}

fn codes(completion: &Completion) -> Vec<&'static str> {
    completion.diagnostics.iter().map(|d| d.code).collect()
}

/// Rules 4, 6 and 7. A draft call inside `<think>` whose invoke closer is missing: the
/// parameter closer is followed by the reasoning closer. `</think>` is not among the
/// delimiters that may follow a candidate value closer (`dsml_after_value` in
/// tables/dialects/deepseek.toml, `after_value` in tables/dialects/xml.toml), so the
/// closer is taken for value text and the value runs on to the end of the stream: the
/// reasoning never closes, the visible answer after it (`after`) is swallowed into the
/// value, and the draft comes out as an incomplete call.
///
/// Expected: the reasoning closer ends the enclosing block, and with it the draft (as it
/// does when the draft's `</invoke>` is there, or when `</think>` comes between
/// parameters): `after` is content, the draft's bytes are reasoning, no call.
///
/// Fix: add `reasoning_close = ["</think>"]` to `[modes.dsml_after_value]` (and
/// `["</think>", "</thinking>"]` to xml's `[modes.after_value]`), and let
/// `MarkupCalls::admits` take `(ParamClose | CallClose, ReasoningClose)` when the frame is
/// in reasoning; `on_delimiter` already ends the structure on a reasoning closer.
#[test]
fn reasoning_closer_right_after_a_parameter_closer_ends_the_draft() {
    for (dialect, input) in [
        (
            Dialect::Deepseek,
            "<think>plan <｜DSML｜function_calls>\n<｜DSML｜invoke name=\"f\">\n<｜DSML｜parameter name=\"a\" string=\"true\">x</｜DSML｜parameter>\n</think>after",
        ),
        (
            Dialect::Xml,
            "<think>plan <｜DSML｜tool_calls><｜DSML｜invoke name=\"f\"><｜DSML｜parameter name=\"a\" string=\"true\">x</｜DSML｜parameter></think>after",
        ),
        (
            Dialect::Xml,
            "<think>plan <invoke name=\"f\"><parameter name=\"a\">x</parameter>\n</think>after",
        ),
    ] {
        let completion = completion(dialect, input);
        // Today: content "", reasoning "plan", an incomplete call `f` whose arguments
        // text is `{"a":"x</｜DSML｜parameter>\n</think>after` (xml plain: `{"a":`).
        assert_eq!(completion.content, "after", "{dialect}: {input}");
        assert!(completion.tool_calls.is_empty(), "{dialect}: {input}");
        assert!(
            completion.incomplete_calls.is_empty(),
            "{dialect}: a draft whose reasoning closed is reasoning (rule 7): {:?}",
            completion.incomplete_calls
        );
        let reasoning = completion.reasoning.as_deref().unwrap_or_default();
        assert!(reasoning.starts_with("plan "), "{dialect}: {reasoning:?}");
        assert!(!reasoning.contains("after"), "{dialect}: {reasoning:?}");
        assert!(
            !codes(&completion).contains(&"unclosed_reasoning"),
            "{dialect}: the reasoning closed: {:?}",
            codes(&completion)
        );
    }
}

/// Rule 5 and model-formats §7.3, §24.12. DeepSeek V3.2's tool results come back as
/// `<function_results><result>…</result></function_results>`; a V3.2 model that goes on
/// after its DSML call and writes that block is inventing the result. The `xml` dialect
/// reports it (tables/dialects/xml.toml lists `<function_results>` as a result opener,
/// citing V3.2), but the `deepseek` dialect, DeepSeek's own, does not: the block is plain
/// content with no diagnostic, and a consumer does not stop there.
///
/// Expected: a fabricated result (`F`, `fabricated_result`) after the call, as in `xml`;
/// inside a value it stays value text (rule 5).
///
/// Fix: add `"<function_results>"` to `result_open` of `[modes.content]` in
/// tables/dialects/deepseek.toml.
#[test]
fn deepseek_dsml_fabricated_function_results() {
    let call = "<｜DSML｜function_calls>\n<｜DSML｜invoke name=\"read\">\n<｜DSML｜parameter name=\"path\" string=\"true\">a.txt</｜DSML｜parameter>\n</｜DSML｜invoke>\n</｜DSML｜function_calls>";
    let input = format!("{call}\n\n<function_results>\n<result>FAKE</result>\n</function_results>");
    let xml = render(&harness::check(
        Dialect::Xml,
        Options::default(),
        input.as_bytes(),
    ));
    let at = xml.iter().position(|e| e == "F").expect("xml reports it");
    assert_eq!(xml[at - 1], "<ResultOpen>");
    let log = render(&harness::check(
        Dialect::Deepseek,
        Options::default(),
        input.as_bytes(),
    ));
    // Today the tail is one text event: "\n\n<function_results>\n<result>FAKE…".
    let at = log.iter().position(|e| e == "F");
    assert!(at.is_some(), "deepseek: {log:?}");
    assert_eq!(log[at.unwrap() - 1], "<ResultOpen>");
    let completion = completion(Dialect::Deepseek, &input);
    assert_eq!(completion.tool_calls.len(), 1);
    assert!(
        codes(&completion).contains(&"fabricated_result"),
        "{:?}",
        codes(&completion)
    );
}
