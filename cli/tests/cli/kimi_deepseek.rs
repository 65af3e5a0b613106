//! Kimi's and DeepSeek's calls through the OpenAI deltas and the events: the model's ids
//! kept, minted ids, and V3.2's DSML block.

use std::path::PathBuf;

use serde_json::Value;

use crate::common::{data, inband, stdout};

/// The OpenAI chunks of a scan: per call its id, name and concatenated arguments, and the
/// finish reasons.
fn openai_calls(
    path: &str,
    dialect: &str,
    chunk: &str,
) -> (Vec<(String, String, Value)>, Vec<String>) {
    let out = stdout(&inband(&[
        "scan",
        path,
        "--dialect",
        dialect,
        "--format",
        "openai",
        "--seed",
        "1",
        "--chunk",
        chunk,
    ]));
    let mut calls: Vec<(String, String, String)> = Vec::new();
    let mut reasons = Vec::new();
    for line in out.lines() {
        let chunk: Value = serde_json::from_str(line).unwrap();
        let choice = &chunk["choices"][0];
        if let Some(reason) = choice["finish_reason"].as_str() {
            reasons.push(reason.to_owned());
        }
        for call in choice["delta"]["tool_calls"]
            .as_array()
            .into_iter()
            .flatten()
        {
            let index = call["index"].as_u64().unwrap() as usize;
            if let Some(id) = call["id"].as_str() {
                assert_eq!(index, calls.len());
                let name = call["function"]["name"].as_str().unwrap().to_owned();
                calls.push((id.to_owned(), name, String::new()));
            }
            calls[index]
                .2
                .push_str(call["function"]["arguments"].as_str().unwrap());
        }
    }
    let calls = calls
        .into_iter()
        .map(|(id, name, arguments)| (id, name, serde_json::from_str(&arguments).unwrap()))
        .collect();
    (calls, reasons)
}

/// Kimi's calls keep the model's `functions.NAME:IDX` ids (docs/dialects.md rule 10).
#[test]
fn openai_output_for_kimi_keeps_the_models_ids() {
    let path = data("transcripts/kimi-ci-two-calls.txt");
    for chunk in ["1", "5", "100000"] {
        let (calls, reasons) = openai_calls(path.to_str().unwrap(), "kimi", chunk);
        assert_eq!(reasons, ["tool_calls"]);
        assert_eq!(
            calls,
            [
                (
                    "functions.read_file:2".to_owned(),
                    "read_file".to_owned(),
                    serde_json::json!({"path": ".github/workflows/ci.yml"})
                ),
                (
                    "functions.grep-logs:3".to_owned(),
                    "grep-logs".to_owned(),
                    serde_json::json!({
                        "pattern": "error(\\[E\\d+\\])?:",
                        "file": "logs/build-1842.txt",
                        "context": 3,
                        "note": "première erreur — 最初のエラー"
                    })
                ),
            ],
            "--chunk {chunk}"
        );
    }
}

