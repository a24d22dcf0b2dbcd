#!/bin/bash
# tester_cli.sh — `syncscope tester` end to end: the correct program passes under every mechanism
# of the registry (also with jitter, on qr-apu's 64-lane wavefronts, and for qr with the smallest wL1 and
# S-FIFO, so every store forces write-outs) and in functional mode (exit 0, one line per run, a summary); the racy unordered-locks variant is
# caught under wt (exit 1, the first wrong word named); bad arguments exit 2 and a configuration
# that builds no device exits 1, each with one error line.
# Usage: tester_cli.sh PATH/TO/syncscope
set -u
syncscope=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
source "$(dirname "$0")/lib/cli_checks.sh"


expect 0 "tester --help" "$syncscope" tester --help
mechanism_count=$("$syncscope" list mechanisms | wc -l)
expect 0 "correct program, every mechanism" "$syncscope" tester --seeds 1 --jitters 0,3
expect_output "$((2 * mechanism_count)) runs, 0 failed"
if [ "$(grep -c ' ok ' "$work/out")" -ne $((2 * mechanism_count)) ]; then
    echo "FAIL: expected $((2 * mechanism_count)) ok lines"; cat "$work/out"; failures=$((failures + 1))
fi
expect 0 "correct program, rfo, several seeds" "$syncscope" tester --mechanisms rfo --seeds 4 --jitters 0,5
expect_output "8 runs, 0 failed"
expect 0 "correct program, rfo on qr-apu" "$syncscope" tester --mechanisms rfo --system qr-apu --seeds 2 --jitters 1
expect_output "2 runs, 0 failed"
expect 0 "correct program, qr, several seeds" "$syncscope" tester --mechanisms qr --seeds 3 --jitters 0,1
expect_output "6 runs, 0 failed"
expect 0 "correct program, qr on qr-apu, one-line wL1 and one-entry S-FIFO" "$syncscope" tester --mechanisms qr \
    --system qr-apu --seeds 2 --jitters 1 --set l1.write_cache_size=64B --set l1.sync_fifo_entries=1
expect_output "2 runs, 0 failed"
expect 0 "correct program, qr on qr-apu, tiny wL2/wL3 and S-FIFOs, DRAM queue of one (back-pressure)" \
    "$syncscope" tester --mechanisms qr --system qr-apu --seeds 2 --jitters 0,2 --set l1.sync_fifo_entries=1 \
    --set l2.write_cache_size=1KiB --set l2.sync_fifo_entries=16 --set l3.write_cache_size=64B \
    --set l3.write_cache_associativity=1 --set l3.sync_fifo_entries=1 --set dram.request_queue=1
expect_output "4 runs, 0 failed"
expect 0 "unordered peeks under rfo (coherent L1s)" "$syncscope" tester --variant unordered-peeks --mechanisms rfo \
    --seeds 2 --jitters 0
expect 0 "full program, nol1" "$syncscope" tester --seeds 1 --jitters 0 --mechanisms nol1
expect_output "1 run, 0 failed"
expect 0 "functional mode, 64 lanes" "$syncscope" tester --mode functional --system qr-apu --seeds 2
expect_output "2 runs, 0 failed"
expect 1 "unordered locks under wt" "$syncscope" tester --variant unordered-locks --mechanisms wt --seeds 1 --jitters 0
expect_output "FAIL"
expect_output "of lock"
expect_output "1 run, 1 failed"

expect 1 "watchdog" "$syncscope" tester --seeds 1 --jitters 0 --mechanisms wt --set sim.max_cycles=20000
expect_output "watchdog: more than 20000 cycles (sim.max_cycles)"
expect_output "1 run, 1 failed: 0 operations"

expect 2 "unknown mechanism" "$syncscope" tester --mechanisms wt,nosuch
expect_error_line "unknown mechanism 'nosuch'"
expect 2 "bad variant" "$syncscope" tester --variant sloppy
expect_error_line "--variant must be correct, unordered-peeks or unordered-locks, not 'sloppy'"
expect 2 "bad jitter" "$syncscope" tester --jitters 1,x
expect_error_line "--jitters: 'x' is not a non-negative integer"
expect 2 "bad family" "$syncscope" tester --without locks,stuff
expect_error_line "--without: 'locks,stuff' is not a list of"
expect 2 "unknown preset" "$syncscope" tester --system nope
expect_error_line "unknown system preset 'nope'"
expect 1 "impossible cache" "$syncscope" tester --seeds 1 --set l2.size=5KiB
expect_error_line "l2.size: 5120 bytes does not split over l2.banks"

if [ "$failures" -ne 0 ]; then
    echo "$failures failure(s)"
    exit 1
fi
echo "ok"
