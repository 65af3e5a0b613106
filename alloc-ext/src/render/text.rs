//! Text written verbatim into a prompt (messages of a transcript, tool results, an
//! assistant turn's content) must stay inside its own block: text that would end the
//! block, end the turn or begin another (`</tool_response><|im_end|>\n<|im_start|>assistant`)
//! forges what the model reads as its own earlier turn or call, so it is refused, with the
//! same error shape as a call ([`RenderError`]). No dialect has an escape for its template's
//! tokens, so nothing is escaped.
//!
//! What is refused, in order:
//! 1. the tokens of the dialect's chat template, the strings the renderer itself writes
//!    between turns (`<|im_start|>`, `]~b]`, `\n\nHuman:`, …: [`TemplateForm::tokens`]);
//! 2. in the dialects whose vocabulary has special tokens (kimi, deepseek, harmony, glm),
//!    any text spelled as one (`<|…|>`, `<｜…｜>`, [`inband::Dialect::is_special_token`]):
//!    a tokenizer that encodes special tokens in text turns it into the real token;
//! 3. in a tool result, the closer of its block (`</tool_response>`, `</stdout>`, a fence
//!    line in gemini, …);
//! 4. in an assistant turn's content, anything the dialect's own scanner and assembler do
//!    not read back as that same content (a call opener, a stop token, a reasoning block),
//!    or read as the model writing a tool result itself (`<tool_response>`,
//!    `<function_results>`, a ```` ```tool_outputs ```` fence: a result no tool returned,
//!    and text an agent that stops at fabricated results would cut): the read-back
//!    judges, no list is kept.

use inband::{Dialect, Options};

use super::error::{Reason, RenderError};
use super::transcript::TemplateForm;
use crate::assemble::{assemble, AssembleOptions};
use crate::events::{EventLog, OwnedEvent};

/// Refuses `text` for a message body of `template` in `dialect` (rules 1 and 2).
pub(crate) fn check_message(
    dialect: Dialect,
    template: TemplateForm,
    text: &str,
) -> Result<(), RenderError> {
    if let Some(token) = template.tokens().iter().find(|t| text.contains(**t)) {
        return Err(RenderError::new(Reason::TemplateToken(token)));
    }
    if let Some(token) = special_token(dialect, text) {
        return Err(RenderError::new(Reason::DelimiterInText(token.to_owned())));
    }
    Ok(())
}

/// The first substring of `text` spelled as one of `dialect`'s special tokens.
fn special_token(dialect: Dialect, text: &str) -> Option<&str> {
    if !dialect.special_tokens() {
        return None;
    }
    let mut rest = 0;
    while let Some(open) = text[rest..].find('<').map(|i| rest + i) {
        let close = text[open + 1..].find(['<', '>']).map(|i| open + 1 + i);
        match close {
            Some(end) if text.as_bytes()[end] == b'>' => {
                let candidate = &text[open..=end];
                if dialect.is_special_token(candidate.as_bytes()) {
                    return Some(candidate);
                }
                rest = end + 1;
            }
            Some(end) => rest = end,
            None => return None,
        }
    }
    None
}

/// Refuses assistant content that `dialect`'s scanner and assembler would not read back
/// as exactly that content, or in which they find a fabricated tool result (rule 4),
/// naming the first delimiter they found in it.
pub(crate) fn check_content(dialect: Dialect, text: &str) -> Result<(), RenderError> {
    if text.is_empty() {
        return Ok(());
    }
    let completion = assemble(
        dialect,
        Options::default(),
        &AssembleOptions::seeded(0),
        [text.as_bytes()],
    );
    if completion.content == text.trim()
        && completion.reasoning.is_none()
        && completion.tool_calls.is_empty()
        && completion.incomplete_calls.is_empty()
        && !completion
            .diagnostics
            .iter()
            .any(|d| d.code == "fabricated_result")
    {
        return Ok(());
    }
    let log = EventLog::scan(dialect, Options::default(), [text.as_bytes()]);
    let delimiter = log
        .events
        .iter()
        .find_map(|event| match event {
            OwnedEvent::Text { .. } | OwnedEvent::Diagnostic { .. } => None,
            other => Some(other.span()),
        })
        .and_then(|span| text.get(span.start as usize..span.end as usize))
        .unwrap_or_default();
    Err(RenderError::new(Reason::DelimiterInText(
        delimiter.trim().to_owned(),
    )))
}

/// Refuses a tool result's text that holds one of `closers`, the strings that end its
/// block (rule 3).
pub(crate) fn check_result(closers: &[&'static str], text: &str) -> Result<(), RenderError> {
    match closers.iter().find(|c| text.contains(**c)) {
        Some(closer) => Err(RenderError::new(Reason::CloserInResult(closer))),
        None => Ok(()),
    }
}
