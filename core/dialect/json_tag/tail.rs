//! After a call's JSON body: the tail up to the block's closer, and the markup met
//! where the body expects structure (docs/dialects.md §hermes).

use super::*;

impl JsonTag {
    /// After the body: whitespace is markup, then the closer must follow.
    #[inline(always)]
    pub(super) fn tail<S: Sink>(
        &mut self,
        frame: &mut Frame,
        chunk: &[u8],
        pos: usize,
        base: u64,
        sink: &mut S,
    ) -> usize {
        let at = |i: usize| base + i as u64;
        let mut i = pos;
        if frame.delimiters.state == START {
            // A fenced body's closing fence is part of the tail.
            let fenced = self.call.fence != 0;
            let ws = chunk[i..]
                .iter()
                .take_while(|&&b| is_json_ws(b) || (b == b'`' && fenced))
                .count();
            if ws > 0 {
                sink.markup(
                    Span::new(at(i), at(i + ws)),
                    Markup::Envelope,
                    &chunk[i..i + ws],
                );
                i += ws;
            }
            if i == chunk.len() {
                return i;
            }
            if self.in_list {
                if let Some(next) = self.list_byte(frame, chunk, i, base, sink) {
                    return next;
                }
            }
            if chunk[i] == b'{' {
                // Another JSON object in the same block: the next call (Qwen2.5 writes
                // parallel calls this way).
                let span = Span::at(at(i));
                sink.diagnostic(span, Diagnostic::SharedBlock);
                self.complete(frame, span, sink);
                self.open_call(frame, span, sink);
                return i;
            }
            if self.modes.no_closer {
                // No closer to look for: the call ends here (in an array left open, with
                // `unclosed_list`), and the byte is the text's.
                self.end_without_closer(frame, Span::at(at(i)), sink);
                return i;
            }
        }
        match frame.anchored(self.modes.tail, chunk, i) {
            Anchored::Pending => chunk.len(),
            Anchored::Matched(delimiter, end) => {
                let span = Span::new(at(end) - delimiter.bytes.len() as u64, at(end));
                sink.markup(span, Markup::Delimiter(delimiter.role), delimiter.bytes);
                self.leave_list(Span::at(span.start), sink);
                self.complete(frame, span, sink);
                end
            }
            Anchored::Failed(candidate) => {
                // Not the closer: the call is complete without it; the held bytes are
                // scanned again as text.
                let start = at(candidate) - frame.delimiters.hold.len() as u64;
                self.end_without_closer(frame, Span::at(start), sink);
                frame.replay = true;
                candidate
            }
        }
    }

    /// Markup where a call body expects JSON structure: a stop token (the stream ended
    /// inside the call), the closer (the body lost its last brace), the next call's opener
    /// or the reasoning closer; anything else breaks the call.
    #[inline(always)]
    pub(super) fn body_markup<S: Sink>(
        &mut self,
        frame: &mut Frame,
        chunk: &[u8],
        pos: usize,
        base: u64,
        sink: &mut S,
    ) -> usize {
        let at = |i: usize| base + i as u64;
        let (delimiter, end) = match frame.anchored(self.modes.body, chunk, pos) {
            Anchored::Pending => return chunk.len(),
            Anchored::Matched(delimiter, end) => (delimiter, end),
            Anchored::Failed(candidate) => {
                let start = at(candidate) - frame.delimiters.hold.len() as u64;
                let header = matches!(self.call.envelope, Envelope::Header | Envelope::Id);
                let diagnostic = if self.call.envelope == Envelope::Name || header {
                    Diagnostic::InvalidName
                } else {
                    Diagnostic::MalformedCall
                };
                self.invalid(frame, Span::new(start, start + 1), diagnostic, sink);
                frame.replay = true;
                return candidate;
            }
        };
        let span = Span::new(at(end) - delimiter.bytes.len() as u64, at(end));
        let in_header = matches!(self.call.envelope, Envelope::Header | Envelope::Id);
        match delimiter.role {
            Role::ArgsOpen | Role::IdOpen if in_header => {
                self.header_end(frame, delimiter, span, sink);
            }
            Role::Stop => {
                self.truncate(frame, span, sink);
                sink.markup(span, Markup::Delimiter(delimiter.role), delimiter.bytes);
                sink.diagnostic(span, Diagnostic::StrayStopToken);
            }
            Role::CallClose if self.call.envelope == Envelope::Next && self.call.has_name => {
                sink.markup(span, Markup::Delimiter(delimiter.role), delimiter.bytes);
                sink.diagnostic(span, Diagnostic::UnclosedBody);
                self.leave_list(Span::at(span.start), sink);
                self.complete(frame, span, sink);
            }
            Role::CallClose => {
                sink.markup(span, Markup::Delimiter(delimiter.role), delimiter.bytes);
                self.invalid(frame, span, Diagnostic::MalformedCall, sink);
            }
            Role::ReasoningClose if !frame.reasoning => {
                // Not ours to close: text after the broken call.
                self.invalid(frame, Span::at(span.start), Diagnostic::MalformedCall, sink);
                sink.text(span, delimiter.bytes);
            }
            _ => {
                self.invalid(frame, Span::at(span.start), Diagnostic::MalformedCall, sink);
                self.text_delimiter(frame, delimiter, span, sink);
            }
        }
        end
    }

    /// The stream ended in the tail: complete without the closer. Held bytes are the start
    /// of the closer the end of the stream cut off: the call's own markup.
    pub(super) fn abandon_tail<S: Sink>(&mut self, frame: &mut Frame, end: u64, sink: &mut S) {
        frame.held_as_markup(end, sink);
        self.end_without_closer(frame, Span::at(end), sink);
    }
}
