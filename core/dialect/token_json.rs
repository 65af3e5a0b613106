//! The special-token family (`kimi`, `deepseek`): calls framed by single special tokens.
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
//!   family's [`MarkupCalls`] reads it, embedded here: a `markup_open` delimiter in text
//!   hands it the stream (`Dsml` phase) with this machine's [`Frame`], so call numbering,
//!   drafts in reasoning, limits and holdback are one for every form of one response.
//!
//! One machine reads both dialects; what differs is table data (`tables/dialects/*.toml`)
//! and the small settings in [`Modes`].
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

use super::markup::{MarkupCalls, Tagset};
use crate::automaton::{Delimiter, Dfa, START};
use crate::engine::frame::{envelope, envelope_while, Anchored, Frame};
use crate::lex::json::{is_json_ws, JsonValue, Step};
use crate::options::{Options, MAX_NAME};
use crate::scan::Stop;
use crate::tables::{HeaderForm, MAX_DELIMITER_LEN};
use crate::{Diagnostic, Markup, Role, Sink, Span};

/// One dialect of the family: its table modes and its settings.
#[derive(Debug)]
pub(crate) struct Modes {
    /// Visible text.
    pub(crate) content: &'static Dfa,
    /// Inside a reasoning block.
    pub(crate) reasoning: &'static Dfa,
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
    arg_bytes: u64,
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
            arg_bytes: 0,
            fence: 0,
            broken: false,
            head_dropped: false,
            trailing: false,
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
/// there on entering them) and `Dsml` holds `Markup` ([`TokenJson::text`] puts it there on
/// entering it); each is left for `Text` or `Section` before the other can be entered.
#[derive(Debug, Clone)]
enum CallState {
    Token(Call),
    Markup(MarkupCalls),
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
    frame: Frame,
    /// Inside a call section: a call ends back in it rather than in text.
    in_section: bool,
    /// The section has just opened: nothing but whitespace since its opener.
    fresh: bool,
    call: CallState,
}

impl TokenJson {
    pub(crate) fn new(modes: &'static Modes, options: &Options) -> Self {
        TokenJson {
            modes,
            phase: Phase::Text,
            frame: Frame::new(options),
            in_section: false,
            fresh: false,
            call: CallState::Token(Call::new(0)),
        }
    }

    fn text_dfa(&self) -> &'static Dfa {
        if self.frame.reasoning {
            self.modes.reasoning
        } else {
            self.modes.content
        }
    }

