//! Gemini and Gemma 3 (`gemini`): calls are Python in a Markdown fence,
//! ```` ```tool_code ```` + `default_api.NAME(key=VALUE, …)` + ```` ``` ````, reasoning in a
//! ```` ```thinking ```` fence. Formats: docs/seed.md §2.10 and §2.10.1, docs/dialects.md
//! §gemini; rules from docs/dialects.md.
//!
//! A block's statements are read by the shared lexer [`Block`] (`core/lex/call_block/`),
//! which Gemma's Gemma 3 drift uses too.
//!
//! Reasoning closes on a fence line (docs/seed.md §2.10.1): at the top level, a line of up to three
//! spaces and three or more backticks followed by nothing closes it (the line break after
//! it is content), followed by prose closes it too (the prose is content), and followed by
//! a language word opens a nested code block, which a matching fence line closes. A
//! ```` ```tool_code ```` line there opens a call block whose calls are drafts until the
//! reasoning closes (docs/dialects.md rule 7).
//!
//! The same machine reads the other literal dialects from their knobs: a block's closer
//! per opener (`block_closers`: `lfm2`'s `<|tool_call_end|>`, `pythonic`'s wrappers), and
//! a bare list of calls at the output's start (`python_list_at_start`, `pythonic`): a `[`
//! with only blanks before it since the stream's start or a reasoning opener or closer,
//! followed by blanks, a callee and `(`, opens a block that the list's `]` closes; any
//! other byte there makes the held bytes text (docs/dialects.md §pythonic).

use crate::automaton::{Delimiter, Dfa};
use crate::engine::frame::Frame;
use crate::engine::{Family, Sealed, TextModes};
use crate::lex::call_block::{ident_byte, ident_start, Block, Word};
use crate::{Markup, Role, Sink, Span};

/// The scanner modes of the dialect, from its table file.
#[derive(Debug)]
pub(crate) struct Modes {
    /// Content and reasoning.
    pub(crate) text: TextModes,
    /// `python_list_at_start`: a bare list of calls may begin the output.
    pub(crate) list_at_start: bool,
    /// `block_closers`: the closer of the block each opener begins (the Markdown fence
    /// for an opener not listed).
    pub(crate) closers: &'static [(&'static [u8], &'static [u8])],
}
/// Where the Gemini machine is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    /// Content, or reasoning read line by line.
    Text,
    /// Inside a ```` ```tool_code ```` block.
    Block,
    /// Reasoning: a backtick fence at the start of a line, at the top level, held until its
    /// line says what it is.
    FenceLine,
    /// Where a bare list of calls may begin: only blanks since the stream's start or a
    /// reasoning opener or closer (`python_list_at_start`).
    Start,
    /// A `[` there, held in the block's word with what follows it until a `(` makes it a
    /// list of calls.
    Head,
}

/// What the held head of a bare list has reached.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Head {
    /// The `[` and blanks.
    Open,
    /// The callee.
    Callee,
    /// Blanks after the callee.
    After,
}

/// Blanks before a bare list, and between its `[` and its first callee.
fn is_blank(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r' | b'\n')
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
    /// The fence byte (a backtick or a tilde).
    byte: u8,
    /// The fence run so far (bytes).
    run: u16,
    /// The run ended (another byte followed it).
    run_over: bool,
    /// Only blanks followed the run so far.
    blank: bool,
}

/// Where a reasoning line stands, followed over the reasoning text as it is released.
#[derive(Debug, Clone, Copy)]
struct Line {
    /// Spaces since the line began (see `NOT_AT_START`).
    indent: u8,
    /// A fence line being followed to its end, if the line has one.
    fence: Option<FenceText>,
    /// The open nested code block's fence byte and run, if any.
    nested: Option<(u8, u16)>,
}

