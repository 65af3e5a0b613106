//! Calls written in a literal syntax instead of JSON: Gemma 4's
//! `<|tool_call>call:NAME{key:VALUE,…}<tool_call|>` (docs/seed.md §2.11 a–b,
//! docs/dialects.md §gemma) and FunctionGemma's same body between its own tokens
//! (docs/dialects.md §functiongemma) and Gemini's Python `default_api.NAME(key=VALUE, …)` in a
//! ```` ```tool_code ```` fence (docs/seed.md §2.10 a–b, docs/dialects.md §gemini).

use serde_json::{Map, Value};

use super::depth::check_depth;
use super::error::{pointer_step, Reason, RenderError};
use super::json::check_name;
use super::message::Call;

/// The tokens of a gemma-family dialect's calls: Gemma 4's and FunctionGemma's bodies are
/// the same literal syntax between other tokens (their tables, docs/dialects.md §gemma,
/// §functiongemma).
#[derive(Debug)]
pub(crate) struct GemmaTokens {
    /// Before `call:NAME{…}`.
    pub(crate) call_open: &'static str,
    /// After the body.
    pub(crate) call_close: &'static str,
    /// Around a string; no escape exists, so a string cannot hold it.
    pub(crate) quote: &'static str,
}

/// Gemma 4: `<|tool_call>call:NAME{k:<|"|>v<|"|>}<tool_call|>`.
pub(crate) static GEMMA4: GemmaTokens = GemmaTokens {
    call_open: "<|tool_call>",
    call_close: "<tool_call|>",
    quote: "<|\"|>",
};

/// FunctionGemma: `<start_function_call>call:NAME{k:<escape>v<escape>}<end_function_call>`.
pub(crate) static FUNCTIONGEMMA: GemmaTokens = GemmaTokens {
    call_open: "<start_function_call>",
    call_close: "<end_function_call>",
    quote: "<escape>",
};

/// How deep lists and objects nest in a value that the literal scanners read: their
/// bracket stack holds [`inband::MAX_LITERAL_DEPTH`] levels; one more opener makes the call
/// malformed.
const MAX_DEPTH: usize = inband::MAX_LITERAL_DEPTH;

/// Gemini's callee prefix, which counts against the scanner's [`inband::MAX_NAME`]-byte
/// callee word (core/lex/call_block/mod.rs `Word`).
const DEFAULT_API: &str = "default_api.";

/// Which literal syntax.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Literal {
    /// The gemma family's `call:NAME{…}` between its tokens.
    Gemma(&'static GemmaTokens),
    Gemini,
    /// Olmo 3's `<function_calls>` block, one bare `NAME(k=v)` a line (`pythonic`: the
    /// form its scanner reads wherever it stands, docs/dialects.md §pythonic).
    Pythonic,
    /// `<|tool_call_start|>[NAME(k=v), …]<|tool_call_end|>` (LFM2).
    Lfm2,
}

impl Literal {
    /// A turn's calls: Gemma's blocks back to back; Gemini's calls in one fence, as a
    /// Python list when there are several.
    pub(crate) fn render_all(self, calls: &[Call]) -> Result<String, RenderError> {
        let mut out = String::new();
        match self {
            Literal::Gemma(tokens) => {
                for (i, call) in calls.iter().enumerate() {
                    gemma_call(&mut out, call, tokens).map_err(|e| e.at(i, &call.name))?;
                }
            }
            Literal::Gemini => {
                out.push_str("```tool_code\n");
                let list = calls.len() > 1;
                if list {
                    out.push('[');
                }
                for (i, call) in calls.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    python_call(&mut out, call).map_err(|e| e.at(i, &call.name))?;
                }
                if list {
                    out.push(']');
                }
                out.push_str("\n```");
            }
            Literal::Pythonic => {
                out.push_str("<function_calls>\n");
                for (i, call) in calls.iter().enumerate() {
                    bare_call(&mut out, call).map_err(|e| e.at(i, &call.name))?;
                    out.push('\n');
                }
                out.push_str("</function_calls>");
            }
            Literal::Lfm2 => {
                out.push_str("<|tool_call_start|>[");
                for (i, call) in calls.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    bare_call(&mut out, call).map_err(|e| e.at(i, &call.name))?;
                }
                out.push_str("]<|tool_call_end|>");
            }
        }
        Ok(out)
    }

    /// One call.
    pub(crate) fn write(self, out: &mut String, call: &Call) -> Result<(), RenderError> {
        match self {
            Literal::Gemma(tokens) => gemma_call(out, call, tokens),
            Literal::Gemini => {
                out.push_str("```tool_code\n");
                python_call(out, call)?;
                out.push_str("\n```");
                Ok(())
            }
            Literal::Pythonic | Literal::Lfm2 => {
                out.push_str(&self.render_all(core::slice::from_ref(call))?);
                Ok(())
            }
        }
    }
}

/// `<|tool_call>call:NAME{…}<tool_call|>`, in `tokens`.
fn gemma_call(out: &mut String, call: &Call, tokens: &GemmaTokens) -> Result<(), RenderError> {
    check_name(&call.name)?;
    // The bytes core/dialect/gemma/call.rs `name_byte` ends a name at.
    if call.name.contains(['{', '}', '[', ']', '(', ')', ',', '=']) {
        return Err(RenderError::new(Reason::InvalidName(
            "without { } [ ] ( ) , = in Gemma",
        )));
    }
    check_depth(&call.arguments, MAX_DEPTH)?;
    out.push_str(tokens.call_open);
    out.push_str("call:");
    out.push_str(&call.name);
    for key in call.arguments.keys() {
        // The scanner reads a top-level key into a name-sized word; nested keys stream.
        if key.len() > inband::MAX_NAME {
            return Err(RenderError::new(Reason::InvalidKey("at most 128 bytes"))
                .argument(pointer_step("", key)));
        }
    }
    gemma_object(out, &call.arguments, "", tokens.quote)?;
    out.push_str(tokens.call_close);
    Ok(())
}

