//! DSML (DeepSeek V3.2 / V4) read by both dialects that carry the tagset, `deepseek` and
//! `xml`: how a draft call in reasoning ends when the reasoning closes right after a
//! parameter (rule 7) and V3.2's invented `<function_results>` block (rule 5). Found by a
//! review from the outside.

use inband::{Dialect, Options};
use inband_alloc::assemble::{AssembleOptions, Completion};

use crate::harness;
use crate::harness::{codes, render};

/// The completion of `input`, checked to be the same whole and byte by byte (its events
/// pass the chunking harness).
fn completion(dialect: Dialect, input: &str) -> Completion {
    harness::completion_bytewise(
        dialect,
        Options::default(),
        &AssembleOptions::seeded(1),
        input,
    )
}

/// Rules 4, 6 and 7. A draft call inside `<think>` whose invoke closer is missing: the
/// parameter closer is followed by the reasoning closer, which may follow a value closer
/// inside reasoning (`dsml_after_value`, xml's `after_value`). It ends the block and with
/// it the draft (`unclosed_invoke`): `after` is content, the draft's bytes are reasoning,
/// no call.
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
        assert_eq!(completion.content, "after", "{dialect}: {input}");
        assert!(completion.tool_calls.is_empty(), "{dialect}: {input}");
        assert!(
            completion.incomplete_calls.is_empty(),
            "{dialect}: a draft whose reasoning closed is reasoning (rule 7): {:?}",
            completion.incomplete_calls
        );
        // The demoted draft is its section and invoke as written (rule 2).
        let draft = match (dialect, input.contains("DSML")) {
            (_, true) if dialect == Dialect::Deepseek => "<｜DSML｜function_calls>\n<｜DSML｜invoke name=\"f\">\n<｜DSML｜parameter name=\"a\" string=\"true\">x</｜DSML｜parameter>",
            (_, true) => "<｜DSML｜tool_calls><｜DSML｜invoke name=\"f\"><｜DSML｜parameter name=\"a\" string=\"true\">x</｜DSML｜parameter>",
            _ => "<invoke name=\"f\"><parameter name=\"a\">x</parameter>",
        };
        assert_eq!(
            completion.reasoning.as_deref(),
            Some(format!("plan {draft}").as_str()),
            "{dialect}: {input}"
        );
        assert_eq!(codes(&completion), ["unclosed_invoke"], "{dialect}: {input}");
    }
}

/// Rule 5 and docs/dialects.md §deepseek, rule 5. DeepSeek V3.2's tool results come back as
/// `<function_results><result>…</result></function_results>`; a model that writes that
/// block after its DSML call is inventing the result: a fabricated result in `deepseek`
/// as in `xml`, and value text inside a value.
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
