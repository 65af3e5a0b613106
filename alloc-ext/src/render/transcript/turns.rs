//! The templates of families whose turns are their own special tokens and whose
//! assistant turns wrap the answer (Hunyuan-A13B's `<answer>`, Cohere's
//! `<|START_RESPONSE|>`) or hold the tool results (Apertus): docs/dialects.md
//! §hunyuan-a13b, §cohere, §apertus.

use super::{body, separate_line, RenderError, Renderer, Turn};

/// Hunyuan-A13B turns, as Tencent's agent guide shows its template's text: the speaker
/// prefixes `用户：` and `助手：` (the latter before a turn without calls) are the
/// template's.
pub(super) fn hunyuan_a13b(
    renderer: &Renderer<'_>,
    turns: &[Turn<'_>],
    out: &mut String,
) -> Result<(), RenderError> {
    out.push_str("<|startoftext|>");
    for turn in turns {
        match turn {
            Turn::System(text) | Turn::Developer(text) => {
                out.push_str(&format!("{text}<|extra_4|>"));
            }
            Turn::User(text) => out.push_str(&format!("用户：{text}<|extra_0|>")),
            Turn::Assistant(turn) if turn.tool_calls.is_empty() && !turn.content.is_empty() => {
                let mut answer = (*turn).clone();
                answer.content = format!("助手：{}", turn.content);
                out.push_str(&format!("{}<|eos|>", body(renderer, &answer, "\n")?));
            }
            Turn::Assistant(turn) => {
                out.push_str(&format!("{}<|eos|>", body(renderer, turn, "\n")?));
            }
            Turn::Results(run) => {
                out.push_str(&format!("{}<|extra_0|>", renderer.results(run)?));
            }
        }
    }
    Ok(())
}

/// Cohere Command R7B / Command A turns, as their chat templates write them: each turn
/// `<|START_OF_TURN_TOKEN|>` + the role's token + body + `<|END_OF_TURN_TOKEN|>`; the
/// assistant's reasoning (the tool plan) first, its text in the response wrapper, then its
/// action block; a run of results one `<|START_TOOL_RESULT|>` block in a system turn.
pub(super) fn cohere(
    renderer: &Renderer<'_>,
    turns: &[Turn<'_>],
    out: &mut String,
) -> Result<(), RenderError> {
    out.push_str("<BOS_TOKEN>");
    for turn in turns {
        let (role, text) = match turn {
            Turn::System(text) | Turn::Developer(text) => ("SYSTEM", text.to_string()),
            Turn::User(text) => ("USER", text.to_string()),
            Turn::Assistant(turn) => {
                let mut answer = (*turn).clone();
                if !turn.content.is_empty() {
                    answer.content = format!("<|START_RESPONSE|>{}<|END_RESPONSE|>", turn.content);
                }
                ("CHATBOT", body(renderer, &answer, "")?)
            }
            Turn::Results(run) => ("SYSTEM", renderer.results(run)?),
        };
        out.push_str(&format!(
            "<|START_OF_TURN_TOKEN|><|{role}_TOKEN|>{text}<|END_OF_TURN_TOKEN|>"
        ));
    }
    Ok(())
}

/// Apertus turns, as its format specification renders them: `<s>`, then each turn
/// `<|ROLE_start|>BODY<|ROLE_end|>` on a line of its own; a run of results is a JSON array
/// on a line of its own inside the assistant turn that made the calls, and the assistant's
/// next message goes on in the same turn.
pub(super) fn apertus(
    renderer: &Renderer<'_>,
    turns: &[Turn<'_>],
    out: &mut String,
) -> Result<(), RenderError> {
    out.push_str("<s>");
    let mut open = false;
    for (i, turn) in turns.iter().enumerate() {
        let next_results = matches!(turns.get(i + 1), Some(Turn::Results(_)));
        let next_answer = matches!(turns.get(i + 1), Some(Turn::Assistant(_)));
        let (role, text) = match turn {
            Turn::System(text) => ("system", text.to_string()),
            Turn::Developer(text) => ("developer", text.to_string()),
            Turn::User(text) => ("user", text.to_string()),
            Turn::Assistant(turn) => {
                if !open {
                    separate(out);
                    out.push_str("<|assistant_start|>");
                }
                out.push_str(&body(renderer, turn, "")?);
                open = next_results;
                if !open {
                    out.push_str("<|assistant_end|>");
                }
                continue;
            }
            Turn::Results(run) => {
                if !open {
                    separate(out);
                    out.push_str("<|assistant_start|>");
                }
                out.push('\n');
                out.push_str(&renderer.results(run)?);
                out.push('\n');
                open = next_answer;
                if !open {
                    out.push_str("<|assistant_end|>");
                }
                continue;
            }
        };
        separate(out);
        out.push_str(&format!("<|{role}_start|>{text}<|{role}_end|>"));
    }
    Ok(())
}

/// A line break before the next Apertus turn, none after the `<s>`.
fn separate(out: &mut String) {
    if out != "<s>" {
        out.push('\n');
    }
}

/// Phi-4-mini turns, one per line, each result a `<|tool|>` turn of its own.
pub(super) fn phi4_mini(
    renderer: &Renderer<'_>,
    turns: &[Turn<'_>],
    out: &mut String,
) -> Result<(), RenderError> {
    for turn in turns {
        let (role, body) = match turn {
            Turn::System(text) | Turn::Developer(text) => ("system", text.to_string()),
            Turn::User(text) => ("user", text.to_string()),
            Turn::Assistant(turn) => ("assistant", body(renderer, turn, "\n")?),
            // Each result is a turn of its own, written by the result form.
            Turn::Results(run) => {
                separate_line(out);
                out.push_str(&renderer.results(run)?);
                continue;
            }
        };
        separate_line(out);
        out.push_str(&format!("<|{role}|>\n{body}<|end|>"));
    }
    Ok(())
}
