#!/usr/bin/env bash
# litmus_cli.sh — `syncscope litmus` end to end: usage errors exit 2 with one stderr line; a run
# of MP at GPU scope over 50 jitter seeds exits 0, prints one line per mode x mechanism (every
# mechanism of the registry by default) whose histogram sums to seeds x iterations, shows the stale outcome of MP
# cached under wt and under denovo (self-invalidating L1s: without an acquire the consumer may keep
# reading its Valid copy, as the PTX model allows) for some seed and never under nol1, under rfo (coherent L1s: the consumer's
# cached copy is invalidated before the producer's write is performed), under qr (the producer's
# release completes only once the L2 has invalidated every other rL1 copy of its writes) or with
# acquire, also on qr-apu's 64-lane wavefronts; and a line's counts do not depend on what else was selected (every
# seed runs on a fresh device); SB with cached reads shows the both-stale outcome under tc-weak
# and never under mesi, tc-strong or rcc, which the command checks against sequential consistency.
# $1 is the syncscope binary.
set -uo pipefail

syncscope="${1:?usage: litmus_cli.sh SYNCSCOPE_BINARY}"
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
failures=0

fail() {
    echo "FAIL $*"
    failures=$((failures + 1))
}

# expect CODE DESCRIPTION ARGS...: `syncscope litmus ARGS...` exits with CODE.
expect() {
    local code=$1 what=$2
    shift 2
    "$syncscope" litmus "$@" >"$scratch/out" 2>"$scratch/err"
    local got=$?
    [[ $got -eq $code ]] || { fail "$what: exit $got, expected $code"; cat "$scratch/err"; }
}

expect_error_line() {
    [[ $(wc -l <"$scratch/err") -eq 1 ]] && grep -qF -- "$1" "$scratch/err" ||
        { fail "expected one error line containing '$1', got:"; cat "$scratch/err"; }
}

expect 0 "--help" --help
expect 2 "unknown mode" --mode relaxed,bogus
expect_error_line "--mode: unknown name 'bogus'"
expect 2 "mechanism without a protocol" --mechanism wt,nosuch
expect_error_line "mechanism 'nosuch' has no detailed protocol"
expect 2 "no seeds" --seeds 0
expect_error_line "--seeds must be at least 1"
expect 2 "cached mode of a test other than MP and SB" --test LB --mode cached
expect_error_line "no selected test runs in the selected modes"
expect 2 "unknown system" --system nosuch --seeds 1
expect_error_line "unknown system preset 'nosuch'"

# test mode scope mech weak seen seeds PTX check outcomes...
mechanism_count=$("$syncscope" list mechanisms | wc -l)
expect 0 "MP at GPU scope" --test MP --scope gpu --mode acqrel,cached,cached-acq --seeds 50 --iterations 8
cp "$scratch/out" "$scratch/mp"
[[ $(grep -c '^MP ' "$scratch/mp") -eq $((3 * mechanism_count)) ]] ||
    fail "expected $((3 * mechanism_count)) MP lines, got: $(cat "$scratch/mp")"
[[ $(grep -c '^MP .* rfo ' "$scratch/mp") -eq 3 ]] || fail "expected 3 rfo lines, got: $(cat "$scratch/mp")"
expect 0 "MP under rfo on qr-apu" --system qr-apu --test MP --scope gpu --mode acqrel,cached,cached-acq --mechanism rfo \
    --seeds 50 --iterations 8
grep '^MP ' "$scratch/out" >>"$scratch/mp"
[[ $(grep -c '^MP ' "$scratch/mp") -eq $((3 * mechanism_count + 3)) ]] ||
    fail "expected $((3 * mechanism_count + 3)) MP lines, got: $(cat "$scratch/mp")"
for system in gtx480 qr-apu; do
    expect 0 "MP under qr on $system" --system "$system" --test MP --scope gpu --mode acqrel,cached,cached-acq \
        --mechanism qr --seeds 50 --iterations 8
    [[ $(grep -c '^MP .* qr ' "$scratch/out") -eq 3 ]] || fail "expected 3 qr lines on $system, got: $(cat "$scratch/out")"
    grep '^MP ' "$scratch/out" >>"$scratch/mp"
done
while read -r test mode scope mech weak seen seeds ptx check outcomes; do
    total=0
    for entry in $outcomes; do total=$((total + ${entry#*=})); done
    [[ $total -eq 400 ]] || fail "$test $mode $mech: histogram sums to $total, expected 50 x 8"
    [[ $check == ok ]] || fail "$test $mode $mech: check $check"
    stale=${seeds%/*}
    if [[ $mode == cached && ( $mech == wt || $mech == denovo ) ]]; then
        [[ $stale -gt 0 ]] || fail "MP cached under $mech: stale outcome in no seed"
    else
        [[ $stale -eq 0 ]] || fail "MP $mode under $mech: weak outcome in $seeds seeds"
    fi
done < <(grep '^MP ' "$scratch/mp")

# SB with each thread's read of the other's word already cached: both stale (00) is allowed by
# PTX and appears under tc-weak (its leased copies stay readable) for some seed, and never under
# the mechanisms that promise sequential consistency, mesi, tc-strong and rcc (their SC cores hold
# the read until the store is performed).
expect 0 "SB cached" --test SB --scope gpu --mode cached --mechanism tc-weak,mesi,tc-strong,rcc --seeds 50 --iterations 8
grep -q '^tc-strong is checked against sc' "$scratch/out" || fail "tc-strong's model is not named: $(cat "$scratch/out")"
grep -q '^rcc is checked against sc' "$scratch/out" || fail "rcc's model is not named: $(cat "$scratch/out")"
[[ $(grep -c '^SB ' "$scratch/out") -eq 4 ]] || fail "expected 4 SB lines, got: $(cat "$scratch/out")"
while read -r test mode scope mech weak seen seeds model check outcomes; do
    stale=${seeds%/*}
    if [[ $mech == tc-weak ]]; then
        [[ $stale -gt 0 && $model == ptx:allowed ]] || fail "SB cached under tc-weak: $seeds seeds, $model"
    else
        [[ $stale -eq 0 && $model == sc:forbidden ]] || fail "SB cached under $mech: $seeds seeds, $model"
    fi
done < <(grep '^SB ' "$scratch/out")

expect 0 "MP cached alone" --test mp --scope gpu --mode cached --mechanism wt --seeds 50 --iterations 8
alone=$(grep '^MP ' "$scratch/out")
together=$(grep '^MP  *cached  *gpu  *wt ' "$scratch/mp")
[[ "$alone" == "$together" ]] || fail "selection changes the counts: '$alone' vs '$together'"

[[ $failures -eq 0 ]] && echo "litmus_cli: all checks passed"
exit $((failures > 0))
