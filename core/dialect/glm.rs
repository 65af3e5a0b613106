//! The GLM family: `<tool_call>NAME<arg_key>k</arg_key><arg_value>v</arg_value>…</tool_call>`
//! with raw-text values, with or without newlines between the parts (GLM-4.5/4.6 write one
//! tag a line, GLM-4.7/5 none), and `<think>` reasoning. Formats: docs/seed.md §2.1,
//! docs/dialects.md §glm; the repairs are the seed's healing rules and corpus 016, 018, 020.
//!
//! Phase diagram (`·` is content or reasoning text):
//!
//! ```text
//!  · --<tool_call>--> Name --\n--> Body --<arg_key>--> Key --</arg_key>--> AfterKey
//!  Name --<arg_key>--> Key              Name | Body --</tool_call>--> ·
//!  AfterKey --<arg_value>--> Value --candidate closer--> Pending --confirmed--> Body | ·
//!  Pending --rejected--> Value          Value --<arg_key>--> Key (healing) --> Value
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

use arrayvec::ArrayVec;

use crate::automaton::{Delimiter, Dfa, START};
use crate::engine::frame::{held_markup, Anchored, Frame};
use crate::lex::blank::Blank;
use crate::lex::name::{is_ws, trim, valid_name};
use crate::options::{Options, MAX_LOOKAHEAD, MAX_NAME};
use crate::scan::Stop;
use crate::{Diagnostic, Markup, Piece, Role, Sink, Span, ValueKind};

/// The modes of `glm.toml`.
#[derive(Debug)]
pub(crate) struct Modes {
    /// Visible text.
    pub(crate) content: &'static Dfa,
    /// Inside a reasoning block.
    pub(crate) reasoning: &'static Dfa,
    /// Between the parts of a call, anchored: after the name, between pairs, after a
    /// candidate value closer.
    pub(crate) body: &'static Dfa,
    /// At a `<` in a key tag, anchored.
    pub(crate) key: &'static Dfa,
    /// Inside a value: candidate closers, unanchored.
    pub(crate) value: &'static Dfa,
}

/// `<arg_key>`, the `body` mode's only key opener.
const KEY_OPEN: &[u8] = b"<arg_key>";

/// `</arg_key>`, which a key tag may repeat once.
const KEY_CLOSE_LEN: usize = b"</arg_key>".len();

/// Bytes of a name, or of a key tag after `<arg_key>` up to `<arg_value>`: the key with the
/// whitespace around it, its closer and one repeated tag, and the whitespace after them.
const BUF: usize = MAX_NAME + 2 * KEY_CLOSE_LEN + MAX_LOOKAHEAD;
const _: () = assert!(BUF <= u8::MAX as usize, "offsets in the buffer fit a byte");

/// Longest key text (with a repeated opener and whitespace) kept before its closer: the
/// rest of the buffer is room for the key's closer and one repeated closer.
const KEY_TEXT: usize = BUF - 2 * KEY_CLOSE_LEN;

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
}

