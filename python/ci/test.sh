#!/usr/bin/env bash
# Runs the Python checks in the venvs python/ci/setup.sh made (run it first):
# ruff and mypy on python/, cargo fmt/clippy on the binding crate, then the pytest suites
# (package, vllm, sglang). A suite that collects no test (pytest's exit 5) fails.
#
# Usage: python/ci/test.sh [base|vllm|sglang ...]   (default: all three)
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
python_dir="$(dirname "$here")"
venvs="${INBAND_VENV_DIR:-$HOME/.cache/inband/venvs}"

targets=("$@")
[[ ${#targets[@]} -eq 0 ]] && targets=(base vllm sglang)

suite() {
    local venv="$1" rc=0
    shift
    local files=("$@")
    echo "== pytest ${files[*]} in venv $venv"
    # From a neutral folder, so that the installed wheel is imported, not python/inband.
    (cd "$venvs" && "$venvs/$venv/bin/python" -m pytest -q -p no:cacheprovider \
        "${files[@]/#/$python_dir/tests/}") || rc=$?
    if [[ $rc -eq 5 ]]; then
        echo "!! ${files[*]} ran no test" >&2
        return 1
    fi
    return "$rc"
}

for t in "${targets[@]}"; do
    case "$t" in
        base)
            echo "== ruff, mypy, cargo fmt, cargo clippy on python/"
            (cd "$python_dir" && "$venvs/base/bin/ruff" check . && "$venvs/base/bin/ruff" format --check .)
            (cd "$python_dir" && "$venvs/base/bin/mypy")
            cargo fmt --manifest-path "$python_dir/Cargo.toml" -- --check
            cargo clippy --manifest-path "$python_dir/Cargo.toml" --all-targets -- -D warnings
            suite base test_package.py test_review.py test_tokens.py
            ;;
        vllm) suite vllm test_vllm.py test_vllm_tokens.py test_tokens_real.py ;;
        sglang) suite sglang test_sglang.py ;;
        *) echo "unknown suite $t (base, vllm, sglang)" >&2; exit 2 ;;
    esac
done
