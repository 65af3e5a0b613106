//! The normaliser's state machine: where the argument text is (outside a string, inside
//! one, in a literal or an escape) and what it writes for each byte.

use super::*;

/// Repairs 1–4, 6 and 7 over JSON text, with a small hold-back buffer.
#[derive(Clone, Copy, Debug)]
pub(super) struct Stage {
    /// Lexical state.
    st: St,
    /// Some repair changed the text.
    pub(super) repaired: bool,
    /// Bytes used in `buf`.
    len: u8,
    /// The pending segment (comma + whitespace, backslash escape or a high surrogate escape and
    /// what follows it, or bare-word prefix) when it started in an earlier fragment.
    buf: [u8; HOLD],
}

/// Quote of the string being scanned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Quote {
    Double,
    Single,
}

/// A Python literal being matched.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Lit {
    True,
    False,
    None,
}

impl Lit {
    /// The Python spelling.
    pub(super) fn python(self) -> &'static [u8] {
        match self {
            Lit::True => b"True",
            Lit::False => b"False",
            Lit::None => b"None",
        }
    }

    /// The JSON spelling.
    pub(super) fn json(self) -> &'static [u8] {
        match self {
            Lit::True => b"true",
            Lit::False => b"false",
            Lit::None => b"null",
        }
    }
}

/// Lexical state of a [`Stage`]. The states marked *pending* hold a segment whose output is
/// not decided yet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum St {
    /// Outside strings, not in a bare word.
    Value,
    /// In a bare word (number, `true`, ...) that is not a Python literal.
    Word,
    /// Pending: a prefix of a Python literal, at a word start.
    Lit(Lit),
    /// Pending: a comma and the whitespace after it.
    Comma,
    /// Inside a string.
    Str(Quote),
    /// Pending: a backslash inside a string.
    Esc(Quote),
    /// Pending: `\u` and this many hex digits (0..=3) inside a string, whose value so far is
    /// the `u16`.
    Uni(Quote, u8, u16),
    /// Pending: a complete `\uXXXX` escape of a high surrogate (6 bytes), then this many bytes
    /// (0..=5) of what may be its low half (`\uXXXX`), whose hex digits so far have the value
    /// of the `u16` (repair 7).
    High(Quote, u8, u16),
}

impl St {
    pub(super) fn pending(self) -> bool {
        matches!(
            self,
            St::Lit(_) | St::Comma | St::Esc(_) | St::Uni(..) | St::High(..)
        )
    }
}

/// Per-call scanning position of [`Stage::feed`].
pub(super) struct Cur {
    /// Start of the run of `raw` not yet emitted.
    run: usize,
    /// Where the pending segment starts in `raw`; `None` when it started in an earlier fragment
    /// (it is then in `Stage::buf`, continued by `raw[..i]`, and `run` is 0).
    pend: Option<usize>,
}

impl Stage {
    pub(super) const fn new() -> Self {
        Stage {
            st: St::Value,
            repaired: false,
            len: 0,
            buf: [0; HOLD],
        }
    }

    pub(super) fn held(&self) -> &[u8] {
        self.buf.get(..self.len as usize).unwrap_or(&[])
    }

    /// Length of the pending segment before `raw[i]`.
    pub(super) fn pending_len(&self, c: &Cur, i: usize) -> usize {
        match c.pend {
            Some(p) => i.saturating_sub(p),
            None => self.len as usize + i,
        }
    }

    /// Resolve the pending segment as unchanged.
    pub(super) fn keep(&mut self, c: &mut Cur, out: &mut impl FnMut(&[u8])) {
        if c.pend.is_none() {
            emit(out, self.held());
        }
        self.len = 0;
        c.pend = None;
    }

    /// Resolve the pending segment as unchanged but preceded by `bytes`.
    pub(super) fn insert(
        &mut self,
        c: &mut Cur,
        raw: &[u8],
        bytes: &[u8],
        out: &mut impl FnMut(&[u8]),
    ) {
        self.repaired = true;
        match c.pend {
            Some(p) => {
                emit(out, raw.get(c.run..p).unwrap_or(&[]));
                out(bytes);
                c.run = p;
            }
            None => {
                out(bytes);
                emit(out, self.held());
            }
        }
        self.len = 0;
        c.pend = None;
    }

