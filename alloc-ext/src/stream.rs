//! OpenAI-style streaming: after each fed chunk, the `delta` a server sends to clients
//! (`content`, `reasoning_content`, `tool_calls[i].function.arguments` fragments).
//!
//! Calls are exposed when their name is known; a call drafted inside reasoning is held,
//! with the reasoning after it, until the reasoning closes (it was a draft: its bytes go
//! out as reasoning) or the stream ends first (it is a call). Argument fragments are the
//! model's text through [`inband::ArgumentsNormalizer`], or, for parameters, the JSON text
//! built from them as values arrive (a value typed as a string, by the markup or by a
//! string-only schema, streams as `"` and its escaped text as it comes, a literal value
//! piece by piece; any other value goes out once complete; see [`crate::assemble`]); their
//! concatenation is exactly the JSON the completion's arguments were parsed from
//! ([`ToolCall::arguments_text`](crate::assemble::ToolCall::arguments_text)). A repeated
//! key, at any level, is left out with its value as the text streams (a key goes out once
//! its closing quote has arrived), so the fragments never hold one (see
//! [Arguments](crate::assemble#arguments)). Text is cut at UTF-8 code point boundaries
//! only.
//!
//! A server's decode loop calls [`DeltaStream::delta`] after each fed chunk (the delta is
//! borrowed and its buffers reused: no heap allocation per chunk in steady state) and
//! writes it with [`write_chunk`]; [`DeltaStream::take_delta`] gives the same delta owned.
//!
//! ## Memory
//!
//! A stream keeps what it must still send: the open calls (their arguments, to parse them
//! when they complete; at most [`Options::max_argument_bytes`](inband::Options) each) and
//! a partial UTF-8 code point. A settled call's record is dropped once it is sent,
//! whatever [`Retain`] says. What else it keeps for [`DeltaStream::finish`]'s
//! [`Completion`] is the [`Retain`] chosen:
//!
//! - [`Retain::Completion`] ([`DeltaStream::new`]): the whole completion, as
//!   [`assemble`](crate::assemble::assemble) gives it, so memory grows with the response up
//!   to [`AssembleOptions::max_response_bytes`] (64 MiB by default; past it the response is
//!   cut, with a `response_too_long` diagnostic);
//! - [`Retain::Unsent`] ([`DeltaStream::unsent`]), for a server with many open streams:
//!   nothing a delta has carried; the final completion has no content (`""`), no
//!   reasoning (`None`, or `Some("")` when the response had a reasoning block) and no
//!   complete calls (clients have them; the `finish_reason` still counts them), only the
//!   incomplete calls and the diagnostics (at most 1024, then one `too_many_diagnostics`
//!   whose span runs from the first left out to the last). Memory stays flat however long the
//!   response, and no response limit applies.

use inband::{CallEnd, Diagnostic, Dialect, Markup, Piece, Sink, Span, ValueKind};
use serde::Serialize;
use serde_json::{Map, Value};

use crate::assemble::{AssembleOptions, Assembler, Completion, DiagnosticRecord, Keep, Segment};

mod direct;
pub(crate) mod escape;
mod openai;
mod utf8;

pub use openai::{write_chunk, ChunkMeta};
use utf8::take_utf8;

/// One tool-call fragment of a delta.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ToolCallDelta {
    /// The call's position among the calls exposed to the client, from 0.
    pub index: u32,
    /// The call id, on the call's first fragment only.
    pub id: Option<String>,
    /// The tool name, on the call's first fragment only.
    pub name: Option<String>,
    /// The next piece of the arguments' JSON text (may be empty).
    pub arguments: String,
}

/// What one chunk added to the response.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct ChunkDelta {
    /// New visible content.
    pub content: String,
    /// New reasoning text.
    pub reasoning_content: String,
    /// New tool-call fragments, at most one per call.
    pub tool_calls: Vec<ToolCallDelta>,
}

impl ChunkDelta {
    /// True when the chunk added nothing a client can see.
    pub fn is_empty(&self) -> bool {
        self.content.is_empty() && self.reasoning_content.is_empty() && self.tool_calls.is_empty()
    }

