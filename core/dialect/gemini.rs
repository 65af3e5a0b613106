//! Gemini and Gemma 3 (`gemini`): calls are Python in a Markdown fence,
//! ```` ```tool_code ```` + `default_api.NAME(key=VALUE, …)` + ```` ``` ````, reasoning in a
//! ```` ```thinking ```` fence. Formats: docs/seed.md §2.10 and §2.10.1, docs/dialects.md
//! §gemini; rules from docs/dialects.md.
//!
//! A block holds statements, one call each: `default_api.NAME(k=v, …)`, bare `NAME(…)`,
//! either inside `print(…)`, after an assignment (`result = …`), or as the items of a
//! `[a(…), b(…)]` list. Values are Python literals, lexed by [`PyValue`] so that a `)` or a
//! fence inside a string is data (docs/seed.md B8). A call with a positional argument is not a
//! tool call, and a statement that is not a call makes the rest of the block text (docs/seed.md
//! B20). A value whose structure is not a literal's (`[1][0]`, `{1, 2}`, `(1, 2]`) breaks
//! its call, which is then text: its arguments could not be JSON.
//!
//! Reasoning closes on a fence line (docs/seed.md §2.10.1): at the top level, a line of up to three
//! spaces and three or more backticks followed by nothing closes it (the line break after
//! it is content), followed by prose closes it too (the prose is content), and followed by
//! a language word opens a nested code block, which a matching fence line closes. A
//! ```` ```tool_code ```` line there opens a call block whose calls are drafts until the
//! reasoning closes (docs/dialects.md rule 7).

use arrayvec::ArrayVec;

use crate::automaton::{Delimiter, Dfa};
use crate::engine::frame::{envelope, Frame};
use crate::lex::python::{PyValue, Step};
use crate::options::{Options, MAX_NAME};
use crate::scan::Stop;
use crate::{Diagnostic, Markup, Role, Sink, Span, ValueKind};

/// The scanner modes of the dialect, from its table file.
#[derive(Debug)]
pub(crate) struct Modes {
    /// Visible text.
    pub(crate) content: &'static Dfa,
    /// Inside a reasoning block: fences and stop tokens.
    pub(crate) reasoning: &'static Dfa,
}

/// A name, key or statement start seen whole before it is reported.
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
    /// Backticks at the statement level, this many so far.
    Fence(u8),
    /// Inside a call: whitespace, then a key or `)`.
    ArgKey,
    /// A `#` comment inside a call.
    ArgComment,
    Key,
    /// Whitespace after a key, then `=`.
    AfterKey,
    /// After `KEY=`: a second `=` makes it a comparison, a positional argument.
    Equals,
    Value,
    /// After a value: `,` or `)`.
    NextArg,
}

