//! The tools offered to the model: names, descriptions, JSON Schema parameters and worked
//! examples, read from an OpenAI `tools` array or given as bare names. The assembler checks
//! call names against them and types raw-text parameters from their schemas (docs/dialects.md
//! rule 8); the prompt, the inventory, the examples and the renderer read the same tools.

use std::collections::HashMap;
use std::fmt;
use std::sync::Arc;

use inband::Dialect;
use serde_json::{Map, Value};

use crate::render::unique::Unique;
use crate::render::Renderer;

mod schema;

use schema::resolve;
pub use schema::JsonTypes;

/// One tool: a function the model may call.
///
/// Source of the shape: the OpenAI Chat Completions `tools` array,
/// `{"type": "function", "function": {"name", "description", "parameters"}}`, whose
/// `parameters` is a JSON Schema of the arguments object.
#[derive(Debug, Clone, PartialEq)]
pub struct Tool {
    /// The function name, as declared (not trimmed).
    pub name: String,
    /// The description, if one was given.
    pub description: Option<String>,
    /// The JSON Schema of the arguments object, if one was given; always a JSON object, its
    /// keys in the order given (the prompt's catalog is written in that order, byte-stable
    /// for prompt caching).
    pub parameters: Option<Value>,
    /// Worked examples for the model (docs/seed.md §1.9), in the order given; an
    /// extension of ours to the OpenAI shape.
    pub examples: Vec<ToolExample>,
}

/// An example of using a tool, shown to the model in the inventory (docs/seed.md §1.9).
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

impl Tool {
    /// A tool known by its name only: no description, no schema.
    pub fn named(name: impl Into<String>) -> Self {
        Tool {
            name: name.into(),
            description: None,
            parameters: None,
            examples: Vec::new(),
        }
    }

    /// The schema of the argument `key`: its entry in the schema's `properties`, else an
    /// object `additionalProperties`; `None` when the tool has no schema or the schema says
    /// nothing about `key`.
    pub fn parameter_schema(&self, key: &str) -> Option<&Value> {
        let parameters = self.parameters.as_ref()?;
        let root = resolve(parameters, parameters, 0)?;
        root.get("properties")
            .and_then(|properties| properties.get(key))
            .or_else(|| root.get("additionalProperties").filter(|s| s.is_object()))
    }

    /// The JSON types the schema of the argument `key` admits (see [`JsonTypes::of`]);
    /// `None` when nothing constrains it (no schema, an unknown key, `{}`).
    pub fn parameter_types(&self, key: &str) -> Option<JsonTypes> {
        let root = self.parameters.as_ref()?;
        JsonTypes::of(self.parameter_schema(key)?, root)
    }

    /// Whether the schema admits only strings for the argument `key`
    /// ([`Tool::parameter_types`] is [`JsonTypes::STRING`]): the assembler then reads a
    /// raw-text value as the string it is, and the renderer writes a string value raw.
    pub fn string_only(&self, key: &str) -> bool {
        self.parameter_types(key) == Some(JsonTypes::STRING)
    }
}

/// The tools of one request. Cheap to clone (shared), so an
/// [`AssembleOptions`](crate::assemble::AssembleOptions) can be cloned per response.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ToolSet {
    inner: Arc<Inner>,
}

#[derive(Debug, Default, PartialEq)]
struct Inner {
    tools: Vec<Tool>,
    /// Name → index of the first tool of that name.
    by_name: HashMap<String, usize>,
}

impl ToolSet {
    /// A set of tools known by their names only: calls are checked against the names,
    /// values are typed as without a schema.
    pub fn from_names<I>(names: I) -> Self
    where
        I: IntoIterator,
        I::Item: Into<String>,
    {
        Self::from_tools(names.into_iter().map(Tool::named))
    }

    /// A set of the given tools. When a name repeats, lookups find the first.
    pub fn from_tools(tools: impl IntoIterator<Item = Tool>) -> Self {
        let tools: Vec<Tool> = tools.into_iter().collect();
        let mut by_name = HashMap::with_capacity(tools.len());
        for (i, tool) in tools.iter().enumerate() {
            by_name.entry(tool.name.clone()).or_insert(i);
        }
        ToolSet {
            inner: Arc::new(Inner { tools, by_name }),
        }
    }

