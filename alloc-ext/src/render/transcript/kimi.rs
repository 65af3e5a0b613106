//! The transcript of the `kimi` dialect (Kimi K2): its turns, the calls numbered across
//! the conversation and each result headed by its call's id.

use std::collections::HashMap;

use super::super::error::RenderError;
use super::super::json::kimi_id;
use super::super::message::{Assistant, Call};
use super::super::Renderer;
use super::{body, Turn};

/// Kimi K2: calls numbered across the conversation, `functions.NAME:IDX`, and each result
/// headed by the id its call was given (docs/dialects.md §kimi).
pub(super) fn kimi(
    renderer: &Renderer<'_>,
    turns: &[Turn<'_>],
    out: &mut String,
) -> Result<(), RenderError> {
    let mut counter = 0;
    let mut given: HashMap<&str, String> = HashMap::new();
    for turn in turns {
        match turn {
            Turn::System(text) | Turn::Developer(text) => {
                out.push_str(&format!("<|im_system|>system<|im_middle|>{text}<|im_end|>"));
            }
            Turn::User(text) => {
                out.push_str(&format!("<|im_user|>user<|im_middle|>{text}<|im_end|>"))
            }
            Turn::Assistant(turn) => {
                let calls: Vec<Call> = turn
                    .tool_calls
                    .iter()
                    .map(|call| {
                        let id = kimi_id(&call.id, &call.name, counter);
                        counter += 1;
                        if !call.id.is_empty() {
                            given.insert(&call.id, id.clone());
                        }
                        Call {
                            id,
                            name: call.name.clone(),
                            arguments: call.arguments.clone(),
                        }
                    })
                    .collect();
                let numbered = Assistant {
                    content: turn.content.clone(),
                    reasoning: turn.reasoning.clone(),
                    tool_calls: calls,
                };
                out.push_str(&format!(
                    "<|im_assistant|>assistant<|im_middle|>{}<|im_end|>",
                    body(renderer, &numbered, "")?
                ));
            }
            Turn::Results(run) => {
                for (i, result) in run.iter().enumerate() {
                    let id = given.get(result.tool_call_id.as_str()).map(String::as_str);
                    renderer
                        .style
                        .results
                        .write(out, result, i, id)
                        .map_err(|e| e.at(i, &result.name))?;
                }
            }
        }
    }
    Ok(())
}
