//! The public scanner: one push API over every dialect's phase machine.

use crate::edges::{Edges, Watch};
use crate::machine::{reasoning_table, Machine};
use crate::options::{Error, Options};
use crate::token::TokenGate;
use crate::{Sink, Span};
mod dialect;
mod table_view;

pub use dialect::Dialect;
pub use table_view::TableDelimiter;

/// A streaming scanner for one dialect: push chunks in, get events out through a [`Sink`].
///
/// Memory is fixed (`size_of::<Scanner>()` is 456 bytes on x86_64; a test keeps it at most
/// 456: the held-back tail of at most [`MAX_HOLD`](crate::MAX_HOLD) bytes, a name or call-header
/// buffer of a little more than [`MAX_NAME`](crate::MAX_NAME) bytes or a markup tag of
/// [`MAX_TAG`](crate::MAX_TAG) bytes (one or the other: `deepseek`, which reads both, keeps
/// them in the same memory), at most [`MAX_LOOKAHEAD`](crate::MAX_LOOKAHEAD) bytes of whitespace after a
/// candidate closer (two bits a byte), and a few counters, among them the stream's edges:
/// where a stop token waits for what follows it and the watch for a reasoning closer before
/// any opener, 14 bytes, see [`Diagnostic::StrayStopToken`](crate::Diagnostic::StrayStopToken)
/// and [`Diagnostic::UnopenedReasoning`](crate::Diagnostic::UnopenedReasoning)), and token
/// mode's [`TokenGate`] with where the latest token and its run of adjacent tokens began (72 bytes, there in text
/// mode too); nothing is allocated. Work per
/// byte is bounded whatever the chunking: held bytes are never re-scanned, except that a
/// failed delimiter candidate, or a delimiter that ends a call where it cannot stay, is
/// looked at once more where the call stood (at most one delimiter's length, once per call
/// or section, or per `<` of a broken call that began no delimiter).
///
/// Held back at a chunk end: at most [`MAX_HOLD`](crate::MAX_HOLD) bytes of a possible delimiter;
/// in the markup family (`xml`, `anthropic`, `minimax`, `qwen3-coder`, `seed-oss`, `dots`,
/// `mimo`, `step3`, `gigachat35`, `kimi-k3`, `minicpm5`, `minimax-m3`, DSML in `deepseek`),
/// also a candidate value closer or section opener and at most [`MAX_LOOKAHEAD`](crate::MAX_LOOKAHEAD) bytes of
/// whitespace after it, until what follows shows whether it counts (docs/dialects.md rule 4),
/// the bytes after a `</` in an `anthropic`, `minimax` or `minimax-m3` (`]<]minimax[>[</`)
/// value while they may still spell a
/// closer (at most the open parameter's key and `>`, not copied: they are known), and in
/// `qwen3-coder` one value newline that may be the template's framing; in `gemma`, a quote token and at
/// most [`MAX_LOOKAHEAD`](crate::MAX_LOOKAHEAD) bytes of whitespace after it, until the next byte says whether it
/// closed its string; in `glm`, a call's name or a key tag (at most [`MAX_NAME`](crate::MAX_NAME) bytes
/// and 52 bytes of its tags and whitespace) until it is whole, a candidate value closer and
/// at most [`MAX_LOOKAHEAD`](crate::MAX_LOOKAHEAD) bytes of whitespace after it (rule 4), and at most
/// [`MAX_LOOKAHEAD`](crate::MAX_LOOKAHEAD) bytes of whitespace at a value's end until the next byte; in `gemini`, the start of a statement (at most [`MAX_NAME`](crate::MAX_NAME) bytes)
/// until it shows whether it is a call, and the info of a fence line in reasoning (at most
/// [`MAX_NAME`](crate::MAX_NAME) bytes) until its line ends.
///
/// Chunk invariance: any split of the same input gives the same events once adjacent
/// payload fragments of one kind are joined, and the spans of the payload events tile the
/// input exactly.
#[derive(Debug, Clone)]
pub struct Scanner {
    dialect: Dialect,
    machine: Machine,
    offset: u64,
    /// Also holds whether the stream has started and finished (in its padding).
    edges: Edges,
}

impl Scanner {
    /// A scanner at the start of a stream.
    pub fn new(dialect: Dialect, options: Options) -> Self {
        Scanner {
            dialect,
            machine: Machine::new(dialect, &options),
            offset: 0,
            edges: Edges::new(!options.starts_in_reasoning && reasoning_table(dialect).is_some()),
        }
    }

    /// A scanner in token mode for `gate`'s dialect (docs/dialects.md rule 14): a delimiter
    /// the gate names counts only where [`Scanner::feed_tokens`] says a token began; fed
    /// through [`Scanner::feed`], no token began anywhere, so those delimiters are text.
    pub fn with_tokens(gate: TokenGate, options: Options) -> Self {
        let mut scanner = Scanner::new(gate.dialect(), options);
        scanner.machine.tokens_mut().gate = Some(gate);
        scanner
    }

    /// Declares `token`, the text of one added or special token of the model's vocabulary
    /// ([`TokenGate::add_token`]), and puts the scanner in token mode if it was not; for
    /// callers that cannot build a [`TokenGate`] first (the C ABI). Returns how many
    /// delimiter texts the token gated.
    ///
    /// # Errors
    /// [`Error::StreamStarted`] once anything was fed (a gate that changes mid-stream
    /// would read the same bytes two ways); nothing changes then.
    pub fn add_token(&mut self, token: &[u8]) -> Result<usize, Error> {
        if self.edges.started {
            return Err(Error::StreamStarted);
        }
        let dialect = self.dialect;
        let gate = self
            .machine
            .tokens_mut()
            .gate
            .get_or_insert_with(|| TokenGate::new(dialect));
        Ok(gate.add_token(token))
    }

