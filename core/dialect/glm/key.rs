//! Key tags: `<arg_key>KEY</arg_key>` and `<arg_value>`, with one repeated tag tolerated,
//! and the keys read on trial (the missing-closer heal, and a key after a candidate
//! closer), whose bytes go back into the value when they turn out not to be keys.

use super::lookahead::{give_back, Rest};
use core::ops::ControlFlow;

use super::{Glm, Phase};
use crate::automaton::Delimiter;
use crate::engine::frame::Frame;
use crate::lex::name::{is_ws, trim, valid_name};
use crate::options::MAX_NAME;
use crate::{Diagnostic, Markup, Role, Sink, Span, ValueKind};

impl Glm {
    /// Reads the key after `opener` (at stream offset `start`), found in a value, on trial.
    pub(super) fn begin_trial(&mut self, opener: &'static Delimiter, start: u64) {
        self.begin_key();
        self.lookahead.hold(opener, start);
        self.healing = true;
    }

    /// A key tag begins: nothing read of it yet.
    pub(super) fn begin_key(&mut self) {
        self.buf.clear();
        self.key_from = 0;
        self.key_to = 0;
        self.repeat = None;
        self.healing = false;
        self.glued = false;
        self.phase = Phase::Key;
    }

    /// Reading a key tag: the key up to `<` (then `</arg_key>`, whitespace and
    /// `<arg_value>`, the `key` mode's, in [`Glm::key_tag`]). Breaks with the chunk offset
    /// to go on at when a byte cannot be in the tag.
    #[inline(always)]
    pub(super) fn key_run<S: Sink>(
        &mut self,
        frame: &mut Frame,
        chunk: &[u8],
        pos: usize,
        base: u64,
        sink: &mut S,
    ) -> ControlFlow<usize, usize> {
        match self.key_text(chunk, pos) {
            Ok(next) => ControlFlow::Continue(next),
            Err((bad, diagnostic)) => {
                let span = Span::at(base + bad as u64);
                self.bad_key(frame, None, span, diagnostic, sink);
                ControlFlow::Break(bad)
            }
        }
    }

    /// Gathers the key tag's text from `chunk[from]` up to a `<` or the chunk end; returns
    /// the chunk offset it stopped at, or where a byte cannot be in the tag and why.
    #[inline(always)]
    fn key_text(&mut self, chunk: &[u8], from: usize) -> Result<usize, (usize, Diagnostic)> {
        let after_key = self.phase == Phase::AfterKey;
        let key_room = self.key_text_room();
        let mut i = from;
        while i < chunk.len() && chunk[i] != b'<' {
            let b = chunk[i];
            // The heal's signature: a key on one line (docs/seed.md §2.1); whitespace only
            // after the key's closer.
            let (fits, room) = if after_key {
                (is_ws(b), !self.buf.is_full())
            } else {
                let heal = self.healing && !self.closer;
                (!(heal && b == b'\n'), self.buf.len() < key_room)
            };
            if !fits || !room {
                let diagnostic = if fits {
                    Diagnostic::KeyTooLong
                } else {
                    Diagnostic::MalformedCall
                };
                return Err((i, diagnostic));
            }
            self.buf.push(b);
            i += 1;
        }
        Ok(i)
    }

    /// A delimiter of the `key` mode at `span`: kept in the tag, or the tag ends with
    /// `<arg_value>`, with one repeated `<arg_key>` or `</arg_key>` tolerated; otherwise the
    /// tag is not one.
    #[inline(always)]
    pub(super) fn key_tag<S: Sink>(
        &mut self,
        frame: &mut Frame,
        delimiter: &'static Delimiter,
        span: Span,
        sink: &mut S,
    ) {
        let blank_key = self.buf.trim_ascii().is_empty();
        let len = self.buf.len() as u8;
        let repeat = self.repeat.is_none();
        let kept = match (self.phase, delimiter.role) {
            (Phase::Key, Role::ParamClose) => {
                self.key_to = len;
                self.phase = Phase::AfterKey;
                self.push_tag(delimiter)
            }
            (Phase::Key, Role::ParamOpen) if blank_key && repeat => {
                self.repeat = Some(len);
                self.key_from = len + delimiter.bytes.len() as u8;
                self.push_tag(delimiter)
            }
            (Phase::AfterKey, Role::ParamClose) if repeat => {
                self.repeat = Some(len);
                self.push_tag(delimiter)
            }
            (Phase::AfterKey, Role::ArgsOpen) => {
                self.value_opens(frame, delimiter, span, sink);
                true
            }
            _ => false,
        };
        if !kept {
            let diagnostic = Diagnostic::MalformedCall;
            self.bad_key(frame, Some(delimiter), span, diagnostic, sink);
        }
    }

    /// Keeps a key tag's delimiter in the buffer; false when there is no room left (after
    /// a run of whitespace).
    pub(super) fn push_tag(&mut self, delimiter: &'static Delimiter) -> bool {
        self.buf.try_extend_from_slice(delimiter.bytes).is_ok()
    }

