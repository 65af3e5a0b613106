"""Token mode (docs/dialects.md rule 14): with the vocabulary's added tokens, a delimiter
counts only where the model emitted it as its token; the same characters from ordinary
tokens are text."""

from __future__ import annotations

import pytest

import inband

ADDED = ["<tool_call>", "</tool_call>", "<think>", "</think>", "<|im_end|>"]
CALL = '{"name": "read", "arguments": {"path": "a.txt"}}'


def steps(quoted: bool) -> list[list[tuple[str, bool]]]:
    """A response as decode steps of tokens: prose quoting the tag (ordinary tokens),
    then, unless `quoted`, the model's own call tokens."""
    out = [[("Use ", False), ("<tool", False), ("_call>", False), (" to call.", False)]]
    if not quoted:
        out += [[("<tool_call>", True)], [(CALL, False)], [("</tool_call>", True)]]
    return out


def test_scanner_counts_only_the_models_tokens() -> None:
    scanner = inband.Scanner("qwen3", added_tokens=ADDED)
    for step in steps(quoted=False):
        scanner.feed_tokens(step)
    scanner.finish()
    completion = scanner.completion
    assert completion.content == "Use <tool_call> to call."
    assert [(c.name, c.arguments) for c in completion.tool_calls] == [("read", {"path": "a.txt"})]


def test_delta_stream_in_token_mode_at_every_grouping() -> None:
    tokens = [t for step in steps(quoted=False) for t in step]
    for size in range(1, len(tokens) + 1):
        stream = inband.DeltaStream("qwen3", added_tokens=ADDED, seed=1)
        content = ""
        for k in range(0, len(tokens), size):
            content += stream.feed_tokens(tokens[k : k + size]).content or ""
        end = stream.finish()
        content += end.delta.content or ""
        assert content == "Use <tool_call> to call.", size
        assert end.finish_reason == "tool_calls", size
        assert [c.name for c in end.completion.tool_calls] == ["read"]


def test_text_mode_reads_the_quoted_tag_as_a_call_token_mode_does_not() -> None:
    text = "Use <tool_call>" + CALL + "</tool_call> to call."
    assert [c.name for c in inband.assemble(text, "qwen3").tool_calls] == ["read"]
    scanner = inband.Scanner("qwen3", added_tokens=ADDED)
    scanner.feed_tokens([(text, False)])
    scanner.finish()
    assert scanner.completion.content == text
    assert scanner.completion.tool_calls == []


def test_misuse() -> None:
    scanner = inband.Scanner("qwen3")
    with pytest.raises(ValueError, match="token mode"):
        scanner.feed_tokens([("<tool_call>", True)])
    token_mode = inband.Scanner("qwen3", added_tokens=ADDED)
    with pytest.raises(TypeError, match="pair"):
        token_mode.feed_tokens([("<tool_call>",)])  # type: ignore[list-item]
    with pytest.raises(TypeError):
        token_mode.feed_tokens(5)  # type: ignore[arg-type]
    token_mode.feed_tokens([(b"bytes ", False), ("", True), ("<think>", True)])
    events = token_mode.finish()
    assert [e.kind for e in events][-1] == "reasoning_end"
