//! The rule-4 look-ahead of glm (docs/dialects.md rule 4): a candidate value closer
//! (`</arg_value>`, `</tool_call>`, or the wrong `</arg_key>`) is held, with at most
//! [`MAX_LOOKAHEAD`] bytes of whitespace after it, until what follows says whether it counts;
//! whitespace at the end of a value is held the same way, until the next byte says whether
//! it is the value's or the framing before a healed key.
//!
//! The API, in the order a value uses it:
//! - [`Lookahead::value_text`] reports value text and holds its whitespace end;
//!   [`Lookahead::flush_blank`] gives that whitespace to the value after all.
//! - [`Lookahead::pend`] holds a candidate closer (the pending candidate), and
//!   [`Lookahead::push_blank`] the whitespace after it.
//! - [`Lookahead::admits`] says whether the delimiter after them continues the structure. If it does,
//!   [`Lookahead::take_candidate`] hands candidate and whitespace back to be reported as
//!   markup (confirm); if not, to be reported as value text (reject), and [`give_back`]
//!   has the driver scan what followed ([`Rest`]) again, as value.
//! - [`Lookahead::hold`], [`Lookahead::held`] and [`Lookahead::take`] keep any other
//!   delimiter found and not reported yet (the `<arg_key>` of a key on trial, the
//!   `<tool_call>` of a name being read), in the same slot.

use arrayvec::ArrayVec;

use crate::automaton::{Delimiter, START};
use crate::engine::follow;
use crate::engine::frame::Frame;
use crate::lex::blank::Blank;
use crate::lex::name::is_ws;
use crate::options::MAX_LOOKAHEAD;
use crate::{Piece, Role, Sink, Span};

/// The held delimiter and whitespace: 32 bytes of scanner state.
#[derive(Debug, Clone)]
pub(super) struct Lookahead {
    /// The delimiter found but not reported yet, and the stream offset of its first byte.
    held: Option<(&'static Delimiter, u64)>,
    /// Whitespace held: at the end of a value, or after a pending candidate.
    blank: Blank,
    /// The stream offset of the first byte of `blank`.
    blank_start: u64,
}

/// A pending candidate taken out of the look-ahead, for the caller to report.
pub(super) struct Candidate {
    pub(super) delimiter: &'static Delimiter,
    /// Where the candidate is, in stream offsets.
    pub(super) span: Span,
    /// The whitespace after it, at `blank_span`.
    pub(super) blank: ArrayVec<u8, MAX_LOOKAHEAD>,
    pub(super) blank_span: Span,
}

/// What followed a rejected candidate, to be scanned again as value.
pub(super) enum Rest {
    /// Nothing.
    None,
    /// The bytes held in the frame: a failed anchored match.
    Held,
    /// A whole delimiter that cannot follow the candidate.
    Delimiter(&'static Delimiter),
}

impl Lookahead {
    /// Nothing held.
    pub(super) const EMPTY: Lookahead = Lookahead {
        held: None,
        blank: Blank::EMPTY,
        blank_start: 0,
    };

    /// Holds `delimiter`, found at stream offset `start`, unreported.
    #[inline]
    pub(super) fn hold(&mut self, delimiter: &'static Delimiter, start: u64) {
        self.held = Some((delimiter, start));
    }

    /// The delimiter held and the stream offset of its first byte.
    #[inline]
    pub(super) fn held(&self) -> Option<(&'static Delimiter, u64)> {
        self.held
    }

    /// Takes the held delimiter out, leaving the whitespace.
    #[inline]
    pub(super) fn take(&mut self) -> Option<(&'static Delimiter, u64)> {
        self.held.take()
    }

    /// A candidate closer found in a value at stream offset `start`: held, with the
    /// whitespace after it, until what follows decides. The value's own held whitespace
    /// must have been flushed.
    #[inline]
    pub(super) fn pend(&mut self, candidate: &'static Delimiter, start: u64) {
        debug_assert!(self.blank.len() == 0, "the value's whitespace was flushed");
        self.held = Some((candidate, start));
        self.blank_start = start + candidate.bytes.len() as u64;
    }

    /// Whether `follow` after the pending candidate continues the structure (rule 4's
    /// relation, `engine/follow.rs`; `in_section`: the call is in a section, whose closer
    /// may follow); false when no candidate is held.
    #[inline]
    pub(super) fn admits(&self, follow: Role, reasoning: bool, in_section: bool) -> bool {
        self.held.is_some_and(|(candidate, _)| {
            follow::admits(candidate.role, follow, reasoning, in_section)
        })
    }

    /// Holds whitespace byte `b` after a pending candidate; false when it is not
    /// whitespace or [`MAX_LOOKAHEAD`] bytes are held already.
    #[inline]
    pub(super) fn push_blank(&mut self, b: u8) -> bool {
        self.blank.push(b)
    }

    /// Takes the pending candidate and the whitespace after it out (the whitespace goes
    /// even when no candidate is held).
    pub(super) fn take_candidate(&mut self) -> Option<Candidate> {
        let (blank_span, blank) = self.take_blank();
        let (delimiter, start) = self.held.take()?;
        let span = Span::new(start, start + delimiter.bytes.len() as u64);
        Some(Candidate {
            delimiter,
            span,
            blank,
            blank_span,
        })
    }

