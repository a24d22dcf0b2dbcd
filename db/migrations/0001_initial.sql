-- 0001_initial.sql — the first syncscope results schema (PRAGMA user_version 1).
--
-- A run is one execution (functional, detailed, sampled or modelled) of a workload under a
-- mechanism on a resolved configuration. Configurations are stored once, by hash, in their
-- canonical JSON form; generated columns expose the fields queries filter on most. Every row
-- of a run (kernels, metrics, stall breakdown) is written in the run's single transaction.

CREATE TABLE configs (
    hash TEXT PRIMARY KEY,              -- FNV-1a 64 of json, 16 hex digits
    system TEXT NOT NULL,               -- preset the configuration was built from
    json TEXT NOT NULL CHECK (json_valid(json)),  -- canonical: every key, base units, sorted
    cu_count INTEGER GENERATED ALWAYS AS (json_extract(json, '$.gpu.cu_count')) STORED,
    gpu_clock INTEGER GENERATED ALWAYS AS (json_extract(json, '$.gpu.clock')) STORED,
    warp_size INTEGER GENERATED ALWAYS AS (json_extract(json, '$.gpu.warp_size')) STORED,
    l1_size INTEGER GENERATED ALWAYS AS (json_extract(json, '$.l1.size')) STORED,
    l1_line_size INTEGER GENERATED ALWAYS AS (json_extract(json, '$.l1.line_size')) STORED,
    l2_size INTEGER GENERATED ALWAYS AS (json_extract(json, '$.l2.size')) STORED,
    l3_size INTEGER GENERATED ALWAYS AS (json_extract(json, '$.l3.size')) STORED,
    dram_channels INTEGER GENERATED ALWAYS AS (json_extract(json, '$.dram.channels')) STORED,
    dram_clock INTEGER GENERATED ALWAYS AS (json_extract(json, '$.dram.clock')) STORED
) WITHOUT ROWID;

CREATE TABLE sweeps (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    spec TEXT NOT NULL CHECK (json_valid(spec)),  -- the sweep definition as given
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    UNIQUE (name, spec)                 -- shards of one sweep share one row after a merge
);

CREATE TABLE sweep_points (
    id INTEGER PRIMARY KEY,
    sweep_id INTEGER NOT NULL REFERENCES sweeps(id) ON DELETE CASCADE,
    point_index INTEGER NOT NULL,       -- position in the sweep's enumeration, stable across shards
    params TEXT NOT NULL CHECK (json_valid(params)),  -- {"l1.size": 32768, ...}: the varied keys
    UNIQUE (sweep_id, point_index)
);

CREATE TABLE runs (
    id INTEGER PRIMARY KEY,
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    tool_version TEXT NOT NULL,
    git_revision TEXT NOT NULL,
    system TEXT NOT NULL,
    config_hash TEXT NOT NULL REFERENCES configs(hash),
    mechanism TEXT NOT NULL,
    workload TEXT NOT NULL,
    workload_params TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(workload_params)),
    mode TEXT NOT NULL CHECK (mode IN ('functional', 'detailed', 'sampled', 'model')),
    seed INTEGER NOT NULL DEFAULT 0,
    jitter INTEGER,                     -- timing-perturbation seed; NULL when not perturbed
    status TEXT NOT NULL CHECK (status IN ('ok', 'check_failed', 'error')),
    check_detail TEXT NOT NULL DEFAULT '',
    cycles REAL,                        -- total simulated GPU cycles; NULL if the run did not finish
    wall_seconds REAL NOT NULL DEFAULT 0,
    sweep_point_id INTEGER REFERENCES sweep_points(id)
);

CREATE TABLE kernels (
    run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    kernel_index INTEGER NOT NULL,      -- launch order within the run
    name TEXT NOT NULL,
    grid TEXT NOT NULL,                 -- "[x,y,z]" CTAs
    block TEXT NOT NULL,                -- "[x,y,z]" threads
    warp_instructions INTEGER NOT NULL,
    cycles REAL NOT NULL,
    PRIMARY KEY (run_id, kernel_index)
) WITHOUT ROWID;

