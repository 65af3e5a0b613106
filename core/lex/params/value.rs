//! Inside a value: value text, candidate closers and the rule-4 look-ahead that confirms
//! or rejects them.

use super::*;

impl ParamCalls {
    /// Inside a value: everything up to a candidate closer is value text.
    pub(super) fn value<S: Sink>(
        &mut self,
        frame: &mut Frame,
        chunk: &[u8],
        pos: usize,
        base: u64,
        sink: &mut S,
    ) -> usize {
        let call = frame.call.index;
        if core::mem::take(&mut self.lead) && chunk[pos] == b'\n' {
            // The template's leading framing newline.
            let at = base + pos as u64;
            sink.markup(Span::new(at, at + 1), Markup::Envelope, b"\n");
            return pos + 1;
        }
        // The limit falls on the same byte whatever the chunking: where the value bytes
        // released plus those held as a possible closer reach it.
        let held = frame.delimiters.hold.len();
        let end = self.budget.clip(pos, chunk.len(), held, &frame.options);
        let budget = &mut self.budget;
        let newline = &mut self.newline;
        let framing = self.tagset.framing;
        let stop = frame.delimiters.scan(
            self.tagset.value,
            &chunk[..end],
            pos,
            base,
            &frame.tokens,
            &mut |span, bytes| {
                budget.add(bytes.len());
                emit_value(newline, framing, call, span, bytes, sink);
            },
        );
        match stop {
            Stop::Match(delimiter, to) => {
                let at = base + to as u64;
                let span = Span::new(at - delimiter.bytes.len() as u64, at);
                match delimiter.role {
                    _ if self.is_closer_start(delimiter.bytes)
                        && !self.tagset.closers.is_empty() =>
                    {
                        self.held = Some((delimiter, span.start));
                        self.closer_len = 0;
                        self.closer_alive = u8::MAX;
                        self.phase = Phase::Closer;
                    }
                    Role::ParamClose | Role::CallClose | Role::ParamOpen => {
                        self.begin_pending(delimiter, span.start);
                    }
                    Role::Quote if self.tagset.cdata_close.is_some() => {
                        self.open_verbatim(frame, delimiter, span, sink);
                    }
                    _ => self.on_delimiter(frame, delimiter, span, sink),
                }
                to
            }
            Stop::End if end < chunk.len() => {
                let held = frame.delimiters.take();
                let at = base + end as u64;
                self.flush_newline(frame, at - held.len() as u64, sink);
                if !held.is_empty() {
                    sink.tool_value(
                        Span::new(at - held.len() as u64, at),
                        call,
                        Piece::Verbatim,
                        &held,
                    );
                }
                frame.invalid(Span::at(at), Diagnostic::ArgumentsTooLong, sink);
                self.reset_structure();
                end
            }
            Stop::End => chunk.len(),
        }
    }

    /// A value's held `\n` (see [`ParamCalls::newline`]) turned out to be value text; it
    /// ends at stream offset `end`.
    pub(super) fn flush_newline<S: Sink>(&mut self, frame: &Frame, end: u64, sink: &mut S) {
        if core::mem::take(&mut self.newline) {
            sink.tool_value(
                Span::new(end - 1, end),
                frame.call.index,
                Piece::Verbatim,
                b"\n",
            );
        }
    }

    pub(super) fn note_alias<S: Sink>(&self, delimiter: &Delimiter, span: Span, sink: &mut S) {
        if self.tagset.aliases.contains(&delimiter.bytes) {
            sink.diagnostic(span, Diagnostic::DelimiterAlias);
        }
    }

    /// Stream offset just after the candidate and its whitespace.
    pub(super) fn follow_start(&self) -> u64 {
        let (candidate, start) = self
            .held
            .map_or((0, 0), |(c, start)| (self.candidate_len(c), start));
        start + candidate as u64 + self.blank.len() as u64
    }

    /// The open parameter's key, while a value is read (the tag lexer still holds its
    /// tag); empty when it cannot name a closer.
    pub(super) fn key(&self) -> &[u8] {
        let key = self.tag.name().map_or(&[][..], |(raw, _)| trim(raw).1);
        if key.len() <= MAX_NAME && valid_name(key) {
            key
        } else {
            &[]
        }
    }

