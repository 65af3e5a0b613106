//! A client's chat-completions request, checked and rewritten for the upstream: the tool
//! prompt in the system message, earlier calls and results as the dialect's text
//! (docs/seed.md §4.4), `tools`, `tool_choice` and `parallel_tool_calls` taken out.

use inband::Dialect;
use inband_alloc::prompt::tool_prompt;
use inband_alloc::render::{Message, Renderer};
use inband_alloc::tools::ToolSet;
use serde_json::{json, Map, Value};

use crate::error::ApiError;
use crate::projection::{Decode, ProjectionOptions};

/// What the proxy does with the upstream's reply.
#[derive(Debug)]
pub enum Mode {
    /// The reply is decoded: tool calls, reasoning and content.
    Project(ProjectionOptions),
    /// The reply goes to the client byte for byte.
    Passthrough,
}

/// A checked request.
#[derive(Debug)]
pub struct Prepared {
    /// The client's `model`.
    pub model: String,
    /// The client asked for a stream.
    pub stream: bool,
    /// The body to send upstream.
    pub upstream: Value,
    /// How to treat the reply.
    pub mode: Mode,
}

/// How `prepare` picks the dialect and treats requests without tools.
#[derive(Clone, Copy)]
pub struct Policy<'a> {
    /// The dialect for a model id.
    pub dialect_for: &'a dyn Fn(&str) -> Dialect,
    /// Decode replies to requests without tools too (leaked markup leaves content).
    pub heal: bool,
    /// Seed for call ids (tests).
    pub seed: Option<u64>,
}

/// Checks `body` and builds the upstream request.
///
/// # Errors
/// A 400 [`ApiError`] naming the field at fault: a body that is not a JSON object, a
/// missing `model` or `messages`, a malformed `tools` array, an unknown `tool_choice`, a
/// message that cannot be read, or history that cannot be written in the dialect.
pub fn prepare(body: &[u8], policy: Policy<'_>) -> Result<Prepared, ApiError> {
    let value: Value = serde_json::from_slice(body)
        .map_err(|e| ApiError::invalid(None, format!("the body is not valid JSON: {e}")))?;
    let Value::Object(mut request) = value else {
        return Err(ApiError::invalid(None, "the body is not a JSON object"));
    };
    let model = read_model(&request)?;
    let stream = flag(&request, "stream", false)?;
    let parallel = flag(&request, "parallel_tool_calls", true)?;
    let raw_messages = read_messages(&request)?;
    let tools_json = take_tools(&mut request)?;
    let choice = Choice::read(request.remove("tool_choice"))?;
    request.remove("parallel_tool_calls");
    let has_tools = !tools_json.is_empty();
    if !has_tools && !policy.heal {
        if choice.required() {
            return Err(ApiError::invalid(
                Some("tool_choice"),
                "`tool_choice` asks for a tool but `tools` is empty",
            ));
        }
        return Ok(Prepared {
            model,
            stream,
            upstream: Value::Object(request),
            mode: Mode::Passthrough,
        });
    }
    check_projectable(&request)?;
    let tools_json = choice.restrict(tools_json)?;
    let tools = ToolSet::from_value(&Value::Array(tools_json))
        .map_err(|e| ApiError::invalid(Some("tools"), e.to_string()))?;
    let dialect = (policy.dialect_for)(&model);
    let calls_allowed = has_tools && !matches!(choice, Choice::None);
    // With `--heal` and no tools the model is not prompted: its messages go up as sent.
    if has_tools {
        let prompt = if calls_allowed {
            Some(
                tool_prompt(&tools, dialect)
                    .map_err(|e| ApiError::invalid(Some("tools"), e.to_string()))?,
            )
        } else {
            None
        };
        let messages = encode_messages(&raw_messages, &tools, dialect, prompt.as_deref())?;
        request.insert("messages".into(), messages);
    }
    request.insert("stream".into(), Value::Bool(true));
    set_stream_options(&mut request, stream);
    let decode = if has_tools {
        Decode::Inband(dialect)
    } else {
        Decode::Heal {
            model: model.clone(),
        }
    };
    Ok(Prepared {
        model,
        stream,
        upstream: Value::Object(request),
        mode: Mode::Project(ProjectionOptions {
            // Without tools this is `--heal`: the model was not prompted in a dialect, so
            // only the markup its template leaks is read, and leaked calls are shown.
            decode,
            tools: has_tools.then_some(tools),
            calls_allowed: calls_allowed || !has_tools,
            parallel,
            seed: policy.seed,
        }),
    })
}

