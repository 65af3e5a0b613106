//! The OpenAI `chat.completion.chunk` shape on both sides of a [`Projector`](super::Projector):
//! reading a provider's chunk into a [`ProviderDelta`], and writing the projected delta back
//! into a chunk of the same shape.
//!
//! Providers differ in where they put native reasoning: vLLM, SGLang, DeepSeek and Moonshot
//! send `delta.reasoning_content`, OpenRouter `delta.reasoning`; both are read (when a chunk
//! has both, `reasoning_content`).

use serde_json::{Map, Value};

use super::projector::{NativeCallDelta, ProviderDelta};
use crate::stream::ChunkDelta;

impl ProviderDelta {
    /// Reads `choices[0]` of a `chat.completion.chunk` object: `delta.content`,
    /// `delta.reasoning_content` (else `delta.reasoning`), `delta.tool_calls[]` (`index`,
    /// `id`, `function.name`, `function.arguments`) and `finish_reason`. Missing or `null`
    /// fields are empty; a chunk without choices (a usage chunk) is an empty delta.
    pub fn from_chunk(chunk: &Value) -> ProviderDelta {
        let choice = chunk.get("choices").and_then(|c| c.get(0));
        let delta = choice.and_then(|c| c.get("delta").or_else(|| c.get("message")));
        let text = |key: &str| {
            delta
                .and_then(|d| d.get(key))
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_owned()
        };
        let mut reasoning = text("reasoning_content");
        if reasoning.is_empty() {
            reasoning = text("reasoning");
        }
        let tool_calls = delta
            .and_then(|d| d.get("tool_calls"))
            .and_then(Value::as_array)
            .map(|calls| calls.iter().enumerate().map(native_call).collect())
            .unwrap_or_default();
        ProviderDelta {
            content: text("content"),
            reasoning,
            tool_calls,
            finish_reason: choice
                .and_then(|c| c.get("finish_reason"))
                .and_then(Value::as_str)
                .map(str::to_owned),
        }
    }
}

fn native_call((position, call): (usize, &Value)) -> NativeCallDelta {
    let string = |v: Option<&Value>| v.and_then(Value::as_str).map(str::to_owned);
    let function = call.get("function");
    NativeCallDelta {
        // A call without an index is the position in the list (some providers omit it).
        index: call
            .get("index")
            .and_then(Value::as_u64)
            .and_then(|i| u32::try_from(i).ok())
            .unwrap_or(position as u32),
        id: string(call.get("id")),
        name: string(function.and_then(|f| f.get("name"))),
        arguments: string(function.and_then(|f| f.get("arguments"))),
    }
}

/// A `chat.completion.chunk` like `template` (its `id`, `object`, `created`, `model`,
/// `system_fingerprint`; `choices[0].index`), carrying `delta` (with `role` when `role` is
/// given) and `finish_reason` (`null` when `None`). `template` may be `null`.
pub fn chunk_like(
    template: &Value,
    delta: &ChunkDelta,
    role: Option<&str>,
    finish_reason: Option<&str>,
) -> Value {
    let mut out = Map::new();
    for key in ["id", "object", "created", "model", "system_fingerprint"] {
        match template.get(key) {
            Some(v) => drop(out.insert(key.into(), v.clone())),
            None if key == "object" => drop(out.insert(key.into(), "chat.completion.chunk".into())),
            None => {}
        }
    }
    let mut d = Map::new();
    if let Some(role) = role {
        d.insert("role".into(), role.into());
    }
    d.extend(delta.to_openai());
    let mut choice = Map::new();
    let index = template
        .get("choices")
        .and_then(|c| c.get(0))
        .and_then(|c| c.get("index"))
        .cloned()
        .unwrap_or(0.into());
    choice.insert("index".into(), index);
    choice.insert("delta".into(), Value::Object(d));
    choice.insert(
        "finish_reason".into(),
        finish_reason.map_or(Value::Null, Value::from),
    );
    out.insert("choices".into(), Value::Array(vec![Value::Object(choice)]));
    Value::Object(out)
}
