//! A bounded lexer for the rest of a markup tag after its name (`<invoke` is found by the
//! delimiter automaton; this reads ` name="read">`): attributes, quoting, the end of the tag.
//!
//! It is a tolerant tag reader, not an XML parser (docs/seed.md §2.4 g, with B15 fixed):
//! attribute values are `"…"`, `'…'` or unquoted; a quoted value may hold `>`, the other
//! quote, `<` and line breaks; nothing is ever entity-decoded (docs/dialects.md rule 11).
//! Attribute names are compared ASCII-case-insensitively. The tag's bytes are kept (at most
//! [`MAX_TAG`]) so that a tag that turns out not to be one can be released whole.
//!
//! A tag may end in other bytes than `>` and name its attributes otherwise
//! ([`TagLexer::spelled`]): Kimi K3's `<|open|>call tool="N" index="1"<|sep|>` ends in the
//! `<|sep|>` token and names the tool with `tool` (docs/dialects.md §kimi-k3).
//!
//! The equals form (`<function=NAME>`, `<parameter=KEY>`: Qwen3-Coder, docs/dialects.md §qwen3-coder)
//! has no attributes: after the opener's `=`, the name runs to the first `>`; a `<` or a
//! line break before it breaks the tag.

use arrayvec::ArrayVec;

use super::name::is_ws;
use crate::tables::TagForm;

/// Longest markup tag read, in bytes after the tag name (`<invoke`, `<parameter`) up to and
/// including its `>`. A longer tag is not structure: it is released as text with
/// [`Diagnostic::TagTooLong`](crate::Diagnostic::TagTooLong). The bound leaves room for
/// names and keys (` name="…">`) well above OpenAI's 64-byte name limit.
pub const MAX_TAG: usize = 128;

/// What the byte just pushed did to the tag.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Push {
    /// Taken; the tag goes on.
    More,
    /// Taken: it was the tag's `>`. `self_closing` for `/>`.
    Done { self_closing: bool },
    /// Not taken: the tag name runs on (`<invoker`), so this was no tag at all.
    NotATag,
    /// Not taken: no tag can have this byte here (a `<` outside quotes, a quote inside an
    /// unquoted value, a `/` not followed by `>`).
    Malformed,
    /// Not taken: the tag would exceed [`MAX_TAG`] bytes.
    TooLong,
    /// Not taken: a line break ended an equals-form name whose `>` is missing
    /// ([`TagLexer::equals`] with `line_ends_name`); the name is the bytes before it.
    Unterminated,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    /// Right after the tag name: whitespace, `>` or `/` must follow.
    Start,
    /// Between attributes.
    Space,
    AttrName,
    AfterAttrName,
    BeforeValue,
    Quoted(u8),
    Unquoted,
    /// After a closing quote: whitespace, `>` or `/`.
    AfterValue,
    /// After `/`: only `>` may follow.
    Slash,
    /// The equals form: the name, up to the `>` (or, with `line_ends_name`, a line
    /// break).
    Equals {
        line_ends_name: bool,
    },
    /// Inside a tag end longer than one byte (`<|sep|>`): this many of its bytes read.
    End(u8),
}

/// The attributes the markup family reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Attr {
    Name,
    String,
    Other,
}

/// A value's byte range in the tag tail.
type Range = (u8, u8);

/// Lexer state for one tag tail. Fixed size; every byte is looked at once.
#[derive(Debug, Clone)]
pub(crate) struct TagLexer {
    bytes: ArrayVec<u8, MAX_TAG>,
    state: State,
    /// Start of the attribute name being read.
    attr_start: u8,
    attr: Attr,
    /// Start of the attribute value being read.
    value_start: u8,
    name: Option<Range>,
    string: Option<Range>,
    /// How the tag is spelled: its end (`>`, or K3's `<|sep|>`) and its attributes.
    form: &'static TagForm,
    /// A parameter tag, whose key is `form.key` (an invoke's name is `form.name`).
    param: bool,
}

impl TagLexer {
    pub(crate) const fn new() -> Self {
        TagLexer {
            bytes: ArrayVec::new_const(),
            state: State::Start,
            attr_start: 0,
            attr: Attr::Other,
            value_start: 0,
            name: None,
            string: None,
            form: &TagForm::XML,
            param: false,
        }
    }

