//! Token mode: a delimiter that the model's vocabulary has as a token of its own counts only
//! when it arrived as that token (docs/dialects.md rule 14).
//!
//! A server decodes token ids, so it knows which bytes of each decode step came from an
//! added or special token and which from ordinary ones. Text alone cannot tell a
//! `<tool_call>` the model emitted as its token from the same ten characters in a user's
//! question quoted back, or inside code. [`TokenGate`] names the delimiters that begin with
//! such a token; [`Scanner::feed_tokens`](crate::Scanner::feed_tokens) says where tokens
//! arrived. A gated delimiter whose first byte is not where a token arrived is text (or
//! argument text inside a value), exactly as if no delimiter had been there.

use crate::scanner::Dialect;

/// Most delimiter entries (a delimiter counted once per scanner mode that lists it) a
/// dialect's tables may have for [`TokenGate`]'s fixed bit set; a test checks every
/// dialect is within it.
pub const MAX_GATED_ENTRIES: usize = 256;

/// Which of a dialect's delimiters begin with a token of the model's vocabulary: an added
/// or special token whose text is the delimiter (`<|im_end|>`, DeepSeek's
/// `<｜tool▁call▁begin｜>`, Qwen 3.5's `<tool_call>`) or its start (`<|im_start|>` of
/// `<|im_start|>user\n`). Delimiters the vocabulary splits into ordinary tokens (DeepSeek's
/// DSML tags, GLM's `<arg_key>`, `<tool_call>` in the Qwen releases whose vocabulary lacks
/// it) are not gated and count wherever their bytes are, as in text mode.
///
/// 40 bytes, no allocation: one bit per entry of [`Dialect::delimiters`]. Built by a
/// caller that knows the vocabulary (`inband_alloc::tokens::Vocabulary` builds it from a
/// Hugging Face `tokenizer.json`); used with [`Scanner::with_tokens`](crate::Scanner::with_tokens).
///
/// A gate is a set of delimiter texts: a scanner of another dialect that shares a delimiter
/// text with it (`<think>`) is gated on that text only.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TokenGate {
    dialect: Dialect,
    /// Bit `i`: the delimiter at position `i` of `dialect.delimiters()` is gated.
    gated: [u64; MAX_GATED_ENTRIES / 64],
}

impl TokenGate {
    /// A gate for `dialect` with no delimiter gated yet (token mode then reads as text mode).
    pub const fn new(dialect: Dialect) -> Self {
        TokenGate {
            dialect,
            gated: [0; MAX_GATED_ENTRIES / 64],
        }
    }

    /// The dialect whose delimiters this gate names.
    pub const fn dialect(&self) -> Dialect {
        self.dialect
    }

    /// Declares `token`, the exact text (UTF-8 bytes) of one token that the vocabulary has as
    /// its own (an added or special token), and gates every delimiter of the dialect that
    /// begins with it. Returns how many distinct delimiter texts it gated (0 when the token
    /// begins no delimiter; an empty `token` gates nothing).
    pub fn add_token(&mut self, token: &[u8]) -> usize {
        if token.is_empty() {
            return 0;
        }
        let mut distinct = 0;
        for (i, d) in self.dialect.delimiters().enumerate() {
            if i >= MAX_GATED_ENTRIES || !d.bytes.starts_with(token) {
                continue;
            }
            if !self.is_gated(d.bytes) {
                distinct += 1;
            }
            self.gated[i / 64] |= 1 << (i % 64);
        }
        distinct
    }

    /// Whether `delimiter` (a delimiter's exact bytes) is gated: it counts only where a
    /// token arrived.
    pub fn is_gated(&self, delimiter: &[u8]) -> bool {
        match self.position(delimiter) {
            Some(i) => self.gated[i / 64] & (1 << (i % 64)) != 0,
            None => false,
        }
    }

    /// The distinct delimiter texts that are gated, in table order.
    pub fn gated(&self) -> impl Iterator<Item = &'static [u8]> + '_ {
        self.dialect
            .delimiters()
            .enumerate()
            .filter(move |&(i, d)| {
                i < MAX_GATED_ENTRIES
                    && self.gated[i / 64] & (1 << (i % 64)) != 0
                    && self.position(d.bytes) == Some(i)
            })
            .map(|(_, d)| d.bytes)
    }

    /// The first entry of the dialect's delimiters with these bytes: every entry with the
    /// same bytes is gated together, so the first one answers for all.
    fn position(&self, delimiter: &[u8]) -> Option<usize> {
        self.dialect
            .delimiters()
            .take(MAX_GATED_ENTRIES)
            .position(|d| d.bytes == delimiter)
    }
}

/// The scanner's token-mode state: its gate and where the latest tokens began.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Tokens {
    pub(crate) gate: Option<TokenGate>,
    /// Bit `k`: a token began at stream offset `end - 1 - k`. A delimiter is at most 64
    /// bytes, so every token that may begin one is still here when it is found, however
    /// many tokens it spans (InternLM's `<|action_start|><|plugin|>`, Kimi K3's
    /// `<|open|>tools<|sep|>`).
    starts: u64,
    /// Stream offset just after the latest token; `0` before any.
    end: u64,
}

impl Tokens {
    pub(crate) const fn new(gate: Option<TokenGate>) -> Self {
        Tokens {
            gate,
            starts: 0,
            end: 0,
        }
    }

    /// A token of `len` bytes begins at stream offset `start` (tokens arrive in order).
    pub(crate) fn arrived(&mut self, start: u64, len: usize) {
        let end = start + len as u64;
        let shift = end.saturating_sub(self.end);
        self.starts = if shift >= 64 { 0 } else { self.starts << shift };
        self.end = end;
        if let Some(k) = end.checked_sub(start + 1).filter(|&k| k < 64) {
            self.starts |= 1 << k;
        }
    }

    /// Whether a token began at stream offset `start` (one of the latest 64 bytes' tokens).
    #[inline]
    fn began(&self, start: u64) -> bool {
        match self.end.checked_sub(start + 1) {
            Some(k) if k < 64 => self.starts & (1 << k) != 0,
            _ => false,
        }
    }

    /// Whether the delimiter `bytes`, found starting at stream offset `start`, counts. In
    /// text mode every delimiter does.
    #[inline(always)]
    pub(crate) fn admits(&self, bytes: &[u8], start: u64) -> bool {
        match &self.gate {
            None => true,
            Some(gate) => self.began(start) || !gated(gate, bytes),
        }
    }
}

/// Out of the scan loops: token mode only, once per delimiter found.
#[cold]
#[inline(never)]
fn gated(gate: &TokenGate, bytes: &[u8]) -> bool {
    gate.is_gated(bytes)
}
