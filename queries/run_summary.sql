-- run_summary: what does the database hold? Runs per system, mechanism and mode, by status.
SELECT system, mechanism, mode, count(*) AS runs,
       sum(status = 'ok') AS ok, sum(status = 'check_failed') AS check_failed, sum(status = 'error') AS error,
       count(DISTINCT workload) AS workloads
FROM runs
GROUP BY system, mechanism, mode
ORDER BY system, mechanism, mode;
