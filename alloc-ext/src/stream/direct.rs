//! The fast path of a decode step that only adds text: while nothing is waiting (no call
//! being captured, no code point split, everything before it sent), a valid UTF-8 piece of
//! content or reasoning goes straight into the delta being built, checked and copied once
//! (a code point it ends inside waits in a [`Carry`] for the next piece),
//! and [`DeltaStream::delta`] finds nothing else to do. The deltas are the ones the general
//! path builds, byte for byte: it is taken only where that path would send the piece whole
//! and change nothing else.

use inband::{Sink, Span};

use super::utf8::{push_valid, width};
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
                self.keep_fragments();
            }
        }
    }

    /// The last delta's tool-call fragments' buffers, for the next fragments.
    #[inline(never)]
    fn keep_fragments(&mut self) {
        for call in self.delta.tool_calls.drain(..) {
            self.spare.keep(call);
        }
    }

    /// Content the assembler takes (something waits before it, or it is not valid UTF-8
    /// on its own): the general path, kept out of the decode step's common one.
    #[inline(never)]
    pub(super) fn assembled_text(&mut self, span: Span, text: &[u8]) {
        if !self.quiet && self.requiet() && self.direct(span, text, Channel::Content) {
            return;
        }
        self.loud();
        self.assembler.text(span, text);
    }

    /// Reasoning the assembler takes, as [`DeltaStream::assembled_text`].
    #[inline(never)]
    pub(super) fn assembled_reasoning(&mut self, span: Span, text: &[u8]) {
        if !self.quiet
            && self.requiet()
            && self.assembler.reasoning.is_some()
            && self.direct(span, text, Channel::Reasoning)
        {
            return;
        }
        self.loud();
        self.assembler.reasoning(span, text);
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
        self.quiet && self.direct(span, text, Channel::Content)
    }

    /// Whether the step may go quiet again: markup or a call earlier in it left nothing
    /// waiting (a message header before a long answer, a call's end before prose).
    #[inline(never)]
    fn requiet(&mut self) -> bool {
        self.quiet = self.quiet();
        self.quiet
    }

    /// Reasoning straight into the delta, as [`DeltaStream::direct_text`].
    #[inline]
    pub(super) fn direct_reasoning(&mut self, span: Span, text: &[u8]) -> bool {
        self.quiet
            && self.assembler.reasoning.is_some()
            && self.direct(span, text, Channel::Reasoning)
    }

    /// A quiet step's piece of `channel` into the delta: all of it, but for a code point
    /// cut short at its end, which waits in [`Carry`] for the next piece.
    #[inline(always)]
    fn direct(&mut self, span: Span, text: &[u8], channel: Channel) -> bool {
        if self.carry.len != 0 {
            return self.direct_after_carry(span, text, channel);
        }
        if !self.assembler.within_limit(span) {
            // The response ends in it, or ended before it: the assembler keeps what the
            // limit leaves and ends the response.
            return false;
        }
        self.begin_delta();
        let Some(taken) = push_valid(text, self.delta.text(channel)) else {
            return false;
        };
        if taken < text.len() {
            self.carry = Carry::new(&text[taken..], span.end, channel);
        }
        self.retain(&text[..taken], channel);
        true
    }

    /// [`DeltaStream::direct`] when a code point waits: `text` must finish it, within the
    /// response's limit, and be the same channel, or the assembler takes both.
    #[inline(never)]
    fn direct_after_carry(&mut self, span: Span, text: &[u8], channel: Channel) -> bool {
        let carry = self.carry;
        let waited = usize::from(carry.len);
        // (A carry is a valid code point's first bytes, so more are needed; a zero would
        // be a bug, and the general path is then the safe one.)
        let Some(needs) = width(carry.bytes[0]).checked_sub(waited).filter(|&n| n > 0) else {
            return false;
        };
        if carry.channel != channel || text.len() < needs || !self.assembler.within_limit(span) {
            return false;
        }
        let mut point = carry.bytes;
        point[waited..waited + needs].copy_from_slice(&text[..needs]);
        let Ok(point) = core::str::from_utf8(&point[..waited + needs]) else {
            return false;
        };
        self.begin_delta();
        let out = self.delta.text(channel);
        let start = out.len();
        out.push_str(point);
        let Some(taken) = push_valid(&text[needs..], out) else {
            out.truncate(start);
            return false;
        };
        self.carry = Carry::default();
        let rest = &text[needs..];
        if taken < rest.len() {
            self.carry = Carry::new(&rest[taken..], span.end, channel);
        }
        self.retain(&point.as_bytes()[..waited], channel);
        self.retain(&text[..needs + taken], channel);
        true
    }

    /// Bytes that went straight into the delta, kept for the completion too (unless it
    /// keeps only what was not sent), as sent.
    #[inline]
    fn retain(&mut self, bytes: &[u8], channel: Channel) {
        let a = &mut self.assembler;
        if a.keep == Keep::Unsent {
            return;
        }
        match channel {
            Channel::Content => {
                a.content.extend_from_slice(bytes);
                self.sent.content = a.content.len();
            }
            Channel::Reasoning => {
                let (seg, off) = &mut self.sent.reasoning_at;
                if let Some(Segment::Text(segment)) = a
                    .reasoning
                    .as_mut()
                    .and_then(|segments| segments.get_mut(*seg))
                {
                    segment.extend_from_slice(bytes);
                    *off = segment.len();
                }
            }
        }
    }

    /// Leaves the quiet path: what waits in [`Carry`] goes to the assembler first, in
    /// order, with the span it arrived in.
    #[inline]
    pub(super) fn loud(&mut self) {
        self.quiet = false;
        if self.carry.len != 0 {
            self.flush_carry();
        }
    }

    #[inline(never)]
    fn flush_carry(&mut self) {
        let carry = std::mem::take(&mut self.carry);
        let len = usize::from(carry.len);
        let span = Span::new(carry.end - len as u64, carry.end);
        match carry.channel {
            Channel::Content => self.assembler.text(span, &carry.bytes[..len]),
            Channel::Reasoning => self.assembler.reasoning(span, &carry.bytes[..len]),
        }
    }
}

/// Which text of the delta a piece belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(super) enum Channel {
    #[default]
    Content,
    Reasoning,
}

impl super::ChunkDelta {
    fn text(&mut self, channel: Channel) -> &mut String {
        match channel {
            Channel::Content => &mut self.content,
            Channel::Reasoning => &mut self.reasoning_content,
        }
    }
}

/// The first bytes (at most 3) of a code point that a quiet step's piece ended inside,
/// held until the next piece finishes it: a decode step may end inside a code point
/// (byte-level tokens), and sending the text before it keeps the step on the quiet path.
/// `end` is the stream offset just past them.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Carry {
    bytes: [u8; 4],
    len: u8,
    channel: Channel,
    end: u64,
}

impl Carry {
    fn new(tail: &[u8], end: u64, channel: Channel) -> Self {
        let mut bytes = [0; 4];
        bytes[..tail.len()].copy_from_slice(tail);
        Carry {
            bytes,
            len: tail.len() as u8,
            channel,
            end,
        }
    }
}