    /// A lexer for a tag spelled as `form` says: ended by `form.end`, its name the
    /// `form.key` attribute for a parameter tag (`param`) and `form.name` otherwise, its
    /// value type the `form.kind` one ([`TagLexer::string`] reads it; `string` without it).
    pub(crate) const fn spelled(form: &'static TagForm, param: bool) -> Self {
        let mut tag = TagLexer::new();
        tag.form = form;
        tag.param = param;
        tag
    }

    /// A lexer for the equals form, after an opener ending in `=` (`<function=`);
    /// `line_ends_name`: a line break after a non-empty name ends the tag whose `>` is
    /// missing ([`Push::Unterminated`]), where the value's framing newline follows the tag.
    pub(crate) const fn equals(line_ends_name: bool) -> Self {
        let mut tag = TagLexer::new();
        tag.state = State::Equals { line_ends_name };
        tag
    }

    /// The tag tail so far (after a [`Push::Done`], the whole tail, `>` included).
    pub(crate) fn bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// True before the first byte after the tag name: nothing says yet that it is a tag.
    pub(crate) fn is_empty(&self) -> bool {
        self.bytes.is_empty()
    }

    /// The first `name` attribute's value as written, and its offset in the tail.
    pub(crate) fn name(&self) -> Option<(&[u8], usize)> {
        self.value(self.name)
    }

    /// The first value-type attribute's value as written (`string`, or the `kind_attr` of
    /// [`TagLexer::spelled`]).
    pub(crate) fn string(&self) -> Option<&[u8]> {
        self.value(self.string).map(|(value, _)| value)
    }

    fn value(&self, range: Option<Range>) -> Option<(&[u8], usize)> {
        let (start, end) = range?;
        let (start, end) = (start as usize, end as usize);
        Some((self.bytes.get(start..end)?, start))
    }

    /// Reads bytes from `bytes` until the tag ends or breaks; returns how many were taken
    /// and the outcome of the last one looked at ([`Push::More`] when all were taken).
    pub(crate) fn scan(&mut self, bytes: &[u8]) -> (usize, Push) {
        // The form is chosen once per run of bytes, not per byte: nearly every tag ends in
        // `>`, and its bytes are the markup family's hottest loop.
        if self.form.end.len() > 1 {
            self.scan_with(bytes, Self::push_long)
        } else {
            self.scan_with(bytes, Self::push_byte)
        }
    }

    #[inline(always)]
    fn scan_with(&mut self, bytes: &[u8], push: fn(&mut Self, u8) -> Push) -> (usize, Push) {
        for (i, &b) in bytes.iter().enumerate() {
            match push(self, b) {
                Push::More => {}
                done @ Push::Done { .. } => return (i + 1, done),
                stop => return (i, stop),
            }
        }
        (bytes.len(), Push::More)
    }

    /// One byte of a tag that ends in several bytes (`<|sep|>`).
    fn push_long(&mut self, b: u8) -> Push {
        let i = self.bytes.len();
        if i == MAX_TAG {
            return Push::TooLong;
        }
        // Cannot truncate: MAX_TAG fits a u8 index.
        match self.long_end(b, i as u8) {
            Some(push) => push,
            None => self.push_byte(b),
        }
    }

