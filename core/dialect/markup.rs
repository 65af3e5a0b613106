//! The markup family: calls written as tags with raw-text parameters,
//! `<invoke name="N"><parameter name="k">v</parameter></invoke>`, bare or inside a section
//! wrapper, in one or more tagsets (the `xml` dialect reads the plain tags and DeepSeek's
//! DSML spelling `<｜DSML｜invoke …>`; the `deepseek` dialect embeds the DSML tagset in its
//! special-token machine). Formats: docs/seed.md §2.4, §2.5, §2.7 (DSML);
//! docs/dialects.md §deepseek, §minimax, §anthropic.
//!
//! Two machines live here:
//!
//! - [`MarkupCalls`], the machine of the structure itself (sections, invokes, parameters,
//!   values). It owns no text phase and takes the shared [`Frame`] by reference, so that a
//!   dialect of another family (deepseek, whose DSML envelope is this markup) can embed it:
//!   the host's text phase meets a section opener, calls [`MarkupCalls::enter`], runs
//!   [`MarkupCalls::run`] while [`MarkupCalls::active`], scans again the bytes
//!   [`MarkupCalls::take_replay`] hands back, and calls [`MarkupCalls::finish`] at the end.
//! - [`MarkupMachine`], a whole dialect's machine: content/reasoning text plus
//!   [`MarkupCalls`] (`xml`).
//!
//! Phase diagram of [`MarkupCalls`] (`·` is the host's text):
//!
//! ```text
//!  · --section opener--> Pending --confirmed--> Section --<invoke--> Tag --> Invoke
//!  · --<invoke--> Tag --> Invoke --<parameter--> Tag --> Value --closer--> Pending
//!  Pending --confirmed--> Invoke | Section | ·       Pending --rejected--> Value | ·
//!  Invoke --</invoke>--> Section | ·                Section --closer--> ·
//! ```
//!
//! Rule 4 of docs/dialects.md is the `Pending` phase: a candidate closer found in a value (or a
//! section opener found in text) counts only when what follows it, after at most
//! [`MAX_LOOKAHEAD`](crate::MAX_LOOKAHEAD) bytes of whitespace, is a delimiter that can
//! continue the structure (or the stream ends); until then the candidate and the whitespace
//! are held, the whitespace in a fixed 2-bit-per-byte buffer ([`Blank`], shared with
//! Gemma's quote look-ahead). A rejected candidate is value text (text, for a section
//! opener).

use arrayvec::ArrayVec;

use crate::automaton::{Delimiter, Dfa, START};
use crate::engine::follow;
use crate::engine::frame::{envelope_while, Anchored, Frame};
use crate::lex::blank::Blank;
use crate::lex::name::{is_ws, trim, valid_name};
use crate::lex::tag::{Push, TagLexer, MAX_TAG};
use crate::options::{Options, MAX_NAME};
use crate::scan::Stop;
use crate::tables::{BareCall, MAX_HOLD};
use crate::{Diagnostic, Markup, Piece, Role, Sink, Span, ValueKind};

/// One tagset's delimiters, as four modes of a dialect table (`section`, `invoke`,
/// `value`, `after_value` of `xml.toml`; `dsml_section` … of `deepseek.toml`).
#[derive(Debug)]
pub(crate) struct Tagset {
    /// Between invokes inside a section: invoke openers, section closers.
    pub(crate) section: &'static Dfa,
    /// Inside an invoke between parameters: parameter openers, the invoke closer, and what
    /// ends an invoke whose closer is missing (the next invoke, the section closer).
    pub(crate) invoke: &'static Dfa,
    /// Inside a value: candidate closers (the parameter's, the invoke's) and stop tokens.
    pub(crate) value: &'static Dfa,
    /// What may follow a candidate closer for it to count, matched anchored.
    pub(crate) after_value: &'static Dfa,
    /// Non-canonical spellings of this tagset's section delimiters (MiniMax's wrapper
    /// without its prefix): accepted with [`Diagnostic::DelimiterAlias`] (docs/dialects.md
    /// rule 13).
    pub(crate) aliases: &'static [&'static [u8]],
    /// What a call opener found in text, outside any section, means.
    pub(crate) bare_call: BareCall,
    /// Exactly one leading and one trailing newline of a value are template framing,
    /// reported as markup (Qwen3-Coder, docs/dialects.md §qwen3-coder, rule 8).
    pub(crate) framing: bool,
    /// When `value` finds the generic `</` instead of whole closers: the closers it may
    /// begin (`</parameter>`, `</invoke>`), read on byte by byte; a tag named after the open
    /// parameter (`</content>`) is a candidate closer too ([`Diagnostic::MismatchedCloser`],
    /// corpus 059). Empty when `value` lists whole closers.
    pub(crate) closers: &'static [Delimiter],
}

/// The candidate closer named after the open parameter: `</`, the key, `>`. Its bytes are
/// put together by [`MarkupCalls::candidate_bytes`].
static KEY_CLOSER: Delimiter = Delimiter {
    bytes: b"</>",
    role: Role::ParamClose,
};

/// The generic closer start of [`Tagset::closers`].
const CLOSER_START: &[u8] = b"</";

/// Bytes of a candidate closer: `</`, a key of at most a tag's length, `>`.
const CANDIDATE_CAP: usize = MAX_TAG + 3;

/// The modes of a dialect whose whole machine is the markup family.
#[derive(Debug)]
pub(crate) struct Modes {
    /// Visible text.
    pub(crate) content: &'static Dfa,
    /// Inside a reasoning block.
    pub(crate) reasoning: &'static Dfa,
    /// The tagset that `section_open` and `call_open` delimiters in text enter.
    pub(crate) tags: Tagset,
    /// The tagset that `markup_open` delimiters in text enter (the `xml` dialect's DSML,
    /// the same static the `deepseek` dialect embeds).
    pub(crate) embedded: Option<&'static Tagset>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    /// Not in markup: the host's text phase runs.
    Idle,
    /// Inside a section, between invokes.
    Section,
    /// Inside an invoke, between parameters.
    Invoke,
    /// Reading a tag after its opener (`<invoke`, `<parameter`).
    Tag,
    /// Inside a parameter value.
    Value,
    /// A candidate closer or section opener, waiting for what follows it.
    Pending,
    /// After a generic `</` in a value: which closer, if any, it begins.
    Closer,
}

