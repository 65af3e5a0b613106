//! Every bundled real-output case (`tests/data/corpus/`, copied from the shared corpus)
//! gives its expected content, reasoning and tool calls whole, at every two-way split and
//! one byte at a time; its events pass the chunking harness. A case's `tools` (names and
//! parameter schemas) go to the assembler whole, so raw-text values are typed (rule 8).

use std::path::PathBuf;

use inband::{Dialect, Options};
use inband_alloc::assemble::{assemble, AssembleOptions, Completion};
use inband_alloc::tools::ToolSet;
use serde_json::Value;

use crate::harness;

struct Case {
    id: String,
    dialect: Dialect,
    input: String,
    expected: Value,
    /// The case's OpenAI tools array: names and parameter schemas.
    tools: Option<ToolSet>,
}

fn cases() -> Vec<Case> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/corpus");
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("tests/data/corpus")
        .map(|e| e.unwrap().path())
        .collect();
    paths.sort();
    paths
        .into_iter()
        .map(|path| {
            let case: Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
            let dialect = case["dialect"].as_str().unwrap();
            let tools = case.get("tools").map(|tools| {
                ToolSet::from_json(&serde_json::to_vec(tools).unwrap())
                    .unwrap_or_else(|e| panic!("{}: tools: {e}", path.display()))
            });
            Case {
                id: case["id"].as_str().unwrap().to_owned(),
                dialect: Dialect::from_name(dialect)
                    .unwrap_or_else(|| panic!("{}: unknown dialect {dialect}", path.display())),
                input: case["input"].as_str().unwrap().to_owned(),
                expected: case["expected"].clone(),
                tools,
            }
        })
        .collect()
}

/// JSON values equal as the corpus README says: numbers by value, objects by key set.
fn same_json(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x.as_f64() == y.as_f64(),
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(x, y)| same_json(x, y))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, v)| y.get(k).is_some_and(|w| same_json(v, w)))
        }
        _ => a == b,
    }
}

fn check_completion(case: &Case, how: &str, completion: &Completion) {
    let expected = &case.expected;
    assert_eq!(
        completion.content.trim(),
        expected["content"].as_str().unwrap(),
        "{}: content ({how})",
        case.id
    );
    assert_eq!(
        completion.reasoning.as_deref().map(str::trim),
        expected["reasoning"].as_str(),
        "{}: reasoning ({how})",
        case.id
    );
    let calls = expected["tool_calls"].as_array().unwrap();
    let names: Vec<&str> = completion
        .tool_calls
        .iter()
        .map(|c| c.name.as_str())
        .collect();
    let expected_names: Vec<&str> = calls.iter().map(|c| c["name"].as_str().unwrap()).collect();
    assert_eq!(
        names, expected_names,
        "{}: tool call names ({how})",
        case.id
    );
    for (call, expected_call) in completion.tool_calls.iter().zip(calls) {
        let arguments: Value =
            serde_json::from_str(&serde_json::to_string(&call.arguments).unwrap()).unwrap();
        assert!(
            same_json(&arguments, &expected_call["arguments"]),
            "{}: arguments of {} ({how}): {arguments} != {}",
            case.id,
            call.name,
            expected_call["arguments"]
        );
    }
}

#[test]
fn every_case_whole_split_and_byte_by_byte() {
    let cases = cases();
    assert!(cases.len() >= 5, "the corpus is bundled");
    for case in &cases {
        let mut options = AssembleOptions::seeded(1);
        options.tools = case.tools.clone();
        let input = case.input.as_bytes();
        let run = |chunks: Vec<&[u8]>| assemble(case.dialect, Options::default(), &options, chunks);
        let whole = run(vec![input]);
        check_completion(case, "whole", &whole);
        for k in 0..=input.len() {
            let split = run(vec![&input[..k], &input[k..]]);
            assert_eq!(split, whole, "{}: split at {k}", case.id);
        }
        assert_eq!(
            run(input.chunks(1).collect()),
            whole,
            "{}: byte by byte",
            case.id
        );
        harness::check(case.dialect, Options::default(), input);
    }
}
