//! The GLM family: `<tool_call>NAME<arg_key>k</arg_key><arg_value>v</arg_value>…</tool_call>`
//! with raw-text values, with or without newlines between the parts (GLM-4.5/4.6 write one
//! tag a line, GLM-4.7/5 none), and `<think>` reasoning. Formats: docs/seed.md §2.1,
//! docs/dialects.md §glm; the repairs are the seed's healing rules and corpus 016, 018, 020.
//! The same machine reads `hunyuan`, `iquest-q1` and `k2-horizon` (docs/dialects.md) from
//! their own tables: their tags, and for `hunyuan` and `k2-horizon` a `section` mode (the
//! calls sit in a section, [`Phase::Section`] between them) and, for `hunyuan`, an
//! `args_open` separator after the name.
//!
//! Phase diagram (`·` is content or reasoning text):
//!
//! ```text
//!  · --<tool_call>--> Name --\n--> Body --<arg_key>--> Key --</arg_key>--> AfterKey
//!  Name --<arg_key>--> Key              Name | Body --</tool_call>--> ·
//!  AfterKey --<arg_value>--> Value --candidate closer--> Pending --confirmed--> Body | ·
//!  Pending --rejected--> Value          Value --<arg_key>--> Key (healing) --> Value
//!  · --section opener--> Section --call opener--> Name    a call that ends --> Section
//!  Section --section closer | text--> ·                Name --separator--> Body
//! ```
//!
//! Rule 4 of docs/dialects.md is the `Pending` phase: `</arg_value>`, `</tool_call>` or (the
//! seed's wrong closer) `</arg_key>` in a value counts only when what follows it, after at
//! most [`MAX_LOOKAHEAD`] bytes of whitespace, can continue the structure (the `body` mode's
//! delimiters, matched anchored) or the stream ends; otherwise it is value text. An
//! `<arg_key>` in a value is the seed's missing-closer heal: it ends the value only when a
//! whole `KEY</arg_key>` and `<arg_value>` follow, so it is read as a key on trial, whose
//! bytes go back into the value if it fails. Whitespace at the end of a value is held (at
//! most [`MAX_LOOKAHEAD`] bytes) until the next byte says whether it is the value's or the
//! framing before such a healed key.
//!
//! Names and keys are gathered whole in one bounded buffer: a name is trimmed and checked
//! before the call starts (docs/dialects.md rule 9), so a block whose name is not one is text.
//!
//! The driver ([`Engine`](crate::engine::Engine)) owns the chunk loop and the text phase;
//! this module is the family ([`Family`] for [`Glm`]): the phases after `<tool_call>`, one
//! step each, the name in `name`, key tags in `key`, values in `value`, and the rule-4
//! look-ahead state (candidate closer, whitespace held, what to scan again) in `lookahead`.

mod key;
mod lookahead;
mod name;
mod section;
mod value;

use core::ops::ControlFlow;

use arrayvec::ArrayVec;

use crate::automaton::{Delimiter, Dfa, START};
use crate::engine::budget::Budget;
use crate::engine::frame::{envelope_while, held_markup, Anchored, Frame};
use crate::engine::{Family, Sealed, TextModes};
use crate::lex::name::is_ws;
use crate::options::{MAX_LOOKAHEAD, MAX_NAME};
use crate::tables::BareCall;
use crate::{Diagnostic, Markup, Role, Sink, Span};
use lookahead::{give_back, Lookahead, Rest};

/// The modes of a glm-family table (`glm.toml`, `hunyuan.toml`, …) and its knobs.
#[derive(Debug)]
pub(crate) struct Modes {
    /// Content and reasoning.
    pub(crate) text: TextModes,
    /// Between the calls of a section, anchored (after whitespace); `None` for a dialect
    /// whose calls stand alone (glm).
    pub(crate) section: Option<&'static Dfa>,
    /// What a call opener outside a section means (the `bare_call` knob; read only when
    /// the dialect has sections).
    pub(crate) bare_call: BareCall,
    /// Between the parts of a call, anchored: after the name, between pairs, after a
    /// candidate value closer.
    pub(crate) body: &'static Dfa,
    /// At a `<` in a key tag, anchored.
    pub(crate) key: &'static Dfa,
    /// Inside a value: candidate closers, unanchored.
    pub(crate) value: &'static Dfa,
}

