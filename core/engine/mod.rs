//! The one driver of every dialect: the chunk loop, the text phase, the argument budget,
//! the replay of held bytes and the order of the end of the stream. A family (the JSON
//! bodies, the parameters, the literals, Harmony's headers) is plugged in through
//! [`Family`], statically: [`Engine<F>`] is monomorphised per family, so the driver costs
//! no indirection per byte.
//!
//! What a family does not decide:
//! - Text (content or reasoning) is scanned here with the family's text-mode DFA
//!   ([`Family::text_dfa`]), memchr skip and holdback included ([`Frame::scan_text`]); the
//!   roles that mean the same everywhere (reasoning bounds, a fabricated result, stop and
//!   stray tokens) are handled by [`Frame::text_delimiter`]; the family gets the rest
//!   ([`Family::text_role`]).
//! - A whole chunk with nothing to decide goes out in one event: plain text here, a plain
//!   run inside a call through [`Family::plain_chunk`].
//! - A call's argument budget, where a family measures it in stream offsets
//!   ([`Family::budget_end`]), clips the chunk the family sees; past it, the family ends
//!   the call ([`Family::over_budget`]).
//! - Held bytes a failed anchored candidate gave back ([`Frame::replay`]) are scanned once
//!   more, in the phase that now applies.
//! - The end of the stream, always in this order: the text's held bytes, or the family's
//!   ([`Family::finish_phase`]); the drafts of an unclosed reasoning block (rule 7); the open
//!   call cut off ([`Family::cut_off`]); the reasoning block closed.

pub(crate) mod budget;
pub(crate) mod follow;
pub(crate) mod frame;

use crate::automaton::{Delimiter, Dfa};
use crate::options::Options;
use crate::token::Tokens;
use crate::{Role, Sink, Span};
use frame::Frame;

mod sealed {
    /// Only the crate's families plug into the driver.
    pub trait Sealed {}
}

pub(crate) use sealed::Sealed;

/// A family of dialects: its phases after a call opens, as the driver calls them. Every
/// method gets the [`Frame`] (the delimiter scan, reasoning and the call lifecycle) the
/// driver owns.
pub(crate) trait Family: Sealed {
    /// In the family's text phase (content or reasoning, as [`Frame::reasoning`] says),
    /// the one the driver scans: the DFA of the text mode now; `None` in a call's phases.
    fn text_dfa(&self, frame: &Frame) -> Option<&'static Dfa>;

    /// Sees the text bytes the driver releases, in stream order (a family that tracks lines
    /// of its text does it here).
    #[inline(always)]
    fn observe_text(&mut self, _reasoning: bool, _bytes: &[u8]) {}

    /// Takes a whole chunk inside a call in one step when nothing in it needs deciding (the
    /// inside of a string value); returns whether it did. Must do nothing when it returns
    /// `false`.
    #[inline(always)]
    fn plain_chunk<S: Sink>(
        &mut self,
        _frame: &mut Frame,
        _chunk: &[u8],
        _span: Span,
        _sink: &mut S,
    ) -> bool {
        false
    }

    /// A delimiter found in text. By default the shared roles are handled by
    /// [`Frame::text_delimiter`] and the family's own by [`Family::text_role`].
    #[inline]
    fn text_delimiter<S: Sink>(
        &mut self,
        frame: &mut Frame,
        delimiter: &'static Delimiter,
        span: Span,
        sink: &mut S,
    ) {
        if let Some(role) = frame.text_delimiter(delimiter, span, sink) {
            self.text_role(frame, role, span, sink);
        }
    }

    /// A delimiter of one of the family's own roles (a call or section opener) found in
    /// text at `span`, already reported as markup.
    fn text_role<S: Sink>(&mut self, frame: &mut Frame, role: Role, span: Span, sink: &mut S);

    /// Scans `chunk[pos..]` in the family's current phase (not text); `chunk[0]` is at
    /// stream offset `base`. Returns the chunk offset where it stopped: the chunk end, or
    /// where the phase changed. Must make progress or change phase.
    fn step<S: Sink>(
        &mut self,
        frame: &mut Frame,
        chunk: &[u8],
        pos: usize,
        base: u64,
        sink: &mut S,
    ) -> usize;

    /// The stream offset where the open call's argument budget runs out, for a family that
    /// measures it so (the literal families, from the start of the call's body); `None`
    /// when there is no call or the family counts argument bytes itself.
    #[inline(always)]
    fn budget_end(&self, _frame: &Frame) -> Option<u64> {
        None
    }

    /// The open call reached its budget at stream offset `at`: the family ends it
    /// ([`Diagnostic::ArgumentsTooLong`](crate::Diagnostic::ArgumentsTooLong)) and returns to
    /// text.
    #[inline(always)]
    fn over_budget<S: Sink>(&mut self, _frame: &mut Frame, _at: u64, _sink: &mut S) {}

    /// At the end of the stream (offset `end`) in a phase other than text: the family
    /// reports the bytes it holds.
    fn finish_phase<S: Sink>(&mut self, frame: &mut Frame, end: u64, sink: &mut S);

    /// Whether a call is open after [`Family::finish_phase`].
    fn in_call(&self) -> bool;

