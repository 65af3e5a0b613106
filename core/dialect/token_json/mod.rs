//! The special-token family (`kimi`, `deepseek`, `plamo3`): calls framed by single special tokens.
//! A section opener, then per call: an opener, a header (the tool's name, or the model's
//! call id), a separator, one JSON value of arguments, a closer; then the section closer.
//! `<think>` reasoning.
//!
//! - Kimi K2: `<|tool_calls_section_begin|><|tool_call_begin|>functions.NAME:IDX`
//!   `<|tool_call_argument_begin|>{…}<|tool_call_end|><|tool_calls_section_end|>`; the header
//!   is the call's id (docs/seed.md §2.3, docs/dialects.md §kimi).
//! - DeepSeek V3.1: `<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>NAME<｜tool▁sep｜>{…}`
//!   `<｜tool▁call▁end｜><｜tool▁calls▁end｜>`; V3 and R1 write the header `function`, then the
//!   name on its own line and the JSON in a ```` ```json ```` fence (docs/seed.md §2.7,
//!   docs/dialects.md §deepseek).
//!
//! - DeepSeek V3.2 / V4: the DSML envelope, `<｜DSML｜function_calls>` (V4
//!   `<｜DSML｜tool_calls>`, either with ASCII pipes) around
//!   `<｜DSML｜invoke name="N"><｜DSML｜parameter name="k" string="true|false">v…`: markup,
//!   not special tokens (docs/seed.md §2.7, docs/dialects.md §deepseek). The markup
//!   family's [`ParamCalls`] reads it, embedded here: a `markup_open` delimiter in text
//!   hands it the stream (`Dsml` phase) with this machine's [`Frame`], so call numbering,
//!   drafts in reasoning, limits and holdback are one for every form of one response.
//!
//! One machine reads both dialects; what differs is table data (`tables/dialects/*.toml`)
//! and the small settings in [`Modes`].
//!
//! - PLaMo 3: `<|plamo:begin_tool_requests:plamo|>` + per call
//!   `<|plamo:begin_tool_request:plamo|><|plamo:begin_tool_name:plamo|>NAME`
//!   `<|plamo:end_tool_name:plamo|><|plamo:begin_tool_arguments:plamo|><|plamo:constrain|>json`
//!   `<|plamo:msg|>{…}<|plamo:end_tool_arguments:plamo|><|plamo:end_tool_request:plamo|>` +
//!   `<|plamo:end_tool_requests:plamo|>`, text delimiters (docs/dialects.md §plamo3). Three
//!   table roles read it: the name between `name_open` and `name_close`; a `constrain`
//!   delimiter right after `args_open` as the rest of the arguments opener (72 bytes whole,
//!   over the 64-byte delimiter cap, so written as two delimiters); an `args_close` between
//!   the JSON value and the call closer.
//!
//! Phases: `Text` (content or reasoning) → a section opener → `Section` (whitespace between
//! calls) → a call opener → `Header` → the separator → `Lead` (whitespace, an optional fence)
//! → `Value` (the JSON lexer) → `Tail` (whitespace, a closing fence) → the call closer →
//! `Section` → the section closer → `Text`. A bare call opener in text is a call whose
//! container is the text. Inside a call every special token is a delimiter of the `call`
//! mode: one the call cannot take ends it (complete without its closer, or invalid, or
//! incomplete for a stop token) and is scanned once more where the call stood, so that a
//! header never swallows the next call (docs/seed.md B9). A DSML section opener in text → `Dsml`
//! (the markup machine) → `Text` when it hands the stream back.
//!
//! A call that breaks before its closer (an invalid or over-long name, a limit, arguments
//! that are not JSON) sends its diagnostic at once but goes on through the same phases,
//! its bytes reported as its markup, and ends as invalid at its closer, at a token that
//! ends it, or at the end of the stream: a delimiter inside one of its JSON strings stays
//! argument text (docs/dialects.md rules 2, 4, 5), and its section goes on after it. Text
//! between a complete JSON value and the closer (an extra `}`) is released as text with
//! [`Diagnostic::TrailingText`], and the call waits for its closer.

use arrayvec::ArrayVec;

mod args;
mod header;

