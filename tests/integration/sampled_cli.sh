#!/bin/bash
# sampled_cli.sh — `run --mode sampled`: outputs stay correct (the workload's check passes) under
# kernel-level sampling (the relax_min manifest: about 590 launches of one size, relaunched until
# no label changes) and CTA-wave windows inside launches (vecadd with short periods); the
# estimate lies in its interval and within 5 % of the full detailed run (relax_min measures
# +1.0 %); the run is stored with mode 'sampled', its sample.* metrics and a stall breakdown
# summing exactly to the estimated cycles; an estimate without an interval says it is unreliable
# (stderr, printed result, JSON) and is stored with sample.has_interval 0 (docs/sampled-runs.md);
# bad sampling flags fail in one line and store nothing.
# Usage: sampled_cli.sh PATH/TO/syncscope
set -u
syncscope=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
source "$(dirname "$0")/lib/cli_checks.sh"

relax_min="$(dirname "$0")/../data/manifests/fresh/relax_min.json"
"$syncscope" run --workload-file "$relax_min" --mode detailed --no-db --json >"$work/full.json" || fail "detailed relax_min run"
"$syncscope" run --workload-file "$relax_min" --mode sampled --db "$work/runs.db" --json >"$work/sampled.json" ||
    fail "sampled relax_min run"
python3 - "$work/full.json" "$work/sampled.json" <<'PY' || failures=$((failures + 1))
import json, sys
full, sampled = (json.load(open(path)) for path in sys.argv[1:3])
sample = sampled["sample"]
problems = []
if sampled["check"] != "passed": problems.append("check " + sampled["check"])
# Labels spread within a launch as neighbours see each other's updates, so the launch count
# depends on timing: the fast-forwarded launches may converge a few launches apart.
if abs(sampled["launches"] - full["launches"]) > 0.02 * full["launches"]:
    problems.append("launches %d vs %d" % (sampled["launches"], full["launches"]))
if not 0 < sample["detailed_fraction"] <= 0.06: problems.append("detailed fraction %r" % sample["detailed_fraction"])
if sample["ci_low"] is None or not sample["ci_low"] <= sample["estimated_cycles"] <= sample["ci_high"]:
    problems.append("estimate outside its interval")
error = abs(sample["estimated_cycles"] - full["cycles"]) / full["cycles"]
if error > 0.05: problems.append("estimate %.0f vs full %d: %.1f %% off" % (sample["estimated_cycles"], full["cycles"], 100 * error))
if sampled["cycles"] != round(sample["estimated_cycles"]): problems.append("cycles are not the rounded estimate")
for problem in problems: print("FAIL: relax_min sampled:", problem)
sys.exit(1 if problems else 0)
PY

cat >"$work/stored.sql" <<'SQL'
SELECT r.mode, r.cycles, (SELECT sum(cycles) FROM stalls s WHERE s.run_id = r.id AND s.cu = -1),
       (SELECT count(*) FROM metrics m WHERE m.run_id = r.id AND m.name IN
           ('sample.detailed_fraction', 'sample.ci_low', 'sample.ci_high', 'sample.windows'))
FROM runs r;
SQL
stored=$("$syncscope" query "$work/stored.sql" --csv --db "$work/runs.db" | tail -n 1)
IFS=, read -r mode cycles stall_sum metric_count <<<"$stored"
[ "$mode" = sampled ] || fail "stored mode '$mode'"
[ "$metric_count" = 4 ] || fail "stored sample metrics: $metric_count of 4"
python3 -c "import sys; sys.exit(abs(float('$stall_sum') - float('$cycles')) > 1e-9 * float('$cycles'))" ||
    fail "mean stall rows sum to $stall_sum, not the $cycles estimated cycles"

# CTA-wave windows: each vecadd launch of 256 CTAs gets one window, stretched from 2 waves to the
# whole 1/period (128 CTAs), the rest fast-forwarded.
"$syncscope" run --workload vecadd --size small --mode sampled --sample-period 2 --sample-window-waves 2 --sample-warmup-waves 1 \
    --no-db --json >"$work/windows.json" 2>"$work/windows.err" || fail "windowed vecadd run"
