//! What [`assemble`](super::assemble) takes and gives: its options and the decoded
//! [`Completion`] with its calls and diagnostics.

use serde::Serialize;
use serde_json::Value;

use super::DEFAULT_MAX_RESPONSE_BYTES;
use crate::tools::ToolSet;

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
    /// (docs/dialects.md rule 9). A name that is not declared but is a declared name plus `json`
    /// is renamed to it, with a `glued_content_type` diagnostic (gpt-oss glues its content
    /// type to the recipient: `to=functions.shelljson`, docs/dialects.md §harmony); a name
    /// `NAME.NAME` whose `NAME` is declared is renamed to it, with `doubled_namespace`
    /// (Muse's template offers a bare tool as a namespace, docs/dialects.md §muse). A GLM name
    /// that ran into its first key (`<tool_call>run_shellcommand</arg_key>`, corpus 018) is
    /// split at the longest declared name it begins with (`split_glued_name`); without one
    /// the call is text. Raw-text
    /// parameters are typed from the schemas (see [the module docs](super)). Default:
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
    /// abort, docs/seed.md §4.5, §5.1 item 8, §5.4). An agent runtime that executes
    /// calls wants this. Default: `false`, everything is reported after the diagnostic.
    pub stop_at_fabricated_result: bool,
    /// Most bytes of the response (stream offsets) a whole [`Completion`] is assembled
    /// from; past it, later events are left out, open calls become incomplete and a
    /// `response_too_long` diagnostic says where (see [`DEFAULT_MAX_RESPONSE_BYTES`]).
    /// Keeps the memory of [`assemble`](super::assemble), [`Assembler`](super::Assembler) and a
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
    /// `call_` + 24 random alphanumerics (see [`IdMinter`](crate::ids::IdMinter)).
    pub id: String,
    /// The tool's name, trimmed.
    pub name: String,
    /// The arguments, always a JSON object ([`Value::Object`]), keys in the model's order,
    /// each key once (the first value wins, see [Arguments](super#arguments)). Numbers
    /// keep every digit the model wrote (serde_json's `arbitrary_precision`):
    /// `123456789012345678901234567890` and `1e999` are not rounded or rejected;
    /// [`serde_json::Number::as_f64`] and friends convert on request. serde_json writes an
    /// exponent as `e+N`; [`ToolCall::arguments_text`] keeps the model's own form.
    pub arguments: Value,
    /// The JSON text `arguments` was parsed from.
    pub(super) arguments_text: String,
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

/// A call the end of the stream cut off: never executable (docs/dialects.md rule 3).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct IncompleteCall {
    /// The id the call was given when it started.
    pub id: String,
    /// Its name, if the model wrote it.
    pub name: Option<String>,
    /// The argument text written so far, not valid JSON in general (nothing is added to
    /// close it): arguments written as JSON are the model's text through the normaliser;
    /// arguments written as parameters are the JSON text built from them (see
    /// [Parameters](super#parameters)), then the value being written when the stream
    /// ended, as far as it was written: a string as an unterminated JSON string
    /// (`{"a":"x`), a value marked as JSON or typed by a schema that admits no string as
    /// its text so far (`{"n":[1, 2`), an untyped value, or one whose schema admits strings
    /// among other types, as an unterminated string of its exact text (`{"a":"x`,
    /// `{"a":"12`: its type needs the whole value), a literal value converted as far as it
    /// went (`{"a":[1,2`, `{"a":true`; a bare word that is no keyword or number so far,
    /// and a call written as a value, as an unterminated string: `{"a":"Tru`). A repeated
    /// key is left out here too (see [Arguments](super#arguments)); a key still being
    /// written when the stream ended is kept as far as it was written.
    pub arguments: String,
}

/// One diagnostic, for output.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DiagnosticRecord {
    /// A stable snake_case code ([`Diagnostic::code`](inband::Diagnostic::code) or one of this crate's:
    /// `fabricated_result`, `unknown_tool`, `invalid_arguments`, `repaired_arguments`,
    /// `invalid_utf8`, `glued_content_type`, `doubled_namespace`, `duplicate_parameter`, `duplicate_key`, `invalid_json_value`,
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
