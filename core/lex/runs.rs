//! The span emitter of the lexers: bytes of one kind are reported as one run when the kind
//! changes or the scan stops, so that a chunk gives one event per run, not per byte.

use crate::Span;

/// The runs of one scan over `bytes` (`bytes[i]` is at stream offset `base + i`): from
/// `run` on, the bytes are of kind `out`, not reported yet.
pub(crate) struct Runs<'a, K, F> {
    bytes: &'a [u8],
    base: u64,
    /// Where the unreported run begins.
    pub(crate) run: usize,
    /// The kind of the unreported run.
    pub(crate) out: K,
    /// Receives each run, and what a lexer reports another way ([`Runs::send`]).
    pub(crate) emit: &'a mut F,
}

impl<'a, K: Copy + PartialEq, F: FnMut(K, Span, &[u8])> Runs<'a, K, F> {
    /// A scan whose first bytes are of kind `out`.
    #[inline(always)]
    pub(crate) fn new(bytes: &'a [u8], base: u64, out: K, emit: &'a mut F) -> Self {
        Runs {
            bytes,
            base,
            run: 0,
            out,
            emit,
        }
    }

    /// The stream offset of `bytes[i]`.
    #[inline(always)]
    pub(crate) fn at(&self, i: usize) -> u64 {
        self.base + i as u64
    }

    /// Reports the run up to `to`, when the scan stops there.
    #[inline(always)]
    pub(crate) fn emit_run(&mut self, to: usize) {
        if self.run < to {
            let span = Span::new(self.at(self.run), self.at(to));
            (self.emit)(self.out, span, &self.bytes[self.run..to]);
        }
    }

    /// Reports the run up to `to`, before bytes reported another way.
    #[inline(always)]
    pub(crate) fn flush(&mut self, to: usize) {
        self.emit_run(to);
        self.run = to;
    }

    /// From byte `i` on, the bytes are of kind `kind`.
    #[inline(always)]
    pub(crate) fn put(&mut self, i: usize, kind: K) {
        if kind != self.out {
            self.flush(i);
            self.out = kind;
        }
    }

    /// Reports bytes that are not in `bytes` (held from an earlier chunk, or known).
    #[inline(always)]
    pub(crate) fn send(&mut self, kind: K, span: Span, bytes: &[u8]) {
        (self.emit)(kind, span, bytes);
    }
}
