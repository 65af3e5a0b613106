//! What the scanner decides over the whole stream, above its dialect machine: a stop token
//! at the very end is the model's normal end of turn, not a leak, and a reasoning closer in
//! content with no opener before it means the prompt opened the reasoning.
//!
//! Both are a [`Sink`] in front of the caller's, [`Watch`], with their state in
//! [`Edges`] (a few bytes of the scanner):
//!
//! - The [`Diagnostic::StrayStopToken`] of a stop token waits until something other than
//!   whitespace follows: then it is sent, just before that event (a text event is split
//!   there, so the order does not depend on the chunking). When the stream ends first, the
//!   stop token was the end of the turn and the diagnostic is dropped; the token itself is
//!   still markup, never text. Stop tokens with only whitespace between them are one run
//!   with one diagnostic spanning it (`<|im_end|><|endoftext|>` at the end is the end of
//!   the turn): only the last run of the stream can be the end of the turn.
//! - Until the first reasoning block opens, the content text is watched with the
//!   dialect's reasoning-mode automaton: the first reasoning closer found in it (`</think>`,
//!   `</thinking>`, Gemma's `<channel|>`) gets a [`Diagnostic::UnopenedReasoning`] naming
//!   [`Options::starts_in_reasoning`](crate::Options::starts_in_reasoning). It stays what
//!   it was (text; in `deepseek` a stray token, removed): the content before it was already
//!   sent, so no reading can take it back. Not watched
//!   when the stream starts in reasoning, nor in `harmony` (channels, no closer) and
//!   `gemini` (its closer, a fence, is ordinary Markdown).

use crate::automaton::{Dfa, START};
use crate::event::{CallEnd, Diagnostic, Markup, Piece, Role, Sink, Span, ValueKind};
use crate::token::Tokens;

/// No stop token waits for its diagnostic.
const NONE: u64 = u64::MAX;

/// The state [`Watch`] keeps between chunks. Packed (14 bytes, no padding), so that the
/// scanner stays within its 456 bytes.
#[derive(Debug, Clone, Copy)]
#[repr(C, packed)]
pub(crate) struct Edges {
    /// Where the waiting stop token starts, [`NONE`] when none waits.
    stop_start: u64,
    /// The waiting stop token's length in bytes.
    stop_len: u8,
    /// Whether content text is still watched for an unopened reasoning closer.
    watching: bool,
    /// The reasoning-mode automaton's state over the content text watched.
    closer: u16,
    /// The scanner was fed or finished (its own state, kept here where it costs no
    /// padding).
    pub(crate) started: bool,
    /// [`Scanner::finish`](crate::Scanner::finish) was called.
    pub(crate) finished: bool,
}

impl Edges {
    /// At the start of a stream; `watch`: whether to watch for an unopened reasoning
    /// closer.
    pub(crate) const fn new(watch: bool) -> Self {
        Edges {
            stop_start: NONE,
            stop_len: 0,
            watching: watch,
            closer: START,
            started: false,
            finished: false,
        }
    }
}

/// The caller's sink behind the stream-wide decisions of [`Edges`].
pub(crate) struct Watch<'a, S: Sink> {
    pub(crate) edges: &'a mut Edges,
    pub(crate) sink: &'a mut S,
    /// The dialect's reasoning-mode automaton, for the closers it holds.
    pub(crate) reasoning: Option<&'static Dfa>,
    /// The stream is ending: only non-whitespace text sends a waiting diagnostic.
    pub(crate) finishing: bool,
    /// Token mode: a closer not where its token began is no closer (docs/dialects.md rule 14).
    pub(crate) tokens: Tokens,
}

fn blank(bytes: &[u8]) -> bool {
    bytes.iter().all(u8::is_ascii_whitespace)
}

