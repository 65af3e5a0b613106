//! The state the driver keeps for every family: the delimiter scan with its holdback, the
//! content/reasoning text phase, and the lifecycle of calls (numbering, drafts inside
//! reasoning, the four ways a call ends).

use crate::automaton::{Delimiter, Dfa, START};
use crate::engine::budget::Budget;
use crate::lex::json::JsonValue;
use crate::options::{Options, MAX_DRAFT_CALLS};
use crate::scan::{DelimiterScan, Stop};
use crate::token::Tokens;
use crate::{CallEnd, Diagnostic, Markup, Role, Sink, Span, ValueKind};

/// Where an anchored delimiter candidate stands.
pub(crate) enum Anchored {
    /// Still a prefix of a delimiter at the chunk end; the candidate is held.
    Pending,
    /// A delimiter ended just before this chunk offset.
    Matched(&'static Delimiter, usize),
    /// Not a delimiter; the candidate began at this chunk offset (after any held bytes).
    /// The DFA state is back at the root; the held bytes, if any, are still held for the
    /// caller to release or replay.
    Failed(usize),
}

/// The call being scanned, as far as its lifecycle goes.
#[derive(Debug, Clone, Copy)]
pub(crate) struct CallSlot {
    pub(crate) index: u32,
    /// Inside a reasoning block whose fate is open (docs/dialects.md rule 7).
    pub(crate) provisional: bool,
    /// [`Sink::tool_start`] was sent.
    pub(crate) started: bool,
    /// A [`Sink::tool_param`] was sent and its [`Sink::tool_param_end`] not yet.
    pub(crate) in_param: bool,
}

/// The state shared by every family: delimiters held back, reasoning, calls.
#[derive(Debug, Clone)]
pub(crate) struct Frame {
    /// The scanner's options, read where a limit applies.
    pub(crate) options: Options,
    pub(crate) delimiters: DelimiterScan,
    /// Token mode's gate and where the latest token arrived (crate::token).
    pub(crate) tokens: Tokens,
    /// Stream offset of byte 0 of the chunk the driver is scanning, for the anchored
    /// delimiter check of token mode.
    pub(crate) base: u64,
    pub(crate) reasoning: bool,
    /// Started in reasoning and nothing but whitespace seen yet: an explicit opener is
    /// still markup, not reasoning text.
    pub(crate) opener_optional: bool,
    /// The bytes held in `delimiters` were given back by a failed anchored candidate (or,
    /// in glm, are a whole delimiter a rejected look-ahead gave back): the driver scans them
    /// again, in the phase now current, before going on.
    pub(crate) replay: bool,
    pub(crate) call: CallSlot,
    next_call: u32,
    /// Calls inside the open reasoning block whose structure ended, waiting for it to close
    /// (demoted) or for the stream to end: bit `k` is call `draft_first + k`.
    draft_first: u32,
    drafts: u64,
    /// The drafts of `drafts` that a stop token cut off: incomplete, not complete, if the
    /// stream ends before the reasoning closes.
    truncated: u64,
}

impl Frame {
    pub(crate) fn new(options: &Options) -> Self {
        Frame {
            options: *options,
            delimiters: DelimiterScan::new(),
            tokens: Tokens::new(None),
            base: 0,
            reasoning: options.starts_in_reasoning,
            opener_optional: options.starts_in_reasoning,
            replay: false,
            call: CallSlot {
                index: 0,
                provisional: false,
                started: false,
                in_param: false,
            },
            next_call: 0,
            draft_first: 0,
            drafts: 0,
            truncated: 0,
        }
    }

    /// True when a whole chunk can go out as text or reasoning without entering a phase
    /// machine: nothing is held and `dfa` (the current text mode) finds no delimiter start.
    #[inline]
    pub(crate) fn plain_text(&self, dfa: &Dfa, chunk: &[u8]) -> bool {
        self.delimiters.state == START && !self.opener_optional && dfa.find_start(chunk).is_none()
    }