    /// One byte of a tag that ends in `>`, and the rules both forms share.
    #[inline(always)]
    fn push_byte(&mut self, b: u8) -> Push {
        let i = self.bytes.len();
        if i == MAX_TAG {
            return Push::TooLong;
        }
        // Cannot truncate: MAX_TAG fits a u8 index.
        let at = i as u8;
        let ws = is_ws(b);
        let next = match self.state {
            State::Start => match b {
                _ if ws => State::Space,
                b'>' => return self.done(b, false),
                b'/' => State::Slash,
                _ => return Push::NotATag,
            },
            State::Space | State::AfterAttrName => match b {
                _ if ws => self.state,
                b'>' => return self.done(b, false),
                b'/' => State::Slash,
                b'=' if self.state == State::AfterAttrName => State::BeforeValue,
                _ if is_name_start(b) => {
                    self.attr_start = at;
                    State::AttrName
                }
                _ => return Push::Malformed,
            },
            State::AttrName => match b {
                _ if is_name_byte(b) => State::AttrName,
                _ if ws => {
                    self.end_attr_name(i);
                    State::AfterAttrName
                }
                b'=' => {
                    self.end_attr_name(i);
                    State::BeforeValue
                }
                b'>' => return self.done(b, false),
                b'/' => State::Slash,
                _ => return Push::Malformed,
            },
            State::BeforeValue => match b {
                _ if ws => State::BeforeValue,
                b'"' | b'\'' => {
                    self.value_start = at + 1;
                    State::Quoted(b)
                }
                b'>' | b'<' | b'=' | b'/' | b'`' => return Push::Malformed,
                _ => {
                    self.value_start = at;
                    State::Unquoted
                }
            },
            State::Quoted(quote) => {
                if b == quote {
                    self.end_value(at);
                    State::AfterValue
                } else {
                    self.state
                }
            }
            State::Unquoted => match b {
                _ if ws => {
                    self.end_value(at);
                    State::Space
                }
                b'>' => {
                    self.end_value(at);
                    return self.done(b, false);
                }
                b'/' => {
                    self.end_value(at);
                    State::Slash
                }
                b'"' | b'\'' | b'<' | b'=' | b'`' => return Push::Malformed,
                _ => State::Unquoted,
            },
            State::AfterValue => match b {
                _ if ws => State::Space,
                b'>' => return self.done(b, false),
                b'/' => State::Slash,
                _ => return Push::Malformed,
            },
            State::Slash => match b {
                b'>' => return self.done(b, true),
                _ => return Push::Malformed,
            },
            State::Equals { line_ends_name } => match self.equals_byte(b, at, line_ends_name) {
                Some(push) => return push,
                None => self.state,
            },
            State::End(_) => unreachable!("read by long_end"),
        };
        self.bytes.push(b);
        self.state = next;
        Push::More
    }

    /// Byte `b` at `at` where the tag ends in several bytes (`<|sep|>`): inside the end, or
    /// where it may begin (after the tag name, an attribute, a value). `None` when the
    /// ordinary rules read the byte (always, for a one-byte end); a lone `>` or `/` cannot
    /// end such a tag.
    fn long_end(&mut self, b: u8, at: u8) -> Option<Push> {
        let end = self.form.end;
        if end.len() < 2 {
            return None;
        }
        match self.state {
            State::End(k) => {
                if end.get(k as usize) != Some(&b) {
                    return Some(Push::Malformed);
                }
                if k as usize + 1 == end.len() {
                    return Some(self.done(b, false));
                }
                self.bytes.push(b);
                self.state = State::End(k + 1);
                Some(Push::More)
            }
            State::Start
            | State::Space
            | State::AttrName
            | State::AfterAttrName
            | State::AfterValue
            | State::Unquoted => {
                if b == end[0] {
                    match self.state {
                        State::AttrName => self.end_attr_name(at as usize),
                        State::Unquoted => self.end_value(at),
                        _ => {}
                    }
                    self.bytes.push(b);
                    self.state = State::End(1);
                    Some(Push::More)
                } else if b == b'>' || b == b'/' {
                    Some(Push::Malformed)
                } else {
                    None
                }
            }
            _ => None,
        }
    }

    /// Byte `b` at `at` of an equals-form name: `None` when it is part of the name.
    fn equals_byte(&mut self, b: u8, at: u8, line_ends_name: bool) -> Option<Push> {
        match b {
            b'>' => {
                self.name = Some((0, at));
                Some(self.done(b, false))
            }
            b'\n' if line_ends_name && at > 0 => {
                self.name = Some((0, at));
                Some(Push::Unterminated)
            }
            b'<' | b'\n' | b'\r' => Some(Push::Malformed),
            _ => None,
        }
    }

    fn done(&mut self, b: u8, self_closing: bool) -> Push {
        self.bytes.push(b);
        Push::Done { self_closing }
    }

