"""The values the package returns: events, deltas and completions (plain, picklable data)."""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any, NamedTuple


def _number(text: str) -> float | Decimal:
    """A JSON number with a fraction or exponent: a ``float`` when the float's shortest
    form has exactly the written value (``0.1``, ``2.5e3``), else a ``decimal.Decimal`` of
    the written digits (``1e999``, ``0.1000000000000000000001``), so nothing is rounded.
    Integers are Python ``int``s, exact at any size."""
    value = float(text)
    if math.isfinite(value) and Decimal(repr(value)) == Decimal(text):
        return value
    return Decimal(text)


def loads(text: str) -> Any:
    """JSON text as Python values, numbers without rounding (see ``_number``)."""
    return json.loads(text, parse_float=_number)


def dumps(value: Any) -> str:
    """Compact JSON text of values ``loads`` returns (``Decimal`` written as a number)."""
    if isinstance(value, Decimal):
        return str(value)
    if isinstance(value, dict):
        items = (f"{json.dumps(k, ensure_ascii=False)}:{dumps(v)}" for k, v in value.items())
        return "{" + ",".join(items) + "}"
    if isinstance(value, list):
        return "[" + ",".join(dumps(v) for v in value) + "]"
    return json.dumps(value, ensure_ascii=False)


@dataclass(frozen=True)
class Event:
    """One scanner event.

    ``kind`` is one of ``text``, ``reasoning``, ``markup``, ``reasoning_start``,
    ``reasoning_end``, ``tool_start``, ``tool_id``, ``tool_name``, ``tool_args``,
    ``tool_param``, ``tool_value``, ``tool_param_end``, ``tool_end``, ``fabricated_result``,
    ``diagnostic``. ``span`` is ``(start, end)`` in bytes from the start of the stream.
    ``payload`` is the event's bytes (text, reasoning, markup, the id, name, argument JSON
    or value piece) exactly as written; a fragment may end inside a UTF-8 code point when a
    chunk did. The other fields are set for the kinds that have them, as
    ``inband scan --format events`` names them.
    """

    kind: str
    span: tuple[int, int]
    payload: bytes | None = None
    call: int | None = None
    name: str | None = None
    provisional: bool | None = None
    markup: str | None = None
    key: str | None = None
    value_kind: str | None = None
    piece: str | None = None
    end: str | None = None
    code: str | None = None
    message: str | None = None

    @property
    def text(self) -> str:
        """The payload as text (invalid UTF-8 replaced by U+FFFD); empty without one."""
        return (self.payload or b"").decode("utf-8", "replace")


@dataclass(frozen=True)
class ToolCallDelta:
    """One call's fragment of a delta: ``id`` and ``name`` on the call's first fragment
    only; ``arguments`` is the next piece of the arguments' JSON text (may be empty)."""

    index: int
    id: str | None
    name: str | None
    arguments: str
    type: str = "function"

    def to_openai(self) -> dict[str, Any]:
        """The OpenAI ``delta.tool_calls[i]`` object."""
        out: dict[str, Any] = {"index": self.index}
        function: dict[str, Any] = {}
        if self.id is not None:
            out["id"] = self.id
            out["type"] = self.type
        if self.name is not None:
            function["name"] = self.name
        function["arguments"] = self.arguments
        out["function"] = function
        return out


@dataclass(frozen=True)
class Delta:
    """What one fed chunk made visible: new content, new reasoning text, and at most one
    fragment per call, in index order."""

    content: str = ""
    reasoning_content: str = ""
    tool_calls: list[ToolCallDelta] = field(default_factory=list)

    def __bool__(self) -> bool:
        return bool(self.content or self.reasoning_content or self.tool_calls)

    def to_openai(self) -> dict[str, Any]:
        """The OpenAI ``choices[0].delta`` object, without empty fields."""
        out: dict[str, Any] = {}
        if self.content:
            out["content"] = self.content
        if self.reasoning_content:
            out["reasoning_content"] = self.reasoning_content
        if self.tool_calls:
            out["tool_calls"] = [c.to_openai() for c in self.tool_calls]
        return out


@dataclass(frozen=True)
class ToolCall:
    """A complete call; ``arguments`` is the parsed JSON object (integers as ``int``, other
    numbers as ``float`` where that is exact, else ``decimal.Decimal``: never rounded);
    ``arguments_text`` the
    JSON text it was parsed from, exactly as streamed (the concatenation of the call's
    ``ToolCallDelta.arguments``: the model's spacing and number text kept)."""

    id: str
    name: str
    arguments: dict[str, Any]
    arguments_text: str = ""

    @property
    def arguments_json(self) -> str:
        """The arguments as compact JSON text (non-ASCII kept, every number exact)."""
        return dumps(self.arguments)


@dataclass(frozen=True)
class IncompleteCall:
    """A call the response began but did not finish; ``arguments`` is the raw text."""

    id: str
    name: str | None
    arguments: str


@dataclass(frozen=True)
class Diagnostic:
    """Something wrong in the model's output; ``span`` in bytes from stream start."""

    code: str
    message: str
    span: tuple[int, int]


@dataclass(frozen=True)
class Completion:
    """A whole response: content and reasoning trimmed at both ends, complete calls,
    incomplete calls and diagnostics."""

    content: str
    reasoning: str | None
    tool_calls: list[ToolCall]
    incomplete_calls: list[IncompleteCall]
    diagnostics: list[Diagnostic]

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Completion:
        """From the ``summary`` dict of the native module (or ``inband scan``)."""
        return cls(
            content=d["content"],
            reasoning=d["reasoning"],
            tool_calls=[
                ToolCall(c["id"], c["name"], c["arguments"], c.get("arguments_text", ""))
                for c in d["tool_calls"]
            ],
            incomplete_calls=[
                IncompleteCall(c["id"], c["name"], c["arguments"]) for c in d["incomplete_calls"]
            ],
            diagnostics=[
                Diagnostic(x["code"], x["message"], (x["span"][0], x["span"][1]))
                for x in d["diagnostics"]
            ],
        )


class StreamEnd(NamedTuple):
    """What ``DeltaStream.finish`` returns."""

    delta: Delta
    finish_reason: str
    """``tool_calls`` when any call is complete, else ``stop``."""
    completion: Completion
