//! The [`Sink`] side of the [`Assembler`]: each scanner event into the completion being
//! built.

use inband::{CallEnd, Diagnostic, Markup, Piece, Sink, Span, ValueKind};

use super::*;

impl Sink for Assembler {
    fn text(&mut self, span: Span, text: &[u8]) {
        let Some((span, text, cut)) = self.limited(span, text) else {
            return;
        };
        self.text_within(span, text);
        if cut {
            self.cut_at_limit();
        }
    }

    fn reasoning(&mut self, span: Span, text: &[u8]) {
        let Some((span, text, cut)) = self.limited(span, text) else {
            return;
        };
        self.reasoning_within(span, text);
        if cut {
            self.cut_at_limit();
        }
    }

    fn markup(&mut self, span: Span, kind: Markup, bytes: &[u8]) {
        if self.skip(span) {
            return;
        }
        match kind {
            // A call opener right after its section's opener (and the whitespace after it)
            // joins it: a draft demoted to reasoning shows its section whole, and a broken
            // call released as text gives its section's opener back (rules 2 and 12).
            Markup::Delimiter(Role::CallOpen) if matches!(self.capture, Capture::Opening(..)) => {
                let token = self.dialect.is_special_token(bytes);
                self.capture(span, bytes, token);
            }
            Markup::Delimiter(role @ (Role::CallOpen | Role::SectionOpen | Role::MarkupOpen)) => {
                let token = self.dialect.is_special_token(bytes);
                self.open_opening(span, bytes, token, role != Role::CallOpen);
            }
            Markup::Delimiter(Role::SectionClose) if self.in_reasoning => {
                self.section_close(span, bytes);
            }
            Markup::Delimiter(Role::SectionClose) => {
                self.end_capture();
                let given_back = self.section_text == SectionText::GivenBack;
                self.section_text = SectionText::None;
                if given_back && !self.dialect.is_special_token(bytes) {
                    self.push_text(bytes);
                }
            }
            // Structure between calls that share a block (Gemini statements, Qwen2.5's
            // back-to-back objects) opens the next call's bytes.
            Markup::Envelope if matches!(self.capture, Capture::None) => {
                self.open_opening(span, bytes, false, false);
            }
            // The separator between a call's header and its arguments (Kimi, DeepSeek), a
            // parameter's tags, and PLaMo 3's name tags, arguments closer and the rest of its
            // arguments opener are the call's own markup, like its closer.
            Markup::Delimiter(
                Role::CallClose
                | Role::ArgsOpen
                | Role::ParamOpen
                | Role::ParamClose
                | Role::NameOpen
                | Role::NameClose
                | Role::ArgsClose,
            ) => {
                let token = self.dialect.is_special_token(bytes);
                self.capture(span, bytes, token);
            }
            Markup::Delimiter(Role::Constrain) if matches!(self.capture, Capture::Call(_)) => {
                let token = self.dialect.is_special_token(bytes);
                self.capture(span, bytes, token);
            }
            Markup::Envelope => self.capture(span, bytes, false),
            // With `stop_at_fabricated_result` the opener is the first byte left out (the
            // scanner reports the fabricated result right after it).
            Markup::Delimiter(Role::ResultOpen) if self.stop_at_fabricated => {}
            Markup::Delimiter(Role::ResultOpen) => {
                self.end_capture();
                self.push_text(bytes);
            }
            _ => self.end_capture(),
        }
    }

    fn reasoning_start(&mut self, span: Span) {
        if self.skip(span) {
            return;
        }
        self.in_reasoning = true;
        self.reasoning.get_or_insert_with(Vec::new);
    }

    fn reasoning_end(&mut self, span: Span) {
        if self.skip(span) {
            return;
        }
        self.in_reasoning = false;
    }

