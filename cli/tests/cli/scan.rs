//! `inband scan` as a user runs it: the summary at every chunk size, events, standard
//! input, errors, the README's output, `--stop-at-fabricated-result` and arguments that
//! agree in every format.

use std::path::PathBuf;
use std::process::Command;

use serde_json::Value;

use crate::common::{data, inband, one_line_error, openai_deltas, stdout, TRANSCRIPTS};

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
