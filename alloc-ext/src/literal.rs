//! Literal values to JSON: one value of a Gemma or Python-literal parameter
//! ([`ValueKind::Gemma`], [`ValueKind::Python`]), as the scanner's pieces
//! ([`Sink::tool_value`](inband::Sink::tool_value)), becomes its JSON text, written as the
//! pieces arrive so that a server can stream it. The keys, and the object around the
//! values, are written by [`crate::params`], for every kind alike.
//!
//! The scanner has already lexed every value, so this is a translation piece by piece:
//!
//! - strings: `<|"|>` contents and Python raw strings are JSON-escaped as they are; escaped
//!   contents are decoded first (Python escapes: `\n \t \r \a \b \f \v \\ \' \"`, octal
//!   `\NNN`, `\xHH`, `\uHHHH`, `\UHHHHHHHH`, a backslash-newline continues the line; an
//!   unknown escape such as `\d` keeps its backslash, as Python does; Gemma strings in JSON
//!   quotes also take `\/`). A surrogate pair of escapes becomes one character, a lone
//!   surrogate U+FFFD. Python's adjacent strings (`"a" "b"`) are one string.
//! - bare words: `true`/`True`, `false`/`False`, `null`/`None`/`none`; Python numbers
//!   (`1_000`, `0x1F`, `1.`, `.5`, `+3`, `1e5`) as JSON numbers; any other word, and a bare
//!   key, as a JSON string of its text (a repair, reported by [`LiteralValue::repaired`]).
//! - lists and tuples become arrays, dicts and Gemma objects objects; a trailing comma is
//!   dropped; a dict key that is not a string becomes the string of its text. Parentheses
//!   without a comma only group (`(1)` is `1`, `()` an empty tuple): what follows a `(` is
//!   held until a `,` or the `)` says which.
//! - a call written as a value (`x=f(y=1)`, docs/seed.md §2.10) becomes the string of its
//!   text, `"f(y=1)"`, like a bare word (so `f(x).y` and `f(x) if c else d` are one).
//! - an empty value becomes `""`.
//!
//! Written text is never taken back: a bare word, a closing quote and a comma are held
//! until the next piece says what they are.

use inband::{Piece, ValueKind};

use crate::params::push_escaped;

/// A container open inside a value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Container {
    List,
    /// A `(` not yet known to be a tuple; what follows it is held from `held[mark..]`.
    Paren {
        mark: usize,
    },
    /// An object; `key` while the next token is a key.
    Object {
        key: bool,
    },
}

/// A call written as a value, gathered as text until its brackets balance.
#[derive(Debug, Default)]
struct RawElement {
    text: Vec<u8>,
    depth: u32,
}

/// Converts one literal value to its JSON text.
#[derive(Debug)]
pub(crate) struct LiteralValue {
    kind: ValueKind,
    stack: Vec<Container>,
    /// A bare word being gathered.
    bare: Vec<u8>,
    /// Whitespace after a bare word, part of it if another bare word follows.
    space: Vec<u8>,
    /// A comma not yet written: a closer may follow it.
    comma: bool,
    /// Inside a string (its opening quote was written).
    string: bool,
    /// A string's closing quote not yet written: an adjacent string may continue it.
    close: bool,
    /// An escape sequence being decoded, from its backslash.
    escape: Vec<u8>,
    /// A high surrogate escape waiting for its low half.
    high: Option<u32>,
    /// The string is an f-string (`f"…"`): `{{` and `}}` are braces, `{…}` a field.
    fstring: bool,
    /// An f-string brace held until the next byte says whether it is doubled.
    brace: Option<u8>,
    /// Depth of braces inside an f-string replacement field, kept as its text.
    field: u32,
    /// The last piece was a bare word with nothing after it.
    after_bare: bool,
    /// The last piece, which a fragment of the same quote continues.
    last: Option<Piece>,
    raw: Option<RawElement>,
    /// Text held while a `(` is undecided (the scanner's lexer has checked the
    /// structure; only tuple or grouping is open).
    held: Vec<u8>,
    /// Something was written for the current value.
    wrote: bool,
    repaired: bool,
}

