-- model_hits: how well do the analytical models predict L1 hits and L2 misses, per workload?
-- For every held-out validation of the calibrations of :mechanism on :system, compares the
-- model run's predicted line counts with the detailed run's measured ones. The L1 serves a
-- weak load line without an L2 request when it hits or merges into a pending miss's MSHR, so
-- the detailed side's L1 hits are l1_hits + l1_mshr_merges and its L1 misses are the misses
-- that opened an MSHR (the model's l1_misses: weak load lines minus hits). L2 misses are line
-- requests (reads and writes) the L2 sent on. Errors are relative to the detailed count
-- ((model - detailed) / detailed), signed means show the direction, and cycle errors are
-- given alongside so hit-count errors can be told from timing errors.
-- :mechanism  mechanism name or GLOB pattern (default: *)
-- :system     system preset name or GLOB pattern (default: *)
WITH pair AS (
    SELECT c.mechanism, c.system, v.workload, v.relative_error AS cycle_error,
           (SELECT value FROM metrics WHERE run_id = v.model_run_id AND kernel_index = -1 AND name = 'l1_misses')
               AS model_l1_misses,
           (SELECT value FROM metrics WHERE run_id = v.detailed_run_id AND kernel_index = -1 AND name = 'l1_misses')
               AS detailed_l1_misses,
           (SELECT value FROM metrics WHERE run_id = v.model_run_id AND kernel_index = -1 AND name = 'l1_hits')
               AS model_l1_hits,
           (SELECT sum(value) FROM metrics WHERE run_id = v.detailed_run_id AND kernel_index = -1
                AND name IN ('l1_hits', 'l1_mshr_merges')) AS detailed_l1_hits,
           (SELECT value FROM metrics WHERE run_id = v.model_run_id AND kernel_index = -1 AND name = 'l2_misses')
               AS model_l2_misses,
           (SELECT value FROM metrics WHERE run_id = v.detailed_run_id AND kernel_index = -1 AND name = 'l2_misses')
               AS detailed_l2_misses
    FROM calibrations c
    JOIN validations v ON v.calibration_id = c.id
    WHERE c.mechanism GLOB :mechanism AND c.system GLOB :system
),
error AS (
    SELECT mechanism, system, workload, cycle_error, detailed_l1_hits, model_l1_hits,
           CASE WHEN detailed_l1_misses > 0 THEN (model_l1_misses - detailed_l1_misses) / detailed_l1_misses END
               AS l1_miss_error,
           CASE WHEN detailed_l1_hits + detailed_l1_misses > 0
                THEN (model_l1_hits - detailed_l1_hits) / (detailed_l1_hits + detailed_l1_misses) END
               AS l1_hit_ratio_error,
           CASE WHEN detailed_l2_misses > 0 THEN (model_l2_misses - detailed_l2_misses) / detailed_l2_misses END
               AS l2_miss_error
    FROM pair
)
SELECT mechanism, system, workload, count(*) AS points,
       round(100 * avg(abs(cycle_error)), 2) AS cycle_mean_abs_pct,
       round(100 * avg(l1_hit_ratio_error), 2) AS l1_hit_ratio_mean_pp,
       round(100 * avg(abs(l1_hit_ratio_error)), 2) AS l1_hit_ratio_mean_abs_pp,
       round(100 * avg(l1_miss_error), 2) AS l1_miss_mean_pct,
       round(100 * avg(abs(l1_miss_error)), 2) AS l1_miss_mean_abs_pct,
       round(100 * max(abs(l1_miss_error)), 2) AS l1_miss_max_abs_pct,
       round(100 * avg(l2_miss_error), 2) AS l2_miss_mean_pct,
       round(100 * avg(abs(l2_miss_error)), 2) AS l2_miss_mean_abs_pct,
       round(100 * max(abs(l2_miss_error)), 2) AS l2_miss_max_abs_pct
FROM error
GROUP BY mechanism, system, workload
ORDER BY mechanism, system, l1_miss_mean_abs_pct DESC;
