//! The first value of a repeated key wins, in every object of the arguments, as the
//! arguments' JSON text streams.
//!
//! [`FirstKeyWins`] sits between whatever writes a call's argument text (the
//! [`ArgumentsNormalizer`](inband::ArgumentsNormalizer)'s output, or the JSON built from
//! parameters) and the text that is streamed and parsed. A key is held back while it is
//! written (with the comma and whitespace before it); once its closing quote arrives, it is
//! compared, decoded (`"p\u0061th"` is `"path"`), with the keys before it in the same
//! object. A new key goes out; a repeated one is left out with its comma, its colon and its
//! value, so the text that goes out never holds a duplicate and every JSON parser reads it
//! the same (serde_json and Python keep the last value of a duplicate, Rust's lookups the
//! first). A left-out member must be `: value` with one JSON value, else
//! [`FirstKeyWins::invalid`] says so and the arguments do not parse. Text that is not JSON
//! passes through unchanged.

mod keys;

use keys::Keys;

/// Where in an object the text is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum At {
    /// After `{` or `,`: a key may come.
    Key,
    /// Inside or after a key, before its value ends.
    Value,
}

#[derive(Debug)]
enum Frame {
    Array,
    /// `keys`: where its keys start in [`FirstKeyWins::keys`].
    Object {
        keys: usize,
        at: At,
    },
}

/// Duplicates found by one [`FirstKeyWins::feed`]: at the top level (parameters of the
/// call) and in nested objects.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Duplicates {
    pub(crate) parameters: u32,
    pub(crate) nested: u32,
}

impl Duplicates {
    /// Adds `other`'s counts.
    pub(crate) fn add(&mut self, other: Duplicates) {
        self.parameters += other.parameters;
        self.nested += other.nested;
    }
}

/// A streaming filter of one call's argument text that leaves out every repeated key and
/// its value (see [the module docs](self)). Memory: the keys of the open objects and the
/// key being written.
#[derive(Debug, Default)]
pub(crate) struct FirstKeyWins {
    stack: Vec<Frame>,
    /// The keys of the open objects.
    keys: Keys,
    in_string: bool,
    escaped: bool,
    /// The string being written is a key (held in `held`).
    in_key: bool,
    /// Bytes held back: the comma, whitespace and key text of a member not yet decided.
    held: Vec<u8>,
    /// Where `held`'s key starts.
    key_start: usize,
    /// Leaving out a repeated member of the object at this stack depth.
    skip: Option<usize>,
    /// The text of the member being left out after its key (`: value`), checked when it
    /// ends.
    skipped: Vec<u8>,
    /// A left-out member was not `: value` with one JSON value: the arguments are not
    /// JSON, whatever is left.
    invalid: bool,
}

impl FirstKeyWins {
    /// Filters the next `bytes` of argument text into `out`; returns the duplicates whose
    /// key was completed by them.
    pub(crate) fn feed(&mut self, bytes: &[u8], out: &mut Vec<u8>) -> Duplicates {
        let mut found = Duplicates::default();
        let mut i = 0;
        while let Some(&b) = bytes.get(i) {
            if self.in_string && !self.escaped && !self.in_key {
                // A value string's body: only its escapes and its end change anything, so
                // the run up to the next of them goes out at once (a long argument is
                // nearly all such runs).
                let rest = &bytes[i..];
                let special = |&b: &u8| b == b'"' || b == b'\\';
                let run = if rest.len() < 32 {
                    // (Fewer bytes than the vector search's setup costs.)
                    rest.iter().position(special)
                } else {
                    memchr::memchr2(b'"', b'\\', rest)
                }
                .unwrap_or(rest.len());
                if run > 0 {
                    let to = if self.skip.is_none() {
                        &mut *out
                    } else {
                        &mut self.skipped
                    };
                    to.extend_from_slice(&rest[..run]);
                    i += run;
                    continue;
                }
            }
            self.byte(b, out, &mut found);
            i += 1;
        }
        found
    }

    /// The text ended (a call cut off): the held bytes go out as they are.
    pub(crate) fn finish(&mut self, out: &mut Vec<u8>) {
        if self.skip.is_none() {
            out.append(&mut self.held);
        }
        let invalid = self.invalid;
        self.reset(usize::MAX);
        self.invalid = invalid;
    }

