-- stall_breakdown: where do the cycles of :workload on :system go, per mechanism, normalised to :baseline?
-- Uses the per-run mean-over-CUs stall rows (cu = -1). Each value is the mechanism's mean
-- cycles in that GSI category / sub-category divided by the baseline's mean total cycles, so
-- the baseline's bar sums to 1 (as in GSI Figs. 6.1-6.4).
-- :system    system preset (default: gsi)
-- :workload  workload name
-- :baseline  mechanism normalised to 1.0 (default: wt)
WITH chosen AS (
    SELECT id, mechanism, cycles FROM runs
    WHERE system = :system AND workload = :workload AND status = 'ok' AND cycles > 0
),
run_count AS (SELECT mechanism, count(*) AS runs FROM chosen GROUP BY mechanism),
baseline AS (SELECT avg(cycles) AS cycles FROM chosen WHERE mechanism = :baseline)
SELECT c.mechanism, s.category, s.subcategory,
       round(sum(s.cycles) / n.runs / (SELECT cycles FROM baseline), 4) AS normalized_cycles
FROM chosen c
JOIN stalls s ON s.run_id = c.id AND s.cu = -1
JOIN run_count n ON n.mechanism = c.mechanism
GROUP BY c.mechanism, s.category, s.subcategory
ORDER BY c.mechanism, s.category, s.subcategory;
