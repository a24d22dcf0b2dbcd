-- failed_runs: which runs failed their output check or stopped with an error, and why?
-- :limit  number of runs (default: 50)
SELECT id, created_at, system, mechanism, workload, mode, seed, jitter, status, check_detail
FROM runs
WHERE status != 'ok'
ORDER BY id DESC
LIMIT :limit;