/// The machine of markup structure, embeddable in any host text phase (see the module
/// docs). It reports through the host's [`Frame`]: calls, drafts and text all go there.
#[derive(Debug, Clone)]
pub(crate) struct MarkupCalls {
    tagset: &'static Tagset,
    phase: Phase,
    in_section: bool,
    /// The section is implied by a bare call ([`BareCall::MissingSection`]); it has no
    /// opener to leave unclosed.
    implied: bool,
    in_call: bool,
    /// A value just began in a tagset with framing: a `\n` now is its leading framing.
    lead: bool,
    /// The value's last byte seen was a `\n`, not reported yet: the trailing framing if a
    /// closer follows, value text otherwise ([`Tagset::framing`]).
    newline: bool,
    /// The delimiter found but not reported yet, and the stream offset of its first byte:
    /// the opener of the tag being read (`Tag`), or the candidate waiting for look-ahead
    /// (`Pending`: a value closer, or a section opener).
    held: Option<(&'static Delimiter, u64)>,
    tag: TagLexer,
    /// Whitespace after the candidate (`Pending`).
    blank: Blank,
    /// Bytes read after a generic `</` (`Closer`), and which names they still match: bit
    /// `j` for [`Tagset::closers`]`[j]`, the top bit for the open parameter's key.
    closer_len: u8,
    closer_alive: u8,
    /// An opener after the candidate that matched; the first byte of its tag decides.
    follow: Option<&'static Delimiter>,
    /// Value bytes of the current call, against [`Options::max_argument_bytes`].
    arg_bytes: u64,
    /// The machine handed the stream back with bytes still held in the frame (see
    /// [`MarkupCalls::take_replay`]).
    replay: bool,
}

/// What followed a rejected candidate, to be scanned again.
enum Rest {
    /// Nothing.
    None,
    /// The bytes held in the frame: a failed anchored match.
    Held,
    /// A whole delimiter that matched but cannot follow the candidate.
    Delimiter(&'static Delimiter),
}

/// Where a scan of structure (section or invoke phase) stopped.
enum Found {
    /// The chunk ended (a candidate may be held).
    End,
    /// A delimiter ended just before this chunk offset.
    Delimiter(&'static Delimiter, Span, usize),
    /// The byte at this chunk offset (after any held bytes) cannot be structure.
    Stray(usize),
}

impl MarkupCalls {
    pub(crate) fn new(tagset: &'static Tagset) -> Self {
        MarkupCalls {
            tagset,
            phase: Phase::Idle,
            in_section: false,
            implied: false,
            in_call: false,
            lead: false,
            newline: false,
            held: None,
            tag: TagLexer::new(),
            blank: Blank::EMPTY,
            closer_len: 0,
            closer_alive: 0,
            follow: None,
            arg_bytes: 0,
            replay: false,
        }
    }

    /// True while the markup machine has the stream; false once it handed it back to the
    /// host's text phase.
    #[inline]
    pub(crate) fn active(&self) -> bool {
        self.phase != Phase::Idle
    }

    /// The host's text phase found `delimiter` at `span` and has not reported it: a section
    /// opener (`section_open`, `markup_open`) or an invoke opener (`call_open`) of
    /// `tagset`. The machine takes the stream from the next byte on.
    pub(crate) fn enter(
        &mut self,
        tagset: &'static Tagset,
        delimiter: &'static Delimiter,
        span: Span,
    ) {
        self.tagset = tagset;
        self.reset_structure();
        if delimiter.role == Role::CallOpen {
            self.begin_tag(delimiter, span.start);
        } else {
            self.begin_pending(delimiter, span.start);
        }
    }

    /// Bytes the machine handed back when it went idle, with the stream offset of the
    /// first. They end right before `end`, the stream offset of the chunk position
    /// [`MarkupCalls::run`] returned, and the host must scan them again in its text phase
    /// (a proper prefix of a delimiter, or a reasoning closer outside reasoning, whose
    /// meaning in text is the host's; at most once per section or call that ended on
    /// them). They wait in the frame's hold: call this as soon as `run` returns.
    pub(crate) fn take_replay(
        &mut self,
        frame: &mut Frame,
        end: u64,
    ) -> Option<(ArrayVec<u8, MAX_HOLD>, u64)> {
        if !core::mem::take(&mut self.replay) {
            return None;
        }
        let held = frame.delimiters.take();
        if held.is_empty() {
            return None;
        }
        let start = end - held.len() as u64;
        Some((held, start))
    }

    /// Takes a whole chunk of plain value text: nothing held and no candidate closer in
    /// it (token-sized chunks inside long values).
    #[inline(always)]
    pub(crate) fn take_plain_value<S: Sink>(
        &mut self,
        frame: &Frame,
        chunk: &[u8],
        base: u64,
        options: &Options,
        sink: &mut S,
    ) -> bool {
        let len = chunk.len() as u64;
        if self.phase == Phase::Value
            && !self.lead
            && frame.delimiters.state == START
            && len <= options.max_argument_bytes.saturating_sub(self.arg_bytes)
            && self.tagset.value.find_start(chunk).is_none()
        {
            self.arg_bytes += len;
            emit_value(
                &mut self.newline,
                self.tagset.framing,
                frame.call.index,
                Span::new(base, base + len),
                chunk,
                sink,
            );
            return true;
        }
        false
    }

    /// Scans `chunk[pos..]` (byte `i` at stream offset `base + i`) until the chunk ends or
    /// the machine hands the stream back to the host; returns the chunk offset reached.
    pub(crate) fn run<S: Sink>(
        &mut self,
        frame: &mut Frame,
        chunk: &[u8],
        mut pos: usize,
        base: u64,
        options: &Options,
        sink: &mut S,
    ) -> usize {
        while pos < chunk.len() {
            pos = match self.phase {
                Phase::Idle => return pos,
                Phase::Section => self.section(frame, chunk, pos, base, sink),
                Phase::Invoke => self.invoke(frame, chunk, pos, base, sink),
                Phase::Tag => self.tag(frame, chunk, pos, base, options, sink),
                Phase::Value => self.value(frame, chunk, pos, base, options, sink),
                Phase::Pending => self.pending(frame, chunk, pos, base, options, sink),
                Phase::Closer => self.closer(frame, chunk, pos, options, sink),
            };
        }
        pos
    }

