#!/bin/bash
# reproduce_gsi.sh — `syncscope reproduce gsi` end to end on tiny inputs: uts and utsd under wt
# and denovo, and the variants (implicit, implicit-dma and implicit-stash on one SM under denovo
# at MSHR = SB = 32, 64, 128, 256, and implicit-dma with warp-level DMA blocking) are stored under
# the study's sweep, the variants at points of their own with their overrides; every figure is
# written, Figs 6.3 and 6.4 with stash bars; uts and utsd run again under both protocols with
# sim.gsi false (the tool-overhead variants: the same cycles, no stall rows); claims.md quotes
# what the stored runs imply (UTSD against UTS, DeNovo against GPU coherence, scratchpad+DMA and
# stash against scratchpad, the MSHR factors, the pending-release shares and GSI's CPU-time cost,
# recomputed here with Python's sqlite3);
# --report-only reports the same without running anything, and on a subset the rows it lacks say
# "no data".
# Usage: reproduce_gsi.sh PATH/TO/syncscope
set -u
syncscope=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
source "$(dirname "$0")/lib/cli_checks.sh"
command -v python3 >/dev/null || { echo "SKIP: python3 not found"; exit 77; }

db="$work/runs.sqlite"
args=(gsi --size tiny --db "$db" --out "$work/report")
expect 0 "reproduction on tiny inputs" "$syncscope" reproduce "${args[@]}"
total=21
expect_output "$total runs, 0 kept from an earlier invocation, 0 failed their output check"
for figure in 6_1a_overall 6_1b_memory_data 6_1c_memory_structural 6_utsd_vs_uts_overall 6_2a_overall \
    6_2b_memory_data 6_2c_memory_structural 6_3a_overall 6_3b_memory_data 6_3c_memory_structural \
    6_4a_overall 6_4b_memory_data 6_4c_memory_structural 6_6_tool_overhead; do
    grep -q "<svg" "$work/report/fig$figure.svg" 2>/dev/null || fail "fig$figure.svg missing or not SVG"
done
grep -q "DeNovo" "$work/report/fig6_1a_overall.svg" || fail "Figure 6.1a has no DeNovo bar"
grep -q "MSHR = SB = 256" "$work/report/fig6_4a_overall.svg" || fail "Figure 6.4a has no 256-entry bar"
grep -q ">stash<" "$work/report/fig6_3a_overall.svg" || fail "Figure 6.3a has no stash bar"
grep -q ">stash<" "$work/report/fig6_4a_overall.svg" || fail "Figure 6.4a has no stash group"
grep -qi "not built\|no stash" "$work/report/claims.md" && fail "claims.md still says the stash is not built"
grep -q "sim.gsi false" "$work/report/fig6_6_tool_overhead.svg" || fail "the tool-overhead figure has no bar without GSI"