    /// The attribute name `bytes[attr_start..end]` is complete: which attribute is it?
    fn end_attr_name(&mut self, end: usize) {
        let name = self.bytes.get(self.attr_start as usize..end).unwrap_or(&[]);
        // A namespace prefix (`antml:name`) does not change the attribute.
        let local = match name.iter().rposition(|&b| b == b':') {
            Some(k) => &name[k + 1..],
            None => name,
        };
        let name_attr = if self.param {
            self.form.key
        } else {
            self.form.name
        };
        let kind_attr = self.form.kind.unwrap_or(b"string");
        self.attr = if local.eq_ignore_ascii_case(name_attr) {
            Attr::Name
        } else if local.eq_ignore_ascii_case(kind_attr) {
            Attr::String
        } else {
            Attr::Other
        };
    }

    /// The value `bytes[value_start..end]` is complete; the first of each attribute counts.
    fn end_value(&mut self, end: u8) {
        let range = Some((self.value_start, end));
        match self.attr {
            Attr::Name if self.name.is_none() => self.name = range,
            Attr::String if self.string.is_none() => self.string = range,
            _ => {}
        }
        self.attr = Attr::Other;
    }
}

fn is_name_start(b: u8) -> bool {
    b.is_ascii_alphabetic() || b == b'_' || b == b':'
}

fn is_name_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'_' | b':' | b'.' | b'-')
}

#[cfg(test)]
mod tests {
    extern crate std;

    use super::{Push, TagLexer, MAX_TAG};
    use crate::tables::TagForm;
    use std::format;
    use std::vec::Vec;

    fn lex(tail: &str) -> (TagLexer, usize, Push) {
        let mut tag = TagLexer::new();
        let (n, push) = tag.scan(tail.as_bytes());
        (tag, n, push)
    }

    fn name_of(tail: &str) -> Option<Vec<u8>> {
        let (tag, _, push) = lex(tail);
        assert!(matches!(push, Push::Done { .. }), "{tail:?}: {push:?}");
        tag.name().map(|(name, _)| name.to_vec())
    }

    #[test]
    fn attributes_in_every_quoting() {
        assert_eq!(name_of(" name=\"read\">"), Some(b"read".to_vec()));
        assert_eq!(name_of(" name='read'>"), Some(b"read".to_vec()));
        assert_eq!(name_of(" name=read>"), Some(b"read".to_vec()));
        assert_eq!(name_of(" NAME = \"read\" >"), Some(b"read".to_vec()));
        assert_eq!(name_of("\n  name=\"a>b\"\n>"), Some(b"a>b".to_vec()));
        assert_eq!(name_of(" name='say \"hi\"'>"), Some(b"say \"hi\"".to_vec()));
        assert_eq!(name_of(" name=\"a&amp;b\">"), Some(b"a&amp;b".to_vec()));
        assert_eq!(name_of(" antml:name=\"x\">"), Some(b"x".to_vec()));
        assert_eq!(name_of(" id=1 name=\"x\" name=\"y\">"), Some(b"x".to_vec()));
        assert_eq!(name_of(">"), None);
        assert_eq!(name_of(" flag name=x>"), Some(b"x".to_vec()));
    }

    #[test]
    fn string_attribute_and_self_closing() {
        let (tag, n, push) = lex(" name=\"k\" string=\"false\"/>rest");
        assert_eq!(push, Push::Done { self_closing: true });
        assert_eq!(n, " name=\"k\" string=\"false\"/>".len());
        assert_eq!(tag.string(), Some(&b"false"[..]));
        assert_eq!(tag.name(), Some((&b"k"[..], 7)));
        let (_, _, push) = lex(" name=k/>");
        assert_eq!(push, Push::Done { self_closing: true });
    }

    #[test]
    fn not_a_tag_and_malformed() {
        let (_, n, push) = lex("r name=\"x\">");
        assert_eq!((n, push), (0, Push::NotATag));
        let (_, n, push) = lex(" name=x<parameter");
        assert_eq!((n, push), (7, Push::Malformed));
        let (_, n, push) = lex(" name=\"x\"y>");
        assert_eq!((n, push), (9, Push::Malformed));
        let (_, n, push) = lex(" <b>");
        assert_eq!((n, push), (1, Push::Malformed));
        let (_, n, push) = lex(" / >");
        assert_eq!((n, push), (2, Push::Malformed));
    }