/// `model`, which picks the dialect and is echoed in every reply, so it must be there.
fn read_model(request: &Map<String, Value>) -> Result<String, ApiError> {
    match request.get("model") {
        Some(Value::String(model)) if !model.is_empty() => Ok(model.clone()),
        _ => Err(ApiError::invalid(
            Some("model"),
            "`model` must be a non-empty string",
        )),
    }
}

/// `messages`, copied out: the history is re-encoded from them while the request keeps
/// them in case it goes up as sent.
fn read_messages(request: &Map<String, Value>) -> Result<Vec<Value>, ApiError> {
    match request.get("messages") {
        Some(Value::Array(list)) if !list.is_empty() => Ok(list.clone()),
        _ => Err(ApiError::invalid(
            Some("messages"),
            "`messages` must be a non-empty array",
        )),
    }
}

/// `tools`, taken out of the request: the upstream sees them only as the tool prompt.
fn take_tools(request: &mut Map<String, Value>) -> Result<Vec<Value>, ApiError> {
    match request.remove("tools") {
        None | Some(Value::Null) => Ok(Vec::new()),
        Some(Value::Array(list)) => Ok(list),
        Some(_) => Err(ApiError::invalid(Some("tools"), "`tools` must be an array")),
    }
}

/// The upstream is always asked to stream, so usage must be asked for explicitly: the
/// non-streaming reply reports usage; the streaming one when the client asked.
fn set_stream_options(request: &mut Map<String, Value>, stream: bool) {
    let usage = !stream
        || request
            .get("stream_options")
            .and_then(|o| o.get("include_usage"))
            .and_then(Value::as_bool)
            .unwrap_or(false);
    if usage {
        request.insert("stream_options".into(), json!({"include_usage": true}));
    } else {
        request.remove("stream_options");
    }
}

/// The messages in `dialect` for the upstream: history re-encoded, the tool prompt added.
fn encode_messages(
    raw: &[Value],
    tools: &ToolSet,
    dialect: Dialect,
    prompt: Option<&str>,
) -> Result<Value, ApiError> {
    let messages: Vec<Message> =
        serde_json::from_value(Value::Array(raw.to_vec())).map_err(|e| {
            ApiError::invalid(Some("messages"), format!("a message cannot be read: {e}"))
        })?;
    let history = Renderer::new(dialect)
        .with_tools(tools)
        .history(&messages)
        .map_err(|e| {
            ApiError::invalid(
                Some("messages"),
                format!("history in {}: {e}", dialect.name()),
            )
        })?;
    Ok(wire_messages(raw, &history, prompt))
}

/// Fields a decoded reply cannot honour, refused rather than silently lost: `n` above 1 (the
/// proxy decodes one choice) and the legacy `functions` / `function_call` (the reply would
/// carry `tool_calls`, which a client using them does not read).
fn check_projectable(request: &Map<String, Value>) -> Result<(), ApiError> {
    match request.get("n") {
        None | Some(Value::Null) => {}
        Some(n) if n.as_u64() == Some(1) => {}
        Some(_) => {
            return Err(ApiError::invalid(
                Some("n"),
                "`n` must be 1 when inband decodes the reply (tools, or --heal)",
            ))
        }
    }
    for key in ["functions", "function_call"] {
        if request.get(key).is_some_and(|v| !v.is_null()) {
            return Err(ApiError::invalid(
                Some(key),
                format!("`{key}` is the deprecated form of tool calling: send `tools` and `tool_choice`"),
            ));
        }
    }
    Ok(())
}

/// A boolean field, `default` when absent or null.
fn flag(request: &Map<String, Value>, key: &'static str, default: bool) -> Result<bool, ApiError> {
    match request.get(key) {
        None | Some(Value::Null) => Ok(default),
        Some(Value::Bool(b)) => Ok(*b),
        Some(_) => Err(ApiError::invalid(
            Some(key),
            format!("`{key}` must be a boolean"),
        )),
    }
}

/// `tool_choice`.
#[derive(Debug)]
enum Choice {
    Auto,
    None,
    /// `required`: the model is asked to call; nothing in text can force it.
    Required,
    /// One named function: only it is offered.
    Named(String),
}

impl Choice {
    fn read(value: Option<Value>) -> Result<Self, ApiError> {
        let bad = || {
            ApiError::invalid(
                Some("tool_choice"),
                "`tool_choice` must be \"none\", \"auto\", \"required\" or {\"type\": \"function\", \"function\": {\"name\": ...}}",
            )
        };
        match value {
            None | Some(Value::Null) => Ok(Choice::Auto),
            Some(Value::String(s)) => match s.as_str() {
                "auto" => Ok(Choice::Auto),
                "none" => Ok(Choice::None),
                "required" => Ok(Choice::Required),
                _ => Err(bad()),
            },
            Some(Value::Object(o)) => {
                let name = o
                    .get("function")
                    .and_then(|f| f.get("name"))
                    .and_then(Value::as_str)
                    .ok_or_else(bad)?;
                Ok(Choice::Named(name.to_owned()))
            }
            Some(_) => Err(bad()),
        }
    }

