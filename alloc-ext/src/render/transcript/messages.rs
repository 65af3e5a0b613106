//! The transcripts of the message dialects, `harmony` (gpt-oss) and `muse` (Muse Spark,
//! Muse Glimmer): their chat templates' messages around the calls, results and reasoning
//! their renderers write.

use super::super::error::RenderError;
use super::super::Renderer;
use super::Turn;

/// Muse messages, back to back: `<|start|>ROLE<|message|>TEXT<|eot|>` for the system,
/// developer and user turns (the template as public renderers reproduce it); the
/// assistant's turn its reasoning as a `to=self` message, its answer as a `to=user`
/// message and each call a message to the tool; each result a `tool` message. An
/// assistant message another message of the turn follows ends with `<|eom|>`, the last
/// one with `<|eot|>` (the template picks the end token by what follows; which one it
/// writes before a tool result was not established: `<|eom|>`, as the model does).
pub(super) fn muse(
    renderer: &Renderer<'_>,
    turns: &[Turn<'_>],
    out: &mut String,
) -> Result<(), RenderError> {
    for turn in turns {
        match turn {
            Turn::System(text) => message(out, "system", text, "<|eot|>"),
            Turn::Developer(text) => message(out, "developer", text, "<|eot|>"),
            Turn::User(text) => message(out, "user", text, "<|eot|>"),
            Turn::Assistant(turn) => {
                out.push_str(&renderer.reasoning(&turn.reasoning)?);
                if !turn.content.is_empty() || turn.tool_calls.is_empty() {
                    let end = if turn.tool_calls.is_empty() {
                        "<|eot|>"
                    } else {
                        "<|eom|>"
                    };
                    message(out, "assistant to=user", &turn.content, end);
                }
                out.push_str(&renderer.calls(&turn.tool_calls)?);
            }
            Turn::Results(run) => out.push_str(&renderer.results(run)?),
        }
    }
    Ok(())
}

fn message(out: &mut String, header: &str, text: &str, end: &str) {
    out.push_str(&format!("<|start|>{header}<|message|>{text}{end}"));
}

/// Harmony messages.
pub(super) fn harmony(
    renderer: &Renderer<'_>,
    turns: &[Turn<'_>],
    out: &mut String,
) -> Result<(), RenderError> {
    for turn in turns {
        match turn {
            Turn::System(text) => harmony_message(out, "system", text),
            Turn::Developer(text) => harmony_message(out, "developer", text),
            Turn::User(text) => harmony_message(out, "user", text),
            Turn::Assistant(turn) => {
                out.push_str(&renderer.reasoning(&turn.reasoning)?);
                if !turn.content.is_empty() || turn.tool_calls.is_empty() {
                    harmony_message(out, "assistant<|channel|>final", &turn.content);
                }
                out.push_str(&renderer.calls(&turn.tool_calls)?);
            }
            Turn::Results(run) => out.push_str(&renderer.results(run)?),
        }
    }
    Ok(())
}

fn harmony_message(out: &mut String, header: &str, text: &str) {
    out.push_str(&format!("<|start|>{header}<|message|>{text}<|end|>"));
}