/// The statements of a ```` ```tool_code ```` block (shared with Gemma, whose models
/// sometimes write their calls the Gemma 3 way).
#[derive(Debug, Clone)]
pub(crate) struct Block {
    stage: Stage,
    /// The statement's start (or a key) while it is seen whole; in reasoning, a fence
    /// line's info.
    word: Word,
    value: PyValue,
    /// A call slot is open: numbered by the frame, its call not complete.
    slot: bool,
    /// Stream offset where the open slot's `max_argument_bytes` budget starts.
    start: u64,
    /// Open `print(` wrappers and `[` lists around calls.
    print: u8,
    list: u8,
    /// Where the callee starts in the word (after any assignment), where its last dotted
    /// segment starts, and where it ends.
    callee_start: u8,
    segment: u8,
    callee_end: u8,
    /// Stream offset of the word's first byte.
    word_start: u64,
}

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
        }
    }

    /// A block opens with the opener at `span`, which opens the slot of its first call.
    /// Returns `false` when a limit refuses the call (it has then ended as invalid).
    pub(crate) fn open<S: Sink>(
        &mut self,
        frame: &mut Frame,
        span: Span,
        options: &Options,
        sink: &mut S,
    ) -> bool {
        *self = Block::new();
        if !frame.open_call(span, options, sink) {
            return false;
        }
        self.slot = true;
        self.start = span.end;
        true
    }

    /// The stream offset where the open call reaches `max_argument_bytes`, if a call is
    /// open.
    pub(crate) fn limit(&self, options: &Options) -> Option<u64> {
        self.slot
            .then(|| self.start.saturating_add(options.max_argument_bytes))
    }

    /// A chunk that lies inside a string of a value whole: its piece.
    #[inline]
    pub(crate) fn take_inside_string(&mut self, chunk: &[u8]) -> Option<crate::Piece> {
        if self.stage != Stage::Value {
            return None;
        }
        self.value.take_inside_string(chunk)
    }

    /// Scans the block from `chunk[pos..]`.
    pub(crate) fn scan<S: Sink>(
        &mut self,
        frame: &mut Frame,
        chunk: &[u8],
        pos: usize,
        base: u64,
        options: &Options,
        sink: &mut S,
    ) -> BlockEnd {
        let at = |i: usize| base + i as u64;
        let mut i = pos;
        // Markup from `run` on is not reported yet.
        let mut run = pos;
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
        // The statement at `i` is not a call: what is held, then the rest, is text.
        macro_rules! not_a_call {
            ($i:expr, $extra:expr) => {{
                let i = $i;
                emit!(i);
                self.not_a_call(frame, $extra, at(i), sink);
                return BlockEnd::Text(i);
            }};
        }
        // The call breaks at `i`.
        macro_rules! invalid {
            ($i:expr, $diagnostic:expr) => {{
                let i = $i;
                emit!(i);
                self.slot = false;
                frame.invalid(Span::new(at(i), at(i + 1)), $diagnostic, sink);
                return BlockEnd::Text(i);
            }};
        }
        while i < chunk.len() {
            let b = chunk[i];
            match self.stage {
                Stage::Stmt => {
                    let between = is_space(b)
                        || matches!(b, b';' | b'#' | b'`')
                        || (self.list > 0 && b == b']')
                        || (self.print > 0 && b == b')')
                        || ((self.list > 0 || self.print > 0) && b == b',');
                    if !(self.slot || between) {
                        // A statement begins: its bytes are its call's from here, so that
                        // a statement that turns out not to be a call is text from its
                        // start (a `print(` or a `[` before it too).
                        emit!(i);
                        if !frame.open_call(Span::at(at(i)), options, sink) {
                            return BlockEnd::Text(i);
                        }
                        self.slot = true;
                        self.start = at(i);
                        return BlockEnd::Slot(i);
                    }
                    match b {
                        _ if is_space(b) || b == b';' => {}
                        b'#' => self.stage = Stage::StmtComment,
                        b'[' => self.list = self.list.saturating_add(1),
                        b']' if self.list > 0 => self.list -= 1,
                        b')' if self.print > 0 => self.print -= 1,
                        b',' if self.list > 0 || self.print > 0 => {}
                        b'`' => {
                            emit!(i);
                            self.stage = Stage::Fence(1);
                            run = i + 1;
                        }
                        _ if ident_start(b) => {
                            flush!(i);
                            self.word.clear();
                            self.word_start = at(i);
                            self.callee_start = 0;
                            self.segment = 0;
                            self.stage = Stage::Callee;
                            continue;
                        }
                        _ => not_a_call!(i, b""),
                    }
                    i += 1;
                }
                Stage::StmtComment | Stage::ArgComment => {
                    if b == b'\n' {
                        self.stage = if self.stage == Stage::StmtComment {
                            Stage::Stmt
                        } else {
                            Stage::ArgKey
                        };
                        continue;
                    }
                    i += 1;
                }
                Stage::Callee | Stage::AfterCallee => {
                    let callee = self.stage == Stage::Callee;
                    if callee && (ident_byte(b) || b == b'.')
                        || !callee && (b == b' ' || b == b'\t')
                    {
                        if self.word.try_push(b).is_err() {
                            not_a_call!(i, b"");
                        }
                        if b == b'.' {
                            self.segment = self.word.len() as u8;
                        }
                        i += 1;
                        run = i;
                        continue;
                    }
                    if callee {
                        self.callee_end = self.word.len() as u8;
                        self.stage = Stage::AfterCallee;
                        continue;
                    }
                    match b {
                        b'(' if &self.word
                            [usize::from(self.callee_start)..usize::from(self.callee_end)]
                            == b"print" =>
                        {
                            self.held_as_markup(sink);
                            self.print = self.print.saturating_add(1);
                            self.stage = Stage::Stmt;
                            run = i;
                            i += 1;
                        }
                        b'(' => {
                            let name =
                                &self.word[usize::from(self.segment)..usize::from(self.callee_end)];
                            if name.is_empty()
                                || (!name.is_ascii() && core::str::from_utf8(name).is_err())
                            {
                                not_a_call!(i, b"");
                            }
                            let opened = !self.slot;
                            if opened {
                                if !frame.open_call(Span::at(at(i)), options, sink) {
                                    self.release_held(frame, b"", sink);
                                    return BlockEnd::Text(i);
                                }
                                self.slot = true;
                                self.start = at(i);
                            }
                            self.held_as_markup(sink);
                            let start = self.word_start + u64::from(self.segment);
                            let name =
                                &self.word[usize::from(self.segment)..usize::from(self.callee_end)];
                            frame.name(Span::new(start, start + name.len() as u64), name, sink);
                            self.stage = Stage::ArgKey;
                            run = i;
                            i += 1;
                            if opened {
                                emit!(i);
                                return BlockEnd::Slot(i);
                            }
                        }
                        b'=' => {
                            if self.word.try_push(b).is_err() {
                                not_a_call!(i, b"");
                            }
                            self.stage = Stage::Assign;
                            i += 1;
                            run = i;
                        }
                        _ => not_a_call!(i, b""),
                    }
                }
                Stage::Assign => {
                    if b == b'=' {
                        not_a_call!(i, b"");
                    }
                    self.stage = Stage::AfterAssign;
                }
                Stage::AfterAssign => {
                    if b == b' ' || b == b'\t' {
                        if self.word.try_push(b).is_err() {
                            not_a_call!(i, b"");
                        }
                        i += 1;
                        run = i;
                    } else if ident_start(b) {
                        self.callee_start = self.word.len() as u8;
                        self.segment = self.callee_start;
                        self.stage = Stage::Callee;
                    } else if b == b'[' {
                        // `results = [a(…), b(…)]`: a list of calls.
                        self.held_as_markup(sink);
                        self.list = self.list.saturating_add(1);
                        self.stage = Stage::Stmt;
                        run = i;
                        i += 1;
                    } else {
                        not_a_call!(i, b"");
                    }
                }
                Stage::Fence(n) => {
                    const FENCE: &[u8] = b"```";
                    if b != b'`' {
                        not_a_call!(i, &FENCE[..usize::from(n)]);
                    }
                    i += 1;
                    if n < 2 {
                        self.stage = Stage::Fence(n + 1);
                        run = i;
                        continue;
                    }
                    let span = Span::new(at(i) - 3, at(i));
                    if self.slot {
                        // The block closed before its first call: it holds none.
                        self.slot = false;
                        frame.invalid(span, Diagnostic::NotACall, sink);
                        frame.release(span, FENCE, sink);
                    } else {
                        sink.markup(span, Markup::Delimiter(Role::CallClose), FENCE);
                    }
                    return BlockEnd::Closed(i);
                }
                Stage::ArgKey => {
                    match b {
                        _ if is_space(b) => {}
                        b'#' => self.stage = Stage::ArgComment,
                        b')' => {
                            i += 1;
                            flush!(i);
                            self.complete(frame, Span::new(at(i - 1), at(i)), sink);
                            continue;
                        }
                        _ if ident_start(b) => {
                            self.word.clear();
                            self.word_start = at(i);
                            self.stage = Stage::Key;
                            continue;
                        }
                        _ => invalid!(i, Diagnostic::PositionalArgument),
                    }
                    i += 1;
                }
                Stage::Key => {
                    if ident_byte(b) {
                        if self.word.try_push(b).is_err() {
                            invalid!(i, Diagnostic::KeyTooLong);
                        }
                    } else if b == b'=' {
                        self.stage = Stage::Equals;
                    } else if b == b' ' || b == b'\t' {
                        self.stage = Stage::AfterKey;
                    } else {
                        invalid!(i, Diagnostic::PositionalArgument);
                    }
                    i += 1;
                }
                Stage::AfterKey => {
                    match b {
                        b' ' | b'\t' => {}
                        b'=' => self.stage = Stage::Equals,
                        _ => invalid!(i, Diagnostic::PositionalArgument),
                    }
                    i += 1;
                }
                Stage::Equals => {
                    if b == b'=' {
                        invalid!(i, Diagnostic::PositionalArgument);
                    }
                    flush!(i);
                    let span = Span::new(self.word_start, self.word_start + self.word.len() as u64);
                    frame.param(span, &self.word, ValueKind::Python, sink);
                    self.value = PyValue::new();
                    self.stage = Stage::Value;
                }
                Stage::Value => {
                    // Blanks before the value are the call's; once the value began (with a
                    // comment, say), everything is the value's until it ends.
                    if !self.value.started() && is_space(b) {
                        i += 1;
                        continue;
                    }
                    emit!(i);
                    let index = frame.call.index;
                    let step = self
                        .value
                        .scan(&chunk[i..], at(i), &mut |piece, span, bytes| {
                            sink.tool_value(span, index, piece, bytes);
                        });
                    let done = match step {
                        Step::More => {
                            i = chunk.len();
                            None
                        }
                        Step::Done(k) => {
                            i += k;
                            Some(self.value.seen())
                        }
                        Step::Error(k) => {
                            i += k;
                            Some(false)
                        }
                    };
                    // The lexer reported everything up to `i`.
                    run = i;
                    match done {
                        None => {}
                        Some(true) => {
                            frame.param_end(Span::at(at(i)), sink);
                            self.stage = Stage::NextArg;
                        }
                        Some(false) => invalid!(i, Diagnostic::MalformedCall),
                    }
                }
                Stage::NextArg => {
                    // The value lexer stops only at `,` or `)`.
                    i += 1;
                    if b == b',' {
                        self.stage = Stage::ArgKey;
                    } else {
                        flush!(i);
                        self.complete(frame, Span::new(at(i - 1), at(i)), sink);
                    }
                }
            }
        }
        emit!(chunk.len());
        BlockEnd::More
    }

    /// The statement's start is held in the self.word, not reported yet.
    fn holds_word(&self) -> bool {
        matches!(
            self.stage,
            Stage::Callee | Stage::AfterCallee | Stage::Assign | Stage::AfterAssign
        )
    }

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
                    &b"``"[..n as usize],
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

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    /// Content, or reasoning read line by line.
    Text,
    /// Inside a ```` ```tool_code ```` block.
    Block,
    /// Reasoning: a backtick fence at the start of a line, at the top level, held until its
    /// line says what it is.
    FenceLine,
}

