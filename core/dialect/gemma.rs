//! Gemma 4 (`gemma`): `<|tool_call>call:NAME{key:VALUE,…}<tool_call|>`, values in Gemma's
//! literal syntax, reasoning `<|channel>thought\n…<channel|>`.
//! Formats: docs/seed.md §2.11, docs/dialects.md §gemma; rules from docs/dialects.md.
//!
//! A value is a string between `<|"|>` tokens (no escapes), a bare word (number, `true`,
//! `false`, `null`), or a `[…]` list or `{key:…}` object of values, whose structure is
//! checked as it comes (a closer of its own kind, `:` only after an object's key, `,` only
//! after an element or a key's value), so that a complete call's arguments are always
//! JSON. A `<|"|>` inside a
//! string closes it only when the next byte after optional whitespace is `,`, `}` or `]`
//! (`)` too in the parenthesized form); otherwise it is a literal `"` (docs/dialects.md §gemma,
//! corpus 047). Keys and the name are markup; values stream as [`Piece`]s.
//!
//! Drift accepted with a diagnostic (docs/dialects.md rule 13, corpus 049, 053): the body written
//! `call:NAME(key=VALUE, …)`, strings in JSON or Python quotes, and Gemma 3's Python calls
//! in a ```` ```tool_code ```` fence, read by the `gemini` dialect's block parser.

use arrayvec::ArrayVec;

use crate::automaton::{Delimiter, Dfa, START};
use crate::engine::frame::{envelope_while, Anchored, Frame};
use crate::lex::blank::Blank;
use crate::lex::call_block::{Block, BlockEnd};
use crate::lex::json::is_json_ws;
use crate::lex::python::{Nest, Open};
use crate::options::{Options, MAX_NAME};
use crate::{Diagnostic, Markup, Piece, Role, Sink, Span, ValueKind};

/// The scanner modes of the dialect, from its table file.
#[derive(Debug)]
pub(crate) struct Modes {
    /// Visible text.
    pub(crate) content: &'static Dfa,
    /// Inside a reasoning block.
    pub(crate) reasoning: &'static Dfa,
    /// A `<` where a call expects structure.
    pub(crate) body: &'static Dfa,
    /// Inside a `<|"|>` string.
    pub(crate) string: &'static Dfa,
    /// After the body's closing brace.
    pub(crate) tail: &'static Dfa,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    /// Content or reasoning, scanned for delimiters.
    Text,
    /// After the opener: whitespace, then `call:`, of which this many bytes matched.
    Prefix(u8),
    /// After `call:`: whitespace, then the name.
    BeforeName,
    Name,
    /// After the name: whitespace, then `{` or `(`.
    AfterName,
    /// At the top level: whitespace, then a key or the body's closer.
    Key,
    /// Inside a bare key.
    KeyWord,
    /// Inside a key in JSON or Python quotes.
    KeyQuoted,
    /// After a key: whitespace, then `:` (`=` in the parenthesized form).
    Separator,
    /// Where a value's next token starts.
    Value,
    /// Inside a bare word.
    Bare,
    /// Inside a string in JSON or Python quotes.
    Quoted,
    /// Inside a `<|"|>` string.
    Token,
    /// After a `<|"|>` inside a string: whitespace, until a byte says whether it closed.
    Pending,
    /// After a value token: whitespace, then a separator or a closer.
    Next,
    /// A `<` where structure is expected: which token, if any.
    Markup,
    /// After the body: whitespace, then the closer.
    Tail,
    /// Inside a ```` ```tool_code ```` block.
    Block,
}

/// What a run of call bytes is reported as.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Out {
    Markup,
    Value(Piece),
}

/// The string quote token, whose bytes a pending quote stands for.
const QUOTE: &[u8] = b"<|\"|>";

/// The call prefix before the name.
const CALL: &[u8] = b"call:";

/// The Gemma 3 call opener, in the content table next to `<|tool_call>`.
const TOOL_CODE: &[u8] = b"```tool_code";

