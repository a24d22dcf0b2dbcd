-- geomean_speedup: what is each mechanism's geometric-mean speedup over :baseline across workloads?
-- Design points are matched as in speedup.sql; the geometric mean runs over every (point,
-- workload) pair that has both the mechanism and the baseline, as in the seeds' summary bars.
-- :baseline  mechanism whose cycles are the reference (default: wt)
WITH point AS (
    SELECT system, workload, workload_params, config_hash, mode, mechanism, avg(cycles) AS cycles
    FROM runs
    WHERE status = 'ok' AND cycles > 0
    GROUP BY system, workload, workload_params, config_hash, mode, mechanism
)
SELECT p.system, p.mechanism, p.mode, count(DISTINCT p.workload) AS workloads, count(*) AS points,
       round(exp(avg(ln(b.cycles / p.cycles))), 4) AS geomean_speedup
FROM point p
JOIN point b ON b.system = p.system AND b.workload = p.workload AND b.workload_params = p.workload_params
            AND b.config_hash = p.config_hash AND b.mode = p.mode AND b.mechanism = :baseline
GROUP BY p.system, p.mechanism, p.mode
ORDER BY p.system, geomean_speedup DESC;
