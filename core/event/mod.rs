//! The event model: what a scanner reports, as calls on a [`Sink`].
//!
//! Payload events ([`Sink::text`], [`Sink::reasoning`], [`Sink::markup`],
//! [`Sink::tool_args`], [`Sink::tool_value`]) carry the input's own bytes; their spans
//! tile the stream exactly. Structural events (call start, name, parameter bounds, end,
//! reasoning bounds, diagnostics) carry the span of the bytes they are about and are not
//! part of the tiling.

mod diagnostic;

pub use diagnostic::Diagnostic;

/// A byte range of the stream: offsets from the first byte ever fed (after the last
/// [`reset`](crate::Scanner::reset)), `start` inclusive, `end` exclusive.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Span {
    /// Offset of the first byte, in bytes from stream start.
    pub start: u64,
    /// Offset one past the last byte, in bytes from stream start.
    pub end: u64,
}

impl Span {
    /// The span `start..end`.
    #[inline(always)]
    pub const fn new(start: u64, end: u64) -> Self {
        Span { start, end }
    }

    /// The empty span at `offset`.
    #[inline(always)]
    pub const fn at(offset: u64) -> Self {
        Span {
            start: offset,
            end: offset,
        }
    }

    /// Length in bytes (0 for a span whose end is before its start).
    #[inline(always)]
    pub const fn len(&self) -> u64 {
        self.end.saturating_sub(self.start)
    }

    /// True when the span covers no byte.
    #[inline(always)]
    pub const fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// What a delimiter means to a dialect's phase machine; every delimiter in `tables/` has one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Role {
    /// Opens a tool call (`<tool_call>`).
    CallOpen,
    /// Closes a tool call (`</tool_call>`).
    CallClose,
    /// Opens a reasoning block (`<think>`).
    ReasoningOpen,
    /// Closes a reasoning block (`</think>`).
    ReasoningClose,
    /// Opens a tool-result block (`<tool_response>`); in content it means the model is
    /// inventing a result.
    ResultOpen,
    /// A stop token that leaked into the text (`<|im_end|>`); removed with a diagnostic.
    Stop,
    /// Opens a section that holds one or more calls (Kimi `<|tool_calls_section_begin|>`,
    /// DeepSeek `<｜tool▁calls▁begin｜>`).
    SectionOpen,
    /// Closes a call section (Kimi `<|tool_calls_section_end|>`).
    SectionClose,
    /// Ends a call's header (its name or id) and begins its arguments (Kimi
    /// `<|tool_call_argument_begin|>`, DeepSeek `<｜tool▁sep｜>`).
    ArgsOpen,
    /// A single special token of the model's vocabulary where it cannot belong; removed
    /// from the text with a diagnostic (docs/dialects.md rule 12).
    Stray,
    /// Opens a message header whose first word is the author (Harmony `<|start|>`).
    MessageStart,
    /// Introduces the channel word in a message header (Harmony `<|channel|>`); outside a
    /// message it opens a header whose author is the assistant.
    Channel,
    /// Introduces the content type in a message header (Harmony `<|constrain|>`).
    Constrain,
    /// Ends a message header and begins its body (Harmony `<|message|>`).
    MessageBody,
    /// Ends a message (Harmony `<|end|>`, `<|return|>`).
    MessageEnd,
    /// Opens a section of the markup family's embedded tagset (DeepSeek's DSML
    /// `<｜DSML｜function_calls>`): the dialect hands the stream to the markup machine, which
    /// hands it back when the section closes.
    MarkupOpen,
    /// Begins a parameter's opening tag (`<parameter`); the tag lexer reads its attributes.
    ParamOpen,
    /// Closes a parameter value (`</parameter>`); in a raw-text value it counts only when
    /// what follows can continue the structure (docs/dialects.md rule 4).
    ParamClose,
    /// A string quote token (Gemma `<|"|>`): opens or closes a string inside call
    /// arguments.
    Quote,
    /// A Markdown code fence (```` ``` ````, `~~~`) whose meaning depends on its line: in
    /// Gemini reasoning, it may close the block, open a nested code block or a call block.
    Fence,
    /// Ends a call header's name and introduces the model's call id, which an
    /// [`ArgsOpen`](Role::ArgsOpen) ends (Mistral Small 3.2 `[CALL_ID]`).
    IdOpen,
    /// Template markup around the model's answer (Hunyuan-A13B `<answer>`, `</answer>`) or
    /// around its calls (Step-3's `<｜tool_calls_begin｜>`, `<｜tool_call_begin｜>`, …):
    /// removed from the content as markup, without a diagnostic, as the server's parser
    /// removes it.
    Answer,
    /// Opens a call header's name, which [`NameClose`](Role::NameClose) ends (PLaMo 3
    /// `<|plamo:begin_tool_name:plamo|>`): the header is the name between the two.
    NameOpen,
    /// Closes a call header's name (PLaMo 3 `<|plamo:end_tool_name:plamo|>`); the
    /// arguments opener follows.
    NameClose,
    /// Closes a call's arguments before the call's closer (PLaMo 3
    /// `<|plamo:end_tool_arguments:plamo|>`).
    ArgsClose,
}

