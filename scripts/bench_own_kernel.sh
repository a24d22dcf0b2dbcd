#!/bin/bash
# bench_own_kernel.sh — times the README's own-kernel flow through the fast layer (issue 23 item 5:
# "a 10,000-point sweep of a manifest workload under four mechanisms in under a minute including its
# calibration windows") in a fresh database, phase by phase, in CPU time (user + system) and wall
# time: each mechanism's suite-wide prior (`calibrate --points 1 --size tiny`), its per-workload fit
# on sample windows (`calibrate --workload blur_large.json --windows`), then the 10,000-point model
# sweep of models/sweeps/blur-lhs.json under the four mechanisms.
# Usage: bench_own_kernel.sh PATH/TO/syncscope DATABASE [LABEL]
set -eu
syncscope=$1 db=$2 label=${3:-$1}
root=$(cd "$(dirname "$0")/.." && pwd)
manifest=$root/tests/data/manifests/blur/blur_large.json
spec=$root/models/sweeps/blur-lhs.json
mechanisms=$(grep -o '"mechanisms": \[[^]]*\]' "$spec" | grep -o '"[a-z0-9-]*"' | tr -d '"' | tail -n +2)
rm -f "$db"
"$syncscope" db init --db "$db" >/dev/null
timings=$(mktemp)
trap 'rm -f "$timings"' EXIT
# phase NAME COMMAND...: runs COMMAND, appends "NAME user system wall" and echoes its "time:" line.
phase() {
    local name=$1
    shift
    local out
    out=$(/usr/bin/time -f "%U %S %e" -o "$timings.one" "$@" 2>/dev/null)
    echo "$name $(cat "$timings.one")" >> "$timings"
    grep -E "^  time:|^sweep .*stored in" <<<"$out" | sed "s/^ */  $name: /" || true
}
for m in $mechanisms; do
    phase "prior:$m" "$syncscope" calibrate --mechanism "$m" --system gtx480 --points 1 --size tiny --db "$db"
done
for m in $mechanisms; do
    phase "windows:$m" "$syncscope" calibrate --mechanism "$m" --system gtx480 --workload "$manifest" --windows --db "$db"
done
phase "sweep" "$syncscope" sweep "$spec" --db "$db"
echo "$label, load average $(cut -d' ' -f1-3 /proc/loadavg):"
awk '{ split($1, p, ":"); cpu = $2 + $3; printf "  %-14s cpu %7.2f s (user %6.2f, system %5.2f)  wall %7.2f s\n", $1, cpu, $2, $3, $4;
       total[p[1]] += cpu; wall[p[1]] += $4; all += cpu; allwall += $4 }
     END { for (k in total) printf "  %-14s cpu %7.2f s  wall %7.2f s\n", k " (all)", total[k], wall[k];
           printf "  windows+sweep  cpu %7.2f s  wall %7.2f s\n", total["windows"] + total["sweep"], wall["windows"] + wall["sweep"];
           printf "  whole flow     cpu %7.2f s  wall %7.2f s\n", all, allwall }' "$timings"
