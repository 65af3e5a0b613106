//! Whether text is one JSON value as serde_json reads it into a `Value` (with this crate's
//! `arbitrary_precision`: any number of the JSON grammar), checked in one pass without
//! building the value or allocating: the check at a call's commit and at the end of each
//! raw parameter value. Text it cannot decide as serde_json would (an `\u` escape, whose
//! surrogates serde_json checks; a `private::` that could spell one of serde_json's
//! private keys; bytes that are not UTF-8) is left to the parser ([`Verdict::Unsure`]).

/// What [`check`] found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Verdict {
    /// One JSON object.
    Object,
    /// One JSON value that is not an object.
    Other,
    /// Not one JSON value.
    Invalid,
    /// Only the parser can tell.
    Unsure,
}

/// The deepest nesting accepted (the parser's, [`super::MAX_DEPTH`]).
const MAX_DEPTH: u32 = super::MAX_DEPTH as u32;

/// Checks `text` (see the module docs).
pub(crate) fn check(text: &[u8]) -> Verdict {
    if memchr::memmem::find(text, b"private::").is_some()
        || simdutf8::basic::from_utf8(text).is_err()
    {
        return Verdict::Unsure;
    }
    let mut r = Reader { text, at: 0 };
    r.blank();
    let object = r.peek() == Some(b'{');
    match r.value() {
        Ok(()) if r.at == text.len() && object => Verdict::Object,
        Ok(()) if r.at == text.len() => Verdict::Other,
        Ok(()) => Verdict::Invalid,
        Err(verdict) => verdict,
    }
}

