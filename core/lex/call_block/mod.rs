//! The statements of a ```` ```tool_code ```` block: Python calls, one a statement, as the
//! `gemini` dialect writes them and Gemma 3 models do inside `gemma` (docs/seed.md §2.10,
//! docs/dialects.md §gemini). Both families drive this lexer; neither owns it.
//!
//! A block holds statements, one call each: `default_api.NAME(k=v, …)`, bare `NAME(…)`,
//! either inside `print(…)`, after an assignment (`result = …`), or as the items of a
//! `[a(…), b(…)]` list. Values are Python literals, lexed by [`PyValue`] so that a `)` or a
//! fence inside a string is data (docs/seed.md B8). A call with a positional argument is not
//! a tool call, and a statement that is not a call makes the rest of the block text
//! (docs/seed.md B20). A value whose structure is not a literal's (`[1][0]`, `{1, 2}`,
//! `(1, 2]`) breaks its call, which is then text: its arguments could not be JSON.
//!
//! A block closes on its closer, the Markdown fence unless the family names another
//! (LFM2's `<|tool_call_end|>`, the `block_closers` knob), or, when it is a bare list of
//! calls (the `python_list_at_start` knob), on the `]` that closes its list.

mod scan;

pub(crate) use scan::{ident_byte, ident_start};

use arrayvec::ArrayVec;

use crate::engine::budget;
use crate::engine::frame::Frame;
use crate::lex::python::PyValue;
use crate::options::{Options, MAX_NAME};
use crate::{Diagnostic, Markup, Sink, Span};

/// A name, key or statement start seen whole before it is reported (at most
/// [`MAX_NAME`] bytes).
pub(crate) type Word = ArrayVec<u8, MAX_NAME>;

/// Where a block's scan stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum BlockEnd {
    /// The chunk is used up; the block goes on.
    More,
    /// A call's slot opened just before this chunk offset: its `max_argument_bytes`
    /// budget applies from here.
    Slot(usize),
    /// The block's closing fence ended just before this chunk offset.
    Closed(usize),
    /// The block turned out not to hold calls: text from this chunk offset on.
    Text(usize),
}

impl BlockEnd {
    /// The chunk offset where the scan stopped (`len`, the chunk's length, when it was
    /// used up), and whether the block is over (closed, or text from there on).
    #[inline(always)]
    pub(crate) fn stop(self, len: usize) -> (usize, bool) {
        match self {
            BlockEnd::More => (len, false),
            BlockEnd::Slot(end) => (end, false),
            BlockEnd::Closed(end) | BlockEnd::Text(end) => (end, true),
        }
    }
}

/// Where the block's scan is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Stage {
    /// Between statements.
    Stmt,
    /// A `#` comment between statements.
    StmtComment,
    /// A dotted name, gathered in the word: a callee or an assignment's target.
    Callee,
    /// Whitespace after it (gathered too), then `(` or `=`.
    AfterCallee,
    /// After `NAME =` (gathered too): a second `=` makes it a comparison.
    Assign,
    /// Whitespace after an assignment's `=`, then the callee.
    AfterAssign,
    /// The block's closer at the statement level, this many bytes of it so far.
    Fence(u8),
    /// Inside a call: whitespace, then a key or `)`.
    ArgKey,
    /// A `#` comment inside a call.
    ArgComment,
    /// Inside a key.
    Key,
    /// Whitespace after a key, then `=`.
    AfterKey,
    /// After `KEY=`: a second `=` makes it a comparison, a positional argument.
    Equals,
    /// Inside a value, lexed by the block's [`PyValue`].
    Value,
    /// After a value: `,` or `)`.
    NextArg,
}

