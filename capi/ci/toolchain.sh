#!/usr/bin/env bash
# Installs, with apt-get, whatever is missing of the C toolchain that the C ABI's tests
# (capi/tests/c_programs.rs) use: gcc, g++, valgrind and the AddressSanitizer and
# UndefinedBehaviorSanitizer runtimes. Does nothing when all are there.
set -euo pipefail

missing=()
command -v gcc >/dev/null || missing+=(gcc)
command -v g++ >/dev/null || missing+=(g++)
command -v valgrind >/dev/null || missing+=(valgrind)
# gcc prints the bare name when it cannot find a runtime library.
if command -v gcc >/dev/null; then
    [[ "$(gcc -print-file-name=libasan.so)" == /* ]] || missing+=(libasan8)
    [[ "$(gcc -print-file-name=libubsan.so)" == /* ]] || missing+=(libubsan1)
fi
if [[ ${#missing[@]} -gt 0 ]]; then
    echo "installing: ${missing[*]}"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}"
fi
echo "C toolchain: $(gcc --version | head -1); $(g++ --version | head -1); $(valgrind --version)"