    /// End of the stream at offset `end`: the end continues any structure (a pending
    /// candidate counts), held bytes are the structure's markup, an open call is
    /// incomplete and an open section is reported.
    pub(crate) fn finish<S: Sink>(
        &mut self,
        frame: &mut Frame,
        end: u64,
        options: &Options,
        sink: &mut S,
    ) {
        let at = Span::at(end);
        match self.phase {
            Phase::Idle => return,
            Phase::Pending if self.held.is_some_and(|(c, _)| c.role == Role::ParamOpen) => {
                // A line-initial opener with nothing after it: value text.
                self.reject(frame, Rest::None, end, options, sink);
                self.flush_newline(frame, end, sink);
            }
            Phase::Value => {
                self.flush_newline(frame, end - frame.delimiters.hold.len() as u64, sink)
            }
            Phase::Closer => {
                // A closer cut off: the call's markup, as a held partial closer is.
                if let Some((_, start)) = self.held.take() {
                    self.flush_newline(frame, start, sink);
                    let bytes = self.closer_prefix(self.closer_alive);
                    sink.markup(Span::new(start, end), Markup::Envelope, &bytes);
                }
            }
            Phase::Pending => {
                let follow = self.follow.take();
                let follow_start = self.follow_start();
                self.confirm(frame, sink);
                if let Some(follow) = follow {
                    let span = Span::new(follow_start, follow_start + follow.bytes.len() as u64);
                    self.structure_bytes(
                        frame,
                        span,
                        follow.bytes,
                        Markup::Delimiter(follow.role),
                        sink,
                    );
                }
            }
            Phase::Tag => {
                let Some((opener, start)) = self.held.take() else {
                    return;
                };
                let opener_span = Span::new(start, start + opener.bytes.len() as u64);
                let tail_span = Span::new(opener_span.end, end);
                // An invoke opener inside a call opens nothing: the call's own bytes.
                let kind = if self.in_call && opener.role == Role::CallOpen {
                    Markup::Envelope
                } else {
                    Markup::Delimiter(opener.role)
                };
                if self.tag.is_empty() {
                    // Nothing said it was a tag.
                    self.structure_bytes(frame, opener_span, opener.bytes, kind, sink);
                } else {
                    sink.markup(opener_span, kind, opener.bytes);
                    sink.markup(tail_span, Markup::Envelope, self.tag.bytes());
                    if !self.in_call
                        && opener.role == Role::CallOpen
                        && frame.open_call(opener_span, options, sink)
                    {
                        frame.ensure_started(tail_span, sink);
                        self.in_call = true;
                    }
                }
            }
            _ => {}
        }
        let held = frame.delimiters.take();
        if !held.is_empty() {
            let span = Span::new(end - held.len() as u64, end);
            self.structure_bytes(frame, span, &held, Markup::Envelope, sink);
        }
        frame.finish_drafts(at, sink);
        if self.in_call {
            frame.cut_off(at, sink);
        }
        if self.in_section && !self.implied {
            sink.diagnostic(at, Diagnostic::UnclosedSection);
        }
        self.reset_structure();
    }

    /// Bytes at the end of the stream: the structure's own markup inside a call or section,
    /// text otherwise (nothing said they were structure).
    fn structure_bytes<S: Sink>(
        &self,
        frame: &Frame,
        span: Span,
        bytes: &[u8],
        kind: Markup,
        sink: &mut S,
    ) {
        if self.in_call || self.in_section {
            sink.markup(span, kind, bytes);
        } else {
            frame.release(span, bytes, sink);
        }
    }

    fn reset_structure(&mut self) {
        self.phase = Phase::Idle;
        self.in_section = false;
        self.implied = false;
        self.in_call = false;
        self.lead = false;
        debug_assert!(
            !self.newline,
            "a held newline is reported before the value ends"
        );
        self.newline = false;
        self.held = None;
        self.blank = Blank::EMPTY;
        self.follow = None;
    }

    /// Hands the stream back to the host; the bytes held in the frame are the host's to
    /// scan again.
    fn leave(&mut self, frame: &mut Frame) {
        self.reset_structure();
        // Whatever our automaton was matching is over (a failed anchored match leaves its
        // state behind); the bytes held for it wait for `take_replay`.
        frame.delimiters.state = START;
        self.replay = !frame.delimiters.hold.is_empty();
    }

    fn begin_tag(&mut self, opener: &'static Delimiter, start: u64) {
        self.held = Some((opener, start));
        self.tag = if equals_form(opener) {
            TagLexer::equals()
        } else {
            TagLexer::new()
        };
        self.phase = Phase::Tag;
    }

    fn begin_pending(&mut self, candidate: &'static Delimiter, start: u64) {
        self.held = Some((candidate, start));
        self.blank = Blank::EMPTY;
        self.follow = None;
        self.phase = Phase::Pending;
    }

    /// Whitespace then, at the first other byte, an anchored match against `dfa`.
    fn scan_structure<S: Sink>(
        frame: &mut Frame,
        dfa: &Dfa,
        chunk: &[u8],
        pos: usize,
        base: u64,
        sink: &mut S,
    ) -> Found {
        let at = |i: usize| base + i as u64;
        let mut i = pos;
        if frame.delimiters.state == START {
            i = envelope_while(chunk, base, i, is_ws, sink);
            if i == chunk.len() {
                return Found::End;
            }
        }
        match frame.anchored(dfa, chunk, i) {
            Anchored::Pending => Found::End,
            Anchored::Matched(delimiter, end) => {
                let span = Span::new(at(end) - delimiter.bytes.len() as u64, at(end));
                Found::Delimiter(delimiter, span, end)
            }
            Anchored::Failed(candidate) => Found::Stray(candidate),
        }
    }

    /// Between invokes inside a section.
    fn section<S: Sink>(
        &mut self,
        frame: &mut Frame,
        chunk: &[u8],
        pos: usize,
        base: u64,
        sink: &mut S,
    ) -> usize {
        match Self::scan_structure(frame, self.tagset.section, chunk, pos, base, sink) {
            Found::End => chunk.len(),
            Found::Delimiter(delimiter, span, end) => {
                self.on_delimiter(frame, delimiter, span, sink);
                end
            }
            Found::Stray(candidate) => {
                // Text cannot be in a section: it ended without its closer (an implied
                // section has none).
                let start = base + candidate as u64 - frame.delimiters.hold.len() as u64;
                if !self.implied {
                    sink.diagnostic(Span::at(start), Diagnostic::UnclosedSection);
                }
                self.leave(frame);
                candidate
            }
        }
    }

    /// Inside an invoke, between parameters.
    fn invoke<S: Sink>(
        &mut self,
        frame: &mut Frame,
        chunk: &[u8],
        pos: usize,
        base: u64,
        sink: &mut S,
    ) -> usize {
        match Self::scan_structure(frame, self.tagset.invoke, chunk, pos, base, sink) {
            Found::End => chunk.len(),
            Found::Delimiter(delimiter, span, end) => {
                self.on_delimiter(frame, delimiter, span, sink);
                end
            }
            Found::Stray(candidate) => {
                // Text between parameters: the call is broken, and so is its section.
                let start = base + candidate as u64 - frame.delimiters.hold.len() as u64;
                frame.invalid(Span::new(start, start + 1), Diagnostic::MalformedCall, sink);
                self.leave(frame);
                candidate
            }
        }
    }

