//! The three output formats of `inband scan`, as JSON.

use std::io::{self, Write};

use inband::{Dialect, Markup, Options, Scanner};
use inband_alloc::assemble::{AssembleOptions, Assembler};
use inband_alloc::events::{EventLog, OwnedEvent};
use inband_alloc::stream::{ChunkDelta, DeltaStream};
use serde_json::{json, Map, Value};

use crate::Format;

fn lossy(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// What `inband scan` prints, fed chunk by chunk as the input arrives.
pub trait Output {
    /// Scans the next chunk; prints what this format prints per chunk.
    fn chunk(&mut self, chunk: &[u8], out: &mut dyn Write) -> io::Result<()>;
    /// Ends the stream; prints the rest.
    fn finish(self: Box<Self>, out: &mut dyn Write) -> io::Result<()>;
}

/// The output for `format`.
pub fn new(
    format: Format,
    dialect: Dialect,
    options: Options,
    assemble_options: &AssembleOptions,
) -> Box<dyn Output> {
    let scanner = Scanner::new(dialect, options);
    match format {
        Format::Events => Box::new(Events {
            scanner,
            log: EventLog::new(),
        }),
        Format::Summary => Box::new(Summary {
            scanner,
            assembler: Assembler::new(dialect, assemble_options),
        }),
        Format::Openai => Box::new(Openai {
            scanner,
            // The final completion is not printed: keep only what was not sent.
            stream: DeltaStream::unsent(dialect, assemble_options),
            first: true,
        }),
    }
}

const FRESH: &str = "a new scanner is not finished";

/// Most payload bytes of one printed event: a longer run of text, reasoning, arguments or
/// a value is printed as several events (the same whatever the chunking), so memory stays
/// bounded however long the input.
pub const EVENT_PIECE: usize = 64 << 10;

/// `--format events`: one JSON object per line per event, adjacent fragments joined (up
/// to [`EVENT_PIECE`] bytes), printed as soon as no later fragment can join them.
struct Events {
    scanner: Scanner,
    log: EventLog,
}

fn write_events(events: Vec<OwnedEvent>, out: &mut dyn Write) -> io::Result<()> {
    for event in &events {
        serde_json::to_writer(&mut *out, &event_json(event))?;
        out.write_all(b"\n")?;
    }
    Ok(())
}

impl Output for Events {
    fn chunk(&mut self, chunk: &[u8], out: &mut dyn Write) -> io::Result<()> {
        self.scanner.feed(chunk, &mut self.log).expect(FRESH);
        let events = self.log.take_settled(EVENT_PIECE);
        if events.is_empty() {
            return Ok(());
        }
        write_events(events, out)?;
        // A live pipe sees each event as soon as it is settled.
        out.flush()
    }

    fn finish(mut self: Box<Self>, out: &mut dyn Write) -> io::Result<()> {
        self.scanner.finish(&mut self.log).expect(FRESH);
        write_events(self.log.take_all(EVENT_PIECE), out)
    }
}

fn event_json(event: &OwnedEvent) -> Value {
    let span = event.span();
    let mut object = Map::new();
    let (kind, fields) = match event {
        OwnedEvent::Text { text, .. } => ("text", json!({ "text": lossy(text) })),
        OwnedEvent::Reasoning { text, .. } => ("reasoning", json!({ "text": lossy(text) })),
        OwnedEvent::Markup { kind, bytes, .. } => {
            let what = match kind {
                Markup::Delimiter(r) => r.key(),
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
        OwnedEvent::ToolId { call, id, .. } => {
            ("tool_id", json!({ "call": call, "id": lossy(id) }))
        }
        OwnedEvent::ToolName { call, name, .. } => {
            ("tool_name", json!({ "call": call, "name": lossy(name) }))
        }
        OwnedEvent::ToolArgs { call, json, .. } => {
            ("tool_args", json!({ "call": call, "json": lossy(json) }))
        }
        OwnedEvent::ToolParam {
            call, key, kind, ..
        } => (
            "tool_param",
            json!({ "call": call, "key": lossy(key), "value_kind": kind.code() }),
        ),
        OwnedEvent::ToolValue {
            call, piece, bytes, ..
        } => (
            "tool_value",
            json!({ "call": call, "piece": piece.code(), "text": lossy(bytes) }),
        ),
        OwnedEvent::ToolParamEnd { call, .. } => ("tool_param_end", json!({ "call": call })),
        OwnedEvent::ToolEnd { call, end: e, .. } => {
            ("tool_end", json!({ "call": call, "end": e.code() }))
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
    Value::Object(object)
}

/// `--format summary`: the assembled completion as one JSON object.
struct Summary {
    scanner: Scanner,
    assembler: Assembler,
}

impl Output for Summary {
    fn chunk(&mut self, chunk: &[u8], _: &mut dyn Write) -> io::Result<()> {
        self.scanner.feed(chunk, &mut self.assembler).expect(FRESH);
        Ok(())
    }

    fn finish(mut self: Box<Self>, out: &mut dyn Write) -> io::Result<()> {
        self.scanner.finish(&mut self.assembler).expect(FRESH);
        serde_json::to_writer(&mut *out, &self.assembler.finish())?;
        out.write_all(b"\n")
    }
}

/// `--format openai`: one `chat.completion.chunk` per fed chunk that produced output, then
/// a final chunk with the `finish_reason`.
struct Openai {
    scanner: Scanner,
    stream: DeltaStream,
    first: bool,
}

impl Output for Openai {
    fn chunk(&mut self, chunk: &[u8], out: &mut dyn Write) -> io::Result<()> {
        self.scanner.feed(chunk, &mut self.stream).expect(FRESH);
        let delta = self.stream.take_delta();
        if delta.is_empty() {
            return Ok(());
        }
        write_chunk(out, &delta, &mut self.first, None)?;
        // A live pipe sees each chunk as it is decoded.
        out.flush()
    }

    fn finish(mut self: Box<Self>, out: &mut dyn Write) -> io::Result<()> {
        self.scanner.finish(&mut self.stream).expect(FRESH);
        let (delta, reason, _) = self.stream.finish();
        write_chunk(out, &delta, &mut self.first, Some(reason))
    }
}

fn write_chunk(
    out: &mut dyn Write,
    delta: &ChunkDelta,
    first: &mut bool,
    finish: Option<&str>,
) -> io::Result<()> {
    let mut d = Map::new();
    if std::mem::take(first) {
        d.insert("role".into(), "assistant".into());
    }
    d.extend(delta.to_openai());
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
