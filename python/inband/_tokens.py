"""Token mode for servers: a dialect's view of a model's vocabulary (``Vocabulary``), and the
split of a decode step's detokenized text into the ``(text, added)`` tokens that
``Scanner.feed_tokens`` / ``DeltaStream.feed_tokens`` take (docs/dialects.md rule 14)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Union

from . import _native

# A vocabulary's added tokens: ``{text: id}`` (``tokenizer.get_added_vocab()``) or
# ``(id, text)`` pairs.
AddedTokens = Union[Mapping[str, int], Iterable[tuple[int, str]]]


def _token_id(value: Any) -> int:
    """A token id: an int from 0 to 2**32 - 1 (``TypeError`` / ``ValueError`` otherwise)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"a token id is an int, not {type(value).__name__}")
    if not 0 <= value < 2**32:
        raise ValueError(f"token id {value} is out of range (0 to 2**32 - 1)")
    return value


class Vocabulary:
    """Which of a dialect's delimiters are single added (or special) tokens of a model's
    vocabulary, with their ids; the reasoning helpers a grammar engine calls on ids; and
    ``tokens``, which splits a decode step's text at its added tokens.

    ``ValueError`` (from the constructors) names every delimiter that is a special token of
    the dialect (rule 12) and no added token of this vocabulary: token mode with that
    vocabulary would read none of those delimiters.
    """

    def __init__(self, dialect: str, added: AddedTokens) -> None:
        pairs = (
            [(_token_id(i), str(t)) for t, i in added.items()]
            if isinstance(added, Mapping)
            else [(_token_id(i), str(t)) for i, t in added]
        )
        self._native = _native.Vocabulary(dialect, tokens=pairs)
        self._added: dict[int, str] = dict(pairs)

    @classmethod
    def from_tokenizer(cls, dialect: str, tokenizer: Any) -> Vocabulary:
        """The vocabulary of a Hugging Face (or vLLM / SGLang) tokenizer object: its
        ``get_added_vocab()``. ``TypeError`` when the object has no such method."""
        get = getattr(tokenizer, "get_added_vocab", None)
        if get is None:
            raise TypeError(f"{type(tokenizer).__name__} has no get_added_vocab()")
        return cls(dialect, get())

    @classmethod
    def from_tokenizer_json(cls, dialect: str, text: str | bytes) -> Vocabulary:
        """The vocabulary of a ``tokenizer.json`` file's text (its ``added_tokens``)."""
        import json

        data = json.loads(text)
        added = data.get("added_tokens") if isinstance(data, dict) else None
        if not isinstance(added, list) or not all(
            isinstance(t, dict) and "id" in t and "content" in t for t in added
        ):
            raise ValueError("not a tokenizer.json: no added_tokens list of {id, content}")
        return cls(dialect, [(t["id"], str(t["content"])) for t in added])

    @property
    def dialect(self) -> str:
        """The dialect's inband name."""
        return self._native.dialect

    @property
    def added_tokens(self) -> list[str]:
        """Every added token's text: the ``added_tokens`` of a token-mode scanner."""
        return list(self._added.values())

    def single_tokens(self) -> list[tuple[str, int]]:
        """The delimiters that are exactly one added token, ``(text, id)``, in table order."""
        return self._native.single_tokens()

    def token_id(self, delimiter: str) -> int | None:
        """The id of ``delimiter`` when it is exactly one added token."""
        return self._native.token_id(delimiter)

    def tokens(
        self,
        text: str,
        ids: Sequence[int],
        decode: Callable[[list[int]], str] | None = None,
    ) -> list[tuple[str, bool]]:
        """One decode step's text split at its added tokens: ``ids`` are the step's token ids
        and ``text`` what the detokenizer gave for them (special tokens kept, no spaces
        added around them). The added tokens are placed from the last one back: one that
        no ordinary id follows ends the text still unplaced (exact, whatever that text
        spells, so a step of one token is always split exactly); one that ordinary ids
        follow ends where their text begins, when ``decode`` (the tokenizer's, e.g.
        ``lambda ids: tokenizer.decode(ids)``) gives that text exactly; otherwise it is its
        text's last occurrence there (a guess that fails only when ordinary tokens after it
        in the same step spell it again). The text between is ordinary tokens' (with what
        the detokenizer held from earlier steps). An added id whose text is not there (a
        detokenizer that dropped it) is skipped: every character of ``text`` is in the
        result either way, in order."""
        pieces: list[tuple[str, bool]] = []
        end = len(text)
        after: list[int] = []
        for raw in reversed(ids):
            i = _token_id(raw)
            piece = self._added.get(i)
            if not piece:
                after.append(i)
                continue
            found = -1
            if not after:
                if text.endswith(piece, 0, end):
                    found = end - len(piece)
            elif decode is not None:
                tail = decode(after[::-1])
                at = end - len(tail) - len(piece)
                if at >= 0 and text.startswith(piece, at) and text[at + len(piece) : end] == tail:
                    found = at
            if found < 0:
                found = text.rfind(piece, 0, end)
            if found < 0:
                continue
            if found + len(piece) < end:
                pieces.append((text[found + len(piece) : end], False))
            pieces.append((piece, True))
            end = found
            after = []
        if end > 0:
            pieces.append((text[:end], False))
        pieces.reverse()
        return pieces

    def reasoning_ended(self, ids: Sequence[int]) -> bool:
        """Whether a reasoning closer token comes after the last opener token in ``ids``
        (with no opener, any closer: the prompt opened the block)."""
        return self._native.reasoning_ended([_token_id(i) for i in ids])

    def content_ids(self, ids: Sequence[int]) -> list[int]:
        """The ids after the last reasoning closer token; empty while the block is open."""
        return self._native.content_ids([_token_id(i) for i in ids])

    def reasoning_token_count(self, ids: Sequence[int], starts_in_reasoning: bool = False) -> int:
        """How many of ``ids`` are reasoning (between opener and closer tokens, both
        excluded; from the start when the prompt opened the block)."""
        return self._native.reasoning_token_count([_token_id(i) for i in ids], starts_in_reasoning)

    def reasoning_ids(self) -> tuple[list[int], list[int]]:
        """The reasoning opener and closer token ids of this vocabulary."""
        return self._native.reasoning_ids()
