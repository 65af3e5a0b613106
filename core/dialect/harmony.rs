//! The message/header family (`harmony`, OpenAI gpt-oss): messages
//! `<|start|>AUTHOR<|channel|>CHANNEL to=RECIPIENT <|constrain|>TYPE<|message|>BODY`, each
//! ended by `<|end|>`, `<|call|>` or `<|return|>`.
//! Formats: docs/seed.md §2.8; docs/dialects.md §harmony; openai/harmony `docs/format.md`.
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

use arrayvec::ArrayVec;

use crate::automaton::{Delimiter, Dfa};
use crate::engine::frame::{Anchored, Frame};
use crate::lex::json::{is_json_ws, JsonValue, Step};
use crate::options::{Options, MAX_NAME};
use crate::scan::Stop;
use crate::tables::harmony::{BODY, CONTENT, HEADER};
use crate::{Diagnostic, Markup, Role, Sink, Span};

/// Longest header read, in bytes of text between its special tokens. Real headers are
/// under 100 bytes; a longer one is a model that forgot `<|message|>`, and what it writes
/// must not vanish into markup.
const HEADER_CAP: u16 = 256;

/// The longest header word that is compared with anything (`assistant`).
const WORD_CAP: usize = 9;

/// The namespace of the caller's functions in a recipient.
const FUNCTIONS: &[u8] = b"functions.";

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    /// Content outside messages, or a text message's body (content or reasoning).
    Text,
    /// A message header, read word by word.
    Header,
    /// A call's body: whitespace, the JSON value, whitespace.
    Args,
    /// A `<` outside a JSON string in a call's body: which token, if any.
    ArgsToken,
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

