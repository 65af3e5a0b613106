//! Bounded memory: the assembler's call records hold only the calls that something still
//! needs (open calls, incomplete ones, which the completion lists, and settled ones a
//! [`DeltaStream`](crate::stream::DeltaStream) has not sent yet); a settled call is
//! retired (its record dropped) once its parsed form, its text or its deltas are out, so
//! memory follows the open calls, not the number of calls seen. A whole completion is cut
//! at [`AssembleOptions::max_response_bytes`](super::AssembleOptions); a stream that keeps
//! only what it has not sent drops sent text and calls, and keeps at most
//! [`MAX_DIAGNOSTICS`] diagnostics.

use std::ops::{Index, IndexMut, Range};

use inband::{CallEnd, Span};

use super::{Assembler, CallRecord, Capture, DiagnosticRecord, Segment};
use crate::dedup::{Duplicates, FirstKeyWins};
use crate::params::Params;

/// The default [`AssembleOptions::max_response_bytes`](super::AssembleOptions): 64 MiB of
/// response, far more than any model writes in one turn (a million tokens are about 4 MiB).
pub const DEFAULT_MAX_RESPONSE_BYTES: u64 = 64 << 20;

/// Most diagnostics a stream that keeps only what it has not sent holds; later ones are
/// counted in one `too_many_diagnostics` diagnostic.
pub(crate) const MAX_DIAGNOSTICS: usize = 1024;

/// What the assembler keeps of settled calls and sent text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Keep {
    /// A whole completion, no stream: a settled call is retired at once (its parsed form is
    /// in `tool_calls`, its text in the content or reasoning).
    Completion,
    /// A stream that returns the whole completion too: settled calls are retired once sent.
    Settled,
    /// A stream that keeps only what it has not sent: sent text, reasoning and calls are
    /// dropped, complete calls are only counted.
    Unsent,
}

/// Call records by the scanner's call number (consecutive from 0), with retired numbers
/// left out: the held records in call order, so that a stream's per-chunk bookkeeping
/// touches only them, never the calls retired before.
#[derive(Debug, Default)]
pub(crate) struct Calls {
    records: Vec<(usize, CallRecord)>,
    /// Calls started so far: the next call's number.
    started: usize,
    /// [`Calls::retire_before`] has looked at every record before this call: those held
    /// are ones it was told to keep.
    swept: usize,
    /// A record before `swept` may no longer be one to keep ([`Calls::unkept`]).
    resweep: bool,
    /// The buffers of the last record retired, cleared, for the next call's.
    pub(crate) spare: Buffers,
}

/// A call record's buffers, kept from a retired record for the next one so that the
/// calls of a response do not each grow their own (see [`Buffers::SMALL`]).
#[derive(Debug, Default)]
pub(crate) struct Buffers {
    pub(crate) id: String,
    pub(crate) raw: Vec<u8>,
    pub(crate) tokens: Vec<(Range<usize>, Span)>,
    pub(crate) inner: Vec<u8>,
    pub(crate) arguments: Vec<u8>,
    pub(crate) dedup: FirstKeyWins,
    pub(crate) params: Params,
}

impl Buffers {
    /// The largest buffer kept for reuse (bytes): one that a large call grew is dropped
    /// with its record, so a stream keeps no more than a few small buffers.
    const SMALL: usize = 16 << 10;

    /// Takes a raw capture's buffer (cleared), if small enough to keep.
    pub(crate) fn keep_raw(&mut self, mut raw: Vec<u8>) {
        if raw.capacity() <= Self::SMALL && raw.capacity() > self.raw.capacity() {
            raw.clear();
            self.raw = raw;
        }
    }

    /// Takes an opening's special-token list (cleared), if small enough to keep.
    pub(crate) fn keep_tokens(&mut self, mut tokens: Vec<(Range<usize>, Span)>) {
        let size = tokens.capacity() * std::mem::size_of::<(Range<usize>, Span)>();
        if size <= Self::SMALL && tokens.capacity() > self.tokens.capacity() {
            tokens.clear();
            self.tokens = tokens;
        }
    }

