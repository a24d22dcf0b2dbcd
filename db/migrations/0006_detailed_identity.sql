-- 0006_detailed_identity.sql — what makes a detailed run reusable, and where a reused one came
-- from (PRAGMA user_version 6).
--
-- detailed_identity: the SHA-256 over every file that can change a detailed or sampled run
-- (src/base/detailed_identity.h), recorded with each detailed and sampled run; NULL for the other
-- modes and for every run stored before this version, which is therefore never reused.
-- `calibrate` and `validate --detailed-from OLD` copy a run of OLD whole (its kernels, metrics and
-- stall rows too) instead of simulating it again when it is the same computation: the same
-- identity, workload and parameters, system, configuration (hash and canonical JSON), mechanism,
-- mode, seed, no jitter, status ok, and for a sampled run the same sampling settings.
-- reused_from and reused_run_id name the database (its path as given) and the run there such a
-- copy came from; NULL for a run simulated here.

ALTER TABLE runs ADD COLUMN detailed_identity TEXT;
ALTER TABLE runs ADD COLUMN reused_from TEXT;
ALTER TABLE runs ADD COLUMN reused_run_id INTEGER;
