//! The structure outside values: sections, invokes and the tags that open them.

use super::*;

impl ParamCalls {
    /// Whitespace then, at the first other byte, an anchored match against `dfa`.
    pub(super) fn scan_structure<S: Sink>(
        frame: &mut Frame,
        dfa: &Dfa,
        chunk: &[u8],
        pos: usize,
        base: u64,
        sink: &mut S,
    ) -> Found {
        let at = |i: usize| base + i as u64;
        let mut i = pos;
        if frame.delimiters.state == START {
            i = envelope_while(chunk, base, i, is_ws, sink);
            if i == chunk.len() {
                return Found::End;
            }
        }
        match frame.anchored(dfa, chunk, i) {
            Anchored::Pending => Found::End,
            Anchored::Matched(delimiter, end) => {
                let span = Span::new(at(end) - delimiter.bytes.len() as u64, at(end));
                Found::Delimiter(delimiter, span, end)
            }
            Anchored::Failed(candidate) => Found::Stray(candidate),
        }
    }

    /// Between invokes inside a section.
    pub(super) fn section<S: Sink>(
        &mut self,
        frame: &mut Frame,
        chunk: &[u8],
        pos: usize,
        base: u64,
        sink: &mut S,
    ) -> usize {
        match Self::scan_structure(frame, self.tagset.section, chunk, pos, base, sink) {
            Found::End => chunk.len(),
            Found::Delimiter(delimiter, span, end) => {
                self.on_delimiter(frame, delimiter, span, sink);
                end
            }
            Found::Stray(candidate) => {
                // Text cannot be in a section: it ended without its closer (an implied
                // section has none).
                let start = base + candidate as u64 - frame.delimiters.hold.len() as u64;
                if !self.implied {
                    sink.diagnostic(Span::at(start), Diagnostic::UnclosedSection);
                }
                self.leave(frame);
                candidate
            }
        }
    }

    /// Inside an invoke, between parameters.
    pub(super) fn invoke<S: Sink>(
        &mut self,
        frame: &mut Frame,
        chunk: &[u8],
        pos: usize,
        base: u64,
        sink: &mut S,
    ) -> usize {
        match Self::scan_structure(frame, self.tagset.invoke, chunk, pos, base, sink) {
            Found::End => chunk.len(),
            Found::Delimiter(delimiter, span, end) => {
                self.on_delimiter(frame, delimiter, span, sink);
                end
            }
            Found::Stray(candidate) => {
                // Text between parameters: the call is broken, and so is its section.
                let start = base + candidate as u64 - frame.delimiters.hold.len() as u64;
                frame.invalid(Span::new(start, start + 1), Diagnostic::MalformedCall, sink);
                self.leave(frame);
                candidate
            }
        }
    }

    /// Acts on a delimiter found in the section or invoke phase, or confirmed after a value
    /// (then the phase is the one the closer returned to).
    pub(super) fn on_delimiter<S: Sink>(
        &mut self,
        frame: &mut Frame,
        delimiter: &'static Delimiter,
        span: Span,
        sink: &mut S,
    ) {
        match delimiter.role {
            Role::CallOpen | Role::ParamOpen => self.begin_tag(delimiter, span.start),
            Role::CallClose if !self.in_call => {
                // Between the calls of a section: a model closing twice.
                sink.markup(span, Markup::Delimiter(delimiter.role), delimiter.bytes);
                sink.diagnostic(span, Diagnostic::StrayCloser);
            }
            Role::CallClose => {
                sink.markup(span, Markup::Delimiter(delimiter.role), delimiter.bytes);
                self.complete(frame, span, sink);
            }
            Role::SectionClose => {
                if self.in_call {
                    sink.diagnostic(Span::at(span.start), Diagnostic::UnclosedInvoke);
                    self.complete(frame, Span::at(span.start), sink);
                }
                sink.markup(span, Markup::Delimiter(delimiter.role), delimiter.bytes);
                self.note_alias(delimiter, span, sink);
                self.reset_structure();
            }
            Role::ParamClose => {
                // Between parameters: a model closing twice.
                sink.markup(span, Markup::Delimiter(delimiter.role), delimiter.bytes);
                sink.diagnostic(span, Diagnostic::StrayCloser);
            }
            _ => {
                // A stop token or the reasoning closer: the structure ends here, and the
                // delimiter means what it means in text.
                if self.in_call && delimiter.role == Role::ReasoningClose && frame.reasoning {
                    // A draft whose invoke lost its closer: the reasoning closer demotes it
                    // with the other drafts (rule 7).
                    sink.diagnostic(Span::at(span.start), Diagnostic::UnclosedInvoke);
                    self.complete(frame, Span::at(span.start), sink);
                    self.in_section = false;
                } else if self.in_call {
                    self.flush_newline(frame, span.start, sink);
                    frame.truncate(Span::at(span.start), sink);
                } else if self.in_section && !self.implied {
                    sink.diagnostic(Span::at(span.start), Diagnostic::UnclosedSection);
                }
                self.reset_structure();
                let host = matches!(delimiter.role, Role::MessageStart | Role::MessageEnd);
                if host || (delimiter.role == Role::ReasoningClose && !frame.reasoning) {
                    // A reasoning closer outside reasoning means what the host's text says
                    // it means (text in `xml`, a stray token in `deepseek`, rule 12), and a
                    // message token is the message machine's (Muse's `<|eom|>`, which
                    // embeds this machine in a tool message): it is handed back whole, to
                    // be scanned again there. The callers return the offset right after
                    // it, which is where the replay must end.
                    debug_assert!(frame.delimiters.hold.is_empty(), "a match clears the hold");
                    frame.delimiters.hold.clear();
                    let kept = frame.delimiters.hold.try_extend_from_slice(delimiter.bytes);
                    debug_assert!(kept.is_ok(), "a delimiter fits the hold");
                    self.leave(frame);
                } else {
                    frame.text_delimiter(delimiter, span, sink);
                }
            }
        }
    }

