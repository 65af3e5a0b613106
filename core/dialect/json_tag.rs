//! The JSON-in-tags family (`hermes`, `qwen3`): `<tool_call>` + one JSON object
//! `{"name": …, "arguments": {…}}` + `</tool_call>`, with `<think>` reasoning.
//! Formats: docs/seed.md §2.2 and §2.9; docs/dialects.md §hermes, §qwen3.

use arrayvec::ArrayVec;

use super::frame::{envelope, Anchored, Frame};
use crate::automaton::{Delimiter, Dfa, START};
use crate::lex::json::{is_json_ws, JsonValue, Step};
use crate::options::{Options, MAX_NAME};
use crate::{Diagnostic, Markup, Role, Sink, Span};

/// The scanner modes of one dialect of the family, from its table file.
#[derive(Debug)]
pub(crate) struct Modes {
    /// Visible text.
    pub(crate) content: &'static Dfa,
    /// Inside a reasoning block.
    pub(crate) reasoning: &'static Dfa,
    /// Markup where a call body expects JSON structure.
    pub(crate) body: &'static Dfa,
    /// After a call's JSON body: whitespace, then the closer.
    pub(crate) tail: &'static Dfa,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    /// Content or reasoning, scanned for delimiters.
    Text,
    /// A call's JSON body, tracked by the envelope lexer.
    Body,
    /// A `<` where a call body expects JSON structure: which delimiter, if any.
    BodyMarkup,
    /// After a complete body: whitespace, then the closer.
    Tail,
}

/// Where the envelope lexer is inside `{"name": …, "arguments": …}`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Envelope {
    Open,
    /// Inside the opening line of a Markdown code fence around the body.
    Fence,
    Key,
    KeyString,
    Colon,
    Value,
    Name,
    Arguments,
    Skip,
    Next,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Key {
    Name,
    Arguments,
    Other,
}

/// Longest key the envelope needs to tell apart.
const KEY_CAP: usize = 10;

/// Longest opening fence line (backticks, info string such as `json`, newline) accepted.
const FENCE_CAP: u8 = 32;

/// The call being scanned.
#[derive(Debug, Clone)]
struct Call {
    envelope: Envelope,
    quote: u8,
    escape: bool,
    key: ArrayVec<u8, KEY_CAP>,
    key_overflow: bool,
    key_kind: Key,
    name: ArrayVec<u8, MAX_NAME>,
    name_start: u64,
    has_name: bool,
    has_args: bool,
    value: JsonValue,
    arg_bytes: u64,
    /// Bytes of the opening fence line so far; 0 when the body is not fenced.
    fence: u8,
}

impl Call {
    fn new() -> Self {
        Call {
            envelope: Envelope::Open,
            quote: 0,
            escape: false,
            key: ArrayVec::new_const(),
            key_overflow: false,
            key_kind: Key::Other,
            name: ArrayVec::new_const(),
            name_start: 0,
            has_name: false,
            has_args: false,
            value: JsonValue::new(),
            arg_bytes: 0,
            fence: 0,
        }
    }
}

/// The phase machine of the JSON-in-tags family.
#[derive(Debug, Clone)]
pub(crate) struct JsonTag {
    modes: &'static Modes,
    phase: Phase,
    frame: Frame,
    call: Call,
}

impl JsonTag {
    pub(crate) fn new(modes: &'static Modes, options: &Options) -> Self {
        JsonTag {
            modes,
            phase: Phase::Text,
            frame: Frame::new(options),
            call: Call::new(),
        }
    }