/// What followed a rejected candidate, to be scanned again as value.
enum Rest {
    /// Nothing.
    None,
    /// The bytes held in the frame: a failed anchored match.
    Held,
    /// A whole delimiter that cannot follow the candidate.
    Delimiter(&'static Delimiter),
}

/// The phase machine of the `glm` dialect.
#[derive(Debug, Clone)]
pub(crate) struct Glm {
    modes: &'static Modes,
    frame: Frame,
    phase: Phase,
    /// A call has started and not ended.
    in_call: bool,
    /// The key being read is on trial, not yet confirmed: the missing-closer heal of the
    /// value before it (its `<arg_key>` was found in that value), or the key after a
    /// candidate closer (`closer`).
    healing: bool,
    /// The key on trial follows a candidate closer (held in `held`, its whitespace in
    /// `blank`, then `<arg_key>`): the closer counts only if a whole key tag follows.
    closer: bool,
    /// The delimiter found but not reported yet, and the stream offset of its first byte:
    /// the `<tool_call>` of the name being read (`Name`), the `<arg_key>` of a healing key,
    /// or the candidate closer (`Pending`).
    held: Option<(&'static Delimiter, u64)>,
    /// The name, or the key tag, read so far.
    buf: ArrayVec<u8, BUF>,
    /// Where the key begins and ends in `buf` (after a repeated opener; before its closer).
    key_from: u8,
    key_to: u8,
    /// Offset in `buf` of a repeated key tag, if there was one.
    repeat: Option<u8>,
    /// Whitespace held: at the end of a value (`Value`, healing `Key`/`AfterKey`), or after
    /// a candidate (`Pending`); it begins at stream offset `blank_start`.
    blank: Blank,
    blank_start: u64,
    /// Value bytes of the current call, against [`Options::max_argument_bytes`].
    arg_bytes: u64,
    /// Bytes held in the frame are to be scanned again in the current phase.
    replay: bool,
    /// The name ran into the first key (`NAMEKEY</arg_key>`, corpus 018): that key is
    /// reported empty.
    glued: bool,
}

impl Glm {
    pub(crate) fn new(modes: &'static Modes, options: &Options) -> Self {
        Glm {
            modes,
            frame: Frame::new(options),
            phase: Phase::Text,
            in_call: false,
            healing: false,
            closer: false,
            held: None,
            buf: ArrayVec::new(),
            key_from: 0,
            key_to: 0,
            repeat: None,
            blank: Blank::EMPTY,
            blank_start: 0,
            arg_bytes: 0,
            replay: false,
            glued: false,
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
        match self.phase {
            Phase::Text if self.frame.plain_text(self.text_dfa(), chunk) => {
                self.frame
                    .release(Span::new(base, base + chunk.len() as u64), chunk, sink);
            }
            Phase::Value if self.plain_value(chunk, options) => {
                self.arg_bytes += chunk.len() as u64;
                value_text(
                    &mut self.blank,
                    &mut self.blank_start,
                    self.frame.call.index,
                    Span::new(base, base + chunk.len() as u64),
                    chunk,
                    sink,
                );
            }
            _ => self.run_machine(chunk, base, options, sink),
        }
    }

    /// A whole chunk of value text: no delimiter prefix held, no candidate closer, within
    /// the argument limit (whitespace at its end is held as in [`Glm::value`]).
    #[inline]
    fn plain_value(&self, chunk: &[u8], options: &Options) -> bool {
        self.frame.delimiters.state == START
            && chunk.len() as u64 <= options.max_argument_bytes.saturating_sub(self.arg_bytes)
            && self.modes.value.find_start(chunk).is_none()
    }

    #[inline(never)]
    fn run_machine<S: Sink>(&mut self, chunk: &[u8], base: u64, options: &Options, sink: &mut S) {
        let mut pos = 0;
        while pos < chunk.len() {
            pos = match self.phase {
                Phase::Text => self.text(chunk, pos, base, sink),
                Phase::Name => self.name(chunk, pos, base, options, sink),
                Phase::Body => self.body(chunk, pos, base, sink),
                Phase::Key | Phase::AfterKey => self.key(chunk, pos, base, options, sink),
                Phase::Value => self.value(chunk, pos, base, options, sink),
                Phase::Pending => self.pending(chunk, pos, base, options, sink),
            };
            if core::mem::take(&mut self.replay) {
                // A failed anchored match: the bytes it held from earlier chunks come right
                // before `pos` and are scanned again in the phase now current (at most one
                // delimiter's length, once).
                let held = self.frame.delimiters.take();
                if !held.is_empty() {
                    let start = base + pos as u64 - held.len() as u64;
                    self.run_machine(&held, start, options, sink);
                }
            }
        }
    }

    /// After a failed anchored match: the automaton starts over, and the bytes it held are
    /// to be scanned again.
    fn replay_held(&mut self) {
        self.frame.delimiters.state = START;
        self.replay = !self.frame.delimiters.hold.is_empty();
    }

    fn text<S: Sink>(&mut self, chunk: &[u8], pos: usize, base: u64, sink: &mut S) -> usize {
        let dfa = self.text_dfa();
        let Some((delimiter, span, end)) =
            self.frame
                .scan_text(dfa, chunk, pos, base, &mut |_, _| {}, sink)
        else {
            return chunk.len();
        };
        self.text_delimiter(delimiter, span, sink);
        end
    }

    /// A delimiter in text: a call opener begins a name; the others mean what they mean
    /// in every family.
    fn text_delimiter<S: Sink>(&mut self, delimiter: &'static Delimiter, span: Span, sink: &mut S) {
        if delimiter.role == Role::CallOpen {
            self.held = Some((delimiter, span.start));
            self.buf.clear();
            self.phase = Phase::Name;
        } else {
            self.frame.text_delimiter(delimiter, span, sink);
        }
    }

    /// A delimiter of the call modes met where the structure has just ended: what it
    /// means in text if the text mode has it, else text.
    fn delimiter_as_text<S: Sink>(
        &mut self,
        delimiter: &'static Delimiter,
        span: Span,
        sink: &mut S,
    ) {
        let in_text = self
            .text_dfa()
            .delimiters
            .iter()
            .any(|d| d.bytes == delimiter.bytes);
        if in_text {
            self.text_delimiter(delimiter, span, sink);
        } else {
            self.frame.release(span, delimiter.bytes, sink);
        }
    }

    /// Reading the name: everything up to a line feed (once the name has begun) or a `<`,
    /// where the `body` mode says how the name ended.
    fn name<S: Sink>(
        &mut self,
        chunk: &[u8],
        pos: usize,
        base: u64,
        options: &Options,
        sink: &mut S,
    ) -> usize {
        let mut i = pos;
        if self.frame.delimiters.state == START {
            while i < chunk.len() {
                let b = chunk[i];
                if b == b'<' {
                    break;
                }
                if b == b'\n' && !self.buf.trim_ascii().is_empty() {
                    let span = Span::new(base + i as u64, base + i as u64 + 1);
                    if self.start_call(options, sink) {
                        sink.markup(span, Markup::Envelope, b"\n");
                        self.phase = Phase::Body;
                    } else {
                        self.frame.release(span, b"\n", sink);
                    }
                    return i + 1;
                }
                if self.buf.try_push(b).is_err() {
                    self.not_a_name(Diagnostic::NameTooLong, sink);
                    return i;
                }
                i += 1;
            }
            if i == chunk.len() {
                return i;
            }
        }
        match self.frame.anchored(self.modes.body, chunk, i) {
            Anchored::Pending => chunk.len(),
            Anchored::Matched(delimiter, end) => {
                let at = base + end as u64;
                let span = Span::new(at - delimiter.bytes.len() as u64, at);
                match delimiter.role {
                    Role::ParamOpen | Role::CallClose => {
                        if self.start_call(options, sink) {
                            self.structure(delimiter, span, sink);
                        } else {
                            self.frame.release(span, delimiter.bytes, sink);
                        }
                    }
                    Role::Stray => {
                        // `NAMEKEY</arg_key>`: the key's opener is missing (corpus 018). Only
                        // the tool list tells the name from the key, so the call is reported
                        // with the glued name and an empty first key, announced by the
                        // diagnostic before the call starts (alloc-ext splits or drops it).
                        self.glued = true;
                        if self.start_call(options, sink) {
                            self.begin_key();
                            self.glued = true;
                            let kept = self.push_tag(delimiter);
                            debug_assert!(kept, "the key buffer holds a closer");
                            self.phase = Phase::AfterKey;
                        } else {
                            self.glued = false;
                            self.frame.release(span, delimiter.bytes, sink);
                        }
                    }
                    _ => {
                        self.not_a_name(Diagnostic::InvalidName, sink);
                        self.delimiter_as_text(delimiter, span, sink);
                    }
                }
                end
            }
            Anchored::Failed(candidate) => {
                // Markup inside the name.
                self.not_a_name(Diagnostic::InvalidName, sink);
                self.replay_held();
                candidate
            }
        }
    }

    /// The name ended: if it is one, the call starts (its opener and name reported as
    /// markup). Otherwise the opener and the name are text, with a diagnostic; so is the
    /// rest when a limit refuses the call. Returns whether the call is open.
    fn start_call<S: Sink>(&mut self, options: &Options, sink: &mut S) -> bool {
        let Some((opener, start)) = self.held.take() else {
            self.phase = Phase::Text;
            return false;
        };
        let opener_span = Span::new(start, start + opener.bytes.len() as u64);
        let raw = Span::new(opener_span.end, opener_span.end + self.buf.len() as u64);
        let (lead, name) = trim(&self.buf);
        let diagnostic = if name.len() > MAX_NAME {
            Some(Diagnostic::NameTooLong)
        } else if !valid_name(name) {
            Some(Diagnostic::InvalidName)
        } else {
            None
        };
        if let Some(diagnostic) = diagnostic {
            self.held = Some((opener, start));
            self.not_a_name(diagnostic, sink);
            return false;
        }
        if self.glued {
            sink.diagnostic(Span::new(start, raw.end), Diagnostic::MissingKeyOpen);
        }
        sink.markup(opener_span, Markup::Delimiter(opener.role), opener.bytes);
        if !self.buf.is_empty() {
            sink.markup(raw, Markup::Envelope, &self.buf);
        }
        self.phase = Phase::Text;
        if !self.frame.open_call(opener_span, options, sink) {
            return false;
        }
        let name_start = raw.start + lead as u64;
        let name_span = Span::new(name_start, name_start + name.len() as u64);
        self.frame.name(name_span, name, sink);
        self.in_call = true;
        self.arg_bytes = 0;
        self.phase = Phase::Body;
        true
    }

    /// The block after `<tool_call>` has no name: the opener and what was read are text.
    fn not_a_name<S: Sink>(&mut self, diagnostic: Diagnostic, sink: &mut S) {
        self.phase = Phase::Text;
        let Some((opener, start)) = self.held.take() else {
            return;
        };
        let opener_span = Span::new(start, start + opener.bytes.len() as u64);
        let raw = Span::new(opener_span.end, opener_span.end + self.buf.len() as u64);
        self.frame.release(opener_span, opener.bytes, sink);
        if !self.buf.is_empty() {
            self.frame.release(raw, &self.buf, sink);
        }
        sink.diagnostic(Span::new(start, raw.end), diagnostic);
    }

    /// Between the parts of a call: whitespace, then a delimiter of the `body` mode.
    fn body<S: Sink>(&mut self, chunk: &[u8], pos: usize, base: u64, sink: &mut S) -> usize {
        let at = |i: usize| base + i as u64;
        let mut i = pos;
        if self.frame.delimiters.state == START {
            let ws = chunk[i..].iter().take_while(|&&b| is_ws(b)).count();
            if ws > 0 {
                let span = Span::new(at(i), at(i + ws));
                sink.markup(span, Markup::Envelope, &chunk[i..i + ws]);
                i += ws;
            }
            if i == chunk.len() {
                return i;
            }
        }
        match self.frame.anchored(self.modes.body, chunk, i) {
            Anchored::Pending => chunk.len(),
            Anchored::Matched(delimiter, end) => {
                let span = Span::new(at(end) - delimiter.bytes.len() as u64, at(end));
                self.structure(delimiter, span, sink);
                end
            }
            Anchored::Failed(candidate) => {
                // Text between the parts of a call: it is broken.
                let start = at(candidate) - self.frame.delimiters.hold.len() as u64;
                self.broken(Span::new(start, start + 1), Diagnostic::MalformedCall, sink);
                self.replay_held();
                candidate
            }
        }
    }

    /// The call breaks at `span`: it ends as invalid and what follows is text.
    fn broken<S: Sink>(&mut self, span: Span, diagnostic: Diagnostic, sink: &mut S) {
        self.frame.invalid(span, diagnostic, sink);
        self.in_call = false;
        self.phase = Phase::Text;
    }

    /// A delimiter that continues (or ends) the call, in the `body` phase or right after a
    /// confirmed value closer.
    fn structure<S: Sink>(&mut self, delimiter: &'static Delimiter, span: Span, sink: &mut S) {
        if !self.in_call {
            // After `</tool_call>` ended a value: the structure is over.
            self.phase = Phase::Text;
            self.delimiter_as_text(delimiter, span, sink);
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
                self.complete(span, sink);
            }
            Role::CallOpen => {
                sink.diagnostic(at, Diagnostic::UnclosedCall);
                self.complete(at, sink);
                self.text_delimiter(delimiter, span, sink);
            }
            Role::ReasoningClose if self.frame.reasoning => {
                // A draft whose closer is missing: the reasoning closer demotes it with the
                // other drafts (rule 7).
                sink.diagnostic(at, Diagnostic::UnclosedCall);
                self.complete(at, sink);
                self.frame.text_delimiter(delimiter, span, sink);
            }
            Role::Stop => {
                self.frame.truncate(at, sink);
                self.in_call = false;
                self.phase = Phase::Text;
                self.frame.text_delimiter(delimiter, span, sink);
            }
            _ => {
                // A closer with nothing to close: the call's bytes, and it is broken.
                sink.markup(span, Markup::Envelope, delimiter.bytes);
                self.broken(at, Diagnostic::MalformedCall, sink);
            }
        }
    }