/// The longest key tag delimiter (`</arg_key>`, `</arg_key:opensource>`, …) of any
/// glm-family table; a unit test checks every table against it.
const KEY_TAG_MAX: usize = 24;

/// Room in the buffer beyond the longest name or key: a key tag's closer and one repeated
/// tag, and the whitespace around the key and after them (glm's two 10-byte closers and
/// [`MAX_LOOKAHEAD`] bytes of whitespace).
const KEY_ROOM: usize = 20 + MAX_LOOKAHEAD;
const _: () = assert!(KEY_ROOM >= 2 * KEY_TAG_MAX, "a key of MAX_NAME bytes fits");

/// Bytes of a name, or of a key tag after its opener up to the value opener: the key with
/// the whitespace around it, its closer and one repeated tag, and the whitespace after them.
const BUF: usize = MAX_NAME + KEY_ROOM;
const _: () = assert!(BUF <= u8::MAX as usize, "offsets in the buffer fit a byte");

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    /// Content or reasoning.
    Text,
    /// After `<tool_call>`, reading the name (held with it until it ends).
    Name,
    /// Inside a call, between its parts.
    Body,
    /// After `<arg_key>`, reading the key.
    Key,
    /// After the key's `</arg_key>`, until `<arg_value>`.
    AfterKey,
    /// Inside a value.
    Value,
    /// A candidate value closer, waiting for what follows it.
    Pending,
    /// Inside a section (`<tool_calls…>`), between its calls.
    Section,
}

/// The phase machine of the `glm` dialect.
#[derive(Debug, Clone)]
pub(crate) struct Glm {
    modes: &'static Modes,
    phase: Phase,
    /// A call has started and not ended.
    in_call: bool,
    /// A section opener was read and its closer not yet: a call that completes returns to
    /// [`Phase::Section`]. Meaningful while a call is open or in that phase.
    in_section: bool,
    /// The key being read is on trial, not yet confirmed: the missing-closer heal of the
    /// value before it (its `<arg_key>` was found in that value), or the key after a
    /// candidate closer (`closer`).
    healing: bool,
    /// The key on trial follows a candidate closer (held in `lookahead` with its
    /// whitespace, then `<arg_key>`): the closer counts only if a whole key tag follows.
    closer: bool,
    /// The delimiter found but not reported yet: the `<tool_call>` of the name being read
    /// (`Name`), the `<arg_key>` of a healing key, or the candidate closer (`Pending`); and
    /// whitespace held: at the end of a value (`Value`, healing `Key`/`AfterKey`), or after a
    /// candidate (`Pending`).
    lookahead: Lookahead,
    /// The name, or the key tag, read so far.
    buf: ArrayVec<u8, BUF>,
    /// Where the key begins and ends in `buf` (after a repeated opener; before its closer).
    key_from: u8,
    key_to: u8,
    /// Offset in `buf` of a repeated key tag, if there was one.
    repeat: Option<u8>,
    /// Value bytes of the current call.
    budget: Budget,
    /// The name ran into the first key (`NAMEKEY</arg_key>`, corpus 018): that key is
    /// reported empty.
    glued: bool,
}

impl Glm {
    /// A stream's start, in text, over the modes of a glm table.
    pub(crate) fn new(modes: &'static Modes) -> Self {
        Glm {
            modes,
            phase: Phase::Text,
            in_call: false,
            in_section: false,
            healing: false,
            closer: false,
            lookahead: Lookahead::EMPTY,
            buf: ArrayVec::new(),
            key_from: 0,
            key_to: 0,
            repeat: None,
            budget: Budget::EMPTY,
            glued: false,
        }
    }

    /// A delimiter in text: a call opener begins a name; the others mean what they mean
    /// in every family.
    pub(super) fn delimiter_in_text<S: Sink>(
        &mut self,
        frame: &mut Frame,
        delimiter: &'static Delimiter,
        span: Span,
        sink: &mut S,
    ) {
        if delimiter.role == Role::CallOpen {
            if self.phase != Phase::Section {
                // A call outside any section (a bare call, where the dialect has them).
                self.in_section = false;
            }
            self.lookahead.hold(delimiter, span.start);
            self.buf.clear();
            self.phase = Phase::Name;
        } else if delimiter.role == Role::SectionOpen && self.modes.section.is_some() {
            sink.markup(span, Markup::Delimiter(delimiter.role), delimiter.bytes);
            self.in_section = true;
            self.phase = Phase::Section;
        } else {
            frame.text_delimiter(delimiter, span, sink);
        }
    }

