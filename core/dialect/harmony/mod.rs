//! The message/header family (`harmony`, OpenAI gpt-oss; `muse`): messages
//! `<|start|>AUTHOR<|channel|>CHANNEL to=RECIPIENT <|constrain|>TYPE<|message|>BODY`, each
//! ended by `<|end|>`, `<|call|>` or `<|return|>`.
//! Formats: docs/seed.md §2.8; docs/dialects.md §harmony; openai/harmony `docs/format.md`.
//!
//! Muse (docs/dialects.md §muse) is the same machine with its own tables and knobs
//! ([`Modes`]): `<|start|>assistant to=RECIPIENT<|message|>BODY<|eom|>`, no channel token;
//! the table's `recipients` make `to=self` reasoning and `to=user` content, and any other
//! recipient a tool message whose body the parameters machine reads ([`CallBody::Params`],
//! `modes.rs`). Below, "a call" is Harmony's JSON call; Muse's calls are the invokes.
//!
//! The tables find the seven special tokens; everything between them in a header (author,
//! channel word, `to=` recipient, content type) is plain text that this module reads as it
//! streams by, a word at a time, in fixed buffers. Header bytes are markup: no header text
//! and no special token ever reaches the content (past 256 bytes a header is a model that
//! forgot `<|message|>`, and the rest of it is text with a diagnostic, up to the next
//! special token; a `<|channel|>` there begins the next header, as in a body). What a
//! message is gets decided when its `<|message|>` arrives:
//!
//! - **Another author** (`<|start|>functions.read to=assistant…`, `<|start|>user…`): the
//!   model is writing someone else's message, a fabricated result. [`Sink::fabricated_result`]
//!   is sent as soon as the author word ends; the body is text, as after a Hermes
//!   `<tool_response>`.
//! - **A recipient** other than `assistant`, on any channel: a call. gpt-oss calls its
//!   built-in tools on `analysis` (docs/dialects.md §harmony), so a recipient wins over the channel,
//!   as in the seed; the call is a call, not reasoning. The name is the recipient without
//!   its `functions.` namespace; other namespaces are kept whole (`browser.search`,
//!   `python`), which a tool list then reports as unknown tools. The body must be JSON
//!   arguments (an object, or a string holding one); a non-JSON body (the `python` tool's
//!   code) ends the call as invalid and is the message's text. On `analysis` that text is
//!   reasoning, arguments given back included: no byte of the channel is ever content.
//!   A call ends before its `<|call|>` is reported, so a call whose arguments do not parse
//!   gives back its body, never the token.
//! - **Channel `analysis`**: reasoning, one reasoning block per message.
//! - Otherwise (`final`, a `commentary` preamble without recipient, no channel): content.
//!
//! The stream starts outside any message (content; the prompt's `<|start|>assistant` means
//! the first header usually begins at `<|channel|>`), or, with
//! [`Options::starts_in_reasoning`], inside an analysis message's body; until a byte of
//! that body is written, a header is the model writing the opener itself (no diagnostic:
//! an `analysis` one goes on with the same reasoning block, any other closes it empty).
//! Outside a message,
//! `<|end|>`, `<|message|>` and `<|constrain|>` are stray tokens and `<|return|>` and
//! `<|call|>` stray stop tokens (docs/dialects.md rule 12); inside a body, `<|message|>` and
//! `<|constrain|>` are stray and any of the three ends closes the message.
//!
//! Leniency (docs/dialects.md rule 13): header fields in any order (`to=` before or after
//! `<|channel|>`), `<|constrain|>json` or a bare `json`, a repeated `<|channel|>` (the first
//! channel counts and the recipient ends at the token, corpus 044), a message that is not
//! ended before the next header, a call whose `<|call|>` the server stripped (complete when
//! its JSON is, rule 3). A recipient glued to its content type (`to=functions.shelljson`,
//! corpus 046) is reported as written; only the caller knows the tool list, so the repair
//! is `inband-alloc`'s.

mod header;
mod modes;

