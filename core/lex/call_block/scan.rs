//! The block's scan, one method a stage: each takes the byte at chunk offset `i` and
//! gives the next offset to look at (`Ok`), or where the scan stops (`Err`).

use super::{Block, BlockEnd, Stage};
use crate::engine::frame::Frame;
use crate::lex::cursor::Cursor;
use crate::lex::python::{PyValue, Step};
use crate::options::Options;
use crate::{Diagnostic, Markup, Role, Sink, Span, ValueKind};

/// The closing fence of a block.
const FENCE: &[u8] = b"```";

/// What a stage step gives: the next chunk offset, or where the block's scan stops.
type Next = Result<usize, BlockEnd>;

fn ident_start(b: u8) -> bool {
    b.is_ascii_alphabetic() || b == b'_' || b >= 0x80
}

/// Names may hold `-`, which Python does not allow but tool names do.
fn ident_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'-' || b >= 0x80
}

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
        options: &Options,
        sink: &mut S,
    ) -> BlockEnd {
        let mut cx = Cursor::new(chunk, base, pos, frame.call.index);
        let mut i = pos;
        while i < chunk.len() {
            let b = chunk[i];
            let next = match self.stage {
                Stage::Stmt => self.stmt(frame, &mut cx, b, i, options, sink),
                Stage::StmtComment | Stage::ArgComment => Ok(self.comment(b, i)),
                Stage::Callee | Stage::AfterCallee => {
                    self.callee(frame, &mut cx, b, i, options, sink)
                }
                Stage::Assign => self.assign(frame, &cx, b, i, sink),
                Stage::AfterAssign => self.after_assign(frame, &mut cx, b, i, sink),
                Stage::Fence(n) => self.fence(frame, &mut cx, b, i, n, sink),
                Stage::ArgKey => self.arg_key(frame, &mut cx, b, i, sink),
                Stage::Key => self.key(frame, &cx, b, i, sink),
                Stage::AfterKey => self.after_key(frame, &cx, b, i, sink),
                Stage::Equals => self.equals(frame, &mut cx, b, i, sink),
                Stage::Value => self.value(frame, &mut cx, b, i, sink),
                Stage::NextArg => Ok(self.next_arg(frame, &mut cx, b, i, sink)),
            };
            match next {
                Ok(next) => i = next,
                Err(end) => return end,
            }
        }
        cx.emit(chunk.len(), sink);
        BlockEnd::More
    }

    /// The statement at `i` is not a call: what is held (`extra` after the word), then
    /// the rest, is text.
    fn not_a_call_at<S: Sink>(
        &mut self,
        frame: &mut Frame,
        cx: &Cursor<'_>,
        i: usize,
        extra: &[u8],
        sink: &mut S,
    ) -> Next {
        cx.emit(i, sink);
        self.not_a_call(frame, extra, cx.at(i), sink);
        Err(BlockEnd::Text(i))
    }

    /// The call breaks at `i` with `diagnostic`; the rest is text.
    fn break_at<S: Sink>(
        &mut self,
        frame: &mut Frame,
        cx: &Cursor<'_>,
        i: usize,
        diagnostic: Diagnostic,
        sink: &mut S,
    ) -> Next {
        cx.emit(i, sink);
        self.slot = false;
        frame.invalid(Span::new(cx.at(i), cx.at(i + 1)), diagnostic, sink);
        Err(BlockEnd::Text(i))
    }

    /// Gathers `b` into the word; a statement start too long for it is not a call.
    fn gather<S: Sink>(
        &mut self,
        frame: &mut Frame,
        cx: &mut Cursor<'_>,
        b: u8,
        i: usize,
        sink: &mut S,
    ) -> Next {
        if self.word.try_push(b).is_err() {
            return self.not_a_call_at(frame, cx, i, b"", sink);
        }
        cx.run = i + 1;
        Ok(i + 1)
    }

    /// Between statements: blanks, separators, comments, the brackets of `print(` and
    /// lists, the closing fence, or a statement's start.
    fn stmt<S: Sink>(
        &mut self,
        frame: &mut Frame,
        cx: &mut Cursor<'_>,
        b: u8,
        i: usize,
        options: &Options,
        sink: &mut S,
    ) -> Next {
        let between = is_space(b)
            || matches!(b, b';' | b'#' | b'`')
            || (self.list > 0 && b == b']')
            || (self.print > 0 && b == b')')
            || ((self.list > 0 || self.print > 0) && b == b',');
        if !(self.slot || between) {
            // A statement begins: its bytes are its call's from here, so that a statement
            // that turns out not to be a call is text from its start (a `print(` or a `[`
            // before it too).
            cx.emit(i, sink);
            if !self.open_slot(frame, Span::at(cx.at(i)), options, sink) {
                return Err(BlockEnd::Text(i));
            }
            return Err(BlockEnd::Slot(i));
        }
        match b {
            _ if is_space(b) || b == b';' => {}
            b'#' => self.stage = Stage::StmtComment,
            b'[' => self.list = self.list.saturating_add(1),
            b']' if self.list > 0 => self.list -= 1,
            b')' if self.print > 0 => self.print -= 1,
            b',' if self.list > 0 || self.print > 0 => {}
            b'`' => {
                cx.emit(i, sink);
                self.stage = Stage::Fence(1);
                cx.run = i + 1;
            }
            _ if ident_start(b) => {
                cx.flush(i, sink);
                self.word.clear();
                self.word_start = cx.at(i);
                self.callee_start = 0;
                self.segment = 0;
                self.stage = Stage::Callee;
                return Ok(i);
            }
            _ => return self.not_a_call_at(frame, cx, i, b"", sink),
        }
        Ok(i + 1)
    }

    /// A `#` comment, to the line's end.
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
    fn callee<S: Sink>(
        &mut self,
        frame: &mut Frame,
        cx: &mut Cursor<'_>,
        b: u8,
        i: usize,
        options: &Options,
        sink: &mut S,
    ) -> Next {
        let callee = self.stage == Stage::Callee;
        if callee && (ident_byte(b) || b == b'.') || !callee && (b == b' ' || b == b'\t') {
            let next = self.gather(frame, cx, b, i, sink)?;
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
                self.held_as_markup(sink);
                self.print = self.print.saturating_add(1);
                self.stage = Stage::Stmt;
                cx.run = i;
                Ok(i + 1)
            }
            b'(' => self.call_open(frame, cx, i, options, sink),
            b'=' => {
                self.gather(frame, cx, b, i, sink)?;
                self.stage = Stage::Assign;
                Ok(i + 1)
            }
            _ => self.not_a_call_at(frame, cx, i, b"", sink),
        }
    }

    /// The `(` of a call at `i`: the call (its slot opened here unless a statement
    /// opened it) starts with its name, the last dotted segment of the callee.
    fn call_open<S: Sink>(
        &mut self,
        frame: &mut Frame,
        cx: &mut Cursor<'_>,
        i: usize,
        options: &Options,
        sink: &mut S,
    ) -> Next {
        let name = &self.word[usize::from(self.segment)..usize::from(self.callee_end)];
        if name.is_empty() || (!name.is_ascii() && core::str::from_utf8(name).is_err()) {
            return self.not_a_call_at(frame, cx, i, b"", sink);
        }
        let opened = !self.slot;
        if opened && !self.open_slot(frame, Span::at(cx.at(i)), options, sink) {
            self.release_held(frame, b"", sink);
            return Err(BlockEnd::Text(i));
        }
        self.held_as_markup(sink);
        let start = self.word_start + u64::from(self.segment);
        let name = &self.word[usize::from(self.segment)..usize::from(self.callee_end)];
        frame.name(Span::new(start, start + name.len() as u64), name, sink);
        self.stage = Stage::ArgKey;
        cx.run = i;
        if opened {
            cx.emit(i + 1, sink);
            return Err(BlockEnd::Slot(i + 1));
        }
        Ok(i + 1)
    }

    /// After `NAME =`: a second `=` makes it a comparison.
    fn assign<S: Sink>(
        &mut self,
        frame: &mut Frame,
        cx: &Cursor<'_>,
        b: u8,
        i: usize,
        sink: &mut S,
    ) -> Next {
        if b == b'=' {
            return self.not_a_call_at(frame, cx, i, b"", sink);
        }
        self.stage = Stage::AfterAssign;
        Ok(i)
    }

    /// Blanks after an assignment's `=`, then the callee or a `[` list of calls.
    fn after_assign<S: Sink>(
        &mut self,
        frame: &mut Frame,
        cx: &mut Cursor<'_>,
        b: u8,
        i: usize,
        sink: &mut S,
    ) -> Next {
        if b == b' ' || b == b'\t' {
            return self.gather(frame, cx, b, i, sink);
        }
        if ident_start(b) {
            self.callee_start = self.word.len() as u8;
            self.segment = self.callee_start;
            self.stage = Stage::Callee;
            return Ok(i);
        }
        if b != b'[' {
            return self.not_a_call_at(frame, cx, i, b"", sink);
        }
        // `results = [a(…), b(…)]`: a list of calls.
        self.held_as_markup(sink);
        self.list = self.list.saturating_add(1);
        self.stage = Stage::Stmt;
        cx.run = i;
        Ok(i + 1)
    }

    /// The `n` backticks so far at the statement level: three close the block.
    fn fence<S: Sink>(
        &mut self,
        frame: &mut Frame,
        cx: &mut Cursor<'_>,
        b: u8,
        i: usize,
        n: u8,
        sink: &mut S,
    ) -> Next {
        if b != b'`' {
            return self.not_a_call_at(frame, cx, i, &FENCE[..usize::from(n)], sink);
        }
        let i = i + 1;
        if n < 2 {
            self.stage = Stage::Fence(n + 1);
            cx.run = i;
            return Ok(i);
        }
        let span = Span::new(cx.at(i) - 3, cx.at(i));
        if self.slot {
            // The block closed before its first call: it holds none.
            self.slot = false;
            frame.invalid(span, Diagnostic::NotACall, sink);
            frame.release(span, FENCE, sink);
        } else {
            sink.markup(span, Markup::Delimiter(Role::CallClose), FENCE);
        }
        Err(BlockEnd::Closed(i))
    }

    /// Inside a call: blanks, a comment, then a key or `)`.
    fn arg_key<S: Sink>(
        &mut self,
        frame: &mut Frame,
        cx: &mut Cursor<'_>,
        b: u8,
        i: usize,
        sink: &mut S,
    ) -> Next {
        match b {
            _ if is_space(b) => {}
            b'#' => self.stage = Stage::ArgComment,
            b')' => {
                cx.flush(i + 1, sink);
                self.complete(frame, Span::new(cx.at(i), cx.at(i + 1)), sink);
            }
            _ if ident_start(b) => {
                self.word.clear();
                self.word_start = cx.at(i);
                self.stage = Stage::Key;
                return Ok(i);
            }
            _ => return self.break_at(frame, cx, i, Diagnostic::PositionalArgument, sink),
        }
        Ok(i + 1)
    }

    /// A key, then blanks or its `=`.
    fn key<S: Sink>(
        &mut self,
        frame: &mut Frame,
        cx: &Cursor<'_>,
        b: u8,
        i: usize,
        sink: &mut S,
    ) -> Next {
        if ident_byte(b) {
            if self.word.try_push(b).is_err() {
                return self.break_at(frame, cx, i, Diagnostic::KeyTooLong, sink);
            }
        } else if b == b'=' {
            self.stage = Stage::Equals;
        } else if b == b' ' || b == b'\t' {
            self.stage = Stage::AfterKey;
        } else {
            return self.break_at(frame, cx, i, Diagnostic::PositionalArgument, sink);
        }
        Ok(i + 1)
    }

    /// Blanks after a key, then `=`.
    fn after_key<S: Sink>(
        &mut self,
        frame: &mut Frame,
        cx: &Cursor<'_>,
        b: u8,
        i: usize,
        sink: &mut S,
    ) -> Next {
        match b {
            b' ' | b'\t' => {}
            b'=' => self.stage = Stage::Equals,
            _ => return self.break_at(frame, cx, i, Diagnostic::PositionalArgument, sink),
        }
        Ok(i + 1)
    }

    /// After `KEY=`: a second `=` makes it a comparison; otherwise the parameter begins.
    fn equals<S: Sink>(
        &mut self,
        frame: &mut Frame,
        cx: &mut Cursor<'_>,
        b: u8,
        i: usize,
        sink: &mut S,
    ) -> Next {
        if b == b'=' {
            return self.break_at(frame, cx, i, Diagnostic::PositionalArgument, sink);
        }
        cx.flush(i, sink);
        let span = Span::new(self.word_start, self.word_start + self.word.len() as u64);
        frame.param(span, &self.word, ValueKind::Python, sink);
        self.value = PyValue::new();
        self.stage = Stage::Value;
        Ok(i)
    }

    /// A value: blanks before it are the call's; once it began (with a comment, say),
    /// everything is the value's until it ends, lexed by [`PyValue`].
    fn value<S: Sink>(
        &mut self,
        frame: &mut Frame,
        cx: &mut Cursor<'_>,
        b: u8,
        i: usize,
        sink: &mut S,
    ) -> Next {
        if !self.value.started() && is_space(b) {
            return Ok(i + 1);
        }
        cx.emit(i, sink);
        let index = frame.call.index;
        let step = self
            .value
            .scan(&cx.chunk[i..], cx.at(i), &mut |piece, span, bytes| {
                sink.tool_value(span, index, piece, bytes);
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
                frame.param_end(Span::at(cx.at(i)), sink);
                self.stage = Stage::NextArg;
            }
            Some(false) => return self.break_at(frame, cx, i, Diagnostic::MalformedCall, sink),
        }
        Ok(i)
    }

    /// After a value: the value lexer stops only at `,` or `)`.
    fn next_arg<S: Sink>(
        &mut self,
        frame: &mut Frame,
        cx: &mut Cursor<'_>,
        b: u8,
        i: usize,
        sink: &mut S,
    ) -> usize {
        if b == b',' {
            self.stage = Stage::ArgKey;
        } else {
            cx.flush(i + 1, sink);
            self.complete(frame, Span::new(cx.at(i), cx.at(i + 1)), sink);
        }
        i + 1
    }
}