    /// A delimiter of the call modes met where the structure has just ended: what it
    /// means in text if the text mode has it, else text.
    pub(super) fn delimiter_as_text<S: Sink>(
        &mut self,
        frame: &mut Frame,
        delimiter: &'static Delimiter,
        span: Span,
        sink: &mut S,
    ) {
        let in_text = self
            .modes
            .text
            .dfa(frame)
            .delimiters
            .iter()
            .any(|d| d.bytes == delimiter.bytes);
        if in_text {
            self.delimiter_in_text(frame, delimiter, span, sink);
        } else {
            frame.release(span, delimiter.bytes, sink);
        }
    }

    /// One step of a phase that reads a run of bytes, then a delimiter of a call mode
    /// matched anchored (the name, between the parts, a key tag, after a candidate closer):
    /// the run only when no delimiter prefix is held, then the delimiter, or what is there
    /// instead of one.
    #[inline(always)]
    fn tag_step<S: Sink>(
        &mut self,
        frame: &mut Frame,
        chunk: &[u8],
        pos: usize,
        base: u64,
        sink: &mut S,
    ) -> usize {
        let mut i = pos;
        if frame.delimiters.state == START {
            let run = match self.phase {
                Phase::Name => self.name_run(frame, chunk, pos, base, sink),
                Phase::Key | Phase::AfterKey => self.key_run(frame, chunk, pos, base, sink),
                Phase::Pending => self.pending_run(frame, chunk, pos, sink),
                // Between the parts of a call: whitespace is the call's markup.
                _ => ControlFlow::Continue(envelope_while(chunk, base, pos, is_ws, sink)),
            };
            match run {
                ControlFlow::Continue(next) if next < chunk.len() => i = next,
                ControlFlow::Continue(next) | ControlFlow::Break(next) => return next,
            }
        }
        let dfa = match (self.phase, self.modes.section) {
            (Phase::Key | Phase::AfterKey, _) => self.modes.key,
            (Phase::Section, Some(section)) => section,
            _ => self.modes.body,
        };
        match frame.anchored(dfa, chunk, i) {
            Anchored::Pending => chunk.len(),
            Anchored::Matched(delimiter, end) => {
                let at = base + end as u64;
                let span = Span::new(at - delimiter.bytes.len() as u64, at);
                match self.phase {
                    Phase::Name => self.name_tag(frame, delimiter, span, sink),
                    Phase::Key | Phase::AfterKey => {
                        self.key_tag(frame, delimiter, span, sink);
                    }
                    Phase::Pending => self.pending_tag(frame, delimiter, span, sink),
                    Phase::Section => self.section_tag(frame, delimiter, span, sink),
                    _ => self.structure(frame, delimiter, span, sink),
                }
                end
            }
            Anchored::Failed(candidate) => {
                let start = base + candidate as u64 - frame.delimiters.hold.len() as u64;
                self.not_a_tag(frame, start, sink);
                give_back(frame, Rest::Held);
                candidate
            }
        }
    }

    /// Bytes that do not begin a delimiter where a phase of [`Glm::tag_step`] needs one
    /// (the candidate began at stream offset `start`; the bytes held before it are given
    /// back to be scanned again in the phase this leaves).
    fn not_a_tag<S: Sink>(&mut self, frame: &mut Frame, start: u64, sink: &mut S) {
        match self.phase {
            // Markup inside the name.
            Phase::Name => self.not_a_name(frame, Diagnostic::InvalidName, sink),
            Phase::Key | Phase::AfterKey => {
                let diagnostic = Diagnostic::MalformedCall;
                self.bad_key(frame, None, Span::at(start), diagnostic, sink);
            }
            // Not a delimiter that can follow the candidate: it is value text.
            Phase::Pending => self.reject(frame, Rest::None, sink),
            // Text cannot be in a section: it ended without its closer.
            Phase::Section => self.leave_section(Span::at(start), sink),
            // Text between the parts of a call: it is broken.
            _ => self.broken(
                frame,
                Span::new(start, start + 1),
                Diagnostic::MalformedCall,
                sink,
            ),
        }
    }

