"""``python -m inband.sglang.launch_server [SGLang's launch_server arguments]``: registers
the inband detectors, then runs SGLang's own ``sglang.launch_server`` with the same
arguments, e.g. ``--tool-call-parser inband_qwen3_coder --reasoning-parser inband_qwen3``."""

from __future__ import annotations

import runpy
import sys

from . import register


def main() -> None:
    """Registers, then hands the command line to ``sglang.launch_server``."""
    register()
    sys.argv[0] = "sglang.launch_server"
    runpy.run_module("sglang.launch_server", run_name="__main__", alter_sys=True)


if __name__ == "__main__":
    main()
