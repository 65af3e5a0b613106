"""The plain package: decoding, streaming, encoding, dialect selection, errors, threads."""

from __future__ import annotations

import json
import pickle
import random
import threading
from typing import Any

import pytest
from corpus import cases, same_json

import inband

CASES = cases()
IDS = [c["id"] for c in CASES]


def check_completion(case: dict[str, Any], completion: inband.Completion) -> None:
    expected = case["expected"]
    assert completion.content == expected["content"]
    assert completion.reasoning == expected["reasoning"]
    got = [(c.name, c.arguments) for c in completion.tool_calls]
    want = [(c["name"], c["arguments"]) for c in expected["tool_calls"]]
    assert [n for n, _ in got] == [n for n, _ in want]
    for (_, a), (_, b) in zip(got, want):
        assert same_json(a, b), (a, b)


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_assemble_matches_corpus(case: dict[str, Any]) -> None:
    check_completion(case, inband.assemble(case["input"], case["dialect"], case.get("tools")))


def stream(
    case: dict[str, Any], chunks: list[bytes]
) -> tuple[list[inband.Delta], inband.StreamEnd]:
    s = inband.DeltaStream(case["dialect"], tools=case.get("tools"), seed=7)
    deltas = [s.feed(c) for c in chunks]
    end = s.finish()
    return deltas + [end.delta], end


def check_stream(case: dict[str, Any], deltas: list[inband.Delta], end: inband.StreamEnd) -> None:
    """Name once, id on the first fragment, indexes in order, arguments concatenating to the
    completion's arguments, content and reasoning joining to the completion's."""
    calls: dict[int, dict[str, Any]] = {}
    content = reasoning = ""
    for d in deltas:
        content += d.content
        reasoning += d.reasoning_content
        seen = set()
        for c in d.tool_calls:
            assert c.index not in seen, "one fragment per call per delta"
            seen.add(c.index)
            if c.index not in calls:
                assert c.index == len(calls), "indexes count up from 0"
                assert c.id is not None and c.name is not None
                calls[c.index] = {"id": c.id, "name": c.name, "arguments": ""}
            else:
                assert c.id is None and c.name is None, "id and name once"
            calls[c.index]["arguments"] += c.arguments
    completion = end.completion
    assert content.strip() == completion.content
    assert (reasoning.strip() or None) == completion.reasoning or completion.reasoning == ""
    # Streamed calls are the complete calls, in order, plus calls cut off by the end of the
    # stream (streamed as they came, then incomplete).
    incomplete = {c.id for c in completion.incomplete_calls}
    complete = [c for c in calls.values() if c["id"] not in incomplete]
    assert len(complete) == len(completion.tool_calls)
    for streamed, call in zip(complete, completion.tool_calls):
        assert streamed["id"] == call.id
        assert streamed["name"] == call.name
        assert same_json(json.loads(streamed["arguments"]), call.arguments)
    assert end.finish_reason == ("tool_calls" if completion.tool_calls else "stop")
    check_completion(case, completion)


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_stream_every_two_chunk_split(case: dict[str, Any]) -> None:
    data = case["input"].encode()
    for cut in range(len(data) + 1):
        deltas, end = stream(case, [data[:cut], data[cut:]])
        check_stream(case, deltas, end)


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_stream_bytewise_and_random_groupings(case: dict[str, Any]) -> None:
    data = case["input"].encode()
    deltas, end = stream(case, [data[i : i + 1] for i in range(len(data))])
    check_stream(case, deltas, end)
    rng = random.Random(case["id"])
    for _ in range(20):
        chunks, at = [], 0
        while at < len(data):
            n = rng.randint(1, 24)
            chunks.append(data[at : at + n])
            at += n
        deltas, end = stream(case, chunks)
        check_stream(case, deltas, end)


def joined(events: list[inband.Event]) -> list[tuple[str, str | None, bytes]]:
    """Adjacent fragments of one kind joined, as the Rust event log joins them."""
    out: list[tuple[str, str | None, bytes]] = []
    for e in events:
        kind = (e.kind, e.markup or e.piece)
        joins = e.kind in ("text", "reasoning", "tool_args", "tool_value") or e.markup == "envelope"
        if out and out[-1][:2] == kind and joins:
            out[-1] = (*kind, out[-1][2] + (e.payload or b""))
        else:
            out.append((*kind, e.payload or b""))
    return out


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_scanner_events_same_for_every_chunking(case: dict[str, Any]) -> None:
    data = case["input"].encode()
    whole = inband.Scanner(case["dialect"], tools=case.get("tools"))
    reference = whole.feed(data) + whole.finish()
    check_completion(case, whole.completion)
    spans = [e.span for e in reference]
    assert spans[0][0] == 0 and max(e for _, e in spans) == len(data)
    s = inband.Scanner(case["dialect"], tools=case.get("tools"))
    bytewise: list[inband.Event] = []
    for i in range(len(data)):
        bytewise += s.feed(data[i : i + 1])
    bytewise += s.finish()
    assert joined(bytewise) == joined(reference)