    /// The stream ended inside the open call: by default it is incomplete.
    #[inline]
    fn cut_off<S: Sink>(&mut self, frame: &mut Frame, end: u64, sink: &mut S) {
        frame.cut_off(Span::at(end), sink);
    }

    /// Returns to the text phase at the end of the stream.
    fn to_text(&mut self);
}

/// A dialect's two text modes, as the families whose text is only content or reasoning
/// read them (Harmony's text modes follow its messages instead).
#[derive(Debug)]
pub(crate) struct TextModes {
    /// Visible text.
    pub(crate) content: &'static Dfa,
    /// Inside a reasoning block.
    pub(crate) reasoning: &'static Dfa,
}

impl TextModes {
    /// The DFA of the text mode the stream is in.
    #[inline(always)]
    pub(crate) fn dfa(&self, frame: &Frame) -> &'static Dfa {
        if frame.reasoning {
            self.reasoning
        } else {
            self.content
        }
    }
}

/// The driver of one stream over family `F`.
#[derive(Debug, Clone)]
pub(crate) struct Engine<F> {
    frame: Frame,
    family: F,
}

impl<F: Family> Engine<F> {
    /// The options the stream is scanned with.
    pub(crate) fn options(&self) -> &Options {
        &self.frame.options
    }

    /// Token mode's state (crate::token).
    pub(crate) fn tokens(&self) -> &Tokens {
        &self.frame.tokens
    }

    /// Token mode's state, to set.
    pub(crate) fn tokens_mut(&mut self) -> &mut Tokens {
        &mut self.frame.tokens
    }

    /// A stream's start, in the family's first phase.
    pub(crate) fn new(family: F, options: &Options) -> Self {
        Engine {
            frame: Frame::new(options),
            family,
        }
    }

    /// Scans one chunk whose first byte is at stream offset `base`.
    #[inline]
    pub(crate) fn run<S: Sink>(&mut self, chunk: &[u8], base: u64, sink: &mut S) {
        // Token-sized chunks are mostly plain text or plain string contents: hand them
        // over whole without entering the general machine.
        let span = Span::new(base, base + chunk.len() as u64);
        if let Some(dfa) = self.family.text_dfa(&self.frame) {
            if self.frame.plain_text(dfa, chunk) {
                self.family.observe_text(self.frame.reasoning, chunk);
                self.frame.release(span, chunk, sink);
                return;
            }
        } else if self.family.plain_chunk(&mut self.frame, chunk, span, sink) {
            return;
        }
        self.run_machine(chunk, base, sink);
    }

    /// The general machine: phase after phase until the chunk is used up.
    #[inline(never)]
    fn run_machine<S: Sink>(&mut self, chunk: &[u8], base: u64, sink: &mut S) {
        let mut pos = 0;
        while pos < chunk.len() {
            // Set again each time round: the replay below runs the driver on other bytes.
            self.frame.base = base;
            let end = match self.family.budget_end(&self.frame) {
                None => chunk.len(),
                Some(limit) if limit <= base + pos as u64 => {
                    self.family
                        .over_budget(&mut self.frame, base + pos as u64, sink);
                    continue;
                }
                Some(limit) => {
                    usize::try_from(limit - base).map_or(chunk.len(), |end| end.min(chunk.len()))
                }
            };
            let chunk = &chunk[..end];
            pos = match self.family.text_dfa(&self.frame) {
                Some(dfa) => self.text(dfa, chunk, pos, base, sink),
                None => self.family.step(&mut self.frame, chunk, pos, base, sink),
            };
            if self.frame.replay {
                self.frame.replay = false;
                // A failed anchored candidate: the bytes it held from earlier chunks come
                // right before `pos` and are scanned again in the phase now current (at
                // most one delimiter's length, once).
                let held = self.frame.delimiters.take();
                if !held.is_empty() {
                    let start = base + pos as u64 - held.len() as u64;
                    self.run(&held, start, sink);
                }
            }
        }
    }

    /// Text from `chunk[pos..]` up to the next delimiter, which is acted on.
    fn text<S: Sink>(
        &mut self,
        dfa: &'static Dfa,
        chunk: &[u8],
        pos: usize,
        base: u64,
        sink: &mut S,
    ) -> usize {
        let Engine { frame, family } = self;
        let found = frame.scan_text(
            dfa,
            chunk,
            pos,
            base,
            &mut |reasoning, bytes| family.observe_text(reasoning, bytes),
            sink,
        );
        match found {
            None => chunk.len(),
            Some((delimiter, span, end)) => {
                family.text_delimiter(frame, delimiter, span, sink);
                end
            }
        }
    }

    /// Ends the stream at offset `end`: nothing is held back any more, every call has
    /// ended and the reasoning block is closed.
    pub(crate) fn finish<S: Sink>(&mut self, end: u64, sink: &mut S) {
        let Engine { frame, family } = self;
        if family.text_dfa(frame).is_some() {
            frame.finish_text(end, sink);
        } else {
            family.finish_phase(frame, end, sink);
        }
        let at = Span::at(end);
        frame.finish_drafts(at, sink);
        if family.in_call() {
            family.cut_off(frame, end, sink);
        }
        family.to_text();
        frame.finish_reasoning(at, sink);
    }
}
