-- run_outcomes: how did the runs end? Runs per mode and status, with the newest failing runs and their messages.
-- One row per (status, mode) that has runs, with its run count. A status other than ok
-- (check_failed: an output differed from its C reference; error: the run stopped) is listed
-- once per failing run instead, newest first, :limit runs at most over all failures, each with
-- its id, system, mechanism, workload and message; a healthy database has ok rows only.
-- The counts stream through the runs_by_point index one design point at a time (no sort of a
-- million runs); the failing runs come newest first from the partial index runs_failed.
-- :limit  number of failing runs listed (default: 50)
WITH per_point AS (
    SELECT mode, sum(status = 'ok') AS ok, sum(status = 'check_failed') AS check_failed, sum(status = 'error') AS error
    FROM runs
    GROUP BY workload, system, config_hash, mechanism, mode
),
outcome AS (
    SELECT 'ok' AS status, mode, sum(ok) AS runs FROM per_point GROUP BY mode
    UNION ALL
    SELECT 'check_failed', mode, sum(check_failed) FROM per_point GROUP BY mode
    UNION ALL
    SELECT 'error', mode, sum(error) FROM per_point GROUP BY mode
),
failure AS (
    SELECT id, mode, status, system, mechanism, workload, check_detail
    FROM runs
    WHERE status != 'ok'
    ORDER BY id DESC
    LIMIT :limit
)
SELECT o.status, o.mode, o.runs, f.id AS run_id, f.system, f.mechanism, f.workload, f.check_detail AS message
FROM outcome o
LEFT JOIN failure f ON f.status = o.status AND f.mode = o.mode
WHERE o.runs > 0
ORDER BY o.status = 'ok', o.status, o.mode, f.id DESC;