python3 - "$work/windows.json" <<'PY' || failures=$((failures + 1))
import json, sys
run = json.load(open(sys.argv[1]))
sample = run["sample"]
ok = run["check"] == "passed" and sample["windows"] == 2 and 0.45 <= sample["detailed_fraction"] <= 0.5
if not ok: print("FAIL: windowed vecadd:", run["check"], sample)
sys.exit(0 if ok else 1)
PY

# An estimate without an interval (nn's one launch gets one window at period 2) says it is
# unreliable on stderr and in the printed result, and is stored with sample.has_interval 0;
# relax_min's, with its interval, with 1.
"$syncscope" run --workload nn --size small --mode sampled --sample-period 2 --sample-window-waves 2 --sample-warmup-waves 1 \
    --db "$work/runs.db" >"$work/no_interval.out" 2>"$work/no_interval.err" || fail "sampled nn run without an interval"
grep -q "^syncscope run: warning: the sampled estimate has no confidence interval and is unreliable: kernel nn_distances" \
    "$work/no_interval.err" || fail "no unreliable-estimate warning on stderr: $(cat "$work/no_interval.err")"
grep -q "^95% CI  *NONE: UNRELIABLE ESTIMATE, kernel nn_distances" "$work/no_interval.out" ||
    fail "the printed result does not say the estimate is unreliable: $(grep CI "$work/no_interval.out")"
"$syncscope" run --workload nn --size small --mode sampled --sample-period 2 --sample-window-waves 2 --sample-warmup-waves 1 \
    --no-db --json 2>/dev/null | python3 -c "import json, sys; sys.exit(json.load(sys.stdin)['sample']['reliable'] is not False)" ||
    fail "run --json does not give reliable false"
python3 -c "import json, sys; sys.exit(json.load(open(sys.argv[1]))['sample']['reliable'] is not True)" "$work/sampled.json" ||
    fail "relax_min's run --json does not give reliable true"
cat >"$work/interval.sql" <<'SQL'
SELECT r.workload, m.value FROM runs r
JOIN metrics m ON m.run_id = r.id AND m.kernel_index = -1 AND m.name = 'sample.has_interval'
ORDER BY r.id;
SQL
intervals=$("$syncscope" query "$work/interval.sql" --csv --db "$work/runs.db" | tail -n +2 | paste -sd' ')
[ "$intervals" = "fresh_relax_min,1.0 nn,0.0" ] ||
    fail "stored sample.has_interval: '$intervals', not fresh_relax_min 1.0 and nn 0.0"

# Under an ownership protocol the L1s hold dirty lines and a directory tracks them: switching to
# the functional executor and back must write them back and forget the directory's copies.
for workload in nw sort; do
    "$syncscope" run --workload $workload --size small --mode sampled --mechanism rfo --no-db \
        >"$work/rfo.out" 2>&1 || fail "sampled $workload under rfo: $(grep -m1 -E 'check|syncscope' "$work/rfo.out")"
done

expect_usage_error() { # expect_usage_error TEXT ARGS...: exit 2, one stderr line containing TEXT
    local text=$1
    shift
    expect 2 "$*" "$syncscope" run --workload vecadd --size tiny --db "$work/bad.db" "$@"
    expect_error_line "$text"
}
expect_usage_error "--sample-period '0'" --mode sampled --sample-period 0
expect_usage_error "--sample-window-waves 'x'" --mode sampled --sample-window-waves x
expect_usage_error "must be less than --sample-window-waves" --mode sampled --sample-warmup-waves 8
expect_usage_error "need --mode sampled" --mode detailed --sample-period 5
[ -e "$work/bad.db" ] && fail "a refused run created a database"

[ "$failures" -eq 0 ] && echo "sampled_cli: ok"
exit "$failures"
