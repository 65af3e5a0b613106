//! The header of a special-token call: the tool's name or the model's call id, up to the
//! separator (and, in DeepSeek V3's fenced form, the name's own line).

use super::{chunk_offset, hand_back, is_fence, Call, NameTags, Phase, TokenJson, HEADER_CAP};
use crate::automaton::{Delimiter, Dfa, START};
use crate::engine::frame::{envelope_while, Frame};
use crate::scan::Stop;
use crate::tables::HeaderForm;
use crate::{Diagnostic, Markup, Role, Sink, Span};

impl TokenJson {
    /// The header: its bytes are kept (bounded) until the separator or the name's line end
    /// decides them; a delimiter candidate's bytes wait in the frame's hold meanwhile.
    pub(super) fn header<S: Sink>(
        &mut self,
        frame: &mut Frame,
        chunk: &[u8],
        pos: usize,
        base: u64,
        sink: &mut S,
    ) -> usize {
        if self.call.token().head_dropped {
            return self.dropped_header(frame, chunk, pos, base, sink);
        }
        let (at, dfa, mut i) = (|i: usize| base + i as u64, self.modes.call, pos);
        while i < chunk.len() {
            let b = chunk[i];
            let call = self.call.token();
            let scan = &mut frame.delimiters;
            if scan.hold.is_empty() {
                if call.head.is_empty() {
                    if b.is_ascii_whitespace() {
                        // Leading whitespace is trimmed anyway: markup at once, never kept.
                        i = envelope_while(chunk, base, i, |b| b.is_ascii_whitespace(), sink);
                        continue;
                    }
                    call.head_start = at(i);
                }
                if matches!(b, b'{' | b'"')
                    && call.fenced.is_some()
                    && trim(&call.head[name_from(call)..]).1.is_empty()
                {
                    // JSON right after the keyword's separator: no name line, so the
                    // keyword was the V3.1 form's name (a tool called `function`).
                    self.keyword_is_the_name(frame, sink);
                    return i;
                }
                if call.fenced.is_none() && !dfa.starts[usize::from(b)] {
                    let n = take_plain(call, dfa, &chunk[i..]);
                    if n > 0 {
                        i += n;
                        continue;
                    }
                }
            }
            let mut state = dfa.next(scan.state, b);
            i += 1;
            let mut found = dfa.matched(state);
            if found.is_some_and(|d| !frame.tokens.admits(d.bytes, at(i) - d.bytes.len() as u64)) {
                (found, state) = (None, START); // token mode: header text, out of the hold below
            }
            if let Some(delimiter) = found {
                scan.state = START;
                scan.hold.clear();
                let span = Span::new(at(i) - delimiter.bytes.len() as u64, at(i));
                return self.header_delimiter(frame, delimiter, span, base, sink);
            }
            let depth = dfa.depth(state);
            if depth == scan.hold.len() + 1 {
                // The candidate only grows: nothing leaves the hold, and the byte joins it.
                // Cannot overflow: the hold is a proper prefix of a delimiter.
                let _ = scan.hold.try_push(b);
                scan.state = state;
                continue;
            }
            // Bytes that can no longer begin a delimiter leave the hold for the head.
            let leaving = scan.hold.len() + 1 - depth;
            let from_hold = leaving.min(scan.hold.len());
            let name_line_end = depth == 0 && ends_name_line(call, &scan.hold, b);
            let kept = usize::from(leaving > from_hold && !name_line_end);
            if call.head.len() + from_hold + kept > HEADER_CAP {
                // `b` is scanned again too, after the held bytes.
                self.header_too_long(frame, at(i - 1), sink);
                return i - 1;
            }
            if from_hold > 0 {
                // Cannot overflow: checked just above.
                let _ = call.head.try_extend_from_slice(&scan.hold[..from_hold]);
                scan.hold.drain(..from_hold);
            }
            if name_line_end {
                scan.state = START;
                if b != b'\n' {
                    // The opening fence: the arguments' business.
                    i -= 1;
                }
                let newline = (b == b'\n').then(|| Span::new(at(i) - 1, at(i)));
                self.name_line_done(frame, newline, sink);
                return i;
            }
            if kept == 1 {
                let _ = call.head.try_push(b);
            } else {
                // Cannot overflow: the hold is a proper prefix of a delimiter.
                let _ = scan.hold.try_push(b);
            }
            scan.state = state;
        }
        chunk.len()
    }

