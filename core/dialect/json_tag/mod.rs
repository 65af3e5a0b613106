//! The JSON-in-tags family (`hermes`, `qwen3`, `longcat`, `jamba`, `granite`, `internlm`,
//! `mistral`, `llama3-json`, `xlam`, `phi4-mini`, `hunyuan-a13b`, `cohere`,
//! `apertus`, `gigachat3`):
//! `<tool_call>` + one JSON object `{"name": …, "arguments": {…}}` + `</tool_call>`, with
//! `<think>` reasoning (LongCat and InternLM rename the markers: `<longcat_tool_call>`,
//! `<|action_start|><|plugin|>`); with the `list` knob the block may hold a JSON array of
//! such objects (`<tool_calls>[{…}, {…}]</tool_calls>`), each element a call, and with
//! `list_end` the array's `]` ends the block (Granite's `<|tool_call|>[…]`; with
//! `list_open` the opener holds the `[`, Phi-4-mini's `functools[…]`); with
//! `name_header` a call may be `OPEN NAME[ARGS]{…}` instead (Mistral, `header.rs`), and with
//! `no_closer` a call's JSON ends it; with `json_start` a call object may stand with no opener
//! at the output's start (Llama 3, xLAM, `start.rs`). Formats:
//! docs/seed.md §2.2 and §2.9; docs/dialects.md §hermes, §qwen3, §longcat, §jamba,
//! §granite, §internlm, §mistral, §llama3-json, §xlam, §phi4-mini, §hunyuan-a13b, §cohere,
//! §apertus, §gigachat3. The keys of a call object are table data, and with `keyed` its one key is
//! the name (`keys.rs`).

mod family;
mod header;
mod keys;
mod list;
mod name;
mod start;
mod tail;

use arrayvec::ArrayVec;

use crate::automaton::{Dfa, START};
use crate::engine::budget::Budget;
use crate::engine::frame::{Anchored, Frame};
use crate::engine::Family;
use crate::engine::TextModes;
use crate::lex::cursor::Cursor;
use crate::lex::json::{is_json_ws, JsonValue, Step};
use crate::options::MAX_NAME;
use crate::{Diagnostic, Markup, Role, Sink, Span};

