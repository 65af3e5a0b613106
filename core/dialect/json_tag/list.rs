//! A block's JSON array of calls (the `list` and `list_end` knobs): the commas between its
//! elements, its `]`, and the block's end when the array was left open (docs/dialects.md
//! §jamba, §granite).

use crate::engine::frame::Frame;
use crate::{Diagnostic, Markup, Sink, Span};

use super::JsonTag;

impl JsonTag {
    /// In a block's array, after a call's object: `,` completes it and opens the next
    /// element's call, `]` ends the array (the closer follows, or with `list_end` the block ends). Returns where the tail goes
    /// on, or `None` for any other byte.
    #[inline(never)]
    pub(super) fn list_byte<S: Sink>(
        &mut self,
        frame: &mut Frame,
        chunk: &[u8],
        i: usize,
        base: u64,
        sink: &mut S,
    ) -> Option<usize> {
        let span = Span::new(base + i as u64, base + i as u64 + 1);
        match chunk[i] {
            b',' => {
                sink.markup(span, Markup::Envelope, b",");
                self.complete(frame, Span::at(span.start), sink);
                self.open_call(frame, Span::at(span.end), sink);
            }
            b']' => {
                sink.markup(span, Markup::Envelope, b"]");
                self.in_list = false;
                if self.modes.list_end {
                    // No closer follows the array (Granite): the block ends here.
                    self.complete(frame, Span::at(span.end), sink);
                }
            }
            _ => return None,
        }
        Some(i + 1)
    }

    /// The block ends at `span`: an array of calls still open lacked its `]`. Returns
    /// whether one was open.
    pub(super) fn leave_list<S: Sink>(&mut self, span: Span, sink: &mut S) -> bool {
        let open = core::mem::take(&mut self.in_list);
        if open {
            sink.diagnostic(span, Diagnostic::UnclosedList);
        }
        open
    }

    /// The block ended without its closer. A dialect whose arrays end their blocks
    /// (`list_end`) has no closer to miss: an array left open is its only diagnostic.
    pub(super) fn end_without_closer<S: Sink>(
        &mut self,
        frame: &mut Frame,
        span: Span,
        sink: &mut S,
    ) {
        let open = self.leave_list(span, sink);
        // No closer to miss without one (`no_closer`), where the dialect's forms may leave it
        // out (`closer_optional`), or after an array that ends the block.
        let closerless =
            self.modes.no_closer || self.modes.closer_optional || (open && self.modes.list_end);
        if !closerless {
            sink.diagnostic(span, Diagnostic::MissingCloser);
        }
        self.complete(frame, span, sink);
    }
}
