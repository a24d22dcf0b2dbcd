-- 0005_workload_calibrations.sql — calibrations fitted to one workload's sample windows
-- (PRAGMA user_version 5).
--
-- workload and workload_params are NULL for a suite-wide fit (`calibrate --mechanism M`), else
-- the one workload a per-workload fit (`calibrate --workload W --windows`) was fitted to: the
-- name runs store as their workload and the parameters text they store with it ({"size":
-- "huge", "seed": 1} for a built-in workload, the manifest's content digest for a manifest).
-- A model run, sweep or validation of exactly that workload and parameters uses the latest such
-- fit in preference to the suite-wide one; any other workload, size, seed or manifest content
-- never sees it.

ALTER TABLE calibrations ADD COLUMN workload TEXT;
ALTER TABLE calibrations ADD COLUMN workload_params TEXT CHECK (workload_params IS NULL OR json_valid(workload_params));
CREATE INDEX calibrations_by_workload ON calibrations (mechanism, system, workload, workload_params);
