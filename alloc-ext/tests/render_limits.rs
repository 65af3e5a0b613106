//! What the renderers refuse so that the scanner and assembler read back exactly what was
//! written: nesting deeper than they read (one limit per family, shared with the reading
//! side), without recursion on arbitrarily deep input.

use inband::{Dialect, Options};
use inband_alloc::assemble::{assemble, AssembleOptions, Completion, MAX_ARGUMENT_DEPTH};
use inband_alloc::render::{Call, Reason, Renderer};
use serde_json::{json, Map, Value};

/// `levels` objects `{"a": …}` around `1`.
fn nested(levels: usize) -> Value {
    let mut value = json!(1);
    for _ in 0..levels {
        let mut map = Map::new();
        map.insert("a".to_owned(), value);
        value = Value::Object(map);
    }
    value
}

/// Drops a value without recursion (serde_json's drop recurses, and 100 000 levels would
/// overflow a test thread's stack).
fn dismantle(value: Value) {
    let mut stack = vec![value];
    while let Some(value) = stack.pop() {
        match value {
            Value::Array(items) => stack.extend(items),
            Value::Object(map) => stack.extend(map.into_iter().map(|(_, v)| v)),
            _ => {}
        }
    }
}

fn call(value: Value) -> Call {
    let mut arguments = Map::new();
    arguments.insert("k".to_owned(), value);
    Call::new("f", arguments)
}

fn take(call: Call) {
    for (_, value) in call.arguments {
        dismantle(value);
    }
}

fn scan(dialect: Dialect, text: &str, step: usize) -> Completion {
    let chunks: Vec<&[u8]> = text.as_bytes().chunks(step.max(1)).collect();
    assemble(
        dialect,
        Options::default(),
        &AssembleOptions::seeded(1),
        chunks,
    )
}

/// The deepest value each dialect's reading side parses.
fn deepest(dialect: Dialect) -> usize {
    match dialect {
        Dialect::Gemma
        | Dialect::FunctionGemma
        | Dialect::Gemini
        | Dialect::Pythonic
        | Dialect::Lfm2 => inband::MAX_LITERAL_DEPTH,
        _ => MAX_ARGUMENT_DEPTH - 1,
    }
}

/// A value as deep as the reading side parses renders and reads back as itself, whole and
/// in chunks of 1 and 7 bytes; one level more is refused naming the first container
/// beyond the limit, and so is a value 100 000 levels deep (no stack overflow: the check
/// does not recurse and comes before any writer does). Writing and reading back a value
/// at the limit recurses once per level (serde_json, simd-json): the test runs on a thread
/// with a main thread's 8 MiB of stack, as an unoptimized build needs.
#[test]
fn every_dialect_refuses_values_deeper_than_its_scanner_reads() {
    std::thread::Builder::new()
        .stack_size(8 << 20)
        .spawn(refuses_values_deeper_than_read)
        .unwrap()
        .join()
        .unwrap();
}

fn refuses_values_deeper_than_read() {
    assert_eq!(MAX_ARGUMENT_DEPTH, 127);
    assert_eq!(inband::MAX_LITERAL_DEPTH, 64);
    for &dialect in Dialect::ALL {
        let max = deepest(dialect);
        let renderer = Renderer::new(dialect);
        let fits = call(nested(max));
        let text = renderer.calls(std::slice::from_ref(&fits)).unwrap();
        for step in [text.len(), 1, 7] {
            let completion = scan(dialect, &text, step);
            assert_eq!(completion.tool_calls.len(), 1, "{dialect} at {step}");
            let arguments = serde_json::to_string(&completion.tool_calls[0].arguments).unwrap();
            assert_eq!(
                arguments,
                serde_json::to_string(&fits.arguments).unwrap(),
                "{dialect} at {step}"
            );
            assert_eq!(completion.content, "", "{dialect}");
            assert_eq!(completion.diagnostics, vec![], "{dialect}");
        }
        take(fits);
        for levels in [max + 1, 100_000] {
            let deep = call(nested(levels));
            let error = renderer.calls(std::slice::from_ref(&deep)).unwrap_err();
            assert_eq!(
                (error.index, error.name.as_deref(), error.reason.clone()),
                (0, Some("f"), Reason::TooDeep(max)),
                "{dialect}"
            );
            assert_eq!(
                error.argument,
                Some(format!("/k{}", "/a".repeat(max))),
                "{dialect}"
            );
            let single = renderer.call(&deep).unwrap_err();
            assert_eq!(single.reason, Reason::TooDeep(max), "{dialect}");
            take(deep);
        }
    }
}

/// One level more than the limit does not read back: the limit is the reading side's own.
#[test]
fn one_level_more_does_not_parse_as_arguments() {
    let text = format!(
        "<tool_call>\n{{\"name\":\"f\",\"arguments\":{{\"k\":{}}}}}\n</tool_call>",
        serde_json::to_string(&nested(MAX_ARGUMENT_DEPTH - 1)).unwrap()
    );
    assert_eq!(scan(Dialect::Qwen3, &text, text.len()).tool_calls.len(), 1);
    let deeper = text
        .replacen("{\"k\":", "{\"k\":[", 1)
        .replacen("}}\n</", "]}}\n</", 1);
    let completion = scan(Dialect::Qwen3, &deeper, deeper.len());
    assert_eq!(completion.tool_calls.len(), 0);
}