    /// Resolve the pending segment, which ends before `raw[i]`, as `bytes`.
    pub(super) fn replace(
        &mut self,
        c: &mut Cur,
        raw: &[u8],
        i: usize,
        bytes: &[u8],
        out: &mut impl FnMut(&[u8]),
    ) {
        self.repaired = true;
        if let Some(p) = c.pend {
            emit(out, raw.get(c.run..p).unwrap_or(&[]));
        }
        emit(out, bytes);
        c.run = i;
        self.len = 0;
        c.pend = None;
    }

    /// Resolve the first `n` bytes of the pending segment as `bytes`; the rest stays pending
    /// (a lone high surrogate escape, followed by the start of another escape).
    pub(super) fn replace_head(
        &mut self,
        c: &mut Cur,
        raw: &[u8],
        n: usize,
        bytes: &[u8],
        out: &mut impl FnMut(&[u8]),
    ) {
        self.repaired = true;
        match c.pend {
            Some(p) => {
                emit(out, raw.get(c.run..p).unwrap_or(&[]));
                emit(out, bytes);
                c.run = p + n;
                c.pend = Some(p + n);
            }
            None => {
                emit(out, bytes);
                let held = self.len as usize;
                if held >= n {
                    // The rest is still held (and continued by `raw[..i]`).
                    self.buf.copy_within(n..held, 0);
                    self.len = (held - n) as u8;
                } else {
                    // The rest starts in `raw`.
                    self.len = 0;
                    c.run = n - held;
                    c.pend = Some(n - held);
                }
            }
        }
    }

    /// Resolve the pending segment as itself without its first byte (a dropped comma).
    pub(super) fn drop_first(&mut self, c: &mut Cur, raw: &[u8], out: &mut impl FnMut(&[u8])) {
        self.repaired = true;
        match c.pend {
            Some(p) => {
                emit(out, raw.get(c.run..p).unwrap_or(&[]));
                c.run = p + 1;
            }
            None => emit(out, self.held().get(1..).unwrap_or(&[])),
        }
        self.len = 0;
        c.pend = None;
    }

    /// Normalizes one fragment, `raw`, writing what is decided to `out` and holding a
    /// pending segment for the next fragment.
    pub(super) fn feed(&mut self, raw: &[u8], out: &mut impl FnMut(&[u8])) {
        let mut c = Cur { run: 0, pend: None };
        let mut i = 0;
        while let Some(&b) = raw.get(i) {
            match self.st {
                St::Value => {
                    match b {
                        b'"' => self.st = St::Str(Quote::Double),
                        b'\'' => {
                            self.repaired = true;
                            emit(out, raw.get(c.run..i).unwrap_or(&[]));
                            out(b"\"");
                            c.run = i + 1;
                            self.st = St::Str(Quote::Single);
                        }
                        b',' => {
                            c.pend = Some(i);
                            self.st = St::Comma;
                        }
                        b'T' | b'F' | b'N' => {
                            c.pend = Some(i);
                            self.st = St::Lit(match b {
                                b'T' => Lit::True,
                                b'F' => Lit::False,
                                _ => Lit::None,
                            });
                        }
                        _ if is_word(b) => self.st = St::Word,
                        _ => {}
                    }
                    i += 1;
                }
                St::Word => {
                    let rest = raw.get(i..).unwrap_or(&[]);
                    match rest.iter().position(|&b| !is_word(b)) {
                        Some(k) => {
                            i += k;
                            self.st = St::Value;
                        }
                        None => i = raw.len(),
                    }
                }
                St::Lit(lit) => i = self.lit(&mut c, raw, i, b, lit, out),
                St::Comma => i = self.comma(&mut c, raw, i, b, out),
                St::Str(q) => {
                    let rest = raw.get(i..).unwrap_or(&[]);
                    let Some(k) = find_in_string(q, rest) else {
                        i = raw.len();
                        continue;
                    };
                    i += k;
                    match raw.get(i).copied() {
                        Some(b'\\') => {
                            c.pend = Some(i);
                            self.st = St::Esc(q);
                        }
                        Some(b'"') if q == Quote::Double => self.st = St::Value,
                        Some(b'"') => {
                            // A `"` inside a single-quoted string.
                            self.repaired = true;
                            emit(out, raw.get(c.run..i).unwrap_or(&[]));
                            out(b"\\");
                            c.run = i;
                        }
                        Some(b'\'') => {
                            // Closing single quote.
                            emit(out, raw.get(c.run..i).unwrap_or(&[]));
                            out(b"\"");
                            c.run = i + 1;
                            self.st = St::Value;
                        }
                        Some(ctl) => {
                            // A raw control byte: its escape instead (repair 6).
                            self.repaired = true;
                            emit(out, raw.get(c.run..i).unwrap_or(&[]));
                            out(control_escape(ctl));
                            c.run = i + 1;
                        }
                        None => {}
                    }
                    i += 1;
                }
                St::Esc(q) => i = self.esc(&mut c, raw, i, b, q, out),
                St::Uni(q, n, acc) => i = self.uni(&mut c, raw, i, b, (q, n, acc), out),
                St::High(q, k, acc) => i = self.high(&mut c, raw, i, b, (q, k, acc), out),
            }
        }
        self.end_fragment(&c, raw, out);
    }

