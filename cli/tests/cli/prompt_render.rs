//! `inband prompt` and `inband render`: the golden prompts, rendered calls, results and
//! transcripts, and their errors.

use std::process::{Command, Output};

use serde_json::Value;

use crate::common::{data, inband, one_line_error, stdout};

#[test]
fn prompt_prints_the_golden_prompt_of_a_dialect_or_a_model() {
    let tools = data("tools/shell.json");
    let tools = tools.to_str().unwrap();
    for (args, golden) in [
        (["--dialect", "hermes"], "golden/prompt-hermes.md"),
        (["--dialect", "qwen3-coder"], "golden/prompt-qwen3-coder.md"),
        // A server's parser name is accepted wherever a dialect name is.
        (["--dialect", "qwen3_coder"], "golden/prompt-qwen3-coder.md"),
        (["--dialect", "granite4"], "golden/prompt-hermes.md"),
        (["--dialect", "seed_oss"], "golden/prompt-seed-oss.md"),
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
        "unknown dialect `llama` (known: hermes, qwen3, kimi, deepseek, harmony, xml, gemma, gemini, anthropic, minimax, qwen3-coder, glm, seed-oss, jamba, longcat, granite, internlm, mistral, pythonic, lfm2, llama3-json, xlam, phi4-mini, hunyuan-a13b, hunyuan, iquest-q1, k2-horizon, cohere, apertus, deepseek-v41, dots, ernie45, granite-20b-fc, functiongemma, minicpm5, kimi-k3, muse, mimo, step3, gigachat35, gigachat3, plamo3, minimax-m3)"
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