use crate::automaton::{Delimiter, Dfa, START};
use crate::engine::budget::Budget;
use crate::engine::frame::{envelope_while, Anchored, Frame};
use crate::engine::{Family, Sealed, TextModes};
use crate::lex::json::JsonValue;
use crate::lex::params::{ParamCalls, Tagset};
use crate::options::MAX_NAME;
use crate::tables::HeaderForm;
use crate::{Diagnostic, Markup, Role, Sink, Span};

/// One dialect of the family: its table modes and its settings.
#[derive(Debug)]
pub(crate) struct Modes {
    /// Content and reasoning.
    pub(crate) text: TextModes,
    /// Between the calls of a section.
    pub(crate) section: &'static Dfa,
    /// Inside a call: its header, and a `<` where its JSON expects structure.
    pub(crate) call: &'static Dfa,
    /// What the header holds.
    pub(crate) header: HeaderForm,
    /// A header that is exactly this word (the tool type) starts DeepSeek V3's form: the
    /// name follows the separator on its own line, then the JSON in a Markdown fence.
    pub(crate) fenced_keyword: Option<&'static [u8]>,
    /// Non-canonical spellings of delimiters in the tables: accepted, with
    /// [`Diagnostic::DelimiterAlias`] (docs/dialects.md rule 13).
    pub(crate) aliases: &'static [&'static [u8]],
    /// The markup tagset that `markup_open` delimiters in text enter (DeepSeek's DSML).
    pub(crate) markup: Option<&'static Tagset>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    /// Content or reasoning, scanned for delimiters.
    Text,
    /// Inside a section, between calls.
    Section,
    /// A call's header, up to the separator (and, in the fenced form, the name's line).
    Header,
    /// After the separator: whitespace and an optional opening fence before the JSON.
    Lead,
    /// The opening fence line.
    Fence,
    /// The JSON value, tracked by the JSON lexer.
    Value,
    /// A `<` where the arguments expect JSON structure: which delimiter, if any.
    ArgsMarkup,
    /// After the JSON value: whitespace and a closing fence, then the call closer.
    Tail,
    /// The embedded markup machine has the stream (a DSML section).
    Dsml,
}

/// Longest call header kept, in bytes: a name of [`MAX_NAME`] bytes plus room for Kimi's
/// `functions.` and `:IDX` around it, or DeepSeek V3's `function` before it. A longer header
/// breaks the call with [`Diagnostic::NameTooLong`]: the rest of it is markup as it comes,
/// up to the separator.
const HEADER_CAP: usize = MAX_NAME + 24;

// Header offsets are kept in a `u8`.
const _: () = assert!(HEADER_CAP <= u8::MAX as usize);

/// Longest opening fence line (backticks, info string such as `json`, newline) accepted.
const FENCE_CAP: u8 = 32;

/// The call being scanned.
#[derive(Debug, Clone)]
struct Call {
    /// The header's bytes, from its first non-whitespace byte; not yet reported. In the
    /// fenced form: the keyword, then (after the separator, which is not stored) the name's
    /// line.
    head: ArrayVec<u8, HEADER_CAP>,
    /// Stream offset of `head[0]`.
    head_start: u64,
    /// Fenced form: the separator after the keyword (its index among the `call` mode's
    /// delimiters), and the keyword's length in `head`.
    fenced: Option<(u8, u8)>,
    /// The arguments' JSON value has begun.
    has_value: bool,
    /// Inside a JSON value: begun and not complete.
    in_value: bool,
    value: JsonValue,
    /// Argument bytes so far.
    budget: Budget,
    /// Bytes of the opening fence line so far; 0 when the arguments are not fenced.
    fence: u8,
    /// The call broke (an invalid or over-long name, a limit, arguments that are not JSON)
    /// and its diagnostic was sent: it ends as invalid at its closer, at a token that
    /// ends it, or at the end of the stream, and its bytes go back to the text together.
    /// Until then they are read as a call's still (a delimiter inside a JSON string is
    /// argument text: docs/dialects.md rules 2, 4, 5) and reported as its markup.
    broken: bool,
    /// The header's bytes are not kept but reported as markup as they come: it was too
    /// long, or a limit refused the call.
    head_dropped: bool,
    /// Text came between the arguments and the closer ([`Diagnostic::TrailingText`]).
    trailing: bool,
    /// Where the header is among its name's tags (`name_open` … `name_close`, PLaMo 3).
    tags: NameTags,
}

