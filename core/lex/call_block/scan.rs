//! The block's scan, one method a stage: each takes the byte at chunk offset `i` and
//! gives the next offset to look at (`Ok`), or where the scan stops (`Err`).

use super::{Block, BlockEnd, Stage};
use crate::engine::frame::Frame;
use crate::lex::cursor::Cursor;
use crate::lex::python::{PyValue, Step};
use crate::{Diagnostic, Markup, Role, Sink, Span, ValueKind};

/// The closing fence of a block, unless its family names another closer.
pub(super) const FENCE: &[u8] = b"```";

/// What a stage step gives: the next chunk offset, or where the block's scan stops.
type Next = Result<usize, BlockEnd>;

/// `b` may start a Python name.
pub(crate) fn ident_start(b: u8) -> bool {
    b.is_ascii_alphabetic() || b == b'_' || b >= 0x80
}

/// Names may hold `-`, which Python does not allow but tool names do.
pub(crate) fn ident_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'-' || b >= 0x80
}

/// Python whitespace between tokens.
fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r' | b'\n' | 0x0c)
}

impl Block {
    /// Scans the block from `chunk[pos..]`; `chunk[0]` is at stream offset `base`.
    pub(crate) fn scan<S: Sink>(
        &mut self,
        frame: &mut Frame,
        chunk: &[u8],
        pos: usize,
        base: u64,
        sink: &mut S,
    ) -> BlockEnd {
        let mut cx = Cursor::new(frame, sink, chunk, base, pos);
        let mut i = pos;
        while i < chunk.len() {
            let b = chunk[i];
            let next = match self.stage {
                Stage::Stmt => self.stmt(&mut cx, b, i),
                Stage::StmtComment | Stage::ArgComment => Ok(self.comment(b, i)),
                Stage::Callee | Stage::AfterCallee => self.callee(&mut cx, b, i),
                Stage::Assign => self.assign(&mut cx, b, i),
                Stage::AfterAssign => self.after_assign(&mut cx, b, i),
                Stage::Fence(n) => self.fence(&mut cx, b, i, n),
                Stage::ArgKey => self.arg_key(&mut cx, b, i),
                Stage::Key => self.key(&mut cx, b, i),
                Stage::AfterKey => self.after_key(&mut cx, b, i),
                Stage::Equals => self.equals(&mut cx, b, i),
                Stage::Value => self.value(&mut cx, b, i),
                Stage::NextArg => Ok(self.next_arg(&mut cx, b, i)),
            };
            match next {
                Ok(next) => i = next,
                Err(end) => return end,
            }
        }
        cx.emit(chunk.len());
        BlockEnd::More
    }

    /// The statement at `i` is not a call: what is held (`extra` after the word), then
    /// the rest, is text.
    #[inline(always)]
    fn not_a_call_at<S: Sink>(&mut self, cx: &mut Cursor<'_, S>, i: usize, extra: &[u8]) -> Next {
        cx.emit(i);
        self.not_a_call(cx.frame, extra, cx.at(i), cx.sink);
        Err(BlockEnd::Text(i))
    }

    /// The call breaks at `i` with `diagnostic`; the rest is text.
    #[inline(always)]
    fn break_at<S: Sink>(
        &mut self,
        cx: &mut Cursor<'_, S>,
        i: usize,
        diagnostic: Diagnostic,
    ) -> Next {
        cx.emit(i);
        self.slot = false;
        cx.frame.invalid(cx.span(i, i + 1), diagnostic, cx.sink);
        Err(BlockEnd::Text(i))
    }

    /// Gathers `b` into the word; a statement start too long for it is not a call.
    #[inline(always)]
    fn gather<S: Sink>(&mut self, cx: &mut Cursor<'_, S>, b: u8, i: usize) -> Next {
        if self.word.try_push(b).is_err() {
            return self.not_a_call_at(cx, i, b"");
        }
        cx.run = i + 1;
        Ok(i + 1)
    }

