//! The caller's calls are read with the decoder's argument rules: a repeated key in a call's
//! arguments (nested, escaped, in OpenAI's string form, in a transcript) is refused rather
//! than read as serde_json's last value, and numbers keep their text.

use inband::Dialect;
use inband_alloc::render::{Call, Message, Renderer};

fn error_of<T: serde::de::DeserializeOwned + std::fmt::Debug>(json: &str) -> String {
    serde_json::from_str::<T>(json).unwrap_err().to_string()
}

#[test]
fn a_repeated_argument_key_is_refused_in_every_form() {
    assert_eq!(
        error_of::<Vec<Call>>(
            r#"[{"name": "rm", "arguments": {"path": "/tmp/safe", "path": "/"}}]"#
        ),
        "the key \"path\" appears twice in an object (JSON readers disagree on which value \
         counts) at line 1 column 63"
    );
    assert_eq!(
        error_of::<Vec<Call>>(
            r#"[{"id": "c1", "function": {"name": "rm", "arguments": "{\"o\": {\"path\": 1, \"p\\u0061th\": 2}}"}}]"#
        ),
        "call \"rm\": arguments are not JSON: the key \"path\" appears twice in an object \
         (JSON readers disagree on which value counts) at line 1 column 33"
    );
    assert_eq!(
        error_of::<Vec<Message>>(
            r#"[{"role": "assistant", "content": "", "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "rm", "arguments": {"a": [{"k": 1, "k": 2}]}}}]}]"#
        ),
        "the key \"k\" appears twice in an object (JSON readers disagree on which value \
         counts) at line 1 column 156"
    );
}

#[test]
fn call_arguments_keep_their_numbers_and_distinct_keys() {
    let json = r#"[{"role": "assistant", "content": "", "tool_calls": [{"id": "c1", "type": "function",
        "function": {"name": "f", "arguments": {"a": 123456789012345678901234567890, "b": [-0, 0.1000000000000000000001, null, true], "c": {"x": "y", "z": {}}}}}]}]"#;
    let messages: Vec<Message> = serde_json::from_str(json).unwrap();
    assert_eq!(
        Renderer::new(Dialect::Qwen3).transcript(&messages).unwrap(),
        "<|im_start|>assistant\n<tool_call>\n{\"name\":\"f\",\"arguments\":{\"a\":123456789012345678901234567890,\"b\":[-0,0.1000000000000000000001,null,true],\"c\":{\"x\":\"y\",\"z\":{}}}}\n</tool_call><|im_end|>\n"
    );
    let calls: Vec<Call> = serde_json::from_str(
        r#"[{"function": {"name": "f", "arguments": "{\"n\": 1e999}"}}, {"name": "g"}, {"name": "h", "arguments": null}]"#,
    )
    .unwrap();
    assert_eq!(calls[0].arguments["n"].to_string(), "1e+999");
    assert!(calls[1].arguments.is_empty() && calls[2].arguments.is_empty());
}
