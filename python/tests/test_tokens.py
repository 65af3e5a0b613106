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


# Qwen-like added tokens with ids, as `tokenizer.get_added_vocab()` gives them.
VOCAB = {text: 151_000 + i for i, text in enumerate(ADDED)}


def test_vocabulary_names_single_tokens_and_ids() -> None:
    vocab = inband.Vocabulary("qwen3", VOCAB)
    assert vocab.dialect == "qwen3"
    assert vocab.token_id("<tool_call>") == 151_000
    assert vocab.token_id("<function=") is None
    assert ("</think>", 151_003) in vocab.single_tokens()
    assert vocab.reasoning_ids() == ([151_002], [151_003])
    assert sorted(vocab.added_tokens) == sorted(ADDED)


def test_vocabulary_without_a_dialects_special_tokens_is_an_error() -> None:
    with pytest.raises(ValueError, match="<｜tool▁calls▁begin｜>"):
        inband.Vocabulary("deepseek", {"<think>": 1})
    with pytest.raises(ValueError, match="dialect"):
        inband.Vocabulary("no-such-dialect", VOCAB)


def test_vocabulary_reasoning_helpers_on_ids() -> None:
    vocab = inband.Vocabulary("qwen3", VOCAB)
    think, end = VOCAB["<think>"], VOCAB["</think>"]
    ids = [think, 5, 6, 7, end, 8, 9]
    assert vocab.reasoning_ended(ids)
    assert not vocab.reasoning_ended(ids[:4])
    assert vocab.reasoning_ended([5, end, 8])  # the prompt opened the block
    assert vocab.content_ids(ids) == [8, 9]
    assert vocab.content_ids(ids[:4]) == []
    assert vocab.reasoning_token_count(ids) == 3
    assert vocab.reasoning_token_count([5, 6, end, 7], starts_in_reasoning=True) == 2


def test_vocabulary_splits_a_step_at_its_added_tokens() -> None:
    vocab = inband.Vocabulary("qwen3", VOCAB)
    call, close = VOCAB["<tool_call>"], VOCAB["</tool_call>"]
    # One token per step: exact, whatever the held text before it spells.
    assert vocab.tokens("<tool_call><tool_call>", [call]) == [
        ("<tool_call>", False),
        ("<tool_call>", True),
    ]
    assert vocab.tokens("ab", [7]) == [("ab", False)]
    assert vocab.tokens("", [call]) == []
    # Several tokens: ordinary text between and after the added ones.
    assert vocab.tokens('x<tool_call>{"a"</tool_call>y', [3, call, 4, 5, close, 6]) == [
        ("x", False),
        ("<tool_call>", True),
        ('{"a"', False),
        ("</tool_call>", True),
        ("y", False),
    ]
    # An added id whose text the detokenizer did not give: the text is all still there.
    assert vocab.tokens("plain", [close]) == [("plain", False)]


def test_vocabulary_split_feeds_token_mode() -> None:
    vocab = inband.Vocabulary("qwen3", VOCAB)
    stream = inband.DeltaStream("qwen3", added_tokens=vocab.added_tokens, seed=1)
    call, close = VOCAB["<tool_call>"], VOCAB["</tool_call>"]
    steps = [
        ("Use <tool_call>", [1, 2, 3]),  # the tag spelled by ordinary tokens
        (" now.<tool_call>", [4, call]),
        (CALL, [5, 6]),
        ("</tool_call>", [close]),
    ]
    content, args = "", ""
    for text, ids in steps:
        delta = stream.feed_tokens(vocab.tokens(text, ids))
        content += delta.content or ""
        args += "".join(c.arguments for c in delta.tool_calls)
    end = stream.finish()
    content += end.delta.content or ""
    assert content == "Use <tool_call> now."
    assert args == '{"path": "a.txt"}'


def test_a_multi_token_step_places_added_tokens_with_the_decoder() -> None:
    # Review finding: the real <tool_call> token, then ordinary ids spelling it again in the
    # same step (speculative decoding): the last occurrence is the ordinary one.
    vocab = inband.Vocabulary("qwen3", VOCAB)
    call = VOCAB["<tool_call>"]
    ordinary = {7: "<tool", 8: "_call", 9: ">"}

    def decode(ids: list[int]) -> str:
        return "".join(ordinary[i] for i in ids)

    text = "<tool_call><tool_call>"
    assert vocab.tokens(text, [call, 7, 8, 9], decode) == [
        ("<tool_call>", True),
        ("<tool_call>", False),
    ]
    # Without the decoder the split falls back on the last occurrence.
    assert vocab.tokens(text, [call, 7, 8, 9]) == [("<tool_call>", False), ("<tool_call>", True)]
    # A decoder whose text is not the step's (held bytes, a rewritten space) is not trusted.
    assert vocab.tokens("<tool_call> x", [call, 7], lambda ids: "y") == [
        ("<tool_call>", True),
        (" x", False),
    ]


def test_token_ids_are_checked() -> None:
    with pytest.raises(ValueError, match="out of range"):
        inband.Vocabulary("qwen3", {"<tool_call>": -1})
    vocab = inband.Vocabulary("qwen3", VOCAB)
    with pytest.raises(TypeError, match="int"):
        vocab.tokens("x", [1.7])  # type: ignore[list-item]
    with pytest.raises(ValueError, match="out of range"):
        vocab.reasoning_ended([2**32])
    with pytest.raises(ValueError, match="tokenizer.json"):
        inband.Vocabulary.from_tokenizer_json("qwen3", "[]")
    with pytest.raises(ValueError, match="tokenizer.json"):
        inband.Vocabulary.from_tokenizer_json("qwen3", '{"added_tokens": null}')
