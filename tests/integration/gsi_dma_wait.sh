#!/usr/bin/env bash
# gsi_dma_wait.sh — the experiment gsi.dma_wait (docs/gsi-reproduction.md §5): a DMA-mapped launch
# whose chunks (64 lines) outnumber the 32 MSHRs of one gsi SM, so its DMA engine is refused MSHRs,
# runs under denovo with gsi.dma_wait pending_dma (the default) and mshr_full. The option changes
# the classification only: the same cycles; no mshr_full by default; with it, the cycles the engine
# was refused an MSHR (run metric dma_mshr_refused_cycles, > 0) move from pending_dma to mshr_full.
# $1 is the syncscope binary; SYNCSCOPE_SOURCE_DIR is the repository.
set -euo pipefail

syncscope="${1:?usage: gsi_dma_wait.sh SYNCSCOPE_BINARY}"
source_dir="${SYNCSCOPE_SOURCE_DIR:?SYNCSCOPE_SOURCE_DIR must name the repository}"
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT

cat >"$scratch/dma.json" <<JSON
{"name": "dma64", "ptx": "$source_dir/models/kernels/implicit.ptx",
 "buffers": {"data": {"type": "u32", "count": 4096, "init": "iota"}},
 "launches": [{"kernel": "implicit_dma", "grid": 4, "block": 1024, "shared_bytes": 4096,
               "dma": {"buffer": "data", "bytes_per_cta": 4096}}],
 "outputs": ["data"]}
JSON

for wait in pending_dma mshr_full; do
    "$syncscope" run --workload-file "$scratch/dma.json" --db "$scratch/$wait.sqlite" --mode detailed --system gsi \
        --mechanism denovo --set gpu.cu_count=1 --set l1.mshrs=32 --set gsi.dma_wait=$wait >/dev/null
done

python3 - "$scratch" <<'PY'
import sqlite3, sys
def read(name):
    db = sqlite3.connect(f"{sys.argv[1]}/{name}.sqlite")
    stall = lambda sub: db.execute("select coalesce(sum(cycles), 0) from stalls where cu = -1 and subcategory = ?",
                                   (sub,)).fetchone()[0]
    metric = lambda n: db.execute("select value from metrics where kernel_index = -1 and name = ?", (n,)).fetchone()[0]
    return metric("cycles"), metric("dma_mshr_refused_cycles"), stall("pending_dma"), stall("mshr_full")
default, option = read("pending_dma"), read("mshr_full")
print("pending_dma: cycles %d, refused %d, pending_dma %d, mshr_full %d" % default)
print("mshr_full:   cycles %d, refused %d, pending_dma %d, mshr_full %d" % option)
failures = []
if default[0] != option[0]:
    failures.append("the option changed the cycles")
if default[1] <= 0:
    failures.append("the DMA engine was never refused an MSHR, so the test shows nothing")
if default[3] != 0:
    failures.append("mshr_full without the option")
if option[3] <= 0 or option[3] > default[1]:
    failures.append("mshr_full with the option is not within the refused cycles")
if option[2] + option[3] != default[2]:
    failures.append("pending_dma + mshr_full with the option differ from pending_dma without it")
for f in failures:
    print("FAIL " + f)
sys.exit(1 if failures else 0)
PY
