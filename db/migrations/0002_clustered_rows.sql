-- 0002_clustered_rows.sql — metrics and stall rows clustered by run (PRAGMA user_version 2).
-- Both tables become WITHOUT ROWID with their natural key as primary key, so a row is one
-- b-tree insert instead of a table row plus an index entry, and a run's rows sit together.
-- The whole run (metrics) and the mean over CUs (stalls) are now kernel_index = -1 and cu = -1
-- instead of NULL, since key columns cannot be NULL.

CREATE TABLE metrics_clustered (
    run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    kernel_index INTEGER NOT NULL DEFAULT -1,   -- -1: the whole run
    name TEXT NOT NULL,                 -- e.g. "l1_hits", "dram_writes", "noc_bytes_in.cu3"
    value REAL NOT NULL,
    unit TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (run_id, kernel_index, name)
) WITHOUT ROWID;
INSERT INTO metrics_clustered (run_id, kernel_index, name, value, unit)
    SELECT run_id, coalesce(kernel_index, -1), name, value, unit FROM metrics;
DROP TABLE metrics;
ALTER TABLE metrics_clustered RENAME TO metrics;

-- GSI stall breakdown: every CU cycle falls in exactly one category, so the rows of one CU sum
-- to the run's cycles; rows with cu -1 hold the mean over CUs and sum to cycles as well.
CREATE TABLE stalls_clustered (
    run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    cu INTEGER NOT NULL DEFAULT -1,     -- -1: the mean over CUs
    category TEXT NOT NULL,             -- NO_STALL, IDLE, SYNC, MEM_DATA, MEM_STRUCT, COMP_DATA, ...
    subcategory TEXT NOT NULL DEFAULT '',  -- e.g. L2, MAIN_MEMORY, MSHR_FULL; '' when none
    cycles REAL NOT NULL,
    PRIMARY KEY (run_id, cu, category, subcategory)
) WITHOUT ROWID;
INSERT INTO stalls_clustered (run_id, cu, category, subcategory, cycles)
    SELECT run_id, coalesce(cu, -1), category, subcategory, cycles FROM stalls;
DROP TABLE stalls;
ALTER TABLE stalls_clustered RENAME TO stalls;
