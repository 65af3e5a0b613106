//! Calls written as raw-text parameters in tags: the invoke/parameter markup (xml,
//! seed-system §2.4–§2.5, model-formats §20). One layout table per dialect; the same
//! writer and the same rule-4 check serve every tagset of this shape.
//!
//! A string value is written raw (no entity escaping, dialects.md rule 11) when the
//! scanner will read it back as that string: its parameter is string-only in the tool's
//! schema, or its text is not JSON (rule 8's untyped reading). Any other value is its
//! compact JSON text. A value is refused when it holds a closer that the scanner would
//! take for the end of the value (rule 4).

use serde_json::Value;

use super::error::{pointer_step, Reason, RenderError};
use super::json::{check_name, compact};
use super::message::{Call, Tool};

/// One dialect's layout of a call with raw-text parameters:
/// `call_open.0 NAME call_open.1` then per argument
/// `param_open.0 KEY param_open.1 VALUE param_close`, then `call_close`.
#[derive(Debug)]
pub(crate) struct ParamCalls {
    /// Around a turn's calls, `None` for bare calls.
    pub(crate) wrapper: Option<(&'static str, &'static str)>,
    /// Between two calls of a turn.
    pub(crate) separator: &'static str,
    pub(crate) call_open: (&'static str, &'static str),
    pub(crate) param_open: (&'static str, &'static str),
    pub(crate) param_close: &'static str,
    pub(crate) call_close: &'static str,
    /// The byte that quotes names and keys (an attribute value), which they cannot hold.
    pub(crate) quote: Option<char>,
    /// The closers the scanner looks for inside a value, and what must follow one for it
    /// to count.
    pub(crate) closers: &'static [Closer],
}

/// A sequence that ends a value when structure follows it (dialects.md rule 4).
#[derive(Debug)]
pub(crate) struct Closer {
    pub(crate) text: &'static str,
    pub(crate) follows: &'static [Follow],
}

/// What may follow a closer, after at most [`inband::MAX_LOOKAHEAD`] bytes of whitespace,
/// for the closer to count.
#[derive(Debug)]
pub(crate) struct Follow {
    pub(crate) text: &'static str,
    /// An opener whose tag goes on: it counts only before whitespace, `>` or `/`.
    pub(crate) tag: bool,
    /// It counts only inside a wrapper.
    pub(crate) in_wrapper: bool,
}

const fn follow(text: &'static str) -> Follow {
    Follow {
        text,
        tag: false,
        in_wrapper: false,
    }
}

const fn tag(text: &'static str) -> Follow {
    Follow {
        text,
        tag: true,
        in_wrapper: false,
    }
}

const fn wrapper(text: &'static str) -> Follow {
    Follow {
        text,
        tag: false,
        in_wrapper: true,
    }
}

/// The plain invoke tagset's closers (`xml.toml`: modes `value` and `after_value`).
const INVOKE_CLOSERS: &[Closer] = &[
    Closer {
        text: "</parameter>",
        follows: &[
            tag("<parameter"),
            follow("</invoke>"),
            tag("<invoke"),
            wrapper("</tool_calls>"),
            wrapper("</function_calls>"),
        ],
    },
    Closer {
        text: "</invoke>",
        follows: &[
            tag("<invoke"),
            wrapper("</tool_calls>"),
            wrapper("</function_calls>"),
        ],
    },
];

/// The generic xml dialect: bare invokes, one per line (seed-system §2.5 b).
pub(crate) static XML: ParamCalls = ParamCalls {
    wrapper: None,
    separator: "\n",
    call_open: ("<invoke name=\"", "\">\n"),
    param_open: ("<parameter name=\"", "\">"),
    param_close: "</parameter>\n",
    call_close: "</invoke>",
    quote: Some('"'),
    closers: INVOKE_CLOSERS,
};

