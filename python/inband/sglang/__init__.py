"""SGLang adapter: inband as SGLang's tool-call detector and reasoning detector.

SGLang has no plugin hook: ``register()`` adds, for every dialect D (``-`` written ``_``),
``inband_D`` to ``FunctionCallParser.ToolCallParserEnum`` (``--tool-call-parser``) and,
for dialects whose reasoning delimiters are fixed token text, to
``ReasoningParser.DetectorMap`` (``--reasoning-parser``). ``python -m
inband.sglang.launch_server ...`` registers and then runs SGLang's own server.

Streaming feeds each chunk once (no re-parsing of a buffer); ``finish`` flushes what inband
held. One detector object serves one request; it is not thread-safe.
"""

from __future__ import annotations

import json
from typing import Any

from sglang.srt.function_call.base_format_detector import BaseFormatDetector
from sglang.srt.function_call.core_types import StreamingParseResult, ToolCallItem
from sglang.srt.function_call.function_call_parser import FunctionCallParser
from sglang.srt.parser.reasoning_parser import BaseReasoningFormatDetector, ReasoningParser
from sglang.srt.parser.reasoning_parser import StreamingParseResult as ReasoningResult

from .. import Delta, DeltaStream, assemble, dialects
from .._split import REASONING_DELIMITERS, ReasoningSplitter
from .._types import loads

__all__ = ["InbandDetector", "InbandReasoningDetector", "register"]


def _tools(tools: list[Any] | None) -> list[Any] | None:
    return list(tools) if tools else None


class InbandDetector(BaseFormatDetector):  # type: ignore[misc]
    """Tool calls of ``dialect`` through inband, in SGLang's detector interface.

    A call's first item carries its ``tool_index`` (stream order from 0) and name with
    empty ``parameters``; later items carry argument fragments that concatenate to the
    call's arguments' JSON. Text inband reads as reasoning (a ``<think>`` block no
    reasoning parser took) is dropped from the normal text, as SGLang's reasoning parser
    would have removed it. Constrained decoding (structural tags) is not offered.
    """

    dialect = "xml"

    def __init__(self) -> None:
        super().__init__()
        self._stream: DeltaStream | None = None

    def has_tool_call(self, text: str) -> bool:
        c = assemble(text, self.dialect)
        return bool(c.tool_calls or c.incomplete_calls)

    def detect_and_parse(self, text: str, tools: list[Any]) -> StreamingParseResult:
        c = assemble(text, self.dialect, _tools(tools))
        calls = [
            ToolCallItem(
                tool_index=i,
                name=t.name,
                parameters=t.arguments_text,
            )
            for i, t in enumerate(c.tool_calls)
        ]
        return StreamingParseResult(normal_text=c.content, calls=calls)

    def parse_streaming_increment(self, new_text: str, tools: list[Any]) -> StreamingParseResult:
        if self._stream is None:
            self._stream = DeltaStream(self.dialect, tools=_tools(tools))
        return self._result(self._stream.feed(new_text))

    def finish(self, tools: list[Any]) -> StreamingParseResult:
        if self._stream is None:
            return StreamingParseResult()
        stream, self._stream = self._stream, None
        return self._result(stream.finish().delta)

    def _result(self, delta: Delta) -> StreamingParseResult:
        items = []
        for c in delta.tool_calls:
            if c.name is not None:
                self.current_tool_id = c.index
                self.current_tool_name_sent = True
                self.prev_tool_call_arr.append({"name": c.name, "arguments": {}})
                self.streamed_args_for_tool.append("")
                items.append(ToolCallItem(tool_index=c.index, name=c.name, parameters=""))
            if c.arguments:
                streamed = self.streamed_args_for_tool[c.index] + c.arguments
                self.streamed_args_for_tool[c.index] = streamed
                # Parsed only when it can be whole: a JSON object ends with "}".
                if streamed.rstrip().endswith("}"):
                    try:
                        self.prev_tool_call_arr[c.index]["arguments"] = loads(streamed)
                    except json.JSONDecodeError:
                        pass
                items.append(ToolCallItem(tool_index=c.index, name=None, parameters=c.arguments))
        return StreamingParseResult(normal_text=delta.content, calls=items)

    def supports_structural_tag(self) -> bool:
        return False

    def structure_info(self) -> Any:
        def info(name: str) -> Any:
            raise NotImplementedError(
                "inband detectors offer no structural tags (supports_structural_tag is False)"
            )

        return info


class InbandReasoningDetector(BaseReasoningFormatDetector):  # type: ignore[misc]
    """The reasoning block of ``dialect`` through inband; the text after its closer (and
    everything after) is normal text. ``force_reasoning``: the prompt opened the block."""

    dialect = "qwen3"

    def __init__(self, stream_reasoning: bool = True, force_reasoning: bool = False) -> None:
        openers, closers = REASONING_DELIMITERS[self.dialect]
        super().__init__(
            openers[0],
            closers[0],
            force_reasoning=force_reasoning,
            stream_reasoning=stream_reasoning,
        )
        self._splitter = ReasoningSplitter(self.dialect, starts_in_reasoning=force_reasoning)
        self._held = ""

    def detect_and_parse(self, text: str) -> ReasoningResult:
        s = ReasoningSplitter(self.dialect, starts_in_reasoning=self.force_reasoning)
        reasoning = s.feed(text) + s.finish()
        return ReasoningResult(normal_text=s.rest, reasoning_text=reasoning)

    def parse_streaming_increment(self, new_text: str) -> ReasoningResult:
        reasoning = self._splitter.feed(new_text)
        return self._out(reasoning)

    def finish(self) -> ReasoningResult:
        return self._out(self._splitter.finish())

    def _out(self, reasoning: str) -> ReasoningResult:
        if not self.stream_reasoning:
            self._held += reasoning
            reasoning = ""
            if self._splitter.ended is not None:
                reasoning, self._held = self._held, ""
        rest = ""
        if self._splitter.ended is not None:
            rest, self._splitter.rest = self._splitter.rest, ""
        return ReasoningResult(normal_text=rest, reasoning_text=reasoning)


def register() -> None:
    """Adds every inband detector to SGLang's parser tables (idempotent)."""
    for dialect in dialects():
        name = "inband_" + dialect.replace("-", "_")
        cls_name = name.title().replace("_", "")
        FunctionCallParser.ToolCallParserEnum[name] = type(
            cls_name + "Detector", (InbandDetector,), {"dialect": dialect}
        )
        if dialect in REASONING_DELIMITERS:
            ReasoningParser.DetectorMap[name] = type(
                cls_name + "ReasoningDetector", (InbandReasoningDetector,), {"dialect": dialect}
            )


register()
