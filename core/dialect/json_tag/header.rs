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
    /// begin): the call starts with its name, and its id when the header held one (an
    /// empty id is none: the call keeps a minted one). Says why the call is invalid instead.
    fn header_part_done<S: Sink>(
        &mut self,
        frame: &mut Frame,
        span: Span,
        sink: &mut S,
    ) -> Option<Diagnostic> {
        let call = &mut self.call;
        if call.envelope == Envelope::Header {
            let part = Span::new(call.name_start, span.start);
            return self.name_done(frame, part, sink);
        }
        let at = usize::from(call.id_at);
        let (name, id) = call.name.split_at(at);
        if core::str::from_utf8(id).is_err() {
            return Some(Diagnostic::InvalidName);
        }
        let start = call.name_start;
        frame.name(Span::new(start, start + at as u64), name, sink);
        if !id.is_empty() {
            sink.tool_id(Span::new(call.id_start, span.start), frame.call.index, id);
        }
        None
    }

    /// `[CALL_ID]` at `span` ended the header's name: it is checked (rule 9) and kept
    /// unreported, the id follows it in the name buffer.
    fn id_next(&mut self, span: Span) -> Option<Diagnostic> {
        let call = &mut self.call;
        let name = &call.name[..];
        if name.is_empty() || core::str::from_utf8(name).is_err() {
            return Some(Diagnostic::InvalidName);
        }
        // Cannot truncate: the buffer holds at most MAX_NAME (128) bytes.
        call.id_at = u8::try_from(name.len()).unwrap_or(u8::MAX);
        call.id_start = span.end;
        call.envelope = Envelope::Id;
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
        let markup = |sink: &mut S| {
            sink.markup(span, Markup::Delimiter(delimiter.role), delimiter.bytes);
        };
        let failed = match delimiter.role {
            Role::IdOpen if in_name => {
                markup(sink);
                self.id_next(span)
            }
            // A second `[CALL_ID]`: not a header this dialect writes.
            Role::IdOpen => {
                markup(sink);
                Some(Diagnostic::MalformedCall)
            }
            _ => {
                // The call starts before its separator, as every header's does.
                let failed = self.header_part_done(frame, span, sink);
                markup(sink);
                self.args_next();
                failed
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
