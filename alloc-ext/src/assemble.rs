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
//! ## Typing (dialects.md rule 8)
//!
//! Values are typed by their [`ValueKind`] and, for a raw-text value the markup does not
//! type ([`ValueKind::Untyped`]: GLM, the XML family, qwen3-coder), by the JSON Schema of
//! the parameter in [`AssembleOptions::tools`] (the same rule in every dialect):
//!
//! - [`ValueKind::Text`] (DSML `string="true"`, which overrides the schema): the exact
//!   text, as a JSON string;
//! - [`ValueKind::Json`] (DSML `string="false"`, which overrides the schema): the value's
//!   own JSON text, trimmed, after the bounded repair of [`ArgumentsNormalizer`] (Python
//!   `True`/`False`/`None`, single-quoted strings, trailing commas, invalid escapes; a
//!   `repaired_arguments` diagnostic says so); if even that does not parse, the exact text
//!   as a string, with an `invalid_json_value` diagnostic;
//! - [`ValueKind::Untyped`], typed by the parameter's schema. The schema is the entry of the
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
//! - [`ValueKind::Gemma`], [`ValueKind::Python`] (types from the syntax, no schema): the
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
    ArgumentsNormalizer, CallEnd, Diagnostic, Dialect, Markup, Options, Piece, Role, Scanner, Sink,
    Span, ValueKind,
};
use std::borrow::Cow;
use std::collections::HashSet;
use std::ops::Range;

use serde::Serialize;
use serde_json::Value;

use crate::dedup::{Duplicates, FirstKeyWins};
use crate::ids::IdMinter;
use crate::params::{ParamIssue, Params, Schema};
use crate::stream::Exposed;
use crate::tools::{Tool, ToolSet};

mod bounds;

use bounds::Calls;
pub(crate) use bounds::Keep;
pub use bounds::DEFAULT_MAX_RESPONSE_BYTES;

/// Deepest nesting of lists and objects (counted together) in a call's arguments that the
/// assembler parses, the arguments object itself being level 1: serde_json's recursion
/// limit, which keeps parsing, serialising and dropping a value within any thread's stack.
/// Deeper arguments do not parse (the call is released as text with an
/// `invalid_arguments` diagnostic), so each argument's value nests at most one level less;
/// the renderers refuse more (`render::Reason::TooDeep`). The core scanner itself counts
/// JSON depth without a limit.
pub const MAX_ARGUMENT_DEPTH: usize = crate::json::MAX_DEPTH;

/// How to assemble.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct AssembleOptions {
    /// Mint ids deterministically from this seed (tests, `inband scan --seed`). Default:
    /// `None`, random ids.
    pub seed: Option<u64>,
    /// The declared tools, with their parameter schemas when known
    /// ([`ToolSet::from_json`] reads an OpenAI `tools` array, [`ToolSet::from_names`] takes
    /// bare names). A call to another name is kept, with an `unknown_tool` diagnostic
    /// (dialects.md rule 9). A name that is not declared but is a declared name plus `json`
    /// is renamed to it, with a `glued_content_type` diagnostic (gpt-oss glues its content
    /// type to the recipient: `to=functions.shelljson`, model-formats.md §10). A GLM name
    /// that ran into its first key (`<tool_call>run_shellcommand</arg_key>`, corpus 018) is
    /// split at the longest declared name it begins with (`split_glued_name`); without one
    /// the call is text. Raw-text
    /// parameters are typed from the schemas (see [the module docs](self)). Default:
    /// `None`, no check and no schema.
    pub tools: Option<ToolSet>,
    /// [`DeltaStream`](crate::stream::DeltaStream) only: expose a call to clients once it
    /// is complete and its arguments parse, instead of as soon as its name is known. Nothing
    /// exposed ever has to be taken back, at the cost of streaming arguments. Default:
    /// `false`.
    pub hold_calls: bool,
    /// End the response at a fabricated tool result (the model began writing a tool's
    /// output itself, `fabricated_result`): the result's opener and everything after it are
    /// left out, so no content, reasoning or call comes from made-up data (the seed's
    /// abort, seed-system.md §4.5, §5.1 item 8, §5.4). An agent runtime that executes
    /// calls wants this. Default: `false`, everything is reported after the diagnostic.
    pub stop_at_fabricated_result: bool,
    /// Most bytes of the response (stream offsets) a whole [`Completion`] is assembled
    /// from; past it, later events are left out, open calls become incomplete and a
    /// `response_too_long` diagnostic says where (see [`DEFAULT_MAX_RESPONSE_BYTES`]).
    /// Keeps the memory of [`assemble`], [`Assembler`] and a
    /// [`DeltaStream`](crate::stream::DeltaStream) that keeps the whole completion
    /// bounded; a stream that keeps only what it has not sent
    /// ([`Retain::Unsent`](crate::stream::Retain::Unsent)) needs no such limit and
    /// ignores it. Default: [`DEFAULT_MAX_RESPONSE_BYTES`] (64 MiB).
    pub max_response_bytes: u64,
}