    /// Takes the held whitespace out, with its span.
    pub(super) fn take_blank(&mut self) -> (Span, ArrayVec<u8, MAX_LOOKAHEAD>) {
        let blank = core::mem::replace(&mut self.blank, Blank::EMPTY).bytes();
        let span = Span::new(self.blank_start, self.blank_start + blank.len() as u64);
        (span, blank)
    }

    /// Stream offset right after the held whitespace: where an `<arg_key>` after a pending
    /// candidate and its whitespace begins.
    #[inline]
    pub(super) fn blank_end(&self) -> u64 {
        self.blank_start + self.blank.len() as u64
    }

    /// Releases the whitespace held at the end of a value as value text of call `call`.
    pub(super) fn flush_blank<S: Sink>(&mut self, call: u32, sink: &mut S) {
        if self.blank.len() == 0 {
            return;
        }
        let (span, blank) = self.take_blank();
        sink.tool_value(span, call, Piece::Verbatim, &blank);
    }

    /// Value text of call `call` at `span`: reported, except whitespace at its end, which is
    /// held (at most [`MAX_LOOKAHEAD`] bytes; a longer run is value text as it overflows).
    #[inline]
    pub(super) fn value_text<S: Sink>(
        &mut self,
        call: u32,
        span: Span,
        bytes: &[u8],
        sink: &mut S,
    ) {
        let body = bytes.len() - bytes.iter().rev().take_while(|&&b| is_ws(b)).count();
        if body > 0 {
            self.flush_blank(call, sink);
            sink.tool_value(
                Span::new(span.start, span.start + body as u64),
                call,
                Piece::Verbatim,
                &bytes[..body],
            );
        }
        for (k, &b) in bytes[body..].iter().enumerate() {
            let at = span.start + (body + k) as u64;
            if self.blank.len() == 0 {
                self.blank_start = at;
            }
            if !self.blank.push(b) {
                self.flush_blank(call, sink);
                self.blank_start = at;
                self.blank.push(b);
            }
        }
    }
}

/// After a rejected candidate (or a failed anchored match): the driver scans `rest` again,
/// in the phase now current, right before the chunk offset the phase returns. A whole
/// delimiter goes back into the frame's holdback for that (it was matched, so nothing else
/// is held; glm's body and key delimiters are shorter than any dialect's longest one).
pub(super) fn give_back(frame: &mut Frame, rest: Rest) {
    match rest {
        Rest::None => {}
        Rest::Held => {
            frame.delimiters.state = START;
            frame.replay = !frame.delimiters.hold.is_empty();
        }
        Rest::Delimiter(delimiter) => {
            debug_assert!(frame.delimiters.hold.is_empty(), "a match holds nothing");
            let kept = frame.delimiters.hold.try_extend_from_slice(delimiter.bytes);
            debug_assert!(kept.is_ok(), "a glm delimiter fits the holdback");
            frame.delimiters.state = START;
            frame.replay = true;
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::automaton::Dfa;
    use crate::tables::{self, MAX_HOLD};
    use crate::Role;

    /// The `body` and `key` modes of every glm-family table.
    const CALL_MODES: [[&Dfa; 2]; 4] = [
        [&tables::glm::BODY, &tables::glm::KEY],
        [&tables::hunyuan::BODY, &tables::hunyuan::KEY],
        [&tables::iquest_q1::BODY, &tables::iquest_q1::KEY],
        [&tables::k2_horizon::BODY, &tables::k2_horizon::KEY],
    ];

    /// [`super::give_back`] puts a whole delimiter of the `body` or `key` mode into the
    /// holdback, which keeps at most [`MAX_HOLD`] bytes.
    #[test]
    fn every_call_mode_delimiter_fits_the_holdback() {
        let longest = |modes: &[&Dfa; 2]| {
            modes
                .iter()
                .flat_map(|dfa| dfa.delimiters)
                .map(|delimiter| delimiter.bytes.len())
                .max()
        };
        // `<|observation|>`, a stop token of glm's `body` mode; Hunyuan's
        // `<｜hy_User:opensource｜>`.
        assert_eq!(longest(&CALL_MODES[0]), Some(15));
        assert_eq!(longest(&CALL_MODES[1]), Some(26));
        // `</iquest_tool_call>`.
        assert_eq!(longest(&CALL_MODES[2]), Some(19));
        // `</ifm|think_faster>`.
        assert_eq!(longest(&CALL_MODES[3]), Some(19));
        for modes in &CALL_MODES {
            assert!(longest(modes) <= Some(MAX_HOLD), "MAX_HOLD is {MAX_HOLD}");
        }
    }

    /// The family reads the key opener from the `body` mode (one per table) and sizes its
    /// key buffer for the longest key tag ([`super::super::KEY_TAG_MAX`]).
    #[test]
    fn key_tags_are_one_each_and_fit_the_key_buffer() {
        for [body, key] in &CALL_MODES {
            let openers = body.delimiters.iter().filter(|d| d.role == Role::ParamOpen);
            assert_eq!(openers.count(), 1);
            for delimiter in key.delimiters {
                assert!(delimiter.bytes.len() <= super::super::KEY_TAG_MAX);
            }
            let closers = key.delimiters.iter().filter(|d| d.role == Role::ParamClose);
            assert_eq!(closers.count(), 1);
        }
    }
}