    /// Takes `record`'s buffers (cleared), those small enough to keep.
    fn keep(&mut self, record: CallRecord) {
        fn small<T>(buffer: &mut Vec<T>, into: &mut Vec<T>) {
            let capacity = buffer.capacity();
            if capacity * std::mem::size_of::<T>() <= Buffers::SMALL && capacity > into.capacity() {
                buffer.clear();
                *into = std::mem::take(buffer);
            }
        }
        let CallRecord {
            mut id,
            mut raw,
            mut tokens,
            mut inner,
            mut arguments,
            mut dedup,
            params,
            ..
        } = record;
        if id.capacity() <= Self::SMALL && id.capacity() > self.id.capacity() {
            id.clear();
            self.id = id;
        }
        small(&mut raw, &mut self.raw);
        small(&mut tokens, &mut self.tokens);
        small(&mut inner, &mut self.inner);
        small(&mut arguments, &mut self.arguments);
        if dedup.reset(Self::SMALL) {
            self.dedup = dedup;
        }
        if let Some(mut params) = params {
            if params.reset(Self::SMALL) {
                self.params = params;
            }
        }
    }
}

impl Calls {
    /// Where call `call`'s record is among the held ones.
    fn find(&self, call: usize) -> Option<usize> {
        match self.records.last() {
            // Nearly always the latest call.
            Some((last, _)) if *last == call => Some(self.records.len() - 1),
            _ => self.records.binary_search_by_key(&call, |(n, _)| *n).ok(),
        }
    }

    /// The record of call `call`, unless it was retired or never started.
    pub(crate) fn get(&self, call: usize) -> Option<&CallRecord> {
        let at = self.find(call)?;
        Some(&self.records[at].1)
    }

    /// The record of call `call`, unless it was retired or never started.
    pub(crate) fn get_mut(&mut self, call: usize) -> Option<&mut CallRecord> {
        let at = self.find(call)?;
        Some(&mut self.records[at].1)
    }

    /// Calls started so far, retired ones included.
    pub(crate) fn len(&self) -> usize {
        self.started
    }

    /// The last call started, unless it was retired.
    pub(crate) fn last_mut(&mut self) -> Option<&mut CallRecord> {
        let last = self.started.checked_sub(1)?;
        self.get_mut(last)
    }

    /// Starts the next call.
    pub(crate) fn push(&mut self, record: CallRecord) {
        self.records.push((self.started, record));
        self.started += 1;
    }

    /// The records held, in call order.
    pub(crate) fn iter_mut(&mut self) -> impl Iterator<Item = &mut CallRecord> {
        self.records.iter_mut().map(|(_, record)| record)
    }

    /// Drops the record of call `call`.
    pub(crate) fn retire(&mut self, call: usize) {
        if let Some(at) = self.find(call) {
            let (_, record) = self.records.remove(at);
            self.keep_spare(record);
        }
    }

    /// Keeps a retired record's buffers for the next call.
    fn keep_spare(&mut self, record: CallRecord) {
        self.spare.keep(record);
    }

    /// A record that [`Calls::retire_before`] kept may not be one to keep any more.
    pub(crate) fn unkept(&mut self) {
        self.resweep = true;
    }

    /// Drops the records of calls before `upto` that `keep` does not want. Only records not
    /// looked at yet are (or those [`Calls::unkept`] names): nothing when nothing changed.
    #[inline]
    pub(crate) fn retire_before(&mut self, upto: usize, keep: impl Fn(&CallRecord) -> bool) {
        if upto > self.swept || self.resweep {
            self.sweep(upto, keep);
        }
    }

    fn sweep(&mut self, upto: usize, keep: impl Fn(&CallRecord) -> bool) {
        let from = if self.resweep { 0 } else { self.swept };
        self.swept = self.swept.max(upto);
        self.resweep = false;
        let start = self.records.partition_point(|(n, _)| *n < from);
        let end = self.records.partition_point(|(n, _)| *n < upto);
        // One pass: the records kept move forward in order, those retired gather at the
        // end of the range and go in one drain (not one `remove`, which shifts every
        // later record, per record: quadratic in a chunk that settles many calls).
        let mut kept = start;
        for at in start..end {
            if keep(&self.records[at].1) {
                self.records.swap(kept, at);
                kept += 1;
            }
        }
        let spare = &mut self.spare;
        for (_, record) in self.records.drain(kept..end) {
            spare.keep(record);
        }
    }
}

impl Index<usize> for Calls {
    type Output = CallRecord;

    /// # Panics
    /// If the call was retired or never started (a bug of this crate).
    fn index(&self, call: usize) -> &CallRecord {
        self.get(call).expect("a held call")
    }
}

impl IndexMut<usize> for Calls {
    /// # Panics
    /// If the call was retired or never started (a bug of this crate).
    fn index_mut(&mut self, call: usize) -> &mut CallRecord {
        self.get_mut(call).expect("a held call")
    }
}

