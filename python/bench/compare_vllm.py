"""Runs vLLM 0.33.0's own tool parser for each corpus case's family through the same path
as the inband tests (tests/vllm_stream.py: real tokenizer, token by token, ParserManager)
and prints, per case, how its result differs from the corpus's expected result.

Usage (vllm venv of python/ci/setup.sh): python python/bench/compare_vllm.py"""

import json
import sys
import traceback
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
import inband.vllm  # noqa
from corpus import cases, same_json
from vllm_stream import run, token_deltas, parsed_calls

OWN = {
    "hermes": "hermes",
    "qwen3-coder": "qwen3_coder",
    "deepseek": "deepseek_v31",
    "kimi": "kimi_k2",
    "glm": "glm47",
    "minimax": "minimax_m2",
    "gemma": "gemma4",
    "harmony": "openai",
}
for case in cases():
    own = {
        "009-deepseek-v3-whole-call-in-one-delta": "deepseek_v3",
        "012-deepseek-dsml-two-chunks-empty-and-typed": "deepseek_v32",
    }.get(case["id"]) or OWN.get(case["dialect"])
    if own is None:
        print(case["id"], "| no vLLM parser")
        continue
    try:
        out = run(case, token_deltas(case["input"]), own, None)
    except Exception as e:
        tb = traceback.extract_tb(e.__traceback__)[-1]
        print(case["id"], own, "| ERROR", type(e).__name__, str(e)[:150], tb.lineno, tb.line)
        continue
    want = case["expected"]
    diffs = []
    if out["content"].strip() != want["content"]:
        diffs.append("content=" + json.dumps(out["content"].strip()[:80]))
    got = parsed_calls(out)
    names = [n for n, _ in got]
    wnames = [c["name"] for c in want["tool_calls"]]
    if names != wnames:
        diffs.append(f"calls={names} want {wnames}")
    else:
        for (n, a), c in zip(got, want["tool_calls"]):
            if not same_json(a, c["arguments"]):
                diffs.append(
                    f"args {n}={json.dumps(a)[:100]} want {json.dumps(c['arguments'])[:100]}"
                )
    print(case["id"], own, "|", "; ".join(diffs) or "same")
