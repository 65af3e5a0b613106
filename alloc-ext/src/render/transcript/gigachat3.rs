//! The transcripts of the `gigachat3` and `gigachat35` dialects (Sber GigaChat 3 and 3.5):
//! GigaChat's `ROLE<|role_sep|>` messages around the calls, results and reasoning each
//! renderer writes.

use super::super::error::RenderError;
use super::super::Renderer;
use super::{body, Turn};

/// GigaChat 3 messages, as llama.cpp's GigaChat V3 grammar reads its template's text:
/// `ROLE<|role_sep|>\nTEXT<|message_sep|>\n\n` each, the roles `developer system`,
/// `system`, `user` and `assistant`; an assistant turn's calls are `function call`
/// messages after its own (written even when its text is empty), each result a
/// `function result` message (the renderer's results). Not established: a BOS before the
/// first message, and where reasoning goes (written at the start of the assistant's text,
/// docs/dialects.md §gigachat3).
pub(super) fn gigachat3(
    renderer: &Renderer<'_>,
    turns: &[Turn<'_>],
    out: &mut String,
) -> Result<(), RenderError> {
    for turn in turns {
        match turn {
            Turn::System(text) => message(out, "system", text),
            Turn::Developer(text) => message(out, "developer system", text),
            Turn::User(text) => message(out, "user", text),
            Turn::Assistant(turn) => {
                let mut text = renderer.reasoning(&turn.reasoning)?;
                if !text.is_empty() && !turn.content.is_empty() {
                    text.push('\n');
                }
                text.push_str(&turn.content);
                message(out, "assistant", &text);
                if !turn.tool_calls.is_empty() {
                    out.push_str(&renderer.calls(&turn.tool_calls)?);
                    out.push_str("<|message_sep|>\n\n");
                }
            }
            Turn::Results(run) => out.push_str(&renderer.results(run)?),
        }
    }
    Ok(())
}

/// One message: its role, the separator, its text, the end of the message.
fn message(out: &mut String, role: &str, text: &str) {
    out.push_str(role);
    out.push_str("<|role_sep|>\n");
    out.push_str(text);
    out.push_str("<|message_sep|>\n\n");
}

/// GigaChat 3.5 turns: GigaChat 3's messages, the roles `system`, `user` and `assistant`,
/// the calls (GCML markup) inside the assistant's message, each result a `function result`
/// message of its own. GigaChat 3.5's own template was not established from public
/// material, so these are the closest (docs/dialects.md §gigachat35).
pub(super) fn gigachat35(
    renderer: &Renderer<'_>,
    turns: &[Turn<'_>],
    out: &mut String,
) -> Result<(), RenderError> {
    for turn in turns {
        match turn {
            Turn::System(text) | Turn::Developer(text) => message(out, "system", text),
            Turn::User(text) => message(out, "user", text),
            Turn::Assistant(turn) => message(out, "assistant", &body(renderer, turn, "\n")?),
            Turn::Results(run) => out.push_str(&renderer.results(run)?),
        }
    }
    Ok(())
}
