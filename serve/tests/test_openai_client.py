"""`inband serve` driven by the real `openai` client, against `inband stub` replaying the
recordings in serve/tests/data. Both run as processes on 127.0.0.1 ephemeral ports.

The binary is $INBAND_BIN (serve/ci/test.sh builds it)."""

from __future__ import annotations

import json
import os
import subprocess
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import openai
import pytest

DATA = Path(__file__).parent / "data"
TOOLS: list[Any] = [
    {
        "type": "function",
        "function": {
            "name": "get_weather",
            "description": "Current weather",
            "parameters": {
                "type": "object",
                "properties": {"city": {"type": "string"}, "days": {"type": "integer"}},
                "required": ["city"],
            },
        },
    }
]
ASK: list[Any] = [{"role": "user", "content": "Weather in Paris and Porto?"}]


def start(args: list[str]) -> tuple[subprocess.Popen[str], str]:
    proc = subprocess.Popen(
        [os.environ["INBAND_BIN"], *args], stdout=subprocess.PIPE, text=True
    )
    assert proc.stdout is not None
    line = proc.stdout.readline()
    assert "listening on " in line, line
    return proc, line.split("listening on ")[1].strip()


class Rig:
    def __init__(self, stub_url: str, proxy_url: str) -> None:
        self.stub_url = stub_url
        self.client = openai.OpenAI(
            base_url=proxy_url, api_key="unused", max_retries=0, timeout=10
        )

    def log(self) -> dict[str, Any]:
        with urllib.request.urlopen(
            self.stub_url.removesuffix("/v1") + "/stub/log"
        ) as r:
            return json.load(r)

    def log_when(self, key: str, value: int) -> dict[str, Any]:
        for _ in range(200):
            log = self.log()
            if log[key] == value:
                return log
            time.sleep(0.025)
        return self.log()


@pytest.fixture
def rig(tmp_path: Path) -> Iterator[Rig]:
    model_map = tmp_path / "map.json"
    model_map.write_text(
        json.dumps({"stub/fabricated": "hermes", "stub/slow": "hermes"})
    )
    stub, stub_url = start(["stub", str(DATA), "--listen", "127.0.0.1:0"])
    proxy, proxy_url = start(
        [
            "serve",
            "--upstream",
            stub_url,
            "--listen",
            "127.0.0.1:0",
            "--model-map",
            str(model_map),
            "--timeout-ms",
            "1500",
        ]
    )
    try:
        yield Rig(stub_url, proxy_url)
    finally:
        for p in (proxy, stub):
            p.terminate()
            p.wait(timeout=10)


def joined(stream: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"content": "", "reasoning": "", "calls": {}, "finish": None}
    for chunk in stream:
        if not chunk.choices:
            continue
        choice = chunk.choices[0]
        delta = choice.delta
        out["content"] += delta.content or ""
        out["reasoning"] += getattr(delta, "reasoning_content", None) or ""
        for call in delta.tool_calls or []:
            entry = out["calls"].setdefault(
                call.index, {"id": "", "name": "", "arguments": ""}
            )
            entry["id"] += call.id or ""
            if call.function is not None:
                entry["name"] += call.function.name or ""
                entry["arguments"] += call.function.arguments or ""
        if choice.finish_reason:
            out["finish"] = choice.finish_reason
    return out


def test_non_streaming_parallel_calls(rig: Rig) -> None:
    r = rig.client.chat.completions.create(
        model="Qwen/Qwen3-8B", messages=ASK, tools=TOOLS
    )
    choice = r.choices[0]
    assert choice.finish_reason == "tool_calls"
    assert choice.message.content == "Checking both cities."
    assert choice.message.reasoning_content == (
        "The user wants the weather in two cities; one call each."
    )
    calls = choice.message.tool_calls or []
    assert [(c.function.name, json.loads(c.function.arguments)) for c in calls] == [  # type: ignore[union-attr]
        ("get_weather", {"city": "Paris"}),
        ("get_weather", {"city": "Porto", "days": 2}),
    ]
    assert len({c.id for c in calls}) == 2
    sent = rig.log()["requests"][0]
    assert "tools" not in sent and "tool_choice" not in sent
    assert sent["messages"][0]["role"] == "system"
    assert "get_weather" in sent["messages"][0]["content"]


@pytest.mark.parametrize(
    ("model", "reasoning", "calls"),
    [
        (
            "openai/gpt-oss-20b",
            "User wants the current weather; call the tool.",
            [("get_weather", {"city": "Paris"})],
        ),
        (
            "Qwen/Qwen3-8B",
            "The user wants the weather in two cities; one call each.",
            [
                ("get_weather", {"city": "Paris"}),
                ("get_weather", {"city": "Porto", "days": 2}),
            ],
        ),
    ],
)
def test_streaming_reasoning_and_calls(
    rig: Rig, model: str, reasoning: str, calls: list[Any]
) -> None:
    stream = rig.client.chat.completions.create(
        model=model, messages=ASK, tools=TOOLS, stream=True
    )
    turn = joined(stream)
    assert turn["reasoning"] == reasoning
    got = [
        (c["name"], json.loads(c["arguments"]))
        for _, c in sorted(turn["calls"].items())
    ]
    assert got == calls
    assert all(c["id"].startswith("call_") for c in turn["calls"].values())
    assert turn["finish"] == "tool_calls"