use crate::automaton::{Delimiter, Dfa};
use crate::engine::budget::Budget;
use crate::engine::frame::{Anchored, Frame};
use crate::engine::{Family, Sealed};
use crate::lex::json::{is_json_ws, JsonValue, Step};
use crate::lex::params::ParamCalls;
use crate::options::Options;
use crate::scan::Stop;
use crate::tables::MessageChannel;
use crate::{Diagnostic, Markup, Role, Sink, Span};
use header::{markup, Author, Channel, Header, Part};
pub(crate) use modes::{CallBody, Modes};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    /// The stream's first bytes, while they spell the start of the `prompt_header` knob
    /// ([`Modes::prompt_header`]`[from..to]` so far, not yet reported): the output may go
    /// on the `<|start|>assistant` header the prompt ended with.
    Start { from: u8, to: u8 },
    /// Content outside messages, or a text message's body (content or reasoning).
    Text,
    /// A message header, read word by word.
    Header,
    /// A call's body: whitespace, the JSON value, whitespace.
    Args,
    /// A `<` outside a JSON string in a call's body: which token, if any.
    ArgsToken,
    /// A tool message's markup ([`CallBody::Params`]): the parameters machine has the
    /// stream.
    Invokes,
}

/// Where a call's body stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Value {
    /// Nothing but whitespace yet.
    Before,
    /// Inside the JSON value.
    Inside,
    /// The JSON value is complete.
    After,
}

/// The call being scanned: its JSON value.
#[derive(Debug, Clone)]
struct Call {
    json: JsonValue,
    /// Argument bytes so far.
    budget: Budget,
}

impl Call {
    const fn new() -> Self {
        Call {
            json: JsonValue::new(),
            budget: Budget::EMPTY,
        }
    }
}

/// The header being read, or the parameters machine reading a tool message's invokes
/// ([`CallBody::Params`], Muse). A tool message's header is decided before its markup
/// begins, and the next header begins after it, so the two share memory (this keeps the
/// scanner within its size budget).
#[derive(Debug, Clone)]
enum Slot {
    Header(Header),
    Markup(ParamCalls),
}

/// The phase machine of the message/header family: gpt-oss's Harmony and Muse, whose
/// tables and knobs are in [`Modes`].
#[derive(Debug, Clone)]
pub(crate) struct Harmony {
    modes: &'static Modes,
    phase: Phase,
    /// Inside a message's body (else outside any message).
    in_message: bool,
    /// The message is a tool message whose body the parameters machine reads
    /// ([`CallBody::Params`]).
    tool: bool,
    /// Where the call's body stands (kept out of [`Call`] to keep the scanner small).
    value: Value,
    slot: Slot,
    call: Call,
}

impl Harmony {
    /// A stream's start: outside any message, or, with [`Options::starts_in_reasoning`],
    /// inside an analysis message's body.
    pub(crate) fn new(modes: &'static Modes, options: &Options) -> Self {
        // A stream that starts in reasoning is inside an analysis message's body, which a
        // message end or a new header ends. Until a byte of it is written, a header is the
        // model writing the opener itself (the frame's optional opener): see `token`.
        Harmony {
            modes,
            phase: if options.starts_in_reasoning || modes.prompt_header.is_empty() {
                Phase::Text
            } else {
                Phase::Start { from: 0, to: 0 }
            },
            in_message: options.starts_in_reasoning,
            tool: false,
            value: Value::Before,
            slot: Slot::Header(Header::new(false)),
            call: Call::new(),
        }
    }

    /// Acts on a token found in text (outside messages or in a message body).
    fn token<S: Sink>(
        &mut self,
        frame: &mut Frame,
        delimiter: &'static Delimiter,
        span: Span,
        sink: &mut S,
    ) {
        match frame.text_delimiter(delimiter, span, sink) {
            Some(role @ (Role::MessageStart | Role::Channel)) => {
                if self.in_message && frame.opener_optional {
                    // Started in reasoning, nothing written yet: the model opens its own
                    // message (`<|channel|>analysis<|message|>`, the optional opener). The
                    // reasoning block stays open until its `<|message|>` says what it is.
                    self.in_message = false;
                } else if self.in_message {
                    sink.diagnostic(span, Diagnostic::UnclosedMessage);
                    self.end_message(frame, span, sink);
                }
                self.slot = Slot::Header(Header::new(role == Role::Channel));
                self.phase = Phase::Header;
            }
            // Any end closes any message (the seed does the same).
            Some(Role::MessageEnd | Role::CallClose) => self.end_message(frame, span, sink),
            // Outside a message (the only mode that lists it there): a message without
            // header, Muse's bare `<|message|>`.
            Some(Role::MessageBody) => {
                self.slot = Slot::Header(Header::new(false));
                self.message(frame, span, sink);
            }
            // Stop and stray tokens were reported by the frame; the tables give text
            // modes no other role.
            _ => {}
        }
    }