    /// Where a call returns when it ends.
    fn container(&self) -> Phase {
        if self.in_section {
            Phase::Section
        } else {
            Phase::Text
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
        match self.phase {
            Phase::Text if self.frame.plain_text(self.text_dfa(), chunk) => {
                self.frame.release(span, chunk, sink);
                return;
            }
            Phase::Dsml => {
                if let CallState::Markup(markup) = &mut self.call {
                    if markup.take_plain_value(&self.frame, chunk, base, options, sink) {
                        return;
                    }
                }
            }
            Phase::Value if chunk.len() <= 64 => {
                let call = self.call.token();
                if call.broken {
                    if call.value.take_inside_string(chunk) {
                        sink.markup(span, Markup::Envelope, chunk);
                        return;
                    }
                } else {
                    let (value, arg_bytes) = (&mut call.value, &mut call.arg_bytes);
                    if self
                        .frame
                        .plain_args(value, arg_bytes, chunk, span, options, sink)
                    {
                        return;
                    }
                }
            }
            _ => {}
        }
        self.run_machine(chunk, base, options, sink);
    }

    /// The general machine: phase after phase until the chunk is used up.
    #[inline(never)]
    fn run_machine<S: Sink>(&mut self, chunk: &[u8], base: u64, options: &Options, sink: &mut S) {
        let mut pos = 0;
        while pos < chunk.len() {
            pos = match self.phase {
                Phase::Text => self.text(chunk, pos, base, options, sink),
                Phase::Section => self.section(chunk, pos, base, options, sink),
                Phase::Header => self.header(chunk, pos, base, options, sink),
                Phase::Lead => self.lead(chunk, pos, base, sink),
                Phase::Fence => self.fence(chunk, pos, base, sink),
                Phase::Value => self.value(chunk, pos, base, options, sink),
                Phase::ArgsMarkup => self.args_markup(chunk, pos, base, options, sink),
                Phase::Tail => self.tail(chunk, pos, base, options, sink),
                Phase::Dsml => self.dsml(chunk, pos, base, options, sink),
            };
        }
    }

    /// A DSML section: the markup machine reads it until it hands the stream back; the
    /// bytes it held then are scanned again in text.
    fn dsml<S: Sink>(
        &mut self,
        chunk: &[u8],
        pos: usize,
        base: u64,
        options: &Options,
        sink: &mut S,
    ) -> usize {
        let CallState::Markup(markup) = &mut self.call else {
            // By the invariant the DSML phase holds the markup machine; without it the
            // section cannot go on.
            debug_assert!(false, "the DSML phase holds the markup machine");
            self.phase = Phase::Text;
            return pos;
        };
        let pos = markup.run(&mut self.frame, chunk, pos, base, options, sink);
        // The held bytes wait in the frame's hold: take them before anything else scans.
        let replay = markup.take_replay(&mut self.frame, base + pos as u64);
        if markup.active() {
            return pos;
        }
        self.phase = Phase::Text;
        if let Some((held, start)) = replay {
            self.refeed(&held, start, options, sink);
        }
        pos
    }

    /// End of stream at offset `end`: nothing is held back any more.
    pub(crate) fn finish<S: Sink>(&mut self, end: u64, options: &Options, sink: &mut S) {
        let at = Span::at(end);
        let open = match self.phase {
            Phase::Dsml => {
                // The markup machine ends its own structure (its drafts, an incomplete
                // call, an unclosed section).
                if let CallState::Markup(markup) = &mut self.call {
                    markup.finish(&mut self.frame, end, options, sink);
                }
                false
            }
            Phase::Text => {
                self.frame.finish_text(end, sink);
                false
            }
            Phase::Section => {
                // A delimiter cut off inside the section: the section's own bytes.
                self.frame.held_as_markup(end, sink);
                false
            }
            Phase::Header => {
                self.frame.ensure_started(at, sink);
                self.report_head(sink);
                self.frame.held_as_markup(end, sink);
                true
            }
            Phase::Lead | Phase::Fence | Phase::Value => true,
            Phase::ArgsMarkup => {
                self.frame.held_as_markup(end, sink);
                true
            }
            Phase::Tail => {
                // The stream (or the model's stop token) ate the closer: complete (rule 3).
                self.frame.held_as_markup(end, sink);
                self.end_without_closer(at, sink);
                false
            }
        };
        self.frame.finish_drafts(at, sink);
        if open {
            if self.call.token().broken {
                self.frame.end_invalid(at, sink);
            } else {
                self.frame.cut_off(at, sink);
            }
            self.phase = self.container();
        }
        if self.in_section {
            self.in_section = false;
            sink.diagnostic(at, Diagnostic::UnclosedSection);
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
                if let (Role::MarkupOpen, Some(tagset)) = (delimiter.role, self.modes.markup) {
                    // Not reported here: the markup machine reports the opener once what
                    // follows confirms it, or releases it as text (rule 4).
                    let mut markup = MarkupCalls::new(tagset);
                    markup.enter(tagset, delimiter, span);
                    self.call = CallState::Markup(markup);
                    self.phase = Phase::Dsml;
                    return end;
                }
                match self.frame.text_delimiter(delimiter, span, sink) {
                    None => {}
                    Some(Role::SectionOpen) => {
                        self.note_alias(delimiter, span, sink);
                        self.in_section = true;
                        self.fresh = true;
                        self.phase = Phase::Section;
                    }
                    Some(Role::CallOpen) => {
                        // docs/dialects.md §kimi, §deepseek: a call without its section.
                        self.note_alias(delimiter, span, sink);
                        sink.diagnostic(span, Diagnostic::MissingSection);
                        self.open_call(span, options, sink);
                    }
                    Some(_) => sink.diagnostic(span, Diagnostic::StrayToken),
                }
                end
            }
        }
    }

    fn note_alias<S: Sink>(&self, delimiter: &Delimiter, span: Span, sink: &mut S) {
        if self.modes.aliases.contains(&delimiter.bytes) {
            sink.diagnostic(span, Diagnostic::DelimiterAlias);
        }
    }

    fn open_call<S: Sink>(&mut self, span: Span, options: &Options, sink: &mut S) {
        self.fresh = false;
        let admitted = self.frame.admit_call(options);
        self.call = CallState::Token(Call::new(span.end));
        self.phase = Phase::Header;
        if let Err(diagnostic) = admitted {
            // A limit refuses the call: it is read to its end all the same, so that what
            // its arguments hold stays theirs, and it ends as invalid there.
            let call = self.call.token();
            call.head_dropped = true;
            self.break_call(span, diagnostic, sink);
        }
    }

    /// The call is broken: it will end as invalid (see [`Call::broken`]); `diagnostic`
    /// says why, unless it was broken already.
    fn break_call<S: Sink>(&mut self, span: Span, diagnostic: Diagnostic, sink: &mut S) {
        let call = self.call.token();
        if !call.broken {
            call.broken = true;
            self.frame.ensure_started(span, sink);
            sink.diagnostic(span, diagnostic);
        }
    }

    /// Ends the current call as invalid and returns to its container; `diagnostic` says
    /// why, unless the call broke earlier.
    fn invalid<S: Sink>(&mut self, span: Span, diagnostic: Diagnostic, sink: &mut S) {
        if self.call.token().broken {
            self.frame.end_invalid(span, sink);
        } else {
            self.frame.invalid(span, diagnostic, sink);
        }
        self.phase = self.container();
    }

    /// A stop token came inside the call: the model's output ended there.
    fn truncate<S: Sink>(&mut self, span: Span, sink: &mut S) {
        if self.call.token().broken {
            self.frame.end_invalid(span, sink);
        } else {
            self.frame.truncate(span, sink);
        }
        self.phase = self.container();
    }

    /// A call whose structure closed: complete now, or a draft until its reasoning decides.
    fn complete<S: Sink>(&mut self, span: Span, sink: &mut S) {
        self.phase = self.container();
        if self.call.token().broken {
            self.frame.end_invalid(span, sink);
        } else {
            self.frame.complete(span, sink);
        }
    }

    fn end_without_closer<S: Sink>(&mut self, span: Span, sink: &mut S) {
        if !self.call.token().broken {
            sink.diagnostic(span, Diagnostic::MissingCloser);
        }
        self.complete(span, sink);
    }

