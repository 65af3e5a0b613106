//! `--format openai`: what a client assembles from the deltas, and argument fragments that
//! concatenate to exactly the arguments' JSON text (gemma, gemini, harmony, xml, every
//! transcript).

use serde_json::Value;

use crate::common::{data, inband, openai_deltas, stdout, TRANSCRIPTS};

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
