//! Owned events: the scanner's borrowed events copied into a `Vec`, with adjacent payload
//! fragments of one kind joined, so that event logs of different chunkings compare equal.

use inband::{
    CallEnd, Diagnostic, Dialect, Markup, Options, Piece, Scanner, Sink, Span, ValueKind,
};

/// One scanner event, owning its bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OwnedEvent {
    /// Visible content.
    Text {
        /// Bytes covered, from stream start.
        span: Span,
        /// The content bytes.
        text: Vec<u8>,
    },
    /// Reasoning text.
    Reasoning {
        /// Bytes covered, from stream start.
        span: Span,
        /// The reasoning bytes.
        text: Vec<u8>,
    },
    /// Consumed structure.
    Markup {
        /// Bytes covered, from stream start.
        span: Span,
        /// What the bytes are.
        kind: Markup,
        /// The markup bytes.
        bytes: Vec<u8>,
    },
    /// A reasoning block opened.
    ReasoningStart {
        /// The opener, or empty.
        span: Span,
    },
    /// A reasoning block ended.
    ReasoningEnd {
        /// The closer, or empty.
        span: Span,
    },
    /// A call began.
    ToolStart {
        /// The name, or what started the call.
        span: Span,
        /// Call number in stream order, from 0.
        call: u32,
        /// The name when it came before the arguments.
        name: Option<Vec<u8>>,
        /// Inside reasoning, fate undecided.
        provisional: bool,
    },
    /// The call's id as the model wrote it.
    ToolId {
        /// The id's bytes.
        span: Span,
        /// Call number.
        call: u32,
        /// The id.
        id: Vec<u8>,
    },
    /// The name of a call whose arguments came first.
    ToolName {
        /// The name's bytes.
        span: Span,
        /// Call number.
        call: u32,
        /// The trimmed name.
        name: Vec<u8>,
    },
    /// Raw JSON text of a call's arguments.
    ToolArgs {
        /// Bytes covered.
        span: Span,
        /// Call number.
        call: u32,
        /// The model's argument text.
        json: Vec<u8>,
    },
    /// A parameter of a call began (raw-text or literal, see [`ValueKind`]).
    ToolParam {
        /// The key's bytes.
        span: Span,
        /// Call number.
        call: u32,
        /// The parameter's name, trimmed.
        key: Vec<u8>,
        /// How its value is written.
        kind: ValueKind,
    },
    /// Bytes of the current parameter's value, exactly as written.
    ToolValue {
        /// Bytes covered.
        span: Span,
        /// Call number.
        call: u32,
        /// What the bytes are ([`Piece::Verbatim`] for a raw-text value).
        piece: Piece,
        /// The value bytes.
        bytes: Vec<u8>,
    },
    /// The current parameter's value ended.
    ToolParamEnd {
        /// Its closer, or empty.
        span: Span,
        /// Call number.
        call: u32,
    },
    /// A call ended.
    ToolEnd {
        /// What decided it.
        span: Span,
        /// Call number.
        call: u32,
        /// How it ended.
        end: CallEnd,
    },
    /// The model began inventing a tool result.
    FabricatedResult {
        /// The result opener.
        span: Span,
    },
    /// Something worth reporting.
    Diagnostic {
        /// The bytes concerned.
        span: Span,
        /// What it is.
        diagnostic: Diagnostic,
    },
}

impl OwnedEvent {
    /// The event's span.
    pub fn span(&self) -> Span {
        match self {
            OwnedEvent::Text { span, .. }
            | OwnedEvent::Reasoning { span, .. }
            | OwnedEvent::Markup { span, .. }
            | OwnedEvent::ReasoningStart { span }
            | OwnedEvent::ReasoningEnd { span }
            | OwnedEvent::ToolStart { span, .. }
            | OwnedEvent::ToolId { span, .. }
            | OwnedEvent::ToolName { span, .. }
            | OwnedEvent::ToolArgs { span, .. }
            | OwnedEvent::ToolParam { span, .. }
            | OwnedEvent::ToolValue { span, .. }
            | OwnedEvent::ToolParamEnd { span, .. }
            | OwnedEvent::ToolEnd { span, .. }
            | OwnedEvent::FabricatedResult { span }
            | OwnedEvent::Diagnostic { span, .. } => *span,
        }
    }

    /// The input bytes a payload event covers (text, reasoning, markup, arguments, values);
    /// `None` for structural events. Payload spans tile the stream.
    pub fn payload(&self) -> Option<&[u8]> {
        match self {
            OwnedEvent::Text { text, .. } | OwnedEvent::Reasoning { text, .. } => Some(text),
            OwnedEvent::Markup { bytes, .. } | OwnedEvent::ToolValue { bytes, .. } => Some(bytes),
            OwnedEvent::ToolArgs { json, .. } => Some(json),
            _ => None,
        }
    }
}

/// A [`Sink`] that records owned events, joining adjacent fragments of text, reasoning,
/// envelope markup, one call's arguments and one piece of one parameter's value.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct EventLog {
    /// The events, in stream order.
    pub events: Vec<OwnedEvent>,
}