    /// The argument fast path of the JSON families: a whole chunk inside a JSON string of
    /// the current call's arguments goes out as one `tool_args` event, within the call's
    /// argument budget (`budget`, counted so far). Returns `false`, having done nothing, when the
    /// chunk needs the general machine.
    #[inline(always)]
    pub(crate) fn plain_args<S: Sink>(
        &self,
        value: &mut JsonValue,
        budget: &mut Budget,
        chunk: &[u8],
        span: Span,
        sink: &mut S,
    ) -> bool {
        if budget.fits(chunk.len(), &self.options) && value.take_inside_string(chunk) {
            budget.add(chunk.len());
            sink.tool_args(span, self.call.index, chunk);
            return true;
        }
        false
    }

    /// Reports `bytes` as reasoning or content, whichever the stream is in.
    #[inline]
    pub(crate) fn release<S: Sink>(&self, span: Span, bytes: &[u8], sink: &mut S) {
        if self.reasoning {
            sink.reasoning(span, bytes);
        } else {
            sink.text(span, bytes);
        }
    }

    /// Scans text (content or reasoning, by `self.reasoning`) from `chunk[pos..]` with
    /// `dfa`, releasing it (each released run is shown to `observe` first, with whether it
    /// is reasoning), until a delimiter: returns it with its span and the chunk offset after
    /// it, or `None` at the chunk end.
    ///
    /// A function of its own: inlined into the driver's loop it cost harmony's long message
    /// bodies +3.9 % (prose fed whole) and +6.8 % (200 calls in 4-byte chunks) against
    /// 99f5792 (BENCHMARKS.md, "Options in the frame, the text scan outlined").
    #[inline(never)]
    pub(crate) fn scan_text<S: Sink>(
        &mut self,
        dfa: &Dfa,
        chunk: &[u8],
        pos: usize,
        base: u64,
        observe: &mut impl FnMut(bool, &[u8]),
        sink: &mut S,
    ) -> Option<(&'static Delimiter, Span, usize)> {
        let reasoning = self.reasoning;
        let opener_optional = &mut self.opener_optional;
        let stop = self
            .delimiters
            .scan(dfa, chunk, pos, base, &self.tokens, &mut |span, bytes| {
                observe(reasoning, bytes);
                if reasoning {
                    if *opener_optional && bytes.iter().any(|b| !b.is_ascii_whitespace()) {
                        *opener_optional = false;
                    }
                    sink.reasoning(span, bytes);
                } else {
                    sink.text(span, bytes);
                }
            });
        match stop {
            Stop::End => None,
            Stop::Match(delimiter, end) => {
                let end_offset = base + end as u64;
                let span = Span::new(end_offset - delimiter.bytes.len() as u64, end_offset);
                Some((delimiter, span, end))
            }
        }
    }

    /// Acts on a delimiter found in text when its role means the same in every family
    /// (reasoning bounds, a fabricated result, a stop token); reports it as markup. Returns
    /// the role for the family to act on when it is one of its own (a call or section
    /// opener), `None` when it was handled here.
    pub(crate) fn text_delimiter<S: Sink>(
        &mut self,
        delimiter: &'static Delimiter,
        span: Span,
        sink: &mut S,
    ) -> Option<Role> {
        let reasoning = self.reasoning;
        if reasoning && delimiter.role == Role::ReasoningOpen && !self.opener_optional {
            // A second opener inside reasoning is the model talking about the tag.
            sink.reasoning(span, delimiter.bytes);
            return None;
        }
        sink.markup(span, Markup::Delimiter(delimiter.role), delimiter.bytes);
        match delimiter.role {
            Role::ReasoningOpen if reasoning => self.opener_optional = false,
            Role::ReasoningOpen => {
                self.reasoning = true;
                sink.reasoning_start(span);
            }
            Role::ReasoningClose => self.close_reasoning(span, sink),
            Role::ResultOpen => sink.fabricated_result(span),
            Role::Stop => sink.diagnostic(span, Diagnostic::StrayStopToken),
            Role::Stray => sink.diagnostic(span, Diagnostic::StrayToken),
            // The answer's wrapper: markup, nothing more.
            Role::Answer => {}
            role => return Some(role),
        }
        None
    }

