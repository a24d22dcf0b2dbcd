#!/usr/bin/env bash
# run.sh — builds the libFuzzer harnesses with clang (ASan+UBSan) into build-fuzz/ and runs each
# for a bounded time ($1 seconds, default 60) from its committed corpus. Any crash, leak or
# sanitizer report fails the run and prints the harness's whole log (the report and the
# reproducer libFuzzer writes into build-fuzz/); a clean run prints its last three lines.
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
  log="$work.log"
  if ! (cd build-fuzz && "./$name" -max_total_time="$seconds" -print_final_stats=1 "$work" >"$log" 2>&1); then
    cat "$log"
    echo "fuzzing: $name failed"
    exit 1
  fi
  tail -n 3 "$log"
  rm -rf "$work" "$log"
done
echo "fuzzing: no crash found"
