-- 0003_streaming_indexes.sql — indexes the canned queries stream through at 10^6 runs and that
-- cost the writer one hot page per design point (PRAGMA user_version 3).
--
-- runs_by_point is now ordered (workload, system, config_hash, mechanism, mode, workload_params),
-- then id, then the covered status and cycles:
--   1. every design point (system, workload + params, configuration, mode, mechanism) is one
--      contiguous range, so speedup, geomean_speedup and run_summary aggregate a million runs
--      in index order without a sort, and best_configs, stall_breakdown and traffic read one
--      workload (and system) as a range;
--   2. id before status and cycles puts a new run at the END of its point's range (ids only
--      grow), so a batch of inserts dirties the last page of each point it touches. Ordered by
--      cycles, as before, a run landed anywhere in its point, the whole index (93 MB at 10^6
--      runs) was hot, overflowed the 64 MB page cache and was rewritten at every checkpoint;
--      ingest of 10^6 synthetic runs fell to about half the rate measured with no such index.
-- runs_by_sweep_point gets id before status and cycles for the same reason.
-- runs_failed holds only the runs that did not succeed, so failed_runs reads them newest first
-- without scanning a million good ones; a successful run costs it nothing.

DROP INDEX runs_by_point;
CREATE INDEX runs_by_point ON runs (workload, system, config_hash, mechanism, mode, workload_params, id, status, cycles);
DROP INDEX runs_by_sweep_point;
CREATE INDEX runs_by_sweep_point ON runs (sweep_point_id, id, status, cycles) WHERE sweep_point_id IS NOT NULL;
CREATE INDEX runs_failed ON runs (id) WHERE status != 'ok';
