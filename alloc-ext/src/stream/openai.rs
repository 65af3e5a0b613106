//! OpenAI's streaming wire format for a [`ChunkDelta`]: the `chat.completion.chunk` a
//! server sends per decode step, written straight into the caller's buffer (no
//! intermediate `serde_json::Value`), strings escaped as serde_json escapes them
//! ([`escape`](super::escape)).

use std::io::{self, Write};

use super::escape::{contents, string};
use super::{ChunkDelta, ToolCallDelta};
use crate::assemble::Completion;

/// The fields of a `chat.completion.chunk` around its delta (OpenAI's Chat Completions
/// streaming API): the same for every chunk of one response.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ChunkMeta<'a> {
    /// `id`: the response's id (`chatcmpl-…`), written as a JSON string.
    pub id: &'a str,
    /// `created`: Unix time in seconds.
    pub created: u64,
    /// `model`: the model's name, written as a JSON string.
    pub model: &'a str,
}

/// Writes one `chat.completion.chunk` object (compact JSON, no newline):
/// `{"id","object":"chat.completion.chunk","created","model","choices":[{"index":0,
/// "delta":{…},"finish_reason"}]}`. The delta is [`ChunkDelta::write_openai`]'s, with
/// `"role":"assistant"` first when `role` (the response's first chunk);
/// `finish_reason` is `null` until the last chunk ([`DeltaStream::finish`]'s reason).
///
/// Errors: only `out`'s own (a `Vec<u8>` never fails).
///
/// [`DeltaStream::finish`]: super::DeltaStream::finish
pub fn write_chunk<W: Write + ?Sized>(
    out: &mut W,
    meta: &ChunkMeta<'_>,
    delta: &ChunkDelta,
    role: bool,
    finish_reason: Option<&str>,
) -> io::Result<()> {
    // Adjacent literals are written together: a decode step's chunk is a dozen writes.
    out.write_all(b"{\"id\":\"")?;
    contents(out, meta.id)?;
    out.write_all(b"\",\"object\":\"chat.completion.chunk\",\"created\":")?;
    out.write_all(itoa::Buffer::new().format(meta.created).as_bytes())?;
    out.write_all(b",\"model\":\"")?;
    contents(out, meta.model)?;
    out.write_all(b"\",\"choices\":[{\"index\":0,\"delta\":{")?;
    delta.write_members(out, role)?;
    match finish_reason {
        Some(reason) => {
            out.write_all(b"},\"finish_reason\":\"")?;
            contents(out, reason)?;
            out.write_all(b"\"}]}")
        }
        None => out.write_all(b"},\"finish_reason\":null}]}"),
    }
}

impl ChunkDelta {
    /// Writes the delta as OpenAI's `choices[0].delta` object (compact JSON, without
    /// `role`), the same object as [`ChunkDelta::to_openai`] serialised by serde_json, key
    /// for key and byte for byte, without building it: `content` and `reasoning_content`
    /// when not empty, `tool_calls` when any. An empty delta is `{}`.
    ///
    /// Errors: only `out`'s own (a `Vec<u8>` never fails).
    pub fn write_openai<W: Write + ?Sized>(&self, out: &mut W) -> io::Result<()> {
        out.write_all(b"{")?;
        self.write_members(out, false)?;
        out.write_all(b"}")
    }

    /// The members of the delta object, between its braces.
    fn write_members<W: Write + ?Sized>(&self, out: &mut W, role: bool) -> io::Result<()> {
        let mut sep = Separator::default();
        if role {
            sep.key(out, b"\"role\":\"assistant\"")?;
        }
        if !self.content.is_empty() {
            sep.key(out, b"\"content\":\"")?;
            contents(out, &self.content)?;
            out.write_all(b"\"")?;
        }
        if !self.reasoning_content.is_empty() {
            sep.key(out, b"\"reasoning_content\":\"")?;
            contents(out, &self.reasoning_content)?;
            out.write_all(b"\"")?;
        }
        if !self.tool_calls.is_empty() {
            sep.key(out, b"\"tool_calls\":[")?;
            for (i, call) in self.tool_calls.iter().enumerate() {
                if i > 0 {
                    out.write_all(b",")?;
                }
                call.write_openai(out)?;
            }
            out.write_all(b"]")?;
        }
        Ok(())
    }
}

