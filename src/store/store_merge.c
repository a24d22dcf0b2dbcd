/* store_merge.c — merging shard databases (e.g. the --shard K/N parts of a sweep) into one.
 *
 * Each input is attached and copied in one transaction: configurations are shared by hash,
 * sweeps are matched by (name, spec) and their points by index, and the input's run,
 * profile and calibration ids are shifted past the output's current maximum so that every
 * reference between rows survives. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "store/store_internal.h"

static const char merge_sql[] =
    "CREATE TEMP TABLE merge_offsets AS SELECT"
    " (SELECT coalesce(max(id), 0) FROM main.runs) AS runs,"
    " (SELECT coalesce(max(id), 0) FROM main.profiles) AS profiles,"
    " (SELECT coalesce(max(id), 0) FROM main.calibrations) AS calibrations;"
    "INSERT OR IGNORE INTO main.configs (hash, system, json) SELECT hash, system, json FROM shard.configs;"
    "INSERT OR IGNORE INTO main.sweeps (name, spec, created_at) SELECT name, spec, created_at FROM shard.sweeps;"
    "INSERT OR IGNORE INTO main.sweep_points (sweep_id, point_index, params)"
    " SELECT ms.id, p.point_index, p.params FROM shard.sweep_points p"
    " JOIN shard.sweeps s ON s.id = p.sweep_id JOIN main.sweeps ms ON ms.name = s.name AND ms.spec = s.spec;"
    "CREATE TEMP TABLE merge_points AS SELECT p.id AS old_id, mp.id AS new_id FROM shard.sweep_points p"
    " JOIN shard.sweeps s ON s.id = p.sweep_id JOIN main.sweeps ms ON ms.name = s.name AND ms.spec = s.spec"
    " JOIN main.sweep_points mp ON mp.sweep_id = ms.id AND mp.point_index = p.point_index;"
    "INSERT INTO main.runs (id, created_at, tool_version, git_revision, system, config_hash, mechanism, workload,"
    " workload_params, mode, seed, jitter, status, check_detail, cycles, wall_seconds, sweep_point_id)"
    " SELECT r.id + o.runs, r.created_at, r.tool_version, r.git_revision, r.system, r.config_hash, r.mechanism,"
    " r.workload, r.workload_params, r.mode, r.seed, r.jitter, r.status, r.check_detail, r.cycles, r.wall_seconds,"
    " m.new_id FROM shard.runs r CROSS JOIN temp.merge_offsets o LEFT JOIN temp.merge_points m ON m.old_id = r.sweep_point_id"
    " ORDER BY r.id;"
    "INSERT INTO main.kernels (run_id, kernel_index, name, grid, block, warp_instructions, cycles)"
    " SELECT k.run_id + o.runs, k.kernel_index, k.name, k.grid, k.block, k.warp_instructions, k.cycles"
    " FROM shard.kernels k, temp.merge_offsets o;"
    "INSERT INTO main.metrics (run_id, kernel_index, name, value, unit)"
    " SELECT m.run_id + o.runs, m.kernel_index, m.name, m.value, m.unit FROM shard.metrics m, temp.merge_offsets o;"
    "INSERT INTO main.stalls (run_id, cu, category, subcategory, cycles)"
    " SELECT s.run_id + o.runs, s.cu, s.category, s.subcategory, s.cycles FROM shard.stalls s, temp.merge_offsets o;"
    "INSERT INTO main.profiles (id, created_at, workload, workload_params, system, config_hash, run_id, profile)"
    " SELECT p.id + o.profiles, p.created_at, p.workload, p.workload_params, p.system, p.config_hash,"
    " p.run_id + o.runs, p.profile FROM shard.profiles p, temp.merge_offsets o;"
    "INSERT INTO main.calibrations (id, created_at, mechanism, system, params, covariance, residuals, r2, sample_count)"
    " SELECT c.id + o.calibrations, c.created_at, c.mechanism, c.system, c.params, c.covariance, c.residuals, c.r2,"
    " c.sample_count FROM shard.calibrations c, temp.merge_offsets o;"
    "INSERT INTO main.validations (calibration_id, workload, point_config, detailed_run_id, model_run_id,"
    " detailed_cycles, model_cycles, stall_fraction_error)"
    " SELECT v.calibration_id + o.calibrations, v.workload, v.point_config, v.detailed_run_id + o.runs,"
    " v.model_run_id + o.runs, v.detailed_cycles, v.model_cycles, v.stall_fraction_error"
    " FROM shard.validations v, temp.merge_offsets o;"
    "DROP TABLE temp.merge_offsets;"
    "DROP TABLE temp.merge_points;";

/* Whether two paths name the same existing file. */
static int same_file(const char *a, const char *b)
{
    char real_a[PATH_MAX], real_b[PATH_MAX];
    return realpath(a, real_a) && realpath(b, real_b) && !strcmp(real_a, real_b);
}

static int merge_one(sc_store *out, const char *in_path, sc_error *error)
{
    if (same_file(out->path, in_path))
        return sc_fail(error, "%s: cannot merge a database into itself", in_path);
    sc_store *input = sc_store_open_existing(in_path, error); /* validates it, brings its schema up to date */
    if (!input)
        return -1;
    sc_store_close(input);
    const sc_query_param path[] = {{"path", in_path}};
    if (sc_store_query(out, "ATTACH DATABASE :path AS shard", path, 1, NULL, NULL, error))
        return -1;
    int status = sc_store_exec(out, "BEGIN IMMEDIATE", error);
    if (!status && (status = sc_store_exec(out, merge_sql, error)) == 0)
        status = sc_store_exec(out, "COMMIT", error);
    if (status) {
        sc_store_rollback(out);
        sc_fail_prefix(error, "merging %s", in_path);
    }
    sqlite3_exec(out->db, "DETACH DATABASE shard", NULL, NULL, NULL);
    return status;
}

int sc_store_merge(const char *out_path, const char *const *in_paths, int in_count, sc_error *error)
{
    sc_store *out = sc_store_open(out_path, error);
    if (!out)
        return -1;
    int status = 0;
    for (int i = 0; i < in_count && !status; i++)
        status = merge_one(out, in_paths[i], error);
    sc_store_close(out);
    return status;
}