impl<S: Sink> Watch<'_, S> {
    /// Sends the waiting stop token's diagnostic, if any.
    fn flush(&mut self) {
        if self.edges.stop_start != NONE {
            let start = self.edges.stop_start;
            self.edges.stop_start = NONE;
            let span = Span::new(start, start + u64::from(self.edges.stop_len));
            self.sink.diagnostic(span, Diagnostic::StrayStopToken);
        }
    }

    /// Before an event other than text: it sends a waiting diagnostic (not while the
    /// stream ends) and breaks a closer being matched in the text.
    fn event(&mut self) {
        if !self.finishing {
            self.flush();
        }
        self.edges.closer = START;
    }

    /// Payload `bytes` at `span` through `send`, the waiting diagnostic sent just before
    /// its first byte that is not whitespace.
    #[inline(always)]
    fn payload(&mut self, span: Span, bytes: &[u8], send: impl Fn(&mut S, Span, &[u8])) {
        if self.edges.stop_start != NONE {
            if let Some(at) = bytes.iter().position(|b| !b.is_ascii_whitespace()) {
                let (blank, rest) = bytes.split_at(at);
                if !blank.is_empty() {
                    send(
                        self.sink,
                        Span::new(span.start, span.start + at as u64),
                        blank,
                    );
                }
                self.flush();
                send(self.sink, Span::new(span.start + at as u64, span.end), rest);
                return;
            }
        }
        send(self.sink, span, bytes);
    }

    /// Whether `bytes` are one of the reasoning closers watched for.
    fn is_closer(&self, bytes: &[u8]) -> bool {
        self.reasoning.is_some_and(|dfa| {
            dfa.delimiters
                .iter()
                .any(|d| d.role == Role::ReasoningClose && d.bytes == bytes)
        })
    }

    /// Watches content text for a reasoning closer: the first one found gets
    /// [`Diagnostic::UnopenedReasoning`], after the text that holds it.
    fn watch(&mut self, span: Span, text: &[u8]) {
        let Some(dfa) = self.reasoning else {
            self.payload(span, text, |s, sp, t| s.text(sp, t));
            return;
        };
        let mut state = self.edges.closer;
        let mut i = 0;
        while i < text.len() {
            if state == START {
                match dfa.find_start(&text[i..]) {
                    Some(skip) => i += skip,
                    None => break,
                }
            }
            state = dfa.next(state, text[i]);
            i += 1;
            let Some(found) = dfa.matched(state) else {
                continue;
            };
            if found.role != Role::ReasoningClose {
                continue;
            }
            let closer = Span::new(
                span.start + i as u64 - found.bytes.len() as u64,
                span.start + i as u64,
            );
            if !self.tokens.admits(found.bytes, closer.start) {
                state = START;
                continue;
            }
            let (held, rest) = text.split_at(i);
            self.payload(Span::new(span.start, closer.end), held, |s, sp, t| {
                s.text(sp, t)
            });
            self.sink.diagnostic(closer, Diagnostic::UnopenedReasoning);
            self.edges.watching = false;
            self.edges.closer = START;
            if !rest.is_empty() {
                self.payload(Span::new(closer.end, span.end), rest, |s, sp, t| {
                    s.text(sp, t)
                });
            }
            return;
        }
        self.edges.closer = state;
        self.payload(span, text, |s, sp, t| s.text(sp, t));
    }
}