    /// The token gate of a scanner in token mode ([`Scanner::with_tokens`]).
    pub fn token_gate(&self) -> Option<TokenGate> {
        self.machine.tokens().gate
    }

    /// The dialect this scanner reads.
    pub fn dialect(&self) -> Dialect {
        self.dialect
    }

    /// The options this scanner was made with.
    pub fn options(&self) -> &Options {
        self.machine.options()
    }

    /// Bytes fed so far (the stream offset of the next byte).
    pub fn offset(&self) -> u64 {
        self.offset
    }

    /// Feeds the next chunk; events for everything now decidable go to `sink`. A chunk may
    /// be split anywhere, including inside a delimiter or a UTF-8 code point; an empty
    /// chunk does nothing.
    ///
    /// # Errors
    /// [`Error::Finished`] after [`Scanner::finish`] without [`Scanner::reset`]; nothing is
    /// scanned then. Never panics.
    #[inline]
    pub fn feed<S: Sink>(&mut self, chunk: &[u8], sink: &mut S) -> Result<(), Error> {
        if self.edges.finished {
            return Err(Error::Finished);
        }
        if chunk.is_empty() {
            return Ok(());
        }
        self.begin(sink);
        let tokens = *self.machine.tokens();
        let mut watch = Watch {
            edges: &mut self.edges,
            sink,
            reasoning: reasoning_table(self.dialect),
            finishing: false,
            tokens,
        };
        self.machine.run(chunk, self.offset, &mut watch);
        self.offset += chunk.len() as u64;
        Ok(())
    }

    /// Feeds the next chunk in token mode, with where in it the tokens that the
    /// vocabulary has as its own (added and special tokens) arrived: `tokens` holds their
    /// byte ranges in `chunk`, sorted, not overlapping, none empty. A range that is not
    /// there is fine (the bytes are ordinary text); a token whose text is no delimiter
    /// changes nothing. The events are those of [`Scanner::feed`] on the same bytes, except
    /// that a delimiter the [`TokenGate`] names counts only when it begins where one of
    /// these tokens began. Chunk invariance holds over any grouping of the tokens into
    /// chunks, and any split of ordinary text.
    ///
    /// # Errors
    /// [`Error::Finished`] as for [`Scanner::feed`]; [`Error::NotTokenMode`] on a scanner
    /// without a gate; [`Error::TokenSpan`] naming the first bad range. Nothing is scanned
    /// on an error. Never panics.
    pub fn feed_tokens<S: Sink>(
        &mut self,
        chunk: &[u8],
        tokens: &[core::ops::Range<usize>],
        sink: &mut S,
    ) -> Result<(), Error> {
        if self.edges.finished {
            return Err(Error::Finished);
        }
        if self.machine.tokens().gate.is_none() {
            return Err(Error::NotTokenMode);
        }
        let mut end = 0;
        for (k, token) in tokens.iter().enumerate() {
            if token.start < end || token.start >= token.end || token.end > chunk.len() {
                return Err(Error::TokenSpan(k));
            }
            end = token.end;
        }
        let mut pos = 0;
        for token in tokens {
            self.feed(&chunk[pos..token.start], sink)?;
            // Each token is scanned as a chunk of its own, so that the delimiter it may
            // begin is matched knowing where it began.
            let offset = self.offset;
            self.machine
                .tokens_mut()
                .arrived(offset, token.end - token.start);
            self.feed(&chunk[token.clone()], sink)?;
            pos = token.end;
        }
        self.feed(&chunk[pos..], sink)
    }

    /// Ends the stream: releases held-back bytes, ends an open call as incomplete and
    /// closes an open reasoning block. Every call started has ended after this.
    ///
    /// # Errors
    /// [`Error::Finished`] when called twice without [`Scanner::reset`]. Never panics.
    pub fn finish<S: Sink>(&mut self, sink: &mut S) -> Result<(), Error> {
        if self.edges.finished {
            return Err(Error::Finished);
        }
        self.begin(sink);
        let tokens = *self.machine.tokens();
        let mut watch = Watch {
            edges: &mut self.edges,
            sink,
            reasoning: reasoning_table(self.dialect),
            finishing: true,
            tokens,
        };
        self.machine.finish(self.offset, &mut watch);
        // Whatever stop token still waits ended the turn (crate::edges).
        self.edges.finished = true;
        Ok(())
    }

    /// Returns the scanner to the start of a new stream, with the same dialect and options.
    /// The old stream is abandoned without events: held-back bytes are dropped and an open
    /// call gets no [`Sink::tool_end`]; call [`Scanner::finish`] first to close it properly.
    pub fn reset(&mut self) {
        let gate = self.machine.tokens().gate;
        *self = Scanner::new(self.dialect, *self.options());
        self.machine.tokens_mut().gate = gate;
    }

    fn begin<S: Sink>(&mut self, sink: &mut S) {
        if !self.edges.started {
            self.edges.started = true;
            if self.options().starts_in_reasoning {
                sink.reasoning_start(Span::at(0));
            }
        }
    }
}