def test_kimi_streaming(rig: Rig) -> None:
    tools: list[Any] = [
        {"type": "function", "function": {"name": "write_file"}},
        {"type": "function", "function": {"name": "list_dir"}},
    ]
    turn = joined(
        rig.client.chat.completions.create(
            model="moonshotai/Kimi-K2-Instruct", messages=ASK, tools=tools, stream=True
        )
    )
    assert turn["content"] == "I'll write the summary file and then list the folder."
    assert [c["name"] for _, c in sorted(turn["calls"].items())] == [
        "write_file",
        "list_dir",
    ]
    assert json.loads(turn["calls"][1]["arguments"]) == {"path": "."}


def test_second_turn_with_tool_results(rig: Rig) -> None:
    messages: list[Any] = [
        *ASK,
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {
                    "id": "call_1",
                    "type": "function",
                    "function": {
                        "name": "get_weather",
                        "arguments": '{"city": "Paris"}',
                    },
                }
            ],
        },
        {"role": "tool", "tool_call_id": "call_1", "content": "sunny, 21 C"},
    ]
    r = rig.client.chat.completions.create(
        model="Qwen/Qwen3-8B", messages=messages, tools=TOOLS
    )
    assert r.choices[0].message.content == "Paris: sunny, 21 °C. Porto: cloudy, 17 °C."
    assert r.choices[0].message.tool_calls is None
    assert r.choices[0].finish_reason == "stop"
    sent = rig.log()["requests"][0]["messages"]
    assert [m["role"] for m in sent] == ["system", "user", "assistant", "user"]
    assert "<tool_call>" in sent[2]["content"] and "sunny, 21 C" in sent[3]["content"]


def test_tool_choice_none(rig: Rig) -> None:
    r = rig.client.chat.completions.create(
        model="Qwen/Qwen3-8B", messages=ASK, tools=TOOLS, tool_choice="none"
    )
    assert r.choices[0].message.tool_calls is None
    assert r.choices[0].message.content == "Checking both cities."
    assert r.choices[0].finish_reason == "stop"


def test_parallel_tool_calls_false(rig: Rig) -> None:
    turn = joined(
        rig.client.chat.completions.create(
            model="Qwen/Qwen3-8B",
            messages=ASK,
            tools=TOOLS,
            stream=True,
            parallel_tool_calls=False,
        )
    )
    assert [json.loads(c["arguments"]) for c in turn["calls"].values()] == [
        {"city": "Paris"}
    ]
    assert turn["finish"] == "tool_calls"


def test_fabricated_result_cancels_upstream(rig: Rig) -> None:
    turn = joined(
        rig.client.chat.completions.create(
            model="stub/fabricated", messages=ASK, tools=TOOLS, stream=True
        )
    )
    assert [c["name"] for c in turn["calls"].values()] == ["get_weather"]
    assert turn["content"] == ""
    log = rig.log_when("cancelled", 1)
    assert (log["cancelled"], log["completed"]) == (1, 0)


def test_cancel_mid_stream(rig: Rig) -> None:
    stream = rig.client.chat.completions.create(
        model="stub/slow", messages=ASK, tools=TOOLS, stream=True
    )
    text = ""
    for chunk in stream:
        text += chunk.choices[0].delta.content or ""
        if len(text) >= 12:
            break
    stream.close()
    assert text.startswith("Counting")
    log = rig.log_when("cancelled", 1)
    assert (log["cancelled"], log["completed"]) == (1, 0)


def test_upstream_failures(rig: Rig) -> None:
    with pytest.raises(openai.InternalServerError) as e500:
        rig.client.chat.completions.create(
            model="stub/error-500", messages=ASK, tools=TOOLS
        )
    assert e500.value.status_code == 500
    assert "stub: scripted failure" in e500.value.message
    with pytest.raises(openai.APIStatusError) as timeout:
        rig.client.chat.completions.create(
            model="stub/hang", messages=ASK, tools=TOOLS, stream=True
        )
    assert timeout.value.status_code == 504
    with pytest.raises(openai.APIError) as bad:
        joined(
            rig.client.chat.completions.create(
                model="stub/bad-json", messages=ASK, tools=TOOLS, stream=True
            )
        )
    assert "not JSON" in bad.value.message


def test_bad_requests(rig: Rig) -> None:
    with pytest.raises(openai.BadRequestError) as e:
        rig.client.chat.completions.create(
            model="Qwen/Qwen3-8B", messages=[], tools=TOOLS
        )
    assert e.value.status_code == 400
    assert isinstance(e.value.body, dict) and e.value.body["param"] == "messages"
    with pytest.raises(openai.BadRequestError) as e:
        rig.client.chat.completions.create(
            model="Qwen/Qwen3-8B",
            messages=ASK,
            tools=TOOLS,
            tool_choice={"type": "function", "function": {"name": "missing"}},
        )
    assert isinstance(e.value.body, dict) and e.value.body["param"] == "tool_choice"


def test_models_and_passthrough(rig: Rig) -> None:
    ids = [m.id for m in rig.client.models.list()]
    assert "Qwen/Qwen3-8B" in ids and "openai/gpt-oss-20b" in ids
    r = rig.client.chat.completions.create(
        model="moonshotai/Kimi-K2-Instruct", messages=ASK
    )
    assert (r.choices[0].message.content or "").endswith("<|tool_calls_section_end|>")