/// The statements of a ```` ```tool_code ```` block, scanned chunk by chunk.
#[derive(Debug, Clone)]
pub(crate) struct Block {
    /// Where the scan is.
    stage: Stage,
    /// The statement's start (or a key) while it is seen whole. Between blocks the
    /// `gemini` family borrows it for a reasoning fence line's info.
    pub(crate) word: Word,
    /// The open parameter's value.
    value: PyValue,
    /// A call slot is open: numbered by the frame, its call not complete.
    slot: bool,
    /// Stream offset where the open slot's `max_argument_bytes` budget starts.
    start: u64,
    /// Open `print(` wrappers and `[` lists around calls.
    print: u8,
    /// Open `[` lists around calls.
    list: u8,
    /// Where the callee starts in the word (after any assignment), where its last dotted
    /// segment starts, and where it ends (byte offsets in the word).
    callee_start: u8,
    /// Where the callee's last dotted segment starts (the name).
    segment: u8,
    /// Where the callee ends.
    callee_end: u8,
    /// Stream offset of the word's first byte.
    word_start: u64,
    /// The block's closer (the Markdown fence unless the family names another; empty for
    /// a bare list).
    closer: &'static [u8],
    /// The block is a bare list of calls: the `]` that closes its list closes it.
    bracketed: bool,
}

impl Block {
    /// A block before its opener.
    pub(crate) const fn new() -> Self {
        Block {
            stage: Stage::Stmt,
            word: Word::new_const(),
            value: PyValue::new(),
            slot: false,
            start: 0,
            print: 0,
            list: 0,
            callee_start: 0,
            segment: 0,
            callee_end: 0,
            word_start: 0,
            closer: scan::FENCE,
            bracketed: false,
        }
    }

    /// A block opens with the opener at `span`, which opens the slot of its first call.
    /// Returns `false` when a limit refuses the call (it has then ended as invalid).
    pub(crate) fn open<S: Sink>(&mut self, frame: &mut Frame, span: Span, sink: &mut S) -> bool {
        *self = Block::new();
        self.open_slot(frame, span, sink)
    }

    /// A block opens with the opener at `span`, closed by `closer` (see
    /// [`Block::open`]).
    pub(crate) fn open_closed_by<S: Sink>(
        &mut self,
        frame: &mut Frame,
        span: Span,
        closer: &'static [u8],
        sink: &mut S,
    ) -> bool {
        let opened = self.open(frame, span, sink);
        self.closer = closer;
        opened
    }

    /// A bare list of calls opens with its `[` at `span` (reported by the caller); `rest`,
    /// the bytes after it up to its first call's `(`, are read as the block's, from stream
    /// offset `span.end`. Returns `false` when a limit refuses the call (it has then ended
    /// as invalid, and `rest` is the caller's to release).
    pub(crate) fn open_list<S: Sink>(
        &mut self,
        frame: &mut Frame,
        span: Span,
        rest: &[u8],
        sink: &mut S,
    ) -> bool {
        if !self.open(frame, span, sink) {
            return false;
        }
        self.closer = &[];
        self.bracketed = true;
        self.list = 1;
        let end = self.scan(frame, rest, 0, span.end, sink);
        debug_assert_eq!(end, BlockEnd::More, "a callee and blanks only");
        true
    }

    /// Numbers the call of a slot opening at `span` and starts its budget at `span.end`;
    /// `false` when a limit refuses it (it has then ended as invalid).
    fn open_slot<S: Sink>(&mut self, frame: &mut Frame, span: Span, sink: &mut S) -> bool {
        if !frame.open_call(span, sink) {
            return false;
        }
        self.slot = true;
        self.start = span.end;
        true
    }

    /// The stream offset where the open call reaches `max_argument_bytes`, if a call is
    /// open.
    #[inline(always)]
    pub(crate) fn limit(&self, options: &Options) -> Option<u64> {
        self.slot.then(|| budget::end_offset(self.start, options))
    }

    /// A chunk that lies inside a string of a value whole: its piece.
    #[inline]
    pub(crate) fn take_inside_string(&mut self, chunk: &[u8]) -> Option<crate::Piece> {
        if self.stage != Stage::Value {
            return None;
        }
        self.value.take_inside_string(chunk)
    }

    /// A chunk at stream offset `span` inside a string of a value whole, within the call's
    /// budget: reported as one value event. Returns `false`, having done nothing, when the
    /// chunk needs the general scan.
    #[inline(always)]
    pub(crate) fn plain_chunk<S: Sink>(
        &mut self,
        frame: &Frame,
        chunk: &[u8],
        span: Span,
        sink: &mut S,
    ) -> bool {
        let within = self
            .limit(&frame.options)
            .is_none_or(|limit| span.end <= limit);
        if within {
            if let Some(piece) = self.take_inside_string(chunk) {
                sink.tool_value(span, frame.call.index, piece, chunk);
                return true;
            }
        }
        false
    }