    /// Between statements: blanks, separators, comments, the brackets of `print(` and
    /// lists, the closing fence, or a statement's start.
    #[inline(always)]
    fn stmt<S: Sink>(&mut self, cx: &mut Cursor<'_, S>, b: u8, i: usize) -> Next {
        let closer = self.closer.first() == Some(&b);
        let between = is_space(b)
            || matches!(b, b';' | b'#')
            || closer
            || (self.list > 0 && b == b']')
            || (self.print > 0 && b == b')')
            || ((self.list > 0 || self.print > 0) && b == b',');
        if !(self.slot || between) {
            // A statement begins: its bytes are its call's from here, so that a statement
            // that turns out not to be a call is text from its start (a `print(` or a `[`
            // before it too).
            cx.emit(i);
            if !self.open_slot(cx.frame, Span::at(cx.at(i)), cx.sink) {
                return Err(BlockEnd::Text(i));
            }
            return Err(BlockEnd::Slot(i));
        }
        match b {
            _ if is_space(b) || b == b';' => {}
            b'#' => self.stage = Stage::StmtComment,
            _ if closer => {
                cx.emit(i);
                self.stage = Stage::Fence(1);
                cx.run = i + 1;
                if self.closer.len() == 1 {
                    return self.fence(cx, b, i, 0);
                }
            }
            b'[' => self.list = self.list.saturating_add(1),
            b']' if self.list > 0 => {
                self.list -= 1;
                if self.bracketed && self.list == 0 {
                    return self.list_close(cx, i);
                }
            }
            b')' if self.print > 0 => self.print -= 1,
            b',' if self.list > 0 || self.print > 0 => {}
            _ if ident_start(b) => {
                cx.flush(i);
                self.word.clear();
                self.word_start = cx.at(i);
                self.callee_start = 0;
                self.segment = 0;
                self.stage = Stage::Callee;
                return Ok(i);
            }
            _ => return self.not_a_call_at(cx, i, b""),
        }
        Ok(i + 1)
    }

    /// A `#` comment, to the line's end.
    #[inline(always)]
    fn comment(&mut self, b: u8, i: usize) -> usize {
        if b != b'\n' {
            return i + 1;
        }
        self.stage = if self.stage == Stage::StmtComment {
            Stage::Stmt
        } else {
            Stage::ArgKey
        };
        i
    }

    /// A dotted callee (or an assignment's target) and the blanks after it, then `(`
    /// (a `print(` wrapper or the call) or `=`.
    #[inline(always)]
    fn callee<S: Sink>(&mut self, cx: &mut Cursor<'_, S>, b: u8, i: usize) -> Next {
        let callee = self.stage == Stage::Callee;
        if callee && (ident_byte(b) || b == b'.') || !callee && (b == b' ' || b == b'\t') {
            let next = self.gather(cx, b, i)?;
            if b == b'.' {
                self.segment = self.word.len() as u8;
            }
            return Ok(next);
        }
        if callee {
            self.callee_end = self.word.len() as u8;
            self.stage = Stage::AfterCallee;
            return Ok(i);
        }
        let callee = &self.word[usize::from(self.callee_start)..usize::from(self.callee_end)];
        match b {
            b'(' if callee == b"print" => {
                self.held_as_markup(cx.sink);
                self.print = self.print.saturating_add(1);
                self.stage = Stage::Stmt;
                cx.run = i;
                Ok(i + 1)
            }
            b'(' => self.call_open(cx, i),
            b'=' => {
                self.gather(cx, b, i)?;
                self.stage = Stage::Assign;
                Ok(i + 1)
            }
            _ => self.not_a_call_at(cx, i, b""),
        }
    }