    /// At `raw[i] == b` in a prefix of Python literal `lit`; returns where the scan goes on
    /// (at `i` when `b` is read again in the new state).
    #[inline(always)]
    fn lit(
        &mut self,
        c: &mut Cur,
        raw: &[u8],
        mut i: usize,
        b: u8,
        lit: Lit,
        out: &mut impl FnMut(&[u8]),
    ) -> usize {
        let pos = self.pending_len(c, i);
        match lit.python().get(pos) {
            Some(&want) if b == want => i += 1,
            Some(_) => {
                self.keep(c, out);
                self.st = if is_word(b) { St::Word } else { St::Value };
            }
            None if is_word(b) => {
                self.keep(c, out);
                self.st = St::Word;
            }
            None => {
                self.replace(c, raw, i, lit.json(), out);
                self.st = St::Value;
            }
        }
        i
    }

    /// At `raw[i] == b` after a comma: a trailing comma is dropped (repair 4).
    #[inline(always)]
    fn comma(
        &mut self,
        c: &mut Cur,
        raw: &[u8],
        mut i: usize,
        b: u8,
        out: &mut impl FnMut(&[u8]),
    ) -> usize {
        match b {
            b' ' | b'\t' | b'\n' | b'\r' if self.pending_len(c, i) < HOLD => i += 1,
            b'}' | b']' => {
                self.drop_first(c, raw, out);
                self.st = St::Value;
            }
            _ => {
                // Anything else, or whitespace past the buffer: the comma stays.
                self.keep(c, out);
                self.st = St::Value;
            }
        }
        i
    }

    /// At `raw[i] == b` after a backslash in a string quoted by `q`.
    #[inline(always)]
    fn esc(
        &mut self,
        c: &mut Cur,
        raw: &[u8],
        mut i: usize,
        b: u8,
        q: Quote,
        out: &mut impl FnMut(&[u8]),
    ) -> usize {
        match b {
            b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't' => {
                self.keep(c, out);
                self.st = St::Str(q);
                i += 1;
            }
            b'\'' if q == Quote::Single => {
                // `\'` in a single-quoted string is a plain `'`.
                self.replace(c, raw, i, b"", out);
                self.st = St::Str(q);
                i += 1;
            }
            b'u' => {
                self.st = St::Uni(q, 0, 0);
                i += 1;
            }
            _ => {
                // Invalid escape: a literal backslash; `b` is reread as content.
                self.insert(c, raw, b"\\", out);
                self.st = St::Str(q);
            }
        }
        i
    }

