//! The structure between a Gemma call's name and its closer, byte by byte: everything
//! but string contents, which `token` and [`Gemma::quoted`] take in runs. One method a
//! phase: each takes the byte at chunk offset `i` and gives the next offset to look at
//! (`Ok`), or where the body's scan stops (`Err`, the phase changed).

use super::call::{bare_start, name_byte};
use super::{Gemma, Phase, CALL};
use crate::engine::frame::Frame;
use crate::lex::cursor::{Cursor, Out};
use crate::lex::json::is_json_ws;
use crate::lex::nest::{Nest, Open};
use crate::{Diagnostic, Piece, Sink, Span, ValueKind};

/// What a phase step gives: the next chunk offset, or where the body's scan stops.
type Next = Result<usize, usize>;

impl Gemma {
    /// Scans the body from `chunk[pos..]` (`chunk[0]` at stream offset `base`) until the
    /// chunk ends or the phase leaves the body; returns the chunk offset where it stopped.
    #[inline(always)]
    pub(super) fn body<S: Sink>(
        &mut self,
        frame: &mut Frame,
        chunk: &[u8],
        pos: usize,
        base: u64,
        sink: &mut S,
    ) -> usize {
        let mut cx = Cursor::new(frame, sink, chunk, base, pos);
        let mut i = pos;
        while i < chunk.len() {
            let b = chunk[i];
            let next = match self.phase {
                Phase::Prefix(n) => self.prefix(&mut cx, b, i, n),
                Phase::BeforeName => self.before_name(&mut cx, b, i),
                Phase::Name => self.name(&mut cx, b, i),
                Phase::AfterName => self.after_name(&mut cx, b, i),
                Phase::Key => self.key(&mut cx, b, i),
                Phase::KeyWord => self.key_word(&mut cx, b, i),
                Phase::KeyQuoted => self.key_quoted(&mut cx, b, i),
                Phase::Separator => self.separator(&mut cx, b, i),
                Phase::Value => self.value(&mut cx, b, i),
                Phase::Bare => Ok(self.bare(&mut cx, b, i)),
                Phase::Quoted => Ok(self.quoted(&mut cx, i)),
                Phase::Pending => self.pending(&mut cx, b, i),
                Phase::Next => self.next(&mut cx, b, i),
                Phase::Text
                | Phase::Token
                | Phase::KeyToken
                | Phase::Markup
                | Phase::Tail
                | Phase::Block => break,
            };
            match next {
                Ok(next) => i = next,
                Err(stop) => return stop,
            }
        }
        cx.emit(i);
        i
    }

    /// The byte at `i` breaks the call with `diagnostic`.
    #[inline(always)]
    fn break_at<S: Sink>(
        &mut self,
        cx: &mut Cursor<'_, S>,
        i: usize,
        diagnostic: Diagnostic,
    ) -> Next {
        cx.emit(i);
        self.invalid(
            cx.frame,
            Span::new(cx.at(i), cx.at(i + 1)),
            diagnostic,
            cx.sink,
        );
        Err(i)
    }

    /// The byte at `i` cannot be here: a `<` may be a token worth knowing (the Markup
    /// phase decides); anything else breaks the call with `diagnostic`.
    #[inline(always)]
    fn malformed<S: Sink>(
        &mut self,
        cx: &mut Cursor<'_, S>,
        i: usize,
        diagnostic: Diagnostic,
    ) -> Next {
        if cx.chunk[i] != b'<' {
            return self.break_at(cx, i, diagnostic);
        }
        cx.emit(i);
        self.body.call().markup_from = self.phase;
        self.phase = Phase::Markup;
        Err(i)
    }

    /// The body's closer at `i`: the tail follows.
    #[inline(always)]
    fn body_closed<S: Sink>(&mut self, cx: &mut Cursor<'_, S>, i: usize) -> Next {
        cx.emit(i + 1);
        self.phase = Phase::Tail;
        Err(i + 1)
    }