/// The call being scanned.
#[derive(Debug, Clone)]
struct Call {
    /// Written `call:NAME(k=v)`.
    paren: bool,
    /// Open lists and objects inside the current value, an object's as at a key or a
    /// value.
    nest: Nest,
    /// The name, then each key.
    word: ArrayVec<u8, MAX_NAME>,
    /// Stream offset of the word's first byte.
    word_start: u64,
    /// The quote byte of a JSON- or Python-quoted string or key.
    quote: u8,
    escape: bool,
    /// The last value token was a bare word (whitespace after it may still be part of it).
    last_bare: bool,
    /// A parameter began and has not ended.
    in_value: bool,
    quoted_reported: bool,
    /// Pending: the whitespace after the quote token.
    ws: Blank,
    /// Markup: the phase the `<` interrupted.
    markup_from: Phase,
    /// Stream offset of the call's first byte after the opener, where the
    /// `max_argument_bytes` budget starts.
    start: u64,
}

impl Call {
    fn new() -> Self {
        Call {
            paren: false,
            nest: Nest::new(),
            word: ArrayVec::new_const(),
            word_start: 0,
            quote: 0,
            escape: false,
            last_bare: false,
            in_value: false,
            quoted_reported: false,
            ws: Blank::EMPTY,
            markup_from: Phase::Text,
            start: 0,
        }
    }

    /// The byte that ends the top-level body.
    fn body_closer(&self) -> u8 {
        if self.paren {
            b')'
        } else {
            b'}'
        }
    }

    /// A `<|"|>` followed by `b` (after whitespace) closes its string.
    fn closes_string(&self, b: u8) -> bool {
        matches!(b, b',' | b'}' | b']') || (self.paren && b == b')')
    }

    /// `b` ends a bare word.
    fn ends_bare(&self, b: u8) -> bool {
        is_json_ws(b)
            || matches!(b, b',' | b'}' | b']' | b'<' | b'{' | b'[')
            || (b == b':' && self.nest.top() == Some(Open::Key))
            || (b == b')' && self.paren && self.nest.depth() == 0)
    }
}

/// `b` may start a bare word or a bare key.
fn bare_start(b: u8) -> bool {
    !is_json_ws(b)
        && !matches!(
            b,
            b'{' | b'}' | b'[' | b']' | b'(' | b')' | b',' | b':' | b'=' | b'"' | b'\'' | b'<'
        )
}

/// `b` may be part of a name.
fn name_byte(b: u8) -> bool {
    b > 0x20
        && b != 0x7f
        && !matches!(
            b,
            b'{' | b'}'
                | b'['
                | b']'
                | b'('
                | b')'
                | b','
                | b'='
                | b'"'
                | b'\''
                | b'<'
                | b'>'
                | b'\\'
        )
}

/// What the current call is written as. A `<|tool_call>` call and a ```` ```tool_code ````
/// block never overlap, so they share their storage.
#[derive(Debug, Clone)]
enum Body {
    Literal(Call),
    /// Gemma 3's Python calls in a fence (drift, docs/dialects.md rule 13).
    ToolCode(Block),
}

impl Body {
    /// The `<|tool_call>` call's state. The phases that ask for it come after
    /// `open_call`, which sets it; were it a block, a fresh call would do no harm.
    fn call(&mut self) -> &mut Call {
        match self {
            Body::Literal(call) => call,
            Body::ToolCode(_) => {
                *self = Body::Literal(Call::new());
                self.call()
            }
        }
    }

    /// The ```` ```tool_code ```` block's state, likewise.
    fn block(&mut self) -> &mut Block {
        match self {
            Body::ToolCode(block) => block,
            Body::Literal(_) => {
                *self = Body::ToolCode(Block::new());
                self.block()
            }
        }
    }

    /// The stream offset where the call reaches `max_argument_bytes`, if one is open.
    fn limit(&self, options: &Options) -> Option<u64> {
        match self {
            Body::Literal(call) => Some(call.start.saturating_add(options.max_argument_bytes)),
            Body::ToolCode(block) => block.limit(options),
        }
    }
}

/// The phase machine of the Gemma dialect.
#[derive(Debug, Clone)]
pub(crate) struct Gemma {
    modes: &'static Modes,
    phase: Phase,
    frame: Frame,
    body: Body,
}

