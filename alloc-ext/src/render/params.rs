//! Calls written as raw-text parameters in tags: the invoke/parameter markup (xml,
//! anthropic, minimax: seed-system §2.4–§2.6, model-formats §9.2, §20) and Qwen3-Coder's
//! `<function=N><parameter=K>` (model-formats §4). One layout table per dialect; the same
//! writer and the same rule-4 check serve every tagset of this shape.
//!
//! A string value is written raw (no entity escaping, dialects.md rule 11) when the
//! scanner will read it back as that string: its parameter is string-only in the tool's
//! schema, or its text is not JSON (rule 8's untyped reading). Any other value is its
//! compact JSON text. A value is refused when it holds a closer that the scanner would
//! take for the end of the value (rule 4), mirroring the tables' `value` and `after_value`
//! modes and core/dialect/markup.rs.

use serde_json::Value;

use super::error::{pointer_step, Reason, RenderError};
use super::json::{check_name, compact};
use super::message::Call;
use crate::tools::ToolSet;

/// One dialect's layout of a call with raw-text parameters:
/// `block.0 call_open.0 NAME call_open.1` then per argument
/// `param_open.0 KEY param_open.1 VALUE param_close`, then `call_close block.1`.
#[derive(Debug)]
pub(crate) struct ParamCalls {
    /// Around a turn's calls, `None` for bare calls.
    pub(crate) wrapper: Option<(&'static str, &'static str)>,
    /// Around each call (Qwen3-Coder's `<tool_call>` block), `("", "")` for none.
    pub(crate) block: (&'static str, &'static str),
    /// Between two calls of a turn.
    pub(crate) separator: &'static str,
    pub(crate) call_open: (&'static str, &'static str),
    pub(crate) param_open: (&'static str, &'static str),
    /// After a value; the scanner reads it as value text up to the closer, so the rule-4
    /// check runs over the value followed by it.
    pub(crate) param_close: &'static str,
    pub(crate) call_close: &'static str,
    /// The byte that quotes names and keys (an attribute value), which they cannot hold.
    pub(crate) quote: Option<char>,
    /// Names and keys are written in the equals form (`<function=NAME>`): the name runs
    /// to the `>`, so it cannot hold `>` or `=`, nor begin with `/`.
    pub(crate) equals: bool,
    /// A bare call implies its section (the tagset's `BareCall::MissingSection`), so the
    /// wrapper's closer counts after a value even outside a wrapper.
    pub(crate) implied_section: bool,
    /// The closers the scanner looks for inside a value, and what must follow one for it
    /// to count.
    pub(crate) closers: &'static [Closer],
    /// What must follow `</KEY>`, the closer named after the open parameter, for it to
    /// count as the parameter's closer (anthropic, minimax: corpus 059); `None` where the
    /// scanner does not look for it.
    pub(crate) key_closer: Option<&'static [Follow]>,
    /// Line-initial openers that end a value whose closer is missing when a tag begins
    /// right after them (parameters do not nest).
    pub(crate) line_openers: &'static [&'static str],
    /// Tokens that end the structure wherever they appear in a value.
    pub(crate) stops: &'static [&'static str],
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
    /// An opener whose tag goes on: it counts only where a tag begins after it
    /// ([`begins_tag`]).
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

/// What admits a parameter closer in `anthropic.toml`'s `after_value`.
const ANTHROPIC_AFTER_PARAM: &[Follow] = &[
    tag("<parameter"),
    follow("</invoke>"),
    tag("<invoke"),
    wrapper("</function_calls>"),
    wrapper("</tool_calls>"),
];

/// `anthropic.toml`: the generic `</` in a value begins `</parameter>`, `</invoke>` or
/// `</KEY>` (core/scanner.rs `INVOKE_CLOSERS`).
const ANTHROPIC_CLOSERS: &[Closer] = &[
    Closer {
        text: "</parameter>",
        follows: ANTHROPIC_AFTER_PARAM,
    },
    Closer {
        text: "</invoke>",
        follows: &[
            tag("<invoke"),
            wrapper("</function_calls>"),
            wrapper("</tool_calls>"),
        ],
    },
];

/// What admits a parameter closer in `minimax.toml`'s `after_value` (its end of turn
/// `[e~[` is a stop token there).
const MINIMAX_AFTER_PARAM: &[Follow] = &[
    tag("<parameter"),
    follow("</invoke>"),
    tag("<invoke"),
    wrapper("</minimax:tool_call>"),
    wrapper("</tool_call>"),
    follow("[e~["),
];