    /// Whether `bytes` is the generic closer start: the tag prefix and `</`.
    pub(super) fn is_closer_start(&self, bytes: &[u8]) -> bool {
        let prefix = self.tagset.form.prefix;
        bytes.len() == prefix.len() + CLOSER_START.len()
            && bytes.starts_with(prefix)
            && bytes.ends_with(CLOSER_START)
    }

    /// Length of the generic closer start (the tag prefix and `</`).
    fn closer_start_len(&self) -> usize {
        self.tagset.form.prefix.len() + CLOSER_START.len()
    }

    pub(super) fn candidate_len(&self, candidate: &Delimiter) -> usize {
        if core::ptr::eq(candidate, &KEY_CLOSER) {
            self.closer_start_len() + self.key().len() + 1
        } else {
            candidate.bytes.len()
        }
    }

    /// The bytes of a candidate as written.
    pub(super) fn candidate_bytes(&self, candidate: &Delimiter) -> ArrayVec<u8, CANDIDATE_CAP> {
        let mut bytes = ArrayVec::new();
        if core::ptr::eq(candidate, &KEY_CLOSER) {
            let prefix = self.tagset.form.prefix;
            bytes.extend(
                prefix
                    .iter()
                    .chain(CLOSER_START)
                    .chain(self.key())
                    .chain(b">")
                    .copied(),
            );
        } else {
            bytes.extend(candidate.bytes.iter().take(CANDIDATE_CAP).copied());
        }
        bytes
    }

    /// Byte `k` after the closer start of name `j` of the `Closer` phase (the top bit: the key).
    pub(super) fn closer_byte(&self, j: u32, k: usize) -> Option<u8> {
        if j == 7 {
            let key = self.key();
            if key.is_empty() {
                return None;
            }
            return key.get(k).copied().or((k == key.len()).then_some(b'>'));
        }
        let closer = self.tagset.closers.get(j as usize)?;
        closer.bytes.get(self.closer_start_len() + k).copied()
    }

    /// Whether name `j` of the `Closer` phase closes a parameter (the key's always does).
    pub(super) fn closes_param(&self, j: u32) -> bool {
        self.tagset
            .closers
            .get(j as usize)
            .is_none_or(|closer| closer.role == Role::ParamClose)
    }

    /// `</` and the bytes read after it in the `Closer` phase: a prefix of a name still
    /// alive in `alive`.
    pub(super) fn closer_prefix(&self, alive: u8) -> ArrayVec<u8, CANDIDATE_CAP> {
        let mut bytes: ArrayVec<u8, CANDIDATE_CAP> = ArrayVec::new();
        bytes.extend(self.tagset.form.prefix.iter().chain(CLOSER_START).copied());
        let j = alive.trailing_zeros();
        for k in 0..usize::from(self.closer_len) {
            if let Some(b) = self.closer_byte(j, k) {
                if bytes.try_push(b).is_err() {
                    break;
                }
            }
        }
        bytes
    }

    /// After a generic `</` in a value: reads on while the bytes still spell a closer
    /// ([`Tagset::closers`] or the key's); a whole one is a candidate (rule 4), anything else
    /// makes `</` and what was read value text and is scanned again as value.
    pub(super) fn closer<S: Sink>(
        &mut self,
        frame: &mut Frame,
        chunk: &[u8],
        pos: usize,
        sink: &mut S,
    ) -> usize {
        let Some((_, start)) = self.held else {
            self.reset_structure();
            return pos;
        };
        let mut i = pos;
        while i < chunk.len() {
            let b = chunk[i];
            let k = usize::from(self.closer_len);
            let mut alive = 0u8;
            let mut whole = None;
            let mut names = self.closer_alive;
            while names != 0 {
                let j = names.trailing_zeros();
                names &= names - 1;
                if self.closer_byte(j, k) == Some(b) {
                    alive |= 1 << j;
                    // A key spelled like a structural closer (`</invoke>` for a parameter
                    // named `invoke`) is the parameter's closer first: what it admits
                    // after it is a superset.
                    if self.closer_byte(j, k + 1).is_none()
                        && whole.is_none_or(|w| !self.closes_param(w))
                    {
                        whole = Some(j);
                    }
                }
            }
            if alive == 0 {
                // Not a closer: value text, and this byte is scanned again.
                let bytes = self.closer_prefix(self.closer_alive);
                self.held = None;
                self.phase = Phase::Value;
                let span = Span::new(start, start + bytes.len() as u64);
                if !self.value_bytes(frame, span, &bytes, sink) {
                    self.leave(frame);
                }
                return i;
            }
            self.closer_alive = alive;
            self.closer_len += 1;
            i += 1;
            if let Some(j) = whole {
                let candidate = match self.tagset.closers.get(j as usize) {
                    Some(closer) => closer,
                    None => &KEY_CLOSER,
                };
                self.begin_pending(candidate, start);
                return i;
            }
        }
        i
    }

