//! Assembly: scanner events → a whole [`Completion`] (content, reasoning, complete tool
//! calls with parsed arguments, incomplete calls, diagnostics), the way a non-streaming
//! server response or an agent runtime needs it.
//!
//! ## Parameters
//!
//! A call whose arguments arrive as parameters ([`Sink::tool_param`], its value's
//! [`Sink::tool_value`] pieces, [`Sink::tool_param_end`]: the markup family, Gemma and
//! Gemini) gets its arguments' JSON text built as the values arrive: `{"path":` then the
//! value, `,"count":` and the next, `}` when the call completes (`{}` for a call without
//! parameters). A value typed as a string and a literal value stream: a string's bytes go
//! out escaped as they come, between quotes, a literal value's JSON text piece by piece.
//! Any other value goes out once it is complete. The concatenation is exactly the JSON text
//! the arguments are parsed from. A call cut off by the end of the stream ends with the
//! value being written as far as it was written ([`IncompleteCall::arguments`]).
//!
//! ## Typing (docs/dialects.md rule 8)
//!
//! Values are typed by their [`ValueKind`](inband::ValueKind) and, for a raw-text value the markup does not
//! type ([`ValueKind::Untyped`](inband::ValueKind::Untyped): GLM, the XML family, qwen3-coder), by the JSON Schema of
//! the parameter in [`AssembleOptions::tools`] (the same rule in every dialect):
//!
//! - [`ValueKind::Text`](inband::ValueKind::Text) (DSML `string="true"`, which overrides the schema): the exact
//!   text, as a JSON string;
//! - [`ValueKind::Json`](inband::ValueKind::Json) (DSML `string="false"`, which overrides the schema): the value's
//!   own JSON text, trimmed, after the bounded repair of [`ArgumentsNormalizer`] (Python
//!   `True`/`False`/`None`, single-quoted strings, trailing commas, invalid escapes; a
//!   `repaired_arguments` diagnostic says so); if even that does not parse, the exact text
//!   as a string, with an `invalid_json_value` diagnostic;
//! - [`ValueKind::Untyped`](inband::ValueKind::Untyped), typed by the parameter's schema. The schema is the entry of the
//!   tool's `parameters.properties` (else an object `additionalProperties`); the types it
//!   admits are read from `type` (a name or a list), `enum`/`const` (the types of their
//!   values, without `type`), `nullable`, `anyOf`/`oneOf` (union), `allOf`
//!   (intersection) and local `$ref`s (`#/$defs/…`), see
//!   [`JsonTypes::of`](crate::tools::JsonTypes::of):
//!   - **string only** (`{"type": "string"}`, an enum of strings): the exact text, no
//!     trimming, no entity decoding, streamed as it arrives;
//!   - **no string admitted** (`integer`, `number`, `boolean`, `null`, `object`, `array`
//!     and their unions): the value's JSON text, trimmed, after the bounded repair (a
//!     `repaired_arguments` diagnostic says so), when its type is admitted; else the exact
//!     text as a string, with an `invalid_typed_value` diagnostic when it is not JSON even
//!     after repair, a `schema_type_mismatch` one when it is JSON of another type. An
//!     `integer` admits any number with an integral value (`5`, `140.0`, `1e3`: JSON
//!     Schema's own rule), written as the model wrote it; `1.5` for an `integer` is the
//!     string `"1.5"` with `schema_type_mismatch`;
//!   - **string and other types** (`["string", "integer"]`, `["string", "null"]`, an
//!     `anyOf` with a string branch): the value's strict JSON, trimmed, when its type is
//!     admitted (`7`; `null` when null is admitted; `"x"` as the string `x`); a repair
//!     counts only when it gives an admitted value that is not a string (`True` is `true`
//!     for `string|boolean`); anything else is the exact text, without a diagnostic (a
//!     string is admitted): `null` for `string|integer` is the string `"null"`, `'x'` is
//!     the string `'x'`;
//!   - **no schema** (no tools, an unknown tool, a tool without `parameters`, a parameter
//!     the schema does not describe, a schema that constrains nothing such as `{}`, a name
//!     that arrives after the arguments): the value's JSON text, trimmed, when the whole
//!     value is strict JSON (`7`, `[1, 2]`, `"x"`, `null`), else the exact text as a
//!     string (`5 apples`, `True`: Python literals are not converted without a schema);
//! - [`ValueKind::Gemma`](inband::ValueKind::Gemma), [`ValueKind::Python`](inband::ValueKind::Python) (types from the syntax, no schema): the
//!   literal translated to JSON piece by piece, without re-lexing: strings with their
//!   escapes decoded (Python's adjacent strings joined), `True`/`False`/`None` as
//!   `true`/`false`/`null`, Python numbers (`1_000`, `0x1F`, `1.`, `.5`, `+3`) as JSON
//!   numbers, lists and tuples as arrays, dicts and Gemma objects as objects (a trailing
//!   comma dropped), an empty value as `""`. Other bare words, a non-string dict key and a
//!   call written as a value (`x=f(y=1)`) become the string of their text: a repair, with a
//!   `repaired_arguments` diagnostic.
//!
//! Nothing is re-serialised: a typed value's JSON text is the model's own (trimmed,
//! repaired where needed), so `140.0` stays `140.0`.
//!
//! A `repaired_arguments` diagnostic comes once per call, at the end of the first value
//! that needed a repair.
//!
//! ## Arguments
//!
//! One rule for every dialect and every output: **when a key repeats in an object of the
//! arguments, the first value wins**, at every nesting level, whether the arguments came
//! as JSON (JSON-in-tags, special tokens, Harmony) or as parameters (raw-text or literal,
//! including dict keys and JSON values of a parameter). Keys are compared as JSON reads
//! them (`"path"` is `"path"`). The later key is left out of the argument text as it
//! streams, with its comma and its value, so the streamed fragments, the parsed
//! [`ToolCall::arguments`], [`IncompleteCall::arguments`] and the CLI all hold the first
//! value and nothing else: every JSON parser, whether it keeps the first or the last of a
//! duplicate, reads the same arguments. Each left-out key gets a diagnostic:
//! `duplicate_parameter` for a parameter of the call (a top-level key), `duplicate_key`
//! for a key of a nested object. A JSON call's diagnostics span the whole call (their
//! spans do not depend on the chunking); a raw-text or literal parameter's spans its tag.
//! While a key is being written it is held back (with the comma before it) until its
//! closing quote: a key streams whole. A left-out value must still be one JSON value:
//! `{"a": 1, "a": 2 3}` is not JSON, and leaving its second member out does not make it
//! JSON (the call is text, with `invalid_arguments`).
//!
//! Numbers are the model's text: the argument text streams them unchanged, and
//! [`ToolCall::arguments`] is a [`serde_json::Value`] with `arbitrary_precision`, whose
//! numbers keep every digit (`123456789012345678901234567890`, `0.1000000000000000000001`,
//! `1e999`: nothing is rounded to f64 and nothing overflows). serde_json writes an
//! exponent in one form (`1E5` as `1e+5`); [`serde_json::Number::as_f64`] and friends
//! convert on request. A literal number that is not JSON (`0x1F`, `1_000`, `1.`) is
//! written as the decimal JSON number of the same value, every digit kept. Arguments that
//! nest arrays and objects deeper than 127 levels do not parse (serde_json's recursion
//! limit): the call is text, with an `invalid_arguments` diagnostic.

