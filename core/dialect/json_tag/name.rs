//! Tool names as a JSON string writes them, and the check every name of the family passes
//! (docs/dialects.md rule 9).

use arrayvec::ArrayVec;

use super::{Envelope, JsonTag, Key};
use crate::engine::frame::Frame;
use crate::options::MAX_NAME;
use crate::{Diagnostic, Sink, Span};

impl JsonTag {
    /// The name string closed; reports it, or says why the call is invalid.
    pub(super) fn name_done<S: Sink>(
        &mut self,
        frame: &mut Frame,
        span: Span,
        sink: &mut S,
    ) -> Option<Diagnostic> {
        let call = &mut self.call;
        call.has_name = true;
        if self.modes.keyed {
            // `{"NAME": …}`: the name was the key; its value is the arguments.
            call.envelope = Envelope::Colon;
            call.key_kind = Key::Arguments;
        } else {
            call.envelope = Envelope::Next;
        }
        let decoded;
        let name = if call.name.contains(&b'\\') {
            let Some(name) = decode_name(&call.name) else {
                return Some(Diagnostic::InvalidName);
            };
            decoded = name;
            decoded.as_slice()
        } else {
            call.name.as_slice()
        };
        let name = name.trim_ascii();
        if name.is_empty()
            || (!name.is_ascii() && core::str::from_utf8(name).is_err())
            || name.iter().any(|&b| {
                b.is_ascii_whitespace()
                    || b.is_ascii_control()
                    || matches!(b, b'<' | b'>' | b'"' | b'\'' | b'\\')
            })
        {
            return Some(Diagnostic::InvalidName);
        }
        frame.name(span, name, sink);
        None
    }
}

/// The name as JSON decodes it: `\uXXXX` escapes (surrogate pairs included) become UTF-8,
/// `\/` a slash; any other escape (quotes, backslashes, whitespace) cannot be in a name.
/// Models trained on `json.dumps` output escape non-ASCII names this way.
pub(super) fn decode_name(raw: &[u8]) -> Option<ArrayVec<u8, MAX_NAME>> {
    let mut out = ArrayVec::new();
    let mut i = 0;
    while i < raw.len() {
        if raw[i] != b'\\' {
            out.push(raw[i]);
            i += 1;
            continue;
        }
        match raw.get(i + 1)? {
            b'/' => {
                out.push(b'/');
                i += 2;
            }
            b'u' => {
                let high = hex4(raw.get(i + 2..i + 6)?)?;
                i += 6;
                let code = if (0xD800..0xDC00).contains(&high) {
                    let low = match raw.get(i..i + 2)? {
                        b"\\u" => hex4(raw.get(i + 2..i + 6)?)?,
                        _ => return None,
                    };
                    if !(0xDC00..0xE000).contains(&low) {
                        return None;
                    }
                    i += 6;
                    0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)
                } else {
                    high
                };
                let c = char::from_u32(code)?;
                let mut utf8 = [0u8; 4];
                // Decoding only shortens: `\uXXXX` is 6 bytes, its UTF-8 at most 3 (4 for 12).
                out.try_extend_from_slice(c.encode_utf8(&mut utf8).as_bytes())
                    .ok()?;
            }
            _ => return None,
        }
    }
    Some(out)
}

fn hex4(digits: &[u8]) -> Option<u32> {
    digits
        .iter()
        .try_fold(0u32, |n, &d| Some(n * 16 + (d as char).to_digit(16)?))
}
