//! The transcripts of the key/value family (glm, hunyuan, iquest-q1, k2-horizon): each
//! dialect's turns around the calls, results and reasoning its renderer writes.

use super::super::error::RenderError;
use super::super::Renderer;
use super::{body, Turn};

/// GLM turns.
pub(super) fn glm(
    renderer: &Renderer<'_>,
    turns: &[Turn<'_>],
    out: &mut String,
) -> Result<(), RenderError> {
    out.push_str("[gMASK]<sop>");
    for turn in turns {
        let (role, body) = match turn {
            Turn::System(text) | Turn::Developer(text) => ("system", text.to_string()),
            Turn::User(text) => ("user", text.to_string()),
            // The template puts each part of the turn on a line of its own, the
            // reasoning block after an empty line (docs/seed.md §5.6 item 3).
            Turn::Assistant(turn) => {
                let lead = if turn.reasoning.is_empty() { "" } else { "\n" };
                (
                    "assistant",
                    format!("{lead}{}", body(renderer, turn, "\n")?),
                )
            }
            Turn::Results(run) => ("observation", renderer.results(run)?),
        };
        out.push_str(&format!("<|{role}|>\n{body}"));
    }
    Ok(())
}

/// Hunyuan turns: the begin-of-sentence token and the system text first, then user and
/// assistant turns, each assistant turn ended by the end-of-sentence token.
pub(super) fn hunyuan(
    renderer: &Renderer<'_>,
    turns: &[Turn<'_>],
    out: &mut String,
) -> Result<(), RenderError> {
    out.push_str("<｜hy_begin_of_sentence:opensource｜>");
    for turn in turns {
        match turn {
            Turn::System(text) | Turn::Developer(text) => out.push_str(text),
            Turn::User(text) => {
                out.push_str("<｜hy_User:opensource｜>");
                out.push_str(text);
            }
            Turn::Assistant(turn) => {
                out.push_str("<｜hy_Assistant:opensource｜>");
                out.push_str(&body(renderer, turn, "\n")?);
                out.push_str("<｜hy_eos:opensource｜>");
            }
            Turn::Results(run) => {
                out.push_str("<｜hy_User:opensource｜>");
                out.push_str(&renderer.results(run)?);
            }
        }
    }
    Ok(())
}

/// IQuest Q1 turns, each ended by `<|iquest_end|>`.
pub(super) fn iquest(
    renderer: &Renderer<'_>,
    turns: &[Turn<'_>],
    out: &mut String,
) -> Result<(), RenderError> {
    for turn in turns {
        let (role, body) = match turn {
            Turn::System(text) => ("system", text.to_string()),
            Turn::Developer(text) => ("developer", text.to_string()),
            Turn::User(text) => ("user", text.to_string()),
            Turn::Assistant(turn) => ("assistant", body(renderer, turn, "")?),
            Turn::Results(run) => ("user", renderer.results(run)?),
        };
        out.push_str(&format!("<|iquest_{role}|>{body}<|iquest_end|>"));
    }
    Ok(())
}

/// K2 Horizon (IFM) turns: the begin-of-text token, then ChatML turns with `ifm|` tokens;
/// each result is a `tool` turn of its own, written by the result form.
pub(super) fn ifm(
    renderer: &Renderer<'_>,
    turns: &[Turn<'_>],
    out: &mut String,
) -> Result<(), RenderError> {
    out.push_str("<|ifm|begin_of_text|>");
    for turn in turns {
        let (role, body) = match turn {
            Turn::System(text) | Turn::Developer(text) => ("system", text.to_string()),
            Turn::User(text) => ("user", text.to_string()),
            Turn::Assistant(turn) => ("assistant", body(renderer, turn, "")?),
            Turn::Results(run) => {
                out.push_str(&renderer.results(run)?);
                continue;
            }
        };
        out.push_str(&format!("<|ifm|im_start|>{role}\n{body}<|ifm|im_end|>"));
    }
    Ok(())
}