    /// The delta as OpenAI's `chat.completion.chunk` `choices[0].delta` object, without
    /// `role`: `content` and `reasoning_content` when not empty, and `tool_calls` when
    /// any, each `{"index", "id", "type": "function", "function": {"name", "arguments"}}`
    /// with `id`, `type` and `name` on a call's first fragment only. An empty delta is `{}`.
    pub fn to_openai(&self) -> Map<String, Value> {
        let mut d = Map::new();
        if !self.content.is_empty() {
            d.insert("content".into(), self.content.clone().into());
        }
        if !self.reasoning_content.is_empty() {
            d.insert(
                "reasoning_content".into(),
                self.reasoning_content.clone().into(),
            );
        }
        if !self.tool_calls.is_empty() {
            let calls = self
                .tool_calls
                .iter()
                .map(ToolCallDelta::to_openai)
                .collect();
            d.insert("tool_calls".into(), Value::Array(calls));
        }
        d
    }
}

impl ToolCallDelta {
    /// The fragment as one OpenAI `tool_calls[]` entry (see [`ChunkDelta::to_openai`]).
    pub fn to_openai(&self) -> Value {
        let mut call = Map::new();
        call.insert("index".into(), self.index.into());
        if let Some(id) = &self.id {
            call.insert("id".into(), id.clone().into());
            call.insert("type".into(), "function".into());
        }
        let mut function = Map::new();
        if let Some(name) = &self.name {
            function.insert("name".into(), name.clone().into());
        }
        function.insert("arguments".into(), self.arguments.clone().into());
        call.insert("function".into(), Value::Object(function));
        Value::Object(call)
    }
}

/// What the final completion of a [`DeltaStream`] keeps (see [Memory](self#memory)).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum Retain {
    /// The whole completion, bounded by [`AssembleOptions::max_response_bytes`].
    #[default]
    Completion,
    /// Only what no delta has carried: incomplete calls and diagnostics.
    Unsent,
}

/// A call's exposure to clients.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Exposed {
    index: u32,
    /// Argument bytes already sent.
    sent: usize,
}

/// How far a [`DeltaStream`]'s deltas have gone.
#[derive(Debug)]
struct Sent {
    content: usize,
    /// Next entry of the assembler's released ranges to look at.
    released_at: usize,
    hold_calls: bool,
    /// Reasoning segment being sent, and bytes of it already sent.
    reasoning_at: (usize, usize),
    /// Calls before this one are settled and fully sent.
    first_open: usize,
    next_index: u32,
}

/// Buffers of earlier deltas, cleared, for the next ones.
#[derive(Debug, Default)]
struct Spare {
    /// Fragments' arguments.
    arguments: Vec<String>,
    /// First fragments' ids and names.
    strings: Vec<String>,
}

impl Spare {
    fn string(&mut self) -> String {
        self.arguments.pop().unwrap_or_default()
    }

    /// `text` in a reused `String`.
    fn copy(&mut self, text: &str) -> String {
        let mut out = self.strings.pop().unwrap_or_default();
        out.push_str(text);
        out
    }

    /// Keeps a fragment's buffers.
    fn keep(&mut self, call: ToolCallDelta) {
        let mut arguments = call.arguments;
        arguments.clear();
        self.arguments.push(arguments);
        for mut text in [call.id, call.name].into_iter().flatten() {
            text.clear();
            self.strings.push(text);
        }
    }
}

/// A [`Sink`] that turns events into per-chunk [`ChunkDelta`]s. Feed a chunk to the
/// scanner with this sink, then call [`DeltaStream::take_delta`].
#[derive(Debug)]
pub struct DeltaStream {
    assembler: Assembler,
    sent: Sent,
    finished: bool,
    /// The delta being built, its buffers reused from chunk to chunk (see
    /// [`DeltaStream::delta`]).
    delta: ChunkDelta,
    /// `delta` was cleared for the chunk being fed ([`DeltaStream::begin_delta`]).
    fresh: bool,
    /// Since the last delta, nothing but text that went straight into the delta, and
    /// then nothing was waiting ([`DeltaStream::quiet`]).
    quiet: bool,
    /// A code point the last quiet piece ended inside ([`direct::Carry`]).
    carry: direct::Carry,
    spare: Spare,
    /// The draft segments whose text a delta showed, reused.
    shown: Vec<usize>,
}