/// The scanner modes of one dialect of the family, from its table file.
#[derive(Debug)]
pub(crate) struct Modes {
    /// Content and reasoning.
    pub(crate) text: TextModes,
    /// Markup where a call body expects JSON structure.
    pub(crate) body: &'static Dfa,
    /// After a call's JSON body: whitespace, then the closer.
    pub(crate) tail: &'static Dfa,
    /// A block may hold a JSON array of call objects (the `list` knob).
    pub(crate) list: bool,
    /// The array's `]` ends the block: no closer follows (the `list_end` knob).
    pub(crate) list_end: bool,
    /// The call opener ends with the array's `[` (Phi-4-mini's `functools[`): the array
    /// is open from the opener on (the `list_open` knob).
    pub(crate) list_open: bool,
    /// A call opener may be followed by a name header (`NAME[CALL_ID]ID[ARGS]`) before the
    /// arguments' JSON, which ends the call (the `name_header` knob).
    pub(crate) name_header: bool,
    /// No closer follows a call: its JSON object (in an array, the array's `]`) ends it
    /// (the `no_closer` knob).
    pub(crate) no_closer: bool,
    /// The call-object key that holds the model's call id, skipped without a diagnostic:
    /// it may follow the arguments, after which no id can be reported (the `id_key` knob:
    /// Mistral's `id`, Cohere's `tool_call_id`).
    pub(crate) id_key: Option<&'static [u8]>,
    /// The call-object key that holds the tool's name (the `name_key` knob; `name`).
    pub(crate) name_key: &'static [u8],
    /// The call-object key that holds the arguments besides `parameters` (the
    /// `arguments_key` knob; `arguments`).
    pub(crate) arguments_key: &'static [u8],
    /// A call object's one key is the tool's name, its value the arguments,
    /// `{"NAME": {…}}` (the `keyed` knob: Apertus; `keys.rs`).
    pub(crate) keyed: bool,
    /// A call object (with `list`, an array of them) may begin the output, or follow a
    /// call, with no opener (the `json_start` knob, `start.rs`).
    pub(crate) json_start: bool,
    /// With `json_start`, the call may stand in a code fence that begins the output (the
    /// `json_start_fence` knob).
    pub(crate) json_start_fence: bool,
    /// A block may end without its closer, with no diagnostic (the `closer_optional` knob).
    pub(crate) closer_optional: bool,
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
    /// Where a call with no opener may begin: blanks are text (`json_start`).
    Start,
    /// The held head of a call with no opener, until its first key (`json_start`).
    Head,
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
    /// A name header's name, up to its `args_open` or `id_open` delimiter (`name_header`).
    Header,
    /// A name header's call id, after `id_open`, up to `args_open`.
    Id,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Key {
    Name,
    Arguments,
    /// The model's call id (`id_key`).
    Id,
    Other,
}

/// What a step of the body scan says to its loop.
#[derive(Debug, Clone, Copy)]
enum Flow {
    /// Go on at this chunk offset.
    Go(usize),
    /// The body scan stops at this chunk offset (the phase changed).
    Stop(usize),
}

/// Longest key the envelope needs to tell apart (inband-tables' `MAX_KEY_LEN` bounds the
/// keys a table's knobs name).
const KEY_CAP: usize = 16;

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
    /// Argument bytes so far.
    budget: Budget,
    /// Bytes of the opening fence line so far; 0 when the body is not fenced.
    fence: u8,
    /// An empty element of the block's array (`[]`, or `]` after a comma): the call was
    /// withdrawn before it started, and the block's end ends nothing.
    withdrawn: bool,
    /// The call began with a name header: its arguments' JSON ends its body.
    headed: bool,
    /// In a header's id: where it begins in `name` (the name before it is not reported
    /// yet, so that the call starts with its id: a client sees both at once), and its
    /// stream offset.
    id_at: u8,
    id_start: u64,
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
            budget: Budget::EMPTY,
            fence: 0,
            withdrawn: false,
            headed: false,
            id_at: 0,
            id_start: 0,
        }
    }
}

/// The phase machine of the JSON-in-tags family.
#[derive(Debug, Clone)]
pub(crate) struct JsonTag {
    modes: &'static Modes,
    phase: Phase,
    call: Call,
    /// Inside a block's JSON array of calls: between its `[` and `]`.
    in_list: bool,
    /// Head: the held head of a call with no opener.
    head: start::Head,
}

impl JsonTag {
    pub(crate) fn new(modes: &'static Modes) -> Self {
        JsonTag {
            modes,
            phase: if modes.json_start {
                Phase::Start
            } else {
                Phase::Text
            },
            call: Call::new(),
            in_list: false,
            head: start::Head::new(),
        }
    }

    #[inline]
    fn open_call<S: Sink>(&mut self, frame: &mut Frame, span: Span, sink: &mut S) {
        if frame.open_call(span, sink) {
            // The elements of a fenced array share its fence (`json_start_fence`).
            let fence = if self.in_list { self.call.fence } else { 0 };
            self.call = Call::new();
            self.call.fence = fence;
            self.phase = Phase::Body;
        } else {
            self.phase = Phase::Text;
        }
    }

    /// Ends the current call as invalid and returns to text.
    fn invalid<S: Sink>(
        &mut self,
        frame: &mut Frame,
        span: Span,
        diagnostic: Diagnostic,
        sink: &mut S,
    ) {
        frame.invalid(span, diagnostic, sink);
        self.phase = Phase::Text;
    }

    /// The stream ended (or a stop token came) inside the call.
    fn truncate<S: Sink>(&mut self, frame: &mut Frame, span: Span, sink: &mut S) {
        frame.truncate(span, sink);
        self.phase = Phase::Text;
    }