    fn end_message<S: Sink>(&mut self, frame: &mut Frame, span: Span, sink: &mut S) {
        frame.opener_optional = false;
        if frame.reasoning {
            frame.reasoning = false;
            sink.reasoning_end(span);
        }
        self.in_message = false;
        self.tool = false;
        self.phase = Phase::Text;
    }

    #[inline(always)]
    fn header<S: Sink>(
        &mut self,
        frame: &mut Frame,
        chunk: &[u8],
        pos: usize,
        base: u64,
        sink: &mut S,
    ) -> usize {
        let dfa = self.modes.header;
        let header = self.head();
        let stop =
            frame
                .delimiters
                .scan(dfa, chunk, pos, base, &frame.tokens, &mut |span, bytes| {
                    header.text(span, bytes, sink)
                });
        match stop {
            Stop::End => chunk.len(),
            Stop::Match(delimiter, end) => {
                let end_offset = base + end as u64;
                let span = Span::new(end_offset - delimiter.bytes.len() as u64, end_offset);
                self.header_delimiter(frame, delimiter, span, sink);
                end
            }
        }
    }

    /// Acts on a token inside a header.
    fn header_delimiter<S: Sink>(
        &mut self,
        frame: &mut Frame,
        delimiter: &'static Delimiter,
        span: Span,
        sink: &mut S,
    ) {
        self.head().end_word(sink);
        sink.markup(span, Markup::Delimiter(delimiter.role), delimiter.bytes);
        let header = self.head();
        match delimiter.role {
            // Past its cap the header is text (a model that forgot `<|message|>`): a
            // channel token there begins the next message, as in a body.
            Role::Channel if header.overflow => {
                sink.diagnostic(span, Diagnostic::UnclosedHeader);
                self.slot = Slot::Header(Header::new(true));
            }
            Role::Channel => {
                if header.channel_token {
                    sink.diagnostic(span, Diagnostic::DuplicateChannel);
                }
                header.channel_token = true;
                header.part = Part::Channel;
                header.first_word = true;
            }
            Role::Constrain => {
                header.part = Part::Type;
                header.first_word = true;
            }
            Role::MessageBody => self.message(frame, span, sink),
            Role::MessageStart => {
                sink.diagnostic(span, Diagnostic::UnclosedHeader);
                self.slot = Slot::Header(Header::new(false));
            }
            // A message end: the header had no body (nor has the reasoning block a
            // stream that started in reasoning left open for it).
            _ => {
                sink.diagnostic(span, Diagnostic::UnclosedHeader);
                self.end_message(frame, span, sink);
            }
        }
    }

    /// `<|message|>` (at `span`) ended the header: the body begins.
    fn message<S: Sink>(&mut self, frame: &mut Frame, span: Span, sink: &mut S) {
        self.in_message = true;
        self.phase = Phase::Text;
        frame.opener_optional = false;
        let modes = self.modes;
        let header = self.head();
        // A recipient the table lists (Muse's `to=self`) says what the message is; else a
        // recipient makes a call, and a message with neither recipient nor channel is
        // what the `bare_message` knob says.
        let listed = header.listed(modes.recipients);
        let call = header.is_call() && listed.is_none();
        let channel = match listed {
            Some(channel) => channel,
            None if header.channel == Channel::Analysis => MessageChannel::Reasoning,
            None if header.is_bare() => modes.bare_message,
            None => MessageChannel::Content,
        };
        let reasoning = channel == MessageChannel::Reasoning
            && header.author != Author::Other
            && !header.overflow
            && !call;
        if frame.reasoning {
            // The header was the model's own opener of a stream that started in
            // reasoning: an analysis message goes on with the same block; anything else
            // closes it, empty.
            if reasoning {
                return;
            }
            frame.reasoning = false;
            sink.reasoning_end(span);
        }
        if call {
            match modes.calls {
                CallBody::Json => self.open_call(frame, span, sink),
                // The invokes in the body are the calls; the recipient named the tool
                // message only.
                CallBody::Params { .. } => self.tool = true,
            }
        } else if reasoning {
            frame.reasoning = true;
            sink.reasoning_start(span);
        }
    }

