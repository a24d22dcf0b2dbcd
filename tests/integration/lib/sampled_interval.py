#!/usr/bin/env python3
# sampled_interval.py — the check sampled_bandwidth.sh, sampled_first_turnover.sh and
# sampled_write_back_l1.sh share: a sampled run (`run --json`) against the full detailed run of
# the same workload. Prints one "FAIL: NAME: ..." line per problem and exits 1 where the sampled
# run's output check did not pass, the full run lies outside the sampled 95 % interval (or there
# is none), the estimate is further than --max-error (a fraction) from the full run, or the
# sampled run's first_turnover_kernel is not --first-turnover.
# Usage: sampled_interval.py NAME FULL.json SAMPLED.json [--max-error F] [--first-turnover KERNEL]
import argparse
import json
import sys

parser = argparse.ArgumentParser()
parser.add_argument("name")
parser.add_argument("full")
parser.add_argument("sampled")
parser.add_argument("--max-error", type=float)
parser.add_argument("--first-turnover")
args = parser.parse_args()
full, sampled = (json.load(open(path)) for path in (args.full, args.sampled))
sample = sampled["sample"]
problems = []
if sampled["check"] != "passed":
    problems.append("check " + sampled["check"])
error = (sample["estimated_cycles"] - full["cycles"]) / full["cycles"]
if args.max_error is not None and abs(error) > args.max_error:
    problems.append("estimate %.0f vs full %d: %+.1f %%" % (sample["estimated_cycles"], full["cycles"], 100 * error))
if sample["ci_low"] is None or not sample["ci_low"] <= full["cycles"] <= sample["ci_high"]:
    problems.append("full run %d outside the interval [%s, %s]" % (full["cycles"], sample["ci_low"], sample["ci_high"]))
if args.first_turnover is not None and sample.get("first_turnover_kernel") != args.first_turnover:
    problems.append("first_turnover_kernel %r, not %s" % (sample.get("first_turnover_kernel"), args.first_turnover))
for problem in problems:
    print("FAIL: %s: %s" % (args.name, problem))
sys.exit(1 if problems else 0)
