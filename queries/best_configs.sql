-- best_configs: which :limit configurations give the lowest :metric for :workload within an on-chip cache budget?
-- The budget counts every CU's L1 plus the L2 and L3 in bytes. :metric is the name of a
-- whole-run metric (e.g. instructions, dram.reads) or "cycles" for the run's total cycles.
-- :workload      workload name
-- :metric        metric to minimise (default: cycles)
-- :cache_budget  largest total cache capacity in bytes (default: 8388608)
-- :limit         number of configurations (default: 10)
SELECT r.system, r.mechanism, r.config_hash, c.cu_count, c.l1_size, c.l2_size, c.l3_size,
       count(*) AS runs, round(avg(coalesce(m.value, r.cycles)), 2) AS value
FROM runs r
JOIN configs c ON c.hash = r.config_hash
LEFT JOIN metrics m ON m.run_id = r.id AND m.name = :metric AND m.kernel_index = -1
WHERE r.workload = :workload AND r.status = 'ok'
  AND c.cu_count * c.l1_size + c.l2_size + c.l3_size <= :cache_budget
  AND (m.value IS NOT NULL OR :metric = 'cycles')
GROUP BY r.system, r.mechanism, r.config_hash
ORDER BY value
LIMIT :limit;