def test_event_fields() -> None:
    s = inband.Scanner("hermes")
    events = s.feed('Hi <tool_call>{"name": "f", "arguments": {"a": 1}}</tool_call>') + s.finish()
    kinds = [e.kind for e in events]
    assert kinds[0] == "text" and events[0].text == "Hi " and events[0].span == (0, 3)
    start = next(e for e in events if e.kind == "tool_start")
    assert start.call == 0 and start.provisional is False
    assert start.name == "f"
    args = b"".join(e.payload or b"" for e in events if e.kind == "tool_args")
    assert args == b'{"a": 1}'
    assert next(e for e in events if e.kind == "tool_end").end == "complete"
    assert s.completion.tool_calls[0].arguments == {"a": 1}


def test_split_inside_code_point() -> None:
    data = "Olá — 城堡".encode()
    s = inband.DeltaStream("qwen3")
    text = "".join(s.feed(data[i : i + 1]).content for i in range(len(data)))
    assert text + s.finish().delta.content == "Olá — 城堡"


def test_openai_delta_shape() -> None:
    s = inband.DeltaStream("hermes", seed=1)
    d = s.feed('<tool_call>{"name": "read", "arguments": {"path": "a"}}</tool_call>')
    assert d.to_openai() == {
        "tool_calls": [
            {
                "index": 0,
                "id": d.tool_calls[0].id,
                "type": "function",
                "function": {"name": "read", "arguments": '{"path": "a"}'},
            }
        ]
    }
    assert d.tool_calls[0].id and d.tool_calls[0].id.startswith("call_")
    end = s.finish()
    assert not end.delta and end.finish_reason == "tool_calls"
    assert end.completion.tool_calls[0].arguments_json == '{"path":"a"}'


def test_seed_makes_ids_deterministic() -> None:
    text = '<tool_call>{"name": "f", "arguments": {}}</tool_call>'
    a = inband.assemble(text, "hermes", seed=3).tool_calls[0].id
    assert a == inband.assemble(text, "hermes", seed=3).tool_calls[0].id
    assert a != inband.assemble(text, "hermes", seed=4).tool_calls[0].id


def test_starts_in_reasoning() -> None:
    c = inband.assemble("plan</think>answer", "qwen3", starts_in_reasoning=True)
    assert (c.reasoning, c.content) == ("plan", "answer")
    c = inband.assemble("plan</think>answer", "qwen3")
    assert c.reasoning is None and c.content == "plan</think>answer"


def test_dialect_names() -> None:
    assert inband.dialect_for_model("Qwen/Qwen3-Coder-480B-A35B-Instruct") == "qwen3-coder"
    assert inband.dialect_for_model("openai/gpt-oss-120b") == "harmony"
    assert inband.dialect_for_model("zai-org/GLM-4.6") == "glm"
    assert inband.dialect_for_model("some/unknown-model") == "xml"
    assert inband.dialect_for_parser("qwen3_coder") == "qwen3-coder"
    assert inband.dialect_for_parser("deepseek_v31") == "deepseek"
    assert inband.dialect_for_parser("hf") is None
    assert inband.dialect_name("qwen3_coder") == "qwen3-coder"
    assert inband.dialect_name("glm45") == "glm"
    assert inband.dialect_name("Hermes") == "hermes"
    assert "qwen3-coder" in inband.dialects() and len(inband.dialects()) == 43
    assert inband.uses_special_tokens("kimi") and not inband.uses_special_tokens("hermes")


def test_errors_are_exceptions_with_the_message() -> None:
    with pytest.raises(ValueError, match='unknown dialect "nope": expected one of hermes'):
        inband.DeltaStream("nope")
    with pytest.raises(ValueError, match="tools are not an OpenAI tools array: not a JSON array"):
        inband.Scanner("hermes", tools='{"a": 1}')
    with pytest.raises(TypeError, match="a chunk is str or bytes, not int"):
        inband.Scanner("hermes").feed(3)  # type: ignore[arg-type]
    s = inband.Scanner("hermes")
    with pytest.raises(ValueError, match="not finished"):
        _ = s.completion
    s.finish()
    with pytest.raises(ValueError, match="the scanner was finished"):
        s.feed("x")
    d = inband.DeltaStream("hermes")
    d.finish()
    with pytest.raises(ValueError, match="the stream was finished"):
        d.feed("x")
    with pytest.raises(ValueError, match="not a JSON array of tool calls"):
        inband.render_calls([{"nope": 1}], "hermes")


def test_render_calls_reads_back() -> None:
    calls = [{"id": "c1", "name": "read", "arguments": {"path": "a.rs", "limit": 3}}]
    for dialect in inband.dialects():
        text = inband.render_calls(calls, dialect)
        c = inband.assemble(text, dialect)
        assert [(t.name, t.arguments) for t in c.tool_calls] == [("read", calls[0]["arguments"])], (
            dialect
        )
    assert inband.render_calls(calls, "hermes") == (
        '<tool_call>\n{"name":"read","arguments":{"path":"a.rs","limit":3}}\n</tool_call>'
    )


