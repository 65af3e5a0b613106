//! The `inband` binary as a user runs it: every format, every chunk size, and the errors.

use std::path::PathBuf;
use std::process::{Command, Output};

use serde_json::Value;

fn data(path: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/data")
        .join(path)
}

fn inband(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_inband"))
        .args(args)
        .output()
        .expect("the inband binary runs")
}

fn stdout(output: &Output) -> String {
    assert!(
        output.status.success(),
        "inband failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout.clone()).unwrap()
}

const TRANSCRIPTS: &[(&str, &str)] = &[
    ("transcripts/qwen3-weather-two-calls.txt", "qwen3"),
    ("transcripts/qwen3-draft-then-call.txt", "qwen3"),
    ("transcripts/hermes-code-edit.txt", "hermes"),
    ("transcripts/harmony-run-tests.txt", "harmony"),
    ("transcripts/kimi-ci-two-calls.txt", "kimi"),
    ("transcripts/deepseek-r1-weather-and-time.txt", "deepseek"),
    (
        "transcripts/deepseek-v32-dsml-grep-and-edit.txt",
        "deepseek",
    ),
    ("transcripts/xml-read-and-grep.txt", "xml"),
    ("transcripts/xml-dsml-write-and-test.txt", "xml"),
    ("transcripts/gemma-parallel-reads-and-write.txt", "gemma"),
    (
        "transcripts/gemini-search-read-and-write-docs.txt",
        "gemini",
    ),
    ("transcripts/anthropic-search-and-write.txt", "anthropic"),
    ("transcripts/minimax-weather-in-two-cities.txt", "minimax"),
    ("transcripts/qwen3-coder-edit-and-test.txt", "qwen3-coder"),
    ("transcripts/glm-read-and-grep.txt", "glm"),
];

/// The `choices[0].delta` objects of `--format openai` output, and the finish reasons.
fn openai_deltas(out: &str) -> (Vec<Value>, Vec<String>) {
    let mut deltas = Vec::new();
    let mut reasons = Vec::new();
    for line in out.lines() {
        let chunk: Value = serde_json::from_str(line).unwrap();
        let choice = &chunk["choices"][0];
        if let Some(reason) = choice["finish_reason"].as_str() {
            reasons.push(reason.to_owned());
        }
        deltas.push(choice["delta"].clone());
    }
    (deltas, reasons)
}

/// What a client assembles from `--format openai` output of a transcript fed in `chunk`-byte
/// pieces: reasoning, content, the calls' names and argument texts, and how many deltas
/// carried argument fragments after the name.
struct Client {
    reasoning: String,
    content: String,
    calls: Vec<(String, String)>,
    argument_deltas: usize,
}

fn openai_client(file: &str, dialect: &str, chunk: &str) -> Client {
    let path = data(file);
    let out = stdout(&inband(&[
        "scan",
        path.to_str().unwrap(),
        "--dialect",
        dialect,
        "--format",
        "openai",
        "--chunk",
        chunk,
    ]));
    let (deltas, reasons) = openai_deltas(&out);
    assert_eq!(reasons, ["tool_calls"]);
    let mut client = Client {
        reasoning: String::new(),
        content: String::new(),
        calls: Vec::new(),
        argument_deltas: 0,
    };
    for delta in &deltas {
        client
            .reasoning
            .push_str(delta["reasoning_content"].as_str().unwrap_or(""));
        client
            .content
            .push_str(delta["content"].as_str().unwrap_or(""));
        for call in delta["tool_calls"].as_array().into_iter().flatten() {
            match call["function"]["name"].as_str() {
                Some(name) => client.calls.push((name.to_owned(), String::new())),
                None => client.argument_deltas += 1,
            }
            let index = call["index"].as_u64().unwrap() as usize;
            client.calls[index]
                .1
                .push_str(call["function"]["arguments"].as_str().unwrap());
        }
    }
    client
}

/// `--format openai` for a Gemma 4 transcript: reasoning, content, then three calls whose
/// literal arguments stream as JSON.
#[test]
fn openai_output_of_a_gemma_transcript() {
    let client = openai_client(
        "transcripts/gemma-parallel-reads-and-write.txt",
        "gemma",
        "4",
    );
    assert!(client
        .reasoning
        .starts_with("The user wants the failing parser test fixed."));
    assert_eq!(
        client.content.trim(),
        "I'll read the test and search for the header parser together."
    );
    let names: Vec<&str> = client.calls.iter().map(|(name, _)| name.as_str()).collect();
    assert_eq!(names, ["read_file", "search_code", "write_file"]);
    assert_eq!(
        client.calls[1].1,
        r#"{"pattern":"def parse_header(","paths":["src/","lib/"],"case_sensitive":true,"context":{"before":2,"after":5}}"#
    );
    let write: Value = serde_json::from_str(&client.calls[2].1).unwrap();
    assert_eq!(
        write["content"],
        "def greet(name):\n    print(f\"Hello, {name}! <tool_call|> is not a closer here.\")\n"
    );
    assert!(client.argument_deltas > 10, "{}", client.argument_deltas);
}

/// `--format openai` for a Gemini transcript: fenced reasoning holding a code block, then
/// a list of two calls and an assigned call whose triple-quoted content holds a fence.
#[test]
fn openai_output_of_a_gemini_transcript() {
    let client = openai_client(
        "transcripts/gemini-search-read-and-write-docs.txt",
        "gemini",
        "5",
    );
    assert!(client
        .reasoning
        .contains("```bash\ntool --max-retries 3\n```"));
    assert_eq!(
        client.content.trim(),
        "I'll search for the key, open the config, and write the usage page."
    );
    let names: Vec<&str> = client.calls.iter().map(|(name, _)| name.as_str()).collect();
    assert_eq!(names, ["search_files", "read_file", "write_file"]);
    assert_eq!(
        client.calls[0].1,
        r#"{"pattern":"\\bmax_retries\\b","paths":["src/","tests/"],"case_sensitive":true}"#
    );
    assert_eq!(
        client.calls[1].1,
        r#"{"path":"config/settings.toml","start_line":1,"end_line":null}"#
    );
    let write: Value = serde_json::from_str(&client.calls[2].1).unwrap();
    assert_eq!(
        write["content"],
        "# Usage\n\n```bash\ntool --max-retries 3\n```\nSet `max_retries` in \"settings.toml\".\n"
    );
    assert!(client.argument_deltas > 10, "{}", client.argument_deltas);
}

#[test]
fn summary_is_byte_identical_for_every_chunk_size() {
    for (file, dialect) in TRANSCRIPTS {
        let path = data(file);
        let path = path.to_str().unwrap();
        let whole = stdout(&inband(&[
            "scan",
            path,
            "--dialect",
            dialect,
            "--seed",
            "9",
        ]));
        for chunk in 1..=40 {
            let chunk = chunk.to_string();
            let chunked = stdout(&inband(&[
                "scan",
                path,
                "--dialect",
                dialect,
                "--seed",
                "9",
                "--chunk",
                &chunk,
            ]));
            assert_eq!(chunked, whole, "{file} in {chunk}-byte chunks");
        }
    }
}

#[test]
fn summary_of_the_readme_example() {
    let path = data("transcripts/qwen3-weather-two-calls.txt");
    let out = stdout(&inband(&[
        "scan",
        path.to_str().unwrap(),
        "--dialect",
        "qwen3",
        "--seed",
        "1",
    ]));
    let summary: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(summary["content"], "I'll check both cities at once.");
    assert_eq!(summary["reasoning"].as_str().unwrap().lines().count(), 1);
    let calls = summary["tool_calls"].as_array().unwrap();
    assert_eq!(calls.len(), 2);
    assert_eq!(calls[0]["name"], "get_forecast");
    assert_eq!(
        calls[0]["arguments"],
        serde_json::json!({"city": "Porto", "days": 2, "units": "metric"})
    );
    assert_eq!(calls[1]["arguments"]["note"], "São Jorge — 城堡");
    assert_ne!(calls[0]["id"], calls[1]["id"]);
    assert_eq!(summary["incomplete_calls"], serde_json::json!([]));
    assert_eq!(summary["diagnostics"], serde_json::json!([]));
}

/// Concatenated `function.arguments` fragments are exactly the JSON of the final call.
#[test]
fn openai_fragments_concatenate_to_the_arguments() {
    for (file, dialect) in TRANSCRIPTS {
        let path = data(file);
        let path = path.to_str().unwrap();
        let summary: Value = serde_json::from_str(&stdout(&inband(&[
            "scan",
            path,
            "--dialect",
            dialect,
            "--seed",
            "4",
        ])))
        .unwrap();
        for chunk in ["1", "3", "16", "4096"] {
            let out = stdout(&inband(&[
                "scan",
                path,
                "--dialect",
                dialect,
                "--seed",
                "4",
                "--format",
                "openai",
                "--chunk",
                chunk,
            ]));
            let mut arguments: Vec<String> = Vec::new();
            let mut ids: Vec<String> = Vec::new();
            let mut reasons = Vec::new();
            for line in out.lines() {
                let chunk: Value = serde_json::from_str(line).unwrap();
                assert_eq!(chunk["object"], "chat.completion.chunk");
                let choice = &chunk["choices"][0];
                if !choice["finish_reason"].is_null() {
                    reasons.push(choice["finish_reason"].as_str().unwrap().to_owned());
                }
                for call in choice["delta"]["tool_calls"]
                    .as_array()
                    .into_iter()
                    .flatten()
                {
                    let index = call["index"].as_u64().unwrap() as usize;
                    if let Some(id) = call["id"].as_str() {
                        assert_eq!(index, ids.len(), "indices are dense, in order");
                        ids.push(id.to_owned());
                        arguments.push(String::new());
                        assert_eq!(call["type"], "function");
                        assert!(call["function"]["name"].is_string());
                    }
                    arguments[index].push_str(call["function"]["arguments"].as_str().unwrap());
                }
            }
            assert_eq!(reasons, ["tool_calls"], "{file}");
            let calls = summary["tool_calls"].as_array().unwrap();
            assert_eq!(
                arguments.len(),
                calls.len(),
                "{file} in {chunk}-byte chunks"
            );
            for (text, call) in arguments.iter().zip(calls) {
                let parsed: Value = serde_json::from_str(text).unwrap();
                assert_eq!(parsed, call["arguments"], "{file} in {chunk}-byte chunks");
            }
            let summary_ids: Vec<&str> = calls.iter().map(|c| c["id"].as_str().unwrap()).collect();
            assert_eq!(ids, summary_ids);
        }
    }
}

/// gpt-oss through the OpenAI delta output: reasoning, the preamble and the call, whole and
/// in token-sized chunks, with no header text and no special token in any field.
#[test]
fn harmony_openai_deltas() {
    let path = data("transcripts/harmony-run-tests.txt");
    let path = path.to_str().unwrap();
    let scan = |extra: &[&str]| {
        let mut args = vec![
            "scan",
            path,
            "--dialect",
            "harmony",
            "--format",
            "openai",
            "--seed",
            "1",
        ];
        args.extend_from_slice(extra);
        let lines: Vec<Value> = stdout(&inband(&args))
            .lines()
            .map(|line| serde_json::from_str(line).unwrap())
            .collect();
        lines
    };
    let reasoning = "The user wants to know whether the build on main is green and, if not, which \
                     test fails. I should run the suite with the repository's own command rather \
                     than guess. run_command takes the argv as an array, a working directory and \
                     a timeout in seconds; -q keeps the output short.";
    let content = "I'll run the test suite on main and report what fails.";
    let arguments = r#"{"command":["cargo","test","-q","--workspace"],"cwd":"/srv/repos/inband","timeout_s":600,"env":{"RUST_BACKTRACE":"1"},"note":"vérifier — 检查"}"#;
    let whole = scan(&[]);
    assert_eq!(whole.len(), 2);
    assert_eq!(
        whole[0]["choices"][0],
        serde_json::json!({
            "index": 0,
            "delta": {
                "role": "assistant",
                "content": content,
                "reasoning_content": reasoning,
                "tool_calls": [{
                    "index": 0,
                    "id": "call_rmjUd34YhLQsNcI4JR8qpsfW",
                    "type": "function",
                    "function": { "name": "run_command", "arguments": arguments },
                }],
            },
            "finish_reason": null,
        })
    );
    assert_eq!(
        whole[1]["choices"][0],
        serde_json::json!({ "index": 0, "delta": {}, "finish_reason": "tool_calls" })
    );
    for chunk in ["1", "3", "8"] {
        let (mut got_content, mut got_reasoning, mut got_arguments) =
            (String::new(), String::new(), String::new());
        let mut names = Vec::new();
        for line in scan(&["--chunk", chunk]) {
            let delta = &line["choices"][0]["delta"];
            got_content.push_str(delta["content"].as_str().unwrap_or_default());
            got_reasoning.push_str(delta["reasoning_content"].as_str().unwrap_or_default());
            for call in delta["tool_calls"].as_array().into_iter().flatten() {
                if let Some(name) = call["function"]["name"].as_str() {
                    names.push(name.to_owned());
                }
                got_arguments.push_str(call["function"]["arguments"].as_str().unwrap());
            }
        }
        assert_eq!(got_content, content, "--chunk {chunk}");
        assert_eq!(got_reasoning, reasoning, "--chunk {chunk}");
        assert_eq!(got_arguments, arguments, "--chunk {chunk}");
        assert_eq!(names, ["run_command"], "--chunk {chunk}");
    }
}

/// Raw-text parameters (xml): text values stream, typed ones go out whole, and the
/// fragments concatenate to exactly the arguments' JSON text at every chunk size.
#[test]
fn xml_openai_fragments_are_the_arguments_json_text() {
    let path = data("transcripts/xml-read-and-grep.txt");
    let path = path.to_str().unwrap();
    let expected = [
        r#"{"path":"src/parse.rs","lines":[1, 40]}"#,
        r#"{"pattern":"<parameter name=\"(\\w+)\">","paths":["src", "tests"],"note":"matches & counts, \"quoted\", 城堡 é"}"#,
    ];
    for chunk in (1..=12).chain([4096]) {
        let chunk = chunk.to_string();
        let out = stdout(&inband(&[
            "scan",
            path,
            "--dialect",
            "xml",
            "--format",
            "openai",
            "--chunk",
            &chunk,
        ]));
        let mut arguments: Vec<String> = Vec::new();
        let mut fragments = 0;
        for line in out.lines() {
            let chunk: Value = serde_json::from_str(line).unwrap();
            for call in chunk["choices"][0]["delta"]["tool_calls"]
                .as_array()
                .into_iter()
                .flatten()
            {
                let index = call["index"].as_u64().unwrap() as usize;
                if call["id"].is_string() {
                    arguments.push(String::new());
                }
                arguments[index].push_str(call["function"]["arguments"].as_str().unwrap());
                fragments += 1;
            }
        }
        assert_eq!(arguments, expected, "{chunk}-byte chunks");
        if chunk == "1" {
            assert!(fragments > 20, "values stream: {fragments} fragments");
        }
    }
    let out = stdout(&inband(&[
        "scan",
        path,
        "--dialect",
        "xml",
        "--format",
        "events",
        "--chunk",
        "5",
    ]));
    let mut at = 0;
    let mut params = Vec::new();
    for line in out.lines() {
        let event: Value = serde_json::from_str(line).unwrap();
        let span = [event["span"][0].as_u64(), event["span"][1].as_u64()];
        match event["kind"].as_str().unwrap() {
            "text" | "reasoning" | "markup" | "tool_args" | "tool_value" => {
                assert_eq!(span[0], Some(at), "{line}");
                at = span[1].unwrap();
            }
            "tool_param" => params.push(format!("{}:{}", event["key"], event["value_kind"])),
            _ => {}
        }
    }
    assert_eq!(at, std::fs::read(path).unwrap().len() as u64);
    assert_eq!(
        params,
        [
            r#""path":"untyped""#,
            r#""lines":"untyped""#,
            r#""pattern":"text""#,
            r#""paths":"untyped""#,
            r#""note":"untyped""#
        ]
    );
}

#[test]
fn events_are_json_lines_whose_spans_tile_the_input() {
    let path = data("transcripts/hermes-code-edit.txt");
    let input = std::fs::read(&path).unwrap();
    let out = stdout(&inband(&[
        "scan",
        path.to_str().unwrap(),
        "--dialect",
        "hermes",
        "--format",
        "events",
        "--chunk",
        "5",
    ]));
    let mut at = 0;
    let mut kinds = Vec::new();
    for line in out.lines() {
        let event: Value = serde_json::from_str(line).unwrap();
        let kind = event["kind"].as_str().unwrap().to_owned();
        let span = [
            event["span"][0].as_u64().unwrap(),
            event["span"][1].as_u64().unwrap(),
        ];
        if matches!(
            kind.as_str(),
            "text" | "reasoning" | "markup" | "tool_args" | "tool_value"
        ) {
            assert_eq!(span[0], at, "{line}");
            at = span[1];
        }
        kinds.push(kind);
    }
    assert_eq!(at, input.len() as u64);
    assert_eq!(kinds.iter().filter(|k| *k == "tool_end").count(), 2);
    assert_eq!(
        kinds.iter().filter(|k| *k == "tool_name").count(),
        1,
        "the first call names itself last"
    );
}

/// Standard input is decoded as it arrives, re-cut into `--chunk` pieces.
#[test]
fn standard_input_gives_the_file_summary_in_any_chunking() {
    use std::io::Write;
    let path = data("transcripts/hermes-code-edit.txt");
    let input = std::fs::read(&path).unwrap();
    let from_file = stdout(&inband(&[
        "scan",
        path.to_str().unwrap(),
        "--dialect",
        "hermes",
        "--seed",
        "3",
    ]));
    for chunk in ["1", "7", "100000"] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_inband"))
            .args([
                "scan",
                "-",
                "--dialect",
                "hermes",
                "--seed",
                "3",
                "--chunk",
                chunk,
            ])
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        child.stdin.take().unwrap().write_all(&input).unwrap();
        assert_eq!(
            stdout(&child.wait_with_output().unwrap()),
            from_file,
            "--chunk {chunk}"
        );
    }
}

