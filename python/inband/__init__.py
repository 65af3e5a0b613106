"""inband: a streaming decoder and encoder for in-band tool calls of language models.

Feed a model's raw output (detokenized with special tokens kept) in chunks split anywhere;
get content, reasoning and tool calls in the model family's dialect (``hermes``, ``qwen3``,
``qwen3-coder``, ``deepseek``, ``kimi``, ``harmony``, ``glm``, ``minimax``, ``gemma``,
``gemini``, ``anthropic``, ``xml``, ``seed-oss``, ``jamba``, ``longcat``, ``granite``,
``internlm``, ``mistral``, ``pythonic``, ``lfm2``, ``llama3-json``, ``xlam``, ``phi4-mini``,
``hunyuan-a13b``, ``hunyuan``, ``iquest-q1``, ``k2-horizon``, ``cohere``, ``apertus``,
``deepseek-v41``, ``dots``, ``ernie45``, ``granite-20b-fc``, ``functiongemma``,
``minicpm5``, ``kimi-k3``, ``muse``, ``mimo``, ``step3``, ``gigachat35``, ``gigachat3``,
``plamo3``, ``minimax-m3``).
Dialect names also accept an inference server's ``--tool-call-parser`` names
(``qwen3_coder``, ``deepseek_v31``, ``glm45``, …).

Threads: every object here is used by one thread at a time. A ``Scanner`` or
``DeltaStream`` used from two threads at once raises ``RuntimeError`` (it is never
corrupted); separate objects run in parallel, and inputs of ``GIL_RELEASE_BYTES`` or more
are scanned with the GIL released. ``Scanner`` and ``DeltaStream`` hold a response in
progress and refuse to be pickled (``TypeError``); events, deltas and completions are
plain dataclasses and pickle.

Errors (an unknown dialect, tools that are not an OpenAI tools array, a call that cannot
be rendered, feeding after ``finish``) raise ``ValueError`` with the Rust message; nothing
in a model's output is an error: it is a diagnostic.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any, Union

from . import _native
from ._tokens import Vocabulary
from ._types import (
    Completion,
    Delta,
    Diagnostic,
    Event,
    IncompleteCall,
    StreamEnd,
    ToolCall,
    ToolCallDelta,
)

__all__ = [
    "GIL_RELEASE_BYTES",
    "Completion",
    "Delta",
    "DeltaStream",
    "Diagnostic",
    "Event",
    "IncompleteCall",
    "Scanner",
    "StreamEnd",
    "ToolCall",
    "ToolCallDelta",
    "Vocabulary",
    "assemble",
    "dialect_for_model",
    "dialect_for_parser",
    "dialect_name",
    "dialects",
    "render_calls",
    "render_results",
    "render_transcript",
    "tool_prompt",
    "uses_special_tokens",
]

GIL_RELEASE_BYTES: int = _native.GIL_RELEASE_BYTES
"""Chunks at least this long (bytes) are scanned with the GIL released."""

Tools = Union[str, bytes, Iterable[Mapping[str, Any]], None]
"""An OpenAI ``tools`` array: a list of ``{"type": "function", "function": {...}}`` dicts
(or objects with ``model_dump()``), or its JSON text (``str``, or UTF-8 ``bytes``). One
tool alone (a dict) or any other type is a ``TypeError``."""

Chunk = Union[str, bytes]
# One decode step as its tokens: (text, added), `added` when the vocabulary has the token
# as its own (an added or special token).
Tokens = Iterable[tuple[Chunk, bool]]


def _tools_json(tools: Tools) -> str | None:
    """The JSON text of ``tools``; ``TypeError`` for what is no tools array nor its text."""
    if tools is None:
        return None
    if isinstance(tools, str):
        return tools
    if isinstance(tools, (bytes, bytearray)):
        return bytes(tools).decode("utf-8")
    if isinstance(tools, Mapping) or callable(getattr(tools, "model_dump", None)):
        raise TypeError("tools is a list of tools, not one tool: pass [tool]")
    if not isinstance(tools, Iterable):
        raise TypeError(
            f"tools is a list of OpenAI tools or its JSON text, not {type(tools).__name__}"
        )
    return json.dumps([_plain(t) for t in tools], ensure_ascii=False)


def _plain(item: Any) -> Any:
    dump = getattr(item, "model_dump", None)
    if callable(dump):
        return dump(exclude_none=True)
    return item


def _delta(native: _native._NativeDelta) -> Delta:
    content, reasoning, calls = native
    return Delta(content, reasoning, [ToolCallDelta(*c) for c in calls])


def dialect_for_model(model_id: str) -> str:
    """The dialect to speak with a model, from its id
    (``Qwen/Qwen3-Coder-480B-A35B-Instruct`` → ``qwen3-coder``, ``openai/gpt-oss-120b`` →
    ``harmony``); ids no rule knows get ``xml``."""
    return _native.dialect_for_model(model_id)


def dialect_for_parser(parser: str) -> str | None:
    """The dialect of a server's ``--tool-call-parser`` name (``qwen3_coder`` →
    ``qwen3-coder``), or ``None`` for names inband does not read."""
    return _native.dialect_for_parser(parser)


def dialect_name(name: str) -> str:
    """inband's name for a dialect given by any accepted name; ``ValueError`` if none."""
    return _native.dialect_name(name)


