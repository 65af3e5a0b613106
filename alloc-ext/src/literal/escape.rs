//! String contents of a literal value: escape sequences decoded, f-string braces and
//! fields, surrogate pairs.

use inband::ValueKind;

use crate::params::push_escaped;

use super::LiteralValue;

impl LiteralValue {
    /// One byte of escaped string contents.
    #[inline]
    pub(super) fn escaped(&mut self, b: u8, out: &mut Vec<u8>) {
        if self.escape.is_empty() {
            if b == b'\\' {
                self.escape.push(b);
            } else if self.fstring {
                self.fstring_byte(b, out);
            } else {
                self.char_byte(b, out);
            }
            return;
        }
        self.escape.push(b);
        let python = self.kind == ValueKind::Python;
        match self.escape[1] {
            b'0'..=b'7' => self.octal_escape(out),
            b'x' | b'u' | b'U' => self.hex_escape(python, out),
            b'N' if python => self.name_escape(out),
            other => self.one_byte_escape(other, python, out),
        }
    }

    /// `\NNN`, up to three octal digits: the escape is only known to have ended at its
    /// third digit or at the first byte that is not one, which is then contents again.
    #[inline]
    fn octal_escape(&mut self, out: &mut Vec<u8>) {
        let esc = &self.escape[1..];
        let digits = esc.iter().take_while(|d| matches!(d, b'0'..=b'7')).count();
        if digits == esc.len() && digits < 3 {
            return;
        }
        let value = esc[..digits]
            .iter()
            .fold(0u32, |n, d| n * 8 + u32::from(d - b'0'));
        let rest = esc[digits..].to_vec();
        self.escape.clear();
        self.code_point(value, out);
        for b in rest {
            self.escaped(b, out);
        }
    }

    /// `\xHH`, `\uHHHH` and (Python only) `\UHHHHHHHH`: held until all their digits have
    /// come, since a code point is written whole; a non-hex digit, or `\U` in a Gemma
    /// string, is not an escape and its text is kept.
    #[inline]
    fn hex_escape(&mut self, python: bool, out: &mut Vec<u8>) {
        let esc = &self.escape[1..];
        let want = match esc[0] {
            b'x' => 2,
            b'u' => 4,
            _ if python => 8,
            _ => 0,
        };
        let hex = &esc[1..];
        if want == 0 || !hex.last().is_none_or(u8::is_ascii_hexdigit) {
            // Not an escape Python accepts: its text is kept.
            self.repaired = true;
            let text = std::mem::take(&mut self.escape);
            let (last, text) = text.split_last().unwrap_or((&0, &[]));
            if want == 0 {
                for &c in text {
                    self.char_byte(c, out);
                }
                self.char_byte(*last, out);
            } else {
                for &c in text {
                    self.char_byte(c, out);
                }
                self.escaped(*last, out);
            }
            return;
        }
        if hex.len() < want {
            return;
        }
        let value = hex
            .iter()
            .fold(0u32, |n, d| n * 16 + (*d as char).to_digit(16).unwrap_or(0));
        self.escape.clear();
        self.code_point(value, out);
    }

    /// `\N{NAME}` (Python): the name table is not carried, so the escape is kept as
    /// written (a repair), gathered whole so that its braces are not an f-string field.
    #[inline]
    fn name_escape(&mut self, out: &mut Vec<u8>) {
        let esc = &self.escape[1..];
        let name = &esc[1..];
        let whole = match name {
            [] => return,
            [b'{'] => return,
            [b'{', .., b'}'] => true,
            [b'{', .., last] if is_name_byte(*last) && esc.len() <= MAX_NAME_ESCAPE => return,
            _ => false,
        };
        self.repaired = true;
        let text = std::mem::take(&mut self.escape);
        let (kept, rest) = if whole {
            (&text[..], &[][..])
        } else {
            text.split_at(text.len() - 1)
        };
        self.flush_high(out);
        push_escaped(kept, out);
        for &c in rest {
            self.escaped(c, out);
        }
    }

