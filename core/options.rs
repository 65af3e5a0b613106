//! The scanner's options, its one error and the fixed limits every part of the core reads.
//!
//! This module is the bottom layer: it imports nothing from the crate, so the families, the
//! lexers and the scanner all depend on it and it on none of them.

use core::fmt;

/// Longest tool name kept, in bytes. A longer name makes the call invalid with
/// [`Diagnostic::NameTooLong`](crate::Diagnostic::NameTooLong). OpenAI allows 64.
pub const MAX_NAME: usize = 128;

/// Most complete calls one reasoning block may hold while its fate is open (docs/dialects.md
/// rule 7); more end as invalid with
/// [`Diagnostic::TooManyDraftCalls`](crate::Diagnostic::TooManyDraftCalls).
pub const MAX_DRAFT_CALLS: u32 = 64;

/// Longest run of whitespace kept after a candidate closer (or a section opener) while the
/// next byte decides whether it counts (docs/dialects.md rule 4: the markup family's
/// `</parameter>`; Gemma's `<|"|>`, docs/dialects.md §gemma). After more, the candidate does
/// not count.
pub const MAX_LOOKAHEAD: usize = 32;

/// Deepest nesting of lists and objects (counted together) in one value of a literal
/// dialect's call (`gemma`, `gemini`): the bracket stack of the Gemma and Python value
/// lexers holds this many levels in fixed memory; one more opener makes the call malformed.
/// A value's own outermost list or object is level 1; the call's argument list or braces
/// do not count. Renderers refuse a deeper value (`inband_alloc::render`).
pub const MAX_LITERAL_DEPTH: usize = 64;

/// Scanner options. Construct with [`Options::default`] and set fields.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct Options {
    /// The stream starts inside reasoning: the prompt already opened it (Qwen3-Thinking,
    /// DeepSeek-R1 templates; docs/dialects.md rule 6). An explicit opener at the start is
    /// then optional markup. Default: `false`; then a reasoning closer in content before
    /// any opener stays text and gets
    /// [`Diagnostic::UnopenedReasoning`](crate::Diagnostic::UnopenedReasoning), the sign
    /// that this option was needed.
    pub starts_in_reasoning: bool,
    /// Most argument bytes one call may have; more end the call as invalid with
    /// [`Diagnostic::ArgumentsTooLong`](crate::Diagnostic::ArgumentsTooLong).
    /// Default: 64 MiB.
    pub max_argument_bytes: u64,
    /// Most call openers one response may hold (drafts and broken calls count too); the
    /// calls of later ones are invalid with
    /// [`Diagnostic::TooManyCalls`](crate::Diagnostic::TooManyCalls). Default: 1024.
    pub max_calls: u32,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            starts_in_reasoning: false,
            max_argument_bytes: 64 << 20,
            max_calls: 1024,
        }
    }
}

/// Misuse of a [`Scanner`](crate::Scanner). Nothing in the model's output is ever an error.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Error {
    /// [`Scanner::feed`](crate::Scanner::feed) or [`Scanner::finish`](crate::Scanner::finish) after [`Scanner::finish`](crate::Scanner::finish) without
    /// [`Scanner::reset`](crate::Scanner::reset).
    Finished,
    /// [`Scanner::feed_tokens`](crate::Scanner::feed_tokens) was given a token span that is
    /// empty, runs past the chunk, or does not start at or after the end of the span before
    /// it (spans are sorted and do not overlap); the field is the span's index. Nothing is
    /// scanned then.
    TokenSpan(usize),
    /// [`Scanner::feed_tokens`](crate::Scanner::feed_tokens) on a scanner made without a
    /// [`TokenGate`](crate::TokenGate) ([`Scanner::with_tokens`](crate::Scanner::with_tokens)):
    /// token spans would say nothing there. Nothing is scanned then.
    NotTokenMode,
    /// [`Scanner::add_token`](crate::Scanner::add_token) after the stream started.
    StreamStarted,
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Finished => {
                f.write_str("the scanner was finished; call reset() before feeding it again")
            }
            Error::TokenSpan(k) => write!(
                f,
                "token span {k} is empty, runs past the chunk or overlaps the span before it"
            ),
            Error::NotTokenMode => {
                f.write_str("feed_tokens needs a scanner in token mode (Scanner::with_tokens)")
            }
            Error::StreamStarted => {
                f.write_str("tokens are declared before the first feed (or after reset())")
            }
        }
    }
}

impl core::error::Error for Error {}
