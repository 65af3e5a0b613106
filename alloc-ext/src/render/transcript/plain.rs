//! Transcripts whose turns are plain-text role prefixes rather than tokens: LongCat-Flash's
//! rounds (`SYSTEM:`, `[Round N] USER:`, `ASSISTANT:`) and vLLM's template for
//! granite-20b-functioncalling (`SYSTEM:`, `USER:`, `ASSISTANT:`): docs/dialects.md
//! §longcat, §granite-20b-fc.

use super::super::error::RenderError;
use super::super::Renderer;
use super::{body, Turn};

/// LongCat-Flash rounds.
pub(super) fn longcat(
    renderer: &Renderer<'_>,
    turns: &[Turn<'_>],
    out: &mut String,
) -> Result<(), RenderError> {
    // The model card's turns: a space before every part but the first.
    let mut round = 0;
    for turn in turns {
        let space = if out.is_empty() { "" } else { " " };
        let user = |round: &mut usize, text: &str| {
            let part = format!("{space}[Round {round}] USER:{text}");
            *round += 1;
            part
        };
        let part = match turn {
            Turn::System(text) | Turn::Developer(text) => format!("{space}SYSTEM:{text}"),
            Turn::User(text) => user(&mut round, text),
            Turn::Results(run) => user(&mut round, &renderer.results(run)?),
            Turn::Assistant(turn) => {
                format!(
                    "{space}ASSISTANT:{}</longcat_s>",
                    body(renderer, turn, "\n")?
                )
            }
        };
        out.push_str(&part);
    }
    Ok(())
}

/// granite-20b-functioncalling turns, as vLLM's template writes them: `SYSTEM: TEXT` and a
/// line break, then `\nUSER: TEXT`; an assistant turn `\nASSISTANT:` + its calls (each
/// `<function_call> {…}`) + `<|endoftext|>`, or `\nASSISTANT: TEXT <|endoftext|>` for a
/// text answer; each result `<function_response> TEXT` right after the calls' turn.
pub(super) fn granite_20b_fc(
    renderer: &Renderer<'_>,
    turns: &[Turn<'_>],
    out: &mut String,
) -> Result<(), RenderError> {
    for turn in turns {
        let part = match turn {
            Turn::System(text) | Turn::Developer(text) => format!("SYSTEM: {text}\n"),
            Turn::User(text) => format!("\nUSER: {text}"),
            Turn::Results(run) => renderer.results(run)?,
            Turn::Assistant(turn) => {
                let body = body(renderer, turn, "\n")?;
                // The template writes a calls-only turn with no space and no text; a text
                // answer between spaces.
                if body.starts_with("<function_call>") {
                    format!("\nASSISTANT:{body}<|endoftext|>")
                } else {
                    format!("\nASSISTANT: {body} <|endoftext|>")
                }
            }
        };
        out.push_str(&part);
    }
    Ok(())
}
