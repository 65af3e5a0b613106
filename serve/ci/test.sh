#!/usr/bin/env bash
# The `inband serve` suite with the real `openai` client (serve/tests/test_openai_client.py):
# builds the `inband` binary, then runs pytest in the base venv python/ci/setup.sh made
# (it installs the pinned `openai`). INBAND_SERVE_PYTHON overrides the interpreter.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
venvs="${INBAND_VENV_DIR:-$HOME/.cache/inband/venvs}"
python="${INBAND_SERVE_PYTHON:-$venvs/base/bin/python}"

cargo build -q -p inband-cli --manifest-path "$root/Cargo.toml"
target="$(cargo metadata --format-version 1 --no-deps --manifest-path "$root/Cargo.toml" \
    | "$python" -c 'import json, sys; print(json.load(sys.stdin)["target_directory"])')"
export INBAND_BIN="$target/debug/inband"
echo "== pytest serve/tests/test_openai_client.py ($INBAND_BIN)"
rc=0
(cd "$root/serve/tests" && "$python" -m pytest -q -p no:cacheprovider test_openai_client.py) || rc=$?
if [[ $rc -eq 5 ]]; then
    echo "!! serve/tests/test_openai_client.py ran no test" >&2
    exit 1
fi
exit "$rc"
