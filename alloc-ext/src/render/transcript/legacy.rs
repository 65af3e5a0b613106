//! The legacy `Human:` / `Assistant:` transcript (the `xml` dialect's, docs/seed.md §2.4).

use super::super::error::RenderError;
use super::super::Renderer;
use super::{body, Turn};

/// `\n\nHuman:` / `\n\nAssistant:` turns.
pub(super) fn legacy(
    renderer: &Renderer<'_>,
    turns: &[Turn<'_>],
    out: &mut String,
) -> Result<(), RenderError> {
    for turn in turns {
        match turn {
            Turn::System(text) | Turn::Developer(text) => {
                if !out.is_empty() && !text.is_empty() {
                    out.push_str("\n\n");
                }
                out.push_str(text);
            }
            Turn::User(text) => out.push_str(&format!("\n\nHuman: {text}")),
            Turn::Assistant(turn) => {
                out.push_str(&format!("\n\nAssistant: {}", body(renderer, turn, "\n")?));
            }
            Turn::Results(run) => {
                out.push_str(&format!("\n\nHuman: {}", renderer.results(run)?));
            }
        }
    }
    Ok(())
}
