//! The format guides: every dialect has one, and every example in it reads back as the
//! calls it shows.

use inband::{Dialect, Options};
use inband_alloc::assemble::{assemble, AssembleOptions};
use inband_alloc::prompt::guide;
use serde_json::{json, Value};

#[test]
fn every_dialect_has_a_guide() {
    for &dialect in Dialect::ALL {
        let text = guide(dialect);
        assert!(text.starts_with("## Format guide\n\n"), "{dialect}");
        let rules = text
            .find("\n## Rules\n\n- ")
            .unwrap_or_else(|| panic!("{dialect}"));
        assert!(text[..rules].contains("```text\n"), "{dialect}");
        assert!(
            text[rules..].contains("Never write"),
            "{dialect}: results rule"
        );
        assert!(
            text[rules..].contains("before you stop"),
            "{dialect}: stop rule"
        );
        assert!(
            text[rules..].contains("`cargo clippy`"),
            "{dialect}: stop rule"
        );
        assert!(
            text[rules..].contains("listed in `<tools>`"),
            "{dialect}: names rule"
        );
        assert!(!text.contains("&amp;;"), "{dialect}");
        assert_eq!(text, text.trim(), "{dialect}");
    }
}

/// The fenced `text` blocks of a guide's format section.
fn text_blocks(guide: &str) -> Vec<String> {
    let format = &guide[..guide.find("## Rules").unwrap()];
    let mut blocks = Vec::new();
    let mut rest = format;
    while let Some(at) = rest.find("text\n") {
        let fence_start = rest[..at].rfind('\n').map_or(0, |i| i + 1);
        let fence = &rest[fence_start..at];
        assert!(
            fence.len() >= 3 && fence.bytes().all(|b| b == b'`'),
            "{fence:?}"
        );
        let body_start = at + "text\n".len();
        let close = format!("\n{fence}\n");
        let end = body_start + rest[body_start..].find(&close).unwrap();
        blocks.push(rest[body_start..end].to_owned());
        rest = &rest[end + close.len()..];
    }
    blocks
}

/// The CDATA example of the minicpm5 guide.
fn write_file() -> (String, Value) {
    (
        "write_file".to_owned(),
        json!({"path": "notes.xml", "content": "<param name=\"x\">1</param>"}),
    )
}

/// The calls a guide's example blocks hold, in order: the weather call, and the time
/// call where the guide shows two calls.
fn expected_guide_calls(dialect: &str) -> Vec<(String, Value)> {
    let weather = (
        "get_weather".to_owned(),
        json!({"city": "Paris", "days": 3}),
    );
    let time = ("get_time".to_owned(), json!({"zone": "Europe/Paris"}));
    match dialect {
        "hermes" | "xml" | "anthropic" | "minimax" | "qwen3-coder" | "seed-oss" | "llama3-json"
        | "deepseek-v41" | "dots" | "ernie45" | "granite-20b-fc" | "functiongemma" | "kimi-k3"
        | "muse" | "mimo" | "step3" | "gigachat35" | "minimax-m3" => {
            vec![weather.clone(), weather, time]
        }
        "harmony" => vec![weather.clone(), weather],
        "minicpm5" => vec![weather.clone(), weather, time, write_file()],
        "hunyuan" | "iquest-q1" | "k2-horizon" => {
            vec![weather.clone(), weather.clone(), time, weather]
        }
        "qwen3" | "kimi" | "deepseek" | "gemma" | "gemini" | "glm" | "longcat" | "jamba"
        | "granite" | "internlm" | "mistral" | "pythonic" | "lfm2" | "xlam" | "phi4-mini"
        | "hunyuan-a13b" | "cohere" | "apertus" | "gigachat3" | "plamo3" => {
            vec![weather.clone(), weather.clone(), time, weather]
        }
        other => panic!("no expected calls for the {other} guide"),
    }
}

#[test]
fn every_guide_example_reads_back_as_the_calls_it_shows() {
    for dialect in Dialect::ALL {
        let text = guide(*dialect);
        let mut calls = Vec::new();
        for block in text_blocks(text) {
            for size in [1, 3, block.len()] {
                let completion = assemble(
                    *dialect,
                    Options::default(),
                    &AssembleOptions::seeded(1),
                    block.as_bytes().chunks(size),
                );
                if completion.tool_calls.is_empty() {
                    // A results example: the model must not write it, and the scanner says so.
                    assert!(
                        completion
                            .diagnostics
                            .iter()
                            .any(|d| d.code == "fabricated_result"),
                        "{dialect:?}: {block}\n{completion:?}"
                    );
                    continue;
                }
                assert_eq!(completion.content, "", "{dialect:?}: {block}");
                assert_eq!(completion.diagnostics, vec![], "{dialect:?}: {block}");
                assert!(completion.incomplete_calls.is_empty(), "{dialect:?}");
                if size == block.len() {
                    for call in completion.tool_calls {
                        calls.push((call.name, call.arguments));
                    }
                }
            }
        }
        assert_eq!(calls, expected_guide_calls(dialect.name()), "{dialect:?}");
    }
}