use inband::{
    ArgumentsNormalizer, CallEnd, Diagnostic, Dialect, Options, Role, Scanner, Sink, Span,
};
use std::borrow::Cow;
use std::collections::HashSet;
use std::ops::Range;

use serde_json::Value;

use crate::dedup::{Duplicates, FirstKeyWins};
use crate::ids::IdMinter;
use crate::params::{ParamIssue, Params, Schema};
use crate::stream::Exposed;
use crate::tools::ToolSet;

mod bounds;
mod capture;
mod names;
mod output;
mod sink;
mod utf8;

use bounds::Calls;
pub(crate) use bounds::Keep;
pub use bounds::DEFAULT_MAX_RESPONSE_BYTES;
pub use output::{AssembleOptions, Completion, DiagnosticRecord, IncompleteCall, ToolCall};
use utf8::{trimmed_text, Utf8Check};

/// Deepest nesting of lists and objects (counted together) in a call's arguments that the
/// assembler parses, the arguments object itself being level 1: serde_json's recursion
/// limit, which keeps parsing, serialising and dropping a value within any thread's stack.
/// Deeper arguments do not parse (the call is released as text with an
/// `invalid_arguments` diagnostic), so each argument's value nests at most one level less;
/// the renderers refuse more (`render::Reason::TooDeep`). The core scanner itself counts
/// JSON depth without a limit.
pub const MAX_ARGUMENT_DEPTH: usize = crate::json::MAX_DEPTH;