    fn open_call<S: Sink>(&mut self, frame: &mut Frame, span: Span, sink: &mut S) {
        if !frame.open_call(span, sink) {
            // Refused before any argument: the body is the message's text.
            self.body_goes_on(frame, span, sink);
            return;
        }
        let header = match &self.slot {
            Slot::Header(header) => header,
            // A call message's header is the one just read.
            Slot::Markup(_) => return,
        };
        let name = header.name_span();
        if let Some(diagnostic) = header.name_problem() {
            self.body_goes_on(frame, span, sink);
            frame.invalid(name, diagnostic, sink);
            return;
        }
        frame.name(name, &header.name, sink);
        self.call = Call::new();
        self.value = Value::Before;
        self.phase = Phase::Args;
    }

    /// Ends the current call as invalid; the rest of its body is the message's text.
    fn invalid<S: Sink>(
        &mut self,
        frame: &mut Frame,
        span: Span,
        diagnostic: Diagnostic,
        sink: &mut S,
    ) {
        // Before the call's end: the argument text it gives back is the message's too.
        self.body_goes_on(frame, span, sink);
        frame.invalid(span, diagnostic, sink);
        self.phase = Phase::Text;
    }

    /// A call's body goes on as the text of its message, at `span`: on the `analysis`
    /// channel that is reasoning, as every other analysis byte is (the channel is the
    /// model's chain of thought, never shown as content: a `python` call's code, a broken
    /// call's arguments, text after them).
    fn body_goes_on<S: Sink>(&mut self, frame: &mut Frame, span: Span, sink: &mut S) {
        let in_message = self.in_message;
        let header = self.head();
        if in_message
            && !frame.reasoning
            && header.channel == Channel::Analysis
            && header.author != Author::Other
        {
            frame.reasoning = true;
            sink.reasoning_start(span);
        }
    }

    fn end_without_closer<S: Sink>(&mut self, frame: &mut Frame, span: Span, sink: &mut S) {
        sink.diagnostic(span, Diagnostic::MissingCloser);
        frame.complete(span, sink);
        self.phase = Phase::Text;
    }

