-- runs_matching: which runs used a configuration whose :key equals :value?
-- :key is a configuration key path (see syncscope config keys) and :value is compared in base
-- units (bytes, Hz), e.g. --param key=l1.size --param value=32768. Newest runs first.
-- The configurations are matched first (one JSON lookup each, not one per run); their runs
-- then come from the runs_by_config index, newest first, stopping after :limit.
-- :key    configuration key path
-- :value  value in base units
-- :limit  number of runs (default: 50)
WITH matching AS (SELECT hash FROM configs WHERE json_extract(json, '$.' || :key) = :value)
SELECT r.id, r.created_at, r.system, r.mechanism, r.workload, r.mode, r.status, r.cycles, r.config_hash
FROM runs r
WHERE r.config_hash IN matching
ORDER BY r.id DESC
LIMIT :limit;
