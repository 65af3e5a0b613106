//! The transcript of the `step3` dialect (StepFun Step-3): the Step-3 chat template's
//! turns around the calls, results and reasoning its renderer writes.

use super::super::error::RenderError;
use super::super::Renderer;
use super::{body, Turn};

/// Step-3 turns, as the stepfun-ai/step3 chat template writes them: the system text as
/// written (the template puts it right after the start, before its tool-use
/// instructions), then `<|BOT|>ROLE\nBODY<|EOT|>` turns back to back; each result a
/// `tool_response` turn of its own (the role is the template's; what else the template
/// writes around a result was not established from public material, docs/dialects.md
/// §step3).
pub(super) fn step3(
    renderer: &Renderer<'_>,
    turns: &[Turn<'_>],
    out: &mut String,
) -> Result<(), RenderError> {
    for turn in turns {
        match turn {
            Turn::System(text) | Turn::Developer(text) => out.push_str(text),
            Turn::User(text) => out.push_str(&format!("<|BOT|>user\n{text}<|EOT|>")),
            Turn::Assistant(turn) => {
                let body = body(renderer, turn, "\n")?;
                out.push_str(&format!("<|BOT|>assistant\n{body}<|EOT|>"));
            }
            Turn::Results(run) => out.push_str(&renderer.results(run)?),
        }
    }
    Ok(())
}
