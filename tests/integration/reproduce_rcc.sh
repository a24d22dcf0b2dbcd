#!/bin/bash
# reproduce_rcc.sh — `syncscope reproduce rcc` end to end on tiny inputs (stn and vpr of the
# inter-workgroup class, hsp of the intra-workgroup class, under every mechanism of the study):
# every run is stored under the study's sweep, the six figures and claims.md are written, a claim
# whose mechanism is not in the study says so, the derived claims and the energy table quote what
# the stored metrics imply (recomputed here with Python's sqlite3), and --report-only reports the
# same without running anything.
# Usage: reproduce_rcc.sh PATH/TO/syncscope
set -u
syncscope=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
source "$(dirname "$0")/lib/cli_checks.sh"
command -v python3 >/dev/null || { echo "SKIP: python3 not found"; exit 77; }

db="$work/runs.sqlite"
args=(rcc --size tiny --workloads stn,vpr,hsp --db "$db" --out "$work/report")
expect 0 "reproduction on tiny inputs" "$syncscope" reproduce "${args[@]}"
mechanisms=$(grep -c "^tiny   stn " "$work/out")
expect_output "$((3 * mechanisms)) runs, 0 kept from an earlier invocation, 0 failed their output check"
for figure in fig3_8a_speedup_inter fig3_8b_speedup_intra fig3_11a_energy_inter fig3_11b_energy_intra \
    fig3_12a_traffic_inter fig3_12b_traffic_intra; do
    grep -q "<svg" "$work/report/$figure.svg" 2>/dev/null || fail "$figure.svg missing or not SVG"
done
grep -q "vpr" "$work/report/fig3_8a_speedup_inter.svg" || fail "Figure 3.8a has no vpr group"
grep -q "hsp" "$work/report/fig3_12b_traffic_intra.svg" || fail "Figure 3.12b has no hsp group"

stored=$(sql "$db" "SELECT count(*), sum(r.status = 'ok') FROM runs r JOIN sweep_points p ON p.id = r.sweep_point_id
                    JOIN sweeps s ON s.id = p.sweep_id WHERE s.name = 'reproduce-rcc'" | tail -1)
[ "$stored" = "$((3 * mechanisms)),$((3 * mechanisms))" ] || fail "stored runs (count, ok): $stored"

# A claim about a mechanism the study does not run has no data, and says which one is missing.
if ! grep -q "^| C1 | .* | rcc is not among the study's mechanisms | no data |$" "$work/report/claims.md" &&
    ! grep -q "^| C1 | .* | RCC speedup over MESI: " "$work/report/claims.md"; then
    fail "claims.md's C1 neither measures RCC nor says it is missing"
fi

# D1 (TCS over MESI, inter) and D6 (TCS's energy saving against MESI, inter) are the geomeans
# of what the stored runs give; the energy table's totals are the sums of the stored parts.
python3 - "$db" "$work/report/claims.md" <<'PY' || fail "claims.md disagrees with the stored runs"
import math, re, sqlite3, sys
db, claims = sqlite3.connect(sys.argv[1]), open(sys.argv[2]).read()
def metric(workload, mechanism, name):
    if name == "cycles":
        return db.execute("SELECT cycles FROM runs WHERE workload = ? AND mechanism = ?", (workload, mechanism)).fetchone()[0]
    return db.execute("SELECT m.value FROM metrics m JOIN runs r ON r.id = m.run_id WHERE r.workload = ? AND "
                      "r.mechanism = ? AND m.kernel_index = -1 AND m.name = ?", (workload, mechanism, name)).fetchone()[0]
def energy(workload, mechanism):
    return sum(metric(workload, mechanism, "noc_energy_" + part)
               for part in ("link_dynamic", "router_dynamic", "link_static", "router_static"))
def geomean(values):
    return math.exp(sum(math.log(v) for v in values) / len(values))
inter = ("stn", "vpr")
expected = {
    "D1": "%+.1f%%" % (100 * (geomean([metric(w, "mesi", "cycles") / metric(w, "tc-strong", "cycles") for w in inter]) - 1)),
    "D6": "%+.1f%%" % (100 * (1 - geomean([energy(w, "tc-strong") / energy(w, "mesi") for w in inter]))),
}
failed = False
for claim, number in expected.items():
    row = re.search(r"^\| %s \|.*$" % claim, claims, re.M)
    if not row or ": %s (geomean, inter)" % number not in row.group(0):
        print("FAIL: %s should quote %s: %s" % (claim, number, row.group(0) if row else "no row"))
        failed = True
for mechanism, label in (("mesi", "MESI"), ("tc-strong", "TCS"), ("tc-weak", "TCW")):
    total = "%.1f" % energy("vpr", mechanism)
    if "| inter | vpr | %s | %s |" % (label, total) not in claims:
        print("FAIL: the energy table lacks vpr under %s with %s nJ" % (label, total))
        failed = True
    total_total = metric("vpr", mechanism, "noc_energy")
    if abs(total_total - energy("vpr", mechanism)) > 1e-6 * total_total:
        print("FAIL: noc_energy of vpr under %s is not the sum of its parts" % mechanism)
        failed = True
sys.exit(failed)
PY

cp "$work/report/claims.md" "$work/claims.first"
expect 0 "report only" "$syncscope" reproduce "${args[@]}" --report-only
[ "$(sql "$db" "SELECT count(*) FROM runs" | tail -1)" = "$((3 * mechanisms))" ] || fail "--report-only stored runs"
cmp -s "$work/claims.first" "$work/report/claims.md" || fail "--report-only changed the claims"

expect 2 "workload outside the study" "$syncscope" reproduce rcc --workloads vecadd --db "$db"
expect_error_line "'vecadd' is not a workload of this study"

[ "$failures" -eq 0 ] && echo "reproduce_rcc: all checks passed"
exit $((failures > 0))