    /// A call whose structure closed: complete now, or a draft until its reasoning decides.
    fn complete<S: Sink>(&mut self, frame: &mut Frame, span: Span, sink: &mut S) {
        self.after_call();
        if !self.call.withdrawn {
            frame.complete(span, sink);
        }
    }

    /// Scans the call's JSON body; bytes are envelope markup or argument text.
    #[inline(always)]
    fn body<S: Sink>(
        &mut self,
        frame: &mut Frame,
        chunk: &[u8],
        pos: usize,
        base: u64,
        sink: &mut S,
    ) -> usize {
        let mut c = Cursor::new(frame, sink, chunk, base, pos);
        let mut i = pos;
        while i < chunk.len() {
            let flow = match self.call.envelope {
                Envelope::Arguments => self.arguments(&mut c, i),
                Envelope::Skip => self.skip(&mut c, i),
                Envelope::KeyString | Envelope::Name => self.string_byte(&mut c, i),
                Envelope::Fence => self.fence_byte(&mut c, i),
                Envelope::Header | Envelope::Id => self.header_byte(&mut c, i),
                Envelope::Open
                | Envelope::Key
                | Envelope::Colon
                | Envelope::Value
                | Envelope::Next => self.structure_byte(&mut c, i),
            };
            match flow {
                Flow::Go(next) => i = next,
                Flow::Stop(at) => return at,
            }
        }
        c.emit(chunk.len());
        chunk.len()
    }

    /// The byte at `i` cannot continue the body: markup is looked at by `body_markup`,
    /// anything else breaks the call.
    #[inline(always)]
    fn malformed<S: Sink>(&mut self, c: &mut Cursor<'_, S>, i: usize) -> Flow {
        c.emit(i);
        // `<` in every dialect of the family; also `[` in Mistral's (its control tokens).
        if self.modes.body.starts[usize::from(c.chunk[i])] {
            self.phase = Phase::BodyMarkup;
        } else {
            let span = c.span(i, i + 1);
            self.invalid(c.frame, span, Diagnostic::MalformedCall, c.sink);
        }
        Flow::Stop(i)
    }

    /// Ends the call as invalid at `chunk[i]` (`span`), after the markup before it.
    #[inline(always)]
    fn broken<S: Sink>(
        &mut self,
        c: &mut Cursor<'_, S>,
        i: usize,
        span: Span,
        diagnostic: Diagnostic,
    ) -> Flow {
        c.emit(i);
        self.invalid(c.frame, span, diagnostic, c.sink);
        Flow::Stop(i)
    }

    /// The arguments value: its bytes go out as argument text, within the budget.
    #[inline(always)]
    fn arguments<S: Sink>(&mut self, c: &mut Cursor<'_, S>, i: usize) -> Flow {
        c.emit(i);
        let chunk = c.chunk;
        let call = &mut self.call;
        let step = call.value.scan(&chunk[i..]);
        let mut end = match step {
            Step::More => chunk.len(),
            Step::Done(k) | Step::Error(k) => i + k,
        };
        // The limit falls on the same byte whatever the chunking.
        let over;
        (end, over) = call.budget.take(i, end, &c.frame.options);
        if end > i {
            let index = c.frame.call.index;
            c.sink.tool_args(c.span(i, end), index, &chunk[i..end]);
        }
        c.run = end;
        if over {
            let span = Span::at(c.at(end));
            self.invalid(c.frame, span, Diagnostic::ArgumentsTooLong, c.sink);
            return Flow::Stop(end);
        }
        match step {
            Step::More => {}
            Step::Done(_) if call.headed => return self.headed_done(c, end),
            Step::Done(_) => call.envelope = Envelope::Next,
            Step::Error(_) => return self.malformed(c, end),
        }
        Flow::Go(end)
    }