/// A header's name tags: a dialect whose `call` mode lists `name_open` and `name_close`
/// writes the name between them, then the arguments opener (PLaMo 3); the tags are table
/// data, so a dialect without them never leaves `Untagged`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum NameTags {
    /// No name opener (yet): the header is read as the dialect's header form.
    Untagged,
    /// After the name opener: the header's bytes are the name.
    Open,
    /// After the name closer: the call has started; only whitespace may come before the
    /// arguments opener.
    Closed,
}

impl Call {
    fn new(head_start: u64) -> Self {
        Call {
            head: ArrayVec::new_const(),
            head_start,
            fenced: None,
            has_value: false,
            in_value: false,
            value: JsonValue::new(),
            budget: Budget::EMPTY,
            fence: 0,
            broken: false,
            head_dropped: false,
            trailing: false,
            tags: NameTags::Untagged,
        }
    }

    /// The fenced form's separator (among `modes.call`'s delimiters), once the keyword has
    /// been read.
    fn separator(&self, modes: &Modes) -> Option<&'static Delimiter> {
        let (sep, _) = self.fenced?;
        modes.call.delimiters.get(usize::from(sep))
    }
}

/// The state of the structure being read beyond the frame: a special-token call's, or the
/// markup machine's. One response may mix both forms, but only one is read at a time, so
/// they share memory (this keeps the scanner within its size budget).
///
/// INVARIANT: the phases `Header` to `Tail` hold `Token` ([`TokenJson::open_call`] puts it
/// there on entering them) and `Dsml` holds `Markup` (its `text_delimiter` puts it there on
/// entering it); each is left for `Text` or `Section` before the other can be entered.
#[derive(Debug, Clone)]
enum CallState {
    Token(Call),
    Markup(ParamCalls),
}

impl CallState {
    /// The special-token call's state, in the phases `Header` to `Tail`.
    #[inline(always)]
    fn token(&mut self) -> &mut Call {
        // By the invariant the first arm always matches; the second keeps this total
        // without a panic path (debug builds and the fuzzer still flag a violation).
        loop {
            match self {
                CallState::Token(call) => return call,
                CallState::Markup(_) => {
                    debug_assert!(false, "a call phase holds a token call");
                    *self = CallState::Token(Call::new(0));
                }
            }
        }
    }
}

/// The phase machine of the special-token family.
#[derive(Debug, Clone)]
pub(crate) struct TokenJson {
    modes: &'static Modes,
    phase: Phase,
    /// Inside a call section: a call ends back in it rather than in text.
    in_section: bool,
    /// The section has just opened: nothing but whitespace since its opener.
    fresh: bool,
    call: CallState,
}

impl TokenJson {
    pub(crate) fn new(modes: &'static Modes) -> Self {
        TokenJson {
            modes,
            phase: Phase::Text,
            in_section: false,
            fresh: false,
            call: CallState::Token(Call::new(0)),
        }
    }

    /// In one of a special-token call's phases (`Header` to `Tail`), before its end.
    #[inline(always)]
    fn in_call_phase(&self) -> bool {
        matches!(
            self.phase,
            Phase::Header | Phase::Lead | Phase::Fence | Phase::Value | Phase::ArgsMarkup
        )
    }

    /// Where a call returns when it ends.
    fn container(&self) -> Phase {
        if self.in_section {
            Phase::Section
        } else {
            Phase::Text
        }
    }

    /// A DSML section: the parameters machine reads it until it hands the stream back; the
    /// bytes it held then are scanned again in text.
    fn dsml<S: Sink>(
        &mut self,
        frame: &mut Frame,
        chunk: &[u8],
        pos: usize,
        base: u64,
        sink: &mut S,
    ) -> usize {
        let CallState::Markup(markup) = &mut self.call else {
            // By the invariant the DSML phase holds the markup machine; without it the
            // section cannot go on.
            debug_assert!(false, "the DSML phase holds the markup machine");
            self.phase = Phase::Text;
            return pos;
        };
        let pos = markup.run(frame, chunk, pos, base, sink);
        if !markup.active() {
            // Bytes it still held are text again: `Frame::replay` has the driver scan them.
            self.phase = Phase::Text;
        }
        pos
    }

