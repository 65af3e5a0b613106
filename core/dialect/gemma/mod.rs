//! Gemma 4 (`gemma`): `<|tool_call>call:NAME{key:VALUE,…}<tool_call|>`, values in Gemma's
//! literal syntax, reasoning `<|channel>thought\n…<channel|>`; and FunctionGemma
//! (`functiongemma`), the same body between `<start_function_call>` and
//! `<end_function_call>` with `<escape>` as the string quote. The opener, the closer and
//! the quote token are each table's delimiters; nothing here names them.
//! Formats: docs/seed.md §2.11, docs/dialects.md §gemma, §functiongemma; rules from
//! docs/dialects.md.
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
//! in a ```` ```tool_code ```` fence, read by the shared block lexer
//! ([`Block`](crate::lex::call_block::Block), `core/lex/call_block/`).

mod body;
mod call;

use crate::automaton::{Delimiter, Dfa, START};
use crate::engine::frame::{envelope_while, Anchored, Frame};
use crate::engine::{Family, Sealed, TextModes};
use crate::lex::blank::Blank;
use crate::lex::json::is_json_ws;
use crate::options::Options;
use crate::{Diagnostic, Markup, Piece, Role, Sink, Span};
use call::{Body, Call};

/// The scanner modes of the dialect, from its table file.
#[derive(Debug)]
pub(crate) struct Modes {
    /// Content and reasoning.
    pub(crate) text: TextModes,
    /// A `<` where a call expects structure.
    pub(crate) body: &'static Dfa,
    /// Inside a `<|"|>` string.
    pub(crate) string: &'static Dfa,
    /// After the body's closing brace.
    pub(crate) tail: &'static Dfa,
}

/// Where the Gemma machine is: text (the driver's), or a place in a call.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Phase {
    /// Content or reasoning, scanned for delimiters.
    Text,
    /// After the opener: whitespace, then `call:`, of which this many bytes matched.
    Prefix(u8),
    /// After `call:`: whitespace, then the name.
    BeforeName,
    /// Inside the name.
    Name,
    /// After the name: whitespace, then `{` or `(`.
    AfterName,
    /// At the top level: whitespace, then a key or the body's closer.
    Key,
    /// Inside a bare key.
    KeyWord,
    /// Inside a key in JSON or Python quotes.
    KeyQuoted,
    /// Inside a key written as a `<|"|>` string (`{<|"|>path<|"|>:…}`).
    KeyToken,
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

/// The call prefix before the name.
const CALL: &[u8] = b"call:";

/// The Gemma 3 call opener, in the content table next to `<|tool_call>`.
const TOOL_CODE: &[u8] = b"```tool_code";

/// The phase machine of the Gemma dialect.
#[derive(Debug, Clone)]
pub(crate) struct Gemma {
    /// The dialect's DFAs, from its table file.
    modes: &'static Modes,
    /// The phase now (the driver scans text itself).
    phase: Phase,
    /// The current call's state.
    body: Body,
}

impl Gemma {
    /// A stream's start, in text.
    pub(crate) fn new(modes: &'static Modes) -> Self {
        Gemma {
            modes,
            phase: Phase::Text,
            body: Body::Literal(Call::new()),
        }
    }

    /// The call's budget reaches stream offset `end` or beyond it.
    #[inline(always)]
    fn within_limit(&self, end: u64, options: &Options) -> bool {
        self.body.limit(options).is_none_or(|limit| end <= limit)
    }

    /// A `<|tool_call>` at `span` opens a call, unless a limit refuses it (then it has
    /// ended as invalid).
    fn open_call<S: Sink>(&mut self, frame: &mut Frame, span: Span, sink: &mut S) {
        if frame.open_call(span, sink) {
            let mut call = Call::new();
            call.start = span.end;
            self.body = Body::Literal(call);
            self.phase = Phase::Prefix(0);
        } else {
            self.phase = Phase::Text;
        }
    }