    /// A value of a key that is not used, skipped (its bytes stay markup).
    #[inline(always)]
    fn skip<S: Sink>(&mut self, c: &mut Cursor<'_, S>, i: usize) -> Flow {
        let chunk = c.chunk;
        let call = &mut self.call;
        let step = call.value.scan(&chunk[i..]);
        let end = match step {
            Step::More => chunk.len(),
            Step::Done(k) | Step::Error(k) => i + k,
        };
        // Skipped values count against the same limit as arguments, so one call never
        // swallows an unbounded stream.
        let (end, over) = call.budget.take(i, end, &c.frame.options);
        if over {
            let span = Span::at(c.at(end));
            return self.broken(c, end, span, Diagnostic::ArgumentsTooLong);
        }
        match step {
            Step::More => {}
            Step::Done(_) => call.envelope = Envelope::Next,
            Step::Error(_) => return self.malformed(c, end),
        }
        Flow::Go(end)
    }

    /// One byte of a key or of the name string.
    #[inline(always)]
    fn string_byte<S: Sink>(&mut self, c: &mut Cursor<'_, S>, i: usize) -> Flow {
        let b = c.chunk[i];
        let call = &mut self.call;
        let in_name = call.envelope == Envelope::Name;
        if call.escape {
            call.escape = false;
        } else if b == b'\\' {
            call.escape = true;
        } else if b == b'<' || b < 0x20 {
            // Markup or a line break cannot be in a key or name (rule 9): the string is
            // not closing, so the call must not swallow what follows.
            if in_name && b != b'<' {
                let span = c.span(i, i + 1);
                return self.broken(c, i, span, Diagnostic::InvalidName);
            }
            return self.malformed(c, i);
        } else if b == call.quote {
            let i = i + 1;
            if in_name {
                c.flush(i);
                let span = Span::new(call.name_start, c.at(i - 1));
                if let Some(diagnostic) = self.name_done(c.frame, span, c.sink) {
                    self.invalid(c.frame, span, diagnostic, c.sink);
                    return Flow::Stop(i);
                }
            } else {
                call.key_kind = start::key_kind(self.modes, &call.key, call.key_overflow);
                call.envelope = Envelope::Colon;
            }
            return Flow::Go(i);
        }
        if in_name {
            // Leading whitespace is trimmed anyway; it must not fill the buffer.
            if call.name.is_empty() && b.is_ascii_whitespace() {
                call.name_start += 1;
            } else if call.name.try_push(b).is_err() {
                let span = c.span(i, i + 1);
                return self.broken(c, i, span, Diagnostic::NameTooLong);
            }
        } else if call.key.try_push(b).is_err() {
            call.key_overflow = true;
        }
        Flow::Go(i + 1)
    }

    /// One byte of the opening line of a code fence around the body.
    #[inline(always)]
    fn fence_byte<S: Sink>(&mut self, c: &mut Cursor<'_, S>, i: usize) -> Flow {
        let b = c.chunk[i];
        let call = &mut self.call;
        call.fence = call.fence.saturating_add(1);
        let info = b.is_ascii_alphanumeric()
            || matches!(b, b'`' | b'_' | b'-' | b'.' | b'+' | b' ' | b'\t' | b'\r');
        if b == b'\n' {
            call.envelope = Envelope::Open;
        } else if call.fence > FENCE_CAP || !info {
            return self.malformed(c, i);
        }
        Flow::Go(i + 1)
    }