    /// The call's structure closed.
    fn complete<S: Sink>(&mut self, span: Span, sink: &mut S) {
        self.frame.complete(span, sink);
        self.in_call = false;
        self.phase = Phase::Text;
    }

    /// Reads the key after `opener` (at stream offset `start`), found in a value, on trial.
    fn begin_trial(&mut self, opener: &'static Delimiter, start: u64) {
        self.begin_key();
        self.held = Some((opener, start));
        self.healing = true;
    }

    fn begin_key(&mut self) {
        self.buf.clear();
        self.key_from = 0;
        self.key_to = 0;
        self.repeat = None;
        self.healing = false;
        self.glued = false;
        self.phase = Phase::Key;
    }

    /// Reading a key tag: the key up to `<`, then `</arg_key>`, whitespace and `<arg_value>`
    /// (the `key` mode), with one repeated `<arg_key>` or `</arg_key>` tolerated.
    fn key<S: Sink>(
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
            let after_key = self.phase == Phase::AfterKey;
            while i < chunk.len() && chunk[i] != b'<' {
                let b = chunk[i];
                // The heal's signature: a key on one line (docs/seed.md §2.1); whitespace only
                // after the key's closer.
                let (fits, room) = if after_key {
                    (is_ws(b), !self.buf.is_full())
                } else {
                    let heal = self.healing && !self.closer;
                    (!(heal && b == b'\n'), self.buf.len() < KEY_TEXT)
                };
                if !fits || !room {
                    let diagnostic = if fits {
                        Diagnostic::KeyTooLong
                    } else {
                        Diagnostic::MalformedCall
                    };
                    return self.bad_key(None, Span::at(at(i)), diagnostic, options, sink, i);
                }
                self.buf.push(b);
                i += 1;
            }
            if i == chunk.len() {
                return i;
            }
        }
        match self.frame.anchored(self.modes.key, chunk, i) {
            Anchored::Pending => chunk.len(),
            Anchored::Matched(delimiter, end) => {
                let span = Span::new(at(end) - delimiter.bytes.len() as u64, at(end));
                let blank_key = self.buf.trim_ascii().is_empty();
                let len = self.buf.len() as u8;
                let repeat = self.repeat.is_none();
                let kept = match (self.phase, delimiter.role) {
                    (Phase::Key, Role::ParamClose) => {
                        self.key_to = len;
                        self.phase = Phase::AfterKey;
                        self.push_tag(delimiter)
                    }
                    (Phase::Key, Role::ParamOpen) if blank_key && repeat => {
                        self.repeat = Some(len);
                        self.key_from = len + delimiter.bytes.len() as u8;
                        self.push_tag(delimiter)
                    }
                    (Phase::AfterKey, Role::ParamClose) if repeat => {
                        self.repeat = Some(len);
                        self.push_tag(delimiter)
                    }
                    (Phase::AfterKey, Role::ArgsOpen) => {
                        self.value_opens(delimiter, span, sink);
                        true
                    }
                    _ => false,
                };
                if !kept {
                    let diagnostic = Diagnostic::MalformedCall;
                    return self.bad_key(Some(delimiter), span, diagnostic, options, sink, end);
                }
                end
            }
            Anchored::Failed(candidate) => {
                let start = at(candidate) - self.frame.delimiters.hold.len() as u64;
                let diagnostic = Diagnostic::MalformedCall;
                let pos = self.bad_key(None, Span::at(start), diagnostic, options, sink, candidate);
                self.replay_held();
                pos
            }
        }
    }

