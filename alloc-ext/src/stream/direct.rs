//! The fast path of a decode step that only adds text: while nothing is waiting (no call
//! being captured, no code point split, everything before it sent), a valid UTF-8 piece of
//! content or reasoning goes straight into the delta being built, checked and copied once,
//! and [`DeltaStream::delta`] finds nothing else to do. The deltas are the ones the general
//! path builds, byte for byte: it is taken only where that path would send the piece whole
//! and change nothing else.

use inband::Span;

use super::utf8::push_valid;
use super::DeltaStream;
use crate::assemble::{Keep, Segment};

impl DeltaStream {
    /// Clears the last delta once a new one begins, keeping its buffers.
    #[inline]
    pub(super) fn begin_delta(&mut self) {
        if !std::mem::replace(&mut self.fresh, true) {
            let delta = &mut self.delta;
            delta.content.clear();
            delta.reasoning_content.clear();
            if !delta.tool_calls.is_empty() {
                for call in delta.tool_calls.drain(..) {
                    self.spare.keep(call);
                }
            }
        }
    }

    /// Whether text arriving now may go straight into the delta: nothing is waiting to be
    /// sent ([`DeltaStream::idle`]), no call's bytes are being captured and no code point
    /// waits for its end. Stays true while only such text comes (it changes none of that).
    pub(super) fn quiet(&self) -> bool {
        self.assembler.plain_content() && self.assembler.plain_reasoning() && self.idle()
    }

    /// Whether everything the assembler holds has been sent and nothing is waiting to be:
    /// then a delta has nothing to add but the text that came straight in, and its
    /// bookkeeping (retiring sent text and calls) nothing to do.
    fn idle(&self) -> bool {
        let a = &self.assembler;
        let unsent = a.keep == Keep::Unsent;
        self.sent.content == a.content.len()
            && (!unsent || self.sent.content == 0)
            && self.sent.first_open == a.calls.len()
            && a.released.is_empty()
            && !self.finished
            && self.reasoning_idle()
    }

    /// No reasoning, or all of it sent, up to the end of its last segment (text).
    fn reasoning_idle(&self) -> bool {
        let a = &self.assembler;
        let Some(segments) = &a.reasoning else {
            return true;
        };
        let (seg, off) = self.sent.reasoning_at;
        let at_end = seg + 1 == segments.len()
            && matches!(&segments[seg], Segment::Text(text) if text.len() == off);
        at_end && (a.keep != Keep::Unsent || (seg, off) == (0, 0))
    }

    /// Content straight into the delta, when nothing waits before it; returns whether it
    /// went (else the assembler takes it).
    #[inline]
    pub(super) fn direct_text(&mut self, span: Span, text: &[u8]) -> bool {
        if !self.quiet {
            return false;
        }
        if self.assembler.skip(span) {
            // Left out (it may have cut the response there: not quiet any more).
            self.quiet = false;
            return true;
        }
        self.begin_delta();
        if !push_valid(text, &mut self.delta.content) {
            return false;
        }
        let a = &mut self.assembler;
        if a.keep != Keep::Unsent {
            // The completion has it too, as sent.
            a.content.extend_from_slice(text);
            self.sent.content = a.content.len();
        }
        true
    }

    /// Reasoning straight into the delta, as [`DeltaStream::direct_text`].
    #[inline]
    pub(super) fn direct_reasoning(&mut self, span: Span, text: &[u8]) -> bool {
        if !(self.quiet && self.assembler.reasoning.is_some()) {
            return false;
        }
        if self.assembler.skip(span) {
            // Left out (it may have cut the response there: not quiet any more).
            self.quiet = false;
            return true;
        }
        self.begin_delta();
        if !push_valid(text, &mut self.delta.reasoning_content) {
            return false;
        }
        let a = &mut self.assembler;
        if a.keep != Keep::Unsent {
            let (seg, off) = &mut self.sent.reasoning_at;
            if let Some(Segment::Text(segment)) = a
                .reasoning
                .as_mut()
                .and_then(|segments| segments.get_mut(*seg))
            {
                segment.extend_from_slice(text);
                *off = segment.len();
            }
        }
        true
    }
}