    fn text_dfa(&self) -> &'static Dfa {
        if self.frame.reasoning {
            self.modes.reasoning
        } else {
            self.modes.content
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
            Phase::Body if self.call.envelope == Envelope::Arguments && chunk.len() <= 64 => {
                let call = &mut self.call;
                let (value, arg_bytes) = (&mut call.value, &mut call.arg_bytes);
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
                Phase::Text => self.text(chunk, pos, base, options, sink),
                Phase::Body => self.body(chunk, pos, base, options, sink),
                Phase::BodyMarkup => self.body_markup(chunk, pos, base, options, sink),
                Phase::Tail => self.tail(chunk, pos, base, options, sink),
            };
        }
    }

    /// End of stream at offset `end`: nothing is held back any more.
    pub(crate) fn finish<S: Sink>(&mut self, end: u64, sink: &mut S) {
        if self.phase == Phase::Tail {
            self.abandon_tail(end, sink);
        }
        if self.phase == Phase::Text {
            self.frame.finish_text(end, sink);
        }
        if self.phase == Phase::BodyMarkup {
            // A delimiter's beginning inside the call: the call's own bytes.
            self.frame.held_as_markup(end, sink);
            self.phase = Phase::Body;
        }
        let at = Span::at(end);
        self.frame.finish_drafts(at, sink);
        if self.phase == Phase::Body {
            self.frame.cut_off(at, sink);
            self.phase = Phase::Text;
        }
        self.frame.finish_reasoning(at, sink);
    }

    fn text<S: Sink>(
        &mut self,
        chunk: &[u8],
        pos: usize,
        base: u64,
        options: &Options,
        sink: &mut S,
    ) -> usize {
        let dfa = self.text_dfa();
        match self.frame.scan_text(dfa, chunk, pos, base, sink) {
            None => chunk.len(),
            Some((delimiter, span, end)) => {
                self.delimiter(delimiter, span, options, sink);
                end
            }
        }
    }

    /// Acts on a delimiter found in text (content or reasoning).
    fn delimiter<S: Sink>(
        &mut self,
        delimiter: &'static Delimiter,
        span: Span,
        options: &Options,
        sink: &mut S,
    ) {
        if self.frame.text_delimiter(delimiter, span, sink) == Some(Role::CallOpen) {
            self.open_call(span, options, sink);
        }
    }

    #[inline]
    fn open_call<S: Sink>(&mut self, span: Span, options: &Options, sink: &mut S) {
        if self.frame.open_call(span, options, sink) {
            self.call = Call::new();
            self.phase = Phase::Body;
        } else {
            self.phase = Phase::Text;
        }
    }

    /// Ends the current call as invalid and returns to text.
    fn invalid<S: Sink>(&mut self, span: Span, diagnostic: Diagnostic, sink: &mut S) {
        self.frame.invalid(span, diagnostic, sink);
        self.phase = Phase::Text;
    }

    /// The stream ended (or a stop token came) inside the call.
    fn truncate<S: Sink>(&mut self, span: Span, sink: &mut S) {
        self.frame.truncate(span, sink);
        self.phase = Phase::Text;
    }

    /// A call whose structure closed: complete now, or a draft until its reasoning decides.
    fn complete<S: Sink>(&mut self, span: Span, sink: &mut S) {
        self.phase = Phase::Text;
        self.frame.complete(span, sink);
    }

    /// Scans the call's JSON body; bytes are envelope markup or argument text.
    fn body<S: Sink>(
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
        // Start of the envelope markup not yet reported.
        let mut run = pos;
        // Reports the envelope markup up to `to`, when the body scan stops there.
        macro_rules! emit {
            ($to:expr) => {
                envelope(chunk, base, run, $to, sink)
            };
        }
        macro_rules! flush {
            ($to:expr) => {{
                let to = $to;
                emit!(to);
                run = to;
            }};
        }
        // The byte at `i` cannot continue the body: markup is looked at by `body_markup`,
        // anything else breaks the call.
        macro_rules! malformed {
            ($i:expr) => {{
                let i = $i;
                emit!(i);
                if chunk[i] == b'<' {
                    self.phase = Phase::BodyMarkup;
                } else {
                    self.invalid(Span::new(at(i), at(i + 1)), Diagnostic::MalformedCall, sink);
                }
                return i;
            }};
        }
        while i < chunk.len() {
            let call = &mut self.call;
            match call.envelope {
                Envelope::Arguments => {
                    emit!(i);
                    let step = call.value.scan(&chunk[i..]);
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
                    i = end;
                    run = end;
                    if over {
                        self.invalid(Span::at(at(end)), Diagnostic::ArgumentsTooLong, sink);
                        return end;
                    }
                    match step {
                        Step::More => {}
                        Step::Done(_) => call.envelope = Envelope::Next,
                        Step::Error(_) => malformed!(end),
                    }
                }
                Envelope::Skip => {
                    let step = call.value.scan(&chunk[i..]);
                    let end = match step {
                        Step::More => chunk.len(),
                        Step::Done(k) | Step::Error(k) => i + k,
                    };
                    // Skipped values count against the same limit as arguments, so one
                    // call never swallows an unbounded stream.
                    let allowed = options.max_argument_bytes.saturating_sub(call.arg_bytes);
                    if (end - i) as u64 > allowed {
                        let end = i + allowed as usize;
                        emit!(end);
                        self.invalid(Span::at(at(end)), Diagnostic::ArgumentsTooLong, sink);
                        return end;
                    }
                    call.arg_bytes += (end - i) as u64;
                    i = end;
                    match step {
                        Step::More => {}
                        Step::Done(_) => call.envelope = Envelope::Next,
                        Step::Error(_) => malformed!(i),
                    }
                }
                Envelope::KeyString | Envelope::Name => {
                    let b = chunk[i];
                    let in_name = call.envelope == Envelope::Name;
                    if call.escape {
                        call.escape = false;
                    } else if b == b'\\' {
                        call.escape = true;
                    } else if b == b'<' || b < 0x20 {
                        // Markup or a line break cannot be in a key or name (rule 9): the
                        // string is not closing, so the call must not swallow what follows.
                        if in_name && b != b'<' {
                            emit!(i);
                            self.invalid(
                                Span::new(at(i), at(i + 1)),
                                Diagnostic::InvalidName,
                                sink,
                            );
                            return i;
                        }
                        malformed!(i);
                    } else if b == call.quote {
                        i += 1;
                        if in_name {
                            flush!(i);
                            let span = Span::new(call.name_start, at(i - 1));
                            if let Some(diagnostic) = self.name_done(span, sink) {
                                self.invalid(span, diagnostic, sink);
                                return i;
                            }
                        } else {
                            call.key_kind = match (&call.key[..], call.key_overflow) {
                                (b"name", false) => Key::Name,
                                (b"arguments" | b"parameters", false) => Key::Arguments,
                                _ => Key::Other,
                            };
                            call.envelope = Envelope::Colon;
                        }
                        continue;
                    }
                    if in_name {
                        // Leading whitespace is trimmed anyway; it must not fill the buffer.
                        if call.name.is_empty() && b.is_ascii_whitespace() {
                            call.name_start += 1;
                        } else if call.name.try_push(b).is_err() {
                            emit!(i);
                            self.invalid(
                                Span::new(at(i), at(i + 1)),
                                Diagnostic::NameTooLong,
                                sink,
                            );
                            return i;
                        }
                    } else if call.key.try_push(b).is_err() {
                        call.key_overflow = true;
                    }
                    i += 1;
                }
                Envelope::Fence => {
                    let b = chunk[i];
                    i += 1;
                    call.fence = call.fence.saturating_add(1);
                    let info = b.is_ascii_alphanumeric()
                        || matches!(b, b'`' | b'_' | b'-' | b'.' | b'+' | b' ' | b'\t' | b'\r');
                    if b == b'\n' {
                        call.envelope = Envelope::Open;
                    } else if call.fence > FENCE_CAP || !info {
                        malformed!(i - 1);
                    }
                }
                Envelope::Open
                | Envelope::Key
                | Envelope::Colon
                | Envelope::Value
                | Envelope::Next => {
                    let b = chunk[i];
                    if is_json_ws(b) {
                        i += 1;
                        continue;
                    }
                    match (call.envelope, b) {
                        (Envelope::Open, b'{') => call.envelope = Envelope::Key,
                        // Rule 13: Qwen2.5-Coder and others fence the JSON (docs/dialects.md §hermes, §qwen3).
                        (Envelope::Open, b'`') if call.fence == 0 => {
                            flush!(i);
                            sink.diagnostic(Span::at(at(i)), Diagnostic::CodeFence);
                            call.envelope = Envelope::Fence;
                            continue;
                        }
                        (Envelope::Key, b'"' | b'\'') => {
                            call.envelope = Envelope::KeyString;
                            call.quote = b;
                            call.key.clear();
                            call.key_overflow = false;
                        }
                        (Envelope::Colon, b':') => call.envelope = Envelope::Value,
                        (Envelope::Next, b',') => call.envelope = Envelope::Key,
                        (Envelope::Key | Envelope::Next, b'}') => {
                            i += 1;
                            emit!(i);
                            self.body_done(Span::new(at(i - 1), at(i)), sink);
                            return i;
                        }
                        (Envelope::Value, _) => {
                            call.value = JsonValue::new();
                            let duplicate = match call.key_kind {
                                Key::Name => call.has_name,
                                Key::Arguments => call.has_args,
                                Key::Other => false,
                            };
                            if duplicate {
                                flush!(i);
                                sink.diagnostic(Span::at(at(i)), Diagnostic::DuplicateKey);
                                call.envelope = Envelope::Skip;
                                continue;
                            }
                            match (call.key_kind, b) {
                                (Key::Name, b'"' | b'\'') => {
                                    call.envelope = Envelope::Name;
                                    call.quote = b;
                                    call.name.clear();
                                    call.name_start = at(i + 1);
                                }
                                (Key::Name, _) => malformed!(i),
                                (Key::Arguments, b'{' | b'"' | b'\'') => {
                                    flush!(i);
                                    let span = Span::at(at(i));
                                    if b != b'{' {
                                        sink.diagnostic(span, Diagnostic::DoubleEncodedArguments);
                                    }
                                    self.frame.ensure_started(span, sink);
                                    self.call.envelope = Envelope::Arguments;
                                    self.call.has_args = true;
                                    continue;
                                }
                                (Key::Arguments, _) => {
                                    flush!(i);
                                    sink.diagnostic(
                                        Span::at(at(i)),
                                        Diagnostic::ArgumentsNotObject,
                                    );
                                    call.envelope = Envelope::Skip;
                                    continue;
                                }
                                (Key::Other, _) => {
                                    flush!(i);
                                    sink.diagnostic(Span::at(at(i)), Diagnostic::IgnoredKey);
                                    call.envelope = Envelope::Skip;
                                    continue;
                                }
                            }
                        }
                        _ => malformed!(i),
                    }
                    i += 1;
                }
            }
        }
        emit!(chunk.len());
        chunk.len()
    }

    /// The name string closed; reports it, or says why the call is invalid.
    fn name_done<S: Sink>(&mut self, span: Span, sink: &mut S) -> Option<Diagnostic> {
        let call = &mut self.call;
        call.envelope = Envelope::Next;
        call.has_name = true;
        let decoded;
        let name = if call.name.contains(&b'\\') {
            let Some(name) = decode_name(&call.name) else {
                return Some(Diagnostic::InvalidName);
            };
            decoded = name;
            decoded.as_slice()
        } else {
            call.name.as_slice()
        };
        let name = name.trim_ascii();
        if name.is_empty()
            || (!name.is_ascii() && core::str::from_utf8(name).is_err())
            || name.iter().any(|&b| {
                b.is_ascii_whitespace()
                    || b.is_ascii_control()
                    || matches!(b, b'<' | b'>' | b'"' | b'\'' | b'\\')
            })
        {
            return Some(Diagnostic::InvalidName);
        }
        self.frame.name(span, name, sink);
        None
    }

    /// The envelope's closing brace was read.
    fn body_done<S: Sink>(&mut self, span: Span, sink: &mut S) {
        if !self.call.has_name {
            self.invalid(span, Diagnostic::MissingName, sink);
            return;
        }
        self.phase = Phase::Tail;
    }

    /// After the body: whitespace is markup, then the closer must follow.
    fn tail<S: Sink>(
        &mut self,
        chunk: &[u8],
        pos: usize,
        base: u64,
        options: &Options,
        sink: &mut S,
    ) -> usize {
        let at = |i: usize| base + i as u64;
        let mut i = pos;
        if self.frame.delimiters.state == START {
            // A fenced body's closing fence is part of the tail.
            let fenced = self.call.fence != 0;
            let ws = chunk[i..]
                .iter()
                .take_while(|&&b| is_json_ws(b) || (b == b'`' && fenced))
                .count();
            if ws > 0 {
                sink.markup(
                    Span::new(at(i), at(i + ws)),
                    Markup::Envelope,
                    &chunk[i..i + ws],
                );
                i += ws;
            }
            if i == chunk.len() {
                return i;
            }
            if chunk[i] == b'{' {
                // Another JSON object in the same block: the next call (Qwen2.5 writes
                // parallel calls this way).
                let span = Span::at(at(i));
                sink.diagnostic(span, Diagnostic::SharedBlock);
                self.complete(span, sink);
                self.open_call(span, options, sink);
                return i;
            }
        }
        match self.frame.anchored(self.modes.tail, chunk, i) {
            Anchored::Pending => chunk.len(),
            Anchored::Matched(delimiter, end) => {
                let span = Span::new(at(end) - delimiter.bytes.len() as u64, at(end));
                sink.markup(span, Markup::Delimiter(delimiter.role), delimiter.bytes);
                self.complete(span, sink);
                end
            }
            Anchored::Failed(candidate) => {
                // Not the closer: the call is complete without it.
                let held = self.frame.delimiters.take();
                let start = at(candidate) - held.len() as u64;
                self.end_without_closer(Span::at(start), sink);
                self.refeed(&held, start, options, sink);
                candidate
            }
        }
    }

    /// Markup where a call body expects JSON structure: a stop token (the stream ended
    /// inside the call), the closer (the body lost its last brace), the next call's opener
    /// or the reasoning closer; anything else breaks the call.
    fn body_markup<S: Sink>(
        &mut self,
        chunk: &[u8],
        pos: usize,
        base: u64,
        options: &Options,
        sink: &mut S,
    ) -> usize {
        let at = |i: usize| base + i as u64;
        let (delimiter, end) = match self.frame.anchored(self.modes.body, chunk, pos) {
            Anchored::Pending => return chunk.len(),
            Anchored::Matched(delimiter, end) => (delimiter, end),
            Anchored::Failed(candidate) => {
                let held = self.frame.delimiters.take();
                let start = at(candidate) - held.len() as u64;
                let diagnostic = if self.call.envelope == Envelope::Name {
                    Diagnostic::InvalidName
                } else {
                    Diagnostic::MalformedCall
                };
                self.invalid(Span::new(start, start + 1), diagnostic, sink);
                self.refeed(&held, start, options, sink);
                return candidate;
            }
        };
        let span = Span::new(at(end) - delimiter.bytes.len() as u64, at(end));
        match delimiter.role {
            Role::Stop => {
                self.truncate(span, sink);
                sink.markup(span, Markup::Delimiter(delimiter.role), delimiter.bytes);
                sink.diagnostic(span, Diagnostic::StrayStopToken);
            }
            Role::CallClose if self.call.envelope == Envelope::Next && self.call.has_name => {
                sink.markup(span, Markup::Delimiter(delimiter.role), delimiter.bytes);
                sink.diagnostic(span, Diagnostic::UnclosedBody);
                self.complete(span, sink);
            }
            Role::CallClose => {
                sink.markup(span, Markup::Delimiter(delimiter.role), delimiter.bytes);
                self.invalid(span, Diagnostic::MalformedCall, sink);
            }
            Role::ReasoningClose if !self.frame.reasoning => {
                // Not ours to close: text after the broken call.
                self.invalid(Span::at(span.start), Diagnostic::MalformedCall, sink);
                sink.text(span, delimiter.bytes);
            }
            _ => {
                self.invalid(Span::at(span.start), Diagnostic::MalformedCall, sink);
                self.delimiter(delimiter, span, options, sink);
            }
        }
        end
    }

    /// Scans bytes taken out of the hold again, in the phase that now applies (at most one
    /// delimiter's length, once per broken structure).
    fn refeed<S: Sink>(&mut self, held: &[u8], start: u64, options: &Options, sink: &mut S) {
        if !held.is_empty() {
            self.run(held, start, options, sink);
        }
    }

    fn end_without_closer<S: Sink>(&mut self, span: Span, sink: &mut S) {
        sink.diagnostic(span, Diagnostic::MissingCloser);
        self.complete(span, sink);
    }

    /// The stream ended in the tail: complete without the closer. Held bytes are the start
    /// of the closer the end of the stream cut off: the call's own markup.
    fn abandon_tail<S: Sink>(&mut self, end: u64, sink: &mut S) {
        self.frame.held_as_markup(end, sink);
        self.end_without_closer(Span::at(end), sink);
    }
}

