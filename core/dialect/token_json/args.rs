//! A special-token call's arguments: whitespace and an optional fence before one JSON
//! value, the value itself (its strings may hold anything), then whitespace and a closing
//! fence before the call closer.

use super::{hand_back, is_fence, Phase, TokenJson, FENCE_CAP};
use crate::automaton::START;
use crate::engine::frame::{envelope, envelope_while, Anchored, Frame};
use crate::lex::json::{is_json_ws, JsonValue, Step};
use crate::scan::Stop;
use crate::{Diagnostic, Markup, Role, Sink, Span};

impl TokenJson {
    /// After the separator: whitespace, an optional fence, then the JSON value.
    pub(super) fn lead<S: Sink>(
        &mut self,
        chunk: &[u8],
        pos: usize,
        base: u64,
        sink: &mut S,
    ) -> usize {
        let at = |i: usize| base + i as u64;
        let ws = chunk[pos..].iter().take_while(|&&b| is_json_ws(b)).count();
        let i = pos + ws;
        if ws > 0 {
            sink.markup(Span::new(at(pos), at(i)), Markup::Envelope, &chunk[pos..i]);
        }
        let Some(&b) = chunk.get(i) else {
            return i;
        };
        let call = self.call.token();
        match b {
            b'`' | b'~' if call.fence == 0 => {
                if call.fenced.is_none() && !call.broken {
                    // Rule 13: a fence where the format has none.
                    sink.diagnostic(Span::at(at(i)), Diagnostic::CodeFence);
                }
                self.phase = Phase::Fence;
            }
            // The closing fence right after the opening one: no arguments (`{}`).
            b'`' | b'~' => self.phase = Phase::Tail,
            b'<' => self.phase = Phase::ArgsMarkup,
            _ => {
                if matches!(b, b'"' | b'\'') && !call.broken {
                    sink.diagnostic(Span::at(at(i)), Diagnostic::DoubleEncodedArguments);
                }
                call.value = JsonValue::new();
                call.has_value = true;
                call.in_value = true;
                self.phase = Phase::Value;
            }
        }
        i
    }

    /// The opening fence line: backticks (or tildes) and an info string such as `json`, to
    /// the newline or to the JSON value when it starts on the same line.
    pub(super) fn fence<S: Sink>(
        &mut self,
        frame: &mut Frame,
        chunk: &[u8],
        pos: usize,
        base: u64,
        sink: &mut S,
    ) -> usize {
        let at = |i: usize| base + i as u64;
        let mut i = pos;
        let mut done = false;
        let mut bad = None;
        while i < chunk.len() {
            let b = chunk[i];
            let info = b.is_ascii_alphanumeric()
                || is_fence(b)
                || matches!(b, b'_' | b'-' | b'.' | b'+' | b' ' | b'\t' | b'\r');
            if b == b'\n' {
                i += 1;
                done = true;
                break;
            }
            let call = self.call.token();
            if !info || call.fence >= FENCE_CAP {
                bad = Some(b);
                break;
            }
            call.fence += 1;
            i += 1;
        }
        if i > pos {
            sink.markup(Span::new(at(pos), at(i)), Markup::Envelope, &chunk[pos..i]);
        }
        match bad {
            None if done => self.phase = Phase::Lead,
            None => {}
            // Rule 13: the JSON on the fence's own line.
            Some(b'{' | b'[' | b'"') => self.phase = Phase::Lead,
            Some(b'<') => self.phase = Phase::ArgsMarkup,
            Some(_) => {
                // Not a fence line: the call is broken; what follows is read on as its
                // arguments.
                self.break_call(
                    frame,
                    Span::new(at(i), at(i + 1)),
                    Diagnostic::MalformedCall,
                    sink,
                );
                self.phase = Phase::Tail;
            }
        }
        i
    }