    /// Reads an OpenAI `tools` array from JSON text:
    /// `[{"type": "function", "function": {"name": …, "description": …, "parameters": {…}}}]`.
    /// `type` may be left out, and so may the `function` wrapper (a bare function object
    /// `{"name": …}`); `description` and `parameters` are optional. Examples, an extension
    /// of ours, are read from `"examples"` next to `"function"` or inside it (see
    /// [`ToolExample`]). Schemas keep their key order.
    ///
    /// # Errors
    /// [`ToolsError`] when the text is not JSON (or an object in it repeats a key), not an
    /// array, or a tool is malformed (no
    /// string `function.name`, an empty name, a name with whitespace, control characters,
    /// quotes, a backslash or `<`/`>` (docs/dialects.md rule 9), a `type` other than `function`, a
    /// `description` that is not a string, `parameters` that is not an object, an example
    /// of none of the three shapes, a name declared twice, a name no dialect can write in a
    /// call: longer than [`inband::MAX_NAME`] bytes); the error says which tool and what is
    /// wrong. A name that only some dialects can write (Gemini's callee is a Python
    /// identifier, Gemma's name ends at `{ } [ ] ( ) , =`) is accepted here and refused by
    /// [`tool_prompt`](crate::prompt::tool_prompt) for a dialect that cannot write it. A UTF-8 byte order mark at the start (editors on Windows write one)
    /// is skipped.
    pub fn from_json(json: &[u8]) -> Result<Self, ToolsError> {
        let json = strip_bom(json);
        // A repeated key (`{"name": "safe_read", "name": "rm"}`, or a parameter declared
        // twice) is refused: JSON readers disagree on which value counts, so the
        // application and the prompt could mean different tools.
        let value = serde_json::from_slice::<Unique>(json)
            .map_err(|e| ToolsError::Json(e.to_string()))?
            .0;
        Self::from_value(&value)
    }

    /// Reads an OpenAI `tools` array already parsed; see [`ToolSet::from_json`].
    ///
    /// # Errors
    /// As [`ToolSet::from_json`], except for JSON syntax.
    pub fn from_value(value: &Value) -> Result<Self, ToolsError> {
        let items = value.as_array().ok_or(ToolsError::NotAnArray)?;
        let mut tools: Vec<Tool> = Vec::with_capacity(items.len());
        // One hash lookup per tool: loading is linear in the number of tools.
        let mut by_name: HashMap<String, usize> = HashMap::with_capacity(items.len());
        for (index, item) in items.iter().enumerate() {
            let tool = read_tool(item).map_err(|problem| ToolsError::Tool { index, problem })?;
            if let Some(&first) = by_name.get(tool.name.as_str()) {
                return Err(ToolsError::Duplicate {
                    index,
                    first,
                    name: tool.name,
                });
            }
            by_name.insert(tool.name.clone(), index);
            tools.push(tool);
        }
        Ok(ToolSet {
            inner: Arc::new(Inner { tools, by_name }),
        })
    }

    /// The tool called `name`.
    pub fn get(&self, name: &str) -> Option<&Tool> {
        let i = *self.inner.by_name.get(name)?;
        self.inner.tools.get(i)
    }

    /// Whether a tool is called `name`.
    pub fn contains(&self, name: &str) -> bool {
        self.inner.by_name.contains_key(name)
    }

    /// The tools in declaration order.
    pub fn iter(&self) -> std::slice::Iter<'_, Tool> {
        self.inner.tools.iter()
    }

    /// The number of tools.
    pub fn len(&self) -> usize {
        self.inner.tools.len()
    }

    /// Whether there are no tools.
    pub fn is_empty(&self) -> bool {
        self.inner.tools.is_empty()
    }
}