impl EventLog {
    /// An empty log.
    pub fn new() -> Self {
        EventLog::default()
    }

    /// Scans `chunks` as one stream (then finishes it) and returns the log.
    pub fn scan<'a>(
        dialect: Dialect,
        options: Options,
        chunks: impl IntoIterator<Item = &'a [u8]>,
    ) -> EventLog {
        let mut scanner = Scanner::new(dialect, options);
        let mut log = EventLog::new();
        for chunk in chunks {
            scanner
                .feed(chunk, &mut log)
                .expect("a new scanner is not finished");
        }
        scanner
            .finish(&mut log)
            .expect("a new scanner is not finished");
        log
    }

    /// The events no later fragment can join, removed from the log, for a caller that
    /// writes events out as they come (memory then stays bounded): every event but the
    /// last, then of the last one the leading pieces of `max_payload` bytes, when it is
    /// text, reasoning, envelope markup, arguments or a value piece that long. Any event
    /// longer than `max_payload` bytes comes out as pieces of at most `max_payload` bytes,
    /// cut back to a UTF-8 code point boundary (a cut never splits a code point of valid
    /// UTF-8), each with its own span. The pieces depend only on the bytes, so the events
    /// taken are the same whatever the chunking; after the scanner's `finish`, call
    /// [`EventLog::take_all`] for the rest.
    ///
    /// # Panics
    /// If `max_payload` is 0.
    pub fn take_settled(&mut self, max_payload: usize) -> Vec<OwnedEvent> {
        assert!(max_payload > 0, "pieces of 0 bytes");
        let last = self.events.pop();
        let mut taken = Vec::new();
        for event in self.events.drain(..) {
            split_into(event, max_payload, &mut taken);
        }
        if let Some(mut last) = last {
            while let Some(piece) = split_off(&mut last, max_payload) {
                taken.push(piece);
            }
            self.events.push(last);
        }
        taken
    }

    /// Every event left, removed from the log, with long ones in pieces as
    /// [`EventLog::take_settled`] cuts them.
    ///
    /// # Panics
    /// If `max_payload` is 0.
    pub fn take_all(&mut self, max_payload: usize) -> Vec<OwnedEvent> {
        assert!(max_payload > 0, "pieces of 0 bytes");
        let mut taken = Vec::new();
        for event in self.events.drain(..) {
            split_into(event, max_payload, &mut taken);
        }
        taken
    }

    fn join(&mut self, event: OwnedEvent) {
        if let Some(last) = self.events.last_mut() {
            let joined = match (last, &event) {
                (OwnedEvent::Text { span, text }, OwnedEvent::Text { span: s, text: t })
                | (
                    OwnedEvent::Reasoning { span, text },
                    OwnedEvent::Reasoning { span: s, text: t },
                ) if span.end == s.start => {
                    span.end = s.end;
                    text.extend_from_slice(t);
                    true
                }
                (
                    OwnedEvent::Markup {
                        span,
                        kind: Markup::Envelope,
                        bytes,
                    },
                    OwnedEvent::Markup {
                        span: s,
                        kind: Markup::Envelope,
                        bytes: b,
                    },
                ) if span.end == s.start => {
                    span.end = s.end;
                    bytes.extend_from_slice(b);
                    true
                }
                (
                    OwnedEvent::ToolArgs { span, call, json },
                    OwnedEvent::ToolArgs {
                        span: s,
                        call: c,
                        json: j,
                    },
                ) if span.end == s.start && call == c => {
                    span.end = s.end;
                    json.extend_from_slice(j);
                    true
                }
                (
                    OwnedEvent::ToolValue {
                        span,
                        call,
                        piece,
                        bytes,
                    },
                    OwnedEvent::ToolValue {
                        span: s,
                        call: c,
                        piece: p,
                        bytes: b,
                    },
                ) if span.end == s.start && call == c && piece == p => {
                    span.end = s.end;
                    bytes.extend_from_slice(b);
                    true
                }
                _ => false,
            };
            if joined {
                return;
            }
        }
        self.events.push(event);
    }
}

