-- speedup: how much faster is each mechanism than :baseline, per system and workload?
-- Runs are grouped into design points (same system, configuration, workload and parameters,
-- and mode); a point's cycles are the mean over its runs (seeds). Speedup = baseline cycles /
-- mechanism cycles on the same point, summarised over the points of each workload.
-- :baseline  mechanism whose cycles are the reference (default: wt)
WITH point AS (
    SELECT system, workload, workload_params, config_hash, mode, mechanism, avg(cycles) AS cycles
    FROM runs
    WHERE status = 'ok' AND cycles > 0
    GROUP BY system, workload, workload_params, config_hash, mode, mechanism
)
SELECT p.system, p.workload, p.mechanism, p.mode, count(*) AS points,
       round(avg(b.cycles / p.cycles), 4) AS mean_speedup,
       round(min(b.cycles / p.cycles), 4) AS min_speedup,
       round(max(b.cycles / p.cycles), 4) AS max_speedup
FROM point p
JOIN point b ON b.system = p.system AND b.workload = p.workload AND b.workload_params = p.workload_params
            AND b.config_hash = p.config_hash AND b.mode = p.mode AND b.mechanism = :baseline
GROUP BY p.system, p.workload, p.mechanism, p.mode
ORDER BY p.system, p.workload, mean_speedup DESC;