    /// At `raw[i] == b` in a `\u` escape: quote, hex digits read, their value.
    #[inline(always)]
    fn uni(
        &mut self,
        c: &mut Cur,
        raw: &[u8],
        mut i: usize,
        b: u8,
        (q, n, acc): (Quote, u8, u16),
        out: &mut impl FnMut(&[u8]),
    ) -> usize {
        if let Some(d) = hex(b) {
            i += 1;
            let acc = (acc << 4) | u16::from(d);
            if n < 3 {
                self.st = St::Uni(q, n + 1, acc);
            } else if is_high(acc) {
                // Kept only if its low half follows (repair 7).
                self.st = St::High(q, 0, 0);
            } else if is_low(acc) {
                // A low surrogate without its high half (repair 7).
                self.replace(c, raw, i, REPLACEMENT_ESCAPE, out);
                self.st = St::Str(q);
            } else {
                self.keep(c, out);
                self.st = St::Str(q);
            }
        } else {
            // Fewer than four hex digits: `\u...` is literal; `b` is reread.
            self.insert(c, raw, b"\\", out);
            self.st = St::Str(q);
        }
        i
    }

    /// At `raw[i] == b` after a high surrogate escape: quote, bytes of what may be its low
    /// half, their hex value (repair 7).
    #[inline(always)]
    fn high(
        &mut self,
        c: &mut Cur,
        raw: &[u8],
        mut i: usize,
        b: u8,
        (q, k, acc): (Quote, u8, u16),
        out: &mut impl FnMut(&[u8]),
    ) -> usize {
        let low = match (k, hex(b)) {
            (0, _) => b == b'\\',
            (1, _) => b == b'u',
            (2..=4, Some(_)) => true,
            (5, Some(d)) => is_low((acc << 4) | u16::from(d)),
            _ => false,
        };
        if low {
            i += 1;
            if k >= 5 {
                // A valid pair passes unchanged.
                self.keep(c, out);
                self.st = St::Str(q);
            } else {
                let acc = match hex(b) {
                    Some(d) if k >= 2 => (acc << 4) | u16::from(d),
                    _ => acc,
                };
                self.st = St::High(q, k + 1, acc);
            }
        } else if k == 0 {
            // A lone high surrogate; `b` is reread as content.
            self.replace(c, raw, i, REPLACEMENT_ESCAPE, out);
            self.st = St::Str(q);
        } else {
            // A lone high surrogate, then the start of another escape, which goes
            // on from its state before `b`; `b` is reread.
            self.replace_head(c, raw, 6, REPLACEMENT_ESCAPE, out);
            self.st = match k {
                1 => St::Esc(q),
                _ => St::Uni(q, k - 2, acc),
            };
        }
        i
    }

    /// At the end of a fragment: what is decided goes out; a pending segment is held.
    #[inline(always)]
    fn end_fragment(&mut self, c: &Cur, raw: &[u8], out: &mut impl FnMut(&[u8])) {
        if self.st.pending() {
            // Emit up to the pending segment and hold the rest of it.
            let from = match c.pend {
                Some(p) => {
                    emit(out, raw.get(c.run..p).unwrap_or(&[]));
                    p
                }
                None => c.run,
            };
            let tail = raw.get(from..).unwrap_or(&[]);
            let held = self.len as usize;
            if let Some(dst) = self.buf.get_mut(held..held + tail.len()) {
                dst.copy_from_slice(tail);
                self.len = (held + tail.len()) as u8;
            }
        } else {
            emit(out, raw.get(c.run..).unwrap_or(&[]));
        }
    }

    pub(super) fn finish(&mut self, out: &mut impl FnMut(&[u8])) {
        match self.st {
            St::Lit(lit) if self.held() == lit.python() => out(lit.json()),
            St::Lit(_) | St::Comma => emit(out, self.held()),
            St::Esc(_) | St::Uni(..) => {
                out(b"\\");
                emit(out, self.held());
            }
            St::High(..) => {
                // A lone high surrogate, then perhaps an unfinished escape (a literal backslash).
                out(REPLACEMENT_ESCAPE);
                let rest = self.held().get(6..).unwrap_or(&[]);
                if !rest.is_empty() {
                    out(b"\\");
                    out(rest);
                }
            }
            St::Value | St::Word | St::Str(_) => {}
        }
        self.len = 0;
        self.st = St::Value;
    }
}
