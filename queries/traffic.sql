-- traffic: how much traffic does each mechanism move on each link and to DRAM for :workload on :system, relative to :baseline?
-- Averages the whole-run traffic metrics over the runs of each mechanism: DRAM reads, writes and
-- bytes (dram_*), bytes into each NoC endpoint (noc_bytes_in.*), into the L1s (l1_*_bytes_in) and
-- the L2 (l2_write_bytes_in), bytes written to memory (memory_write_bytes), and the synthetic
-- bench's traffic.* and dram.*; ratio is the mechanism's mean over the baseline's.
-- :system    system preset (default: gsi)
-- :workload  workload name
-- :baseline  mechanism the ratio is taken against (default: wt)
WITH traffic AS (
    SELECT r.mechanism, m.name, avg(m.value) AS value
    FROM runs r
    JOIN metrics m ON m.run_id = r.id AND m.kernel_index = -1
    WHERE r.system = :system AND r.workload = :workload AND r.status = 'ok'
      AND (m.name GLOB 'dram[._]*' OR m.name GLOB 'traffic.*' OR m.name GLOB 'noc_bytes_in.*'
           OR m.name GLOB '*_bytes_in' OR m.name = 'memory_write_bytes')
    GROUP BY r.mechanism, m.name
)
SELECT t.name AS metric, t.mechanism, round(t.value, 1) AS mean_value,
       round(t.value / nullif(b.value, 0), 4) AS ratio_to_baseline
FROM traffic t
LEFT JOIN traffic b ON b.name = t.name AND b.mechanism = :baseline
ORDER BY t.name, t.mechanism;