    /// The arguments' JSON value: the model's text, streamed as it comes (a broken call's
    /// as its markup).
    pub(super) fn value<S: Sink>(
        &mut self,
        frame: &mut Frame,
        chunk: &[u8],
        pos: usize,
        base: u64,
        sink: &mut S,
    ) -> usize {
        let at = |i: usize| base + i as u64;
        let index = frame.call.index;
        let call = self.call.token();
        let step = call.value.scan(&chunk[pos..]);
        let end = match step {
            Step::More => chunk.len(),
            Step::Done(k) | Step::Error(k) => pos + k,
        };
        // Argument text up to `args`, markup from there (a broken call's).
        let mut args = pos;
        let mut over = false;
        if !call.broken {
            // The limit falls on the same byte whatever the chunking.
            (args, over) = call.budget.take(pos, end, &frame.options);
            if args > pos {
                sink.tool_args(Span::new(at(pos), at(args)), index, &chunk[pos..args]);
            }
        }
        if over {
            self.break_call(
                frame,
                Span::at(at(args)),
                Diagnostic::ArgumentsTooLong,
                sink,
            );
        }
        envelope(chunk, base, args, end, sink);
        match step {
            Step::More => {}
            Step::Done(_) => {
                self.call.token().in_value = false;
                self.phase = Phase::Tail;
            }
            Step::Error(_) if chunk[end] == b'<' => self.phase = Phase::ArgsMarkup,
            Step::Error(_) => {
                // A closing bracket with nothing open: the call is broken, the bracket is
                // its, and what follows is read on as its arguments.
                let span = Span::new(at(end), at(end + 1));
                self.break_call(frame, span, Diagnostic::MalformedCall, sink);
                sink.markup(span, Markup::Envelope, &chunk[end..end + 1]);
                self.call.token().in_value = false;
                self.phase = Phase::Tail;
                return end + 1;
            }
        }
        end
    }

    /// A `<` where the arguments expect JSON: the call closer (empty arguments, or a broken
    /// value), a stop token (the stream ended inside the call), another token, which ends
    /// the call, or no token, which breaks it.
    pub(super) fn args_markup<S: Sink>(
        &mut self,
        frame: &mut Frame,
        chunk: &[u8],
        pos: usize,
        base: u64,
        sink: &mut S,
    ) -> usize {
        let at = |i: usize| base + i as u64;
        match frame.anchored(self.modes.call, chunk, pos) {
            Anchored::Pending => chunk.len(),
            Anchored::Matched(delimiter, end) => {
                let span = Span::new(at(end) - delimiter.bytes.len() as u64, at(end));
                match delimiter.role {
                    Role::Constrain if !self.call.token().has_value => {
                        // The rest of a split arguments opener (PLaMo 3's
                        // `<|plamo:constrain|>json<|plamo:msg|>`): markup, the JSON follows.
                        sink.markup(span, Markup::Delimiter(delimiter.role), delimiter.bytes);
                        self.phase = Phase::Lead;
                    }
                    Role::ArgsClose => {
                        // The arguments' closer: the call closer follows. Where the value
                        // is not complete the call is broken, and waits for its closer.
                        let call = self.call.token();
                        let unfinished = call.in_value;
                        call.in_value = false;
                        if unfinished {
                            self.break_call(frame, span, Diagnostic::MalformedCall, sink);
                        }
                        sink.markup(span, Markup::Delimiter(delimiter.role), delimiter.bytes);
                        self.phase = Phase::Tail;
                    }
                    Role::CallClose => {
                        sink.markup(span, Markup::Delimiter(delimiter.role), delimiter.bytes);
                        if self.call.token().has_value {
                            self.invalid(frame, span, Diagnostic::MalformedCall, sink);
                        } else {
                            // No arguments at all: `{}`.
                            self.complete(frame, span, sink);
                        }
                    }
                    Role::Stop => {
                        self.truncate(frame, Span::at(span.start), sink);
                        return hand_back(frame, delimiter, span, base);
                    }
                    _ => {
                        self.invalid(frame, Span::at(span.start), Diagnostic::MalformedCall, sink);
                        return hand_back(frame, delimiter, span, base);
                    }
                }
                end
            }
            Anchored::Failed(candidate) => {
                let start = at(candidate) - frame.delimiters.hold.len() as u64;
                self.break_call(
                    frame,
                    Span::new(start, start + 1),
                    Diagnostic::MalformedCall,
                    sink,
                );
                self.phase = if self.call.token().in_value {
                    Phase::Value
                } else {
                    Phase::Tail
                };
                skip_markup_byte(frame, candidate, chunk, base, sink)
            }
        }
    }

