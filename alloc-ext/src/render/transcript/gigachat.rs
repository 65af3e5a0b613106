//! The transcript of the `gigachat35` dialect (Sber GigaChat 3.5): GigaChat's turns around
//! the calls, results and reasoning its renderer writes.

use super::super::error::RenderError;
use super::super::Renderer;
use super::{body, Turn};

/// GigaChat turns, `ROLE<|role_sep|>\nBODY<|message_sep|>\n\n` back to back, the roles
/// `system`, `user` and `assistant`; each result a `function result` turn of its own. These
/// are GigaChat 3's turns (its chat template as servers and llama.cpp's tests write it);
/// GigaChat 3.5's own template was not established from public material, so they are the
/// closest (docs/dialects.md §gigachat35).
pub(super) fn gigachat(
    renderer: &Renderer<'_>,
    turns: &[Turn<'_>],
    out: &mut String,
) -> Result<(), RenderError> {
    for turn in turns {
        let (role, body) = match turn {
            Turn::System(text) | Turn::Developer(text) => ("system", text.to_string()),
            Turn::User(text) => ("user", text.to_string()),
            Turn::Assistant(turn) => ("assistant", body(renderer, turn, "\n")?),
            Turn::Results(run) => {
                out.push_str(&renderer.results(run)?);
                continue;
            }
        };
        out.push_str(&format!("{role}<|role_sep|>\n{body}<|message_sep|>\n\n"));
    }
    Ok(())
}