impl Default for AssembleOptions {
    fn default() -> Self {
        AssembleOptions {
            seed: None,
            tools: None,
            hold_calls: false,
            stop_at_fabricated_result: false,
            max_response_bytes: DEFAULT_MAX_RESPONSE_BYTES,
        }
    }
}

impl AssembleOptions {
    /// Options with deterministic ids from `seed`.
    pub fn seeded(seed: u64) -> Self {
        AssembleOptions {
            seed: Some(seed),
            ..AssembleOptions::default()
        }
    }
}

/// A complete tool call, safe to execute.
///
/// Serialised (serde) as `{"id", "name", "arguments"}`; with serde_json, `arguments` is
/// written compactly with each number as the model wrote it (`1E5`, `1e999`), see
/// [`ToolCall::arguments_text`].
#[derive(Debug, Clone, PartialEq)]
pub struct ToolCall {
    /// `call_` + 24 random alphanumerics (see [`IdMinter`]).
    pub id: String,
    /// The tool's name, trimmed.
    pub name: String,
    /// The arguments, always a JSON object ([`Value::Object`]), keys in the model's order,
    /// each key once (the first value wins, see [Arguments](self#arguments)). Numbers
    /// keep every digit the model wrote (serde_json's `arbitrary_precision`):
    /// `123456789012345678901234567890` and `1e999` are not rounded or rejected;
    /// [`serde_json::Number::as_f64`] and friends convert on request. serde_json writes an
    /// exponent as `e+N`; [`ToolCall::arguments_text`] keeps the model's own form.
    pub arguments: Value,
    /// The JSON text `arguments` was parsed from.
    arguments_text: String,
}

impl ToolCall {
    /// The JSON text the arguments were parsed from, exactly: the concatenation of the
    /// call's streamed `function.arguments` fragments ([`crate::stream`]), with the model's
    /// whitespace and number text, repaired where needed, repeated keys left out.
    pub fn arguments_text(&self) -> &str {
        &self.arguments_text
    }
}

impl Serialize for ToolCall {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let compact = crate::json::compact_as_written(&self.arguments, &self.arguments_text);
        let mut call = serializer.serialize_struct("ToolCall", 3)?;
        call.serialize_field("id", &self.id)?;
        call.serialize_field("name", &self.name)?;
        match serde_json::value::RawValue::from_string(compact) {
            Ok(raw) => call.serialize_field("arguments", &raw)?,
            Err(_) => call.serialize_field("arguments", &self.arguments)?,
        }
        call.end()
    }
}

/// A call the end of the stream cut off: never executable (dialects.md rule 3).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct IncompleteCall {
    /// The id the call was given when it started.
    pub id: String,
    /// Its name, if the model wrote it.
    pub name: Option<String>,
    /// The argument text written so far, not valid JSON in general (nothing is added to
    /// close it): arguments written as JSON are the model's text through the normaliser;
    /// arguments written as parameters are the JSON text built from them (see
    /// [Parameters](self#parameters)), then the value being written when the stream
    /// ended, as far as it was written: a string as an unterminated JSON string
    /// (`{"a":"x`), a value marked as JSON or typed by a schema that admits no string as
    /// its text so far (`{"n":[1, 2`), an untyped value, or one whose schema admits strings
    /// among other types, as an unterminated string of its exact text (`{"a":"x`,
    /// `{"a":"12`: its type needs the whole value), a literal value converted as far as it
    /// went (`{"a":[1,2`, `{"a":true`; a bare word that is no keyword or number so far,
    /// and a call written as a value, as an unterminated string: `{"a":"Tru`). A repeated
    /// key is left out here too (see [Arguments](self#arguments)); a key still being
    /// written when the stream ended is kept as far as it was written.
    pub arguments: String,
}