    /// After the opener: whitespace, then `call:`, of which `n` bytes matched.
    #[inline(always)]
    fn prefix<S: Sink>(&mut self, cx: &mut Cursor<'_, S>, b: u8, i: usize, n: u8) -> Next {
        cx.put(i, Out::Markup);
        if n == 0 && is_json_ws(b) {
        } else if b == CALL[n as usize] {
            self.phase = if n as usize + 1 == CALL.len() {
                Phase::BeforeName
            } else {
                Phase::Prefix(n + 1)
            };
        } else {
            return self.malformed(cx, i, Diagnostic::MalformedCall);
        }
        Ok(i + 1)
    }

    /// After `call:`: whitespace, then the name.
    #[inline(always)]
    fn before_name<S: Sink>(&mut self, cx: &mut Cursor<'_, S>, b: u8, i: usize) -> Next {
        cx.put(i, Out::Markup);
        if is_json_ws(b) {
            return Ok(i + 1);
        }
        if !name_byte(b) {
            return self.malformed(cx, i, Diagnostic::InvalidName);
        }
        let call = self.body.call();
        call.word.clear();
        call.word_start = cx.at(i);
        self.phase = Phase::Name;
        Ok(i)
    }

    /// The name, then whitespace, `{` or `(`.
    #[inline(always)]
    fn name<S: Sink>(&mut self, cx: &mut Cursor<'_, S>, b: u8, i: usize) -> Next {
        cx.put(i, Out::Markup);
        if name_byte(b) {
            if self.body.call().word.try_push(b).is_err() {
                return self.break_at(cx, i, Diagnostic::NameTooLong);
            }
            return Ok(i + 1);
        }
        if !(is_json_ws(b) || b == b'{' || b == b'(') {
            return self.malformed(cx, i, Diagnostic::InvalidName);
        }
        cx.flush(i);
        let call = self.body.call();
        let span = Span::new(call.word_start, cx.at(i));
        let name = &call.word;
        if !name.is_ascii() && core::str::from_utf8(name).is_err() {
            self.invalid(cx.frame, span, Diagnostic::InvalidName, cx.sink);
            return Err(i);
        }
        cx.frame.name(span, name, cx.sink);
        self.phase = Phase::AfterName;
        Ok(i)
    }

    /// After the name: whitespace, then `{` or `(` (the parenthesized form, drift).
    #[inline(always)]
    fn after_name<S: Sink>(&mut self, cx: &mut Cursor<'_, S>, b: u8, i: usize) -> Next {
        cx.put(i, Out::Markup);
        match b {
            _ if is_json_ws(b) => {}
            b'{' => self.phase = Phase::Key,
            b'(' => {
                cx.flush(i);
                cx.sink
                    .diagnostic(Span::at(cx.at(i)), Diagnostic::ParenthesizedCall);
                self.body.call().paren = true;
                self.phase = Phase::Key;
            }
            _ => return self.malformed(cx, i, Diagnostic::InvalidName),
        }
        Ok(i + 1)
    }

    /// At the top level: whitespace, then a key (bare or quoted) or the body's closer.
    #[inline(always)]
    fn key<S: Sink>(&mut self, cx: &mut Cursor<'_, S>, b: u8, i: usize) -> Next {
        cx.put(i, Out::Markup);
        if is_json_ws(b) {
        } else if b == self.body.call().body_closer() {
            return self.body_closed(cx, i);
        } else if b == b'"' || b == b'\'' {
            cx.flush(i);
            self.quoted_string(cx.at(i), cx.sink);
            let call = self.body.call();
            call.quote = b;
            call.escape = false;
            call.word.clear();
            call.word_start = cx.at(i + 1);
            self.phase = Phase::KeyQuoted;
        } else if bare_start(b) {
            let call = self.body.call();
            call.word.clear();
            call.word_start = cx.at(i);
            self.phase = Phase::KeyWord;
            return Ok(i);
        } else {
            return self.malformed(cx, i, Diagnostic::MalformedCall);
        }
        Ok(i + 1)
    }