impl Line {
    /// A line at the start of reasoning, with nothing open.
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
    /// The dialect's DFAs, from its table file.
    modes: &'static Modes,
    /// The phase now (the driver scans text itself).
    phase: Phase,
    /// The ```` ```tool_code ```` block; between blocks its word holds a reasoning fence
    /// line's info.
    block: Block,
    /// The reasoning line being followed (fences count only at its start).
    line: Line,
    /// FenceLine: the backtick run so far, and whether a word followed it.
    run: u16,
    /// FenceLine: a language word began after the run.
    word_seen: bool,
    /// Head: what the held head has reached.
    head: Head,
}

/// Bytes of a fence's language word (docs/seed.md §2.10.1).
fn token_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'_' | b'+' | b'#' | b'-')
}
impl Gemini {
    /// A stream's start, in content (or reasoning, as the frame says).
    pub(crate) fn new(modes: &'static Modes) -> Self {
        Gemini {
            modes,
            phase: if modes.list_at_start {
                Phase::Start
            } else {
                Phase::Text
            },
            block: Block::new(),
            line: Line::new(),
            run: 0,
            word_seen: false,
            head: Head::Open,
        }
    }

    /// A block opener (`opener`, at `span`): the block opens, closed by the closer the
    /// table names for it (the Markdown fence by default), unless a limit refuses its
    /// first call.
    fn open_block<S: Sink>(&mut self, frame: &mut Frame, span: Span, opener: &[u8], sink: &mut S) {
        let closer = self.modes.closers.iter().find(|(o, _)| *o == opener);
        let opened = match closer {
            Some(&(_, closer)) => self.block.open_closed_by(frame, span, closer, sink),
            None => self.block.open(frame, span, sink),
        };
        if opened {
            self.phase = Phase::Block;
        }
    }

    /// Where a bare list may begin: blanks are text; a `[` is held; anything else is text
    /// from here on.
    fn start<S: Sink>(
        &mut self,
        frame: &mut Frame,
        chunk: &[u8],
        pos: usize,
        base: u64,
        sink: &mut S,
    ) -> usize {
        let blanks = chunk[pos..].iter().take_while(|&&b| is_blank(b)).count();
        let i = pos + blanks;
        if blanks > 0 {
            let span = Span::new(base + pos as u64, base + i as u64);
            frame.release(span, &chunk[pos..i], sink);
        }
        match chunk.get(i) {
            None => {}
            Some(b'[') => {
                self.block.word.clear();
                // Cannot fail: the word was just cleared.
                let _ = self.block.word.try_push(b'[');
                self.head = Head::Open;
                self.phase = Phase::Head;
                return i + 1;
            }
            Some(_) => self.phase = Phase::Text,
        }
        i
    }

    /// The held head of a bare list: blanks, a callee, blanks, then `(` opens the block;
    /// any other byte makes the head text.
    fn head<S: Sink>(
        &mut self,
        frame: &mut Frame,
        chunk: &[u8],
        pos: usize,
        base: u64,
        sink: &mut S,
    ) -> usize {
        for (i, &b) in chunk.iter().enumerate().skip(pos) {
            let at = base + i as u64;
            let fits = match self.head {
                Head::Open if is_blank(b) => true,
                Head::Open if ident_start(b) => {
                    self.head = Head::Callee;
                    true
                }
                Head::Callee if ident_byte(b) || b == b'.' => true,
                Head::Callee | Head::After if b == b' ' || b == b'\t' => {
                    self.head = Head::After;
                    true
                }
                Head::Callee | Head::After if b == b'(' => {
                    self.list_opens(frame, at, sink);
                    return i;
                }
                _ => false,
            };
            if !fits || self.block.word.try_push(b).is_err() {
                self.head_is_text(frame, at, sink);
                return i;
            }
        }
        chunk.len()
    }

    /// The held head, which ends at stream offset `at` before a `(`, begins a list of
    /// calls: its `[` opens the block.
    fn list_opens<S: Sink>(&mut self, frame: &mut Frame, at: u64, sink: &mut S) {
        let word: Word = self.block.word.clone();
        let start = at - word.len() as u64;
        let span = Span::new(start, start + 1);
        sink.markup(span, Markup::Delimiter(Role::CallOpen), b"[");
        if self.block.open_list(frame, span, &word[1..], sink) {
            self.phase = Phase::Block;
        } else {
            frame.release(Span::new(span.end, at), &word[1..], sink);
            self.phase = Phase::Text;
        }
    }