/// One diagnostic, for output.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DiagnosticRecord {
    /// A stable snake_case code ([`Diagnostic::code`] or one of this crate's:
    /// `fabricated_result`, `unknown_tool`, `invalid_arguments`, `repaired_arguments`,
    /// `invalid_utf8`, `glued_content_type`, `duplicate_parameter`, `duplicate_key`, `invalid_json_value`,
    /// `invalid_typed_value`, `schema_type_mismatch`, `split_glued_name`, `duplicate_call_id`).
    pub code: &'static str,
    /// One line for humans.
    pub message: &'static str,
    /// The bytes concerned: `[start, end)` offsets from stream start.
    pub span: [u64; 2],
}

/// A whole model response, decoded.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Completion {
    /// Visible content as written, structure removed (invalid structure is kept as text),
    /// without the whitespace at either end that templates put around blocks.
    pub content: String,
    /// Reasoning text, trimmed likewise, or `None` when the response had no reasoning
    /// block.
    pub reasoning: Option<String>,
    /// Complete calls in stream order.
    pub tool_calls: Vec<ToolCall>,
    /// Calls cut off by the end of the stream.
    pub incomplete_calls: Vec<IncompleteCall>,
    /// Everything worth reporting, in stream order.
    pub diagnostics: Vec<DiagnosticRecord>,
}

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

#[derive(Debug)]
pub(crate) struct CallRecord {
    pub(crate) id: String,
    pub(crate) name: Option<Vec<u8>>,
    raw: Vec<u8>,
    /// Stream offset of the call's first byte.
    raw_start: u64,
    /// Where `raw` holds delimiters that are special tokens of the model's vocabulary, and
    /// their spans: left out when the bytes are given back as text (dialects.md rule 12).
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
    /// not started yet. The ranges of the bytes that are special tokens, with their spans.
    Opening(Vec<u8>, u64, Vec<(Range<usize>, Span)>),
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

    /// Adds a call's bytes to its raw text; `token` says they are one special token.
    fn capture(&mut self, span: Span, bytes: &[u8], token: bool) {
        match &mut self.capture {
            Capture::None => {}
            Capture::Opening(raw, _, tokens) => {
                let start = raw.len();
                raw.extend_from_slice(bytes);
                if token {
                    tokens.push((start..raw.len(), span));
                }
            }
            Capture::Call(call) => {
                if let Some(record) = self.calls.get_mut(*call as usize) {
                    let start = record.raw.len();
                    record.raw.extend_from_slice(bytes);
                    if token {
                        record.tokens.push((start..record.raw.len(), span));
                    }
                }
            }
        }
    }

