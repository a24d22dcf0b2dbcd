#!/bin/bash
# reproduce_rcc.sh — `syncscope reproduce rcc` end to end on tiny inputs (stn and vpr of the
# inter-workgroup class, hsp of the intra-workgroup class, under every mechanism of the study, and
# the study's variants: MESI with write-back L1s on all three, RCC without renewal and without the
# lease predictor on stn and vpr): every run is stored under the study's sweep, the variants at
# points of their own, the figures and claims.md are written, a claim whose mechanism is not in
# the study says so, the derived claims, the SC-stall and renewal claims and the energy table
# quote what the stored metrics imply (recomputed here with Python's sqlite3), and --report-only
# reports the same without running anything.
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
variants=7
mechanisms=$(($(grep -c "^tiny   stn " "$work/out") - 3))
total=$((3 * mechanisms + variants))
expect_output "$total runs, 0 kept from an earlier invocation, 0 failed their output check"
for figure in fig3_8a_speedup_inter fig3_8b_speedup_intra fig3_11a_energy_inter fig3_11b_energy_intra \
    fig3_12a_traffic_inter fig3_12b_traffic_intra fig3_6a_expired_inter fig3_7a_renewal_traffic_inter \
    fig3_7b_predictor_expired_inter fig3_9a_sc_stalls_inter fig3_9b_resolve_latency_inter \
    fig3_10a_weak_ordering_inter fig3_10b_weak_ordering_intra; do
    grep -q "<svg" "$work/report/$figure.svg" 2>/dev/null || fail "$figure.svg missing or not SVG"
done
grep -q "vpr" "$work/report/fig3_8a_speedup_inter.svg" || fail "Figure 3.8a has no vpr group"
grep -q "hsp" "$work/report/fig3_12b_traffic_intra.svg" || fail "Figure 3.12b has no hsp group"
# As every figure syncscope writes: a PNG and a PDF beside the SVG where rsvg-convert is installed.
if command -v rsvg-convert >/dev/null; then
    for format in png pdf; do
        [ -s "$work/report/fig3_8a_speedup_inter.$format" ] || fail "Figure 3.8a has no $format beside its SVG"
    done
fi

stored=$(sql "$db" "SELECT count(*), sum(r.status = 'ok') FROM runs r JOIN sweep_points p ON p.id = r.sweep_point_id
                    JOIN sweeps s ON s.id = p.sweep_id WHERE s.name = 'reproduce-rcc'" | tail -1)
[ "$stored" = "$total,$total" ] || fail "stored runs (count, ok): $stored"
points=$(sql "$db" "SELECT group_concat(coalesce(json_extract(params, '$.variant'), '-'), ' ') FROM sweep_points" | tail -1)
[ "$points" = "- mesi-write-back rcc-no-renewal rcc-no-predictor" ] || fail "sweep points: $points"

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
def run(workload, mechanism, variant):
    return db.execute("SELECT r.id FROM runs r JOIN sweep_points p ON p.id = r.sweep_point_id WHERE r.workload = ? "
                      "AND r.mechanism = ? AND coalesce(json_extract(p.params, '$.variant'), '') = ?",
                      (workload, mechanism, variant)).fetchone()[0]
def metric(workload, mechanism, name, variant=""):
    run_id = run(workload, mechanism, variant)
    if name == "cycles":
        return db.execute("SELECT cycles FROM runs WHERE id = ?", (run_id,)).fetchone()[0]
    if name == "ordering":
        return db.execute("SELECT cycles FROM stalls WHERE run_id = ? AND cu = -1 AND category = 'sync' "
                          "AND subcategory = 'ordering'", (run_id,)).fetchone()[0]
    return db.execute("SELECT value FROM metrics WHERE run_id = ? AND kernel_index = -1 AND name = ?",
                      (run_id, name)).fetchone()[0]
def energy(workload, mechanism):
    return sum(metric(workload, mechanism, "noc_energy_" + part)
               for part in ("link_dynamic", "router_dynamic", "link_static", "router_static"))
def geomean(values):
    return math.exp(sum(math.log(v) for v in values) / len(values))
inter = ("stn", "vpr")
expected = {
    "D1": "%+.1f%%" % (100 * (geomean([metric(w, "mesi", "cycles") / metric(w, "tc-strong", "cycles") for w in inter]) - 1)),
    "D6": "%+.1f%%" % (100 * (1 - geomean([energy(w, "tc-strong") / energy(w, "mesi") for w in inter]))),
    "S1": "(geomean, inter): %+.1f%%" % (100 * (geomean([metric(w, "rcc", "ordering") / metric(w, "mesi", "ordering")
                                                         for w in inter]) - 1)),
    "S3": "(geomean, inter): %+.1f%%" % (100 * (geomean([metric(w, "rcc", "issue_filter_hold_cycles_mean") /
                                                          metric(w, "mesi", "issue_filter_hold_cycles_mean")
                                                          for w in inter]) - 1)),
    "R1": "(total, inter): %+.1f%%" % (100 * (sum(metric(w, "rcc", "noc_bytes") for w in inter) /
                                              sum(metric(w, "rcc", "noc_bytes", "rcc-no-renewal") for w in inter) - 1)),
    "W1": "%+.1f%% (geomean, inter)" % (100 * (geomean([metric(w, "mesi", "cycles", "mesi-write-back") /
                                                        metric(w, "rcc", "cycles") for w in inter]) - 1)),
}
failed = False
for claim, number in expected.items():
    row = re.search(r"^\| %s \|.*$" % claim, claims, re.M)
    if claim[0] in "SRW":
        if not row or number not in row.group(0):
            print("FAIL: %s should quote %s: %s" % (claim, number, row.group(0) if row else "no row"))
            failed = True
        continue
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

expect_same_report "$db" "$total" "$work/report" rcc "${args[@]:1}"

[ "$failures" -eq 0 ] && echo "reproduce_rcc: all checks passed"
exit $((failures > 0))
