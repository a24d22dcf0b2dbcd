#!/bin/bash
# reproduce_claims.sh — the claim verdicts of `syncscope reproduce quickrelease` are what its
# stored runs imply: the whole study at tiny size (scaling at tiny and small, about 12 s) is run,
# then lib/quickrelease_claims.py recomputes every claim's quantity from the database with Python's
# sqlite3 and the verdict from it, and compares both with claims.md (and Figure 5's table); the
# same on a --report-only subset of four workloads, where claims lack data. A claims.md whose
# verdict or number was altered must be caught. Tests the verdict logic, not particular values.
# Usage: reproduce_claims.sh PATH/TO/syncscope
set -u
syncscope=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
source "$(dirname "$0")/lib/cli_checks.sh"
command -v python3 >/dev/null || { echo "SKIP: python3 not found"; exit 77; }
check="$(dirname "$0")/lib/quickrelease_claims.py"

db="$work/runs.sqlite"
all=apsp,sort,backprop,bfs,matmul,dct,kmeans,histogram,lud,stencil,spmv,nw,nn,reduction
expect 0 "reproduction at tiny size" "$syncscope" reproduce quickrelease --size tiny --scaling-sizes tiny,small \
    --db "$db" --out "$work/report"
python3 "$check" "$db" "$work/report/claims.md" tiny tiny,small "$all" || fail "claims of the whole study"

expect 0 "report on four workloads" "$syncscope" reproduce quickrelease --report-only --size tiny \
    --scaling-sizes tiny,small --workloads apsp,lud,nn,sort --db "$db" --out "$work/subset"
grep -q "| no data |" "$work/subset/claims.md" || fail "the subset's claims.md has no 'no data' verdict"
python3 "$check" "$db" "$work/subset/claims.md" tiny tiny,small apsp,lud,nn,sort || fail "claims of the subset"

# The check itself fails on a wrong verdict and on a wrong number.
sed -E '/^\| R8 \|/{s/\| agrees \|$/| disagreez |/;s/\| disagrees \|$/| agrees |/;s/\| disagreez \|$/| disagrees |/}' \
    "$work/report/claims.md" >"$work/flipped.md"
cmp -s "$work/flipped.md" "$work/report/claims.md" && fail "could not flip R8's verdict"
python3 "$check" "$db" "$work/flipped.md" tiny tiny,small "$all" >/dev/null && fail "a flipped verdict passed the check"
sed -E '/^\| R1 \|/s/\| ([+-])[0-9]+\.[0-9]%/| \1123.4%/' "$work/report/claims.md" >"$work/number.md"
python3 "$check" "$db" "$work/number.md" tiny tiny,small "$all" >/dev/null && fail "a wrong R1 number passed the check"

[ "$failures" -eq 0 ] && echo "reproduce_claims: all checks passed"
exit $((failures > 0))