impl<S: Sink> Sink for Watch<'_, S> {
    #[inline]
    fn text(&mut self, span: Span, text: &[u8]) {
        // Every closer watched for begins with `<` (tests/edges.rs checks the tables): text
        // without one, with no closer begun, cannot hold a closer. Measured (BENCHMARKS.md):
        // on token-sized text a plain loop costs less than memchr, which sets up a search;
        // on longer text memchr's vector search costs a fraction of the loop.
        let has_lt = |text: &[u8]| {
            if text.len() < 32 {
                #[allow(clippy::manual_contains)]
                let found = text.iter().any(|&b| b == b'<');
                found
            } else {
                memchr::memchr(b'<', text).is_some()
            }
        };
        let idle = !self.edges.watching || (self.edges.closer == START && !has_lt(text));
        if !idle {
            self.watch(span, text);
        } else {
            self.payload(span, text, |s, sp, t| s.text(sp, t));
        }
    }

    #[inline]
    fn reasoning(&mut self, span: Span, text: &[u8]) {
        self.edges.closer = START;
        self.payload(span, text, |s, sp, t| s.reasoning(sp, t));
    }

    fn markup(&mut self, span: Span, kind: Markup, bytes: &[u8]) {
        // A stop token right after a waiting one (whitespace between) joins its run: the
        // run may still be the end of the turn (`<|im_end|><|endoftext|>`).
        let stop = matches!(kind, Markup::Delimiter(Role::Stop));
        if stop && self.edges.stop_start != NONE {
            self.edges.closer = START;
        } else if !blank(bytes) {
            self.event();
        }
        self.edges.closer = START;
        self.sink.markup(span, kind, bytes);
        // A dialect that removes the closer from content as a stray token (deepseek).
        let stray = matches!(kind, Markup::Delimiter(Role::Stray));
        if stray && self.edges.watching && self.is_closer(bytes) {
            self.edges.watching = false;
            self.sink.diagnostic(span, Diagnostic::UnopenedReasoning);
        }
    }

    fn reasoning_start(&mut self, span: Span) {
        self.event();
        self.edges.watching = false;
        self.sink.reasoning_start(span);
    }

    fn reasoning_end(&mut self, span: Span) {
        self.event();
        self.sink.reasoning_end(span);
    }

    fn tool_start(&mut self, span: Span, call: u32, name: Option<&[u8]>, provisional: bool) {
        self.event();
        self.sink.tool_start(span, call, name, provisional);
    }

    fn tool_id(&mut self, span: Span, call: u32, id: &[u8]) {
        self.event();
        self.sink.tool_id(span, call, id);
    }

    fn tool_name(&mut self, span: Span, call: u32, name: &[u8]) {
        self.event();
        self.sink.tool_name(span, call, name);
    }

    fn tool_args(&mut self, span: Span, call: u32, json: &[u8]) {
        self.event();
        self.sink.tool_args(span, call, json);
    }

    fn tool_param(&mut self, span: Span, call: u32, key: &[u8], kind: ValueKind) {
        self.event();
        self.sink.tool_param(span, call, key, kind);
    }

    fn tool_value(&mut self, span: Span, call: u32, piece: Piece, bytes: &[u8]) {
        self.event();
        self.sink.tool_value(span, call, piece, bytes);
    }

    fn tool_param_end(&mut self, span: Span, call: u32) {
        self.event();
        self.sink.tool_param_end(span, call);
    }

    fn tool_end(&mut self, span: Span, call: u32, end: CallEnd) {
        self.event();
        self.sink.tool_end(span, call, end);
    }

    fn fabricated_result(&mut self, span: Span) {
        self.event();
        self.sink.fabricated_result(span);
    }

    fn diagnostic(&mut self, span: Span, diagnostic: Diagnostic) {
        if diagnostic == Diagnostic::StrayStopToken {
            // Only the last run of stop tokens (whitespace between them) may be the end of
            // the turn: a stop token extends the waiting run, whose one diagnostic spans it.
            // A run longer than a `u8` span sends its diagnostic and starts a new one.
            if self.edges.stop_start != NONE {
                let run = span.end.saturating_sub(self.edges.stop_start);
                if let Ok(len) = u8::try_from(run) {
                    self.edges.stop_len = len;
                    return;
                }
                self.flush();
            }
            self.edges.stop_start = span.start;
            self.edges.stop_len = u8::try_from(span.len()).unwrap_or(u8::MAX);
            return;
        }
        self.event();
        self.sink.diagnostic(span, diagnostic);
    }
}
