//! The parameters shape: calls written as tags with raw-text parameters,
//! `<invoke name="N"><parameter name="k">v</parameter></invoke>`, bare or inside a section
//! wrapper, in one or more tagsets (the `xml` dialect reads the plain tags and DeepSeek's
//! DSML spelling `<｜DSML｜invoke …>`; `anthropic`, `minimax` and `qwen3-coder` are tagsets
//! of their own; the `deepseek` dialect embeds the DSML tagset in its special-token
//! family). Formats: docs/seed.md §2.4, §2.5, §2.7 (DSML);
//! docs/dialects.md §deepseek, §minimax, §anthropic, §minicpm5 (a value's CDATA sections,
//! `verbatim.rs`).
//!
//! [`ParamCalls`] is the machine of the structure itself (sections, invokes, parameters,
//! values). It owns no text phase and takes the driver's [`Frame`] by reference, so that
//! any family's text phase can hand it the stream: the `xml`-shaped dialects
//! (`dialect/params.rs`) and the DSML phase of the special-token family
//! (`dialect/token_json/`). The host's text phase meets a section or invoke opener and calls
//! [`ParamCalls::enter`]; its `Family::step` runs [`ParamCalls::run`] while
//! [`ParamCalls::active`]; when the machine hands the stream back with bytes still held it
//! sets [`Frame::replay`] (the driver scans them again in text); at the end of the stream the
//! host calls [`ParamCalls::finish`].
//!
//! Phase diagram of [`ParamCalls`] (`·` is the host's text):
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
use crate::engine::budget::Budget;
use crate::engine::follow;
use crate::engine::frame::{envelope_while, Anchored, Frame};
use crate::lex::blank::Blank;
use crate::lex::name::{is_ws, trim, valid_name};
use crate::lex::tag::{Push, TagLexer, MAX_TAG};
use crate::options::MAX_NAME;
use crate::scan::Stop;
use crate::tables::{BareCall, TagForm};
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
    /// The closer of a verbatim section that a `quote` delimiter of `value` opens (the
    /// `cdata_close` knob, MiniCPM 5's `]]>` after `<![CDATA[`): every byte up to it is value
    /// as written. `None`: a value has no such sections.
    pub(crate) cdata_close: Option<&'static [u8]>,
    /// How the tags are spelled: their end and the attributes of names, keys and value
    /// types (the `tag` knob; Kimi K3's `<|sep|>`, `tool`, `key`, `type`).
    pub(crate) form: &'static TagForm,
}

/// The candidate closer named after the open parameter: `</`, the key, `>`. Its bytes are
/// put together by [`ParamCalls::candidate_bytes`].
static KEY_CLOSER: Delimiter = Delimiter {
    bytes: b"</>",
    role: Role::ParamClose,
};

/// The generic closer start of [`Tagset::closers`], after the tag form's prefix.
const CLOSER_START: &[u8] = b"</";

/// Bytes of a candidate closer: a tag prefix (at most 16 bytes), `</`, a key of at most a
/// tag's length, `>`.
const CANDIDATE_CAP: usize = 16 + MAX_TAG + 3;

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
    /// Inside a verbatim (CDATA) section of a value: bytes up to [`Tagset::cdata_close`].
    Verbatim,
}

/// The machine of markup structure, embeddable in any host text phase (see the module
/// docs). It reports through the host's [`Frame`]: calls, drafts and text all go there.
#[derive(Debug, Clone)]
pub(crate) struct ParamCalls {
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
    /// Value bytes of the current call.
    budget: Budget,
    /// `Verbatim`: how many bytes of the section's closer the last bytes read spell (held,
    /// not reported yet).
    verbatim_held: u8,
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

impl ParamCalls {
    pub(crate) fn new(tagset: &'static Tagset) -> Self {
        ParamCalls {
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
            budget: Budget::EMPTY,
            verbatim_held: 0,
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

    /// Takes a whole chunk of plain value text: nothing held and no candidate closer in
    /// it (token-sized chunks inside long values).
    #[inline(always)]
    pub(crate) fn take_plain_value<S: Sink>(
        &mut self,
        frame: &Frame,
        chunk: &[u8],
        base: u64,
        sink: &mut S,
    ) -> bool {
        let len = chunk.len() as u64;
        if self.phase == Phase::Value
            && !self.lead
            && frame.delimiters.state == START
            && self.budget.fits(chunk.len(), &frame.options)
            && self.tagset.value.find_start(chunk).is_none()
        {
            self.budget.add(chunk.len());
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
        sink: &mut S,
    ) -> usize {
        while pos < chunk.len() {
            pos = match self.phase {
                Phase::Idle => return pos,
                Phase::Section => self.section(frame, chunk, pos, base, sink),
                Phase::Invoke => self.invoke(frame, chunk, pos, base, sink),
                Phase::Tag => self.tag(frame, chunk, pos, base, sink),
                Phase::Value => self.value(frame, chunk, pos, base, sink),
                Phase::Pending => self.pending(frame, chunk, pos, base, sink),
                Phase::Closer => self.closer(frame, chunk, pos, sink),
                Phase::Verbatim => self.verbatim(frame, chunk, pos, base, sink),
            };
        }
        pos
    }

    /// End of the stream at offset `end`: the end continues any structure (a pending
    /// candidate counts), held bytes are the structure's markup, an open call is
    /// incomplete and an open section is reported.
    pub(crate) fn finish<S: Sink>(&mut self, frame: &mut Frame, end: u64, sink: &mut S) {
        let at = Span::at(end);
        match self.phase {
            Phase::Idle => return,
            Phase::Pending if self.held.is_some_and(|(c, _)| c.role == Role::ParamOpen) => {
                // A line-initial opener with nothing after it: value text.
                self.reject(frame, Rest::None, end, sink);
                self.flush_newline(frame, end, sink);
            }
            Phase::Value => {
                self.flush_newline(frame, end - frame.delimiters.hold.len() as u64, sink)
            }
            // A section the end of the stream cut off: its held closer prefix is value.
            Phase::Verbatim => self.flush_verbatim(frame, end, sink),
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
                        && frame.open_call(opener_span, sink)
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
        self.verbatim_held = 0;
    }

    /// Hands the stream back to the host; the bytes held in the frame are the host's to
    /// scan again.
    fn leave(&mut self, frame: &mut Frame) {
        self.reset_structure();
        // Whatever our automaton was matching is over (a failed anchored match leaves its
        // state behind); the bytes held for it are the host's text, scanned again by the
        // driver.
        frame.delimiters.state = START;
        frame.replay = !frame.delimiters.hold.is_empty();
    }

    fn begin_tag(&mut self, opener: &'static Delimiter, start: u64) {
        self.held = Some((opener, start));
        self.tag = if equals_form(opener)
            || (self.tagset.form.element && opener.role == Role::ParamOpen)
        {
            // With the template's framing newline after the tag, a line break ends a name
            // whose `>` is missing (docs/dialects.md §qwen3-coder).
            TagLexer::equals(self.tagset.framing)
        } else {
            TagLexer::spelled(self.tagset.form, opener.role == Role::ParamOpen)
        };
        self.phase = Phase::Tag;
    }

    fn begin_pending(&mut self, candidate: &'static Delimiter, start: u64) {
        self.held = Some((candidate, start));
        self.blank = Blank::EMPTY;
        self.follow = None;
        self.phase = Phase::Pending;
    }
}

mod structure;
mod value;
mod verbatim;

use structure::{begins_tag, equals_form};
use value::emit_value;