impl DeltaStream {
    /// A stream for one response of `dialect` (the scanner's).
    ///
    /// # Panics
    /// Without a seed, if the operating system's random source fails (see
    /// [`IdMinter::random`](crate::ids::IdMinter::random)).
    pub fn new(dialect: Dialect, options: &AssembleOptions) -> Self {
        Self::retaining(dialect, options, Retain::Completion)
    }

    /// A stream whose final completion keeps only what no delta has carried
    /// ([`Retain::Unsent`]): memory stays flat however long the response.
    ///
    /// # Panics
    /// As [`DeltaStream::new`].
    pub fn unsent(dialect: Dialect, options: &AssembleOptions) -> Self {
        Self::retaining(dialect, options, Retain::Unsent)
    }

    /// A stream whose final completion keeps what `retain` says.
    ///
    /// # Panics
    /// As [`DeltaStream::new`].
    pub fn retaining(dialect: Dialect, options: &AssembleOptions, retain: Retain) -> Self {
        let mut assembler = Assembler::new(dialect, options);
        assembler.set_keep(match retain {
            Retain::Completion => Keep::Settled,
            Retain::Unsent => Keep::Unsent,
        });
        let mut stream = DeltaStream {
            assembler,
            sent: Sent {
                content: 0,
                released_at: 0,
                hold_calls: options.hold_calls,
                reasoning_at: (0, 0),
                first_open: 0,
                next_index: 0,
            },
            finished: false,
            delta: ChunkDelta::default(),
            fresh: true,
            quiet: false,
            carry: direct::Carry::default(),
            spare: Spare::default(),
            shown: Vec::new(),
        };
        // A response that begins with text takes the quiet path from its first byte.
        stream.quiet = stream.quiet();
        stream
    }

    /// Everything that became visible since the last call, borrowed until the next one:
    /// the server's decode loop (feed a chunk, take its delta, write it out, e.g. with
    /// [`write_chunk`]). The delta's buffers are the stream's own, cleared and refilled on
    /// each call, so in steady state a chunk costs no heap allocation, nor does a call's
    /// first fragment once an earlier one has given its `id` and `name` buffers back.
    /// After the scanner's `finish`, call [`DeltaStream::finish`] instead.
    #[inline]
    pub fn delta(&mut self) -> &ChunkDelta {
        self.begin_delta();
        self.fresh = false;
        // When quiet, the delta is only text that went straight into it, if anything (see
        // `direct`); the decode loop's common step stays this short.
        if !self.quiet {
            self.settle();
        }
        &self.delta
    }

    /// [`DeltaStream::delta`]'s general path: what the assembler holds that was not sent.
    #[inline(never)]
    fn settle(&mut self) {
        let DeltaStream {
            assembler: a,
            sent,
            finished,
            delta,
            spare,
            shown,
            ..
        } = self;
        let final_ = *finished;
        sent.take_content(a, delta, final_);
        if a.reasoning.is_some() {
            sent.take_reasoning(a, delta, final_, shown);
        }
        if sent.first_open < a.calls.len() {
            sent.take_calls(a, delta, spare, final_);
        }
        if !shown.is_empty() {
            for at in shown.drain(..) {
                a.draft_shown(at);
            }
        }
        sent.released_at = 0;
        (sent.content, sent.reasoning_at) =
            a.retire_sent(sent.first_open, sent.content, sent.reasoning_at);
        self.quiet = self.quiet();
    }

    /// [`DeltaStream::delta`], owned: the same delta, but its buffers go with it, so each
    /// call allocates them anew.
    pub fn take_delta(&mut self) -> ChunkDelta {
        self.delta();
        std::mem::take(&mut self.delta)
    }
}