    /// The held head, which ends at stream offset `at`, is not a list of calls: it is
    /// text, and so is what follows.
    fn head_is_text<S: Sink>(&mut self, frame: &mut Frame, at: u64, sink: &mut S) {
        let word = &self.block.word;
        frame.release(Span::new(at - word.len() as u64, at), word, sink);
        self.phase = Phase::Text;
    }

    /// A fence delimiter (`delimiter`, at `span`) in reasoning text; `at_start` when it
    /// begins its line (at most three spaces before it, no fence already on the line).
    fn reasoning_fence<S: Sink>(
        &mut self,
        delimiter: &'static Delimiter,
        span: Span,
        at_start: bool,
        sink: &mut S,
    ) {
        let byte = delimiter.bytes[0];
        if at_start && self.line.nested.is_none() && byte == b'`' {
            self.block.word.clear();
            self.run = 3;
            self.word_seen = false;
            self.phase = Phase::FenceLine;
            return;
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
    }

    /// A backtick fence at the start of a top-level reasoning line: held (its run counted,
    /// its info in the word) until the line says whether it closes the reasoning.
    fn fence_line<S: Sink>(
        &mut self,
        frame: &mut Frame,
        chunk: &[u8],
        pos: usize,
        base: u64,
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
                return self.fence_line_end(frame, i, at(i), sink);
            }
            // The info is blanks, at most one word, and blanks.
            let blank = b == b' ' || b == b'\t' || b == b'\r';
            let after_word =
                self.word_seen && self.block.word.last().is_some_and(u8::is_ascii_whitespace);
            let fits = blank || (token_byte(b) && !after_word);
            self.word_seen |= !blank;
            if !fits || self.block.word.try_push(b).is_err() {
                // Prose after the fence: it closes the reasoning and is content.
                self.close(frame, at(i), sink);
                return i;
            }
            i += 1;
        }
        chunk.len()
    }

    /// The fence line's break is at chunk offset `i` (stream offset `at`).
    fn fence_line_end<S: Sink>(
        &mut self,
        frame: &mut Frame,
        i: usize,
        at: u64,
        sink: &mut S,
    ) -> usize {
        let run = self.run;
        let start = at - self.block.word.len() as u64 - u64::from(run);
        let info = self.block.word.trim_ascii();
        if info.is_empty() {
            self.close(frame, at, sink);
            return i;
        }
        // The canonical openers only: three backticks, the word right after them.
        let canonical = run == 3 && self.block.word.trim_ascii_end() == info;
        let opener: Option<(&[u8], Role)> = match info {
            b"tool_code" if canonical => Some((b"```tool_code", Role::CallOpen)),
            b"thinking" if canonical && frame.opener_optional => {
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
                self.open_block(frame, span, bytes, sink);
                return i;
            }
            // The optional opener of a stream that starts in reasoning, with its line break.
            sink.markup(Span::new(at, at + 1), Markup::Envelope, b"\n");
            frame.opener_optional = false;
            self.line = Line::new();
            return i + 1;
        }
        if !info.iter().all(|&b| token_byte(b)) {
            self.close(frame, at, sink);
            return i;
        }
        // A language word: a nested code block opens, and the line is reasoning text.
        self.ticks(start, run, None, sink);
        sink.reasoning(
            Span::new(at - self.block.word.len() as u64, at),
            &self.block.word,
        );
        frame.opener_optional = false;
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
    fn close<S: Sink>(&mut self, frame: &mut Frame, end: u64, sink: &mut S) {
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
        frame.close_reasoning(closer, sink);
        if at < end {
            sink.text(Span::new(at, end), &self.block.word[blanks..]);
        }
        self.phase = Phase::Text;
    }
}

impl Sealed for Gemini {}

