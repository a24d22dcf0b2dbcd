#!/usr/bin/env bash
# notebooks.sh — every canned query's exported notebook runs headless and draws exactly the
# query's values (issue 26, item 4). For each queries/NAME.sql it checks that queries/NAME.py (the
# query's plot cell) exists, exports the notebook from a database whose every canned query has
# rows (`syncscope bench store`'s synthetic runs) and, for the stall breakdown and the speedup,
# from real detailed runs too; executes every notebook with jupyter-nbconvert; and then compares
# each value the notebook drew (the heights it read back from matplotlib's bars, written to
# NAME.plotted.json) with the CSV cell it came from: equal, the column the query's figure is
# about (mean_speedup, not max_speedup; normalized_cycles as the query normalised it), every CSV
# row drawn at least once, and a PNG beside the notebook for every figure.
#
# usage: notebooks.sh PATH/TO/syncscope     (skips with exit 77 when jupyter-nbconvert or the
# pandas and matplotlib of its Python are missing; scripts/install-deps.sh installs them for tests)
set -u
syncscope=${1:?usage: notebooks.sh PATH/TO/syncscope}
nbconvert=$(command -v jupyter-nbconvert || true)
if [ -z "$nbconvert" ]; then
    echo "skipped: jupyter-nbconvert not installed"
    exit 77
fi
python=$(head -n 1 "$nbconvert" | sed 's/^#! *//')   # the Python the notebooks' kernel runs
if ! $python -c "import pandas, matplotlib, ipykernel" 2>/dev/null; then
    echo "skipped: $python lacks pandas, matplotlib or ipykernel"
    exit 77
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
source "$(dirname "$0")/lib/cli_checks.sh"
queries="${SYNCSCOPE_SOURCE_DIR:-$(cd "$(dirname "$0")/../.." && pwd)}/queries"

expect 0 "bench store" "$syncscope" bench store --runs 3000 --db "$work/synthetic.sqlite"
for mechanism in wt qr; do
    expect 0 "detailed nn run ($mechanism)" "$syncscope" run --workload nn --mechanism "$mechanism" --size tiny \
        --mode detailed --db "$work/real.sqlite"
done

mkdir -p "$work/nb"
for file in "$queries"/*.sql; do
    name=$(basename "$file" .sql)
    [ -f "$queries/$name.py" ] || fail "queries/$name.sql has no plot cell queries/$name.py"
    params=()
    case $name in   # every design point of the synthetic sweep would give thousands of bars
        stall_breakdown | traffic) params=(--param workload=synthetic-0 --param system=gtx480) ;;
    esac
    expect 0 "export $name" "$syncscope" export "$name" --format ipynb --out "$work/nb/$name.ipynb" \
        --db "$work/synthetic.sqlite" "${params[@]}"
done
for name in stall_breakdown speedup; do
    expect 0 "export $name (real runs)" "$syncscope" export "$name" --format ipynb \
        --out "$work/nb/real_$name.ipynb" --db "$work/real.sqlite"
done

(cd "$work/nb" && "$nbconvert" --to notebook --execute --inplace ./*.ipynb >"$work/nbconvert.log" 2>&1) ||
    { fail "a notebook failed to run:"; grep -v "Debugger\|frozen modules\|PYDEVD\|^$" "$work/nbconvert.log" | tail -40; }

$python - "$work/nb" <<'PYTHON' || fail "the drawn values differ from the CSVs (above)"
import csv, glob, json, math, os, sys

# The column each query's figures are about; any other drawn column is a mistake.
COLUMNS = {
    "speedup": {"mean_speedup"},
    "geomean_speedup": {"geomean_speedup"},
    "stall_breakdown": {"normalized_cycles"},
    "traffic": {"ratio_to_baseline"},
    "sensitivity": {"relative_range"},
    "model_error": {"mean_abs_error_pct", "max_abs_error_pct", "mean_stall_fraction_error", "max_stall_fraction_error", "mean_r2"},
    "model_hits": {"cycle_mean_abs_pct", "l1_miss_mean_abs_pct", "l2_miss_mean_abs_pct", "l1_hit_ratio_mean_abs_pp"},
    "best_configs": {"value"},
    "run_outcomes": {"runs"},
    "run_summary": {"ok", "check_failed", "error"},
    "runs_matching": {"cycles"},
}
directory = sys.argv[1]
problems = 0
for notebook in sorted(glob.glob(os.path.join(directory, "*.ipynb"))):
    stem = os.path.splitext(notebook)[0]
    name = os.path.basename(stem)
    query = name[len("real_"):] if name.startswith("real_") else name
    with open(stem + ".csv", newline="") as f:
        rows = list(csv.DictReader(f))
    with open(stem + ".plotted.json") as f:
        plotted = json.load(f)["plotted"]
    drawn_rows = set()
    figures = set()
    for entry in plotted:
        figures.add(entry["figure"])
        text = rows[entry["row"]][entry["column"]]
        expected = float(text) if text != "" else None
        drawn = entry["drawn"]
        same = (expected is None and drawn is None) or (
            expected is not None and drawn is not None and (drawn == expected or math.isclose(drawn, expected, rel_tol=1e-12)))
        if not same or entry["column"] not in COLUMNS[query]:
            print("%s: figure %s drew %r for row %d column %s, the CSV holds %r"
                  % (name, entry["figure"], drawn, entry["row"], entry["column"], text))
            problems += 1
        drawn_rows.add(entry["row"])
    missing = [i for i in range(len(rows)) if i not in drawn_rows]
    if not rows or missing:
        print("%s: %d CSV rows, %d of them not drawn (first: %s)" % (name, len(rows), len(missing), missing[:5]))
        problems += 1
    pngs = glob.glob(glob.escape(stem) + "-*.png")
    if len(pngs) != len(figures):
        print("%s: %d figures drawn, %d PNGs saved" % (name, len(figures), len(pngs)))
        problems += 1
    print("%s: %d rows, %d values drawn in %d figures" % (name, len(rows), len(plotted), len(figures)))
sys.exit(1 if problems else 0)
PYTHON

[ "$failures" -eq 0 ] && echo "notebooks: all checks passed"
exit $((failures > 0))