    /// Acts on a delimiter found in the section or invoke phase, or confirmed after a value
    /// (then the phase is the one the closer returned to).
    fn on_delimiter<S: Sink>(
        &mut self,
        frame: &mut Frame,
        delimiter: &'static Delimiter,
        span: Span,
        sink: &mut S,
    ) {
        match delimiter.role {
            Role::CallOpen | Role::ParamOpen => self.begin_tag(delimiter, span.start),
            Role::CallClose if !self.in_call => {
                // Between the calls of a section: a model closing twice.
                sink.markup(span, Markup::Delimiter(delimiter.role), delimiter.bytes);
                sink.diagnostic(span, Diagnostic::StrayCloser);
            }
            Role::CallClose => {
                sink.markup(span, Markup::Delimiter(delimiter.role), delimiter.bytes);
                self.complete(frame, span, sink);
            }
            Role::SectionClose => {
                if self.in_call {
                    sink.diagnostic(Span::at(span.start), Diagnostic::UnclosedInvoke);
                    self.complete(frame, Span::at(span.start), sink);
                }
                sink.markup(span, Markup::Delimiter(delimiter.role), delimiter.bytes);
                self.note_alias(delimiter, span, sink);
                self.reset_structure();
            }
            Role::ParamClose => {
                // Between parameters: a model closing twice.
                sink.markup(span, Markup::Delimiter(delimiter.role), delimiter.bytes);
                sink.diagnostic(span, Diagnostic::StrayCloser);
            }
            _ => {
                // A stop token or the reasoning closer: the structure ends here, and the
                // delimiter means what it means in text.
                if self.in_call && delimiter.role == Role::ReasoningClose && frame.reasoning {
                    // A draft whose invoke lost its closer: the reasoning closer demotes it
                    // with the other drafts (rule 7).
                    sink.diagnostic(Span::at(span.start), Diagnostic::UnclosedInvoke);
                    self.complete(frame, Span::at(span.start), sink);
                    self.in_section = false;
                } else if self.in_call {
                    self.flush_newline(frame, span.start, sink);
                    frame.truncate(Span::at(span.start), sink);
                } else if self.in_section && !self.implied {
                    sink.diagnostic(Span::at(span.start), Diagnostic::UnclosedSection);
                }
                self.reset_structure();
                if delimiter.role == Role::ReasoningClose && !frame.reasoning {
                    // A reasoning closer outside reasoning means what the host's text says
                    // it means (text in `xml`, a stray token in `deepseek`, rule 12): it
                    // is handed back whole, to be scanned again there. The callers return
                    // the offset right after it, which is where the replay must end.
                    debug_assert!(frame.delimiters.hold.is_empty(), "a match clears the hold");
                    frame.delimiters.hold.clear();
                    let kept = frame.delimiters.hold.try_extend_from_slice(delimiter.bytes);
                    debug_assert!(kept.is_ok(), "a delimiter fits the hold");
                    self.leave(frame);
                } else {
                    frame.text_delimiter(delimiter, span, sink);
                }
            }
        }
    }

    /// The current call's structure closed.
    fn complete<S: Sink>(&mut self, frame: &mut Frame, span: Span, sink: &mut S) {
        self.in_call = false;
        frame.complete(span, sink);
        self.phase = if self.in_section {
            Phase::Section
        } else {
            Phase::Idle
        };
    }

    /// Reads the tag after its opener.
    fn tag<S: Sink>(
        &mut self,
        frame: &mut Frame,
        chunk: &[u8],
        pos: usize,
        base: u64,
        options: &Options,
        sink: &mut S,
    ) -> usize {
        let (n, push) = self.tag.scan(&chunk[pos..]);
        let i = pos + n;
        let Some((opener, start)) = self.held else {
            self.reset_structure();
            return i;
        };
        let opener_span = Span::new(start, start + opener.bytes.len() as u64);
        let tail_span = Span::new(opener_span.end, base + i as u64);
        let diagnostic = match push {
            Push::More => return i,
            Push::Done { self_closing } => {
                self.held = None;
                if opener.role == Role::ParamOpen {
                    self.param_tag(frame, opener, opener_span, tail_span, self_closing, sink);
                } else {
                    self.invoke_tag(
                        frame,
                        opener,
                        opener_span,
                        tail_span,
                        self_closing,
                        options,
                        sink,
                    );
                }
                return i;
            }
            Push::NotATag => None,
            Push::Malformed => Some(Diagnostic::MalformedTag),
            Push::TooLong => Some(Diagnostic::TagTooLong),
        };
        self.held = None;
        self.broken_tag(frame, opener, opener_span, tail_span, diagnostic, sink);
        i
    }

    /// A tag that is not one: inside a call it breaks the call (its bytes are the call's
    /// markup); elsewhere it is text. Either way the structure ends and the byte that
    /// broke it is scanned again by the host.
    fn broken_tag<S: Sink>(
        &mut self,
        frame: &mut Frame,
        opener: &'static Delimiter,
        opener_span: Span,
        tail_span: Span,
        diagnostic: Option<Diagnostic>,
        sink: &mut S,
    ) {
        let tail = self.tag.bytes();
        if self.in_call {
            // Not a delimiter after all: the call's bytes, which its end gives back.
            sink.markup(opener_span, Markup::Envelope, opener.bytes);
            if !tail.is_empty() {
                sink.markup(tail_span, Markup::Envelope, tail);
            }
            let diagnostic = diagnostic.unwrap_or(Diagnostic::MalformedCall);
            frame.invalid(opener_span, diagnostic, sink);
        } else {
            frame.release(opener_span, opener.bytes, sink);
            if !tail.is_empty() {
                frame.release(tail_span, tail, sink);
            }
            if let Some(diagnostic) = diagnostic {
                sink.diagnostic(Span::new(opener_span.start, tail_span.end), diagnostic);
            }
            if self.in_section && !self.implied {
                sink.diagnostic(Span::at(tail_span.end), Diagnostic::UnclosedSection);
            }
        }
        self.reset_structure();
    }