    fn required(&self) -> bool {
        matches!(self, Choice::Required | Choice::Named(_))
    }

    /// The tools offered under this choice.
    fn restrict(&self, tools: Vec<Value>) -> Result<Vec<Value>, ApiError> {
        let Choice::Named(name) = self else {
            return Ok(tools);
        };
        let kept: Vec<Value> = tools
            .into_iter()
            .filter(|t| {
                t.get("function")
                    .and_then(|f| f.get("name"))
                    .and_then(Value::as_str)
                    == Some(name)
            })
            .collect();
        if kept.is_empty() {
            return Err(ApiError::invalid(
                Some("tool_choice"),
                format!("`tool_choice` names `{name}`, which is not in `tools`"),
            ));
        }
        Ok(kept)
    }
}

/// The messages as the upstream gets them: the client's own message objects (their content
/// parts, images included, and extra fields such as `name` kept), except that assistant
/// calls and `tool` results are the dialect's text from `history`, `developer` is `system`
/// (servers' chat templates know no `developer`), and the tool prompt follows the first
/// system message's text (or is a system message of its own).
fn wire_messages(raw: &[Value], history: &[Message], prompt: Option<&str>) -> Value {
    let mut out = Vec::with_capacity(history.len() + 1);
    let mut prompt = prompt;
    if let Some(p) = prompt {
        if !matches!(
            history.first(),
            Some(Message::System { .. } | Message::Developer { .. })
        ) {
            out.push(json!({"role": "system", "content": p}));
            prompt = None;
        }
    }
    // `history` has one message per raw message, except that a run of `tool` messages is
    // one user message: its first raw message stands for it.
    let mut originals = raw
        .iter()
        .enumerate()
        .filter(|(i, m)| !(role(m) == "tool" && *i > 0 && role(&raw[*i - 1]) == "tool"));
    for message in history {
        let original = originals.next().map(|(_, m)| m);
        let mut object = match original {
            Some(m @ Value::Object(o)) if role(m) != "tool" => o.clone(),
            _ => Map::new(),
        };
        let content = match message {
            Message::System { content } | Message::Developer { content } => {
                object.insert("role".into(), "system".into());
                match prompt.take() {
                    Some(p) => with_prompt(object.remove("content"), content, p),
                    None => object
                        .remove("content")
                        .unwrap_or_else(|| content.as_str().into()),
                }
            }
            // Content parts (images, audio) go up as the client sent them.
            Message::User { content } if !object.is_empty() => object
                .remove("content")
                .unwrap_or_else(|| content.as_str().into()),
            Message::User { content } => content.as_str().into(),
            Message::Assistant(turn) => {
                for key in [
                    "tool_calls",
                    "function_call",
                    "reasoning_content",
                    "reasoning",
                ] {
                    object.remove(key);
                }
                turn.content.as_str().into()
            }
            // History turns every tool message into the dialect's result text.
            Message::Tool(result) => result.content.as_str().into(),
        };
        if object.is_empty() || matches!(message, Message::Tool(_)) {
            object.insert("role".into(), "user".into());
        }
        if matches!(message, Message::Assistant(_)) {
            object.insert("role".into(), "assistant".into());
        }
        object.insert("content".into(), content);
        out.push(Value::Object(object));
    }
    Value::Array(out)
}

fn role(message: &Value) -> &str {
    message.get("role").and_then(Value::as_str).unwrap_or("")
}

