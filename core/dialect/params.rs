//! The parameters family on the driver: the dialects whose calls are all tags with raw-text
//! values (`xml`, `anthropic`, `minimax`, `qwen3-coder`, `seed-oss`, `dots`, `kimi-k3`, `minicpm5`, `mimo`,
//! `step3`, `gigachat35`, `minimax-m3`). Their text phase is the driver's; a section or invoke opener
//! found there hands the stream to the structure machine of the parameters shape
//! ([`ParamCalls`], `lex/params/`), which reads the call and hands it back. What differs
//! between these dialects is their table file (delimiters per mode and the tagset's
//! `[knobs]`): the code is the same. Formats: docs/dialects.md §xml, §anthropic, §minimax,
//! §qwen3-coder, §seed-oss, §dots, §kimi-k3, §minicpm5, §mimo, §step3, §gigachat35,
//! §minimax-m3.

use crate::automaton::{Delimiter, Dfa};
use crate::engine::frame::Frame;
use crate::engine::{Family, Sealed, TextModes};
use crate::lex::params::{ParamCalls, Tagset};
use crate::{Role, Sink, Span};

/// The modes of a dialect of the parameters family.
#[derive(Debug)]
pub(crate) struct Modes {
    /// Content and reasoning.
    pub(crate) text: TextModes,
    /// The tagset that `section_open` and `call_open` delimiters in text enter.
    pub(crate) tags: Tagset,
    /// The tagset that `markup_open` delimiters in text enter (the `xml` dialect's DSML,
    /// the same static the `deepseek` dialect embeds).
    pub(crate) embedded: Option<&'static Tagset>,
}

/// The family's state between chunks: which dialect, and the structure machine (idle in
/// text).
#[derive(Debug, Clone)]
pub(crate) struct Params {
    modes: &'static Modes,
    calls: ParamCalls,
}

impl Params {
    pub(crate) fn new(modes: &'static Modes) -> Self {
        Params {
            modes,
            calls: ParamCalls::new(&modes.tags),
        }
    }
}

impl Sealed for Params {}

impl Family for Params {
    #[inline(always)]
    fn text_dfa(&self, frame: &Frame) -> Option<&'static Dfa> {
        (!self.calls.active()).then(|| self.modes.text.dfa(frame))
    }

    #[inline(always)]
    fn plain_chunk<S: Sink>(
        &mut self,
        frame: &mut Frame,
        chunk: &[u8],
        span: Span,
        sink: &mut S,
    ) -> bool {
        self.calls.take_plain_value(frame, chunk, span.start, sink)
    }

    /// A tagset's opener hands the stream to the structure machine unreported: it reports
    /// the opener once what follows confirms it, or releases it as text (rule 4).
    #[inline]
    fn text_delimiter<S: Sink>(
        &mut self,
        frame: &mut Frame,
        delimiter: &'static Delimiter,
        span: Span,
        sink: &mut S,
    ) {
        let tagset = match delimiter.role {
            Role::SectionOpen | Role::CallOpen => Some(&self.modes.tags),
            Role::MarkupOpen => self.modes.embedded,
            _ => None,
        };
        match tagset {
            Some(tagset) => self.calls.enter(tagset, delimiter, span),
            None => {
                frame.text_delimiter(delimiter, span, sink);
            }
        }
    }

    /// Every role of the family's own is taken by [`Params::text_delimiter`]; another
    /// (a role this family's tables do not list) has no meaning in text and stays markup.
    fn text_role<S: Sink>(&mut self, _frame: &mut Frame, _role: Role, _span: Span, _sink: &mut S) {}

    #[inline]
    fn step<S: Sink>(
        &mut self,
        frame: &mut Frame,
        chunk: &[u8],
        pos: usize,
        base: u64,
        sink: &mut S,
    ) -> usize {
        self.calls.run(frame, chunk, pos, base, sink)
    }

    /// The structure machine's own end: a pending candidate counts, held bytes are the
    /// structure's markup, the open call is cut off and an open section reported.
    fn finish_phase<S: Sink>(&mut self, frame: &mut Frame, end: u64, sink: &mut S) {
        self.calls.finish(frame, end, sink);
    }

    #[inline]
    fn in_call(&self) -> bool {
        // `ParamCalls::finish` has cut off any open call.
        false
    }

    fn to_text(&mut self) {}
}