    /// The current call's structure closed.
    pub(super) fn complete<S: Sink>(&mut self, frame: &mut Frame, span: Span, sink: &mut S) {
        self.in_call = false;
        frame.complete(span, sink);
        self.phase = if self.in_section {
            Phase::Section
        } else {
            Phase::Idle
        };
    }

    /// Reads the tag after its opener.
    pub(super) fn tag<S: Sink>(
        &mut self,
        frame: &mut Frame,
        chunk: &[u8],
        pos: usize,
        base: u64,
        sink: &mut S,
    ) -> usize {
        let (n, push) = self.tag.scan(&chunk[pos..]);
        let i = pos + n;
        let Some((opener, start)) = self.held else {
            self.reset_structure();
            return i;
        };
        let opener_span = Span::new(start, start + opener.bytes.len() as u64);
        let tail_span = Span::new(opener_span.end, base + i as u64);
        let diagnostic = match push {
            Push::More => return i,
            Push::Unterminated | Push::Done { .. } => {
                let self_closing = matches!(push, Push::Done { self_closing: true });
                self.held = None;
                if opener.role == Role::ParamOpen {
                    self.param_tag(frame, opener, opener_span, tail_span, self_closing, sink);
                } else {
                    self.invoke_tag(frame, opener, opener_span, tail_span, self_closing, sink);
                }
                if push == Push::Unterminated {
                    sink.diagnostic(Span::at(tail_span.end), Diagnostic::UnclosedTag);
                }
                return i;
            }
            Push::NotATag => None,
            Push::Malformed => Some(Diagnostic::MalformedTag),
            Push::TooLong => Some(Diagnostic::TagTooLong),
        };
        self.held = None;
        self.broken_tag(frame, opener, opener_span, tail_span, diagnostic, sink);
        i
    }

    /// A tag that is not one: inside a call it breaks the call (its bytes are the call's
    /// markup); elsewhere it is text. Either way the structure ends and the byte that
    /// broke it is scanned again by the host.
    pub(super) fn broken_tag<S: Sink>(
        &mut self,
        frame: &mut Frame,
        opener: &'static Delimiter,
        opener_span: Span,
        tail_span: Span,
        diagnostic: Option<Diagnostic>,
        sink: &mut S,
    ) {
        let tail = self.tag.bytes();
        if self.in_call {
            // Not a delimiter after all: the call's bytes, which its end gives back.
            sink.markup(opener_span, Markup::Envelope, opener.bytes);
            if !tail.is_empty() {
                sink.markup(tail_span, Markup::Envelope, tail);
            }
            let diagnostic = diagnostic.unwrap_or(Diagnostic::MalformedCall);
            frame.invalid(opener_span, diagnostic, sink);
        } else {
            frame.release(opener_span, opener.bytes, sink);
            if !tail.is_empty() {
                frame.release(tail_span, tail, sink);
            }
            if let Some(diagnostic) = diagnostic {
                sink.diagnostic(Span::new(opener_span.start, tail_span.end), diagnostic);
            }
            if self.in_section && !self.implied {
                sink.diagnostic(Span::at(tail_span.end), Diagnostic::UnclosedSection);
            }
        }
        self.reset_structure();
    }