/// A Gemma object, keys bare: `{key:VALUE,…}`, strings between `quote` tokens.
pub(crate) fn gemma_object(
    out: &mut String,
    object: &Map<String, Value>,
    pointer: &str,
    quote: &str,
) -> Result<(), RenderError> {
    out.push('{');
    for (i, (key, value)) in object.iter().enumerate() {
        let here = pointer_step(pointer, key);
        let bare = !key.is_empty()
            && !key.chars().any(|c| {
                c.is_whitespace()
                    || c.is_control()
                    || matches!(
                        c,
                        '{' | '}'
                            | '['
                            | ']'
                            | '('
                            | ')'
                            | ','
                            | ':'
                            | '='
                            | '"'
                            | '\''
                            | '<'
                            | '>'
                            | '|'
                    )
            });
        if !bare {
            return Err(RenderError::new(Reason::InvalidKey(
                "a bare word: no whitespace, quotes or { } [ ] ( ) , : = < > |",
            ))
            .argument(here));
        }
        if i > 0 {
            out.push(',');
        }
        out.push_str(key);
        out.push(':');
        gemma_value(out, value, &here, quote)?;
    }
    out.push('}');
    Ok(())
}

/// A Gemma value: strings between `quote` tokens, raw; everything else as in JSON.
pub(crate) fn gemma_value(
    out: &mut String,
    value: &Value,
    pointer: &str,
    quote: &str,
) -> Result<(), RenderError> {
    match value {
        Value::String(s) => {
            if s.contains(quote) {
                return Err(
                    RenderError::new(Reason::QuoteTokenInString).argument(pointer.to_owned())
                );
            }
            out.push_str(quote);
            out.push_str(s);
            out.push_str(quote);
        }
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                gemma_value(out, item, &format!("{pointer}/{i}"), quote)?;
            }
            out.push(']');
        }
        Value::Object(object) => gemma_object(out, object, pointer, quote)?,
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) => out.push_str(&n.to_string()),
    }
    Ok(())
}

/// `default_api.NAME(key=VALUE, …)`.
fn python_call(out: &mut String, call: &Call) -> Result<(), RenderError> {
    if !is_identifier(&call.name) {
        return Err(RenderError::new(Reason::InvalidName(
            "a Python identifier: [A-Za-z_][A-Za-z0-9_]*",
        )));
    }
    if DEFAULT_API.len() + call.name.len() > inband::MAX_NAME {
        return Err(RenderError::new(Reason::InvalidName(
            "at most 116 bytes: the callee `default_api.NAME` holds at most 128",
        )));
    }
    out.push_str(DEFAULT_API);
    python_arguments(out, call)
}

/// A bare Python call, `NAME(key=VALUE, …)` (pythonic, LFM2).
fn bare_call(out: &mut String, call: &Call) -> Result<(), RenderError> {
    if !is_identifier(&call.name) || call.name.len() > inband::MAX_NAME {
        return Err(RenderError::new(Reason::InvalidName(
            "a Python identifier of at most 128 bytes: [A-Za-z_][A-Za-z0-9_]*",
        )));
    }
    python_arguments(out, call)
}

/// The callee's name and its keyword arguments, `NAME(key=VALUE, …)`.
fn python_arguments(out: &mut String, call: &Call) -> Result<(), RenderError> {
    check_depth(&call.arguments, MAX_DEPTH)?;
    out.push_str(&call.name);
    out.push('(');
    for (i, (key, value)) in call.arguments.iter().enumerate() {
        let here = pointer_step("", key);
        if !is_identifier(key) || key.len() > inband::MAX_NAME {
            return Err(RenderError::new(Reason::InvalidKey(
                "a Python identifier of at most 128 bytes: [A-Za-z_][A-Za-z0-9_]*",
            ))
            .argument(here));
        }
        if i > 0 {
            out.push_str(", ");
        }
        out.push_str(key);
        out.push('=');
        python_value(out, value);
    }
    out.push(')');
    Ok(())
}

/// A Python literal: every value within [`MAX_DEPTH`] can be written (strings with
/// escapes).
fn python_value(out: &mut String, value: &Value) {
    match value {
        Value::Null => out.push_str("None"),
        Value::Bool(true) => out.push_str("True"),
        Value::Bool(false) => out.push_str("False"),
        Value::Number(n) => out.push_str(&n.to_string()),
        Value::String(s) => python_string(out, s),
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                python_value(out, item);
            }
            out.push(']');
        }
        Value::Object(object) => {
            out.push('{');
            for (i, (key, item)) in object.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                python_string(out, key);
                out.push_str(": ");
                python_value(out, item);
            }
            out.push('}');
        }
    }
}

/// A double-quoted Python string: `\` `"` and control characters escaped, the rest raw.
fn python_string(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 || c == '\u{7f}' => {
                out.push_str(&format!("\\x{:02x}", c as u32));
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

/// `[A-Za-z_][A-Za-z0-9_]*`: what the scanner reads as a callee or a keyword name.
fn is_identifier(s: &str) -> bool {
    let mut bytes = s.bytes();
    bytes
        .next()
        .is_some_and(|b| b.is_ascii_alphabetic() || b == b'_')
        && bytes.all(|b| b.is_ascii_alphanumeric() || b == b'_')
}
