#!/usr/bin/env bash
# run.sh — builds the libFuzzer harnesses with clang (ASan+UBSan) into build-fuzz/ and runs each
# for a bounded time ($1 seconds, default 60) from its committed corpus. Any crash, leak or
# sanitizer report fails the run; libFuzzer writes the reproducer into build-fuzz/.
set -euo pipefail
cd "$(dirname "$0")/../.."
seconds=${1:-60}
CC=clang cmake -S . -B build-fuzz -DSYNCSCOPE_FUZZ=ON -DSYNCSCOPE_SANITIZE=ON -DSYNCSCOPE_TESTS=OFF \
  -DCMAKE_BUILD_TYPE=Debug >/dev/null
cmake --build build-fuzz -j"$(nproc)" >/dev/null
for harness in build-fuzz/fuzz_*; do
  name=$(basename "$harness")
  corpus=tests/fuzz/corpus_${name#fuzz_}
  work=$(mktemp -d)
  [ -d "$corpus" ] && cp -r "$corpus"/. "$work"/
  echo "fuzzing $name for ${seconds}s"
  (cd build-fuzz && "./$name" -max_total_time="$seconds" -print_final_stats=1 "$work" 2>&1 | tail -n 3)
  rm -rf "$work"
done
echo "fuzzing: no crash found"