/// `minimax.toml`, as anthropic with its own wrapper and stop token.
const MINIMAX_CLOSERS: &[Closer] = &[
    Closer {
        text: "</parameter>",
        follows: MINIMAX_AFTER_PARAM,
    },
    Closer {
        text: "</invoke>",
        follows: &[
            tag("<invoke"),
            wrapper("</minimax:tool_call>"),
            wrapper("</tool_call>"),
            follow("[e~["),
        ],
    },
];

/// `qwen3-coder.toml`: `</parameter>` anywhere, `</function>` at the start of a line.
const QWEN3_CODER_CLOSERS: &[Closer] = &[
    Closer {
        text: "</parameter>",
        follows: &[
            tag("<parameter="),
            follow("</function>"),
            tag("<function="),
            wrapper("</tool_call>"),
            follow("<|im_end|>"),
            follow("<|endoftext|>"),
        ],
    },
    Closer {
        text: "\n</function>",
        follows: &[
            tag("<function="),
            wrapper("</tool_call>"),
            follow("<|im_end|>"),
            follow("<|endoftext|>"),
        ],
    },
];

/// The generic xml dialect: bare invokes, one per line (seed-system §2.5 b).
pub(crate) static XML: ParamCalls = ParamCalls {
    wrapper: None,
    block: ("", ""),
    separator: "\n",
    call_open: ("<invoke name=\"", "\">\n"),
    param_open: ("<parameter name=\"", "\">"),
    param_close: "</parameter>\n",
    call_close: "</invoke>",
    quote: Some('"'),
    equals: false,
    implied_section: false,
    closers: INVOKE_CLOSERS,
    key_closer: None,
    line_openers: &[],
    stops: &[],
};

/// Claude's legacy XML: the invokes of a turn in one `<function_calls>` block
/// (seed-system §2.4 a–b).
pub(crate) static ANTHROPIC: ParamCalls = ParamCalls {
    wrapper: Some(("<function_calls>\n", "\n</function_calls>")),
    implied_section: true,
    closers: ANTHROPIC_CLOSERS,
    key_closer: Some(ANTHROPIC_AFTER_PARAM),
    line_openers: &["\n<parameter"],
    ..XML
};

/// MiniMax-M2: the invokes of a turn in one `<minimax:tool_call>` block (seed-system
/// §2.6 b, model-formats §9.2).
pub(crate) static MINIMAX: ParamCalls = ParamCalls {
    wrapper: Some(("<minimax:tool_call>\n", "\n</minimax:tool_call>")),
    closers: MINIMAX_CLOSERS,
    key_closer: Some(MINIMAX_AFTER_PARAM),
    ..ANTHROPIC
};

/// Qwen3-Coder: one `<tool_call>` block per call, each tag and value on its own line;
/// the newline on each side of a value is template framing (model-formats §4).
pub(crate) static QWEN3_CODER: ParamCalls = ParamCalls {
    wrapper: None,
    block: ("<tool_call>\n", "\n</tool_call>"),
    separator: "\n",
    call_open: ("<function=", ">\n"),
    param_open: ("<parameter=", ">\n"),
    param_close: "\n</parameter>\n",
    call_close: "</function>",
    quote: None,
    equals: true,
    implied_section: true,
    closers: QWEN3_CODER_CLOSERS,
    key_closer: None,
    line_openers: &["\n<parameter="],
    stops: &["<|im_end|>", "<|endoftext|>"],
};