    /// Ends the current call as invalid and returns to text.
    pub(super) fn invalid<S: Sink>(
        &mut self,
        frame: &mut Frame,
        span: Span,
        diagnostic: Diagnostic,
        sink: &mut S,
    ) {
        frame.invalid(span, diagnostic, sink);
        self.phase = Phase::Text;
    }

    /// A call whose structure closed: complete now, or a draft until its reasoning decides.
    fn complete<S: Sink>(&mut self, frame: &mut Frame, span: Span, sink: &mut S) {
        self.phase = Phase::Text;
        frame.complete(span, sink);
    }

    /// The current parameter's value ended at offset `at`.
    pub(super) fn param_end<S: Sink>(&mut self, frame: &mut Frame, at: u64, sink: &mut S) {
        if core::mem::take(&mut self.body.call().in_value) {
            frame.param_end(Span::at(at), sink);
        }
    }

    /// Reports a string in JSON or Python quotes, once per call.
    pub(super) fn quoted_string<S: Sink>(&mut self, at: u64, sink: &mut S) {
        if !core::mem::replace(&mut self.body.call().quoted_reported, true) {
            sink.diagnostic(Span::at(at), Diagnostic::QuotedString);
        }
    }

    /// Reports a pending quote token and the whitespace after it, which end at stream
    /// offset `end`, as the call's markup.
    fn pending_as_markup<S: Sink>(&mut self, end: u64, sink: &mut S) {
        let call = self.body.call();
        let (ws, quote) = (call.ws.bytes(), call.quote_token);
        let start = end - ws.len() as u64 - quote.len() as u64;
        let ws_start = start + quote.len() as u64;
        sink.markup(Span::new(start, ws_start), Markup::Envelope, quote);
        if !ws.is_empty() {
            sink.markup(Span::new(ws_start, end), Markup::Envelope, &ws);
        }
    }

    /// Decides a pending quote token: it closed its string (`close`) or was a literal `"`.
    /// The whitespace after it, which ends at stream offset `end`, follows as what it then
    /// is.
    pub(super) fn resolve_pending<S: Sink>(
        &mut self,
        frame: &Frame,
        close: bool,
        end: u64,
        sink: &mut S,
    ) {
        let index = frame.call.index;
        let call = self.body.call();
        let ws = call.ws.bytes();
        let token = call.quote_token;
        let ws_span = Span::new(end - ws.len() as u64, end);
        let quote = Span::new(ws_span.start - token.len() as u64, ws_span.start);
        if close {
            sink.tool_value(quote, index, Piece::StringClose, token);
            self.phase = Phase::Next;
            if !ws.is_empty() {
                if call.nest.depth() > 0 {
                    sink.tool_value(ws_span, index, Piece::Space, &ws);
                } else {
                    sink.markup(ws_span, Markup::Envelope, &ws);
                }
            }
        } else {
            sink.tool_value(quote, index, Piece::LiteralQuote, token);
            self.phase = Phase::Token;
            if !ws.is_empty() {
                sink.tool_value(ws_span, index, Piece::Raw, &ws);
            }
        }
    }

    /// Inside a `<|"|>` string: contents up to the next quote token.
    #[inline(always)]
    fn token<S: Sink>(
        &mut self,
        frame: &mut Frame,
        chunk: &[u8],
        pos: usize,
        base: u64,
        sink: &mut S,
    ) -> usize {
        let index = frame.call.index;
        let stop = frame.delimiters.scan(
            self.modes.string,
            chunk,
            pos,
            base,
            &frame.tokens,
            &mut |span, bytes| {
                sink.tool_value(span, index, Piece::Raw, bytes);
            },
        );
        match stop {
            crate::scan::Stop::End => chunk.len(),
            crate::scan::Stop::Match(quote, end) => {
                let call = self.body.call();
                call.ws = Blank::EMPTY;
                // The token the pending quote stands for: the table's, whatever its length.
                call.quote_token = quote.bytes;
                self.phase = Phase::Pending;
                end
            }
        }
    }

