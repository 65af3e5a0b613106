//! The library's OpenAI serializer writes, byte for byte, what serde_json writes for
//! [`ChunkDelta::to_openai`] inside a `chat.completion.chunk`, for every delta of
//! responses with content, reasoning, escapes, non-ASCII text and calls, in every chunking.

use inband::{Dialect, Options, Scanner};
use inband_alloc::assemble::{assemble, AssembleOptions};
use inband_alloc::stream::{write_chunk, ChunkDelta, ChunkMeta, DeltaStream, ToolCallDelta};
use serde_json::{json, Value};

const RESPONSE: &str = "<think>\nZürich \"quoted\" \\ tab\there\n</think>\nSure — \u{1F600} <b>x</b>\u{1}\n\
<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Zürich\\n\", \"n\": 1e5}}\n</tool_call>\n\
<tool_call>\n{\"name\": \"read\", \"arguments\": {}}\n</tool_call>\nDone.";

const META: ChunkMeta<'static> = ChunkMeta {
    id: "chatcmpl-\"x\"",
    created: 1_700_000_000,
    model: "m/ü",
};

fn expected(delta: &ChunkDelta, role: bool, reason: Option<&str>) -> String {
    let mut d = serde_json::Map::new();
    if role {
        d.insert("role".into(), "assistant".into());
    }
    d.extend(delta.to_openai());
    json!({
        "id": META.id, "object": "chat.completion.chunk", "created": META.created,
        "model": META.model,
        "choices": [{ "index": 0, "delta": Value::Object(d), "finish_reason": reason }],
    })
    .to_string()
}

fn written(delta: &ChunkDelta, role: bool, reason: Option<&str>) -> String {
    let mut out = Vec::new();
    write_chunk(&mut out, &META, delta, role, reason).unwrap();
    String::from_utf8(out).unwrap()
}

#[test]
fn chunks_match_serde_json_byte_for_byte() {
    for chunk in [1, 3, 16, RESPONSE.len()] {
        let mut scanner = Scanner::new(Dialect::Hermes, Options::default());
        let mut stream = DeltaStream::new(Dialect::Hermes, &AssembleOptions::seeded(5));
        let (mut first, mut calls, mut arguments) = (true, 0, String::new());
        for piece in RESPONSE.as_bytes().chunks(chunk) {
            scanner.feed(piece, &mut stream).unwrap();
            let delta = stream.delta();
            let mut object = Vec::new();
            delta.write_openai(&mut object).unwrap();
            assert_eq!(object, serde_json::to_vec(&delta.to_openai()).unwrap());
            assert_eq!(written(delta, first, None), expected(delta, first, None));
            first = false;
            calls += delta.tool_calls.iter().filter(|c| c.id.is_some()).count();
            arguments.extend(delta.tool_calls.iter().map(|c| c.arguments.as_str()));
        }
        scanner.finish(&mut stream).unwrap();
        let (delta, reason, completion) = stream.finish();
        assert_eq!(reason, "tool_calls");
        let last = written(&delta, false, Some(reason));
        assert_eq!(last, expected(&delta, false, Some(reason)));
        assert_eq!(calls, 2, "{chunk}-byte chunks");
        arguments.extend(delta.tool_calls.iter().map(|c| c.arguments.as_str()));
        assert_eq!(arguments, "{\"city\": \"Zürich\\n\", \"n\": 1e5}{}");
        assert_eq!(completion.tool_calls.len(), 2);
    }
}

#[test]
fn an_empty_delta_is_an_empty_object() {
    let mut out = Vec::new();
    ChunkDelta::default().write_openai(&mut out).unwrap();
    assert_eq!(out, b"{}");
}

#[test]
fn the_final_message_is_openais() {
    let completion = assemble(
        Dialect::Hermes,
        Options::default(),
        &AssembleOptions::seeded(5),
        [RESPONSE.as_bytes()],
    );
    let mut out = Vec::new();
    completion.write_openai_message(&mut out).unwrap();
    let message: Value = serde_json::from_slice(&out).unwrap();
    let ids: Vec<&str> = completion
        .tool_calls
        .iter()
        .map(|c| c.id.as_str())
        .collect();
    assert_eq!(
        message,
        json!({
            "role": "assistant",
            "content": "Sure — \u{1F600} <b>x</b>\u{1}\n\n\nDone.",
            "reasoning_content": "Zürich \"quoted\" \\ tab\there",
            "tool_calls": [
                { "id": ids[0], "type": "function", "function": {
                    "name": "get_weather",
                    "arguments": "{\"city\": \"Zürich\\n\", \"n\": 1e5}" } },
                { "id": ids[1], "type": "function", "function": {
                    "name": "read", "arguments": "{}" } },
            ],
        })
    );
}

#[test]
fn every_escapable_byte_is_written_as_serde_json_writes_it() {
    let every: String = (0u8..0x80).map(char::from).collect();
    let long = "x".repeat(5000) + "\"" + &"é日😀".repeat(700) + "\\" + &"y".repeat(3333);
    let texts = [every.clone(), long, every.repeat(3) + "tail\u{7f}\u{80}"];
    for text in &texts {
        let delta = ChunkDelta {
            content: text.clone(),
            reasoning_content: text.chars().rev().collect(),
            tool_calls: vec![
                ToolCallDelta {
                    index: 0,
                    id: Some(format!("call_{text}")),
                    name: Some(text.clone()),
                    arguments: text.clone(),
                },
                ToolCallDelta {
                    index: 12,
                    id: None,
                    name: None,
                    arguments: text.clone(),
                },
            ],
        };
        for (role, reason) in [(true, None), (false, Some("tool_calls\n\""))] {
            assert_eq!(
                written(&delta, role, reason),
                expected(&delta, role, reason)
            );
        }
        let mut object = Vec::new();
        delta.write_openai(&mut object).unwrap();
        assert_eq!(object, serde_json::to_vec(&delta.to_openai()).unwrap());
    }
}
