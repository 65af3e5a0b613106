//! A streaming lexer for one Python literal: a keyword argument's value in a call such as
//! `default_api.f(path="a", n=[1, 2])`. It tracks strings (single, double and triple
//! quotes, `r`/`b`/`u`/`f` prefixes, backslash escapes), brackets and comments, so that a
//! `)`, a `,` or a Markdown fence inside a string is data (docs/seed.md B8), and reports every byte
//! as a [`Piece`] so that a consumer can write the value as JSON without lexing it again.
//!
//! It checks the structure a consumer needs to write the value as JSON: brackets close
//! with their own kind, a dict's `:` and `,` stand between a key and a value, no element
//! is empty, and after a complete string, list, tuple or dict only a separator, a closer
//! or (after a string) another string may follow. Anything else is an error, so that a
//! value such as `[1][0]`, `{1, 2}` or `"x".upper()` never reaches a consumer as a
//! literal. Bare words are not validated: a name or an operator run (`x`, `-1`,
//! `a if b else c`) comes out as bare words, and a name followed at once by brackets (a
//! call such as `f(y=1)`, a subscript, `x.y`) is one expression whose inside is not
//! checked; the consumer decides what they are.

use super::nest::{Nest, Open};
use super::runs::Runs;
use crate::{Piece, Span};

/// Where the lexer's steps report pieces: the closure a scan was given.
trait Emit: FnMut(Piece, Span, &[u8]) {}

impl<F: FnMut(Piece, Span, &[u8])> Emit for F {}

/// The span emitter of one scan, over pieces.
type Pieces<'a, F> = Runs<'a, Piece, F>;

/// What the value holds just before the next token, at the current nesting level.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum After {
    /// Nothing: the value's start, or just after an opener, a `,` or a `:`.
    Start,
    /// A bare word (or a call or subscript on one), with nothing after it yet: brackets
    /// here are its call or subscript.
    Word,
    /// A bare word and whitespace: another bare word may follow (the consumer joins them).
    WordSpace,
    /// A string: another string may follow (Python joins adjacent strings).
    Str,
    /// A closed list, tuple or dict.
    Closed,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    /// Between tokens.
    Between,
    /// Inside a bare word (a number, a name, an operator run).
    Word,
    /// One or two letters that may be a string prefix (`r`, `rb`, …), held.
    Prefix,
    /// After one or two opening quotes: a third makes a triple-quoted string.
    OpenQuotes,
    /// Inside a string.
    Str,
    /// Inside a `#` comment.
    Comment,
}

/// Where the value stands after a scan.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Step {
    /// Every byte belongs to the value, which may go on.
    More,
    /// The value ended before this offset, at a `,` or `)` outside brackets and strings
    /// (not consumed).
    Done(usize),
    /// The byte at this offset cannot be in a call's arguments: a closing bracket with
    /// nothing open, a backtick outside strings (the block's fence: the call never
    /// closed), or a byte that breaks the value's structure (a closer of another kind, a
    /// misplaced `:` or `,`, a token right after a complete literal).
    Error(usize),
}

/// Lexer state for one value. Fixed size: the open containers are a [`Nest`], and held
/// bytes are at most two prefix letters (the quotes held are known bytes and only
/// counted).
#[derive(Debug, Clone, Copy)]
pub(crate) struct PyValue {
    state: State,
    nest: Nest,
    /// The depth just inside the brackets of a call or subscript on a bare word, while
    /// they are open (0 otherwise): what is inside them is not checked.
    expr: u32,
    after: After,
    /// The string's quote byte.
    quote: u8,
    triple: bool,
    raw: bool,
    escape: bool,
    /// OpenQuotes: opening quotes seen. Str (triple): closing quotes seen in a row.
    quotes: u8,
    prefix: [u8; 2],
    prefix_len: u8,
    /// A token began.
    seen: bool,
    /// A byte was scanned.
    started: bool,
}

