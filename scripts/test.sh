#!/usr/bin/env bash
# test.sh — README command 2: installs what is missing, builds, and runs the whole test suite
# (cmocka unit tests and integration scripts under ctest). With --sanitize it builds and runs the
# suite again under AddressSanitizer and UndefinedBehaviorSanitizer in build-sanitize/, and runs
# the libFuzzer harnesses (PTX parser, workload manifests) for a bounded time each.
set -euo pipefail
cd "$(dirname "$0")/.."
SYNCSCOPE_TEST_DEPS=1 scripts/install-deps.sh
scripts/build.sh build
(cd build && ctest --output-on-failure -j"$(nproc)")
if [ "${1:-}" = "--sanitize" ]; then
  scripts/build.sh build-sanitize -DSYNCSCOPE_SANITIZE=ON -DCMAKE_BUILD_TYPE=Debug
  (cd build-sanitize && ASAN_OPTIONS=detect_leaks=1 ctest --output-on-failure -j"$(nproc)")
  tests/fuzz/run.sh "${SYNCSCOPE_FUZZ_SECONDS:-60}"
fi
