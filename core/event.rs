//! The event model: what a scanner reports, as calls on a [`Sink`].
//!
//! Payload events ([`Sink::text`], [`Sink::reasoning`], [`Sink::markup`],
//! [`Sink::tool_args`], [`Sink::tool_value`]) carry the input's own bytes; their spans
//! tile the stream exactly. Structural events (call start, name, parameter bounds, end,
//! reasoning bounds, diagnostics) carry the span of the bytes they are about and are not
//! part of the tiling.

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
    /// from the text with a diagnostic (dialects.md rule 12).
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
    /// what follows can continue the structure (dialects.md rule 4).
    ParamClose,
    /// A string quote token (Gemma `<|"|>`): opens or closes a string inside call
    /// arguments.
    Quote,
    /// A Markdown code fence (```` ``` ````, `~~~`) whose meaning depends on its line: in
    /// Gemini reasoning, it may close the block, open a nested code block or a call block.
    Fence,
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
/// `inband-alloc`'s assembler turns the value into JSON without a schema (dialects.md rule
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
    /// Gemma 4's literal syntax (model-formats.md §12): strings between `<|"|>` tokens with
    /// no escapes, bare numbers, `true`, `false`, `null`, `[…]` lists and `{key:…}` objects
    /// with bare keys. Strings in JSON or Python quotes (with backslash escapes) are
    /// accepted as drift. JSON: strings as strings (escapes decoded), numbers and
    /// `true`/`false`/`null` as they are, lists as arrays, objects as objects with their
    /// bare keys as strings; another bare word becomes the string of its text (a repair).
    Gemma,
    /// A Python literal (model-formats.md §11): strings in single, double or triple quotes
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
    /// A Gemma `<|"|>` inside a string that does not close it (model-formats.md §12): each
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
    /// enclosing structure ended, dialects.md rule 3). Safe to execute.
    Complete,
    /// The stream ended inside the call. Never executable.
    Incomplete,
    /// A draft inside a reasoning block that later closed (dialects.md rule 7): its bytes
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

