//! A streaming JSON structure lexer: tracks strings, escapes and nesting depth to find
//! where one JSON value ends, so that a closer inside a string stays argument text.
//! It does not validate; the value is parsed (with repair) by whoever needs it.

/// Byte classes for the structural scan outside strings.
const OTHER: u8 = 0;
const QUOTE: u8 = 1;
const OPEN: u8 = 2;
const CLOSE: u8 = 3;
const MARKUP: u8 = 4;

static CLASS: [u8; 256] = {
    let mut t = [OTHER; 256];
    t[b'"' as usize] = QUOTE;
    // Single-quoted strings are bounded repair (DESIGN.md): treating them as strings keeps
    // a brace inside one from moving the depth.
    t[b'\'' as usize] = QUOTE;
    t[b'{' as usize] = OPEN;
    t[b'[' as usize] = OPEN;
    t[b'}' as usize] = CLOSE;
    t[b']' as usize] = CLOSE;
    t[b'<' as usize] = MARKUP;
    t
};

/// JSON's own whitespace (RFC 8259): space, tab, line feed, carriage return.
#[inline(always)]
pub(crate) fn is_json_ws(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r')
}

/// Where the value stands after a scan.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Step {
    /// Every byte belongs to the value, which is not complete yet.
    More,
    /// The value ended: its last byte is just before this offset. A container or string
    /// ends after its closing byte; a bare scalar ends before the byte that ended it.
    Done(usize),
    /// The byte at this offset cannot occur here: markup outside a string, or a closing
    /// bracket with nothing open.
    Error(usize),
}

/// Lexer state for one JSON value. Fixed size; depth is a counter, not a stack, since
/// mismatched brackets are the parser's business, not the closer's.
#[derive(Debug, Clone, Copy)]
pub(crate) struct JsonValue {
    depth: u32,
    /// The quote byte of the string we are in, or 0.
    quote: u8,
    escape: bool,
    scalar: bool,
}

impl JsonValue {
    /// A lexer for a value whose first byte is the next one scanned (not whitespace).
    pub(crate) const fn new() -> Self {
        JsonValue {
            depth: 0,
            quote: 0,
            escape: false,
            scalar: false,
        }
    }

    /// Takes `bytes` whole when they all lie inside a string that they do not close
    /// (escapes included); otherwise leaves the state alone and returns false.
    #[inline(always)]
    pub(crate) fn take_inside_string(&mut self, bytes: &[u8]) -> bool {
        if self.quote == 0 {
            return false;
        }
        let mut escape = self.escape;
        let mut i = 0;
        loop {
            if escape {
                if i == bytes.len() {
                    break;
                }
                escape = false;
                i += 1;
                continue;
            }
            match find_quote_or_escape(self.quote, &bytes[i..]) {
                None => break,
                Some(k) if bytes[i + k] == self.quote => return false,
                Some(k) => {
                    escape = true;
                    i += k + 1;
                }
            }
        }
        self.escape = escape;
        true
    }

    /// Scans the next bytes of the value.
    pub(crate) fn scan(&mut self, bytes: &[u8]) -> Step {
        let mut i = 0;
        while i < bytes.len() {
            if self.quote != 0 {
                if self.escape {
                    self.escape = false;
                    i += 1;
                    continue;
                }
                match find_quote_or_escape(self.quote, &bytes[i..]) {
                    None => return Step::More,
                    Some(k) => {
                        i += k;
                        if bytes[i] == b'\\' {
                            self.escape = true;
                        } else {
                            self.quote = 0;
                            if self.depth == 0 {
                                return Step::Done(i + 1);
                            }
                        }
                        i += 1;
                    }
                }
                continue;
            }
            let b = bytes[i];
            if self.scalar {
                // Markup right after a bare scalar ends it; what the markup means is the
                // caller's business.
                if matches!(b, b',' | b'}' | b']' | b' ' | b'\t' | b'\r' | b'\n' | b'<') {
                    return Step::Done(i);
                }
                i += 1;
                continue;
            }
            match CLASS[b as usize] {
                QUOTE => self.quote = b,
                OPEN => self.depth = self.depth.saturating_add(1),
                CLOSE => {
                    if self.depth <= 1 {
                        return if self.depth == 1 {
                            Step::Done(i + 1)
                        } else {
                            Step::Error(i)
                        };
                    }
                    self.depth -= 1;
                }
                MARKUP => return Step::Error(i),
                _ => {
                    if self.depth == 0 {
                        self.scalar = true;
                    }
                }
            }
            i += 1;
        }
        Step::More
    }
}

/// Offset of the first `quote` or backslash in `haystack`.
#[inline(always)]
fn find_quote_or_escape(quote: u8, haystack: &[u8]) -> Option<usize> {
    // Token-sized chunks: a plain loop beats the set-up of a vector search.
    if cfg!(feature = "no-skip") || haystack.len() < 16 {
        return haystack.iter().position(|&b| b == quote || b == b'\\');
    }
    memchr::memchr2(quote, b'\\', haystack)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(parts: &[&str]) -> (Step, usize) {
        let mut lexer = JsonValue::new();
        let mut consumed = 0;
        for part in parts {
            match lexer.scan(part.as_bytes()) {
                Step::More => consumed += part.len(),
                other => return (other, consumed),
            }
        }
        (Step::More, consumed)
    }

    #[test]
    fn closer_inside_string_is_not_structure() {
        assert_eq!(run(&[r#"{"a": "</tool_call> }"}x"#]), (Step::Done(23), 0));
    }

    #[test]
    fn escaped_quote_split_across_chunks() {
        assert_eq!(run(&[r#"{"a": "x\"#, r#"" }"}, "#]), (Step::Done(5), 9));
    }

    #[test]
    fn scalar_ends_before_delimiter() {
        assert_eq!(run(&["12", "3,"]), (Step::Done(1), 2));
        assert_eq!(run(&["\"str\" "]), (Step::Done(5), 0));
        assert_eq!(run(&["true</tool_call>"]), (Step::Done(4), 0));
    }

    #[test]
    fn markup_outside_string_is_an_error() {
        assert_eq!(run(&["{\"a\": 1", "</tool_call>"]), (Step::Error(0), 7));
        assert_eq!(run(&["}"]), (Step::Error(0), 0));
    }

    #[test]
    fn token_pieces_inside_a_string_are_taken_whole() {
        let mut lexer = JsonValue::new();
        assert_eq!(lexer.scan(b"\"ab"), Step::More);
        assert!(lexer.take_inside_string(b"c\\"));
        assert!(
            lexer.escape,
            "an escape at the end of a piece stays pending"
        );
        assert!(lexer.take_inside_string(b"\"d\\n"));
        assert!(!lexer.escape);
        let before = lexer;
        assert!(
            !lexer.take_inside_string(b"x\" }"),
            "a closing quote needs the full scan"
        );
        assert_eq!((lexer.quote, lexer.escape), (before.quote, before.escape));
        assert_eq!(lexer.scan(b"x\" }"), Step::Done(2));
        assert!(
            !JsonValue::new().take_inside_string(b"abc"),
            "not inside a string"
        );
    }

    #[test]
    fn single_quoted_braces_do_not_count() {
        assert_eq!(run(&["{'a': '{{'}"]), (Step::Done(11), 0));
    }
}