    /// An invoke tag closed: a call begins (ending the open one, whose closer is missing).
    #[allow(clippy::too_many_arguments)]
    fn invoke_tag<S: Sink>(
        &mut self,
        frame: &mut Frame,
        opener: &'static Delimiter,
        opener_span: Span,
        tail_span: Span,
        self_closing: bool,
        options: &Options,
        sink: &mut S,
    ) {
        let name = match self.tag.name() {
            None => Err(Diagnostic::MissingName),
            Some((raw, offset)) => {
                let (lead, name) = trim(raw);
                if name.len() <= MAX_NAME && valid_name(name) {
                    let start = tail_span.start + (offset + lead) as u64;
                    Ok((
                        Span::new(start, start + name.len() as u64),
                        offset + lead,
                        name.len(),
                    ))
                } else {
                    Err(Diagnostic::InvalidName)
                }
            }
        };
        let (name_span, from, len) = match name {
            Ok(name) => name,
            Err(diagnostic) => {
                self.broken_tag(
                    frame,
                    opener,
                    opener_span,
                    tail_span,
                    Some(diagnostic),
                    sink,
                );
                return;
            }
        };
        if self.in_call {
            sink.diagnostic(Span::at(opener_span.start), Diagnostic::UnclosedInvoke);
            self.in_call = false;
            frame.complete(Span::at(opener_span.start), sink);
        }
        sink.markup(opener_span, Markup::Delimiter(opener.role), opener.bytes);
        sink.markup(tail_span, Markup::Envelope, self.tag.bytes());
        if !self.in_section && self.tagset.bare_call == BareCall::MissingSection {
            sink.diagnostic(opener_span, Diagnostic::MissingSection);
            self.in_section = true;
            self.implied = true;
        }
        if !frame.open_call(opener_span, options, sink) {
            self.reset_structure();
            return;
        }
        frame.name(name_span, &self.tag.bytes()[from..from + len], sink);
        self.in_call = true;
        self.arg_bytes = 0;
        if self_closing {
            self.complete(frame, Span::at(tail_span.end), sink);
        } else {
            self.phase = Phase::Invoke;
        }
    }

    /// A parameter tag closed: its value begins.
    fn param_tag<S: Sink>(
        &mut self,
        frame: &mut Frame,
        opener: &'static Delimiter,
        opener_span: Span,
        tail_span: Span,
        self_closing: bool,
        sink: &mut S,
    ) {
        let tail = self.tag.bytes();
        sink.markup(opener_span, Markup::Delimiter(opener.role), opener.bytes);
        sink.markup(tail_span, Markup::Envelope, tail);
        let key = self.tag.name().map(|(raw, offset)| {
            let (lead, key) = trim(raw);
            (key, tail_span.start + (offset + lead) as u64)
        });
        let Some((key, key_start)) = key.filter(|(key, _)| !key.is_empty()) else {
            frame.invalid(opener_span, Diagnostic::MissingKey, sink);
            self.reset_structure();
            return;
        };
        let kind = match self.tag.string().map(|s| trim(s).1) {
            None => ValueKind::Untyped,
            Some(s) if s.eq_ignore_ascii_case(b"true") => ValueKind::Text,
            Some(s) if s.eq_ignore_ascii_case(b"false") => ValueKind::Json,
            Some(_) => {
                sink.diagnostic(tail_span, Diagnostic::InvalidStringAttribute);
                ValueKind::Untyped
            }
        };
        frame.param(
            Span::new(key_start, key_start + key.len() as u64),
            key,
            kind,
            sink,
        );
        if self_closing {
            frame.param_end(Span::at(tail_span.end), sink);
            self.phase = Phase::Invoke;
        } else {
            self.phase = Phase::Value;
            self.lead = self.tagset.framing;
        }
    }

    /// Inside a value: everything up to a candidate closer is value text.
    fn value<S: Sink>(
        &mut self,
        frame: &mut Frame,
        chunk: &[u8],
        pos: usize,
        base: u64,
        options: &Options,
        sink: &mut S,
    ) -> usize {
        let call = frame.call.index;
        if core::mem::take(&mut self.lead) && chunk[pos] == b'\n' {
            // The template's leading framing newline.
            let at = base + pos as u64;
            sink.markup(Span::new(at, at + 1), Markup::Envelope, b"\n");
            return pos + 1;
        }
        // The limit falls on the same byte whatever the chunking: where the value bytes
        // released plus those held as a possible closer reach it.
        let counted = self.arg_bytes + frame.delimiters.hold.len() as u64;
        let room = options.max_argument_bytes.saturating_sub(counted);
        let end = if (chunk.len() - pos) as u64 > room {
            pos + room as usize
        } else {
            chunk.len()
        };
        let arg_bytes = &mut self.arg_bytes;
        let newline = &mut self.newline;
        let framing = self.tagset.framing;
        let stop = frame.delimiters.scan(
            self.tagset.value,
            &chunk[..end],
            pos,
            base,
            &mut |span, bytes| {
                *arg_bytes += bytes.len() as u64;
                emit_value(newline, framing, call, span, bytes, sink);
            },
        );
        match stop {
            Stop::Match(delimiter, to) => {
                let at = base + to as u64;
                let span = Span::new(at - delimiter.bytes.len() as u64, at);
                match delimiter.role {
                    _ if delimiter.bytes == CLOSER_START && !self.tagset.closers.is_empty() => {
                        self.held = Some((delimiter, span.start));
                        self.closer_len = 0;
                        self.closer_alive = u8::MAX;
                        self.phase = Phase::Closer;
                    }
                    Role::ParamClose | Role::CallClose | Role::ParamOpen => {
                        self.begin_pending(delimiter, span.start);
                    }
                    _ => self.on_delimiter(frame, delimiter, span, sink),
                }
                to
            }
            Stop::End if end < chunk.len() => {
                let held = frame.delimiters.take();
                let at = base + end as u64;
                self.flush_newline(frame, at - held.len() as u64, sink);
                if !held.is_empty() {
                    sink.tool_value(
                        Span::new(at - held.len() as u64, at),
                        call,
                        Piece::Verbatim,
                        &held,
                    );
                }
                frame.invalid(Span::at(at), Diagnostic::ArgumentsTooLong, sink);
                self.reset_structure();
                end
            }
            Stop::End => chunk.len(),
        }
    }

    /// A value's held `\n` (see [`MarkupCalls::newline`]) turned out to be value text; it
    /// ends at stream offset `end`.
    fn flush_newline<S: Sink>(&mut self, frame: &Frame, end: u64, sink: &mut S) {
        if core::mem::take(&mut self.newline) {
            sink.tool_value(
                Span::new(end - 1, end),
                frame.call.index,
                Piece::Verbatim,
                b"\n",
            );
        }
    }

    fn note_alias<S: Sink>(&self, delimiter: &Delimiter, span: Span, sink: &mut S) {
        if self.tagset.aliases.contains(&delimiter.bytes) {
            sink.diagnostic(span, Diagnostic::DelimiterAlias);
        }
    }

