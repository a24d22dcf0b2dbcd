#!/bin/bash
# sampled_first_turnover.sh — a sampled run whose windows end inside their first L2 turnover
# says so, and its interval holds the full detailed run: dct at --size large (16,384 CTAs per
# launch, 4 L2 lines per CTA, so one turnover is 1,536 CTAs) sampled at period 4 has windows of
# 1,024 CTAs, whose steady parts ran 2.4 % slower than the full run on the same CTAs; the
# interval of their spread alone, [464644, 475917] around an estimate of 470,281, excluded the
# full run's 461,717 (docs/sampled-runs.md).
# Usage: sampled_first_turnover.sh PATH/TO/syncscope
set -u
syncscope=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
source "$(dirname "$0")/lib/cli_checks.sh"

sampled_against_full dct "--sample-period 4" --workload dct --size large -- --first-turnover dct8x8

[ "$failures" -eq 0 ] && echo "sampled_first_turnover: ok"
exit "$failures"