impl Family for Gemini {
    #[inline(always)]
    fn text_dfa(&self, frame: &Frame) -> Option<&'static Dfa> {
        (self.phase == Phase::Text).then(|| self.modes.text.dfa(frame))
    }

    /// Reasoning is followed line by line: fences are looked at where a line starts.
    #[inline(always)]
    fn observe_text(&mut self, reasoning: bool, bytes: &[u8]) {
        if reasoning {
            self.line.observe(bytes);
        }
    }

    #[inline(always)]
    fn plain_chunk<S: Sink>(
        &mut self,
        frame: &mut Frame,
        chunk: &[u8],
        span: Span,
        sink: &mut S,
    ) -> bool {
        self.phase == Phase::Block && self.block.plain_chunk(frame, chunk, span, sink)
    }

    /// In reasoning, a fence is the family's to read (its line decides what it is); the
    /// reasoning opener ends with its line break.
    fn text_delimiter<S: Sink>(
        &mut self,
        frame: &mut Frame,
        delimiter: &'static Delimiter,
        span: Span,
        sink: &mut S,
    ) {
        if frame.reasoning {
            let at_start = self.line.indent < NOT_AT_START && self.line.fence.is_none();
            self.line.indent = NOT_AT_START;
            if delimiter.role == Role::Fence {
                self.reasoning_fence(delimiter, span, at_start, sink);
                return;
            }
        }
        match frame.text_delimiter(delimiter, span, sink) {
            Some(Role::CallOpen) => self.open_block(frame, span, delimiter.bytes, sink),
            Some(_) => {}
            None if delimiter.role == Role::ReasoningOpen => self.line = Line::new(),
            None => {}
        }
        let bound = matches!(delimiter.role, Role::ReasoningOpen | Role::ReasoningClose);
        if bound && self.modes.list_at_start && self.phase == Phase::Text {
            // A bare list may begin the reasoning block, or the content after it.
            self.phase = Phase::Start;
        }
    }

    fn text_role<S: Sink>(&mut self, frame: &mut Frame, role: Role, span: Span, sink: &mut S) {
        if role == Role::CallOpen {
            self.open_block(frame, span, b"", sink);
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
            Phase::Block => {
                let scan = self.block.scan(frame, chunk, pos, base, sink);
                let (end, over) = scan.stop(chunk.len());
                if over {
                    self.phase = Phase::Text;
                    self.line.indent = NOT_AT_START;
                }
                end
            }
            Phase::FenceLine => self.fence_line(frame, chunk, pos, base, sink),
            Phase::Start => self.start(frame, chunk, pos, base, sink),
            Phase::Head => self.head(frame, chunk, pos, base, sink),
            Phase::Text => pos,
        }
    }

    /// The budget of a block's open call, from its slot's start.
    #[inline(always)]
    fn budget_end(&self, frame: &Frame) -> Option<u64> {
        match self.phase {
            Phase::Block => self.block.limit(&frame.options),
            _ => None,
        }
    }

    fn over_budget<S: Sink>(&mut self, frame: &mut Frame, at: u64, sink: &mut S) {
        self.block.over_limit(frame, at, sink);
        self.phase = Phase::Text;
    }

    fn finish_phase<S: Sink>(&mut self, frame: &mut Frame, end: u64, sink: &mut S) {
        match self.phase {
            // A fence line cut off by the end of the stream closes the reasoning
            // (docs/seed.md §2.10.1): what follows its backticks is content.
            Phase::FenceLine => self.close(frame, end, sink),
            Phase::Block => self.block.flush_held(frame, end, sink),
            Phase::Head => self.head_is_text(frame, end, sink),
            Phase::Text | Phase::Start => {}
        }
    }

    fn in_call(&self) -> bool {
        self.phase == Phase::Block
    }

    /// An open call is cut off; a block whose calls are all complete lacks its fence.
    fn cut_off<S: Sink>(&mut self, frame: &mut Frame, end: u64, sink: &mut S) {
        self.block.end(frame, end, sink);
    }

    fn to_text(&mut self) {
        self.phase = Phase::Text;
    }
}