/// Scans `chunks` as one response and assembles it.
///
/// Memory: the completion (content, reasoning, calls, diagnostics) and the open calls; a
/// settled call keeps nothing but its place in the completion. A response longer than
/// [`AssembleOptions::max_response_bytes`] is cut there (`response_too_long`).
///
/// # Panics
/// Without a seed, if the operating system's random source fails (see
/// [`IdMinter::random`]).
pub fn assemble<'a>(
    dialect: Dialect,
    options: Options,
    assemble_options: &AssembleOptions,
    chunks: impl IntoIterator<Item = &'a [u8]>,
) -> Completion {
    let mut scanner = Scanner::new(dialect, options);
    let mut assembler = Assembler::new(dialect, assemble_options);
    for chunk in chunks {
        scanner
            .feed(chunk, &mut assembler)
            .expect("a new scanner is not finished");
    }
    scanner
        .finish(&mut assembler)
        .expect("a new scanner is not finished");
    assembler.finish()
}

#[derive(Debug)]
pub(crate) enum Segment {
    Text(Vec<u8>),
    /// A call drafted inside reasoning: its raw bytes if demoted, only the text written
    /// inside it if it became a call (see [`CallRecord::draft_text`]). Also a call whose
    /// bytes went back to reasoning text (a broken call of a Harmony `analysis` message):
    /// its raw bytes.
    Draft(u32),
}

/// What became of the section opener a call's bytes began with (`Assembler::section_text`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum SectionText {
    /// No section opener is pending.
    None,
    /// The open call's bytes hold its section's opener.
    InCall,
    /// That call was given back as text: so is the section's closer.
    GivenBack,
}

#[derive(Debug)]
pub(crate) struct CallRecord {
    pub(crate) id: String,
    pub(crate) name: Option<Vec<u8>>,
    raw: Vec<u8>,
    /// Stream offset of the call's first byte.
    raw_start: u64,
    /// Where `raw` holds delimiters that are special tokens of the model's vocabulary, and
    /// their spans: left out when the bytes are given back as text (docs/dialects.md rule 12).
    tokens: Vec<(Range<usize>, Span)>,
    /// Text or reasoning the scanner reported while the call was open (bytes between its
    /// arguments and its closer); also in `raw`, in stream order. Shown where the call
    /// stood when the call itself is not shown as text.
    inner: Vec<u8>,
    /// Stream offset of the first byte of `inner`.
    inner_start: u64,
    /// `inner` came as reasoning.
    inner_reasoning: bool,
    /// Normalised argument text so far; after the call completes, the whole JSON text.
    pub(crate) arguments: Vec<u8>,
    normalizer: ArgumentsNormalizer,
    /// Leaves repeated keys out of `arguments` as it grows.
    dedup: FirstKeyWins,
    /// The repeated keys left out so far, reported when the call ends.
    duplicates: Duplicates,
    /// Stream offset of the end of the call's last event (its end, once it ended).
    end_at: u64,
    has_args: bool,
    /// The call's parameters (raw-text or literal), when its arguments come that way:
    /// `arguments` is then built from them (see [`crate::params`]).
    params: Option<Params>,
    pub(crate) provisional: bool,
    pub(crate) end: Option<CallEnd>,
    /// Its arguments did not parse: it is text after all.
    pub(crate) broken: bool,
    /// Its arguments held bytes that are not UTF-8 (replaced with U+FFFD).
    lossy: bool,
    /// Its name ran into its first key (GLM, [`Diagnostic::MissingKeyOpen`]) and is not
    /// split yet.
    glued: bool,
    /// The first key, split off a glued name by the tool list.
    glued_key: Option<Vec<u8>>,
    /// A glued name that no declared tool name begins: the call is text.
    pub(crate) unsplit: bool,
    /// A reasoning [`Segment::Draft`] names this call and was not yet turned into text.
    pub(crate) in_segment: bool,
    /// [`DeltaStream`](crate::stream::DeltaStream) only: the call's exposure to clients.
    pub(crate) exposed: Option<Exposed>,
    /// An incomplete call whose argument text was ended (`Assembler::close_incomplete`).
    closed: bool,
}

