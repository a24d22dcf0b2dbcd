-- best_configs: which :limit configurations give each workload its lowest :metric within an on-chip cache budget?
-- The workload is a name or a GLOB pattern; the default (*) ranks every workload's
-- configurations separately. A configuration here is (system, configuration hash, mechanism,
-- mode), so measured (detailed, sampled) and predicted (model) cycles are ranked side by side
-- but never averaged together. The budget counts every CU's L1 plus the L2 and L3 in bytes.
-- The metric is the name of a whole-run metric (e.g. instructions, dram_reads) or "cycles" for
-- the run's total cycles. Runs are averaged per group first, in the order of the runs_by_point
-- index, and only the averaged groups are joined to their configuration. Equal values are
-- listed by system, mechanism, configuration hash and mode.
-- :workload      workload name or GLOB pattern (default: *)
-- :metric        metric to minimise (default: cycles)
-- :cache_budget  largest total cache capacity in bytes, 0 for no limit (default: 0)
-- :limit         configurations listed per workload (default: 10)
WITH per_config AS (
    SELECT r.workload, r.system, r.mechanism, r.mode, r.config_hash, count(*) AS runs,
           avg(coalesce(m.value, r.cycles)) AS value
    FROM runs r
    LEFT JOIN metrics m ON m.run_id = r.id AND m.name = :metric AND m.kernel_index = -1
    WHERE r.workload GLOB :workload AND r.status = 'ok'
      AND (m.value IS NOT NULL OR (:metric = 'cycles' AND r.cycles IS NOT NULL))
    GROUP BY r.workload, r.system, r.config_hash, r.mechanism, r.mode
),
sized AS (
    SELECT p.*, c.cu_count, c.l1_size, c.l2_size, c.l3_size,
           c.cu_count * c.l1_size + c.l2_size + c.l3_size AS cache_bytes
    FROM per_config p
    JOIN configs c ON c.hash = p.config_hash
),
ranked AS (
    SELECT *, row_number() OVER (PARTITION BY workload ORDER BY value, system, mechanism, config_hash, mode) AS rank
    FROM sized
    WHERE :cache_budget <= 0 OR cache_bytes <= :cache_budget
)
SELECT workload, rank, system, mechanism, mode, config_hash, cu_count, l1_size, l2_size, l3_size, cache_bytes,
       runs, round(value, 2) AS value
FROM ranked
WHERE rank <= :limit
ORDER BY workload, rank;
