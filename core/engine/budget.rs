//! A call's argument budget: the one place [`Options::max_argument_bytes`] is applied to
//! argument bytes a family counts as it reports them (the JSON bodies and the parameters).
//! The literal families measure the same limit in stream offsets from the start of a call's
//! body instead (`Family::budget_end`), which the driver clips chunks at. Either way the
//! limit falls on the same byte whatever the chunking.

use crate::options::Options;

/// Argument bytes of the open call counted so far (bytes, not characters; argument text and
/// raw-text values alike, and the skipped values of unused keys, so that one call never
/// swallows an unbounded stream).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Budget(u64);

impl Budget {
    /// A call that has counted nothing yet.
    pub(crate) const EMPTY: Budget = Budget(0);

    /// Bytes left once `held` more bytes (held back as a possible delimiter, counted if they
    /// turn out to be argument text) are counted.
    #[inline(always)]
    pub(crate) fn room(self, held: usize, options: &Options) -> u64 {
        options
            .max_argument_bytes
            .saturating_sub(self.0.saturating_add(held as u64))
    }

    /// Whether `len` more bytes fit.
    #[inline(always)]
    pub(crate) fn fits(self, len: usize, options: &Options) -> bool {
        len as u64 <= self.room(0, options)
    }

    /// The end of chunk offsets `from..to` that fits, with `held` bytes held before them:
    /// `to` when they all fit. Counts nothing.
    #[inline(always)]
    pub(crate) fn clip(self, from: usize, to: usize, held: usize, options: &Options) -> usize {
        let room = self.room(held, options);
        if (to - from) as u64 > room {
            from + room as usize
        } else {
            to
        }
    }

    /// Counts chunk offsets `from..to`, as many as fit: returns the end of those counted and
    /// whether any did not fit (the call is then over its budget).
    #[inline(always)]
    pub(crate) fn take(&mut self, from: usize, to: usize, options: &Options) -> (usize, bool) {
        let end = self.clip(from, to, 0, options);
        self.add(end - from);
        (end, end < to)
    }

    /// Counts `len` bytes that [`Budget::fits`] or [`Budget::clip`] admitted.
    #[inline(always)]
    pub(crate) fn add(&mut self, len: usize) {
        self.0 += len as u64;
    }
}

/// For a family that measures the budget in stream offsets: where a call whose body starts
/// at stream offset `start` runs out of it.
#[inline(always)]
pub(crate) fn end_offset(start: u64, options: &Options) -> u64 {
    start.saturating_add(options.max_argument_bytes)
}