    fn tool_start(&mut self, span: Span, call: u32, name: Option<&[u8]>, provisional: bool) {
        if self.skip(span) {
            return;
        }
        let spare = &mut self.calls.spare;
        let (raw, raw_start, tokens) =
            match std::mem::replace(&mut self.capture, Capture::Call(call)) {
                Capture::Opening(raw, start, tokens, section) => {
                    if section {
                        self.section_text = SectionText::InCall;
                    }
                    (raw, start, tokens)
                }
                _ => (
                    std::mem::take(&mut spare.raw),
                    span.start,
                    std::mem::take(&mut spare.tokens),
                ),
            };
        let mut id = std::mem::take(&mut spare.id);
        let (inner, arguments) = (
            std::mem::take(&mut spare.inner),
            std::mem::take(&mut spare.arguments),
        );
        let dedup = std::mem::take(&mut spare.dedup);
        self.ids.mint_into(&mut id);
        let glued = std::mem::take(&mut self.glued_next);
        let (name, glued_key) = match name {
            Some(name) => {
                let (name, key) = self.call_name(span, glued, name);
                (Some(name), key)
            }
            None => (None, None),
        };
        let record = CallRecord {
            id,
            unsplit: glued && name.is_some() && glued_key.is_none(),
            glued: glued && name.is_none(),
            glued_key,
            name,
            raw,
            raw_start,
            tokens,
            inner,
            inner_start: 0,
            inner_reasoning: false,
            arguments,
            normalizer: ArgumentsNormalizer::new(),
            dedup,
            duplicates: Duplicates::default(),
            end_at: span.end,
            has_args: false,
            params: None,
            provisional,
            end: None,
            broken: false,
            lossy: false,
            in_segment: false,
            exposed: None,
            closed: false,
        };
        // The scanner numbers calls consecutively from 0 and starts each once.
        debug_assert_eq!(call as usize, self.calls.len());
        self.calls.push(record);
        if provisional {
            self.push_draft(call);
        }
    }

    fn tool_id(&mut self, span: Span, call: u32, id: &[u8]) {
        if self.skip(span) {
            return;
        }
        // The model's own id (docs/dialects.md rule 10) replaces the minted one, unless an
        // earlier call of the response has it: results are matched to calls by id, so a
        // repeated id would give one call's result to both.
        let id = String::from_utf8_lossy(id);
        if self.model_ids.contains(id.as_ref()) {
            self.record(
                span,
                "duplicate_call_id",
                "the call repeats an earlier call's id; it keeps a new id",
            );
            return;
        }
        if let Some(record) = self.calls.get_mut(call as usize) {
            // In the record's own buffer; the set of ids keeps its own copy.
            record.id.clear();
            record.id.push_str(&id);
            self.model_ids.insert(id.into_owned());
        }
    }

    fn tool_name(&mut self, span: Span, call: u32, name: &[u8]) {
        if self.skip(span) {
            return;
        }
        let glued = self
            .calls
            .get_mut(call as usize)
            .is_some_and(|record| std::mem::take(&mut record.glued));
        let (name, key) = self.call_name(span, glued, name);
        if let Some(record) = self.calls.get_mut(call as usize) {
            record.unsplit = glued && key.is_none();
            record.glued_key = key;
            record.name = Some(name);
        }
    }

    fn tool_args(&mut self, span: Span, call: u32, json: &[u8]) {
        let Some((span, json, cut)) = self.limited(span, json) else {
            return;
        };
        self.tool_args_within(span, call, json);
        if cut {
            self.cut_at_limit();
        }
    }

    fn tool_param(&mut self, span: Span, call: u32, key: &[u8], kind: ValueKind) {
        if self.skip(span) {
            return;
        }
        if self
            .calls
            .get(call as usize)
            .is_some_and(|record| record.params.is_none())
        {
            // A retired call's buffers.
            let params = std::mem::take(&mut self.calls.spare.params);
            self.calls[call as usize].params = Some(params);
        }
        let Some(record) = self.calls.get_mut(call as usize) else {
            return;
        };
        record.has_args = true;
        let glued_key = record.glued_key.take().filter(|_| key.is_empty());
        let key = glued_key.as_deref().unwrap_or(key);
        let schema = match (&self.tools, kind, &record.name) {
            (Some(tools), ValueKind::Untyped, Some(name)) => {
                let tool = std::str::from_utf8(name).ok().and_then(|n| tools.get(n));
                let key = std::str::from_utf8(key).ok();
                match tool
                    .zip(key)
                    .and_then(|(tool, key)| tool.parameter_types(key))
                {
                    Some(types) => Schema::Types(types),
                    None => Schema::None,
                }
            }
            _ => Schema::None,
        };
        // A reused buffer: no allocation per parameter.
        let text = &mut self.scratch;
        text.clear();
        let issue = record
            .params
            .get_or_insert_with(Params::default)
            .begin(key, kind, schema, text);
        let found = record.dedup.feed(text, &mut record.arguments);
        record.duplicates.add(found);
        self.param_issue(span, issue);
    }

    fn tool_value(&mut self, span: Span, call: u32, piece: Piece, bytes: &[u8]) {
        let Some((span, bytes, cut)) = self.limited(span, bytes) else {
            return;
        };
        self.tool_value_within(span, call, piece, bytes);
        if cut {
            self.cut_at_limit();
        }
    }