impl Gemma {
    pub(crate) fn new(modes: &'static Modes, options: &Options) -> Self {
        Gemma {
            modes,
            phase: Phase::Text,
            frame: Frame::new(options),
            body: Body::Literal(Call::new()),
        }
    }

    fn text_dfa(&self) -> &'static Dfa {
        if self.frame.reasoning {
            self.modes.reasoning
        } else {
            self.modes.content
        }
    }

    fn in_call(&self) -> bool {
        self.phase != Phase::Text
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
            Phase::Token
                if self.within_limit(span.end, options)
                    && self.frame.delimiters.state == START
                    && self.modes.string.find_start(chunk).is_none() =>
            {
                sink.tool_value(span, self.frame.call.index, Piece::Raw, chunk);
                return;
            }
            Phase::Block if self.within_limit(span.end, options) => {
                if let Some(piece) = self.body.block().take_inside_string(chunk) {
                    sink.tool_value(span, self.frame.call.index, piece, chunk);
                    return;
                }
            }
            _ => {}
        }
        self.run_machine(chunk, base, options, sink);
    }

    /// The call stays within `max_argument_bytes` up to stream offset `end`.
    fn within_limit(&self, end: u64, options: &Options) -> bool {
        self.body.limit(options).is_none_or(|limit| end <= limit)
    }

    /// The general machine: phase after phase until the chunk is used up. Inside a call,
    /// the chunk is cut where the call reaches `max_argument_bytes`, so the limit falls on
    /// the same byte whatever the chunking.
    #[inline(never)]
    fn run_machine<S: Sink>(&mut self, chunk: &[u8], base: u64, options: &Options, sink: &mut S) {
        let mut pos = 0;
        while pos < chunk.len() {
            let limit = match self.in_call() {
                true => self.body.limit(options),
                false => None,
            };
            let Some(limit) = limit else {
                pos = self.step(chunk, pos, base, options, sink);
                continue;
            };
            if limit <= base + pos as u64 {
                self.over_limit(base + pos as u64, sink);
                continue;
            }
            let end = usize::try_from(limit - base).map_or(chunk.len(), |end| end.min(chunk.len()));
            pos = self.step(&chunk[..end], pos, base, options, sink);
        }
    }

    fn step<S: Sink>(
        &mut self,
        chunk: &[u8],
        pos: usize,
        base: u64,
        options: &Options,
        sink: &mut S,
    ) -> usize {
        match self.phase {
            Phase::Text => self.text(chunk, pos, base, options, sink),
            Phase::Token => self.token(chunk, pos, base, sink),
            Phase::Markup => self.markup(chunk, pos, base, options, sink),
            Phase::Tail => self.tail(chunk, pos, base, options, sink),
            Phase::Block => {
                let block = self.body.block();
                match block.scan(&mut self.frame, chunk, pos, base, options, sink) {
                    BlockEnd::More => chunk.len(),
                    BlockEnd::Slot(end) => end,
                    BlockEnd::Closed(end) | BlockEnd::Text(end) => {
                        self.phase = Phase::Text;
                        end
                    }
                }
            }
            _ => self.body(chunk, pos, base, sink),
        }
    }

    /// The call reached `max_argument_bytes` at offset `end`: what is held is its markup.
    fn over_limit<S: Sink>(&mut self, end: u64, sink: &mut S) {
        if self.phase == Phase::Block {
            self.body.block().over_limit(&mut self.frame, end, sink);
            self.phase = Phase::Text;
            return;
        }
        if self.phase == Phase::Pending {
            self.pending_as_markup(end, sink);
        }
        self.frame.held_as_markup(end, sink);
        self.invalid(Span::at(end), Diagnostic::ArgumentsTooLong, sink);
    }

    /// Reports a pending quote token and the whitespace after it, which end at stream
    /// offset `end`, as the call's markup.
    fn pending_as_markup<S: Sink>(&mut self, end: u64, sink: &mut S) {
        let ws = self.body.call().ws.bytes();
        let start = end - ws.len() as u64 - QUOTE.len() as u64;
        sink.markup(Span::new(start, start + 5), Markup::Envelope, QUOTE);
        if !ws.is_empty() {
            sink.markup(Span::new(start + 5, end), Markup::Envelope, &ws);
        }
    }

    /// End of stream at offset `end`: nothing is held back any more.
    pub(crate) fn finish<S: Sink>(&mut self, end: u64, sink: &mut S) {
        match self.phase {
            Phase::Text => self.frame.finish_text(end, sink),
            Phase::Tail => {
                // The start of the closer the end of the stream cut off: the call's own.
                self.frame.held_as_markup(end, sink);
                sink.diagnostic(Span::at(end), Diagnostic::MissingCloser);
                self.complete(Span::at(end), sink);
            }
            Phase::Token => {
                let held = self.frame.delimiters.take();
                if !held.is_empty() {
                    let span = Span::new(end - held.len() as u64, end);
                    sink.tool_value(span, self.frame.call.index, Piece::Raw, &held);
                }
            }
            Phase::Pending => {
                // The end of the stream can follow a closing quote.
                self.resolve_pending(true, end, sink);
            }
            Phase::Block => self.body.block().flush_held(&self.frame, end, sink),
            _ => self.frame.held_as_markup(end, sink),
        }
        let at = Span::at(end);
        self.frame.finish_drafts(at, sink);
        if self.phase == Phase::Block {
            self.body.block().end(&mut self.frame, end, sink);
            self.phase = Phase::Text;
        }
        if self.in_call() {
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
        match self
            .frame
            .scan_text(dfa, chunk, pos, base, &mut |_, _| {}, sink)
        {
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
        if self.frame.text_delimiter(delimiter, span, sink) != Some(Role::CallOpen) {
            return;
        }
        if delimiter.bytes == TOOL_CODE {
            sink.diagnostic(span, Diagnostic::ToolCodeBlock);
            let block = self.body.block();
            self.phase = if block.open(&mut self.frame, span, options, sink) {
                Phase::Block
            } else {
                Phase::Text
            };
        } else {
            self.open_call(span, options, sink);
        }
    }

    fn open_call<S: Sink>(&mut self, span: Span, options: &Options, sink: &mut S) {
        if self.frame.open_call(span, options, sink) {
            let mut call = Call::new();
            call.start = span.end;
            self.body = Body::Literal(call);
            self.phase = Phase::Prefix(0);
        } else {
            self.phase = Phase::Text;
        }
    }

    /// Ends the current call as invalid and returns to text.
    fn invalid<S: Sink>(&mut self, span: Span, diagnostic: Diagnostic, sink: &mut S) {
        self.frame.invalid(span, diagnostic, sink);
        self.phase = Phase::Text;
    }

    /// A call whose structure closed: complete now, or a draft until its reasoning decides.
    fn complete<S: Sink>(&mut self, span: Span, sink: &mut S) {
        self.phase = Phase::Text;
        self.frame.complete(span, sink);
    }

    /// The current parameter's value ended at offset `at`.
    fn param_end<S: Sink>(&mut self, at: u64, sink: &mut S) {
        if core::mem::take(&mut self.body.call().in_value) {
            self.frame.param_end(Span::at(at), sink);
        }
    }

    /// Reports a string in JSON or Python quotes, once per call.
    fn quoted<S: Sink>(&mut self, at: u64, sink: &mut S) {
        if !core::mem::replace(&mut self.body.call().quoted_reported, true) {
            sink.diagnostic(Span::at(at), Diagnostic::QuotedString);
        }
    }

    /// The structure between the name and the closer, byte by byte: everything but string
    /// contents, which `token` and the `Quoted` arm take in runs.
    fn body<S: Sink>(&mut self, chunk: &[u8], pos: usize, base: u64, sink: &mut S) -> usize {
        let at = |i: usize| base + i as u64;
        let index = self.frame.call.index;
        let mut i = pos;
        // The bytes from `run` on are reported as `out`, up to where the kind changes.
        let mut run = pos;
        let mut out = Out::Markup;
        // Reports the run up to `to`, when the body scan stops there.
        macro_rules! emit {
            ($to:expr) => {{
                let to = $to;
                if run < to {
                    let span = Span::new(at(run), at(to));
                    match out {
                        Out::Markup => sink.markup(span, Markup::Envelope, &chunk[run..to]),
                        Out::Value(piece) => sink.tool_value(span, index, piece, &chunk[run..to]),
                    }
                }
            }};
        }
        // Reports the run up to `to`, before an event that comes after its bytes.
        macro_rules! flush {
            ($to:expr) => {{
                let to = $to;
                emit!(to);
                run = to;
            }};
        }
        // From byte `i` on, the bytes are `kind`.
        macro_rules! put {
            ($i:expr, $kind:expr) => {{
                let (i, kind) = ($i, $kind);
                if kind != out {
                    flush!(i);
                    out = kind;
                }
            }};
        }
        // The byte at `i` cannot be here: a `<` may be a token worth knowing; anything
        // else breaks the call.
        macro_rules! malformed {
            ($i:expr, $diagnostic:expr) => {{
                let i = $i;
                emit!(i);
                if chunk[i] == b'<' {
                    self.body.call().markup_from = self.phase;
                    self.phase = Phase::Markup;
                } else {
                    self.invalid(Span::new(at(i), at(i + 1)), $diagnostic, sink);
                }
                return i;
            }};
        }
        let value_space = |call: &Call| {
            if call.nest.depth() > 0 || call.last_bare {
                Out::Value(Piece::Space)
            } else {
                Out::Markup
            }
        };
        while i < chunk.len() {
            let b = chunk[i];
            match self.phase {
                Phase::Prefix(n) => {
                    put!(i, Out::Markup);
                    if n == 0 && is_json_ws(b) {
                    } else if b == CALL[n as usize] {
                        self.phase = if n as usize + 1 == CALL.len() {
                            Phase::BeforeName
                        } else {
                            Phase::Prefix(n + 1)
                        };
                    } else {
                        malformed!(i, Diagnostic::MalformedCall);
                    }
                    i += 1;
                }
                Phase::BeforeName => {
                    put!(i, Out::Markup);
                    if is_json_ws(b) {
                        i += 1;
                        continue;
                    }
                    if !name_byte(b) {
                        malformed!(i, Diagnostic::InvalidName);
                    }
                    self.body.call().word.clear();
                    self.body.call().word_start = at(i);
                    self.phase = Phase::Name;
                }
                Phase::Name => {
                    put!(i, Out::Markup);
                    if name_byte(b) {
                        if self.body.call().word.try_push(b).is_err() {
                            emit!(i);
                            self.invalid(
                                Span::new(at(i), at(i + 1)),
                                Diagnostic::NameTooLong,
                                sink,
                            );
                            return i;
                        }
                        i += 1;
                        continue;
                    }
                    if !(is_json_ws(b) || b == b'{' || b == b'(') {
                        malformed!(i, Diagnostic::InvalidName);
                    }
                    flush!(i);
                    let span = Span::new(self.body.call().word_start, at(i));
                    let name = &self.body.call().word;
                    if !name.is_ascii() && core::str::from_utf8(name).is_err() {
                        self.invalid(span, Diagnostic::InvalidName, sink);
                        return i;
                    }
                    self.frame.name(span, name, sink);
                    self.phase = Phase::AfterName;
                }
                Phase::AfterName => {
                    put!(i, Out::Markup);
                    match b {
                        _ if is_json_ws(b) => {}
                        b'{' => self.phase = Phase::Key,
                        b'(' => {
                            flush!(i);
                            sink.diagnostic(Span::at(at(i)), Diagnostic::ParenthesizedCall);
                            self.body.call().paren = true;
                            self.phase = Phase::Key;
                        }
                        _ => malformed!(i, Diagnostic::InvalidName),
                    }
                    i += 1;
                }
                Phase::Key => {
                    put!(i, Out::Markup);
                    if is_json_ws(b) {
                    } else if b == self.body.call().body_closer() {
                        i += 1;
                        emit!(i);
                        self.phase = Phase::Tail;
                        return i;
                    } else if b == b'"' || b == b'\'' {
                        flush!(i);
                        self.quoted(at(i), sink);
                        self.body.call().quote = b;
                        self.body.call().escape = false;
                        self.body.call().word.clear();
                        self.body.call().word_start = at(i + 1);
                        self.phase = Phase::KeyQuoted;
                    } else if bare_start(b) {
                        self.body.call().word.clear();
                        self.body.call().word_start = at(i);
                        self.phase = Phase::KeyWord;
                        continue;
                    } else {
                        malformed!(i, Diagnostic::MalformedCall);
                    }
                    i += 1;
                }
                Phase::KeyWord => {
                    put!(i, Out::Markup);
                    if is_json_ws(b) || b == b':' || b == b'=' {
                        // The separator is the Separator phase's to read.
                        self.phase = Phase::Separator;
                        continue;
                    }
                    if !bare_start(b) {
                        malformed!(i, Diagnostic::MalformedCall);
                    }
                    if self.body.call().word.try_push(b).is_err() {
                        emit!(i);
                        self.invalid(Span::new(at(i), at(i + 1)), Diagnostic::KeyTooLong, sink);
                        return i;
                    }
                    i += 1;
                }
                Phase::KeyQuoted => {
                    put!(i, Out::Markup);
                    let call = self.body.call();
                    if !call.escape && b == call.quote {
                        self.phase = Phase::Separator;
                        i += 1;
                        continue;
                    }
                    call.escape = !call.escape && b == b'\\';
                    if call.word.try_push(b).is_err() {
                        emit!(i);
                        self.invalid(Span::new(at(i), at(i + 1)), Diagnostic::KeyTooLong, sink);
                        return i;
                    }
                    i += 1;
                }
                Phase::Separator => {
                    put!(i, Out::Markup);
                    let separator = if self.body.call().paren { b'=' } else { b':' };
                    if is_json_ws(b) {
                        i += 1;
                        continue;
                    }
                    if b != separator {
                        malformed!(i, Diagnostic::MalformedCall);
                    }
                    i += 1;
                    flush!(i);
                    let call = self.body.call();
                    let span = Span::new(call.word_start, call.word_start + call.word.len() as u64);
                    self.frame.param(span, &call.word, ValueKind::Gemma, sink);
                    call.in_value = true;
                    call.nest = Nest::new();
                    call.last_bare = false;
                    self.phase = Phase::Value;
                }
                Phase::Value => {
                    let call = self.body.call();
                    if is_json_ws(b) {
                        put!(i, value_space(call));
                        i += 1;
                        continue;
                    }
                    call.last_bare = false;
                    match b {
                        b'<' => malformed!(i, Diagnostic::MalformedCall),
                        b'"' | b'\'' => {
                            flush!(i);
                            self.quoted(at(i), sink);
                            put!(i, Out::Value(Piece::StringOpen));
                            self.body.call().quote = b;
                            self.body.call().escape = false;
                            self.phase = Phase::Quoted;
                            i += 1;
                            put!(i, Out::Value(Piece::Escaped));
                        }
                        b'{' | b'[' => {
                            // Not as an object's key, and not beyond the nesting limit.
                            if call.nest.top() == Some(Open::Key) || !call.nest.push(Open::of(b)) {
                                malformed!(i, Diagnostic::MalformedCall);
                            }
                            put!(i, Out::Value(Piece::Punct));
                            i += 1;
                        }
                        // An empty container, or a trailing comma; not a key's missing
                        // value.
                        b'}' | b']'
                            if call.nest.top().is_some_and(|open| open != Open::Value)
                                && call.nest.pop(b) =>
                        {
                            put!(i, Out::Value(Piece::Punct));
                            self.phase = Phase::Next;
                            i += 1;
                        }
                        _ if bare_start(b) => {
                            put!(i, Out::Value(Piece::Bare));
                            self.phase = Phase::Bare;
                        }
                        _ => malformed!(i, Diagnostic::MalformedCall),
                    }
                }
                Phase::Bare => {
                    put!(i, Out::Value(Piece::Bare));
                    let call = self.body.call();
                    if call.ends_bare(b) {
                        call.last_bare = true;
                        self.phase = Phase::Next;
                        continue;
                    }
                    i += 1;
                }
                Phase::Quoted => {
                    put!(i, Out::Value(Piece::Escaped));
                    let call = self.body.call();
                    if call.escape {
                        call.escape = false;
                        i += 1;
                        continue;
                    }
                    let found = if cfg!(feature = "no-skip") {
                        chunk[i..]
                            .iter()
                            .position(|&c| c == call.quote || c == b'\\')
                    } else {
                        memchr::memchr2(call.quote, b'\\', &chunk[i..])
                    };
                    match found {
                        None => i = chunk.len(),
                        Some(k) => {
                            i += k;
                            if chunk[i] == b'\\' {
                                call.escape = true;
                                i += 1;
                            } else {
                                put!(i, Out::Value(Piece::StringClose));
                                i += 1;
                                self.phase = Phase::Next;
                            }
                        }
                    }
                }
                Phase::Pending => {
                    let call = self.body.call();
                    if call.ws.push(b) {
                        i += 1;
                        run = i;
                        continue;
                    }
                    let close = call.closes_string(b);
                    flush!(i);
                    self.resolve_pending(close, at(i), sink);
                    out = Out::Markup;
                    if !close {
                        return i;
                    }
                }
                Phase::Next => {
                    let call = self.body.call();
                    if is_json_ws(b) {
                        put!(i, value_space(call));
                        i += 1;
                        continue;
                    }
                    if call.nest.depth() == 0 {
                        put!(i, Out::Markup);
                        if b == b',' {
                            flush!(i);
                            self.param_end(at(i), sink);
                            self.phase = Phase::Key;
                        } else if b == self.body.call().body_closer() {
                            flush!(i);
                            self.param_end(at(i), sink);
                            i += 1;
                            emit!(i);
                            self.phase = Phase::Tail;
                            return i;
                        } else if self.body.call().last_bare && bare_start(b) {
                            put!(i, Out::Value(Piece::Bare));
                            self.phase = Phase::Bare;
                            continue;
                        } else {
                            malformed!(i, Diagnostic::MalformedCall);
                        }
                        i += 1;
                        continue;
                    }
                    // Inside a list or an object: `:` after a key, `,` after an element or a
                    // key's value, the closer of the innermost container.
                    let top = call.nest.top();
                    match b {
                        b',' | b':' => {
                            let next = match (b, top) {
                                (b',', Some(Open::Value)) => Open::Key,
                                (b',', Some(Open::List)) => Open::List,
                                (b':', Some(Open::Key)) => Open::Value,
                                _ => malformed!(i, Diagnostic::MalformedCall),
                            };
                            call.nest.set_top(next);
                            put!(i, Out::Value(Piece::Punct));
                            self.phase = Phase::Value;
                        }
                        b'}' | b']' if top != Some(Open::Key) && call.nest.pop(b) => {
                            put!(i, Out::Value(Piece::Punct));
                            call.last_bare = false;
                        }
                        _ if call.last_bare && bare_start(b) => {
                            put!(i, Out::Value(Piece::Bare));
                            self.phase = Phase::Bare;
                            continue;
                        }
                        _ => malformed!(i, Diagnostic::MalformedCall),
                    }
                    i += 1;
                }
                Phase::Text | Phase::Token | Phase::Markup | Phase::Tail | Phase::Block => break,
            }
        }

        emit!(i);
        i
    }

    /// Decides a pending quote token: it closed its string (`close`) or was a literal `"`.
    /// The whitespace after it, which ends at stream offset `end`, follows as what it then
    /// is.
    fn resolve_pending<S: Sink>(&mut self, close: bool, end: u64, sink: &mut S) {
        let index = self.frame.call.index;
        let call = self.body.call();
        let ws = call.ws.bytes();
        let ws_span = Span::new(end - ws.len() as u64, end);
        let quote = Span::new(ws_span.start - QUOTE.len() as u64, ws_span.start);
        if close {
            sink.tool_value(quote, index, Piece::StringClose, QUOTE);
            self.phase = Phase::Next;
            if !ws.is_empty() {
                if call.nest.depth() > 0 {
                    sink.tool_value(ws_span, index, Piece::Space, &ws);
                } else {
                    sink.markup(ws_span, Markup::Envelope, &ws);
                }
            }
        } else {
            sink.tool_value(quote, index, Piece::LiteralQuote, QUOTE);
            self.phase = Phase::Token;
            if !ws.is_empty() {
                sink.tool_value(ws_span, index, Piece::Raw, &ws);
            }
        }
    }

    /// Inside a `<|"|>` string: contents up to the next quote token.
    fn token<S: Sink>(&mut self, chunk: &[u8], pos: usize, base: u64, sink: &mut S) -> usize {
        let index = self.frame.call.index;
        let stop =
            self.frame
                .delimiters
                .scan(self.modes.string, chunk, pos, base, &mut |span, bytes| {
                    sink.tool_value(span, index, Piece::Raw, bytes);
                });
        match stop {
            crate::scan::Stop::End => chunk.len(),
            crate::scan::Stop::Match(_, end) => {
                self.body.call().ws = Blank::EMPTY;
                self.phase = Phase::Pending;
                end
            }
        }
    }

    /// A `<` where structure is expected: a string's opening quote, the closer (perhaps
    /// without the body's last brace), a stop token (the stream ended inside the call),
    /// the next call's opener or the reasoning closer; anything else breaks the call.
    fn markup<S: Sink>(
        &mut self,
        chunk: &[u8],
        pos: usize,
        base: u64,
        options: &Options,
        sink: &mut S,
    ) -> usize {
        let at = |i: usize| base + i as u64;
        let from = self.body.call().markup_from;
        let (delimiter, end) = match self.frame.anchored(self.modes.body, chunk, pos) {
            Anchored::Pending => return chunk.len(),
            Anchored::Matched(delimiter, end) => (delimiter, end),
            Anchored::Failed(candidate) => {
                let held = self.frame.delimiters.take();
                let start = at(candidate) - held.len() as u64;
                let diagnostic = if from == Phase::Name {
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
        let index = self.frame.call.index;
        let top = self.body.call().nest.depth() == 0;
        match delimiter.role {
            Role::Quote if from == Phase::Value => {
                sink.tool_value(span, index, Piece::StringOpen, delimiter.bytes);
                self.phase = Phase::Token;
            }
            Role::Stop => {
                self.frame.truncate(span, sink);
                self.phase = Phase::Text;
                sink.markup(span, Markup::Delimiter(delimiter.role), delimiter.bytes);
                sink.diagnostic(span, Diagnostic::StrayStopToken);
            }
            Role::CallClose if from == Phase::Key || (from == Phase::Next && top) => {
                self.param_end(span.start, sink);
                sink.markup(span, Markup::Delimiter(delimiter.role), delimiter.bytes);
                sink.diagnostic(span, Diagnostic::UnclosedBody);
                self.complete(span, sink);
            }
            Role::CallClose => {
                sink.markup(span, Markup::Delimiter(delimiter.role), delimiter.bytes);
                self.invalid(span, Diagnostic::MalformedCall, sink);
            }
            Role::Quote => {
                // A string where none can start: the call is broken, and the token cannot
                // be text (rule 12).
                self.invalid(Span::at(span.start), Diagnostic::MalformedCall, sink);
                sink.markup(span, Markup::Delimiter(Role::Stray), delimiter.bytes);
                sink.diagnostic(span, Diagnostic::StrayToken);
            }
            Role::ReasoningClose if !self.frame.reasoning => {
                // Not ours to close: a stray token after the broken call.
                self.invalid(Span::at(span.start), Diagnostic::MalformedCall, sink);
                sink.markup(span, Markup::Delimiter(Role::Stray), delimiter.bytes);
                sink.diagnostic(span, Diagnostic::StrayToken);
            }
            _ => {
                self.invalid(Span::at(span.start), Diagnostic::MalformedCall, sink);
                self.delimiter(delimiter, span, options, sink);
            }
        }
        end
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
            i = envelope_while(chunk, base, i, is_json_ws, sink);
            if i == chunk.len() {
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
                // Not the closer: the call is complete without it (rule 3).
                let held = self.frame.delimiters.take();
                let start = at(candidate) - held.len() as u64;
                sink.diagnostic(Span::at(start), Diagnostic::MissingCloser);
                self.complete(Span::at(start), sink);
                self.refeed(&held, start, options, sink);
                candidate
            }
        }
    }

    /// Scans bytes taken out of the hold again, in the phase that now applies (at most one
    /// delimiter's length, once per broken structure).
    fn refeed<S: Sink>(&mut self, held: &[u8], start: u64, options: &Options, sink: &mut S) {
        if !held.is_empty() {
            self.run(held, start, options, sink);
        }
    }
}
