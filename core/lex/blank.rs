//! Whitespace held after a candidate delimiter while the next byte decides whether it
//! counts (docs/dialects.md rule 4: the markup family's `</parameter>`; Gemma's `<|"|>`,
//! docs/dialects.md §gemma).

use arrayvec::ArrayVec;

use crate::options::MAX_LOOKAHEAD;

/// Up to [`MAX_LOOKAHEAD`] bytes of space, tab, line feed or carriage return (JSON's
/// whitespace), two bits each, so that the look-ahead costs 9 bytes of scanner state, not
/// 33.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Blank {
    bits: u64,
    len: u8,
}

const BLANK_BYTES: [u8; 4] = [b' ', b'\t', b'\n', b'\r'];
const _: () = assert!(
    MAX_LOOKAHEAD * 2 <= 64,
    "the look-ahead fits two bits a byte"
);

impl Blank {
    /// Nothing held.
    pub(crate) const EMPTY: Blank = Blank { bits: 0, len: 0 };

    /// Keeps `b` if it is whitespace and there is room; false otherwise.
    pub(crate) fn push(&mut self, b: u8) -> bool {
        let code = match b {
            b' ' => 0,
            b'\t' => 1,
            b'\n' => 2,
            b'\r' => 3,
            _ => return false,
        };
        if usize::from(self.len) == MAX_LOOKAHEAD {
            return false;
        }
        self.bits |= code << (2 * self.len);
        self.len += 1;
        true
    }

    /// How many bytes are held.
    pub(crate) fn len(self) -> usize {
        usize::from(self.len)
    }

    /// The bytes held, in order.
    pub(crate) fn bytes(self) -> ArrayVec<u8, MAX_LOOKAHEAD> {
        (0..self.len)
            .map(|k| BLANK_BYTES[(self.bits >> (2 * k)) as usize & 3])
            .collect()
    }
}
