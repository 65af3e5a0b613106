//! `inband heal` over the recorded provider streams of `tests/data/streams/` (docs/seed.md
//! §5.12 provider-level, §5.4, §6.3 B1, B13, B14): each stream healed whole, and the result
//! the same when the stream arrives one line at a time through a pipe.

use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Command, Stdio};

use serde_json::Value;

fn stream(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/data/streams")
        .join(name)
}

/// What a client accumulates from the output: content, reasoning, calls (id, name,
/// arguments) by index, the finish reason, and the number of `data: [DONE]` lines.
#[derive(Debug, Default, PartialEq)]
struct Healed {
    content: String,
    reasoning: String,
    calls: Vec<(String, String, String)>,
    finish_reason: Option<String>,
    done: usize,
    usage: usize,
}

fn accumulate(output: &str) -> Healed {
    let mut healed = Healed::default();
    for line in output.lines().filter(|l| !l.is_empty()) {
        let data = line.strip_prefix("data: ").unwrap_or(line);
        if data == "[DONE]" {
            healed.done += 1;
            continue;
        }
        let chunk: Value = serde_json::from_str(data).unwrap();
        let Some(choice) = chunk["choices"].get(0) else {
            healed.usage += 1;
            continue;
        };
        assert_eq!(
            healed.finish_reason, None,
            "a chunk after the finish: {line}"
        );
        let delta = &choice["delta"];
        healed.content += delta["content"].as_str().unwrap_or("");
        healed.reasoning += delta["reasoning_content"].as_str().unwrap_or("");
        for call in delta["tool_calls"].as_array().into_iter().flatten() {
            let index = call["index"].as_u64().unwrap() as usize;
            if index == healed.calls.len() {
                let id = call["id"].as_str().unwrap().to_owned();
                let name = call["function"]["name"].as_str().unwrap().to_owned();
                healed.calls.push((id, name, String::new()));
            }
            healed.calls[index].2 += call["function"]["arguments"].as_str().unwrap();
        }
        healed.finish_reason = choice["finish_reason"].as_str().map(str::to_owned);
    }
    healed
}

fn heal(name: &str, args: &[&str]) -> Healed {
    let output = Command::new(env!("CARGO_BIN_EXE_inband"))
        .arg("heal")
        .arg(stream(name))
        .args(["--seed", "1"])
        .args(args)
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let whole = accumulate(&String::from_utf8(output.stdout).unwrap());
    assert_eq!(piped(name, args), whole, "{name} piped line by line");
    whole
}

/// The same through standard input, one line written at a time, each answered before the
/// next is written when it produces output (the command streams as it reads).
fn piped(name: &str, args: &[&str]) -> Healed {
    let mut child = Command::new(env!("CARGO_BIN_EXE_inband"))
        .arg("heal")
        .args(["--seed", "1"])
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let text = std::fs::read_to_string(stream(name)).unwrap();
    for line in text.split_inclusive('\n') {
        // A closed pipe means the command ended the turn early (abort on fabrication).
        if stdin
            .write_all(line.as_bytes())
            .and_then(|()| stdin.flush())
            .is_err()
        {
            break;
        }
    }
    drop(stdin);
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success());
    accumulate(&String::from_utf8(output.stdout).unwrap())
}

fn call(id_prefix: &str, name: &str, arguments: &str, got: &(String, String, String)) {
    assert!(got.0.starts_with(id_prefix), "{got:?}");
    assert_eq!((got.1.as_str(), got.2.as_str()), (name, arguments));
}

const OR: &[&str] = &["--provider", "openrouter"];

#[test]
fn kimi_leaked_section_becomes_a_call() {
    let healed = heal("openrouter-kimi-k2-leaked-call.sse", OR);
    assert_eq!(healed.content, "I'll read it. ");
    assert_eq!(healed.calls.len(), 1);
    call(
        "call_",
        "read",
        r#"{"path": "src/index.ts"}"#,
        &healed.calls[0],
    );
    assert_eq!(healed.finish_reason.as_deref(), Some("tool_calls"));
    assert_eq!((healed.done, healed.usage), (1, 1));
}

