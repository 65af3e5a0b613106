//! What the [`Assembler`] captures of a call's bytes: an opener's bytes before the call
//! starts, the call's raw text, its special tokens and the text written inside it, in
//! buffers reused from call to call; and whether text arriving now is plain.

use inband::{Diagnostic, Sink, Span};

use super::{Assembler, Capture, Keep};

impl Assembler {
    /// What settled calls and sent text are kept for; [`Keep::Unsent`] keeps so little
    /// that no response limit applies.
    pub(crate) fn set_keep(&mut self, keep: Keep) {
        self.keep = keep;
        if keep == Keep::Unsent {
            self.limit = None;
        }
    }

    /// Whether content arriving now goes only to the content: no call's bytes are being
    /// captured and no code point of the content waits for its end.
    pub(crate) fn plain_content(&self) -> bool {
        matches!(self.capture, Capture::None) && self.content_utf8.is_clear()
    }

    /// [`Assembler::plain_content`] for reasoning.
    pub(crate) fn plain_reasoning(&self) -> bool {
        matches!(self.capture, Capture::None) && self.reasoning_utf8.is_clear()
    }

    /// Starts capturing an opener's bytes (the start of the next call's raw text), in the
    /// buffers of the opening it replaces or of a retired call; `token` says they are one
    /// special token, `section` that they are a section opener.
    pub(super) fn open_opening(&mut self, span: Span, bytes: &[u8], token: bool, section: bool) {
        self.end_capture();
        let spare = &mut self.calls.spare;
        let (mut raw, mut tokens) = (
            std::mem::take(&mut spare.raw),
            std::mem::take(&mut spare.tokens),
        );
        raw.clear();
        tokens.clear();
        raw.extend_from_slice(bytes);
        if token {
            tokens.push((0..bytes.len(), span));
        }
        self.capture = Capture::Opening(raw, span.start, tokens, section);
    }

    /// Ends the capture: an opening's buffers go back to the spare ones, for the next.
    pub(super) fn end_capture(&mut self) {
        if let Capture::Opening(raw, _, tokens, _) =
            std::mem::replace(&mut self.capture, Capture::None)
        {
            self.calls.spare.keep_raw(raw);
            self.calls.spare.keep_tokens(tokens);
        }
    }

    /// Ends the capture before text or reasoning: a section opener no call followed (the
    /// call's name was refused) is given back where it stood, but for its special tokens
    /// (docs/dialects.md rules 2 and 12); a call opener or whitespace between calls is
    /// structure.
    pub(super) fn release_opening(&mut self) {
        let Capture::Opening(raw, _, tokens, true) = &self.capture else {
            return self.end_capture();
        };
        let (mut from, mut text) = (0, Vec::new());
        for (range, _) in tokens {
            text.extend_from_slice(raw.get(from..range.start).unwrap_or_default());
            from = range.end;
        }
        text.extend_from_slice(raw.get(from..).unwrap_or_default());
        let spans: Vec<Span> = tokens.iter().map(|(_, span)| *span).collect();
        self.end_capture();
        for span in spans {
            self.diagnostic(span, Diagnostic::StrayToken);
        }
        self.push_text(&text);
    }

    /// Adds a call's bytes to its raw text; `token` says they are one special token.
    pub(super) fn capture(&mut self, span: Span, bytes: &[u8], token: bool) {
        match &mut self.capture {
            Capture::None => {}
            Capture::Opening(raw, _, tokens, _) => {
                let start = raw.len();
                raw.extend_from_slice(bytes);
                if token {
                    tokens.push((start..raw.len(), span));
                }
            }
            Capture::Call(call) => {
                if let Some(record) = self.calls.get_mut(*call as usize) {
                    let start = record.raw.len();
                    record.raw.extend_from_slice(bytes);
                    if token {
                        record.tokens.push((start..record.raw.len(), span));
                    }
                }
            }
        }
    }

    /// Text or reasoning reported while a call is open (bytes between its arguments and
    /// its closer) are its own too: returns whether there was one.
    pub(super) fn open_capture(&mut self, span: Span, bytes: &[u8], reasoning: bool) -> bool {
        let Capture::Call(call) = self.capture else {
            return false;
        };
        let Some(record) = self.calls.get_mut(call as usize) else {
            return false;
        };
        if record.end.is_some() {
            return false;
        }
        if record.inner.is_empty() {
            record.inner_start = span.start;
            record.inner_reasoning = reasoning;
        }
        record.raw.extend_from_slice(bytes);
        record.inner.extend_from_slice(bytes);
        true
    }
}
