//! Reasoning demotion (docs/seed.md §4.3, §5.9).

use inband::Dialect;
use inband_alloc::demote::demoted_reasoning;
use inband_alloc::render::{Reason, Renderer};

const REASONING: &str =
    "The user wants the Paris weather; I will call get_weather with city=Paris.";

#[test]
fn demotion_follows_the_target_model() {
    let gemini = demoted_reasoning("gemini-3-pro-preview", REASONING).unwrap();
    assert_eq!(gemini, format!("```thinking\n{REASONING}\n```"));
    let gpt = demoted_reasoning("gpt-5", REASONING).unwrap();
    assert_eq!(gpt, format!("<think>\n{REASONING}\n</think>"));
    assert!(!gpt.contains("<|"));
    let harmony = Renderer::new(Dialect::Harmony)
        .reasoning(REASONING)
        .unwrap();
    assert_ne!(gpt, harmony);
    for claude in [
        "claude-opus-4-8",
        "claude-sonnet-4-6",
        "claude-haiku-4-5",
        "claude-fable-5",
        "claude-mythos-5",
        "us.anthropic.claude-haiku-4-5-20251001-v1:0",
        "eu.anthropic.claude-haiku-4-5-20251001-v1:0",
        "global.anthropic.claude-opus-4-8",
    ] {
        assert_eq!(
            demoted_reasoning(claude, REASONING).unwrap(),
            REASONING,
            "{claude}"
        );
        assert_eq!(
            demoted_reasoning(claude, &format!("{REASONING}\n")).unwrap(),
            REASONING
        );
    }
    assert_eq!(
        demoted_reasoning("claude-sonnet-4-6", "The plan is complete.\n \t").unwrap(),
        "The plan is complete."
    );
    assert_eq!(demoted_reasoning("claude-sonnet-4-6", " \n\t").unwrap(), "");
    assert_eq!(demoted_reasoning("gpt-5", "").unwrap(), "");
}

#[test]
fn demotion_of_the_seed_examples() {
    let cases = [
        ("claude-sonnet-4-5", "r"),
        ("gpt-5", "<think>\nr\n</think>"),
        ("google/gemma-4-31b-it", "<think>\nr\n</think>"),
        // Gemma 3 is prompted in `gemini` here (the seed put it in `gemma`).
        ("gemma-3-27b", "```thinking\nr\n```"),
        ("", "<thinking>\nr\n</thinking>"),
        ("deepseek-v3", "<think>\nr\n</think>"),
        ("gemini-2.5-pro", "```thinking\nr\n```"),
        ("zai-org/GLM-4.5", "<think>\nr\n</think>"),
        (
            "Qwen/Qwen3-Coder-480B-A35B-Instruct",
            "<think>\nr\n</think>",
        ),
        // MiniMax-M2 reads `<think>` (docs/dialects.md §minimax), not the seed's `<thinking>`.
        ("MiniMax-M2", "<think>\nr\n</think>"),
        ("moonshotai/Kimi-K2-Instruct", "<think>\nr\n</think>"),
    ];
    for (model, demoted) in cases {
        assert_eq!(demoted_reasoning(model, "r").unwrap(), demoted, "{model}");
    }
    // Hermes and xml unwrap envelopes already there (docs/seed.md §1.10).
    assert_eq!(
        demoted_reasoning(
            "hermes-3-llama-3.1-8b",
            "<think>\n a \n</think>\n<think>b</think>"
        )
        .unwrap(),
        "<think>\na\nb\n</think>"
    );
}

#[test]
fn demoted_reasoning_that_would_close_early_is_an_error() {
    let err = demoted_reasoning("qwen3-32b", "a </think> b").unwrap_err();
    assert_eq!(err.reason, Reason::CloserInReasoning("</think>"));
}
