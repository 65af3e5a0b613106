//! JSON string escaping, byte for byte as serde_json escapes (`"` and `\` as `\"` and `\\`,
//! `\b \t \n \f \r`, any other byte below 0x20 as `\u00xx` in lowercase hex, everything
//! else, non-ASCII included, as it is), with the runs that need no escape found eight bytes
//! at a time and written whole.

use std::io::{self, Write};

/// The escape of each byte: 0 for none, else the letter after the backslash (`u` for
/// `\u00xx`). serde_json's own table.
static ESCAPE: [u8; 256] = {
    let mut table = [0u8; 256];
    let mut byte = 0;
    while byte < 0x20 {
        table[byte] = b'u';
        byte += 1;
    }
    table[0x08] = b'b';
    table[0x09] = b't';
    table[0x0A] = b'n';
    table[0x0C] = b'f';
    table[0x0D] = b'r';
    table[b'"' as usize] = b'"';
    table[b'\\' as usize] = b'\\';
    table
};

const ONES: u64 = u64::from_ne_bytes([0x01; 8]);
const HIGHS: u64 = u64::from_ne_bytes([0x80; 8]);

/// The high bit of the lowest byte of `word` (its first, little-endian) that needs an
/// escape is set, and no lower bit: bytes below 0x20, `"` and `\`. (The classic "has a
/// byte less than n" and "has a zero byte" tests: a borrow can only flag a byte above a
/// byte truly flagged, so the lowest flag is exact.)
fn needs_escape(word: u64) -> u64 {
    let control = word.wrapping_sub(ONES * 0x20);
    let quote = (word ^ (ONES * u64::from(b'"'))).wrapping_sub(ONES);
    let quote_mask = !(word ^ (ONES * u64::from(b'"')));
    let backslash = (word ^ (ONES * u64::from(b'\\'))).wrapping_sub(ONES);
    let backslash_mask = !(word ^ (ONES * u64::from(b'\\')));
    ((control & !word) | (quote & quote_mask) | (backslash & backslash_mask)) & HIGHS
}

/// Where the first byte of `bytes` that needs an escape is, or its length when none does.
#[inline]
fn next_escape(bytes: &[u8]) -> usize {
    if bytes.len() < 16 {
        // An id, a name, a decode step's text: byte by byte is cheaper than setting up.
        return bytes
            .iter()
            .position(|&b| ESCAPE[usize::from(b)] != 0)
            .unwrap_or(bytes.len());
    }
    next_escape_words(bytes)
}

/// [`next_escape`], eight bytes at a time.
fn next_escape_words(bytes: &[u8]) -> usize {
    let word = |eight: &[u8]| {
        let mut word = [0u8; 8];
        word.copy_from_slice(eight);
        needs_escape(u64::from_le_bytes(word))
    };
    let mut pairs = bytes.chunks_exact(16);
    let mut at = 0;
    for pair in &mut pairs {
        let (low, high) = (word(&pair[..8]), word(&pair[8..]));
        if low | high != 0 {
            let (flags, base) = if low != 0 { (low, 0) } else { (high, 8) };
            return at + base + (flags.trailing_zeros() / 8) as usize;
        }
        at += 16;
    }
    let tail = pairs.remainder();
    at + tail
        .iter()
        .position(|&b| ESCAPE[usize::from(b)] != 0)
        .unwrap_or(tail.len())
}

/// Writes the escaped contents of a JSON string (no quotes).
pub(super) fn contents<W: Write + ?Sized>(out: &mut W, text: &str) -> io::Result<()> {
    escaped(text.as_bytes(), |bytes| out.write_all(bytes))
}

/// Appends `bytes` escaped for the inside of a JSON string; they need not be whole UTF-8
/// (a value's pieces may split a code point): only the escaped bytes are changed.
pub(crate) fn push_escaped(bytes: &[u8], out: &mut Vec<u8>) {
    let written: Result<(), core::convert::Infallible> = escaped(bytes, |run| {
        out.extend_from_slice(run);
        Ok(())
    });
    let Ok(()) = written;
}

/// Hands `bytes` to `emit` escaped: the runs that need no escape whole, each escape as its
/// own piece.
fn escaped<E>(bytes: &[u8], mut emit: impl FnMut(&[u8]) -> Result<(), E>) -> Result<(), E> {
    let (mut start, mut at) = (0, 0);
    loop {
        at += next_escape(&bytes[at..]);
        let Some(&byte) = bytes.get(at) else {
            break;
        };
        if start < at {
            emit(&bytes[start..at])?;
        }
        let (escape, len) = escape(byte);
        emit(&escape[..len])?;
        at += 1;
        start = at;
    }
    if start < bytes.len() {
        emit(&bytes[start..])?;
    }
    Ok(())
}

/// The escape of one byte that needs one (`\X`, or `\u00xx`) and its length.
fn escape(byte: u8) -> ([u8; 6], usize) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    match ESCAPE[usize::from(byte)] {
        b'u' => (
            [
                b'\\',
                b'u',
                b'0',
                b'0',
                HEX[usize::from(byte >> 4)],
                HEX[usize::from(byte & 0xF)],
            ],
            6,
        ),
        letter => ([b'\\', letter, 0, 0, 0, 0], 2),
    }
}

/// Writes `text` as a JSON string, between quotes.
pub(super) fn string<W: Write + ?Sized>(out: &mut W, text: &str) -> io::Result<()> {
    out.write_all(b"\"")?;
    contents(out, text)?;
    out.write_all(b"\"")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ours(text: &str) -> String {
        let mut out = Vec::new();
        string(&mut out, text).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn every_byte_as_serde_json_escapes_it() {
        for byte in 0..0x80u8 {
            let one = char::from(byte).to_string();
            assert_eq!(
                ours(&one),
                serde_json::to_string(&one).unwrap(),
                "{byte:#x}"
            );
            // At every position of a word and of the tail, among bytes that need none.
            for at in 0..19 {
                let mut text = "a".repeat(19);
                text.replace_range(at..=at, &one);
                assert_eq!(ours(&text), serde_json::to_string(&text).unwrap());
            }
        }
    }

    #[test]
    fn runs_and_non_ascii_as_serde_json() {
        let cases = [
            String::new(),
            "é".repeat(100),
            "\u{7f}\u{80}\u{ff}\u{1F600}日本".repeat(9),
            "x".repeat(4096) + "\"" + &"y".repeat(4095) + "\\",
            "\"\\\u{0}\u{1f}\n\r\t\u{8}\u{c}".repeat(7),
            "!#[]~ ".repeat(50),
        ];
        for text in cases {
            assert_eq!(ours(&text), serde_json::to_string(&text).unwrap());
        }
    }
}