    /// The section ends without its closer, at stream offset `at`; text follows.
    fn end_section<S: Sink>(&mut self, at: u64, sink: &mut S) {
        sink.diagnostic(Span::at(at), Diagnostic::UnclosedSection);
        self.in_section = false;
        self.phase = Phase::Text;
    }

    /// Scans bytes again in the phase that now applies: held bytes of a failed candidate,
    /// a delimiter the ended phase could not take, what the markup machine held when it
    /// handed the stream back, the rest of a header that outgrew its buffer, or what
    /// followed a broken call's `<` that began no delimiter (at most one delimiter's length,
    /// once per structure that ends, per header, or per such `<`; in the last case without
    /// a `<`, so no delimiter can form and the call goes on). `Text` never hands bytes back,
    /// and such bytes cannot hold the whole DSML opener `Text` would need to enter `Dsml`,
    /// so this nests at most four deep: header, call, section, text.
    fn refeed<S: Sink>(&mut self, bytes: &[u8], start: u64, options: &Options, sink: &mut S) {
        if !bytes.is_empty() {
            self.run(bytes, start, options, sink);
        }
    }

    /// Between calls: whitespace is markup; then a delimiter, or anything else ends the
    /// section (right after the opener, it is a call whose opener is missing).
    fn section<S: Sink>(
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
            i = envelope_while(chunk, base, i, |b| b.is_ascii_whitespace(), sink);
            if i == chunk.len() {
                return i;
            }
        }
        match self.frame.anchored(self.modes.section, chunk, i) {
            Anchored::Pending => chunk.len(),
            Anchored::Matched(delimiter, end) => {
                let span = Span::new(at(end) - delimiter.bytes.len() as u64, at(end));
                self.section_delimiter(delimiter, span, options, sink);
                end
            }
            Anchored::Failed(candidate) => {
                let held = self.frame.delimiters.take();
                let start = at(candidate) - held.len() as u64;
                if self.fresh {
                    // docs/dialects.md §deepseek: the per-call opener may be missing right after
                    // the section opener.
                    sink.diagnostic(Span::at(start), Diagnostic::MissingCallOpen);
                    self.open_call(Span::at(start), options, sink);
                } else {
                    self.end_section(start, sink);
                }
                self.refeed(&held, start, options, sink);
                candidate
            }
        }
    }

    fn section_delimiter<S: Sink>(
        &mut self,
        delimiter: &'static Delimiter,
        span: Span,
        options: &Options,
        sink: &mut S,
    ) {
        self.fresh = false;
        match delimiter.role {
            Role::CallOpen => {
                sink.markup(span, Markup::Delimiter(delimiter.role), delimiter.bytes);
                self.note_alias(delimiter, span, sink);
                self.open_call(span, options, sink);
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
                self.refeed(delimiter.bytes, span.start, options, sink);
            }
            _ => {
                if self.frame.text_delimiter(delimiter, span, sink).is_some() {
                    sink.diagnostic(span, Diagnostic::StrayToken);
                }
            }
        }
    }

    /// The header: its bytes are kept (bounded) until the separator or the name's line end
    /// decides them; a delimiter candidate's bytes wait in the frame's hold meanwhile.
    fn header<S: Sink>(
        &mut self,
        chunk: &[u8],
        pos: usize,
        base: u64,
        options: &Options,
        sink: &mut S,
    ) -> usize {
        if self.call.token().head_dropped {
            return self.dropped_header(chunk, pos, base, options, sink);
        }
        let at = |i: usize| base + i as u64;
        let dfa = self.modes.call;
        let mut i = pos;
        while i < chunk.len() {
            let b = chunk[i];
            let call = self.call.token();
            let scan = &mut self.frame.delimiters;
            if scan.hold.is_empty() {
                if call.head.is_empty() {
                    if b.is_ascii_whitespace() {
                        // Leading whitespace is trimmed anyway: markup at once, never kept.
                        i = envelope_while(chunk, base, i, |b| b.is_ascii_whitespace(), sink);
                        continue;
                    }
                    call.head_start = at(i);
                }
                if matches!(b, b'{' | b'"')
                    && call.fenced.is_some()
                    && trim(&call.head[name_from(call)..]).1.is_empty()
                {
                    // JSON right after the keyword's separator: no name line, so the
                    // keyword was the V3.1 form's name (a tool called `function`).
                    self.keyword_is_the_name(sink);
                    return i;
                }
                if call.fenced.is_none() && !dfa.starts[usize::from(b)] {
                    let n = take_plain(call, dfa, &chunk[i..]);
                    if n > 0 {
                        i += n;
                        continue;
                    }
                }
            }
            let state = dfa.next(scan.state, b);
            i += 1;
            if let Some(delimiter) = dfa.matched(state) {
                scan.state = START;
                scan.hold.clear();
                let span = Span::new(at(i) - delimiter.bytes.len() as u64, at(i));
                self.header_delimiter(delimiter, span, options, sink);
                return i;
            }
            let depth = dfa.depth(state);
            if depth == scan.hold.len() + 1 {
                // The candidate only grows: nothing leaves the hold, and the byte joins it.
                // Cannot overflow: the hold is a proper prefix of a delimiter.
                let _ = scan.hold.try_push(b);
                scan.state = state;
                continue;
            }
            // Bytes that can no longer begin a delimiter leave the hold for the head.
            let leaving = scan.hold.len() + 1 - depth;
            let from_hold = leaving.min(scan.hold.len());
            let name_line_end = depth == 0 && ends_name_line(call, &scan.hold, b);
            let kept = usize::from(leaving > from_hold && !name_line_end);
            if call.head.len() + from_hold + kept > HEADER_CAP {
                self.header_too_long(b, at(i), options, sink);
                return i;
            }
            if from_hold > 0 {
                // Cannot overflow: checked just above.
                let _ = call.head.try_extend_from_slice(&scan.hold[..from_hold]);
                scan.hold.drain(..from_hold);
            }
            if name_line_end {
                scan.state = START;
                if b != b'\n' {
                    // The opening fence: the arguments' business.
                    i -= 1;
                }
                let newline = (b == b'\n').then(|| Span::new(at(i) - 1, at(i)));
                self.name_line_done(newline, sink);
                return i;
            }
            if kept == 1 {
                let _ = call.head.try_push(b);
            } else {
                // Cannot overflow: the hold is a proper prefix of a delimiter.
                let _ = scan.hold.try_push(b);
            }
            scan.state = state;
        }
        chunk.len()
    }

    /// The header byte `b`, ending at stream offset `end`, makes the header too long to be
    /// one: the call is broken, and the rest of the header is markup as it comes. What was
    /// held is scanned again that way.
    fn header_too_long<S: Sink>(&mut self, b: u8, end: u64, options: &Options, sink: &mut S) {
        let scan = &mut self.frame.delimiters;
        // Cannot overflow: the hold is shorter than the longest delimiter.
        let mut rest: ArrayVec<u8, MAX_DELIMITER_LEN> = ArrayVec::new();
        let _ = rest.try_extend_from_slice(&scan.hold);
        let _ = rest.try_push(b);
        let start = end - rest.len() as u64;
        scan.hold.clear();
        scan.state = START;
        self.frame.ensure_started(Span::at(start), sink);
        self.report_head(sink);
        self.call.token().head_dropped = true;
        self.break_call(Span::at(start), Diagnostic::NameTooLong, sink);
        self.refeed(&rest, start, options, sink);
    }

    /// The rest of a header that is not kept (too long, or a refused call's): markup as it
    /// comes, up to the delimiter that ends it or, in the fenced form, the end of its name's
    /// line.
    fn dropped_header<S: Sink>(
        &mut self,
        chunk: &[u8],
        pos: usize,
        base: u64,
        options: &Options,
        sink: &mut S,
    ) -> usize {
        let at = |i: usize| base + i as u64;
        // No delimiter holds a newline or a fence byte: the line's end is found first.
        let line_end = match self.call.token().fenced {
            Some(_) => chunk[pos..]
                .iter()
                .position(|&b| b == b'\n' || is_fence(b))
                .map(|k| pos + k),
            None => None,
        };
        let limit = line_end.unwrap_or(chunk.len());
        let stop = self.frame.delimiters.scan(
            self.modes.call,
            &chunk[..limit],
            pos,
            base,
            &mut |span, bytes| sink.markup(span, Markup::Envelope, bytes),
        );
        if let Stop::Match(delimiter, end) = stop {
            let span = Span::new(at(end) - delimiter.bytes.len() as u64, at(end));
            self.header_delimiter(delimiter, span, options, sink);
            return end;
        }
        let Some(k) = line_end else {
            return chunk.len();
        };
        // A delimiter's beginning cut short by the line's end: the header's bytes.
        let held = self.frame.delimiters.take();
        if !held.is_empty() {
            let span = Span::new(at(k) - held.len() as u64, at(k));
            sink.markup(span, Markup::Envelope, &held);
        }
        self.phase = Phase::Lead;
        if chunk[k] == b'\n' {
            sink.markup(Span::new(at(k), at(k + 1)), Markup::Envelope, b"\n");
            k + 1
        } else {
            k
        }
    }

    /// A delimiter ended the header (or the fenced form's name line).
    fn header_delimiter<S: Sink>(
        &mut self,
        delimiter: &'static Delimiter,
        span: Span,
        options: &Options,
        sink: &mut S,
    ) {
        let call = self.call.token();
        let fenced = call.fenced.is_some();
        match delimiter.role {
            Role::ArgsOpen if call.head_dropped && !fenced => {
                // A header not kept: the call is broken; its arguments are read all the same.
                sink.markup(span, Markup::Delimiter(delimiter.role), delimiter.bytes);
                self.phase = Phase::Lead;
            }
            Role::ArgsOpen if !fenced => {
                let keyword = self.modes.fenced_keyword;
                if keyword.is_some_and(|keyword| trim(&call.head).1 == keyword) {
                    // DeepSeek V3 / R1: `function<｜tool▁sep｜>NAME\n```json …`. A mode has
                    // at most 256 delimiters, so the index fits.
                    let delimiters = self.modes.call.delimiters;
                    if let Some(sep) = delimiters.iter().position(|d| d == delimiter) {
                        call.fenced = Some((sep as u8, call.head.len() as u8));
                        return;
                    }
                }
                let started = self.start_call(sink);
                if started.is_err() {
                    self.frame.ensure_started(span, sink);
                }
                self.report_head(sink);
                sink.markup(span, Markup::Delimiter(delimiter.role), delimiter.bytes);
                if let Err(diagnostic) = started {
                    // Not a call, but its arguments are read as arguments all the same:
                    // what their strings hold stays theirs.
                    self.break_call(span, diagnostic, sink);
                }
                self.phase = Phase::Lead;
            }
            Role::ArgsOpen => {
                // A second separator on the fenced form's name line: not a call of either
                // form, but what follows is read as its arguments all the same.
                self.frame.ensure_started(span, sink);
                self.report_head(sink);
                sink.markup(span, Markup::Delimiter(delimiter.role), delimiter.bytes);
                self.break_call(span, Diagnostic::MalformedCall, sink);
                self.phase = Phase::Lead;
            }
            Role::CallClose => {
                // The call closed before its arguments began: its own closer.
                self.frame.ensure_started(span, sink);
                self.report_head(sink);
                sink.markup(span, Markup::Delimiter(delimiter.role), delimiter.bytes);
                self.invalid(span, Self::broken_header(fenced), sink);
            }
            Role::Stop => {
                self.frame.ensure_started(span, sink);
                self.report_head(sink);
                self.truncate(Span::at(span.start), sink);
                self.refeed(delimiter.bytes, span.start, options, sink);
            }
            _ => {
                self.frame.ensure_started(span, sink);
                self.report_head(sink);
                self.invalid(Span::at(span.start), Self::broken_header(fenced), sink);
                self.refeed(delimiter.bytes, span.start, options, sink);
            }
        }
    }

    fn broken_header(fenced: bool) -> Diagnostic {
        if fenced {
            Diagnostic::MalformedCall
        } else {
            Diagnostic::MissingArgsOpen
        }
    }

    /// The fenced form's name line ended (at `newline`, or before a fence).
    fn name_line_done<S: Sink>(&mut self, newline: Option<Span>, sink: &mut S) {
        let started = self.start_call(sink);
        let at = newline.unwrap_or(Span::at(self.call.token().head_start));
        if started.is_err() {
            self.frame.ensure_started(at, sink);
        }
        self.report_head(sink);
        if let Some(span) = newline {
            sink.markup(span, Markup::Envelope, b"\n");
        }
        if let Err(diagnostic) = started {
            self.break_call(at, diagnostic, sink);
        }
        self.phase = Phase::Lead;
    }

    /// The keyword's separator came, then JSON where the name's line was due: the call is
    /// in the V3.1 form and the keyword is its name.
    fn keyword_is_the_name<S: Sink>(&mut self, sink: &mut S) {
        let call = self.call.token();
        let keyword = name_from(call);
        let (lead, name) = trim(&call.head[..keyword]);
        let start = call.head_start + lead as u64;
        let span = Span::new(start, start + name.len() as u64);
        if valid_name(name) {
            self.frame.name(span, name, sink);
        } else {
            // Cannot happen with a keyword that is a name; kept total.
            self.frame.ensure_started(span, sink);
            self.break_call(span, Diagnostic::InvalidName, sink);
        }
        // The keyword, the separator and the whitespace after it, in stream order.
        self.report_head(sink);
        self.call.token().fenced = None;
        self.phase = Phase::Lead;
    }

    /// Checks the header's name (and id) and starts the call; says why not when it cannot.
    fn start_call<S: Sink>(&mut self, sink: &mut S) -> Result<(), Diagnostic> {
        let modes = self.modes;
        let call = self.call.token();
        let from = name_from(call);
        let (lead, header) = trim(&call.head[from..]);
        // Stream offset of `header[0]`.
        let header_start = call.head_start
            + (from + lead) as u64
            + call
                .separator(modes)
                .map_or(0, |sep| sep.bytes.len() as u64);
        let (name, name_offset) = match self.modes.header {
            HeaderForm::Name => (header, 0),
            HeaderForm::CallId => {
                let offset = if header.starts_with(b"functions.") {
                    b"functions.".len()
                } else {
                    0
                };
                let rest = &header[offset..];
                let end = rest.iter().rposition(|&b| b == b':').unwrap_or(rest.len());
                (&rest[..end], offset)
            }
        };
        // `name` is part of `header`, cut at ASCII bytes: valid when `header` is, unless empty.
        if !valid_name(header) || name.is_empty() {
            return Err(Diagnostic::InvalidName);
        }
        let name_start = header_start + name_offset as u64;
        let index = self.frame.call.index;
        self.frame.name(
            Span::new(name_start, name_start + name.len() as u64),
            name,
            sink,
        );
        if self.modes.header == HeaderForm::CallId {
            let span = Span::new(header_start, header_start + header.len() as u64);
            sink.tool_id(span, index, header);
        }
        Ok(())
    }

    /// Reports the kept header bytes as the call's markup (once: a header not kept any
    /// more was reported when it stopped being kept).
    fn report_head<S: Sink>(&mut self, sink: &mut S) {
        let modes = self.modes;
        let call = self.call.token();
        if call.head_dropped {
            return;
        }
        let head = &call.head[..];
        let start = call.head_start;
        let keyword = name_from(call);
        let (sep, rest) = (call.separator(modes), &head[keyword..]);
        if keyword > 0 {
            let span = Span::new(start, start + keyword as u64);
            sink.markup(span, Markup::Envelope, &head[..keyword]);
        }
        let mut at = start + keyword as u64;
        if let Some(sep) = sep {
            let span = Span::new(at, at + sep.bytes.len() as u64);
            sink.markup(span, Markup::Delimiter(sep.role), sep.bytes);
            at = span.end;
        }
        if !rest.is_empty() {
            sink.markup(
                Span::new(at, at + rest.len() as u64),
                Markup::Envelope,
                rest,
            );
        }
    }

    /// After the separator: whitespace, an optional fence, then the JSON value.
    fn lead<S: Sink>(&mut self, chunk: &[u8], pos: usize, base: u64, sink: &mut S) -> usize {
        let at = |i: usize| base + i as u64;
        let ws = chunk[pos..].iter().take_while(|&&b| is_json_ws(b)).count();
        let i = pos + ws;
        if ws > 0 {
            sink.markup(Span::new(at(pos), at(i)), Markup::Envelope, &chunk[pos..i]);
        }
        let Some(&b) = chunk.get(i) else {
            return i;
        };
        let call = self.call.token();
        match b {
            b'`' | b'~' if call.fence == 0 => {
                if call.fenced.is_none() && !call.broken {
                    // Rule 13: a fence where the format has none.
                    sink.diagnostic(Span::at(at(i)), Diagnostic::CodeFence);
                }
                self.phase = Phase::Fence;
            }
            // The closing fence right after the opening one: no arguments (`{}`).
            b'`' | b'~' => self.phase = Phase::Tail,
            b'<' => self.phase = Phase::ArgsMarkup,
            _ => {
                if matches!(b, b'"' | b'\'') && !call.broken {
                    sink.diagnostic(Span::at(at(i)), Diagnostic::DoubleEncodedArguments);
                }
                call.value = JsonValue::new();
                call.has_value = true;
                call.in_value = true;
                self.phase = Phase::Value;
            }
        }
        i
    }

    /// The opening fence line: backticks (or tildes) and an info string such as `json`, to
    /// the newline or to the JSON value when it starts on the same line.
    fn fence<S: Sink>(&mut self, chunk: &[u8], pos: usize, base: u64, sink: &mut S) -> usize {
        let at = |i: usize| base + i as u64;
        let mut i = pos;
        let mut done = false;
        let mut bad = None;
        while i < chunk.len() {
            let b = chunk[i];
            let info = b.is_ascii_alphanumeric()
                || is_fence(b)
                || matches!(b, b'_' | b'-' | b'.' | b'+' | b' ' | b'\t' | b'\r');
            if b == b'\n' {
                i += 1;
                done = true;
                break;
            }
            let call = self.call.token();
            if !info || call.fence >= FENCE_CAP {
                bad = Some(b);
                break;
            }
            call.fence += 1;
            i += 1;
        }
        if i > pos {
            sink.markup(Span::new(at(pos), at(i)), Markup::Envelope, &chunk[pos..i]);
        }
        match bad {
            None if done => self.phase = Phase::Lead,
            None => {}
            // Rule 13: the JSON on the fence's own line.
            Some(b'{' | b'[' | b'"') => self.phase = Phase::Lead,
            Some(b'<') => self.phase = Phase::ArgsMarkup,
            Some(_) => {
                // Not a fence line: the call is broken; what follows is read on as its
                // arguments.
                self.break_call(Span::new(at(i), at(i + 1)), Diagnostic::MalformedCall, sink);
                self.phase = Phase::Tail;
            }
        }
        i
    }

    /// The arguments' JSON value: the model's text, streamed as it comes (a broken call's
    /// as its markup).
    fn value<S: Sink>(
        &mut self,
        chunk: &[u8],
        pos: usize,
        base: u64,
        options: &Options,
        sink: &mut S,
    ) -> usize {
        let at = |i: usize| base + i as u64;
        let index = self.frame.call.index;
        let call = self.call.token();
        let step = call.value.scan(&chunk[pos..]);
        let end = match step {
            Step::More => chunk.len(),
            Step::Done(k) | Step::Error(k) => pos + k,
        };
        // Argument text up to `args`, markup from there (a broken call's).
        let mut args = pos;
        let mut over = false;
        if !call.broken {
            // The limit falls on the same byte whatever the chunking.
            let allowed = options.max_argument_bytes.saturating_sub(call.arg_bytes);
            over = (end - pos) as u64 > allowed;
            args = if over { pos + allowed as usize } else { end };
            if args > pos {
                sink.tool_args(Span::new(at(pos), at(args)), index, &chunk[pos..args]);
                call.arg_bytes += (args - pos) as u64;
            }
        }
        if over {
            self.break_call(Span::at(at(args)), Diagnostic::ArgumentsTooLong, sink);
        }
        envelope(chunk, base, args, end, sink);
        match step {
            Step::More => {}
            Step::Done(_) => {
                self.call.token().in_value = false;
                self.phase = Phase::Tail;
            }
            Step::Error(_) if chunk[end] == b'<' => self.phase = Phase::ArgsMarkup,
            Step::Error(_) => {
                // A closing bracket with nothing open: the call is broken, the bracket is
                // its, and what follows is read on as its arguments.
                let span = Span::new(at(end), at(end + 1));
                self.break_call(span, Diagnostic::MalformedCall, sink);
                sink.markup(span, Markup::Envelope, &chunk[end..end + 1]);
                self.call.token().in_value = false;
                self.phase = Phase::Tail;
                return end + 1;
            }
        }
        end
    }

    /// A `<` where the arguments expect JSON: the call closer (empty arguments, or a broken
    /// value), a stop token (the stream ended inside the call), another token, which ends
    /// the call, or no token, which breaks it.
    fn args_markup<S: Sink>(
        &mut self,
        chunk: &[u8],
        pos: usize,
        base: u64,
        options: &Options,
        sink: &mut S,
    ) -> usize {
        let at = |i: usize| base + i as u64;
        match self.frame.anchored(self.modes.call, chunk, pos) {
            Anchored::Pending => chunk.len(),
            Anchored::Matched(delimiter, end) => {
                let span = Span::new(at(end) - delimiter.bytes.len() as u64, at(end));
                match delimiter.role {
                    Role::CallClose => {
                        sink.markup(span, Markup::Delimiter(delimiter.role), delimiter.bytes);
                        if self.call.token().has_value {
                            self.invalid(span, Diagnostic::MalformedCall, sink);
                        } else {
                            // No arguments at all: `{}`.
                            self.complete(span, sink);
                        }
                    }
                    Role::Stop => {
                        self.truncate(Span::at(span.start), sink);
                        self.refeed(delimiter.bytes, span.start, options, sink);
                    }
                    _ => {
                        self.invalid(Span::at(span.start), Diagnostic::MalformedCall, sink);
                        self.refeed(delimiter.bytes, span.start, options, sink);
                    }
                }
                end
            }
            Anchored::Failed(candidate) => {
                let held = self.frame.delimiters.take();
                let start = at(candidate) - held.len() as u64;
                self.break_call(Span::new(start, start + 1), Diagnostic::MalformedCall, sink);
                self.phase = if self.call.token().in_value {
                    Phase::Value
                } else {
                    Phase::Tail
                };
                self.skip_markup_byte(&held, candidate, chunk, base, options, sink)
            }
        }
    }

    /// A broken call's `<` that began no delimiter (the first of `held`, or else
    /// `chunk[candidate]`): markup of the call; what followed it is read again in the
    /// call's phase. Returns where the chunk goes on.
    fn skip_markup_byte<S: Sink>(
        &mut self,
        held: &[u8],
        candidate: usize,
        chunk: &[u8],
        base: u64,
        options: &Options,
        sink: &mut S,
    ) -> usize {
        let at = base + candidate as u64;
        match held.split_first() {
            Some((first, rest)) => {
                let start = at - held.len() as u64;
                let span = Span::new(start, start + 1);
                sink.markup(span, Markup::Envelope, core::slice::from_ref(first));
                self.refeed(rest, span.end, options, sink);
                candidate
            }
            None => {
                let span = Span::new(at, at + 1);
                sink.markup(span, Markup::Envelope, &chunk[candidate..candidate + 1]);
                candidate + 1
            }
        }
    }

    /// After the JSON value: whitespace (and a closing fence) is markup, then the closer.
    /// Other text is released as such, with one [`Diagnostic::TrailingText`], and the call
    /// goes on to its closer; another token ends the call without it (rule 3) and is
    /// scanned again where the call stood.
    fn tail<S: Sink>(
        &mut self,
        chunk: &[u8],
        pos: usize,
        base: u64,
        options: &Options,
        sink: &mut S,
    ) -> usize {
        if self.call.token().broken {
            return self.broken_tail(chunk, pos, base, options, sink);
        }
        let at = |i: usize| base + i as u64;
        let reasoning = self.frame.reasoning;
        let call = self.call.token();
        let fenced = call.fence != 0;
        let trailing = &mut call.trailing;
        let stop = self.frame.delimiters.scan(
            self.modes.call,
            chunk,
            pos,
            base,
            &mut |mut span, mut bytes| {
                if !*trailing {
                    let ws = bytes
                        .iter()
                        .take_while(|&&b| is_json_ws(b) || (fenced && is_fence(b)))
                        .count();
                    if ws > 0 {
                        let end = span.start + ws as u64;
                        sink.markup(Span::new(span.start, end), Markup::Envelope, &bytes[..ws]);
                        span.start = end;
                        bytes = &bytes[ws..];
                    }
                    if bytes.is_empty() {
                        return;
                    }
                    *trailing = true;
                    sink.diagnostic(Span::at(span.start), Diagnostic::TrailingText);
                }
                if reasoning {
                    sink.reasoning(span, bytes);
                } else {
                    sink.text(span, bytes);
                }
            },
        );
        match stop {
            Stop::End => chunk.len(),
            Stop::Match(delimiter, end) => {
                let span = Span::new(at(end) - delimiter.bytes.len() as u64, at(end));
                if delimiter.role == Role::CallClose {
                    sink.markup(span, Markup::Delimiter(delimiter.role), delimiter.bytes);
                    self.complete(span, sink);
                } else {
                    self.end_without_closer(Span::at(span.start), sink);
                    self.refeed(delimiter.bytes, span.start, options, sink);
                }
                end
            }
        }
    }

    /// After a broken call's JSON value: whitespace and fences are markup, a `<` may be its
    /// closer or a token that ends it, and anything else is read on as more JSON (so that
    /// a delimiter inside a string stays argument text).
    fn broken_tail<S: Sink>(
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
            i = envelope_while(chunk, base, i, |b| is_json_ws(b) || is_fence(b), sink);
            if i == chunk.len() {
                return i;
            }
            if chunk[i] != b'<' {
                let call = self.call.token();
                call.value = JsonValue::new();
                call.in_value = true;
                self.phase = Phase::Value;
                return i;
            }
        }
        match self.frame.anchored(self.modes.call, chunk, i) {
            Anchored::Pending => chunk.len(),
            Anchored::Matched(delimiter, end) => {
                let span = Span::new(at(end) - delimiter.bytes.len() as u64, at(end));
                if delimiter.role == Role::CallClose {
                    sink.markup(span, Markup::Delimiter(delimiter.role), delimiter.bytes);
                    self.complete(span, sink);
                } else {
                    self.complete(Span::at(span.start), sink);
                    self.refeed(delimiter.bytes, span.start, options, sink);
                }
                end
            }
            Anchored::Failed(candidate) => {
                let held = self.frame.delimiters.take();
                self.skip_markup_byte(&held, candidate, chunk, base, options, sink)
            }
        }
    }
}

