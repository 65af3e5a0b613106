//! The tools offered to a model, read from an OpenAI `tools` array: what the prompt, the
//! catalog, the inventory and the examples need of each (name, description, JSON Schema,
//! examples), in the caller's order and with every schema's key order kept.

use serde_json::{Map, Value};

/// One tool, as the encoding side needs it.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolSpec {
    /// The function's name.
    pub name: String,
    /// Its description; empty when the tool has none.
    pub description: String,
    /// Its parameters' JSON Schema, keys in the order given; `{"type":"object",
    /// "properties":{}}` when the tool has none.
    pub parameters: Value,
    /// Worked examples for the model (seed-system.md §1.9), in the order given.
    pub examples: Vec<ToolExample>,
}

/// An example of using a tool, shown to the model in the inventory (seed-system.md §1.9).
#[derive(Debug, Clone, PartialEq)]
pub enum ToolExample {
    /// A call worth copying: `{"caption"?: …, "call": {ARGUMENTS}}`.
    Call {
        /// A heading above the example.
        caption: Option<String>,
        /// The call's arguments.
        arguments: Map<String, Value>,
    },
    /// A mistake and its fix: `{"caption"?: …, "bad": {ARGUMENTS}, "good": {ARGUMENTS}}`.
    Compare {
        /// A heading above the pair.
        caption: Option<String>,
        /// The wrong call's arguments.
        bad: Map<String, Value>,
        /// The right call's arguments.
        good: Map<String, Value>,
    },
    /// Advice without a call: `{"caption": …, "note"?: …}`.
    Note {
        /// The heading.
        caption: String,
        /// The text under it.
        note: Option<String>,
    },
}

/// Why a `tools` array could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolsError {
    /// The position of the offending tool in the array.
    pub index: usize,
    /// What is wrong with it.
    pub reason: String,
}

impl core::fmt::Display for ToolsError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "tool {}: {}", self.index, self.reason)
    }
}

impl std::error::Error for ToolsError {}

impl ToolSpec {
    /// Reads an OpenAI `tools` array: each item `{"type": "function", "function": {"name",
    /// "description"?, "parameters"?}}`, or the bare function object. Examples, an
    /// extension of ours, are read from `"examples"` next to `"function"` or inside it.
    ///
    /// # Errors
    /// A [`ToolsError`] naming the first item that is not an object, has no string `name`,
    /// has a `description` that is not a string, `parameters` that are not an object, or an
    /// example of none of the three [`ToolExample`] shapes.
    pub fn parse_all(tools: &[Value]) -> Result<Vec<ToolSpec>, ToolsError> {
        tools
            .iter()
            .enumerate()
            .map(|(index, tool)| {
                ToolSpec::parse(tool).map_err(|reason| ToolsError { index, reason })
            })
            .collect()
    }

    fn parse(tool: &Value) -> Result<ToolSpec, String> {
        let outer = tool.as_object().ok_or("not a JSON object")?;
        let function = match outer.get("function") {
            Some(Value::Object(function)) => function,
            Some(_) => return Err("`function` is not an object".into()),
            None => outer,
        };
        let name = function
            .get("name")
            .and_then(Value::as_str)
            .ok_or("no string `name`")?
            .to_owned();
        let description = match function.get("description") {
            None | Some(Value::Null) => String::new(),
            Some(Value::String(text)) => text.clone(),
            Some(_) => return Err("`description` is not a string".into()),
        };
        let parameters = match function.get("parameters") {
            None | Some(Value::Null) => serde_json::json!({"type": "object", "properties": {}}),
            Some(schema @ Value::Object(_)) => schema.clone(),
            Some(_) => return Err("`parameters` is not an object".into()),
        };
        let examples = match outer.get("examples").or_else(|| function.get("examples")) {
            None | Some(Value::Null) => Vec::new(),
            Some(Value::Array(items)) => items
                .iter()
                .enumerate()
                .map(|(i, item)| {
                    ToolExample::parse(item).map_err(|why| format!("example {i}: {why}"))
                })
                .collect::<Result<_, _>>()?,
            Some(_) => return Err("`examples` is not an array".into()),
        };
        Ok(ToolSpec {
            name,
            description,
            parameters,
            examples,
        })
    }
}

impl ToolExample {
    fn parse(item: &Value) -> Result<ToolExample, String> {
        let item = item.as_object().ok_or("not a JSON object")?;
        let caption = match item.get("caption") {
            None | Some(Value::Null) => None,
            Some(Value::String(caption)) => Some(caption.clone()),
            Some(_) => return Err("`caption` is not a string".into()),
        };
        let arguments = |key: &str| match item.get(key) {
            Some(Value::Object(arguments)) => Ok(arguments.clone()),
            _ => Err(format!("`{key}` is not an object of arguments")),
        };
        if item.contains_key("call") {
            return Ok(ToolExample::Call {
                caption,
                arguments: arguments("call")?,
            });
        }
        if item.contains_key("bad") || item.contains_key("good") {
            return Ok(ToolExample::Compare {
                caption,
                bad: arguments("bad")?,
                good: arguments("good")?,
            });
        }
        let caption = caption.ok_or("neither `call`, `bad`/`good` nor a `caption`")?;
        let note = match item.get("note") {
            None | Some(Value::Null) => None,
            Some(Value::String(note)) => Some(note.clone()),
            Some(_) => return Err("`note` is not a string".into()),
        };
        Ok(ToolExample::Note { caption, note })
    }
}