#[test]
fn standard_input_is_read_by_default() {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_inband"))
        .args(["scan", "--dialect", "hermes", "--seed", "2"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"hi <tool_call>{\"name\": \"f\"}</tool_call>")
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let summary: Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(summary["content"], "hi");
    assert_eq!(summary["tool_calls"][0]["name"], "f");
    assert_eq!(summary["tool_calls"][0]["arguments"], serde_json::json!({}));
}

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

fn one_line_error(output: &Output, code: i32, needle: &str) {
    assert_eq!(output.status.code(), Some(code));
    assert!(output.stdout.is_empty());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.starts_with("inband: "), "{stderr}");
    assert!(stderr.contains(needle), "{stderr}");
}

#[test]
fn usage_and_io_errors_are_one_line() {
    one_line_error(
        &inband(&["scan", "-", "--dialect", "klingon"]),
        2,
        "unknown dialect `klingon`",
    );
    one_line_error(
        &inband(&["scan", "/no/such/file", "--dialect", "hermes"]),
        1,
        "cannot read /no/such/file",
    );
    one_line_error(
        &inband(&["scan", "-", "--dialect", "hermes", "--chunk", "0"]),
        2,
        "0",
    );
    one_line_error(
        &inband(&["scan", "-", "--dialect", "hermes", "--format", "xml"]),
        2,
        "xml",
    );
    one_line_error(&inband(&["scan"]), 2, "--dialect");
    one_line_error(&inband(&[]), 2, "missing command");
}

