#!/usr/bin/env python3
"""accuracy_compare.py — compares two directories of accuracy-table cells measured by
scripts/accuracy_cells.sh (OUT/M-S.db with its M-S.db.validate.txt), row by row and over the
rows both hold: each row's mean / median / max absolute cycle error and mean stall-fraction
error as validate printed them, the change of the mean, and the summary figures the README's
accuracy paragraph quotes (mean of means, median of medians, max and mean of maxima, mean stall
error, rows better / worse by more than --margin points, rows meeting issue 23's targets: mean
<= 5%, max <= 15%, stall <= 0.05). With --points it also says, per row, whether every
validation point's relative error is the same in both databases (ordered by workload and point),
which is how a refactor is shown to move nothing. With --workloads it also prints, per workload and
preset, the mean over the rows of the workload's mean |cycle error|, base -> new, and the
workload's share of the mean of means (its points' part of every row's mean, averaged over rows),
which says where the rows' error sits.

usage: scripts/accuracy_compare.py BASE_DIR NEW_DIR [--margin 0.15] [--points] [--worst N] [--workloads]
"""
import argparse
import os
import sqlite3
import statistics
import sys

TARGET_MEAN, TARGET_MAX, TARGET_STALL = 5.0, 15.0, 0.05


def read_row(directory, cell):
    """The (mean, median, max, stall) validate printed for cell, or None if it is not there."""
    path = os.path.join(directory, cell + ".db.validate.txt")
    if not os.path.exists(path):
        return None
    cycles = stall = None
    with open(path) as text:
        for line in text:
            words = line.split()
            if cycles is None and words[:1] == ["cycles"] and len(words) >= 7:
                cycles = [float(words[i].rstrip("%")) for i in (2, 4, 6)]
            elif stall is None and line.strip().startswith("stall fractions, mean over categories:"):
                stall = float(words[-1])
    if cycles is None or stall is None:
        return None
    return cycles + [stall]


def last_calibration_rows(directory, cell, select, rest="", parameters=()):
    """Rows of "SELECT <select> FROM validations <rest>" over the cell's last calibration."""
    db = sqlite3.connect("file:%s?mode=ro" % os.path.join(directory, cell + ".db"), uri=True)
    rows = db.execute("SELECT %s FROM validations WHERE calibration_id = "
                      "(SELECT max(calibration_id) FROM validations) %s" % (select, rest), parameters).fetchall()
    db.close()
    return rows


def point_errors(directory, cell):
    """Every validation point's relative error of the cell's last calibration, in a fixed order."""
    return last_calibration_rows(directory, cell, "workload, point_config, relative_error",
                                 "ORDER BY workload, point_config")


def worst_workloads(directory, cell, count):
    """The count workloads with the largest mean |relative error| in percent."""
    rows = last_calibration_rows(directory, cell, "workload, 100 * avg(abs(relative_error)) AS e",
                                 "GROUP BY workload ORDER BY e DESC LIMIT ?", (count,))
    return ", ".join("%s %.1f%%" % (w, e) for w, e in rows)


def workload_errors(directory, cell):
    """{workload: (mean |relative error| in percent, its points)} of the cell's last calibration."""
    rows = last_calibration_rows(directory, cell, "workload, 100 * avg(abs(relative_error)), count(*)",
                                 "GROUP BY workload")
    return {w: (e, n) for w, e, n in rows}


def system_of(directory, cell):
    """The preset validate names on its first line ("... mechanism M, system S, ...")."""
    with open(os.path.join(directory, cell + ".db.validate.txt")) as text:
        for line in text:
            if line.startswith("validation of calibration"):
                return line.split("system ")[1].split(",")[0]
    return "?"


