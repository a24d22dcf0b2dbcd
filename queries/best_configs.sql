-- best_configs: which :limit configurations give the lowest :metric for :workload within an on-chip cache budget?
-- The budget counts every CU's L1 plus the L2 and L3 in bytes. :metric is the name of a
-- whole-run metric (e.g. instructions, dram.reads) or "cycles" for the run's total cycles.
-- Runs are averaged per (system, configuration, mechanism) first, in the order of the runs_by_point
-- index, and only the averaged groups are joined to their configuration. Equal values are
-- listed by system, mechanism and configuration hash.
-- :workload      workload name
-- :metric        metric to minimise (default: cycles)
-- :cache_budget  largest total cache capacity in bytes (default: 8388608)
-- :limit         number of configurations (default: 10)
WITH per_config AS (
    SELECT r.system, r.mechanism, r.config_hash, count(*) AS runs, avg(coalesce(m.value, r.cycles)) AS value
    FROM runs r
    LEFT JOIN metrics m ON m.run_id = r.id AND m.name = :metric AND m.kernel_index = -1
    WHERE r.workload = :workload AND r.status = 'ok'
      AND (m.value IS NOT NULL OR :metric = 'cycles')
    GROUP BY r.system, r.config_hash, r.mechanism
)
SELECT p.system, p.mechanism, p.config_hash, c.cu_count, c.l1_size, c.l2_size, c.l3_size,
       p.runs, round(p.value, 2) AS value
FROM per_config p
JOIN configs c ON c.hash = p.config_hash
WHERE c.cu_count * c.l1_size + c.l2_size + c.l3_size <= :cache_budget
ORDER BY value, p.system, p.mechanism, p.config_hash
LIMIT :limit;