/// Spaces since the last line break, when the line holds nothing else; `NOT_AT_START`
/// once it does (four spaces make an indented code line, not a fence).
const NOT_AT_START: u8 = 4;

/// The backtick run of a fence, emitted from here (a run is only ever counted).
const TICKS: &[u8; 64] = &[b'`'; 64];

/// A fence line of reasoning that stays reasoning text whatever follows it (a tilde fence,
/// a fence inside a nested block), followed to its end to see what it opens or closes.
#[derive(Debug, Clone, Copy)]
struct FenceText {
    byte: u8,
    run: u16,
    run_over: bool,
    /// Only blanks followed the run so far.
    blank: bool,
}

/// Where a reasoning line stands, followed over the reasoning text as it is released.
#[derive(Debug, Clone, Copy)]
struct Line {
    /// Spaces since the line began (see `NOT_AT_START`).
    indent: u8,
    fence: Option<FenceText>,
    /// The open nested code block's fence byte and run, if any.
    nested: Option<(u8, u16)>,
}

impl Line {
    const fn new() -> Self {
        Line {
            indent: 0,
            fence: None,
            nested: None,
        }
    }

    /// Follows the line over reasoning text `bytes`.
    fn observe(&mut self, bytes: &[u8]) {
        let mut rest = bytes;
        if let Some(fence) = &mut self.fence {
            let line = match memchr::memchr(b'\n', rest) {
                Some(k) => &rest[..k],
                None => rest,
            };
            for &b in line {
                if !fence.run_over && b == fence.byte {
                    fence.run = fence.run.saturating_add(1);
                } else {
                    fence.run_over = true;
                    fence.blank &= matches!(b, b' ' | b'\t' | b'\r');
                }
            }
            if line.len() == rest.len() {
                return;
            }
            let fence = *fence;
            self.fence = None;
            self.nested = match self.nested {
                None => Some((fence.byte, fence.run)),
                Some((byte, run)) if byte == fence.byte && fence.run >= run && fence.blank => None,
                nested => nested,
            };
            rest = &rest[line.len()..];
        }
        let tail = match memchr::memrchr(b'\n', rest) {
            Some(k) => {
                self.indent = 0;
                &rest[k + 1..]
            }
            None => rest,
        };
        for &b in tail {
            if self.indent >= NOT_AT_START {
                break;
            }
            self.indent = if b == b' ' {
                self.indent + 1
            } else {
                NOT_AT_START
            };
        }
    }
}

