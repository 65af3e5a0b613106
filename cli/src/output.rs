//! The three output formats of `inband scan`, as JSON.

use std::io::{self, Write};

use inband::{CallEnd, Dialect, Markup, Options, Role, Scanner};
use inband_alloc::assemble::{assemble, AssembleOptions};
use inband_alloc::events::{EventLog, OwnedEvent};
use inband_alloc::stream::{ChunkDelta, DeltaStream};
use serde_json::{json, Map, Value};

fn assemble_options(seed: Option<u64>) -> AssembleOptions {
    let mut options = AssembleOptions::default();
    options.seed = seed;
    options
}

fn lossy(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn role(role: Role) -> &'static str {
    match role {
        Role::CallOpen => "call_open",
        Role::CallClose => "call_close",
        Role::ReasoningOpen => "reasoning_open",
        Role::ReasoningClose => "reasoning_close",
        Role::ResultOpen => "result_open",
        Role::Stop => "stop",
        _ => "other",
    }
}

fn end(end: CallEnd) -> &'static str {
    match end {
        CallEnd::Complete => "complete",
        CallEnd::Incomplete => "incomplete",
        CallEnd::Demoted => "demoted",
        CallEnd::Invalid => "invalid",
    }
}

/// `--format events`: one JSON object per line per event.
pub fn events<'a>(
    dialect: Dialect,
    options: Options,
    chunks: impl Iterator<Item = &'a [u8]>,
    out: &mut impl Write,
) -> io::Result<()> {
    let log = EventLog::scan(dialect, options, chunks);
    for event in &log.events {
        let span = event.span();
        let mut object = Map::new();
        let (kind, fields) = match event {
            OwnedEvent::Text { text, .. } => ("text", json!({ "text": lossy(text) })),
            OwnedEvent::Reasoning { text, .. } => ("reasoning", json!({ "text": lossy(text) })),
            OwnedEvent::Markup { kind, bytes, .. } => {
                let what = match kind {
                    Markup::Delimiter(r) => role(*r),
                    _ => "envelope",
                };
                ("markup", json!({ "markup": what, "text": lossy(bytes) }))
            }
            OwnedEvent::ReasoningStart { .. } => ("reasoning_start", json!({})),
            OwnedEvent::ReasoningEnd { .. } => ("reasoning_end", json!({})),
            OwnedEvent::ToolStart {
                call,
                name,
                provisional,
                ..
            } => (
                "tool_start",
                json!({ "call": call, "name": name.as_deref().map(lossy), "provisional": provisional }),
            ),
            OwnedEvent::ToolName { call, name, .. } => {
                ("tool_name", json!({ "call": call, "name": lossy(name) }))
            }
            OwnedEvent::ToolArgs { call, json, .. } => {
                ("tool_args", json!({ "call": call, "json": lossy(json) }))
            }
            OwnedEvent::ToolEnd { call, end: e, .. } => {
                ("tool_end", json!({ "call": call, "end": end(*e) }))
            }
            OwnedEvent::FabricatedResult { .. } => ("fabricated_result", json!({})),
            OwnedEvent::Diagnostic { diagnostic, .. } => (
                "diagnostic",
                json!({ "code": diagnostic.code(), "message": diagnostic.message() }),
            ),
        };
        object.insert("kind".into(), kind.into());
        object.insert("span".into(), json!([span.start, span.end]));
        if let Value::Object(fields) = fields {
            object.extend(fields);
        }
        serde_json::to_writer(&mut *out, &Value::Object(object))?;
        out.write_all(b"\n")?;
    }
    Ok(())
}

/// `--format summary`: the assembled completion as one JSON object.
pub fn summary<'a>(
    dialect: Dialect,
    options: Options,
    seed: Option<u64>,
    chunks: impl Iterator<Item = &'a [u8]>,
    out: &mut impl Write,
) -> io::Result<()> {
    let completion = assemble(dialect, options, &assemble_options(seed), chunks);
    serde_json::to_writer(&mut *out, &completion)?;
    out.write_all(b"\n")
}

/// `--format openai`: one `chat.completion.chunk` per fed chunk that produced output, then
/// a final chunk with the `finish_reason`.
pub fn openai<'a>(
    dialect: Dialect,
    options: Options,
    seed: Option<u64>,
    hold_calls: bool,
    chunks: impl Iterator<Item = &'a [u8]>,
    out: &mut impl Write,
) -> io::Result<()> {
    let mut scanner = Scanner::new(dialect, options);
    let mut stream_options = assemble_options(seed);
    stream_options.hold_calls = hold_calls;
    let mut stream = DeltaStream::new(&stream_options);
    let mut first = true;
    for chunk in chunks {
        scanner
            .feed(chunk, &mut stream)
            .expect("a new scanner is not finished");
        let delta = stream.take_delta();
        if !delta.is_empty() {
            write_chunk(out, &delta, &mut first, None)?;
        }
    }
    scanner
        .finish(&mut stream)
        .expect("a new scanner is not finished");
    let (delta, reason, _) = stream.finish();
    write_chunk(out, &delta, &mut first, Some(reason))
}

fn write_chunk(
    out: &mut impl Write,
    delta: &ChunkDelta,
    first: &mut bool,
    finish: Option<&str>,
) -> io::Result<()> {
    let mut d = Map::new();
    if std::mem::take(first) {
        d.insert("role".into(), "assistant".into());
    }
    if !delta.content.is_empty() {
        d.insert("content".into(), delta.content.clone().into());
    }
    if !delta.reasoning_content.is_empty() {
        d.insert(
            "reasoning_content".into(),
            delta.reasoning_content.clone().into(),
        );
    }
    if !delta.tool_calls.is_empty() {
        let calls: Vec<Value> = delta
            .tool_calls
            .iter()
            .map(|c| {
                let mut call = Map::new();
                call.insert("index".into(), c.index.into());
                let mut function = Map::new();
                if let Some(id) = &c.id {
                    call.insert("id".into(), id.clone().into());
                    call.insert("type".into(), "function".into());
                }
                if let Some(name) = &c.name {
                    function.insert("name".into(), name.clone().into());
                }
                function.insert("arguments".into(), c.arguments.clone().into());
                call.insert("function".into(), Value::Object(function));
                Value::Object(call)
            })
            .collect();
        d.insert("tool_calls".into(), calls.into());
    }
    let chunk = json!({
        "id": "chatcmpl-inband",
        "object": "chat.completion.chunk",
        "created": 0,
        "model": "inband",
        "choices": [{ "index": 0, "delta": Value::Object(d), "finish_reason": finish }],
    });
    serde_json::to_writer(&mut *out, &chunk)?;
    out.write_all(b"\n")
}