impl CallRecord {
    /// A draft that turned out not to be a call: its bytes are reasoning text.
    pub(crate) fn shows_as_text(&self) -> bool {
        self.broken || matches!(self.end, Some(CallEnd::Demoted | CallEnd::Invalid))
    }

    /// What an ended draft shows in the reasoning: its raw bytes when it is not a call,
    /// else the text written inside it.
    pub(crate) fn draft_text(&self) -> &[u8] {
        if self.shows_as_text() {
            &self.raw
        } else {
            &self.inner
        }
    }
}

/// Whose raw bytes the markup and argument events belong to.
#[derive(Debug)]
enum Capture {
    None,
    /// A call opener (or a section opener before it) was seen at this offset; the call has
    /// not started yet. The ranges of the bytes that are special tokens, with their spans;
    /// whether they begin with a section opener (not a call opener, not the whitespace
    /// between two calls): text right after it gives it back.
    Opening(Vec<u8>, u64, Vec<(Range<usize>, Span)>, bool),
    Call(u32),
}

/// A [`Sink`] that assembles a [`Completion`]; call [`Assembler::finish`] after the
/// scanner's own `finish`. Its memory is bounded as [`assemble`]'s.
#[derive(Debug)]
pub struct Assembler {
    dialect: Dialect,
    ids: IdMinter,
    tools: Option<ToolSet>,
    pub(crate) content: Vec<u8>,
    pub(crate) reasoning: Option<Vec<Segment>>,
    in_reasoning: bool,
    /// The open call's bytes begin with its section's opener; then, once that call was
    /// given back as text, the section's closer is text too (a text dialect's, PLaMo 3's:
    /// a special token never is, docs/dialects.md rule 12).
    section_text: SectionText,
    pub(crate) calls: Calls,
    capture: Capture,
    pub(crate) tool_calls: Vec<ToolCall>,
    /// Content ranges that hold the bytes of a call released as text, in order.
    pub(crate) released: Vec<(u32, Range<usize>)>,
    content_utf8: Utf8Check,
    reasoning_utf8: Utf8Check,
    /// Where the content and reasoning hold bytes that are not UTF-8.
    bad_utf8: Vec<Span>,
    pub(crate) diagnostics: Vec<DiagnosticRecord>,
    /// The scanner announced that the next call's name runs into its first key.
    glued_next: bool,
    /// [`AssembleOptions::stop_at_fabricated_result`].
    stop_at_fabricated: bool,
    /// A fabricated result ended the response: later events are ignored.
    stopped: bool,
    /// What settled calls and sent text are kept for (see [`Keep`]).
    pub(crate) keep: Keep,
    /// [`AssembleOptions::max_response_bytes`], when it applies.
    limit: Option<u64>,
    /// Complete calls so far, kept in `tool_calls` or not.
    pub(crate) complete_calls: usize,
    /// Diagnostics left out past [`bounds::MAX_DIAGNOSTICS`] (with [`Keep::Unsent`]),
    /// and the span they cover.
    dropped_diagnostics: Option<(u64, [u64; 2])>,
    /// The model's own call ids so far (Kimi's `functions.NAME:IDX`): at most
    /// `Options::max_calls` of them.
    model_ids: HashSet<String>,
    /// Argument text being built from a parameter event, reused from event to event.
    scratch: Vec<u8>,
}

