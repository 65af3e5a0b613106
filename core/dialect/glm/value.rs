//! Inside a value: value text up to a candidate closer, the candidate's look-ahead
//! (confirmed or rejected by what follows it, rule 4), and the argument limit.

use core::ops::ControlFlow;

use super::lookahead::{give_back, Candidate, Rest};
use super::{Glm, Phase};
use crate::automaton::{Delimiter, START};
use crate::engine::frame::Frame;
use crate::lex::name::is_ws;
use crate::scan::Stop;
use crate::{Diagnostic, Markup, Piece, Role, Sink, Span};

impl Glm {
    /// A whole chunk of value text: no delimiter prefix held, no candidate closer, within
    /// the argument limit (whitespace at its end is held as in [`Glm::value`]).
    #[inline]
    pub(super) fn plain_value(&self, frame: &Frame, chunk: &[u8]) -> bool {
        frame.delimiters.state == START
            && self.budget.fits(chunk.len(), &frame.options)
            && self.modes.value.find_start(chunk).is_none()
    }

    /// Inside a value: everything up to a candidate closer is value text, but whitespace
    /// at its end is held.
    #[inline(always)]
    pub(super) fn value<S: Sink>(
        &mut self,
        frame: &mut Frame,
        chunk: &[u8],
        pos: usize,
        base: u64,
        sink: &mut S,
    ) -> usize {
        let call = frame.call.index;
        // The limit falls on the same byte whatever the chunking: where the value bytes
        // taken (released or held as whitespace) plus those held as a possible closer
        // reach it.
        let held = frame.delimiters.hold.len();
        let end = self.budget.clip(pos, chunk.len(), held, &frame.options);
        let budget = &mut self.budget;
        let lookahead = &mut self.lookahead;
        let stop = frame.delimiters.scan(
            self.modes.value,
            &chunk[..end],
            pos,
            base,
            &frame.tokens,
            &mut |span, bytes| {
                budget.add(bytes.len());
                lookahead.value_text(call, span, bytes, sink);
            },
        );
        match stop {
            Stop::Match(delimiter, to) => {
                let at = base + to as u64;
                let span = Span::new(at - delimiter.bytes.len() as u64, at);
                match delimiter.role {
                    Role::ParamOpen => {
                        // The missing-closer heal, on trial.
                        self.begin_trial(delimiter, span.start);
                    }
                    Role::Stop => {
                        self.flush_blank(frame, sink);
                        frame.truncate(Span::at(span.start), sink);
                        self.in_call = false;
                        self.phase = Phase::Text;
                        frame.text_delimiter(delimiter, span, sink);
                    }
                    _ => {
                        self.flush_blank(frame, sink);
                        self.lookahead.pend(delimiter, span.start);
                        self.phase = Phase::Pending;
                    }
                }
                to
            }
            Stop::End if end < chunk.len() => {
                self.flush_blank(frame, sink);
                let held = frame.delimiters.take();
                let at = base + end as u64;
                self.held_value(frame, &held, at, sink);
                self.broken(frame, Span::at(at), Diagnostic::ArgumentsTooLong, sink);
                end
            }
            Stop::End => chunk.len(),
        }
    }

    /// Releases the whitespace held at the end of a value as value text.
    pub(super) fn flush_blank<S: Sink>(&mut self, frame: &Frame, sink: &mut S) {
        self.lookahead.flush_blank(frame.call.index, sink);
    }

    /// After a candidate closer: the whitespace that follows it is held (then a delimiter
    /// of the `body` mode decides, [`Glm::pending_tag`]). Breaks with the chunk offset to go
    /// on at when there is more whitespace than the look-ahead holds: the candidate is
    /// value text.
    #[inline(always)]
    pub(super) fn pending_run<S: Sink>(
        &mut self,
        frame: &mut Frame,
        chunk: &[u8],
        pos: usize,
        sink: &mut S,
    ) -> ControlFlow<usize, usize> {
        let mut i = pos;
        while i < chunk.len() && is_ws(chunk[i]) {
            if !self.lookahead.push_blank(chunk[i]) {
                self.reject(frame, Rest::None, sink);
                return ControlFlow::Break(i);
            }
            i += 1;
        }
        ControlFlow::Continue(i)
    }