    /// The key tag is not one at `span` (after `delimiter`, if one matched there; the call
    /// breaks with `diagnostic`). A healing key goes back into the value it was found in
    /// (and `delimiter` is scanned again as value); otherwise the call is broken.
    pub(super) fn bad_key<S: Sink>(
        &mut self,
        frame: &mut Frame,
        delimiter: Option<&'static Delimiter>,
        span: Span,
        diagnostic: Diagnostic,
        sink: &mut S,
    ) {
        if self.healing {
            self.reject_heal(frame, sink);
            if let Some(delimiter) = delimiter {
                give_back(frame, Rest::Delimiter(delimiter));
            }
            return;
        }
        let start = span.start - self.buf.len() as u64;
        if !self.buf.is_empty() {
            sink.markup(Span::new(start, span.start), Markup::Envelope, &self.buf);
        }
        if let Some(delimiter) = delimiter {
            sink.markup(span, Markup::Envelope, delimiter.bytes);
        }
        self.broken(frame, Span::at(span.start), diagnostic, sink);
    }

    /// The key on trial was not one: the value's held whitespace, its `<arg_key>` and what
    /// was read after it are value text again.
    pub(super) fn reject_heal<S: Sink>(&mut self, frame: &mut Frame, sink: &mut S) {
        self.healing = false;
        self.phase = Phase::Value;
        let (opener, start) = if core::mem::take(&mut self.closer) {
            // The candidate closer before the key, and its whitespace, come first.
            let start = self.trial_opener_start();
            self.reject(frame, Rest::None, sink);
            (self.body_delimiter(Role::ParamOpen).bytes, start)
        } else {
            let Some((opener, start)) = self.lookahead.take() else {
                return;
            };
            (opener.bytes, start)
        };
        let buf = core::mem::take(&mut self.buf);
        let opener_span = Span::new(start, start + opener.len() as u64);
        let raw = Span::new(opener_span.end, opener_span.end + buf.len() as u64);
        // Every piece is reported whatever happens (`&`, not `&&`): once the limit is
        // reached the rest is text.
        let _ = self.value_bytes(frame, opener_span, opener, sink)
            & self.value_bytes(frame, raw, &buf, sink);
    }

    /// `<arg_value>` ended the key tag at `span`: the parameter begins (ending the value
    /// before it, for a healing key).
    pub(super) fn value_opens<S: Sink>(
        &mut self,
        frame: &mut Frame,
        delimiter: &'static Delimiter,
        span: Span,
        sink: &mut S,
    ) {
        let start = span.start - self.buf.len() as u64;
        if self.healing && self.closer {
            self.confirm_trial(frame, sink);
        } else if self.healing {
            let Some((opener, opener_start)) = self.lookahead.take() else {
                return;
            };
            // The whitespace before the healed key is framing (docs/seed.md §2.1).
            let (blank_span, blank) = self.lookahead.take_blank();
            if !blank.is_empty() {
                sink.markup(blank_span, Markup::Envelope, &blank);
            }
            frame.param_end(Span::at(opener_start), sink);
            sink.diagnostic(Span::at(opener_start), Diagnostic::UnclosedValue);
            let opener_span = Span::new(opener_start, opener_start + opener.bytes.len() as u64);
            sink.markup(opener_span, Markup::Delimiter(opener.role), opener.bytes);
            self.healing = false;
        }
        if !self.buf.is_empty() {
            sink.markup(Span::new(start, span.start), Markup::Envelope, &self.buf);
        }
        sink.markup(span, Markup::Envelope, delimiter.bytes);
        if let Some(at) = self.repeat {
            let at = start + u64::from(at);
            sink.diagnostic(
                Span::new(at, at + self.key_close_len() as u64),
                Diagnostic::DuplicateTag,
            );
        }
        let raw = self
            .buf
            .get(usize::from(self.key_from)..usize::from(self.key_to))
            .unwrap_or_default();
        let (lead, key) = trim(raw);
        let key_start = start + u64::from(self.key_from) + lead as u64;
        let key_span = Span::new(key_start, key_start + key.len() as u64);
        if key.is_empty() && !self.glued {
            self.broken(frame, key_span, Diagnostic::MissingKey, sink);
        } else if key.len() > MAX_NAME {
            self.broken(frame, key_span, Diagnostic::KeyTooLong, sink);
        } else if !key.is_empty() && !valid_name(key) {
            // Rule 9: a key the arguments could not carry as written ends the call.
            self.broken(frame, key_span, Diagnostic::InvalidName, sink);
        } else {
            frame.param(key_span, key, ValueKind::Untyped, sink);
            self.phase = Phase::Value;
        }
    }

    /// The key after a candidate closer is one (or the stream ended in it): the closer
    /// counts, and the key's opener is reported.
    pub(super) fn confirm_trial<S: Sink>(&mut self, frame: &mut Frame, sink: &mut S) {
        let start = self.trial_opener_start();
        self.closer = false;
        self.healing = false;
        self.confirm(frame, sink);
        let opener = self.body_delimiter(Role::ParamOpen);
        let span = Span::new(start, start + opener.bytes.len() as u64);
        sink.markup(span, Markup::Delimiter(opener.role), opener.bytes);
        self.phase = Phase::Key;
    }

    /// Stream offset of the `<arg_key>` on trial after a candidate closer: right after the
    /// whitespace that follows the closer.
    pub(super) fn trial_opener_start(&self) -> u64 {
        self.lookahead.blank_end()
    }
}