/// Up to two quote bytes of either kind, for quotes held as a count.
const DOUBLE: &[u8] = b"\"\"\"";
const SINGLE: &[u8] = b"'''";

fn quotes(quote: u8, n: u8) -> &'static [u8] {
    let all = if quote == b'"' { DOUBLE } else { SINGLE };
    &all[..usize::from(n).min(3)]
}

/// Bytes that end a bare word.
fn ends_word(b: u8) -> bool {
    matches!(
        b,
        b' ' | b'\t'
            | b'\n'
            | b'\r'
            | 0x0c
            | b'('
            | b')'
            | b'['
            | b']'
            | b'{'
            | b'}'
            | b','
            | b':'
            | b'\''
            | b'"'
            | b'#'
            | b'\\'
            | b'`'
    )
}

fn prefix_letter(b: u8) -> bool {
    matches!(b.to_ascii_lowercase(), b'r' | b'b' | b'u' | b'f')
}

impl PyValue {
    /// A lexer for a value whose first byte is the next one scanned.
    pub(crate) const fn new() -> Self {
        PyValue {
            state: State::Between,
            nest: Nest::new(),
            expr: 0,
            after: After::Start,
            quote: 0,
            triple: false,
            raw: false,
            escape: false,
            quotes: 0,
            prefix: [0; 2],
            prefix_len: 0,
            seen: false,
            started: false,
        }
    }

    /// A token began: the value is not empty.
    pub(crate) fn seen(&self) -> bool {
        self.seen
    }

    /// A byte was scanned: from here on, every byte is the value's (a comment, say).
    pub(crate) fn started(&self) -> bool {
        self.started
    }

    fn contents(&self) -> Piece {
        if self.raw {
            Piece::Raw
        } else {
            Piece::Escaped
        }
    }

    /// Takes `bytes` whole when they all lie inside a string and hold neither its quote
    /// byte nor a backslash, as string contents; returns the piece, or `None` (state
    /// unchanged) when the full scan is needed.
    #[inline(always)]
    pub(crate) fn take_inside_string(&mut self, bytes: &[u8]) -> Option<Piece> {
        if self.state != State::Str || self.escape || self.quotes != 0 {
            return None;
        }
        let inside = if cfg!(feature = "no-skip") || bytes.len() < 16 {
            !bytes.iter().any(|&b| b == self.quote || b == b'\\')
        } else {
            memchr::memchr2(self.quote, b'\\', bytes).is_none()
        };
        inside.then(|| self.contents())
    }

    /// Scans the next bytes of the value (`bytes[i]` is at stream offset `base + i`),
    /// reporting each piece to `emit` in order.
    pub(crate) fn scan<F: FnMut(Piece, Span, &[u8])>(
        &mut self,
        bytes: &[u8],
        base: u64,
        emit: &mut F,
    ) -> Step {
        self.started |= !bytes.is_empty();
        let mut r = Runs::new(bytes, base, Piece::Space, emit);
        let mut i = 0;
        while i < bytes.len() {
            // Each state's step gives the next byte to look at, or where the value stops.
            let next = match self.state {
                State::Between => self.between(&mut r, bytes[i], i),
                State::Word => Ok(self.word(&mut r, bytes[i], i)),
                State::Prefix => self.prefix(&mut r, bytes[i], i),
                State::OpenQuotes => Ok(self.open_quotes(&mut r, bytes[i], i)),
                State::Str => Ok(self.string(&mut r, bytes, i)),
                State::Comment => Ok(self.comment(&mut r, bytes[i], i)),
            };
            match next {
                Ok(next) => i = next,
                Err(step) => return step,
            }
        }
        r.emit_run(i);
        Step::More
    }

