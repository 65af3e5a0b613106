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

use inband::{CallEnd, Diagnostic, Dialect, Markup, Piece, Sink, Span, ValueKind};
use serde::Serialize;

use crate::assemble::{AssembleOptions, Assembler, Completion, Segment};

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
}

#[derive(Debug, Clone, Copy)]
struct Exposed {
    index: u32,
    /// Argument bytes already sent.
    sent: usize,
}

/// A [`Sink`] that turns events into per-chunk [`ChunkDelta`]s. Feed a chunk to the
/// scanner with this sink, then call [`DeltaStream::take_delta`].
#[derive(Debug)]
pub struct DeltaStream {
    assembler: Assembler,
    content_sent: usize,
    /// Next entry of the assembler's released ranges to look at.
    released_at: usize,
    hold_calls: bool,
    /// Reasoning segment being sent, and bytes of it already sent.
    reasoning_at: (usize, usize),
    /// Per call (by scanner number): its exposure to the client.
    exposed: Vec<Option<Exposed>>,
    /// Calls before this one are settled and fully sent.
    first_open: usize,
    next_index: u32,
    finished: bool,
}

impl DeltaStream {
    /// A stream for one response of `dialect` (the scanner's).
    ///
    /// # Panics
    /// Without a seed, if the operating system's random source fails (see
    /// [`IdMinter::random`](crate::ids::IdMinter::random)).
    pub fn new(dialect: Dialect, options: &AssembleOptions) -> Self {
        DeltaStream {
            assembler: Assembler::new(dialect, options),
            content_sent: 0,
            released_at: 0,
            hold_calls: options.hold_calls,
            reasoning_at: (0, 0),
            exposed: Vec::new(),
            first_open: 0,
            next_index: 0,
            finished: false,
        }
    }

    /// Everything that became visible since the last call; after the scanner's `finish`,
    /// call [`DeltaStream::finish`] instead.
    pub fn take_delta(&mut self) -> ChunkDelta {
        let mut delta = ChunkDelta::default();
        let final_ = self.finished;
        let a = &self.assembler;
        // A call already shown to the client that broke is not shown again as content.
        while let Some((call, range)) = a.released.get(self.released_at) {
            self.released_at += 1;
            if self
                .exposed
                .get(*call as usize)
                .is_some_and(Option::is_some)
            {
                let upto = range.start.max(self.content_sent);
                self.content_sent += take_utf8(
                    &a.content[self.content_sent..upto],
                    true,
                    &mut delta.content,
                );
                self.content_sent = self.content_sent.max(range.end);
            }
        }
        self.content_sent += take_utf8(&a.content[self.content_sent..], final_, &mut delta.content);
        if let Some(segments) = &a.reasoning {
            let (mut seg, mut off) = self.reasoning_at;
            while let Some(segment) = segments.get(seg) {
                match segment {
                    Segment::Text(bytes) => {
                        // A segment followed by another is closed: cut it whole.
                        let closed = final_ || seg + 1 < segments.len();
                        off += take_utf8(&bytes[off..], closed, &mut delta.reasoning_content);
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
                        // A call already shown to the client that broke is not shown
                        // again as reasoning either.
                        let exposed = self
                            .exposed
                            .get(*call as usize)
                            .is_some_and(Option::is_some);
                        if !(record.shows_as_text() && exposed) {
                            delta
                                .reasoning_content
                                .push_str(&String::from_utf8_lossy(record.draft_text()));
                        }
                    }
                }
                seg += 1;
                off = 0;
            }
            self.reasoning_at = (seg, off);
        }
        while self.first_open < a.calls.len() {
            let call = self.first_open;
            let record = &a.calls[call];
            if self.exposed.len() <= call {
                self.exposed.resize(call + 1, None);
            }
            let decided_call = match record.end {
                Some(CallEnd::Complete) => !record.broken,
                Some(_) => false,
                None => !record.provisional && !record.unsplit && !self.hold_calls,
            };
            if self.exposed[call].is_none() {
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
                self.exposed[call] = Some(Exposed { index, sent: 0 });
                delta.tool_calls.push(ToolCallDelta {
                    index,
                    id: Some(record.id.clone()),
                    name: Some(String::from_utf8_lossy(name).into_owned()),
                    arguments: String::new(),
                });
            }
            let Some(exposed) = self.exposed[call].as_mut() else {
                break;
            };
            let ended = record.end.is_some();
            let mut fragment = String::new();
            exposed.sent += take_utf8(
                &record.arguments[exposed.sent..],
                ended || final_,
                &mut fragment,
            );
            if !fragment.is_empty() {
                match delta.tool_calls.last_mut() {
                    Some(last) if last.index == exposed.index => last.arguments.push_str(&fragment),
                    _ => delta.tool_calls.push(ToolCallDelta {
                        index: exposed.index,
                        id: None,
                        name: None,
                        arguments: fragment,
                    }),
                }
            }
            if !ended {
                break;
            }
            self.first_open += 1;
        }
        delta
    }