impl Assembler {
    /// Whether the event at `span` is left out: after a fabricated result that ends the
    /// response, or past [`AssembleOptions::max_response_bytes`](super::AssembleOptions)
    /// (the first such event cuts the response there).
    #[inline]
    pub(crate) fn skip(&mut self, span: Span) -> bool {
        if self.stopped {
            return true;
        }
        match self.limit {
            Some(limit) if span.end > limit && self.keep != Keep::Unsent => {
                self.cut_at_limit();
                true
            }
            _ => false,
        }
    }

    /// The part of a payload event (text, reasoning, argument bytes) the response keeps:
    /// all of it within [`AssembleOptions::max_response_bytes`](super::AssembleOptions), the
    /// bytes before the limit when it crosses it (then `true`: once they are taken,
    /// [`Assembler::cut_at_limit`] ends the response), none after the response ended.
    /// Splitting the event, not leaving it out whole, puts the cut at the limit whatever
    /// the chunking (rule 1).
    pub(crate) fn limited<'t>(
        &mut self,
        span: Span,
        bytes: &'t [u8],
    ) -> Option<(Span, &'t [u8], bool)> {
        if self.stopped {
            return None;
        }
        match self.limit {
            Some(limit) if span.end > limit && self.keep != Keep::Unsent => {
                let keep = usize::try_from(limit.saturating_sub(span.start))
                    .map_or(bytes.len(), |keep| keep.min(bytes.len()));
                if keep == 0 {
                    self.cut_at_limit();
                    return None;
                }
                Some((
                    Span::new(span.start, span.start + keep as u64),
                    &bytes[..keep],
                    true,
                ))
            }
            _ => Some((span, bytes, false)),
        }
    }

    /// Ends the response at the limit after the kept part of the event that crossed it. A
    /// code point that part ends inside is dropped: the limit cut it, the model did not
    /// write it wrong (no `invalid_utf8`).
    pub(crate) fn cut_at_limit(&mut self) {
        let Some(limit) = self.limit else {
            return;
        };
        let partial = self.content_utf8.take_carry();
        if matches!(self.capture, Capture::None) {
            let len = self.content.len().saturating_sub(partial);
            self.content.truncate(len);
        }
        let partial = self.reasoning_utf8.take_carry();
        if let Some(Segment::Text(text)) = self.reasoning.as_mut().and_then(|s| s.last_mut()) {
            text.truncate(text.len().saturating_sub(partial));
        }
        self.cut(limit);
    }

    /// Whether an event at `span` is taken whole, with no side effect: the response was not
    /// cut and `span` ends within the limit (see [`Assembler::skip`]).
    #[inline]
    pub(crate) fn within_limit(&self, span: Span) -> bool {
        !self.stopped
            && match self.limit {
                Some(limit) => span.end <= limit || self.keep == Keep::Unsent,
                None => true,
            }
    }

    /// Ends the response at `limit`: open calls are incomplete, later events left out. The
    /// diagnostic's span is the empty one at the limit, where the response ends whatever
    /// the chunking.
    fn cut(&mut self, limit: u64) {
        self.stopped = true;
        self.limit = None;
        self.record(
            Span::new(limit, limit),
            "response_too_long",
            "the response is longer than max_response_bytes; the rest was left out",
        );
        for record in self.calls.iter_mut() {
            if record.end.is_none() {
                record.end = Some(CallEnd::Incomplete);
            }
        }
        self.close_incomplete();
    }

    /// Whether the diagnostic at `span` is left out (only past [`MAX_DIAGNOSTICS`] when
    /// keeping only what was not sent); counts it.
    pub(super) fn diagnostic_dropped(&mut self, span: Span) -> bool {
        if self.keep != Keep::Unsent || self.diagnostics.len() < MAX_DIAGNOSTICS {
            return false;
        }
        let (count, covered) = self
            .dropped_diagnostics
            .get_or_insert((0, [span.start, span.end]));
        *count += 1;
        covered[1] = covered[1].max(span.end);
        true
    }

    /// The one diagnostic that stands for those left out, if any.
    pub(super) fn dropped_record(&mut self) -> Option<DiagnosticRecord> {
        self.dropped_diagnostics
            .take()
            .map(|(_, span)| DiagnosticRecord {
                code: "too_many_diagnostics",
                message: "more than 1024 diagnostics; the later ones were left out",
                span,
            })
    }

    /// Call `call` shows in the reasoning where it stands (a draft, or a broken call of a
    /// Harmony `analysis` message).
    pub(super) fn push_draft(&mut self, call: u32) {
        if let Some(record) = self.calls.get_mut(call as usize) {
            record.in_segment = true;
        }
        self.reasoning
            .get_or_insert_with(Vec::new)
            .push(Segment::Draft(call));
    }

    /// Call `call` ended. Without a stream its record is no longer needed unless it is
    /// incomplete: its draft segment becomes the text it shows, and the record is retired.
    pub(super) fn settled(&mut self, call: u32) {
        if self.keep != Keep::Completion {
            return;
        }
        let Some(record) = self.calls.get(call as usize) else {
            return;
        };
        if record.end == Some(CallEnd::Incomplete) {
            return;
        }
        if record.in_segment {
            let segments = self.reasoning.as_deref().unwrap_or_default();
            if let Some(at) = segments
                .iter()
                .rposition(|s| matches!(s, Segment::Draft(c) if *c == call))
            {
                self.draft_shown(at);
            }
        }
        if !self.calls.get(call as usize).is_some_and(|r| r.in_segment) {
            self.calls.retire(call as usize);
        }
    }

    /// The reasoning segment `at`, a draft whose call has ended, becomes the text the
    /// completion shows for it ([`CallRecord::draft_text`]), or is dropped when keeping
    /// only what was not sent.
    pub(crate) fn draft_shown(&mut self, at: usize) {
        let Some(segments) = self.reasoning.as_mut() else {
            return;
        };
        let Some(Segment::Draft(call)) = segments.get(at) else {
            return;
        };
        let Some(record) = self.calls.get_mut(*call as usize) else {
            return;
        };
        record.in_segment = false;
        let text = if self.keep == Keep::Unsent {
            Vec::new()
        } else {
            record.draft_text().to_vec()
        };
        // Its record may go now (see `Calls::retire_before`).
        self.calls.unkept();
        segments[at] = Segment::Text(text);
        if at + 1 == segments.len() {
            // Later reasoning must not join the text a stream has already passed.
            segments.push(Segment::Text(Vec::new()));
        }
    }

    /// A stream has sent everything of the calls before `first_open` and of the released
    /// text: their records are retired, except incomplete ones and drafts whose reasoning
    /// is not sent yet. With [`Keep::Unsent`] the sent content and reasoning go too:
    /// `content_sent` bytes of content, the reasoning before segment `reasoning_at.0` and
    /// `reasoning_at.1` bytes of that one; returns the new positions (from 0).
    #[inline]
    pub(crate) fn retire_sent(
        &mut self,
        first_open: usize,
        content_sent: usize,
        reasoning_at: (usize, usize),
    ) -> (usize, (usize, usize)) {
        self.released.clear();
        self.calls.retire_before(first_open, |record| {
            record.in_segment || record.end == Some(CallEnd::Incomplete)
        });
        if self.keep != Keep::Unsent {
            return (content_sent, reasoning_at);
        }
        if content_sent == self.content.len() {
            self.content.clear();
        } else if content_sent > 0 {
            self.content.drain(..content_sent);
        }
        let Some(segments) = self.reasoning.as_mut() else {
            return (0, (0, 0));
        };
        let (seg, off) = reasoning_at;
        if seg > 0 {
            segments.drain(..seg.min(segments.len()));
        }
        if let (true, Some(Segment::Text(text))) = (off > 0, segments.first_mut()) {
            if off >= text.len() {
                text.clear();
            } else {
                text.drain(..off);
            }
        }
        (0, (0, 0))
    }
}