    /// Text or reasoning reported while a call is open (bytes between its arguments and
    /// its closer) are its own too: returns whether there was one.
    fn open_capture(&mut self, span: Span, bytes: &[u8], reasoning: bool) -> bool {
        let Capture::Call(call) = self.capture else {
            return false;
        };
        let Some(record) = self.calls.get_mut(call as usize) else {
            return false;
        };
        if record.end.is_some() {
            return false;
        }
        if record.inner.is_empty() {
            record.inner_start = span.start;
            record.inner_reasoning = reasoning;
        }
        record.raw.extend_from_slice(bytes);
        record.inner.extend_from_slice(bytes);
        true
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
    /// reported as a stray token (dialects.md rule 12).
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

    /// The call's arguments as a JSON object, or `None` when they do not parse as one.
    fn arguments(record: &mut CallRecord) -> Option<Value> {
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
            text = b"{}".to_vec();
        }
        record.arguments = text.clone();
        // Clients get the text cut at code points with U+FFFD for invalid bytes (see
        // `stream`); parse exactly that.
        if let Cow::Owned(fixed) = String::from_utf8_lossy(&text) {
            record.lossy = true;
            text = fixed.into_bytes();
        }
        if record.dedup.invalid() {
            // A left-out value was not JSON: the arguments as written are not JSON either.
            return None;
        }
        match crate::json::parse(&text) {
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
            let mut close = Vec::new();
            params.close(&mut close);
            record.dedup.feed(&close, &mut record.arguments);
        }
        let unsplit = record.unsplit;
        let parsed = if unsplit {
            None
        } else {
            Self::arguments(record)
        };
        let (repaired, lossy, provisional) = (
            record.normalizer.repaired(),
            record.lossy,
            record.provisional,
        );
        let name = String::from_utf8_lossy(record.name.as_deref().unwrap_or_default()).into_owned();
        let id = record.id.clone();
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
        self.duplicates(call_span, duplicates);
        self.show_inner(call);
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
            let arguments_text =
                String::from_utf8_lossy(&self.calls[call as usize].arguments).into_owned();
            self.tool_calls.push(ToolCall {
                id,
                name,
                arguments,
                arguments_text,
            });
        }
    }

    /// The tool a call names. The scanner reports a name as the model wrote it; only the
    /// tool list tells `shelljson` (Harmony's `to=functions.shell` with its content type
    /// `json` glued on, corpus 046) from a tool really called that.
    fn declared_name(&mut self, span: Span, name: &[u8]) -> Vec<u8> {
        if let (Some(tools), Some(stem)) = (&self.tools, name.strip_suffix(b"json")) {
            let declared = |n: &[u8]| std::str::from_utf8(n).is_ok_and(|n| tools.contains(n));
            if !declared(name) && declared(stem) {
                self.record(
                    span,
                    "glued_content_type",
                    "the tool name had the content type `json` glued to it; renamed",
                );
                return stem.to_vec();
            }
        }
        name.to_vec()
    }

    /// The name of a call, and the first key split off it when the scanner said the name
    /// ran into that key (`glued`).
    fn call_name(&mut self, span: Span, glued: bool, name: &[u8]) -> (Vec<u8>, Option<Vec<u8>>) {
        if glued {
            self.split_glued(span, name)
        } else {
            (self.declared_name(span, name), None)
        }
    }

    /// A section closer: structure after real calls, but the last bytes of a draft still
    /// waiting for its reasoning to decide (a demoted draft shows its section whole).
    fn section_close(&mut self, span: Span, bytes: &[u8]) {
        let capture = std::mem::replace(&mut self.capture, Capture::None);
        if matches!(capture, Capture::Opening(..)) {
            // A section without a call: nothing to show it with.
            return;
        }
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

    /// A GLM name that ran into its first key (`run_shellcommand</arg_key>`, corpus 018):
    /// a declared tool name it begins with is the name and the rest the key. The longest
    /// such name whose tool declares the rest as a parameter wins; failing that, the
    /// longest one, unless the glued name is itself a declared tool (then the key is
    /// missing, not glued). Without a split the name stays whole and the call will be text
    /// (dialects.md rule 9).
    fn split_glued(&mut self, span: Span, glued: &[u8]) -> (Vec<u8>, Option<Vec<u8>>) {
        let split = self.tools.as_ref().and_then(|tools| {
            // One lookup per cut point of the name (at most `MAX_NAME` bytes), not a pass
            // over the tools: the cost does not grow with the tool list.
            let prefixes = || {
                (1..glued.len())
                    .filter_map(|cut| std::str::from_utf8(&glued[..cut]).ok())
                    .filter_map(|prefix| tools.get(prefix))
            };
            let declares_rest = |tool: &&Tool| {
                std::str::from_utf8(&glued[tool.name.len()..])
                    .is_ok_and(|key| tool.parameter_schema(key).is_some())
            };
            let whole_declared = std::str::from_utf8(glued).is_ok_and(|n| tools.contains(n));
            prefixes()
                .filter(declares_rest)
                .max_by_key(|tool| tool.name.len())
                .or_else(|| {
                    (!whole_declared)
                        .then(|| prefixes().max_by_key(|tool| tool.name.len()))
                        .flatten()
                })
                .map(|tool| tool.name.as_bytes().to_vec())
        });
        match split {
            Some(name) => {
                self.record(
                    span,
                    "split_glued_name",
                    "the call name ran into its first key; split at the declared tool name",
                );
                let key = glued[name.len()..].to_vec();
                (name, Some(key))
            }
            None => (glued.to_vec(), None),
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
        let content = String::from_utf8_lossy(&self.content).trim().to_owned();
        let reasoning = reasoning.map(|r| String::from_utf8_lossy(&r).trim().to_owned());
        Completion {
            content,
            reasoning,
            tool_calls: self.tool_calls,
            incomplete_calls,
            diagnostics: self.diagnostics,
        }
    }
}

/// Finds the bytes of one text stream (content or reasoning), fed in pieces, that are not
/// UTF-8, and where they are in the input. A code point split between pieces is fine.
#[derive(Debug, Default)]
struct Utf8Check {
    /// The start of a code point the last piece ended in, and its stream offset.
    carry: Vec<u8>,
    carry_start: u64,
}

impl Utf8Check {
    fn check(&mut self, start: u64, bytes: &[u8], found: &mut Vec<Span>) {
        if self.carry.is_empty() && std::str::from_utf8(bytes).is_ok() {
            return;
        }
        let carried = self.carry.len();
        let carry_start = self.carry_start;
        let mut data = std::mem::take(&mut self.carry);
        data.extend_from_slice(bytes);
        let at = |i: usize| {
            if i < carried {
                carry_start + i as u64
            } else {
                start + (i - carried) as u64
            }
        };
        let mut from = 0;
        while let Err(e) = std::str::from_utf8(&data[from..]) {
            let bad = from + e.valid_up_to();
            match e.error_len() {
                Some(n) => {
                    found.push(Span::new(at(bad), at(bad + n - 1) + 1));
                    from = bad + n;
                }
                None => {
                    self.carry = data[bad..].to_vec();
                    self.carry_start = at(bad);
                    return;
                }
            }
        }
    }

    fn finish(&mut self, found: &mut Vec<Span>) {
        if !self.carry.is_empty() {
            let end = self.carry_start + self.carry.len() as u64;
            found.push(Span::new(self.carry_start, end));
            self.carry.clear();
        }
    }
}

impl Sink for Assembler {
    fn text(&mut self, span: Span, text: &[u8]) {
        if self.skip(span) {
            return;
        }
        if self.open_capture(span, text, false) {
            // Checked when it is shown, where the call stood.
            return;
        }
        self.capture = Capture::None;
        self.content_utf8
            .check(span.start, text, &mut self.bad_utf8);
        self.content.extend_from_slice(text);
    }

    fn reasoning(&mut self, span: Span, text: &[u8]) {
        if self.skip(span) {
            return;
        }
        // Reasoning whether or not a call holds it: checked now.
        self.reasoning_utf8
            .check(span.start, text, &mut self.bad_utf8);
        if self.open_capture(span, text, true) {
            return;
        }
        self.capture = Capture::None;
        self.push_reasoning(text);
    }

    fn markup(&mut self, span: Span, kind: Markup, bytes: &[u8]) {
        if self.skip(span) {
            return;
        }
        match kind {
            // Inside reasoning a call opener right after its section's opener (and the
            // whitespace after it) joins it: a draft demoted to reasoning shows its section
            // whole. In content a section's markup is structure only.
            Markup::Delimiter(Role::CallOpen)
                if self.in_reasoning && matches!(self.capture, Capture::Opening(..)) =>
            {
                let token = self.dialect.is_special_token(bytes);
                self.capture(span, bytes, token);
            }
            Markup::Delimiter(Role::SectionOpen | Role::MarkupOpen) if !self.in_reasoning => {
                self.capture = Capture::None;
            }
            Markup::Delimiter(Role::CallOpen | Role::SectionOpen | Role::MarkupOpen) => {
                let tokens = if self.dialect.is_special_token(bytes) {
                    vec![(0..bytes.len(), span)]
                } else {
                    Vec::new()
                };
                self.capture = Capture::Opening(bytes.to_vec(), span.start, tokens);
            }
            Markup::Delimiter(Role::SectionClose) if self.in_reasoning => {
                self.section_close(span, bytes);
            }
            // Structure between calls that share a block (Gemini statements, Qwen2.5's
            // back-to-back objects) opens the next call's bytes.
            Markup::Envelope if matches!(self.capture, Capture::None) => {
                self.capture = Capture::Opening(bytes.to_vec(), span.start, Vec::new());
            }
            // The separator between a call's header and its arguments (Kimi, DeepSeek) and a
            // parameter's tags are the call's own markup, like its closer.
            Markup::Delimiter(
                Role::CallClose | Role::ArgsOpen | Role::ParamOpen | Role::ParamClose,
            ) => {
                let token = self.dialect.is_special_token(bytes);
                self.capture(span, bytes, token);
            }
            Markup::Envelope => self.capture(span, bytes, false),
            // With `stop_at_fabricated_result` the opener is the first byte left out (the
            // scanner reports the fabricated result right after it).
            Markup::Delimiter(Role::ResultOpen) if self.stop_at_fabricated => {}
            Markup::Delimiter(Role::ResultOpen) => {
                self.capture = Capture::None;
                self.push_text(bytes);
            }
            _ => self.capture = Capture::None,
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
        let (raw, raw_start, tokens) =
            match std::mem::replace(&mut self.capture, Capture::Call(call)) {
                Capture::Opening(raw, start, tokens) => (raw, start, tokens),
                _ => (Vec::new(), span.start, Vec::new()),
            };
        let id = self.ids.mint();
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
            inner: Vec::new(),
            inner_start: 0,
            inner_reasoning: false,
            arguments: Vec::new(),
            normalizer: ArgumentsNormalizer::new(),
            dedup: FirstKeyWins::default(),
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
        // The model's own id (dialects.md rule 10) replaces the minted one, unless an
        // earlier call of the response has it: results are matched to calls by id, so a
        // repeated id would give one call's result to both.
        let id = String::from_utf8_lossy(id).into_owned();
        if self.model_ids.contains(&id) {
            self.record(
                span,
                "duplicate_call_id",
                "the call repeats an earlier call's id; it keeps a new id",
            );
            return;
        }
        if let Some(record) = self.calls.get_mut(call as usize) {
            record.id = id.clone();
            self.model_ids.insert(id);
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
        if self.skip(span) {
            return;
        }
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

    fn tool_param(&mut self, span: Span, call: u32, key: &[u8], kind: ValueKind) {
        if self.skip(span) {
            return;
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
        let mut text = Vec::new();
        let issue = record
            .params
            .get_or_insert_with(Params::default)
            .begin(key, kind, schema, &mut text);
        let found = record.dedup.feed(&text, &mut record.arguments);
        record.duplicates.add(found);
        self.param_issue(span, issue);
    }

    fn tool_value(&mut self, span: Span, call: u32, piece: Piece, bytes: &[u8]) {
        if self.skip(span) {
            return;
        }
        self.capture(span, bytes, false);
        if let Some(record) = self.calls.get_mut(call as usize) {
            if let Some(params) = &mut record.params {
                let mut text = Vec::new();
                params.value(piece, bytes, &mut text);
                let found = record.dedup.feed(&text, &mut record.arguments);
                record.duplicates.add(found);
            }
        }
    }

    fn tool_param_end(&mut self, span: Span, call: u32) {
        if self.skip(span) {
            return;
        }
        let Some(record) = self.calls.get_mut(call as usize) else {
            return;
        };
        let mut text = Vec::new();
        let issue = match &mut record.params {
            Some(params) => params.end(&mut text),
            None => None,
        };
        let found = record.dedup.feed(&text, &mut record.arguments);
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
            CallEnd::Complete => self.commit(span, call),
            CallEnd::Invalid => {
                let raw = std::mem::take(&mut record.raw);
                let raw = self.strip_tokens(call, raw);
                if provisional {
                    // Shown with its draft segment.
                    self.calls[call as usize].raw = raw;
                } else {
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