def test_render_results_and_transcript() -> None:
    results = [{"tool_call_id": "c1", "name": "read", "content": "ok"}]
    assert inband.render_results(results, "hermes") == ("<tool_response>\nok\n</tool_response>")
    messages = [{"role": "user", "content": "hi"}]
    assert inband.render_transcript(messages, "qwen3") == "<|im_start|>user\nhi<|im_end|>\n"


def test_tool_prompt() -> None:
    tools = [
        {
            "type": "function",
            "function": {
                "name": "read",
                "description": "Read a file",
                "parameters": {"type": "object", "properties": {"path": {"type": "string"}}},
            },
        }
    ]
    prompt = inband.tool_prompt(tools, "hermes")
    assert prompt == inband.tool_prompt(json.dumps(tools), "hermes")
    assert "<tools>\n" in prompt and '"name":"read"' in prompt and "<tool_call>" in prompt


def test_pickling() -> None:
    c = inband.assemble('<tool_call>{"name": "f", "arguments": {"a": [1]}}</tool_call>', "hermes")
    assert pickle.loads(pickle.dumps(c)) == c
    d = inband.DeltaStream("hermes").feed("hello")
    assert pickle.loads(pickle.dumps(d)) == d
    with pytest.raises(TypeError, match="cannot be pickled"):
        pickle.dumps(inband.Scanner("hermes"))
    with pytest.raises(TypeError, match="cannot be pickled"):
        pickle.dumps(inband.DeltaStream("hermes"))


def test_threads_scan_large_inputs_in_parallel() -> None:
    call = '<tool_call>{"name": "f", "arguments": {"n": %d}}</tool_call>\n'
    text = "".join(call % i for i in range(1000))
    assert len(text.encode()) > inband.GIL_RELEASE_BYTES
    results: list[inband.Completion] = []
    lock = threading.Lock()

    def run() -> None:
        c = inband.assemble(text, "hermes")
        s = inband.DeltaStream("hermes")
        s.feed(text)
        streamed = s.finish().completion
        with lock:
            results.extend([c, streamed])

    threads = [threading.Thread(target=run) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(results) == 8
    for c in results:
        assert [t.arguments["n"] for t in c.tool_calls] == list(range(1000))


def test_one_object_used_by_two_threads_raises() -> None:
    s = inband.DeltaStream("hermes")
    big = "x" * (1 << 24)
    errors: list[BaseException] = []

    def feed() -> None:
        try:
            s.feed(big)
        except RuntimeError as e:
            errors.append(e)

    threads = [threading.Thread(target=feed) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    # Whichever thread held the stream fed it; none corrupted it: the content is all there.
    fed = 4 - len(errors)
    assert fed >= 1
    assert all("borrow" in str(e) for e in errors)
    assert len(s.finish().completion.content) == fed * len(big)


def test_gil_is_released_while_scanning_a_large_input() -> None:
    # While another thread scans 48 MiB (about 0.5 s), this thread keeps running Python
    # code (about 900 000 loop turns here). With the GIL held through the scan it would
    # run only in the switch-interval slices before and after (5 ms each, ~10 000 turns).
    big = ("plain text, " * (1 << 22)).encode() + b"<tool_call>"
    s = inband.Scanner("hermes")
    done = threading.Event()
    ticks = 0

    def scan() -> None:
        s.feed(big)
        done.set()

    t = threading.Thread(target=scan)
    t.start()
    while not done.is_set():
        ticks += 1
    t.join()
    assert ticks > 100_000


def test_numbers_reach_python_exactly_and_a_repeated_key_keeps_its_first_value() -> None:
    from decimal import Decimal

    text = (
        '<tool_call>{"name": "rm", "arguments": {"path": "/tmp/safe", "n": '
        '123456789012345678901234567890, "x": 1e999, "y": 0.1000000000000000000001, '
        '"z": 0.5, "path": "/"}}</tool_call>'
    )
    completion = inband.assemble(text, "hermes", seed=1)
    call = completion.tool_calls[0]
    assert call.arguments == {
        "path": "/tmp/safe",
        "n": 123456789012345678901234567890,
        "x": Decimal("1e999"),
        "y": Decimal("0.1000000000000000000001"),
        "z": 0.5,
    }
    assert type(call.arguments["z"]) is float
    assert call.arguments_json == (
        '{"path":"/tmp/safe","n":123456789012345678901234567890,"x":1E+999,'
        '"y":0.1000000000000000000001,"z":0.5}'
    )
    assert [d.code for d in completion.diagnostics] == ["duplicate_parameter"]
    stream = inband.DeltaStream("hermes", seed=1)
    pieces = [stream.feed(text[i : i + 3]) for i in range(0, len(text), 3)]
    end = stream.finish()
    streamed = "".join(c.arguments for d in [*pieces, end.delta] for c in d.tool_calls)
    assert streamed == (
        '{"path": "/tmp/safe", "n": 123456789012345678901234567890, "x": 1e999, '
        '"y": 0.1000000000000000000001, "z": 0.5}'
    )
    assert end.completion.tool_calls[0].arguments == call.arguments