impl Sent {
    /// Whether call `call` was shown to the client.
    fn exposed(a: &Assembler, call: u32) -> bool {
        a.calls
            .get(call as usize)
            .is_some_and(|record| record.exposed.is_some())
    }

    /// New content; a call already shown to the client that broke is not shown again as
    /// content.
    fn take_content(&mut self, a: &Assembler, delta: &mut ChunkDelta, final_: bool) {
        while let Some((call, range)) = a.released.get(self.released_at).cloned() {
            self.released_at += 1;
            if Self::exposed(a, call) {
                let upto = range.start.max(self.content);
                self.content += take_utf8(&a.content[self.content..upto], true, &mut delta.content);
                self.content = self.content.max(range.end);
            }
        }
        if self.content < a.content.len() {
            self.content += take_utf8(&a.content[self.content..], final_, &mut delta.content);
        }
    }

    /// New reasoning; adds to `shown` the draft segments whose text is now decided.
    fn take_reasoning(
        &mut self,
        a: &Assembler,
        delta: &mut ChunkDelta,
        final_: bool,
        shown: &mut Vec<usize>,
    ) {
        let Some(segments) = &a.reasoning else {
            return;
        };
        let (mut seg, mut off) = self.reasoning_at;
        while let Some(segment) = segments.get(seg) {
            match segment {
                Segment::Text(bytes) => {
                    // A segment followed by another is closed: cut it whole.
                    let closed = final_ || seg + 1 < segments.len();
                    if off < bytes.len() {
                        off += take_utf8(&bytes[off..], closed, &mut delta.reasoning_content);
                    }
                    if off < bytes.len() || seg + 1 == segments.len() {
                        break;
                    }
                }
                Segment::Draft(call) => {
                    let Some(record) = a.calls.get(*call as usize) else {
                        break;
                    };
                    if record.end.is_none() {
                        break;
                    }
                    // A call already shown to the client that broke is not shown again as
                    // reasoning either.
                    if !(record.shows_as_text() && record.exposed.is_some()) {
                        delta
                            .reasoning_content
                            .push_str(&String::from_utf8_lossy(record.draft_text()));
                    }
                    shown.push(seg);
                }
            }
            seg += 1;
            off = 0;
        }
        self.reasoning_at = (seg, off);
    }

    /// New tool-call fragments: a call is exposed once its name is known and it is decided
    /// to be one, then its arguments stream.
    fn take_calls(
        &mut self,
        a: &mut Assembler,
        delta: &mut ChunkDelta,
        spare: &mut Spare,
        final_: bool,
    ) {
        while self.first_open < a.calls.len() {
            let call = self.first_open;
            let Some(record) = a.calls.get_mut(call) else {
                // Retired: settled and sent.
                self.first_open += 1;
                continue;
            };
            let decided_call = match record.end {
                Some(CallEnd::Complete) => !record.broken,
                Some(_) => false,
                None => !record.provisional && !record.unsplit && !self.hold_calls,
            };
            if record.exposed.is_none() {
                let Some(name) = &record.name else {
                    if record.end.is_some() {
                        self.first_open += 1;
                        continue;
                    }
                    break;
                };
                if !decided_call {
                    if record.end.is_some() {
                        self.first_open += 1;
                        continue;
                    }
                    break;
                }
                let index = self.next_index;
                self.next_index += 1;
                delta.tool_calls.push(ToolCallDelta {
                    index,
                    id: Some(spare.copy(&record.id)),
                    name: Some(spare.copy(&String::from_utf8_lossy(name))),
                    arguments: spare.string(),
                });
                record.exposed = Some(Exposed { index, sent: 0 });
            }
            let Some(exposed) = record.exposed.as_mut() else {
                break;
            };
            let ended = record.end.is_some();
            let fresh =
                !matches!(delta.tool_calls.last(), Some(last) if last.index == exposed.index);
            if fresh {
                delta.tool_calls.push(ToolCallDelta {
                    index: exposed.index,
                    id: None,
                    name: None,
                    arguments: spare.string(),
                });
            }
            if let Some(last) = delta.tool_calls.last_mut() {
                exposed.sent += take_utf8(
                    &record.arguments[exposed.sent..],
                    ended || final_,
                    &mut last.arguments,
                );
                if fresh && last.arguments.is_empty() {
                    // Nothing new of an already exposed call: no fragment.
                    if let Some(empty) = delta.tool_calls.pop() {
                        spare.keep(empty);
                    }
                }
            }
            if !ended {
                break;
            }
            self.first_open += 1;
        }
    }
}

