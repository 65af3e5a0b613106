//! A name header before a call's JSON arguments (the `name_header` knob): Mistral's v11+
//! `[TOOL_CALLS]NAME[ARGS]{…}` and Mistral Small 3.2's `[TOOL_CALLS]NAME[CALL_ID]ID[ARGS]{…}`
//! (docs/dialects.md §mistral). The name (then the id) is kept in the call's name buffer
//! until its delimiter, which the body's markup phase matches; the arguments' JSON ends the
//! call.

use super::{Envelope, Flow, JsonTag, Key, Phase};
use crate::automaton::Delimiter;
use crate::engine::frame::Frame;
use crate::lex::cursor::Cursor;
use crate::{Diagnostic, Markup, Role, Sink, Span};

impl JsonTag {
    /// The first byte of a header's name, at chunk offset `i`.
    #[inline(never)]
    pub(super) fn header_start<S: Sink>(&mut self, c: &mut Cursor<'_, S>, i: usize) -> Flow {
        let call = &mut self.call;
        call.headed = true;
        call.envelope = Envelope::Header;
        call.name.clear();
        call.name_start = c.at(i);
        self.header_byte(c, i)
    }

    /// One byte of a header's name or id: a delimiter's first byte goes to the body's markup
    /// phase; a `{` is the arguments with their `args_open` left out (a detokenizer that
    /// drops control tokens writes `NAME{…}`: accepted with `missing_args_open`); a byte no
    /// name may hold breaks the call (rule 9).
    #[inline(always)]
    pub(super) fn header_byte<S: Sink>(&mut self, c: &mut Cursor<'_, S>, i: usize) -> Flow {
        let b = c.chunk[i];
        if self.modes.body.starts[usize::from(b)] {
            return self.malformed(c, i);
        }
        if b == b'{' {
            c.flush(i);
            let span = Span::at(c.at(i));
            c.sink.diagnostic(span, Diagnostic::MissingArgsOpen);
            if let Some(diagnostic) = self.header_part_done(c.frame, span, c.sink) {
                self.invalid(c.frame, span, diagnostic, c.sink);
                return Flow::Stop(i);
            }
            self.args_next();
            return Flow::Go(i);
        }
        let invalid = b.is_ascii_whitespace()
            || b.is_ascii_control()
            || matches!(b, b'>' | b'"' | b'\'' | b'\\');
        if invalid {
            let span = c.span(i, i + 1);
            return self.broken(c, i, span, Diagnostic::InvalidName);
        }
        if self.call.name.try_push(b).is_err() {
            let span = c.span(i, i + 1);
            return self.broken(c, i, span, Diagnostic::NameTooLong);
        }
        Flow::Go(i + 1)
    }

    /// The header's name or id ended at `span` (where its delimiter, or the arguments,
    /// begin): the name is reported and the call starts, or the id is reported (an empty id
    /// is none: the call keeps a minted one). Says why the call is invalid instead.
    fn header_part_done<S: Sink>(
        &mut self,
        frame: &mut Frame,
        span: Span,
        sink: &mut S,
    ) -> Option<Diagnostic> {
        let call = &mut self.call;
        let part = Span::new(call.name_start, span.start);
        if call.envelope == Envelope::Header {
            return self.name_done(frame, part, sink);
        }
        if !call.name.is_empty() {
            if core::str::from_utf8(&call.name).is_err() {
                return Some(Diagnostic::InvalidName);
            }
            sink.tool_id(part, frame.call.index, &call.name);
        }
        None
    }

    /// The arguments' JSON object comes next: the header's body.
    fn args_next(&mut self) {
        let call = &mut self.call;
        call.envelope = Envelope::Value;
        call.key_kind = Key::Arguments;
    }

    /// `args_open` or `id_open` (`delimiter`, at `span`) ended the header's name or id.
    pub(super) fn header_end<S: Sink>(
        &mut self,
        frame: &mut Frame,
        delimiter: &'static Delimiter,
        span: Span,
        sink: &mut S,
    ) {
        let in_name = self.call.envelope == Envelope::Header;
        let failed = self.header_part_done(frame, span, sink);
        sink.markup(span, Markup::Delimiter(delimiter.role), delimiter.bytes);
        let failed = match (failed, delimiter.role) {
            (Some(diagnostic), _) => Some(diagnostic),
            (None, Role::IdOpen) if in_name => {
                let call = &mut self.call;
                call.envelope = Envelope::Id;
                call.name.clear();
                call.name_start = span.end;
                None
            }
            // A second `[CALL_ID]`: not a header this dialect writes.
            (None, Role::IdOpen) => Some(Diagnostic::MalformedCall),
            (None, _) => {
                self.args_next();
                None
            }
        };
        match failed {
            Some(diagnostic) => self.invalid(frame, span, diagnostic, sink),
            None => self.phase = Phase::Body,
        }
    }

    /// A header's arguments ended at chunk offset `end`: so does the call's body.
    #[inline(never)]
    pub(super) fn headed_done<S: Sink>(&mut self, c: &mut Cursor<'_, S>, end: usize) -> Flow {
        if self.modes.no_closer {
            let span = Span::at(c.at(end));
            self.complete(c.frame, span, c.sink);
        } else {
            self.phase = Phase::Tail;
        }
        Flow::Stop(end)
    }
}
