"""vLLM plugin: inband as vLLM's tool-call and reasoning parsers.

Importing this module (``--tool-parser-plugin inband.vllm``, or the ``vllm.general_plugins``
entry point ``inband``, which vLLM loads at start) registers, for every dialect D (``-``
written ``_``):

- tool parsers ``inband_D`` and ``inband`` (the dialect from the served model's id, read
  from the tokenizer's ``name_or_path``) with ``ToolParserManager``;
- reasoning parsers ``inband_D`` and ``inband`` with ``ReasoningParserManager``, for the
  dialects whose reasoning delimiters are fixed token text (not harmony, not gemini).

Both use vLLM's delta-only path (``engine_based_streaming = True``): each decode step's
``delta_text`` is fed once, never the whole text again, and ``finish_streaming`` flushes
what was held at the end. ``adjust_request`` keeps special tokens in the detokenized text.

Streaming is in token mode (docs/dialects.md rule 14) when the tokenizer has
``get_added_vocab()`` and holds every delimiter of the dialect that is a special token: the
step's ``delta_token_ids`` say which delimiters the model emitted as their tokens, and the
same characters from ordinary tokens (prose quoting ``<tool_call>``) are text. Otherwise
(a tokenizer without the dialect's tokens: a warning is logged once) it is text mode.
``token_mode = False`` on a subclass turns it off. The non-streaming path has only the
text, so it is text mode: the two differ only where ordinary tokens spell a delimiter.
One parser object serves one request (vLLM makes one per request); it is not thread-safe.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from vllm.entrypoints.generate.base.protocol import (
    DeltaFunctionCall,
    DeltaMessage,
    DeltaToolCall,
    ExtractedToolCallInformation,
    FunctionCall,
    ToolCall,
)
from vllm.reasoning import ReasoningParser, ReasoningParserManager
from vllm.tool_parsers import ToolParser, ToolParserManager

from . import Delta, DeltaStream, Vocabulary, assemble, dialect_for_model, dialects
from ._split import REASONING_DELIMITERS, ReasoningSplitter, find_last

__all__ = ["InbandReasoningParser", "InbandToolParser", "register"]

_log = logging.getLogger(__name__)

# One vocabulary per (tokenizer, dialect): vLLM makes a parser per request, the tokenizer
# once. The tokenizer is kept with its entry so that its id is not reused.
_VOCABULARIES: dict[tuple[int, str], tuple[Any, Vocabulary | None]] = {}


def _model_dialect(tokenizer: Any) -> str:
    return dialect_for_model(str(getattr(tokenizer, "name_or_path", "") or ""))


def _keep_special_tokens(request: Any) -> Any:
    # The delimiters of kimi, deepseek and harmony are special tokens: they must stay in the
    # text, unspaced, or the calls are lost.
    if hasattr(request, "skip_special_tokens"):
        request.skip_special_tokens = False
    if hasattr(request, "spaces_between_special_tokens"):
        request.spaces_between_special_tokens = False
    return request


def _vocabulary(tokenizer: Any, dialect: str) -> Vocabulary | None:
    """The dialect's view of the tokenizer's added tokens, or None (text mode) when the
    tokenizer has none or lacks one of the dialect's special tokens."""
    key = (id(tokenizer), dialect)
    entry = _VOCABULARIES.get(key)
    if entry is None:
        try:
            vocab: Vocabulary | None = Vocabulary.from_tokenizer(dialect, tokenizer)
        except (TypeError, ValueError) as e:
            _log.warning("inband: %s: streaming in text mode (%s)", dialect, e)
            vocab = None
        entry = _VOCABULARIES[key] = (tokenizer, vocab)
    return entry[1]


def _decoder(tokenizer: Any) -> Any:
    """The tokenizer's decode of ordinary ids, for placing a multi-token step's added tokens
    (``Vocabulary.tokens``); None without one."""
    decode = getattr(tokenizer, "decode", None)
    if decode is None:
        return None
    return lambda ids: decode(ids, skip_special_tokens=False)


def _tools(request: Any) -> list[Any] | None:
    tools = getattr(request, "tools", None)
    return list(tools) if tools else None