    /// After a candidate: whitespace, then a delimiter that admits it, decide.
    pub(super) fn pending<S: Sink>(
        &mut self,
        frame: &mut Frame,
        chunk: &[u8],
        pos: usize,
        base: u64,
        sink: &mut S,
    ) -> usize {
        let Some((candidate, start)) = self.held else {
            self.reset_structure();
            return pos;
        };
        if candidate.role == Role::ParamOpen {
            // A line-initial parameter opener inside a value: if a tag begins, the value's
            // closer is missing and the opener ends it (parameters do not nest).
            if begins_tag(candidate, self.tagset.form, chunk[pos]) {
                self.held = None;
                self.flush_newline(frame, start, sink);
                frame.param_end(Span::at(start), sink);
                sink.diagnostic(Span::at(start), Diagnostic::UnclosedParameter);
                self.begin_tag(candidate, start);
            } else {
                self.reject(frame, Rest::None, base + pos as u64, sink);
            }
            return pos;
        }
        if let Some(follow) = self.follow {
            // An opener follows; it counts if a tag begins (the byte is looked at again by
            // the tag lexer).
            let start = self.follow_start();
            if begins_tag(follow, self.tagset.form, chunk[pos]) {
                self.confirm(frame, sink);
                let span = Span::new(start, start + follow.bytes.len() as u64);
                self.on_delimiter(frame, follow, span, sink);
            } else {
                self.reject(frame, Rest::Delimiter(follow), start, sink);
            }
            return pos;
        }
        let mut i = pos;
        if frame.delimiters.state == START {
            while i < chunk.len() && is_ws(chunk[i]) {
                if !self.blank.push(chunk[i]) {
                    self.reject(frame, Rest::None, base + i as u64, sink);
                    return i;
                }
                i += 1;
            }
            if i == chunk.len() {
                return i;
            }
        }
        let dfa = match candidate.role {
            Role::ParamClose | Role::CallClose => self.tagset.after_value,
            _ => self.tagset.section,
        };
        match frame.anchored(dfa, chunk, i) {
            Anchored::Pending => chunk.len(),
            Anchored::Matched(follow, end) => {
                let start = self.follow_start();
                if !self.admits(candidate.role, follow.role, frame.reasoning) {
                    self.reject(frame, Rest::Delimiter(follow), start, sink);
                } else if matches!(follow.role, Role::CallOpen | Role::ParamOpen) {
                    self.follow = Some(follow);
                } else {
                    self.confirm(frame, sink);
                    let span = Span::new(start, start + follow.bytes.len() as u64);
                    self.on_delimiter(frame, follow, span, sink);
                }
                end
            }
            Anchored::Failed(at) => {
                let start = base + at as u64 - frame.delimiters.hold.len() as u64;
                self.reject(frame, Rest::Held, start, sink);
                at
            }
        }
    }

    /// Whether `follow` after `candidate` continues the structure (`reasoning`: the
    /// structure is a draft inside reasoning, which its closer may end).
    pub(super) fn admits(&self, candidate: Role, follow: Role, reasoning: bool) -> bool {
        follow::admits(candidate, follow, reasoning, self.in_section)
    }