    /// Inside a key written as a `<|"|>` string: its bytes up to the next quote token, which
    /// closes it (a key holds no quote token). The key is the call's envelope, as a bare
    /// one is.
    #[inline(always)]
    fn key_token<S: Sink>(
        &mut self,
        frame: &mut Frame,
        chunk: &[u8],
        pos: usize,
        base: u64,
        sink: &mut S,
    ) -> usize {
        let dfa = self.modes.string;
        let call = self.body.call();
        let stop =
            frame
                .delimiters
                .scan(dfa, chunk, pos, base, &frame.tokens, &mut |span, bytes| {
                    sink.markup(span, Markup::Envelope, bytes);
                    call.key_overflow |= call.word.try_extend_from_slice(bytes).is_err();
                });
        let crate::scan::Stop::Match(delimiter, end) = stop else {
            return chunk.len();
        };
        let at = base + end as u64;
        let span = Span::new(at - delimiter.bytes.len() as u64, at);
        sink.markup(span, Markup::Envelope, delimiter.bytes);
        self.phase = Phase::Separator;
        let call = self.body.call();
        if core::mem::take(&mut call.key_overflow) {
            self.invalid(frame, Span::at(at), Diagnostic::KeyTooLong, sink);
        } else if !crate::lex::name::valid_name(&call.word) {
            // Rule 9, as for a bare key: a quoted key may not hold what a name may not.
            self.invalid(frame, Span::at(at), Diagnostic::InvalidName, sink);
        }
        end
    }

    /// A `<` where structure is expected: a string's opening quote, the closer (perhaps
    /// without the body's last brace), a stop token (the stream ended inside the call),
    /// the next call's opener or the reasoning closer; anything else breaks the call.
    #[inline(always)]
    fn markup<S: Sink>(
        &mut self,
        frame: &mut Frame,
        chunk: &[u8],
        pos: usize,
        base: u64,
        sink: &mut S,
    ) -> usize {
        let at = |i: usize| base + i as u64;
        let from = self.body.call().markup_from;
        let (delimiter, end) = match frame.anchored(self.modes.body, chunk, pos) {
            Anchored::Pending => return chunk.len(),
            Anchored::Matched(delimiter, end) => (delimiter, end),
            Anchored::Failed(candidate) => {
                let start = at(candidate) - frame.delimiters.hold.len() as u64;
                let diagnostic = if from == Phase::Name {
                    Diagnostic::InvalidName
                } else {
                    Diagnostic::MalformedCall
                };
                self.body.call().glued = false;
                self.invalid(frame, Span::new(start, start + 1), diagnostic, sink);
                // The held bytes are scanned again, as text.
                frame.replay = true;
                return candidate;
            }
        };
        // Read once the token is known (a split token comes back here chunk after chunk).
        let glued = core::mem::take(&mut self.body.call().glued);
        let span = Span::new(at(end) - delimiter.bytes.len() as u64, at(end));
        let index = frame.call.index;
        let top = self.body.call().nest.depth() == 0;
        match delimiter.role {
            Role::Quote if from == Phase::Value => {
                sink.tool_value(span, index, Piece::StringOpen, delimiter.bytes);
                self.phase = Phase::Token;
            }
            // A parameter's key written as a string (vLLM issue 44715).
            Role::Quote if from == Phase::Key => {
                sink.markup(span, Markup::Envelope, delimiter.bytes);
                let call = self.body.call();
                call.word.clear();
                call.word_start = span.end;
                self.phase = Phase::KeyToken;
            }
            // Right after a bare word's last byte: the closing quote of a string whose
            // opening one the model left out (`query:weather in Tokyo<|"|>}`, about half
            // of Gemma 4's strings by SGLang PR 39240's count). The words are the value,
            // as bare words are; the structure after the quote must follow, or the call
            // breaks there. After a blank the quote would open a string: the call breaks.
            Role::Quote if from == Phase::Next && glued => {
                // Reported as a string's closing quote is (`pending_as_markup`): the
                // call's envelope, text again if the call breaks.
                sink.markup(span, Markup::Envelope, delimiter.bytes);
                sink.diagnostic(span, Diagnostic::MissingStringOpener);
                self.body.call().last_bare = false;
                self.phase = Phase::Next;
            }
            Role::Stop => {
                frame.truncate(span, sink);
                self.phase = Phase::Text;
                sink.markup(span, Markup::Delimiter(delimiter.role), delimiter.bytes);
                sink.diagnostic(span, Diagnostic::StrayStopToken);
            }
            Role::CallClose if from == Phase::Key || (from == Phase::Next && top) => {
                self.param_end(frame, span.start, sink);
                sink.markup(span, Markup::Delimiter(delimiter.role), delimiter.bytes);
                sink.diagnostic(span, Diagnostic::UnclosedBody);
                self.complete(frame, span, sink);
            }
            Role::CallClose => {
                sink.markup(span, Markup::Delimiter(delimiter.role), delimiter.bytes);
                self.invalid(frame, span, Diagnostic::MalformedCall, sink);
            }
            Role::Quote => {
                // A string where none can start: the call is broken, and the token cannot
                // be text (rule 12).
                self.invalid(frame, Span::at(span.start), Diagnostic::MalformedCall, sink);
                sink.markup(span, Markup::Delimiter(Role::Stray), delimiter.bytes);
                sink.diagnostic(span, Diagnostic::StrayToken);
            }
            Role::ReasoningClose if !frame.reasoning => {
                // Not ours to close: a stray token after the broken call.
                self.invalid(frame, Span::at(span.start), Diagnostic::MalformedCall, sink);
                sink.markup(span, Markup::Delimiter(Role::Stray), delimiter.bytes);
                sink.diagnostic(span, Diagnostic::StrayToken);
            }
            _ => {
                self.invalid(frame, Span::at(span.start), Diagnostic::MalformedCall, sink);
                self.text_delimiter(frame, delimiter, span, sink);
            }
        }
        end
    }