    /// Keeps a key tag's delimiter in the buffer; false when there is no room left (after
    /// a run of whitespace).
    fn push_tag(&mut self, delimiter: &'static Delimiter) -> bool {
        self.buf.try_extend_from_slice(delimiter.bytes).is_ok()
    }

    /// The key tag is not one at `span` (after `delimiter`, if one matched there; the call
    /// breaks with `diagnostic`), and the machine goes on at chunk offset `pos`. A healing key goes back into the value it
    /// was found in; otherwise the call is broken.
    fn bad_key<S: Sink>(
        &mut self,
        delimiter: Option<&'static Delimiter>,
        span: Span,
        diagnostic: Diagnostic,
        options: &Options,
        sink: &mut S,
        pos: usize,
    ) -> usize {
        if self.healing {
            self.reject_heal(options, sink);
            if let Some(delimiter) = delimiter {
                self.refeed(delimiter.bytes, span.start, options, sink);
            }
            return pos;
        }
        let start = span.start - self.buf.len() as u64;
        if !self.buf.is_empty() {
            sink.markup(Span::new(start, span.start), Markup::Envelope, &self.buf);
        }
        if let Some(delimiter) = delimiter {
            sink.markup(span, Markup::Envelope, delimiter.bytes);
        }
        self.broken(Span::at(span.start), diagnostic, sink);
        pos
    }

