"""The repository's corpus of real model outputs (tests/data/corpus), shared by the suites."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

CORPUS = Path(__file__).resolve().parents[2] / "tests" / "data" / "corpus"


def cases() -> list[dict[str, Any]]:
    """Every corpus case, in file order; at least one, or the corpus moved."""
    found = [json.loads(p.read_text(encoding="utf-8")) for p in sorted(CORPUS.glob("*.json"))]
    assert found, f"no corpus cases under {CORPUS}"
    return found


def same_json(a: Any, b: Any) -> bool:
    """JSON values equal as the corpus compares them: numbers by value, key order ignored."""
    if isinstance(a, bool) or isinstance(b, bool):
        return a is b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return math.isclose(a, b, rel_tol=0, abs_tol=0) or a == b
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same_json(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same_json(x, y) for x, y in zip(a, b))
    return type(a) is type(b) and a == b
