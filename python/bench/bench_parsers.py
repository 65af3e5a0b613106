"""Per-token cost of tool-call parsing inside vLLM's and SGLang's own parser paths: inband's
plugin vs the server's own parser for the same family, side by side in one run.

A long response (content, then N calls with multi-line values) is tokenized with the real
deepseek tokenizer; each decode step's text goes through vLLM's Parser.parse_delta (or
SGLang's FunctionCallParser.parse_stream_chunk), and the whole response is timed, best of
REPEATS. Prints microseconds per token and milliseconds per response.

Usage: python bench_parsers.py vllm|sglang [calls]
"""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any, Callable

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

REPEATS = 5


def hermes(n: int) -> str:
    body = "".join(
        '<tool_call>\n{"name": "write_file", "arguments": {"path": "src/m%d.py", '
        '"content": "def f%d(x):\\n    return x * %d\\n\\n# notes: %s"}}\n</tool_call>\n'
        % (i, i, i, "lorem ipsum " * 20)
        for i in range(n)
    )
    return "I'll write the files now.\n" + body


def qwen3_coder(n: int) -> str:
    body = "".join(
        "<tool_call>\n<function=write_file>\n<parameter=path>\nsrc/m%d.py\n</parameter>\n"
        "<parameter=content>\ndef f%d(x):\n    return x * %d\n\n# notes: %s\n</parameter>\n"
        "</function>\n</tool_call>\n" % (i, i, i, "lorem ipsum " * 20)
        for i in range(n)
    )
    return "I'll write the files now.\n" + body


TOOLS = [
    {
        "type": "function",
        "function": {
            "name": "write_file",
            "parameters": {
                "type": "object",
                "properties": {"path": {"type": "string"}, "content": {"type": "string"}},
            },
        },
    }
]
CASES = [("hermes", hermes), ("qwen3-coder", qwen3_coder)]


def best(run: Callable[[], None]) -> float:
    times = []
    for _ in range(REPEATS):
        t = time.perf_counter()
        run()
        times.append(time.perf_counter() - t)
    return min(times)


def bench_vllm(n: int) -> None:
    from vllm_stream import parser, request, token_deltas, tokenizer

    import inband.vllm  # noqa: F401

    prompt = tokenizer().encode("<｜User｜>go<｜Assistant｜>", add_special_tokens=False)

    own = {"hermes": "hermes", "qwen3-coder": "qwen3_coder"}
    for dialect, make in CASES:
        text = make(n)
        steps = token_deltas(text)
        case = {"tools": TOOLS, "expected": {"tool_calls": []}}
        for label, name in (
            ("inband", "inband_" + dialect.replace("-", "_")),
            ("vllm", own[dialect]),
        ):
            named: list[str] = []

            def run(
                name: str = name, named: list[str] = named, steps: Any = steps, case: Any = case
            ) -> None:
                named.clear()
                p = parser(name, None)
                req = p.adjust_request(request(case))
                last = len(steps) - 1
                for i, (t, ids) in enumerate(steps):
                    m = p.parse_delta(t, ids, req, prompt, finished=i == last)
                    if m is not None:
                        named += [
                            c.function.name for c in m.tool_calls if c.function and c.function.name
                        ]

            report("vllm", dialect, label, best(run), len(steps), len(text), len(named))


def bench_sglang(n: int) -> None:
    from sglang.srt.entrypoints.openai.protocol import Function, Tool
    from sglang.srt.function_call.function_call_parser import FunctionCallParser
    from test_sglang import token_chunks

    import inband.sglang  # noqa: F401

    tools = [Tool(type="function", function=Function(**t["function"])) for t in TOOLS]
    own = {"hermes": "hermes", "qwen3-coder": "qwen3_coder"}
    for dialect, make in CASES:
        text = make(n)
        chunks = token_chunks(text)
        for label, name in (
            ("inband", "inband_" + dialect.replace("-", "_")),
            ("sglang", own[dialect]),
        ):
            named: list[str] = []

            def run(name: str = name, named: list[str] = named, chunks: Any = chunks) -> None:
                named.clear()
                fc = FunctionCallParser(tools=tools, tool_call_parser=name)
                for c in chunks:
                    named += [i.name for i in fc.parse_stream_chunk(c)[1] if i.name]
                named += [i.name for i in fc.parse_stream_end()[1] if i.name]

            report("sglang", dialect, label, best(run), len(chunks), len(text), len(named))


def report(
    server: str, dialect: str, label: str, secs: float, tokens: int, size: int, calls: int
) -> None:
    print(
        f"{server:6} {dialect:12} {label:7} {tokens:6} tokens {size:7} bytes {calls:3} calls "
        f"{secs * 1e6 / tokens:8.2f} us/token {secs * 1e3:9.2f} ms/response"
    )


if __name__ == "__main__":
    which = sys.argv[1]
    calls = int(sys.argv[2]) if len(sys.argv) > 2 else 8
    {"vllm": bench_vllm, "sglang": bench_sglang}[which](calls)
