#!/bin/bash
# accuracy_compare.sh — scripts/accuracy_compare.py reads two directories of accuracy cells (as
# scripts/accuracy_cells.sh leaves them: M-S.db and M-S.db.validate.txt) and prints each row's
# change, the summary figures the README's accuracy paragraph quotes, whether every point is the
# same (--points) and where the error sits per workload and preset (--workloads). Two hand-made
# cells with known errors check each figure.
# Usage: accuracy_compare.sh PATH/TO/syncscope   (the binary is not used; SYNCSCOPE_SOURCE_DIR is
# the source root, else the one this script is in)
set -u
here=$(dirname "$0")
source_dir=${SYNCSCOPE_SOURCE_DIR:-$here/../..}
command -v sqlite3 >/dev/null || { echo "accuracy_compare.sh: sqlite3 not found"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
check() {  # check NAME PATTERN FILE: FILE has a line matching the extended regex PATTERN
    if grep -Eq -- "$2" "$3"; then echo "ok: $1"; else echo "FAIL: $1 (no line matching '$2')"; cat "$3"; failures=$((failures + 1)); fi
}

# cell DIR NAME SYSTEM MEAN MEDIAN MAX STALL ERRORS...: a cell whose validations hold ERRORS
# (workload:relative_error, one point each) and whose validate text prints the given row
cell() {
    local dir=$1 name=$2 system=$3 mean=$4 median=$5 max=$6 stall=$7
    shift 7
    mkdir -p "$dir"
    {
        echo "CREATE TABLE validations (calibration_id INTEGER, workload TEXT, point_config TEXT, relative_error REAL);"
        local i=0 pair
        for pair in "$@"; do
            echo "INSERT INTO validations VALUES (1, '${pair%%:*}', '{\"p\":$i}', ${pair#*:});"
            i=$((i + 1))
        done
    } | sqlite3 "$dir/$name.db"
    cat > "$dir/$name.db.validate.txt" <<TEXT
validation of calibration 1: mechanism ${name%-*}, system $system, 2 held-out points x 2 workloads = 4 comparisons (size small)
absolute errors:
  cycles       mean   $mean%  median   $median%  max  $max%
  stall fractions, mean over categories: $stall
TEXT
}

# base: wt-gsi errors 10, 20 (sort) and 2, 4 (vecadd): mean 9; new: sort 10, 10 and vecadd 2, 4: mean 6.5
cell "$work/base" wt-gsi gsi 9.000 7.000 20.000 0.0400 sort:0.10 sort:-0.20 vecadd:0.02 vecadd:0.04
cell "$work/new" wt-gsi gsi 6.500 6.000 10.000 0.0300 sort:0.10 sort:-0.10 vecadd:0.02 vecadd:0.04
# a second row whose points do not move
cell "$work/base" nol1-gsi gsi 4.000 4.000 6.000 0.0600 sort:0.06 vecadd:0.02
cell "$work/new" nol1-gsi gsi 4.000 4.000 6.000 0.0600 sort:0.06 vecadd:0.02

python3 "$source_dir/scripts/accuracy_compare.py" "$work/base" "$work/new" --points --workloads > "$work/out.txt" 2>&1 \
    || { echo "FAIL: accuracy_compare.py exited non-zero"; cat "$work/out.txt"; exit 1; }
check "a row's change" "^wt-gsi .* -2\.50  points differ" "$work/out.txt"
check "an unmoved row's points" "^nol1-gsi .* \+0\.00  points same" "$work/out.txt"
check "mean of means" "mean of means +6\.500 -> 5\.250" "$work/out.txt"
check "max of maxima" "max of maxima +20\.000 -> 10\.000" "$work/out.txt"
check "stall" "stall +0\.0500 -> 0\.0450" "$work/out.txt"
check "targets met" "mean target met +1 -> 1" "$work/out.txt"
check "rows better" "better by more than 0\.15 points: 1, worse: 0" "$work/out.txt"
# sort: wt-gsi 15 -> 10, nol1-gsi 6 -> 6: mean 10.5 -> 8.0; share (15*2/4 + 6/2) / 2 = 5.25 -> 4.00
check "a workload's preset mean and share" "^sort +10\.5 -> +8\.0 +5\.25 -> 4\.00" "$work/out.txt"
check "the other workload" "^vecadd +2\.5 -> +2\.5 +1\.25 -> 1\.25" "$work/out.txt"

python3 "$source_dir/scripts/accuracy_compare.py" "$work/base" "$work/missing" > "$work/bad.txt" 2>&1
status=$?
[ "$status" -ne 0 ] && echo "ok: a missing directory fails ($status)" || { echo "FAIL: a missing directory exits 0"; failures=$((failures + 1)); }
check "a missing directory's message" "missing is not a directory" "$work/bad.txt"

[ "$failures" -eq 0 ] && echo "accuracy_compare: all checks passed" || { echo "accuracy_compare: $failures failed"; exit 1; }