    fn note_alias<S: Sink>(&self, delimiter: &Delimiter, span: Span, sink: &mut S) {
        if self.modes.aliases.contains(&delimiter.bytes) {
            sink.diagnostic(span, Diagnostic::DelimiterAlias);
        }
    }

    fn open_call<S: Sink>(&mut self, frame: &mut Frame, span: Span, sink: &mut S) {
        self.fresh = false;
        let admitted = frame.admit_call();
        self.call = CallState::Token(Call::new(span.end));
        self.phase = Phase::Header;
        if let Err(diagnostic) = admitted {
            // A limit refuses the call: it is read to its end all the same, so that what
            // its arguments hold stays theirs, and it ends as invalid there.
            let call = self.call.token();
            call.head_dropped = true;
            self.break_call(frame, span, diagnostic, sink);
        }
    }

    /// The call is broken: it will end as invalid (see [`Call::broken`]); `diagnostic`
    /// says why, unless it was broken already.
    fn break_call<S: Sink>(
        &mut self,
        frame: &mut Frame,
        span: Span,
        diagnostic: Diagnostic,
        sink: &mut S,
    ) {
        let call = self.call.token();
        if !call.broken {
            call.broken = true;
            frame.ensure_started(span, sink);
            sink.diagnostic(span, diagnostic);
        }
    }

    /// Ends the current call as invalid and returns to its container; `diagnostic` says
    /// why, unless the call broke earlier.
    fn invalid<S: Sink>(
        &mut self,
        frame: &mut Frame,
        span: Span,
        diagnostic: Diagnostic,
        sink: &mut S,
    ) {
        if self.call.token().broken {
            frame.end_invalid(span, sink);
        } else {
            frame.invalid(span, diagnostic, sink);
        }
        self.phase = self.container();
    }

    /// A stop token came inside the call: the model's output ended there.
    fn truncate<S: Sink>(&mut self, frame: &mut Frame, span: Span, sink: &mut S) {
        if self.call.token().broken {
            frame.end_invalid(span, sink);
        } else {
            frame.truncate(span, sink);
        }
        self.phase = self.container();
    }

    /// A call whose structure closed: complete now, or a draft until its reasoning decides.
    fn complete<S: Sink>(&mut self, frame: &mut Frame, span: Span, sink: &mut S) {
        self.phase = self.container();
        if self.call.token().broken {
            frame.end_invalid(span, sink);
        } else {
            frame.complete(span, sink);
        }
    }

    fn end_without_closer<S: Sink>(&mut self, frame: &mut Frame, span: Span, sink: &mut S) {
        if !self.call.token().broken {
            sink.diagnostic(span, Diagnostic::MissingCloser);
        }
        self.complete(frame, span, sink);
    }

    /// The section ends without its closer, at stream offset `at`; text follows.
    fn end_section<S: Sink>(&mut self, at: u64, sink: &mut S) {
        sink.diagnostic(Span::at(at), Diagnostic::UnclosedSection);
        self.in_section = false;
        self.phase = Phase::Text;
    }