stored=$(sql "$db" "SELECT count(*), sum(r.status = 'ok') FROM runs r JOIN sweep_points p ON p.id = r.sweep_point_id
                    JOIN sweeps s ON s.id = p.sweep_id WHERE s.name = 'reproduce-gsi'" | tail -1)
[ "$stored" = "$total,$total" ] || fail "stored runs (count, ok): $stored"
points=$(sql "$db" "SELECT group_concat(coalesce(json_extract(params, '$.variant'), '-'), ' ') FROM sweep_points" | tail -1)
[ "$points" = "- implicit-mshr32 implicit-mshr64 implicit-mshr128 implicit-mshr256 implicit-dma-warp-blocking gsi-off-wt gsi-off-denovo" ] ||
    fail "sweep points: $points"

python3 - "$db" "$work/report/claims.md" <<'PY' || fail "claims.md disagrees with the stored runs"
import json, re, sqlite3, sys
db, claims = sqlite3.connect(sys.argv[1]), open(sys.argv[2]).read()
def run(workload, mechanism, variant=""):
    return db.execute("SELECT r.id FROM runs r JOIN sweep_points p ON p.id = r.sweep_point_id WHERE r.workload = ? "
                      "AND r.mechanism = ? AND coalesce(json_extract(p.params, '$.variant'), '') = ?",
                      (workload, mechanism, variant)).fetchone()[0]
def cycles(*key):
    return db.execute("SELECT cycles FROM runs WHERE id = ?", (run(*key),)).fetchone()[0]
def stall(category, subcategory, *key):
    return db.execute("SELECT coalesce(sum(cycles), 0) FROM stalls WHERE run_id = ? AND cu = -1 AND category = ? "
                      "AND (? IS NULL OR subcategory = ?)", (run(*key), category, subcategory, subcategory)).fetchone()[0]
def total(*key):
    return db.execute("SELECT sum(cycles) FROM stalls WHERE run_id = ? AND cu = -1", (run(*key),)).fetchone()[0]
def cpu(*key):
    return db.execute("SELECT value FROM metrics WHERE run_id = ? AND kernel_index = -1 AND name = 'engine_cpu_seconds'",
                      (run(*key),)).fetchone()[0]
def config(*key):
    return json.loads(db.execute("SELECT c.json FROM runs r JOIN configs c ON c.hash = r.config_hash WHERE r.id = ?",
                                 (run(*key),)).fetchone()[0])
pad32, dma32, pad256, dma256 = (("implicit", "denovo", "implicit-mshr32"), ("implicit-dma", "denovo", "implicit-mshr32"),
                                ("implicit", "denovo", "implicit-mshr256"), ("implicit-dma", "denovo", "implicit-mshr256"))
stash32, stash256 = ("implicit-stash", "denovo", "implicit-mshr32"), ("implicit-stash", "denovo", "implicit-mshr256")
expected = {
    "S1": "UTSD / UTS cycles: %+.1f%%" % (100 * (cycles("utsd", "wt") / cycles("uts", "wt") - 1)),
    "S2": "UTSD / UTS cycles: %+.1f%%" % (100 * (cycles("utsd", "denovo") / cycles("uts", "denovo") - 1)),
    "D1": "mem_struct: %+.1f%%" % (100 * (stall("mem_struct", None, "utsd", "denovo") /
                                          stall("mem_struct", None, "utsd", "wt") - 1)),
    "D3": "cycles: %+.1f%%" % (100 * (cycles("utsd", "denovo") / cycles("utsd", "wt") - 1)),
    "D6": "GPU coherence %.1f%%, DeNovo %.1f%%" % (
        100 * stall("mem_struct", "pending_release", "utsd", "wt") / total("utsd", "wt"),
        100 * stall("mem_struct", "pending_release", "utsd", "denovo") / total("utsd", "denovo")),
    "I1": "no_stall: %+.1f%%" % (100 * (stall("no_stall", None, *dma32) / stall("no_stall", None, *pad32) - 1)),
    "I2": "stash / scratchpad no_stall: %+.1f%%" % (100 * (stall("no_stall", None, *stash32) /
                                                          stall("no_stall", None, *pad32) - 1)),
    "I4": "stash / scratchpad mem_struct: %+.1f%%" % (100 * (stall("mem_struct", None, *stash32) /
                                                            stall("mem_struct", None, *pad32) - 1)),
    "I5": "scratchpad+DMA %+.1f%%, stash %+.1f%%" % (100 * (cycles(*dma32) / cycles(*pad32) - 1),
                                                    100 * (cycles(*stash32) / cycles(*pad32) - 1)),
    "M2": "x%.2f" % (stall("mem_data", None, *pad256) / stall("mem_data", None, *pad32)),
    "M4": "x%.2f" % (stall("mem_data", None, *stash256) / stall("mem_data", None, *stash32)),
}
task = [(w, m) for w in ("uts", "utsd") for m in ("wt", "denovo")]
costs = [100 * (cpu(w, m) / cpu(w, m, "gsi-off-" + m) - 1) for w, m in task]
expected["O1"] = "sim.gsi false: %+.1f%% (mean of 4 runs" % (sum(costs) / len(costs))
failed = False
for w, m in task:
    off = run(w, m, "gsi-off-" + m)
    if cycles(w, m) != cycles(w, m, "gsi-off-" + m) or config(w, m, "gsi-off-" + m)["sim"]["gsi"] is not False:
        print("FAIL: %s under %s without GSI: cycles %s against %s" % (w, m, cycles(w, m, "gsi-off-" + m), cycles(w, m)))
        failed = True
    if db.execute("SELECT count(*) FROM stalls WHERE run_id = ?", (off,)).fetchone()[0]:
        print("FAIL: %s under %s without GSI stored stall rows" % (w, m))
        failed = True
for claim, number in expected.items():
    row = re.search(r"^\| %s \|.*$" % claim, claims, re.M)
    if not row or number not in row.group(0):
        print("FAIL: %s should quote %s: %s" % (claim, number, row.group(0) if row else "no row"))
        failed = True
for key, sets in ((pad256, {"cu_count": 1, "mshrs": 256, "store_buffer_entries": 256}),
                  (("implicit-dma", "denovo", "implicit-dma-warp-blocking"), {"cu_count": 1, "dma_blocking": "warp"})):
    c = config(*key)
    flat = dict(c["gpu"], **c["l1"], **c["local_memory"])
    for name, value in sets.items():
        if flat.get(name) != value:
            print("FAIL: %s ran with %s = %s, not %s" % (key, name, flat.get(name), value))
            failed = True
sys.exit(failed)
PY

expect_same_report "$db" "$total" "$work/report" gsi "${args[@]:1}"

expect 0 "report on a subset" "$syncscope" reproduce gsi --size tiny --report-only --workloads uts,implicit \
    --db "$db" --out "$work/subset"
grep -q "^| S1 | .* | no data |$" "$work/subset/claims.md" || fail "S1 without utsd is not 'no data'"
grep -q "^| I1 | .* | no data |$" "$work/subset/claims.md" || fail "I1 without implicit-dma is not 'no data'"
grep -q "^| U2 | .* | DeNovo / GPU coherence cycles: [-+]" "$work/subset/claims.md" || fail "U2 lost its uts runs"

[ "$failures" -eq 0 ] && echo "reproduce_gsi: all checks passed"
exit $((failures > 0))