    /// The key on trial was not one: the value's held whitespace, its `<arg_key>` and what
    /// was read after it are value text again.
    fn reject_heal<S: Sink>(&mut self, options: &Options, sink: &mut S) {
        self.healing = false;
        self.phase = Phase::Value;
        let (opener, start) = if core::mem::take(&mut self.closer) {
            // The candidate closer before the key, and its whitespace, come first.
            let start = self.trial_opener_start();
            self.reject(Rest::None, start, options, sink);
            (KEY_OPEN, start)
        } else {
            let Some((opener, start)) = self.held.take() else {
                return;
            };
            (opener.bytes, start)
        };
        let buf = core::mem::take(&mut self.buf);
        let opener_span = Span::new(start, start + opener.len() as u64);
        let raw = Span::new(opener_span.end, opener_span.end + buf.len() as u64);
        // Every piece is reported whatever happens (`&`, not `&&`): once the limit is
        // reached the rest is text.
        let _ = self.value_bytes(opener_span, opener, options, sink)
            & self.value_bytes(raw, &buf, options, sink);
    }

    /// `<arg_value>` ended the key tag at `span`: the parameter begins (ending the value
    /// before it, for a healing key).
    fn value_opens<S: Sink>(&mut self, delimiter: &'static Delimiter, span: Span, sink: &mut S) {
        let start = span.start - self.buf.len() as u64;
        if self.healing && self.closer {
            self.confirm_trial(sink);
        } else if self.healing {
            let Some((opener, opener_start)) = self.held.take() else {
                return;
            };
            // The whitespace before the healed key is framing (docs/seed.md §2.1).
            let blank = core::mem::replace(&mut self.blank, Blank::EMPTY).bytes();
            if !blank.is_empty() {
                let blank_span = Span::new(self.blank_start, self.blank_start + blank.len() as u64);
                sink.markup(blank_span, Markup::Envelope, &blank);
            }
            self.frame.param_end(Span::at(opener_start), sink);
            sink.diagnostic(Span::at(opener_start), Diagnostic::UnclosedValue);
            let opener_span = Span::new(opener_start, opener_start + opener.bytes.len() as u64);
            sink.markup(opener_span, Markup::Delimiter(opener.role), opener.bytes);
            self.healing = false;
        }
        if !self.buf.is_empty() {
            sink.markup(Span::new(start, span.start), Markup::Envelope, &self.buf);
        }
        sink.markup(span, Markup::Envelope, delimiter.bytes);
        if let Some(at) = self.repeat {
            let at = start + u64::from(at);
            sink.diagnostic(
                Span::new(at, at + KEY_CLOSE_LEN as u64),
                Diagnostic::DuplicateTag,
            );
        }
        let raw = self
            .buf
            .get(usize::from(self.key_from)..usize::from(self.key_to))
            .unwrap_or_default();
        let (lead, key) = trim(raw);
        let key_start = start + u64::from(self.key_from) + lead as u64;
        let key_span = Span::new(key_start, key_start + key.len() as u64);
        if key.is_empty() && !self.glued {
            self.broken(key_span, Diagnostic::MissingKey, sink);
        } else if key.len() > MAX_NAME {
            self.broken(key_span, Diagnostic::KeyTooLong, sink);
        } else {
            self.frame.param(key_span, key, ValueKind::Untyped, sink);
            self.phase = Phase::Value;
        }
    }