    /// Between calls: whitespace is markup; then a delimiter, or anything else ends the
    /// section (right after the opener, it is a call whose opener is missing).
    fn section<S: Sink>(
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
            i = envelope_while(chunk, base, i, |b| b.is_ascii_whitespace(), sink);
            if i == chunk.len() {
                return i;
            }
        }
        match frame.anchored(self.modes.section, chunk, i) {
            Anchored::Pending => chunk.len(),
            Anchored::Matched(delimiter, end) => {
                let span = Span::new(at(end) - delimiter.bytes.len() as u64, at(end));
                self.section_delimiter(frame, delimiter, span, base, sink)
            }
            Anchored::Failed(candidate) => {
                // The held bytes end right before `candidate`: the driver scans them again
                // in the phase that now applies.
                let start = at(candidate) - frame.delimiters.hold.len() as u64;
                frame.replay = true;
                if self.fresh {
                    // docs/dialects.md §deepseek: the per-call opener may be missing right after
                    // the section opener.
                    sink.diagnostic(Span::at(start), Diagnostic::MissingCallOpen);
                    self.open_call(frame, Span::at(start), sink);
                } else {
                    self.end_section(start, sink);
                }
                candidate
            }
        }
    }

    /// A delimiter of the `section` mode at `span`, in a chunk whose first byte is at
    /// stream offset `base`; returns the chunk offset where the scan goes on.
    fn section_delimiter<S: Sink>(
        &mut self,
        frame: &mut Frame,
        delimiter: &'static Delimiter,
        span: Span,
        base: u64,
        sink: &mut S,
    ) -> usize {
        self.fresh = false;
        match delimiter.role {
            Role::CallOpen => {
                sink.markup(span, Markup::Delimiter(delimiter.role), delimiter.bytes);
                self.note_alias(delimiter, span, sink);
                self.open_call(frame, span, sink);
            }
            Role::SectionClose => {
                sink.markup(span, Markup::Delimiter(delimiter.role), delimiter.bytes);
                self.note_alias(delimiter, span, sink);
                self.in_section = false;
                self.phase = Phase::Text;
            }
            Role::ReasoningClose => {
                // The reasoning the section was in closes (its calls are drafts, rule 7),
                // or in content the text decides what the tag is.
                self.end_section(span.start, sink);
                return hand_back(frame, delimiter, span, base);
            }
            _ => {
                if frame.text_delimiter(delimiter, span, sink).is_some() {
                    sink.diagnostic(span, Diagnostic::StrayToken);
                }
            }
        }
        chunk_offset(span.end, base)
    }
}

impl Sealed for TokenJson {}

