-- runs_matching: which runs used a configuration whose :key equals :value?
-- :key is a configuration key path (see syncscope config keys) and :value is compared in base
-- units (bytes, Hz), e.g. --param key=l1.size --param value=32768. Newest runs first.
-- :key    configuration key path
-- :value  value in base units
-- :limit  number of runs (default: 50)
SELECT r.id, r.created_at, r.system, r.mechanism, r.workload, r.mode, r.status, r.cycles, r.config_hash
FROM configs c
JOIN runs r ON r.config_hash = c.hash
WHERE json_extract(c.json, '$.' || :key) = :value
ORDER BY r.id DESC
LIMIT :limit;
