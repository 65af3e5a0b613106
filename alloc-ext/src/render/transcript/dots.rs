//! The transcript of the `dots` dialect (rednote dots.llm1 / dots.vlm1): the dots1 chat
//! template's turns around the calls, results and reasoning its renderer writes.

use super::super::error::RenderError;
use super::super::Renderer;
use super::{body, Turn};

/// dots1 turns: each role's own opening and closing tokens, back to back (the dots1 chat
/// template as llama.cpp writes it: `<|system|>…<|endofsystem|>`,
/// `<|userprompt|>…<|endofuserprompt|>`, `<|response|>…<|endofresponse|>`). How the
/// template lays out a tool result was not established from public material: a run of
/// results is a user turn of `<tool_response>` blocks, the shape the dialect reads as a
/// fabricated result (docs/dialects.md §dots).
pub(super) fn dots(
    renderer: &Renderer<'_>,
    turns: &[Turn<'_>],
    out: &mut String,
) -> Result<(), RenderError> {
    for turn in turns {
        let (open, body, close) = match turn {
            Turn::System(text) | Turn::Developer(text) => {
                ("<|system|>", text.to_string(), "<|endofsystem|>")
            }
            Turn::User(text) => ("<|userprompt|>", text.to_string(), "<|endofuserprompt|>"),
            Turn::Assistant(turn) => (
                "<|response|>",
                body(renderer, turn, "\n")?,
                "<|endofresponse|>",
            ),
            Turn::Results(run) => (
                "<|userprompt|>",
                renderer.results(run)?,
                "<|endofuserprompt|>",
            ),
        };
        out.push_str(open);
        out.push_str(&body);
        out.push_str(close);
    }
    Ok(())
}