    /// An invoke tag closed: a call begins (ending the open one, whose closer is missing).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn invoke_tag<S: Sink>(
        &mut self,
        frame: &mut Frame,
        opener: &'static Delimiter,
        opener_span: Span,
        tail_span: Span,
        self_closing: bool,
        sink: &mut S,
    ) {
        let name = match self.tag.name() {
            None => Err(Diagnostic::MissingName),
            Some((raw, offset)) => {
                let (lead, name) = trim(raw);
                if name.len() <= MAX_NAME && valid_name(name) {
                    let start = tail_span.start + (offset + lead) as u64;
                    Ok((
                        Span::new(start, start + name.len() as u64),
                        offset + lead,
                        name.len(),
                    ))
                } else {
                    Err(Diagnostic::InvalidName)
                }
            }
        };
        let (name_span, from, len) = match name {
            Ok(name) => name,
            Err(diagnostic) => {
                self.broken_tag(
                    frame,
                    opener,
                    opener_span,
                    tail_span,
                    Some(diagnostic),
                    sink,
                );
                return;
            }
        };
        if self.in_call {
            sink.diagnostic(Span::at(opener_span.start), Diagnostic::UnclosedInvoke);
            self.in_call = false;
            frame.complete(Span::at(opener_span.start), sink);
        }
        sink.markup(opener_span, Markup::Delimiter(opener.role), opener.bytes);
        sink.markup(tail_span, Markup::Envelope, self.tag.bytes());
        if !self.in_section && self.tagset.bare_call == BareCall::MissingSection {
            sink.diagnostic(opener_span, Diagnostic::MissingSection);
            self.in_section = true;
            self.implied = true;
        }
        if !frame.open_call(opener_span, sink) {
            self.reset_structure();
            return;
        }
        frame.name(name_span, &self.tag.bytes()[from..from + len], sink);
        self.in_call = true;
        self.budget = Budget::EMPTY;
        if self_closing {
            self.complete(frame, Span::at(tail_span.end), sink);
        } else {
            self.phase = Phase::Invoke;
        }
    }

    /// A parameter tag closed: its value begins.
    pub(super) fn param_tag<S: Sink>(
        &mut self,
        frame: &mut Frame,
        opener: &'static Delimiter,
        opener_span: Span,
        tail_span: Span,
        self_closing: bool,
        sink: &mut S,
    ) {
        if self.tagset.form.element && self.tag.bytes().first() == Some(&b'/') {
            self.element_closer(frame, opener, opener_span, tail_span, sink);
            return;
        }
        let tail = self.tag.bytes();
        if self.tagset.form.element
            && tail.starts_with(INVOKE)
            && tail.get(INVOKE.len()).is_some_and(|&b| is_ws(b))
        {
            self.element_invoke(frame, opener, opener_span, tail_span, sink);
            return;
        }
        let tail = self.tag.bytes();
        sink.markup(opener_span, Markup::Delimiter(opener.role), opener.bytes);
        sink.markup(tail_span, Markup::Envelope, tail);
        let key = self.tag.name().map(|(raw, offset)| {
            let (lead, key) = trim(raw);
            (key, tail_span.start + (offset + lead) as u64)
        });
        let Some((key, key_start)) = key.filter(|(key, _)| !key.is_empty()) else {
            frame.invalid(opener_span, Diagnostic::MissingKey, sink);
            self.reset_structure();
            return;
        };
        if !valid_name(key) {
            // Rule 9: a key the arguments could not carry as written ends the call.
            frame.invalid(opener_span, Diagnostic::InvalidName, sink);
            self.reset_structure();
            return;
        }
        let typed = self.tagset.form.kind.is_some();
        let kind = match self.tag.string().map(|s| trim(s).1) {
            None => ValueKind::Untyped,
            // A JSON type word (Kimi K3's `type`): `string` is raw text, another word JSON.
            Some(s) if typed && s.eq_ignore_ascii_case(b"string") => ValueKind::Text,
            Some(s) if typed && valid_name(s) => ValueKind::Json,
            Some(s) if !typed && s.eq_ignore_ascii_case(b"true") => ValueKind::Text,
            Some(s) if !typed && s.eq_ignore_ascii_case(b"false") => ValueKind::Json,
            Some(_) => {
                sink.diagnostic(tail_span, Diagnostic::InvalidStringAttribute);
                ValueKind::Untyped
            }
        };
        frame.param(
            Span::new(key_start, key_start + key.len() as u64),
            key,
            kind,
            sink,
        );
        if self_closing {
            frame.param_end(Span::at(tail_span.end), sink);
            self.phase = Phase::Invoke;
        } else {
            self.phase = Phase::Value;
            self.lead = self.tagset.framing;
        }
    }
}

