//! Reasoning blocks: envelopes unwrapped (docs/seed.md §1.10) and reasoning the scanner
//! would end or act on refused.

use inband::Dialect;
use inband_alloc::render::{Reason, RenderError, Renderer};

/// docs/seed.md §1.10's unwrapping examples, amended: text that keeps the closer after unwrapping
/// is refused (the scanner would end the block there), not written broken.
#[test]
fn reasoning_unwrapping() {
    let hermes = Renderer::new(Dialect::Hermes);
    assert_eq!(
        hermes
            .reasoning("<think>\n a \n</think>\n<think>b</think>")
            .unwrap(),
        "<think>\na\nb\n</think>"
    );
    assert_eq!(
        hermes.reasoning("<think><think>x</think></think>").unwrap(),
        "<think>\nx\n</think>"
    );
    assert_eq!(hermes.reasoning("").unwrap(), "");
    let error = hermes.reasoning("x <think>a</think>").unwrap_err();
    assert_eq!(error.reason, Reason::CloserInReasoning("</think>"));
    // Qwen3 does not unwrap: the envelope is text, and its closer ends the block.
    assert_eq!(
        Renderer::new(Dialect::Qwen3)
            .reasoning("<think>a</think>")
            .unwrap_err()
            .reason,
        Reason::CloserInReasoning("</think>")
    );
    assert_eq!(
        Renderer::new(Dialect::Gemini)
            .reasoning("a\n```\nb")
            .unwrap_err()
            .reason,
        Reason::CloserInReasoning("```")
    );
    assert_eq!(
        Renderer::new(Dialect::Gemini)
            .reasoning("a\n```rs\nb")
            .unwrap_err()
            .reason,
        Reason::CloserInReasoning("```")
    );
    assert_eq!(
        Renderer::new(Dialect::Gemini)
            .reasoning("a\n```rs\nb\n```\nc")
            .unwrap(),
        "```thinking\na\n```rs\nb\n```\nc\n```"
    );
    assert_eq!(
        Renderer::new(Dialect::Gemma)
            .reasoning("a<channel|>")
            .unwrap_err()
            .reason,
        Reason::CloserInReasoning("<channel|>")
    );
    assert_eq!(
        Renderer::new(Dialect::Harmony)
            .reasoning("a<|end|>")
            .unwrap_err()
            .reason,
        Reason::CloserInReasoning("<|end|>")
    );
}

/// Reasoning holding a delimiter the dialect's scanner acts on inside reasoning (a stop
/// token, a special token it removes as stray, a section opener) is refused, naming it.
#[test]
fn reasoning_with_delimiters_the_scanner_acts_on_is_refused() {
    let cases: &[(Dialect, &str, &str)] = &[
        (Dialect::Hermes, "a <|im_end|> b", "<|im_end|>"),
        (Dialect::Qwen3, "a <|endoftext|> b", "<|endoftext|>"),
        (Dialect::Qwen3Coder, "a <|im_end|> b", "<|im_end|>"),
        (Dialect::SeedOss, "a <seed:eos> b", "<seed:eos>"),
        (Dialect::Mimo, "a <|im_end|> b", "<|im_end|>"),
        (Dialect::Step3, "a <|EOT|> b", "<|EOT|>"),
        (
            Dialect::Gigachat35,
            "a <|message_sep|> b",
            "<|message_sep|>",
        ),
        (Dialect::Longcat, "a </longcat_s> b", "</longcat_s>"),
        (Dialect::Granite, "a <|end_of_text|> b", "<|end_of_text|>"),
        (Dialect::Internlm, "a <|im_end|> b", "<|im_end|>"),
        (Dialect::Mistral, "a [TOOL_CALLS] b", "[TOOL_CALLS]"),
        (Dialect::Pythonic, "a <|im_end|> b", "<|im_end|>"),
        (Dialect::Lfm2, "a <|im_end|> b", "<|im_end|>"),
        (Dialect::Llama3Json, "a <|eot_id|> b", "<|eot_id|>"),
        (Dialect::Xlam, "a <|eot_id|> b", "<|eot_id|>"),
        (Dialect::Phi4Mini, "a <|end|> b", "<|end|>"),
        (Dialect::HunyuanA13b, "a <|eos|> b", "<|eos|>"),
        (
            Dialect::Hunyuan,
            "a <｜hy_Assistant:opensource｜> b",
            "<｜hy_Assistant:opensource｜>",
        ),
        (Dialect::IquestQ1, "a <|iquest_user|> b", "<|iquest_user|>"),
        (
            Dialect::K2Horizon,
            "a <|ifm|im_start|>assistant\n b",
            // The diagnostic names the token without the line break that ends it.
            "<|ifm|im_start|>assistant",
        ),
        (
            Dialect::Cohere,
            "a <|END_OF_TURN_TOKEN|> b",
            "<|END_OF_TURN_TOKEN|>",
        ),
        (
            Dialect::Apertus,
            "a <|assistant_end|> b",
            "<|assistant_end|>",
        ),
        (Dialect::Gigachat3, "a </s> b", "</s>"),
        (
            Dialect::Ernie45,
            "a <|end_of_sentence|> b",
            "<|end_of_sentence|>",
        ),
        (Dialect::Granite20bFc, "a <|endoftext|> b", "<|endoftext|>"),
        (
            Dialect::Kimi,
            "a <|tool_calls_section_begin|> b",
            "<|tool_calls_section_begin|>",
        ),
        (Dialect::Kimi, "a <|tool_call_end|> b", "<|tool_call_end|>"),
        (Dialect::Deepseek, "a <｜tool▁sep｜> b", "<｜tool▁sep｜>"),
        (
            Dialect::Deepseek,
            "a <｜end▁of▁sentence｜> b",
            "<｜end▁of▁sentence｜>",
        ),
        (Dialect::Gemma, "a <|\"|> b", "<|\"|>"),
        (Dialect::Gemma, "a <tool_call|> b", "<tool_call|>"),
        (Dialect::Glm, "a <|assistant|> b", "<|assistant|>"),
        (Dialect::Minimax, "a [e~[ b", "[e~["),
        (
            Dialect::Xml,
            "a <｜end▁of▁sentence｜> b",
            "<｜end▁of▁sentence｜>",
        ),
        (
            Dialect::DeepseekV41,
            "a <｜end▁of▁sentence｜> b",
            "<｜end▁of▁sentence｜>",
        ),
        (
            Dialect::KimiK3,
            "a <|close|>message<|sep|> b",
            "<|close|>message<|sep|>",
        ),
    ];
    for &(dialect, text, delimiter) in cases {
        let error = Renderer::new(dialect).reasoning(text).unwrap_err();
        assert_eq!(
            error,
            RenderError {
                index: 0,
                name: None,
                argument: None,
                reason: Reason::DelimiterInText(delimiter.to_owned()),
            },
            "{dialect}"
        );
    }
    // A tag the scanner reads as reasoning text stays written.
    assert_eq!(
        Renderer::new(Dialect::Hermes)
            .reasoning("use <tool_call> tags")
            .unwrap(),
        "<think>\nuse <tool_call> tags\n</think>"
    );
}