    /// The header byte at stream offset `at` makes the header too long to be one: the call
    /// is broken, and the rest of the header is markup as it comes. The bytes held before
    /// it are given back for the driver to scan again that way, then the byte itself.
    fn header_too_long<S: Sink>(&mut self, frame: &mut Frame, at: u64, sink: &mut S) {
        let start = at - frame.delimiters.hold.len() as u64;
        frame.replay = true;
        frame.ensure_started(Span::at(start), sink);
        self.report_head(sink);
        self.call.token().head_dropped = true;
        self.break_call(frame, Span::at(start), Diagnostic::NameTooLong, sink);
    }

    /// The rest of a header that is not kept (too long, or a refused call's): markup as it
    /// comes, up to the delimiter that ends it or, in the fenced form, the end of its name's
    /// line.
    fn dropped_header<S: Sink>(
        &mut self,
        frame: &mut Frame,
        chunk: &[u8],
        pos: usize,
        base: u64,
        sink: &mut S,
    ) -> usize {
        let at = |i: usize| base + i as u64;
        // No delimiter holds a newline or a fence byte: the line's end is found first.
        let line_end = match self.call.token().fenced {
            Some(_) => chunk[pos..]
                .iter()
                .position(|&b| b == b'\n' || is_fence(b))
                .map(|k| pos + k),
            None => None,
        };
        let limit = line_end.unwrap_or(chunk.len());
        let stop = frame.delimiters.scan(
            self.modes.call,
            &chunk[..limit],
            pos,
            base,
            &frame.tokens,
            &mut |span, bytes| sink.markup(span, Markup::Envelope, bytes),
        );
        if let Stop::Match(delimiter, end) = stop {
            let span = Span::new(at(end) - delimiter.bytes.len() as u64, at(end));
            return self.header_delimiter(frame, delimiter, span, base, sink);
        }
        let Some(k) = line_end else {
            return chunk.len();
        };
        // A delimiter's beginning cut short by the line's end: the header's bytes.
        let held = frame.delimiters.take();
        if !held.is_empty() {
            let span = Span::new(at(k) - held.len() as u64, at(k));
            sink.markup(span, Markup::Envelope, &held);
        }
        self.phase = Phase::Lead;
        if chunk[k] == b'\n' {
            sink.markup(Span::new(at(k), at(k + 1)), Markup::Envelope, b"\n");
            k + 1
        } else {
            k
        }
    }