class InbandToolParser(ToolParser):  # type: ignore[misc]
    """Tool calls of one dialect (``dialect``; ``None``: from the model id) through inband.

    Streaming feeds only ``delta_text``; the returned ``DeltaMessage`` carries content, the
    reasoning inband saw (a response's ``<think>`` block when no reasoning parser took it)
    and tool-call fragments: a call's ``index``, ``id``, ``type`` and name on its first
    fragment, then argument fragments that concatenate to its arguments' JSON.
    ``prev_tool_call_arr`` / ``streamed_args_for_tool`` hold each call's name and the
    argument text sent so far, which is always all of it, so vLLM's end-of-stream
    completion of arguments adds nothing.
    """

    dialect: str | None = None
    engine_based_streaming = True
    token_mode = True
    # Calls are read in the dialect's own format, also under tool_choice=required / named:
    # vLLM's JSON-forcing for those would make the model write no call inband can read.
    supports_required_and_named = False

    def __init__(self, tokenizer: Any, tools: list[Any] | None = None) -> None:
        super().__init__(tokenizer, tools)
        self.inband_dialect = self.dialect or _model_dialect(tokenizer)
        self._vocabulary = _vocabulary(tokenizer, self.inband_dialect) if self.token_mode else None
        self._decode = _decoder(tokenizer)
        self._stream: DeltaStream | None = None

    def adjust_request(self, request: Any) -> Any:
        return _keep_special_tokens(super().adjust_request(request))

    def extract_tool_calls(self, model_output: str, request: Any) -> ExtractedToolCallInformation:
        completion = assemble(model_output, self.inband_dialect, _tools(request) or self.tools)
        calls = [
            ToolCall(
                id=c.id,
                type="function",
                # The text streaming sends, so both paths give the same arguments.
                function=FunctionCall(name=c.name, arguments=c.arguments_text),
            )
            for c in completion.tool_calls
        ]
        return ExtractedToolCallInformation(
            tools_called=bool(calls), tool_calls=calls, content=completion.content or None
        )

    def extract_tool_calls_streaming(
        self,
        previous_text: str,
        current_text: str,
        delta_text: str,
        previous_token_ids: Sequence[int],
        current_token_ids: Sequence[int],
        delta_token_ids: Sequence[int],
        request: Any,
    ) -> DeltaMessage | None:
        vocab = self._vocabulary
        if self._stream is None:
            self._stream = DeltaStream(
                self.inband_dialect,
                tools=_tools(request) or self.tools,
                added_tokens=vocab.added_tokens if vocab else None,
            )
        if vocab is None:
            return self._message(self._stream.feed(delta_text))
        steps = vocab.tokens(delta_text, delta_token_ids, self._decode)
        return self._message(self._stream.feed_tokens(steps))

    def finish_streaming(self) -> DeltaMessage | None:
        """Ends the response: what inband held back (a partial delimiter that was text, the
        last fragment of an unclosed call)."""
        if self._stream is None:
            return None
        stream, self._stream = self._stream, None
        return self._message(stream.finish().delta)

    def _message(self, delta: Delta) -> DeltaMessage | None:
        if not delta:
            return None
        calls = []
        for c in delta.tool_calls:
            if c.id is not None:
                self.current_tool_id = c.index
                self.prev_tool_call_arr.append({"name": c.name, "arguments": ""})
                self.streamed_args_for_tool.append("")
            self.prev_tool_call_arr[c.index]["arguments"] += c.arguments
            self.streamed_args_for_tool[c.index] += c.arguments
            self.current_tool_name_sent = True
            calls.append(
                DeltaToolCall(
                    index=c.index,
                    id=c.id,
                    type="function" if c.id is not None else None,
                    function=DeltaFunctionCall(name=c.name, arguments=c.arguments),
                )
            )
        return DeltaMessage(
            content=delta.content or None,
            reasoning=delta.reasoning_content or None,
            tool_calls=calls,
        )