/// Where the name's part of the header starts in `head`: after the fenced form's keyword.
fn name_from(call: &Call) -> usize {
    call.fenced.map_or(0, |(_, keyword)| usize::from(keyword))
}

/// A byte that makes a Markdown code fence (backtick or tilde).
#[inline(always)]
fn is_fence(b: u8) -> bool {
    b == b'`' || b == b'~'
}

/// `bytes` without whitespace at either end (ASCII and, where `bytes` is UTF-8 there,
/// Unicode White_Space: NO-BREAK SPACE, IDEOGRAPHIC SPACE, LINE SEPARATOR…; docs/dialects.md
/// rule 9), and how many bytes were cut in front.
fn trim(bytes: &[u8]) -> (usize, &[u8]) {
    let mut from = 0;
    while let Some(n) = space_at(&bytes[from..], false) {
        from += n;
    }
    let mut to = bytes.len();
    while to > from {
        match space_at(&bytes[from..to], true) {
            Some(n) => to -= n,
            None => break,
        }
    }
    (from, &bytes[from..to])
}

/// The length of the whitespace character at the start (or, with `back`, the end) of
/// `bytes`, if there is one.
fn space_at(bytes: &[u8], back: bool) -> Option<usize> {
    let edge = if back {
        *bytes.last()?
    } else {
        *bytes.first()?
    };
    if edge.is_ascii() {
        return edge.is_ascii_whitespace().then_some(1);
    }
    // A UTF-8 sequence is at most 4 bytes long.
    let window = if back {
        &bytes[bytes.len().saturating_sub(4)..]
    } else {
        &bytes[..bytes.len().min(4)]
    };
    (1..=window.len()).find_map(|n| {
        let piece = if back {
            &window[window.len() - n..]
        } else {
            &window[..n]
        };
        let mut chars = core::str::from_utf8(piece).ok()?.chars();
        let c = chars.next()?;
        (chars.next().is_none() && c.is_whitespace()).then_some(n)
    })
}