    /// The key after a candidate closer is one (or the stream ended in it): the closer
    /// counts, and the key's opener is reported.
    fn confirm_trial<S: Sink>(&mut self, sink: &mut S) {
        let start = self.trial_opener_start();
        self.closer = false;
        self.healing = false;
        self.confirm(sink);
        let span = Span::new(start, start + KEY_OPEN.len() as u64);
        sink.markup(span, Markup::Delimiter(Role::ParamOpen), KEY_OPEN);
        self.phase = Phase::Key;
    }

    /// Stream offset of the `<arg_key>` on trial after a candidate closer: right after the
    /// whitespace that follows the closer.
    fn trial_opener_start(&self) -> u64 {
        self.blank_start + self.blank.len() as u64
    }

    /// Inside a value: everything up to a candidate closer is value text, but whitespace
    /// at its end is held.
    fn value<S: Sink>(
        &mut self,
        chunk: &[u8],
        pos: usize,
        base: u64,
        options: &Options,
        sink: &mut S,
    ) -> usize {
        let call = self.frame.call.index;
        // The limit falls on the same byte whatever the chunking: where the value bytes
        // taken (released or held as whitespace) plus those held as a possible closer
        // reach it.
        let counted = self.arg_bytes + self.frame.delimiters.hold.len() as u64;
        let room = options.max_argument_bytes.saturating_sub(counted);
        let end = if (chunk.len() - pos) as u64 > room {
            pos + room as usize
        } else {
            chunk.len()
        };
        let arg_bytes = &mut self.arg_bytes;
        let blank = &mut self.blank;
        let blank_start = &mut self.blank_start;
        let stop = self.frame.delimiters.scan(
            self.modes.value,
            &chunk[..end],
            pos,
            base,
            &mut |span, bytes| {
                *arg_bytes += bytes.len() as u64;
                value_text(blank, blank_start, call, span, bytes, sink);
            },
        );
        match stop {
            Stop::Match(delimiter, to) => {
                let at = base + to as u64;
                let span = Span::new(at - delimiter.bytes.len() as u64, at);
                match delimiter.role {
                    Role::ParamOpen => {
                        // The missing-closer heal, on trial.
                        self.begin_trial(delimiter, span.start);
                    }
                    Role::Stop => {
                        self.flush_blank(sink);
                        self.frame.truncate(Span::at(span.start), sink);
                        self.in_call = false;
                        self.phase = Phase::Text;
                        self.frame.text_delimiter(delimiter, span, sink);
                    }
                    _ => {
                        self.flush_blank(sink);
                        self.held = Some((delimiter, span.start));
                        self.blank_start = span.end;
                        self.phase = Phase::Pending;
                    }
                }
                to
            }
            Stop::End if end < chunk.len() => {
                self.flush_blank(sink);
                let held = self.frame.delimiters.take();
                let at = base + end as u64;
                if !held.is_empty() {
                    let span = Span::new(at - held.len() as u64, at);
                    sink.tool_value(span, call, Piece::Verbatim, &held);
                }
                self.broken(Span::at(at), Diagnostic::ArgumentsTooLong, sink);
                end
            }
            Stop::End => chunk.len(),
        }
    }

    /// Releases the whitespace held at the end of a value as value text.
    fn flush_blank<S: Sink>(&mut self, sink: &mut S) {
        let blank = core::mem::replace(&mut self.blank, Blank::EMPTY).bytes();
        if !blank.is_empty() {
            let span = Span::new(self.blank_start, self.blank_start + blank.len() as u64);
            sink.tool_value(span, self.frame.call.index, Piece::Verbatim, &blank);
        }
    }