impl<'a> IntoIterator for &'a ToolSet {
    type Item = &'a Tool;
    type IntoIter = std::slice::Iter<'a, Tool>;

    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl FromIterator<Tool> for ToolSet {
    fn from_iter<I: IntoIterator<Item = Tool>>(iter: I) -> Self {
        Self::from_tools(iter)
    }
}

impl FromIterator<String> for ToolSet {
    fn from_iter<I: IntoIterator<Item = String>>(iter: I) -> Self {
        Self::from_names(iter)
    }
}

impl<'a> FromIterator<&'a str> for ToolSet {
    fn from_iter<I: IntoIterator<Item = &'a str>>(iter: I) -> Self {
        Self::from_names(iter)
    }
}

impl From<Vec<String>> for ToolSet {
    fn from(names: Vec<String>) -> Self {
        Self::from_names(names)
    }
}

fn read_tool(item: &Value) -> Result<Tool, String> {
    let item = item.as_object().ok_or("not a JSON object")?;
    match item.get("type") {
        None => {}
        Some(kind) if kind.as_str() == Some("function") => {}
        Some(_) => return Err("`type` is not \"function\"".into()),
    }
    let function = match item.get("function") {
        Some(function) => function
            .as_object()
            .ok_or("`function` is not a JSON object")?,
        // A bare function object.
        None if item.contains_key("name") => item,
        None => return Err("no `function` object".into()),
    };
    let name = function
        .get("name")
        .ok_or("no `function.name`")?
        .as_str()
        .ok_or("`function.name` is not a string")?;
    if name.trim().is_empty() {
        return Err("`function.name` is empty".into());
    }
    // Dialects.md rule 9: a name with whitespace, quotes, a backslash or markup cannot be
    // written in band (no scanner reads it back), so a prompt must not offer it.
    if let Some(c) = name.chars().find(|&c| {
        c.is_whitespace() || c.is_control() || matches!(c, '<' | '>' | '"' | '\'' | '\\')
    }) {
        return Err(format!(
            "`function.name` {name:?} holds {c:?}, which no dialect can write in a call"
        ));
    }
    // A name some dialect writes so that its scanner reads it back (over MAX_NAME bytes
    // none does); a dialect that cannot is refused by the prompt for it (prompt::tool_prompt).
    let carried = Dialect::ALL
        .iter()
        .any(|&dialect| Renderer::new(dialect).check_name(name).is_ok());
    if !carried {
        return Err(format!(
            "`function.name` {name:?} ({} bytes) cannot be written in a call in any dialect: \
             at most {} bytes",
            name.len(),
            inband::MAX_NAME
        ));
    }
    let description = match function.get("description") {
        None | Some(Value::Null) => None,
        Some(d) => Some(
            d.as_str()
                .ok_or("`function.description` is not a string")?
                .to_owned(),
        ),
    };
    let parameters = match function.get("parameters") {
        None | Some(Value::Null) => None,
        Some(p) if p.is_object() => Some(p.clone()),
        Some(_) => return Err("`function.parameters` is not a JSON object".into()),
    };
    let examples = match item.get("examples").or_else(|| function.get("examples")) {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::Array(items)) => items
            .iter()
            .enumerate()
            .map(|(i, example)| read_example(example).map_err(|why| format!("example {i}: {why}")))
            .collect::<Result<_, _>>()?,
        Some(_) => return Err("`examples` is not an array".into()),
    };
    Ok(Tool {
        name: name.to_owned(),
        description,
        parameters,
        examples,
    })
}

fn read_example(item: &Value) -> Result<ToolExample, String> {
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

/// Why a tools array could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ToolsError {
    /// The text is not JSON; serde_json's message.
    Json(String),
    /// The JSON is not an array.
    NotAnArray,
    /// The tool at `index` (from 0) is malformed.
    Tool {
        /// Its position in the array, from 0.
        index: usize,
        /// What is wrong, in a few words.
        problem: String,
    },
    /// The tool at `index` has the name of the tool at `first`.
    Duplicate {
        /// Its position in the array, from 0.
        index: usize,
        /// The position of the first tool of that name.
        first: usize,
        /// The name.
        name: String,
    },
}

