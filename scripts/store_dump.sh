#!/bin/bash
# store_dump.sh — prints what a results database holds of its runs, metrics, stalls, kernels,
# profiles, calibrations, validations and sweeps without what differs between two runs of the same work (row
# creation times, the binary's version and git revision, wall times): two databases that the same
# commands filled dump identically (bench_own_kernel.sh compares two binaries' this way).
# Usage: store_dump.sh DATABASE
set -eu
sqlite3 -batch "$1" <<'SQL'
.mode list
SELECT 'run', id, system, config_hash, mechanism, workload, workload_params, mode, seed, jitter, status, check_detail,
       cycles, sweep_point_id FROM runs ORDER BY id;
SELECT 'metric', run_id, kernel_index, name, value, unit FROM metrics WHERE name NOT LIKE '%seconds'
       ORDER BY run_id, kernel_index, name;
SELECT 'stall', run_id, cu, category, subcategory, cycles FROM stalls ORDER BY run_id, cu, category, subcategory;
SELECT 'kernel', run_id, kernel_index, name, grid, block, warp_instructions, cycles FROM kernels
       ORDER BY run_id, kernel_index;
SELECT 'config', hash, system, json FROM configs ORDER BY hash;
SELECT 'profile', id, workload, workload_params, system, config_hash, run_id, profile FROM profiles ORDER BY id;
SELECT 'calibration', id, mechanism, system, params, covariance, residuals, r2, sample_count, manifests, workload,
       workload_params FROM calibrations ORDER BY id;
SELECT 'validation', id, calibration_id, workload, point_config, detailed_run_id, model_run_id, detailed_cycles,
       model_cycles, stall_fraction_error FROM validations ORDER BY id;
SELECT 'sweep', id, name, spec FROM sweeps ORDER BY id;
SELECT 'sweep_point', id, sweep_id, point_index, params FROM sweep_points ORDER BY id;
SQL