def dialects() -> list[str]:
    """Every dialect's inband name."""
    return _native.dialects()


def uses_special_tokens(dialect: str) -> bool:
    """Whether the dialect's delimiters are special tokens of the model's vocabulary
    (``kimi``, ``deepseek``, ``harmony``): a server must keep special tokens in the text."""
    return _native.uses_special_tokens(dialect)


class Scanner:
    """The events of one response.

    ``feed`` takes the next chunk (``str``, or ``bytes`` split anywhere, even inside a
    code point) and returns the events it completed; ``finish`` ends the response and
    returns the last ones; then ``completion`` is the assembled response, its parameter
    values typed by ``tools``' JSON Schemas. The same input gives the same events (joined)
    whatever the chunking. With ``added_tokens`` (the texts of the vocabulary's added and
    special tokens, e.g. ``tokenizer.get_added_vocab()``) the scanner is in token mode:
    ``feed_tokens`` then takes a decode step's ``(text, added)`` tokens, and a delimiter
    counts only where the model emitted it as its token (docs/dialects.md rule 14).
    """

    def __init__(
        self,
        dialect: str,
        *,
        starts_in_reasoning: bool = False,
        tools: Tools = None,
        added_tokens: Iterable[str] | None = None,
    ) -> None:
        self._native = _native.Scanner(
            dialect,
            starts_in_reasoning=starts_in_reasoning,
            tools_json=_tools_json(tools),
            added_tokens=None if added_tokens is None else list(added_tokens),
        )

    def feed(self, chunk: Chunk) -> list[Event]:
        """Scans ``chunk``; ``ValueError`` after ``finish``."""
        return [Event(**e) for e in self._native.feed(chunk)]

    def feed_tokens(self, tokens: Tokens) -> list[Event]:
        """Scans one decode step given as its ``(text, added)`` tokens (token mode)."""
        return [Event(**e) for e in self._native.feed_tokens(tokens)]

    def finish(self) -> list[Event]:
        """Ends the response; ``ValueError`` when called twice."""
        return [Event(**e) for e in self._native.finish()]

    @property
    def completion(self) -> Completion:
        """The assembled response; ``ValueError`` before ``finish``."""
        return Completion.from_dict(self._native.completion())

    def __reduce__(self) -> Any:
        raise TypeError("a Scanner holds a response in progress and cannot be pickled")