impl fmt::Display for ToolsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ToolsError::Json(e) => write!(f, "not JSON: {e}"),
            ToolsError::NotAnArray => f.write_str("not a JSON array"),
            ToolsError::Tool { index, problem } => write!(f, "tool {index}: {problem}"),
            ToolsError::Duplicate { index, first, name } => {
                write!(
                    f,
                    "tool {index}: the name `{name}` is already tool {first}'s"
                )
            }
        }
    }
}

impl std::error::Error for ToolsError {}

/// `json` without a UTF-8 byte order mark (`EF BB BF`) at its start: JSON text may not
/// begin with one (RFC 8259 §8.1), but a parser may ignore it, and files saved by some
/// editors have it.
pub fn strip_bom(json: &[u8]) -> &[u8] {
    json.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(json)
}

#[cfg(test)]
mod tests {
    use super::{JsonTypes, Tool, ToolSet, ToolsError};

    fn types(schema: &str) -> Option<JsonTypes> {
        let parameters = format!(
            r##"{{"type": "object", "properties": {{"p": {schema}}}, "$defs": {{"Mode": {{"enum": ["r", "w"]}}, "Loop": {{"$ref": "#/$defs/Loop"}}, "N": {{"type": "integer"}}}}}}"##
        );
        let tools = ToolSet::from_json(
            format!(r#"[{{"type": "function", "function": {{"name": "f", "parameters": {parameters}}}}}]"#)
                .as_bytes(),
        )
        .unwrap();
        tools.get("f").unwrap().parameter_types("p")
    }

    #[test]
    fn schema_types() {
        use JsonTypes as T;
        assert_eq!(types(r#"{"type": "string"}"#), Some(T::STRING));
        assert_eq!(
            types(r#"{"type": ["string", "null"]}"#),
            Some(T::STRING.union(T::NULL))
        );
        assert_eq!(types(r#"{"enum": ["a", "b"]}"#), Some(T::STRING));
        assert_eq!(
            types(r#"{"enum": [1, 2.5, null]}"#),
            Some(T::NUMBER.union(T::NULL))
        );
        assert_eq!(types(r#"{"enum": [1, 2]}"#), Some(T::INTEGER));
        assert_eq!(types(r#"{"const": true}"#), Some(T::BOOLEAN));
        assert_eq!(
            types(r#"{"type": "string", "enum": [1]}"#),
            Some(T::STRING),
            "`enum` counts only without `type`"
        );
        assert_eq!(
            types(r#"{"type": "integer", "nullable": true}"#),
            Some(T::INTEGER.union(T::NULL))
        );
        assert_eq!(
            types(r#"{"anyOf": [{"type": "string"}, {"type": "number"}]}"#),
            Some(T::STRING.union(T::NUMBER))
        );
        assert_eq!(
            types(r#"{"oneOf": [{"type": "string"}, {}]}"#),
            None,
            "an unconstrained branch"
        );
        assert_eq!(
            types(r#"{"allOf": [{"type": ["number", "string"]}, {"type": "integer"}]}"#),
            Some(T::INTEGER)
        );
        assert_eq!(types(r##"{"$ref": "#/$defs/Mode"}"##), Some(T::STRING));
        assert_eq!(
            types(r##"{"anyOf": [{"$ref": "#/$defs/N"}, {"type": "null"}]}"##),
            Some(T::INTEGER.union(T::NULL))
        );
        assert_eq!(types(r##"{"$ref": "#/$defs/Loop"}"##), None);
        assert_eq!(types(r##"{"$ref": "other.json#/x"}"##), None);
        assert_eq!(types(r#"{"description": "anything"}"#), None);
        assert_eq!(types("{}"), None);
        assert_eq!(types("false"), Some(T::NONE));
        assert_eq!(types(r#"{"type": "object"}"#), Some(T::OBJECT));
    }

    #[test]
    fn unknown_keys_and_additional_properties() {
        let tools = ToolSet::from_json(
            br#"[{"function": {"name": "f", "parameters": {"type": "object", "properties": {"a": {"type": "string"}}, "additionalProperties": {"type": "integer"}}}},
                {"function": {"name": "g", "parameters": {"type": "object", "properties": {}, "additionalProperties": true}}},
                {"function": {"name": "h"}}]"#,
        )
        .unwrap();
        let f = tools.get("f").unwrap();
        assert_eq!(f.parameter_types("a"), Some(JsonTypes::STRING));
        assert_eq!(f.parameter_types("z"), Some(JsonTypes::INTEGER));
        assert_eq!(tools.get("g").unwrap().parameter_types("z"), None);
        assert_eq!(tools.get("h").unwrap().parameter_types("z"), None);
        assert!(tools.get("i").is_none());
    }

    #[test]
    fn integral_numbers_are_integers() {
        let value = |text: &str| JsonTypes::of_value(&crate::json::parse(text.as_bytes()).unwrap());
        assert_eq!(value("140.0"), JsonTypes::INTEGER);
        assert_eq!(value("-3"), JsonTypes::INTEGER);
        assert_eq!(value("1e3"), JsonTypes::INTEGER);
        assert!(!JsonTypes::INTEGER.contains(value("1.5")));
        assert!(JsonTypes::NUMBER.contains(value("1.5")));
        assert!(JsonTypes::NUMBER.contains(value("7")));
    }

    #[test]
    fn reading_tools() {
        let tools = ToolSet::from_json(
            br#"[{"type": "function", "function": {"name": "read", "description": "Read a file", "parameters": {"type": "object"}}}, {"function": {"name": "noop", "description": null}}]"#,
        )
        .unwrap();
        assert_eq!(tools.len(), 2);
        let read = tools.get("read").unwrap();
        assert_eq!(read.description.as_deref(), Some("Read a file"));
        assert!(read.parameters.is_some());
        assert_eq!(tools.get("noop"), Some(&Tool::named("noop")));
        let names: Vec<&str> = tools.iter().map(|t| t.name.as_str()).collect();
        assert_eq!(names, ["read", "noop"]);
        assert_eq!(
            ToolSet::from_names(["a", "b"]),
            ["a", "b"].into_iter().collect()
        );
    }

    #[test]
    fn malformed_tools_say_which_and_why() {
        let error = |json: &str| ToolSet::from_json(json.as_bytes()).unwrap_err().to_string();
        assert!(error("[{").starts_with("not JSON: "), "{}", error("[{"));
        assert_eq!(error(r#"{"name": "f"}"#), "not a JSON array");
        assert_eq!(error("[1]"), "tool 0: not a JSON object");
        assert_eq!(
            error(r#"[{"function": {"name": "a"}}, {"type": "function"}]"#),
            "tool 1: no `function` object"
        );
        assert_eq!(
            error(r#"[{"function": {"name": 3}}]"#),
            "tool 0: `function.name` is not a string"
        );
        assert_eq!(
            error(r#"[{"function": {"name": " "}}]"#),
            "tool 0: `function.name` is empty"
        );
        assert_eq!(
            error(r#"[{"function": {"name": "web search"}}]"#),
            "tool 0: `function.name` \"web search\" holds ' ', which no dialect can write in a call"
        );
        assert_eq!(
            error(r#"[{"function": {"name": "a<b"}}]"#),
            "tool 0: `function.name` \"a<b\" holds '<', which no dialect can write in a call"
        );
        assert_eq!(
            error(r#"[{"type": "web_search", "function": {"name": "a"}}]"#),
            "tool 0: `type` is not \"function\""
        );
        assert_eq!(
            error(r#"[{"function": {"name": "a", "parameters": []}}]"#),
            "tool 0: `function.parameters` is not a JSON object"
        );
        assert_eq!(
            error(r#"[{"function": {"name": "a", "description": 1}}]"#),
            "tool 0: `function.description` is not a string"
        );
        assert_eq!(
            ToolSet::from_json(br#"[{"function": {"name": "a"}}, {"function": {"name": "a"}}]"#),
            Err(ToolsError::Duplicate {
                index: 1,
                first: 0,
                name: "a".into()
            })
        );
        assert_eq!(
            error(r#"[{"function": {"name": "a"}}, {"function": {"name": "a"}}]"#),
            "tool 1: the name `a` is already tool 0's"
        );
    }
}
