//! What a diagnostic says: every repair, rejection and limit the scanner reports, with
//! its stable code.

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
    /// A call name was empty, or held whitespace, a quote or markup (docs/dialects.md rule 9).
    InvalidName,
    /// A call name was longer than [`MAX_NAME`](crate::MAX_NAME) bytes.
    NameTooLong,
    /// A call body was not the JSON the dialect expects at this byte.
    MalformedCall,
    /// A call's JSON was wrapped in a Markdown code fence (accepted, docs/dialects.md rule 13).
    CodeFence,
    /// A call's closer came where only the body's last `}` was missing; the call is
    /// complete (docs/dialects.md rule 13).
    UnclosedBody,
    /// A block's JSON array of calls (the `list` knob) reached its closer, or the end of the
    /// stream, without its `]`; its calls are complete (docs/dialects.md rule 13).
    UnclosedList,
    /// Bytes came between a call's complete JSON arguments and its closer (an extra `}` is
    /// the usual one); they were released as text and the call goes on to its closer
    /// (docs/dialects.md rule 2).
    TrailingText,
    /// A second JSON object followed a complete call inside the same block; it is the next
    /// call (docs/dialects.md rule 13).
    SharedBlock,
    /// The stream ended, or a stop token came, inside a call.
    TruncatedCall,
    /// The stream ended inside a reasoning block; it was closed there.
    UnclosedReasoning,
    /// A stop token appeared inside the text and was removed (docs/dialects.md rule 12). Not
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
    /// (docs/dialects.md rule 12).
    StrayToken,
    /// A message header was longer than 256 bytes (its special tokens not counted); the
    /// first 256 bytes stay markup, the rest up to the next special token is text, and the
    /// header makes no call.
    HeaderTooLong,
    /// A message header was not followed by its body: another header, a message end or the
    /// end of the stream came first. Its bytes stay markup.
    UnclosedHeader,
    /// Harmony: the output began inside the `<|start|>assistant` header the prompt ended
    /// with (` to=functions.NAME<|channel|>…`); read as that header's recipient.
    HeaderFromPrompt,
    /// A message header named its channel twice (gpt-oss repeats `<|channel|>`); the first
    /// channel counts, the second is markup (docs/dialects.md rule 13).
    DuplicateChannel,
    /// A message ended without its end token because the next message's header began
    /// (docs/dialects.md rule 13).
    UnclosedMessage,
    /// A call's header (its name or id) ended at another delimiter before the one that
    /// begins its arguments (Kimi `<|tool_call_argument_begin|>`, DeepSeek `<｜tool▁sep｜>`);
    /// the call is invalid and the delimiter is read again after it (docs/seed.md B9).
    MissingArgsOpen,
    /// A call section ended without its closer: at the end of the stream, at a stop token,
    /// at text that cannot be in a section, or when the reasoning it was in closed. Its
    /// complete calls stay complete.
    UnclosedSection,
    /// A call opener appeared without the section that should hold it (Kimi, DeepSeek);
    /// accepted (docs/dialects.md rule 13).
    MissingSection,
    /// A call began right after a section opener without its own opener (DeepSeek writes
    /// this, docs/dialects.md §deepseek); accepted (docs/dialects.md rule 13).
    MissingCallOpen,
    /// A delimiter was written in a known non-canonical spelling (Kimi's singular
    /// `<|tool_call_section_begin|>`, DeepSeek's section opener variants); accepted
    /// (docs/dialects.md rule 13).
    DelimiterAlias,
    /// A markup tag (`<invoke …>`, `<parameter …>`) ran longer than its bound (128 bytes
    /// after the tag name) without closing; it was released as text.
    TagTooLong,
    /// A markup tag was not well-formed (a `<` or stray quote outside a quoted attribute
    /// value); it was released as text.
    MalformedTag,
    /// A parameter tag had no usable `name` attribute; the call is invalid.
    MissingKey,
    /// A parameter's `string` attribute was neither `true` nor `false` (or, where a
    /// dialect types values by a JSON type word, Kimi K3's `type`, no word); the value is
    /// untyped.
    InvalidStringAttribute,
    /// A parameter value was ended by its invoke's closer, or by the next parameter's opener
    /// at the start of a line, instead of its own (accepted, docs/dialects.md rule 13).
    UnclosedParameter,
    /// An invoke was ended by the next invoke or by its section's closer instead of its own
    /// (accepted, docs/dialects.md rule 13).
    UnclosedInvoke,
    /// A parameter key was longer than [`MAX_NAME`](crate::MAX_NAME) bytes; the call is
    /// invalid.
    KeyTooLong,
    /// A parameter closer came between parameters, or an invoke closer between the calls
    /// of a section, where nothing it closes was open (a model closing twice); it was
    /// consumed as markup (docs/dialects.md rule 13).
    StrayCloser,
    /// A parameter value was closed by a tag named after the parameter (`</content>` for
    /// `<parameter name="content">`) instead of `</parameter>`; accepted where structure
    /// follows it, as `</parameter>` would be (docs/dialects.md rules 4 and 13; corpus 059).
    MismatchedCloser,
    /// A parameter value was closed by a misspelled closer from its dialect's `aliases`
    /// (Qwen3.5 / 3.6's `</parameter/>`, `</parameter1>`, a `</parameter` cut at the line
    /// break, `</parameter_function>` fused with the invoke's closer); read as the closer it
    /// means where structure follows it (docs/dialects.md rules 4 and 13, §qwen3-coder).
    MalformedCloser,
    /// An equals-form tag (`<parameter=KEY`, `<function=NAME`) ended at a line break
    /// without its `>`; the name is what came before the line break (docs/dialects.md
    /// §qwen3-coder).
    UnclosedTag,
    /// A Gemma call was written `call:NAME(k=v, …)` instead of `call:NAME{k:v,…}`
    /// (accepted, docs/dialects.md rule 13).
    ParenthesizedCall,
    /// A Gemma string was written in JSON or Python quotes instead of `<|"|>` (accepted,
    /// docs/dialects.md rule 13). Reported once per call.
    QuotedString,
    /// Gemma: a string's closing `<|"|>` came right after bare words, its opening one left
    /// out; the words are the value.
    MissingStringOpener,
    /// A Gemma model wrote its calls as Python in a ```` ```tool_code ```` fence, the
    /// Gemma 3 way (accepted, docs/dialects.md rule 13).
    ToolCodeBlock,
    /// A call in a ```` ```tool_code ```` block had a positional argument: it is not a tool
    /// call (docs/seed.md B20). The call is invalid.
    PositionalArgument,
    /// A ```` ```tool_code ```` block held a statement that is not a call; it and the rest
    /// of the block are text (docs/seed.md B20).
    NotACall,
    /// A GLM value was ended without its `</arg_value>`: by the next `<arg_key>` pair (the
    /// whitespace before it is framing, not value) or by `</tool_call>` (accepted, docs/seed.md
    /// §2.1 healing, docs/dialects.md rule 13).
    UnclosedValue,
    /// A GLM value was closed by `</arg_key>` instead of `</arg_value>` (accepted, docs/seed.md §2.1
    /// healing); a `</arg_value>` right after it was consumed with it.
    WrongCloser,
    /// A GLM key tag was repeated (`<arg_key><arg_key>k` or `k</arg_key></arg_key>`); the
    /// repeat was consumed as the key's markup (docs/dialects.md rules 12, 13).
    DuplicateTag,
    /// A GLM call name ran into its first key with no `<arg_key>` between them
    /// (`<tool_call>NAMEKEY</arg_key>`, GLM-4.7, corpus 018). Only the tool list tells the
    /// name from the key, so this diagnostic comes right before the call's
    /// [`Sink::tool_start`](crate::Sink::tool_start), the call's name is the glued `NAMEKEY` and its first
    /// [`Sink::tool_param`](crate::Sink::tool_param) has an empty key. `inband-alloc` splits the name at the declared
    /// tool name it begins with; without one the block is text (docs/dialects.md rule 9).
    MissingKeyOpen,
    /// A GLM call was ended without its `</tool_call>`: by the next `<tool_call>`, or, for
    /// a draft, by the reasoning closer (accepted, docs/dialects.md rule 13).
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
            Diagnostic::UnclosedList => "unclosed_list",
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
            Diagnostic::HeaderFromPrompt => "header_from_prompt",
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
            Diagnostic::MalformedCloser => "malformed_closer",
            Diagnostic::UnclosedTag => "unclosed_tag",
            Diagnostic::ParenthesizedCall => "parenthesized_call",
            Diagnostic::QuotedString => "quoted_string",
            Diagnostic::MissingStringOpener => "missing_string_opener",
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
            Diagnostic::UnclosedList => "the array of calls lacked its closing `]`",
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
            Diagnostic::HeaderFromPrompt => {
                "the output went on the header the prompt opened; read as its recipient"
            }
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
            Diagnostic::MalformedCloser => "a value's closer was misspelled; read as meant",
            Diagnostic::UnclosedTag => "a tag's `>` was missing; its name ended at the line",
            Diagnostic::ParenthesizedCall => {
                "the call was written call:NAME(k=v) instead of call:NAME{k:v}"
            }
            Diagnostic::MissingStringOpener => {
                "a string's opening quote token was missing; its bare words are the value"
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