/// The element name that, followed by whitespace, is an invoke tag in the element form.
const INVOKE: &[u8] = b"invoke";

impl ParamCalls {
    /// An element tag named `invoke` where a parameter may begin (the `element` tag form):
    /// the next invoke, whose opener is the `section` mode's, so the open invoke's closer
    /// is missing. Its attributes are read again as an invoke tag's; a tag that is not one
    /// breaks the call.
    fn element_invoke<S: Sink>(
        &mut self,
        frame: &mut Frame,
        opener: &'static Delimiter,
        opener_span: Span,
        tail_span: Span,
        sink: &mut S,
    ) {
        let mut rest: ArrayVec<u8, MAX_TAG> = ArrayVec::new();
        rest.extend(self.tag.bytes()[INVOKE.len()..].iter().copied());
        let dfa = self.tagset.section;
        let mut state = START;
        for &b in opener.bytes.iter().chain(INVOKE) {
            state = dfa.next(state, b);
        }
        let whole = opener.bytes.len() + INVOKE.len();
        let call_open = dfa
            .matched(state)
            .filter(|d| d.role == Role::CallOpen && d.bytes.len() == whole);
        let mut tag = TagLexer::spelled(self.tagset.form, false);
        let (n, push) = tag.scan(&rest);
        match (call_open, push) {
            (Some(call_open), Push::Done { self_closing }) if n == rest.len() => {
                self.tag = tag;
                let split = opener_span.start + whole as u64;
                let open_span = Span::new(opener_span.start, split);
                let tail = Span::new(split, tail_span.end);
                self.invoke_tag(frame, call_open, open_span, tail, self_closing, sink);
            }
            _ => self.broken_tag(frame, opener, opener_span, tail_span, None, sink),
        }
    }

    /// An element tag starting with `/` where a parameter may begin (the `element` tag
    /// form, MiniMax-M3's `]<]minimax[>[</invoke>`): the structural closer it spells, found
    /// among the `section` mode's delimiters, acts as if the automaton had matched it; any
    /// other closer there breaks the call.
    fn element_closer<S: Sink>(
        &mut self,
        frame: &mut Frame,
        opener: &'static Delimiter,
        opener_span: Span,
        tail_span: Span,
        sink: &mut S,
    ) {
        let tail = self.tag.bytes();
        let dfa = self.tagset.section;
        let mut state = START;
        for &b in opener.bytes.iter().chain(tail) {
            state = dfa.next(state, b);
        }
        let whole = opener.bytes.len() + tail.len();
        match dfa.matched(state) {
            Some(delimiter)
                if delimiter.bytes.len() == whole
                    && matches!(delimiter.role, Role::CallClose | Role::SectionClose) =>
            {
                let span = Span::new(opener_span.start, tail_span.end);
                self.on_delimiter(frame, delimiter, span, sink);
            }
            _ => self.broken_tag(frame, opener, opener_span, tail_span, None, sink),
        }
    }
}

/// Whether `opener` is the equals form (`<function=`, `<parameter=`), whose name follows
/// it directly.
pub(super) fn equals_form(opener: &Delimiter) -> bool {
    opener.bytes.last() == Some(&b'=')
}

/// Whether byte `b` right after `opener` begins its tag: a name byte in the equals form
/// (or a name byte or `/` after an element form's parameter opener);
/// whitespace, `>` or `/` otherwise (`<parameterx` is no tag), or the first byte of a
/// longer tag end (`form`'s `<|sep|>`).
pub(super) fn begins_tag(opener: &Delimiter, form: &TagForm, b: u8) -> bool {
    if form.element && opener.role == Role::ParamOpen {
        // An element's name, or the `/` of a closer.
        !is_ws(b) && !matches!(b, b'<' | b'>' | b'=')
    } else if equals_form(opener) {
        !is_ws(b) && !matches!(b, b'<' | b'>' | b'/' | b'=')
    } else if form.end.len() > 1 {
        is_ws(b) || b == form.end[0]
    } else {
        is_ws(b) || b == b'>' || b == b'/'
    }
}
