//! The transcript of the `kimi-k3` dialect (Moonshot Kimi K3): XTML `message` elements
//! around the channels its renderer writes.

use super::super::error::RenderError;
use super::super::Renderer;
use super::Turn;

/// Kimi K3 turns: each an XTML element `<|open|>message role="ROLE"<|sep|>…<|close|>message
/// <|sep|>`, back to back; an assistant's reasoning in the `think` channel, its text in the
/// `response` channel, its calls in the `tools` channel, in that order (the order vLLM's
/// parser states for the channels). The servers' parsers establish the channels and the
/// closing `<|close|>message<|sep|>`; the opening element's attributes and how a tool
/// result comes back were not established from public material: a run of results is one
/// `tool` message of `<tool_response>` blocks (docs/dialects.md §kimi-k3).
pub(super) fn kimi_k3(
    renderer: &Renderer<'_>,
    turns: &[Turn<'_>],
    out: &mut String,
) -> Result<(), RenderError> {
    for turn in turns {
        let (role, body) = match turn {
            Turn::System(text) | Turn::Developer(text) => ("system", text.to_string()),
            Turn::User(text) => ("user", text.to_string()),
            Turn::Assistant(turn) => {
                let mut body = renderer.reasoning(&turn.reasoning)?;
                if !turn.content.is_empty() {
                    body.push_str("<|open|>response<|sep|>");
                    body.push_str(&turn.content);
                    body.push_str("<|close|>response<|sep|>");
                }
                body.push_str(&renderer.calls(&turn.tool_calls)?);
                ("assistant", body)
            }
            Turn::Results(run) => ("tool", renderer.results(run)?),
        };
        out.push_str("<|open|>message role=\"");
        out.push_str(role);
        out.push_str("\"<|sep|>");
        out.push_str(&body);
        out.push_str("<|close|>message<|sep|>");
    }
    Ok(())
}