    /// The reasoning block closed at `span` (its closer, already reported as markup): its
    /// drafts are demoted (rule 7).
    pub(crate) fn close_reasoning<S: Sink>(&mut self, span: Span, sink: &mut S) {
        self.settle_drafts(span, CallEnd::Demoted, sink);
        self.reasoning = false;
        self.opener_optional = false;
        sink.reasoning_end(span);
    }

    /// Numbers a new call. Returns `false` when a limit refuses it: the call has then
    /// already ended as invalid.
    #[inline]
    pub(crate) fn open_call<S: Sink>(&mut self, span: Span, sink: &mut S) -> bool {
        match self.admit_call() {
            Ok(()) => true,
            Err(diagnostic) => {
                self.invalid(span, diagnostic, sink);
                false
            }
        }
    }

    /// Numbers a new call; says why when a limit refuses it (the call is then numbered but
    /// neither started nor ended: the family ends it as invalid where it sees fit).
    #[inline]
    pub(crate) fn admit_call(&mut self) -> Result<(), Diagnostic> {
        let index = self.next_call;
        self.next_call = self.next_call.saturating_add(1);
        let provisional = self.reasoning;
        self.opener_optional = false;
        self.call = CallSlot {
            index,
            provisional,
            started: false,
            in_param: false,
        };
        if index >= self.options.max_calls {
            Err(Diagnostic::TooManyCalls)
        } else if provisional && self.drafts != 0 && index - self.draft_first >= MAX_DRAFT_CALLS {
            Err(Diagnostic::TooManyDraftCalls)
        } else {
            Ok(())
        }
    }

    /// Takes back the number of the call opened last, which holds nothing and never
    /// started (an empty element of a block's array of calls): no event was sent for it,
    /// and the next call takes its number. A started call is left as it is.
    pub(crate) fn withdraw_call(&mut self) {
        if !self.call.started && self.next_call == self.call.index.saturating_add(1) {
            self.next_call = self.call.index;
        }
    }

    /// Sends [`Sink::tool_start`] without a name, unless the call has started.
    pub(crate) fn ensure_started<S: Sink>(&mut self, span: Span, sink: &mut S) {
        if !self.call.started {
            self.call.started = true;
            sink.tool_start(span, self.call.index, None, self.call.provisional);
        }
    }

    /// Starts the call with its name, or reports the name of a started call.
    pub(crate) fn name<S: Sink>(&mut self, span: Span, name: &[u8], sink: &mut S) {
        if self.call.started {
            sink.tool_name(span, self.call.index, name);
        } else {
            self.call.started = true;
            sink.tool_start(span, self.call.index, Some(name), self.call.provisional);
        }
    }

    /// Ends the current call as invalid.
    pub(crate) fn invalid<S: Sink>(&mut self, span: Span, diagnostic: Diagnostic, sink: &mut S) {
        self.ensure_started(span, sink);
        sink.diagnostic(span, diagnostic);
        sink.tool_end(span, self.call.index, CallEnd::Invalid);
    }

    /// Ends the current call as invalid, its diagnostic already sent (a call that broke
    /// earlier and ends now).
    pub(crate) fn end_invalid<S: Sink>(&mut self, span: Span, sink: &mut S) {
        self.ensure_started(span, sink);
        sink.tool_end(span, self.call.index, CallEnd::Invalid);
    }

