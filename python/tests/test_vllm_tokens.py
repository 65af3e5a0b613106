"""inband.vllm in token mode (docs/dialects.md rule 14) with DeepSeek's real tokenizer
through vLLM 0.33.0's parser machinery: a delimiter counts only where the model emitted it
as its token; the same characters from ordinary tokens are text."""

from __future__ import annotations

import logging
from typing import Any

import pytest

pytest.importorskip("vllm")

from vllm_stream import id_deltas, parser, run, token_deltas, tokenizer  # noqa: E402

import inband  # noqa: E402
import inband.vllm  # noqa: E402,F401  (registers the parsers)

CALL = (
    "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>get_weather\n"
    '```json\n{"city": "Paris"}\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜>'
)
CASE: dict[str, Any] = {
    "tools": [{"type": "function", "function": {"name": "get_weather", "parameters": {}}}],
    "expected": {"tool_calls": []},
}


def ordinary_ids(text: str) -> list[int]:
    """Ids that spell `text` with ordinary tokens only: each character encoded alone, so no
    added token matches."""
    tok = tokenizer()
    ids = [i for ch in text for i in tok.encode(ch, add_special_tokens=False)]
    added = set(tok.get_added_vocab().values())
    assert not added & set(ids), "no added token among the ordinary ids"
    return ids


def encode(text: str) -> list[int]:
    return list(tokenizer().encode(text, add_special_tokens=False))


def test_the_vocabulary_of_deepseeks_tokenizer() -> None:
    vocab = inband.Vocabulary.from_tokenizer("deepseek", tokenizer())
    begin = vocab.token_id("<｜tool▁calls▁begin｜>")
    assert begin is not None and encode("<｜tool▁calls▁begin｜>") == [begin]
    opener, closer = vocab.reasoning_ids()
    assert encode("<think>") == opener and encode("</think>") == closer


def test_a_quoted_call_opener_is_content_and_the_models_call_is_a_call() -> None:
    ids = (
        encode("Write ") + ordinary_ids("<｜tool▁calls▁begin｜>") + encode(" first.") + encode(CALL)
    )
    steps = id_deltas(ids)
    assert "".join(t for t, _ in steps) == "Write <｜tool▁calls▁begin｜> first." + CALL
    out = run(CASE, steps, "inband_deepseek", None)
    assert out["content"] == "Write <｜tool▁calls▁begin｜> first."
    assert [(c["name"], c["arguments"]) for c in out["calls"]] == [
        ("get_weather", '{"city": "Paris"}')
    ]


def test_text_mode_takes_the_quote_for_the_section_opener() -> None:
    # The fault token mode removes: text alone cannot tell the quote from the token, and
    # reads " first." as a call whose opener is missing (cut off: not content).
    class TextMode(inband.vllm.InbandToolParser):
        dialect = "deepseek"
        token_mode = False

    p = TextMode(tokenizer())
    request = p.adjust_request(run.__globals__["request"](CASE))
    ids = encode("Write ") + ordinary_ids("<｜tool▁calls▁begin｜>") + encode(" first.")
    content = ""
    steps = id_deltas(ids)
    for text, step in steps:
        m = p.extract_tool_calls_streaming("", "", text, [], [], step, request)
        content += (m.content or "") if m else ""
    end = p.finish_streaming()
    content += (end.content or "") if end else ""
    assert content == "Write "


def test_a_quoted_reasoning_closer_keeps_reasoning_open() -> None:
    ids = (
        encode("<think>The tag ")
        + ordinary_ids("</think>")
        + encode(" ends it.</think>")
        + encode("Done.")
    )
    out = run(CASE, id_deltas(ids), "inband_deepseek", "inband_deepseek")
    assert out["reasoning"] == "The tag </think> ends it."
    assert out["content"].strip() == "Done."


def test_a_tokenizer_without_the_dialects_tokens_streams_in_text_mode(
    caplog: pytest.LogCaptureFixture,
) -> None:
    # DeepSeek's vocabulary has no Kimi tokens: Kimi's calls are read from the text.
    inband.vllm._VOCABULARIES.clear()
    with caplog.at_level(logging.WARNING, logger="inband.vllm"):
        p = parser("inband_kimi", None)
    assert p.tool_parser._vocabulary is None
    assert "<|tool_calls_section_begin|>" in caplog.text
    steps = token_deltas(
        "<|tool_calls_section_begin|><|tool_call_begin|>functions.f:0"
        '<|tool_call_argument_begin|>{"a": 1}<|tool_call_end|><|tool_calls_section_end|>'
    )
    case = {**CASE, "tools": [{"type": "function", "function": {"name": "f", "parameters": {}}}]}
    out = run(case, steps, "inband_kimi", None)
    assert [(c["name"], c["arguments"]) for c in out["calls"]] == [("f", '{"a": 1}')]


def test_one_step_holding_a_quoted_separator_after_the_real_one() -> None:
    # Review finding: the whole response as one decode step (speculative decoding, a stream
    # interval), an argument quoting the separator in ordinary tokens after the real one.
    ids = (
        encode("<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>get_weather\n")
        + encode('```json\n{"city": "')
        + ordinary_ids("<｜tool▁sep｜>")
        + encode('"}\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜>')
    )
    text = tokenizer().decode(ids, skip_special_tokens=False)
    for steps in ([(text, ids)], id_deltas(ids)):
        out = run(CASE, steps, "inband_deepseek", None)
        assert [(c["name"], c["arguments"]) for c in out["calls"]] == [
            ("get_weather", '{"city": "<｜tool▁sep｜>"}')
        ], len(steps)
