//! The transcripts of the gemma family (Gemma 4, FunctionGemma): the same layout, results
//! inside the model turn, with each template's turn tokens.

use super::super::error::RenderError;
use super::super::Renderer;
use super::{body, Turn};

/// A gemma-family template's turn tokens and the role its system text takes.
pub(super) struct GemmaTurns {
    open: &'static str,
    close: &'static str,
    system: &'static str,
}

/// Gemma 4: `<|turn>ROLE\n…<turn|>`.
pub(super) static GEMMA4_TURNS: GemmaTurns = GemmaTurns {
    open: "<|turn>",
    close: "<turn|>",
    system: "system",
};

/// FunctionGemma: Gemma 3's `<start_of_turn>ROLE\n…<end_of_turn>`, the system text (where
/// the tool declarations go) a `developer` turn.
pub(super) static FUNCTIONGEMMA_TURNS: GemmaTurns = GemmaTurns {
    open: "<start_of_turn>",
    close: "<end_of_turn>",
    system: "developer",
};

/// Gemma-family turns, results inside the model turn.
pub(super) fn gemma(
    renderer: &Renderer<'_>,
    turns: &[Turn<'_>],
    out: &mut String,
    tokens: &GemmaTurns,
) -> Result<(), RenderError> {
    out.push_str("<bos>");
    let mut i = 0;
    while i < turns.len() {
        let (role, mut text) = match &turns[i] {
            Turn::System(text) | Turn::Developer(text) => (tokens.system, text.to_string()),
            Turn::User(text) => ("user", text.to_string()),
            Turn::Assistant(turn) => ("model", body(renderer, turn, "")?),
            Turn::Results(run) => ("model", renderer.results(run)?),
        };
        // The results of a model turn's calls go inside that turn (docs/dialects.md §gemma).
        if let (Turn::Assistant(_), Some(Turn::Results(run))) = (&turns[i], turns.get(i + 1)) {
            text.push_str(&renderer.results(run)?);
            i += 1;
        }
        out.push_str(&format!("{}{role}\n{text}{}\n", tokens.open, tokens.close));
        i += 1;
    }
    Ok(())
}
