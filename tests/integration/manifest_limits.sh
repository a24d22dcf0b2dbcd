#!/bin/bash
# manifest_limits.sh — user manifests that would run for years or mean something else than they
# say are refused before anything runs, in one line naming the manifest and the key, exit 1, no
# run stored: a grid x block above the thread limit, loops whose nested max_iterations exceed the
# iteration limit (both raised by "limits"), an integer argument that is not whole or does not
# fit its .u32/.u64 parameter, an "expected" (or "init") file of the wrong size, duplicate keys
# (in manifests, configuration files and sweep specifications).
# Usage: manifest_limits.sh PATH/TO/syncscope
set -u
syncscope=$1
fresh=$(cd "$(dirname "$0")/../data/manifests/fresh" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
source "$(dirname "$0")/lib/cli_checks.sh"
cp "$fresh"/fresh.ptx "$fresh"/max_in.bin "$fresh"/max_expected.bin "$work/"

# manifest NAME LAUNCHES [EXTRA]: a cas_max manifest with these launches (and extra top-level keys).
manifest() {
    cat >"$work/$1.json" <<JSON
{"name": "limits", "ptx": "fresh.ptx",
 "buffers": {"in": {"type": "f32", "count": 3000, "init": {"file": "max_in.bin"}},
             "result": {"type": "f32", "count": 1, "init": -1e30}, "flag": {"type": "u32", "count": 1}},
 "launches": $2,
 "outputs": ["result"], "expected": {"result": {"file": "${4:-max_expected.bin}"}}${3:-}}
JSON
}
refused() { # refused NAME TEXT: the manifest fails with one line containing TEXT and stores nothing
    expect 1 "$1" timeout 60 "$syncscope" run --workload-file "$work/$1.json" --mode functional --db "$work/runs.sqlite"
    expect_error_line "$work/$1.json: $2"
}

manifest good '[{"kernel": "cas_max", "grid": [12, 1, 1], "block": [256, 1, 1], "args": ["in", "result", 3000]}]'
expect 0 "the good manifest" "$syncscope" run --workload-file "$work/good.json" --mode functional --db "$work/runs.sqlite"

manifest huge_grid '[{"kernel": "cas_max", "grid": [65536, 65536, 65536], "block": [256, 1, 1], "args": ["in", "result", 3000]}]'
refused huge_grid 'launches[0]: grid x block is 72057594037927936 threads, more than the limit of 67108864 per launch (raise "limits": {"threads": N} if it is meant)'
manifest loops '[{"repeat_until_zero": "flag", "max_iterations": 1000, "launches": [{"repeat_until_zero": "flag",
  "max_iterations": 1000000000000, "launches": [{"kernel": "cas_max", "grid": 12, "block": 256, "args": ["in", "result", 3000]}]}]}]'
refused loops 'launches[0].launches[0].max_iterations: 1000000000000000 iterations (with the loops around it) exceed the limit of 1000000'
manifest raised '[{"repeat_until_zero": "flag", "max_iterations": 2000000, "launches": [{"kernel": "cas_max", "grid": 12, "block": 256, "args": ["in", "result", 3000]}]}]' ', "limits": {"iterations": 2000000}'
expect 0 "a raised iteration limit" "$syncscope" run --workload-file "$work/raised.json" --mode functional
manifest bad_limit '[{"kernel": "cas_max", "grid": 12, "block": 256, "args": ["in", "result", 3000]}]' ', "limits": {"thread": 5}'
refused bad_limit 'limits.thread: unknown limit (threads, iterations)'

for value in -1 10.5 1099511627776; do
    manifest "u32_$value" "[{\"kernel\": \"cas_max\", \"grid\": 12, \"block\": 256, \"args\": [\"in\", \"result\", $value]}]"
    refused "u32_$value" "launches[0].args[2]: $value is "
    grep -qF ".u32 parameter 2 of cas_max" "$work/err" || fail "u32 $value: the message does not name the parameter"
    manifest "explicit_$value" "[{\"kernel\": \"cas_max\", \"grid\": 12, \"block\": 256, \"args\": [\"in\", \"result\", {\"u32\": $value}]}]"
    refused "explicit_$value" "launches[0].args[2]: $value is "
done

head -c 2 "$fresh/max_expected.bin" >"$work/short.bin"
manifest short '[{"kernel": "cas_max", "grid": 12, "block": 256, "args": ["in", "result", 3000]}]' "" short.bin
refused short "expected.result: file $work/short.bin holds 2 bytes, the buffer needs 4"

manifest duplicate '[{"kernel": "cas_max", "grid": 12, "block": 256, "args": ["in", "result", 3000]}]' ', "name": "again"'
refused duplicate 'name: duplicate key'

[ "$(sql "$work/runs.sqlite" 'SELECT count(*) AS n FROM runs' | tail -1)" = 1 ] || fail "a refused manifest stored a run"

# Duplicate keys in a configuration file and a sweep specification.
printf '{"l1": {"size": 16384, "size": 32768}}\n' >"$work/config.json"
expect 2 "duplicate configuration key" "$syncscope" run --workload vecadd --size tiny --config "$work/config.json"
expect_error_line "config: $work/config.json: l1.size: duplicate key (each key may be given once)"
printf '{"name": "d", "system": "gtx480", "mechanisms": ["wt"], "workloads": ["vecadd"], "size": "tiny",
 "parameters": {"l1.size": {"values": [16384]}}, "design": "grid", "design": "oat"}\n' >"$work/sweep.json"
expect 2 "duplicate sweep key" "$syncscope" sweep "$work/sweep.json" --db "$work/sweep.sqlite"
expect_error_line "$work/sweep.json: design: duplicate key (each key may be given once)"

[ "$failures" -eq 0 ] && echo "manifest_limits: all checks passed"
exit "$((failures > 0))"
