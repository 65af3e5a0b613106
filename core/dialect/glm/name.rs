//! The name after `<tool_call>`: gathered whole, up to a line feed or the first tag, and
//! checked before the call starts (rule 9); a block whose name is not one is text.

use core::ops::ControlFlow;

use super::{Glm, Phase};
use crate::automaton::Delimiter;
use crate::engine::budget::Budget;
use crate::engine::frame::Frame;
use crate::lex::name::{trim, valid_name};
use crate::options::MAX_NAME;
use crate::tables::BareCall;
use crate::{Diagnostic, Markup, Role, Sink, Span};

impl Glm {
    /// Reading the name: everything up to a line feed (once the name has begun) or a `<`,
    /// where the `body` mode says how the name ended. Breaks with the chunk offset to go on
    /// at when the name ended without a delimiter.
    #[inline(always)]
    pub(super) fn name_run<S: Sink>(
        &mut self,
        frame: &mut Frame,
        chunk: &[u8],
        pos: usize,
        base: u64,
        sink: &mut S,
    ) -> ControlFlow<usize, usize> {
        for (i, &b) in chunk.iter().enumerate().skip(pos) {
            if b == b'<' {
                return ControlFlow::Continue(i);
            }
            if b == b'\n' && !self.buf.trim_ascii().is_empty() {
                let span = Span::new(base + i as u64, base + i as u64 + 1);
                if self.start_call(frame, sink) {
                    sink.markup(span, Markup::Envelope, b"\n");
                    self.phase = Phase::Body;
                } else {
                    frame.release(span, b"\n", sink);
                }
                return ControlFlow::Break(i + 1);
            }
            if self.buf.try_push(b).is_err() {
                self.not_a_name(frame, Diagnostic::NameTooLong, sink);
                return ControlFlow::Break(i);
            }
        }
        ControlFlow::Continue(chunk.len())
    }

    /// The delimiter of the `body` mode that ended the name, at `span`.
    #[inline(always)]
    pub(super) fn name_tag<S: Sink>(
        &mut self,
        frame: &mut Frame,
        delimiter: &'static Delimiter,
        span: Span,
        sink: &mut S,
    ) {
        match delimiter.role {
            Role::ParamOpen | Role::CallClose => {
                if self.start_call(frame, sink) {
                    self.structure(frame, delimiter, span, sink);
                } else {
                    frame.release(span, delimiter.bytes, sink);
                }
            }
            Role::ArgsOpen => {
                // The separator after the name (Hunyuan's `<tool_sep…>`): the parts follow.
                if self.start_call(frame, sink) {
                    sink.markup(span, Markup::Delimiter(delimiter.role), delimiter.bytes);
                } else {
                    frame.release(span, delimiter.bytes, sink);
                }
            }
            Role::Stray => {
                // `NAMEKEY</arg_key>`: the key's opener is missing (corpus 018). Only the
                // tool list tells the name from the key, so the call is reported with the
                // glued name and an empty first key, announced by the diagnostic before the
                // call starts (alloc-ext splits or drops it).
                self.glued = true;
                if self.start_call(frame, sink) {
                    self.begin_key();
                    self.glued = true;
                    let kept = self.push_tag(delimiter);
                    debug_assert!(kept, "the key buffer holds a closer");
                    self.phase = Phase::AfterKey;
                } else {
                    self.glued = false;
                    frame.release(span, delimiter.bytes, sink);
                }
            }
            _ => {
                self.not_a_name(frame, Diagnostic::InvalidName, sink);
                self.delimiter_as_text(frame, delimiter, span, sink);
            }
        }
    }

    /// The name ended: if it is one, the call starts (its opener and name reported as
    /// markup). Otherwise the opener and the name are text, with a diagnostic; so is the
    /// rest when a limit refuses the call. Returns whether the call is open.
    pub(super) fn start_call<S: Sink>(&mut self, frame: &mut Frame, sink: &mut S) -> bool {
        let Some((opener, start)) = self.lookahead.take() else {
            self.phase = Phase::Text;
            return false;
        };
        let opener_span = Span::new(start, start + opener.bytes.len() as u64);
        let raw = Span::new(opener_span.end, opener_span.end + self.buf.len() as u64);
        let (lead, name) = trim(&self.buf);
        let diagnostic = if name.len() > MAX_NAME {
            Some(Diagnostic::NameTooLong)
        } else if !valid_name(name) {
            Some(Diagnostic::InvalidName)
        } else {
            None
        };
        if let Some(diagnostic) = diagnostic {
            self.lookahead.hold(opener, start);
            self.not_a_name(frame, diagnostic, sink);
            return false;
        }
        if self.glued {
            sink.diagnostic(Span::new(start, raw.end), Diagnostic::MissingKeyOpen);
        }
        if !self.in_section
            && self.modes.section.is_some()
            && self.modes.bare_call == BareCall::MissingSection
        {
            sink.diagnostic(opener_span, Diagnostic::MissingSection);
        }
        sink.markup(opener_span, Markup::Delimiter(opener.role), opener.bytes);
        if !self.buf.is_empty() {
            sink.markup(raw, Markup::Envelope, &self.buf);
        }
        self.phase = Phase::Text;
        if !frame.open_call(opener_span, sink) {
            return false;
        }
        let name_start = raw.start + lead as u64;
        let name_span = Span::new(name_start, name_start + name.len() as u64);
        frame.name(name_span, name, sink);
        self.in_call = true;
        self.budget = Budget::EMPTY;
        self.phase = Phase::Body;
        true
    }

    /// The block after `<tool_call>` has no name: the opener and what was read are text.
    pub(super) fn not_a_name<S: Sink>(
        &mut self,
        frame: &mut Frame,
        diagnostic: Diagnostic,
        sink: &mut S,
    ) {
        self.phase = Phase::Text;
        let Some((opener, start)) = self.lookahead.take() else {
            return;
        };
        let opener_span = Span::new(start, start + opener.bytes.len() as u64);
        let raw = Span::new(opener_span.end, opener_span.end + self.buf.len() as u64);
        frame.release(opener_span, opener.bytes, sink);
        if !self.buf.is_empty() {
            frame.release(raw, &self.buf, sink);
        }
        sink.diagnostic(Span::new(start, raw.end), diagnostic);
    }
}