    /// Back to a new filter's state, its buffers kept; false when they are larger than
    /// `small` bytes (not worth keeping for another call).
    pub(crate) fn reset(&mut self, small: usize) -> bool {
        let FirstKeyWins {
            stack,
            keys,
            in_string,
            escaped,
            in_key,
            held,
            key_start,
            skip,
            skipped,
            invalid,
        } = self;
        stack.clear();
        held.clear();
        skipped.clear();
        (*in_string, *escaped, *in_key, *key_start, *skip, *invalid) =
            (false, false, false, 0, None, false);
        keys.clear(small)
            && held.capacity() <= small
            && skipped.capacity() <= small
            && stack.capacity() * std::mem::size_of::<Frame>() <= small
    }

    /// Whether a left-out member's value was not one JSON value: leaving it out must not
    /// turn text that is not JSON into JSON, so such arguments do not parse.
    pub(crate) fn invalid(&self) -> bool {
        self.invalid
    }

    fn byte(&mut self, b: u8, out: &mut Vec<u8>, found: &mut Duplicates) {
        if self.in_string {
            if self.escaped {
                self.escaped = false;
            } else if b == b'\\' {
                self.escaped = true;
            } else if b == b'"' {
                self.in_string = false;
            }
            if self.in_key {
                self.held.push(b);
                if !self.in_string {
                    self.in_key = false;
                    self.key_done(out, found);
                }
            } else if self.skip.is_none() {
                out.push(b);
            } else {
                self.skipped.push(b);
            }
            return;
        }
        let depth = self.stack.len();
        let object_at = match self.stack.last() {
            Some(Frame::Object { at, .. }) => Some(*at),
            _ => None,
        };
        if self.skip == Some(depth) && matches!(b, b',' | b'}') {
            // The left-out member ends here; what follows is the object's own.
            self.skip = None;
            self.check_skipped();
        }
        match b {
            b'"' => {
                self.in_string = true;
                if object_at == Some(At::Key) && self.skip.is_none() {
                    self.in_key = true;
                    self.key_start = self.held.len();
                    self.held.push(b);
                    self.set_at(At::Value);
                    return;
                }
            }
            b',' if object_at.is_some() => {
                self.set_at(At::Key);
                if self.skip.is_none() {
                    self.held.push(b);
                    return;
                }
            }
            b'{' => self.stack.push(Frame::Object {
                keys: self.keys.open(),
                at: At::Key,
            }),
            b'[' => self.stack.push(Frame::Array),
            b'}' | b']' => {
                if let Some(Frame::Object { keys, .. }) = self.stack.pop() {
                    self.keys.close(keys);
                }
                if self.skip.is_none() {
                    // Whitespace or a trailing comma held before the closer.
                    out.append(&mut self.held);
                }
            }
            _ if !self.held.is_empty() && self.skip.is_none() => {
                // Whitespace between a comma and its key, or text that is not JSON.
                self.held.push(b);
                if !b.is_ascii_whitespace() {
                    out.append(&mut self.held);
                }
                return;
            }
            _ => {}
        }
        if self.skip.is_none() {
            out.push(b);
        } else {
            self.skipped.push(b);
        }
    }

    /// A left-out member ended: it must have been `: value`.
    fn check_skipped(&mut self) {
        let skipped = std::mem::take(&mut self.skipped);
        let value = skipped.trim_ascii_start().strip_prefix(b":");
        let one_value = value
            .is_some_and(|value| serde_json::from_slice::<serde::de::IgnoredAny>(value).is_ok());
        self.invalid |= !one_value;
    }

    fn set_at(&mut self, new: At) {
        if let Some(Frame::Object { at, .. }) = self.stack.last_mut() {
            *at = new;
        }
    }

    /// A key's closing quote arrived: let the member through or leave it out.
    fn key_done(&mut self, out: &mut Vec<u8>, found: &mut Duplicates) {
        let depth = self.stack.len();
        // Compared as every consumer reads the key: bytes that are not UTF-8 are U+FFFD to
        // them (the text goes out through a lossy conversion), so `"\x88a"` and `"\x90a"`
        // are one key.
        let Some(&Frame::Object { keys: from, .. }) = self.stack.last() else {
            out.append(&mut self.held);
            return;
        };
        let key = &self.held[self.key_start..];
        let new = match plain_key(key) {
            // What serde_json decodes it to, without decoding it.
            Some(text) => self.keys.insert(from, text),
            None => {
                let raw = String::from_utf8_lossy(key);
                let key = serde_json::from_str::<String>(&raw)
                    .map(String::into_bytes)
                    .unwrap_or_else(|_| raw.as_bytes().to_vec());
                self.keys.insert(from, &key)
            }
        };
        if new {
            out.append(&mut self.held);
            return;
        }
        self.held.clear();
        self.skip = Some(depth);
        if depth == 1 {
            found.parameters += 1;
        } else {
            found.nested += 1;
        }
    }
}

