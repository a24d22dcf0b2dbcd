#!/bin/bash
# mutation_check.sh — does the test suite catch one-line behavioural changes? (Not part of CI.)
# Copies the tracked tree into a scratch directory (the worktree is never touched), builds it
# once, then for each mutation below: replaces one exact line fragment in one file (failing if it
# is not found exactly there), rebuilds the targets it needs, runs the ctest subset that should
# catch it, restores the file, and records which tests failed. Prints a table (mutation -> the
# tests that caught it, or MISSED) and exits 1 if any mutation was missed.
# Usage: scripts/mutation_check.sh [SCRATCH_DIR]   (default /tmp/syncscope-mutation; reused if built)
#        ONLY=REGEX scripts/mutation_check.sh ...  runs only the mutations whose name matches REGEX
# A full run took 13 minutes on two cores (22 mutations, the scratch build reused): every
# simulator and model mutation reruns the behaviour golden (about 1,300 tiny runs).
set -u
repo=$(cd "$(dirname "$0")/.." && pwd)
scratch=${1:-/tmp/syncscope-mutation}
mkdir -p "$scratch/src"
# Only files that differ are copied, so a reused scratch build recompiles only what changed.
(cd "$repo" && git ls-files -z | while IFS= read -r -d '' path; do
    cmp -s "$path" "$scratch/src/$path" 2>/dev/null || cp --parents "$path" "$scratch/src"
done)
cmake -S "$scratch/src" -B "$scratch/build" -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null || exit 2
cmake --build "$scratch/build" -j2 >"$scratch/build.log" 2>&1 || { echo "the unmutated tree does not build"; exit 2; }

names=() files=() froms=() tos=() tests=() targets=()
# mutation NAME FILE FROM TO CTEST_REGEX BUILD_TARGETS ("-": no rebuild)
mutation() { names+=("$1") files+=("$2") froms+=("$3") tos+=("$4") tests+=("$5") targets+=("$6"); }

golden='^integration_golden_behaviour$'
# simulator
mutation "L1 hit latency doubled" src/timing/l1_controller.c \
    'sc_clock_span(memory->config.gpu_clock, memory->config.l1_latency)' \
    'sc_clock_span(memory->config.gpu_clock, 2 * memory->config.l1_latency)' "$golden" syncscope
mutation "NoC traversal one cycle longer" src/timing/noc.c \
    'uint64_t cycles = network->config.latency;' 'uint64_t cycles = network->config.latency + 1;' "$golden" syncscope
mutation "DRAM read data without CAS latency" src/timing/dram_channel.c \
    '(is_write ? timing->wl : timing->cl)' '(is_write ? timing->wl : 0)' "$golden" syncscope
# GSI
mutation "gtx480 GSI cycle order: mem_data before mem_struct" models/systems/gtx480.json \
    '"cycle_order": "no_stall,mem_struct,mem_data,' '"cycle_order": "no_stall,mem_data,mem_struct,' "$golden" -
mutation "GSI cycle winner: the last of equal rank instead of the first" src/stalls/gsi.c \
    'if (cycle_rank[category] < cycle_rank[best]) {' 'if (cycle_rank[category] <= cycle_rank[best]) {' \
    "$golden|^test_gsi$" "syncscope test_gsi"
# model
mutation "model: Schweitzer's (N-1)/N correction dropped" src/model/model_core.c \
    'double correction = net->correction = (net->population - 1.0) / net->population;' \
    'double correction = net->correction = 1.0;' "$golden|^integration_model_accuracy$|^test_model$" \
    "syncscope test_model"
mutation "model: queueing wait doubled" src/model/model_core.c \
    'loaded_wait[k] = net->queue_demand[k] * v * free_share;' \
    'loaded_wait[k] = net->queue_demand[k] * v * free_share * 2.0;' \
    "$golden|^integration_model_accuracy$|^test_model$" "syncscope test_model"
# store
mutation "store: run cycles stored one higher" src/store/store_insert.c \
    'sqlite3_bind_double(run, 13, record->cycles);' 'sqlite3_bind_double(run, 13, record->cycles + 1);' \
    '^test_store$|^test_query_values$' "test_store test_query_values"
mutation "db check: stall sums never reported" src/store/store_check.c \
    '> 1e-6 * max(1.0, r.cycles)' '> 1e6 * max(1.0, r.cycles)' '^test_store$' test_store
