-- 0004_calibrated_manifests.sql — calibrations say which manifest workloads they were fitted on
-- (PRAGMA user_version 4).
--
-- manifests is NULL for a fit on built-in workloads only, else a JSON array of the content
-- digests (SHA-256 over the manifest, its PTX and its input files) of the manifest workloads
-- among its samples. A manifest workload is modelled with the latest calibration fitted on its
-- digest, else with the latest fitted on built-in workloads only; a built-in workload, as before,
-- with the latest calibration of its mechanism and system. A changed kernel or input has another
-- digest, so it is never served a calibration fitted to the old one.

ALTER TABLE calibrations ADD COLUMN manifests TEXT CHECK (manifests IS NULL OR json_valid(manifests));
