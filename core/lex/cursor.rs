//! The span emitter of the call lexers that report straight to a [`Sink`]: a call's bytes
//! are its markup or pieces of its value, and each run of one kind goes out as one event
//! when the kind changes or the scan stops (the sink-free lexers use
//! [`Runs`](super::runs::Runs)).

use crate::{Markup, Piece, Sink, Span};

/// What a run of call bytes is reported as.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Out {
    /// The call's markup ([`Markup::Envelope`]).
    Markup,
    /// A piece of the open parameter's value.
    Value(Piece),
}

/// One scan over `chunk` (`chunk[0]` at stream offset `base`) inside call `index`: from
/// chunk offset `run` on, the bytes are of kind `out`, not reported yet.
pub(crate) struct Cursor<'c> {
    pub(crate) chunk: &'c [u8],
    base: u64,
    index: u32,
    /// Where the unreported run begins (a chunk offset).
    pub(crate) run: usize,
    /// The kind of the unreported run.
    pub(crate) out: Out,
}

impl<'c> Cursor<'c> {
    /// A scan of call `index` from chunk offset `run` on, starting with markup.
    #[inline(always)]
    pub(crate) fn new(chunk: &'c [u8], base: u64, run: usize, index: u32) -> Self {
        Cursor {
            chunk,
            base,
            index,
            run,
            out: Out::Markup,
        }
    }

    /// The stream offset of `chunk[i]`.
    #[inline(always)]
    pub(crate) fn at(&self, i: usize) -> u64 {
        self.base + i as u64
    }

    /// Reports the run up to chunk offset `to`, where the scan stops.
    #[inline(always)]
    pub(crate) fn emit<S: Sink>(&self, to: usize, sink: &mut S) {
        if self.run < to {
            let span = Span::new(self.at(self.run), self.at(to));
            let bytes = &self.chunk[self.run..to];
            match self.out {
                Out::Markup => sink.markup(span, Markup::Envelope, bytes),
                Out::Value(piece) => sink.tool_value(span, self.index, piece, bytes),
            }
        }
    }

    /// Reports the run up to `to`, before bytes reported another way.
    #[inline(always)]
    pub(crate) fn flush<S: Sink>(&mut self, to: usize, sink: &mut S) {
        self.emit(to, sink);
        self.run = to;
    }

    /// From chunk offset `i` on, the bytes are of kind `kind`.
    #[inline(always)]
    pub(crate) fn put<S: Sink>(&mut self, i: usize, kind: Out, sink: &mut S) {
        if kind != self.out {
            self.flush(i, sink);
            self.out = kind;
        }
    }
}