CREATE TABLE metrics (
    run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    kernel_index INTEGER,               -- NULL: the whole run
    name TEXT NOT NULL,                 -- dotted, e.g. "l1.hits", "dram.reads", "traffic.l1_l2.bytes"
    value REAL NOT NULL,
    unit TEXT NOT NULL DEFAULT ''
);

-- GSI stall breakdown: every CU cycle falls in exactly one category, so the rows of one CU sum
-- to the run's cycles; rows with cu NULL hold the mean over CUs and sum to cycles as well.
CREATE TABLE stalls (
    run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    cu INTEGER,
    category TEXT NOT NULL,             -- NO_STALL, IDLE, SYNC, MEM_DATA, MEM_STRUCT, COMP_DATA, ...
    subcategory TEXT NOT NULL DEFAULT '',  -- e.g. L2, MAIN_MEMORY, MSHR_FULL; '' when none
    cycles REAL NOT NULL
);

-- Workload profiles gathered by a functional pass: the analytical models' input.
CREATE TABLE profiles (
    id INTEGER PRIMARY KEY,
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    workload TEXT NOT NULL,
    workload_params TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(workload_params)),
    system TEXT NOT NULL,
    config_hash TEXT REFERENCES configs(hash),
    run_id INTEGER REFERENCES runs(id) ON DELETE SET NULL,
    profile TEXT NOT NULL CHECK (json_valid(profile))
);

-- Fits of a mechanism's analytical model against detailed sample windows.
CREATE TABLE calibrations (
    id INTEGER PRIMARY KEY,
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    mechanism TEXT NOT NULL,
    system TEXT NOT NULL,
    params TEXT NOT NULL CHECK (json_valid(params)),          -- {"name": value, ...}
    covariance TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(covariance)),  -- row-major matrix
    residuals TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(residuals)),
    r2 REAL,
    sample_count INTEGER NOT NULL DEFAULT 0
);

-- Held-out comparisons of a calibrated model against the detailed simulator.
CREATE TABLE validations (
    id INTEGER PRIMARY KEY,
    calibration_id INTEGER NOT NULL REFERENCES calibrations(id) ON DELETE CASCADE,
    workload TEXT NOT NULL,
    point_config TEXT NOT NULL CHECK (json_valid(point_config)),  -- the keys that differ from the preset
    detailed_run_id INTEGER REFERENCES runs(id) ON DELETE SET NULL,
    model_run_id INTEGER REFERENCES runs(id) ON DELETE SET NULL,
    detailed_cycles REAL NOT NULL,
    model_cycles REAL NOT NULL,
    relative_error REAL GENERATED ALWAYS AS ((model_cycles - detailed_cycles) / detailed_cycles) STORED,
    stall_fraction_error REAL           -- largest |model - detailed| stall fraction over categories
);

-- Indexes shaped after the canned queries in queries/.
CREATE INDEX runs_by_point ON runs (workload, system, workload_params, config_hash, mode, mechanism, status, cycles);
CREATE INDEX runs_by_config ON runs (config_hash);
CREATE INDEX runs_by_sweep_point ON runs (sweep_point_id, status, cycles) WHERE sweep_point_id IS NOT NULL;
CREATE INDEX metrics_by_run ON metrics (run_id, name);
CREATE INDEX stalls_by_run ON stalls (run_id, cu);
CREATE INDEX profiles_by_workload ON profiles (workload, system);
CREATE INDEX validations_by_calibration ON validations (calibration_id);

-- One row per configuration key of each run: SELECT run_id FROM run_config WHERE key = 'l1.size' AND value = 32768.
CREATE VIEW run_config AS
SELECT r.id AS run_id, substr(t.fullkey, 3) AS key, t.atom AS value
FROM runs r JOIN configs c ON c.hash = r.config_hash, json_tree(c.json) t
WHERE t.type NOT IN ('object', 'array');

-- Runs with their configuration JSON and its most used fields.
CREATE VIEW runs_flat AS
SELECT r.*, c.json AS config_json, c.cu_count, c.gpu_clock, c.warp_size, c.l1_size, c.l1_line_size,
       c.l2_size, c.l3_size, c.dram_channels, c.dram_clock
FROM runs r JOIN configs c ON c.hash = r.config_hash;
