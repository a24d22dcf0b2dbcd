-- runs_matching: which runs used a configuration whose :key matches :value, newest first?
-- The key is a configuration key path (see syncscope config keys); the value is in base units
-- (bytes, Hz) or a GLOB pattern over it, e.g. --param key=l1.size --param value=32768, or
-- --param key=system.name --param value='*apu'. The defaults (l1.size, *) list the newest runs
-- with their L1 capacity; every configuration has the key, so every run qualifies.
-- The configurations are matched first (one JSON lookup each, not one per run); the newest ids
-- of their runs (:limit of them) are picked from the runs_by_config index alone (it holds each
-- run's id), and only those runs are read.
-- :key    configuration key path (default: l1.size)
-- :value  value in base units, or a GLOB pattern (default: *)
-- :limit  number of runs (default: 50)
WITH matching AS (
    SELECT hash, json_extract(json, '$.' || :key) AS value
    FROM configs
    WHERE json_extract(json, '$.' || :key) GLOB :value
),
newest AS (
    SELECT id, created_at, system, mechanism, workload, mode, status, cycles, config_hash
    FROM runs
    WHERE id IN (SELECT id FROM runs WHERE config_hash IN (SELECT hash FROM matching) ORDER BY id DESC LIMIT :limit)
)
SELECT n.id, n.created_at, n.system, n.mechanism, n.workload, n.mode, n.status, n.cycles, n.config_hash,
       m.value AS key_value
FROM newest n
JOIN matching m ON m.hash = n.config_hash
ORDER BY n.id DESC;