/// The name as JSON decodes it: `\uXXXX` escapes (surrogate pairs included) become UTF-8,
/// `\/` a slash; any other escape (quotes, backslashes, whitespace) cannot be in a name.
/// Models trained on `json.dumps` output escape non-ASCII names this way.
fn decode_name(raw: &[u8]) -> Option<ArrayVec<u8, MAX_NAME>> {
    let mut out = ArrayVec::new();
    let mut i = 0;
    while i < raw.len() {
        if raw[i] != b'\\' {
            out.push(raw[i]);
            i += 1;
            continue;
        }
        match raw.get(i + 1)? {
            b'/' => {
                out.push(b'/');
                i += 2;
            }
            b'u' => {
                let high = hex4(raw.get(i + 2..i + 6)?)?;
                i += 6;
                let code = if (0xD800..0xDC00).contains(&high) {
                    let low = match raw.get(i..i + 2)? {
                        b"\\u" => hex4(raw.get(i + 2..i + 6)?)?,
                        _ => return None,
                    };
                    if !(0xDC00..0xE000).contains(&low) {
                        return None;
                    }
                    i += 6;
                    0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)
                } else {
                    high
                };
                let c = char::from_u32(code)?;
                let mut utf8 = [0u8; 4];
                // Decoding only shortens: `\uXXXX` is 6 bytes, its UTF-8 at most 3 (4 for 12).
                out.try_extend_from_slice(c.encode_utf8(&mut utf8).as_bytes())
                    .ok()?;
            }
            _ => return None,
        }
    }
    Some(out)
}

fn hex4(digits: &[u8]) -> Option<u32> {
    digits
        .iter()
        .try_fold(0u32, |n, &d| Some(n * 16 + (d as char).to_digit(16)?))
}
