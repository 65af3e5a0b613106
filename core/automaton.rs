//! Dense Aho–Corasick DFAs compiled from `tables/` by `build.rs`, and the one
//! stepping primitive the scanner needs: find the next byte that can begin a
//! delimiter, then walk the DFA one byte class at a time.

use crate::event::Role;

/// One delimiter of a scanner mode: its exact bytes and what it means.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Delimiter {
    /// The delimiter exactly as the model writes it (UTF-8, special tokens spelled out).
    pub bytes: &'static [u8],
    /// What the dialect's phase machine does when the delimiter is found.
    pub role: Role,
}

/// A dense, unanchored Aho–Corasick DFA over the delimiters of one scanner mode.
///
/// Built at compile time by `build.rs` (through the `inband-tables` crate) and
/// emitted as `static` data; nothing is built at run time.
///
/// State ids are *premultiplied*: the id of state index `i` is `i << stride_log2`, so the
/// next state is `trans[id + classes[byte]]` with no multiplication. State id `0` is the
/// start state, the only state with depth 0 (no byte held back). Match states are numbered
/// last: every id `>= match_min` completes exactly one delimiter (tables never hold a
/// delimiter that is a substring of another, so leftmost-first, leftmost-longest and
/// standard Aho–Corasick semantics agree and the first match found is the leftmost).
#[derive(Debug)]
#[non_exhaustive]
pub struct Dfa {
    /// Byte → byte class. Bytes that no delimiter contains share class 0.
    pub classes: [u8; 256],
    /// log2 of the row length; the row length is the class count rounded up to a power of two.
    pub stride_log2: u8,
    /// Transition table, `state_count << stride_log2` entries of premultiplied state ids.
    pub trans: &'static [u16],
    /// Per state index: how many trailing bytes may still begin a delimiter (the
    /// prefix-overlap table). For a match state, the length of the delimiter it completes.
    pub depth: &'static [u8],
    /// Premultiplied id of the first match state; ids at or above it complete a delimiter.
    pub match_min: u16,
    /// Per match state, in order from `match_min`: the index into `delimiters` it completes.
    pub matched: &'static [u8],
    /// Every byte that can begin a delimiter, sorted and distinct (the `memchr` skip set).
    pub first_bytes: &'static [u8],
    /// `starts[b]` is true when `b` is in `first_bytes` (for sets of more than three bytes).
    pub starts: &'static [bool; 256],
    /// The mode's delimiters: by role (in the compiler's role order), then in table order.
    pub delimiters: &'static [Delimiter],
}

/// Premultiplied id of the start state of every [`Dfa`].
pub const START: u16 = 0;

impl Dfa {
    /// The state after `state` reads `byte`.
    #[inline(always)]
    pub fn next(&self, state: u16, byte: u8) -> u16 {
        self.trans[state as usize + self.classes[byte as usize] as usize]
    }

    /// Trailing bytes that may still begin a delimiter in `state` (held back at a chunk end).
    #[inline(always)]
    pub fn depth(&self, state: u16) -> usize {
        self.depth[(state >> self.stride_log2) as usize] as usize
    }

    /// The delimiter `state` completes, if it is a match state.
    #[inline(always)]
    pub fn matched(&self, state: u16) -> Option<&'static Delimiter> {
        if state < self.match_min {
            return None;
        }
        let k = ((state - self.match_min) >> self.stride_log2) as usize;
        Some(&self.delimiters[self.matched[k] as usize])
    }

    /// Offset in `haystack` of the first byte that can begin a delimiter.
    #[inline(always)]
    pub fn find_start(&self, haystack: &[u8]) -> Option<usize> {
        // Token-sized chunks: a plain loop beats the set-up of a vector search.
        if cfg!(feature = "no-skip") || haystack.len() < 16 {
            return haystack.iter().position(|&b| self.starts[b as usize]);
        }
        match *self.first_bytes {
            [a] => memchr::memchr(a, haystack),
            [a, b] => memchr::memchr2(a, b, haystack),
            [a, b, c] => memchr::memchr3(a, b, c, haystack),
            _ => haystack.iter().position(|&b| self.starts[b as usize]),
        }
    }
}
