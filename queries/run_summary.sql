-- run_summary: what does the database hold? Runs per system, mechanism and mode, by status.
-- Counted per (workload, system, configuration, mechanism, mode) first, streaming in the order
-- of the runs_by_point index, then summed: a million runs need no sort.
WITH per_point AS (
    SELECT system, mechanism, mode, workload, count(*) AS runs, sum(status = 'ok') AS ok,
           sum(status = 'check_failed') AS check_failed, sum(status = 'error') AS error
    FROM runs
    GROUP BY workload, system, config_hash, mechanism, mode
)
SELECT system, mechanism, mode, sum(runs) AS runs, sum(ok) AS ok, sum(check_failed) AS check_failed,
       sum(error) AS error, count(DISTINCT workload) AS workloads
FROM per_point
GROUP BY system, mechanism, mode
ORDER BY system, mechanism, mode;
