#!/bin/bash
# bench_own_kernel.sh — times the README's own-kernel flow through the fast layer (issue 23 item 5:
# "a 10,000-point sweep of a manifest workload under four mechanisms in under a minute including its
# calibration windows"), phase by phase, in CPU time (user + system, all threads) and wall time,
# each binary in a fresh database: every mechanism's suite-wide prior (`calibrate --points 1 --size
# tiny`), its per-workload fit on sample windows (`calibrate --workload blur_large.json --windows`;
# the first mechanism's also takes the manifest's profiles at the fit's design points, which the
# others then read from the store), and the 10,000-point model sweep of models/sweeps/blur-lhs.json
# under its four mechanisms. Given two binaries (an old and a new one) it runs both, one after the
# other under the same load, prints their figures side by side and compares what they stored
# (scripts/store_dump.sh: runs, metrics, stalls, profiles, fits, sweeps, without times and versions).
# Usage: bench_own_kernel.sh SYNCSCOPE [OTHER_SYNCSCOPE]   (scratch databases in $TMPDIR or /tmp)
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
manifest=$root/tests/data/manifests/blur/blur_large.json
spec=$root/models/sweeps/blur-lhs.json
mechanisms=$(grep -o '"mechanisms": \[[^]]*\]' "$spec" | grep -o '"[a-z0-9-]*"' | tr -d '"' | tail -n +2)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# phase TIMINGS NAME COMMAND...: runs COMMAND and appends "NAME cpu wall" to TIMINGS.
phase() {
    local timings=$1 name=$2
    shift 2
    /usr/bin/time -f "%U %S %e" -o "$work/one" "$@" >"$work/out" 2>/dev/null ||
        { echo "$name failed: $*" >&2; cat "$work/out" >&2; exit 1; }
    echo "$name $(awk '{ printf "%.2f %.2f", $1 + $2, $3 }' "$work/one")" >>"$timings"
}

# flow INDEX BINARY: the whole flow in database $work/flowINDEX.sqlite, times in $work/timesINDEX.
flow() {
    local db=$work/flow$1.sqlite timings=$work/times$1 binary=$2
    "$binary" db init --db "$db" >/dev/null
    for m in $mechanisms; do
        phase "$timings" "prior:$m" "$binary" calibrate --mechanism "$m" --system gtx480 --points 1 --size tiny --db "$db"
    done
    for m in $mechanisms; do
        phase "$timings" "windows:$m" "$binary" calibrate --mechanism "$m" --system gtx480 --workload "$manifest" \
            --windows --db "$db"
    done
    phase "$timings" "sweep" "$binary" sweep "$spec" --db "$db"
    bash "$root/scripts/store_dump.sh" "$db" >"$work/dump$1"
    echo "load average after $binary: $(cut -d' ' -f1-3 /proc/loadavg)"
}

binaries=("$@")
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg); $(nproc) processors"
for i in "${!binaries[@]}"; do
    flow "$i" "${binaries[$i]}"
done
# One row per phase, then the sums: CPU and wall seconds of each binary.
{
    for i in "${!binaries[@]}"; do echo "binary $((i + 1)): ${binaries[$i]}"; done
    printf "%-16s" "phase"
    for i in "${!binaries[@]}"; do printf "  %13s %14s" "$((i + 1)): cpu s" "wall s"; done
    printf "\n"
    paste -d' ' $(for i in "${!binaries[@]}"; do echo "$work/times$i"; done) | awk '
        { printf "%-16s", $1; for (f = 2; f <= NF; f += 3) { printf "  %13.2f %14.2f", $f, $(f + 1);
              split($1, p, ":"); cpu[p[1], f] += $f; wall[p[1], f] += $(f + 1); all[f] += $f; allwall[f] += $(f + 1) }
          printf "\n"; n = NF }
        END { split("prior windows sweep", kinds, " ");
              for (k = 1; k <= 3; k++) { printf "%-16s", kinds[k] " (all)";
                  for (f = 2; f <= n; f += 3) printf "  %13.2f %14.2f", cpu[kinds[k], f], wall[kinds[k], f]; printf "\n" }
              printf "%-16s", "windows+sweep";
              for (f = 2; f <= n; f += 3) printf "  %13.2f %14.2f", cpu["windows", f] + cpu["sweep", f], wall["windows", f] + wall["sweep", f];
              printf "\n%-16s", "whole flow";
              for (f = 2; f <= n; f += 3) printf "  %13.2f %14.2f", all[f], allwall[f]; printf "\n" }'
}
if [ "${#binaries[@]}" -eq 2 ]; then
    if cmp -s "$work/dump0" "$work/dump1"; then
        echo "stored results identical: $(wc -l <"$work/dump0") lines of runs, metrics, stalls, profiles, fits and sweeps"
    else
        echo "stored results DIFFER:"
        diff "$work/dump0" "$work/dump1" | head -20
        exit 1
    fi
fi
