#!/bin/bash
# detailed_reuse.sh — `calibrate` and `validate --detailed-from OLD` copy the detailed (and sampled)
# runs OLD holds of the same computation instead of simulating them again: a cell calibrated and
# validated into A, then into B reusing A, leaves B with every run reused and a dump identical to
# A's (every run, metric, stall row, profile, fit and validation: scripts/store_dump.sh), the same
# printed fit and errors, and each copy marked with where it came from; a per-workload fit on
# sample windows likewise. A run whose stored detailed identity differs, whose configuration
# differs by one key, or of another size is simulated instead, and so is every run of a binary
# reading its data files from another tree than its identity covers. A missing, foreign, older or locked
# OLD fails in one line naming it, before the study's database is created or written.
# Usage: detailed_reuse.sh PATH/TO/syncscope
set -u
syncscope=$1
work=$(mktemp -d)
holder=
trap '[ -n "$holder" ] && kill "$holder" 2>/dev/null; rm -rf "$work"' EXIT
source "$(dirname "$0")/lib/cli_checks.sh"
root=$(cd "$(dirname "$0")/../.." && pwd)
command -v sqlite3 >/dev/null || { echo "detailed_reuse: needs the sqlite3 shell"; exit 77; }
export SYNCSCOPE_PROGRESS=0
cell=(--mechanism wt --system gtx480 --workloads vecadd,spmv --size tiny)