    /// A delimiter ended the header (or the fenced form's name line) at `span`, in a chunk
    /// whose first byte is at stream offset `base`; returns the chunk offset where the scan
    /// goes on.
    fn header_delimiter<S: Sink>(
        &mut self,
        frame: &mut Frame,
        delimiter: &'static Delimiter,
        span: Span,
        base: u64,
        sink: &mut S,
    ) -> usize {
        let call = self.call.token();
        let fenced = call.fenced.is_some();
        match delimiter.role {
            Role::NameOpen | Role::NameClose => {
                return self.name_tag(frame, delimiter, span, base, sink);
            }
            Role::ArgsOpen if call.head_dropped && !fenced => {
                // A header not kept: the call is broken; its arguments are read all the same.
                sink.markup(span, Markup::Delimiter(delimiter.role), delimiter.bytes);
                self.phase = Phase::Lead;
            }
            Role::ArgsOpen if call.tags != NameTags::Untagged => {
                // After the name's closer only whitespace (trimmed as markup) is due; a
                // name whose closer is missing is no call either. Both are read on as
                // arguments all the same.
                let broken = call.tags == NameTags::Open || !call.head.is_empty();
                frame.ensure_started(span, sink);
                self.report_head(sink);
                sink.markup(span, Markup::Delimiter(delimiter.role), delimiter.bytes);
                if broken {
                    self.break_call(frame, span, Diagnostic::MalformedCall, sink);
                }
                self.phase = Phase::Lead;
            }
            Role::ArgsOpen if !fenced => {
                let keyword = self.modes.fenced_keyword;
                if keyword.is_some_and(|keyword| trim(&call.head).1 == keyword) {
                    // DeepSeek V3 / R1: `function<｜tool▁sep｜>NAME\n```json …`. A mode has
                    // at most 256 delimiters, so the index fits.
                    let delimiters = self.modes.call.delimiters;
                    if let Some(sep) = delimiters.iter().position(|d| d == delimiter) {
                        call.fenced = Some((sep as u8, call.head.len() as u8));
                        return chunk_offset(span.end, base);
                    }
                }
                let started = self.start_call(frame, sink);
                if started.is_err() {
                    frame.ensure_started(span, sink);
                }
                self.report_head(sink);
                sink.markup(span, Markup::Delimiter(delimiter.role), delimiter.bytes);
                if let Err(diagnostic) = started {
                    // Not a call, but its arguments are read as arguments all the same:
                    // what their strings hold stays theirs.
                    self.break_call(frame, span, diagnostic, sink);
                }
                self.phase = Phase::Lead;
            }
            Role::ArgsOpen => {
                // A second separator on the fenced form's name line: not a call of either
                // form, but what follows is read as its arguments all the same.
                frame.ensure_started(span, sink);
                self.report_head(sink);
                sink.markup(span, Markup::Delimiter(delimiter.role), delimiter.bytes);
                self.break_call(frame, span, Diagnostic::MalformedCall, sink);
                self.phase = Phase::Lead;
            }
            Role::CallClose => {
                // The call closed before its arguments began: its own closer.
                frame.ensure_started(span, sink);
                self.report_head(sink);
                sink.markup(span, Markup::Delimiter(delimiter.role), delimiter.bytes);
                self.invalid(frame, span, Self::broken_header(fenced), sink);
            }
            Role::Stop => {
                frame.ensure_started(span, sink);
                self.report_head(sink);
                self.truncate(frame, Span::at(span.start), sink);
                return hand_back(frame, delimiter, span, base);
            }
            _ => {
                frame.ensure_started(span, sink);
                self.report_head(sink);
                self.invalid(
                    frame,
                    Span::at(span.start),
                    Self::broken_header(fenced),
                    sink,
                );
                return hand_back(frame, delimiter, span, base);
            }
        }
        chunk_offset(span.end, base)
    }

    /// A name tag (`name_open` or `name_close`) at `span` in the header. The opener before
    /// any header byte is markup and makes the header the name; the closer after it ends
    /// the name, and the call starts there. A tag anywhere else breaks the call.
    fn name_tag<S: Sink>(
        &mut self,
        frame: &mut Frame,
        delimiter: &'static Delimiter,
        span: Span,
        base: u64,
        sink: &mut S,
    ) -> usize {
        let call = self.call.token();
        let at_start = call.head.is_empty() && !call.head_dropped && call.fenced.is_none();
        match (delimiter.role, call.tags) {
            (Role::NameOpen, NameTags::Untagged) if at_start => {
                sink.markup(span, Markup::Delimiter(delimiter.role), delimiter.bytes);
                call.tags = NameTags::Open;
            }
            (Role::NameClose, NameTags::Open) => {
                let started = if call.head_dropped {
                    // Too long, or a refused call: broken already.
                    Ok(())
                } else {
                    self.start_call(frame, sink)
                };
                if started.is_err() {
                    frame.ensure_started(span, sink);
                }
                self.report_head(sink);
                sink.markup(span, Markup::Delimiter(delimiter.role), delimiter.bytes);
                if let Err(diagnostic) = started {
                    self.break_call(frame, span, diagnostic, sink);
                }
                let call = self.call.token();
                call.head.clear();
                call.tags = NameTags::Closed;
            }
            _ => {
                // Out of place (a second name, a closer with no opener): the call is
                // broken, and read on to its end as a broken call is.
                frame.ensure_started(span, sink);
                self.report_head(sink);
                sink.markup(span, Markup::Delimiter(delimiter.role), delimiter.bytes);
                self.break_call(frame, span, Diagnostic::MalformedCall, sink);
                self.call.token().head.clear();
            }
        }
        chunk_offset(span.end, base)
    }

