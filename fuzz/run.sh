#!/usr/bin/env bash
# Runs the `chunking` fuzz target on the stable toolchain for SECONDS (default 60).
#
#   fuzz/run.sh [SECONDS]
#
# Installs cargo-fuzz (pinned, --locked) when it is missing or another version. The build
# has debug assertions on and no sanitizer, so it needs no nightly flag: every flag
# cargo-fuzz passes is then a stable `-C`/`--cfg` one. FUZZ_SANITIZER=address turns
# AddressSanitizer on, which needs `-Zsanitizer`; this script then sets RUSTC_BOOTSTRAP=1
# so that the stable compiler accepts it. The inputs in regressions/chunking/ are replayed
# first (as a read-only corpus); the fuzzer's own corpus (corpus/chunking/) and crashes
# (artifacts/chunking/) are gitignored. Exits non-zero on a crash or a failed assertion.
set -euo pipefail

duration="${1:-60}"
target="chunking"
cargo_fuzz_version="0.13.2"
sanitizer="${FUZZ_SANITIZER:-none}"

if ! [[ "$duration" =~ ^[0-9]+$ ]]; then
    echo "usage: fuzz/run.sh [SECONDS]" >&2
    exit 2
fi

cd "$(dirname "$0")"

if ! cargo fuzz --version 2>/dev/null | grep -qF "$cargo_fuzz_version"; then
    echo "fuzz/run.sh: installing cargo-fuzz $cargo_fuzz_version"
    cargo install cargo-fuzz --version "$cargo_fuzz_version" --locked
fi

if [[ "$sanitizer" != none ]]; then
    export RUSTC_BOOTSTRAP=1
fi

mkdir -p "corpus/$target"
corpora=("corpus/$target")
if [[ -d "regressions/$target" ]]; then
    corpora+=("regressions/$target")
fi

exec cargo fuzz run --sanitizer "$sanitizer" --debug-assertions "$target" "${corpora[@]}" -- \
    -dict="$target.dict" -max_total_time="$duration" -timeout=10 -print_final_stats=1