    /// After the body: whitespace is markup, then the closer must follow.
    #[inline(always)]
    fn tail<S: Sink>(
        &mut self,
        frame: &mut Frame,
        chunk: &[u8],
        pos: usize,
        base: u64,
        sink: &mut S,
    ) -> usize {
        let at = |i: usize| base + i as u64;
        let mut i = pos;
        if frame.delimiters.state == START {
            i = envelope_while(chunk, base, i, is_json_ws, sink);
            if i == chunk.len() {
                return i;
            }
        }
        match frame.anchored(self.modes.tail, chunk, i) {
            Anchored::Pending => chunk.len(),
            Anchored::Matched(delimiter, end) => {
                let span = Span::new(at(end) - delimiter.bytes.len() as u64, at(end));
                sink.markup(span, Markup::Delimiter(delimiter.role), delimiter.bytes);
                self.complete(frame, span, sink);
                end
            }
            Anchored::Failed(candidate) => {
                // Not the closer: the call is complete without it (rule 3).
                let start = at(candidate) - frame.delimiters.hold.len() as u64;
                sink.diagnostic(Span::at(start), Diagnostic::MissingCloser);
                self.complete(frame, Span::at(start), sink);
                // The held bytes are scanned again, as text.
                frame.replay = true;
                candidate
            }
        }
    }
}

impl Sealed for Gemma {}