    /// After a candidate closer: whitespace, then a delimiter that admits it, decide.
    fn pending<S: Sink>(
        &mut self,
        chunk: &[u8],
        pos: usize,
        base: u64,
        options: &Options,
        sink: &mut S,
    ) -> usize {
        let Some((candidate, _)) = self.held else {
            self.phase = Phase::Value;
            return pos;
        };
        let mut i = pos;
        if self.frame.delimiters.state == START {
            while i < chunk.len() && is_ws(chunk[i]) {
                if !self.blank.push(chunk[i]) {
                    self.reject(Rest::None, base + i as u64, options, sink);
                    return i;
                }
                i += 1;
            }
            if i == chunk.len() {
                return i;
            }
        }
        match self.frame.anchored(self.modes.body, chunk, i) {
            Anchored::Pending => chunk.len(),
            Anchored::Matched(follow, end) => {
                let at = base + end as u64;
                let span = Span::new(at - follow.bytes.len() as u64, at);
                if follow.role == Role::ParamOpen
                    && admits(candidate.role, follow.role, self.frame.reasoning)
                {
                    // Only a whole key tag continues the structure: the key is read on
                    // trial, as for the missing-closer heal.
                    self.begin_key();
                    self.healing = true;
                    self.closer = true;
                } else if admits(candidate.role, follow.role, self.frame.reasoning) {
                    self.confirm(sink);
                    if follow.role == Role::ParamClose {
                        // `</arg_key></arg_value>`: the stray closer goes with the wrong one.
                        sink.markup(span, Markup::Delimiter(follow.role), follow.bytes);
                    } else {
                        self.structure(follow, span, sink);
                    }
                } else {
                    self.reject(Rest::Delimiter(follow), span.start, options, sink);
                }
                end
            }
            Anchored::Failed(at) => {
                let start = base + at as u64 - self.frame.delimiters.hold.len() as u64;
                self.reject(Rest::Held, start, options, sink);
                at
            }
        }
    }

    /// The candidate counts: report it and its whitespace; the value has ended.
    fn confirm<S: Sink>(&mut self, sink: &mut S) {
        let blank = core::mem::replace(&mut self.blank, Blank::EMPTY).bytes();
        let Some((candidate, start)) = self.held.take() else {
            return;
        };
        let span = Span::new(start, start + candidate.bytes.len() as u64);
        match candidate.role {
            Role::CallClose => {
                self.frame.param_end(Span::at(start), sink);
                sink.diagnostic(Span::at(start), Diagnostic::UnclosedValue);
                sink.markup(span, Markup::Delimiter(candidate.role), candidate.bytes);
                self.complete(span, sink);
            }
            Role::ParamClose => {
                sink.markup(span, Markup::Delimiter(candidate.role), candidate.bytes);
                self.frame.param_end(span, sink);
                self.phase = Phase::Body;
            }
            _ => {
                sink.markup(span, Markup::Envelope, candidate.bytes);
                self.frame.param_end(span, sink);
                sink.diagnostic(span, Diagnostic::WrongCloser);
                self.phase = Phase::Body;
            }
        }
        if !blank.is_empty() {
            let blank_span = Span::new(span.end, span.end + blank.len() as u64);
            if self.in_call {
                sink.markup(blank_span, Markup::Envelope, &blank);
            } else {
                self.frame.release(blank_span, &blank, sink);
            }
        }
    }

    /// The candidate does not count: it and its whitespace are value text, and `rest`
    /// (what followed them, from offset `rest_start`) is scanned again as value.
    fn reject<S: Sink>(&mut self, rest: Rest, rest_start: u64, options: &Options, sink: &mut S) {
        let blank = core::mem::replace(&mut self.blank, Blank::EMPTY).bytes();
        self.phase = Phase::Value;
        let Some((candidate, start)) = self.held.take() else {
            return;
        };
        let blank_start = start + candidate.bytes.len() as u64;
        let candidate_span = Span::new(start, blank_start);
        let blank_span = Span::new(blank_start, blank_start + blank.len() as u64);
        let _ = self.value_bytes(candidate_span, candidate.bytes, options, sink)
            & self.value_bytes(blank_span, &blank, options, sink);
        match rest {
            Rest::Held => self.replay_held(),
            Rest::Delimiter(follow) => self.refeed(follow.bytes, rest_start, options, sink),
            Rest::None => {}
        }
    }

    /// Reports `bytes` as value text (its whitespace end held) up to the argument limit;
    /// past it the call is invalid and the rest is text. False when the limit was reached.
    fn value_bytes<S: Sink>(
        &mut self,
        span: Span,
        bytes: &[u8],
        options: &Options,
        sink: &mut S,
    ) -> bool {
        if !self.in_call {
            self.frame.release(span, bytes, sink);
            return true;
        }
        let room = options.max_argument_bytes.saturating_sub(self.arg_bytes);
        let take = (bytes.len() as u64).min(room) as usize;
        let call = self.frame.call.index;
        if take > 0 {
            self.arg_bytes += take as u64;
            let taken = Span::new(span.start, span.start + take as u64);
            value_text(
                &mut self.blank,
                &mut self.blank_start,
                call,
                taken,
                &bytes[..take],
                sink,
            );
        }
        if take == bytes.len() {
            return true;
        }
        self.flush_blank(sink);
        let at = span.start + take as u64;
        self.broken(Span::at(at), Diagnostic::ArgumentsTooLong, sink);
        self.frame
            .release(Span::new(at, span.end), &bytes[take..], sink);
        false
    }

