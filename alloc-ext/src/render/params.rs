//! Calls written as raw-text parameters in tags: the invoke/parameter markup (xml,
//! anthropic, minimax: docs/seed.md §2.4–§2.6, docs/dialects.md §minimax, §anthropic),
//! Qwen3-Coder's and Seed-OSS's `<function=N><parameter=K>` (docs/dialects.md §qwen3-coder,
//! §seed-oss) and GLM's `<arg_key>`/`<arg_value>` (docs/seed.md §2.1, docs/dialects.md §glm).
//! One layout table per dialect; the same writer and the same rule-4 check serve every
//! tagset of this shape.
//!
//! A string value is written raw (no entity escaping, docs/dialects.md rule 11) when the
//! assembler reads it back as that string: its parameter is string-only in the tool's
//! schema, or its text is not typed as something else (rule 8). Any other value is its
//! compact JSON text; a value no text of which reads back is refused. A value is refused
//! when it holds a closer that the scanner would take for the end of the value (rule 4),
//! mirroring the tables' `value` and `after_value` modes, core/lex/params/ and
//! core/dialect/glm/.

use inband::Dialect;
use serde_json::Value;

use super::depth::check_depth;
use super::error::{pointer_step, Reason, RenderError};
use super::json::check_name;
use super::message::Call;
use crate::params::Schema;
use crate::tools::ToolSet;
use closers::{value_rules, Follow};
pub(crate) use dialects::{
    ANTHROPIC, DEEPSEEK_V41, DOTS, GIGACHAT35, GLM, HUNYUAN, IQUEST_Q1, K2_HORIZON, KIMI_K3, MIMO,
    MINIMAX, MUSE, QWEN3_CODER, SEED_OSS, STEP3, XML,
};
pub(crate) use element::MINIMAX_M3;
use values::{json_type, value_text};
pub(crate) use verbatim::MINICPM5;

/// One dialect's layout of a call with raw-text parameters:
/// `block.0 call_open.0 NAME call_open.1` then per argument
/// `param_open.0 KEY param_open.1 VALUE param_close`, then `call_close block.1`.
#[derive(Debug)]
pub(crate) struct ParamCalls {
    /// Around a turn's calls, `None` for bare calls.
    pub(crate) wrapper: Option<(&'static str, &'static str)>,
    /// Around each call (Qwen3-Coder's `<tool_call>` block, Seed-OSS's `<seed:tool_call>`),
    /// `("", "")` for none.
    pub(crate) block: (&'static str, &'static str),
    /// The block names the call's tool right after `block.0`, then this (Muse's message
    /// header `to=NAME<|message|>`); `None` where it does not.
    pub(crate) named_block: Option<&'static str>,
    /// Between two calls of a turn.
    pub(crate) separator: &'static str,
    pub(crate) call_open: (&'static str, &'static str),
    pub(crate) param_open: (&'static str, &'static str),
    /// The end of a parameter's opening tag when it declares the value's type, replacing
    /// `param_open.1`: for a raw-text value and for a JSON one (DSML's
    /// `string="true|false"`, docs/dialects.md §deepseek-v41); `None` for untyped tags.
    pub(crate) typed_open: Option<(&'static str, &'static str)>,
    /// The JSON side of `typed_open` names the value's JSON type at its `{}` (Kimi K3's
    /// `type="number|boolean|array|object|null"`), and a string is always its raw text
    /// (`type="string"`, read as text whatever the schema; docs/dialects.md §kimi-k3).
    pub(crate) type_words: bool,
    /// After `call_open.1`, the call's number in its turn from 1 and then this (Kimi K3's
    /// `index="N"<|sep|>`); `None` where a call tag holds no number.
    pub(crate) index_close: Option<&'static str>,
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
    /// The dialect whose table the value checks read (closers, their follow sets, stop
    /// tokens and line-initial openers: `closers::value_rules`).
    pub(crate) dialect: Dialect,
    /// Keys written as tag content (`<arg_key>KEY</arg_key>`), whose opener inside a value
    /// ends it when a whole key tag follows (GLM's missing-closer heal); the value is then
    /// checked as the scanner reads it, left to right.
    pub(crate) key_tag: Option<&'static KeyTag>,
    /// A verbatim section a value the scanner would end early may be written in, `(opener,
    /// closer)` (MiniCPM 5's CDATA, the table's `quote` in `value` and `cdata_close`);
    /// `None` where values have none.
    pub(crate) verbatim: Option<(&'static str, &'static str)>,
    /// A parameter's closer is an element's, named after its key: `key_close.0 KEY
    /// key_close.1`, then `param_close` (MiniMax-M3's `]<]minimax[>[</KEY>`,
    /// docs/dialects.md §minimax-m3); `None` where the closer is one fixed string.
    pub(crate) key_close: Option<(&'static str, &'static str)>,
}