impl Sink for EventLog {
    fn text(&mut self, span: Span, text: &[u8]) {
        self.join(OwnedEvent::Text {
            span,
            text: text.to_vec(),
        });
    }
    fn reasoning(&mut self, span: Span, text: &[u8]) {
        self.join(OwnedEvent::Reasoning {
            span,
            text: text.to_vec(),
        });
    }
    fn markup(&mut self, span: Span, kind: Markup, bytes: &[u8]) {
        self.join(OwnedEvent::Markup {
            span,
            kind,
            bytes: bytes.to_vec(),
        });
    }
    fn reasoning_start(&mut self, span: Span) {
        self.events.push(OwnedEvent::ReasoningStart { span });
    }
    fn reasoning_end(&mut self, span: Span) {
        self.events.push(OwnedEvent::ReasoningEnd { span });
    }
    fn tool_start(&mut self, span: Span, call: u32, name: Option<&[u8]>, provisional: bool) {
        self.events.push(OwnedEvent::ToolStart {
            span,
            call,
            name: name.map(<[u8]>::to_vec),
            provisional,
        });
    }
    fn tool_id(&mut self, span: Span, call: u32, id: &[u8]) {
        self.events.push(OwnedEvent::ToolId {
            span,
            call,
            id: id.to_vec(),
        });
    }
    fn tool_name(&mut self, span: Span, call: u32, name: &[u8]) {
        self.events.push(OwnedEvent::ToolName {
            span,
            call,
            name: name.to_vec(),
        });
    }
    fn tool_args(&mut self, span: Span, call: u32, json: &[u8]) {
        self.join(OwnedEvent::ToolArgs {
            span,
            call,
            json: json.to_vec(),
        });
    }
    fn tool_param(&mut self, span: Span, call: u32, key: &[u8], kind: ValueKind) {
        self.events.push(OwnedEvent::ToolParam {
            span,
            call,
            key: key.to_vec(),
            kind,
        });
    }
    fn tool_value(&mut self, span: Span, call: u32, piece: Piece, bytes: &[u8]) {
        self.join(OwnedEvent::ToolValue {
            span,
            call,
            piece,
            bytes: bytes.to_vec(),
        });
    }
    fn tool_param_end(&mut self, span: Span, call: u32) {
        self.events.push(OwnedEvent::ToolParamEnd { span, call });
    }
    fn tool_end(&mut self, span: Span, call: u32, end: CallEnd) {
        self.events.push(OwnedEvent::ToolEnd { span, call, end });
    }

    fn fabricated_result(&mut self, span: Span) {
        self.events.push(OwnedEvent::FabricatedResult { span });
    }
    fn diagnostic(&mut self, span: Span, diagnostic: Diagnostic) {
        self.events
            .push(OwnedEvent::Diagnostic { span, diagnostic });
    }
}

/// `event` in pieces of at most `max` payload bytes, appended to `out`.
fn split_into(mut event: OwnedEvent, max: usize, out: &mut Vec<OwnedEvent>) {
    while let Some(piece) = split_off(&mut event, max) {
        out.push(piece);
    }
    out.push(event);
}

/// Cuts the first piece off a joinable event whose payload is longer than `max` bytes (and
/// as long as its span): at most `max` bytes, ending before a UTF-8 continuation byte
/// when one of the last three would start a code point.
fn split_off(event: &mut OwnedEvent, max: usize) -> Option<OwnedEvent> {
    let (span, bytes) = match event {
        OwnedEvent::Text { span, text } | OwnedEvent::Reasoning { span, text } => (span, text),
        OwnedEvent::Markup {
            span,
            kind: Markup::Envelope,
            bytes,
        }
        | OwnedEvent::ToolValue { span, bytes, .. } => (span, bytes),
        OwnedEvent::ToolArgs { span, json, .. } => (span, json),
        _ => return None,
    };
    if bytes.len() <= max || span.end - span.start != bytes.len() as u64 {
        return None;
    }
    let is_continuation = |b: u8| b & 0xC0 == 0x80;
    let cut = (max.saturating_sub(3).max(1)..=max)
        .rev()
        .find(|&c| !is_continuation(bytes[c]))
        .unwrap_or(max);
    let rest = bytes.split_off(cut);
    let head = std::mem::replace(bytes, rest);
    let head_span = Span::new(span.start, span.start + cut as u64);
    span.start = head_span.end;
    let mut piece = event.clone_shape();
    piece.set_payload(head_span, head);
    Some(piece)
}

impl OwnedEvent {
    /// The same event with an empty payload (only joinable kinds are asked).
    fn clone_shape(&self) -> OwnedEvent {
        let empty = Vec::new();
        match self {
            OwnedEvent::Text { span, .. } => OwnedEvent::Text {
                span: *span,
                text: empty,
            },
            OwnedEvent::Reasoning { span, .. } => OwnedEvent::Reasoning {
                span: *span,
                text: empty,
            },
            OwnedEvent::Markup { span, kind, .. } => OwnedEvent::Markup {
                span: *span,
                kind: *kind,
                bytes: empty,
            },
            OwnedEvent::ToolArgs { span, call, .. } => OwnedEvent::ToolArgs {
                span: *span,
                call: *call,
                json: empty,
            },
            OwnedEvent::ToolValue {
                span, call, piece, ..
            } => OwnedEvent::ToolValue {
                span: *span,
                call: *call,
                piece: *piece,
                bytes: empty,
            },
            other => other.clone(),
        }
    }

    /// Sets the span and payload of a joinable event.
    fn set_payload(&mut self, new_span: Span, payload: Vec<u8>) {
        match self {
            OwnedEvent::Text { span, text } | OwnedEvent::Reasoning { span, text } => {
                *span = new_span;
                *text = payload;
            }
            OwnedEvent::Markup { span, bytes, .. } | OwnedEvent::ToolValue { span, bytes, .. } => {
                *span = new_span;
                *bytes = payload;
            }
            OwnedEvent::ToolArgs { span, json, .. } => {
                *span = new_span;
                *json = payload;
            }
            _ => {}
        }
    }
}