/// Something in the model's output that a consumer may want to know about. Never an error
/// of the library: the scanner always goes on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Diagnostic {
    /// A call's JSON body was complete but its closer never came (stream end, stop token,
    /// or other text followed); the call is complete.
    MissingCloser,
    /// The arguments were written as a JSON string instead of an object (double-encoded,
    /// the object serialised once more). The argument events carry the string as written;
    /// [`ArgumentsNormalizer`](crate::ArgumentsNormalizer) unwraps it, and what it holds must
    /// then be an object for the call to be usable.
    DoubleEncodedArguments,
    /// `arguments` was neither an object nor a string; it was skipped as markup.
    ArgumentsNotObject,
    /// A key appeared twice in a call envelope; the second value was skipped as markup.
    DuplicateKey,
    /// A call envelope held a key other than `name` and `arguments` (or its alias
    /// `parameters`); its value was skipped as markup.
    IgnoredKey,
    /// A call envelope had no `name`.
    MissingName,
    /// A call name was empty, or held whitespace, a quote or markup (dialects.md rule 9).
    InvalidName,
    /// A call name was longer than [`MAX_NAME`](crate::MAX_NAME) bytes.
    NameTooLong,
    /// A call body was not the JSON the dialect expects at this byte.
    MalformedCall,
    /// A call's JSON was wrapped in a Markdown code fence (accepted, dialects.md rule 13).
    CodeFence,
    /// A call's closer came where only the body's last `}` was missing; the call is
    /// complete (dialects.md rule 13).
    UnclosedBody,
    /// Bytes came between a call's complete JSON arguments and its closer (an extra `}` is
    /// the usual one); they were released as text and the call goes on to its closer
    /// (dialects.md rule 2).
    TrailingText,
    /// A second JSON object followed a complete call inside the same block; it is the next
    /// call (dialects.md rule 13).
    SharedBlock,
    /// The stream ended, or a stop token came, inside a call.
    TruncatedCall,
    /// The stream ended inside a reasoning block; it was closed there.
    UnclosedReasoning,
    /// A stop token appeared inside the text and was removed (dialects.md rule 12). Not
    /// reported for the stream's last stop token when only whitespace follows it: that is
    /// the model's normal end of turn (still removed from the text, as markup). The
    /// diagnostic is sent once something else follows, just before it.
    StrayStopToken,
    /// A call's arguments exceeded [`Options::max_argument_bytes`](crate::Options).
    ArgumentsTooLong,
    /// The response exceeded [`Options::max_calls`](crate::Options) calls.
    TooManyCalls,
    /// A reasoning block held more than [`MAX_DRAFT_CALLS`](crate::MAX_DRAFT_CALLS) calls.
    TooManyDraftCalls,
    /// A special token appeared where it cannot belong and was removed from the text
    /// (dialects.md rule 12).
    StrayToken,
    /// A message header was longer than 256 bytes (its special tokens not counted); the
    /// first 256 bytes stay markup, the rest up to the next special token is text, and the
    /// header makes no call.
    HeaderTooLong,
    /// A message header was not followed by its body: another header, a message end or the
    /// end of the stream came first. Its bytes stay markup.
    UnclosedHeader,
    /// A message header named its channel twice (gpt-oss repeats `<|channel|>`); the first
    /// channel counts, the second is markup (dialects.md rule 13).
    DuplicateChannel,
    /// A message ended without its end token because the next message's header began
    /// (dialects.md rule 13).
    UnclosedMessage,
    /// A call's header (its name or id) ended at another delimiter before the one that
    /// begins its arguments (Kimi `<|tool_call_argument_begin|>`, DeepSeek `<｜tool▁sep｜>`);
    /// the call is invalid and the delimiter is read again after it (seed B9).
    MissingArgsOpen,
    /// A call section ended without its closer: at the end of the stream, at a stop token,
    /// at text that cannot be in a section, or when the reasoning it was in closed. Its
    /// complete calls stay complete.
    UnclosedSection,
    /// A call opener appeared without the section that should hold it (Kimi, DeepSeek);
    /// accepted (dialects.md rule 13).
    MissingSection,
    /// A call began right after a section opener without its own opener (DeepSeek writes
    /// this, model-formats §7.1); accepted (dialects.md rule 13).
    MissingCallOpen,
    /// A delimiter was written in a known non-canonical spelling (Kimi's singular
    /// `<|tool_call_section_begin|>`, DeepSeek's section opener variants); accepted
    /// (dialects.md rule 13).
    DelimiterAlias,
    /// A markup tag (`<invoke …>`, `<parameter …>`) ran longer than its bound (128 bytes
    /// after the tag name) without closing; it was released as text.
    TagTooLong,
    /// A markup tag was not well-formed (a `<` or stray quote outside a quoted attribute
    /// value); it was released as text.
    MalformedTag,
    /// A parameter tag had no usable `name` attribute; the call is invalid.
    MissingKey,
    /// A parameter's `string` attribute was neither `true` nor `false`; the value is untyped.
    InvalidStringAttribute,
    /// A parameter value was ended by its invoke's closer, or by the next parameter's opener
    /// at the start of a line, instead of its own (accepted, dialects.md rule 13).
    UnclosedParameter,
    /// An invoke was ended by the next invoke or by its section's closer instead of its own
    /// (accepted, dialects.md rule 13).
    UnclosedInvoke,
    /// A parameter key was longer than [`MAX_NAME`](crate::MAX_NAME) bytes; the call is
    /// invalid.
    KeyTooLong,
    /// A parameter closer came between parameters, or an invoke closer between the calls
    /// of a section, where nothing it closes was open (a model closing twice); it was
    /// consumed as markup (dialects.md rule 13).
    StrayCloser,
    /// A parameter value was closed by a tag named after the parameter (`</content>` for
    /// `<parameter name="content">`) instead of `</parameter>`; accepted where structure
    /// follows it, as `</parameter>` would be (dialects.md rules 4 and 13; corpus 059).
    MismatchedCloser,
    /// A Gemma call was written `call:NAME(k=v, …)` instead of `call:NAME{k:v,…}`
    /// (accepted, dialects.md rule 13).
    ParenthesizedCall,
    /// A Gemma string was written in JSON or Python quotes instead of `<|"|>` (accepted,
    /// dialects.md rule 13). Reported once per call.
    QuotedString,
    /// A Gemma model wrote its calls as Python in a ```` ```tool_code ```` fence, the
    /// Gemma 3 way (accepted, dialects.md rule 13).
    ToolCodeBlock,
    /// A call in a ```` ```tool_code ```` block had a positional argument: it is not a tool
    /// call (seed B20). The call is invalid.
    PositionalArgument,
    /// A ```` ```tool_code ```` block held a statement that is not a call; it and the rest
    /// of the block are text (seed B20).
    NotACall,
    /// A GLM value was ended without its `</arg_value>`: by the next `<arg_key>` pair (the
    /// whitespace before it is framing, not value) or by `</tool_call>` (accepted, seed
    /// §2.1 healing, dialects.md rule 13).
    UnclosedValue,
    /// A GLM value was closed by `</arg_key>` instead of `</arg_value>` (accepted, seed §2.1
    /// healing); a `</arg_value>` right after it was consumed with it.
    WrongCloser,
    /// A GLM key tag was repeated (`<arg_key><arg_key>k` or `k</arg_key></arg_key>`); the
    /// repeat was consumed as the key's markup (dialects.md rules 12, 13).
    DuplicateTag,
    /// A GLM call name ran into its first key with no `<arg_key>` between them
    /// (`<tool_call>NAMEKEY</arg_key>`, GLM-4.7, corpus 018). Only the tool list tells the
    /// name from the key, so this diagnostic comes right before the call's
    /// [`Sink::tool_start`], the call's name is the glued `NAMEKEY` and its first
    /// [`Sink::tool_param`] has an empty key. `inband-alloc` splits the name at the declared
    /// tool name it begins with; without one the block is text (dialects.md rule 9).
    MissingKeyOpen,
    /// A GLM call was ended without its `</tool_call>`: by the next `<tool_call>`, or, for
    /// a draft, by the reasoning closer (accepted, dialects.md rule 13).
    UnclosedCall,
    /// A reasoning closer (`</think>`, …) came in content with no reasoning opener before
    /// it: the prompt probably opened the reasoning (Qwen3-Thinking, DeepSeek-R1 and
    /// MiniMax-M2 templates end it with `<think>`), so the text before it is the model's
    /// reasoning. It stays text (it was already sent as content): scan with
    /// [`Options::starts_in_reasoning`](crate::Options::starts_in_reasoning). Only the
    /// first such closer, and only before any reasoning opened; `span` is the closer.
    UnopenedReasoning,
}

