"""Faults found by review: each input that once went wrong, with the exact outcome."""

from __future__ import annotations

import json

import pytest

import inband

TOOLS = [
    {
        "type": "function",
        "function": {
            "name": "get_weather",
            "parameters": {
                "type": "object",
                "properties": {"city": {"type": "string"}, "n": {"type": "integer"}},
            },
        },
    }
]
CALL = (
    'Hi é<tool_call>\n{"name": "get_weather", "arguments": '
    '{"city": "Zürich 東京", "n": 3}}\n</tool_call>'
)


def test_completion_arguments_are_a_plain_dict() -> None:
    # Got {'$serde_json::private::RawValue': '{"city":…}'}: the arguments were serialized
    # through a generic serializer that does not know serde_json's raw values.
    for completion in [
        inband.assemble(CALL, "hermes", TOOLS),
        _streamed(CALL),
        _scanned(CALL),
    ]:
        assert [(c.name, c.arguments) for c in completion.tool_calls] == [
            ("get_weather", {"city": "Zürich 東京", "n": 3})
        ]
        assert completion.tool_calls[0].arguments_json == '{"city":"Zürich 東京","n":3}'
        assert completion.content == "Hi é"


def test_big_and_exact_numbers_keep_their_value() -> None:
    args = '{"big": 123456789012345678901234567890, "x": 0.1}'
    text = '<tool_call>{"name": "f", "arguments": ' + args + "}</tool_call>"
    (call,) = inband.assemble(text, "hermes").tool_calls
    assert call.arguments == {"big": 123456789012345678901234567890, "x": 0.1}


def _streamed(text: str | bytes) -> inband.Completion:
    s = inband.DeltaStream("hermes", tools=TOOLS)
    s.feed(text)
    return s.finish().completion


def _scanned(text: str) -> inband.Completion:
    s = inband.Scanner("hermes", tools=TOOLS)
    s.feed(text)
    s.finish()
    return s.completion


def test_bytes_split_inside_a_code_point_stream_the_same() -> None:
    data = CALL.encode()
    for i in range(len(data) + 1):
        s = inband.DeltaStream("hermes", tools=TOOLS, seed=1)
        deltas = [s.feed(data[:i]), s.feed(data[i:])]
        end = s.finish()
        deltas.append(end.delta)
        content = "".join(d.content for d in deltas)
        fragments = [c for d in deltas for c in d.tool_calls]
        assert content == "Hi é", i
        assert [(c.index, c.name) for c in fragments if c.id is not None] == [(0, "get_weather")]
        args = "".join(c.arguments for c in fragments)
        assert json.loads(args) == {"city": "Zürich 東京", "n": 3}, i
        assert end.completion.tool_calls[0].arguments == {"city": "Zürich 東京", "n": 3}


def test_tools_of_the_wrong_shape_are_type_errors() -> None:
    # One tool alone got "tool 0: not a JSON object" (its keys were read as tools); an int
    # got "'int' object is not iterable"; JSON bytes were read as a list of ints.
    with pytest.raises(TypeError, match=r"a list of tools, not one tool: pass \[tool\]"):
        inband.assemble(CALL, "hermes", TOOLS[0])  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="not int"):
        inband.DeltaStream("hermes", tools=5)  # type: ignore[arg-type]
    completion = inband.assemble(CALL, "hermes", json.dumps(TOOLS).encode())
    assert completion.diagnostics == []
    assert completion.tool_calls[0].arguments == {"city": "Zürich 東京", "n": 3}
    with pytest.raises(ValueError, match="tools are not an OpenAI tools array: not a JSON array"):
        inband.Scanner("hermes", tools='{"a": 1}')


def test_chunks_are_text_or_bytes_like_only() -> None:
    # A list of ints was read as bytes: [60, 116] gave the content "<t".
    with pytest.raises(TypeError, match="a chunk is str or bytes, not list"):
        inband.assemble([60, 116], "hermes")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="a chunk is str or bytes, not int"):
        inband.DeltaStream("hermes").feed(7)  # type: ignore[arg-type]
    data = CALL.encode()
    for chunk in [bytearray(data), memoryview(data)]:
        completion = inband.assemble(chunk, "hermes", TOOLS)  # type: ignore[arg-type]
        assert completion.tool_calls[0].arguments == {"city": "Zürich 東京", "n": 3}
    s = inband.DeltaStream("hermes")
    with pytest.raises(UnicodeEncodeError):
        s.feed("a\ud800")
    # The refused chunk lost nothing: the stream goes on.
    assert s.feed("b").content == "b"


def test_a_response_past_max_response_bytes_is_cut_with_a_diagnostic() -> None:
    # The 64 MiB bound was undocumented and could not be set from Python: 200 MiB fed gave
    # 64 MiB of content and a diagnostic nobody was told about.
    s = inband.DeltaStream("hermes", max_response_bytes=10)
    assert s.feed("01234").content == "01234"
    # The response ends at byte 10 whatever the chunking: the chunk that crosses it gives
    # its bytes before it, and nothing after it is streamed or kept.
    assert s.feed("56789abc").content == "56789"
    assert s.feed("more").content == ""
    end = s.finish()
    assert end.delta.content == ""
    assert end.completion.content == "0123456789"
    assert [(d.code, d.span) for d in end.completion.diagnostics] == [
        ("response_too_long", (10, 10))  # the span: the empty one at the limit
    ]
    c = inband.assemble("0123456789abc", "hermes", max_response_bytes=10)
    assert c.content == "0123456789"
    assert [(d.code, d.span) for d in c.diagnostics] == [("response_too_long", (10, 10))]
    assert inband.assemble("0123456789", "hermes", max_response_bytes=10).diagnostics == []
    with pytest.raises(OverflowError):
        inband.assemble("x", "hermes", max_response_bytes=-1)


def test_arguments_text_is_the_streamed_text() -> None:
    # Non-streaming servers re-serialized the parsed dict: 1.0e3 became 1000.0 and the
    # spacing changed, so the two paths gave different arguments.
    text = '<tool_call>{"name": "f", "arguments": {"x": 1.0e3, "s": "é"}}</tool_call>'
    s = inband.DeltaStream("hermes")
    streamed = "".join(c.arguments for c in s.feed(text).tool_calls)
    end = s.finish()
    streamed += "".join(c.arguments for c in end.delta.tool_calls)
    assert streamed == '{"x": 1.0e3, "s": "é"}'
    (call,) = end.completion.tool_calls
    assert call.arguments_text == streamed
    assert call.arguments == {"x": 1000.0, "s": "é"}
    assert inband.assemble(text, "hermes").tool_calls[0].arguments_text == streamed
