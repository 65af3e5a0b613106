//! The caller's side of a conversation, owned and OpenAI-like: what the renderers write in a
//! dialect. Deserializable from JSON (the CLI reads it), in the flat form below or with
//! OpenAI's nesting (`tool_calls[i].function.{name, arguments}`, arguments as a JSON string,
//! content as a list of text parts).

use serde::{Deserialize, Deserializer, Serialize};
use serde_json::{Map, Value};

use super::unique::Unique;

/// One message of a conversation, tagged by `role` in JSON:
/// `{"role": "user", "content": "Find pi"}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "role", rename_all = "lowercase")]
pub enum Message {
    /// Instructions from the application.
    System {
        /// The text.
        #[serde(default, deserialize_with = "content")]
        content: String,
    },
    /// Instructions from the developer (OpenAI's newer name for system; rendered as the
    /// system role where the model family has no developer role).
    Developer {
        /// The text.
        #[serde(default, deserialize_with = "content")]
        content: String,
    },
    /// The user's turn.
    User {
        /// The text.
        #[serde(default, deserialize_with = "content")]
        content: String,
    },
    /// The model's turn.
    Assistant(Assistant),
    /// The result of one tool call.
    Tool(ToolResult),
}

/// The model's turn: reasoning, then visible text, then tool calls (the order every
/// dialect writes them in).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Assistant {
    /// Visible text; empty for none.
    #[serde(default, deserialize_with = "content")]
    pub content: String,
    /// Reasoning text; empty for none. JSON: `reasoning` or `reasoning_content`.
    #[serde(default, alias = "reasoning_content", deserialize_with = "content")]
    pub reasoning: String,
    /// Tool calls, in order.
    #[serde(default, deserialize_with = "calls")]
    pub tool_calls: Vec<Call>,
}

/// A tool call to render.
///
/// Deserializing it (flat, or OpenAI's with `function.arguments` as an object or a JSON
/// string) fails on arguments in which an object repeats a key, at any level, naming the
/// key: serde_json would keep the last value and the decoder keeps the first, so either
/// choice could write a call its caller did not mean. Numbers keep their text.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "CallWire")]
pub struct Call {
    /// The call's id. Kimi writes it when it has the form `functions.NAME:IDX` for this
    /// call's name; every other dialect carries no id in the call text.
    #[serde(default)]
    pub id: String,
    /// The tool's name.
    pub name: String,
    /// The arguments, in the caller's key order.
    pub arguments: Map<String, Value>,
}

impl Call {
    /// A call with an empty id.
    pub fn new(name: impl Into<String>, arguments: Map<String, Value>) -> Self {
        Call {
            id: String::new(),
            name: name.into(),
            arguments,
        }
    }
}

/// The result of a tool call, as the runtime sends it back.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ToolResult {
    /// The id of the call it answers. JSON: `tool_call_id` or `id`.
    #[serde(default, alias = "id")]
    pub tool_call_id: String,
    /// The tool's name.
    #[serde(default)]
    pub name: String,
    /// The result text.
    #[serde(default, deserialize_with = "content")]
    pub content: String,
    /// The tool failed; `content` says why. Only some dialects can say so (see
    /// [`Renderer::results`](super::Renderer::results)).
    #[serde(default)]
    pub is_error: bool,
}

/// A call as JSON: flat (`name`, `arguments`) or OpenAI's (`function.name`,
/// `function.arguments`). One struct rather than an untagged enum, so that a malformed call
/// is reported by what is wrong with it, not as "no variant matched".
#[derive(Deserialize)]
struct CallWire {
    #[serde(default)]
    id: String,
    function: Option<CallFields>,
    name: Option<String>,
    #[serde(default)]
    arguments: Option<Unique>,
}

#[derive(Deserialize)]
struct CallFields {
    name: String,
    #[serde(default)]
    arguments: Option<Unique>,
}

impl TryFrom<CallWire> for Call {
    type Error = String;

    fn try_from(wire: CallWire) -> Result<Self, String> {
        let id = wire.id;
        let (name, arguments) = match (wire.function, wire.name) {
            (Some(function), _) => (function.name, function.arguments),
            (None, Some(name)) => (name, wire.arguments),
            (None, None) => {
                return Err("a tool call needs a `name` string (or `function.name`)".to_owned())
            }
        };
        // OpenAI carries arguments as a JSON string. Either way a repeated key is refused
        // (render/unique.rs).
        let arguments = match arguments.map(|u| u.0) {
            None | Some(Value::Null) => Value::Object(Map::new()),
            Some(Value::String(text)) if text.trim().is_empty() => Value::Object(Map::new()),
            Some(Value::String(text)) => {
                serde_json::from_str::<Unique>(&text)
                    .map_err(|e| format!("call {name:?}: arguments are not JSON: {e}"))?
                    .0
            }
            Some(other) => other,
        };
        match arguments {
            Value::Object(arguments) => Ok(Call {
                id,
                name,
                arguments,
            }),
            _ => Err(format!("call {name:?}: arguments must be a JSON object")),
        }
    }
}

/// Message content: a string, `null`, or a list of parts whose `text` fields are joined.
fn content<'de, D: Deserializer<'de>>(deserializer: D) -> Result<String, D::Error> {
    #[derive(Deserialize)]
    struct Part {
        #[serde(default)]
        text: Option<String>,
    }
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Content {
        Text(String),
        Parts(Vec<Part>),
    }
    Ok(match Option::<Content>::deserialize(deserializer)? {
        None => String::new(),
        Some(Content::Text(text)) => text,
        Some(Content::Parts(parts)) => parts.into_iter().filter_map(|p| p.text).collect(),
    })
}

/// `tool_calls`: a list, or `null`.
fn calls<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Vec<Call>, D::Error> {
    Ok(Option::<Vec<Call>>::deserialize(deserializer)?.unwrap_or_default())
}
