//! A verbatim section inside a value (the `cdata_close` knob): MiniCPM 5's
//! `<![CDATA[…]]>`. A `quote` delimiter of the `value` mode opens it; every byte up to the
//! knob's closer is value as written, candidate closers and other markup included (an XML
//! CDATA section, docs/dialects.md §minicpm5). The opener and the closer are the call's
//! markup. The closer may be split across chunks: the bytes that may begin it are held
//! (`verbatim_held`) until a byte decides.

use super::*;

impl ParamCalls {
    /// The section's opener `delimiter`, found at `span` in a value: markup, and the
    /// verbatim phase from the next byte on.
    pub(super) fn open_verbatim<S: Sink>(
        &mut self,
        frame: &Frame,
        delimiter: &'static Delimiter,
        span: Span,
        sink: &mut S,
    ) {
        self.flush_newline(frame, span.start, sink);
        sink.markup(span, Markup::Envelope, delimiter.bytes);
        self.verbatim_held = 0;
        self.phase = Phase::Verbatim;
    }

    /// Inside the section: value bytes in runs up to the closer, which returns to the value.
    pub(super) fn verbatim<S: Sink>(
        &mut self,
        frame: &mut Frame,
        chunk: &[u8],
        pos: usize,
        base: u64,
        sink: &mut S,
    ) -> usize {
        let Some(close) = self.tagset.cdata_close else {
            self.phase = Phase::Value;
            return pos;
        };
        let at = |i: usize| base + i as u64;
        // Bytes from `run` on are plain value not reported yet.
        let mut run = pos;
        let mut i = pos;
        while i < chunk.len() {
            let held = usize::from(self.verbatim_held);
            if held == 0 {
                // Fast: up to the next byte that may begin the closer.
                match memchr::memchr(close[0], &chunk[i..]) {
                    Some(k) => i += k,
                    None => break,
                }
                if !self.verbatim_value(frame, Span::new(at(run), at(i)), &chunk[run..i], sink) {
                    return i;
                }
            }
            let b = chunk[i];
            i += 1;
            run = i;
            if close.get(held) == Some(&b) {
                if held + 1 == close.len() {
                    self.verbatim_held = 0;
                    let span = Span::new(at(i) - close.len() as u64, at(i));
                    sink.markup(span, Markup::Envelope, close);
                    self.phase = Phase::Value;
                    return i;
                }
                self.verbatim_held += 1;
                continue;
            }
            // Not the closer: the held bytes and this one are value, but for the longest
            // end of them that may still begin it (`]]]>` ends a section too).
            let mut read: ArrayVec<u8, CANDIDATE_CAP> = ArrayVec::new();
            read.extend(close[..held].iter().copied());
            read.push(b);
            let keep = (1..read.len())
                .rev()
                .find(|&k| read[read.len() - k..] == close[..k])
                .unwrap_or(0);
            self.verbatim_held = keep as u8;
            let released = &read[..read.len() - keep];
            let start = at(i) - read.len() as u64;
            let span = Span::new(start, start + released.len() as u64);
            if !self.verbatim_value(frame, span, released, sink) {
                self.verbatim_held = 0;
                let rest = Span::new(span.end, at(i));
                frame.release(rest, &read[released.len()..], sink);
                return i;
            }
        }
        let end = chunk.len();
        if usize::from(self.verbatim_held) == 0 && run < end {
            self.verbatim_value(frame, Span::new(at(run), at(end)), &chunk[run..], sink);
        }
        end
    }

    /// Value bytes of the section; false when the argument limit ended the call (the
    /// machine is idle, what follows is text).
    fn verbatim_value<S: Sink>(
        &mut self,
        frame: &mut Frame,
        span: Span,
        bytes: &[u8],
        sink: &mut S,
    ) -> bool {
        bytes.is_empty() || self.value_bytes(frame, span, bytes, sink)
    }

    /// The end of the stream at offset `end` inside the section: the held bytes that may
    /// have begun the closer are value.
    pub(super) fn flush_verbatim<S: Sink>(&mut self, frame: &mut Frame, end: u64, sink: &mut S) {
        let held = usize::from(core::mem::take(&mut self.verbatim_held));
        if let Some(close) = self.tagset.cdata_close {
            let span = Span::new(end - held as u64, end);
            self.verbatim_value(frame, span, &close[..held], sink);
        }
    }
}
