//! UTF-8 checking of the content and reasoning streams, fed in pieces.

use inband::Span;

/// Finds the bytes of one text stream (content or reasoning), fed in pieces, that are not
/// UTF-8, and where they are in the input. A code point split between pieces is fine.
/// Allocation-free: a split code point waits in a 4-byte array.
#[derive(Debug, Default)]
pub(super) struct Utf8Check {
    /// The start of a code point the last piece ended in (at most 3 bytes), and its stream
    /// offset.
    carry: [u8; 4],
    carry_len: usize,
    carry_start: u64,
}

impl Utf8Check {
    /// No code point waits for the next piece.
    pub(super) fn is_clear(&self) -> bool {
        self.carry_len == 0
    }

    /// Forgets the code point waiting for the next piece (the response was cut inside it);
    /// returns how many of its bytes were taken already.
    pub(super) fn take_carry(&mut self) -> usize {
        std::mem::take(&mut self.carry_len)
    }

    #[inline]
    pub(super) fn check(&mut self, start: u64, bytes: &[u8], found: &mut Vec<Span>) {
        if self.carry_len == 0 && bytes.len() <= 32 && bytes.iter().all(|&b| b < 0x80) {
            // A decode step's few bytes, nearly always ASCII: no validator's setup.
            return;
        }
        self.check_slow(start, bytes, found);
    }

    fn check_slow(&mut self, start: u64, bytes: &[u8], found: &mut Vec<Span>) {
        let rest = if self.carry_len == 0 {
            0
        } else {
            match self.check_carry(start, bytes, found) {
                Some(rest) => rest,
                None => return,
            }
        };
        let bytes = bytes.get(rest..).unwrap_or_default();
        let base = start + rest as u64;
        // SIMD: text is nearly always valid, and this is its one check on the way in.
        if simdutf8::basic::from_utf8(bytes).is_ok() {
            return;
        }
        let mut from = 0;
        while let Err(e) = simdutf8::compat::from_utf8(&bytes[from..]) {
            let bad = from + e.valid_up_to();
            match e.error_len() {
                Some(n) => {
                    found.push(Span::new(base + bad as u64, base + (bad + n) as u64));
                    from = bad + n;
                }
                None => {
                    self.keep(&bytes[bad..], base + bad as u64);
                    return;
                }
            }
        }
    }

    /// Checks the carried bytes joined with the first bytes of the next piece (on the
    /// stack: at most 3 + 4 bytes); returns where in `bytes` the check goes on, at a code
    /// point boundary past the carry, or `None` when the piece is used up.
    fn check_carry(&mut self, start: u64, bytes: &[u8], found: &mut Vec<Span>) -> Option<usize> {
        let carried = self.carry_len;
        let carry_start = self.carry_start;
        let more = bytes.len().min(4);
        let mut head = [0u8; 8];
        head[..carried].copy_from_slice(&self.carry[..carried]);
        head[carried..carried + more].copy_from_slice(&bytes[..more]);
        let head = &head[..carried + more];
        self.carry_len = 0;
        let at = |i: usize| {
            if i < carried {
                carry_start + i as u64
            } else {
                start + (i - carried) as u64
            }
        };
        let mut from = 0;
        while from < carried {
            match simdutf8::compat::from_utf8(&head[from..]) {
                Ok(_) => from = head.len(),
                Err(e) => {
                    let bad = from + e.valid_up_to();
                    if bad >= carried {
                        from = bad;
                        break;
                    }
                    match e.error_len() {
                        Some(n) => {
                            found.push(Span::new(at(bad), at(bad + n - 1) + 1));
                            from = bad + n;
                        }
                        None => {
                            // Four bytes after a lead byte complete or break its code
                            // point: only a piece shorter than that ends here.
                            self.keep(&head[bad..], at(bad));
                            return None;
                        }
                    }
                }
            }
        }
        Some(from - carried)
    }

    /// Keeps the start of a code point cut off by the end of a piece.
    fn keep(&mut self, bytes: &[u8], start: u64) {
        let len = bytes.len().min(self.carry.len());
        self.carry[..len].copy_from_slice(&bytes[..len]);
        self.carry_len = len;
        self.carry_start = start;
    }

    pub(super) fn finish(&mut self, found: &mut Vec<Span>) {
        if self.carry_len > 0 {
            let end = self.carry_start + self.carry_len as u64;
            found.push(Span::new(self.carry_start, end));
            self.carry_len = 0;
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