# study NAME DB [OLD]: calibrate (2 points) and validate (3 points) the cell into DB, reusing OLD's
# runs if given; the outputs in $work/NAME.calibrate and $work/NAME.validate.
study() {
    local name=$1 db=$2 from=()
    [ $# -gt 2 ] && from=(--detailed-from "$3")
    expect 0 "$name: calibrate" "$syncscope" calibrate "${cell[@]}" --points 2 --db "$db" "${from[@]}"
    grep -v "time:" "$work/out" >"$work/$name.calibrate"
    expect 0 "$name: validate" "$syncscope" validate "${cell[@]}" --points 3 --db "$db" "${from[@]}"
    cp "$work/out" "$work/$name.validate"
}

study fresh "$work/a.sqlite"
study reused "$work/b.sqlite" "$work/a.sqlite"
grep -qF "detailed runs: 4 reused from $work/a.sqlite, 0 simulated" "$work/reused.calibrate" ||
    fail "calibrate did not reuse all 4 runs: $(tail -1 "$work/reused.calibrate")"
grep -qF "detailed runs: 6 reused from $work/a.sqlite, 0 simulated" "$work/reused.validate" ||
    fail "validate did not reuse all 6 runs: $(tail -1 "$work/reused.validate")"
for step in calibrate validate; do
    diff <(grep -v "^detailed runs:" "$work/reused.$step") "$work/fresh.$step" >/dev/null ||
        fail "$step printed otherwise with reused runs: $(diff <(grep -v "^detailed runs:" "$work/reused.$step") "$work/fresh.$step" | head -5)"
done
db="$work/b.sqlite"
check "every detailed run of B is a copy of A's run of the same id" \
    "SELECT count(*) FROM runs WHERE mode = 'detailed' AND reused_from = '$work/a.sqlite' AND reused_run_id = id" 10
check "the copies keep their detailed identity" \
    "SELECT count(DISTINCT detailed_identity) FROM runs WHERE mode = 'detailed' AND length(detailed_identity) = 64" 1
check "a model run records no detailed identity" "SELECT count(*) FROM runs WHERE mode = 'model' AND detailed_identity IS NOT NULL" 0

# A per-workload fit on sample windows: its 9 sampled runs are reused too.
for pair in "a.sqlite" "b.sqlite a.sqlite"; do
    set -- $pair
    from=()
    [ $# -gt 1 ] && from=(--detailed-from "$work/$2")
    expect 0 "windows into $1" "$syncscope" calibrate --mechanism wt --workload vecadd --windows --points 1 --size tiny \
        --db "$work/$1" "${from[@]}"
done
expect_output "detailed runs: 9 reused from $work/a.sqlite, 0 simulated"
bash "$root/scripts/store_dump.sh" "$work/a.sqlite" >"$work/a.dump"
bash "$root/scripts/store_dump.sh" "$work/b.sqlite" >"$work/b.dump"
cmp -s "$work/a.dump" "$work/b.dump" || fail "B reusing A's runs stored otherwise: $(diff "$work/a.dump" "$work/b.dump" | head -5)"
[ "$(wc -l <"$work/a.dump")" -gt 1000 ] || fail "the dump is too short to compare: $(wc -l <"$work/a.dump") lines"

# Another sampling setting: the sampled runs are simulated again.
cp "$work/a.sqlite" "$work/c.sqlite"
expect 0 "windows at another period" "$syncscope" calibrate --mechanism wt --workload vecadd --windows --points 1 \
    --size tiny --sample-period 10 --db "$work/c.sqlite" --detailed-from "$work/a.sqlite"
expect_output "detailed runs: 0 reused from $work/a.sqlite, 9 simulated"

# A run is reused only by the identity it was simulated by, and at exactly its configuration.
cp "$work/a.sqlite" "$work/other-identity.sqlite"
sqlite3 "$work/other-identity.sqlite" "UPDATE runs SET detailed_identity = 'another ' || detailed_identity"
expect 0 "calibrate from another identity" "$syncscope" calibrate "${cell[@]}" --points 2 --db "$work/d.sqlite" \
    --detailed-from "$work/other-identity.sqlite"
expect_output "detailed runs: 0 reused from $work/other-identity.sqlite, 4 simulated"
diff <(grep -v "time:\|^detailed runs:" "$work/out") "$work/fresh.calibrate" >/dev/null ||
    fail "the runs simulated again fitted otherwise"
cp "$work/a.sqlite" "$work/other-key.sqlite"
# The first point's configuration (vecadd's and spmv's first runs) gains one key; its hash stays.
sqlite3 "$work/other-key.sqlite" "UPDATE configs SET json = json_set(json, '$.dram.extra_key', 1)
    WHERE hash = (SELECT config_hash FROM runs WHERE id = 1)"
expect 0 "calibrate from another configuration" "$syncscope" calibrate "${cell[@]}" --points 2 --db "$work/e.sqlite" \
    --detailed-from "$work/other-key.sqlite"
expect_output "detailed runs: 2 reused from $work/other-key.sqlite, 2 simulated"
expect 0 "calibrate at another size" "$syncscope" calibrate --mechanism wt --workloads vecadd --size small --points 1 \
    --db "$work/f.sqlite" --detailed-from "$work/a.sqlite"
expect_output "detailed runs: 0 reused from $work/a.sqlite, 1 simulated"

# Data files read from another tree than the identity covers: no identity recorded, nothing reused.
mkdir "$work/tree"
ln -s "$root/models" "$root/queries" "$root/src" "$root/db" "$work/tree/"
expect 0 "calibrate reading another tree" env SYNCSCOPE_SOURCE_DIR="$work/tree" "$syncscope" calibrate "${cell[@]}" \
    --points 2 --db "$work/g.sqlite" --detailed-from "$work/a.sqlite"
expect_output "detailed runs: 0 reused from $work/a.sqlite, 4 simulated"
db="$work/g.sqlite"
check "runs reading another tree record no identity" "SELECT count(*) FROM runs WHERE detailed_identity IS NOT NULL" 0

# Bad earlier databases: one line naming the file, exit 1 (2 for the study's own database), the
# study's database never created or written.
printf 'not a database at all, just text\n%.0s' $(seq 20) >"$work/text.sqlite"
cp "$work/a.sqlite" "$work/older.sqlite"
sqlite3 "$work/older.sqlite" "PRAGMA user_version = 5"
for bad in "missing.sqlite:no such database to reuse detailed runs from" \
    "text.sqlite:not a syncscope database" "older.sqlite:schema version 5 predates the detailed identity"; do
    file=${bad%%:*} text=${bad#*:}
    expect 1 "calibrate from $file" "$syncscope" calibrate "${cell[@]}" --points 1 --db "$work/new.sqlite" \
        --detailed-from "$work/$file"
    expect_error_line "$work/$file: $text"
    [ ! -e "$work/new.sqlite" ] || fail "calibrate from $file created the study's database"
done
[ "$(sqlite3 "$work/older.sqlite" "PRAGMA user_version")" = 5 ] || fail "the older database was migrated"
expect 2 "validate from its own database" "$syncscope" validate "${cell[@]}" --points 1 --db "$work/b.sqlite" \
    --detailed-from "$work/./b.sqlite"
expect_error_line "$work/./b.sqlite: --detailed-from names the study's own database"
runs_before=$(sqlite3 "$work/b.sqlite" "SELECT count(*) FROM runs")
(echo "PRAGMA locking_mode = EXCLUSIVE; BEGIN EXCLUSIVE; DELETE FROM sweeps;"; sleep 15; echo "ROLLBACK;") |
    sqlite3 "$work/other-key.sqlite" >/dev/null &
holder=$!
sleep 1
expect 1 "validate from a locked database" "$syncscope" validate "${cell[@]}" --points 1 --db "$work/b.sqlite" \
    --detailed-from "$work/other-key.sqlite"
expect_error_line "$work/other-key.sqlite: not a readable SQLite database (database is locked)"
[ "$(sqlite3 "$work/b.sqlite" "SELECT count(*) FROM runs")" = "$runs_before" ] ||
    fail "validate from a locked database wrote to the study's database"
kill "$holder" 2>/dev/null
wait "$holder" 2>/dev/null
holder=

[ "$failures" -eq 0 ] && echo "detailed_reuse: all checks passed" || { echo "detailed_reuse: $failures failures"; exit 1; }
