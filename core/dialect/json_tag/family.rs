//! How the JSON-in-tags family plugs into the driver (crate::engine).

use super::{Envelope, JsonTag, Phase};
use crate::automaton::{Delimiter, Dfa};
use crate::engine::frame::Frame;
use crate::engine::{Family, Sealed};
use crate::{Role, Sink, Span};

impl Sealed for JsonTag {}

impl Family for JsonTag {
    #[inline(always)]
    fn text_dfa(&self, frame: &Frame) -> Option<&'static Dfa> {
        (self.phase == Phase::Text).then(|| self.modes.text.dfa(frame))
    }

    #[inline(always)]
    fn plain_chunk<S: Sink>(
        &mut self,
        frame: &mut Frame,
        chunk: &[u8],
        span: Span,
        sink: &mut S,
    ) -> bool {
        let call = &mut self.call;
        self.phase == Phase::Body
            && call.envelope == Envelope::Arguments
            && chunk.len() <= 64
            && frame.plain_args(&mut call.value, &mut call.budget, chunk, span, sink)
    }

    fn text_delimiter<S: Sink>(
        &mut self,
        frame: &mut Frame,
        delimiter: &'static Delimiter,
        span: Span,
        sink: &mut S,
    ) {
        if let Some(role) = frame.text_delimiter(delimiter, span, sink) {
            self.text_role(frame, role, span, sink);
        }
        let bound = matches!(delimiter.role, Role::ReasoningOpen | Role::ReasoningClose);
        if bound && self.modes.json_start && self.phase == Phase::Text {
            // A call with no opener may begin the reasoning block, or the content after it.
            self.phase = Phase::Start;
        }
    }

    fn text_role<S: Sink>(&mut self, frame: &mut Frame, role: Role, span: Span, sink: &mut S) {
        if role == Role::CallOpen {
            // A new block: no array of calls is open in it yet, unless the opener holds
            // the array's `[` (`list_open`).
            self.in_list = self.modes.list_open;
            self.open_call(frame, span, sink);
        }
    }

    #[inline]
    fn step<S: Sink>(
        &mut self,
        frame: &mut Frame,
        chunk: &[u8],
        pos: usize,
        base: u64,
        sink: &mut S,
    ) -> usize {
        match self.phase {
            Phase::Body => self.body(frame, chunk, pos, base, sink),
            Phase::BodyMarkup => self.body_markup(frame, chunk, pos, base, sink),
            Phase::Tail => self.tail(frame, chunk, pos, base, sink),
            Phase::Start => self.start(frame, chunk, pos, base, sink),
            Phase::Head => self.head(frame, chunk, pos, base, sink),
            Phase::Text => pos,
        }
    }

    fn finish_phase<S: Sink>(&mut self, frame: &mut Frame, end: u64, sink: &mut S) {
        match self.phase {
            Phase::Tail => self.abandon_tail(frame, end, sink),
            Phase::BodyMarkup => {
                // A delimiter's beginning inside the call: the call's own bytes.
                frame.held_as_markup(end, sink);
                self.phase = Phase::Body;
            }
            Phase::Head => self.head_is_text(frame, end, sink),
            Phase::Body | Phase::Text | Phase::Start => {}
        }
    }

    fn in_call(&self) -> bool {
        self.phase == Phase::Body
    }

    fn to_text(&mut self) {
        self.phase = Phase::Text;
    }
}