impl Assembler {
    /// Ends the argument text of every incomplete call, once: what the normaliser, the
    /// parameters and the repeated-key filter still held when the call was cut off (an
    /// escape, a raw-text value, a key being written) is appended to it. A
    /// [`DeltaStream`](crate::stream::DeltaStream) sends that text in its last delta and
    /// the completion's `incomplete_calls` carry the same, so the two agree.
    pub(crate) fn close_incomplete(&mut self) {
        let mut cut_duplicates = Vec::new();
        for r in self
            .calls
            .iter_mut()
            .filter(|r| r.end == Some(CallEnd::Incomplete) && !r.closed)
        {
            r.closed = true;
            let mut found = Duplicates::default();
            let CallRecord {
                normalizer,
                dedup,
                arguments,
                ..
            } = r;
            normalizer.finish(&mut |bytes| found.add(dedup.feed(bytes, arguments)));
            if let Some(params) = &mut r.params {
                let mut cut = Vec::new();
                params.cut(&mut cut);
                found.add(r.dedup.feed(&cut, &mut r.arguments));
            }
            r.dedup.finish(&mut r.arguments);
            r.duplicates.add(found);
            cut_duplicates.push((Span::new(r.raw_start, r.end_at), r.duplicates));
        }
        for (span, duplicates) in cut_duplicates {
            self.duplicates(span, duplicates);
        }
    }
}