    /// A stop token came inside the call: the model's output ended there. Incomplete; but a
    /// call drafted in reasoning is a draft still (docs/dialects.md rule 7): reasoning if the
    /// block closes later, incomplete if the stream ends first.
    pub(crate) fn truncate<S: Sink>(&mut self, span: Span, sink: &mut S) {
        self.ensure_started(span, sink);
        sink.diagnostic(span, Diagnostic::TruncatedCall);
        if self.call.provisional {
            // The draft ends later, after other calls' events: its value ends here.
            self.param_end(Span::at(span.start), sink);
            let bit = self.draft_bit();
            self.truncated |= bit;
        } else {
            sink.tool_end(span, self.call.index, CallEnd::Incomplete);
        }
    }

    /// A parameter of the current call begins: its key, as the model wrote it, at `span`.
    pub(crate) fn param<S: Sink>(&mut self, span: Span, key: &[u8], kind: ValueKind, sink: &mut S) {
        self.call.in_param = true;
        sink.tool_param(span, self.call.index, key, kind);
    }

    /// The current call's open parameter (if any) ends at `span`.
    pub(crate) fn param_end<S: Sink>(&mut self, span: Span, sink: &mut S) {
        if core::mem::take(&mut self.call.in_param) {
            sink.tool_param_end(span, self.call.index);
        }
    }

    /// The stream ended inside the call: incomplete (a draft's reasoning never closed).
    pub(crate) fn cut_off<S: Sink>(&mut self, span: Span, sink: &mut S) {
        self.ensure_started(span, sink);
        sink.diagnostic(span, Diagnostic::TruncatedCall);
        sink.tool_end(span, self.call.index, CallEnd::Incomplete);
    }

    /// A call whose structure closed: complete now, or a draft until its reasoning decides.
    pub(crate) fn complete<S: Sink>(&mut self, span: Span, sink: &mut S) {
        if self.call.provisional {
            self.draft_bit();
        } else {
            sink.tool_end(span, self.call.index, CallEnd::Complete);
        }
    }

    /// Files the current (provisional) call among the drafts; returns its bit.
    fn draft_bit(&mut self) -> u64 {
        if self.drafts == 0 {
            self.draft_first = self.call.index;
            self.truncated = 0;
        }
        // `admit_call` keeps every draft within MAX_DRAFT_CALLS of the first.
        let bit = 1u64
            .checked_shl(self.call.index - self.draft_first)
            .unwrap_or(0);
        self.drafts |= bit;
        bit
    }

    /// Ends every draft of the open reasoning block: with `end` when the block closes
    /// ([`CallEnd::Demoted`]); at the end of the stream ([`CallEnd::Complete`]) a draft a
    /// stop token cut off is incomplete.
    pub(crate) fn settle_drafts<S: Sink>(&mut self, span: Span, end: CallEnd, sink: &mut S) {
        let mut drafts = self.drafts;
        while drafts != 0 {
            let k = drafts.trailing_zeros();
            let cut = self.truncated & (1 << k) != 0;
            let end = if cut && end == CallEnd::Complete {
                CallEnd::Incomplete
            } else {
                end
            };
            sink.tool_end(span, self.draft_first + k, end);
            drafts &= drafts - 1;
        }
        self.drafts = 0;
        self.truncated = 0;
    }

