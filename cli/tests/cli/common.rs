//! Helpers shared by the CLI tests: running the binary, the bundled transcripts, reading
//! `--format openai` output and checking one-line errors.

use std::path::PathBuf;
use std::process::{Command, Output};

use serde_json::Value;

pub fn data(path: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/data")
        .join(path)
}

pub fn inband(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_inband"))
        .args(args)
        .output()
        .expect("the inband binary runs")
}

pub fn stdout(output: &Output) -> String {
    assert!(
        output.status.success(),
        "inband failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout.clone()).unwrap()
}

pub const TRANSCRIPTS: &[(&str, &str)] = &[
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
    ("transcripts/jamba-reasoning-search.txt", "jamba"),
    ("transcripts/jamba-weather-two-cities.txt", "jamba"),
    ("transcripts/jamba-write-file.txt", "jamba"),
    ("transcripts/longcat-code-edit.txt", "longcat"),
    ("transcripts/longcat-thinking-search.txt", "longcat"),
    ("transcripts/longcat-weather-two-cities.txt", "longcat"),
    ("transcripts/seed-oss-read-and-grep.txt", "seed-oss"),
    ("transcripts/seed-oss-weather-with-budget.txt", "seed-oss"),
    ("transcripts/seed-oss-write-multiline.txt", "seed-oss"),
    ("transcripts/granite-search-and-write.txt", "granite"),
    ("transcripts/granite-thinking-stock.txt", "granite"),
    ("transcripts/granite-weather-two-cities.txt", "granite"),
    ("transcripts/internlm-search-and-read.txt", "internlm"),
    ("transcripts/internlm-think-and-write.txt", "internlm"),
    ("transcripts/internlm-weather.txt", "internlm"),
    (
        "transcripts/mistral-magistral-read-and-write.txt",
        "mistral",
    ),
    ("transcripts/mistral-nemo-weather-two-cities.txt", "mistral"),
    ("transcripts/mistral-small-search-with-id.txt", "mistral"),
    ("transcripts/pythonic-llama4-weather.txt", "pythonic"),
    ("transcripts/pythonic-olmo3-think-and-read.txt", "pythonic"),
    ("transcripts/lfm2-forecast.txt", "lfm2"),
    ("transcripts/lfm2-think-and-search.txt", "lfm2"),
    ("transcripts/llama3-json-llama31-weather.txt", "llama3-json"),
    (
        "transcripts/llama3-json-llama33-flights-and-hotel.txt",
        "llama3-json",
    ),
    (
        "transcripts/llama3-json-llama4-prose-then-search.txt",
        "llama3-json",
    ),
    ("transcripts/xlam-2-weather-and-time.txt", "xlam"),
    ("transcripts/xlam-2-qwen-think-then-distance.txt", "xlam"),
    ("transcripts/xlam-1-tool-calls-search.txt", "xlam"),
    ("transcripts/phi4-mini-weather.txt", "phi4-mini"),
    ("transcripts/phi4-mini-rates-and-convert.txt", "phi4-mini"),
    ("transcripts/phi4-mini-reasoning-search.txt", "phi4-mini"),
    ("transcripts/hunyuan-a13b-weather.txt", "hunyuan-a13b"),
    (
        "transcripts/hunyuan-a13b-fast-two-calls.txt",
        "hunyuan-a13b",
    ),
    ("transcripts/hunyuan-a13b-book-meeting.txt", "hunyuan-a13b"),
    ("transcripts/hunyuan-hy3-weather-two-cities.txt", "hunyuan"),
    ("transcripts/hunyuan-hy3-think-and-edit.txt", "hunyuan"),
    ("transcripts/hunyuan-hy4-search.txt", "hunyuan"),
    ("transcripts/iquest-q1-think-and-add.txt", "iquest-q1"),
    ("transcripts/iquest-q1-read-and-list.txt", "iquest-q1"),
    ("transcripts/iquest-q1-write-multiline.txt", "iquest-q1"),
    ("transcripts/k2-horizon-think-and-shell.txt", "k2-horizon"),
    ("transcripts/k2-horizon-python.txt", "k2-horizon"),
    ("transcripts/k2-horizon-fast-edit.txt", "k2-horizon"),
    ("transcripts/cohere-weather.txt", "cohere"),
    ("transcripts/cohere-search-three-calls.txt", "cohere"),
    ("transcripts/cohere-text-then-write.txt", "cohere"),
    ("transcripts/apertus-weather.txt", "apertus"),
    ("transcripts/apertus-two-calls.txt", "apertus"),
    ("transcripts/apertus-answer-then-write.txt", "apertus"),
    (
        "transcripts/deepseek-v41-think-and-shell.txt",
        "deepseek-v41",
    ),
    ("transcripts/deepseek-v41-python.txt", "deepseek-v41"),
    ("transcripts/deepseek-v41-edit.txt", "deepseek-v41"),
    ("transcripts/dots-think-and-weather.txt", "dots"),
    ("transcripts/dots-read-and-grep.txt", "dots"),
    ("transcripts/dots-write-html.txt", "dots"),
    ("transcripts/ernie45-weather.txt", "ernie45"),
    ("transcripts/ernie45-two-calls.txt", "ernie45"),
    ("transcripts/ernie45-answer-then-write.txt", "ernie45"),
    ("transcripts/granite-20b-fc-weather.txt", "granite-20b-fc"),
    (
        "transcripts/granite-20b-fc-three-calls.txt",
        "granite-20b-fc",
    ),
    (
        "transcripts/granite-20b-fc-text-then-write.txt",
        "granite-20b-fc",
    ),
    (
        "transcripts/functiongemma-parallel-weather.txt",
        "functiongemma",
    ),
    (
        "transcripts/functiongemma-calendar-event.txt",
        "functiongemma",
    ),
    ("transcripts/functiongemma-send-sms.txt", "functiongemma"),
    ("transcripts/minicpm5-think-and-weather.txt", "minicpm5"),
    ("transcripts/minicpm5-read-and-grep.txt", "minicpm5"),
    ("transcripts/minicpm5-write-cdata.txt", "minicpm5"),
    ("transcripts/kimi-k3-think-and-shell.txt", "kimi-k3"),
    ("transcripts/kimi-k3-read-and-grep.txt", "kimi-k3"),
    ("transcripts/kimi-k3-write-html.txt", "kimi-k3"),
    ("transcripts/muse-think-and-weather.txt", "muse"),
    ("transcripts/muse-read-and-grep.txt", "muse"),
    ("transcripts/muse-write-html.txt", "muse"),
    ("transcripts/mimo-think-and-shell.txt", "mimo"),
    ("transcripts/mimo-read-and-grep.txt", "mimo"),
    ("transcripts/mimo-write-patch.txt", "mimo"),
    ("transcripts/step3-think-and-weather.txt", "step3"),
    ("transcripts/step3-read-and-grep.txt", "step3"),
    ("transcripts/step3-run-python.txt", "step3"),
    ("transcripts/gigachat35-think-and-weather.txt", "gigachat35"),
    ("transcripts/gigachat35-read-and-grep.txt", "gigachat35"),
    ("transcripts/gigachat35-write-config.txt", "gigachat35"),
    ("transcripts/gigachat3-weather.txt", "gigachat3"),
    ("transcripts/gigachat3-two-reads.txt", "gigachat3"),
    ("transcripts/gigachat3-write-html.txt", "gigachat3"),
    ("transcripts/plamo3-weather.txt", "plamo3"),
    ("transcripts/plamo3-think-and-read.txt", "plamo3"),
    ("transcripts/minimax-m3-think-and-weather.txt", "minimax-m3"),
    ("transcripts/minimax-m3-read-and-grep.txt", "minimax-m3"),
    ("transcripts/minimax-m3-write-html.txt", "minimax-m3"),
];

/// The `choices[0].delta` objects of `--format openai` output, and the finish reasons.
pub fn openai_deltas(out: &str) -> (Vec<Value>, Vec<String>) {
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

pub fn one_line_error(output: &Output, code: i32, needle: &str) {
    assert_eq!(output.status.code(), Some(code));
    assert!(output.stdout.is_empty());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.starts_with("inband: "), "{stderr}");
    assert!(stderr.contains(needle), "{stderr}");
}