    /// Scans a call's body: whitespace is markup, the JSON value is argument text.
    #[inline(always)]
    fn args<S: Sink>(
        &mut self,
        frame: &mut Frame,
        chunk: &[u8],
        pos: usize,
        base: u64,
        sink: &mut S,
    ) -> usize {
        let at = |i: usize| base + i as u64;
        let index = frame.call.index;
        let mut i = pos;
        while i < chunk.len() {
            let call = &mut self.call;
            if self.value != Value::Inside {
                let ws = chunk[i..].iter().take_while(|&&b| is_json_ws(b)).count();
                markup(Span::new(at(i), at(i + ws)), &chunk[i..i + ws], sink);
                i += ws;
                let Some(&b) = chunk.get(i) else {
                    break;
                };
                if b == b'<' {
                    self.phase = Phase::ArgsToken;
                    return i;
                }
                if self.value == Value::After {
                    // Text after the arguments: the call is complete without its closer,
                    // and the text is the message's.
                    self.end_without_closer(frame, Span::at(at(i)), sink);
                    self.body_goes_on(frame, Span::at(at(i)), sink);
                    return i;
                }
                match b {
                    b'{' => {}
                    b'"' => sink.diagnostic(Span::at(at(i)), Diagnostic::DoubleEncodedArguments),
                    _ => {
                        self.invalid(
                            frame,
                            Span::new(at(i), at(i + 1)),
                            Diagnostic::MalformedCall,
                            sink,
                        );
                        return i;
                    }
                }
                self.value = Value::Inside;
                call.json = JsonValue::new();
            }
            let step = call.json.scan(&chunk[i..]);
            let mut end = match step {
                Step::More => chunk.len(),
                Step::Done(k) | Step::Error(k) => i + k,
            };
            // The limit falls on the same byte whatever the chunking.
            let over;
            (end, over) = call.budget.take(i, end, &frame.options);
            if end > i {
                sink.tool_args(Span::new(at(i), at(end)), index, &chunk[i..end]);
            }
            if over {
                self.invalid(frame, Span::at(at(end)), Diagnostic::ArgumentsTooLong, sink);
                return end;
            }
            i = end;
            match step {
                Step::More => {}
                Step::Done(_) => self.value = Value::After,
                // A `<` outside a string: a token, or the end of the call.
                Step::Error(_) if chunk[i] == b'<' => {
                    self.phase = Phase::ArgsToken;
                    return i;
                }
                Step::Error(_) => {
                    self.invalid(
                        frame,
                        Span::new(at(i), at(i + 1)),
                        Diagnostic::MalformedCall,
                        sink,
                    );
                    return i;
                }
            }
        }
        chunk.len()
    }

    /// A `<` outside a JSON string in a call's body: `<|call|>` ends the call; another token
    /// or other markup ends it too, complete if its JSON was, invalid otherwise.
    #[inline(always)]
    fn args_token<S: Sink>(
        &mut self,
        frame: &mut Frame,
        chunk: &[u8],
        pos: usize,
        base: u64,
        sink: &mut S,
    ) -> usize {
        let at = |i: usize| base + i as u64;
        let value = self.value;
        let (delimiter, end) = match frame.anchored(self.modes.body, chunk, pos) {
            Anchored::Pending => return chunk.len(),
            Anchored::Matched(delimiter, end) => (delimiter, end),
            Anchored::Failed(candidate) => {
                let start = at(candidate) - frame.delimiters.hold.len() as u64;
                if value == Value::After {
                    self.end_without_closer(frame, Span::at(start), sink);
                    self.body_goes_on(frame, Span::at(start), sink);
                } else {
                    self.invalid(
                        frame,
                        Span::new(start, start + 1),
                        Diagnostic::MalformedCall,
                        sink,
                    );
                }
                // Looked at once more by the driver, as the message's text: at most one
                // token's length, once per call.
                frame.replay = true;
                return candidate;
            }
        };
        let span = Span::new(at(end) - delimiter.bytes.len() as u64, at(end));
        match (value, delimiter.role) {
            // An empty body is no arguments. The call ends before its `<|call|>` is
            // reported: the token ends the message too, and a call whose arguments turn
            // out not to parse gives back its body as text, never the special token.
            (Value::Before | Value::After, Role::CallClose) => {
                frame.complete(span, sink);
                sink.markup(span, Markup::Delimiter(delimiter.role), delimiter.bytes);
                self.end_message(frame, span, sink);
                return end;
            }
            (Value::After, _) => self.end_without_closer(frame, Span::at(span.start), sink),
            (Value::Before | Value::Inside, _) => {
                self.invalid(frame, Span::at(span.start), Diagnostic::MalformedCall, sink);
            }
        }
        // Not the call's: the token acts on the message, whose text the body now is.
        self.token(frame, delimiter, span, sink);
        if self.phase == Phase::Text {
            // A stray token: the message goes on.
            self.body_goes_on(frame, Span::at(span.end), sink);
        }
        end
    }
}

impl Sealed for Harmony {}