    /// The statement's start is held in the word, not reported yet.
    fn holds_word(&self) -> bool {
        matches!(
            self.stage,
            Stage::Callee | Stage::AfterCallee | Stage::Assign | Stage::AfterAssign
        )
    }

    /// The open call's `)` at `span`: complete, and the next statement may follow.
    fn complete<S: Sink>(&mut self, frame: &mut Frame, span: Span, sink: &mut S) {
        self.slot = false;
        self.stage = Stage::Stmt;
        frame.complete(span, sink);
    }

    /// Reports the held statement start as the block's markup.
    fn held_as_markup<S: Sink>(&self, sink: &mut S) {
        if !self.word.is_empty() {
            let span = Span::new(self.word_start, self.word_start + self.word.len() as u64);
            sink.markup(span, Markup::Envelope, &self.word);
        }
    }

    /// Reports the held statement start, then `extra` (held bytes after it), as text.
    fn release_held<S: Sink>(&self, frame: &Frame, extra: &[u8], sink: &mut S) {
        let mut at = self.word_start;
        if self.holds_word() && !self.word.is_empty() {
            frame.release(Span::new(at, at + self.word.len() as u64), &self.word, sink);
            at += self.word.len() as u64;
        }
        if !extra.is_empty() {
            frame.release(Span::new(at, at + extra.len() as u64), extra, sink);
        }
    }

    /// The statement ending at offset `at` is not a call: the block is text from its start
    /// (what is held, `extra` held after it) on.
    fn not_a_call<S: Sink>(&mut self, frame: &mut Frame, extra: &[u8], at: u64, sink: &mut S) {
        let held = if self.holds_word() {
            self.word.len() as u64
        } else {
            0
        };
        let start = at - held - extra.len() as u64;
        if core::mem::take(&mut self.slot) {
            frame.invalid(Span::new(start, at), Diagnostic::NotACall, sink);
        } else {
            sink.diagnostic(Span::new(start, at), Diagnostic::NotACall);
        }
        if held == 0 {
            self.word_start = start;
        }
        self.release_held(frame, extra, sink);
    }

    /// The stream ends, or the call is cut off, at offset `end`: what is held is the
    /// block's.
    pub(crate) fn flush_held<S: Sink>(&mut self, frame: &Frame, end: u64, sink: &mut S) {
        match self.stage {
            _ if self.holds_word() => self.held_as_markup(sink),
            Stage::Fence(n) => {
                let n = u64::from(n);
                sink.markup(
                    Span::new(end - n, end),
                    Markup::Envelope,
                    &self.closer[..n as usize],
                );
            }
            Stage::Value => {
                let index = frame.call.index;
                self.value.flush(end, &mut |piece, span, bytes| {
                    sink.tool_value(span, index, piece, bytes);
                });
            }
            _ => {}
        }
        self.stage = Stage::Stmt;
    }

    /// The stream ended at `end` inside the block: an open call is cut off (rule 3); a
    /// block whose calls are all complete lacks only its closing fence.
    pub(crate) fn end<S: Sink>(&mut self, frame: &mut Frame, end: u64, sink: &mut S) {
        if core::mem::take(&mut self.slot) {
            frame.cut_off(Span::at(end), sink);
        } else if self.bracketed {
            sink.diagnostic(Span::at(end), Diagnostic::UnclosedList);
        } else {
            sink.diagnostic(Span::at(end), Diagnostic::MissingCloser);
        }
    }

    /// The open call reached `max_argument_bytes` at offset `end`.
    pub(crate) fn over_limit<S: Sink>(&mut self, frame: &mut Frame, end: u64, sink: &mut S) {
        self.flush_held(frame, end, sink);
        self.slot = false;
        frame.invalid(Span::at(end), Diagnostic::ArgumentsTooLong, sink);
    }
}