impl DeltaStream {
    /// The diagnostics recorded since the last call (the scanner's and the assembler's,
    /// in the order recorded, not sorted by span), taken out of what the final
    /// completion returns: a caller that takes them as they come keeps none in memory.
    pub fn take_diagnostics(&mut self) -> Vec<DiagnosticRecord> {
        std::mem::take(&mut self.assembler.diagnostics)
    }

    /// Ends the stream (after the scanner's `finish`): the last delta, the OpenAI
    /// `finish_reason` (`tool_calls` when any call is complete, else `stop`) and the whole
    /// completion.
    pub fn finish(mut self) -> (ChunkDelta, &'static str, Completion) {
        self.finished = true;
        self.loud();
        // An incomplete call's last argument bytes (held while they might have been a
        // repeated key, an escape or a closer) go out, as `incomplete_calls` has them.
        self.assembler.close_incomplete();
        let delta = self.take_delta();
        let complete = self.assembler.complete_calls;
        let completion = self.assembler.finish();
        let reason = if complete == 0 { "stop" } else { "tool_calls" };
        (delta, reason, completion)
    }
}

impl Sink for DeltaStream {
    #[inline]
    fn text(&mut self, span: Span, text: &[u8]) {
        if !self.direct_text(span, text) {
            self.assembled_text(span, text);
        }
    }
    #[inline]
    fn reasoning(&mut self, span: Span, text: &[u8]) {
        if !self.direct_reasoning(span, text) {
            self.assembled_reasoning(span, text);
        }
    }
    fn markup(&mut self, span: Span, kind: Markup, bytes: &[u8]) {
        self.loud();
        self.assembler.markup(span, kind, bytes);
    }
    fn reasoning_start(&mut self, span: Span) {
        self.loud();
        self.assembler.reasoning_start(span);
    }
    fn reasoning_end(&mut self, span: Span) {
        self.loud();
        self.assembler.reasoning_end(span);
    }
    fn tool_start(&mut self, span: Span, call: u32, name: Option<&[u8]>, provisional: bool) {
        self.loud();
        self.assembler.tool_start(span, call, name, provisional);
    }
    fn tool_id(&mut self, span: Span, call: u32, id: &[u8]) {
        self.loud();
        self.assembler.tool_id(span, call, id);
    }
    fn tool_name(&mut self, span: Span, call: u32, name: &[u8]) {
        self.loud();
        self.assembler.tool_name(span, call, name);
    }
    fn tool_args(&mut self, span: Span, call: u32, json: &[u8]) {
        self.loud();
        self.assembler.tool_args(span, call, json);
    }
    fn tool_param(&mut self, span: Span, call: u32, key: &[u8], kind: ValueKind) {
        self.loud();
        self.assembler.tool_param(span, call, key, kind);
    }
    fn tool_value(&mut self, span: Span, call: u32, piece: Piece, bytes: &[u8]) {
        self.loud();
        self.assembler.tool_value(span, call, piece, bytes);
    }
    fn tool_param_end(&mut self, span: Span, call: u32) {
        self.loud();
        self.assembler.tool_param_end(span, call);
    }
    fn tool_end(&mut self, span: Span, call: u32, end: CallEnd) {
        self.loud();
        self.assembler.tool_end(span, call, end);
    }
    fn fabricated_result(&mut self, span: Span) {
        self.loud();
        self.assembler.fabricated_result(span);
    }
    fn diagnostic(&mut self, span: Span, diagnostic: Diagnostic) {
        self.loud();
        self.assembler.diagnostic(span, diagnostic);
    }
}