def print_workloads(base, new, cells):
    """Per workload and preset: the mean over rows of its mean |error|, base -> new, and its share."""
    table = {}  # (workload, system) -> list of (base error, new error)
    share = {}  # workload -> [base, new] points of the mean of means
    for cell in cells:
        system = system_of(new, cell)
        old, now = workload_errors(base, cell), workload_errors(new, cell)
        points_old, points_new = sum(n for _, n in old.values()), sum(n for _, n in now.values())
        for workload in sorted(set(old) & set(now)):
            table.setdefault((workload, system), []).append((old[workload][0], now[workload][0]))
            parts = share.setdefault(workload, [0.0, 0.0])
            parts[0] += old[workload][0] * old[workload][1] / points_old / len(cells)
            parts[1] += now[workload][0] * now[workload][1] / points_new / len(cells)
    systems = sorted({s for _, s in table})
    print("workload mean |cycle error| over the rows of each preset, base -> new; share of the mean of means:")
    print("%-12s" % "workload" + "".join("%-18s" % s for s in systems) + "share")
    for workload in sorted(share, key=lambda w: -share[w][1]):
        line = "%-12s" % workload
        for system in systems:
            pairs = table.get((workload, system))
            line += "%-18s" % ("%5.1f -> %5.1f" % (statistics.mean(p[0] for p in pairs), statistics.mean(p[1] for p in pairs))
                               if pairs else "-")
        print(line + "%.2f -> %.2f" % tuple(share[workload]))


def cells_in(directory):
    return {name[:-len(".db.validate.txt")] for name in os.listdir(directory) if name.endswith(".db.validate.txt")}


def summary(rows):
    means, medians, maxima, stalls = zip(*rows)
    return (statistics.mean(means), statistics.median(medians), max(maxima), statistics.mean(maxima),
            statistics.mean(stalls), sum(m <= TARGET_MEAN for m in means), sum(x <= TARGET_MAX for x in maxima),
            sum(s <= TARGET_STALL for s in stalls))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("base")
    parser.add_argument("new")
    parser.add_argument("--margin", type=float, default=0.15, help="points of mean error that count as a change")
    parser.add_argument("--points", action="store_true", help="say whether every point's error is the same")
    parser.add_argument("--worst", type=int, default=0, help="list each row's N worst workloads in NEW")
    parser.add_argument("--workloads", action="store_true", help="per workload and preset, base -> new")
    args = parser.parse_args()
    for directory in (args.base, args.new):
        if not os.path.isdir(directory):
            sys.exit("accuracy_compare.py: %s is not a directory" % directory)
    cells = sorted(cells_in(args.base) & cells_in(args.new))
    pairs = [(c, read_row(args.base, c), read_row(args.new, c)) for c in cells]
    pairs = [(c, b, n) for c, b, n in pairs if b and n]
    if not pairs:
        sys.exit("accuracy_compare.py: no cell measured in both %s and %s" % (args.base, args.new))
    better = worse = 0
    print("%-22s %-30s %-30s %7s" % ("cell", "base mean/median/max/stall", "new mean/median/max/stall", "d mean"))
    for cell, b, n in pairs:
        delta = n[0] - b[0]
        better += delta < -args.margin
        worse += delta > args.margin
        line = "%-22s %6.2f %6.2f %6.1f %6.4f    %6.2f %6.2f %6.1f %6.4f    %+6.2f" % (cell, *b, *n, delta)
        if args.points:
            line += "  points " + ("same" if point_errors(args.base, cell) == point_errors(args.new, cell) else "differ")
        if args.worst:
            line += "  " + worst_workloads(args.new, cell, args.worst)
        print(line)
    labels = ("mean of means", "median of medians", "max of maxima", "mean of maxima", "stall", "mean target met",
              "max target met", "stall target met")
    base_summary = summary([b for _, b, _ in pairs])
    new_summary = summary([n for _, _, n in pairs])
    print("over %d rows:" % len(pairs))
    for label, old, new in zip(labels, base_summary, new_summary):
        print("  %-18s %s -> %s" % (label, ("%.4f" if label == "stall" else "%.3f") % old if isinstance(old, float) else old,
                                     ("%.4f" if label == "stall" else "%.3f") % new if isinstance(new, float) else new))
    print("  rows better by more than %.2f points: %d, worse: %d" % (args.margin, better, worse))
    if args.workloads:
        print_workloads(args.base, args.new, [c for c, _, _ in pairs])


if __name__ == "__main__":
    main()