    /// One byte of the envelope's structure: braces, keys' quotes, colons, commas.
    #[inline(always)]
    fn structure_byte<S: Sink>(&mut self, c: &mut Cursor<'_, S>, i: usize) -> Flow {
        let b = c.chunk[i];
        if is_json_ws(b) {
            return Flow::Go(i + 1);
        }
        let call = &mut self.call;
        match (call.envelope, b) {
            (Envelope::Open, b'{') => call.envelope = Envelope::Key,
            // The block's array of calls begins: its brackets and commas are markup.
            (Envelope::Open, b'[') if self.modes.list && !self.in_list && call.fence == 0 => {
                self.in_list = true;
            }
            (Envelope::Open, b']') if self.in_list && call.fence == 0 => {
                // An empty array (or a comma before `]`): this element holds no call. It
                // is withdrawn unstarted (the next call takes its number); the block's
                // end follows as after any call.
                self.in_list = false;
                c.emit(i + 1);
                c.frame.withdraw_call();
                call.withdrawn = true;
                self.phase = if self.modes.list_end {
                    Phase::Text
                } else {
                    Phase::Tail
                };
                return Flow::Stop(i + 1);
            }
            // Rule 13: Qwen2.5-Coder and others fence the JSON (docs/dialects.md §hermes, §qwen3).
            (Envelope::Open, b'`') if call.fence == 0 => {
                c.flush(i);
                c.sink.diagnostic(Span::at(c.at(i)), Diagnostic::CodeFence);
                call.envelope = Envelope::Fence;
                return Flow::Go(i);
            }
            // Apertus: the object's first key is the tool's name.
            (Envelope::Key, b'"' | b'\'') if self.modes.keyed && !call.has_name => {
                return self.keyed_name_start(c, i);
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
                c.emit(i + 1);
                let span = c.span(i, i + 1);
                self.body_done(c.frame, span, c.sink);
                return Flow::Stop(i + 1);
            }
            (Envelope::Value, _) => return self.value_start(c, i),
            // Mistral v11+: `[TOOL_CALLS]NAME[ARGS]{…}`, a name where the JSON would begin.
            (Envelope::Open, _) if self.modes.name_header && call.fence == 0 => {
                return self.header_start(c, i)
            }
            _ => return self.malformed(c, i),
        }
        Flow::Go(i + 1)
    }

    /// The first byte of a key's value: what the key is decides how it is read.
    #[inline(always)]
    fn value_start<S: Sink>(&mut self, c: &mut Cursor<'_, S>, i: usize) -> Flow {
        let b = c.chunk[i];
        let call = &mut self.call;
        call.value = JsonValue::new();
        let duplicate = match call.key_kind {
            Key::Name => call.has_name,
            Key::Arguments => call.has_args,
            Key::Id | Key::Other => false,
        };
        let skipped = match (duplicate, call.key_kind, b) {
            (true, _, _) => Diagnostic::DuplicateKey,
            (false, Key::Name, b'"' | b'\'') => {
                call.envelope = Envelope::Name;
                call.quote = b;
                call.name.clear();
                call.name_start = c.at(i + 1);
                return Flow::Go(i + 1);
            }
            (false, Key::Name, _) => return self.malformed(c, i),
            (false, Key::Arguments, b'{' | b'"' | b'\'') => {
                c.flush(i);
                let span = Span::at(c.at(i));
                if b != b'{' {
                    c.sink.diagnostic(span, Diagnostic::DoubleEncodedArguments);
                }
                c.frame.ensure_started(span, c.sink);
                call.envelope = Envelope::Arguments;
                call.has_args = true;
                return Flow::Go(i);
            }
            // A header's arguments are its whole body: nothing else to skip to.
            (false, Key::Arguments, _) if call.headed => return self.malformed(c, i),
            (false, Key::Arguments, _) => Diagnostic::ArgumentsNotObject,
            (false, Key::Other, _) => Diagnostic::IgnoredKey,
            (false, Key::Id, _) => {
                // A key of the format, not reported: the call keeps a minted id.
                call.envelope = Envelope::Skip;
                return Flow::Go(i);
            }
        };
        c.flush(i);
        c.sink.diagnostic(Span::at(c.at(i)), skipped);
        call.envelope = Envelope::Skip;
        Flow::Go(i)
    }

    /// The envelope's closing brace was read.
    fn body_done<S: Sink>(&mut self, frame: &mut Frame, span: Span, sink: &mut S) {
        if !self.call.has_name {
            self.invalid(frame, span, Diagnostic::MissingName, sink);
            return;
        }
        if self.modes.no_closer && !self.in_list {
            // Nothing closes the call but its JSON (Mistral).
            self.complete(frame, Span::at(span.end), sink);
            return;
        }
        self.phase = Phase::Tail;
    }
}