    /// The candidate counts: report it and its whitespace, and move to the phase after it.
    pub(super) fn confirm<S: Sink>(&mut self, frame: &mut Frame, sink: &mut S) {
        let blank = core::mem::replace(&mut self.blank, Blank::EMPTY);
        self.follow = None;
        let Some((candidate, start)) = self.held.take() else {
            return;
        };
        let bytes = self.candidate_bytes(candidate);
        let span = Span::new(start, start + bytes.len() as u64);
        // In the element form the closer named after the key is the canonical one.
        if core::ptr::eq(candidate, &KEY_CLOSER) && !self.tagset.form.element {
            sink.diagnostic(span, Diagnostic::MismatchedCloser);
        }
        // A closer of a value that is one of the tagset's aliases is a misspelling of it.
        let misspelled = self.tagset.aliases.contains(&candidate.bytes);
        if (candidate.role == Role::ParamClose || misspelled) && core::mem::take(&mut self.newline)
        {
            // The template's trailing framing newline.
            sink.markup(Span::new(start - 1, start), Markup::Envelope, b"\n");
        }
        self.flush_newline(frame, start, sink);
        match candidate.role {
            Role::ParamClose => {
                sink.markup(span, Markup::Delimiter(candidate.role), &bytes);
                if misspelled {
                    sink.diagnostic(span, Diagnostic::MalformedCloser);
                }
                frame.param_end(span, sink);
                self.phase = Phase::Invoke;
            }
            // A misspelled closer fused with the invoke's (`</parameter_function>`) closes
            // both.
            Role::CallClose if misspelled => {
                frame.param_end(Span::at(start), sink);
                sink.diagnostic(span, Diagnostic::MalformedCloser);
                sink.markup(span, Markup::Delimiter(candidate.role), candidate.bytes);
                self.complete(frame, span, sink);
            }
            Role::CallClose => {
                frame.param_end(Span::at(start), sink);
                sink.diagnostic(Span::at(start), Diagnostic::UnclosedParameter);
                sink.markup(span, Markup::Delimiter(candidate.role), candidate.bytes);
                self.complete(frame, span, sink);
            }
            _ => {
                sink.markup(span, Markup::Delimiter(candidate.role), candidate.bytes);
                self.note_alias(candidate, span, sink);
                self.in_section = true;
                self.phase = Phase::Section;
            }
        }
        let bytes = blank.bytes();
        if !bytes.is_empty() {
            let span = Span::new(span.end, span.end + bytes.len() as u64);
            if self.in_call || self.in_section {
                sink.markup(span, Markup::Envelope, &bytes);
            } else {
                frame.release(span, &bytes, sink);
            }
        }
    }

    /// The candidate does not count: it and its whitespace are value text (text, for a
    /// section opener), and `rest` (what followed them, from offset `rest_start`) is scanned
    /// again in that phase.
    pub(super) fn reject<S: Sink>(
        &mut self,
        frame: &mut Frame,
        rest: Rest,
        rest_start: u64,
        sink: &mut S,
    ) {
        let blank = core::mem::replace(&mut self.blank, Blank::EMPTY);
        self.follow = None;
        let Some((candidate, start)) = self.held.take() else {
            return;
        };
        let blank = blank.bytes();
        let bytes = self.candidate_bytes(candidate);
        let blank_start = start + bytes.len() as u64;
        let candidate_span = Span::new(start, blank_start);
        let blank_span = Span::new(blank_start, blank_start + blank.len() as u64);
        if matches!(
            candidate.role,
            Role::ParamClose | Role::CallClose | Role::ParamOpen
        ) {
            self.phase = Phase::Value;
            // A newline that ends the whitespace before a rejected delimiter is scanned
            // again with it: the value's line-initial openers and closers begin with it.
            let line = match (&rest, blank.last()) {
                (Rest::Delimiter(follow), Some(b'\n')) => newline_then(follow.bytes),
                _ => None,
            };
            let kept = blank.len() - usize::from(line.is_some());
            let blank_span = Span::new(blank_span.start, blank_span.start + kept as u64);
            let rest_start = rest_start - (blank.len() - kept) as u64;
            // Both are reported whatever happens (`&`, not `&&`): once the limit is reached
            // the rest is text.
            let taken = self.value_bytes(frame, candidate_span, &bytes, sink)
                & self.value_bytes(frame, blank_span, &blank[..kept], sink);
            match rest {
                Rest::Held if taken => {
                    let held = frame.delimiters.take();
                    self.refeed(frame, &held, rest_start, sink);
                }
                Rest::Held => self.leave(frame),
                Rest::Delimiter(follow) => {
                    let again = line.as_deref().unwrap_or(follow.bytes);
                    if taken {
                        self.refeed(frame, again, rest_start, sink);
                    } else {
                        let span = Span::new(rest_start, rest_start + again.len() as u64);
                        frame.release(span, again, sink);
                    }
                }
                Rest::None => {}
            }
        } else {
            frame.release(candidate_span, candidate.bytes, sink);
            if !blank.is_empty() {
                frame.release(blank_span, &blank, sink);
            }
            match rest {
                Rest::Held => self.leave(frame),
                Rest::Delimiter(follow) => {
                    self.reset_structure();
                    let span = Span::new(rest_start, rest_start + follow.bytes.len() as u64);
                    if follow.role == Role::CallOpen {
                        // An invoke opener with no tag after it: text, as in the host.
                        frame.release(span, follow.bytes, sink);
                    } else {
                        self.on_delimiter(frame, follow, span, sink);
                    }
                }
                Rest::None => self.reset_structure(),
            }
        }
    }