impl Assembler {
    /// An assembler for one response of `dialect` (the scanner's: it says which
    /// delimiters are special tokens, [`Dialect::is_special_token`]).
    ///
    /// # Panics
    /// Without a seed, if the operating system's random source fails (see
    /// [`IdMinter::random`]).
    pub fn new(dialect: Dialect, options: &AssembleOptions) -> Self {
        Assembler {
            dialect,
            ids: options.seed.map_or_else(IdMinter::random, IdMinter::seeded),
            tools: options.tools.clone(),
            content: Vec::new(),
            reasoning: None,
            in_reasoning: false,
            section_text: SectionText::None,
            calls: Calls::default(),
            capture: Capture::None,
            tool_calls: Vec::new(),
            released: Vec::new(),
            content_utf8: Utf8Check::default(),
            reasoning_utf8: Utf8Check::default(),
            bad_utf8: Vec::new(),
            diagnostics: Vec::new(),
            glued_next: false,
            model_ids: HashSet::new(),
            stop_at_fabricated: options.stop_at_fabricated_result,
            stopped: false,
            keep: Keep::Completion,
            limit: Some(options.max_response_bytes),
            complete_calls: 0,
            dropped_diagnostics: None,
            scratch: Vec::new(),
        }
    }

    fn record(&mut self, span: Span, code: &'static str, message: &'static str) {
        if self.diagnostic_dropped(span) {
            return;
        }
        self.diagnostics.push(DiagnosticRecord {
            code,
            message,
            span: [span.start, span.end],
        });
    }

    fn push_reasoning(&mut self, bytes: &[u8]) {
        let segments = self.reasoning.get_or_insert_with(Vec::new);
        match segments.last_mut() {
            Some(Segment::Text(text)) => text.extend_from_slice(bytes),
            _ => segments.push(Segment::Text(bytes.to_vec())),
        }
    }

    /// Bytes of the enclosing text: content, or reasoning while a block is open.
    fn push_text(&mut self, bytes: &[u8]) {
        if self.in_reasoning {
            self.push_reasoning(bytes);
        } else {
            self.content.extend_from_slice(bytes);
        }
    }

    /// The text or reasoning written inside a call that is not shown as text: it goes
    /// where the call stood.
    fn show_inner(&mut self, call: u32) {
        let Some(record) = self.calls.get_mut(call as usize) else {
            return;
        };
        if record.provisional || record.inner.is_empty() {
            // A draft's shows with its segment.
            return;
        }
        let inner = std::mem::take(&mut record.inner);
        let start = record.inner_start;
        if record.inner_reasoning {
            self.push_reasoning(&inner);
        } else {
            self.content_utf8.check(start, &inner, &mut self.bad_utf8);
            self.content.extend_from_slice(&inner);
        }
    }

    /// A call's raw bytes as text: without the special tokens among its delimiters, each
    /// reported as a stray token (docs/dialects.md rule 12).
    fn strip_tokens(&mut self, call: u32, raw: Vec<u8>) -> Vec<u8> {
        let Some(record) = self.calls.get_mut(call as usize) else {
            return raw;
        };
        let tokens = std::mem::take(&mut record.tokens);
        if tokens.is_empty() {
            return raw;
        }
        let mut text = Vec::with_capacity(raw.len());
        let mut from = 0;
        for (range, span) in tokens {
            text.extend_from_slice(raw.get(from..range.start).unwrap_or_default());
            from = range.end;
            self.diagnostic(span, Diagnostic::StrayToken);
        }
        text.extend_from_slice(raw.get(from..).unwrap_or_default());
        text
    }