/// A system message's content with the tool prompt after its text: appended to a string, or
/// as one more text part of a list of parts.
fn with_prompt(original: Option<Value>, text: &str, prompt: &str) -> Value {
    match original {
        Some(Value::Array(mut parts)) if !text.trim().is_empty() => {
            parts.push(json!({"type": "text", "text": format!("\n\n{prompt}")}));
            Value::Array(parts)
        }
        _ if text.trim().is_empty() => prompt.into(),
        _ => format!("{}\n\n{prompt}", text.trim_end()).into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn policy(heal: bool) -> Policy<'static> {
        Policy {
            dialect_for: &|_| Dialect::Hermes,
            heal,
            seed: None,
        }
    }

    fn tools() -> Value {
        json!([{"type": "function", "function": {"name": "a"}},
               {"type": "function", "function": {"name": "b"}}])
    }

    #[test]
    fn without_a_system_message_the_prompt_gets_its_own() {
        let body = json!({"model": "m", "tools": tools(), "stream": false,
                          "messages": [{"role": "user", "content": "hi"}]});
        let prepared = prepare(body.to_string().as_bytes(), policy(false)).expect("valid");
        let toolset = ToolSet::from_value(&tools()).expect("tools");
        let prompt = tool_prompt(&toolset, Dialect::Hermes).expect("prompt");
        assert_eq!(
            prepared.upstream,
            json!({"model": "m", "stream": true, "stream_options": {"include_usage": true},
                   "messages": [{"role": "system", "content": prompt},
                                {"role": "user", "content": "hi"}]})
        );
        assert!(!prepared.stream);
    }

    #[test]
    fn a_named_tool_choice_offers_only_that_tool() {
        let body = json!({"model": "m", "tools": tools(), "stream": true,
                          "tool_choice": {"type": "function", "function": {"name": "b"}},
                          "messages": [{"role": "system", "content": "S"}, {"role": "user", "content": "hi"}]});
        let prepared = prepare(body.to_string().as_bytes(), policy(false)).expect("valid");
        let Mode::Project(options) = prepared.mode else {
            panic!("tools are projected");
        };
        let tools = options.tools.expect("tools offered");
        let names: Vec<&str> = tools.iter().map(|t| t.name.as_str()).collect();
        assert_eq!(names, ["b"]);
        let system = prepared.upstream["messages"][0]["content"]
            .as_str()
            .expect("text");
        assert!(system.starts_with("S\n\n"));
        assert_eq!(prepared.upstream.get("stream_options"), None);
    }

    #[test]
    fn without_tools_nothing_changes_unless_healing() {
        let body = json!({"model": "m", "top_p": 0.5, "messages": [
            {"role": "developer", "content": "d"}, {"role": "user", "content": "hi"},
            {"role": "assistant", "tool_calls": [{"id": "c", "type": "function", "function": {"name": "f", "arguments": "{}"}}]},
            {"role": "tool", "tool_call_id": "c", "content": "r"}]});
        let prepared = prepare(body.to_string().as_bytes(), policy(false)).expect("valid");
        assert!(matches!(prepared.mode, Mode::Passthrough));
        let healed = prepare(body.to_string().as_bytes(), policy(true)).expect("valid");
        let Mode::Project(options) = healed.mode else {
            panic!("healing projects");
        };
        // Leaked calls are shown when healing.
        assert!(options.calls_allowed);
        assert!(options.tools.is_none());
        assert!(matches!(options.decode, Decode::Heal { ref model } if model == "m"));
        assert_eq!(healed.upstream["messages"], body["messages"]);
    }

    #[test]
    fn message_objects_keep_their_parts_and_fields() {
        let image =
            json!({"type": "image_url", "image_url": {"url": "data:image/png;base64,AAAA"}});
        let body = json!({"model": "Qwen/Qwen3-8B", "tools": [{"type": "function", "function": {"name": "f"}}],
            "messages": [
                {"role": "developer", "content": [{"type": "text", "text": "Be brief."}]},
                {"role": "user", "name": "ana", "content": [{"type": "text", "text": "Größe? 東京"}, image]},
                {"role": "assistant", "content": null, "reasoning_content": "r",
                 "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "f", "arguments": "{}"}},
                                {"id": "c2", "type": "function", "function": {"name": "f", "arguments": "{}"}}]},
                {"role": "tool", "tool_call_id": "c1", "content": "one"},
                {"role": "tool", "tool_call_id": "c2", "content": [{"type": "text", "text": "two"}]},
                {"role": "user", "name": "ana", "content": "and now?"}]});
        let prepared = prepare(body.to_string().as_bytes(), policy(false)).expect("valid");
        let wire = prepared.upstream["messages"]
            .as_array()
            .expect("list")
            .clone();
        assert_eq!(wire.len(), 5);
        assert_eq!(wire[0]["role"], "system");
        let parts = wire[0]["content"].as_array().expect("parts kept");
        assert_eq!(parts[0], json!({"type": "text", "text": "Be brief."}));
        assert!(parts[1]["text"]
            .as_str()
            .expect("prompt")
            .starts_with("\n\n"));
        assert_eq!(wire[1], body["messages"][1]);
        assert_eq!(wire[2]["role"], "assistant");
        assert_eq!(wire[2].get("tool_calls"), None);
        assert_eq!(wire[2].get("reasoning_content"), None);
        assert!(wire[2]["content"]
            .as_str()
            .expect("text")
            .contains("<tool_call>"));
        assert_eq!(wire[3]["role"], "user");
        let results = wire[3]["content"].as_str().expect("text");
        assert!(
            results.contains("one") && results.contains("two"),
            "{results}"
        );
        assert_eq!(wire[3].get("tool_call_id"), None);
        assert_eq!(wire[4], body["messages"][5]);
    }
}
