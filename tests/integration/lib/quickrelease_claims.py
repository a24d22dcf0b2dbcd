#!/usr/bin/env python3
"""quickrelease_claims.py — checks the claims table of `syncscope reproduce quickrelease` against
the runs it stored: every claim's quantity is recomputed here from the database (the latest ok run
of each workload x mechanism at a size of the sweep "reproduce-quickrelease", read with Python's
sqlite3, not through syncscope) and compared with the number claims.md prints, and the verdict is
recomputed from that quantity with the rules quickrelease_claims.c states (agrees / direction
agrees / partly / disagrees / no data). It checks the verdict logic on whatever the runs measured,
not particular values. The Figure 5 table's ratios are checked too. Every row must be one this
script knows, and every claim it expects must be there.

Usage: quickrelease_claims.py DB CLAIMS.md SIZE SCALING_SIZES WORKLOADS   (comma-separated lists)
Exit 0 when everything matches, 1 with one FAIL line per mismatch."""
import math
import re
import sqlite3
import sys

MECHANISMS = ["nol1", "wt", "rfo", "qr"]
NAN = float("nan")
failures = []


def fail(message):
    failures.append(message)
    print("FAIL: " + message)


def ratio(a, b):
    return a / b if math.isfinite(a) and math.isfinite(b) and b != 0 else NAN


def fetch(db, size, workloads, metric):
    """{(workload, mechanism): value} for the latest ok run of each at `size`; NaN when absent."""
    rows = db.execute(
        "SELECT r.id, r.workload, r.mechanism, r.cycles FROM runs r JOIN sweep_points p ON p.id = r.sweep_point_id "
        "JOIN sweeps s ON s.id = p.sweep_id WHERE s.name = 'reproduce-quickrelease' AND r.status = 'ok' "
        "AND json_extract(p.params, '$.size') = ?", (size,)).fetchall()
    latest = {}
    for run_id, workload, mechanism, cycles in rows:
        if workload in workloads and mechanism in MECHANISMS:
            if (workload, mechanism) not in latest or latest[(workload, mechanism)][0] < run_id:
                latest[(workload, mechanism)] = (run_id, cycles)
    values = {(w, m): NAN for w in workloads for m in MECHANISMS}
    for key, (run_id, cycles) in latest.items():
        if metric == "cycles":
            values[key] = NAN if cycles is None else cycles
        else:
            row = db.execute("SELECT value FROM metrics WHERE run_id = ? AND kernel_index = -1 AND name = ?",
                             (run_id, metric)).fetchone()
            values[key] = NAN if row is None else row[0]
    return values


def number(text):
    return NAN if text.lstrip("+-") == "nan" else float(text)


def close(printed, computed, decimals):
    if math.isnan(computed) or math.isnan(printed):
        return math.isnan(computed) and math.isnan(printed)
    return abs(printed - computed) <= 0.5 * 10 ** -decimals + 1e-9 * abs(computed)


def expect_number(claim, what, printed, computed, decimals):
    if not close(printed, computed, decimals):
        fail(f"{claim}: {what} printed {printed}, the stored runs give {computed:.6f}")


def number_verdict(measured, paper):
    if math.isnan(measured):
        return "no data"
    if (measured > 0) != (paper > 0):
        return "disagrees"
    return "agrees" if abs(measured - paper) <= 5.0 else "direction agrees"


def count_verdict(met, present):
    return "no data" if not present else "agrees" if met == present else "partly" if met else "disagrees"