impl ToolCallDelta {
    /// Writes the fragment as one OpenAI `tool_calls[]` entry, as
    /// [`ToolCallDelta::to_openai`] serialised (see [`ChunkDelta::write_openai`]).
    ///
    /// Errors: only `out`'s own.
    pub fn write_openai<W: Write + ?Sized>(&self, out: &mut W) -> io::Result<()> {
        out.write_all(b"{\"index\":")?;
        out.write_all(itoa::Buffer::new().format(self.index).as_bytes())?;
        match &self.id {
            Some(id) => {
                out.write_all(b",\"id\":\"")?;
                contents(out, id)?;
                out.write_all(b"\",\"type\":\"function\",\"function\":{")?;
            }
            None => out.write_all(b",\"function\":{")?,
        }
        match &self.name {
            Some(name) => {
                out.write_all(b"\"name\":\"")?;
                contents(out, name)?;
                out.write_all(b"\",\"arguments\":\"")?;
            }
            None => out.write_all(b"\"arguments\":\"")?,
        }
        contents(out, &self.arguments)?;
        out.write_all(b"\"}}")
    }
}

impl Completion {
    /// Writes the completion as a non-streaming OpenAI `choices[0].message` (compact JSON):
    /// `{"role":"assistant","content"}` (`null` when empty and there are calls, as OpenAI
    /// writes it), `reasoning_content` when the response had reasoning, and `tool_calls`
    /// when any, each `{"id","type":"function","function":{"name","arguments"}}` with the
    /// arguments' JSON text as a string ([`ToolCall::arguments_text`]). Incomplete calls
    /// and diagnostics are not part of OpenAI's message and are left out.
    ///
    /// Errors: only `out`'s own.
    ///
    /// [`ToolCall::arguments_text`]: crate::assemble::ToolCall::arguments_text
    pub fn write_openai_message<W: Write + ?Sized>(&self, out: &mut W) -> io::Result<()> {
        out.write_all(b"{\"role\":\"assistant\",\"content\":")?;
        if self.content.is_empty() && !self.tool_calls.is_empty() {
            out.write_all(b"null")?;
        } else {
            string(out, &self.content)?;
        }
        if let Some(reasoning) = &self.reasoning {
            out.write_all(b",\"reasoning_content\":")?;
            string(out, reasoning)?;
        }
        if !self.tool_calls.is_empty() {
            out.write_all(b",\"tool_calls\":[")?;
            for (i, call) in self.tool_calls.iter().enumerate() {
                if i > 0 {
                    out.write_all(b",")?;
                }
                out.write_all(b"{\"id\":")?;
                string(out, &call.id)?;
                out.write_all(b",\"type\":\"function\",\"function\":{\"name\":")?;
                string(out, &call.name)?;
                out.write_all(b",\"arguments\":")?;
                string(out, call.arguments_text())?;
                out.write_all(b"}}")?;
            }
            out.write_all(b"]")?;
        }
        out.write_all(b"}")
    }
}

/// Writes the commas between an object's members.
#[derive(Default)]
struct Separator {
    started: bool,
}

impl Separator {
    /// Writes `key`, the member's key as JSON text with its colon (and whatever follows
    /// it that needs no escape), after a comma when a member came before it.
    fn key<W: Write + ?Sized>(&mut self, out: &mut W, key: &[u8]) -> io::Result<()> {
        if std::mem::replace(&mut self.started, true) {
            out.write_all(b",")?;
        }
        out.write_all(key)
    }
}