# canned queries (read at run time: no rebuild)
q='^test_query_values$'
mutation "speedup: numerator and denominator swapped" queries/speedup.sql \
    'round(avg(b.cycles / p.cycles), 4)' 'round(avg(p.cycles / b.cycles), 4)' "$q" -
mutation "geomean_speedup: join ignores the configuration" queries/geomean_speedup.sql \
    'AND b.config_hash = p.config_hash' '' "$q" -
mutation "stall_breakdown: normalised to the mechanism, not the baseline" queries/stall_breakdown.sql \
    'round(st.cycles / p.runs / b.cycles, 4)' 'round(st.cycles / p.runs / p.cycles, 4)' "$q" -
mutation "stall_breakdown: per-CU rows counted" queries/stall_breakdown.sql 'AND s.cu = -1' '' "$q" -
mutation "traffic: sum instead of mean over runs" queries/traffic.sql 'avg(m.value) AS value' 'sum(m.value) AS value' "$q" -
mutation "traffic: kernel rows counted" queries/traffic.sql 'm.run_id = r.id AND m.kernel_index = -1' 'm.run_id = r.id' "$q" -
mutation "sensitivity: points weighted equally" queries/sensitivity.sql \
    'sum(point.cycles * point.runs) / sum(point.runs) AS cycles' 'avg(point.cycles) AS cycles' "$q" -
mutation "model_hits: MSHR merges not counted as hits" queries/model_hits.sql \
    "name IN ('l1_hits', 'l1_mshr_merges')" "name IN ('l1_hits')" "$q" -
mutation "runs_matching: oldest runs instead of newest" queries/runs_matching.sql \
    'ORDER BY id DESC LIMIT :limit' 'ORDER BY id LIMIT :limit' "$q" -
mutation "best_configs: L3 left out of the cache budget" queries/best_configs.sql \
    'c.l2_size + c.l3_size AS cache_bytes' 'c.l2_size AS cache_bytes' "$q" -
mutation "run_summary: workloads counted with repeats" queries/run_summary.sql \
    'count(DISTINCT workload) AS workloads' 'count(workload) AS workloads' "$q" -
mutation "run_outcomes: oldest failures listed" queries/run_outcomes.sql 'ORDER BY id DESC' 'ORDER BY id' "$q" -
mutation "model_error: r2 weighted by validations" queries/model_error.sql \
    'round(avg(r2), 4) AS mean_r2' 'round(sum(r2 * validations) / sum(validations), 4) AS mean_r2' "$q" -

report="$scratch/report.txt"
: >"$report"
missed=0
for i in "${!names[@]}"; do
    [[ -n "${ONLY:-}" && ! "${names[i]}" =~ ${ONLY} ]] && continue
    file="$scratch/src/${files[i]}"
    cp "$file" "$file.orig"
    if ! FROM="${froms[i]}" TO="${tos[i]}" perl -0pi -e '$n = s/\Q$ENV{FROM}\E/$ENV{TO}/g; END { exit($n == 1 ? 0 : 1) }' "$file"; then
        mv "$file.orig" "$file"
        printf '%-62s  NOT APPLIED (the fragment is not in %s exactly once)\n' "${names[i]}" "${files[i]}" | tee -a "$report"
        missed=$((missed + 1))
        continue
    fi
    start=$SECONDS
    caught=""
    if [ "${targets[i]}" != - ] && ! cmake --build "$scratch/build" -j2 --target ${targets[i]} >"$scratch/mutation.log" 2>&1; then
        caught="the build"
    else
        (cd "$scratch/build" && ctest -j2 -R "${tests[i]}" >"$scratch/mutation.log" 2>&1)
        caught=$(sed -n '/The following tests FAILED/,$s/^[[:space:]]*[0-9]* - \([A-Za-z0-9_]*\) (.*/\1/p' \
                 "$scratch/mutation.log" | paste -sd, -)
        grep -q "No tests were found" "$scratch/mutation.log" && caught=""
    fi
    mv "$file.orig" "$file"
    touch "$file"
    if [ -z "$caught" ]; then
        caught=MISSED
        missed=$((missed + 1))
    fi
    printf '%-62s  %-40s %4ds\n' "${names[i]}" "$caught" $((SECONDS - start)) | tee -a "$report"
done
# Leave the scratch build as the unmutated tree.
cmake --build "$scratch/build" -j2 >/dev/null 2>&1
echo "${#names[@]} mutations, $missed missed (report: $report)"
exit $((missed > 0))