/// `NAME_BYTES[b]`: an ASCII byte that may be in a name (not whitespace, a control
/// character, a quote or markup), or any non-ASCII byte (decided with its character).
static NAME_BYTES: [bool; 256] = {
    let mut table = [false; 256];
    let mut b = 0;
    while b < 256 {
        let byte = b as u8;
        table[b] = !byte.is_ascii()
            || !(byte.is_ascii_whitespace()
                || byte.is_ascii_control()
                || matches!(byte, b'<' | b'>' | b'"' | b'\'' | b'\\'));
        b += 1;
    }
    table
};

/// Rule 9: a name (or id) is non-empty UTF-8 without whitespace (ASCII or Unicode),
/// control characters, quotes or markup.
fn valid_name(name: &[u8]) -> bool {
    if !name.iter().all(|&b| NAME_BYTES[usize::from(b)]) {
        return false;
    }
    if name.is_ascii() {
        return !name.is_empty();
    }
    match core::str::from_utf8(name) {
        Ok(text) => text
            .chars()
            .all(|c| c.is_ascii() || (!c.is_whitespace() && !c.is_control())),
        Err(_) => false,
    }
}

/// In the fenced form, `b` (after `held`, which can no longer begin a delimiter) ends the
/// name's line: a fence, or a newline after a name that is not all whitespace.
#[inline(always)]
fn ends_name_line(call: &Call, held: &[u8], b: u8) -> bool {
    call.fenced.is_some()
        && (is_fence(b)
            || (b == b'\n'
                && held
                    .iter()
                    .chain(&call.head[name_from(call)..])
                    .any(|b| !b.is_ascii_whitespace())))
}

/// Bytes that begin no delimiter leave the DFA in its start state and go to the head as
/// they come (up to its cap; the byte past it is the general case): takes the run of them
/// at the start of `bytes` at once and returns its length.
#[inline(always)]
fn take_plain(call: &mut Call, dfa: &Dfa, bytes: &[u8]) -> usize {
    let room = HEADER_CAP - call.head.len();
    let n = bytes
        .iter()
        .take(room)
        .take_while(|&&c| !dfa.starts[usize::from(c)])
        .count();
    // Cannot overflow: `n` is at most the room left.
    let _ = call.head.try_extend_from_slice(&bytes[..n]);
    n
}
