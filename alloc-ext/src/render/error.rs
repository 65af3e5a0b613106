//! Why something cannot be written in a dialect without the scanner reading it back as
//! something else.

use std::fmt;

/// What could not be written, and where: rendering refuses instead of writing a call,
/// result or reasoning block the dialect's own scanner would read differently.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RenderError {
    /// Which item of the batch: the call's index in the turn, the result's in the run, or
    /// the message's in a transcript. `0` for a single call or reasoning block.
    pub index: usize,
    /// The tool's name, when the item is a call or a result.
    pub name: Option<String>,
    /// Where in the arguments, as a JSON Pointer (RFC 6901: `/path`, `/ops/0/text`); `None`
    /// when the problem is not in one argument.
    pub argument: Option<String>,
    /// Why.
    pub reason: Reason,
}

/// Why a value cannot be written.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Reason {
    /// A raw-text value holds the dialect's closing sequence followed (after at most 32
    /// bytes of whitespace) by structure, so the scanner would end the value there
    /// (docs/dialects.md rule 4). Carries the closer.
    CloserInValue(&'static str),
    /// A raw-text value holds `</KEY>`, the closer named after its own parameter (which
    /// the anthropic and minimax scanners take for the parameter's closer, corpus 059),
    /// followed by structure. The key is the last step of the error's `argument`.
    KeyCloserInValue,
    /// A raw-text value holds the opener of a verbatim section (MiniCPM 5's `<![CDATA[`)
    /// and cannot be written in one (it holds the section's closer or a stop token).
    SectionOpenerInValue(&'static str),
    /// A Gemma string holds its dialect's quote token (`<|"|>`, FunctionGemma's
    /// `<escape>`), which no escape can write (it would end the string or come back as a
    /// plain `"`).
    QuoteTokenInString,
    /// The tool name cannot be written: empty, whitespace or markup in it (docs/dialects.md
    /// rule 9), or a character the dialect's name syntax does not allow. Carries the
    /// allowed form.
    InvalidName(&'static str),
    /// An argument key (or a nested object's key) cannot be written in the dialect's key
    /// syntax. Carries the allowed form.
    InvalidKey(&'static str),
    /// Reasoning text holds the dialect's reasoning closer (or a token that ends a
    /// message), so the scanner would end the reasoning early. Carries the closer.
    CloserInReasoning(&'static str),
    /// Text holds a token of the chat template (a turn or message delimiter the renderer
    /// writes between messages: `<|im_start|>`, `]~b]`, `\n\nHuman:`, …), so the model
    /// would read a turn boundary. Carries the token.
    TemplateToken(&'static str),
    /// A raw-text value that the tool's schema would have read as another value
    /// (docs/dialects.md rule 8, the assembler's typing with the same tools), whichever way it
    /// is written: a string such as `"5"` for an `integer` parameter, whose raw text reads
    /// as the number and whose quoted JSON is not admitted; a number for a string-only
    /// parameter, which reads as a string.
    TypedDifferently,
    /// A value's lists and objects nest deeper than the dialect's reading side parses:
    /// [`inband::MAX_LITERAL_DEPTH`] levels in a value of gemma and gemini (their bracket
    /// stack is bounded), [`MAX_ARGUMENT_DEPTH`](crate::assemble::MAX_ARGUMENT_DEPTH)` - 1`
    /// in the other dialects (the assembler's JSON parser, the arguments object being one
    /// level). Carries that limit; the error's `argument` is the first container beyond it.
    /// Checked without recursion before anything is written, so any depth is refused
    /// cleanly.
    TooDeep(usize),
    /// A tool result's text holds the closer of its block (`</tool_response>`, `</stdout>`,
    /// a fence line in gemini, …), so the model would read the rest as outside the result.
    /// Carries the closer.
    CloserInResult(&'static str),
    /// Text holds a delimiter that the dialect's scanner acts on there: a stop token, a
    /// special token it removes as stray (docs/dialects.md rule 12), a section or call opener.
    /// The scanner would not read the text back as written. Carries the delimiter as the
    /// scanner read it (empty when it read the text differently without one).
    DelimiterInText(String),
}

impl fmt::Display for RenderError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "item {}", self.index)?;
        if let Some(name) = &self.name {
            write!(f, " ({name:?})")?;
        }
        if let Some(argument) = &self.argument {
            write!(f, ", argument {argument:?}")?;
        }
        f.write_str(": ")?;
        match &self.reason {
            Reason::CloserInValue(closer) => write!(
                f,
                "the value holds {closer:?} followed by structure; the scanner would end the value there"
            ),
            Reason::SectionOpenerInValue(opener) => write!(
                f,
                "the value holds {opener:?}, which the scanner would read as a verbatim section"
            ),
            Reason::KeyCloserInValue => f.write_str(
                "the value holds the closer named after its parameter followed by structure; the scanner would end the value there"
            ),
            Reason::QuoteTokenInString => {
                f.write_str("the string holds the quote token <|\"|>, which cannot be written inside a Gemma string")
            }
            Reason::InvalidName(form) => write!(f, "the tool name cannot be written: {form}"),
            Reason::InvalidKey(form) => write!(f, "the key cannot be written: {form}"),
            Reason::CloserInReasoning(closer) => write!(
                f,
                "the reasoning holds {closer:?}, which would end the reasoning block"
            ),
            Reason::TemplateToken(token) => write!(
                f,
                "the text holds the chat template token {token:?}, which would end the turn"
            ),
            Reason::CloserInResult(closer) => write!(
                f,
                "the tool result holds {closer:?}, which would end its block"
            ),
            Reason::TooDeep(limit) => write!(
                f,
                "lists and objects nest deeper than the {limit} levels the scanner reads"
            ),
            Reason::DelimiterInText(delimiter) => write!(
                f,
                "the text holds {delimiter:?}, which the scanner reads as structure there, not as text"
            ),
            Reason::TypedDifferently => f.write_str(
                "the tool's schema types this parameter so that no raw text of the value reads back as it (rule 8)"
            ),
        }
    }
}

impl std::error::Error for RenderError {}

impl RenderError {
    pub(crate) fn new(reason: Reason) -> Self {
        RenderError {
            index: 0,
            name: None,
            argument: None,
            reason,
        }
    }

    /// The same error, at the `index`-th item, named `name`.
    pub(crate) fn at(mut self, index: usize, name: &str) -> Self {
        self.index = index;
        self.name = Some(name.to_owned());
        self
    }

    pub(crate) fn argument(mut self, pointer: String) -> Self {
        self.argument = Some(pointer);
        self
    }
}

/// One step of a JSON Pointer: `~` and `/` escaped (RFC 6901).
pub(crate) fn pointer_step(pointer: &str, key: &str) -> String {
    format!("{pointer}/{}", key.replace('~', "~0").replace('/', "~1"))
}