    /// The call breaks at `span`: it ends as invalid and what follows is text.
    pub(super) fn broken<S: Sink>(
        &mut self,
        frame: &mut Frame,
        span: Span,
        diagnostic: Diagnostic,
        sink: &mut S,
    ) {
        frame.invalid(span, diagnostic, sink);
        self.in_call = false;
        self.phase = Phase::Text;
    }

    /// A delimiter that continues (or ends) the call, in the `body` phase or right after a
    /// confirmed value closer.
    pub(super) fn structure<S: Sink>(
        &mut self,
        frame: &mut Frame,
        delimiter: &'static Delimiter,
        span: Span,
        sink: &mut S,
    ) {
        if !self.in_call && self.in_section {
            // After `</tool_call>` ended a value: the section goes on.
            self.section_tag(frame, delimiter, span, sink);
            return;
        }
        if !self.in_call {
            // After `</tool_call>` ended a value: the structure is over.
            self.phase = Phase::Text;
            self.delimiter_as_text(frame, delimiter, span, sink);
            return;
        }
        let at = Span::at(span.start);
        match delimiter.role {
            Role::ParamOpen => {
                sink.markup(span, Markup::Delimiter(delimiter.role), delimiter.bytes);
                self.begin_key();
            }
            Role::CallClose => {
                sink.markup(span, Markup::Delimiter(delimiter.role), delimiter.bytes);
                self.complete(frame, span, sink);
            }
            Role::CallOpen => {
                sink.diagnostic(at, Diagnostic::UnclosedCall);
                self.complete(frame, at, sink);
                self.delimiter_in_text(frame, delimiter, span, sink);
            }
            Role::SectionClose => {
                // The call's closer is missing; the section closes.
                sink.diagnostic(at, Diagnostic::UnclosedCall);
                self.complete(frame, at, sink);
                self.section_tag(frame, delimiter, span, sink);
            }
            Role::ReasoningClose if frame.reasoning => {
                // A draft whose closer is missing: the reasoning closer demotes it with the
                // other drafts (rule 7), and ends its section.
                sink.diagnostic(at, Diagnostic::UnclosedCall);
                if core::mem::take(&mut self.in_section) {
                    sink.diagnostic(at, Diagnostic::UnclosedSection);
                }
                self.complete(frame, at, sink);
                frame.text_delimiter(delimiter, span, sink);
            }
            Role::Stop => {
                frame.truncate(at, sink);
                self.in_call = false;
                self.phase = Phase::Text;
                frame.text_delimiter(delimiter, span, sink);
            }
            _ => {
                // A closer with nothing to close: the call's bytes, and it is broken.
                sink.markup(span, Markup::Envelope, delimiter.bytes);
                self.broken(frame, at, Diagnostic::MalformedCall, sink);
            }
        }
    }

    /// The call's structure closed: its section goes on, if it is in one.
    pub(super) fn complete<S: Sink>(&mut self, frame: &mut Frame, span: Span, sink: &mut S) {
        frame.complete(span, sink);
        self.in_call = false;
        self.phase = if self.in_section {
            Phase::Section
        } else {
            Phase::Text
        };
    }

    /// The first delimiter of `role` in the `body` mode: the key opener (`<arg_key>`) of the
    /// dialect's table, which has exactly one (a unit test checks).
    pub(super) fn body_delimiter(&self, role: Role) -> &'static Delimiter {
        let found = self.modes.body.delimiters.iter().find(|d| d.role == role);
        found.unwrap_or(&self.modes.body.delimiters[0])
    }

    /// Longest key text (with a repeated opener and whitespace) kept before its closer:
    /// the rest of the buffer is room for the table's key closer and one repeated closer
    /// (160 bytes in glm, 138 with Hunyuan's longer tags).
    pub(super) fn key_text_room(&self) -> usize {
        BUF - 2 * self.key_close_len()
    }

    /// Length of the key closer (`</arg_key>`) of the dialect's table.
    pub(super) fn key_close_len(&self) -> usize {
        let mut closers = self.modes.key.delimiters.iter();
        closers
            .find(|d| d.role == Role::ParamClose)
            .map_or(0, |d| d.bytes.len())
    }
}

