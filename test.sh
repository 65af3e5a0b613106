#!/usr/bin/env bash
# Every test of the project, in every language, installing first what they need (the
# README's test command; .ci/run calls it too):
#   1. the C toolchain of the C ABI's tests (capi/ci/toolchain.sh: gcc, g++, valgrind,
#      the ASan/UBSan runtimes, by apt-get when missing)
#   2. cargo test --workspace: the Rust crates and the C ABI, whose tests compile and run
#      a C and a C++ program plain, under ASan + UBSan and under valgrind
#   3. python/ci/setup.sh, python/ci/test.sh: the wheel built by maturin and installed
#      into three venvs (the package alone, vllm 0.33.0, sglang 0.5.23; cached under
#      ${INBAND_VENV_DIR:-~/.cache/inband/venvs}, about 15 minutes and 13 GB the first
#      time, seconds after), ruff, mypy, clippy on the binding, the three pytest suites,
#      then serve/ci/test.sh: `inband serve` driven by the real `openai` client (base venv)
# Environment: INBAND_TEST_SKIP_PYTHON=1 runs only steps 1 and 2.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"

echo "== test.sh 1/3: C toolchain"
capi/ci/toolchain.sh
echo "== test.sh 2/3: cargo test --workspace"
cargo test --workspace
if [[ "${INBAND_TEST_SKIP_PYTHON:-0}" == 1 ]]; then
    echo "== test.sh 3/3: Python skipped (INBAND_TEST_SKIP_PYTHON=1)"
    exit 0
fi
echo "== test.sh 3/3: Python package, vLLM and SGLang"
python/ci/setup.sh
python/ci/test.sh
serve/ci/test.sh