class InbandReasoningParser(ReasoningParser):  # type: ignore[misc]
    """The reasoning block of one dialect (``dialect``; ``None``: from the model id).

    Streaming feeds only ``delta_text`` until the block's closer; then
    ``has_engine_confirmed_reasoning_end`` is true and ``finish_streaming`` hands the raw
    text after the closer to the tool phase. ``is_reasoning_end`` / ``extract_content_ids``
    answer from the tokenizer's ids of the dialect's reasoning closer (and opener): the
    reasoning ended when the last closer comes after the last opener. A prompt that ends
    inside an open block (``<think>\\n`` templates) makes the output start in reasoning.
    """

    dialect: str | None = None
    engine_based_streaming = True
    token_mode = True

    def __init__(self, tokenizer: Any, *args: Any, **kwargs: Any) -> None:
        super().__init__(tokenizer, *args, **kwargs)
        self.inband_dialect = self.dialect or _model_dialect(tokenizer)
        self._vocabulary = _vocabulary(tokenizer, self.inband_dialect) if self.token_mode else None
        self._decode = _decoder(tokenizer)
        openers, closers = REASONING_DELIMITERS.get(self.inband_dialect, ((), ()))
        encode = tokenizer.encode
        self._opener_ids = [encode(o, add_special_tokens=False) for o in openers]
        self._closer_ids = [encode(c, add_special_tokens=False) for c in closers]
        self._starts_in_reasoning = False
        self._splitter: ReasoningSplitter | None = None
        self._handed_on = False

    @property
    def reasoning_start_str(self) -> str | None:
        openers = REASONING_DELIMITERS.get(self.inband_dialect, ((), ()))[0]
        return openers[0] if openers else None

    @property
    def reasoning_end_str(self) -> str | None:
        closers = REASONING_DELIMITERS.get(self.inband_dialect, ((), ()))[1]
        return closers[0] if closers else None

    def _last(self, ids: Sequence[int], needles: list[list[int]]) -> int:
        ids = list(ids)
        return max((find_last(ids, n) for n in needles), default=-1)

    def is_reasoning_end(self, input_ids: Sequence[int]) -> bool:
        closer = self._last(input_ids, self._closer_ids)
        return closer >= 0 and closer > self._last(input_ids, self._opener_ids)

    def is_reasoning_end_streaming(self, input_ids: Sequence[int], delta_ids: Any) -> bool:
        return self.is_reasoning_end(input_ids)

    def extract_content_ids(self, input_ids: list[int]) -> list[int]:
        splitter = self._splitter
        if splitter is not None and splitter.ended == 0:
            # The response began with something else than reasoning: all of it is
            # content (vLLM hands these ids to the tool parser with the text).
            return list(input_ids)
        closer = self._last(input_ids, self._closer_ids)
        return list(input_ids[closer:]) if closer >= 0 else []

    def adjust_initial_state_from_prompt(self, prompt_token_ids: Sequence[int]) -> None:
        opener = self._last(prompt_token_ids, self._opener_ids)
        self._starts_in_reasoning = opener >= 0 and opener > self._last(
            prompt_token_ids, self._closer_ids
        )

    def adjust_request(self, request: Any) -> Any:
        return _keep_special_tokens(request)

    def _split(self) -> ReasoningSplitter:
        if self._splitter is None:
            vocab = self._vocabulary
            self._splitter = ReasoningSplitter(
                self.inband_dialect,
                starts_in_reasoning=self._starts_in_reasoning,
                added_tokens=vocab.added_tokens if vocab else None,
            )
        return self._splitter

    def extract_reasoning(self, model_output: str, request: Any) -> tuple[str | None, str | None]:
        splitter = ReasoningSplitter(
            self.inband_dialect, starts_in_reasoning=self._starts_in_reasoning
        )
        reasoning = splitter.feed(model_output) + splitter.finish()
        opened = splitter.ended != 0
        return (reasoning if opened else None), (splitter.rest or None)

    def extract_reasoning_streaming(
        self,
        previous_text: str,
        current_text: str,
        delta_text: str,
        previous_token_ids: Sequence[int],
        current_token_ids: Sequence[int],
        delta_token_ids: Sequence[int],
    ) -> DeltaMessage | None:
        splitter, vocab = self._split(), self._vocabulary
        if vocab is None:
            reasoning = splitter.feed(delta_text)
        else:
            steps = vocab.tokens(delta_text, delta_token_ids, self._decode)
            reasoning = splitter.feed_tokens(steps)
        return DeltaMessage(reasoning=reasoning) if reasoning else None

    def has_engine_confirmed_reasoning_end(self) -> bool:
        return self._splitter is not None and self._splitter.ended is not None

    def finish_streaming(self) -> DeltaMessage | None:
        """After the closer: the text after it (once), for the tool phase. At the end of a
        response still in reasoning: the rest of the reasoning, or the whitespace-only
        response as content."""
        splitter = self._split()
        if splitter.ended is None:
            reasoning = splitter.finish()
            if splitter.ended is None:
                return DeltaMessage(reasoning=reasoning) if reasoning else None
        if self._handed_on:
            return None
        self._handed_on = True
        return DeltaMessage(content=splitter.rest) if splitter.rest else None


def _parser_name(dialect: str) -> str:
    return "inband_" + dialect.replace("-", "_")


def register() -> None:
    """Registers every inband parser with vLLM (idempotent); the entry point vLLM calls."""
    for dialect in dialects():
        name = _parser_name(dialect)
        cls_name = name.title().replace("_", "")
        tool = type(cls_name + "ToolParser", (InbandToolParser,), {"dialect": dialect})
        ToolParserManager.register_module(name=name, module=tool)
        if dialect in REASONING_DELIMITERS:
            reasoning = type(
                cls_name + "ReasoningParser", (InbandReasoningParser,), {"dialect": dialect}
            )
            ReasoningParserManager.register_module(name=name, module=reasoning)
    ToolParserManager.register_module(name="inband", module=InbandToolParser)
    ReasoningParserManager.register_module(name="inband", module=InbandReasoningParser)


register()