    /// Stream offset just after the candidate and its whitespace.
    fn follow_start(&self) -> u64 {
        let (candidate, start) = self
            .held
            .map_or((0, 0), |(c, start)| (self.candidate_len(c), start));
        start + candidate as u64 + self.blank.len() as u64
    }

    /// The open parameter's key, while a value is read (the tag lexer still holds its
    /// tag); empty when it cannot name a closer.
    fn key(&self) -> &[u8] {
        let key = self.tag.name().map_or(&[][..], |(raw, _)| trim(raw).1);
        if key.len() <= MAX_NAME && valid_name(key) {
            key
        } else {
            &[]
        }
    }

    fn candidate_len(&self, candidate: &Delimiter) -> usize {
        if core::ptr::eq(candidate, &KEY_CLOSER) {
            CLOSER_START.len() + self.key().len() + 1
        } else {
            candidate.bytes.len()
        }
    }

    /// The bytes of a candidate as written.
    fn candidate_bytes(&self, candidate: &Delimiter) -> ArrayVec<u8, CANDIDATE_CAP> {
        let mut bytes = ArrayVec::new();
        if core::ptr::eq(candidate, &KEY_CLOSER) {
            bytes.extend(CLOSER_START.iter().chain(self.key()).chain(b">").copied());
        } else {
            bytes.extend(candidate.bytes.iter().take(CANDIDATE_CAP).copied());
        }
        bytes
    }

    /// Byte `k` after `</` of name `j` of the `Closer` phase (the top bit: the key).
    fn closer_byte(&self, j: u32, k: usize) -> Option<u8> {
        if j == 7 {
            let key = self.key();
            if key.is_empty() {
                return None;
            }
            return key.get(k).copied().or((k == key.len()).then_some(b'>'));
        }
        let closer = self.tagset.closers.get(j as usize)?;
        closer.bytes.get(CLOSER_START.len() + k).copied()
    }

    /// Whether name `j` of the `Closer` phase closes a parameter (the key's always does).
    fn closes_param(&self, j: u32) -> bool {
        self.tagset
            .closers
            .get(j as usize)
            .is_none_or(|closer| closer.role == Role::ParamClose)
    }

    /// `</` and the bytes read after it in the `Closer` phase: a prefix of a name still
    /// alive in `alive`.
    fn closer_prefix(&self, alive: u8) -> ArrayVec<u8, CANDIDATE_CAP> {
        let mut bytes: ArrayVec<u8, CANDIDATE_CAP> = ArrayVec::new();
        bytes.extend(CLOSER_START.iter().copied());
        let j = alive.trailing_zeros();
        for k in 0..usize::from(self.closer_len) {
            if let Some(b) = self.closer_byte(j, k) {
                if bytes.try_push(b).is_err() {
                    break;
                }
            }
        }
        bytes
    }

    /// After a generic `</` in a value: reads on while the bytes still spell a closer
    /// ([`Tagset::closers`] or the key's); a whole one is a candidate (rule 4), anything else
    /// makes `</` and what was read value text and is scanned again as value.
    fn closer<S: Sink>(
        &mut self,
        frame: &mut Frame,
        chunk: &[u8],
        pos: usize,
        options: &Options,
        sink: &mut S,
    ) -> usize {
        let Some((_, start)) = self.held else {
            self.reset_structure();
            return pos;
        };
        let mut i = pos;
        while i < chunk.len() {
            let b = chunk[i];
            let k = usize::from(self.closer_len);
            let mut alive = 0u8;
            let mut whole = None;
            let mut names = self.closer_alive;
            while names != 0 {
                let j = names.trailing_zeros();
                names &= names - 1;
                if self.closer_byte(j, k) == Some(b) {
                    alive |= 1 << j;
                    // A key spelled like a structural closer (`</invoke>` for a parameter
                    // named `invoke`) is the parameter's closer first: what it admits
                    // after it is a superset.
                    if self.closer_byte(j, k + 1).is_none()
                        && whole.is_none_or(|w| !self.closes_param(w))
                    {
                        whole = Some(j);
                    }
                }
            }
            if alive == 0 {
                // Not a closer: value text, and this byte is scanned again.
                let bytes = self.closer_prefix(self.closer_alive);
                self.held = None;
                self.phase = Phase::Value;
                let span = Span::new(start, start + bytes.len() as u64);
                if !self.value_bytes(frame, span, &bytes, options, sink) {
                    self.leave(frame);
                }
                return i;
            }
            self.closer_alive = alive;
            self.closer_len += 1;
            i += 1;
            if let Some(j) = whole {
                let candidate = match self.tagset.closers.get(j as usize) {
                    Some(closer) => closer,
                    None => &KEY_CLOSER,
                };
                self.begin_pending(candidate, start);
                return i;
            }
        }
        i
    }

    /// After a candidate: whitespace, then a delimiter that admits it, decide.
    fn pending<S: Sink>(
        &mut self,
        frame: &mut Frame,
        chunk: &[u8],
        pos: usize,
        base: u64,
        options: &Options,
        sink: &mut S,
    ) -> usize {
        let Some((candidate, start)) = self.held else {
            self.reset_structure();
            return pos;
        };
        if candidate.role == Role::ParamOpen {
            // A line-initial parameter opener inside a value: if a tag begins, the value's
            // closer is missing and the opener ends it (parameters do not nest).
            if begins_tag(candidate, chunk[pos]) {
                self.held = None;
                self.flush_newline(frame, start, sink);
                frame.param_end(Span::at(start), sink);
                sink.diagnostic(Span::at(start), Diagnostic::UnclosedParameter);
                self.begin_tag(candidate, start);
            } else {
                self.reject(frame, Rest::None, base + pos as u64, options, sink);
            }
            return pos;
        }
        if let Some(follow) = self.follow {
            // An opener follows; it counts if a tag begins (the byte is looked at again by
            // the tag lexer).
            let start = self.follow_start();
            if begins_tag(follow, chunk[pos]) {
                self.confirm(frame, sink);
                let span = Span::new(start, start + follow.bytes.len() as u64);
                self.on_delimiter(frame, follow, span, sink);
            } else {
                self.reject(frame, Rest::Delimiter(follow), start, options, sink);
            }
            return pos;
        }
        let mut i = pos;
        if frame.delimiters.state == START {
            while i < chunk.len() && is_ws(chunk[i]) {
                if !self.blank.push(chunk[i]) {
                    self.reject(frame, Rest::None, base + i as u64, options, sink);
                    return i;
                }
                i += 1;
            }
            if i == chunk.len() {
                return i;
            }
        }
        let dfa = match candidate.role {
            Role::ParamClose | Role::CallClose => self.tagset.after_value,
            _ => self.tagset.section,
        };
        match frame.anchored(dfa, chunk, i) {
            Anchored::Pending => chunk.len(),
            Anchored::Matched(follow, end) => {
                let start = self.follow_start();
                if !self.admits(candidate.role, follow.role, frame.reasoning) {
                    self.reject(frame, Rest::Delimiter(follow), start, options, sink);
                } else if matches!(follow.role, Role::CallOpen | Role::ParamOpen) {
                    self.follow = Some(follow);
                } else {
                    self.confirm(frame, sink);
                    let span = Span::new(start, start + follow.bytes.len() as u64);
                    self.on_delimiter(frame, follow, span, sink);
                }
                end
            }
            Anchored::Failed(at) => {
                let start = base + at as u64 - frame.delimiters.hold.len() as u64;
                self.reject(frame, Rest::Held, start, options, sink);
                at
            }
        }
    }