    /// The `(` of a call at `i`: the call (its slot opened here unless a statement
    /// opened it) starts with its name, the last dotted segment of the callee.
    #[inline(always)]
    fn call_open<S: Sink>(&mut self, cx: &mut Cursor<'_, S>, i: usize) -> Next {
        let name = &self.word[usize::from(self.segment)..usize::from(self.callee_end)];
        if name.is_empty() || (!name.is_ascii() && core::str::from_utf8(name).is_err()) {
            return self.not_a_call_at(cx, i, b"");
        }
        let opened = !self.slot;
        if opened && !self.open_slot(cx.frame, Span::at(cx.at(i)), cx.sink) {
            self.release_held(cx.frame, b"", cx.sink);
            return Err(BlockEnd::Text(i));
        }
        self.held_as_markup(cx.sink);
        let start = self.word_start + u64::from(self.segment);
        let name = &self.word[usize::from(self.segment)..usize::from(self.callee_end)];
        cx.frame
            .name(Span::new(start, start + name.len() as u64), name, cx.sink);
        self.stage = Stage::ArgKey;
        cx.run = i;
        if opened {
            cx.emit(i + 1);
            return Err(BlockEnd::Slot(i + 1));
        }
        Ok(i + 1)
    }

    /// After `NAME =`: a second `=` makes it a comparison.
    #[inline(always)]
    fn assign<S: Sink>(&mut self, cx: &mut Cursor<'_, S>, b: u8, i: usize) -> Next {
        if b == b'=' {
            return self.not_a_call_at(cx, i, b"");
        }
        self.stage = Stage::AfterAssign;
        Ok(i)
    }

    /// Blanks after an assignment's `=`, then the callee or a `[` list of calls.
    #[inline(always)]
    fn after_assign<S: Sink>(&mut self, cx: &mut Cursor<'_, S>, b: u8, i: usize) -> Next {
        if b == b' ' || b == b'\t' {
            return self.gather(cx, b, i);
        }
        if ident_start(b) {
            self.callee_start = self.word.len() as u8;
            self.segment = self.callee_start;
            self.stage = Stage::Callee;
            return Ok(i);
        }
        if b != b'[' {
            return self.not_a_call_at(cx, i, b"");
        }
        // `results = [a(…), b(…)]`: a list of calls.
        self.held_as_markup(cx.sink);
        self.list = self.list.saturating_add(1);
        self.stage = Stage::Stmt;
        cx.run = i;
        Ok(i + 1)
    }

    /// The `n` bytes of the closer so far at the statement level: the whole closer closes
    /// the block.
    #[inline(always)]
    fn fence<S: Sink>(&mut self, cx: &mut Cursor<'_, S>, b: u8, i: usize, n: u8) -> Next {
        let closer = self.closer;
        let n = usize::from(n);
        if closer.get(n) != Some(&b) {
            return self.not_a_call_at(cx, i, &closer[..n]);
        }
        let i = i + 1;
        if n + 1 < closer.len() {
            // A closer is at most a delimiter's length, so its count fits.
            self.stage = Stage::Fence((n + 1) as u8);
            cx.run = i;
            return Ok(i);
        }
        let span = Span::new(cx.at(i) - closer.len() as u64, cx.at(i));
        if self.slot {
            // The block closed before its first call: it holds none.
            self.slot = false;
            cx.frame.invalid(span, Diagnostic::NotACall, cx.sink);
            cx.frame.release(span, closer, cx.sink);
        } else {
            cx.sink
                .markup(span, Markup::Delimiter(Role::CallClose), closer);
        }
        Err(BlockEnd::Closed(i))
    }

    /// The `]` at `i` closes a bare list's block.
    #[inline(always)]
    fn list_close<S: Sink>(&mut self, cx: &mut Cursor<'_, S>, i: usize) -> Next {
        cx.emit(i);
        let span = cx.span(i, i + 1);
        if core::mem::take(&mut self.slot) {
            cx.frame.invalid(span, Diagnostic::NotACall, cx.sink);
            cx.frame.release(span, b"]", cx.sink);
        } else {
            cx.sink
                .markup(span, Markup::Delimiter(Role::CallClose), b"]");
        }
        Err(BlockEnd::Closed(i + 1))
    }

