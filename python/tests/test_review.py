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
    text = '<tool_call>{"name": "f", "arguments": {"big": 123456789012345678901234567890, "x": 0.1}}</tool_call>'
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