impl Role {
    /// The role's key in `tables/dialects/*.toml` (`call_open`, …), also used in JSON output.
    pub const fn key(self) -> &'static str {
        match self {
            Role::CallOpen => "call_open",
            Role::CallClose => "call_close",
            Role::ReasoningOpen => "reasoning_open",
            Role::ReasoningClose => "reasoning_close",
            Role::ResultOpen => "result_open",
            Role::Stop => "stop",
            Role::SectionOpen => "section_open",
            Role::SectionClose => "section_close",
            Role::ArgsOpen => "args_open",
            Role::Stray => "stray",
            Role::MessageStart => "message_start",
            Role::Channel => "channel",
            Role::Constrain => "constrain",
            Role::MessageBody => "message_body",
            Role::MessageEnd => "message_end",
            Role::MarkupOpen => "markup_open",
            Role::ParamOpen => "param_open",
            Role::ParamClose => "param_close",
            Role::Quote => "quote",
            Role::Fence => "fence",
            Role::IdOpen => "id_open",
            Role::Answer => "answer",
            Role::NameOpen => "name_open",
            Role::NameClose => "name_close",
            Role::ArgsClose => "args_close",
        }
    }
}

/// What a markup event's bytes are: consumed structure, not text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Markup {
    /// A delimiter from the dialect's tables, whole.
    Delimiter(Role),
    /// Call structure around the arguments: braces, keys, the name, separators and
    /// whitespace of a JSON envelope, or whitespace before a call's closer.
    Envelope,
}