    /// Inside a bare key.
    #[inline(always)]
    fn key_word<S: Sink>(&mut self, cx: &mut Cursor<'_, S>, b: u8, i: usize) -> Next {
        cx.put(i, Out::Markup);
        if is_json_ws(b) || b == b':' || b == b'=' {
            // The separator is the Separator phase's to read.
            self.phase = Phase::Separator;
            return Ok(i);
        }
        if !bare_start(b) {
            return self.malformed(cx, i, Diagnostic::MalformedCall);
        }
        if self.body.call().word.try_push(b).is_err() {
            return self.break_at(cx, i, Diagnostic::KeyTooLong);
        }
        Ok(i + 1)
    }

    /// Inside a key in JSON or Python quotes.
    #[inline(always)]
    fn key_quoted<S: Sink>(&mut self, cx: &mut Cursor<'_, S>, b: u8, i: usize) -> Next {
        cx.put(i, Out::Markup);
        let call = self.body.call();
        if !call.escape && b == call.quote {
            self.phase = Phase::Separator;
            return Ok(i + 1);
        }
        call.escape = !call.escape && b == b'\\';
        if call.word.try_push(b).is_err() {
            return self.break_at(cx, i, Diagnostic::KeyTooLong);
        }
        Ok(i + 1)
    }

    /// After a key: whitespace, then `:` (`=` in the parenthesized form); the parameter
    /// begins after it.
    #[inline(always)]
    fn separator<S: Sink>(&mut self, cx: &mut Cursor<'_, S>, b: u8, i: usize) -> Next {
        cx.put(i, Out::Markup);
        let separator = if self.body.call().paren { b'=' } else { b':' };
        if is_json_ws(b) {
            return Ok(i + 1);
        }
        if b != separator {
            return self.malformed(cx, i, Diagnostic::MalformedCall);
        }
        cx.flush(i + 1);
        let call = self.body.call();
        let span = Span::new(call.word_start, call.word_start + call.word.len() as u64);
        cx.frame.param(span, &call.word, ValueKind::Gemma, cx.sink);
        call.in_value = true;
        call.nest = Nest::new();
        call.last_bare = false;
        self.phase = Phase::Value;
        Ok(i + 1)
    }

    /// Where a value's next token starts.
    #[inline(always)]
    fn value<S: Sink>(&mut self, cx: &mut Cursor<'_, S>, b: u8, i: usize) -> Next {
        let call = self.body.call();
        if is_json_ws(b) {
            cx.put(i, call.space());
            return Ok(i + 1);
        }
        call.last_bare = false;
        match b {
            b'<' => self.malformed(cx, i, Diagnostic::MalformedCall),
            b'"' | b'\'' => {
                cx.flush(i);
                self.quoted_string(cx.at(i), cx.sink);
                cx.put(i, Out::Value(Piece::StringOpen));
                let call = self.body.call();
                call.quote = b;
                call.escape = false;
                self.phase = Phase::Quoted;
                cx.put(i + 1, Out::Value(Piece::Escaped));
                Ok(i + 1)
            }
            b'{' | b'[' => {
                // Not as an object's key, and not beyond the nesting limit.
                if call.nest.top() == Some(Open::Key) || !call.nest.push(Open::of(b)) {
                    return self.malformed(cx, i, Diagnostic::MalformedCall);
                }
                cx.put(i, Out::Value(Piece::Punct));
                Ok(i + 1)
            }
            // An empty container, or a trailing comma; not a key's missing value.
            b'}' | b']'
                if call.nest.top().is_some_and(|open| open != Open::Value) && call.nest.pop(b) =>
            {
                cx.put(i, Out::Value(Piece::Punct));
                self.phase = Phase::Next;
                Ok(i + 1)
            }
            _ if bare_start(b) => self.bare_from(cx, i),
            _ => self.malformed(cx, i, Diagnostic::MalformedCall),
        }
    }

    /// A bare word starts (or goes on after whitespace) at `i`.
    #[inline(always)]
    fn bare_from<S: Sink>(&mut self, cx: &mut Cursor<'_, S>, i: usize) -> Next {
        cx.put(i, Out::Value(Piece::Bare));
        self.phase = Phase::Bare;
        Ok(i)
    }