    /// The call's arguments as a JSON object, or `None` when they do not parse as one;
    /// without `value`, only checked (`Some(Value::Null)` when they are an object: nothing
    /// is built).
    fn arguments(record: &mut CallRecord, value: bool) -> Option<Value> {
        let mut text = std::mem::take(&mut record.arguments);
        let CallRecord {
            normalizer, dedup, ..
        } = record;
        // Keys were all complete when the arguments' JSON closed: nothing is left out here.
        normalizer.finish(&mut |bytes| {
            dedup.feed(bytes, &mut text);
        });
        dedup.finish(&mut text);
        if !record.has_args {
            text.clear();
            text.extend_from_slice(b"{}");
        }
        record.arguments = text;
        // Clients get the text cut at code points with U+FFFD for invalid bytes (see
        // `stream`); parse exactly that. Valid text is parsed where it is, not copied.
        let fixed = match String::from_utf8_lossy(&record.arguments) {
            Cow::Owned(fixed) => Some(fixed),
            Cow::Borrowed(_) => None,
        };
        record.lossy = fixed.is_some();
        if record.dedup.invalid() {
            // A left-out value was not JSON: the arguments as written are not JSON either.
            return None;
        }
        let text = fixed
            .as_ref()
            .map_or(&record.arguments[..], |f| f.as_bytes());
        if !value {
            return crate::json::is_object(text).then_some(Value::Null);
        }
        match crate::json::parse(text) {
            Some(value @ Value::Object(_)) => Some(value),
            _ => None,
        }
    }

    /// One diagnostic per repeated key left out of a call's arguments (see
    /// [Arguments](self#arguments)); `span` is the whole call's, so that it does not
    /// depend on the chunking.
    fn duplicates(&mut self, span: Span, found: Duplicates) {
        for _ in 0..found.parameters {
            let issue = ParamIssue::Duplicate;
            self.record(span, issue.code(), issue.message());
        }
        for _ in 0..found.nested {
            self.record(
                span,
                "duplicate_key",
                "a key appeared twice in an object of the arguments; the first value was kept",
            );
        }
    }

    fn param_issue(&mut self, span: Span, issue: Option<ParamIssue>) {
        if let Some(issue) = issue {
            self.record(span, issue.code(), issue.message());
        }
    }

    /// A call became executable: parse it, or turn it back into text.
    fn commit(&mut self, span: Span, call: u32) {
        let Some(record) = self.calls.get_mut(call as usize) else {
            return;
        };
        if let Some(params) = &record.params {
            // The reused scratch buffer: no allocation per call.
            let close = &mut self.scratch;
            close.clear();
            params.close(close);
            record.dedup.feed(close, &mut record.arguments);
        }
        let unsplit = record.unsplit;
        let parsed = if unsplit {
            None
        } else {
            Self::arguments(record, self.keep != Keep::Unsent)
        };
        let (repaired, lossy, provisional) = (
            record.normalizer.repaired(),
            record.lossy,
            record.provisional,
        );
        let (duplicates, call_span) = (record.duplicates, Span::new(record.raw_start, span.end));
        // A committed call is never text again; a broken one keeps its bytes to show them.
        let raw = std::mem::take(&mut record.raw);
        record.broken = parsed.is_none();
        if repaired {
            self.record(
                span,
                "repaired_arguments",
                "the arguments were not valid JSON as written and were repaired",
            );
        }
        if lossy {
            self.record(
                span,
                "invalid_utf8",
                "the text was not valid UTF-8; replaced with U+FFFD",
            );
        }
        let Some(arguments) = parsed else {
            // A glued name's diagnostic already says why it is text.
            if !unsplit {
                self.record(
                    span,
                    "invalid_arguments",
                    "the call's arguments are not a JSON object; kept as text",
                );
            }
            let raw = self.strip_tokens(call, raw);
            if provisional {
                self.calls[call as usize].raw = raw;
            } else {
                self.release(call, raw);
            }
            return;
        };
        // Not text: its raw bytes are not needed, their buffer is the next call's.
        self.calls.spare.keep_raw(raw);
        self.duplicates(call_span, duplicates);
        self.show_inner(call);
        let record = &self.calls[call as usize];
        let name = String::from_utf8_lossy(record.name.as_deref().unwrap_or_default());
        if self
            .tools
            .as_ref()
            .is_some_and(|tools| !tools.contains(&name))
        {
            self.record(
                span,
                "unknown_tool",
                "the call names a tool that was not declared",
            );
        }
        self.complete_calls += 1;
        if self.keep != Keep::Unsent {
            let record = &self.calls[call as usize];
            let name = String::from_utf8_lossy(record.name.as_deref().unwrap_or_default());
            let arguments_text = String::from_utf8_lossy(&record.arguments).into_owned();
            self.tool_calls.push(ToolCall {
                id: record.id.clone(),
                name: name.into_owned(),
                arguments,
                arguments_text,
            });
        }
    }