/// How a parameter's value is written ([`Sink::tool_param`]), which tells a consumer how to
/// turn its [`Sink::tool_value`] fragments into JSON.
///
/// Raw-text dialects (the markup family: `xml`, and DSML in `deepseek`) send
/// [`Text`](ValueKind::Text), [`Json`](ValueKind::Json) and [`Untyped`](ValueKind::Untyped)
/// as the parameter tag's `string` attribute says, with the value as [`Piece::Verbatim`]
/// fragments. Literal dialects send [`Gemma`](ValueKind::Gemma) (`gemma`) and
/// [`Python`](ValueKind::Python) (`gemini`, and the ```` ```tool_code ```` blocks `gemma`
/// accepts as drift), with the value lexed into the other [`Piece`]s. Each variant says how
/// `inband-alloc`'s assembler turns the value into JSON without a schema (docs/dialects.md rule
/// 8).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ValueKind {
    /// Raw text, kept exactly as written (DSML `string="true"`): the exact text as a JSON
    /// string.
    Text,
    /// JSON text (DSML `string="false"`): its own JSON text, parsed with bounded repair;
    /// kept as the exact text, as a string, with a diagnostic when even that fails.
    Json,
    /// The markup does not say (no `string` attribute): the tool's JSON Schema decides;
    /// without one, the value is its JSON text if the whole of it parses, else the exact
    /// text as a string.
    Untyped,
    /// Gemma 4's literal syntax (docs/dialects.md §gemma): strings between `<|"|>` tokens with
    /// no escapes, bare numbers, `true`, `false`, `null`, `[…]` lists and `{key:…}` objects
    /// with bare keys. Strings in JSON or Python quotes (with backslash escapes) are
    /// accepted as drift. JSON: strings as strings (escapes decoded), numbers and
    /// `true`/`false`/`null` as they are, lists as arrays, objects as objects with their
    /// bare keys as strings; another bare word becomes the string of its text (a repair).
    Gemma,
    /// A Python literal (docs/dialects.md §gemini): strings in single, double or triple quotes
    /// with an optional `r`/`b`/`u`/`f` prefix and Python escapes, ints, floats,
    /// `True`/`False`/`None` (and JSON's `true`/`false`/`null`), lists, dicts and tuples.
    /// JSON: escapes decoded, adjacent strings joined, `True`/`False`/`None` as
    /// `true`/`false`/`null`, Python numbers (`0x1F`, `1_000`, `1.`) as JSON numbers, tuples
    /// as arrays, a non-string dict key as the string of its text, and a call written as a
    /// value (`f(y=1)`) as the string of its text (a repair).
    Python,
}

impl ValueKind {
    /// A stable snake_case code (`text`, `json`, `untyped`, `gemma`, `python`), for JSON
    /// output.
    pub const fn code(self) -> &'static str {
        match self {
            ValueKind::Text => "text",
            ValueKind::Json => "json",
            ValueKind::Untyped => "untyped",
            ValueKind::Gemma => "gemma",
            ValueKind::Python => "python",
        }
    }

    /// True for the kinds whose values are lexed into pieces (`Gemma`, `Python`); false for
    /// the raw-text kinds, whose values arrive as [`Piece::Verbatim`].
    pub const fn is_literal(self) -> bool {
        matches!(self, ValueKind::Gemma | ValueKind::Python)
    }
}

/// What a fragment of a parameter's value ([`Sink::tool_value`]) is.
///
/// A raw-text value ([`ValueKind::Text`], [`Json`](ValueKind::Json),
/// [`Untyped`](ValueKind::Untyped)) is not lexed by the scanner: it arrives as
/// [`Piece::Verbatim`] only. A literal value ([`ValueKind::Gemma`],
/// [`Python`](ValueKind::Python)) has already been lexed, so a consumer turns it into JSON
/// piece by piece without lexing it again; only a bare word and a string's escapes may span
/// several fragments.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Piece {
    /// A raw-text parameter's value: the model's bytes exactly as written (no entity
    /// decoding, no trimming, no escaping); the parameter's [`ValueKind`] says how to read
    /// them.
    Verbatim,
    /// Container structure, each byte one token: `[` `]` `{` `}` `,` `:`, and a Python
    /// tuple's `(` `)` (a JSON array) or the parentheses of a call written as a value.
    Punct,
    /// Whitespace, and Python comments and line continuations, between tokens.
    Space,
    /// A string's opening quote with any prefix: `<|"|>`, `"`, `'`, `"""`, `rb'`.
    StringOpen,
    /// A string's closing quote: `<|"|>`, `"`, `'`, `"""`.
    StringClose,
    /// String contents that mean exactly their bytes: a Gemma `<|"|>` string, a Python raw
    /// string.
    Raw,
    /// String contents with backslash escapes: Python escapes in Python strings; in Gemma,
    /// the escapes of a string written in JSON or Python quotes.
    Escaped,
    /// A Gemma `<|"|>` inside a string that does not close it (docs/dialects.md §gemma): each
    /// stands for one `"` character of the string.
    LiteralQuote,
    /// A bare word: a number, `true`/`True`/`null`/`None`/…, a key written without quotes,
    /// or other unquoted text (which a consumer may keep as a string). Whitespace between
    /// two bare words arrives as [`Piece::Space`] and belongs to the text.
    Bare,
}