    /// After the JSON value: whitespace (and a closing fence) is markup, then the closer.
    /// Other text is released as such, with one [`Diagnostic::TrailingText`], and the call
    /// goes on to its closer; another token ends the call without it (rule 3) and is
    /// scanned again where the call stood.
    pub(super) fn tail<S: Sink>(
        &mut self,
        frame: &mut Frame,
        chunk: &[u8],
        pos: usize,
        base: u64,
        sink: &mut S,
    ) -> usize {
        if self.call.token().broken {
            return self.broken_tail(frame, chunk, pos, base, sink);
        }
        let at = |i: usize| base + i as u64;
        let reasoning = frame.reasoning;
        let call = self.call.token();
        let fenced = call.fence != 0;
        let trailing = &mut call.trailing;
        let stop = frame.delimiters.scan(
            self.modes.call,
            chunk,
            pos,
            base,
            &frame.tokens,
            &mut |mut span, mut bytes| {
                if !*trailing {
                    let ws = bytes
                        .iter()
                        .take_while(|&&b| is_json_ws(b) || (fenced && is_fence(b)))
                        .count();
                    if ws > 0 {
                        let end = span.start + ws as u64;
                        sink.markup(Span::new(span.start, end), Markup::Envelope, &bytes[..ws]);
                        span.start = end;
                        bytes = &bytes[ws..];
                    }
                    if bytes.is_empty() {
                        return;
                    }
                    *trailing = true;
                    sink.diagnostic(Span::at(span.start), Diagnostic::TrailingText);
                }
                if reasoning {
                    sink.reasoning(span, bytes);
                } else {
                    sink.text(span, bytes);
                }
            },
        );
        match stop {
            Stop::End => chunk.len(),
            Stop::Match(delimiter, end) => {
                let span = Span::new(at(end) - delimiter.bytes.len() as u64, at(end));
                if delimiter.role == Role::ArgsClose {
                    // The arguments' closer; the call's own follows.
                    sink.markup(span, Markup::Delimiter(delimiter.role), delimiter.bytes);
                } else if delimiter.role == Role::CallClose {
                    sink.markup(span, Markup::Delimiter(delimiter.role), delimiter.bytes);
                    self.complete(frame, span, sink);
                } else {
                    self.end_without_closer(frame, Span::at(span.start), sink);
                    return hand_back(frame, delimiter, span, base);
                }
                end
            }
        }
    }

    /// After a broken call's JSON value: whitespace and fences are markup, a `<` may be its
    /// closer or a token that ends it, and anything else is read on as more JSON (so that
    /// a delimiter inside a string stays argument text).
    fn broken_tail<S: Sink>(
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
            i = envelope_while(chunk, base, i, |b| is_json_ws(b) || is_fence(b), sink);
            if i == chunk.len() {
                return i;
            }
            if chunk[i] != b'<' {
                let call = self.call.token();
                call.value = JsonValue::new();
                call.in_value = true;
                self.phase = Phase::Value;
                return i;
            }
        }
        match frame.anchored(self.modes.call, chunk, i) {
            Anchored::Pending => chunk.len(),
            Anchored::Matched(delimiter, end) => {
                let span = Span::new(at(end) - delimiter.bytes.len() as u64, at(end));
                if delimiter.role == Role::ArgsClose {
                    sink.markup(span, Markup::Delimiter(delimiter.role), delimiter.bytes);
                } else if delimiter.role == Role::CallClose {
                    sink.markup(span, Markup::Delimiter(delimiter.role), delimiter.bytes);
                    self.complete(frame, span, sink);
                } else {
                    self.complete(frame, Span::at(span.start), sink);
                    return hand_back(frame, delimiter, span, base);
                }
                end
            }
            Anchored::Failed(candidate) => skip_markup_byte(frame, candidate, chunk, base, sink),
        }
    }
}

/// A broken call's `<` that began no delimiter (the first held byte, or else
/// `chunk[candidate]`; `chunk[0]` is at stream offset `base`): markup of the call. The held
/// bytes after it stay held for the driver to scan again in the call's phase. Returns where
/// the chunk goes on.
fn skip_markup_byte<S: Sink>(
    frame: &mut Frame,
    candidate: usize,
    chunk: &[u8],
    base: u64,
    sink: &mut S,
) -> usize {
    let at = base + candidate as u64;
    let scan = &mut frame.delimiters;
    if scan.hold.is_empty() {
        let span = Span::new(at, at + 1);
        sink.markup(span, Markup::Envelope, &chunk[candidate..candidate + 1]);
        return candidate + 1;
    }
    let start = at - scan.hold.len() as u64;
    let first = scan.hold.remove(0);
    scan.state = START;
    frame.replay = true;
    sink.markup(Span::new(start, start + 1), Markup::Envelope, &[first]);
    candidate
}