    /// Inside a call: blanks, a comment, then a key or `)`.
    #[inline(always)]
    fn arg_key<S: Sink>(&mut self, cx: &mut Cursor<'_, S>, b: u8, i: usize) -> Next {
        match b {
            _ if is_space(b) => {}
            b'#' => self.stage = Stage::ArgComment,
            b')' => {
                cx.flush(i + 1);
                self.complete(cx.frame, cx.span(i, i + 1), cx.sink);
            }
            _ if ident_start(b) => {
                self.word.clear();
                self.word_start = cx.at(i);
                self.stage = Stage::Key;
                return Ok(i);
            }
            _ => return self.break_at(cx, i, Diagnostic::PositionalArgument),
        }
        Ok(i + 1)
    }

    /// A key, then blanks or its `=`.
    #[inline(always)]
    fn key<S: Sink>(&mut self, cx: &mut Cursor<'_, S>, b: u8, i: usize) -> Next {
        if ident_byte(b) {
            if self.word.try_push(b).is_err() {
                return self.break_at(cx, i, Diagnostic::KeyTooLong);
            }
        } else if b == b'=' {
            self.stage = Stage::Equals;
        } else if b == b' ' || b == b'\t' {
            self.stage = Stage::AfterKey;
        } else {
            return self.break_at(cx, i, Diagnostic::PositionalArgument);
        }
        Ok(i + 1)
    }

    /// Blanks after a key, then `=`.
    #[inline(always)]
    fn after_key<S: Sink>(&mut self, cx: &mut Cursor<'_, S>, b: u8, i: usize) -> Next {
        match b {
            b' ' | b'\t' => {}
            b'=' => self.stage = Stage::Equals,
            _ => return self.break_at(cx, i, Diagnostic::PositionalArgument),
        }
        Ok(i + 1)
    }

    /// After `KEY=`: a second `=` makes it a comparison; otherwise the parameter begins.
    #[inline(always)]
    fn equals<S: Sink>(&mut self, cx: &mut Cursor<'_, S>, b: u8, i: usize) -> Next {
        if b == b'=' {
            return self.break_at(cx, i, Diagnostic::PositionalArgument);
        }
        cx.flush(i);
        let span = Span::new(self.word_start, self.word_start + self.word.len() as u64);
        cx.frame.param(span, &self.word, ValueKind::Python, cx.sink);
        self.value = PyValue::new();
        self.stage = Stage::Value;
        Ok(i)
    }

    /// A value: blanks before it are the call's; once it began (with a comment, say),
    /// everything is the value's until it ends, lexed by [`PyValue`].
    #[inline(always)]
    fn value<S: Sink>(&mut self, cx: &mut Cursor<'_, S>, b: u8, i: usize) -> Next {
        if !self.value.started() && is_space(b) {
            return Ok(i + 1);
        }
        cx.emit(i);
        let index = cx.frame.call.index;
        let step = self
            .value
            .scan(&cx.chunk[i..], cx.at(i), &mut |piece, span, bytes| {
                cx.sink.tool_value(span, index, piece, bytes);
            });
        let (i, done) = match step {
            Step::More => (cx.chunk.len(), None),
            Step::Done(k) => (i + k, Some(self.value.seen())),
            Step::Error(k) => (i + k, Some(false)),
        };
        // The lexer reported everything up to `i`.
        cx.run = i;
        match done {
            None => {}
            Some(true) => {
                cx.frame.param_end(Span::at(cx.at(i)), cx.sink);
                self.stage = Stage::NextArg;
            }
            Some(false) => return self.break_at(cx, i, Diagnostic::MalformedCall),
        }
        Ok(i)
    }

    /// After a value: the value lexer stops only at `,` or `)`.
    #[inline(always)]
    fn next_arg<S: Sink>(&mut self, cx: &mut Cursor<'_, S>, b: u8, i: usize) -> usize {
        if b == b',' {
            self.stage = Stage::ArgKey;
        } else {
            cx.flush(i + 1);
            self.complete(cx.frame, cx.span(i, i + 1), cx.sink);
        }
        i + 1
    }
}
