//! Worked examples of a tool's use, written in a dialect for the model to copy
//! (docs/seed.md §1.9): calls, wrong/right pairs and notes, in an `<examples>` block.

use inband::Dialect;
use serde_json::{Map, Value};

use crate::render::{Call, RenderError, Renderer};
use crate::tools::{Tool, ToolExample, ToolSet};

/// The `<examples>` block of `tool` in `dialect`, `""` when the tool has no examples.
///
/// ```text
/// <examples>
/// # CAPTION                      (a call example)
/// <example>
/// CALL
/// </example>
/// # CAPTION                      (a compare example)
/// WRONG:
/// <example>…</example>
/// RIGHT:
/// <example>…</example>
/// # CAPTION                      (a note)
/// NOTE
/// </examples>
/// ```
///
/// A call is written as the dialect writes one call without its turn's envelope, knowing
/// `tool`'s schema, with two reductions (docs/seed.md §1.9): Harmony shows only the JSON
/// arguments, Gemini only `NAME(…)` (no fence, no `default_api.`). With `intent_field`,
/// every call's arguments start with that field valued `…` (U+2026), then the example's
/// own (an intent the example gives keeps its value, in first place).
///
/// # Errors
/// A call the dialect cannot write (see [`RenderError`]): a Gemma string holding `<|"|>`,
/// a raw-text value holding its own closer.
pub fn tool_examples(
    tool: &Tool,
    dialect: Dialect,
    intent_field: Option<&str>,
) -> Result<String, RenderError> {
    if tool.examples.is_empty() {
        return Ok(String::new());
    }
    // The assembler's typing of the schema decides which values are written raw.
    let schema = ToolSet::from_tools([tool.clone()]);
    let renderer = Renderer::new(dialect).with_tools(&schema);
    let example = |arguments: &Map<String, Value>| -> Result<String, RenderError> {
        let mut with_intent = Map::new();
        if let Some(field) = intent_field {
            with_intent.insert(field.to_owned(), Value::String("\u{2026}".into()));
        }
        for (key, value) in arguments {
            with_intent.insert(key.clone(), value.clone());
        }
        let call = Call::new(tool.name.clone(), with_intent);
        let text = match dialect {
            Dialect::Harmony => Value::Object(call.arguments.clone()).to_string(),
            Dialect::Gemini => {
                let block = renderer.call(&call)?;
                let body = block
                    .strip_prefix("```tool_code\n")
                    .and_then(|b| b.strip_suffix("\n```"))
                    .unwrap_or(&block);
                body.strip_prefix("default_api.").unwrap_or(body).to_owned()
            }
            _ => renderer.call(&call)?,
        };
        Ok(format!("<example>\n{}\n</example>", text.trim()))
    };
    let mut parts = Vec::with_capacity(tool.examples.len());
    for item in &tool.examples {
        let caption = |caption: &Option<String>| {
            caption
                .as_deref()
                .map(|c| format!("# {}\n", c.trim_end()))
                .unwrap_or_default()
        };
        parts.push(match item {
            ToolExample::Call {
                caption: c,
                arguments,
            } => {
                format!("{}{}", caption(c), example(arguments)?)
            }
            ToolExample::Compare {
                caption: c,
                bad,
                good,
            } => format!(
                "{}WRONG:\n{}\nRIGHT:\n{}",
                caption(c),
                example(bad)?,
                example(good)?
            ),
            ToolExample::Note { caption: c, note } => {
                let mut part = format!("# {c}").trim_end().to_owned();
                if let Some(note) = note {
                    part.push('\n');
                    part.push_str(note);
                }
                part
            }
        });
    }
    Ok(format!("<examples>\n{}\n</examples>", parts.join("\n")))
}
