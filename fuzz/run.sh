#!/usr/bin/env bash
# Runs each fuzz target (`chunking`, `arguments`, then `tokens`) on the stable toolchain for SECONDS
# (default 60) each.
#
#   fuzz/run.sh [SECONDS]
#   FUZZ_TARGETS="arguments" fuzz/run.sh 300     # one target only
#
# Installs cargo-fuzz (pinned, --locked) when it is missing or another version. The build
# has debug assertions on and no sanitizer, so it needs no nightly flag: every flag
# cargo-fuzz passes is then a stable `-C`/`--cfg` one. FUZZ_SANITIZER=address turns
# AddressSanitizer on, which needs `-Zsanitizer`; this script then sets RUSTC_BOOTSTRAP=1
# so that the stable compiler accepts it. The inputs in regressions/TARGET/ are replayed
# first (as a read-only corpus); the fuzzer's own corpus (corpus/TARGET/) and crashes
# (artifacts/TARGET/) are gitignored. Every target uses chunking.dict. Exits non-zero on the
# first crash or failed assertion.
set -euo pipefail

duration="${1:-60}"
targets="${FUZZ_TARGETS:-chunking arguments tokens}"
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

for target in $targets; do
    mkdir -p "corpus/$target"
    corpora=("corpus/$target")
    if [[ -d "regressions/$target" ]]; then
        corpora+=("regressions/$target")
    fi
    cargo fuzz run --sanitizer "$sanitizer" --debug-assertions "$target" "${corpora[@]}" -- \
        -dict=chunking.dict -max_total_time="$duration" -timeout=10 -print_final_stats=1
done