impl LiteralValue {
    /// A converter at the start of a value written as `kind` (Gemma or Python).
    pub(crate) fn new(kind: ValueKind) -> Self {
        LiteralValue {
            kind,
            stack: Vec::new(),
            bare: Vec::new(),
            space: Vec::new(),
            comma: false,
            string: false,
            close: false,
            escape: Vec::new(),
            high: None,
            fstring: false,
            brace: None,
            field: 0,
            after_bare: false,
            last: None,
            raw: None,
            held: Vec::new(),
            wrote: false,
            repaired: false,
        }
    }

    /// True when some value needed a repair to become JSON (a bare word kept as a string,
    /// an escape Python would reject).
    pub(crate) fn repaired(&self) -> bool {
        self.repaired
    }

    /// The next fragment of the value. A [`Piece::Verbatim`] (never sent for a literal
    /// kind) is ignored.
    pub(crate) fn value(&mut self, piece: Piece, bytes: &[u8], out: &mut Vec<u8>) {
        let mut held = std::mem::take(&mut self.held);
        self.convert(piece, bytes, &mut held);
        self.release(&mut held, out, false);
        self.held = held;
    }

    /// Moves what no undecided `(` holds (everything, at the `end`) from `held` to `out`.
    fn release(&mut self, held: &mut Vec<u8>, out: &mut Vec<u8>, end: bool) {
        let first = self.stack.iter().find_map(|open| match open {
            Container::Paren { mark } if !end => Some(*mark),
            _ => None,
        });
        let free = first.unwrap_or(held.len());
        out.extend(held.drain(..free));
        for open in &mut self.stack {
            if let Container::Paren { mark } = open {
                *mark -= free;
            }
        }
    }

    /// [`Self::value`], writing to `out`, which an undecided `(` holds back.
    fn convert(&mut self, piece: Piece, bytes: &[u8], out: &mut Vec<u8>) {
        if self.gathers_call(piece, bytes, out) {
            return;
        }
        let repeat = self.note_piece(piece, bytes);
        match piece {
            // A quote split into fragments is one quote: a later fragment writes nothing.
            Piece::StringOpen | Piece::StringClose if repeat => return,
            Piece::Space => {
                if self.after_bare {
                    self.space.extend_from_slice(bytes);
                }
                return;
            }
            Piece::Bare => {
                if !self.after_bare {
                    self.settle(out);
                }
                self.bare.append(&mut self.space);
                self.bare.extend_from_slice(bytes);
                self.after_bare = true;
                return;
            }
            Piece::StringOpen if self.close => {
                // Adjacent strings are one (Python); the closing quote is never written.
                self.close = false;
                self.string = true;
                return;
            }
            Piece::Punct
                if self.after_bare
                    && self.space.is_empty()
                    && matches!(bytes.first(), Some(b'(' | b'[')) =>
            {
                return self.open_call(bytes, out);
            }
            _ => {}
        }
        self.settle(out);
        self.write_piece(piece, bytes, out);
    }

    /// Inside a call written as a value, true: the piece is part of the call's text,
    /// gathered (and its structure counted) until the brackets balance, since the call is
    /// one string value; what follows the call in the piece goes on as usual.
    #[inline]
    fn gathers_call(&mut self, piece: Piece, bytes: &[u8], out: &mut Vec<u8>) -> bool {
        let Some(raw) = &mut self.raw else {
            return false;
        };
        raw.text.extend_from_slice(bytes);
        if piece != Piece::Punct {
            return true;
        }
        // Only structure counts: brackets inside strings are data.
        for (k, &b) in bytes.iter().enumerate() {
            match b {
                b'(' | b'[' | b'{' => raw.depth += 1,
                b')' | b']' | b'}' => raw.depth = raw.depth.saturating_sub(1),
                _ => {}
            }
            if raw.depth == 0 {
                // The call closed: its text is a bare word, which may go on.
                let rest = bytes.len() - k - 1;
                let mut raw = self.raw.take().unwrap_or_default();
                raw.text.truncate(raw.text.len() - rest);
                self.bare = raw.text;
                self.after_bare = true;
                self.repaired = true;
                if rest > 0 {
                    self.convert(piece, &bytes[k + 1..], out);
                }
                return true;
            }
        }
        true
    }