    /// An escape complete at its one byte after the backslash, `c`: a control or quote
    /// character, a backslash-newline (nothing), or an unknown escape, which keeps its
    /// backslash as Python does.
    #[inline]
    fn one_byte_escape(&mut self, c: u8, python: bool, out: &mut Vec<u8>) {
        let done = match c {
            b'\n' => None,
            b'n' => Some(b'\n'),
            b't' => Some(b'\t'),
            b'r' => Some(b'\r'),
            b'\\' => Some(b'\\'),
            b'\'' => Some(b'\''),
            b'"' => Some(b'"'),
            b'a' if python => Some(0x07),
            b'b' => Some(0x08),
            b'f' => Some(0x0c),
            b'v' if python => Some(0x0b),
            b'/' if !python => Some(b'/'),
            other => {
                // Unknown escapes keep their backslash (Python); `\N{…}` names are not
                // decoded.
                self.escape.clear();
                self.flush_high(out);
                push_escaped(&[b'\\', other], out);
                return;
            }
        };
        self.escape.clear();
        if let Some(c) = done {
            self.char_byte(c, out);
        } else {
            self.flush_high(out);
        }
    }

    /// A decoded code point from an escape; surrogate halves pair up.
    fn code_point(&mut self, value: u32, out: &mut Vec<u8>) {
        if (0xD800..0xDC00).contains(&value) {
            self.flush_high(out);
            self.high = Some(value);
            return;
        }
        let value = match self.high.take() {
            Some(high) if (0xDC00..0xE000).contains(&value) => {
                0x10000 + ((high - 0xD800) << 10) + (value - 0xDC00)
            }
            Some(_) => {
                out.extend_from_slice("\u{FFFD}".as_bytes());
                value
            }
            None => value,
        };
        let c = char::from_u32(value).unwrap_or(char::REPLACEMENT_CHARACTER);
        let mut utf8 = [0u8; 4];
        push_escaped(c.encode_utf8(&mut utf8).as_bytes(), out);
    }

    /// A lone high surrogate is U+FFFD.
    pub(super) fn flush_high(&mut self, out: &mut Vec<u8>) {
        if self.high.take().is_some() {
            out.extend_from_slice("\u{FFFD}".as_bytes());
        }
    }

    /// One literal byte of string contents.
    pub(super) fn char_byte(&mut self, b: u8, out: &mut Vec<u8>) {
        self.flush_high(out);
        push_escaped(&[b], out);
    }

    /// One byte of an f-string's contents, outside escapes: `{{` is `{`, `}}` is `}`, and a
    /// replacement field `{…}` (not a literal: its value is unknown here) is kept as text,
    /// a repair.
    pub(super) fn fstring_byte(&mut self, b: u8, out: &mut Vec<u8>) {
        if self.field > 0 {
            match b {
                b'{' => self.field += 1,
                b'}' => self.field -= 1,
                _ => {}
            }
            return self.char_byte(b, out);
        }
        if let Some(held) = self.brace.take() {
            if b == held {
                return self.char_byte(b, out);
            }
            self.repaired = true;
            self.char_byte(held, out);
            if held == b'{' {
                self.field = 1;
                return self.fstring_byte(b, out);
            }
        }
        if matches!(b, b'{' | b'}') {
            self.brace = Some(b);
        } else {
            self.char_byte(b, out);
        }
    }

    /// The string ended: a pending octal escape (`\0`, `\12`: fewer than three digits,
    /// the closing quote ends it) is decoded; any other unfinished escape is kept as text.
    pub(super) fn end_escape(&mut self, out: &mut Vec<u8>) {
        if self.escape.len() > 1 && self.escape[1..].iter().all(|d| matches!(d, b'0'..=b'7')) {
            let value = self.escape[1..]
                .iter()
                .fold(0u32, |n, d| n * 8 + u32::from(d - b'0'));
            self.escape.clear();
            self.code_point(value, out);
        }
        if !self.escape.is_empty() {
            self.repaired = true;
            let text = std::mem::take(&mut self.escape);
            for b in text {
                self.char_byte(b, out);
            }
        }
        if let Some(held) = self.brace.take() {
            self.repaired = true;
            self.char_byte(held, out);
        }
        self.repaired |= self.field > 0;
        self.field = 0;
        self.flush_high(out);
    }
}

/// The longest `\N{…}` escape gathered: the longest character name has 88 bytes.
const MAX_NAME_ESCAPE: usize = 100;

/// A byte of a Unicode character name (Python looks names up without regard to case).
fn is_name_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b' ' || b == b'-'
}