#[test]
fn kimi_section_split_inside_a_token() {
    let healed = heal("openrouter-kimi-k2-split-token.sse", OR);
    assert_eq!(healed.content, "");
    call("call_", "list_files", r#"{"path": "."}"#, &healed.calls[0]);
}

#[test]
fn kimi_two_calls_get_distinct_ids() {
    let healed = heal("openrouter-kimi-k2-two-calls.sse", OR);
    call("call_", "read", r#"{"path": "a.ts"}"#, &healed.calls[0]);
    call("call_", "read", r#"{"path": "b.ts"}"#, &healed.calls[1]);
    assert_ne!(healed.calls[0].0, healed.calls[1].0);
}

#[test]
fn kimi_arguments_split_over_many_chunks() {
    let healed = heal("openrouter-kimi-k2-split-arguments.sse", OR);
    call(
        "call_",
        "read",
        r#"{"path": "src/main.rs", "limit": 40}"#,
        &healed.calls[0],
    );
}

#[test]
fn prose_and_unknown_tokens_are_unchanged() {
    let healed = heal("openrouter-kimi-k2-prose.sse", OR);
    assert_eq!(healed.content, "Plain prose, before <|hello|> after.");
    assert_eq!(
        (healed.calls.len(), healed.finish_reason.as_deref()),
        (0, Some("stop"))
    );
    let literal = heal("ollama-qwen-literal-token.sse", &["--provider", "ollama"]);
    assert_eq!(literal.content, "Inline `<｜literal｜>` token in prose.");
}

#[test]
fn content_filter_is_kept_even_with_healed_calls() {
    let healed = heal("openrouter-kimi-k2-content-filter.sse", OR);
    assert_eq!(healed.calls.len(), 1);
    assert_eq!(healed.finish_reason.as_deref(), Some("content_filter"));
}

#[test]
fn structured_calls_win_in_their_chunk() {
    let healed = heal("openrouter-kimi-k2-structured-wins.sse", OR);
    assert_eq!(healed.calls.len(), 1);
    call(
        "functions.read:0",
        "read",
        r#"{"path": "structured.ts"}"#,
        &healed.calls[0],
    );
    let both = heal("openrouter-kimi-k2-structured-then-healed.sse", OR);
    call(
        "functions.read:0",
        "read",
        r#"{"path": "a.ts"}"#,
        &both.calls[0],
    );
    call("call_", "read", r#"{"path": "b.ts"}"#, &both.calls[1]);
}

#[test]
fn leaked_reasoning_beside_structured_calls() {
    let healed = heal("openrouter-kimi-k2-think-and-structured.sse", OR);
    assert_eq!(
        (healed.reasoning.as_str(), healed.content.as_str()),
        ("plan", "")
    );
    call(
        "functions.read:0",
        "read",
        r#"{"path": "a.ts"}"#,
        &healed.calls[0],
    );
}

#[test]
fn deepseek_dsml_on_ollama() {
    let healed = heal(
        "ollama-deepseek-v4-dsml.sse",
        &["--provider", "ollama-cloud"],
    );
    assert_eq!(healed.content, "Let me list it.\n");
    call(
        "call_",
        "bash",
        r#"{"command":"ls -la src","timeout":15}"#,
        &healed.calls[0],
    );
    assert_eq!(healed.finish_reason.as_deref(), Some("tool_calls"));
    // Not a provider that leaks DSML: untouched.
    let raw = heal("ollama-deepseek-v4-dsml.sse", &["--provider", "openai"]);
    assert!(raw.content.contains("<｜DSML｜invoke name=\"bash\">"));
    assert_eq!(raw.calls.len(), 0);
}

#[test]
fn minimax_think_and_gemini_fences_become_reasoning() {
    let minimax = heal(
        "opencode-zen-minimax-think.sse",
        &["--provider", "opencode-zen"],
    );
    assert_eq!(minimax.reasoning, "The user wants a haiku.");
    assert_eq!(minimax.content, "Autumn moonlight—");
    let gemini = heal("openrouter-gemini-thinking-fence.sse", OR);
    assert_eq!(
        (gemini.reasoning.as_str(), gemini.content.as_str()),
        ("weigh options\n", "Sure.Done.")
    );
}

#[test]
fn native_reasoning_and_parallel_calls_pass_through() {
    let deepseek = heal(
        "deepseek-reasoning-native-call.sse",
        &["--provider", "deepseek"],
    );
    assert_eq!(deepseek.reasoning, "The user asks for the weather.");
    call(
        "call_00_abc123",
        "get_weather",
        r#"{"city": "Paris"}"#,
        &deepseek.calls[0],
    );
    let nano = heal(
        "nanogpt-deepseek-parallel-reads.sse",
        &["--provider", "nanogpt"],
    );
    call("call_r0", "read", r#"{"path":"a.ts"}"#, &nano.calls[0]);
    call("call_r1", "read", r#"{"path":"b.ts"}"#, &nano.calls[1]);
}

#[test]
fn in_band_fabrication_abort_or_drain() {
    // §5.4 over SGLang's stream: the same output both ways, nothing of the made-up result.
    let args = ["--dialect", "glm"];
    let drained = heal("sglang-glm-fabricated-result.sse", &args);
    let aborted = heal(
        "sglang-glm-fabricated-result.sse",
        &["--dialect", "glm", "--abort-on-fabrication"],
    );
    assert_eq!(drained, aborted);
    assert_eq!(drained.content, "\n");
    call("call_", "echo", r#"{"msg":"hi"}"#, &drained.calls[0]);
    assert_eq!(drained.finish_reason.as_deref(), Some("tool_calls"));
}

#[test]
fn a_truncated_call_is_not_a_tool_call_turn() {
    // §6.3 B1: max_tokens cut the call; the turn ends with `length`, not `tool_calls`.
    let healed = heal(
        "vllm-glm-truncated-call.sse",
        &["--dialect", "auto", "--model", "glm-4.6"],
    );
    assert_eq!(healed.content, "hi ");
    assert_eq!(healed.finish_reason.as_deref(), Some("length"));
}

#[test]
fn abort_stops_reading_at_once() {
    // With --abort-on-fabrication the command ends the turn without waiting for the rest
    // of the stream (stdin stays open here).
    let mut child = Command::new(env!("CARGO_BIN_EXE_inband"))
        .args([
            "heal",
            "--dialect",
            "glm",
            "--abort-on-fabrication",
            "--seed",
            "1",
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let chunk = |content: &str| {
        format!(
            "data: {}\n\n",
            serde_json::json!({"choices": [{"index": 0, "delta": {"content": content}}]})
        )
    };
    stdin
        .write_all(chunk("<tool_call>echo\n</tool_call>").as_bytes())
        .unwrap();
    stdin
        .write_all(chunk("<tool_response>made up").as_bytes())
        .unwrap();
    stdin.flush().unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let mut seen = Vec::new();
    for line in lines.by_ref() {
        let line = line.unwrap();
        if line == "data: [DONE]" {
            break;
        }
        seen.push(line);
    }
    assert!(
        seen.iter()
            .any(|l| l.contains(r#""finish_reason":"tool_calls""#)),
        "{seen:?}"
    );
    assert!(child.wait().unwrap().success());
    drop(stdin);
}

#[test]
fn one_chunk_per_line_and_no_done_line() {
    let input = concat!(
        r#"{"id":"x","model":"m","choices":[{"index":0,"delta":{"content":"a <think>b"}}]}"#,
        "\n",
        r#"{"id":"x","model":"m","choices":[{"index":0,"delta":{"content":"</think>c"}}]}"#,
        "\n",
    );
    let mut child = Command::new(env!("CARGO_BIN_EXE_inband"))
        .arg("heal")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let output = child.wait_with_output().unwrap();
    let text = String::from_utf8(output.stdout).unwrap();
    assert_eq!(
        text,
        concat!(
            r#"{"id":"x","object":"chat.completion.chunk","model":"m","choices":[{"index":0,"delta":{"content":"a ","reasoning_content":"b"},"finish_reason":null}]}"#,
            "\n",
            r#"{"id":"x","object":"chat.completion.chunk","model":"m","choices":[{"index":0,"delta":{"content":"c"},"finish_reason":null}]}"#,
            "\n",
            r#"{"id":"x","object":"chat.completion.chunk","model":"m","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}"#,
            "\n",
        )
    );
}

#[test]
fn bad_input_is_a_clear_error() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_inband"))
        .arg("heal")
        .stdin(Stdio::piped())
        .stderr(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"data: {not json\n")
        .unwrap();
    let output = child.wait_with_output().unwrap();
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(
        String::from_utf8(output.stderr).unwrap(),
        "inband: standard input line 1: not a JSON chunk: key must be a string at line 1 column 2\n"
    );
    let unknown = Command::new(env!("CARGO_BIN_EXE_inband"))
        .args(["heal", "--dialect", "nope"])
        .output()
        .unwrap();
    assert_eq!(
        String::from_utf8(unknown.stderr).unwrap(),
        "inband: unknown --dialect `nope` (native, auto or a dialect name)\n"
    );
}

#[test]
fn the_readme_example_is_what_the_command_prints() {
    let readme =
        std::fs::read_to_string(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../README.md"))
            .unwrap();
    let command = "$ inband heal tests/data/streams/openrouter-kimi-k2-leaked-call.sse --provider openrouter --seed 1\n";
    let start = readme.find(command).unwrap() + command.len();
    let shown = &readme[start..start + readme[start..].find("```").unwrap()];
    let output = Command::new(env!("CARGO_BIN_EXE_inband"))
        .current_dir(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(".."))
        .args([
            "heal",
            "tests/data/streams/openrouter-kimi-k2-leaked-call.sse",
            "--provider",
            "openrouter",
            "--seed",
            "1",
        ])
        .output()
        .unwrap();
    // The block ends at the last line; the output's last event ends with a blank line.
    assert_eq!(
        format!("{shown}\n"),
        String::from_utf8(output.stdout).unwrap()
    );
}

#[test]
fn native_calls_without_an_index_stay_two_calls() {
    // Review fault: both calls sat at position 0 of their chunk; the second's arguments
    // were appended to the first call and the second call was lost.
    let healed = heal("openai-compatible-calls-without-index.sse", &[]);
    assert_eq!(
        healed.calls,
        vec![
            (
                "call_a".to_owned(),
                "read".to_owned(),
                r#"{"p":1}"#.to_owned()
            ),
            ("call_b".to_owned(), "list".to_owned(), "{}".to_owned()),
        ]
    );
    assert_eq!(healed.finish_reason.as_deref(), Some("tool_calls"));
}

#[test]
fn an_empty_data_line_is_no_chunk() {
    // Review fault: an empty `data:` failed the command mid-stream, with no final chunk.
    let healed = heal("openai-compatible-empty-data.sse", &[]);
    assert_eq!(healed.content, "hi there");
    assert_eq!(healed.finish_reason.as_deref(), Some("stop"));
    assert_eq!(healed.done, 1);
}

#[test]
fn explicit_reasoning_is_not_duplicated_by_a_leaked_think() {
    // docs/seed.md §5.12 provider-level: explicit `reasoning_content` not duplicated by leaked
    // `<think>` (review: the reasoning came out twice, `plan the replyplan the reply`).
    let healed = heal("openrouter-kimi-k2-explicit-reasoning.sse", OR);
    assert_eq!(healed.reasoning, "plan the reply");
    assert_eq!(healed.content, "Done.");
    assert_eq!(healed.finish_reason.as_deref(), Some("stop"));
}

#[test]
fn another_choice_passes_through_and_does_not_end_the_turn() {
    // Review fault: choice 1's `B` was merged into the message and its `stop` ended the
    // turn, so choice 0's `C` was lost.
    let output = Command::new(env!("CARGO_BIN_EXE_inband"))
        .arg("heal")
        .arg(stream("openai-compatible-two-choices.sse"))
        .output()
        .unwrap();
    assert!(output.status.success());
    let chunks: Vec<Value> = String::from_utf8(output.stdout)
        .unwrap()
        .lines()
        .filter_map(|l| l.strip_prefix("data: "))
        .filter(|d| *d != "[DONE]")
        .map(|d| serde_json::from_str(d).unwrap())
        .collect();
    let of = |index: u64| -> (String, Vec<String>) {
        let mine = chunks
            .iter()
            .map(|c| &c["choices"][0])
            .filter(|c| c["index"] == index);
        let text = mine
            .clone()
            .filter_map(|c| c["delta"]["content"].as_str())
            .collect();
        let reasons = mine
            .filter_map(|c| c["finish_reason"].as_str().map(str::to_owned))
            .collect();
        (text, reasons)
    };
    assert_eq!(of(0), ("AC".to_owned(), vec!["stop".to_owned()]));
    assert_eq!(of(1), ("B".to_owned(), vec!["stop".to_owned()]));
}

#[test]
fn the_official_openai_endpoint_keeps_a_thinking_fence() {
    // docs/seed.md §5.12: the same Gemini fence stream, served by provider `openai`, is unchanged.
    let healed = heal(
        "openrouter-gemini-thinking-fence.sse",
        &["--provider", "openai"],
    );
    assert_eq!(healed.content, "Sure.```thinking\nweigh options\n```Done.");
    assert_eq!(healed.reasoning, "");
    let lifted = heal("openrouter-gemini-thinking-fence.sse", OR);
    assert_eq!(
        (lifted.content.as_str(), lifted.reasoning.as_str()),
        ("Sure.Done.", "weigh options\n")
    );
}