    fn broken_header(fenced: bool) -> Diagnostic {
        if fenced {
            Diagnostic::MalformedCall
        } else {
            Diagnostic::MissingArgsOpen
        }
    }

    /// The fenced form's name line ended (at `newline`, or before a fence).
    fn name_line_done<S: Sink>(&mut self, frame: &mut Frame, newline: Option<Span>, sink: &mut S) {
        let started = self.start_call(frame, sink);
        let at = newline.unwrap_or(Span::at(self.call.token().head_start));
        if started.is_err() {
            frame.ensure_started(at, sink);
        }
        self.report_head(sink);
        if let Some(span) = newline {
            sink.markup(span, Markup::Envelope, b"\n");
        }
        if let Err(diagnostic) = started {
            self.break_call(frame, at, diagnostic, sink);
        }
        self.phase = Phase::Lead;
    }

    /// The keyword's separator came, then JSON where the name's line was due: the call is
    /// in the V3.1 form and the keyword is its name.
    fn keyword_is_the_name<S: Sink>(&mut self, frame: &mut Frame, sink: &mut S) {
        let call = self.call.token();
        let keyword = name_from(call);
        let (lead, name) = trim(&call.head[..keyword]);
        let start = call.head_start + lead as u64;
        let span = Span::new(start, start + name.len() as u64);
        if valid_name(name) {
            frame.name(span, name, sink);
        } else {
            // Cannot happen with a keyword that is a name; kept total.
            frame.ensure_started(span, sink);
            self.break_call(frame, span, Diagnostic::InvalidName, sink);
        }
        // The keyword, the separator and the whitespace after it, in stream order.
        self.report_head(sink);
        self.call.token().fenced = None;
        self.phase = Phase::Lead;
    }

    /// Checks the header's name (and id) and starts the call; says why not when it cannot.
    fn start_call<S: Sink>(&mut self, frame: &mut Frame, sink: &mut S) -> Result<(), Diagnostic> {
        let modes = self.modes;
        let call = self.call.token();
        let from = name_from(call);
        let (lead, header) = trim(&call.head[from..]);
        // Stream offset of `header[0]`.
        let header_start = call.head_start
            + (from + lead) as u64
            + call
                .separator(modes)
                .map_or(0, |sep| sep.bytes.len() as u64);
        let (name, name_offset) = match self.modes.header {
            HeaderForm::Name => (header, 0),
            HeaderForm::CallId => {
                let offset = if header.starts_with(b"functions.") {
                    b"functions.".len()
                } else {
                    0
                };
                let rest = &header[offset..];
                let end = rest.iter().rposition(|&b| b == b':').unwrap_or(rest.len());
                (&rest[..end], offset)
            }
        };
        // `name` is part of `header`, cut at ASCII bytes: valid when `header` is, unless empty.
        if !valid_name(header) || name.is_empty() {
            return Err(Diagnostic::InvalidName);
        }
        let name_start = header_start + name_offset as u64;
        let index = frame.call.index;
        frame.name(
            Span::new(name_start, name_start + name.len() as u64),
            name,
            sink,
        );
        if self.modes.header == HeaderForm::CallId {
            let span = Span::new(header_start, header_start + header.len() as u64);
            sink.tool_id(span, index, header);
        }
        Ok(())
    }

    /// Reports the kept header bytes as the call's markup (once: a header not kept any
    /// more was reported when it stopped being kept).
    pub(super) fn report_head<S: Sink>(&mut self, sink: &mut S) {
        let modes = self.modes;
        let call = self.call.token();
        if call.head_dropped {
            return;
        }
        let head = &call.head[..];
        let start = call.head_start;
        let keyword = name_from(call);
        let (sep, rest) = (call.separator(modes), &head[keyword..]);
        if keyword > 0 {
            let span = Span::new(start, start + keyword as u64);
            sink.markup(span, Markup::Envelope, &head[..keyword]);
        }
        let mut at = start + keyword as u64;
        if let Some(sep) = sep {
            let span = Span::new(at, at + sep.bytes.len() as u64);
            sink.markup(span, Markup::Delimiter(sep.role), sep.bytes);
            at = span.end;
        }
        if !rest.is_empty() {
            sink.markup(
                Span::new(at, at + rest.len() as u64),
                Markup::Envelope,
                rest,
            );
        }
    }
}