class DeltaStream:
    """One response as OpenAI streaming deltas.

    ``feed`` returns the ``Delta`` the chunk made visible (``delta.to_openai()`` is the
    ``choices[0].delta`` object); ``finish`` returns a ``StreamEnd``: the last delta, the
    ``finish_reason`` and the ``Completion``. A call is announced once (its ``index``,
    ``id`` and ``name`` in its first fragment), indexes count up from 0, and a call's
    argument fragments concatenate to the JSON text its completed arguments were parsed
    from. ``seed`` makes call ids deterministic; ``hold_calls`` holds each call until it
    is complete; ``stop_at_fabricated_result`` ends the response where the model begins
    writing a tool result itself. Memory stays bounded: the response ends at
    ``max_response_bytes`` (``None``: 64 MiB) whatever the chunking; the bytes past it are
    neither streamed nor kept, with a ``response_too_long`` diagnostic. ``added_tokens``
    and ``feed_tokens``: token mode, as for ``Scanner``.
    """

    def __init__(
        self,
        dialect: str,
        *,
        starts_in_reasoning: bool = False,
        tools: Tools = None,
        seed: int | None = None,
        hold_calls: bool = False,
        stop_at_fabricated_result: bool = False,
        max_response_bytes: int | None = None,
        added_tokens: Iterable[str] | None = None,
    ) -> None:
        self._native = _native.DeltaStream(
            dialect,
            starts_in_reasoning=starts_in_reasoning,
            tools_json=_tools_json(tools),
            seed=seed,
            hold_calls=hold_calls,
            stop_at_fabricated_result=stop_at_fabricated_result,
            max_response_bytes=max_response_bytes,
            added_tokens=None if added_tokens is None else list(added_tokens),
        )

    def feed(self, chunk: Chunk) -> Delta:
        """Scans ``chunk``; ``ValueError`` after ``finish``."""
        return _delta(self._native.feed(chunk))

    def feed_tokens(self, tokens: Tokens) -> Delta:
        """Scans one decode step given as its ``(text, added)`` tokens (token mode)."""
        return _delta(self._native.feed_tokens(tokens))

    def finish(self) -> StreamEnd:
        """Ends the response; ``ValueError`` when called twice."""
        delta, reason, completion = self._native.finish()
        return StreamEnd(_delta(delta), reason, Completion.from_dict(completion))

    def __reduce__(self) -> Any:
        raise TypeError("a DeltaStream holds a response in progress and cannot be pickled")


def assemble(
    text: Chunk,
    dialect: str,
    tools: Tools = None,
    *,
    starts_in_reasoning: bool = False,
    seed: int | None = None,
    stop_at_fabricated_result: bool = False,
    max_response_bytes: int | None = None,
) -> Completion:
    """The completion of a whole response (the GIL is released for long inputs); a
    response longer than ``max_response_bytes`` (``None``: 64 MiB) ends there, with a
    ``response_too_long`` diagnostic."""
    return Completion.from_dict(
        _native.assemble(
            text,
            dialect,
            starts_in_reasoning=starts_in_reasoning,
            tools_json=_tools_json(tools),
            seed=seed,
            stop_at_fabricated_result=stop_at_fabricated_result,
            max_response_bytes=max_response_bytes,
        )
    )


def _items_json(items: Iterable[Any]) -> str:
    return json.dumps([_plain(i) for i in items], ensure_ascii=False)


def render_calls(calls: Iterable[Mapping[str, Any]], dialect: str, tools: Tools = None) -> str:
    """One assistant turn's calls (``{"id", "name", "arguments"}`` or OpenAI's
    ``{"id", "function": {"name", "arguments"}}``) as the dialect's text; ``ValueError``
    naming the call and argument when a value cannot be written so it reads back the same."""
    return _native.render_calls(_items_json(calls), dialect, tools_json=_tools_json(tools))


def render_results(results: Iterable[Mapping[str, Any]], dialect: str, tools: Tools = None) -> str:
    """Tool results (``{"tool_call_id", "name", "content", "is_error"}``) as the dialect's
    text."""
    return _native.render_results(_items_json(results), dialect, tools_json=_tools_json(tools))


def render_transcript(
    messages: Iterable[Mapping[str, Any]], dialect: str, tools: Tools = None
) -> str:
    """A conversation (OpenAI chat messages) as the model's chat template text."""
    return _native.render_transcript(_items_json(messages), dialect, tools_json=_tools_json(tools))


def tool_prompt(tools: Tools, dialect: str) -> str:
    """The tool prompt for ``dialect``: a preamble, the tools one compact JSON object per
    line inside ``<tools>…</tools>``, and the dialect's format guide; byte-stable."""
    return _native.tool_prompt(_tools_json(tools) or "[]", dialect)