impl Piece {
    /// A stable snake_case code (`verbatim`, `punct`, `string_open`, …), for JSON output.
    pub const fn code(self) -> &'static str {
        match self {
            Piece::Verbatim => "verbatim",
            Piece::Punct => "punct",
            Piece::Space => "space",
            Piece::StringOpen => "string_open",
            Piece::StringClose => "string_close",
            Piece::Raw => "raw",
            Piece::Escaped => "escaped",
            Piece::LiteralQuote => "literal_quote",
            Piece::Bare => "bare",
        }
    }
}

/// How a tool call ended. Every [`Sink::tool_start`] is followed by exactly one
/// [`Sink::tool_end`] for the same call, at the latest during
/// [`finish`](crate::Scanner::finish).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CallEnd {
    /// The call's structure closed (or its JSON value was complete when the stream or an
    /// enclosing structure ended, docs/dialects.md rule 3). Safe to execute.
    Complete,
    /// The stream ended inside the call. Never executable.
    Incomplete,
    /// A draft inside a reasoning block that later closed (docs/dialects.md rule 7): its bytes
    /// belong back in the reasoning text at their position.
    Demoted,
    /// Its structure broke; its bytes were reported as markup and arguments and belong back
    /// in the enclosing text. A diagnostic says why.
    Invalid,
}

impl CallEnd {
    /// A stable snake_case code (`complete`, `incomplete`, `demoted`, `invalid`).
    pub const fn code(self) -> &'static str {
        match self {
            CallEnd::Complete => "complete",
            CallEnd::Incomplete => "incomplete",
            CallEnd::Demoted => "demoted",
            CallEnd::Invalid => "invalid",
        }
    }
}

/// Receives a scanner's events, in stream order. Every method has a no-op default, so a
/// consumer implements only what it needs.
///
/// Payload bytes are valid only for the duration of the call: they borrow from the chunk
/// being fed or, for bytes held back across a chunk boundary, from the scanner. A payload
/// may end inside a UTF-8 code point, and adjacent payloads of one kind may arrive as any
/// number of fragments: fragment boundaries mean nothing (join them before comparing).
///
/// Calls are numbered from 0 in stream order (`call`), which is also the OpenAI
/// `tool_calls[].index` of the call.
pub trait Sink {
    /// Visible content.
    fn text(&mut self, span: Span, text: &[u8]) {
        let _ = (span, text);
    }

    /// Reasoning text (between the reasoning delimiters, or from the stream start when the
    /// scanner starts in reasoning).
    fn reasoning(&mut self, span: Span, text: &[u8]) {
        let _ = (span, text);
    }

    /// Consumed structure: a delimiter (whole) or call envelope bytes.
    fn markup(&mut self, span: Span, kind: Markup, bytes: &[u8]) {
        let _ = (span, kind, bytes);
    }

    /// A reasoning block opened; `span` is its opener (empty when the stream started in
    /// reasoning).
    fn reasoning_start(&mut self, span: Span) {
        let _ = span;
    }

    /// A reasoning block ended; `span` is its closer (empty when the stream ended first).
    fn reasoning_end(&mut self, span: Span) {
        let _ = span;
    }

    /// A call began. `name` is the whole name when the model wrote it before the arguments,
    /// `None` otherwise (then [`Sink::tool_name`] follows). `provisional` is true for a call
    /// inside reasoning whose fate depends on whether the reasoning closes (docs/dialects.md
    /// rule 7); a server must not expose it before its [`Sink::tool_end`]. `span` is the
    /// name's bytes, or the bytes that made the call start.
    fn tool_start(&mut self, span: Span, call: u32, name: Option<&[u8]>, provisional: bool) {
        let _ = (span, call, name, provisional);
    }