/// Where the name's part of the header starts in `head`: after the fenced form's keyword.
fn name_from(call: &Call) -> usize {
    call.fenced.map_or(0, |(_, keyword)| usize::from(keyword))
}

/// `bytes` without whitespace at either end (ASCII and, where `bytes` is UTF-8 there,
/// Unicode White_Space: NO-BREAK SPACE, IDEOGRAPHIC SPACE, LINE SEPARATOR…; docs/dialects.md
/// rule 9), and how many bytes were cut in front.
fn trim(bytes: &[u8]) -> (usize, &[u8]) {
    let mut from = 0;
    while let Some(n) = space_at(&bytes[from..], false) {
        from += n;
    }
    let mut to = bytes.len();
    while to > from {
        match space_at(&bytes[from..to], true) {
            Some(n) => to -= n,
            None => break,
        }
    }
    (from, &bytes[from..to])
}

/// The length of the whitespace character at the start (or, with `back`, the end) of
/// `bytes`, if there is one.
fn space_at(bytes: &[u8], back: bool) -> Option<usize> {
    let edge = if back {
        *bytes.last()?
    } else {
        *bytes.first()?
    };
    if edge.is_ascii() {
        return edge.is_ascii_whitespace().then_some(1);
    }
    // A UTF-8 sequence is at most 4 bytes long.
    let window = if back {
        &bytes[bytes.len().saturating_sub(4)..]
    } else {
        &bytes[..bytes.len().min(4)]
    };
    (1..=window.len()).find_map(|n| {
        let piece = if back {
            &window[window.len() - n..]
        } else {
            &window[..n]
        };
        let mut chars = core::str::from_utf8(piece).ok()?.chars();
        let c = chars.next()?;
        (chars.next().is_none() && c.is_whitespace()).then_some(n)
    })
}

/// `NAME_BYTES[b]`: an ASCII byte that may be in a name (not whitespace, a control
/// character, a quote or markup), or any non-ASCII byte (decided with its character).
static NAME_BYTES: [bool; 256] = {
    let mut table = [false; 256];
    let mut b = 0;
    while b < 256 {
        let byte = b as u8;
        table[b] = !byte.is_ascii()
            || !(byte.is_ascii_whitespace()
                || byte.is_ascii_control()
                || matches!(byte, b'<' | b'>' | b'"' | b'\'' | b'\\'));
        b += 1;
    }
    table
};

/// Rule 9: a name (or id) is non-empty UTF-8 without whitespace (ASCII or Unicode),
/// control characters, quotes or markup.
fn valid_name(name: &[u8]) -> bool {
    if !name.iter().all(|&b| NAME_BYTES[usize::from(b)]) {
        return false;
    }
    if name.is_ascii() {
        return !name.is_empty();
    }
    match core::str::from_utf8(name) {
        Ok(text) => text
            .chars()
            .all(|c| c.is_ascii() || (!c.is_whitespace() && !c.is_control())),
        Err(_) => false,
    }
}

/// In the fenced form, `b` (after `held`, which can no longer begin a delimiter) ends the
/// name's line: a fence, or a newline after a name that is not all whitespace.
#[inline(always)]
fn ends_name_line(call: &Call, held: &[u8], b: u8) -> bool {
    call.fenced.is_some()
        && (is_fence(b)
            || (b == b'\n'
                && held
                    .iter()
                    .chain(&call.head[name_from(call)..])
                    .any(|b| !b.is_ascii_whitespace())))
}

/// Bytes that begin no delimiter leave the DFA in its start state and go to the head as
/// they come (up to its cap; the byte past it is the general case): takes the run of them
/// at the start of `bytes` at once and returns its length.
#[inline(always)]
fn take_plain(call: &mut Call, dfa: &Dfa, bytes: &[u8]) -> usize {
    let room = HEADER_CAP - call.head.len();
    let n = bytes
        .iter()
        .take(room)
        .take_while(|&&c| !dfa.starts[usize::from(c)])
        .count();
    // Cannot overflow: `n` is at most the room left.
    let _ = call.head.try_extend_from_slice(&bytes[..n]);
    n
}