impl Family for Gemma {
    #[inline(always)]
    fn text_dfa(&self, frame: &Frame) -> Option<&'static Dfa> {
        (self.phase == Phase::Text).then(|| self.modes.text.dfa(frame))
    }

    /// Plain `<|"|>` string contents, and plain string contents of a block's value.
    #[inline(always)]
    fn plain_chunk<S: Sink>(
        &mut self,
        frame: &mut Frame,
        chunk: &[u8],
        span: Span,
        sink: &mut S,
    ) -> bool {
        match self.phase {
            Phase::Token
                if self.within_limit(span.end, &frame.options)
                    && frame.delimiters.state == START
                    && self.modes.string.find_start(chunk).is_none() =>
            {
                sink.tool_value(span, frame.call.index, Piece::Raw, chunk);
                true
            }
            Phase::Block => self.body.block().plain_chunk(frame, chunk, span, sink),
            _ => false,
        }
    }

    /// A call opener: `<|tool_call>`, or Gemma 3's ```` ```tool_code ```` (drift), which
    /// share their role.
    fn text_delimiter<S: Sink>(
        &mut self,
        frame: &mut Frame,
        delimiter: &'static Delimiter,
        span: Span,
        sink: &mut S,
    ) {
        match frame.text_delimiter(delimiter, span, sink) {
            Some(Role::CallOpen) if delimiter.bytes == TOOL_CODE => {
                sink.diagnostic(span, Diagnostic::ToolCodeBlock);
                let block = self.body.block();
                self.phase = if block.open(frame, span, sink) {
                    Phase::Block
                } else {
                    Phase::Text
                };
            }
            Some(role) => self.text_role(frame, role, span, sink),
            None => {}
        }
    }

    /// `<|tool_call>` opens a call.
    fn text_role<S: Sink>(&mut self, frame: &mut Frame, role: Role, span: Span, sink: &mut S) {
        if role == Role::CallOpen {
            self.open_call(frame, span, sink);
        }
    }

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
            Phase::Token => self.token(frame, chunk, pos, base, sink),
            Phase::KeyToken => self.key_token(frame, chunk, pos, base, sink),
            Phase::Markup => self.markup(frame, chunk, pos, base, sink),
            Phase::Tail => self.tail(frame, chunk, pos, base, sink),
            Phase::Block => {
                let scan = self.body.block().scan(frame, chunk, pos, base, sink);
                let (end, over) = scan.stop(chunk.len());
                if over {
                    self.phase = Phase::Text;
                }
                end
            }
            Phase::Text => pos,
            _ => self.body(frame, chunk, pos, base, sink),
        }
    }

    /// The budget of the open call, from its first byte after the opener.
    #[inline(always)]
    fn budget_end(&self, frame: &Frame) -> Option<u64> {
        match self.phase {
            Phase::Text => None,
            _ => self.body.limit(&frame.options),
        }
    }

    /// What is held is the call's markup.
    fn over_budget<S: Sink>(&mut self, frame: &mut Frame, at: u64, sink: &mut S) {
        if self.phase == Phase::Block {
            self.body.block().over_limit(frame, at, sink);
            self.phase = Phase::Text;
            return;
        }
        if self.phase == Phase::Pending {
            self.pending_as_markup(at, sink);
        }
        frame.held_as_markup(at, sink);
        self.invalid(frame, Span::at(at), Diagnostic::ArgumentsTooLong, sink);
    }

    fn finish_phase<S: Sink>(&mut self, frame: &mut Frame, end: u64, sink: &mut S) {
        match self.phase {
            Phase::Text => {}
            Phase::Tail => {
                // The start of the closer the end of the stream cut off: the call's own.
                frame.held_as_markup(end, sink);
                sink.diagnostic(Span::at(end), Diagnostic::MissingCloser);
                self.complete(frame, Span::at(end), sink);
            }
            Phase::Token => {
                let held = frame.delimiters.take();
                if !held.is_empty() {
                    let span = Span::new(end - held.len() as u64, end);
                    sink.tool_value(span, frame.call.index, Piece::Raw, &held);
                }
            }
            // The end of the stream can follow a closing quote.
            Phase::Pending => self.resolve_pending(frame, true, end, sink),
            Phase::Block => self.body.block().flush_held(frame, end, sink),
            _ => frame.held_as_markup(end, sink),
        }
    }

    fn in_call(&self) -> bool {
        self.phase != Phase::Text
    }

    /// An open call is cut off; a block whose calls are all complete lacks its fence.
    fn cut_off<S: Sink>(&mut self, frame: &mut Frame, end: u64, sink: &mut S) {
        if self.phase == Phase::Block {
            self.body.block().end(frame, end, sink);
        } else {
            frame.cut_off(Span::at(end), sink);
        }
    }

    fn to_text(&mut self) {
        self.phase = Phase::Text;
    }
}
