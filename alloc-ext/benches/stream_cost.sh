#!/usr/bin/env bash
# Instructions per input byte of the scanner alone and of the server's decode loop
# (examples/stream_cost.rs), under callgrind, the input's generation subtracted.
# Usage: alloc-ext/benches/stream_cost.sh INPUT CHUNK DIALECT...   (needs valgrind)
# e.g.   alloc-ext/benches/stream_cost.sh prose 4 hermes harmony gemma
set -euo pipefail
input=$1 chunk=$2
shift 2
cargo build -q --release -p inband-alloc --example stream_cost
bin="${CARGO_TARGET_DIR:-target}/release/examples/stream_cost"
out=$(mktemp -d)
count() {
    valgrind --tool=callgrind --callgrind-out-file="$out/cg" "$bin" "$@" >"$out/stdout" 2>/dev/null
    callgrind_annotate "$out/cg" | awk '/PROGRAM TOTALS/ { gsub(",", "", $1); print $1 }'
}
echo "| dialect | input | chunk | core instr/B | delta instr/B | delta / core |"
echo "|---|---|---|---|---|---|"
for dialect in "$@"; do
    gen=$(count "$dialect" "$input" "$chunk" gen)
    core=$(count "$dialect" "$input" "$chunk" core)
    delta=$(count "$dialect" "$input" "$chunk" delta)
    len=$(cut -d' ' -f1 "$out/stdout")
    awk -v d="$dialect" -v i="$input" -v c="$chunk" -v g="$gen" -v k="$core" -v s="$delta" -v n="$len" \
        'BEGIN { printf "| %s | %s | %s | %.1f | %.1f | %.2f× |\n", d, i, c, (k-g)/n, (s-g)/n, (s-g)/(k-g) }'
done
rm -rf "$out"