impl ParamCalls {
    /// A turn's calls, in the wrapper if the dialect has one.
    pub(crate) fn render_all(
        &self,
        calls: &[Call],
        tools: Option<&ToolSet>,
    ) -> Result<String, RenderError> {
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

    /// One call, in its block if the dialect has one; `wrapped`: inside the turn's
    /// wrapper, where its closer may follow a value closer.
    pub(crate) fn write(
        &self,
        out: &mut String,
        call: &Call,
        tools: Option<&ToolSet>,
        wrapped: bool,
    ) -> Result<(), RenderError> {
        check_name(&call.name)?;
        if self.quote.is_some_and(|q| call.name.contains(q)) {
            return Err(RenderError::new(Reason::InvalidName(
                "without the quote of the name attribute",
            )));
        }
        if self.equals && !equals_name(&call.name) {
            return Err(RenderError::new(Reason::InvalidName(
                "without = and not beginning with /",
            )));
        }
        let wrapped = wrapped || self.implied_section;
        let tool = tools.and_then(|tools| tools.get(&call.name));
        out.push_str(self.block.0);
        out.push_str(self.call_open.0);
        out.push_str(&call.name);
        out.push_str(self.call_open.1);
        for (key, value) in &call.arguments {
            let pointer = pointer_step("", key);
            self.check_key(key)
                .map_err(|e| e.argument(pointer.clone()))?;
            let string_only = tool.is_some_and(|t| t.string_only(key));
            let text = value_text(value, string_only);
            self.check_value(&text, key, wrapped)
                .map_err(|e| e.argument(pointer.clone()))?;
            out.push_str(self.param_open.0);
            out.push_str(key);
            out.push_str(self.param_open.1);
            out.push_str(&text);
            out.push_str(self.param_close);
        }
        out.push_str(self.call_close);
        out.push_str(self.block.1);
        Ok(())
    }

    fn check_key(&self, key: &str) -> Result<(), RenderError> {
        let bad = key.trim().is_empty()
            || key.trim() != key
            || self.quote.is_some_and(|q| key.contains(q))
            || (self.equals && (check_name(key).is_err() || !equals_name(key)));
        if bad {
            return Err(RenderError::new(Reason::InvalidKey(if self.equals {
                "a name: non-empty, without whitespace, control characters, = or < > \" ' \\, not beginning with /"
            } else {
                "non-empty, without surrounding whitespace or the attribute's quote"
            })));
        }
        Ok(())
    }

    /// Refuses a value the scanner would end early: one holding a stop token; a
    /// line-initial parameter opener that begins a tag; or a closer that counts, followed
    /// after at most 32 bytes of whitespace by structure. What comes after the value is
    /// this dialect's `param_close`, so the check runs over both.
    fn check_value(&self, value: &str, key: &str, wrapped: bool) -> Result<(), RenderError> {
        if let Some(stop) = self.stops.iter().find(|s| value.contains(*s)) {
            return Err(RenderError::new(Reason::TemplateToken(stop)));
        }
        let text = format!("{value}{}", self.param_close);
        let bytes = text.as_bytes();
        // Occurrences that begin in the value (they may run on into the closer); the
        // first one that ends the value is the one reported, as the scanner meets it.
        let starts = |pattern: &str| {
            text.match_indices(pattern)
                .map(|(at, _)| at)
                .filter(|&at| at < value.len())
                .collect::<Vec<_>>()
        };
        let mut first: Option<(usize, Reason)> = None;
        let mut found = |at: usize, reason: Reason| {
            if first.as_ref().is_none_or(|(f, _)| at < *f) {
                first = Some((at, reason));
            }
        };
        for opener in self.line_openers {
            for at in starts(opener) {
                if begins_tag(opener, bytes.get(at + opener.len()).copied()) {
                    found(at, Reason::CloserInValue(opener));
                }
            }
        }
        for closer in self.closers {
            for at in starts(closer.text) {
                if counts(bytes, at + closer.text.len(), closer.follows, wrapped) {
                    found(at, Reason::CloserInValue(closer.text));
                }
            }
        }
        if let Some(follows) = self.key_closer {
            // The scanner names this closer by the key as it reads it (core/dialect/
            // markup.rs `valid_name`).
            if check_name(key).is_ok() {
                let own = format!("</{key}>");
                for at in starts(&own) {
                    if counts(bytes, at + own.len(), follows, wrapped) {
                        found(at, Reason::KeyCloserInValue);
                    }
                }
            }
        }
        if let Some((_, reason)) = first {
            return Err(RenderError::new(reason));
        }
        Ok(())
    }
}

/// Whether what follows offset `at` of `bytes` (at most [`inband::MAX_LOOKAHEAD`] bytes of
/// whitespace, then one of `follows`) makes the closer before it count.
fn counts(bytes: &[u8], at: usize, follows: &[Follow], wrapped: bool) -> bool {
    let mut i = at;
    while i < bytes.len() && matches!(bytes[i], b' ' | b'\t' | b'\n' | b'\r') {
        i += 1;
    }
    if i - at > inband::MAX_LOOKAHEAD {
        return false;
    }
    let rest = &bytes[i..];
    follows.iter().any(|f| {
        (wrapped || !f.in_wrapper)
            && rest.starts_with(f.text.as_bytes())
            && (!f.tag || begins_tag(f.text, rest.get(f.text.len()).copied()))
    })
}

/// Whether byte `b` right after `opener` begins its tag (core/dialect/markup.rs
/// `begins_tag`): a name byte after the equals form (`<parameter=`); whitespace, `>` or
/// `/` after the attribute form (`<parameter`).
fn begins_tag(opener: &str, b: Option<u8>) -> bool {
    let Some(b) = b else {
        return false;
    };
    let ws = matches!(b, b' ' | b'\t' | b'\n' | b'\r');
    if opener.ends_with('=') {
        !ws && !matches!(b, b'<' | b'>' | b'/' | b'=')
    } else {
        ws || b == b'>' || b == b'/'
    }
}

/// A name the equals form reads back: without `=` (and `>`, which check_name refuses),
/// not beginning with `/`.
fn equals_name(name: &str) -> bool {
    !name.contains('=') && !name.starts_with('/')
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