    /// A section closer: structure after real calls, but the last bytes of a draft still
    /// waiting for its reasoning to decide (a demoted draft shows its section whole).
    fn section_close(&mut self, span: Span, bytes: &[u8]) {
        if matches!(self.capture, Capture::Opening(..)) {
            // A section without a call: nothing to show it with.
            self.end_capture();
            return;
        }
        self.capture = Capture::None;
        let token = self.dialect.is_special_token(bytes);
        if let Some(record) = self.calls.last_mut() {
            if record.provisional && record.end.is_none() {
                let start = record.raw.len();
                record.raw.extend_from_slice(bytes);
                if token {
                    record.tokens.push((start..record.raw.len(), span));
                }
            }
        }
    }

    /// A call's bytes turned out to be text: they go where it stood, into the content, or
    /// into the reasoning when the scanner has the text there in reasoning (the body of a
    /// Harmony `analysis` message: no byte of it is ever content).
    fn release(&mut self, call: u32, raw: Vec<u8>) {
        let raw_start = self.calls.get(call as usize).map_or(0, |r| r.raw_start);
        if self.in_reasoning {
            self.reasoning_utf8
                .check(raw_start, &raw, &mut self.bad_utf8);
            if let Some(record) = self.calls.get_mut(call as usize) {
                record.raw = raw;
            }
            self.push_draft(call);
            return;
        }
        self.content_utf8.check(raw_start, &raw, &mut self.bad_utf8);
        let start = self.content.len();
        self.content.extend_from_slice(&raw);
        if self.keep != Keep::Completion {
            // Only a stream looks at what was released, to not send it twice.
            self.released.push((call, start..self.content.len()));
        }
    }

    /// Ends assembly.
    pub fn finish(mut self) -> Completion {
        let reasoning = self.reasoning.take().map(|segments| {
            let mut text = Vec::new();
            for segment in segments {
                match segment {
                    Segment::Text(bytes) => text.extend_from_slice(&bytes),
                    Segment::Draft(call) => {
                        if let Some(record) = self.calls.get(call as usize) {
                            text.extend_from_slice(record.draft_text());
                        }
                    }
                }
            }
            text
        });
        self.close_incomplete();
        let incomplete_calls = self
            .calls
            .iter_mut()
            .filter(|r| r.end == Some(CallEnd::Incomplete))
            .map(|r| IncompleteCall {
                id: r.id.clone(),
                name: r
                    .name
                    .as_deref()
                    .map(|n| String::from_utf8_lossy(n).into_owned()),
                arguments: String::from_utf8_lossy(&std::mem::take(&mut r.arguments)).into_owned(),
            })
            .collect();
        self.content_utf8.finish(&mut self.bad_utf8);
        self.reasoning_utf8.finish(&mut self.bad_utf8);
        for span in std::mem::take(&mut self.bad_utf8) {
            self.record(
                span,
                "invalid_utf8",
                "the text was not valid UTF-8; replaced with U+FFFD",
            );
        }
        let dropped = self.dropped_record();
        self.diagnostics.extend(dropped);
        self.diagnostics.sort_by_key(|d| d.span[0]);
        let content = trimmed_text(std::mem::take(&mut self.content));
        let reasoning = reasoning.map(trimmed_text);
        Completion {
            content,
            reasoning,
            tool_calls: self.tool_calls,
            incomplete_calls,
            diagnostics: self.diagnostics,
        }
    }
}
