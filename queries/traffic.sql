-- traffic: how much traffic does each mechanism move on each link and to DRAM for :workload on :system, relative to :baseline?
-- Averages the whole-run metrics named traffic.* (bytes per link) and dram.* (reads, writes,
-- bytes) over the runs of each mechanism; ratio is the mechanism's mean over the baseline's.
-- :system    system preset (default: gsi)
-- :workload  workload name
-- :baseline  mechanism the ratio is taken against (default: wt)
WITH traffic AS (
    SELECT r.mechanism, m.name, avg(m.value) AS value
    FROM runs r
    JOIN metrics m ON m.run_id = r.id AND m.kernel_index = -1
    WHERE r.system = :system AND r.workload = :workload AND r.status = 'ok'
      AND (m.name GLOB 'traffic.*' OR m.name GLOB 'dram.*')
    GROUP BY r.mechanism, m.name
)
SELECT t.name AS metric, t.mechanism, round(t.value, 1) AS mean_value,
       round(t.value / nullif(b.value, 0), 4) AS ratio_to_baseline
FROM traffic t
LEFT JOIN traffic b ON b.name = t.name AND b.mechanism = :baseline
ORDER BY t.name, t.mechanism;