    /// Steps `dfa` over a candidate anchored at the held bytes, or at `chunk[i]` when
    /// nothing is held: it must stay a prefix of one delimiter byte after byte. A delimiter
    /// that token mode does not admit fails (`chunk` starts at stream offset `self.base`).
    pub(crate) fn anchored(&mut self, dfa: &Dfa, chunk: &[u8], mut i: usize) -> Anchored {
        let candidate = i;
        let scan = &mut self.delimiters;
        while i < chunk.len() {
            let pending = scan.hold.len() + (i - candidate);
            let state = dfa.next(scan.state, chunk[i]);
            if dfa.depth(state) != pending + 1 {
                // The partial state belongs to the failed candidate: a later candidate
                // must start from the root, whatever the caller does with the held bytes.
                scan.state = START;
                return Anchored::Failed(candidate);
            }
            scan.state = state;
            i += 1;
            if let Some(delimiter) = dfa.matched(state) {
                scan.state = START;
                let start = self.base + i as u64 - delimiter.bytes.len() as u64;
                if !self.tokens.admits(delimiter.bytes, start) {
                    // Token mode: not where the model's token began, so no delimiter here.
                    return Anchored::Failed(candidate);
                }
                scan.hold.clear();
                return Anchored::Matched(delimiter, i);
            }
        }
        // Cannot overflow: a proper prefix of a delimiter is at most MAX_HOLD bytes.
        let kept = scan.hold.try_extend_from_slice(&chunk[candidate..]);
        debug_assert!(kept.is_ok(), "holdback overflow");
        Anchored::Pending
    }

    /// At the end of the stream (offset `end`), reports held bytes as the call's markup.
    pub(crate) fn held_as_markup<S: Sink>(&mut self, end: u64, sink: &mut S) {
        held_markup(&self.delimiters.take(), end, sink);
    }

    /// At the end of the stream (offset `end`) in text: releases held bytes as text.
    pub(crate) fn finish_text<S: Sink>(&mut self, end: u64, sink: &mut S) {
        let held = self.delimiters.take();
        self.release_held(&held, end, sink);
    }

    /// Releases `held`, held-back bytes that end at stream offset `end`, as reasoning or
    /// content.
    pub(crate) fn release_held<S: Sink>(&self, held: &[u8], end: u64, sink: &mut S) {
        if !held.is_empty() {
            self.release(Span::new(end - held.len() as u64, end), held, sink);
        }
    }

    /// At the end of the stream, before an open call is cut off: drafts of an unclosed
    /// reasoning block are calls (rule 7), incomplete ones when a stop token cut them off.
    pub(crate) fn finish_drafts<S: Sink>(&mut self, at: Span, sink: &mut S) {
        if self.reasoning {
            self.settle_drafts(at, CallEnd::Complete, sink);
        }
    }

    /// At the very end of the stream: closes an unclosed reasoning block.
    pub(crate) fn finish_reasoning<S: Sink>(&mut self, at: Span, sink: &mut S) {
        if self.reasoning {
            sink.diagnostic(at, Diagnostic::UnclosedReasoning);
            sink.reasoning_end(at);
            self.reasoning = false;
        }
    }
}

/// Reports `held`, held-back bytes that end at stream offset `end`, as a call's markup.
pub(crate) fn held_markup<S: Sink>(held: &[u8], end: u64, sink: &mut S) {
    if !held.is_empty() {
        sink.markup(
            Span::new(end - held.len() as u64, end),
            Markup::Envelope,
            held,
        );
    }
}

/// Reports `chunk[from..to]` (chunk offsets; `chunk[0]` is at stream offset `base`) as a
/// call's markup, unless the range is empty.
#[inline]
pub(crate) fn envelope<S: Sink>(chunk: &[u8], base: u64, from: usize, to: usize, sink: &mut S) {
    if from < to {
        if let Some(bytes) = chunk.get(from..to) {
            sink.markup(
                Span::new(base + from as u64, base + to as u64),
                Markup::Envelope,
                bytes,
            );
        }
    }
}

/// Reports the run of bytes from `chunk[from]` on that `accept` takes (whitespace before
/// structure, as a rule) as a call's markup; returns the chunk offset after the run.
#[inline]
pub(crate) fn envelope_while<S: Sink>(
    chunk: &[u8],
    base: u64,
    from: usize,
    accept: impl Fn(u8) -> bool,
    sink: &mut S,
) -> usize {
    let run = chunk
        .get(from..)
        .map_or(0, |rest| rest.iter().take_while(|&&b| accept(b)).count());
    envelope(chunk, base, from, from + run, sink);
    from + run
}
