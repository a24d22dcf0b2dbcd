#!/bin/bash
# accuracy_cells.sh — measures cells of the README's accuracy table ("Over 30 held-out points x 8
# workloads"): for each "M S" (mechanism, system preset), `calibrate` then `validate` into a fresh
# database OUT/M-S.db, and prints the cell as a row of that table:
#   | M, S | mean | median | max | stall | the four worst workloads (mean) |
# (mean, median and max absolute cycle error and the mean over the GSI categories of the stall-
# fraction error, as validate prints them; each workload's mean from `query model_error --param
# per=workload`). With --reuse DIR, a cell whose DIR/M-S.db exists reuses the detailed runs that
# database holds of the same computation (calibrate and validate --detailed-from: the runs of a
# binary with the same detailed identity; a database older than schema 6 holds none and is
# skipped), so a change of the model alone re-measures every cell without simulating again
# (docs/calibration.md, "Reusing detailed runs across databases"). Progress and each cell's reuse
# count and wall time go to stderr; the rows to stdout. The cells run one after another.
#
# usage: scripts/accuracy_cells.sh [--binary PATH] [--out DIR] [--reuse DIR] "M S" ["M S" ...]
#   --binary  the syncscope to measure (default: build/syncscope)
#   --out     where the fresh databases go (default: acc-cells); an existing M-S.db is replaced
#   --reuse   a directory of earlier databases named M-S.db
# example: scripts/accuracy_cells.sh --out /tmp/acc2 --reuse /tmp/acc1 "wt gtx480" "nol1 gsi"
set -euo pipefail

binary=build/syncscope out=acc-cells reuse=
while [ $# -gt 0 ]; do
    case $1 in
        --binary) binary=$2; shift 2 ;;
        --out) out=$2; shift 2 ;;
        --reuse) reuse=$2; shift 2 ;;
        --help|-h) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
        --*) echo "accuracy_cells.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
        *) break ;;
    esac
done
[ $# -gt 0 ] || { echo "accuracy_cells.sh: give at least one cell \"M S\" (see --help)" >&2; exit 2; }
command -v sqlite3 >/dev/null || { echo "accuracy_cells.sh: needs the sqlite3 shell" >&2; exit 2; }
mkdir -p "$out"
export SYNCSCOPE_PROGRESS=0

for cell in "$@"; do
    read -r mechanism system rest <<<"$cell"
    [ -n "${system:-}" ] && [ -z "${rest:-}" ] || { echo "accuracy_cells.sh: a cell is \"M S\", not \"$cell\"" >&2; exit 2; }
    db="$out/$mechanism-$system.db"
    rm -f "$db" "$db-wal" "$db-shm"
    from=()
    earlier="${reuse:+$reuse/$mechanism-$system.db}"
    if [ -n "$earlier" ] && [ -f "$earlier" ]; then
        if [ "$(sqlite3 -readonly "$earlier" 'PRAGMA user_version')" -ge 6 ]; then
            from=(--detailed-from "$earlier")
        else
            echo "$mechanism $system: $earlier predates the detailed identity (schema 6): every run simulated" >&2
        fi
    fi
    start=$SECONDS
    "$binary" calibrate --mechanism "$mechanism" --system "$system" --db "$db" "${from[@]}" >"$db.calibrate.txt" 2>"$db.log"
    "$binary" validate --mechanism "$mechanism" --system "$system" --db "$db" "${from[@]}" >"$db.validate.txt" 2>>"$db.log"
    reuse_note=
    if [ ${#from[@]} -gt 0 ]; then
        reuse_note="; detailed runs $(grep -h "^detailed runs:" "$db.calibrate.txt" "$db.validate.txt" |
            awk '{r += $3; s += $(NF - 5)} END {print r + 0, "reused,", s + 0, "simulated"}')"
    fi
    echo "$mechanism $system: $((SECONDS - start)) s wall$reuse_note" >&2
    errors=$(awk '$1 == "cycles" && !seen++ {printf "%.1f%% | %.1f%% | %.0f%%", $3, $5, $7}' "$db.validate.txt")
    stall=$(awk '/stall fractions, mean over categories:/ && !seen++ {printf "%.3f", $NF}' "$db.validate.txt")
    worst=$("$binary" query model_error --db "$db" --param per=workload --csv |
        awk -F, 'NR == 1 {for (c = 1; c <= NF; c++) column[$c] = c; next}
                 NR <= 5 {printf "%s%s %.1f%%", (NR > 2 ? ", " : ""), $column["workload"], $column["mean_abs_error_pct"]}')
    echo "| $mechanism, $system | $errors | $stall | $worst |"
done