/// GLM's key tag: `open KEY close` then, after whitespace, `value_open`
/// (core/dialect/glm/, `key` mode of `glm.toml`).
#[derive(Debug)]
pub(crate) struct KeyTag {
    pub(crate) open: &'static str,
    pub(crate) close: &'static str,
    pub(crate) value_open: &'static str,
}

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
            self.write(&mut out, call, i, tools, self.wrapper.is_some())
                .map_err(|e| e.at(i, &call.name))?;
        }
        if let Some((_, close)) = self.wrapper {
            out.push_str(close);
        }
        Ok(out)
    }

    /// One call, in its block if the dialect has one; `index`: its position in the turn;
    /// `wrapped`: inside the turn's wrapper, where its closer may follow a value closer.
    pub(crate) fn write(
        &self,
        out: &mut String,
        call: &Call,
        index: usize,
        tools: Option<&ToolSet>,
        wrapped: bool,
    ) -> Result<(), RenderError> {
        check_name(&call.name)?;
        check_depth(&call.arguments, crate::assemble::MAX_ARGUMENT_DEPTH - 1)?;
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
        if call.name.len() > self.max_word() {
            return Err(RenderError::new(Reason::InvalidName(self.too_long())));
        }
        if self.named_block.is_some()
            && self
                .dialect
                .text_recipients()
                .any(|word| word == call.name.as_bytes())
        {
            return Err(RenderError::new(Reason::InvalidName(
                "not a recipient that makes a text message (self, user, commentary, developer)",
            )));
        }
        let wrapped = wrapped || self.implied_section;
        let tool = tools.and_then(|tools| tools.get(&call.name));
        out.push_str(self.block.0);
        if let Some(end) = self.named_block {
            out.push_str(&call.name);
            out.push_str(end);
        }
        out.push_str(self.call_open.0);
        out.push_str(&call.name);
        out.push_str(self.call_open.1);
        if let Some(close) = self.index_close {
            out.push_str(&(index + 1).to_string());
            out.push_str(close);
        }
        for (key, value) in &call.arguments {
            let pointer = pointer_step("", key);
            self.check_key(key)
                .map_err(|e| e.argument(pointer.clone()))?;
            // The assembler's schema of the parameter (assemble.rs `tool_param`).
            let schema = tool
                .and_then(|t| t.parameter_types(key))
                .map_or(Schema::None, Schema::Types);
            let text = match value {
                // A `type="string"` value is text whatever the schema says.
                Value::String(s) if self.type_words => s.clone(),
                _ => value_text(value, schema).map_err(|e| e.argument(pointer.clone()))?,
            };
            // A value the scanner would end early goes in a verbatim section, where the
            // dialect has one and the value holds neither its closer nor a stop token.
            let section = match self.check_value(&text, key, wrapped) {
                Ok(()) => None,
                Err(_) if self.verbatim_fits(&text) => self.verbatim,
                Err(e) => return Err(e.argument(pointer.clone())),
            };
            out.push_str(self.param_open.0);
            out.push_str(key);
            match self.typed_open {
                // Raw exactly when the text is the string itself; anything else is JSON.
                Some((raw, _)) if matches!(value, Value::String(s) if *s == text) => {
                    out.push_str(raw)
                }
                Some((_, json)) if self.type_words => {
                    out.push_str(&json.replace("{}", json_type(value)))
                }
                Some((_, json)) => out.push_str(json),
                None => out.push_str(self.param_open.1),
            }
            match section {
                Some((open, close)) => {
                    out.push_str(open);
                    out.push_str(&text);
                    out.push_str(close);
                }
                None => out.push_str(&text),
            }
            out.push_str(&self.closer(key));
        }
        out.push_str(self.call_close);
        out.push_str(self.block.1);
        Ok(())
    }

    fn check_key(&self, key: &str) -> Result<(), RenderError> {
        let bad = key.trim().is_empty()
            || key.trim() != key
            || self.quote.is_some_and(|q| key.contains(q))
            || (self.equals && (check_name(key).is_err() || !equals_name(key)))
            || (self.key_tag.is_some() && (key.contains('<') || key.len() > inband::MAX_NAME))
            // The scanner names an element's closer by a key of at most MAX_NAME bytes.
            || (self.key_close.is_some() && key.len() > inband::MAX_NAME);
        if key.len() > self.max_word() {
            return Err(RenderError::new(Reason::InvalidKey(self.too_long())));
        }
        if bad {
            return Err(RenderError::new(Reason::InvalidKey(if self.equals {
                "a name: non-empty, without whitespace, control characters, = or < > \" ' \\, not beginning with /"
            } else if self.key_tag.is_some() {
                "non-empty, at most 128 bytes, without surrounding whitespace or <"
            } else {
                "non-empty, without surrounding whitespace or the attribute's quote"
            })));
        }
        Ok(())
    }

    /// The longest name or key, in bytes, that the scanner reads in this dialect's tags: the
    /// tag lexer keeps at most [`inband::MAX_TAG`] bytes after the tag's name, which are
    /// ` name="WORD">` in the attribute form and `WORD>` in the equals form
    /// (core/lex/tag.rs); a longer tag is released as text (`tag_too_long`).
    fn max_word(&self) -> usize {
        if self.type_words {
            // ` key="…" type="boolean"<|sep|>`, the longest type word.
            inband::MAX_TAG - " tool=\"".len() - "\" type=\"boolean\"<|sep|>".len()
        } else if let Some((_, json)) = self.typed_open {
            inband::MAX_TAG - " name=\"".len() - json.len()
        } else if self.quote.is_some() {
            inband::MAX_TAG - " name=\"\">".len()
        } else if self.equals {
            inband::MAX_TAG - ">".len()
        } else {
            inband::MAX_NAME
        }
    }

    fn too_long(&self) -> &'static str {
        if self.type_words {
            "at most 98 bytes: the tag ` key=\"…\" type=\"boolean\"<|sep|>` after <|open|>argument (or ` tool=\"…\" index=\"N\"<|sep|>` after <|open|>call) holds at most 128"
        } else if self.typed_open.is_some() {
            "at most 104 bytes: the tag ` name=\"…\" string=\"false\">` after <｜DSML｜ invoke or <｜DSML｜ parameter holds at most 128"
        } else if self.quote.is_some() {
            "at most 119 bytes: the tag ` name=\"…\">` after <invoke or <parameter holds at most 128"
        } else if self.equals {
            "at most 127 bytes: the tag `…>` after <function= or <parameter= holds at most 128"
        } else {
            "at most 128 bytes"
        }
    }

    /// Refuses a value the scanner would end early: one holding a stop token; a
    /// line-initial parameter opener that begins a tag; or a closer that counts, followed
    /// after at most 32 bytes of whitespace by structure. What comes after the value is
    /// this dialect's `param_close`, so the check runs over both.
    fn check_value(&self, value: &str, key: &str, wrapped: bool) -> Result<(), RenderError> {
        let text = format!("{value}{}", self.closer(key));
        let rules = value_rules(self.dialect);
        if let Some(key_tag) = self.key_tag {
            return self.check_in_order(&text, value.len(), key_tag);
        }
        if let Some(stop) = rules.stops.iter().find(|s| value.contains(**s)) {
            return Err(RenderError::new(Reason::TemplateToken(stop)));
        }
        if let Some(opener) = rules
            .verbatim_openers
            .iter()
            .find(|opener| value.contains(**opener))
        {
            return Err(RenderError::new(Reason::SectionOpenerInValue(opener)));
        }
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
        for opener in &rules.line_openers {
            for at in starts(opener) {
                if begins_tag(opener, None, bytes.get(at + opener.len()).copied()) {
                    found(at, Reason::CloserInValue(opener));
                }
            }
        }
        for closer in &rules.closers {
            for at in starts(closer.text) {
                if counts(bytes, at + closer.text.len(), &closer.follows, wrapped) {
                    found(at, Reason::CloserInValue(closer.text));
                }
            }
        }
        if let Some(follows) = &rules.key_closer {
            // The scanner names this closer by the key as it reads it (core/dialect/
            // lex/name.rs `valid_name`).
            if check_name(key).is_ok() {
                let own = format!("{}{key}>", rules.key_closer_start);
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

impl ParamCalls {
    /// The check of a dialect with a key tag (GLM), over `text`, the value (its first
    /// `value_len` bytes) and what follows it: the scanner meets the delimiters left to
    /// right, and what a rejected candidate or a failed heal took in is not looked at again,
    /// so the occurrences are walked in the same order. Every delimiter begins with `<` and
    /// holds no other, so two never overlap and the first to begin is the first found.
    fn check_in_order(
        &self,
        text: &str,
        value_len: usize,
        key_tag: &KeyTag,
    ) -> Result<(), RenderError> {
        let bytes = text.as_bytes();
        let rules = value_rules(self.dialect);
        let mut pos = 0;
        while pos < value_len {
            let Some(at) = text[pos..].find('<').map(|i| pos + i) else {
                break;
            };
            if at >= value_len {
                break;
            }
            let rest = &text[at..];
            pos = at + 1;
            if let Some(stop) = rules.stops.iter().find(|s| rest.starts_with(**s)) {
                return Err(RenderError::new(Reason::TemplateToken(stop)));
            }
            if let Some(closer) = rules.closers.iter().find(|c| rest.starts_with(c.text)) {
                let end = at + closer.text.len();
                pos = match follower(bytes, end, &closer.follows, false) {
                    // A key opener continues the structure only with a whole key tag:
                    // the scanner reads the key on trial, a key that may span lines.
                    Some((follow, from)) if follow.text == key_tag.open => {
                        match heal(bytes, from + follow.text.len(), key_tag, true) {
                            Some(resume) => resume,
                            None => {
                                return Err(RenderError::new(Reason::CloserInValue(closer.text)))
                            }
                        }
                    }
                    Some(_) => return Err(RenderError::new(Reason::CloserInValue(closer.text))),
                    None => end,
                };
            } else if rest.starts_with(key_tag.open) {
                match heal(bytes, at + key_tag.open.len(), key_tag, false) {
                    Some(resume) => pos = resume,
                    None => return Err(RenderError::new(Reason::CloserInValue(key_tag.open))),
                }
            }
        }
        Ok(())
    }
}

/// GLM's key on trial after a key tag's opener in a value, from offset `at` of `bytes`
/// (core/dialect/glm/key.rs): a key (on one line for the missing-closer heal; over
/// several when `after_closer`, the trial that decides a candidate closer), its closer
/// (repeated at most once, or the opener repeated once before a blank key), whitespace,
/// then the value's opener end the value (`None`). Otherwise the offset where the scanner
/// reads value again.
fn heal(bytes: &[u8], mut at: usize, key_tag: &KeyTag, after_closer: bool) -> Option<usize> {
    // core/dialect/glm `BUF` (MAX_NAME + 52) and `key_text_room`: the bytes a key tag may
    // take before its value opens.
    let room = inband::MAX_NAME + 52;
    let key_room = room - 2 * key_tag.close.len();
    let start = at;
    let mut after_key = false;
    let mut repeated = false;
    loop {
        while let Some(&b) = bytes.get(at).filter(|&&b| b != b'<') {
            let taken = at - start;
            let fits = if after_key {
                matches!(b, b' ' | b'\t' | b'\n' | b'\r') && taken < room
            } else {
                (after_closer || b != b'\n') && taken < key_room
            };
            if !fits {
                return Some(at);
            }
            at += 1;
        }
        let rest = bytes.get(at..).unwrap_or_default();
        let starts = |t: &str| rest.starts_with(t.as_bytes());
        let len = if after_key {
            if starts(key_tag.value_open) {
                return None;
            }
            if !starts(key_tag.close) || repeated {
                return Some(at);
            }
            repeated = true;
            key_tag.close.len()
        } else if starts(key_tag.close) {
            after_key = true;
            key_tag.close.len()
        } else if starts(key_tag.open) && !repeated && bytes[start..at].trim_ascii().is_empty() {
            repeated = true;
            key_tag.open.len()
        } else {
            return Some(at);
        };
        if at - start + len > room {
            return Some(at);
        }
        at += len;
    }
}

/// Whether what follows offset `at` of `bytes` (at most [`inband::MAX_LOOKAHEAD`] bytes of
/// whitespace, then one of `follows`) makes the closer before it count.
fn counts(bytes: &[u8], at: usize, follows: &[Follow], wrapped: bool) -> bool {
    follower(bytes, at, follows, wrapped).is_some()
}

/// The one of `follows` after offset `at` of `bytes` and at most
/// [`inband::MAX_LOOKAHEAD`] bytes of whitespace, with its offset.
fn follower<'f>(
    bytes: &[u8],
    at: usize,
    follows: &'f [Follow],
    wrapped: bool,
) -> Option<(&'f Follow, usize)> {
    let mut i = at;
    while i < bytes.len() && matches!(bytes[i], b' ' | b'\t' | b'\n' | b'\r') {
        i += 1;
    }
    if i - at > inband::MAX_LOOKAHEAD {
        return None;
    }
    let rest = &bytes[i..];
    let follow = follows.iter().find(|f| {
        (wrapped || !f.in_wrapper)
            && rest.starts_with(f.text.as_bytes())
            && (!f.tag || begins_tag(f.text, f.end, rest.get(f.text.len()).copied()))
    })?;
    Some((follow, i))
}

/// Whether byte `b` right after `opener` begins its tag (core/lex/params/structure.rs
/// `begins_tag`): a name byte after the equals form (`<parameter=`); whitespace, `>` or
/// `/` after the attribute form (`<parameter`), or whitespace and `end`, the first byte of
/// a longer tag end (Kimi K3's `<|sep|>`).
fn begins_tag(opener: &str, end: Option<u8>, b: Option<u8>) -> bool {
    let Some(b) = b else {
        return false;
    };
    let ws = matches!(b, b' ' | b'\t' | b'\n' | b'\r');
    if opener.ends_with('=') {
        !ws && !matches!(b, b'<' | b'>' | b'/' | b'=')
    } else if opener.ends_with('<') {
        // An element's tag start (MiniMax-M3's `]<]minimax[>[<`, the `tag` knob's
        // `element`): its name follows, or the `/` of a closer (core/lex/params/
        // structure.rs `begins_tag`).
        !ws && !matches!(b, b'<' | b'>' | b'=')
    } else if let Some(end) = end {
        ws || b == end
    } else {
        ws || b == b'>' || b == b'/'
    }
}

/// A name the equals form reads back: without `=` (and `>`, which check_name refuses),
/// not beginning with `/`.
fn equals_name(name: &str) -> bool {
    !name.contains('=') && !name.starts_with('/')
}

mod closers;
mod dialects;
mod element;
#[cfg(test)]
mod table_drift;
mod values;
mod verbatim;
