//! Delimiter scanning with holdback: walks a mode's [`Dfa`] over a chunk, releases
//! bytes that cannot begin a delimiter, and keeps at most `MAX_HOLD` bytes of a
//! possible delimiter across a chunk boundary without ever re-scanning them.

use arrayvec::ArrayVec;

use crate::automaton::{Delimiter, Dfa, START};
use crate::tables::MAX_HOLD;
use crate::token::Tokens;
use crate::Span;

/// Where a scan stopped.
pub(crate) enum Stop {
    /// The chunk is exhausted; any possible delimiter prefix is held.
    End,
    /// A delimiter ended just before this chunk offset.
    Match(&'static Delimiter, usize),
}

/// The DFA state of the current mode and the bytes held back with it.
///
/// INVARIANT: `hold` is exactly the bytes immediately before the next chunk byte to scan
/// that are still part of a possible delimiter; it is empty in the start state.
#[derive(Debug, Clone)]
pub(crate) struct DelimiterScan {
    pub(crate) state: u16,
    pub(crate) hold: ArrayVec<u8, MAX_HOLD>,
}

impl DelimiterScan {
    pub(crate) const fn new() -> Self {
        DelimiterScan {
            state: START,
            hold: ArrayVec::new_const(),
        }
    }

    /// Scans `chunk[pos..]` (whose byte `i` is at stream offset `base + i`) until a
    /// delimiter completes or the chunk ends, passing every byte that is not part of a
    /// delimiter to `release`, in order. A delimiter that `tokens` does not admit (token
    /// mode: gated, and not where a token arrived) is not one: its bytes are released and
    /// the scan goes on from the root after it.
    ///
    /// How it works: in the start state nothing is pending, so `memchr` jumps straight to
    /// the next byte that can begin a delimiter and everything before it is released in
    /// one slice. Off the start state the DFA is stepped a byte at a time; the state's
    /// depth says how many trailing bytes may still begin a delimiter, so bytes before
    /// them can be released without looking back. Held bytes are released as soon as the
    /// candidate they belong to fails; chunk bytes are released lazily, in one slice.
    #[inline]
    pub(crate) fn scan(
        &mut self,
        dfa: &Dfa,
        chunk: &[u8],
        pos: usize,
        base: u64,
        tokens: &Tokens,
        release: &mut impl FnMut(Span, &[u8]),
    ) -> Stop {
        // First chunk byte not yet released; held bytes, if any, sit right before it.
        let mut start = pos;
        let mut i = pos;
        let mut state = self.state;
        loop {
            if state == START {
                match dfa.find_start(&chunk[i..]) {
                    Some(k) => i += k,
                    None => break,
                }
            } else if i == chunk.len() {
                break;
            }
            state = dfa.next(state, chunk[i]);
            i += 1;
            if let Some(delimiter) = dfa.matched(state) {
                let len = delimiter.bytes.len();
                if tokens.admits(delimiter.bytes, base + i as u64 - len as u64) {
                    let in_chunk = i - start;
                    if len <= in_chunk {
                        self.release_hold(self.hold.len(), base + start as u64, release);
                        emit(release, chunk, start, i - len, base);
                    } else {
                        let from_hold = len - in_chunk;
                        self.release_hold(
                            self.hold.len() - from_hold,
                            base + start as u64,
                            release,
                        );
                        self.hold.clear();
                    }
                    self.state = START;
                    return Stop::Match(delimiter, i);
                }
                // Not where its token began (token mode): the held bytes go out just below
                // (depth 0), the chunk bytes lazily with what follows.
                state = START;
            }
            if !self.hold.is_empty() {
                let pending = self.hold.len() + (i - start);
                let depth = dfa.depth(state);
                if depth < pending {
                    let n = (pending - depth).min(self.hold.len());
                    self.release_hold(n, base + start as u64, release);
                }
            }
        }
        let depth = dfa.depth(state);
        let in_chunk = chunk.len() - start;
        if depth <= in_chunk {
            self.release_hold(self.hold.len(), base + start as u64, release);
            emit(release, chunk, start, chunk.len() - depth, base);
            start = chunk.len() - depth;
        } else {
            let keep_from_hold = depth - in_chunk;
            let n = self.hold.len() - keep_from_hold;
            self.release_hold(n, base + start as u64, release);
        }
        if start < chunk.len() {
            // Cannot overflow: depth <= longest delimiter - 1 == MAX_HOLD.
            let kept = self.hold.try_extend_from_slice(&chunk[start..]);
            debug_assert!(kept.is_ok(), "holdback overflow");
        }
        self.state = state;
        Stop::End
    }

    /// Releases the first `n` held bytes; the hold ends at stream offset `hold_end`.
    #[inline]
    fn release_hold(&mut self, n: usize, hold_end: u64, release: &mut impl FnMut(Span, &[u8])) {
        if n == 0 {
            return;
        }
        let hold_start = hold_end - self.hold.len() as u64;
        release(
            Span::new(hold_start, hold_start + n as u64),
            &self.hold[..n],
        );
        self.hold.drain(..n);
    }

    /// Takes the held bytes out and returns to the start state, for a mode switch that
    /// must look at them again in another mode.
    pub(crate) fn take(&mut self) -> ArrayVec<u8, MAX_HOLD> {
        self.state = START;
        core::mem::take(&mut self.hold)
    }
}

#[inline(always)]
fn emit(release: &mut impl FnMut(Span, &[u8]), chunk: &[u8], from: usize, to: usize, base: u64) {
    if from < to {
        release(
            Span::new(base + from as u64, base + to as u64),
            &chunk[from..to],
        );
    }
}