/// Which header field the words being read follow.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Part {
    /// After `<|start|>`: the author, then maybe a recipient and a content type.
    Author,
    /// After `<|channel|>`: the channel word, then maybe a recipient and a content type.
    Channel,
    /// After `<|constrain|>`: the content type.
    Type,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Author {
    /// No author word (yet): the assistant, as after a bare `<|channel|>`.
    Unnamed,
    Assistant,
    /// Anyone else: a fabricated message.
    Other,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Channel {
    Unnamed,
    Analysis,
    /// `final`, `commentary` or anything else: visible text.
    Other,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Recipient {
    None,
    /// Inside the word `to=…`.
    Reading,
    Done,
}

/// What a header has said so far.
#[derive(Debug, Clone)]
struct Header {
    /// Header text bytes so far, special tokens not counted.
    len: u16,
    /// Past [`HEADER_CAP`]: the rest of the header is text and it makes nothing.
    overflow: bool,
    part: Part,
    /// No word of the current part has ended yet.
    first_word: bool,
    author: Author,
    channel: Channel,
    /// A `<|channel|>` was read.
    channel_token: bool,
    in_word: bool,
    /// The word's first bytes (up to its length), enough to compare it with the words that
    /// matter.
    word: [u8; WORD_CAP],
    word_len: u16,
    word_start: u64,
    recipient: Recipient,
    /// Where the word `to=…` starts, and its length once it ended.
    recipient_start: u64,
    recipient_len: u16,
    /// How many bytes of `functions.` the recipient began with (all of them: it is dropped).
    namespace: u8,
    name: ArrayVec<u8, MAX_NAME>,
    name_too_long: bool,
}

impl Header {
    /// A header opened by `<|start|>`, or by a `<|channel|>` outside a header (the prompt
    /// wrote `<|start|>assistant`).
    fn new(at_channel: bool) -> Self {
        Header {
            len: 0,
            overflow: false,
            part: if at_channel {
                Part::Channel
            } else {
                Part::Author
            },
            first_word: true,
            author: Author::Unnamed,
            channel: Channel::Unnamed,
            channel_token: at_channel,
            in_word: false,
            word: [0; WORD_CAP],
            word_len: 0,
            word_start: 0,
            recipient: Recipient::None,
            recipient_start: 0,
            recipient_len: 0,
            namespace: 0,
            name: ArrayVec::new_const(),
            name_too_long: false,
        }
    }

    /// The word's bytes kept, and whether that is all of it.
    fn word(&self) -> (&[u8], bool) {
        let len = usize::from(self.word_len);
        (&self.word[..len.min(WORD_CAP)], len <= WORD_CAP)
    }

    /// Where the name is in the stream: the recipient after `to=` and its namespace.
    fn name_span(&self) -> Span {
        let mut start = self.recipient_start + 3;
        if usize::from(self.namespace) == FUNCTIONS.len() {
            start += FUNCTIONS.len() as u64;
        }
        Span::new(start, self.recipient_start + u64::from(self.recipient_len))
    }

    /// Header text between special tokens (`span` is where `bytes` are): markup up to
    /// [`HEADER_CAP`], text after it.
    fn text<S: Sink>(&mut self, span: Span, bytes: &[u8], sink: &mut S) {
        let at = |i: usize| span.start + i as u64;
        // First byte not yet reported: events about a word come right after its last byte.
        let mut run = 0;
        let mut i = 0;
        while i < bytes.len() {
            if self.len == HEADER_CAP || self.overflow {
                markup(Span::new(at(run), at(i)), &bytes[run..i], sink);
                if !self.overflow {
                    self.overflow = true;
                    self.in_word = false;
                    sink.diagnostic(Span::new(at(i), at(i + 1)), Diagnostic::HeaderTooLong);
                }
                sink.text(Span::new(at(i), span.end), &bytes[i..]);
                return;
            }
            // The seed's header words end at whitespace or `<` (corpus 044: a recipient
            // never takes in markup).
            let b = bytes[i];
            if word_end(b) {
                self.len += 1;
                if self.in_word {
                    markup(Span::new(at(run), at(i)), &bytes[run..i], sink);
                    run = i;
                    self.end_word(sink);
                }
                i += 1;
            } else {
                // The word's bytes up to its end, or up to the cap, at once.
                let room = usize::from(HEADER_CAP - self.len);
                let n = bytes[i..]
                    .iter()
                    .take(room)
                    .take_while(|&&b| !word_end(b))
                    .count();
                // Fits: `n` is at most the room left below the cap.
                self.len += n as u16;
                self.word_bytes(&bytes[i..i + n], at(i));
                i += n;
            }
        }
        markup(Span::new(at(run), span.end), &bytes[run..], sink);
    }

    /// Bytes of a word (not empty, none of them ending it), the first at stream offset `at`.
    fn word_bytes(&mut self, bytes: &[u8], at: u64) {
        if !self.in_word {
            self.in_word = true;
            self.word_len = 0;
            self.word_start = at;
        }
        let old = usize::from(self.word_len);
        if old < WORD_CAP {
            let n = bytes.len().min(WORD_CAP - old);
            self.word[old..old + n].copy_from_slice(&bytes[..n]);
        }
        // Fits: a word is part of a header of at most HEADER_CAP bytes.
        self.word_len += bytes.len() as u16;
        let rest = match self.recipient {
            // The word is `to=` once its third byte is read; the bytes after it are the
            // recipient's.
            Recipient::None if old < 3 && usize::from(self.word_len) >= 3 => {
                if &self.word[..3] != b"to=" {
                    return;
                }
                self.recipient = Recipient::Reading;
                self.recipient_start = self.word_start;
                &bytes[3 - old..]
            }
            Recipient::Reading => bytes,
            _ => return,
        };
        self.recipient_bytes(rest);
    }

    fn recipient_bytes(&mut self, mut bytes: &[u8]) {
        while self.name.is_empty() && usize::from(self.namespace) < FUNCTIONS.len() {
            let Some((&b, rest)) = bytes.split_first() else {
                return;
            };
            if b != FUNCTIONS[usize::from(self.namespace)] {
                // Another namespace (`browser.search`): what looked like `functions.` is name.
                self.unmatch_namespace();
                break;
            }
            self.namespace += 1;
            bytes = rest;
        }
        let room = self.name.remaining_capacity();
        if bytes.len() > room {
            self.name_too_long = true;
        }
        // Cannot overflow: at most the room left.
        let _ = self
            .name
            .try_extend_from_slice(&bytes[..bytes.len().min(room)]);
    }

    /// The recipient is not in the `functions.` namespace: the bytes taken for its prefix
    /// are the start of the name.
    fn unmatch_namespace(&mut self) {
        let matched = usize::from(self.namespace);
        if matched < FUNCTIONS.len() {
            // Fits: the name is empty and shorter than the namespace.
            let _ = self.name.try_extend_from_slice(&FUNCTIONS[..matched]);
        }
    }

    /// The word being read (if any) ended: it may be the author, the channel or the
    /// recipient.
    fn end_word<S: Sink>(&mut self, sink: &mut S) {
        if !self.in_word {
            return;
        }
        self.in_word = false;
        if self.recipient == Recipient::Reading {
            if self.name.is_empty() {
                self.unmatch_namespace();
            }
            self.recipient = Recipient::Done;
            self.recipient_len = self.word_len;
            // `<|start|>assistant to=…` and `<|channel|>to=… commentary` alike: the recipient
            // is neither the author nor the channel.
            return;
        }
        if !core::mem::replace(&mut self.first_word, false) {
            return;
        }
        let word = self.word();
        match self.part {
            Part::Author if word == (b"assistant", true) => self.author = Author::Assistant,
            Part::Author => {
                self.author = Author::Other;
                let end = self.word_start + u64::from(self.word_len);
                sink.fabricated_result(Span::new(self.word_start, end));
            }
            Part::Channel if self.channel == Channel::Unnamed => {
                self.channel = if word == (b"analysis", true) {
                    Channel::Analysis
                } else {
                    Channel::Other
                };
            }
            Part::Channel | Part::Type => {}
        }
    }

    /// The header names a call: a recipient other than the assistant, from the assistant.
    fn is_call(&self) -> bool {
        let namespaced = usize::from(self.namespace) == FUNCTIONS.len();
        !self.overflow
            && self.author != Author::Other
            && self.recipient == Recipient::Done
            && (namespaced || self.name.as_slice() != b"assistant")
    }

    /// Why the recipient cannot be a name (docs/dialects.md rule 9), if it cannot.
    fn name_problem(&self) -> Option<Diagnostic> {
        let name = &self.name;
        if self.name_too_long {
            Some(Diagnostic::NameTooLong)
        } else if name.is_empty()
            || (!name.is_ascii() && core::str::from_utf8(name).is_err())
            || name
                .iter()
                .any(|&b| b.is_ascii_control() || matches!(b, b'>' | b'"' | b'\'' | b'\\'))
        {
            Some(Diagnostic::InvalidName)
        } else {
            None
        }
    }
}

/// A byte that ends a header word.
#[inline(always)]
fn word_end(b: u8) -> bool {
    b.is_ascii_whitespace() || b == b'<'
}

#[inline]
fn markup<S: Sink>(span: Span, bytes: &[u8], sink: &mut S) {
    if !bytes.is_empty() {
        sink.markup(span, Markup::Envelope, bytes);
    }
}

/// The call being scanned: its JSON value.
#[derive(Debug, Clone)]
struct Call {
    json: JsonValue,
    arg_bytes: u64,
}

impl Call {
    const fn new() -> Self {
        Call {
            json: JsonValue::new(),
            arg_bytes: 0,
        }
    }
}

/// The phase machine of the message/header family. Its tables are Harmony's own: the
/// family has one dialect.
#[derive(Debug, Clone)]
pub(crate) struct Harmony {
    phase: Phase,
    /// Inside a message's body (else outside any message).
    in_message: bool,
    /// Where the call's body stands (kept out of [`Call`] to keep the scanner small).
    value: Value,
    frame: Frame,
    header: Header,
    call: Call,
}

impl Harmony {
    pub(crate) fn new(options: &Options) -> Self {
        // A stream that starts in reasoning is inside an analysis message's body, which a
        // message end or a new header ends. Until a byte of it is written, a header is the
        // model writing the opener itself (the frame's optional opener): see
        // `text_delimiter`.
        let frame = Frame::new(options);
        Harmony {
            phase: Phase::Text,
            in_message: options.starts_in_reasoning,
            value: Value::Before,
            frame,
            header: Header::new(false),
            call: Call::new(),
        }
    }

    fn text_dfa(&self) -> &'static Dfa {
        if self.in_message {
            &BODY
        } else {
            &CONTENT
        }
    }

    /// Scans one chunk whose first byte is at stream offset `base`.
    #[inline]
    pub(crate) fn run<S: Sink>(
        &mut self,
        chunk: &[u8],
        base: u64,
        options: &Options,
        sink: &mut S,
    ) {
        // Token-sized chunks are mostly plain text or plain string contents: hand them
        // over whole without entering the general machine.
        let span = Span::new(base, base + chunk.len() as u64);
        match self.phase {
            Phase::Text if self.frame.plain_text(self.text_dfa(), chunk) => {
                self.frame.release(span, chunk, sink);
                return;
            }
            Phase::Args if self.value == Value::Inside && chunk.len() <= 64 => {
                let call = &mut self.call;
                let (value, arg_bytes) = (&mut call.json, &mut call.arg_bytes);
                if self
                    .frame
                    .plain_args(value, arg_bytes, chunk, span, options, sink)
                {
                    return;
                }
            }
            _ => {}
        }
        self.run_machine(chunk, base, options, sink);
    }

    /// The general machine: phase after phase until the chunk is used up.
    #[inline(never)]
    fn run_machine<S: Sink>(&mut self, chunk: &[u8], base: u64, options: &Options, sink: &mut S) {
        let mut pos = 0;
        while pos < chunk.len() {
            pos = match self.phase {
                Phase::Text => self.text(chunk, pos, base, sink),
                Phase::Header => self.header(chunk, pos, base, options, sink),
                Phase::Args => self.args(chunk, pos, base, options, sink),
                Phase::ArgsToken => self.args_token(chunk, pos, base, options, sink),
            };
        }
    }

    /// End of stream at offset `end`: nothing is held back any more.
    pub(crate) fn finish<S: Sink>(&mut self, end: u64, sink: &mut S) {
        let at = Span::at(end);
        match self.phase {
            Phase::Text => self.frame.finish_text(end, sink),
            Phase::Header => {
                // The start of a token the stream cut off is header text.
                let held = self.frame.delimiters.take();
                if !held.is_empty() {
                    let span = Span::new(end - held.len() as u64, end);
                    self.header.text(span, &held, sink);
                }
                self.header.end_word(sink);
                sink.diagnostic(at, Diagnostic::UnclosedHeader);
            }
            Phase::Args | Phase::ArgsToken => {
                if self.value == Value::After {
                    // Rule 3: servers strip `<|call|>`; the JSON is whole. The start of a
                    // token the stream cut off is markup after the call's end, so that a
                    // call whose arguments do not parse gives back its body, not a token.
                    self.end_without_closer(at, sink);
                    self.frame.held_as_markup(end, sink);
                } else {
                    // The start of a token the stream cut off is the call's own markup.
                    self.frame.held_as_markup(end, sink);
                    self.frame.cut_off(at, sink);
                }
            }
        }
        self.phase = Phase::Text;
        self.frame.finish_reasoning(at, sink);
    }

    fn text<S: Sink>(&mut self, chunk: &[u8], pos: usize, base: u64, sink: &mut S) -> usize {
        let dfa = self.text_dfa();
        match self
            .frame
            .scan_text(dfa, chunk, pos, base, &mut |_, _| {}, sink)
        {
            None => chunk.len(),
            Some((delimiter, span, end)) => {
                self.text_delimiter(delimiter, span, sink);
                end
            }
        }
    }

    /// Acts on a token found in text (outside messages or in a message body).
    fn text_delimiter<S: Sink>(&mut self, delimiter: &'static Delimiter, span: Span, sink: &mut S) {
        match self.frame.text_delimiter(delimiter, span, sink) {
            Some(role @ (Role::MessageStart | Role::Channel)) => {
                if self.in_message && self.frame.opener_optional {
                    // Started in reasoning, nothing written yet: the model opens its own
                    // message (`<|channel|>analysis<|message|>`, the optional opener). The
                    // reasoning block stays open until its `<|message|>` says what it is.
                    self.in_message = false;
                } else if self.in_message {
                    sink.diagnostic(span, Diagnostic::UnclosedMessage);
                    self.end_message(span, sink);
                }
                self.header = Header::new(role == Role::Channel);
                self.phase = Phase::Header;
            }
            // Any end closes any message (the seed does the same).
            Some(Role::MessageEnd | Role::CallClose) => self.end_message(span, sink),
            // Stop and stray tokens were reported by the frame; the tables give text
            // modes no other role.
            _ => {}
        }
    }

    fn end_message<S: Sink>(&mut self, span: Span, sink: &mut S) {
        self.frame.opener_optional = false;
        if self.frame.reasoning {
            self.frame.reasoning = false;
            sink.reasoning_end(span);
        }
        self.in_message = false;
        self.phase = Phase::Text;
    }

    fn header<S: Sink>(
        &mut self,
        chunk: &[u8],
        pos: usize,
        base: u64,
        options: &Options,
        sink: &mut S,
    ) -> usize {
        let header = &mut self.header;
        let stop = self
            .frame
            .delimiters
            .scan(&HEADER, chunk, pos, base, &mut |span, bytes| {
                header.text(span, bytes, sink)
            });
        match stop {
            Stop::End => chunk.len(),
            Stop::Match(delimiter, end) => {
                let end_offset = base + end as u64;
                let span = Span::new(end_offset - delimiter.bytes.len() as u64, end_offset);
                self.header_delimiter(delimiter, span, options, sink);
                end
            }
        }
    }

    /// Acts on a token inside a header.
    fn header_delimiter<S: Sink>(
        &mut self,
        delimiter: &'static Delimiter,
        span: Span,
        options: &Options,
        sink: &mut S,
    ) {
        self.header.end_word(sink);
        sink.markup(span, Markup::Delimiter(delimiter.role), delimiter.bytes);
        let header = &mut self.header;
        match delimiter.role {
            // Past its cap the header is text (a model that forgot `<|message|>`): a
            // channel token there begins the next message, as in a body.
            Role::Channel if header.overflow => {
                sink.diagnostic(span, Diagnostic::UnclosedHeader);
                self.header = Header::new(true);
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
            Role::MessageBody => self.message(span, options, sink),
            Role::MessageStart => {
                sink.diagnostic(span, Diagnostic::UnclosedHeader);
                self.header = Header::new(false);
            }
            // A message end: the header had no body (nor has the reasoning block a
            // stream that started in reasoning left open for it).
            _ => {
                sink.diagnostic(span, Diagnostic::UnclosedHeader);
                self.end_message(span, sink);
            }
        }
    }

    /// `<|message|>` (at `span`) ended the header: the body begins.
    fn message<S: Sink>(&mut self, span: Span, options: &Options, sink: &mut S) {
        self.in_message = true;
        self.phase = Phase::Text;
        self.frame.opener_optional = false;
        let header = &self.header;
        let reasoning = header.channel == Channel::Analysis
            && header.author != Author::Other
            && !header.overflow
            && !header.is_call();
        if self.frame.reasoning {
            // The header was the model's own opener of a stream that started in
            // reasoning: an analysis message goes on with the same block; anything else
            // closes it, empty.
            if reasoning {
                return;
            }
            self.frame.reasoning = false;
            sink.reasoning_end(span);
        }
        if header.is_call() {
            self.open_call(span, options, sink);
        } else if reasoning {
            self.frame.reasoning = true;
            sink.reasoning_start(span);
        }
    }

    fn open_call<S: Sink>(&mut self, span: Span, options: &Options, sink: &mut S) {
        if !self.frame.open_call(span, options, sink) {
            // Refused before any argument: the body is the message's text.
            self.body_goes_on(span, sink);
            return;
        }
        let header = &self.header;
        let name = header.name_span();
        if let Some(diagnostic) = header.name_problem() {
            self.body_goes_on(span, sink);
            self.frame.invalid(name, diagnostic, sink);
            return;
        }
        self.frame.name(name, &header.name, sink);
        self.call = Call::new();
        self.value = Value::Before;
        self.phase = Phase::Args;
    }

    /// Ends the current call as invalid; the rest of its body is the message's text.
    fn invalid<S: Sink>(&mut self, span: Span, diagnostic: Diagnostic, sink: &mut S) {
        // Before the call's end: the argument text it gives back is the message's too.
        self.body_goes_on(span, sink);
        self.frame.invalid(span, diagnostic, sink);
        self.phase = Phase::Text;
    }

    /// A call's body goes on as the text of its message, at `span`: on the `analysis`
    /// channel that is reasoning, as every other analysis byte is (the channel is the
    /// model's chain of thought, never shown as content: a `python` call's code, a broken
    /// call's arguments, text after them).
    fn body_goes_on<S: Sink>(&mut self, span: Span, sink: &mut S) {
        let header = &self.header;
        if self.in_message
            && !self.frame.reasoning
            && header.channel == Channel::Analysis
            && header.author != Author::Other
        {
            self.frame.reasoning = true;
            sink.reasoning_start(span);
        }
    }

    fn end_without_closer<S: Sink>(&mut self, span: Span, sink: &mut S) {
        sink.diagnostic(span, Diagnostic::MissingCloser);
        self.frame.complete(span, sink);
        self.phase = Phase::Text;
    }

    /// Scans a call's body: whitespace is markup, the JSON value is argument text.
    fn args<S: Sink>(
        &mut self,
        chunk: &[u8],
        pos: usize,
        base: u64,
        options: &Options,
        sink: &mut S,
    ) -> usize {
        let at = |i: usize| base + i as u64;
        let index = self.frame.call.index;
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
                    self.end_without_closer(Span::at(at(i)), sink);
                    self.body_goes_on(Span::at(at(i)), sink);
                    return i;
                }
                match b {
                    b'{' => {}
                    b'"' => sink.diagnostic(Span::at(at(i)), Diagnostic::DoubleEncodedArguments),
                    _ => {
                        self.invalid(Span::new(at(i), at(i + 1)), Diagnostic::MalformedCall, sink);
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
            let allowed = options.max_argument_bytes.saturating_sub(call.arg_bytes);
            let over = (end - i) as u64 > allowed;
            if over {
                end = i + allowed as usize;
            }
            if end > i {
                sink.tool_args(Span::new(at(i), at(end)), index, &chunk[i..end]);
                call.arg_bytes += (end - i) as u64;
            }
            if over {
                self.invalid(Span::at(at(end)), Diagnostic::ArgumentsTooLong, sink);
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
                    self.invalid(Span::new(at(i), at(i + 1)), Diagnostic::MalformedCall, sink);
                    return i;
                }
            }
        }
        chunk.len()
    }

    /// A `<` outside a JSON string in a call's body: `<|call|>` ends the call; another token
    /// or other markup ends it too, complete if its JSON was, invalid otherwise.
    fn args_token<S: Sink>(
        &mut self,
        chunk: &[u8],
        pos: usize,
        base: u64,
        options: &Options,
        sink: &mut S,
    ) -> usize {
        let at = |i: usize| base + i as u64;
        let value = self.value;
        let (delimiter, end) = match self.frame.anchored(&BODY, chunk, pos) {
            Anchored::Pending => return chunk.len(),
            Anchored::Matched(delimiter, end) => (delimiter, end),
            Anchored::Failed(candidate) => {
                let held = self.frame.delimiters.take();
                let start = at(candidate) - held.len() as u64;
                if value == Value::After {
                    self.end_without_closer(Span::at(start), sink);
                    self.body_goes_on(Span::at(start), sink);
                } else {
                    self.invalid(Span::new(start, start + 1), Diagnostic::MalformedCall, sink);
                }
                // Looked at once more, as the message's text: at most one token's length,
                // once per call.
                if !held.is_empty() {
                    self.run(&held, start, options, sink);
                }
                return candidate;
            }
        };
        let span = Span::new(at(end) - delimiter.bytes.len() as u64, at(end));
        match (value, delimiter.role) {
            // An empty body is no arguments. The call ends before its `<|call|>` is
            // reported: the token ends the message too, and a call whose arguments turn
            // out not to parse gives back its body as text, never the special token.
            (Value::Before | Value::After, Role::CallClose) => {
                self.frame.complete(span, sink);
                sink.markup(span, Markup::Delimiter(delimiter.role), delimiter.bytes);
                self.end_message(span, sink);
                return end;
            }
            (Value::After, _) => self.end_without_closer(Span::at(span.start), sink),
            (Value::Before | Value::Inside, _) => {
                self.invalid(Span::at(span.start), Diagnostic::MalformedCall, sink);
            }
        }
        // Not the call's: the token acts on the message, whose text the body now is.
        self.text_delimiter(delimiter, span, sink);
        if self.phase == Phase::Text {
            // A stray token: the message goes on.
            self.body_goes_on(Span::at(span.end), sink);
        }
        end
    }
}