    fn tool_param_end(&mut self, span: Span, call: u32) {
        if self.skip(span) {
            return;
        }
        let Some(record) = self.calls.get_mut(call as usize) else {
            return;
        };
        let text = &mut self.scratch;
        text.clear();
        let issue = match &mut record.params {
            Some(params) => params.end(text),
            None => None,
        };
        let found = record.dedup.feed(text, &mut record.arguments);
        record.duplicates.add(found);
        self.param_issue(span, issue);
    }

    fn tool_end(&mut self, span: Span, call: u32, end: CallEnd) {
        if self.skip(span) {
            return;
        }
        if matches!(self.capture, Capture::Call(c) if c == call) {
            self.capture = Capture::None;
        }
        let Some(record) = self.calls.get_mut(call as usize) else {
            return;
        };
        record.end = Some(end);
        record.end_at = span.end;
        let provisional = record.provisional;
        match end {
            CallEnd::Complete => {
                if self.section_text == SectionText::InCall {
                    // Its section opener was structure: so is the closer.
                    self.section_text = SectionText::None;
                }
                self.commit(span, call);
            }
            CallEnd::Invalid => {
                let raw = std::mem::take(&mut record.raw);
                let raw = self.strip_tokens(call, raw);
                if provisional {
                    // Shown with its draft segment.
                    self.calls[call as usize].raw = raw;
                } else {
                    if self.section_text == SectionText::InCall {
                        self.section_text = SectionText::GivenBack;
                    }
                    self.release(call, raw);
                }
            }
            CallEnd::Incomplete => {
                self.show_inner(call);
                // Its argument text is final now (a stop token may cut a call off before
                // the stream ends): a stream sends the rest with the call's last delta.
                self.close_incomplete();
            }
            CallEnd::Demoted => {}
        }
        self.settled(call);
    }

    fn fabricated_result(&mut self, span: Span) {
        if self.skip(span) {
            return;
        }
        self.record(
            span,
            "fabricated_result",
            "the model began writing a tool result itself",
        );
        self.stopped = self.stop_at_fabricated;
    }

    fn diagnostic(&mut self, span: Span, diagnostic: Diagnostic) {
        if self.skip(span) {
            return;
        }
        if diagnostic == Diagnostic::MissingKeyOpen {
            self.glued_next = true;
        }
        self.record(span, diagnostic.code(), diagnostic.message());
    }
}

impl Assembler {
    /// [`Sink::text`] for the part of the event within the response limit.
    fn text_within(&mut self, span: Span, text: &[u8]) {
        if !matches!(self.capture, Capture::None) {
            if self.open_capture(span, text, false) {
                // Checked when it is shown, where the call stood.
                return;
            }
            self.release_opening();
        }
        self.content_utf8
            .check(span.start, text, &mut self.bad_utf8);
        self.content.extend_from_slice(text);
    }

    /// [`Sink::reasoning`] for the part of the event within the response limit.
    fn reasoning_within(&mut self, span: Span, text: &[u8]) {
        // Reasoning whether or not a call holds it: checked now.
        self.reasoning_utf8
            .check(span.start, text, &mut self.bad_utf8);
        if !matches!(self.capture, Capture::None) {
            if self.open_capture(span, text, true) {
                return;
            }
            self.release_opening();
        }
        self.push_reasoning(text);
    }

    /// [`Sink::tool_args`] for the part of the event within the response limit.
    fn tool_args_within(&mut self, span: Span, call: u32, json: &[u8]) {
        self.capture(span, json, false);
        if let Some(record) = self.calls.get_mut(call as usize) {
            record.has_args = true;
            let CallRecord {
                normalizer,
                arguments,
                dedup,
                duplicates,
                ..
            } = record;
            normalizer.feed(json, &mut |bytes| {
                duplicates.add(dedup.feed(bytes, arguments))
            });
        }
    }

    /// [`Sink::tool_value`] for the part of the event within the response limit.
    fn tool_value_within(&mut self, span: Span, call: u32, piece: Piece, bytes: &[u8]) {
        self.capture(span, bytes, false);
        if let Some(record) = self.calls.get_mut(call as usize) {
            if let Some(params) = &mut record.params {
                // A reused buffer: no allocation per argument fragment.
                let text = &mut self.scratch;
                text.clear();
                params.value(piece, bytes, text);
                let found = record.dedup.feed(text, &mut record.arguments);
                record.duplicates.add(found);
            }
        }
    }
}
