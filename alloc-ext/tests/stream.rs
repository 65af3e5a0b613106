//! OpenAI-style deltas: what a client sees chunk by chunk.

use inband::{Dialect, Options, Scanner};
use inband_alloc::assemble::AssembleOptions;
use inband_alloc::stream::{ChunkDelta, DeltaStream};

/// Feeds qwen3 `input` in `size`-byte chunks; returns every delta (the last one after
/// finish) and the finish reason.
fn stream(input: &str, size: usize) -> (Vec<ChunkDelta>, &'static str) {
    stream_with(input, size, false)
}

fn joined(deltas: &[ChunkDelta]) -> (String, String, Vec<(String, String)>) {
    let mut content = String::new();
    let mut reasoning = String::new();
    let mut calls: Vec<(String, String)> = Vec::new();
    for delta in deltas {
        content.push_str(&delta.content);
        reasoning.push_str(&delta.reasoning_content);
        for call in &delta.tool_calls {
            if let Some(name) = &call.name {
                assert_eq!(call.index as usize, calls.len());
                assert!(call.id.as_deref().is_some_and(|id| id.starts_with("call_")));
                calls.push((name.clone(), String::new()));
            } else {
                assert!(call.id.is_none());
            }
            calls[call.index as usize].1.push_str(&call.arguments);
        }
    }
    (content, reasoning, calls)
}

#[test]
fn a_draft_in_closed_reasoning_streams_as_reasoning_in_place() {
    let input = "<think>a <tool_call>{\"name\": \"f\", \"arguments\": {}}</tool_call> b</think>c";
    for size in [1, 2, 5, 100] {
        let (deltas, reason) = stream(input, size);
        let (content, reasoning, calls) = joined(&deltas);
        assert_eq!(
            reasoning, "a <tool_call>{\"name\": \"f\", \"arguments\": {}}</tool_call> b",
            "{size}"
        );
        assert_eq!(content, "c");
        assert!(calls.is_empty());
        assert_eq!(reason, "stop");
    }
}

#[test]
fn reasoning_after_a_draft_is_held_until_the_decision() {
    let (deltas, _) = stream(
        "<think>a <tool_call>{\"name\": \"f\"}</tool_call> more reasoning",
        4,
    );
    let before_finish: String = deltas[..deltas.len() - 1]
        .iter()
        .map(|d| d.reasoning_content.as_str())
        .collect();
    assert_eq!(before_finish, "a ");
    let last = deltas.last().unwrap();
    assert_eq!(last.reasoning_content, " more reasoning");
    assert_eq!(
        last.tool_calls.len(),
        1,
        "the call of an unclosed block is a call (rule 7)"
    );
    assert_eq!(last.tool_calls[0].name.as_deref(), Some("f"));
    assert_eq!(last.tool_calls[0].arguments, "{}");
}

#[test]
fn text_is_cut_only_at_code_point_boundaries() {
    let input =
        "é城堡🦀<tool_call>{\"name\": \"f\", \"arguments\": {\"s\": \"日本🦀\"}}</tool_call>";
    let (deltas, reason) = stream(input, 1);
    for delta in &deltas {
        assert!(!delta.content.contains('\u{fffd}'));
        for call in &delta.tool_calls {
            assert!(!call.arguments.contains('\u{fffd}'));
        }
    }
    let (content, _, calls) = joined(&deltas);
    assert_eq!(content, "é城堡🦀");
    assert_eq!(calls, [("f".to_owned(), "{\"s\": \"日本🦀\"}".to_owned())]);
    assert_eq!(reason, "tool_calls");
}

#[test]
fn arguments_are_normalised_for_clients() {
    let input = "<tool_call>{\"name\": \"g\", \"arguments\": {\"p\": \"C:\\Work\", \"b\": True,}}</tool_call>";
    for size in [1, 3, 64] {
        let (deltas, _) = stream(input, size);
        let (_, _, calls) = joined(&deltas);
        assert_eq!(calls[0].1, "{\"p\": \"C:\\\\Work\", \"b\": true}", "{size}");
    }
}

#[test]
fn arguments_before_the_name_wait_for_it() {
    let (deltas, _) = stream(
        "<tool_call>{\"arguments\": {\"q\": 1}, \"name\": \"s\"}</tool_call>",
        3,
    );
    let first = deltas
        .iter()
        .position(|d| !d.tool_calls.is_empty())
        .unwrap();
    assert_eq!(deltas[first].tool_calls[0].name.as_deref(), Some("s"));
    assert_eq!(deltas[first].tool_calls[0].arguments, "{\"q\": 1}");
}

fn stream_with(input: &str, size: usize, hold_calls: bool) -> (Vec<ChunkDelta>, &'static str) {
    let mut options = AssembleOptions::seeded(5);
    options.hold_calls = hold_calls;
    let mut scanner = Scanner::new(Dialect::Qwen3, Options::default());
    let mut stream = DeltaStream::new(Dialect::Qwen3, &options);
    let mut deltas = Vec::new();
    for chunk in input.as_bytes().chunks(size) {
        scanner.feed(chunk, &mut stream).unwrap();
        deltas.push(stream.take_delta());
    }
    scanner.finish(&mut stream).unwrap();
    let (last, reason, _) = stream.finish();
    deltas.push(last);
    (deltas, reason)
}