impl Family for TokenJson {
    #[inline(always)]
    fn text_dfa(&self, frame: &Frame) -> Option<&'static Dfa> {
        (self.phase == Phase::Text).then(|| self.modes.text.dfa(frame))
    }

    #[inline(always)]
    fn plain_chunk<S: Sink>(
        &mut self,
        frame: &mut Frame,
        chunk: &[u8],
        span: Span,
        sink: &mut S,
    ) -> bool {
        match self.phase {
            Phase::Dsml => match &mut self.call {
                CallState::Markup(markup) => {
                    markup.take_plain_value(frame, chunk, span.start, sink)
                }
                CallState::Token(_) => false,
            },
            Phase::Value if chunk.len() <= 64 => {
                let call = self.call.token();
                if call.broken {
                    let plain = call.value.take_inside_string(chunk);
                    if plain {
                        sink.markup(span, Markup::Envelope, chunk);
                    }
                    plain
                } else {
                    let (value, budget) = (&mut call.value, &mut call.budget);
                    frame.plain_args(value, budget, chunk, span, sink)
                }
            }
            _ => false,
        }
    }

    /// A DSML section opener hands the stream to the markup machine unreported: it reports
    /// the opener once what follows confirms it, or releases it as text (rule 4).
    #[inline]
    fn text_delimiter<S: Sink>(
        &mut self,
        frame: &mut Frame,
        delimiter: &'static Delimiter,
        span: Span,
        sink: &mut S,
    ) {
        if let (Role::MarkupOpen, Some(tagset)) = (delimiter.role, self.modes.markup) {
            let mut markup = ParamCalls::new(tagset);
            markup.enter(tagset, delimiter, span);
            self.call = CallState::Markup(markup);
            self.phase = Phase::Dsml;
            return;
        }
        if let Some(role) = frame.text_delimiter(delimiter, span, sink) {
            if matches!(role, Role::SectionOpen | Role::CallOpen) {
                self.note_alias(delimiter, span, sink);
            }
            self.text_role(frame, role, span, sink);
        }
    }

    fn text_role<S: Sink>(&mut self, frame: &mut Frame, role: Role, span: Span, sink: &mut S) {
        match role {
            Role::SectionOpen => {
                self.in_section = true;
                self.fresh = true;
                self.phase = Phase::Section;
            }
            Role::CallOpen => {
                // docs/dialects.md §kimi, §deepseek: a call without its section.
                sink.diagnostic(span, Diagnostic::MissingSection);
                self.open_call(frame, span, sink);
            }
            _ => sink.diagnostic(span, Diagnostic::StrayToken),
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
            Phase::Section => self.section(frame, chunk, pos, base, sink),
            Phase::Header => self.header(frame, chunk, pos, base, sink),
            Phase::Lead => self.lead(chunk, pos, base, sink),
            Phase::Fence => self.fence(frame, chunk, pos, base, sink),
            Phase::Value => self.value(frame, chunk, pos, base, sink),
            Phase::ArgsMarkup => self.args_markup(frame, chunk, pos, base, sink),
            Phase::Tail => self.tail(frame, chunk, pos, base, sink),
            Phase::Dsml => self.dsml(frame, chunk, pos, base, sink),
            Phase::Text => pos,
        }
    }

    fn finish_phase<S: Sink>(&mut self, frame: &mut Frame, end: u64, sink: &mut S) {
        let at = Span::at(end);
        match self.phase {
            Phase::Dsml => {
                // The markup machine ends its own structure (its drafts, an incomplete
                // call, an unclosed section).
                if let CallState::Markup(markup) = &mut self.call {
                    markup.finish(frame, end, sink);
                }
            }
            // A delimiter cut off inside the section: the section's own bytes; inside the
            // call: the call's.
            Phase::Section | Phase::ArgsMarkup => frame.held_as_markup(end, sink),
            Phase::Header => {
                frame.ensure_started(at, sink);
                self.report_head(sink);
                frame.held_as_markup(end, sink);
            }
            Phase::Tail => {
                // The stream (or the model's stop token) ate the closer: complete (rule 3).
                frame.held_as_markup(end, sink);
                self.end_without_closer(frame, at, sink);
            }
            Phase::Lead | Phase::Fence | Phase::Value | Phase::Text => {}
        }
    }

    /// A call or a section is open: both are cut off at the end of the stream.
    fn in_call(&self) -> bool {
        self.in_call_phase() || self.in_section
    }

    /// The open call (a broken one ends as invalid), then the open section.
    fn cut_off<S: Sink>(&mut self, frame: &mut Frame, end: u64, sink: &mut S) {
        let at = Span::at(end);
        if self.in_call_phase() {
            if self.call.token().broken {
                frame.end_invalid(at, sink);
            } else {
                frame.cut_off(at, sink);
            }
            self.phase = self.container();
        }
        if self.in_section {
            self.in_section = false;
            sink.diagnostic(at, Diagnostic::UnclosedSection);
        }
    }

    fn to_text(&mut self) {
        self.phase = Phase::Text;
    }
}

/// Gives `delimiter`, found at `span` by a phase that ended without taking it, back to be
/// scanned again in the phase that now applies (a header never swallows the next call:
/// docs/seed.md B9); `base` is the stream offset of the chunk's first byte. Returns the
/// chunk offset where the scan goes on: the delimiter's first byte, or the chunk's start
/// when it began in an earlier chunk; those earlier bytes (shorter than the delimiter, so
/// they fit) go back to the frame's hold for the driver to replay first.
fn hand_back(frame: &mut Frame, delimiter: &'static Delimiter, span: Span, base: u64) -> usize {
    match span.start.checked_sub(base) {
        Some(_) => chunk_offset(span.start, base),
        None => {
            let earlier = usize::try_from(base - span.start).unwrap_or(usize::MAX);
            let scan = &mut frame.delimiters;
            scan.hold.clear();
            let kept = scan
                .hold
                .try_extend_from_slice(&delimiter.bytes[..earlier.min(delimiter.bytes.len())]);
            debug_assert!(kept.is_ok(), "holdback overflow");
            frame.replay = true;
            0
        }
    }
}

/// The chunk offset of stream offset `at`, in a chunk whose first byte is at `base`
/// (`at` is in the chunk or at its end).
#[inline(always)]
fn chunk_offset(at: u64, base: u64) -> usize {
    usize::try_from(at - base).unwrap_or(usize::MAX)
}

/// A byte that makes a Markdown code fence (backtick or tilde).
#[inline(always)]
fn is_fence(b: u8) -> bool {
    b == b'`' || b == b'~'
}