struct Reader<'a> {
    text: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn peek(&self) -> Option<u8> {
        self.text.get(self.at).copied()
    }

    fn next(&mut self) -> Option<u8> {
        let byte = self.peek()?;
        self.at += 1;
        Some(byte)
    }

    /// Skips JSON whitespace (space, tab, line feed, carriage return).
    fn blank(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.at += 1;
        }
    }

    /// One value and the whitespace after it. Containers are walked with a bit stack
    /// (bit `i`: level `i` is an object), not by recursion.
    fn value(&mut self) -> Result<(), Verdict> {
        let (mut stack, mut depth) = (0u128, 0u32);
        loop {
            self.blank();
            match self.next() {
                Some(open @ (b'{' | b'[')) => {
                    depth += 1;
                    if depth > MAX_DEPTH {
                        return Err(Verdict::Invalid);
                    }
                    let is_object = open == b'{';
                    stack = (stack << 1) | u128::from(is_object);
                    self.blank();
                    if self.peek() == Some(if is_object { b'}' } else { b']' }) {
                        self.at += 1;
                        (stack, depth) = (stack >> 1, depth - 1);
                    } else {
                        if is_object {
                            self.key()?;
                        }
                        continue;
                    }
                }
                Some(b'"') => self.string()?,
                Some(b'-' | b'0'..=b'9') => self.number()?,
                Some(b't') => self.literal(b"rue")?,
                Some(b'f') => self.literal(b"alse")?,
                Some(b'n') => self.literal(b"ull")?,
                _ => return Err(Verdict::Invalid),
            }
            // After a value: the next member or element, or the end of containers.
            loop {
                self.blank();
                if depth == 0 {
                    return Ok(());
                }
                let is_object = stack & 1 == 1;
                match self.next() {
                    Some(b',') if is_object => {
                        self.key()?;
                        break;
                    }
                    Some(b',') => break,
                    Some(b'}') if is_object => (stack, depth) = (stack >> 1, depth - 1),
                    Some(b']') if !is_object => (stack, depth) = (stack >> 1, depth - 1),
                    _ => return Err(Verdict::Invalid),
                }
            }
        }
    }

    /// A member's key and its colon.
    fn key(&mut self) -> Result<(), Verdict> {
        self.blank();
        if self.next() != Some(b'"') {
            return Err(Verdict::Invalid);
        }
        self.string()?;
        self.blank();
        match self.next() {
            Some(b':') => Ok(()),
            _ => Err(Verdict::Invalid),
        }
    }

    /// The rest of a string, after its opening quote.
    fn string(&mut self) -> Result<(), Verdict> {
        loop {
            match self.next() {
                Some(b'"') => return Ok(()),
                Some(b'\\') => match self.next() {
                    Some(b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't') => {}
                    Some(b'u') => return Err(Verdict::Unsure),
                    _ => return Err(Verdict::Invalid),
                },
                Some(0x00..=0x1F) | None => return Err(Verdict::Invalid),
                Some(_) => {}
            }
        }
    }

    /// The rest of a number (RFC 8259), after its first byte.
    fn number(&mut self) -> Result<(), Verdict> {
        let first = self.text[self.at - 1];
        let lead = if first == b'-' {
            self.next()
        } else {
            Some(first)
        };
        match lead {
            Some(b'0') => {}
            Some(b'1'..=b'9') => self.digits(),
            _ => return Err(Verdict::Invalid),
        }
        if self.peek() == Some(b'.') {
            self.at += 1;
            self.some_digits()?;
        }
        if matches!(self.peek(), Some(b'e' | b'E')) {
            self.at += 1;
            if matches!(self.peek(), Some(b'+' | b'-')) {
                self.at += 1;
            }
            self.some_digits()?;
        }
        Ok(())
    }

    fn digits(&mut self) {
        while matches!(self.peek(), Some(b'0'..=b'9')) {
            self.at += 1;
        }
    }

    fn some_digits(&mut self) -> Result<(), Verdict> {
        let start = self.at;
        self.digits();
        if self.at == start {
            return Err(Verdict::Invalid);
        }
        Ok(())
    }

    fn literal(&mut self, rest: &[u8]) -> Result<(), Verdict> {
        if self.text[self.at..].starts_with(rest) {
            self.at += rest.len();
            Ok(())
        } else {
            Err(Verdict::Invalid)
        }
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    /// What the parser says of `text`.
    fn parsed(text: &[u8]) -> Verdict {
        match crate::json::parse(text) {
            Some(serde_json::Value::Object(_)) => Verdict::Object,
            Some(_) => Verdict::Other,
            None => Verdict::Invalid,
        }
    }

    #[track_caller]
    fn agrees(text: &[u8]) {
        let verdict = check(text);
        if verdict != Verdict::Unsure {
            assert_eq!(verdict, parsed(text), "{:?}", String::from_utf8_lossy(text));
        }
    }

    #[test]
    fn edges_as_the_parser() {
        let nested = |n: usize| format!("{{\"a\":{}1{}}}", "[".repeat(n), "]".repeat(n));
        for n in [0, 1, 125, 126, 127, 128, 200] {
            agrees(nested(n).as_bytes());
        }
        assert_eq!(check(nested(125).as_bytes()), Verdict::Object);
        assert_eq!(check(nested(200).as_bytes()), Verdict::Invalid);
        for text in [
            "",
            " ",
            "{}",
            " {} ",
            "[]",
            "[ ]",
            "{ }",
            "[1,]",
            "{\"a\":1,}",
            "{,}",
            "[,1]",
            "{\"a\"}",
            "{\"a\":}",
            "{1:2}",
            "{\"a\" : 1 , \"b\":[true,false,null]}",
            "\u{c}{}",
            "{}\u{c}",
            "0",
            "-0",
            "-",
            "01",
            "1.",
            "1.5",
            ".5",
            "1e",
            "1e+",
            "1E-7",
            "1e999",
            "-1.0e+10",
            "2x",
            "tru",
            "true",
            "truex",
            "nul",
            "null",
            "\"\"",
            "\"a",
            "\"\\x\"",
            "\"\\/\"",
            "\"\u{1}\"",
            "\"\u{7f}é日😀\"",
            "\"\t\"",
            "[1 2]",
            "{\"a\":1}{}",
            "{} x",
            "NaN",
            "Infinity",
            "[\"a\",{\"b\":[{}]}]",
            "\n\r\t[ 1 ]\n",
        ] {
            agrees(text.as_bytes());
        }
        for unsure in [
            &b"\"\\u00e9\""[..],
            b"{\"$serde_json::private::Number\": \"1\"}",
            b"\"\xff\"",
        ] {
            assert_eq!(check(unsure), Verdict::Unsure);
        }
    }

    const PIECES: &[&str] = &[
        "{", "}", "[", "]", "\"", "\\", ":", ",", " ", "\n", "\u{c}", "0", "1", "-", ".", "e", "+",
        "true", "fals", "null", "a", "é", "\u{1}", "\\n", "\\\"", "\\x", "{\"k\":", "\"s\"",
        "1e999",
    ];

    proptest! {
        #[test]
        fn agrees_with_the_parser(pieces in prop::collection::vec(prop::sample::select(PIECES), 0..24)) {
            agrees(pieces.concat().as_bytes());
        }
    }
}