    /// The delimiter `follow` after a candidate closer and its whitespace, at `span`: the
    /// candidate counts if `follow` can continue the structure.
    #[inline(always)]
    pub(super) fn pending_tag<S: Sink>(
        &mut self,
        frame: &mut Frame,
        follow: &'static Delimiter,
        span: Span,
        sink: &mut S,
    ) {
        if !self
            .lookahead
            .admits(follow.role, frame.reasoning, self.in_section)
        {
            self.reject(frame, Rest::Delimiter(follow), sink);
        } else if follow.role == Role::ParamOpen {
            // Only a whole key tag continues the structure: the key is read on trial, as
            // for the missing-closer heal.
            self.begin_key();
            self.healing = true;
            self.closer = true;
        } else {
            self.confirm(frame, sink);
            if follow.role == Role::ParamClose {
                // `</arg_key></arg_value>`: the stray closer goes with the wrong one.
                sink.markup(span, Markup::Delimiter(follow.role), follow.bytes);
            } else {
                self.structure(frame, follow, span, sink);
            }
        }
    }

    /// The candidate counts: report it and its whitespace; the value has ended.
    #[inline(always)]
    pub(super) fn confirm<S: Sink>(&mut self, frame: &mut Frame, sink: &mut S) {
        let Some(Candidate {
            delimiter: candidate,
            span,
            blank,
            blank_span,
        }) = self.lookahead.take_candidate()
        else {
            return;
        };
        let start = span.start;
        match candidate.role {
            Role::CallClose => {
                frame.param_end(Span::at(start), sink);
                sink.diagnostic(Span::at(start), Diagnostic::UnclosedValue);
                sink.markup(span, Markup::Delimiter(candidate.role), candidate.bytes);
                self.complete(frame, span, sink);
            }
            Role::ParamClose => {
                sink.markup(span, Markup::Delimiter(candidate.role), candidate.bytes);
                frame.param_end(span, sink);
                self.phase = Phase::Body;
            }
            _ => {
                sink.markup(span, Markup::Envelope, candidate.bytes);
                frame.param_end(span, sink);
                sink.diagnostic(span, Diagnostic::WrongCloser);
                self.phase = Phase::Body;
            }
        }
        if !blank.is_empty() {
            if self.in_call {
                sink.markup(blank_span, Markup::Envelope, &blank);
            } else {
                frame.release(blank_span, &blank, sink);
            }
        }
    }

    /// The candidate does not count: it and its whitespace are value text, and `rest`
    /// (what followed them) is scanned again as value.
    pub(super) fn reject<S: Sink>(&mut self, frame: &mut Frame, rest: Rest, sink: &mut S) {
        self.phase = Phase::Value;
        let Some(candidate) = self.lookahead.take_candidate() else {
            return;
        };
        let _ = self.value_bytes(frame, candidate.span, candidate.delimiter.bytes, sink)
            & self.value_bytes(frame, candidate.blank_span, &candidate.blank, sink);
        give_back(frame, rest);
    }

    /// Reports `bytes` as value text (its whitespace end held) up to the argument limit;
    /// past it the call is invalid and the rest is text. False when the limit was reached.
    pub(super) fn value_bytes<S: Sink>(
        &mut self,
        frame: &mut Frame,
        span: Span,
        bytes: &[u8],
        sink: &mut S,
    ) -> bool {
        if !self.in_call {
            frame.release(span, bytes, sink);
            return true;
        }
        let (take, _) = self.budget.take(0, bytes.len(), &frame.options);
        let call = frame.call.index;
        if take > 0 {
            let taken = Span::new(span.start, span.start + take as u64);
            self.lookahead.value_text(call, taken, &bytes[..take], sink);
        }
        if take == bytes.len() {
            return true;
        }
        self.flush_blank(frame, sink);
        let at = span.start + take as u64;
        self.broken(frame, Span::at(at), Diagnostic::ArgumentsTooLong, sink);
        frame.release(Span::new(at, span.end), &bytes[take..], sink);
        false
    }

    /// Bytes held at the end of the stream (offset `end`), as value text of the open call.
    pub(super) fn held_value<S: Sink>(&self, frame: &Frame, held: &[u8], end: u64, sink: &mut S) {
        if !held.is_empty() && self.in_call {
            let span = Span::new(end - held.len() as u64, end);
            sink.tool_value(span, frame.call.index, Piece::Verbatim, held);
        } else {
            frame.release_held(held, end, sink);
        }
    }
}
