//! The span emitter of the call lexers that report straight to a [`Sink`]: a call's bytes
//! are its markup or pieces of its value, and each run of one kind goes out as one event
//! when the kind changes or the scan stops (the sink-free lexers use
//! [`Runs`](super::runs::Runs)). The cursor also carries what every step of such a scan
//! needs: the [`Frame`] and the sink.

use crate::engine::frame::Frame;
use crate::{Markup, Piece, Sink, Span};

/// What a run of call bytes is reported as.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Out {
    /// The call's markup ([`Markup::Envelope`]).
    Markup,
    /// A piece of the open parameter's value.
    Value(Piece),
}

/// One scan over `chunk` (`chunk[0]` at stream offset `base`) inside the frame's current
/// call: from chunk offset `run` on, the bytes are of kind `out`, not reported yet.
pub(crate) struct Cursor<'a, S> {
    /// The driver's state, for the call lifecycle.
    pub(crate) frame: &'a mut Frame,
    /// Where the events go.
    pub(crate) sink: &'a mut S,
    /// The chunk scanned.
    pub(crate) chunk: &'a [u8],
    /// The stream offset of `chunk[0]`.
    base: u64,
    /// Where the unreported run begins (a chunk offset).
    pub(crate) run: usize,
    /// The kind of the unreported run.
    pub(crate) out: Out,
}

impl<'a, S: Sink> Cursor<'a, S> {
    /// A scan from chunk offset `run` on, starting with markup.
    #[inline(always)]
    pub(crate) fn new(
        frame: &'a mut Frame,
        sink: &'a mut S,
        chunk: &'a [u8],
        base: u64,
        run: usize,
    ) -> Self {
        Cursor {
            frame,
            sink,
            chunk,
            base,
            run,
            out: Out::Markup,
        }
    }

    /// The stream offset of `chunk[i]`.
    #[inline(always)]
    pub(crate) fn at(&self, i: usize) -> u64 {
        self.base + i as u64
    }

    /// The span of `chunk[from..to]`.
    #[inline(always)]
    pub(crate) fn span(&self, from: usize, to: usize) -> Span {
        Span::new(self.at(from), self.at(to))
    }

    /// Reports the run up to chunk offset `to`, where the scan stops.
    #[inline(always)]
    pub(crate) fn emit(&mut self, to: usize) {
        if self.run < to {
            let span = self.span(self.run, to);
            let bytes = &self.chunk[self.run..to];
            match self.out {
                Out::Markup => self.sink.markup(span, Markup::Envelope, bytes),
                Out::Value(piece) => {
                    self.sink
                        .tool_value(span, self.frame.call.index, piece, bytes)
                }
            }
        }
    }

    /// Reports the run up to `to`, before bytes reported another way.
    #[inline(always)]
    pub(crate) fn flush(&mut self, to: usize) {
        self.emit(to);
        self.run = to;
    }

    /// From chunk offset `i` on, the bytes are of kind `kind`.
    #[inline(always)]
    pub(crate) fn put(&mut self, i: usize, kind: Out) {
        if kind != self.out {
            self.flush(i);
            self.out = kind;
        }
    }
}