    /// Whether `follow` after `candidate` continues the structure (`reasoning`: the
    /// structure is a draft inside reasoning, which its closer may end).
    fn admits(&self, candidate: Role, follow: Role, reasoning: bool) -> bool {
        follow::admits(candidate, follow, reasoning, self.in_section)
    }

    /// The candidate counts: report it and its whitespace, and move to the phase after it.
    fn confirm<S: Sink>(&mut self, frame: &mut Frame, sink: &mut S) {
        let blank = core::mem::replace(&mut self.blank, Blank::EMPTY);
        self.follow = None;
        let Some((candidate, start)) = self.held.take() else {
            return;
        };
        let bytes = self.candidate_bytes(candidate);
        let span = Span::new(start, start + bytes.len() as u64);
        if core::ptr::eq(candidate, &KEY_CLOSER) {
            sink.diagnostic(span, Diagnostic::MismatchedCloser);
        }
        if candidate.role == Role::ParamClose && core::mem::take(&mut self.newline) {
            // The template's trailing framing newline.
            sink.markup(Span::new(start - 1, start), Markup::Envelope, b"\n");
        }
        self.flush_newline(frame, start, sink);
        match candidate.role {
            Role::ParamClose => {
                sink.markup(span, Markup::Delimiter(candidate.role), &bytes);
                frame.param_end(span, sink);
                self.phase = Phase::Invoke;
            }
            Role::CallClose => {
                frame.param_end(Span::at(start), sink);
                sink.diagnostic(Span::at(start), Diagnostic::UnclosedParameter);
                sink.markup(span, Markup::Delimiter(candidate.role), candidate.bytes);
                self.complete(frame, span, sink);
            }
            _ => {
                sink.markup(span, Markup::Delimiter(candidate.role), candidate.bytes);
                self.note_alias(candidate, span, sink);
                self.in_section = true;
                self.phase = Phase::Section;
            }
        }
        let bytes = blank.bytes();
        if !bytes.is_empty() {
            let span = Span::new(span.end, span.end + bytes.len() as u64);
            if self.in_call || self.in_section {
                sink.markup(span, Markup::Envelope, &bytes);
            } else {
                frame.release(span, &bytes, sink);
            }
        }
    }

    /// The candidate does not count: it and its whitespace are value text (text, for a
    /// section opener), and `rest` (what followed them, from offset `rest_start`) is scanned
    /// again in that phase.
    fn reject<S: Sink>(
        &mut self,
        frame: &mut Frame,
        rest: Rest,
        rest_start: u64,
        options: &Options,
        sink: &mut S,
    ) {
        let blank = core::mem::replace(&mut self.blank, Blank::EMPTY);
        self.follow = None;
        let Some((candidate, start)) = self.held.take() else {
            return;
        };
        let blank = blank.bytes();
        let bytes = self.candidate_bytes(candidate);
        let blank_start = start + bytes.len() as u64;
        let candidate_span = Span::new(start, blank_start);
        let blank_span = Span::new(blank_start, blank_start + blank.len() as u64);
        if matches!(
            candidate.role,
            Role::ParamClose | Role::CallClose | Role::ParamOpen
        ) {
            self.phase = Phase::Value;
            // A newline that ends the whitespace before a rejected delimiter is scanned
            // again with it: the value's line-initial openers and closers begin with it.
            let line = match (&rest, blank.last()) {
                (Rest::Delimiter(follow), Some(b'\n')) => newline_then(follow.bytes),
                _ => None,
            };
            let kept = blank.len() - usize::from(line.is_some());
            let blank_span = Span::new(blank_span.start, blank_span.start + kept as u64);
            let rest_start = rest_start - (blank.len() - kept) as u64;
            // Both are reported whatever happens (`&`, not `&&`): once the limit is reached
            // the rest is text.
            let taken = self.value_bytes(frame, candidate_span, &bytes, options, sink)
                & self.value_bytes(frame, blank_span, &blank[..kept], options, sink);
            match rest {
                Rest::Held if taken => {
                    let held = frame.delimiters.take();
                    self.refeed(frame, &held, rest_start, options, sink);
                }
                Rest::Held => self.leave(frame),
                Rest::Delimiter(follow) => {
                    let again = line.as_deref().unwrap_or(follow.bytes);
                    if taken {
                        self.refeed(frame, again, rest_start, options, sink);
                    } else {
                        let span = Span::new(rest_start, rest_start + again.len() as u64);
                        frame.release(span, again, sink);
                    }
                }
                Rest::None => {}
            }
        } else {
            frame.release(candidate_span, candidate.bytes, sink);
            if !blank.is_empty() {
                frame.release(blank_span, &blank, sink);
            }
            match rest {
                Rest::Held => self.leave(frame),
                Rest::Delimiter(follow) => {
                    self.reset_structure();
                    let span = Span::new(rest_start, rest_start + follow.bytes.len() as u64);
                    if follow.role == Role::CallOpen {
                        // An invoke opener with no tag after it: text, as in the host.
                        frame.release(span, follow.bytes, sink);
                    } else {
                        self.on_delimiter(frame, follow, span, sink);
                    }
                }
                Rest::None => self.reset_structure(),
            }
        }
    }

    /// Reports `bytes` as value text up to the argument limit; past it the call is
    /// invalid and the rest is text. False when the limit was reached.
    fn value_bytes<S: Sink>(
        &mut self,
        frame: &mut Frame,
        span: Span,
        bytes: &[u8],
        options: &Options,
        sink: &mut S,
    ) -> bool {
        if !self.in_call {
            frame.release(span, bytes, sink);
            return true;
        }
        let room = options.max_argument_bytes.saturating_sub(self.arg_bytes);
        let take = (bytes.len() as u64).min(room) as usize;
        if take > 0 {
            emit_value(
                &mut self.newline,
                self.tagset.framing,
                frame.call.index,
                Span::new(span.start, span.start + take as u64),
                &bytes[..take],
                sink,
            );
            self.arg_bytes += take as u64;
        }
        if take == bytes.len() {
            return true;
        }
        let at = span.start + take as u64;
        self.flush_newline(frame, at, sink);
        frame.invalid(Span::at(at), Diagnostic::ArgumentsTooLong, sink);
        self.reset_structure();
        frame.release(Span::new(at, span.end), &bytes[take..], sink);
        false
    }