    /// The call's id as the model wrote it (Kimi `functions.NAME:IDX`, docs/dialects.md rule 10),
    /// after [`Sink::tool_start`] and before any argument. Dialects whose models write no
    /// id never send it; the consumer mints one.
    fn tool_id(&mut self, span: Span, call: u32, id: &[u8]) {
        let _ = (span, call, id);
    }
    /// The name of a call whose arguments came first (trimmed, whole).
    fn tool_name(&mut self, span: Span, call: u32, name: &[u8]) {
        let _ = (span, call, name);
    }

    /// A fragment of the model's raw JSON text of the call's arguments: usually an object,
    /// a JSON string when the model double-encoded them. Clients need valid JSON equal to the
    /// final arguments: pass the fragments through
    /// [`ArgumentsNormalizer`](crate::ArgumentsNormalizer). Dialects whose arguments are
    /// parameters (raw-text or literal, see [`ValueKind`]) send [`Sink::tool_param`],
    /// [`Sink::tool_value`] and [`Sink::tool_param_end`] instead.
    fn tool_args(&mut self, span: Span, call: u32, json: &[u8]) {
        let _ = (span, call, json);
    }

    /// A parameter of a call whose arguments are written as parameters instead of JSON text
    /// began: raw-text parameters (`<parameter name="k">` in the XML family and DSML; GLM's
    /// `<arg_key>`, qwen3-coder's `<parameter=k>`) or literal ones (Gemma's `k:v`, Python's
    /// `k=v`). `key` is its name, trimmed and whole (UTF-8 is not checked; entities are not
    /// decoded); `kind` says how its value is written. `span` is the key's bytes, which were
    /// reported as markup. The value follows as [`Sink::tool_value`] fragments, then
    /// [`Sink::tool_param_end`]; a call's parameters come one after the other, never
    /// nested. A call may have none: its arguments are `{}`.
    fn tool_param(&mut self, span: Span, call: u32, key: &[u8], kind: ValueKind) {
        let _ = (span, call, key, kind);
    }

    /// A fragment of the current parameter's value, the model's bytes exactly as written;
    /// `piece` says what it is: [`Piece::Verbatim`] for a raw-text value (possibly ending
    /// inside a UTF-8 code point), a lexed piece for a literal value. Adjacent fragments of
    /// one piece may be joined or split anywhere. A payload event: its span takes part in
    /// the tiling.
    fn tool_value(&mut self, span: Span, call: u32, piece: Piece, bytes: &[u8]) {
        let _ = (span, call, piece, bytes);
    }

    /// The current parameter's value is complete; `span` is its closer where it has one of
    /// its own (`</parameter>`), else empty, at the value's end. Not sent when the call ends
    /// inside the value (truncated or invalid): then [`Sink::tool_end`] ends both. A draft
    /// call (inside reasoning) cut by a stop token inside a value gets it at the stop token,
    /// since its `tool_end` waits for the reasoning to close: parameters never overlap.
    fn tool_param_end(&mut self, span: Span, call: u32) {
        let _ = (span, call);
    }

    /// The call ended; `span` is the bytes that decided it (its closer, or empty).
    fn tool_end(&mut self, span: Span, call: u32, end: CallEnd) {
        let _ = (span, call, end);
    }

    /// The model began a tool-result block in content: it is inventing a result. A consumer
    /// may stop feeding here.
    fn fabricated_result(&mut self, span: Span) {
        let _ = span;
    }

    /// Something in the output worth reporting; `span` is the bytes concerned.
    fn diagnostic(&mut self, span: Span, diagnostic: Diagnostic) {
        let _ = (span, diagnostic);
    }
}
