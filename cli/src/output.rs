//! The three output formats of `inband scan`, as JSON.

use std::io::{self, Write};
use std::ops::Range;

use inband::{
    CallEnd, Diagnostic, Dialect, Markup, Options, Piece, Scanner, Sink, Span, TokenGate, ValueKind,
};
use inband_alloc::assemble::{AssembleOptions, Assembler, DiagnosticRecord};
use inband_alloc::events::{EventLog, OwnedEvent};
use inband_alloc::stream::{write_chunk, ChunkDelta, ChunkMeta, DeltaStream};
use serde_json::{json, Map, Value};

use crate::Format;

fn lossy(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// What `inband scan` prints, fed chunk by chunk as the input arrives.
pub trait Output {
    /// Scans the next chunk (in token mode with `tokens`, the byte ranges of its added
    /// tokens); prints what this format prints per chunk.
    fn chunk(
        &mut self,
        chunk: &[u8],
        tokens: Option<&[Range<usize>]>,
        out: &mut dyn Write,
    ) -> io::Result<()>;
    /// Ends the stream; prints the rest.
    fn finish(self: Box<Self>, out: &mut dyn Write) -> io::Result<()>;
}

/// The output for `format`; in token mode with `gate`.
pub fn new(
    format: Format,
    dialect: Dialect,
    options: Options,
    gate: Option<TokenGate>,
    assemble_options: &AssembleOptions,
) -> Box<dyn Output> {
    let scanner = match gate {
        Some(gate) => Scanner::with_tokens(gate, options),
        None => Scanner::new(dialect, options),
    };
    match format {
        Format::Events => Box::new(Events {
            scanner,
            log: EventLog::new(),
            stream: DeltaStream::unsent(dialect, assemble_options),
            repeated: Vec::new(),
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

/// Feeds `chunk`, in token mode when `tokens` are given.
fn scan<S: Sink>(
    scanner: &mut Scanner,
    chunk: &[u8],
    tokens: Option<&[Range<usize>]>,
    sink: &mut S,
) {
    match tokens {
        // The spans come from `crate::ids`, sorted and in the chunk; the gate is set.
        Some(tokens) => scanner.feed_tokens(chunk, tokens, sink),
        None => scanner.feed(chunk, sink),
    }
    .expect(FRESH);
}

/// Most payload bytes of one printed event: a longer run of text, reasoning, arguments or
/// a value is printed as several events (the same whatever the chunking), so memory stays
/// bounded however long the input.
pub const EVENT_PIECE: usize = 64 << 10;

/// `--format events`: one JSON object per line per event, adjacent fragments joined (up
/// to [`EVENT_PIECE`] bytes), printed as soon as no later fragment can join them.
///
/// The events are the scanner's, the model's text as written, so a repeated key is in
/// them; a stream assembling the same events (memory flat: it keeps only what it has not
/// sent) finds the repeats, and their `duplicate_parameter` / `duplicate_key` (and
/// `duplicate_call_id`) diagnostics are printed just before the `tool_end` of their call
/// (a call cut off by the end of the stream: at the end), whatever the chunking.
struct Events {
    scanner: Scanner,
    log: EventLog,
    stream: DeltaStream,
    /// Repeat diagnostics not printed yet.
    repeated: Vec<DiagnosticRecord>,
}

/// The assembler's diagnostics that the scanner's events do not carry and that say the
/// arguments (or the call id) are not as written.
const REPEAT_CODES: [&str; 3] = ["duplicate_parameter", "duplicate_key", "duplicate_call_id"];

/// Feeds the event log and the assembling stream the same events.
struct Tee<'a> {
    log: &'a mut EventLog,
    stream: &'a mut DeltaStream,
}

impl Sink for Tee<'_> {
    fn text(&mut self, span: Span, text: &[u8]) {
        self.log.text(span, text);
        self.stream.text(span, text);
    }
    fn reasoning(&mut self, span: Span, text: &[u8]) {
        self.log.reasoning(span, text);
        self.stream.reasoning(span, text);
    }
    fn markup(&mut self, span: Span, kind: Markup, bytes: &[u8]) {
        self.log.markup(span, kind, bytes);
        self.stream.markup(span, kind, bytes);
    }
    fn reasoning_start(&mut self, span: Span) {
        self.log.reasoning_start(span);
        self.stream.reasoning_start(span);
    }
    fn reasoning_end(&mut self, span: Span) {
        self.log.reasoning_end(span);
        self.stream.reasoning_end(span);
    }
    fn tool_start(&mut self, span: Span, call: u32, name: Option<&[u8]>, provisional: bool) {
        self.log.tool_start(span, call, name, provisional);
        self.stream.tool_start(span, call, name, provisional);
    }
    fn tool_id(&mut self, span: Span, call: u32, id: &[u8]) {
        self.log.tool_id(span, call, id);
        self.stream.tool_id(span, call, id);
    }
    fn tool_name(&mut self, span: Span, call: u32, name: &[u8]) {
        self.log.tool_name(span, call, name);
        self.stream.tool_name(span, call, name);
    }
    fn tool_args(&mut self, span: Span, call: u32, json: &[u8]) {
        self.log.tool_args(span, call, json);
        self.stream.tool_args(span, call, json);
    }
    fn tool_param(&mut self, span: Span, call: u32, key: &[u8], kind: ValueKind) {
        self.log.tool_param(span, call, key, kind);
        self.stream.tool_param(span, call, key, kind);
    }
    fn tool_value(&mut self, span: Span, call: u32, piece: Piece, bytes: &[u8]) {
        self.log.tool_value(span, call, piece, bytes);
        self.stream.tool_value(span, call, piece, bytes);
    }
    fn tool_param_end(&mut self, span: Span, call: u32) {
        self.log.tool_param_end(span, call);
        self.stream.tool_param_end(span, call);
    }
    fn tool_end(&mut self, span: Span, call: u32, end: CallEnd) {
        self.log.tool_end(span, call, end);
        self.stream.tool_end(span, call, end);
    }
    fn fabricated_result(&mut self, span: Span) {
        self.log.fabricated_result(span);
        self.stream.fabricated_result(span);
    }
    fn diagnostic(&mut self, span: Span, diagnostic: Diagnostic) {
        self.log.diagnostic(span, diagnostic);
        self.stream.diagnostic(span, diagnostic);
    }
}

impl Events {
    fn tee(&mut self) -> (&mut Scanner, Tee<'_>) {
        let tee = Tee {
            log: &mut self.log,
            stream: &mut self.stream,
        };
        (&mut self.scanner, tee)
    }

    /// Keeps the repeat diagnostics the stream recorded since the last call.
    fn collect(&mut self, recorded: Vec<DiagnosticRecord>) {
        self.repeated.extend(
            recorded
                .into_iter()
                .filter(|d| REPEAT_CODES.contains(&d.code)),
        );
    }

    /// Prints `events`, each call's repeat diagnostics (those that start before its
    /// `tool_end` ends) just before its `tool_end`.
    fn write(&mut self, events: Vec<OwnedEvent>, out: &mut dyn Write) -> io::Result<()> {
        for event in &events {
            if let OwnedEvent::ToolEnd { span, .. } = event {
                let (before, after) = std::mem::take(&mut self.repeated)
                    .into_iter()
                    .partition(|d| d.span[0] < span.end);
                self.repeated = after;
                write_records(before, out)?;
            }
            serde_json::to_writer(&mut *out, &event_json(event))?;
            out.write_all(b"\n")?;
        }
        Ok(())
    }
}

/// Prints assembler diagnostics as `diagnostic` events, in span order.
fn write_records(mut records: Vec<DiagnosticRecord>, out: &mut dyn Write) -> io::Result<()> {
    records.sort_by_key(|d| d.span);
    for d in records {
        let event =
            json!({ "kind": "diagnostic", "span": d.span, "code": d.code, "message": d.message });
        serde_json::to_writer(&mut *out, &event)?;
        out.write_all(b"\n")?;
    }
    Ok(())
}

impl Output for Events {
    fn chunk(
        &mut self,
        chunk: &[u8],
        tokens: Option<&[Range<usize>]>,
        out: &mut dyn Write,
    ) -> io::Result<()> {
        let (scanner, mut tee) = self.tee();
        scan(scanner, chunk, tokens, &mut tee);
        // Retires what the stream would have sent: its memory stays flat.
        self.stream.delta();
        let recorded = self.stream.take_diagnostics();
        self.collect(recorded);
        let events = self.log.take_settled(EVENT_PIECE);
        if events.is_empty() {
            return Ok(());
        }
        self.write(events, out)?;
        // A live pipe sees each event as soon as it is settled.
        out.flush()
    }

    fn finish(mut self: Box<Self>, out: &mut dyn Write) -> io::Result<()> {
        let (scanner, mut tee) = self.tee();
        scanner.finish(&mut tee).expect(FRESH);
        let recorded = self.stream.take_diagnostics();
        self.collect(recorded);
        let events = self.log.take_all(EVENT_PIECE);
        self.write(events, out)?;
        // The repeats in calls cut off by the end of the stream.
        let Events {
            stream,
            mut repeated,
            ..
        } = *self;
        let (_, _, completion) = stream.finish();
        repeated.extend(
            completion
                .diagnostics
                .into_iter()
                .filter(|d| REPEAT_CODES.contains(&d.code)),
        );
        write_records(repeated, out)
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
    fn chunk(
        &mut self,
        chunk: &[u8],
        tokens: Option<&[Range<usize>]>,
        _: &mut dyn Write,
    ) -> io::Result<()> {
        scan(&mut self.scanner, chunk, tokens, &mut self.assembler);
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
    fn chunk(
        &mut self,
        chunk: &[u8],
        tokens: Option<&[Range<usize>]>,
        out: &mut dyn Write,
    ) -> io::Result<()> {
        scan(&mut self.scanner, chunk, tokens, &mut self.stream);
        let delta = self.stream.delta();
        if delta.is_empty() {
            return Ok(());
        }
        write_line(out, delta, &mut self.first, None)?;
        // A live pipe sees each chunk as it is decoded.
        out.flush()
    }

    fn finish(mut self: Box<Self>, out: &mut dyn Write) -> io::Result<()> {
        self.scanner.finish(&mut self.stream).expect(FRESH);
        let (delta, reason, _) = self.stream.finish();
        write_line(out, &delta, &mut self.first, Some(reason))
    }
}

/// The fixed fields of every chunk `inband scan --format openai` prints.
const META: ChunkMeta<'static> = ChunkMeta {
    id: "chatcmpl-inband",
    created: 0,
    model: "inband",
};

fn write_line(
    out: &mut dyn Write,
    delta: &ChunkDelta,
    first: &mut bool,
    finish: Option<&str>,
) -> io::Result<()> {
    write_chunk(&mut *out, &META, delta, std::mem::take(first), finish)?;
    out.write_all(b"\n")
}
