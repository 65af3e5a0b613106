//! Reasoning demotion (docs/seed.md §4.3): an earlier turn's reasoning that cannot go
//! back to the model as a native reasoning block (another provider, another model) is
//! replayed as ordinary assistant text, in the form the target model reads as reasoning.

use inband::Dialect;

use crate::render::{RenderError, Renderer};
use crate::select;

/// `reasoning` as assistant text for the model `model_id` (its dialect from
/// [`select::for_model`]); `""` when the reasoning is empty or only whitespace. No
/// separator is added after it.
///
/// - `anthropic`: the bare text with its trailing whitespace removed, no tags: Claude's
///   reasoning classifier refuses or leaks when earlier reasoning comes back inside
///   `<thinking>` tags.
/// - `harmony`, `gemma`: `<think>\nTEXT\n</think>`, because their native forms are chat
///   template control tokens (`<|channel|>analysis`, `<|channel>thought`), which must not
///   appear inside a message.
/// - every other dialect: its own reasoning block ([`Renderer::reasoning`]; `minimax`
///   gets `<think>`, the tag its scanner and chat template use, not the seed's
///   `<thinking>`).
///
/// # Errors
/// The text holds the closer of the form it goes in (`</think>` for a `<think>` block),
/// which would end it early ([`RenderError`]).
pub fn demoted_reasoning(model_id: &str, reasoning: &str) -> Result<String, RenderError> {
    if reasoning.trim().is_empty() {
        return Ok(String::new());
    }
    match select::for_model(model_id) {
        Dialect::Anthropic => Ok(reasoning.trim_end().to_owned()),
        // Harmony and Gemma get a `<think>` block, as Qwen3 writes it.
        Dialect::Harmony | Dialect::Gemma => Renderer::new(Dialect::Qwen3).reasoning(reasoning),
        own => Renderer::new(own).reasoning(reasoning),
    }
}