impl ParamCalls {
    /// A turn's calls, in the wrapper if the dialect has one.
    pub(crate) fn render_all(&self, calls: &[Call], tools: &[Tool]) -> Result<String, RenderError> {
        let mut out = String::new();
        if let Some((open, _)) = self.wrapper {
            out.push_str(open);
        }
        for (i, call) in calls.iter().enumerate() {
            if i > 0 {
                out.push_str(self.separator);
            }
            self.write(&mut out, call, tools, self.wrapper.is_some())
                .map_err(|e| e.at(i, &call.name))?;
        }
        if let Some((_, close)) = self.wrapper {
            out.push_str(close);
        }
        Ok(out)
    }

    /// One call; `wrapped`: inside the turn's wrapper, where its closer may follow a
    /// value closer.
    pub(crate) fn write(
        &self,
        out: &mut String,
        call: &Call,
        tools: &[Tool],
        wrapped: bool,
    ) -> Result<(), RenderError> {
        check_name(&call.name)?;
        if self.quote.is_some_and(|q| call.name.contains(q)) {
            return Err(RenderError::new(Reason::InvalidName(
                "without the quote of the name attribute",
            )));
        }
        let tool = tools.iter().find(|t| t.name == call.name);
        out.push_str(self.call_open.0);
        out.push_str(&call.name);
        out.push_str(self.call_open.1);
        for (key, value) in &call.arguments {
            let pointer = pointer_step("", key);
            self.check_key(key)
                .map_err(|e| e.argument(pointer.clone()))?;
            let string_only = tool.is_some_and(|t| t.string_only(key));
            let text = value_text(value, string_only);
            self.check_value(&text, wrapped)
                .map_err(|e| e.argument(pointer.clone()))?;
            out.push_str(self.param_open.0);
            out.push_str(key);
            out.push_str(self.param_open.1);
            out.push_str(&text);
            out.push_str(self.param_close);
        }
        out.push_str(self.call_close);
        Ok(())
    }

    fn check_key(&self, key: &str) -> Result<(), RenderError> {
        let bad = key.trim().is_empty()
            || key.trim() != key
            || self.quote.is_some_and(|q| key.contains(q));
        if bad {
            return Err(RenderError::new(Reason::InvalidKey(
                "non-empty, without surrounding whitespace or the attribute's quote",
            )));
        }
        Ok(())
    }

    /// Refuses a value holding a closer that counts: followed, after at most 32 bytes of
    /// whitespace, by structure (what comes after the value is this dialect's
    /// `param_close`, so the check runs over both).
    fn check_value(&self, value: &str, wrapped: bool) -> Result<(), RenderError> {
        let text = format!("{value}{}", self.param_close);
        let bytes = text.as_bytes();
        for closer in self.closers {
            for (at, _) in value.match_indices(closer.text) {
                let mut i = at + closer.text.len();
                let blank_start = i;
                while i < bytes.len() && matches!(bytes[i], b' ' | b'\t' | b'\n' | b'\r') {
                    i += 1;
                }
                if i - blank_start > inband::MAX_LOOKAHEAD {
                    continue;
                }
                let rest = &bytes[i..];
                let counts = closer.follows.iter().any(|f| {
                    (wrapped || !f.in_wrapper)
                        && rest.starts_with(f.text.as_bytes())
                        && (!f.tag
                            || rest.get(f.text.len()).is_some_and(|&b| {
                                matches!(b, b' ' | b'\t' | b'\n' | b'\r' | b'>' | b'/')
                            }))
                });
                if counts {
                    return Err(RenderError::new(Reason::CloserInValue(closer.text)));
                }
            }
        }
        Ok(())
    }
}

/// A value's text: raw for a string the scanner reads back as that string, else JSON.
fn value_text(value: &Value, string_only: bool) -> String {
    match value {
        Value::String(s) if string_only || !is_json(s) => s.clone(),
        other => compact(other),
    }
}

/// Whether the scanner's untyped reading takes `text` for JSON: trimmed of ASCII
/// whitespace, one strict JSON value (the same parser the assembler uses).
fn is_json(text: &str) -> bool {
    let trimmed = text.trim_ascii();
    if trimmed.is_empty() {
        return false;
    }
    let mut copy = trimmed.as_bytes().to_vec();
    simd_json::to_owned_value(&mut copy).is_ok()
}
