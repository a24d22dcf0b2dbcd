-- stall_breakdown: where do the cycles go, per mechanism, normalised to :baseline on the same design point?
-- A design point is (system, workload and its parameters, configuration, mode), as in
-- speedup.sql; every point of the workloads matching :workload on the systems matching :system
-- that has a :baseline run is listed. Uses the per-run mean-over-CUs stall rows (cu = -1). Each
-- value is the mechanism's mean cycles in that GSI category / sub-category divided by the
-- baseline's mean total cycles on the same point, so the baseline's bar sums to 1 (as in GSI
-- Figs. 6.1-6.4). Model runs carry the predicted categories, detailed runs the measured ones.
-- With the defaults every point of the database is listed: on the 10^6-run store bench that is
-- 49,152 rows in 30 s, against 1,536 rows in 0.5 s for one workload (--param workload=NAME).
-- :system    system preset name or GLOB pattern (default: *)
-- :workload  workload name or GLOB pattern (default: *)
-- :baseline  mechanism normalised to 1.0 (default: wt)
WITH chosen AS (
    SELECT id, system, workload, workload_params, config_hash, mode, mechanism, cycles FROM runs
    WHERE workload GLOB :workload AND system GLOB :system AND status = 'ok' AND cycles > 0
),
point AS (
    SELECT system, workload, workload_params, config_hash, mode, mechanism, count(*) AS runs, avg(cycles) AS cycles
    FROM chosen
    GROUP BY workload, system, config_hash, mechanism, mode, workload_params
),
stall AS (
    SELECT c.system, c.workload, c.workload_params, c.config_hash, c.mode, c.mechanism, s.category, s.subcategory,
           sum(s.cycles) AS cycles
    FROM chosen c
    JOIN stalls s ON s.run_id = c.id AND s.cu = -1
    GROUP BY c.workload, c.system, c.config_hash, c.mechanism, c.mode, c.workload_params, s.category, s.subcategory
)
SELECT st.system, st.workload, st.config_hash, st.mode, st.mechanism, st.category, st.subcategory,
       round(st.cycles / p.runs / b.cycles, 4) AS normalized_cycles
FROM stall st
JOIN point p ON p.system = st.system AND p.workload = st.workload AND p.workload_params = st.workload_params
            AND p.config_hash = st.config_hash AND p.mode = st.mode AND p.mechanism = st.mechanism
JOIN point b ON b.system = st.system AND b.workload = st.workload AND b.workload_params = st.workload_params
            AND b.config_hash = st.config_hash AND b.mode = st.mode AND b.mechanism = :baseline
ORDER BY st.system, st.workload, st.config_hash, st.mode, st.mechanism, st.category, st.subcategory;