/// Kimi's events carry the model's id as a `tool_id` event (a kind the README lists), right
/// after the call's start.
#[test]
fn events_for_kimi_carry_the_models_ids() {
    let path = data("transcripts/kimi-ci-two-calls.txt");
    let out = stdout(&inband(&[
        "scan",
        path.to_str().unwrap(),
        "--dialect",
        "kimi",
        "--format",
        "events",
        "--chunk",
        "3",
    ]));
    let events: Vec<Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let ids: Vec<(u64, &str)> = events
        .iter()
        .filter(|e| e["kind"] == "tool_id")
        .map(|e| (e["call"].as_u64().unwrap(), e["id"].as_str().unwrap()))
        .collect();
    assert_eq!(
        ids,
        [(0, "functions.read_file:2"), (1, "functions.grep-logs:3")]
    );
    for (i, event) in events.iter().enumerate() {
        if event["kind"] == "tool_id" {
            assert_eq!(events[i - 1]["kind"], "tool_start", "{event}");
        }
    }
    let readme =
        std::fs::read_to_string(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../README.md"))
            .unwrap();
    assert!(
        readme.contains("`tool_id` (`call`, `id`"),
        "README lists `tool_id`"
    );
}

/// DeepSeek's V3 / R1 fenced calls; ids are minted (seeded).
#[test]
fn openai_output_for_deepseek() {
    let path = data("transcripts/deepseek-r1-weather-and-time.txt");
    let (whole, reasons) = openai_calls(path.to_str().unwrap(), "deepseek", "100000");
    assert_eq!(reasons, ["tool_calls"]);
    let summary: Vec<(&str, Value)> = whole
        .iter()
        .map(|(_, name, arguments)| (name.as_str(), arguments.clone()))
        .collect();
    assert_eq!(
        summary,
        [
            (
                "get_weather",
                serde_json::json!({"city": "Paris", "units": "metric"})
            ),
            (
                "get_time",
                serde_json::json!({"timezone": "Asia/Tokyo", "label": "東京"})
            ),
        ]
    );
    assert!(whole.iter().all(|(id, _, _)| id.starts_with("call_")));
    assert_ne!(whole[0].0, whole[1].0);
    for chunk in ["1", "3", "7"] {
        let (chunked, _) = openai_calls(path.to_str().unwrap(), "deepseek", chunk);
        assert_eq!(chunked, whole, "--chunk {chunk}");
    }
}

/// DeepSeek V3.2's DSML block through the OpenAI deltas: reasoning, content, and per call
/// argument fragments that concatenate to exactly the arguments' JSON text at every chunk
/// size (raw-text values stream, `string="false"` values go out as written).
#[test]
fn deepseek_dsml_openai_fragments_are_the_arguments_json_text() {
    let path = data("transcripts/deepseek-v32-dsml-grep-and-edit.txt");
    let path = path.to_str().unwrap();
    let reasoning = "The user wants the failing test fixed. I should look for the assertion \
                     first, then patch the file. Neither call needs the other's output, so one \
                     DSML block can carry both.";
    let content = "I'll search for the failing assertion and patch the parser.";
    let expected = [
        (
            "grep",
            r#"{"pattern":"assert!(a < b && \"x\" != 'y')","paths":["src", "tests/parse.rs"],"max_results":25}"#,
        ),
        (
            "edit_file",
            r#"{"path":"src/parse.rs","patch":"-    if a <= b {\n+    if a < b {\n         // « vérifier » — 检查 </｜DSML｜parameter> stays text\n     }","options":{"dry_run": false, "context": 3}}"#,
        ),
    ];
    for chunk in (1..=12).chain([4096]) {
        let chunk = chunk.to_string();
        let out = stdout(&inband(&[
            "scan",
            path,
            "--dialect",
            "deepseek",
            "--format",
            "openai",
            "--seed",
            "1",
            "--chunk",
            &chunk,
        ]));
        let (mut got_content, mut got_reasoning) = (String::new(), String::new());
        let mut calls: Vec<(String, String)> = Vec::new();
        let mut reasons = Vec::new();
        let mut fragments = 0;
        for line in out.lines() {
            let line: Value = serde_json::from_str(line).unwrap();
            let choice = &line["choices"][0];
            if let Some(reason) = choice["finish_reason"].as_str() {
                reasons.push(reason.to_owned());
            }
            let delta = &choice["delta"];
            got_content.push_str(delta["content"].as_str().unwrap_or_default());
            got_reasoning.push_str(delta["reasoning_content"].as_str().unwrap_or_default());
            for call in delta["tool_calls"].as_array().into_iter().flatten() {
                let index = call["index"].as_u64().unwrap() as usize;
                if call["id"].is_string() {
                    assert_eq!(index, calls.len(), "indices are dense, in order");
                    let name = call["function"]["name"].as_str().unwrap().to_owned();
                    calls.push((name, String::new()));
                }
                calls[index]
                    .1
                    .push_str(call["function"]["arguments"].as_str().unwrap());
                fragments += 1;
            }
        }
        let calls: Vec<(&str, &str)> = calls
            .iter()
            .map(|(n, a)| (n.as_str(), a.as_str()))
            .collect();
        assert_eq!(calls, expected, "{chunk}-byte chunks");
        assert_eq!(got_content.trim(), content, "{chunk}-byte chunks");
        assert_eq!(got_reasoning.trim(), reasoning, "{chunk}-byte chunks");
        assert_eq!(reasons, ["tool_calls"], "{chunk}-byte chunks");
        if chunk == "1" {
            assert!(fragments > 100, "values stream: {fragments} fragments");
        }
    }
}
