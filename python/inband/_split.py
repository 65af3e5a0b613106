"""Reasoning first, then the rest: a response's reasoning block streamed as it comes, and the
raw text after its closer handed on, for servers that parse reasoning and tool calls in two
separate parsers (vLLM's and SGLang's reasoning parsers)."""

from __future__ import annotations

import codecs
from collections.abc import Iterable

from . import Event, Scanner, dialect_name

# The reasoning delimiters of each dialect as token text, for answers from token ids
# (vLLM's ``is_reasoning_end``); the first of each is what the model writes. Harmony's and
# Muse's reasoning is a channel and Gemini's a fence, neither one token string, and FunctionGemma
# has none: not listed.
REASONING_DELIMITERS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "hermes": (("<think>",), ("</think>",)),
    "qwen3": (("<think>",), ("</think>",)),
    "qwen3-coder": (("<think>",), ("</think>",)),
    "kimi": (("<think>",), ("</think>",)),
    "deepseek": (("<think>",), ("</think>",)),
    "deepseek-v41": (("<think>",), ("</think>",)),
    "glm": (("<think>",), ("</think>",)),
    "minimax": (("<think>",), ("</think>",)),
    "xml": (("<think>", "<thinking>"), ("</think>", "</thinking>")),
    "anthropic": (("<thinking>", "<think>"), ("</thinking>", "</think>")),
    "gemma": (("<|channel>thought\n",), ("<channel|>",)),
    "jamba": (("<think>",), ("</think>",)),
    "granite": (("<think>",), ("</think>",)),
    "internlm": (("<think>",), ("</think>",)),
    "mistral": (("[THINK]", "<think>"), ("[/THINK]", "</think>")),
    "pythonic": (("<think>",), ("</think>",)),
    "lfm2": (("<think>",), ("</think>",)),
    "llama3-json": (("<think>",), ("</think>",)),
    "xlam": (("<think>",), ("</think>",)),
    "phi4-mini": (("<think>",), ("</think>",)),
    "hunyuan-a13b": (("<think>",), ("</think>",)),
    "hunyuan": (("<think:opensource>",), ("</think:opensource>",)),
    "iquest-q1": (("<think>",), ("</think>",)),
    "k2-horizon": (
        ("<ifm|think>", "<ifm|think_fast>", "<ifm|think_faster>"),
        ("</ifm|think>", "</ifm|think_fast>", "</ifm|think_faster>"),
    ),
    "cohere": (("<|START_THINKING|>",), ("<|END_THINKING|>",)),
    "apertus": (("<|inner_prefix|>",), ("<|inner_suffix|>",)),
    "seed-oss": (("<seed:think>",), ("</seed:think>",)),
    "longcat": (("<longcat_think>", "<think>"), ("</longcat_think>", "</think>")),
    "dots": (("<think>",), ("</think>",)),
    "ernie45": (("<think>",), ("</think>",)),
    "granite-20b-fc": (("<think>",), ("</think>",)),
    "minicpm5": (("<think>",), ("</think>",)),
    # Three tokens each: `<|open|>`, the word, `<|sep|>`.
    "kimi-k3": (("<|open|>think<|sep|>",), ("<|close|>think<|sep|>",)),
    "mimo": (("<think>",), ("</think>",)),
    "step3": (("<think>",), ("</think>",)),
    "gigachat35": (("<think>",), ("</think>",)),
    "gigachat3": (("<think>",), ("</think>",)),
    "plamo3": (("<|plamo:begin_think:plamo|>",), ("<|plamo:end_think:plamo|>",)),
    "minimax-m3": (("<mm:think>",), ("</mm:think>",)),
}


class ReasoningSplitter:
    """Feeds a response to inband's scanner until its first reasoning block closes.

    ``feed`` returns the reasoning text the chunk completed; once ``ended`` is not
    ``None`` (the byte offset just past the closer), ``rest`` holds the raw text after the
    closer and nothing more is fed. A response that begins with anything else than
    reasoning (after optional whitespace) ends the reasoning phase at offset 0 with the
    whole text as ``rest``. Reasoning is the raw text between opener and closer, drafted
    calls included, as inband's ``DeltaStream`` reports it. Memory: the bytes fed while
    reasoning, until it ends. With ``added_tokens``, ``feed_tokens`` takes a step's
    ``(text, added)`` tokens (token mode, as ``Scanner``'s).
    """

    def __init__(
        self,
        dialect: str,
        *,
        starts_in_reasoning: bool = False,
        added_tokens: Iterable[str] | None = None,
    ) -> None:
        self.dialect = dialect_name(dialect)
        self._scanner = Scanner(
            self.dialect, starts_in_reasoning=starts_in_reasoning, added_tokens=added_tokens
        )
        self._raw = bytearray()
        self._open_at: int | None = None
        self._sent = 0
        self._decoder = codecs.getincrementaldecoder("utf-8")("replace")
        self._finished = False
        self.ended: int | None = None
        self.rest = ""

    def feed(self, text: str) -> str:
        """The reasoning text ``text`` completed (empty once the block ended)."""
        if self.ended is not None:
            self.rest += text
            return ""
        self._raw += text.encode()
        return self._take(self._scanner.feed(text), final=False)

    def feed_tokens(self, tokens: list[tuple[str, bool]]) -> str:
        """As ``feed``, for one decode step given as its ``(text, added)`` tokens."""
        if self.ended is not None:
            self.rest += "".join(text for text, _ in tokens)
            return ""
        for text, _ in tokens:
            self._raw += text.encode()
        return self._take(self._scanner.feed_tokens(tokens), final=False)

    def finish(self) -> str:
        """Ends the response: the rest of an unclosed block's reasoning (once)."""
        if self.ended is not None or self._finished:
            return ""
        self._finished = True
        return self._take(self._scanner.finish(), final=True)

    def _take(self, events: list[Event], final: bool) -> str:
        out = []
        covered = self._sent
        for e in events:
            if self._open_at is None:
                if e.kind == "reasoning_start":
                    self._open_at = self._sent = e.span[1]
                elif not _before_reasoning(e):
                    self._end(0)
                    return ""
                continue
            if e.kind == "markup" and e.markup == "reasoning_open" and e.span[0] == self._sent:
                # An optional opener after a prompt that opened the block.
                self._sent = e.span[1]
            elif e.kind == "reasoning_end":
                out.append(self._decode(e.span[0], final=True))
                self._end(e.span[1])
                return "".join(out)
            covered = max(covered, e.span[1])
        if self._open_at is None:
            if final:
                # Whitespace only: it is content.
                self._end(0)
            return ""
        out.append(self._decode(len(self._raw) if final else covered, final=final))
        return "".join(out)

    def _decode(self, upto: int, final: bool) -> str:
        piece = bytes(self._raw[self._sent : upto])
        self._sent = max(self._sent, upto)
        return self._decoder.decode(piece, final)

    def _end(self, at: int) -> None:
        self.ended = at
        self.rest = bytes(self._raw[at:]).decode("utf-8", "replace")
        self._raw = bytearray()


def _before_reasoning(e: Event) -> bool:
    """Whether ``e`` may come before a reasoning block without ending the reasoning phase."""
    if e.kind == "text":
        return not e.text.strip()
    return e.kind == "diagnostic" or (e.kind == "markup" and e.markup == "reasoning_open")


def find_last(ids: list[int], needle: list[int]) -> int:
    """The index just past the last occurrence of ``needle`` in ``ids``, or -1."""
    n = len(needle)
    if n == 0:
        return -1
    for i in range(len(ids) - n, -1, -1):
        if ids[i : i + n] == needle:
            return i + n
    return -1
