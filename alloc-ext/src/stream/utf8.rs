//! Cutting text for a delta at code point boundaries, validated once by a SIMD validator.

/// Pieces up to this long are first checked for ASCII (cheaper, for a few bytes, than any
/// validator's setup; `simdutf8` itself hands pieces under 64 bytes to std's).
const SHORT: usize = 32;

/// Appends the longest prefix of `bytes` that ends on a code point boundary (all of it
/// when `all`), replacing invalid sequences with U+FFFD; returns the bytes taken.
///
/// Valid text (nearly always) is checked once, by `simdutf8`'s SIMD validator; only a
/// piece with an invalid sequence takes the slower path that finds where it is.
#[inline]
pub(super) fn take_utf8(bytes: &[u8], all: bool, out: &mut String) -> usize {
    if push_short_ascii(bytes, out) {
        return bytes.len();
    }
    take_validated(bytes, all, out)
}

/// Appends `bytes` when they are valid UTF-8 but for a code point cut short at their end;
/// returns how many were appended (`bytes.len()` but for such a tail, of at most 3 bytes),
/// or `None`, appending nothing, when they are not UTF-8.
#[inline]
pub(super) fn push_valid(bytes: &[u8], out: &mut String) -> Option<usize> {
    if push_short_ascii(bytes, out) {
        return Some(bytes.len());
    }
    push_validated(bytes, out)
}

/// [`push_valid`] for a longer piece, or one that is not ASCII (kept out of line: the
/// decode step's common piece is short ASCII).
#[inline(never)]
fn push_validated(bytes: &[u8], out: &mut String) -> Option<usize> {
    if let Ok(text) = simdutf8::basic::from_utf8(bytes) {
        out.push_str(text);
        return Some(bytes.len());
    }
    // Only now find where it fails: a piece that ends inside a code point is sent up to it.
    let error = simdutf8::compat::from_utf8(bytes).err()?;
    if error.error_len().is_some() {
        return None;
    }
    let valid = &bytes[..error.valid_up_to()];
    out.push_str(simdutf8::basic::from_utf8(valid).ok()?);
    Some(valid.len())
}

/// The length of the code point whose first byte is `lead` (1 for a byte that cannot
/// begin one: the validator rejects it).
pub(super) fn width(lead: u8) -> usize {
    match lead {
        0xC0..=0xDF => 2,
        0xE0..=0xEF => 3,
        0xF0..=0xF7 => 4,
        _ => 1,
    }
}

/// Appends `bytes` when they are few and all ASCII (a decode step's, nearly always):
/// every byte is a code point, and no validator is set up.
#[inline]
fn push_short_ascii(bytes: &[u8], out: &mut String) -> bool {
    if bytes.len() > SHORT {
        return false;
    }
    let start = out.len();
    out.reserve(bytes.len());
    for &b in bytes {
        if b >= 0x80 {
            out.truncate(start);
            return false;
        }
        out.push(char::from(b));
    }
    true
}

/// [`take_utf8`] for a longer piece, or one that is not ASCII.
fn take_validated(bytes: &[u8], all: bool, out: &mut String) -> usize {
    let end = if all { bytes.len() } else { boundary(bytes) };
    if let Ok(text) = simdutf8::basic::from_utf8(&bytes[..end]) {
        out.push_str(text);
        return end;
    }
    take_lossy(bytes, all, out)
}

/// Where the code point that `bytes` ends in begins, when it is cut short: the end of the
/// longest prefix that may be sent now (the lead byte's length says how many bytes its
/// code point needs; an invalid tail is the validator's to find).
fn boundary(bytes: &[u8]) -> usize {
    let len = bytes.len();
    for back in 1..=len.min(3) {
        let byte = bytes[len - back];
        if byte & 0xC0 == 0x80 {
            continue;
        }
        let needs = width(byte);
        return if needs > back { len - back } else { len };
    }
    len
}

/// [`take_utf8`] for a piece with an invalid sequence: each one becomes U+FFFD.
fn take_lossy(bytes: &[u8], all: bool, out: &mut String) -> usize {
    let mut taken = 0;
    loop {
        match simdutf8::compat::from_utf8(&bytes[taken..]) {
            Ok(s) => {
                out.push_str(s);
                return bytes.len();
            }
            Err(e) => {
                let valid = e.valid_up_to();
                let prefix = &bytes[taken..taken + valid];
                out.push_str(simdutf8::basic::from_utf8(prefix).unwrap_or_default());
                taken += valid;
                match e.error_len() {
                    Some(n) => {
                        out.push(char::REPLACEMENT_CHARACTER);
                        taken += n;
                    }
                    None if all => {
                        out.push(char::REPLACEMENT_CHARACTER);
                        return bytes.len();
                    }
                    None => return taken,
                }
            }
        }
    }
}