impl Sealed for Glm {}

impl Family for Glm {
    #[inline(always)]
    fn text_dfa(&self, frame: &Frame) -> Option<&'static Dfa> {
        (self.phase == Phase::Text).then(|| self.modes.text.dfa(frame))
    }

    /// A whole chunk of value text, when nothing in it can close the value.
    #[inline(always)]
    fn plain_chunk<S: Sink>(
        &mut self,
        frame: &mut Frame,
        chunk: &[u8],
        span: Span,
        sink: &mut S,
    ) -> bool {
        if self.phase == Phase::Value && self.plain_value(frame, chunk) {
            self.budget.add(chunk.len());
            self.lookahead
                .value_text(frame.call.index, span, chunk, sink);
            return true;
        }
        false
    }

    /// A call opener in text is held with the name that follows it (the call starts only
    /// once the name is one, rule 9); the other delimiters mean what they mean everywhere.
    #[inline]
    fn text_delimiter<S: Sink>(
        &mut self,
        frame: &mut Frame,
        delimiter: &'static Delimiter,
        span: Span,
        sink: &mut S,
    ) {
        self.delimiter_in_text(frame, delimiter, span, sink);
    }

    /// Not reached: glm's text modes have no role of their own but the call opener, which
    /// [`Glm::delimiter_in_text`] takes before the shared roles are looked at.
    fn text_role<S: Sink>(&mut self, _: &mut Frame, _: Role, _: Span, _: &mut S) {}

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
            Phase::Text => pos,
            Phase::Value => self.value(frame, chunk, pos, base, sink),
            Phase::Pending if self.lookahead.held().is_none() => {
                // No candidate to decide on: value again.
                self.phase = Phase::Value;
                pos
            }
            _ => self.tag_step(frame, chunk, pos, base, sink),
        }
    }

    fn finish_phase<S: Sink>(&mut self, frame: &mut Frame, end: u64, sink: &mut S) {
        match self.phase {
            Phase::Text => {}
            Phase::Name => {
                let held = frame.delimiters.take();
                let nameless = self.buf.trim_ascii().is_empty();
                if nameless {
                    // Only the opener: nothing says it was a call.
                    self.not_a_name(frame, Diagnostic::TruncatedCall, sink);
                }
                if !nameless && self.start_call(frame, sink) {
                    held_markup(&held, end, sink);
                } else {
                    frame.release_held(&held, end, sink);
                }
            }
            Phase::Body => frame.held_as_markup(end, sink),
            Phase::Key | Phase::AfterKey => {
                let held = frame.delimiters.take();
                if self.healing && self.closer {
                    // The end of the stream continues the structure (rule 4).
                    self.confirm_trial(frame, sink);
                }
                if self.healing {
                    self.reject_heal(frame, sink);
                    self.flush_blank(frame, sink);
                    self.held_value(frame, &held, end, sink);
                } else {
                    let start = end - (held.len() + self.buf.len()) as u64;
                    if !self.buf.is_empty() {
                        let span = Span::new(start, start + self.buf.len() as u64);
                        sink.markup(span, Markup::Envelope, &self.buf);
                    }
                    held_markup(&held, end, sink);
                }
            }
            Phase::Value => {
                self.flush_blank(frame, sink);
                let held = frame.delimiters.take();
                self.held_value(frame, &held, end, sink);
            }
            Phase::Pending => {
                // The end of the stream continues the structure (rule 4).
                let held = frame.delimiters.take();
                self.confirm(frame, sink);
                if self.in_call || self.phase == Phase::Section {
                    held_markup(&held, end, sink);
                } else {
                    frame.release_held(&held, end, sink);
                }
            }
            Phase::Section => frame.held_as_markup(end, sink),
        }
        if self.in_section && (self.in_call || self.phase == Phase::Section) {
            sink.diagnostic(Span::at(end), Diagnostic::UnclosedSection);
        }
    }

    #[inline(always)]
    fn in_call(&self) -> bool {
        self.in_call
    }

    #[inline(always)]
    fn to_text(&mut self) {
        self.in_call = false;
        self.in_section = false;
        self.phase = Phase::Text;
    }
}