    /// Notes `piece` as the last one, and whether a string it opens is an f-string; true
    /// when the last piece was of the same kind, which for a quote means a fragment of the
    /// same quote (the scanner may split one across chunks).
    #[inline]
    fn note_piece(&mut self, piece: Piece, bytes: &[u8]) -> bool {
        let repeat = self.last == Some(piece);
        self.last = Some(piece);
        if piece == Piece::StringOpen {
            let f = bytes.iter().any(|b| b.eq_ignore_ascii_case(&b'f'));
            if repeat {
                self.fstring |= f;
            } else {
                self.fstring = f;
                self.field = 0;
            }
        }
        repeat
    }

    /// Punctuation `bytes` opening with `(` or `[` right after a bare word: the word is a
    /// call (or subscript) written as a value, whose text is the value, so the text is
    /// gathered from here on as a [`RawElement`].
    #[inline]
    fn open_call(&mut self, bytes: &[u8], out: &mut Vec<u8>) {
        let mut text = std::mem::take(&mut self.bare);
        text.push(bytes[0]);
        self.after_bare = false;
        self.raw = Some(RawElement { text, depth: 1 });
        self.convert(Piece::Punct, &bytes[1..], out);
    }

    /// Writes a piece that nothing earlier holds back: punctuation, a string's quotes and
    /// contents, each decoded as its kind says.
    #[inline]
    fn write_piece(&mut self, piece: Piece, bytes: &[u8], out: &mut Vec<u8>) {
        match piece {
            Piece::Punct => {
                for &b in bytes {
                    self.punct(b, out);
                }
            }
            Piece::StringOpen => {
                self.begin_token(out);
                out.push(b'"');
                self.string = true;
            }
            Piece::StringClose => {
                self.end_escape(out);
                self.string = false;
                self.close = true;
            }
            Piece::Raw if self.fstring => {
                for &b in bytes {
                    self.fstring_byte(b, out);
                }
            }
            Piece::Raw => push_escaped(bytes, out),
            Piece::Escaped => {
                for &b in bytes {
                    self.escaped(b, out);
                }
            }
            Piece::LiteralQuote => {
                // One `"` per quote token: the pieces of a run of tokens may come merged,
                // and every table's quote token (`<|"|>`, FunctionGemma's `<escape>`)
                // holds one `<`.
                for _ in bytes.iter().filter(|&&b| b == b'<') {
                    out.extend_from_slice(b"\\\"");
                }
            }
            _ => {}
        }
    }

    /// The value ended: writes what was held back (`""` for an empty value).
    pub(crate) fn end(&mut self, out: &mut Vec<u8>) {
        let mut held = std::mem::take(&mut self.held);
        if self.string {
            // Cut off inside a string: what an escape or a brace held is text.
            self.end_escape(&mut held);
        }
        if let Some(raw) = self.raw.take() {
            self.string_token(&raw.text, &mut held);
        }
        self.settle(&mut held);
        if !self.wrote {
            held.extend_from_slice(b"\"\"");
        }
        self.release(&mut held, out, true);
        self.held = held;
    }

