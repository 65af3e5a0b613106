//! The state of one Gemma call: a `<|tool_call>` literal call, or a Gemma 3
//! ```` ```tool_code ```` block.

use arrayvec::ArrayVec;

use super::Phase;
use crate::engine::budget;
use crate::lex::blank::Blank;
use crate::lex::call_block::Block;
use crate::lex::cursor::Out;
use crate::lex::json::is_json_ws;
use crate::lex::nest::{Nest, Open};
use crate::options::{Options, MAX_NAME};
use crate::Piece;

/// The call being scanned.
#[derive(Debug, Clone)]
pub(super) struct Call {
    /// Written `call:NAME(k=v)`.
    pub(super) paren: bool,
    /// Open lists and objects inside the current value, an object's as at a key or a
    /// value.
    pub(super) nest: Nest,
    /// The name, then each key.
    pub(super) word: ArrayVec<u8, MAX_NAME>,
    /// Stream offset of the word's first byte.
    pub(super) word_start: u64,
    /// The quote byte of a JSON- or Python-quoted string or key.
    pub(super) quote: u8,
    /// The byte before was a backslash inside a quoted string or key.
    pub(super) escape: bool,
    /// The last value token was a bare word (whitespace after it may still be part of it).
    pub(super) last_bare: bool,
    /// A parameter began and has not ended.
    pub(super) in_value: bool,
    /// [`Diagnostic::QuotedString`](crate::Diagnostic::QuotedString) was reported for this call.
    pub(super) quoted_reported: bool,
    /// The `<|"|>` key being read is longer than a name may be (the call breaks at its
    /// closing quote, wherever the chunks end).
    pub(super) key_overflow: bool,
    /// A `<` came right after a bare word's last byte (no blank between): a quote token
    /// there may close a string whose opener is missing.
    pub(super) glued: bool,
    /// Pending: the whitespace after the quote token.
    pub(super) ws: Blank,
    /// Pending: the quote token's bytes, as the `string` mode matched them.
    pub(super) quote_token: &'static [u8],
    /// Markup: the phase the `<` interrupted.
    pub(super) markup_from: Phase,
    /// Stream offset of the call's first byte after the opener, where the
    /// `max_argument_bytes` budget starts.
    pub(super) start: u64,
}

impl Call {
    /// A call before its body.
    pub(super) fn new() -> Self {
        Call {
            paren: false,
            nest: Nest::new(),
            word: ArrayVec::new_const(),
            word_start: 0,
            quote: 0,
            escape: false,
            last_bare: false,
            in_value: false,
            quoted_reported: false,
            key_overflow: false,
            glued: false,
            ws: Blank::EMPTY,
            quote_token: &[],
            markup_from: Phase::Text,
            start: 0,
        }
    }

    /// The byte that ends the top-level body.
    pub(super) fn body_closer(&self) -> u8 {
        if self.paren {
            b')'
        } else {
            b'}'
        }
    }

    /// A `<|"|>` followed by `b` (after whitespace) closes its string; a dictionary key
    /// written as a string (`{<|"|>3<|"|>:…}`) closes at its `:`.
    pub(super) fn closes_string(&self, b: u8) -> bool {
        matches!(b, b',' | b'}' | b']')
            || (self.paren && b == b')')
            || (b == b':' && self.nest.top() == Some(Open::Key))
    }

    /// `b` ends a bare word.
    pub(super) fn ends_bare(&self, b: u8) -> bool {
        is_json_ws(b)
            || matches!(b, b',' | b'}' | b']' | b'<' | b'{' | b'[')
            || (b == b':' && self.nest.top() == Some(Open::Key))
            || (b == b')' && self.paren && self.nest.depth() == 0)
    }

    /// What whitespace between value tokens is: the value's inside a container or after a
    /// bare word (which it may still be part of), the call's markup otherwise.
    pub(super) fn space(&self) -> Out {
        if self.nest.depth() > 0 || self.last_bare {
            Out::Value(Piece::Space)
        } else {
            Out::Markup
        }
    }
}

/// `b` may start a bare word or a bare key.
pub(super) fn bare_start(b: u8) -> bool {
    !is_json_ws(b)
        && !matches!(
            b,
            b'{' | b'}' | b'[' | b']' | b'(' | b')' | b',' | b':' | b'=' | b'"' | b'\'' | b'<'
        )
}

/// `b` may be part of a name.
pub(super) fn name_byte(b: u8) -> bool {
    b > 0x20
        && b != 0x7f
        && !matches!(
            b,
            b'{' | b'}'
                | b'['
                | b']'
                | b'('
                | b')'
                | b','
                | b'='
                | b'"'
                | b'\''
                | b'<'
                | b'>'
                | b'\\'
        )
}

/// What the current call is written as. A `<|tool_call>` call and a ```` ```tool_code ````
/// block never overlap, so they share their storage.
#[derive(Debug, Clone)]
pub(super) enum Body {
    /// A `<|tool_call>` call.
    Literal(Call),
    /// Gemma 3's Python calls in a fence (drift, docs/dialects.md rule 13).
    ToolCode(Block),
}

impl Body {
    /// The `<|tool_call>` call's state. The phases that ask for it come after
    /// `open_call`, which sets it; were it a block, a fresh call would do no harm.
    pub(super) fn call(&mut self) -> &mut Call {
        match self {
            Body::Literal(call) => call,
            Body::ToolCode(_) => {
                *self = Body::Literal(Call::new());
                self.call()
            }
        }
    }

    /// The ```` ```tool_code ```` block's state, likewise.
    pub(super) fn block(&mut self) -> &mut Block {
        match self {
            Body::ToolCode(block) => block,
            Body::Literal(_) => {
                *self = Body::ToolCode(Block::new());
                self.block()
            }
        }
    }

    /// The stream offset where the call reaches `max_argument_bytes`, if one is open.
    pub(super) fn limit(&self, options: &Options) -> Option<u64> {
        match self {
            Body::Literal(call) => Some(budget::end_offset(call.start, options)),
            Body::ToolCode(block) => block.limit(options),
        }
    }
}