    /// Ends the stream (after the scanner's `finish`): the last delta, the OpenAI
    /// `finish_reason` (`tool_calls` when any call is complete, else `stop`) and the whole
    /// completion.
    pub fn finish(mut self) -> (ChunkDelta, &'static str, Completion) {
        self.finished = true;
        let delta = self.take_delta();
        let completion = self.assembler.finish();
        let reason = if completion.tool_calls.is_empty() {
            "stop"
        } else {
            "tool_calls"
        };
        (delta, reason, completion)
    }
}

/// Appends the longest prefix of `bytes` that ends on a code point boundary (all of it
/// when `all`), replacing invalid sequences with U+FFFD; returns the bytes taken.
fn take_utf8(bytes: &[u8], all: bool, out: &mut String) -> usize {
    let mut taken = 0;
    loop {
        match std::str::from_utf8(&bytes[taken..]) {
            Ok(s) => {
                out.push_str(s);
                return bytes.len();
            }
            Err(e) => {
                let valid = e.valid_up_to();
                out.push_str(std::str::from_utf8(&bytes[taken..taken + valid]).unwrap_or_default());
                taken += valid;
                match e.error_len() {
                    Some(n) => {
                        out.push(char::REPLACEMENT_CHARACTER);
                        taken += n;
                    }
                    None if all => {
                        out.push(char::REPLACEMENT_CHARACTER);
                        return bytes.len();
                    }
                    None => return taken,
                }
            }
        }
    }
}

impl Sink for DeltaStream {
    fn text(&mut self, span: Span, text: &[u8]) {
        self.assembler.text(span, text);
    }
    fn reasoning(&mut self, span: Span, text: &[u8]) {
        self.assembler.reasoning(span, text);
    }
    fn markup(&mut self, span: Span, kind: Markup, bytes: &[u8]) {
        self.assembler.markup(span, kind, bytes);
    }
    fn reasoning_start(&mut self, span: Span) {
        self.assembler.reasoning_start(span);
    }
    fn reasoning_end(&mut self, span: Span) {
        self.assembler.reasoning_end(span);
    }
    fn tool_start(&mut self, span: Span, call: u32, name: Option<&[u8]>, provisional: bool) {
        self.assembler.tool_start(span, call, name, provisional);
    }
    fn tool_id(&mut self, span: Span, call: u32, id: &[u8]) {
        self.assembler.tool_id(span, call, id);
    }
    fn tool_name(&mut self, span: Span, call: u32, name: &[u8]) {
        self.assembler.tool_name(span, call, name);
    }
    fn tool_args(&mut self, span: Span, call: u32, json: &[u8]) {
        self.assembler.tool_args(span, call, json);
    }
    fn tool_param(&mut self, span: Span, call: u32, key: &[u8], kind: ValueKind) {
        self.assembler.tool_param(span, call, key, kind);
    }
    fn tool_value(&mut self, span: Span, call: u32, piece: Piece, bytes: &[u8]) {
        self.assembler.tool_value(span, call, piece, bytes);
    }
    fn tool_param_end(&mut self, span: Span, call: u32) {
        self.assembler.tool_param_end(span, call);
    }
    fn tool_end(&mut self, span: Span, call: u32, end: CallEnd) {
        self.assembler.tool_end(span, call, end);
    }
    fn fabricated_result(&mut self, span: Span) {
        self.assembler.fabricated_result(span);
    }
    fn diagnostic(&mut self, span: Span, diagnostic: Diagnostic) {
        self.assembler.diagnostic(span, diagnostic);
    }
}