    #[test]
    fn equals_form() {
        let mut tag = TagLexer::equals(false);
        let (n, push) = tag.scan(b"read_file>\nrest");
        assert_eq!(
            (n, push),
            (
                10,
                Push::Done {
                    self_closing: false
                }
            )
        );
        assert_eq!(tag.name(), Some((&b"read_file"[..], 0)));
        // No attributes and no entity decoding: the name is the bytes up to `>`.
        let mut tag = TagLexer::equals(false);
        tag.scan(b" a=\"b&amp;\">");
        assert_eq!(tag.name(), Some((&b" a=\"b&amp;\""[..], 0)));
        let mut tag = TagLexer::equals(false);
        assert_eq!(
            tag.scan(b">"),
            (
                1,
                Push::Done {
                    self_closing: false
                }
            )
        );
        assert_eq!(tag.name(), Some((&b""[..], 0)));
        assert_eq!(TagLexer::equals(false).scan(b"a<b>"), (1, Push::Malformed));
        assert_eq!(TagLexer::equals(false).scan(b"a\nb>"), (1, Push::Malformed));
        // With `line_ends_name`, a line break ends a name whose `>` is missing, not taken.
        let mut tag = TagLexer::equals(true);
        assert_eq!(tag.scan(b"city\nx"), (4, Push::Unterminated));
        assert_eq!(tag.name(), Some((&b"city"[..], 0)));
        assert_eq!(TagLexer::equals(true).scan(b"\nx"), (0, Push::Malformed));
        assert_eq!(TagLexer::equals(true).scan(b"a\rb"), (1, Push::Malformed));
        let long = "x".repeat(MAX_TAG + 1);
        assert_eq!(
            TagLexer::equals(false).scan(long.as_bytes()),
            (MAX_TAG, Push::TooLong)
        );
    }

    #[test]
    fn a_long_end_and_other_attribute_names() {
        static K3: TagForm = TagForm {
            end: b"<|sep|>",
            name: b"tool",
            key: b"key",
            kind: Some(b"type"),
            prefix: b"",
            element: false,
        };
        let mut tag = TagLexer::spelled(&K3, false);
        let tail = b" tool=\"read\" index=\"1\"<|sep|>rest";
        let (n, push) = tag.scan(tail);
        assert_eq!(
            (n, push),
            (
                tail.len() - 4,
                Push::Done {
                    self_closing: false
                }
            )
        );
        assert_eq!(tag.name(), Some((&b"read"[..], 7)));
        let mut tag = TagLexer::spelled(&K3, true);
        tag.scan(b" key=path type=string<|sep|>");
        assert_eq!(tag.name(), Some((&b"path"[..], 5)));
        assert_eq!(tag.string(), Some(&b"string"[..]));
        // `name` is no name here, and a lone `>` ends nothing.
        let mut tag = TagLexer::spelled(&K3, false);
        tag.scan(b" name=\"x\"<|sep|>");
        assert_eq!(tag.name(), None);
        let mut tag = TagLexer::spelled(&K3, false);
        assert_eq!(tag.scan(b" tool=\"x\">"), (9, Push::Malformed));
        let mut tag = TagLexer::spelled(&K3, false);
        assert_eq!(tag.scan(b" tool=\"x\"<|open|>"), (11, Push::Malformed));
        let mut tag = TagLexer::spelled(&K3, false);
        assert!(matches!(tag.scan(b"<|sep|>").1, Push::Done { .. }));
        assert_eq!(tag.name(), None);
    }

    #[test]
    fn bounded() {
        let long = format!(" name=\"{}\">", "x".repeat(MAX_TAG));
        let (tag, n, push) = lex(&long);
        assert_eq!((n, push), (MAX_TAG, Push::TooLong));
        assert_eq!(tag.bytes().len(), MAX_TAG);
        let fits = format!(" name=\"{}\">", "x".repeat(MAX_TAG - 9));
        assert!(matches!(lex(&fits).2, Push::Done { .. }));
    }
}
