//! UTF-8 checking of the content and reasoning streams, fed in pieces.

use inband::Span;

/// Finds the bytes of one text stream (content or reasoning), fed in pieces, that are not
/// UTF-8, and where they are in the input. A code point split between pieces is fine.
#[derive(Debug, Default)]
pub(super) struct Utf8Check {
    /// The start of a code point the last piece ended in, and its stream offset.
    carry: Vec<u8>,
    carry_start: u64,
}

impl Utf8Check {
    pub(super) fn check(&mut self, start: u64, bytes: &[u8], found: &mut Vec<Span>) {
        // SIMD: text is nearly always valid, and this is its one check on the way in.
        if self.carry.is_empty() && simdutf8::basic::from_utf8(bytes).is_ok() {
            return;
        }
        let carried = self.carry.len();
        let carry_start = self.carry_start;
        let mut data = std::mem::take(&mut self.carry);
        data.extend_from_slice(bytes);
        let at = |i: usize| {
            if i < carried {
                carry_start + i as u64
            } else {
                start + (i - carried) as u64
            }
        };
        let mut from = 0;
        while let Err(e) = simdutf8::compat::from_utf8(&data[from..]) {
            let bad = from + e.valid_up_to();
            match e.error_len() {
                Some(n) => {
                    found.push(Span::new(at(bad), at(bad + n - 1) + 1));
                    from = bad + n;
                }
                None => {
                    self.carry = data[bad..].to_vec();
                    self.carry_start = at(bad);
                    return;
                }
            }
        }
    }

    pub(super) fn finish(&mut self, found: &mut Vec<Span>) {
        if !self.carry.is_empty() {
            let end = self.carry_start + self.carry.len() as u64;
            found.push(Span::new(self.carry_start, end));
            self.carry.clear();
        }
    }
}

/// `bytes` as text (invalid sequences replaced with U+FFFD) without the whitespace at
/// either end: in place, so valid text is neither copied nor allocated again.
pub(super) fn trimmed_text(bytes: Vec<u8>) -> String {
    let mut text = match String::from_utf8(bytes) {
        Ok(text) => text,
        Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
    };
    text.truncate(text.trim_end().len());
    let lead = text.len() - text.trim_start().len();
    if lead > 0 {
        text.drain(..lead);
    }
    // The completion keeps no slack of the growing buffer (shrinking in place, not a copy,
    // for a large one).
    text.shrink_to_fit();
    text
}