impl Diagnostic {
    /// A stable snake_case code, for JSON output and logs.
    pub const fn code(self) -> &'static str {
        match self {
            Diagnostic::MissingCloser => "missing_closer",
            Diagnostic::DoubleEncodedArguments => "double_encoded_arguments",
            Diagnostic::ArgumentsNotObject => "arguments_not_object",
            Diagnostic::DuplicateKey => "duplicate_key",
            Diagnostic::IgnoredKey => "ignored_key",
            Diagnostic::MissingName => "missing_name",
            Diagnostic::InvalidName => "invalid_name",
            Diagnostic::NameTooLong => "name_too_long",
            Diagnostic::MalformedCall => "malformed_call",
            Diagnostic::CodeFence => "code_fence",
            Diagnostic::UnclosedBody => "unclosed_body",
            Diagnostic::TrailingText => "trailing_text",
            Diagnostic::SharedBlock => "shared_block",
            Diagnostic::TruncatedCall => "truncated_call",
            Diagnostic::UnclosedReasoning => "unclosed_reasoning",
            Diagnostic::StrayStopToken => "stray_stop_token",
            Diagnostic::ArgumentsTooLong => "arguments_too_long",
            Diagnostic::TooManyCalls => "too_many_calls",
            Diagnostic::TooManyDraftCalls => "too_many_draft_calls",
            Diagnostic::StrayToken => "stray_token",
            Diagnostic::HeaderTooLong => "header_too_long",
            Diagnostic::UnclosedHeader => "unclosed_header",
            Diagnostic::DuplicateChannel => "duplicate_channel",
            Diagnostic::UnclosedMessage => "unclosed_message",
            Diagnostic::MissingArgsOpen => "missing_args_open",
            Diagnostic::UnclosedSection => "unclosed_section",
            Diagnostic::MissingSection => "missing_section",
            Diagnostic::MissingCallOpen => "missing_call_open",
            Diagnostic::DelimiterAlias => "delimiter_alias",
            Diagnostic::TagTooLong => "tag_too_long",
            Diagnostic::MalformedTag => "malformed_tag",
            Diagnostic::MissingKey => "missing_key",
            Diagnostic::InvalidStringAttribute => "invalid_string_attribute",
            Diagnostic::UnclosedParameter => "unclosed_parameter",
            Diagnostic::UnclosedInvoke => "unclosed_invoke",
            Diagnostic::KeyTooLong => "key_too_long",
            Diagnostic::StrayCloser => "stray_closer",
            Diagnostic::MismatchedCloser => "mismatched_closer",
            Diagnostic::ParenthesizedCall => "parenthesized_call",
            Diagnostic::QuotedString => "quoted_string",
            Diagnostic::ToolCodeBlock => "tool_code_block",
            Diagnostic::PositionalArgument => "positional_argument",
            Diagnostic::NotACall => "not_a_call",
            Diagnostic::UnclosedValue => "unclosed_value",
            Diagnostic::WrongCloser => "wrong_closer",
            Diagnostic::DuplicateTag => "duplicate_tag",
            Diagnostic::MissingKeyOpen => "missing_key_open",
            Diagnostic::UnclosedCall => "unclosed_call",
            Diagnostic::UnopenedReasoning => "unopened_reasoning",
        }
    }

    /// A one-line human-readable explanation.
    pub const fn message(self) -> &'static str {
        match self {
            Diagnostic::MissingCloser => {
                "the call's JSON was complete but its closing delimiter never came"
            }
            Diagnostic::DoubleEncodedArguments => {
                "the arguments were a JSON string instead of an object; its contents were unwrapped"
            }
            Diagnostic::ArgumentsNotObject => {
                "arguments were neither an object nor a string; ignored"
            }
            Diagnostic::IgnoredKey => {
                "the call held a key other than name and arguments; its value was ignored"
            }
            Diagnostic::DuplicateKey => {
                "a key appeared twice in the call; the second value was ignored"
            }
            Diagnostic::MissingName => "the call had no name",
            Diagnostic::InvalidName => {
                "the call name was empty or held whitespace, quotes or markup"
            }
            Diagnostic::NameTooLong => "the call name was too long",
            Diagnostic::MalformedCall => "the call body was not well-formed; released as text",
            Diagnostic::CodeFence => "the call's JSON was wrapped in a Markdown code fence",
            Diagnostic::UnclosedBody => "the call's JSON lacked its final brace before the closer",
            Diagnostic::TrailingText => {
                "text came between the call's arguments and its closer; released as text"
            }
            Diagnostic::SharedBlock => "several calls shared one block; each JSON object is a call",
            Diagnostic::TruncatedCall => "the stream ended (or a stop token came) inside a call",
            Diagnostic::UnclosedReasoning => "the stream ended inside reasoning; closed there",
            Diagnostic::StrayStopToken => "a stop token leaked into the text and was removed",
            Diagnostic::ArgumentsTooLong => "the call's arguments exceeded the configured limit",
            Diagnostic::TooManyCalls => "the response exceeded the configured number of calls",
            Diagnostic::TooManyDraftCalls => "a reasoning block held too many draft calls",
            Diagnostic::StrayToken => {
                "a special token appeared where it cannot belong and was removed"
            }
            Diagnostic::HeaderTooLong => {
                "a message header was too long; the rest of it was kept as text"
            }
            Diagnostic::UnclosedHeader => "a message header ended before its message body began",
            Diagnostic::DuplicateChannel => {
                "a message header named its channel twice; the first one counts"
            }
            Diagnostic::UnclosedMessage => "a message was not ended before the next one began",
            Diagnostic::MissingArgsOpen => {
                "the call's header ended before the delimiter that begins its arguments"
            }
            Diagnostic::UnclosedSection => "a call section ended without its closing delimiter",
            Diagnostic::MissingSection => "a call appeared without its enclosing section",
            Diagnostic::MissingCallOpen => "a call in a section lacked its own opening delimiter",
            Diagnostic::DelimiterAlias => "a delimiter was written in a known variant spelling",
            Diagnostic::TagTooLong => "a markup tag was too long; released as text",
            Diagnostic::MalformedTag => "a markup tag was not well-formed; released as text",
            Diagnostic::MissingKey => "a parameter had no name",
            Diagnostic::InvalidStringAttribute => {
                "a parameter's string attribute was neither true nor false; ignored"
            }
            Diagnostic::UnclosedParameter => {
                "a parameter value was ended by its invoke's closer or the next parameter"
            }
            Diagnostic::UnclosedInvoke => {
                "an invoke was ended by the next invoke or the section's closer"
            }
            Diagnostic::KeyTooLong => "a parameter key was too long",
            Diagnostic::StrayCloser => {
                "a parameter or invoke closer came where nothing it closes was open; consumed"
            }
            Diagnostic::MismatchedCloser => {
                "a parameter value was closed by a tag named after the parameter"
            }
            Diagnostic::ParenthesizedCall => {
                "the call was written call:NAME(k=v) instead of call:NAME{k:v}"
            }
            Diagnostic::QuotedString => {
                "a string was written in JSON or Python quotes instead of the quote token"
            }
            Diagnostic::ToolCodeBlock => "the calls were written as Python in a tool_code fence",
            Diagnostic::PositionalArgument => {
                "the call had a positional argument; it is not a tool call"
            }
            Diagnostic::NotACall => {
                "the tool_code block held a statement that is not a call; it is text from there"
            }
            Diagnostic::UnclosedValue => "a value was ended without its own closer",
            Diagnostic::WrongCloser => "a value was closed by the key's closer",
            Diagnostic::DuplicateTag => "a key tag was repeated; the repeat was ignored",
            Diagnostic::MissingKeyOpen => {
                "the call name ran into its first key without the key's opener; a declared tool name splits them, else the block is text"
            }
            Diagnostic::UnclosedCall => "a call was ended without its own closer",
            Diagnostic::UnopenedReasoning => {
                "a reasoning closer came with no opener before it: the prompt may have opened the reasoning; scan with starts_in_reasoning (--starts-in-reasoning)"
            }
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
    /// inside reasoning whose fate depends on whether the reasoning closes (dialects.md
    /// rule 7); a server must not expose it before its [`Sink::tool_end`]. `span` is the
    /// name's bytes, or the bytes that made the call start.
    fn tool_start(&mut self, span: Span, call: u32, name: Option<&[u8]>, provisional: bool) {
        let _ = (span, call, name, provisional);
    }

    /// The call's id as the model wrote it (Kimi `functions.NAME:IDX`, dialects.md rule 10),
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