/// The phase machine of the Gemini dialect.
#[derive(Debug, Clone)]
pub(crate) struct Gemini {
    modes: &'static Modes,
    phase: Phase,
    frame: Frame,
    block: Block,
    line: Line,
    /// FenceLine: the backtick run so far, and whether a word followed it.
    run: u16,
    word_seen: bool,
}

/// Bytes of a fence's language word (docs/seed.md §2.10.1).
fn token_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'_' | b'+' | b'#' | b'-')
}

impl Gemini {
    pub(crate) fn new(modes: &'static Modes, options: &Options) -> Self {
        Gemini {
            modes,
            phase: Phase::Text,
            frame: Frame::new(options),
            block: Block::new(),
            line: Line::new(),
            run: 0,
            word_seen: false,
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
        let text_dfa = if self.frame.reasoning {
            self.modes.reasoning
        } else {
            self.modes.content
        };
        match self.phase {
            Phase::Text if self.frame.plain_text(text_dfa, chunk) => {
                if self.frame.reasoning {
                    self.line.observe(chunk);
                }
                self.frame.release(span, chunk, sink);
                return;
            }
            Phase::Block => {
                let within = self
                    .block
                    .limit(options)
                    .is_none_or(|limit| span.end <= limit);
                if within {
                    if let Some(piece) = self.block.take_inside_string(chunk) {
                        sink.tool_value(span, self.frame.call.index, piece, chunk);
                        return;
                    }
                }
            }
            _ => {}
        }
        self.run_machine(chunk, base, options, sink);
    }

    /// The general machine: phase after phase until the chunk is used up. Inside a call,
    /// the chunk is cut where the call reaches `max_argument_bytes`, so the limit falls on
    /// the same byte whatever the chunking.
    #[inline(never)]
    fn run_machine<S: Sink>(&mut self, chunk: &[u8], base: u64, options: &Options, sink: &mut S) {
        let mut pos = 0;
        while pos < chunk.len() {
            let limit = match self.phase {
                Phase::Block => self.block.limit(options),
                _ => None,
            };
            let Some(limit) = limit else {
                pos = self.step(chunk, pos, base, options, sink);
                continue;
            };
            if limit <= base + pos as u64 {
                self.block
                    .over_limit(&mut self.frame, base + pos as u64, sink);
                self.phase = Phase::Text;
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
            Phase::Text if self.frame.reasoning => self.reasoning(chunk, pos, base, options, sink),
            Phase::Text => self.content(chunk, pos, base, options, sink),
            Phase::Block => {
                match self
                    .block
                    .scan(&mut self.frame, chunk, pos, base, options, sink)
                {
                    BlockEnd::More => chunk.len(),
                    BlockEnd::Slot(end) => end,
                    BlockEnd::Closed(end) | BlockEnd::Text(end) => {
                        self.phase = Phase::Text;
                        self.line.indent = NOT_AT_START;
                        end
                    }
                }
            }
            Phase::FenceLine => self.fence_line(chunk, pos, base, options, sink),
        }
    }

    /// End of stream at offset `end`: nothing is held back any more.
    pub(crate) fn finish<S: Sink>(&mut self, end: u64, sink: &mut S) {
        match self.phase {
            Phase::Text => self.frame.finish_text(end, sink),
            // A fence line cut off by the end of the stream closes the reasoning (docs/seed.md
            // §2.10.1): what follows its backticks is content.
            Phase::FenceLine => self.close(end, sink),
            Phase::Block => self.block.flush_held(&self.frame, end, sink),
        }
        let at = Span::at(end);
        self.frame.finish_drafts(at, sink);
        if self.phase == Phase::Block {
            self.block.end(&mut self.frame, end, sink);
            self.phase = Phase::Text;
        }
        self.frame.finish_reasoning(at, sink);
    }

    fn content<S: Sink>(
        &mut self,
        chunk: &[u8],
        pos: usize,
        base: u64,
        options: &Options,
        sink: &mut S,
    ) -> usize {
        let Some((delimiter, span, end)) =
            self.frame
                .scan_text(self.modes.content, chunk, pos, base, &mut |_, _| {}, sink)
        else {
            return chunk.len();
        };
        self.delimiter(delimiter, span, options, sink);
        end
    }

    fn delimiter<S: Sink>(
        &mut self,
        delimiter: &'static Delimiter,
        span: Span,
        options: &Options,
        sink: &mut S,
    ) {
        match self.frame.text_delimiter(delimiter, span, sink) {
            Some(Role::CallOpen) => self.open_block(span, options, sink),
            // The reasoning opener ends with its line break.
            None if delimiter.role == Role::ReasoningOpen => self.line = Line::new(),
            _ => {}
        }
    }

    fn open_block<S: Sink>(&mut self, span: Span, options: &Options, sink: &mut S) {
        if self.block.open(&mut self.frame, span, options, sink) {
            self.phase = Phase::Block;
        }
    }

    /// Reasoning text, line by line: fences are looked at where a line starts.
    fn reasoning<S: Sink>(
        &mut self,
        chunk: &[u8],
        pos: usize,
        base: u64,
        options: &Options,
        sink: &mut S,
    ) -> usize {
        let Frame {
            delimiters,
            opener_optional,
            ..
        } = &mut self.frame;
        let line = &mut self.line;
        let stop = delimiters.scan(
            self.modes.reasoning,
            chunk,
            pos,
            base,
            &mut |span, bytes| {
                line.observe(bytes);
                if *opener_optional && bytes.iter().any(|b| !b.is_ascii_whitespace()) {
                    *opener_optional = false;
                }
                sink.reasoning(span, bytes);
            },
        );
        let (delimiter, end) = match stop {
            Stop::End => return chunk.len(),
            Stop::Match(delimiter, end) => (delimiter, end),
        };
        let span = Span::new(
            base + end as u64 - delimiter.bytes.len() as u64,
            base + end as u64,
        );
        let at_start = self.line.indent < NOT_AT_START && self.line.fence.is_none();
        self.line.indent = NOT_AT_START;
        if delimiter.role != Role::Fence {
            self.delimiter(delimiter, span, options, sink);
            return end;
        }
        let byte = delimiter.bytes[0];
        if at_start && self.line.nested.is_none() && byte == b'`' {
            self.block.word.clear();
            self.run = 3;
            self.word_seen = false;
            self.phase = Phase::FenceLine;
            return end;
        }
        sink.reasoning(span, delimiter.bytes);
        if at_start {
            self.line.fence = Some(FenceText {
                byte,
                run: 3,
                run_over: false,
                blank: true,
            });
        }
        end
    }

    /// A backtick fence at the start of a top-level reasoning line: held (its run counted,
    /// its info in the word) until the line says whether it closes the reasoning.
    fn fence_line<S: Sink>(
        &mut self,
        chunk: &[u8],
        pos: usize,
        base: u64,
        options: &Options,
        sink: &mut S,
    ) -> usize {
        let at = |i: usize| base + i as u64;
        let mut i = pos;
        while i < chunk.len() {
            let b = chunk[i];
            if b == b'`' && self.block.word.is_empty() {
                self.run = self.run.saturating_add(1);
                i += 1;
                continue;
            }
            if b == b'\n' {
                return self.fence_line_end(i, at(i), options, sink);
            }
            // The info is blanks, at most one word, and blanks.
            let blank = b == b' ' || b == b'\t' || b == b'\r';
            let after_word =
                self.word_seen && self.block.word.last().is_some_and(u8::is_ascii_whitespace);
            let fits = blank || (token_byte(b) && !after_word);
            self.word_seen |= !blank;
            if !fits || self.block.word.try_push(b).is_err() {
                // Prose after the fence: it closes the reasoning and is content.
                self.close(at(i), sink);
                return i;
            }
            i += 1;
        }
        chunk.len()
    }

    /// The fence line's break is at chunk offset `i` (stream offset `at`).
    fn fence_line_end<S: Sink>(
        &mut self,
        i: usize,
        at: u64,
        options: &Options,
        sink: &mut S,
    ) -> usize {
        let run = self.run;
        let start = at - self.block.word.len() as u64 - u64::from(run);
        let info = self.block.word.trim_ascii();
        if info.is_empty() {
            self.close(at, sink);
            return i;
        }
        // The canonical openers only: three backticks, the word right after them.
        let canonical = run == 3 && self.block.word.trim_ascii_end() == info;
        let opener: Option<(&[u8], Role)> = match info {
            b"tool_code" if canonical => Some((b"```tool_code", Role::CallOpen)),
            b"thinking" if canonical && self.frame.opener_optional => {
                Some((b"```thinking", Role::ReasoningOpen))
            }
            _ => None,
        };
        if let Some((bytes, role)) = opener {
            let span = Span::new(start, start + bytes.len() as u64);
            sink.markup(span, Markup::Delimiter(role), bytes);
            let blanks = &self.block.word[bytes.len() - 3..];
            if !blanks.is_empty() {
                sink.markup(Span::new(span.end, at), Markup::Envelope, blanks);
            }
            self.phase = Phase::Text;
            if role == Role::CallOpen {
                self.open_block(span, options, sink);
                return i;
            }
            // The optional opener of a stream that starts in reasoning, with its line break.
            sink.markup(Span::new(at, at + 1), Markup::Envelope, b"\n");
            self.frame.opener_optional = false;
            self.line = Line::new();
            return i + 1;
        }
        if !info.iter().all(|&b| token_byte(b)) {
            self.close(at, sink);
            return i;
        }
        // A language word: a nested code block opens, and the line is reasoning text.
        self.ticks(start, run, None, sink);
        sink.reasoning(
            Span::new(at - self.block.word.len() as u64, at),
            &self.block.word,
        );
        self.frame.opener_optional = false;
        self.line.nested = Some((b'`', run));
        self.phase = Phase::Text;
        i
    }

    /// Reports `run` backticks from `start` as `markup`, or as reasoning when `None`.
    fn ticks<S: Sink>(&self, start: u64, run: u16, markup: Option<Markup>, sink: &mut S) {
        let mut at = start;
        let mut left = usize::from(run);
        while left > 0 {
            let n = left.min(TICKS.len());
            let span = Span::new(at, at + n as u64);
            match markup {
                Some(markup) => sink.markup(span, markup, &TICKS[..n]),
                None => sink.reasoning(span, &TICKS[..n]),
            }
            at += n as u64;
            left -= n;
        }
    }

    /// The held fence line, which ends at stream offset `end`, closes the reasoning: its
    /// backticks and the blanks after them are the closer, the rest of the info is
    /// content.
    fn close<S: Sink>(&mut self, end: u64, sink: &mut S) {
        let run = self.run;
        let start = end - self.block.word.len() as u64 - u64::from(run);
        self.ticks(
            start,
            run,
            Some(Markup::Delimiter(Role::ReasoningClose)),
            sink,
        );
        let blanks = self.block.word.len() - self.block.word.trim_ascii_start().len();
        let mut at = start + u64::from(run);
        if blanks > 0 {
            sink.markup(
                Span::new(at, at + blanks as u64),
                Markup::Envelope,
                &self.block.word[..blanks],
            );
            at += blanks as u64;
        }
        let closer = Span::new(start, at);
        self.frame.close_reasoning(closer, sink);
        if at < end {
            sink.text(Span::new(at, end), &self.block.word[blanks..]);
        }
        self.phase = Phase::Text;
    }
}