def main():
    db_path, claims_path, size, scaling_sizes, workload_list = sys.argv[1:6]
    scaling_sizes = scaling_sizes.split(",")
    workloads = workload_list.split(",")
    db = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True)
    table = {m: fetch(db, size, workloads, m) for m in (
        "cycles", "l1_load_accesses", "l1_hits", "l1_read_hits_modified", "memory_write_bytes",
        "dram_write_requests", "l1_data_bytes_in", "l1_coherence_bytes_in")}
    cycles = table["cycles"]

    def gain(workload, fast, slow):   # percent by which `fast` beats `slow`
        if workload not in workloads:
            return NAN
        return 100.0 * (ratio(cycles[(workload, slow)], cycles[(workload, fast)]) - 1.0)

    rows = {}
    lines = open(claims_path).read().splitlines()
    for line in lines:
        match = re.match(r"^\| (R\d+) \| (.*) \| (.*) \| (.*) \|$", line)
        if match:
            rows.setdefault(match.group(1), []).append((match.group(2), match.group(3), match.group(4)))
    checked = set()

    def claim(claim_id, index=0):
        checked.add(claim_id)
        if claim_id not in rows or len(rows[claim_id]) <= index:
            fail(f"{claim_id}: row missing from claims.md")
            return None
        return rows[claim_id][index]

    def verdict_is(claim_id, printed, computed):
        if printed != computed:
            fail(f"{claim_id}: verdict '{printed}', the stored runs imply '{computed}'")

    # R1-R4: geometric-mean gains over the workloads with both runs.
    for claim_id, fast, slow, paper in (("R1", "qr", "wt", 7.0), ("R2", "wt", "nol1", 5.0),
                                        ("R3", "rfo", "nol1", -6.0), ("R4", "qr", "rfo", 20.0)):
        row = claim(claim_id)
        if not row:
            continue
        ratios = [ratio(cycles[(w, slow)], cycles[(w, fast)]) for w in workloads]
        logs = [math.log(r) for r in ratios if math.isfinite(r) and r > 0]
        measured = 100.0 * (math.exp(sum(logs) / len(logs)) - 1.0) if logs else NAN
        expect_number(claim_id, "geomean gain", number(row[1].rstrip("%")), measured, 1)
        verdict_is(claim_id, row[2], number_verdict(measured, paper))

    # R6 and R10: QR's gain over WT per listed workload that was run, and how many meet the claim.
    for claim_id, names, meets in (("R6", ["apsp", "bfs", "matmul", "dct", "kmeans", "histogram"], lambda g: g >= 6.0),
                                   ("R10", ["backprop", "kmeans", "histogram"], lambda g: abs(g) <= 10.0)):
        row = claim(claim_id)
        if not row:
            continue
        gains = [(w, gain(w, "qr", "wt")) for w in names]
        gains = [(w, g) for w, g in gains if not math.isnan(g)]
        printed = re.findall(r"(\w+) ([+-][\d.]+)%", row[1].rsplit(" (", 1)[0])
        if [w for w, _ in printed] != [w for w, _ in gains]:
            fail(f"{claim_id}: lists {[w for w, _ in printed]}, the stored runs have {[w for w, _ in gains]}")
        for (w, text), (_, g) in zip(printed, gains):
            expect_number(claim_id, f"{w} gain", number(text), g, 1)
        met = sum(meets(g) for _, g in gains)
        counts = re.search(r"\((\d+) of (\d+) ", row[1])
        if not counts or (int(counts.group(1)), int(counts.group(2))) != (met, len(gains)):
            fail(f"{claim_id}: counts in '{row[1]}', the stored runs give {met} of {len(gains)}")
        verdict_is(claim_id, row[2], count_verdict(met, len(gains)))

    # R8: the apsp ordering.
    row = claim("R8")
    if row:
        rfo, qr, wt = (cycles.get(("apsp", m), NAN) for m in ("rfo", "qr", "wt"))
        printed = re.match(r"RFO (\S+), QR (\S+), WT (\S+) cycles", row[1])
        for name, value, text in zip(("RFO", "QR", "WT"), (rfo, qr, wt), printed.groups() if printed else ()):
            expect_number("R8", f"{name} cycles", number(text), value, 0)
        computed = "no data" if math.isnan(rfo + qr + wt) else "agrees" if rfo < qr < wt else "disagrees"
        verdict_is("R8", row[2], computed)

    # R11: the fastest design on lud (the first of the lowest, in mechanism order) and QR vs WT.
    row = claim("R11")
    if row:
        fastest, best = None, math.inf
        for m in MECHANISMS:
            value = cycles.get(("lud", m), NAN)
            if value < best:
                fastest, best = m, value
        qr_gain = gain("lud", "qr", "wt")
        names = {"nol1": "no-L1", "wt": "WT", "rfo": "RFO", "qr": "QR"}
        printed = re.match(r"fastest (\S+); QR vs WT (\S+)%", row[1])
        if not printed or printed.group(1) != (names[fastest] if fastest else "-"):
            fail(f"R11: '{row[1]}' names the wrong fastest design (stored runs: {fastest})")
        else:
            expect_number("R11", "QR vs WT", number(printed.group(2)), qr_gain, 1)
        computed = ("no data" if fastest is None else "agrees" if fastest == "nol1" and qr_gain < 0 else
                    "partly" if qr_gain < 0 or fastest == "nol1" else "disagrees")
        verdict_is("R11", row[2], computed)

    # R12: spread of no-L1, WT and QR on the extreme re-use workloads.
    row = claim("R12")
    if row:
        spreads = []
        for w in ("sort", "stencil", "spmv", "nw"):
            values = [cycles.get((w, m), NAN) for m in ("nol1", "wt", "qr")]
            values = [v for v in values if not math.isnan(v)]
            if values and max(values) > 0:
                spreads.append((w, 100.0 * (max(values) / min(values) - 1.0)))
        printed = re.findall(r"(\w+) ([\d.]+)%", row[1])
        if [w for w, _ in printed] != [w for w, _ in spreads]:
            fail(f"R12: lists {[w for w, _ in printed]}, the stored runs have {[w for w, _ in spreads]}")
        for (w, text), (_, s) in zip(printed, spreads):
            expect_number("R12", f"{w} spread", number(text), s, 1)
        verdict_is("R12", row[2], count_verdict(sum(s <= 10.0 for _, s in spreads), len(spreads)))

    # R17-R20: QR/WT ratios of traffic per workload.
    def summary(a, b):
        ratios = [ratio(a[(w, "qr")], b[(w, "wt")]) for w in workloads]
        ratios = [r for r in ratios if not math.isnan(r)]
        mean = sum(ratios) / len(ratios) if ratios else NAN
        return mean, max(ratios, default=0.0), sum(r <= 1.0 for r in ratios), len(ratios)

    row = claim("R17")
    if row:
        mean, high, low, count = summary(table["memory_write_bytes"], table["memory_write_bytes"])
        printed = re.match(r"QR/WT write bytes: mean (\S+), max (\S+); (\d+) of (\d+) workloads <= 1", row[1])
        if not printed or (int(printed.group(3)), int(printed.group(4))) != (low, count):
            fail(f"R17: '{row[1]}', the stored runs give {low} of {count} <= 1")
        else:
            expect_number("R17", "mean", number(printed.group(1)), mean, 2)
            expect_number("R17", "max", number(printed.group(2)), high, 2)
        verdict_is("R17", row[2], "no data" if not count else "agrees" if low == count else
                   "partly" if low else "disagrees")

    row = claim("R18")
    if row:
        writes = table["dram_write_requests"]
        mean, high, low, count = summary(writes, writes)
        nn = ratio(writes.get(("nn", "qr"), NAN), writes.get(("nn", "wt"), NAN))
        nw = ratio(writes.get(("nw", "qr"), NAN), writes.get(("nw", "wt"), NAN))
        printed = re.match(r"QR/WT DRAM writes: (\d+) of (\d+) workloads <= 1, mean (\S+); nn (\S+), nw (\S+)", row[1])
        if not printed or (int(printed.group(1)), int(printed.group(2))) != (low, count):
            fail(f"R18: '{row[1]}', the stored runs give {low} of {count} <= 1")
        else:
            for what, text, value in (("mean", printed.group(3), mean), ("nn", printed.group(4), nn),
                                      ("nw", printed.group(5), nw)):
                expect_number("R18", what, number(text), value, 2)
        verdict_is("R18", row[2], "no data" if not count else "agrees" if 2 * low > count else
                   "partly" if low else "disagrees")

    row = claim("R19")
    if row:
        mean, high, low, count = summary(table["l1_data_bytes_in"], table["l1_data_bytes_in"])
        printed = re.match(r"(\d+) of (\d+) workloads <= 1 \(QR/WT data bytes mean (\S+)\)", row[1])
        if not printed or (int(printed.group(1)), int(printed.group(2))) != (low, count):
            fail(f"R19: '{row[1]}', the stored runs give {low} of {count} <= 1")
        else:
            expect_number("R19", "mean", number(printed.group(3)), mean, 2)
        verdict_is("R19", row[2], "no data" if not count else "agrees" if low + 1 >= count else
                   "partly" if low else "disagrees")

    row = claim("R20")
    if row:
        total = {k: table["l1_data_bytes_in"][k] + table["l1_coherence_bytes_in"][k] for k in cycles}
        mean, high, low, count = summary(total, total)
        printed = re.match(r"mean (\S+)%, max (\S+)x", row[1])
        if not printed:
            fail(f"R20: unreadable '{row[1]}'")
        else:
            expect_number("R20", "mean", number(printed.group(1)), 100.0 * mean, 0)
            expect_number("R20", "max", number(printed.group(2)), high, 1)
        verdict_is("R20", row[2], number_verdict(100.0 * (mean - 1.0), 3.0))

    row = claim("R21")
    if row:
        hit = ratio(table["l1_hits"].get(("apsp", "wt"), NAN), table["l1_load_accesses"].get(("apsp", "wt"), NAN))
        expect_number("R21", "hit rate", number(row[1].rstrip("%")), 100.0 * hit, 1)
        verdict_is("R21", row[2], "no data" if math.isnan(hit) else "agrees" if hit < 0.05 else "disagrees")

    # R25: one row per scaling workload run, QR's gains at the first and the last scaling size.
    scaling = [w for w in ("nn", "reduction") if w in workloads] if len(scaling_sizes) > 1 else []
    if scaling:
        first = fetch(db, scaling_sizes[0], scaling, "cycles")
        last = fetch(db, scaling_sizes[-1], scaling, "cycles")
    for index, w in enumerate(scaling):
        row = claim("R25", index)
        if not row:
            continue
        if not row[0].startswith(w + ":"):
            fail(f"R25 row {index}: '{row[0]}' is not about {w}")
        values = [100.0 * (ratio(t[(w, slow)], t[(w, "qr")]) - 1.0)
                  for slow in ("wt", "rfo") for t in (first, last)]
        printed = re.match(r"QR vs WT (\S+)% \(\S+\) -> (\S+)% \(\S+\); QR vs RFO (\S+)% -> (\S+)%", row[1])
        if not printed:
            fail(f"R25 {w}: unreadable '{row[1]}'")
        else:
            for what, text, value in zip(("WT first", "WT last", "RFO first", "RFO last"), printed.groups(), values):
                expect_number(f"R25 {w}", what, number(text), value, 1)
        grows = values[1] > values[0] and values[3] > values[2]
        verdict_is(f"R25 {w}", row[2], "no data" if any(math.isnan(v) for v in values) else
                   "agrees" if grows else "disagrees")
    if len(rows.get("R25", [])) != len(scaling):
        fail(f"R25: {len(rows.get('R25', []))} rows, expected {len(scaling)} ({scaling})")
    checked.add("R25")

    # Figure 5's table: workloads by RFO L1 re-use (lowest first), cycles normalised to no-L1; R26:
    # the workload with the highest read-after-write re-use under RFO.
    reuse = {w: ratio(table["l1_hits"][(w, "rfo")], table["l1_load_accesses"][(w, "rfo")]) for w in workloads}
    order = sorted(workloads, key=lambda w: math.inf if math.isnan(reuse[w]) else reuse[w])
    figure = [re.match(r"^\| (\w+) \| (\S+)% \| (\S+) \| (\S+) \| (\S+) \| (\S+) \|$", line) for line in lines]
    figure = [m for m in figure if m and m.group(1) in workloads]
    if [m.group(1) for m in figure] != order:
        fail(f"Figure 5 table order {[m.group(1) for m in figure]}, by stored RFO re-use {order}")
    for m in figure:
        w = m.group(1)
        expect_number(f"Figure 5 {w}", "RFO re-use", number(m.group(2)), 100.0 * reuse[w], 1)
        expect_number(f"Figure 5 {w}", "no-L1 cycles", number(m.group(3)), cycles[(w, "nol1")], 0)
        for text, mechanism in zip(m.groups()[3:], ("wt", "rfo", "qr")):
            expect_number(f"Figure 5 {w}", mechanism, number(text), ratio(cycles[(w, mechanism)], cycles[(w, "nol1")]), 3)
    row = claim("R26")
    if row:
        top, best = None, -1.0
        for w in order:
            raw = ratio(table["l1_read_hits_modified"][(w, "rfo")], table["l1_load_accesses"][(w, "rfo")])
            if raw > best:
                top, best = w, raw
        printed = re.match(r"highest: (\S+) \((\S+)% of L1 load accesses\)", row[1])
        if not printed or printed.group(1) != (top or "-"):
            fail(f"R26: '{row[1]}', the stored runs give {top}")
        elif top:
            expect_number("R26", "re-use", number(printed.group(2)), 100.0 * best, 1)
        verdict_is("R26", row[2], "no data" if top is None else "agrees" if top == "lud" else "disagrees")

    for claim_id in rows:
        if claim_id not in checked:
            fail(f"{claim_id}: a claim this script does not check")
    print(f"quickrelease claims: {len(checked)} claims and {len(figure)} Figure 5 rows checked against the stored runs, "
          f"{len(failures)} mismatches")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