    /// Inside a bare word.
    #[inline(always)]
    fn bare<S: Sink>(&mut self, cx: &mut Cursor<'_, S>, b: u8, i: usize) -> usize {
        cx.put(i, Out::Value(Piece::Bare));
        let call = self.body.call();
        if call.ends_bare(b) {
            call.last_bare = true;
            call.glued = b == b'<';
            self.phase = Phase::Next;
            return i;
        }
        i + 1
    }

    /// Inside a string in JSON or Python quotes: a run up to its quote or a backslash.
    #[inline(always)]
    fn quoted<S: Sink>(&mut self, cx: &mut Cursor<'_, S>, i: usize) -> usize {
        cx.put(i, Out::Value(Piece::Escaped));
        let call = self.body.call();
        if call.escape {
            call.escape = false;
            return i + 1;
        }
        let rest = &cx.chunk[i..];
        let found = if cfg!(feature = "no-skip") {
            rest.iter().position(|&c| c == call.quote || c == b'\\')
        } else {
            memchr::memchr2(call.quote, b'\\', rest)
        };
        let Some(k) = found else {
            return cx.chunk.len();
        };
        let i = i + k;
        if cx.chunk[i] == b'\\' {
            call.escape = true;
        } else {
            cx.put(i, Out::Value(Piece::StringClose));
            self.phase = Phase::Next;
        }
        i + 1
    }

    /// After a `<|"|>` inside a string: whitespace, until a byte says whether it closed.
    #[inline(always)]
    fn pending<S: Sink>(&mut self, cx: &mut Cursor<'_, S>, b: u8, i: usize) -> Next {
        let call = self.body.call();
        if call.ws.push(b) {
            cx.run = i + 1;
            return Ok(i + 1);
        }
        let close = call.closes_string(b);
        cx.flush(i);
        self.resolve_pending(cx.frame, close, cx.at(i), cx.sink);
        cx.out = Out::Markup;
        if !close {
            return Err(i);
        }
        Ok(i)
    }

    /// After a value token: whitespace, then a separator or a closer (of the body at the
    /// top level, of the innermost container inside one).
    #[inline(always)]
    fn next<S: Sink>(&mut self, cx: &mut Cursor<'_, S>, b: u8, i: usize) -> Next {
        let call = self.body.call();
        if is_json_ws(b) {
            cx.put(i, call.space());
            return Ok(i + 1);
        }
        if call.nest.depth() == 0 {
            return self.next_top(cx, b, i);
        }
        // Inside a list or an object: `:` after a key, `,` after an element or a key's
        // value, the closer of the innermost container.
        let top = call.nest.top();
        match b {
            b',' | b':' => {
                let next = match (b, top) {
                    (b',', Some(Open::Value)) => Open::Key,
                    (b',', Some(Open::List)) => Open::List,
                    (b':', Some(Open::Key)) => Open::Value,
                    _ => return self.malformed(cx, i, Diagnostic::MalformedCall),
                };
                call.nest.set_top(next);
                cx.put(i, Out::Value(Piece::Punct));
                self.phase = Phase::Value;
            }
            b'}' | b']' if top != Some(Open::Key) && call.nest.pop(b) => {
                cx.put(i, Out::Value(Piece::Punct));
                call.last_bare = false;
            }
            _ if call.last_bare && bare_start(b) => return self.bare_from(cx, i),
            _ => return self.malformed(cx, i, Diagnostic::MalformedCall),
        }
        Ok(i + 1)
    }

    /// After a top-level value: `,` and the next key, the body's closer, or more of a
    /// bare word.
    #[inline(always)]
    fn next_top<S: Sink>(&mut self, cx: &mut Cursor<'_, S>, b: u8, i: usize) -> Next {
        cx.put(i, Out::Markup);
        let call = self.body.call();
        if b == b',' {
            cx.flush(i);
            self.param_end(cx.frame, cx.at(i), cx.sink);
            self.phase = Phase::Key;
        } else if b == call.body_closer() {
            cx.flush(i);
            self.param_end(cx.frame, cx.at(i), cx.sink);
            return self.body_closed(cx, i);
        } else if call.last_bare && bare_start(b) {
            return self.bare_from(cx, i);
        } else {
            return self.malformed(cx, i, Diagnostic::MalformedCall);
        }
        Ok(i + 1)
    }
}