impl Family for Harmony {
    /// Outside messages only the tokens that open one (or are stray) are looked for; in a
    /// body, the ends too. The channel, not the DFA, says whether a body is reasoning.
    #[inline(always)]
    fn text_dfa(&self, _: &Frame) -> Option<&'static Dfa> {
        match (self.phase, &self.modes.calls) {
            (Phase::Text, CallBody::Params { tool_body, .. }) if self.tool => Some(tool_body),
            (Phase::Text, _) if self.in_message => Some(self.modes.body),
            (Phase::Text, _) => Some(self.modes.content),
            _ => None,
        }
    }

    #[inline(always)]
    fn plain_chunk<S: Sink>(
        &mut self,
        frame: &mut Frame,
        chunk: &[u8],
        span: Span,
        sink: &mut S,
    ) -> bool {
        match (&mut self.slot, self.phase) {
            (Slot::Markup(calls), Phase::Invokes) => {
                calls.take_plain_value(frame, chunk, span.start, sink)
            }
            _ => {
                let call = &mut self.call;
                self.phase == Phase::Args
                    && self.value == Value::Inside
                    && chunk.len() <= 64
                    && frame.plain_args(&mut call.json, &mut call.budget, chunk, span, sink)
            }
        }
    }

    /// Harmony's tokens act on messages (a header begins, any end closes the message), not
    /// on the family roles [`Family::text_role`] is for; in a tool message an ATEM opener
    /// hands the stream to the parameters machine, unreported (it reports the opener once
    /// what follows confirms it).
    #[inline]
    fn text_delimiter<S: Sink>(
        &mut self,
        frame: &mut Frame,
        delimiter: &'static Delimiter,
        span: Span,
        sink: &mut S,
    ) {
        if !self.enter_invokes(delimiter, span) {
            self.token(frame, delimiter, span, sink);
        }
    }

    /// Never called: [`Family::text_delimiter`] is Harmony's own.
    fn text_role<S: Sink>(&mut self, _: &mut Frame, _: Role, _: Span, _: &mut S) {}

    #[inline]
    fn step<S: Sink>(
        &mut self,
        frame: &mut Frame,
        chunk: &[u8],
        pos: usize,
        base: u64,
        sink: &mut S,
    ) -> usize {
        match self.phase {
            Phase::Header => self.header(frame, chunk, pos, base, sink),
            Phase::Args => self.args(frame, chunk, pos, base, sink),
            Phase::ArgsToken => self.args_token(frame, chunk, pos, base, sink),
            Phase::Invokes => self.invokes(frame, chunk, pos, base, sink),
            Phase::Start { .. } => self.start(frame, chunk, pos, sink),
            Phase::Text => pos,
        }
    }

    /// A header the stream cut off is unclosed; a call whose JSON is whole is complete
    /// (rule 3: servers strip `<|call|>`), before the held bytes are reported, so that they
    /// are markup after the call's end; any other call keeps its held bytes as its own
    /// markup and is cut off by the driver.
    fn finish_phase<S: Sink>(&mut self, frame: &mut Frame, end: u64, sink: &mut S) {
        match self.phase {
            Phase::Header => {
                // The start of a token the stream cut off is header text.
                let held = frame.delimiters.take();
                if !held.is_empty() {
                    let span = Span::new(end - held.len() as u64, end);
                    self.head().text(span, &held, sink);
                }
                self.head().end_word(sink);
                sink.diagnostic(Span::at(end), Diagnostic::UnclosedHeader);
                self.phase = Phase::Text;
            }
            Phase::Args | Phase::ArgsToken if self.value == Value::After => {
                self.end_without_closer(frame, Span::at(end), sink);
                frame.held_as_markup(end, sink);
            }
            // The start of a token the stream cut off is the call's own markup.
            Phase::Args | Phase::ArgsToken => frame.held_as_markup(end, sink),
            Phase::Invokes => self.finish_invokes(frame, end, sink),
            // The stream ended on the first bytes of a recipient: they were text.
            Phase::Start { from, to } => {
                let held = &self.modes.prompt_header[usize::from(from)..usize::from(to)];
                if !held.is_empty() {
                    frame.release(Span::new(0, held.len() as u64), held, sink);
                }
                self.phase = Phase::Text;
            }
            Phase::Text => {}
        }
    }

    #[inline(always)]
    fn in_call(&self) -> bool {
        matches!(self.phase, Phase::Args | Phase::ArgsToken)
    }

    fn to_text(&mut self) {
        self.phase = Phase::Text;
    }
}