    /// The stream ended inside the value: writes what was held back as far as the model
    /// wrote it, adding nothing it did not write (no closing quote or bracket, no `""` for
    /// an empty value). A string cut off keeps a pending escape or f-string brace as text;
    /// a bare word that reads as a keyword or a number so far is that (`12`, `true`), any
    /// other, and a call written as a value, an unterminated string of its text (`"Tru`,
    /// `"f(1`); a string's closing quote and a comma that were written are written; an
    /// undecided `(` is taken as grouping.
    pub(crate) fn cut(&mut self, out: &mut Vec<u8>) {
        let mut held = std::mem::take(&mut self.held);
        if let Some(raw) = self.raw.take() {
            self.begin_token(&mut held);
            held.push(b'"');
            push_escaped(&raw.text, &mut held);
        } else if self.string {
            for b in std::mem::take(&mut self.escape) {
                self.char_byte(b, &mut held);
            }
            if let Some(brace) = self.brace.take() {
                self.char_byte(brace, &mut held);
            }
            self.flush_high(&mut held);
        } else if self.after_bare {
            self.after_bare = false;
            let bare = std::mem::take(&mut self.bare);
            let text = bare.trim_ascii();
            if !self.at_key() && (keyword(text).is_some() || json_number(text).is_some()) {
                self.bare_token(text, &mut held);
            } else {
                self.begin_token(&mut held);
                held.push(b'"');
                push_escaped(text, &mut held);
            }
        }
        if std::mem::take(&mut self.close) {
            held.push(b'"');
        }
        if std::mem::take(&mut self.comma) {
            held.push(b',');
        }
        // The value is over: nothing stays open, an undecided `(` included.
        self.stack.clear();
        out.append(&mut held);
    }

    /// Writes what earlier pieces held back, now that a piece of another kind has come.
    fn settle(&mut self, out: &mut Vec<u8>) {
        if self.after_bare {
            self.after_bare = false;
            self.space.clear();
            let bare = std::mem::take(&mut self.bare);
            self.bare_token(&bare, out);
        }
        if self.close {
            self.close = false;
            out.push(b'"');
        }
    }

    /// Before a token: the comma it follows, if any.
    fn begin_token(&mut self, out: &mut Vec<u8>) {
        if self.comma {
            self.comma = false;
            out.push(b',');
        }
        self.wrote = true;
    }

    fn at_key(&self) -> bool {
        matches!(self.stack.last(), Some(Container::Object { key: true }))
    }

    fn punct(&mut self, b: u8, out: &mut Vec<u8>) {
        match b {
            b'[' | b'(' | b'{' => {
                self.begin_token(out);
                match b {
                    b'{' => {
                        self.stack.push(Container::Object { key: true });
                        out.push(b'{');
                    }
                    b'[' => {
                        self.stack.push(Container::List);
                        out.push(b'[');
                    }
                    _ => self.stack.push(Container::Paren { mark: out.len() }),
                }
            }
            b']' | b')' | b'}' => {
                // A trailing comma is dropped.
                self.comma = false;
                match self.stack.pop() {
                    Some(Container::List) => out.push(b']'),
                    Some(Container::Object { .. }) => out.push(b'}'),
                    // `()` is an empty tuple; `(x)` is `x`.
                    Some(Container::Paren { mark }) if mark == out.len() => {
                        out.extend_from_slice(b"[]");
                    }
                    Some(Container::Paren { .. }) => {}
                    None => self.repaired = true,
                }
            }
            b',' => {
                self.comma = true;
                match self.stack.last_mut() {
                    Some(Container::Object { key }) => *key = true,
                    Some(&mut Container::Paren { mark }) => {
                        // A comma makes it a tuple.
                        out.insert(mark, b'[');
                        self.stack.pop();
                        self.stack.push(Container::List);
                    }
                    _ => {}
                }
            }
            b':' => {
                if let Some(Container::Object { key }) = self.stack.last_mut() {
                    *key = false;
                }
                out.push(b':');
            }
            _ => {}
        }
    }

    /// A whole string token made of `text` (a call written as a value).
    fn string_token(&mut self, text: &[u8], out: &mut Vec<u8>) {
        self.begin_token(out);
        out.push(b'"');
        push_escaped(text, out);
        out.push(b'"');
        self.repaired = true;
    }

    /// A whole bare word: a JSON scalar, or the string of its text.
    fn bare_token(&mut self, bare: &[u8], out: &mut Vec<u8>) {
        let text = bare.trim_ascii();
        self.begin_token(out);
        if !self.at_key() {
            if let Some(json) = keyword(text) {
                return out.extend_from_slice(json);
            }
            if let Some(number) = json_number(text) {
                return out.extend_from_slice(number.as_bytes());
            }
            self.repaired = true;
        }
        out.push(b'"');
        push_escaped(text, out);
        out.push(b'"');
    }
}

mod escape;
mod words;
use words::{json_number, keyword};

#[cfg(test)]
mod tests;
