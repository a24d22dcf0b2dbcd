#!/bin/bash
# every_choice_runs.sh — every value an enumerated or boolean configuration key allows either runs
# or is refused by the configuration check: on every preset and under every mechanism, a tiny
# detailed vecadd with the key set to each of its values must pass its output check (exit 0), or
# exit 2 (bad input) with one stderr line that names a configuration key ("group.name: ..."). A crash, a hang
# (the run is given 60 s) or any other exit fails the test (issue 27, item 2).
# Usage: every_choice_runs.sh PATH/TO/syncscope
set -u
syncscope=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
runs=0
refused=0

systems=$("$syncscope" list systems | awk '{print $1}')
mechanisms=$("$syncscope" list mechanisms | awk '{print $1}')
# key and its allowed values ("a|b|c") for every enum and bool key
choices=$("$syncscope" config keys | awk '$2 == "enum" || $2 == "bool" {print $1, $3}')
[ -n "$systems" ] && [ -n "$mechanisms" ] && [ -n "$choices" ] || { echo "FAIL: cannot list systems, mechanisms or keys"; exit 1; }

while read -r key allowed; do
    for value in ${allowed//|/ }; do
        for system in $systems; do
            for mechanism in $mechanisms; do
                runs=$((runs + 1))
                timeout 60 "$syncscope" run --mode detailed --workload vecadd --size tiny --system "$system" \
                    --mechanism "$mechanism" --set "$key=$value" --db "$work/runs.db" >"$work/out" 2>"$work/err"
                code=$?
                if [ "$code" -eq 0 ]; then
                    continue
                fi
                if [ "$code" -eq 2 ] && [ "$(wc -l <"$work/err")" -eq 1 ] &&
                    grep -qE ': [a-z0-9_]+\.[a-z0-9_./]+: ' "$work/err"; then
                    refused=$((refused + 1))
                    continue
                fi
                echo "FAIL: $system $mechanism $key=$value: exit $code"; head -3 "$work/err"
                failures=$((failures + 1))
            done
        done
    done
done <<<"$choices"

echo "every_choice_runs: $runs runs, $refused refused naming a key, $failures failures"
[ "$failures" -eq 0 ]
