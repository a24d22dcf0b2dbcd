#!/usr/bin/env bash
# record.sh — prints the behaviour golden of the detailed model: every mechanism x every built-in
# workload at --size tiny on every system preset (cycles, output check, every metric and every
# GSI stall row), jittered runs, the litmus outcomes and the random tester's outcomes. The model
# is deterministic, so a restructuring must leave this text bit-identical;
# tests/integration/golden_behaviour.sh compares it with tests/golden/behaviour.golden.
#
# usage: record.sh PATH/TO/syncscope [--full] > FILE
#   Each run is one line: its cycles and check, and digests of its metric rows and of its stall
#   rows. --full prints those rows themselves instead of digests (large; for diffing two commits
#   when a digest changed). Wall-clock metrics (*_seconds) and a model run's calibration_id (a
#   database row id, which shifts when a preset or mechanism is added) are left out: they are
#   not behaviour.
#   To accept a deliberate behaviour change: record.sh build/syncscope > tests/golden/behaviour.golden
set -euo pipefail

syncscope=${1:?usage: record.sh PATH/TO/syncscope [--full]}
full=${2:-}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
database="$work/golden.sqlite"
mechanisms=$("$syncscope" list mechanisms | awk '{print $1}' | paste -sd,)
workloads=$("$syncscope" list workloads | awk '{print $1}')
systems=$("$syncscope" list systems | awk '{print $1}')

for mechanism in ${mechanisms//,/ }; do
    for system in $systems; do
        for workload in $workloads; do
            "$syncscope" run --mode detailed --size tiny --system "$system" --mechanism "$mechanism" \
                --workload "$workload" --db "$database" >/dev/null 2>"$work/err" ||
                echo "run failed: $system $mechanism $workload: $(head -1 "$work/err")"
        done
    done
    for workload in vecadd sort sssp hashtable tester; do
        "$syncscope" run --mode detailed --size tiny --system gtx480 --mechanism "$mechanism" \
            --workload "$workload" --jitter 7 --db "$database" >/dev/null 2>"$work/err" ||
            echo "run failed: gtx480 $mechanism $workload --jitter 7: $(head -1 "$work/err")"
    done
done

# dump DATABASE MODE: the stored runs of MODE, one line (or block, --full) each.
dump() {
python3 - "$1" "$2" "$full" <<'PY'
import hashlib, sqlite3, sys
database, mode, full = sys.argv[1], sys.argv[2], sys.argv[3] == "--full"
db = sqlite3.connect(database)
for mechanism, system, params in db.execute("SELECT mechanism, system, params FROM calibrations ORDER BY mechanism, system"):
    print("calibration %s %s %s" % (mechanism, system, params))
def number(value):
    return "NULL" if value is None else repr(float(value))
def digest(lines):
    return hashlib.sha256("\n".join(lines).encode()).hexdigest()[:16]
runs = db.execute("SELECT id, system, mechanism, workload, coalesce(jitter, 0), status, check_detail, cycles "
                  "FROM runs WHERE mode = ? ORDER BY system, mechanism, workload, coalesce(jitter, 0)", (mode,)).fetchall()
for run_id, system, mechanism, workload, jitter, status, check, cycles in runs:
    metrics = ["metric %d %s %s" % (kernel, name, number(value)) for kernel, name, value in db.execute(
        "SELECT kernel_index, name, value FROM metrics WHERE run_id = ? AND name NOT LIKE '%seconds' "
        "AND name <> 'calibration_id' ORDER BY kernel_index, name", (run_id,))]
    stalls = ["stall %d %s %s %s" % (cu, category, subcategory or "-", number(value))
              for cu, category, subcategory, value in db.execute(
        "SELECT cu, category, subcategory, cycles FROM stalls WHERE run_id = ? "
        "ORDER BY cu, category, subcategory", (run_id,))]
    kernels = ["kernel %d %s %d %s" % row for row in db.execute(
        "SELECT kernel_index, name, warp_instructions, cycles FROM kernels WHERE run_id = ? "
        "ORDER BY kernel_index", (run_id,))]
    head = "run %s %s %s jitter=%d %s/%s cycles=%s" % (system, mechanism, workload, jitter, status,
                                                     check.replace(" ", "_"), number(cycles))
    if full:
        print(head)
        for line in kernels + metrics + stalls:
            print("  " + line)
    else:
        print("%s kernels=%s metrics=%s stalls=%s" % (head, digest(kernels), digest(metrics), digest(stalls)))
PY
}
dump "$database" detailed

# The analytical models: each mechanism calibrated at one tiny design point per preset, then
# every workload modelled with that calibration.
model_database="$work/model.sqlite"
for mechanism in ${mechanisms//,/ }; do
    for system in $systems; do
        "$syncscope" calibrate --mechanism "$mechanism" --system "$system" --points 1 --size tiny \
            --db "$model_database" >/dev/null 2>"$work/err" ||
            echo "calibration failed: $system $mechanism: $(head -1 "$work/err")"
        for workload in $workloads; do
            "$syncscope" run --mode model --size tiny --system "$system" --mechanism "$mechanism" \
                --workload "$workload" --db "$model_database" >/dev/null 2>"$work/err" ||
                echo "model run failed: $system $mechanism $workload: $(head -1 "$work/err")"
        done
    done
done
dump "$model_database" model

# Litmus outcome histograms (the last line is a wall-clock summary).
"$syncscope" litmus --mechanism "$mechanisms" --seeds 10 2>&1 | sed '$d' | sed 's/^/litmus /' || true
for system in gtx480 qr-apu; do
    # Tester outcomes without the wall-clock column.
    "$syncscope" tester --system "$system" --seeds 2 --jitters 0,7 --mechanisms "$mechanisms" 2>&1 |
        awk -v preset="$system" '$2 ~ /^[0-9]+$/ && $3 ~ /^[0-9]+$/ { $NF = ""; print "tester", preset, $0 }' || true
done