#[test]
fn malformed_output_is_a_diagnostic_not_an_error() {
    let path = data("corpus/058-hermes-truncated-mid-arguments.json");
    let case: Value = serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap();
    let dir = std::env::temp_dir().join(format!("inband-cli-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("truncated.txt");
    std::fs::write(&file, case["input"].as_str().unwrap()).unwrap();
    let out = stdout(&inband(&[
        "scan",
        file.to_str().unwrap(),
        "--dialect",
        "hermes",
        "--seed",
        "1",
    ]));
    let summary: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(summary["tool_calls"].as_array().unwrap().len(), 1);
    assert_eq!(summary["incomplete_calls"][0]["name"], "write_file");
    assert_eq!(summary["diagnostics"][0]["code"], "truncated_call");
    assert_eq!(summary["content"], "");
}

/// A reader that stops early (`| head`) ends the run quietly.
#[test]
fn a_closed_output_pipe_is_not_an_error() {
    use std::io::Read;
    // Far more output than a pipe buffers, so the writer does meet the closed pipe.
    let input = std::fs::read(data("transcripts/qwen3-weather-two-calls.txt")).unwrap();
    let dir = std::env::temp_dir().join(format!("inband-cli-pipe-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("long.txt");
    std::fs::write(&path, input.repeat(200)).unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_inband"))
        .args([
            "scan",
            path.to_str().unwrap(),
            "--dialect",
            "qwen3",
            "--format",
            "openai",
            "--chunk",
            "1",
        ])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = [0u8; 16];
    child
        .stdout
        .as_mut()
        .unwrap()
        .read_exact(&mut first)
        .unwrap();
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// The README shows the main job's exact output; it must stay true.
#[test]
fn readme_main_job_output_is_exact() {
    let readme =
        std::fs::read_to_string(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../README.md"))
            .unwrap();
    let command =
        "scan tests/data/transcripts/qwen3-weather-two-calls.txt --dialect qwen3 --seed 1";
    assert!(
        readme.contains(command),
        "the README runs the bundled transcript"
    );
    let shown = readme
        .split("```json\n")
        .nth(1)
        .and_then(|rest| rest.split("\n```").next())
        .unwrap();
    let path = data("transcripts/qwen3-weather-two-calls.txt");
    let out = stdout(&inband(&[
        "scan",
        path.to_str().unwrap(),
        "--dialect",
        "qwen3",
        "--seed",
        "1",
    ]));
    assert_eq!(out.trim_end(), shown);
}

/// `--tools` takes an OpenAI tools array: a Harmony recipient glued to its content type is
/// repaired to the declared name; an unreadable or malformed file is a one-line error.
#[test]
fn tools_file_repairs_a_glued_recipient() {
    let input = std::env::temp_dir().join(format!("inband-glued-{}.txt", std::process::id()));
    std::fs::write(
        &input,
        "<|channel|>analysis<|message|>List the directory.<|end|><|start|>assistant<|channel|>\
         commentary to=functions.shelljson<|message|>{\"cmd\":[\"ls\",\"-la\"]}<|call|>",
    )
    .unwrap();
    let input = input.to_str().unwrap();
    let tools = data("tools/shell.json");
    let scan = |tools: &str| {
        inband(&[
            "scan",
            input,
            "--dialect",
            "harmony",
            "--seed",
            "1",
            "--tools",
            tools,
        ])
    };
    let summary: Value = serde_json::from_str(&stdout(&scan(tools.to_str().unwrap()))).unwrap();
    assert_eq!(summary["tool_calls"][0]["name"], "shell");
    assert_eq!(
        summary["tool_calls"][0]["arguments"],
        serde_json::json!({"cmd": ["ls", "-la"]})
    );
    assert_eq!(summary["diagnostics"][0]["code"], "glued_content_type");
    let without: Value =
        serde_json::from_str(&stdout(&inband(&["scan", input, "--dialect", "harmony"]))).unwrap();
    assert_eq!(without["tool_calls"][0]["name"], "shelljson");
    one_line_error(
        &scan("/no/such/tools.json"),
        1,
        "cannot read /no/such/tools.json",
    );
    one_line_error(&scan(input), 1, "is not an OpenAI tools array");
}

/// `--tools` passes the schemas through: an xml call's raw-text values are typed by them
/// (rule 8) in the summary and in the streamed `function.arguments`, at any chunk size; a
/// malformed tool says which one and what is wrong.
#[test]
fn tools_file_types_raw_text_parameters() {
    let dir = std::env::temp_dir();
    let input = dir.join(format!("inband-typed-{}.txt", std::process::id()));
    std::fs::write(
        &input,
        "Reading.\n<invoke name=\"read\">\n<parameter name=\"path\">2024</parameter>\n<parameter name=\"limit\"> 20 </parameter>\n<parameter name=\"all\">True</parameter>\n<parameter name=\"note\">null</parameter>\n</invoke>",
    )
    .unwrap();
    let tools = dir.join(format!("inband-typed-tools-{}.json", std::process::id()));
    std::fs::write(
        &tools,
        r#"[{"type": "function", "function": {"name": "read", "description": "Read a file", "parameters": {"type": "object", "properties": {"path": {"type": "string"}, "limit": {"type": "integer"}, "all": {"type": "boolean"}, "note": {"type": ["string", "integer"]}}}}}]"#,
    )
    .unwrap();
    let (input, tools) = (input.to_str().unwrap(), tools.to_str().unwrap());
    let scan = |extra: &[&str]| {
        let mut args = vec!["scan", input, "--dialect", "xml", "--seed", "1"];
        args.extend_from_slice(extra);
        stdout(&inband(&args))
    };
    let summary: Value = serde_json::from_str(&scan(&["--tools", tools])).unwrap();
    assert_eq!(summary["content"], "Reading.");
    assert_eq!(
        summary["tool_calls"][0]["arguments"],
        serde_json::json!({"path": "2024", "limit": 20, "all": true, "note": "null"})
    );
    let codes: Vec<&str> = summary["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["code"].as_str().unwrap())
        .collect();
    assert_eq!(codes, ["repaired_arguments"]);
    let untyped: Value = serde_json::from_str(&scan(&[])).unwrap();
    assert_eq!(
        untyped["tool_calls"][0]["arguments"],
        serde_json::json!({"path": 2024, "limit": 20, "all": "True", "note": null})
    );
    for chunk in ["1", "7", "64"] {
        let (deltas, reasons) = openai_deltas(&scan(&[
            "--tools", tools, "--format", "openai", "--chunk", chunk,
        ]));
        let arguments: String = deltas
            .iter()
            .filter_map(|d| d["tool_calls"][0]["function"]["arguments"].as_str())
            .collect();
        assert_eq!(
            arguments, r#"{"path":"2024","limit":20,"all":true,"note":"null"}"#,
            "--chunk {chunk}"
        );
        assert_eq!(reasons, ["tool_calls"]);
    }
    let bad = std::env::temp_dir().join(format!("inband-bad-tools-{}.json", std::process::id()));
    std::fs::write(
        &bad,
        r#"[{"type": "function", "function": {"name": "read"}}, {"type": "function", "function": {"name": "grep", "parameters": "none"}}]"#,
    )
    .unwrap();
    one_line_error(
        &inband(&[
            "scan",
            input,
            "--dialect",
            "xml",
            "--tools",
            bad.to_str().unwrap(),
        ]),
        1,
        "is not an OpenAI tools array: tool 1: `function.parameters` is not a JSON object",
    );
}

#[test]
fn prompt_prints_the_golden_prompt_of_a_dialect_or_a_model() {
    let tools = data("tools/shell.json");
    let tools = tools.to_str().unwrap();
    for (args, golden) in [
        (["--dialect", "hermes"], "golden/prompt-hermes.md"),
        (["--dialect", "qwen3-coder"], "golden/prompt-qwen3-coder.md"),
        (
            ["--model", "openai/gpt-oss-120b"],
            "golden/prompt-harmony.md",
        ),
        (["--model", "zai-org/GLM-4.5"], "golden/prompt-glm.md"),
    ] {
        let out = stdout(&inband(&["prompt", args[0], args[1], "--tools", tools]));
        assert_eq!(
            out,
            std::fs::read_to_string(data(golden)).unwrap(),
            "{args:?}"
        );
    }
}

#[test]
fn prompt_usage_errors_exit_non_zero() {
    let tools = data("tools/shell.json");
    let tools = tools.to_str().unwrap();
    let missing = inband(&["prompt", "--tools", tools]);
    assert_eq!(missing.status.code(), Some(2));
    let unknown = inband(&["prompt", "--dialect", "llama", "--tools", tools]);
    assert_eq!(unknown.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&unknown.stderr).contains(
        "unknown dialect `llama` (known: hermes, qwen3, kimi, deepseek, harmony, xml, gemma, gemini, anthropic, minimax, qwen3-coder, glm, seed-oss, longcat)"
    ));
    let not_tools = inband(&[
        "prompt",
        "--dialect",
        "xml",
        "--tools",
        data("corpus/001-hermes-tag-split-across-chunks.json")
            .to_str()
            .unwrap(),
    ]);
    assert_eq!(not_tools.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&not_tools.stderr)
        .contains("is not an OpenAI tools array: not a JSON array"));
}

/// `inband render …` with `stdin` on standard input.
fn render(args: &[&str], stdin: &str) -> Output {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_inband"))
        .arg("render")
        .args(args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("the inband binary runs");
    let mut input = child.stdin.take().unwrap();
    // A command refused before it reads its input (an unknown dialect) closes the pipe:
    // the write may fail then, and the exit status and stderr say what happened.
    let _ = input.write_all(stdin.as_bytes());
    drop(input);
    child.wait_with_output().unwrap()
}

#[test]
fn render_calls_results_and_transcript() {
    let calls = r#"[{"id": "c1", "type": "function",
                     "function": {"name": "search", "arguments": "{\"query\": \"pi\", \"n\": 2}"}}]"#;
    assert_eq!(
        stdout(&render(&["calls", "--dialect", "kimi"], calls)),
        "<|tool_calls_section_begin|><|tool_call_begin|>functions.search:0\
         <|tool_call_argument_begin|>{\"query\":\"pi\",\"n\":2}<|tool_call_end|><|tool_calls_section_end|>"
    );
    assert_eq!(
        stdout(&render(&["calls", "--dialect", "xml"], calls)),
        "<invoke name=\"search\">\n<parameter name=\"query\">pi</parameter>\n\
         <parameter name=\"n\">2</parameter>\n</invoke>"
    );
    let results =
        r#"[{"tool_call_id": "c1", "name": "search", "content": "3.14", "is_error": true}]"#;
    assert_eq!(
        stdout(&render(&["results", "--dialect", "gemma"], results)),
        "<|tool_response>response:search{error:3.14}<tool_response|>"
    );
    let messages = r#"[{"role": "user", "content": "Find pi"},
                       {"role": "assistant", "content": "Done."}]"#;
    assert_eq!(
        stdout(&render(&["transcript", "--dialect", "qwen3"], messages)),
        "<|im_start|>user\nFind pi<|im_end|>\n<|im_start|>assistant\nDone.<|im_end|>\n"
    );
    // What the renderer writes, the scanner reads back.
    let rendered = stdout(&render(&["calls", "--dialect", "gemini"], calls));
    let dir = std::env::temp_dir().join(format!("inband-cli-render-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("calls.txt");
    std::fs::write(&file, &rendered).unwrap();
    let summary: Value = serde_json::from_str(&stdout(&inband(&[
        "scan",
        file.to_str().unwrap(),
        "--dialect",
        "gemini",
    ])))
    .unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(summary["tool_calls"][0]["name"], "search");
    assert_eq!(
        summary["tool_calls"][0]["arguments"],
        serde_json::json!({"query": "pi", "n": 2})
    );
}

#[test]
fn render_errors_are_one_line() {
    one_line_error(
        &render(
            &["calls", "--dialect", "xml"],
            r#"[{"name": "w", "arguments": {"t": "x</parameter></invoke>"}}]"#,
        ),
        1,
        "argument \"/t\": the value holds \"</parameter>\" followed by structure",
    );
    one_line_error(
        &render(&["transcript", "--dialect", "hermes"], "{not json"),
        1,
        "not a JSON array of messages",
    );
    one_line_error(
        &render(&["calls", "--dialect", "klingon"], "[]"),
        2,
        "unknown dialect",
    );
    one_line_error(&render(&["prose", "--dialect", "xml"], "[]"), 2, "prose");
}

/// A call without a name says so, flat or in OpenAI's nesting, in a list of calls and in a
/// transcript's assistant turn (not serde's "did not match any variant").
#[test]
fn render_names_what_a_malformed_call_lacks() {
    let cases = [
        (
            "calls",
            r#"[{"arguments": {}}]"#,
            "inband: standard input is not a JSON array of tool calls: a tool call needs a `name` string (or `function.name`) at line 1 column 19\n",
        ),
        (
            "calls",
            r#"[{"function": {"arguments": "{}"}}]"#,
            "inband: standard input is not a JSON array of tool calls: missing field `name` at line 1 column 33\n",
        ),
        (
            "transcript",
            r#"[{"role": "assistant", "tool_calls": [{"id": "x"}]}]"#,
            "inband: standard input is not a JSON array of messages: a tool call needs a `name` string (or `function.name`) at line 1 column 52\n",
        ),
    ];
    for (what, stdin, expected) in cases {
        let output = render(&[what, "--dialect", "hermes"], stdin);
        assert_eq!(output.status.code(), Some(1), "{stdin}");
        assert!(output.stdout.is_empty());
        assert_eq!(String::from_utf8_lossy(&output.stderr), expected, "{stdin}");
    }
}

/// `--stop-at-fabricated-result`: where the model begins writing a tool result itself the
/// response ends, in the summary and in the OpenAI stream alike (docs/seed.md §5.4).
#[test]
fn stop_at_fabricated_result() {
    let dir = std::env::temp_dir().join(format!("inband-fabricated-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("fake.txt");
    std::fs::write(
        &file,
        "<tool_call>echo\n<arg_key>msg</arg_key>\n<arg_value>hi</arg_value>\n</tool_call>\n<tool_response>\nFAKE RESULT\n</tool_response>",
    )
    .unwrap();
    let file = file.to_str().unwrap();
    let flag = "--stop-at-fabricated-result";
    let summary = stdout(&inband(&[
        "scan",
        file,
        "--dialect",
        "glm",
        "--seed",
        "1",
        flag,
    ]));
    let summary: Value = serde_json::from_str(&summary).unwrap();
    assert_eq!(summary["content"], "");
    assert_eq!(
        summary["tool_calls"][0]["arguments"],
        serde_json::json!({"msg": "hi"})
    );
    for chunk in ["1", "7", "64"] {
        let out = stdout(&inband(&[
            "scan",
            file,
            "--dialect",
            "glm",
            "--format",
            "openai",
            "--chunk",
            chunk,
            flag,
        ]));
        assert!(!out.contains("FAKE"), "{out}");
        assert!(out.contains("\"finish_reason\":\"tool_calls\""), "{out}");
    }
    let all = stdout(&inband(&["scan", file, "--dialect", "glm", "--seed", "1"]));
    assert!(all.contains("FAKE RESULT"), "{all}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `inband ARGS` with `input` on standard input: its standard output.
fn with_stdin(args: &[&str], input: &str) -> String {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_inband"))
        .args(args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    stdout(&child.wait_with_output().unwrap())
}

/// Issue 11: a repeated key keeps its first value and numbers keep the model's text in
/// `summary` and `openai` output, at every chunk size; `events` are the scanner's, the
/// model's text as written.
#[test]
fn arguments_agree_in_every_format() {
    let input = r#"<tool_call>{"name": "rm", "arguments": {"path": "/tmp/safe", "path": "/", "n": 123456789012345678901234567890, "e": 1E5, "x": 1e999}}</tool_call>"#;
    let summary = r#"{"content":"","reasoning":null,"tool_calls":[{"id":"call_rmjUd34YhLQsNcI4JR8qpsfW","name":"rm","arguments":{"path":"/tmp/safe","n":123456789012345678901234567890,"e":1E5,"x":1e999}}],"incomplete_calls":[],"diagnostics":[{"code":"duplicate_parameter","message":"a parameter appeared twice in a call; the first value was kept","span":[0,145]}]}"#;
    let arguments =
        r#"{"path": "/tmp/safe", "n": 123456789012345678901234567890, "e": 1E5, "x": 1e999}"#;
    for chunk in ["1", "5", "1000"] {
        let base = [
            "scan",
            "-",
            "--dialect",
            "qwen3",
            "--seed",
            "1",
            "--chunk",
            chunk,
        ];
        assert_eq!(
            with_stdin(&base, input),
            format!("{summary}\n"),
            "--chunk {chunk}"
        );
        let openai = with_stdin(&[&base[..], &["--format", "openai"]].concat(), input);
        let (deltas, reasons) = openai_deltas(&openai);
        assert_eq!(reasons, ["tool_calls"]);
        let streamed: String = deltas
            .iter()
            .flat_map(|delta| delta["tool_calls"].as_array().cloned().unwrap_or_default())
            .map(|call| call["function"]["arguments"].as_str().unwrap().to_owned())
            .collect();
        assert_eq!(streamed, arguments, "--chunk {chunk}");
    }
    let events = with_stdin(&["scan", "--dialect", "qwen3", "--format", "events"], input);
    let json: String = events
        .lines()
        .map(|line| serde_json::from_str::<Value>(line).unwrap())
        .filter(|event| event["kind"] == "tool_args")
        .map(|event| event["json"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(
        json,
        r#"{"path": "/tmp/safe", "path": "/", "n": 123456789012345678901234567890, "e": 1E5, "x": 1e999}"#
    );
}
