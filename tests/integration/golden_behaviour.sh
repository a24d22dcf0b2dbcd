#!/usr/bin/env bash
# golden_behaviour.sh — the detailed model and the analytical models behave exactly as recorded in
# tests/golden/behaviour.golden: every mechanism x workload x preset at tiny size (cycles,
# metrics, stall rows), jittered runs, model calibrations and predictions, litmus and tester
# outcomes. Restructurings must keep this bit-identical; a commit that changes behaviour on
# purpose re-records the file (tests/golden/record.sh) and says why.
#
# usage: golden_behaviour.sh PATH/TO/syncscope
set -uo pipefail
syncscope=${1:?usage: golden_behaviour.sh PATH/TO/syncscope}
source_dir=${SYNCSCOPE_SOURCE_DIR:-$(cd "$(dirname "$0")/../.." && pwd)}
golden="$source_dir/tests/golden/behaviour.golden"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

if ! "$source_dir/tests/golden/record.sh" "$syncscope" >"$work/now"; then
    echo "FAIL: tests/golden/record.sh exited non-zero"
    exit 1
fi
if ! diff -u "$golden" "$work/now" >"$work/diff"; then
    echo "FAIL: behaviour differs from tests/golden/behaviour.golden ($(grep -c '^+[^+]' "$work/diff") lines changed):"
    head -40 "$work/diff"
    echo "(record.sh PATH/TO/syncscope --full at both commits shows every differing metric and stall row)"
    exit 1
fi
echo "golden: $(wc -l <"$golden") lines identical"