    /// Reports `bytes` as value text up to the argument limit; past it the call is
    /// invalid and the rest is text. False when the limit was reached.
    pub(super) fn value_bytes<S: Sink>(
        &mut self,
        frame: &mut Frame,
        span: Span,
        bytes: &[u8],
        sink: &mut S,
    ) -> bool {
        if !self.in_call {
            frame.release(span, bytes, sink);
            return true;
        }
        let (take, _) = self.budget.take(0, bytes.len(), &frame.options);
        if take > 0 {
            emit_value(
                &mut self.newline,
                self.tagset.framing,
                frame.call.index,
                Span::new(span.start, span.start + take as u64),
                &bytes[..take],
                sink,
            );
        }
        if take == bytes.len() {
            return true;
        }
        let at = span.start + take as u64;
        self.flush_newline(frame, at, sink);
        frame.invalid(Span::at(at), Diagnostic::ArgumentsTooLong, sink);
        self.reset_structure();
        frame.release(Span::new(at, span.end), &bytes[take..], sink);
        false
    }

    /// Scans bytes taken out of the look-ahead again in the current phase: at most one
    /// delimiter's length, looked at once before. Should the machine go idle among them
    /// (the argument limit), the rest is text.
    pub(super) fn refeed<S: Sink>(
        &mut self,
        frame: &mut Frame,
        bytes: &[u8],
        start: u64,
        sink: &mut S,
    ) {
        let pos = self.run(frame, bytes, 0, start, sink);
        if pos < bytes.len() {
            frame.replay = false;
            let held = frame.delimiters.take();
            let at = start + pos as u64;
            frame.release_held(&held, at, sink);
            frame.release(
                Span::new(at, start + bytes.len() as u64),
                &bytes[pos..],
                sink,
            );
        }
    }
}

/// A newline then `bytes`, when they fit a candidate's buffer.
pub(super) fn newline_then(bytes: &[u8]) -> Option<ArrayVec<u8, CANDIDATE_CAP>> {
    let mut line = ArrayVec::new();
    line.try_extend_from_slice(b"\n").ok()?;
    line.try_extend_from_slice(bytes).ok()?;
    Some(line)
}

/// Reports value bytes of call `call`. With framing, a final `\n` is held back (`newline`)
/// as the value's possible trailing framing, and one held before is reported first.
#[inline(always)]
pub(super) fn emit_value<S: Sink>(
    newline: &mut bool,
    framing: bool,
    call: u32,
    span: Span,
    bytes: &[u8],
    sink: &mut S,
) {
    if !framing && !bytes.is_empty() {
        // Only framed values ever hold a newline back.
        sink.tool_value(span, call, Piece::Verbatim, bytes);
    } else if !bytes.is_empty() {
        emit_framed_value(newline, call, span, bytes, sink);
    }
}

/// [`emit_value`] for a dialect whose values carry framing newlines.
#[inline(never)]
pub(super) fn emit_framed_value<S: Sink>(
    newline: &mut bool,
    call: u32,
    span: Span,
    bytes: &[u8],
    sink: &mut S,
) {
    if core::mem::take(newline) {
        sink.tool_value(
            Span::new(span.start - 1, span.start),
            call,
            Piece::Verbatim,
            b"\n",
        );
    }
    let (bytes, span) = match bytes.split_last() {
        Some((b'\n', rest)) => {
            *newline = true;
            (rest, Span::new(span.start, span.end - 1))
        }
        _ => (bytes, span),
    };
    if !bytes.is_empty() {
        sink.tool_value(span, call, Piece::Verbatim, bytes);
    }
}