/// A call shown early that then breaks cannot be taken back; its text is not shown again.
#[test]
fn a_shown_call_that_breaks_is_not_repeated_as_content() {
    let input = "Hi <tool_call>{\"name\": \"f\", \"arguments\": {\"a\": NaN}}</tool_call> bye";
    let (deltas, reason) = stream_with(input, 8, false);
    let (content, _, calls) = joined(&deltas);
    assert_eq!(content, "Hi  bye");
    assert_eq!(calls, [("f".to_owned(), "{\"a\": NaN}".to_owned())]);
    assert_eq!(reason, "stop");
}

/// With `hold_calls`, only complete calls whose arguments parse are ever shown.
#[test]
fn held_calls_are_shown_only_when_complete() {
    let input = "Hi <tool_call>{\"name\": \"f\", \"arguments\": {\"a\": NaN}}</tool_call> bye";
    let (deltas, reason) = stream_with(input, 8, true);
    let (content, _, calls) = joined(&deltas);
    assert_eq!(content, input);
    assert!(calls.is_empty());
    assert_eq!(reason, "stop");
    let input = "<tool_call>{\"name\": \"g\", \"arguments\": {\"b\": [1, 2]}}</tool_call>";
    let (deltas, reason) = stream_with(input, 3, true);
    let shown: Vec<&ChunkDelta> = deltas.iter().filter(|d| !d.tool_calls.is_empty()).collect();
    assert_eq!(shown.len(), 1);
    assert_eq!(shown[0].tool_calls[0].arguments, "{\"b\": [1, 2]}");
    assert_eq!(reason, "tool_calls");
}

/// Bytes that are not UTF-8 are reported where they are in the input, in stream order.
#[test]
fn invalid_utf8_is_located() {
    use inband_alloc::assemble::assemble;
    let input = b"ok \xff then <think>r\xfe</think> and a split \xe2\x82";
    for size in [1, 2, 64] {
        let completion = assemble(
            Dialect::Qwen3,
            Options::default(),
            &AssembleOptions::seeded(1),
            input.chunks(size),
        );
        let spans: Vec<[u64; 2]> = completion
            .diagnostics
            .iter()
            .filter(|d| d.code == "invalid_utf8")
            .map(|d| d.span)
            .collect();
        assert_eq!(spans, [[3, 4], [18, 19], [40, 42]], "{size}");
        assert_eq!(completion.content, "ok \u{fffd} then  and a split \u{fffd}");
        assert_eq!(completion.reasoning.as_deref(), Some("r\u{fffd}"));
    }
}

/// Every delta of a Qwen3 stream fed `chunks` (the last one after finish), and the
/// completion's content, reasoning and `invalid_utf8` spans.
fn stream_bytes(chunks: &[&[u8]]) -> (Vec<ChunkDelta>, String, Option<String>, Vec<[u64; 2]>) {
    let mut scanner = Scanner::new(Dialect::Qwen3, Options::default());
    let mut stream = DeltaStream::new(Dialect::Qwen3, &AssembleOptions::seeded(1));
    let mut deltas = Vec::new();
    for chunk in chunks {
        scanner.feed(chunk, &mut stream).unwrap();
        deltas.push(stream.delta().clone());
    }
    scanner.finish(&mut stream).unwrap();
    let (last, _, completion) = stream.finish();
    deltas.push(last);
    let spans = completion
        .diagnostics
        .iter()
        .filter(|d| d.code == "invalid_utf8")
        .map(|d| d.span)
        .collect();
    (deltas, completion.content, completion.reasoning, spans)
}

/// A decode step that ends inside a code point sends the text before it at once, and the
/// code point with the step that finishes it (in content and in reasoning).
#[test]
fn a_code_point_cut_by_a_chunk_goes_with_the_chunk_that_ends_it() {
    let chunks: [&[u8]; 6] = [
        b"a\xc3",
        b"\xa9b\xf0\x9f",
        b"\xa6",
        b"\x80<think>r\xe5",
        b"\x9f",
        b"\x8e!",
    ];
    let (deltas, content, reasoning, spans) = stream_bytes(&chunks);
    let texts: Vec<(&str, &str)> = deltas
        .iter()
        .map(|d| (d.content.as_str(), d.reasoning_content.as_str()))
        .collect();
    assert_eq!(
        texts,
        [
            ("a", ""),
            ("éb", ""),
            ("", ""),
            ("🦀", "r"),
            ("", ""),
            ("", "城!"),
            ("", "")
        ]
    );
    assert_eq!(content, "aéb🦀");
    assert_eq!(reasoning.as_deref(), Some("r城!"));
    assert!(spans.is_empty());
}

/// A cut code point that the next bytes do not finish (another byte, markup, the end) is
/// one U+FFFD where it was, at every chunking, as when the input is fed whole.
#[test]
fn a_cut_code_point_left_unfinished_is_one_replacement_at_every_chunking() {
    let input: &[u8] = b"x\xe2\x82y \xc3<think>\xe5\x9f</think>z\xf0\x9f\xa6";
    for size in 1..=input.len() {
        let chunks: Vec<&[u8]> = input.chunks(size).collect();
        let (deltas, content, reasoning, spans) = stream_bytes(&chunks);
        let (sent, sent_reasoning, _) = joined(&deltas);
        assert_eq!(content, "x\u{fffd}y \u{fffd}z\u{fffd}", "{size}");
        assert_eq!(sent, content, "{size}");
        assert_eq!(reasoning.as_deref(), Some("\u{fffd}"), "{size}");
        assert_eq!(sent_reasoning, "\u{fffd}", "{size}");
        assert_eq!(spans, [[1, 3], [5, 6], [13, 15], [24, 27]], "{size}");
    }
}