    /// `b`, at `i`, between tokens: whitespace, a comment, a bracket, a separator, a quote,
    /// or the start of a bare word or prefix.
    #[inline(always)]
    fn between<F: Emit>(&mut self, r: &mut Pieces<'_, F>, b: u8, i: usize) -> Result<usize, Step> {
        // Structure is checked outside the brackets of a call on a word.
        let checked = self.expr == 0;
        let stop = |r: &mut Pieces<'_, F>, step: Step| {
            r.emit_run(i);
            Err(step)
        };
        match b {
            b' ' | b'\t' | b'\n' | b'\r' | 0x0c | b'\\' | b'#' => {
                r.put(i, Piece::Space);
                if self.after == After::Word {
                    self.after = After::WordSpace;
                }
                if b == b'#' {
                    self.state = State::Comment;
                }
            }
            b'(' | b'[' | b'{' => {
                if !self.open_bracket(r, b, i, checked) {
                    return stop(r, Step::Error(i));
                }
            }
            b')' | b']' | b'}' if self.nest.depth() == 0 => {
                let step = if b == b')' {
                    Step::Done(i)
                } else {
                    Step::Error(i)
                };
                return stop(r, step);
            }
            b')' | b']' | b'}' => {
                if !self.close_bracket(r, b, i, checked) {
                    return stop(r, Step::Error(i));
                }
            }
            b',' if self.nest.depth() == 0 => return stop(r, Step::Done(i)),
            b',' | b':' if checked => {
                let next = match (b, self.nest.top()) {
                    _ if self.after == After::Start => None,
                    (b',', Some(Open::Value)) => Some(Open::Key),
                    (b',', Some(open @ (Open::Paren | Open::List))) => Some(open),
                    (b':', Some(Open::Key)) => Some(Open::Value),
                    _ => None,
                };
                let Some(next) = next else {
                    return stop(r, Step::Error(i));
                };
                r.put(i, Piece::Punct);
                self.nest.set_top(next);
                self.after = After::Start;
            }
            b',' | b':' => r.put(i, Piece::Punct),
            b'\'' | b'"' => {
                if checked && !matches!(self.after, After::Start | After::Str) {
                    return stop(r, Step::Error(i));
                }
                r.emit_run(i);
                self.seen = true;
                self.raw = false;
                self.quote = b;
                self.quotes = 1;
                self.state = State::OpenQuotes;
                if checked {
                    self.after = After::Str;
                }
                r.run = i + 1;
            }
            b'`' => return stop(r, Step::Error(i)),
            _ if checked && self.after == After::Closed => return stop(r, Step::Error(i)),
            _ if prefix_letter(b) => {
                r.emit_run(i);
                self.seen = true;
                self.prefix = [b, 0];
                self.prefix_len = 1;
                self.state = State::Prefix;
                r.run = i + 1;
            }
            _ => {
                if checked && self.after == After::Str {
                    return stop(r, Step::Error(i));
                }
                r.put(i, Piece::Bare);
                self.seen = true;
                self.state = State::Word;
                if checked {
                    self.after = After::Word;
                }
            }
        }
        Ok(i + 1)
    }

    /// The opening bracket `b` at `i`; `false` when it cannot be here (or nests too deep).
    #[inline(always)]
    fn open_bracket<F: Emit>(
        &mut self,
        r: &mut Pieces<'_, F>,
        b: u8,
        i: usize,
        checked: bool,
    ) -> bool {
        let call = b != b'{' && self.after == After::Word;
        let allowed =
            !checked || call || (self.after == After::Start && self.nest.top() != Some(Open::Key));
        if !allowed || !self.nest.push(Open::of(b)) {
            return false;
        }
        r.put(i, Piece::Punct);
        self.seen = true;
        if checked && call {
            self.expr = self.nest.depth();
        }
        self.after = After::Start;
        true
    }

    /// The closing bracket `b` at `i`, with a bracket open; `false` when it does not close
    /// it (another kind, or an empty element).
    #[inline(always)]
    fn close_bracket<F: Emit>(
        &mut self,
        r: &mut Pieces<'_, F>,
        b: u8,
        i: usize,
        checked: bool,
    ) -> bool {
        let empty = self.after == After::Start;
        let allowed = !checked
            || match self.nest.top() {
                // A key without its value.
                Some(Open::Key) => empty,
                Some(Open::Value) => !empty,
                _ => true,
            };
        if !allowed || !self.nest.pop(b) {
            return false;
        }
        r.put(i, Piece::Punct);
        if !checked && self.nest.depth() < self.expr {
            // The call or subscript closed: the word goes on.
            self.expr = 0;
            self.after = After::Word;
        } else if checked {
            self.after = After::Closed;
        }
        true
    }

    /// `b`, at `i`, inside a bare word.
    #[inline(always)]
    fn word<F: Emit>(&mut self, r: &mut Pieces<'_, F>, b: u8, i: usize) -> usize {
        if ends_word(b) {
            self.state = State::Between;
            return i;
        }
        r.put(i, Piece::Bare);
        i + 1
    }

    /// `b`, at `i`, after one or two letters that may be a string prefix.
    #[inline(always)]
    fn prefix<F: Emit>(&mut self, r: &mut Pieces<'_, F>, b: u8, i: usize) -> Result<usize, Step> {
        let held = usize::from(self.prefix_len);
        let start = r.at(i) - held as u64;
        let checked = self.expr == 0;
        if b == b'\'' || b == b'"' {
            if checked && !matches!(self.after, After::Start | After::Str) {
                // A string right after a word: not a literal.
                r.send(Piece::Bare, Span::new(start, r.at(i)), &self.prefix[..held]);
                self.prefix_len = 0;
                self.state = State::Between;
                return Err(Step::Error(i));
            }
            if checked {
                self.after = After::Str;
            }
            self.raw = self.prefix[..held]
                .iter()
                .any(|p| p.eq_ignore_ascii_case(&b'r'));
            self.quote = b;
            self.quotes = 1;
            self.state = State::OpenQuotes;
            r.run = i + 1;
            return Ok(i + 1);
        }
        let pair = [self.prefix[0].to_ascii_lowercase(), b.to_ascii_lowercase()];
        if held == 1 && matches!(&pair, b"rb" | b"br" | b"rf" | b"fr") {
            self.prefix[1] = b;
            self.prefix_len = 2;
            r.run = i + 1;
            return Ok(i + 1);
        }
        // Not a prefix: the letters begin a bare word.
        r.send(Piece::Bare, Span::new(start, r.at(i)), &self.prefix[..held]);
        self.prefix_len = 0;
        r.out = Piece::Bare;
        r.run = i;
        self.state = State::Word;
        if checked {
            if self.after == After::Str {
                // A word right after a string: not a literal.
                self.state = State::Between;
                return Err(Step::Error(i));
            }
            self.after = After::Word;
        }
        Ok(i)
    }

    /// `b`, at `i`, after one or two opening quotes.
    #[inline(always)]
    fn open_quotes<F: Emit>(&mut self, r: &mut Pieces<'_, F>, b: u8, i: usize) -> usize {
        if b == self.quote {
            self.quotes += 1;
            r.run = i + 1;
            if self.quotes == 3 {
                self.open_string(true, r.at(i + 1), r.emit);
                r.out = self.contents();
            }
            return i + 1;
        }
        self.open_string(false, r.at(i), r.emit);
        r.out = self.contents();
        r.run = i;
        i
    }

    /// `bytes[i..]` inside a string: skips to its next quote or backslash.
    #[inline(always)]
    fn string<F: Emit>(&mut self, r: &mut Pieces<'_, F>, bytes: &[u8], mut i: usize) -> usize {
        if self.escape {
            r.put(i, self.contents());
            self.escape = false;
            return i + 1;
        }
        if self.triple && self.quotes > 0 && bytes[i] != self.quote {
            // Quotes that did not make three: contents.
            let n = u64::from(self.quotes);
            r.flush(i);
            let span = Span::new(r.at(i) - n, r.at(i));
            r.send(self.contents(), span, quotes(self.quote, self.quotes));
            self.quotes = 0;
            r.out = self.contents();
        }
        let found = if cfg!(feature = "no-skip") {
            bytes[i..]
                .iter()
                .position(|&c| c == self.quote || c == b'\\')
        } else {
            memchr::memchr2(self.quote, b'\\', &bytes[i..])
        };
        let Some(k) = found else {
            r.put(i, self.contents());
            return bytes.len();
        };
        if k > 0 {
            r.put(i, self.contents());
            i += k;
        }
        if bytes[i] == b'\\' {
            r.put(i, self.contents());
            self.escape = true;
            i += 1;
        } else if !self.triple {
            r.put(i, Piece::StringClose);
            i += 1;
            r.flush(i);
            self.state = State::Between;
        } else {
            // A quote in a triple-quoted string: held until three in a row.
            r.emit_run(i);
            self.quotes += 1;
            i += 1;
            r.run = i;
            if self.quotes == 3 {
                let span = Span::new(r.at(i) - 3, r.at(i));
                r.send(Piece::StringClose, span, quotes(self.quote, 3));
                self.quotes = 0;
                self.state = State::Between;
            }
        }
        i
    }

    /// `b`, at `i`, inside a `#` comment.
    #[inline(always)]
    fn comment<F: Emit>(&mut self, r: &mut Pieces<'_, F>, b: u8, i: usize) -> usize {
        if b == b'\n' {
            self.state = State::Between;
            return i;
        }
        r.put(i, Piece::Space);
        i + 1
    }

    /// Opens the string after its quotes (`triple`, or one quote and, when two were seen,
    /// an empty string's close), which end at stream offset `end`.
    fn open_string(&mut self, triple: bool, end: u64, emit: &mut impl FnMut(Piece, Span, &[u8])) {
        let held = u64::from(self.prefix_len);
        let seen = u64::from(self.quotes);
        let start = end - seen - held;
        // The prefix and the quotes are one token: one piece.
        let mut opener = [0u8; 5];
        let prefix = &self.prefix[..usize::from(self.prefix_len)];
        opener[..prefix.len()].copy_from_slice(prefix);
        let quote_len = if triple { 3 } else { 1 };
        opener[prefix.len()..prefix.len() + quote_len]
            .copy_from_slice(quotes(self.quote, 3)[..quote_len].as_ref());
        let opener = &opener[..prefix.len() + quote_len];
        emit(
            Piece::StringOpen,
            Span::new(start, start + opener.len() as u64),
            opener,
        );
        self.prefix_len = 0;
        self.state = State::Str;
        self.triple = triple;
        if !triple && seen == 2 {
            // `''`: an empty string.
            emit(
                Piece::StringClose,
                Span::new(end - 1, end),
                quotes(self.quote, 1),
            );
            self.state = State::Between;
            self.raw = false;
        }
        self.quotes = 0;
    }

    /// Reports what the lexer holds (the stream ends, or the value is cut off at offset
    /// `end`) as what it would most likely have been.
    pub(crate) fn flush(&mut self, end: u64, emit: &mut impl FnMut(Piece, Span, &[u8])) {
        match self.state {
            State::Prefix => {
                let held = usize::from(self.prefix_len);
                emit(
                    Piece::Bare,
                    Span::new(end - held as u64, end),
                    &self.prefix[..held],
                );
                self.prefix_len = 0;
            }
            State::OpenQuotes => self.open_string(false, end, emit),
            State::Str if self.quotes > 0 => {
                let n = self.quotes;
                emit(
                    self.contents(),
                    Span::new(end - u64::from(n), end),
                    quotes(self.quote, n),
                );
                self.quotes = 0;
            }
            _ => {}
        }
        self.state = State::Between;
    }
}

#[cfg(test)]
mod tests;
