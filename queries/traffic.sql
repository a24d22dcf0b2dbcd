-- traffic: how much traffic does each mechanism move on each link and to DRAM, relative to :baseline on the same design point?
-- A design point is (system, workload and its parameters, configuration, mode), as in
-- speedup.sql; every point of the workloads matching :workload on the systems matching :system
-- is listed. Averages the whole-run traffic metrics over the runs of each mechanism on a point:
-- DRAM reads, writes and bytes (dram_*), bytes into each NoC endpoint (noc_bytes_in.*), into the
-- L1s (l1_*_bytes_in) and the L2 (l2_write_bytes_in), bytes written to memory
-- (memory_write_bytes), all NoC bytes (noc_bytes, which model runs predict too), the NoC's bytes
-- and flits per traffic class (noc_bytes.ld ... noc_flits.rcl) and its energy in nJ (noc_energy
-- and its link/router dynamic/static parts, docs/noc-energy.md), and the synthetic bench's
-- traffic.* and dram.*; ratio is the mechanism's mean over the baseline's on the same point (empty when
-- the point has no baseline run or the baseline moved nothing).
-- With the defaults every point of the database is listed: on the 10^6-run store bench that is
-- 32,768 rows in 14 s, against 1,024 rows in 0.4 s for one workload (--param workload=NAME).
-- :system    system preset name or GLOB pattern (default: *)
-- :workload  workload name or GLOB pattern (default: *)
-- :baseline  mechanism the ratio is taken against (default: wt)
WITH traffic AS (
    SELECT r.system, r.workload, r.workload_params, r.config_hash, r.mode, r.mechanism, m.name, avg(m.value) AS value
    FROM runs r
    JOIN metrics m ON m.run_id = r.id AND m.kernel_index = -1
    WHERE r.workload GLOB :workload AND r.system GLOB :system AND r.status = 'ok'
      AND (m.name GLOB 'dram[._]*' OR m.name GLOB 'traffic.*' OR m.name GLOB 'noc_bytes_in.*'
           OR m.name GLOB '*_bytes_in' OR m.name IN ('memory_write_bytes', 'noc_bytes')
           OR m.name GLOB 'noc_bytes.*' OR m.name GLOB 'noc_flits.*' OR m.name GLOB 'noc_energy*')
    GROUP BY r.workload, r.system, r.config_hash, r.mechanism, r.mode, r.workload_params, m.name
)
SELECT t.system, t.workload, t.config_hash, t.mode, t.name AS metric, t.mechanism, round(t.value, 1) AS mean_value,
       round(t.value / nullif(b.value, 0), 4) AS ratio_to_baseline
FROM traffic t
LEFT JOIN traffic b ON b.system = t.system AND b.workload = t.workload AND b.workload_params = t.workload_params
                   AND b.config_hash = t.config_hash AND b.mode = t.mode AND b.name = t.name
                   AND b.mechanism = :baseline
ORDER BY t.system, t.workload, t.config_hash, t.mode, t.name, t.mechanism;
