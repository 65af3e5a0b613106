//! `inband scan --ids FILE --tokenizer tokenizer.json`: token ids decoded with DeepSeek V3's
//! real tokenizer (tests/data/tokenizers/fetch.sh) and scanned in token mode.

use std::path::PathBuf;
use std::process::Command;
use std::sync::OnceLock;

use serde_json::Value;

use crate::common::{data, inband, one_line_error, stdout};

fn tokenizer() -> &'static str {
    static PATH: OnceLock<String> = OnceLock::new();
    PATH.get_or_init(|| {
        let out = Command::new(data("tokenizers/fetch.sh"))
            .output()
            .expect("run tests/data/tokenizers/fetch.sh");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let dir = PathBuf::from(String::from_utf8(out.stdout).unwrap().trim());
        dir.join("deepseek/tokenizer.json").display().to_string()
    })
}

fn scan(file: &str, extra: &[&str]) -> Value {
    let ids = data(file).display().to_string();
    let mut args = vec![
        "scan",
        "--dialect",
        "deepseek",
        "--ids",
        &ids,
        "--tokenizer",
        tokenizer(),
    ];
    args.extend_from_slice(extra);
    serde_json::from_str(&stdout(&inband(&args))).unwrap()
}

#[test]
fn ids_of_call_tokens_are_a_call_at_every_grouping() {
    let expected = serde_json::json!({
        "content": "Let me check.",
        "reasoning": null,
        "tool_calls": [{"id": "call_0", "name": "get_weather", "arguments": {"city": "Paris"}}],
        "incomplete_calls": [],
        "diagnostics": [],
    });
    for chunk in ["1", "2", "3", "7", "100"] {
        let mut summary = scan(
            "tokens/deepseek-call.ids",
            &["--chunk", chunk, "--seed", "1"],
        );
        summary["tool_calls"][0]["id"] = "call_0".into();
        assert_eq!(summary, expected, "--chunk {chunk}");
    }
}

#[test]
fn a_call_spelled_in_ordinary_tokens_is_content() {
    let summary = scan("tokens/deepseek-quoted-call.json", &[]);
    assert_eq!(summary["tool_calls"], serde_json::json!([]));
    assert_eq!(
        summary["content"],
        "The call format is <｜tool▁calls▁begin｜><｜tool▁call▁begin｜>get_weather<｜tool▁sep｜>{\"city\": \"Paris\"}<｜tool▁call▁end｜><｜tool▁calls▁end｜> and ends there."
    );
}

#[test]
fn token_mode_errors_are_one_line() {
    let ids = data("tokens/deepseek-call.ids").display().to_string();
    let kimi = inband(&[
        "scan",
        "--dialect",
        "kimi",
        "--ids",
        &ids,
        "--tokenizer",
        tokenizer(),
    ]);
    one_line_error(
        &kimi,
        1,
        "no token for the kimi delimiter(s) <|tool_call_begin|>",
    );
    let bad = std::env::temp_dir().join(format!("inband-bad-ids-{}", std::process::id()));
    std::fs::write(&bad, "12 x 13\n").unwrap();
    let bad = bad.display().to_string();
    let out = inband(&[
        "scan",
        "--dialect",
        "deepseek",
        "--ids",
        &bad,
        "--tokenizer",
        tokenizer(),
    ]);
    one_line_error(&out, 1, "token 2 is `x`, not an id");
    let both = inband(&[
        "scan",
        "x.txt",
        "--dialect",
        "deepseek",
        "--ids",
        &ids,
        "--tokenizer",
        tokenizer(),
    ]);
    one_line_error(&both, 1, "not both");
    let missing = inband(&["scan", "--dialect", "deepseek", "--ids", &ids]);
    assert_eq!(
        missing.status.code(),
        Some(2),
        "clap: --tokenizer is required"
    );
}

/// A tokenizer whose decoder rewrites an added token (`_` to ` `): the token cannot be
/// placed in the text, so it is ordinary text, and the CLI says so on stderr.
#[test]
fn an_added_token_the_decoder_rewrites_is_text_with_a_warning() {
    let dir = std::env::temp_dir().join(format!("inband-rewrite-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let tokenizer = serde_json::json!({
        "version": "1.0",
        "truncation": null,
        "padding": null,
        "added_tokens": [
            {"id": 0, "content": "<tool_call>", "single_word": false, "lstrip": false,
             "rstrip": false, "normalized": false, "special": false},
        ],
        "normalizer": null,
        "pre_tokenizer": {"type": "Whitespace"},
        "post_processor": null,
        "decoder": {"type": "Replace", "pattern": {"String": "_"}, "content": " "},
        "model": {"type": "WordLevel", "vocab": {"<tool_call>": 0, "hi": 1, "[UNK]": 2},
                  "unk_token": "[UNK]"},
    });
    let path = dir.join("tokenizer.json");
    std::fs::write(&path, tokenizer.to_string()).unwrap();
    let ids = dir.join("ids.txt");
    std::fs::write(&ids, "1\n0\n").unwrap();
    let out = inband(&[
        "scan",
        "--dialect",
        "hermes",
        "--ids",
        &ids.display().to_string(),
        "--tokenizer",
        &path.display().to_string(),
    ]);
    let summary: Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(summary["content"], "hi<tool call>");
    assert_eq!(summary["tool_calls"], serde_json::json!([]));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "inband: warning: token 2 (id 0) decoded as \"<tool call>\", not its added text \
         \"<tool_call>\": read as ordinary text\n"
    );
}