    /// Scans `bytes` (a delimiter taken out of the look-ahead, looked at once before) again
    /// in the current phase.
    fn refeed<S: Sink>(&mut self, bytes: &[u8], start: u64, options: &Options, sink: &mut S) {
        self.run_machine(bytes, start, options, sink);
    }

    /// End of stream at offset `end`.
    pub(crate) fn finish<S: Sink>(&mut self, end: u64, options: &Options, sink: &mut S) {
        let at = Span::at(end);
        match self.phase {
            Phase::Text => self.frame.finish_text(end, sink),
            Phase::Name => {
                let held = self.frame.delimiters.take();
                let nameless = self.buf.trim_ascii().is_empty();
                if nameless {
                    // Only the opener: nothing says it was a call.
                    self.not_a_name(Diagnostic::TruncatedCall, sink);
                }
                if !nameless && self.start_call(options, sink) {
                    held_markup(&held, end, sink);
                } else {
                    self.frame.release_held(&held, end, sink);
                }
            }
            Phase::Body => self.frame.held_as_markup(end, sink),
            Phase::Key | Phase::AfterKey => {
                let held = self.frame.delimiters.take();
                if self.healing && self.closer {
                    // The end of the stream continues the structure (rule 4).
                    self.confirm_trial(sink);
                }
                if self.healing {
                    self.reject_heal(options, sink);
                    self.flush_blank(sink);
                    self.held_value(&held, end, sink);
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
                self.flush_blank(sink);
                let held = self.frame.delimiters.take();
                self.held_value(&held, end, sink);
            }
            Phase::Pending => {
                // The end of the stream continues the structure (rule 4).
                let held = self.frame.delimiters.take();
                self.confirm(sink);
                if self.in_call {
                    held_markup(&held, end, sink);
                } else {
                    self.frame.release_held(&held, end, sink);
                }
            }
        }
        self.frame.finish_drafts(at, sink);
        if self.in_call {
            self.frame.cut_off(at, sink);
            self.in_call = false;
        }
        self.phase = Phase::Text;
        self.frame.finish_reasoning(at, sink);
    }

    /// Bytes held at the end of the stream (offset `end`), as value text of the open call.
    fn held_value<S: Sink>(&self, held: &[u8], end: u64, sink: &mut S) {
        if !held.is_empty() && self.in_call {
            let span = Span::new(end - held.len() as u64, end);
            sink.tool_value(span, self.frame.call.index, Piece::Verbatim, held);
        } else {
            self.frame.release_held(held, end, sink);
        }
    }
}

/// Whether `follow` after a candidate value closer continues the structure (`reasoning`:
/// the call is a draft inside reasoning, which its closer may end).
fn admits(candidate: Role, follow: Role, reasoning: bool) -> bool {
    match (candidate, follow) {
        (_, Role::ReasoningClose) => reasoning,
        (Role::ParamClose, Role::ParamOpen | Role::CallClose | Role::CallOpen | Role::Stop) => true,
        (Role::CallClose, Role::CallOpen | Role::Stop) => true,
        (
            Role::Stray,
            Role::ParamOpen | Role::CallClose | Role::ParamClose | Role::CallOpen | Role::Stop,
        ) => true,
        _ => false,
    }
}

/// Value text at `span`: reported, except whitespace at its end, which joins `blank` (at
/// most [`MAX_LOOKAHEAD`] bytes; a longer run is value text as it overflows).
fn value_text<S: Sink>(
    blank: &mut Blank,
    blank_start: &mut u64,
    call: u32,
    span: Span,
    bytes: &[u8],
    sink: &mut S,
) {
    let body = bytes.len() - bytes.iter().rev().take_while(|&&b| is_ws(b)).count();
    let flush = |blank: &mut Blank, blank_start: u64, sink: &mut S| {
        if blank.len() == 0 {
            return;
        }
        let held = core::mem::replace(blank, Blank::EMPTY).bytes();
        if !held.is_empty() {
            let span = Span::new(blank_start, blank_start + held.len() as u64);
            sink.tool_value(span, call, Piece::Verbatim, &held);
        }
    };
    if body > 0 {
        flush(blank, *blank_start, sink);
        sink.tool_value(
            Span::new(span.start, span.start + body as u64),
            call,
            Piece::Verbatim,
            &bytes[..body],
        );
    }
    for (k, &b) in bytes[body..].iter().enumerate() {
        let at = span.start + (body + k) as u64;
        if blank.len() == 0 {
            *blank_start = at;
        }
        if !blank.push(b) {
            flush(blank, *blank_start, sink);
            *blank_start = at;
            blank.push(b);
        }
    }
}