/// The text of a key written as a JSON string without escapes, in UTF-8 and without
/// control bytes (nearly every key): the bytes between its quotes, exactly what a JSON
/// parser reads it as. `None` for any other key.
fn plain_key(key: &[u8]) -> Option<&[u8]> {
    let text = key.strip_prefix(b"\"")?.strip_suffix(b"\"")?;
    let plain = !text.iter().any(|&b| b == b'\\' || b < 0x20)
        && (text.is_ascii() || std::str::from_utf8(text).is_ok());
    plain.then_some(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Filters `text` in pieces of `n` bytes: the output and the duplicates found.
    fn filter(text: &str, n: usize) -> (String, Duplicates) {
        let mut filter = FirstKeyWins::default();
        let mut out = Vec::new();
        let mut all = Duplicates::default();
        for piece in text.as_bytes().chunks(n) {
            all.add(filter.feed(piece, &mut out));
        }
        filter.finish(&mut out);
        (String::from_utf8(out).unwrap(), all)
    }

    fn dups(parameters: u32, nested: u32) -> Duplicates {
        Duplicates { parameters, nested }
    }

    #[test]
    fn first_value_wins_at_every_level() {
        for (text, expected, found) in [
            (
                r#"{"path": "/tmp/safe", "path": "/"}"#,
                r#"{"path": "/tmp/safe"}"#,
                dups(1, 0),
            ),
            (
                r#"{"a":1,"a":{"x":[1,{"a":2}]},"b":2}"#,
                r#"{"a":1,"b":2}"#,
                dups(1, 0),
            ),
            (
                r#"{"o":{"k":1,"k":2,"j":"}"},"p\u0061th":3,"path":4}"#,
                r#"{"o":{"k":1,"j":"}"},"p\u0061th":3}"#,
                dups(1, 1),
            ),
            (
                r#"{"l":[{"k":1,"k":2},{"k":3}]}"#,
                r#"{"l":[{"k":1},{"k":3}]}"#,
                dups(0, 1),
            ),
            (
                r#"{"a":1 , "b":"a,\"a\":2"}"#,
                r#"{"a":1 , "b":"a,\"a\":2"}"#,
                dups(0, 0),
            ),
            (r#"["a","a",{"a":1}]"#, r#"["a","a",{"a":1}]"#, dups(0, 0)),
            (r#"{"a":1,}"#, r#"{"a":1,}"#, dups(0, 0)),
            ("not json, \"x\"", "not json, \"x\"", dups(0, 0)),
        ] {
            for n in 1..=text.len() {
                assert_eq!(
                    filter(text, n),
                    (expected.to_owned(), found),
                    "{text} / {n}"
                );
            }
        }
    }

    #[test]
    fn keys_that_read_the_same_after_lossy_decoding_are_one_key() {
        let mut filter = FirstKeyWins::default();
        let mut out = Vec::new();
        let found = filter.feed(
            b"{\"\x88a\":1,\"\x90a\":2,\"\xef\xbf\xbda\":3,\"b\":4}",
            &mut out,
        );
        filter.finish(&mut out);
        assert_eq!(out, b"{\"\x88a\":1,\"b\":4}");
        assert_eq!(found, dups(2, 0));
    }

    #[test]
    fn a_left_out_value_must_be_json() {
        for (text, invalid) in [
            (r#"{"a":1,"a" : [2, {"b": "}"}] }"#, false),
            (r#"{"a":1,"a":2 3}"#, true),
            (r#"{"a":1,"a" 2}"#, true),
            (r#"{"a":1,"a":}"#, true),
            (r#"{"a":1,"a":{"x":1,"x":2}}"#, false),
        ] {
            let mut filter = FirstKeyWins::default();
            let mut out = Vec::new();
            filter.feed(text.as_bytes(), &mut out);
            filter.finish(&mut out);
            assert_eq!(filter.invalid(), invalid, "{text}");
        }
    }

    #[test]
    fn cut_off_text_keeps_what_was_held() {
        assert_eq!(filter(r#"{"a":1, "b"#, 3).0, r#"{"a":1, "b"#);
        assert_eq!(filter(r#"{"a":1,"a":[2"#, 3).0, r#"{"a":1"#);
    }
}