    /// Scans bytes taken out of the look-ahead again in the current phase: at most one
    /// delimiter's length, looked at once before. Should the machine go idle among them
    /// (the argument limit), the rest is text.
    fn refeed<S: Sink>(
        &mut self,
        frame: &mut Frame,
        bytes: &[u8],
        start: u64,
        options: &Options,
        sink: &mut S,
    ) {
        let pos = self.run(frame, bytes, 0, start, options, sink);
        if pos < bytes.len() {
            self.replay = false;
            let held = frame.delimiters.take();
            let at = start + pos as u64;
            frame.release_held(&held, at, sink);
            frame.release(
                Span::new(at, start + bytes.len() as u64),
                &bytes[pos..],
                sink,
            );
        }
    }
}

/// The phase machine of a dialect whose calls are all markup (`xml`).
#[derive(Debug, Clone)]
pub(crate) struct MarkupMachine {
    modes: &'static Modes,
    frame: Frame,
    calls: MarkupCalls,
}

impl MarkupMachine {
    pub(crate) fn new(modes: &'static Modes, options: &Options) -> Self {
        MarkupMachine {
            modes,
            frame: Frame::new(options),
            calls: MarkupCalls::new(&modes.tags),
        }
    }

    fn text_dfa(&self) -> &'static Dfa {
        if self.frame.reasoning {
            self.modes.reasoning
        } else {
            self.modes.content
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
        // Token-sized chunks are mostly plain text or plain value text: hand them over
        // whole without entering the general machine.
        if !self.calls.active() {
            if self.frame.plain_text(self.text_dfa(), chunk) {
                self.frame
                    .release(Span::new(base, base + chunk.len() as u64), chunk, sink);
                return;
            }
        } else if self
            .calls
            .take_plain_value(&self.frame, chunk, base, options, sink)
        {
            return;
        }
        self.run_machine(chunk, base, options, sink);
    }

    #[inline(never)]
    fn run_machine<S: Sink>(&mut self, chunk: &[u8], base: u64, options: &Options, sink: &mut S) {
        let mut pos = 0;
        while pos < chunk.len() {
            if self.calls.active() {
                pos = self
                    .calls
                    .run(&mut self.frame, chunk, pos, base, options, sink);
                let end = base + pos as u64;
                if let Some((held, start)) = self.calls.take_replay(&mut self.frame, end) {
                    self.run(&held, start, options, sink);
                }
            } else {
                pos = self.text(chunk, pos, base, sink);
            }
        }
    }

    fn text<S: Sink>(&mut self, chunk: &[u8], pos: usize, base: u64, sink: &mut S) -> usize {
        let dfa = self.text_dfa();
        let Some((delimiter, span, end)) =
            self.frame
                .scan_text(dfa, chunk, pos, base, &mut |_, _| {}, sink)
        else {
            return chunk.len();
        };
        let modes = self.modes;
        let tagset = match delimiter.role {
            Role::SectionOpen | Role::CallOpen => Some(&modes.tags),
            Role::MarkupOpen => modes.embedded,
            _ => None,
        };
        match tagset {
            Some(tagset) => self.calls.enter(tagset, delimiter, span),
            None => {
                self.frame.text_delimiter(delimiter, span, sink);
            }
        }
        end
    }

    /// End of stream at offset `end`.
    pub(crate) fn finish<S: Sink>(&mut self, end: u64, options: &Options, sink: &mut S) {
        if self.calls.active() {
            self.calls.finish(&mut self.frame, end, options, sink);
        } else {
            self.frame.finish_text(end, sink);
        }
        let at = Span::at(end);
        self.frame.finish_drafts(at, sink);
        self.frame.finish_reasoning(at, sink);
    }
}

/// Whether `opener` is the equals form (`<function=`, `<parameter=`), whose name follows
/// it directly.
fn equals_form(opener: &Delimiter) -> bool {
    opener.bytes.last() == Some(&b'=')
}

/// Whether byte `b` right after `opener` begins its tag: a name byte in the equals form;
/// whitespace, `>` or `/` otherwise (`<parameterx` is no tag).
fn begins_tag(opener: &Delimiter, b: u8) -> bool {
    if equals_form(opener) {
        !is_ws(b) && !matches!(b, b'<' | b'>' | b'/' | b'=')
    } else {
        is_ws(b) || b == b'>' || b == b'/'
    }
}

/// A newline then `bytes`, when they fit a candidate's buffer.
fn newline_then(bytes: &[u8]) -> Option<ArrayVec<u8, CANDIDATE_CAP>> {
    let mut line = ArrayVec::new();
    line.try_extend_from_slice(b"\n").ok()?;
    line.try_extend_from_slice(bytes).ok()?;
    Some(line)
}

/// Reports value bytes of call `call`. With framing, a final `\n` is held back (`newline`)
/// as the value's possible trailing framing, and one held before is reported first.
#[inline(always)]
fn emit_value<S: Sink>(
    newline: &mut bool,
    framing: bool,
    call: u32,
    span: Span,
    bytes: &[u8],
    sink: &mut S,
) {
    if !framing && !bytes.is_empty() {
        // Only framed values ever hold a newline back.
        sink.tool_value(span, call, Piece::Verbatim, bytes);
    } else if !bytes.is_empty() {
        emit_framed_value(newline, call, span, bytes, sink);
    }
}

/// [`emit_value`] for a dialect whose values carry framing newlines.
#[inline(never)]
fn emit_framed_value<S: Sink>(
    newline: &mut bool,
    call: u32,
    span: Span,
    bytes: &[u8],
    sink: &mut S,
) {
    if core::mem::take(newline) {
        sink.tool_value(
            Span::new(span.start - 1, span.start),
            call,
            Piece::Verbatim,
            b"\n",
        );
    }
    let (bytes, span) = match bytes.split_last() {
        Some((b'\n', rest)) => {
            *newline = true;
            (rest, Span::new(span.start, span.end - 1))
        }
        _ => (bytes, span),
    };
    if !bytes.is_empty() {
        sink.tool_value(span, call, Piece::Verbatim, bytes);
    }
}
